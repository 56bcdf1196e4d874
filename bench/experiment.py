#!/usr/bin/env python3
"""corvus against Fast Downward as a Downward Lab experiment.

    python3 bench/experiment.py --smoke --out /tmp/smoke            # 2 problems x 2 configs, a few minutes
    python3 bench/experiment.py --out bench/lab/full                # every config on ../shared/ipc
    python3 bench/experiment.py --suite DIR --domains blocks,gripper --problems 5 --configs corvus-lmcut,fd-lmcut

Without step names every step runs (build, run, validate, parse, fetch,
reports); Lab's own step names select steps (`... --out DIR 4 5 6` parses
again and redraws the reports). `--slurm PARTITION` submits the runs to a
Slurm cluster instead of running them here. See bench/README.md.

Lab, matplotlib and Fast Downward (`up-fast-downward`) come from PyPI: when
this Python lacks them the script installs them into bench/.venv and
re-runs itself there.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import venv
from dataclasses import dataclass
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
REPO = BENCH_DIR.parent
VENV = BENCH_DIR / ".venv"
# Pinned so that experiments months apart compare the same reference planner
# and parse the same way.
PACKAGES = ["lab==8.10", "up-fast-downward==1.0.0", "matplotlib"]
# Options that reach Slurm's step jobs, which run this script with a step name only.
ARGS_VARIABLE = "CORVUS_EXPERIMENT_ARGS"


def ensure_packages() -> None:
    """Re-runs this script in bench/.venv (made on first use) unless Lab and
    Fast Downward are importable here."""
    import importlib.util

    # Found, not imported: up_fast_downward's __init__ needs Unified Planning,
    # which the experiment does not.
    if all(importlib.util.find_spec(m) for m in ["lab", "downward", "matplotlib", "up_fast_downward"]):
        return
    python = VENV / "bin" / "python"
    if Path(sys.executable).resolve() == python.resolve():
        sys.exit(f"bench/.venv lacks one of {PACKAGES}: remove bench/.venv and try again")
    if not python.exists():
        print(f"setting up {VENV} with {' '.join(PACKAGES)}", file=sys.stderr)
        venv.create(VENV, with_pip=True)
    subprocess.run([str(python), "-m", "pip", "install", "-q", *PACKAGES], check=True)
    os.execv(str(python), [str(python), __file__, *sys.argv[1:]])


@dataclass(frozen=True)
class Config:
    """One algorithm of the experiment: a corvus `solve` configuration or a
    Fast Downward one (driver options before the files, search options after)."""

    name: str
    planner: str
    before: tuple[str, ...] = ()
    after: tuple[str, ...] = ()
    anytime: bool = False


CONFIGS = [
    Config("corvus-lama-first", "corvus", ("--alias", "lama-first")),
    Config("fd-lama-first", "fd", ("--alias", "lama-first")),
    Config("corvus-lmcut", "corvus", ("--alias", "seq-opt-lmcut")),
    Config("fd-lmcut", "fd", (), ("--search", "astar(lmcut())")),
    Config("corvus-pdb", "corvus", ("--alias", "seq-opt-pdb")),
    Config("fd-ipdb", "fd", (), ("--search", "astar(ipdb())")),
    # Anytime: every cheaper plan goes to sas_plan.N; the last one counts.
    Config("corvus-lama", "corvus", ("--alias", "lama"), anytime=True),
    Config("fd-lama", "fd", ("--alias", "lama"), anytime=True),
]
# The scatter plots: corvus (x) against Fast Downward (y).
PAIRS = [("corvus-lama-first", "fd-lama-first"), ("corvus-lmcut", "fd-lmcut"), ("corvus-pdb", "fd-ipdb"),
         ("corvus-lama", "fd-lama")]
# planner_time: corvus's own total time (`total_time_s`) and Fast Downward's
# "Planner time" (translator and search). Lab's wall-clock time is in the
# table too, but it polls the process once a second. Plots draw times below
# 1 ms at 1 ms, and their axes begin a power of ten below the smallest value,
# so that a solved task is never drawn on the border, where Lab puts the
# tasks one planner did not solve.
SCATTER_ATTRIBUTES = ["planner_time", "expansions"]
# Anytime runs use all their time: their plots compare the final costs.
ANYTIME_SCATTER_ATTRIBUTES = ["cost"]
TIME_FLOOR = 0.001
# Plot titles, with units.
TITLES = {"planner_time": "planner time (s)", "expansions": "expansions (states)", "cost": "plan cost"}
TABLE_ATTRIBUTES = [
    "coverage", "error", "valid", "cost", "plan_length", "expansions", "evaluations",
    "planner_wall_clock_time", "planner_time", "search_time", "memory", "unsolvable", "validate_error",
]
SMOKE = dict(suite=REPO / "problems" / "ipc", domains="blocks", problems=2,
             configs="corvus-lama-first,fd-lama-first", time_limit=60, memory_limit=2048)


def default_suite() -> Path:
    shared = os.environ.get("CORVUS_SHARED")
    for candidate in ([Path(shared) / "ipc"] if shared else []) + [REPO.parent / "shared" / "ipc"]:
        if candidate.is_dir():
            return candidate
    return REPO / "problems" / "ipc"


def natural_key(text: str) -> list:
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", text)]


def spread(problems: list, n: int) -> list:
    """`n` problems spread evenly over the sorted list, the first and the
    last among them (the easy and the hard end of an IPC domain)."""
    if n >= len(problems):
        return problems
    if n == 1:
        return problems[:1]
    return [problems[round(i * (len(problems) - 1) / (n - 1))] for i in range(n)]


def tasks(suite: Path, domains: list[str] | None, first_n: int | None,
          spread_n: int | None = None) -> list[tuple[str, Path, Path]]:
    """`(domain name, domain file, problem file)` for each domain folder of
    the suite (one `domain.pddl` and problem files beside it)."""
    found = []
    folders = sorted(d for d in suite.iterdir() if (d / "domain.pddl").is_file())
    if domains:
        missing = set(domains) - {d.name for d in folders}
        if missing:
            sys.exit(f"no domain folder with a domain.pddl in {suite}: {', '.join(sorted(missing))}")
        folders = [d for d in folders if d.name in domains]
    for folder in folders:
        problems = sorted(
            (p for p in folder.glob("*.pddl") if "domain" not in p.name),
            key=lambda p: natural_key(p.name),
        )
        chosen = spread(problems, spread_n) if spread_n else problems[:first_n]
        for problem in chosen:
            found.append((folder.name, folder / "domain.pddl", problem))
    return found


def fd_driver() -> Path:
    """The Fast Downward driver script that the up-fast-downward package ships."""
    import importlib.util

    [package] = importlib.util.find_spec("up_fast_downward").submodule_search_locations
    return Path(package) / "downward" / "fast-downward.py"


# --- Parsing (runs in each run's directory) -----------------------------------

CORVUS_ERRORS = {
    "solved": "success", "unsolvable": "unsolvable", "incomplete": "incomplete",
    "out-of-time": "timeout", "out-of-memory": "out-of-memory", "interrupted": "interrupted",
}
# Fast Downward's exit codes (its documentation's table).
FD_ERRORS = {
    0: "success", 1: "success", 2: "success", 3: "success", 10: "unsolvable", 11: "unsolvable",
    12: "incomplete", 20: "out-of-memory", 21: "timeout", 22: "out-of-memory", 23: "timeout",
    24: "out-of-memory", 34: "unsupported",
}


def parse_driver_log(content: str, props) -> None:
    """Lab's driver log: the planner's exit code and wall-clock time, and
    which planner ran (from the run's static properties)."""
    planner = json.loads(Path("static-properties").read_text())["planner"]
    code = re.search(r"planner exit code: (-?\d+)", content)
    if code is None:
        props.add_unexplained_error("the planner did not run")
        return
    props["planner_exit_code"] = int(code.group(1))
    wall = re.search(r"planner wall-clock time: ([\d.]+)s", content)
    if wall:
        props["planner_wall_clock_time"] = float(wall.group(1))
    if planner == "corvus":
        parse_corvus_stats(props)
    else:
        parse_fd_log(props)
    props["coverage"] = int(props.get("error") == "success")
    props["unsolvable"] = int(props.get("error") == "unsolvable")
    if Path("sas_plan").exists() or list(Path(".").glob("sas_plan.*")):
        # corvus validate's verdict; none when it refuses the domain itself
        # (an ADL domain that FD solved), which validate.err then says.
        log = Path("run.log").read_text() if Path("run.log").exists() else ""
        verdict = re.search(r"^plan (valid|invalid): (.*)$", log, re.MULTILINE)
        if verdict:
            props["valid"] = int(verdict.group(1) == "valid")
            if not props["valid"]:
                props.add_unexplained_error(f"corvus validate rejects the plan: {verdict.group(2)}")
        else:
            props["validate_error"] = last_lines("validate.err", 1)
    # Every run has the attribute (empty: nothing refused), so that the
    # table's column exists even when corvus refused no domain.
    props.setdefault("validate_error", "")


def git_revision() -> str:
    """The checkout's commit (with `+` when it has uncommitted changes)."""
    try:
        commit = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"],
                                capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(REPO), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "?"
    return commit + ("+" if dirty else "")


def package_version(name: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"{name} {version(name)}"
    except PackageNotFoundError:
        return "?"


def last_lines(file: str, n: int) -> str:
    path = Path(file)
    return "\n".join(path.read_text().splitlines()[-n:]) if path.exists() else ""


def parse_corvus_stats(props) -> None:
    """corvus's `--stats-json` file."""
    try:
        stats = json.loads(Path("stats.json").read_text())
    except (OSError, ValueError):
        props["error"] = "killed" if props["planner_exit_code"] < 0 else "no-statistics"
        props.add_unexplained_error(
            f"no stats.json (exit code {props['planner_exit_code']}): {last_lines('planner.err', 5)}"
        )
        return
    if stats["status"] == "error":
        props["error"] = {31: "input-error", 34: "unsupported"}.get(stats["exit_code"], "crash")
        if props["error"] == "crash":
            props.add_unexplained_error(stats.get("error", "error"))
        return
    props["error"] = CORVUS_ERRORS[stats["status"]]
    for attribute, field in [
        ("expansions", "expanded"), ("evaluations", "evaluated"), ("generated", "generated"),
        ("dead_ends", "dead_ends"), ("initial_h_value", "initial_h"),
        ("search_time", "search_time_s"), ("planner_time", "total_time_s"),
    ]:
        if stats.get(field) is not None:
            props[attribute] = stats[field]
    props["memory"] = stats["peak_memory_bytes"] // 1024
    if stats["status"] == "solved":
        props["cost"] = stats["plan_cost"]
        props["plan_length"] = stats["plan_length"]


def parse_fd_log(props) -> None:
    """Fast Downward's log (`run.log`) and its exit code."""
    log = Path("run.log").read_text() if Path("run.log").exists() else ""
    code = props["planner_exit_code"]
    props["error"] = FD_ERRORS.get(code, "killed" if code < 0 else f"exit-code-{code}")
    if props["error"].startswith(("killed", "exit-code")):
        props.add_unexplained_error(f"Fast Downward exit code {code}: {last_lines('planner.err', 5)}")
    for attribute, pattern, kind in [
        ("expansions", r"Expanded (\d+) state", int),
        ("evaluations", r"Evaluated (\d+) state", int),
        ("generated", r"Generated (\d+) state", int),
        ("dead_ends", r"Dead ends: (\d+) state", int),
        ("search_time", r"Search time: ([\d.]+)s", float),
        ("planner_time", r"Planner time: ([\d.]+)s", float),
        ("memory", r"Peak memory: (\d+) KB", int),
    ]:
        found = re.findall(pattern, log)
        if found:
            props[attribute] = kind(found[-1])
    costs = re.findall(r"Plan cost: (\d+)", log)
    if costs and props["error"] in ("timeout", "out-of-memory"):
        # An anytime search that found plans is stopped by its limit (exit
        # 23 or 22); its last plan is its answer.
        props["error"] = "success"
    if props["error"] == "success":
        props["cost"] = int(costs[-1])
        props["plan_length"] = int(re.findall(r"Plan length: (\d+) step", log)[-1])


# --- The experiment -------------------------------------------------------------


def build_corvus() -> None:
    """`cargo build --release`. (Lab takes a step's return value as its error.)"""
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=REPO, check=True)


def slurm_environment(partition: str, qos: str | None, memory_per_cpu: str, setup: str):
    from lab.environments import SlurmEnvironment

    class ClusterSlurmEnvironment(SlurmEnvironment):
        """Any Slurm cluster: the partition and QOS come from the command line."""

        DEFAULT_PARTITION = partition
        DEFAULT_QOS = qos or "normal"
        DEFAULT_MEMORY_PER_CPU = memory_per_cpu
        MAX_TASKS = 1000

        @classmethod
        def is_present(cls):
            return True

    return ClusterSlurmEnvironment(setup=setup, extra_options="" if qos else "## (no QOS)")


def main() -> None:
    from downward.reports.absolute import AbsoluteReport
    from downward.reports.scatter import ScatterPlotReport
    from lab.environments import LocalEnvironment
    from lab.experiment import ARGPARSER, Experiment
    from lab.parser import Parser

    # Slurm's step jobs run the script with a step name only: they get the
    # options of the submitting call from the job's environment.
    given = sys.argv[1:]
    saved = json.loads(os.environ[ARGS_VARIABLE]) if ARGS_VARIABLE in os.environ else []
    p = ARGPARSER
    p.description = __doc__.split("\n\n")[0]
    p.epilog = ("Steps: build-corvus, build, start, parse, fetch, absolute.html, "
                "scatter-CORVUS-vs-FD-ATTRIBUTE (one per plot), index. Without step names all of them run.")
    p.add_argument("--smoke", action="store_true", help="a tiny experiment: 2 blocks problems, corvus and FD lama-first")
    p.add_argument("--out", type=Path, default=BENCH_DIR / "lab" / "experiment",
                   help="the experiment goes to OUT/exp, its data to OUT/exp-eval, the reports to OUT/reports")
    p.add_argument("--suite", type=Path, default=None,
                   help="a folder of domain folders (domain.pddl and problems); default ../shared/ipc")
    p.add_argument("--domains", default=None, help="comma-separated domain folders (default: all)")
    p.add_argument("--problems", type=int, default=None, metavar="N", help="the first N problems per domain")
    p.add_argument("--spread", type=int, default=None, metavar="N",
                   help="N problems per domain spread over the sorted list, first and last included")
    p.add_argument("--configs", default=",".join(c.name for c in CONFIGS),
                   help="comma-separated: " + ", ".join(c.name for c in CONFIGS))
    p.add_argument("--time-limit", type=int, default=300, metavar="S", help="seconds per run (default 300)")
    p.add_argument("--memory-limit", type=int, default=3584, metavar="MIB", help="MiB per run (default 3584)")
    p.add_argument("--processes", type=int, default=None, help="parallel local runs (default: all cores)")
    p.add_argument("--corvus", type=Path, default=None, help="a corvus binary (default: cargo build --release)")
    p.add_argument("--slurm", metavar="PARTITION", default=None, help="run on this Slurm partition")
    p.add_argument("--slurm-qos", default=None, help="the Slurm QOS (with --slurm)")
    args = p.parse_args(saved + given)
    if args.smoke:
        for key, value in SMOKE.items():
            if getattr(args, key) == p.get_default(key):
                setattr(args, key, value)
    option_args = [a for a in given if a not in args.steps and a != "--all"]
    # Lab reads the steps from sys.argv; none given means all of them.
    sys.argv[1:1] = saved
    if not args.steps and not args.run_all_steps:
        sys.argv.append("--all")

    configs = [c for name in args.configs.split(",") for c in CONFIGS if c.name == name]
    if len(configs) != len(args.configs.split(",")):
        sys.exit(f"unknown configuration in {args.configs}; known: {', '.join(c.name for c in CONFIGS)}")
    suite = args.suite or default_suite()
    domains = args.domains.split(",") if args.domains else None
    out = args.out.resolve()

    if args.slurm:
        setup = f"export {ARGS_VARIABLE}={shlex.quote(json.dumps(option_args + ['--out', str(out)]))}"
        environment = slurm_environment(args.slurm, args.slurm_qos, f"{args.memory_limit + 512}M", setup)
    else:
        environment = LocalEnvironment(processes=args.processes)
    exp = Experiment(path=str(out / "exp"), environment=environment)

    corvus = args.corvus.resolve() if args.corvus else REPO / "target" / "release" / "corvus"
    driver = fd_driver()
    limit_s, limit_mib = args.time_limit, args.memory_limit
    revision = git_revision()
    fd_version = package_version("up-fast-downward")
    for domain_name, domain_file, problem_file in tasks(suite, domains, args.problems, args.spread):
        for config in configs:
            run = exp.add_run()
            run.add_resource("domain", domain_file, symlink=True)
            run.add_resource("problem", problem_file, symlink=True)
            if config.planner == "corvus":
                command = [str(corvus), "solve", "{domain}", "{problem}", "--plan-file", "sas_plan",
                           "--stats-json", "stats.json", "--time-limit", f"{limit_s}s",
                           "--memory-limit", f"{limit_mib}M", *config.before]
            else:
                command = [sys.executable, str(driver), "--overall-time-limit", f"{limit_s}s",
                           "--overall-memory-limit", f"{limit_mib}M", *config.before,
                           "{domain}", "{problem}", *config.after]
            # Lab counts any stderr output as an error; corvus logs there, and
            # both planners explain refusals there: the parser reads planner.err
            # when the exit code says nothing. Each planner stops itself at its
            # limits (corvus on wall-clock time, FD on CPU time); Lab's, well
            # above them, are the backstop on a busy machine.
            run.add_command("planner", ["/bin/sh", "-c", 'exec "$@" 2> planner.err', "sh", *command],
                            time_limit=limit_s + 30, wall_time_limit=3 * limit_s + 30,
                            memory_limit=limit_mib + 512)
            # The verdict goes to run.log, after the planner's output.
            # An anytime run's plan is its last sas_plan.N.
            validate = ('plan=sas_plan; last=$(ls sas_plan.* 2>/dev/null | sort -t. -k2 -n | tail -n 1); '
                        '[ -n "$last" ] && plan=$last; '
                        'if [ -e "$plan" ]; then exec "$0" validate "$1" "$2" "$plan" 2> validate.err; fi')
            run.add_command("validate", ["/bin/sh", "-c", validate, str(corvus), "{domain}", "{problem}"],
                            time_limit=limit_s)
            run.set_property("algorithm", config.name)
            run.set_property("planner", config.planner)
            # Lab's Info table: what each configuration ran.
            run.set_property("local_revision", revision if config.planner == "corvus" else fd_version)
            run.set_property("global_revision", revision)
            run.set_property("build_options", "cargo build --release" if config.planner == "corvus" else "up-fast-downward wheel")
            run.set_property("driver_options", f"--time-limit {limit_s}s --memory-limit {limit_mib}M")
            run.set_property("component_options", " ".join([*config.before, *config.after]))
            run.set_property("domain", domain_name)
            run.set_property("problem", problem_file.name)
            run.set_property("id", [config.name, domain_name, problem_file.name])

    parser = Parser()
    parser.add_function(parse_driver_log, file="driver.log")
    exp.add_parser(parser)

    if args.corvus is None:
        exp.add_step("build-corvus", build_corvus)
    exp.add_step("build", build_experiment, exp, out)
    exp.add_step("start", exp.start_runs)
    exp.add_step("parse", exp.parse)
    exp.add_fetcher(name="fetch", merge=False)  # a new fetch replaces the old data

    reports = out / "reports"
    names = [c.name for c in configs]
    exp.add_report(
        AbsoluteReport(attributes=TABLE_ATTRIBUTES, filter_algorithm=names),
        outfile=str(reports / "absolute.html"),
    )
    plots = []
    for corvus_name, fd_name in PAIRS:
        if corvus_name not in names or fd_name not in names:
            continue
        anytime = any(c.name == corvus_name and c.anytime for c in CONFIGS)
        for attribute in ANYTIME_SCATTER_ATTRIBUTES if anytime else SCATTER_ATTRIBUTES:
            name = f"{corvus_name}-vs-{fd_name}-{attribute}"
            plots.append((name, attribute))
            report = ScatterPlotReport(
                attributes=[attribute],
                filter_algorithm=[corvus_name, fd_name],
                get_category=lambda run1, run2: run1["domain"],
                filter=for_scatter,
                format="png",
                title=f"{TITLES.get(attribute, attribute)}: {corvus_name} against {fd_name}",
                xlabel=f"{corvus_name}: {TITLES.get(attribute, attribute)}",
                ylabel=f"{fd_name}: {TITLES.get(attribute, attribute)}",
            )
            report.writer = square_scatter_writer()
            exp.add_report(
                report,
                name=f"scatter-{name}",
                outfile=str(reports / f"{name}.png"),
            )
    exp.add_step("index", write_index, reports, plots)
    exp.run_steps()


def square_scatter_writer():
    """Lab's PNG scatter plot with both axes over the same whole powers of
    ten, so that the diagonal shows whatever the data's range."""
    import math

    from downward.reports.scatter_matplotlib import ScatterMatplotlib

    class SquareScatter(ScatterMatplotlib):
        @classmethod
        def _plot(cls, report, axes):
            super()._plot(report, axes)
            values = [v for coords in report.categories.values() for xy in coords for v in xy if v > 0]
            if values:
                # One power of ten below the smallest value: Lab draws the
                # unsolved tasks on the border, solved ones stay off it.
                low = 10 ** (math.floor(math.log10(min(values))) - 1)
                high = max(10 ** math.ceil(math.log10(max(values))), 10 * low)
                axes.set_xlim(low, high)
                axes.set_ylim(low, high)

    return SquareScatter


def for_scatter(run: dict) -> dict:
    """A report filter for the plots: only solved runs have a time and
    expansions (the others go on the border), and times below TIME_FLOOR
    are raised to it."""
    if not run.get("coverage"):
        for attribute in SCATTER_ATTRIBUTES:
            run[attribute] = None
    elif run.get("planner_time") is not None:
        run["planner_time"] = max(run["planner_time"], TIME_FLOOR)
    return run


def build_experiment(exp, out: Path) -> None:
    """Lab's build step, after removing an earlier experiment of the same
    name (Lab would ask on the terminal); only folders Lab made are removed."""
    import shutil

    for folder, marker in [(out / "exp", "static-experiment-properties"), (out / "exp-eval", "properties")]:
        if (folder / marker).exists():
            shutil.rmtree(folder)
    exp.build()


def write_index(reports: Path, plots: list[tuple[str, str]]) -> None:
    """reports/index.html: the absolute table and every scatter plot on one page."""
    figures = "\n".join(
        f'<figure><img src="{name}.png" alt="{name}" width="600"><figcaption>{attribute}: {name}</figcaption></figure>'
        for name, attribute in plots
    )
    reports.mkdir(parents=True, exist_ok=True)
    (reports / "index.html").write_text(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>corvus against Fast Downward</title></head>\n"
        "<body><h1>corvus against Fast Downward</h1>\n"
        '<p><a href="absolute.html">Absolute report</a>: coverage, time, expansions, cost per domain and task.</p>\n'
        f"<h2>Scatter plots (x: corvus, y: Fast Downward)</h2>\n{figures}\n</body></html>\n"
    )
    print(f"reports in {reports}: index.html, absolute.html, {len(plots)} scatter plots")


if __name__ == "__main__":
    ensure_packages()
    main()

#!/usr/bin/env python3
"""Benchmark corvus against Fast Downward (and clingo for the ASP instances).

Standard library only; the reference planners are installed on demand into
bench/.venv from PyPI. See bench/README.md for usage.
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import json
import os
import platform
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
REPO_ROOT = BENCH_DIR.parent
VENV_DIR = BENCH_DIR / ".venv"
RESULTS_DIR = BENCH_DIR / "results"

# Pinned so that two benchmark runs months apart compare the same reference planner.
FD_PACKAGE = "up-fast-downward==1.0.0"
CLINGO_PACKAGE = "clingo==5.8.3"

DOMAINS = [
    "blocks",
    "depot",
    "elevators-sat08-strips",
    "gripper",
    "logistics00",
    "miconic",
    "rovers",
    "satellite",
    "sokoban-sat08-strips",
    "tpp",
]

# Chosen once, by name, so results stay comparable across runs: past the trivial
# first three, still within reach of FD's optimal configs in a minute for most.
HARD_PROBLEMS = {
    "blocks": ["probBLOCKS-6-0", "probBLOCKS-8-0", "probBLOCKS-10-0"],
    "depot": ["p04", "p07", "p10"],
    "elevators-sat08-strips": ["p04", "p05", "p06"],
    "gripper": ["prob04", "prob05", "prob06"],
    "logistics00": ["probLOGISTICS-5-0", "probLOGISTICS-6-0", "probLOGISTICS-8-0"],
    "miconic": ["s5-0", "s7-0", "s9-0"],
    "rovers": ["p04", "p05", "p07"],
    "satellite": ["p04-pfile4", "p05-pfile5", "p06-pfile6"],
    "sokoban-sat08-strips": ["p04", "p05", "p06"],
    "tpp": ["p04", "p05", "p06"],
}


@dataclass(frozen=True)
class Config:
    name: str
    corvus_args: tuple[str, ...]
    fd_args: tuple[str, ...]
    optimal: bool


CONFIGS = [
    Config("gbfs-hff", ("--search", "gbfs", "--heuristic", "hff"), ("--alias", "lama-first"), False),
    Config("astar-hmax", ("--search", "astar", "--heuristic", "hmax"), ("--search", "astar(hmax())"), True),
    Config("astar-lmcut", ("--search", "astar", "--heuristic", "lmcut"), ("--search", "astar(lmcut())"), True),
]

# FD configs for the translated ASP tasks: optimal ones, since a satisficing plan may
# exceed the instance's step bound.
ASP_FD_CONFIGS = [
    ("astar-lmcut", ("--search", "astar(lmcut())")),
    ("astar-ipdb", ("--search", "astar(ipdb())")),
    ("merge-and-shrink", ("--alias", "seq-opt-merge-and-shrink")),
]

CORVUS_EXIT = {
    0: "plan",
    1: "invalid",
    11: "unsolvable",
    12: "incomplete",
    22: "memory",
    23: "time",
    130: "interrupted",
    30: "internal-error",
    31: "input-error",
    34: "unsupported",
}

FD_EXIT = {
    0: "plan",
    1: "plan",  # plan found, then out of memory
    2: "plan",  # plan found, then out of time
    3: "plan",
    10: "unsolvable",
    11: "unsolvable",
    12: "incomplete",
    13: "unsolvable",  # within the bound
    20: "memory",
    21: "time",
    22: "memory",
    23: "time",
    24: "memory+time",
    30: "internal-error",
    31: "input-error",
    32: "internal-error",
    33: "input-error",
    34: "unsupported",
    35: "internal-error",
    36: "input-error",
    37: "unsupported",
}

# Extra wall time granted beyond the planner's own limit before the harness kills it.
KILL_GRACE_S = 15.0


# --------------------------------------------------------------------------- utilities


def natural_key(text: str) -> list:
    """probBLOCKS-4-0 < probBLOCKS-10-0: digit runs compare as numbers."""
    return [int(part) if part.isdigit() else part.lower() for part in re.split(r"(\d+)", text)]


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


@dataclass
class RunOutcome:
    """One process run: exit code, timings and captured output."""

    exit_code: int
    wall_s: float
    cpu_s: float
    peak_rss_kb: int
    stdout: str
    stderr: str
    killed: bool
    plan_written: bool = False


def run_process(cmd: list[str], cwd: Path, kill_after_s: float) -> RunOutcome:
    """Runs cmd in its own process group; kills the group if it outlives kill_after_s.

    Output goes to files rather than pipes so a chatty planner cannot block on a full pipe,
    and wait4 gives the CPU time of the whole tree (FD's driver waits for its components).
    """
    out_path = cwd / ".bench-stdout"
    err_path = cwd / ".bench-stderr"
    killed = threading.Event()
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        start = time.perf_counter()
        try:
            proc = subprocess.Popen(cmd, cwd=cwd, stdout=out, stderr=err, start_new_session=True)
        except OSError as e:
            return RunOutcome(127, 0.0, 0.0, 0, "", f"cannot start {cmd[0]}: {e}", False)

        def kill_group() -> None:
            killed.set()
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

        timer = threading.Timer(kill_after_s, kill_group)
        timer.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            timer.cancel()
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
    stdout = out_path.read_text(errors="replace")
    stderr = err_path.read_text(errors="replace")
    out_path.unlink(missing_ok=True)
    err_path.unlink(missing_ok=True)
    return RunOutcome(
        exit_code=proc.returncode,
        wall_s=wall,
        cpu_s=usage.ru_utime + usage.ru_stime,
        peak_rss_kb=usage.ru_maxrss,
        stdout=stdout,
        stderr=stderr,
        killed=killed.is_set(),
    )


def last_match(pattern: str, text: str) -> re.Match | None:
    found = None
    for found in re.finditer(pattern, text, re.MULTILINE):
        pass
    return found


def float_of(pattern: str, text: str) -> float | None:
    m = last_match(pattern, text)
    return float(m.group(1)) if m else None


def int_of(pattern: str, text: str) -> int | None:
    m = last_match(pattern, text)
    return int(m.group(1)) if m else None


# --------------------------------------------------------------------------- results


@dataclass
class Measurement:
    """A planner on a problem: the median run plus the wall times of all repeats."""

    planner: str
    status: str
    exit_code: int
    wall_s: float
    walls_s: list[float]
    cpu_s: float
    peak_rss_kb: int
    ground_s: float | None = None
    search_s: float | None = None
    expanded: int | None = None
    plan_length: int | None = None
    plan_cost: int | None = None
    plan_valid: bool | None = None
    extra: dict = field(default_factory=dict)

    @property
    def solved(self) -> bool:
        return self.status == "plan"

    @property
    def expansions_per_s(self) -> float | None:
        if self.expanded is None or not self.search_s or self.search_s < 0.001:
            return None
        return self.expanded / self.search_s


def status_of(outcome: RunOutcome, table: dict[int, str]) -> str:
    if outcome.killed:
        return "killed"
    if outcome.exit_code < 0:
        return f"signal{-outcome.exit_code}"
    return table.get(outcome.exit_code, f"exit{outcome.exit_code}")


def measure(run_once, repeat: int, repeat_under_s: float) -> tuple[RunOutcome, list[float]]:
    """Runs once; short runs are repeated so the reported median is less noisy."""
    outcomes = [run_once()]
    if outcomes[0].wall_s < repeat_under_s:
        outcomes += [run_once() for _ in range(repeat - 1)]
    walls = [o.wall_s for o in outcomes]
    median_wall = statistics.median(walls)
    median_run = min(outcomes, key=lambda o: abs(o.wall_s - median_wall))
    return median_run, walls


def parse_corvus(outcome: RunOutcome, walls: list[float]) -> Measurement:
    text = outcome.stderr + "\n" + outcome.stdout
    m = Measurement(
        planner="corvus",
        status=status_of(outcome, CORVUS_EXIT),
        exit_code=outcome.exit_code,
        wall_s=statistics.median(walls),
        walls_s=walls,
        cpu_s=outcome.cpu_s,
        peak_rss_kb=outcome.peak_rss_kb,
    )
    m.ground_s = float_of(r"^grounded:.*?,\s*([0-9.]+)\s*s\s*$", text)
    m.search_s = float_of(r"^Search time:\s*([0-9.]+)\s*s", text)
    m.expanded = int_of(r"^Expanded (\d+) state\(s\)\.", text)
    found = last_match(r"^Solution found: length (\d+), cost (\d+)", text)
    if found:
        m.plan_length, m.plan_cost = int(found.group(1)), int(found.group(2))
    return m


def parse_fd(outcome: RunOutcome, walls: list[float]) -> Measurement:
    text = outcome.stdout + "\n" + outcome.stderr
    status = status_of(outcome, FD_EXIT)
    # Exit 1-3 mean "plan found, then a limit hit", but the driver also exits 1 on a Python
    # error (e.g. a portfolio alias given too little time to start a component).
    if status == "plan" and not outcome.plan_written:
        status = f"error(exit {outcome.exit_code})" if outcome.exit_code else "no-plan-file"
    m = Measurement(
        planner="fd",
        status=status,
        exit_code=outcome.exit_code,
        wall_s=statistics.median(walls),
        walls_s=walls,
        cpu_s=outcome.cpu_s,
        peak_rss_kb=outcome.peak_rss_kb,
    )
    # The translator's closing line carries its wall-clock time: FD's grounding.
    m.ground_s = float_of(r"^Done! \[[0-9.]+s CPU, ([0-9.]+)s wall-clock\]", text)
    m.search_s = float_of(r"\] Search time: ([0-9.]+)s", text)
    m.expanded = int_of(r"\] Expanded (\d+) state\(s\)\.", text)
    m.plan_length = int_of(r"\] Plan length: (\d+) step\(s\)\.", text)
    m.plan_cost = int_of(r"\] Plan cost: (\d+)", text)
    search_total = float_of(r"\] Total time: ([0-9.]+)s", text)
    if search_total is not None:
        m.extra["search_component_s"] = search_total
    return m


# --------------------------------------------------------------------------- planners


class Planners:
    def __init__(self, corvus: Path, fd_python: Path | None, fd_driver: Path | None, args):
        self.corvus = corvus
        self.fd_python = fd_python
        self.fd_driver = fd_driver
        self.time_limit = args.time_limit
        self.memory_limit = args.memory_limit
        self.repeat = args.repeat
        self.repeat_under = args.repeat_under

    def kill_after(self) -> float:
        return self.time_limit + KILL_GRACE_S

    def validate(self, domain: Path, problem: Path, plan: Path) -> bool | None:
        if not plan.is_file():
            return None
        with tempfile.TemporaryDirectory(prefix="corvus-bench-") as tmp:
            o = run_process(
                [str(self.corvus), "validate", str(domain), str(problem), str(plan)], Path(tmp), 300
            )
        return o.exit_code == 0

    def run_corvus(self, domain: Path, problem: Path, config: Config) -> Measurement:
        with tempfile.TemporaryDirectory(prefix="corvus-bench-") as tmp:
            tmp_dir = Path(tmp)
            plan = tmp_dir / "plan"
            cmd = [
                str(self.corvus), "solve", str(domain), str(problem), *config.corvus_args,
                "--time-limit", f"{self.time_limit:g}",
                "--memory-limit", self.memory_limit,
                "--plan-file", str(plan),
            ]

            def once() -> RunOutcome:
                plan.unlink(missing_ok=True)
                outcome = run_process(cmd, tmp_dir, self.kill_after())
                outcome.plan_written = plan.is_file()
                return outcome

            outcome, walls = measure(once, self.repeat, self.repeat_under)
            m = parse_corvus(outcome, walls)
            if m.solved:
                m.plan_valid = self.validate(domain, problem, plan)
        return m

    def run_fd(self, domain: Path, problem: Path, fd_args: tuple[str, ...]) -> Measurement:
        assert self.fd_python and self.fd_driver
        with tempfile.TemporaryDirectory(prefix="corvus-bench-fd-") as tmp:
            tmp_dir = Path(tmp)
            plan = tmp_dir / "sas_plan"
            # FD writes output.sas into its working directory: one private directory per run.
            driver_opts = [
                "--overall-time-limit", f"{self.time_limit:g}s",
                "--overall-memory-limit", self.memory_limit,
                "--plan-file", str(plan),
            ]
            if fd_args[0] == "--alias":
                cmd = [str(self.fd_python), str(self.fd_driver), *driver_opts, *fd_args,
                       str(domain), str(problem)]
            else:
                cmd = [str(self.fd_python), str(self.fd_driver), *driver_opts,
                       str(domain), str(problem), *fd_args]

            def once() -> RunOutcome:
                plan.unlink(missing_ok=True)
                outcome = run_process(cmd, tmp_dir, self.kill_after())
                outcome.plan_written = plan.is_file()
                return outcome

            outcome, walls = measure(once, self.repeat, self.repeat_under)
            m = parse_fd(outcome, walls)
            if m.solved:
                m.plan_valid = self.validate(domain, problem, plan)
        return m


# --------------------------------------------------------------------------- set-up


def build_corvus() -> Path:
    log("building corvus (cargo build --release) ...")
    proc = subprocess.run(
        ["cargo", "build", "--release", "--bin", "corvus", "--message-format=json-render-diagnostics"],
        cwd=REPO_ROOT, stdout=subprocess.PIPE, text=True,
    )
    if proc.returncode != 0:
        sys.exit("cargo build --release failed")
    for line in proc.stdout.splitlines():
        try:
            msg = json.loads(line)
        except json.JSONDecodeError:
            continue
        if msg.get("reason") == "compiler-artifact" and msg.get("executable") and \
                msg.get("target", {}).get("name") == "corvus":
            return Path(msg["executable"])
    return default_corvus()


def default_corvus() -> Path:
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO_ROOT / "target"))
    return target / "release" / "corvus"


def venv_python() -> Path:
    return VENV_DIR / "bin" / "python"


def ensure_package(module: str, package: str) -> None:
    """Creates bench/.venv and pip-installs the package there unless it imports already."""
    if not venv_python().exists():
        log(f"creating {VENV_DIR}")
        subprocess.run([sys.executable, "-m", "venv", str(VENV_DIR)], check=True)
    # find_spec locates without importing: up_fast_downward's __init__ needs unified_planning,
    # which the benchmark does not use.
    probe = subprocess.run(
        [str(venv_python()), "-c",
         f"import importlib.util, sys; sys.exit(importlib.util.find_spec({module!r}) is None)"],
        capture_output=True,
    )
    if probe.returncode == 0:
        return
    log(f"installing {package} into {VENV_DIR} ...")
    subprocess.run([str(venv_python()), "-m", "pip", "install", "-q", package], check=True)


def fd_driver_path() -> Path:
    proc = subprocess.run(
        [str(venv_python()), "-c",
         "import importlib.util; "
         "print(importlib.util.find_spec('up_fast_downward').submodule_search_locations[0])"],
        capture_output=True, text=True, check=True,
    )
    driver = Path(proc.stdout.strip()) / "downward" / "fast-downward.py"
    if not driver.is_file():
        sys.exit(f"Fast Downward driver not found at {driver}")
    return driver


def git_commit() -> str:
    proc = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO_ROOT,
                          capture_output=True, text=True)
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=REPO_ROOT,
                           capture_output=True, text=True).stdout.strip()
    return proc.stdout.strip() + ("-dirty" if dirty else "") if proc.returncode == 0 else "unknown"


def select_problems(ipc_root: Path, domains: list[str], first_n: int, hard: bool):
    """Yields (domain, domain.pddl, problem.pddl, is_hard) in a fixed order."""
    selected = []
    for domain in domains:
        directory = ipc_root / domain
        domain_file = directory / "domain.pddl"
        if not domain_file.is_file():
            log(f"warning: {domain_file} missing, domain skipped")
            continue
        problems = sorted(
            (p for p in directory.glob("*.pddl") if p.name != "domain.pddl"),
            key=lambda p: natural_key(p.stem),
        )
        chosen = problems[:first_n]
        for p in chosen:
            selected.append((domain, domain_file, p, False))
        if hard:
            for name in HARD_PROBLEMS.get(domain, []):
                p = directory / f"{name}.pddl"
                if p in chosen:
                    continue
                if p.is_file():
                    selected.append((domain, domain_file, p, True))
                else:
                    log(f"note: hard problem {p} not present, skipped")
    return selected


# --------------------------------------------------------------------------- formatting


def fmt_s(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:.3f}" if value < 10 else f"{value:.1f}"


def fmt_int(value) -> str:
    return "-" if value is None else str(value)


def fmt_rate(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value / 1000:.1f}k" if value >= 1000 else f"{value:.0f}"


def fmt_ratio(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def plan_cell(m: Measurement | None) -> str:
    if m is None:
        return "n/a"
    if not m.solved:
        return m.status
    mark = "" if m.plan_valid in (True, None) else "!INVALID"
    return f"{fmt_int(m.plan_length)}{mark}"


def total_cell(m: Measurement | None) -> str:
    if m is None:
        return "n/a"
    return fmt_s(m.wall_s) if m.solved else f"({fmt_s(m.wall_s)})"


class Table:
    def __init__(self, columns: list[tuple[str, int, str]]):
        # (header, width, alignment '<' or '>')
        self.columns = columns

    def line(self, cells: list[str]) -> str:
        parts = []
        for (_, width, align), cell in zip(self.columns, cells):
            parts.append(f"{cell:{align}{width}}")
        return "  ".join(parts).rstrip()

    def header(self) -> str:
        head = self.line([c[0] for c in self.columns])
        return head + "\n" + "-" * len(head)


IPC_TABLE = Table([
    ("problem", 34, "<"), ("config", 11, "<"),
    ("cv ground", 9, ">"), ("cv search", 9, ">"), ("cv total", 9, ">"), ("cv exp", 9, ">"),
    ("cv exp/s", 8, ">"), ("cv len", 10, ">"),
    ("fd search", 9, ">"), ("fd total", 9, ">"), ("fd exp", 9, ">"), ("fd len", 10, ">"), ("cv/fd", 6, ">"),
])


def ratio(corvus: Measurement, fd: Measurement | None) -> float | None:
    if fd is None or not corvus.solved or not fd.solved or fd.wall_s <= 0:
        return None
    return corvus.wall_s / fd.wall_s


def ipc_row_cells(label: str, config: Config, cv: Measurement, fd: Measurement | None) -> list[str]:
    cost_note = ""
    if config.optimal and fd is not None and cv.solved and fd.solved and cv.plan_cost != fd.plan_cost:
        cost_note = f" COST {cv.plan_cost}!={fd.plan_cost}"
    return [
        label, config.name,
        fmt_s(cv.ground_s), fmt_s(cv.search_s), total_cell(cv), fmt_int(cv.expanded),
        fmt_rate(cv.expansions_per_s), plan_cell(cv),
        fmt_s(fd.search_s) if fd else "n/a", total_cell(fd),
        fmt_int(fd.expanded) if fd else "n/a", plan_cell(fd),
        fmt_ratio(ratio(cv, fd)) + cost_note,
    ]


# --------------------------------------------------------------------------- benchmark


def run_ipc(planners: Planners, problems, configs: list[Config], with_fd: bool, records: list):
    print("\n== IPC problems (times in s; (t) = wall time of an unsolved run; cv = corvus, fd = Fast Downward)")
    print(IPC_TABLE.header(), flush=True)
    for domain, domain_file, problem, is_hard in problems:
        label = f"{domain}/{problem.stem}" + (" *" if is_hard else "")
        for config in configs:
            cv = planners.run_corvus(domain_file, problem, config)
            fd = planners.run_fd(domain_file, problem, config.fd_args) if with_fd else None
            print(IPC_TABLE.line(ipc_row_cells(label, config, cv, fd)), flush=True)
            label = ""
            records.append({
                "kind": "ipc", "domain": domain, "problem": problem.stem, "hard": is_hard,
                "config": config.name, "corvus": asdict(cv), "fd": asdict(fd) if fd else None,
                "ratio_total": ratio(cv, fd),
            })
        print(flush=True)


def summarize_ipc(records: list, configs: list[Config]) -> list[str]:
    lines = ["== Summary (IPC)",
             f"{'config':<12}  {'problems':>8}  {'cv solved':>9}  {'fd solved':>9}  "
             f"{'both':>5}  {'median cv/fd':>12}  {'geomean cv/fd':>13}  {'cost mismatches':>15}"]
    for config in configs:
        rows = [r for r in records if r["kind"] == "ipc" and r["config"] == config.name]
        if not rows:
            continue
        cv_solved = sum(1 for r in rows if r["corvus"]["status"] == "plan")
        fd_solved = sum(1 for r in rows if r["fd"] and r["fd"]["status"] == "plan")
        ratios = [r["ratio_total"] for r in rows if r["ratio_total"] is not None]
        mismatches = sum(
            1 for r in rows
            if config.optimal and r["ratio_total"] is not None
            and r["corvus"]["plan_cost"] != r["fd"]["plan_cost"]
        )
        median = statistics.median(ratios) if ratios else None
        geomean = statistics.geometric_mean(ratios) if ratios else None
        lines.append(
            f"{config.name:<12}  {len(rows):>8}  {cv_solved:>9}  {fd_solved:>9}  {len(ratios):>5}  "
            f"{fmt_ratio(median):>12}  {fmt_ratio(geomean):>13}  "
            f"{(str(mismatches) if config.optimal else '-'):>15}"
        )
    invalid = [
        f"{r['domain']}/{r['problem']} {r['config']} {side}"
        for r in records if r["kind"] == "ipc"
        for side in ("corvus", "fd")
        if r[side] and r[side]["plan_valid"] is False
    ]
    if invalid:
        lines.append("INVALID PLANS: " + ", ".join(invalid))
    return lines


# --------------------------------------------------------------------------- ASP


def asp_bound(instance: Path) -> int | None:
    """Hanoi states its plan length as steps(K); Sokoban lists its steps as step(1..N)."""
    text = instance.read_text(errors="replace")
    m = re.search(r"\bsteps\((\d+)\)", text)
    if m:
        return int(m.group(1))
    steps = [int(s) for s in re.findall(r"\bstep\((\d+)\)", text)]
    return max(steps) if steps else None


def corvus_has_asp(corvus: Path) -> tuple[bool, bool]:
    """(asp subcommand exists, `asp solve` accepts --time-limit)."""
    with tempfile.TemporaryDirectory(prefix="corvus-bench-") as tmp:
        o = run_process([str(corvus), "asp", "solve", "--help"], Path(tmp), 30)
    if o.exit_code != 0:
        return False, False
    return True, "--time-limit" in (o.stdout + o.stderr)


def run_clingo(planners: Planners, instance: Path, encoding: Path) -> Measurement:
    with tempfile.TemporaryDirectory(prefix="corvus-bench-clingo-") as tmp:
        cmd = [str(venv_python()), "-m", "clingo", str(instance), str(encoding),
               f"--time-limit={int(planners.time_limit + 0.999)}", "--quiet=2"]

        def once() -> RunOutcome:
            return run_process(cmd, Path(tmp), planners.kill_after())

        outcome, walls = measure(once, planners.repeat, planners.repeat_under)
    text = outcome.stdout
    if outcome.killed:
        status = "killed"
    elif re.search(r"^UNSATISFIABLE", text, re.MULTILINE):
        status = "UNSAT"
    elif re.search(r"^SATISFIABLE", text, re.MULTILINE):
        status = "SAT"
    elif re.search(r"^UNKNOWN", text, re.MULTILINE):
        status = "time"
    else:
        status = f"exit{outcome.exit_code}"
    m = Measurement("clingo", status, outcome.exit_code, statistics.median(walls), walls,
                    outcome.cpu_s, outcome.peak_rss_kb)
    m.search_s = float_of(r"^Time\s*:\s*([0-9.]+)s", text)
    return m


def run_asp(planners: Planners, asp_root: Path, families: list[str] | None, with_fd: bool,
            records: list, shared_asp: Path | None = None) -> None:
    """One line per instance of every family folder under asp_root. A family folder without
    an encoding.asp uses the one of the same family under shared_asp."""
    has_asp, asp_time_limit = corvus_has_asp(planners.corvus)
    if not has_asp:
        log("note: `corvus asp` is not available in this build: corvus columns are n/a")
    columns = [("instance", 32, "<"), ("bound", 5, ">"), ("cv total", 9, ">"), ("cv exp", 9, ">"),
               ("cv len", 10, ">"), ("witness", 7, ">")]
    if with_fd:
        for name, _ in ASP_FD_CONFIGS:
            columns += [(f"fd {name} s", len(name) + 5, ">"), ("len", 10, ">")]
    columns += [("clingo", 7, ">"), ("clingo s", 9, ">"), ("cv/best", 7, ">")]
    table = Table(columns)
    ratios: list[float] = []
    undecided: list[str] = []
    total = 0
    print("\n== ASP instances (plan length vs the instance's step bound; n/a = not available)")
    print(table.header(), flush=True)
    family_dirs = sorted(p for p in asp_root.iterdir() if p.is_dir())
    if families is not None:
        family_dirs = [p for p in family_dirs if p.name in families]
    for family_dir in family_dirs:
        encoding = family_dir / "encoding.asp"
        if not encoding.is_file() and shared_asp is not None:
            encoding = shared_asp / family_dir.name / "encoding.asp"
        instances = sorted(
            (p for p in family_dir.glob("*.asp") if p.name != "encoding.asp"),
            key=lambda p: natural_key(p.name),
        )
        for instance in instances:
            bound = asp_bound(instance)
            record = {"kind": "asp", "family": family_dir.name, "instance": instance.stem,
                      "bound": bound, "corvus": None, "fd": {}, "clingo": None}
            cells = [f"{family_dir.name}/{instance.stem}", fmt_int(bound)]

            cv = None
            if has_asp:
                with tempfile.TemporaryDirectory(prefix="corvus-bench-") as tmp:
                    cmd = [str(planners.corvus), "asp", "solve", str(instance)]
                    if asp_time_limit:
                        cmd += ["--time-limit", f"{planners.time_limit:g}"]

                    def once() -> RunOutcome:
                        return run_process(cmd, Path(tmp), planners.kill_after())

                    outcome, walls = measure(once, planners.repeat, planners.repeat_under)
                cv = parse_corvus(outcome, walls)
                # Every portfolio entry logs its expansions; the run did them all.
                expanded = re.findall(r"^Expanded (\d+) state", outcome.stderr, re.MULTILINE)
                cv.expanded = sum(int(x) for x in expanded) if expanded else None
                if cv.solved and encoding.is_file():
                    cv.plan_valid = witness_accepted(planners, instance, encoding, outcome.stdout)
                record["corvus"] = asdict(cv)
            witness = "-" if cv is None or cv.plan_valid is None else ("ok" if cv.plan_valid else "REJECTED")
            cells += [total_cell(cv), fmt_int(cv.expanded) if cv else "n/a", bounded_len(cv, bound), witness]
            others: list[float] = []

            if with_fd:
                pddl = translate_asp(planners, instance) if has_asp else None
                for name, fd_args in ASP_FD_CONFIGS:
                    fd = None
                    if pddl is not None:
                        fd = planners.run_fd(pddl[0], pddl[1], fd_args)
                        record["fd"][name] = asdict(fd)
                        if fd.solved:
                            others.append(fd.wall_s)
                    cells += [total_cell(fd), bounded_len(fd, bound)]
                if pddl is not None:
                    shutil.rmtree(pddl[0].parent, ignore_errors=True)

            if encoding.is_file():
                cl = run_clingo(planners, instance, encoding)
                record["clingo"] = asdict(cl)
                cells += [cl.status, fmt_s(cl.wall_s)]
                if cl.status in ("SAT", "UNSAT"):
                    others.append(cl.wall_s)
            else:
                cells += ["n/a", "-"]
            # Decided: a witness clingo accepts, or the proof that none exists (exit 11).
            decided = cv is not None and ((cv.solved and cv.plan_valid is not False)
                                          or cv.status == "unsolvable")
            ratio = cv.wall_s / min(others) if decided and others and min(others) > 0 else None
            record["ratio_to_best_other"] = ratio
            total += 1
            if ratio is not None:
                ratios.append(ratio)
            if not decided:
                undecided.append(f"{family_dir.name}/{instance.stem}")
            cells.append("-" if ratio is None else f"{ratio:.2f}")
            print(table.line(cells), flush=True)
            records.append(record)
    print("\n== Summary (ASP)")
    print(f"instances {total} | corvus decided {total - len(undecided)}"
          f" | undecided: {', '.join(undecided) if undecided else 'none'}")
    if ratios:
        print(f"corvus/best-other per instance: median {statistics.median(ratios):.2f}, "
              f"max {max(ratios):.2f}, at most 0.5 on {sum(r <= 0.5 for r in ratios)} of {len(ratios)}"
              " (instances some other system also decided)")


def witness_accepted(planners: Planners, instance: Path, encoding: Path, witness: str) -> bool:
    """Whether the competition's encoding accepts corvus's witness (tests/clingo_check.py)."""
    with tempfile.TemporaryDirectory(prefix="corvus-bench-witness-") as tmp:
        path = Path(tmp) / "witness.asp"
        path.write_text(witness)
        o = run_process([str(venv_python()), str(REPO_ROOT / "tests" / "clingo_check.py"), str(encoding),
                         str(instance), str(path)], Path(tmp), planners.kill_after())
    return o.exit_code == 0


def bounded_len(m: Measurement | None, bound: int | None) -> str:
    """Plan length with its relation to the step bound, e.g. 36=36 or 40>36."""
    if m is None or not m.solved or m.plan_length is None or bound is None:
        return plan_cell(m)
    relation = "=" if m.plan_length == bound else ("<" if m.plan_length < bound else ">")
    return f"{m.plan_length}{relation}{bound}"


def translate_asp(planners: Planners, instance: Path) -> tuple[Path, Path] | None:
    """Writes the instance as PDDL via `corvus asp translate`; None if that fails."""
    out_dir = Path(tempfile.mkdtemp(prefix="corvus-bench-asp-"))
    domain, problem = out_dir / "domain.pddl", out_dir / "problem.pddl"
    o = run_process(
        [str(planners.corvus), "asp", "translate", str(instance), "-o", str(problem),
         "--domain-out", str(domain)],
        out_dir, planners.kill_after(),
    )
    if o.exit_code != 0 or not domain.is_file() or not problem.is_file():
        log(f"note: corvus asp translate failed on {instance.name} (exit {o.exit_code})")
        shutil.rmtree(out_dir, ignore_errors=True)
        return None
    return domain, problem


# --------------------------------------------------------------------------- output files


CSV_FIELDS = ["status", "exit_code", "wall_s", "cpu_s", "peak_rss_kb", "ground_s", "search_s",
              "expanded", "plan_length", "plan_cost", "plan_valid"]


def write_results(records: list, meta: dict, summary: list[str]) -> tuple[Path, Path]:
    RESULTS_DIR.mkdir(parents=True, exist_ok=True)
    stamp = dt.datetime.now(dt.timezone.utc).strftime("%Y%m%d-%H%M%S")
    json_path = RESULTS_DIR / f"run-{stamp}.json"
    csv_path = RESULTS_DIR / f"run-{stamp}.csv"
    json_path.write_text(json.dumps({"meta": meta, "summary": summary, "records": records}, indent=1))
    with open(csv_path, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["kind", "set", "problem", "config", "planner", *CSV_FIELDS, "walls_s"])
        for r in records:
            if r["kind"] == "ipc":
                group, name = r["domain"], r["problem"] + (" *" if r["hard"] else "")
                runs = [(r["config"], r["corvus"]), (r["config"], r["fd"])]
            else:
                group, name = r["family"], r["instance"]
                runs = [("asp-solve", r["corvus"]), *r["fd"].items(), ("clingo", r["clingo"])]
            for config, m in runs:
                if m is None:
                    continue
                writer.writerow([r["kind"], group, name, config, m["planner"],
                                 *[round(m[k], 4) if isinstance(m[k], float) else m[k]
                                   for k in CSV_FIELDS],
                                 " ".join(f"{w:.3f}" for w in m["walls_s"])])
    return csv_path, json_path


# --------------------------------------------------------------------------- main


def parse_args(argv: list[str]):
    p = argparse.ArgumentParser(
        description="Benchmark corvus against Fast Downward on a fixed IPC set (and ASP instances).")
    p.add_argument("--shared", type=Path, default=None,
                   help="the shared data folder (default: ../shared beside the repo; "
                        "falls back to problems/ipc when missing)")
    p.add_argument("--domains", default=",".join(DOMAINS),
                   help="comma-separated IPC domains (default: all 10)")
    p.add_argument("--problems", type=int, default=3, metavar="N",
                   help="first N problems per domain in natural order (default 3)")
    p.add_argument("--no-hard", action="store_true", help="skip the fixed harder problems")
    p.add_argument("--configs", default=",".join(c.name for c in CONFIGS),
                   help="comma-separated configs (default: all of " +
                        ", ".join(c.name for c in CONFIGS) + ")")
    p.add_argument("--time-limit", type=float, default=60.0, metavar="S",
                   help="per-run time limit in seconds (default 60)")
    p.add_argument("--memory-limit", default="4G", metavar="M",
                   help="per-run memory limit, e.g. 4G (default 4G)")
    p.add_argument("--repeat", type=int, default=3, metavar="R",
                   help="runs of each measurement shorter than --repeat-under; the median wall "
                        "time is reported (default 3)")
    p.add_argument("--repeat-under", type=float, default=5.0, metavar="S",
                   help="only runs shorter than this are repeated (default 5)")
    p.add_argument("--no-build", action="store_true", help="do not run cargo build --release")
    p.add_argument("--corvus", type=Path, default=None, help="corvus binary (default: the release build)")
    p.add_argument("--no-fd", action="store_true", help="run corvus only")
    p.add_argument("--no-ipc", action="store_true", help="skip the IPC problems")
    p.add_argument("--asp", action="store_true", help="also run the ASP instances (shared/asp)")
    p.add_argument("--asp-dir", type=Path, default=None, metavar="DIR",
                   help="ASP instances to run instead of shared/asp: family folders (hanoi/, "
                        "sokoban/) of .asp instances, e.g. from `corvus asp generate`; a folder "
                        "without encoding.asp uses the shared one")
    p.add_argument("--asp-families", default=None, metavar="F",
                   help="comma-separated ASP families (default: every folder under shared/asp)")
    args = p.parse_args(argv)
    if args.repeat < 1:
        p.error("--repeat must be at least 1")
    if args.time_limit <= 0:
        p.error("--time-limit must be positive")
    return args


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    configs_by_name = {c.name: c for c in CONFIGS}
    wanted = [c.strip() for c in args.configs.split(",") if c.strip()]
    unknown = [c for c in wanted if c not in configs_by_name]
    if unknown:
        sys.exit(f"unknown config(s): {', '.join(unknown)}; known: {', '.join(configs_by_name)}")
    configs = [configs_by_name[c] for c in wanted]

    shared = args.shared if args.shared is not None else REPO_ROOT.parent / "shared"
    if args.shared is not None and not shared.is_dir():
        sys.exit(f"--shared {shared}: no such directory")
    ipc_root = shared / "ipc"
    if not ipc_root.is_dir():
        ipc_root = REPO_ROOT / "problems" / "ipc"
        log(f"note: {shared}/ipc missing, using the vendored copies in {ipc_root}")
    asp_root = args.asp_dir if args.asp_dir is not None else shared / "asp"

    if args.no_build:
        corvus = args.corvus or default_corvus()
    else:
        corvus = build_corvus() if args.corvus is None else args.corvus
    if not corvus.is_file():
        sys.exit(f"corvus binary not found at {corvus} (build it or pass --corvus)")

    fd_driver = None
    with_fd = not args.no_fd
    if with_fd:
        ensure_package("up_fast_downward", FD_PACKAGE)
        fd_driver = fd_driver_path()
    if args.asp:
        ensure_package("clingo", CLINGO_PACKAGE)

    planners = Planners(corvus, venv_python() if with_fd else None, fd_driver, args)
    domains = [d.strip() for d in args.domains.split(",") if d.strip()]
    problems = [] if args.no_ipc else select_problems(ipc_root, domains, args.problems, not args.no_hard)

    meta = {
        "started_utc": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        "corvus_commit": git_commit(),
        "corvus_binary": str(corvus),
        "fd_package": FD_PACKAGE if with_fd else None,
        "clingo_package": CLINGO_PACKAGE if args.asp else None,
        "ipc_root": str(ipc_root),
        "time_limit_s": args.time_limit,
        "memory_limit": args.memory_limit,
        "repeat": args.repeat,
        "repeat_under_s": args.repeat_under,
        "host": platform.node(),
        "cpus": os.cpu_count(),
        "load_average_at_start": os.getloadavg(),
        "argv": argv,
    }
    print(f"corvus {meta['corvus_commit']} | time limit {args.time_limit:g}s | memory {args.memory_limit}"
          f" | repeat {args.repeat} (runs < {args.repeat_under:g}s) | load {os.getloadavg()[0]:.2f}"
          f" | problems from {ipc_root}")

    records: list = []
    summary: list[str] = []
    if problems:
        run_ipc(planners, problems, configs, with_fd, records)
        summary = summarize_ipc(records, configs)
        print("\n".join(summary))
    if args.asp:
        if asp_root.is_dir():
            families = None if args.asp_families is None else \
                [f.strip() for f in args.asp_families.split(",") if f.strip()]
            run_asp(planners, asp_root, families, with_fd, records, shared / "asp")
        else:
            log(f"note: {asp_root} missing, ASP part skipped")
    meta["finished_utc"] = dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")
    meta["load_average_at_end"] = os.getloadavg()
    csv_path, json_path = write_results(records, meta, summary)
    print(f"\nresults: {csv_path.relative_to(REPO_ROOT)}, {json_path.relative_to(REPO_ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

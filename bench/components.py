#!/usr/bin/env python3
"""Runs corvus configurations (specs) one by one over a suite, for choosing a portfolio's
components and time slices, and simulates sequential portfolios on the results.

    python3 bench/components.py run --suite ../shared/ipc --spread 8 --time-limit 30 \\
        --spec lama-first='lazy([hff(cost=one), lmcount(cost=one)])' --spec gbfs='gbfs(hff())' \\
        --out /tmp/train.jsonl [--corvus target/release/corvus] [--processes 1]
    python3 bench/components.py simulate /tmp/train.jsonl --portfolio lama-first:0.5,gbfs:1 --time-limit 30
    python3 bench/components.py table /tmp/train.jsonl

`run` appends one JSON line per (task, configuration) to --out, and skips pairs already there, so an
interrupted run resumes. Each line: domain, problem, name, spec, exit code, wall-clock seconds,
plan cost, expansions. `simulate` replays a portfolio on those lines: an entry given the share s of
the time left solves a task when its own run solved it within that time (the runs are
deterministic, so a run cut at t seconds is the full run's prefix); `--time-limit` must not
exceed the runs' own. `--only-hard lf:2` runs the other configurations only where the portfolio's
first entry `lf` failed or needed over 2 s (a task it solves sooner never reaches them). `table` prints coverage, agile score and quality score per domain and configuration.
A spec `fd:ALIAS` runs Fast Downward's driver with that alias (from bench/.venv, which
`experiment.py` sets up), `fd-search:SEARCH` with that search (e.g. `astar(ipdb())`). Every plan file a run writes (`plan`, or `plan.1`, `plan.2`, ... of an
anytime run) is checked with `corvus validate`; the first plan's time is its file's modification
time.
"""

import argparse
import concurrent.futures
import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
# Only the standard library at import time: the suite's tasks, as the Lab experiment picks them.
from experiment import default_suite, tasks  # noqa: E402


def fd_driver():
    """Fast Downward's driver from up-fast-downward in bench/.venv (`experiment.py` installs it)."""
    found = sorted(HERE.glob(".venv/lib/python3*/site-packages/up_fast_downward/downward/fast-downward.py"))
    if not found:
        sys.exit("Fast Downward not found: run `python3 bench/experiment.py --smoke --out /tmp/smoke` once")
    return [str(HERE / ".venv/bin/python"), str(found[-1])]


def plan_files(folder):
    """The plan files a run wrote, in the order written: `plan`, or `plan.1`, `plan.2`, ..."""
    files = [f for f in Path(folder).iterdir() if f.name == "plan" or f.name.startswith("plan.")]
    return sorted(files, key=lambda f: f.stat().st_mtime)


def run_one(corvus, domain_name, domain, problem, name, spec, time_limit, memory_limit):
    """One run; every plan it wrote is validated by `corvus validate`. `first` is the time to the
    first plan (its file's modification time), `cost` the cheapest valid plan's cost."""
    with tempfile.TemporaryDirectory() as tmp:
        stats = Path(tmp) / "stats.json"
        plan = Path(tmp) / "plan"
        if spec.startswith("fd:") or spec.startswith("fd-search:"):
            kind, what = spec.split(":", 1)
            what = ["--alias", what, str(domain), str(problem)] if kind == "fd" else \
                [str(domain), str(problem), "--search", what]
            cmd = fd_driver() + ["--overall-time-limit", f"{int(time_limit)}s",
                                 "--overall-memory-limit", f"{memory_limit}M", "--plan-file", str(plan)] + what
        else:
            cmd = [corvus, "solve", str(domain), str(problem), str(plan), "-q",
                   "--time-limit", f"{time_limit}s", "--memory-limit", f"{memory_limit}M", "--stats-json", str(stats)]
            cmd += ["--alias", spec[len("alias:"):]] if spec.startswith("alias:") else ["--search", spec]
        start = time.time()
        proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=tmp,
                              timeout=time_limit * 3 + 30)
        wall = time.time() - start
        data = json.loads(stats.read_text()) if stats.exists() else {}
        first, costs, invalid = None, [], 0
        for f in plan_files(tmp):
            check = subprocess.run([corvus, "validate", str(domain), str(problem), str(f)],
                                   capture_output=True, text=True)
            cost = re.search(r"cost (\d+)", check.stdout + check.stderr)
            if check.returncode != 0 or not cost:
                invalid += 1
                continue
            costs.append(int(cost.group(1)))
            if first is None:
                first = f.stat().st_mtime - start
    return {
        "domain": domain_name, "problem": problem.name, "name": name, "spec": spec,
        "exit": proc.returncode, "wall": round(wall, 4), "solved": bool(costs),
        "first": round(first, 4) if first is not None else None, "cost": min(costs) if costs else None,
        "plans": len(costs), "invalid": invalid, "expanded": data.get("expanded"),
        "error": proc.stderr[-300:] if not costs and proc.returncode not in (0, 11, 12, 22, 23) else "",
    }


def cmd_run(args):
    specs = [s.split("=", 1) for s in args.spec]
    done = set()
    out = Path(args.out)
    if out.exists():
        for line in out.read_text().splitlines():
            r = json.loads(line)
            done.add((r["domain"], r["problem"], r["name"]))
    domains = args.domains.split(",") if args.domains else None
    hard = None
    if args.only_hard:
        # Only the tasks where NAME failed or needed more than SECONDS.
        base, seconds = args.only_hard.rsplit(":", 1)
        runs = load(out)
        hard = {(d, p) for (d, p, n), r in runs.items()
                if n == base and (r["exit"] != 0 or r["wall"] > float(seconds))}
    jobs = [(d, dom, p, name, spec) for (d, dom, p) in tasks(Path(args.suite).resolve(), domains, None, args.spread)
            for name, spec in specs if (d, p.name, name) not in done and (hard is None or (d, p.name) in hard)]
    print(f"{len(jobs)} runs", file=sys.stderr)
    with out.open("a") as f, concurrent.futures.ThreadPoolExecutor(args.processes) as pool:
        futures = [pool.submit(run_one, args.corvus, d, dom, p, name, spec, args.time_limit, args.memory_limit)
                   for (d, dom, p, name, spec) in jobs]
        for fut in concurrent.futures.as_completed(futures):
            r = fut.result()
            f.write(json.dumps(r) + "\n")
            f.flush()
            mark = "ok" if r["exit"] == 0 else f"exit {r['exit']}"
            print(f"{r['domain']}/{r['problem']} {r['name']}: {mark} {r['wall']:.2f}s", file=sys.stderr)


def load(path):
    runs = {}
    for line in Path(path).read_text().splitlines():
        r = json.loads(line)
        runs[(r["domain"], r["problem"], r["name"])] = r
    return runs


def solved_time(r):
    """Time to the first plan, None if the run found none."""
    if not r or not r.get("solved", r["exit"] == 0):
        return None
    return r.get("first") or r["wall"]


def simulate(runs, portfolio, limit):
    """Per task: (time to the first plan, its cost, the entry that found it) or None."""
    result = {}
    for key in sorted({(d, p) for (d, p, _) in runs}):
        elapsed, found = 0.0, None
        for i, (name, share) in enumerate(portfolio):
            left = limit - elapsed
            if left <= 0:
                break
            slice_ = left if i + 1 == len(portfolio) else left * share
            r = runs.get((*key, name))
            t = solved_time(r)
            if t is not None and t <= slice_:
                found = (elapsed + t, r["cost"], name)
                break
            # A failed entry uses its whole slice, unless it stopped early (a proof, an error).
            elapsed += slice_ if r is None or r["exit"] in (0, 23) else min(slice_, r["wall"])
        result[key] = found
    return result


def agile(t, limit=300.0):
    import math
    if t is None:
        return 0.0
    return 1.0 if t <= 1 else max(0.0, 1 - math.log(t) / math.log(limit))


def cmd_simulate(args):
    runs = load(args.results)
    portfolio = [(e.rsplit(":", 1)[0], float(e.rsplit(":", 1)[1])) for e in args.portfolio.split(",")]
    result = simulate(runs, portfolio, args.time_limit)
    per_domain = {}
    for (d, _), found in result.items():
        c = per_domain.setdefault(d, [0, 0, 0.0])
        c[0] += found is not None
        c[1] += 1
        c[2] += agile(found[0] if found else None)
    for d, (s, n, a) in per_domain.items():
        print(f"{d:40} {s}/{n}  agile {a:.2f}")
    total = sum(s for s, _, _ in per_domain.values())
    print(f"{'total':40} {total}/{len(result)}  agile {sum(a for *_, a in per_domain.values()):.2f}")


def cmd_table(args):
    """Per domain and configuration: coverage, agile score (time to the first plan) and quality
    score (the cheapest cost any configuration of the file found / the configuration's cheapest)."""
    runs = load(args.results)
    names = args.names.split(",") if args.names else sorted({n for (_, _, n) in runs})
    domains = sorted({d for (d, _, _) in runs if not args.domains or d in args.domains.split(",")})
    best = {}
    for (d, p, n), r in runs.items():
        if r.get("solved", r["exit"] == 0) and r["cost"] is not None:
            best[(d, p)] = min(best.get((d, p), r["cost"]), r["cost"])
    print("| domain | " + " | ".join(names) + " |")
    print("| --- |" + " --- |" * len(names))
    totals = [[0, 0, 0.0, 0.0] for _ in names]
    for d in domains:
        row = []
        problems = sorted({p for (dd, p, n) in runs if dd == d and n in names})
        for i, n in enumerate(names):
            covered, agile_sum, quality = 0, 0.0, 0.0
            for p in problems:
                r = runs.get((d, p, n))
                t = solved_time(r)
                if t is None:
                    continue
                covered += 1
                agile_sum += agile(t)
                if r["cost"] is not None and r["cost"] > 0:
                    quality += best[(d, p)] / r["cost"]
                else:
                    quality += 1.0
            for j, v in enumerate([covered, len(problems), agile_sum, quality]):
                totals[i][j] += v
            row.append(f"{covered}/{len(problems)} {agile_sum:.1f} {quality:.1f}")
        print(f"| {d} | " + " | ".join(row) + " |")
    print("| total | " + " | ".join(f"{c}/{n} {a:.1f} {q:.1f}" for c, n, a, q in totals) + " |")
    print("\nEach cell: coverage, agile score, quality score.")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run")
    run.add_argument("--suite", default=str(default_suite()))
    run.add_argument("--domains")
    run.add_argument("--spread", type=int, default=5)
    run.add_argument("--time-limit", type=float, default=30)
    run.add_argument("--memory-limit", type=int, default=3000)
    run.add_argument("--spec", action="append", required=True, help="NAME=SPEC, or NAME=alias:ALIAS")
    run.add_argument("--corvus", default=str(HERE.parent / "target/release/corvus"))
    run.add_argument("--processes", type=int, default=1)
    run.add_argument("--out", required=True)
    run.add_argument("--only-hard", metavar="NAME:SECONDS",
                     help="run only the tasks where configuration NAME (already in --out) failed or took longer")
    sim = sub.add_parser("simulate")
    sim.add_argument("results")
    sim.add_argument("--portfolio", required=True, help="NAME:SHARE,NAME:SHARE,...")
    sim.add_argument("--time-limit", type=float, required=True)
    table = sub.add_parser("table")
    table.add_argument("results")
    table.add_argument("--names", help="configurations to show, in order (default: all)")
    table.add_argument("--domains", help="domains to show (default: all)")
    args = parser.parse_args()
    {"run": cmd_run, "simulate": cmd_simulate, "table": cmd_table}[args.command](args)


if __name__ == "__main__":
    main()

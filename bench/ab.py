#!/usr/bin/env python3
"""Two corvus builds side by side on the same tasks: is a change within noise?

    python3 bench/ab.py OLD_BINARY NEW_BINARY [--alias lama-first --alias seq-opt-lmcut]
                        [--spread 2 | --task DOMAIN/PROBLEM ...] [--repeat 3] [--time-limit 20]

Runs every task of a spread of the IPC suite ($CORVUS_SHARED/ipc, ../shared/ipc,
else problems/ipc: the first and the last problem of each domain for
--spread 2) with each alias, REPEAT times per binary, alternating the binaries
so that a load change hits both. Reads --stats-json: expansions, search time,
total time. --task (repeatable) names tasks of the suite instead of the
spread, e.g. --task logistics00/probLOGISTICS-7-0 (".pddl" may be left off).
Prints per task the median total time of each build, their ratio,
and expansions per second; then the median and geometric mean of the ratios
over the tasks both solved with at least 0.05 s, and every task where the two
disagree on the plan cost or the expansions (a behaviour change, not noise).
"""

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def suite() -> Path:
    shared = Path(os.environ.get("CORVUS_SHARED", ROOT.parent / "shared")) / "ipc"
    return shared if shared.is_dir() else ROOT / "problems" / "ipc"


def natural(name: str):
    import re
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", name)]


def tasks(spread: int):
    for domain_dir in sorted(p for p in suite().iterdir() if p.is_dir()):
        domain = domain_dir / "domain.pddl"
        problems = sorted((p for p in domain_dir.glob("*.pddl") if "domain" not in p.name), key=lambda p: natural(p.name))
        if not domain.is_file() or not problems:
            continue
        picks = {problems[round(i * (len(problems) - 1) / max(1, spread - 1))] for i in range(spread)}
        for problem in sorted(picks, key=lambda p: natural(p.name)):
            yield domain, problem


def named_tasks(names):
    for name in names:
        domain_name, _, problem_name = name.partition("/")
        problem = suite() / domain_name / problem_name
        if problem.suffix != ".pddl":
            problem = problem.with_name(problem.name + ".pddl")
        domain = problem.parent / "domain.pddl"
        if not domain.is_file() or not problem.is_file():
            sys.exit(f"no task {name} in {suite()}")
        yield domain, problem


def run(binary: str, alias: str, domain: Path, problem: Path, time_limit: int, work: Path):
    stats = work / "stats.json"
    plan = work / "plan"
    for f in (stats, plan):
        f.unlink(missing_ok=True)
    subprocess.run([binary, str(domain), str(problem), str(plan), "--alias", alias, "-q",
                    "--time-limit", f"{time_limit}s", "--stats-json", str(stats)],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        return json.loads(stats.read_text())
    except (OSError, ValueError):
        return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--alias", action="append")
    parser.add_argument("--spread", type=int, default=2)
    parser.add_argument("--task", action="append", help="DOMAIN/PROBLEM of the suite, instead of the spread")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--time-limit", type=int, default=20)
    args = parser.parse_args()
    # A line per task as it ends, also into a file.
    sys.stdout.reconfigure(line_buffering=True)
    aliases = args.alias or ["lama-first", "seq-opt-lmcut"]
    ratios, differ = [], []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        print(f"{'task':58} {'old s':>8} {'new s':>8} {'new/old':>8} {'exp/s old':>10} {'exp/s new':>10}")
        for alias in aliases:
            for domain, problem in (list(named_tasks(args.task)) if args.task else tasks(args.spread)):
                runs = {"old": [], "new": []}
                for _ in range(args.repeat):
                    for which in ("old", "new"):
                        runs[which].append(run(getattr(args, which), alias, domain, problem, args.time_limit, work))
                name = f"{alias} {domain.parent.name}/{problem.name}"
                solved = {w: [r for r in rs if r and r.get("status") == "solved"] for w, rs in runs.items()}
                if len(solved["old"]) < args.repeat or len(solved["new"]) < args.repeat:
                    print(f"{name:58} solved {len(solved['old'])}/{args.repeat} and {len(solved['new'])}/{args.repeat}")
                    continue
                time = {w: statistics.median(r["total_time_s"] for r in rs) for w, rs in solved.items()}
                search = {w: statistics.median(r["search_time_s"] for r in rs) for w, rs in solved.items()}
                expanded = {w: rs[0]["expanded"] for w, rs in solved.items()}
                cost = {w: rs[0]["plan_cost"] for w, rs in solved.items()}
                if expanded["old"] != expanded["new"] or cost["old"] != cost["new"]:
                    differ.append(f"{name}: expansions {expanded['old']} / {expanded['new']}, cost {cost['old']} / {cost['new']}")
                rate = {w: (expanded[w] / search[w] if search[w] > 0 else float("nan")) for w in solved}
                ratio = time["new"] / time["old"] if time["old"] > 0 else float("nan")
                print(f"{name:58} {time['old']:8.3f} {time['new']:8.3f} {ratio:8.3f} {rate['old']:10.0f} {rate['new']:10.0f}")
                if time["old"] >= 0.05 and time["new"] >= 0.05:
                    ratios.append(ratio)
    if ratios:
        geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        print(f"\n{len(ratios)} tasks of at least 0.05 s: new/old total time median {statistics.median(ratios):.3f}, "
              f"geometric mean {geo:.3f}, range {min(ratios):.3f}..{max(ratios):.3f}")
    print(f"{len(differ)} tasks with other expansions or costs" + (":" if differ else ""))
    for line in differ:
        print("  " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main())

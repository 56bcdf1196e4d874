#!/usr/bin/env python3
"""corvus's landmark graph beside Fast Downward's on the same tasks: counts of landmarks
(disjunctive ones apart) and orderings, and FD's landmarks by kind (atoms, negated atoms,
`<none of those>` values), from FD's `lm_rhw(verbosity=debug)` dump.

    python3 bench/landmark_graphs.py [--suite ../shared/ipc] [--first 2] [--corvus target/release/corvus]

corvus's graph is the one `lmcount` builds (its log line `Landmarks: ...`), FD's the one
`lm_reasonable_orders_hps(lm_rhw())` builds, which is what both planners' lama-first use. Prints a
Markdown table, one row per task. Needs Fast Downward in bench/.venv (`experiment.py` sets it up).
"""

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from components import HERE, fd_driver  # noqa: E402
from experiment import default_suite, tasks  # noqa: E402

CORVUS_LINE = re.compile(
    r"Landmarks: (\d+) \((\d+) disjunctive, (\d+) negated\), orderings: (\d+) \((\d+) greedy-necessary, (\d+) natural, "
    r"(\d+) reasonable")


def corvus_graph(corvus, domain, problem):
    out = subprocess.run([corvus, "solve", str(domain), str(problem), "/dev/null", "--search", "lazy([lmcount()])",
                          "--time-limit", "20s"], capture_output=True, text=True, timeout=60)
    m = CORVUS_LINE.search(out.stderr)
    if not m:
        return None
    n, disj, neg, orders, gn, nat, reas = map(int, m.groups())
    return {"landmarks": n, "disjunctive": disj, "negated": neg, "orderings": orders, "gn": gn, "nat": nat, "reasonable": reas}


def fd_graph(domain, problem):
    search = "lazy_greedy([landmark_sum(lm_factory=lm_reasonable_orders_hps(lm_rhw(verbosity=debug)))])"
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(fd_driver() + ["--overall-time-limit", "20s", str(domain), str(problem),
                                            "--search", search], capture_output=True, text=True, cwd=tmp,
                             timeout=120)
    log = out.stdout
    dump = log.split("Dumping landmark graph:")[-1].split("Landmark graph end.")[0] if "Dumping" in log else ""
    labels = re.findall(r'^\s*lm\d+ \[label="([^"]*)"', dump, re.MULTILINE)
    edges = re.findall(r'-> lm\d+ \[label="([^"]*)"\]', dump)
    if not labels:
        return None
    total = re.findall(r"Landmark graph contains (\d+) orderings", log)
    parts = [label.split(" | ") for label in labels]
    simple = [p[0] for p in parts if len(p) == 1]
    return {
        "landmarks": len(labels),
        "disjunctive": sum(len(p) > 1 for p in parts),
        "negated": sum(s.startswith("NegatedAtom") for s in simple),
        "none_of_those": sum("none of those" in s for s in simple),
        # The dump is lm_rhw's graph; lm_reasonable_orders_hps adds the reasonable orderings after.
        "orderings": int(total[-1]) if total else len(edges),
        "gn": edges.count("gn"), "nat": edges.count("n"),
        "reasonable": (int(total[-1]) if total else len(edges)) - len(edges),
    }


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--suite", default=str(default_suite()))
    p.add_argument("--first", type=int, default=2, help="the first N problems of each domain")
    p.add_argument("--corvus", default=str(HERE.parent / "target/release/corvus"))
    args = p.parse_args()
    print("| task | corvus landmarks (disj., negated) | FD landmarks (disj.) | FD negated atoms | FD none-of-those "
          "| FD other | corvus orderings gn/nat/r | FD orderings gn/nat/r |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for name, domain, problem in tasks(Path(args.suite).resolve(), None, args.first):
        try:
            c, f = corvus_graph(args.corvus, domain, problem), fd_graph(domain, problem)
        except subprocess.TimeoutExpired:
            print(f"| {name}/{problem.name} | timeout | | | | | | |", flush=True)
            continue
        cell_c = f"{c['landmarks']} ({c['disjunctive']}, {c['negated']})" if c else "-"
        cell_f = f"{f['landmarks']} ({f['disjunctive']})" if f else "-"
        other = f["landmarks"] - f["negated"] - f["none_of_those"] if f else "-"
        orders_c = f"{c['gn']}/{c['nat']}/{c['reasonable']}" if c else "-"
        orders_f = f"{f['gn']}/{f['nat']}/{f['reasonable']}" if f else "-"
        print(f"| {name}/{problem.name} | {cell_c} | {cell_f} | {f['negated'] if f else '-'} "
              f"| {f['none_of_those'] if f else '-'} | {other} | {orders_c} | {orders_f} |", flush=True)


if __name__ == "__main__":
    main()

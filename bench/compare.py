#!/usr/bin/env python3
"""Compare two configurations of a Lab experiment run by `experiment.py`.

    python3 bench/compare.py OUT corvus-lama fd-lama [-v]

reads `OUT/exp-eval/properties` (the `fetch` step's output) and prints, for
configuration A against B: coverage per domain (rows where A solved fewer are
marked), and over the tasks both solved the cost ratio A/B (median, geometric
mean, how many within 5 %, cheaper, dearer), the planner-time and expansion
ratios (medians), and the ratio of expansions per second where both searched
for at least half a second. `-v` lists every task where A's plan is dearer or
A did not solve what B solved. Standard library only.
"""

import json
import math
import statistics
import sys
from collections import defaultdict
from pathlib import Path


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def ratio_line(name, xs):
    if not xs:
        return f"{name}: none"
    return f"{name}: median {statistics.median(xs):.3f}, geomean {geomean(xs):.3f} ({len(xs)} tasks)"


def main() -> None:
    args = [a for a in sys.argv[1:] if a != "-v"]
    verbose = "-v" in sys.argv[1:]
    if len(args) != 3:
        sys.exit(__doc__)
    out, a, b = args
    props = json.loads((Path(out) / "exp-eval" / "properties").read_text())
    runs = defaultdict(dict)  # (domain, problem) -> config -> properties
    for run in props.values():
        runs[(run["domain"], run["problem"])][run["algorithm"]] = run
    if not any(a in r for r in runs.values()) or not any(b in r for r in runs.values()):
        sys.exit(f"{out} has no runs of {a} or of {b}")

    print(f"{a} against {b}: {out}")
    print(f"{'domain':45} {a:>18} {b:>18}")
    total = [0, 0, 0]
    for domain in sorted({d for d, _ in runs}):
        tasks = [r for (d, _), r in runs.items() if d == domain]
        ca = sum(t.get(a, {}).get("coverage", 0) for t in tasks)
        cb = sum(t.get(b, {}).get("coverage", 0) for t in tasks)
        total = [total[0] + ca, total[1] + cb, total[2] + len(tasks)]
        mark = "  <-- LESS" if ca < cb else ""
        print(f"{domain:45} {ca:>15}/{len(tasks):<2} {cb:>15}/{len(tasks):<2}{mark}")
    print(f"{'total':45} {total[0]:>15}/{total[2]:<2} {total[1]:>15}/{total[2]:<2}")

    both = [(k, r[a], r[b]) for k, r in sorted(runs.items())
            if r.get(a, {}).get("coverage") and r.get(b, {}).get("coverage")]
    costs = [(k, ra["cost"], rb["cost"]) for k, ra, rb in both]
    cost_ratios = [ca / cb for _, ca, cb in costs if cb > 0]
    print()
    print(ratio_line("cost ratio", cost_ratios))
    print(f"  within 5 %: {sum(r <= 1.05 for r in cost_ratios)}/{len(cost_ratios)}, "
          f"cheaper {sum(ca < cb for _, ca, cb in costs)}, equal {sum(ca == cb for _, ca, cb in costs)}, "
          f"dearer {sum(ca > cb for _, ca, cb in costs)}")
    times = [max(ra.get("planner_time", 0), 0.01) / max(rb.get("planner_time", 0), 0.01)
             for _, ra, rb in both if "planner_time" in ra and "planner_time" in rb]
    print(ratio_line("planner time ratio", times))
    expansions = [max(ra["expansions"], 1) / max(rb["expansions"], 1)
                  for _, ra, rb in both if "expansions" in ra and "expansions" in rb]
    print(ratio_line("expansions ratio", expansions))
    speeds = [(ra["expansions"] / ra["search_time"]) / (rb["expansions"] / rb["search_time"])
              for _, ra, rb in both
              if ra.get("search_time", 0) >= 0.5 and rb.get("search_time", 0) >= 0.5
              and ra.get("expansions") and rb.get("expansions")]
    print(ratio_line("expansions per second ratio", speeds))
    invalid = [k for k, r in runs.items() for c in (a, b) if r.get(c, {}).get("valid") == 0]
    print(f"invalid plans: {len(invalid)} {invalid if invalid else ''}")

    if verbose:
        print()
        for (d, p), ca, cb in costs:
            if ca > cb:
                print(f"DEARER   {d}/{p}: {ca} against {cb}")
        for (d, p), r in sorted(runs.items()):
            if r.get(b, {}).get("coverage") and not r.get(a, {}).get("coverage"):
                print(f"UNSOLVED {d}/{p}: {a} {r.get(a, {}).get('error')}")
            elif r.get(a, {}).get("coverage") and not r.get(b, {}).get("coverage"):
                print(f"ONLY A   {d}/{p}: {b} {r.get(b, {}).get('error')}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""The seed families' frontier, before and after a change: every ASP competition instance of
`../shared/asp` (or the vendored `problems/asp`) and a fixed set of generated Hanoi segments
(16-24 discs, 50-70 moves, made by `corvus asp generate hanoi`), each decided by `corvus asp solve`
with one or two binaries, alternating, so that a change to search or heuristics reports its ratios.

    python3 bench/seeds.py OLD_BINARY [NEW_BINARY] [--time-limit 60] [--repeats 1]

One line per instance and binary: the verdict (witness, proof, or the limit), the median wall-clock
time of the repeats, and with two binaries the ratio new/old; then the number decided and the
median ratio over the instances both decided. A witness is not re-checked here (the tests check
witnesses with clingo); this only times.
"""

import argparse
import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
# (discs, start, steps): segments of the optimal 4-peg tower solution.
HANOI_SEGMENTS = [(16, 40, 60), (18, 60, 50), (20, 100, 50), (20, 0, 64), (22, 150, 60), (24, 200, 70)]
VERDICTS = {0: "witness", 11: "proof", 22: "memory", 23: "time"}


def instances(corvus, tmp):
    shared = Path(os.environ.get("CORVUS_SHARED", HERE.parent.parent / "shared")) / "asp"
    root = shared if shared.is_dir() else HERE.parent / "problems" / "asp"
    for family in ("hanoi", "sokoban"):
        for f in sorted((root / family).glob("*.asp")):
            if f.name != "encoding.asp":
                yield f"{family}/{f.stem}", f
    for discs, start, steps in HANOI_SEGMENTS:
        path = Path(tmp) / f"hanoi-{discs}-{start}-{steps}.asp"
        with path.open("w") as out:
            subprocess.run([corvus, "asp", "generate", "hanoi", "--discs", str(discs), "--start", str(start),
                            "--steps", str(steps)], stdout=out, check=True)
        yield f"generated/{path.stem}", path


def decide(corvus, instance, limit):
    start = time.monotonic()
    proc = subprocess.run([corvus, "asp", "solve", str(instance), "-q", "--time-limit", f"{limit}s"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=limit * 3 + 30)
    return VERDICTS.get(proc.returncode, f"exit {proc.returncode}"), time.monotonic() - start


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("binaries", nargs="+", help="one or two corvus binaries (old, new)")
    p.add_argument("--time-limit", type=float, default=60)
    p.add_argument("--repeats", type=int, default=1)
    args = p.parse_args()
    binaries = [str(Path(b).resolve()) for b in args.binaries[:2]]
    decided = [0] * len(binaries)
    ratios = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, instance in instances(binaries[0], tmp):
            results = [[] for _ in binaries]
            for _ in range(args.repeats):
                for i, b in enumerate(binaries):  # alternating, so that drifts hit both
                    results[i].append(decide(b, instance, args.time_limit))
            cells = []
            medians = []
            for i, runs in enumerate(results):
                verdict = runs[-1][0]
                t = statistics.median(r[1] for r in runs)
                ok = verdict in ("witness", "proof")
                decided[i] += ok
                medians.append(t if ok else None)
                cells.append(f"{verdict} {t:.2f}s")
            line = f"{name:40} " + " | ".join(cells)
            if len(binaries) == 2 and None not in medians:
                ratios.append(medians[1] / medians[0])
                line += f" | ratio {ratios[-1]:.2f}"
            print(line, flush=True)
    print("decided: " + " | ".join(str(d) for d in decided))
    if ratios:
        print(f"median ratio new/old over {len(ratios)} decided by both: {statistics.median(ratios):.3f}")


if __name__ == "__main__":
    main()

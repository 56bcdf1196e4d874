"""How long `import corvus` takes in a fresh interpreter, beside an empty
interpreter start (which pays for the install's `corvus_up.pth` hook) and
`import unified_planning.shortcuts`. Median wall time of N fresh processes.

    .venv/bin/python bench/import_time.py [-n 21]

Run it with the interpreter of the environment corvus is installed in."""

import argparse
import statistics
import subprocess
import sys
import time

CASES = [
    ("python -c pass", "pass"),
    ("import corvus", "import corvus"),
    ("import corvus, then UP finds its engines",
     "import corvus, unified_planning.shortcuts as up; assert 'corvus' in up.get_environment().factory.engines"),
    ("import unified_planning.shortcuts", "import unified_planning.shortcuts"),
]


def median_seconds(code: str, n: int) -> float:
    times = []
    for _ in range(n):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def hook_microseconds(n: int) -> float:
    """The median time `-X importtime` gives the `.pth` hook's import at start."""
    times = []
    for _ in range(n):
        err = subprocess.run([sys.executable, "-X", "importtime", "-c", "pass"],
                             capture_output=True, text=True, check=True).stderr
        lines = [line for line in err.splitlines() if line.rstrip().endswith("corvus_up_hook")]
        times.append(float(lines[0].split("|")[1]) if lines else 0.0)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=21, help="fresh processes per case (default 21)")
    n = parser.parse_args().n
    base = None
    for name, code in CASES:
        seconds = median_seconds(code, n)
        base = base if base is not None else seconds
        print(f"{name:45s} {seconds * 1000:8.1f} ms  ({seconds / base:5.1f} x an empty start)")
    print(f"{'the .pth hook, within an empty start':45s} {hook_microseconds(n) / 1000:8.2f} ms")


if __name__ == "__main__":
    main()

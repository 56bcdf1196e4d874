"""The Downward Lab smoke experiment (bench/experiment.py --smoke), run by hand:
CORVUS_SLOW=1 pytest python/tests/test_bench_smoke.py. With a Python that lacks
Lab it sets up bench/.venv from PyPI first."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_the_smoke_experiment_leaves_html_and_png_reports(tmp_path):
    out = tmp_path / "smoke"
    # This venv lacks Lab: the script sets up bench/.venv and re-runs itself there.
    subprocess.run([sys.executable, str(ROOT / "bench" / "experiment.py"), "--smoke", "--out", str(out)], check=True)
    reports = out / "reports"
    assert (reports / "absolute.html").read_text().count("corvus-lama-first") > 0
    index = (reports / "index.html").read_text()
    plots = sorted(reports.glob("*.png"))
    assert [p.name for p in plots] == [
        "corvus-lama-first-vs-fd-lama-first-expansions.png",
        "corvus-lama-first-vs-fd-lama-first-planner_time.png",
    ]
    for plot in plots:
        assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert plot.name in index
    runs = json.loads((out / "exp-eval" / "properties").read_text())
    assert len(runs) == 4  # 2 problems x 2 configurations
    for run in runs.values():
        assert (run["coverage"], run["valid"], run["error"]) == (1, 1, "success"), run
        assert run["expansions"] > 0 and run["planner_time"] > 0

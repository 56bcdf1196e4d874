"""The command line after `pip install .`: the `corvus` command on the PATH of
the environment and `python -m corvus`, the same program as the binary."""

import os
import subprocess
import sys
from pathlib import Path

import corvus

BLOCKS = Path(__file__).resolve().parents[2] / "problems" / "ipc" / "blocks"


def corvus_command() -> str:
    # Console scripts go beside the interpreter of the environment.
    script = Path(sys.executable).parent / "corvus"
    assert script.is_file(), f"pip install . put no `corvus` command in {script.parent}"
    return str(script)


def test_the_installed_command_prints_its_help():
    out = subprocess.run([corvus_command(), "--help"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "Usage: corvus" in out.stdout and "Exit codes" in out.stdout


def test_python_m_corvus_solves_writes_a_valid_plan_and_keeps_the_exit_codes(tmp_path):
    domain, problem = BLOCKS / "domain.pddl", BLOCKS / "probBLOCKS-4-1.pddl"
    plan = tmp_path / "plan"
    out = subprocess.run(
        [sys.executable, "-m", "corvus", str(domain), str(problem), str(plan), "-q"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": ""},
    )
    assert out.returncode == 0, out.stderr
    assert corvus.validate(str(domain), str(problem), str(plan)).valid
    # A bad argument is a usage error (2), a missing file an input error (31).
    bad = subprocess.run([corvus_command(), "--bogus"], capture_output=True, text=True)
    assert bad.returncode == 2 and "--bogus" in bad.stderr
    missing = subprocess.run([corvus_command(), str(domain), str(tmp_path / "none.pddl"), "-q"], capture_output=True, text=True)
    assert missing.returncode == 31 and "none.pddl" in missing.stderr

"""The plain Python API: `corvus.solve` and `corvus.validate` on files and text."""

import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import corvus

ROOT = Path(__file__).resolve().parents[2]
BLOCKS = ROOT / "problems" / "ipc" / "blocks" / "domain.pddl"
BLOCKS_4 = ROOT / "problems" / "ipc" / "blocks" / "probBLOCKS-4-1.pddl"
HEAVY = ROOT / "tests" / "data" / "blocks-12-0.pddl"
SWITCH = ROOT / "tests" / "data" / "switch-domain.pddl"
# A long search on little memory: seq-opt-lmcut does not solve it in 15 s.
LONG = ROOT / "tests" / "data" / "blocks-18-0.pddl"
# From a to g: the direct road (10) is the fewest roads, the way over b and c the cheapest (3).
ROADS = ROOT / "tests" / "data" / "roads-domain.pddl"
ROADS_DETOUR = ROOT / "tests" / "data" / "roads-detour.pddl"

# The fields of `corvus solve --stats-json` (README), less `plan_file`, which
# the library leaves empty: it writes no file.
STATS_FIELDS = {
    "status", "exit_code", "plan_length", "plan_cost", "unit_cost", "plan_file", "config",
    "facts", "operators", "expanded", "evaluated", "generated", "reopened", "dead_ends",
    "pruned_by_bound", "initial_h", "search_time_s", "total_time_s", "peak_memory_bytes",
}


def test_solve_a_shipped_pddl_file(tmp_path):
    result = corvus.solve(BLOCKS, BLOCKS_4)
    assert result.solved and result.exit_code == 0
    assert set(result.stats) == STATS_FIELDS
    assert result.stats["config"] == "lazy([hff(cost=one), lmcount(cost=one)])"
    assert result.stats["plan_file"] is None
    plan = result.plan
    assert plan.unit_cost and plan.cost == len(plan) == result.stats["plan_length"]
    assert all(a.name in {"pick-up", "put-down", "stack", "unstack"} for a in plan.actions)
    # The plan, written as an IPC plan file, passes the validator.
    plan_file = tmp_path / "sas_plan"
    plan_file.write_text(plan.to_ipc())
    verdict = corvus.validate(BLOCKS, BLOCKS_4, plan_file)
    assert verdict == corvus.Validation(valid=True, length=len(plan), cost=plan.cost, error=None)


def test_optimal_aliases_agree_on_the_optimum():
    costs = {alias: corvus.solve(BLOCKS, BLOCKS_4, alias=alias).plan.cost
             for alias in ("seq-opt", "seq-opt-lmcut", "seq-opt-pdb", "seq-opt-blind")}
    assert costs == {"seq-opt": 10, "seq-opt-lmcut": 10, "seq-opt-pdb": 10, "seq-opt-blind": 10}
    result = corvus.solve(BLOCKS, BLOCKS_4, search="astar", heuristic="hmax")
    assert result.stats["config"] == "astar(hmax())" and result.plan.cost == 10


def test_solve_and_validate_pddl_text():
    domain, problem = BLOCKS.read_text(), BLOCKS_4.read_text()
    result = corvus.solve_pddl(domain, problem, alias="seq-opt-lmcut")
    assert result.solved
    assert corvus.validate_pddl(domain, problem, result.plan).valid
    # A plan with its last step dropped misses the goal.
    short = corvus.Plan(result.plan.actions[:-1], result.plan.cost - 1, True)
    verdict = corvus.validate_pddl(domain, problem, short)
    assert not verdict.valid and "goal" in verdict.error


def test_unsolvable_and_limits_are_outcomes_not_errors():
    result = corvus.solve(SWITCH, ROOT / "tests" / "data" / "switch-two.pddl")
    assert (result.status, result.exit_code, result.plan) == ("unsolvable", 11, None)
    result = corvus.solve(BLOCKS, HEAVY, alias="seq-opt-blind", time_limit=0.3)
    assert (result.status, result.exit_code) == ("out-of-time", 23)
    result = corvus.solve(BLOCKS, HEAVY, alias="seq-opt-blind", memory_limit="40M")
    assert (result.status, result.exit_code) == ("out-of-memory", 22)


def test_refused_input_raises_with_place_and_exit_code():
    with pytest.raises(corvus.CorvusError) as error:
        corvus.solve_pddl("(define (domain d) (:predicates (p))", "(define (problem x))")
    assert error.value.exit_code == 31 and "<domain>:1:" in error.value.message
    with pytest.raises(corvus.CorvusError) as error:
        corvus.solve(ROOT / "tests" / "data" / "durative-domain.pddl", ROOT / "tests" / "data" / "switch-one.pddl")
    assert error.value.unsupported and "durative-action" in error.value.message
    with pytest.raises(corvus.CorvusError) as error:
        corvus.solve(BLOCKS, ROOT / "no-such-problem.pddl")
    assert error.value.exit_code == 31


def test_bad_configurations_raise_value_error():
    for kwargs in ({"alias": "no-such-alias"}, {"search": "dfs"}, {"heuristic": "hzero"},
                   {"alias": "lama-first", "search": "astar"}, {"time_limit": "soon"},
                   {"search": "wastar", "weight": -1}, {"search": "wastar", "weight": float("nan")},
                   {"time_limit": "99999999999999999999s"}, {"time_limit": 1e300},
                   {"memory_limit": "16777216T"}):
        with pytest.raises(ValueError):
            corvus.solve(BLOCKS, BLOCKS_4, **kwargs)


def test_a_search_spec_runs_and_a_bad_one_says_where_it_is_wrong():
    by_spec = corvus.solve(BLOCKS, BLOCKS_4, search="lazy([hff(cost=one), lmcount(cost=one)])")
    assert by_spec.stats["config"] == "lazy([hff(cost=one), lmcount(cost=one)])"
    assert by_spec.plan == corvus.solve(BLOCKS, BLOCKS_4, alias="lama-first").plan
    # Fast Downward's spelling runs as written.
    fd = corvus.solve(BLOCKS, BLOCKS_4, search="astar(lmcut())")
    assert fd.plan.cost == 10 and fd.stats["config"] == "astar(lmcut())"
    assert corvus.spec(search="let(h, ff(), lazy_greedy([h], preferred=[h]))") == "lazy([hff()], order=natural)"
    assert corvus.spec(alias="seq-opt-lmcut") == "astar(lmcut())"
    assert corvus.spec(alias="seq-opt") == "astar(pdb()) @ 0.25; astar(lmcut()) @ 0.5; symbolic() @ 1"
    # The default is the portfolio, entry by entry with its share.
    assert corvus.spec() == "lazy([hff(cost=one), lmcount(cost=one)]) @ 0.3; bfws([hff(cost=one)]) @ 1"
    assert corvus.spec(search="lazy", heuristic="hff,lmcount") == "lazy([hff(), lmcount()])"
    with pytest.raises(ValueError) as error:
        corvus.solve(BLOCKS, BLOCKS_4, search="astar(lmcutt())")
    assert "column 7: unknown heuristic `lmcutt`" in str(error.value)
    assert "astar(lmcutt())\n        ^" in str(error.value)
    with pytest.raises(ValueError, match="names its own heuristics"):
        corvus.spec(search="astar(lmcut())", heuristic="hff")


def test_a_time_limit_beyond_the_clock_is_no_limit():
    # 1e19 s fits a duration, but a deadline that far overflowed the clock (a panic).
    assert corvus.solve(BLOCKS, BLOCKS_4, time_limit=1e19).status == "solved"


def test_the_registries_and_aliases_are_listed():
    assert "lama-first" in corvus.aliases() and "seq-opt-lmcut" in corvus.aliases()
    assert {"astar", "gbfs"} <= set(corvus.searches())
    assert {"hff", "lmcut", "pdb"} <= set(corvus.heuristics())


def test_the_search_releases_the_gil():
    """Another Python thread runs while corvus searches."""
    done = threading.Event()
    ticks = 0

    def search():
        corvus.solve(BLOCKS, HEAVY, alias="seq-opt-blind", time_limit=1.0)
        done.set()

    thread = threading.Thread(target=search)
    thread.start()
    while not done.is_set():
        ticks += 1
        done.wait(0.01)
    thread.join()
    assert ticks >= 10


def test_weights_from_zero_up_are_accepted_as_on_the_command_line():
    """`--weight` takes any finite weight of at least 0; so does `weight`.
    Weight 0 is uniform-cost search (optimal), 0.5 weighted A* below 1."""
    result = corvus.solve(BLOCKS, BLOCKS_4, search="wastar", heuristic="hff", weight=0)
    assert result.solved and result.plan.cost == 10
    assert corvus.solve(BLOCKS, BLOCKS_4, search="wastar", heuristic="hff", weight=0.5).solved


def test_anytime_hands_over_each_cheaper_plan():
    plans = []
    result = corvus.solve(ROADS, ROADS_DETOUR, alias="lama", time_limit=60, on_plan=plans.append)
    assert result.solved
    costs = [plan.cost for plan in plans]
    # lama-first counts roads, so its plan takes the direct one; the anytime
    # phases find cheaper ones down to the optimum, and prove it optimal.
    assert costs[0] == 10 and costs[-1] == 3, costs
    assert all(a > b for a, b in zip(costs, costs[1:])), costs
    for plan in plans:
        verdict = corvus.validate_pddl(ROADS.read_text(), ROADS_DETOUR.read_text(), plan)
        assert verdict.valid and verdict.cost == plan.cost
    assert result.plan == plans[-1] and result.proven_optimal
    # Without a proof the result says so.
    assert not corvus.solve(ROADS, ROADS_DETOUR).proven_optimal
    # `anytime=True` is `--anytime` on top of any configuration.
    result = corvus.solve(ROADS, ROADS_DETOUR, search="gbfs", heuristic="hff", anytime=True, time_limit=60)
    assert result.plan.cost == 3 and result.proven_optimal


def test_on_plan_can_end_the_run_or_raise():
    plans = []
    result = corvus.solve(ROADS, ROADS_DETOUR, alias="lama", on_plan=lambda plan: plans.append(plan) or False)
    assert result.solved and [p.cost for p in plans] == [10] and result.plan.cost == 10

    def refuse(plan):
        raise RuntimeError(f"no plan of cost {plan.cost}")

    with pytest.raises(RuntimeError, match="no plan of cost 10"):
        corvus.solve(ROADS, ROADS_DETOUR, alias="lama", on_plan=refuse)


def test_cancel_stops_the_search():
    cancel = threading.Event()
    timer = threading.Timer(0.3, cancel.set)
    timer.start()
    result = corvus.solve(BLOCKS, LONG, alias="seq-opt-lmcut", time_limit=300, cancel=cancel)
    timer.join()
    assert (result.status, result.exit_code, result.plan) == ("interrupted", 130, None)
    # The stop was this run's alone: the next one runs to its end.
    assert corvus.solve(BLOCKS, BLOCKS_4, cancel=threading.Event()).solved


CTRL_C_SCRIPT = """
import signal, sys, time
import corvus
# As in an interactive Python: a process started in the background (CI runs
# this way) inherits SIGINT ignored, and Python then leaves it ignored.
signal.signal(signal.SIGINT, signal.default_int_handler)
print("searching", flush=True)
try:
    result = corvus.solve(sys.argv[1], sys.argv[2], alias="seq-opt-lmcut", time_limit=300, memory_limit="1G")
    print("finished", result.status, flush=True)
except KeyboardInterrupt:
    print("KeyboardInterrupt", flush=True)
    # A Ctrl-C stops the run it interrupts, not the ones after it.
    print(corvus.solve(sys.argv[1], sys.argv[3]).status, flush=True)
"""


def test_ctrl_c_stops_a_search_with_keyboard_interrupt():
    """SIGINT during `corvus.solve` raises KeyboardInterrupt once the search
    has stopped, promptly rather than after the search (which would go on for
    minutes here, up to its limit of 300 s)."""
    child = subprocess.Popen(
        [sys.executable, "-c", CTRL_C_SCRIPT, str(BLOCKS), str(LONG), str(BLOCKS_4)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout.readline() == "searching\n"
        time.sleep(1.0)
        child.send_signal(signal.SIGINT)
        sent = time.monotonic()
        out, err = child.communicate(timeout=60)
        stopped_after = time.monotonic() - sent
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == 0, err
    assert out.splitlines() == ["KeyboardInterrupt", "solved"], (out, err)
    # Generous: the calling thread looks for signals every 50 ms.
    assert stopped_after < 10, stopped_after


def test_validate_reads_a_plan_within_the_task_bounds():
    """`validate` replays steps as it reads them and keeps no more arguments
    than an action takes: a 5-million-argument step costs about its text."""
    import resource

    domain, problem = BLOCKS.read_text(), BLOCKS_4.read_text()
    huge = "(pick-up" + " a" * 5_000_000 + ")\n"
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    verdict = corvus.validate_pddl(domain, problem, huge)
    grown_mib = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert not verdict.valid and "takes 1 arguments, got 5000000" in verdict.error, verdict.error
    # Holding the steps' arguments took over 600 MB; the text is 10 MB.
    assert grown_mib < 150, grown_mib
    # A syntax error anywhere wins over the verdict, as on the command line.
    with pytest.raises(corvus.CorvusError) as error:
        corvus.validate_pddl(domain, problem, "(unstack a b)\n(pick-up\n")
    assert error.value.exit_code == 31

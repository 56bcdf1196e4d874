"""The plain Python API: `corvus.solve` and `corvus.validate` on files and text."""

import threading
from pathlib import Path

import pytest

import corvus

ROOT = Path(__file__).resolve().parents[2]
BLOCKS = ROOT / "problems" / "ipc" / "blocks" / "domain.pddl"
BLOCKS_4 = ROOT / "problems" / "ipc" / "blocks" / "probBLOCKS-4-1.pddl"
HEAVY = ROOT / "tests" / "data" / "blocks-12-0.pddl"
SWITCH = ROOT / "tests" / "data" / "switch-domain.pddl"

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
    assert result.stats["config"] == "lazy(hff[cost=one],lmcount[cost=one])"
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
             for alias in ("seq-opt-lmcut", "seq-opt-pdb", "seq-opt-blind")}
    assert costs == {"seq-opt-lmcut": 10, "seq-opt-pdb": 10, "seq-opt-blind": 10}
    result = corvus.solve(BLOCKS, BLOCKS_4, search="astar", heuristic="hmax")
    assert result.stats["config"] == "astar(hmax)" and result.plan.cost == 10


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
                   {"alias": "lama-first", "search": "astar"}, {"time_limit": "soon"}):
        with pytest.raises(ValueError):
            corvus.solve(BLOCKS, BLOCKS_4, **kwargs)


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

"""The Unified Planning engines `corvus`, `corvus-opt` and `corvus-anytime`."""

import subprocess
import sys
from fractions import Fraction

import pytest

import corvus
import corvus.up
import unified_planning as up
from unified_planning.engines import PlanGenerationResultStatus as Status
from unified_planning.engines import ValidationResultStatus
from unified_planning.engines.plan_validator import SequentialPlanValidator
from unified_planning.shortcuts import (
    AnytimePlanner,
    BoolType,
    Equals,
    Fluent,
    InstantaneousAction,
    Int,
    IntType,
    MinimizeActionCosts,
    Real,
    Not,
    Object,
    OneshotPlanner,
    Problem,
    UserType,
)

up.shortcuts.get_environment().credits_stream = None


def robots(with_costs: bool = False) -> Problem:
    """Two robots and a parcel on a line of rooms r0 - r1 - r2 - r3 (with a
    shortcut r0 - r3). The parcel goes from r0 to r3; a room holds one robot
    (a negative condition), and moving needs two different rooms (equality)."""
    Location = UserType("Location")
    Thing = UserType("Thing")
    Robot = UserType("Robot", Thing)
    at = Fluent("at", BoolType(), t=Thing, l=Location)
    occupied = Fluent("occupied", BoolType(), l=Location)
    connected = Fluent("connected", BoolType(), a=Location, b=Location)
    carrying = Fluent("carrying", BoolType(), r=Robot, p=Thing)
    free = Fluent("free", BoolType(), r=Robot)

    move = InstantaneousAction("move", r=Robot, a=Location, b=Location)
    r, a, b = move.parameters
    move.add_precondition(at(r, a))
    move.add_precondition(connected(a, b))
    move.add_precondition(Not(Equals(a, b)))
    move.add_precondition(Not(occupied(b)))
    move.add_effect(at(r, a), False)
    move.add_effect(at(r, b), True)
    move.add_effect(occupied(a), False)
    move.add_effect(occupied(b), True)

    pick = InstantaneousAction("pick", r=Robot, p=Thing, l=Location)
    r, p, l = pick.parameters
    pick.add_precondition(at(r, l))
    pick.add_precondition(at(p, l))
    pick.add_precondition(free(r))
    pick.add_precondition(Not(Equals(r, p)))
    pick.add_effect(at(p, l), False)
    pick.add_effect(carrying(r, p), True)
    pick.add_effect(free(r), False)

    drop = InstantaneousAction("drop", r=Robot, p=Thing, l=Location)
    r, p, l = drop.parameters
    drop.add_precondition(at(r, l))
    drop.add_precondition(carrying(r, p))
    drop.add_effect(carrying(r, p), False)
    drop.add_effect(at(p, l), True)
    drop.add_effect(free(r), True)

    problem = Problem("robots")
    for f in (at, occupied, connected, carrying, free):
        problem.add_fluent(f, default_initial_value=False)
    problem.add_actions([move, pick, drop])
    rooms = [Object(f"r{i}", Location) for i in range(4)]
    robot1, robot2 = Object("robot1", Robot), Object("robot2", Robot)
    parcel = Object("parcel", Thing)
    problem.add_objects(rooms + [robot1, robot2, parcel])
    for i, j in [(0, 1), (1, 2), (2, 3), (0, 3)]:
        problem.set_initial_value(connected(rooms[i], rooms[j]), True)
        problem.set_initial_value(connected(rooms[j], rooms[i]), True)
    problem.set_initial_value(at(robot1, rooms[0]), True)
    problem.set_initial_value(occupied(rooms[0]), True)
    problem.set_initial_value(at(robot2, rooms[2]), True)
    problem.set_initial_value(occupied(rooms[2]), True)
    problem.set_initial_value(free(robot1), True)
    problem.set_initial_value(free(robot2), True)
    problem.set_initial_value(at(parcel, rooms[0]), True)
    problem.add_goal(at(parcel, rooms[3]))
    problem.add_goal(Not(carrying(robot1, parcel)))
    if with_costs:
        # The shortcut r0 - r3 is expensive: 10, against 1 per other move.
        distance = Fluent("distance", IntType(), a=Location, b=Location)
        problem.add_fluent(distance, default_initial_value=1)
        problem.set_initial_value(distance(rooms[0], rooms[3]), 10)
        problem.set_initial_value(distance(rooms[3], rooms[0]), 10)
        problem.add_quality_metric(
            MinimizeActionCosts({move: distance(move.parameters[1], move.parameters[2]), pick: Int(1), drop: Int(1)})
        )
    return problem


def assert_valid(problem, plan):
    validation = SequentialPlanValidator().validate(problem, plan)
    assert validation.status == ValidationResultStatus.VALID, validation


def test_a_problem_built_with_up_is_solved_and_the_plan_validates():
    problem = robots()
    assert CorvusKind.supports(problem.kind)
    with OneshotPlanner(name="corvus") as planner:
        result = planner.solve(problem)
    assert result.status == Status.SOLVED_SATISFICING, result
    assert result.engine_name == "corvus"
    assert_valid(problem, result.plan)
    assert result.metrics["status"] == "solved" and int(result.metrics["expanded"]) > 0
    # The shortest plan: pick, move r0-r3 (robot1 is alone on its way), drop.
    with OneshotPlanner(name="corvus-opt") as planner:
        optimal = planner.solve(problem)
    assert optimal.status == Status.SOLVED_OPTIMALLY
    assert_valid(problem, optimal.plan)
    assert len(optimal.plan.actions) == 3
    # The seq-opt portfolio's first entry decides this small task.
    assert optimal.metrics["config"] == "astar(pdb())"


def test_action_costs_are_minimized():
    problem = robots(with_costs=True)
    with OneshotPlanner(name="corvus-opt") as planner:
        result = planner.solve(problem)
    assert result.status == Status.SOLVED_OPTIMALLY, result
    assert_valid(problem, result.plan)
    # The shortcut (10) makes carrying the parcel alone cost 12. Cheaper is a
    # hand-over at r1: robot1 picks, moves to r1, drops, moves back to r0;
    # robot2 comes to r1, picks, moves to r2 and r3, drops: 9 actions of
    # cost 1. Without a hand-over robot1 would need r2 and r3 empty, and
    # robot2 can only leave that end of the line over the shortcut.
    moves = [a for a in result.plan.actions if a.action.name == "move"]
    assert not any({str(p) for p in a.actual_parameters[1:]} == {"r0", "r3"} for a in moves)
    assert int(result.metrics["plan_cost"]) == 9
    assert len(result.plan.actions) == 9
    with OneshotPlanner(name="corvus") as planner:
        satisficing = planner.solve(problem)
    assert satisficing.status == Status.SOLVED_SATISFICING
    assert_valid(problem, satisficing.plan)


def test_numeric_fluents_are_refused_by_up():
    problem = robots()
    fuel = Fluent("fuel", IntType())
    problem.add_fluent(fuel, default_initial_value=3)
    move = problem.action("move")
    move.add_precondition(fuel() >= 1)
    move.add_decrease_effect(fuel, 1)
    assert not CorvusKind.supports(problem.kind)
    # Asked by name, UP warns that the engine does not support the problem,
    # and corvus refuses the PDDL, naming the feature.
    with OneshotPlanner(name="corvus") as planner:
        with pytest.warns(UserWarning, match="cannot establish whether corvus can solve"):
            result = planner.solve(problem)
    assert result.status == Status.UNSUPPORTED_PROBLEM and result.plan is None
    assert "unsupported" in result.metrics["error"], result.metrics
    # With UP's checks as errors, UP refuses before corvus sees it.
    with OneshotPlanner(name="corvus") as planner:
        planner.error_on_failed_checks = True
        with pytest.raises(up.exceptions.UPUsageError):
            planner.solve(problem)
    # Asked by problem kind, UP does not choose it.
    env = up.environment.Environment()
    env.credits_stream = None
    corvus.up.register(env)
    env.factory.preference_list = ["corvus"]
    with env.factory.OneshotPlanner(problem_kind=robots().kind) as planner:
        assert planner.name == "corvus"
    with pytest.raises(up.exceptions.UPNoSuitableEngineAvailableException):
        env.factory.OneshotPlanner(problem_kind=problem.kind)


def test_a_refusal_says_why_in_the_log_messages_in_terms_of_the_problem():
    """A cost of 3/2 is a real number UP's kind allows (its reader makes every
    IPC cost a real); corvus takes whole costs only, and says so in
    `log_messages`, naming the action of the user's problem."""
    problem = robots(with_costs=True)
    move = problem.action("move")
    problem.clear_quality_metrics()
    problem.add_quality_metric(MinimizeActionCosts({move: Real(Fraction(3, 2))}, default=Int(1)))
    assert CorvusKind.supports(problem.kind)
    with OneshotPlanner(name="corvus") as planner:
        result = planner.solve(problem)
    assert result.status == Status.UNSUPPORTED_PROBLEM and result.plan is None
    assert result.log_messages, result
    text = result.log_messages[0].message
    assert "non-integer action costs" in text and "in action `move`" in text, text


def test_each_engine_has_its_own_credits():
    env = up.shortcuts.get_environment()
    names = {name: env.factory.engine(name).get_credits().name for name in ("corvus", "corvus-opt", "corvus-anytime")}
    assert names == {"corvus": "corvus", "corvus-opt": "corvus-opt", "corvus-anytime": "corvus-anytime"}


def _ipc_corpora():
    """The vendored IPC problems, and the shared corpus's (the first two
    problems of each domain) where `../shared` is beside the repository."""
    import os
    from pathlib import Path

    repo = Path(__file__).resolve().parents[2]
    corpora = [pytest.param(repo / "problems" / "ipc", 10, id="vendored")]
    for root in [os.environ.get("CORVUS_SHARED"), repo.parent / "shared", repo.parent.parent / "shared"]:
        if root and (Path(root) / "ipc").is_dir():
            corpora.append(pytest.param(Path(root) / "ipc", 2, id="shared"))
            break
    return corpora


@pytest.mark.parametrize("ipc, per_domain", _ipc_corpora())
def test_every_ipc_problem_up_reads_is_accepted_found_by_kind_solved_and_valid(ipc, per_domain):
    """Every problem UP's PDDL reader reads (its reader makes IPC action costs
    real numbers and leaves cost functions undefined where the problem gives
    no value) is accepted by `corvus`, found by problem kind, solved, and its
    plan validated: by UP's validator where it can, else by corvus's own
    validator on the original files."""
    from unified_planning.io import PDDLReader

    assert ipc.is_dir(), ipc
    env = up.shortcuts.get_environment()
    counts = {"problems": 0, "read": 0, "by UP": 0, "by corvus": 0}
    for domain in sorted(ipc.glob("*/domain.pddl")):
        problems = sorted(p for p in domain.parent.glob("*.pddl") if "domain" not in p.name)
        for problem_file in problems[:per_domain]:
            counts["problems"] += 1
            try:
                problem = PDDLReader(env).parse_problem(str(domain), str(problem_file))
            except Exception:
                continue  # UP's reader refuses it (logistics00's `in` of two arities, :derived)
            counts["read"] += 1
            assert CorvusKind.supports(problem.kind), (problem_file, problem.kind)
            with OneshotPlanner(problem_kind=problem.kind) as planner:
                assert planner.name.startswith("corvus"), planner.name
            with OneshotPlanner(name="corvus") as planner:
                result = planner.solve(problem, timeout=60)
            assert result.status == Status.SOLVED_SATISFICING, (problem_file, result)
            validator = SequentialPlanValidator(environment=env)
            if validator.supports(problem.kind):
                assert validator.validate(problem, result.plan).status == ValidationResultStatus.VALID
                counts["by UP"] += 1
            else:
                steps = "".join(f"({a.action.name} {' '.join(str(p) for p in a.actual_parameters)})\n" for a in result.plan.actions)
                assert corvus.validate_pddl(domain.read_text(), problem_file.read_text(), steps).valid, problem_file
                counts["by corvus"] += 1
    if per_domain == 10:
        # The vendored set: 9 of its 10 domains read, 2 problems each;
        # elevators' undefined costs are beyond UP's validator.
        assert counts == {"problems": 20, "read": 18, "by UP": 16, "by corvus": 2}, counts
    else:
        # The shared corpus (7 Dec 2026): 17 of 19 domains read.
        assert counts["read"] >= counts["problems"] - 4, counts


def test_parameters_choose_the_configuration():
    problem = robots()
    with OneshotPlanner(name="corvus", params={"search": "astar", "heuristic": "pdb"}) as planner:
        result = planner.solve(problem)
    assert result.metrics["config"] == "astar(pdb())"
    assert_valid(problem, result.plan)
    assert len(result.plan.actions) == 3
    # A spec, in Fast Downward's spelling here; a bad one is refused with its place.
    with OneshotPlanner(name="corvus", params={"search": "eager_greedy([ff()], preferred=[ff()])"}) as planner:
        result = planner.solve(problem)
    assert result.metrics["config"] == "gbfs(hff())"
    assert_valid(problem, result.plan)
    with pytest.raises(ValueError, match="column 14: `astar` has no parameter `w`"):
        OneshotPlanner(name="corvus", params={"search": "astar(hff, w=2)"})


CorvusKind = up.shortcuts.get_environment().factory.engine("corvus")


def test_up_finds_the_engines_without_import_corvus(tmp_path):
    """After the install, a script that never imports corvus gets the engines
    (corvus_up.pth and corvus_up_hook.py), by name and by problem kind."""
    script = tmp_path / "plan.py"
    script.write_text(
        "import sys\n"
        "import unified_planning.shortcuts as up\n"
        "up.get_environment().credits_stream = None\n"
        "L = up.UserType('L')\n"
        "at = up.Fluent('at', up.BoolType(), l=L)\n"
        "move = up.InstantaneousAction('move', a=L, b=L)\n"
        "a, b = move.parameters\n"
        "move.add_precondition(at(a))\n"
        "move.add_effect(at(a), False)\n"
        "move.add_effect(at(b), True)\n"
        "problem = up.Problem('p')\n"
        "problem.add_fluent(at, default_initial_value=False)\n"
        "problem.add_action(move)\n"
        "x, y = up.Object('x', L), up.Object('y', L)\n"
        "problem.add_objects([x, y])\n"
        "problem.set_initial_value(at(x), True)\n"
        "problem.add_goal(at(y))\n"
        "with up.OneshotPlanner(name='corvus') as planner:\n"
        "    print(planner.solve(problem).plan.actions)\n"
        "up.get_environment().factory.preference_list = ['corvus', 'corvus-opt']\n"
        "with up.OneshotPlanner(problem_kind=problem.kind) as planner:\n"
        "    print(planner.name)\n"
    )
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["[move(x, y)]", "corvus"]


def test_import_corvus_does_not_import_up_and_up_still_finds_the_engines(tmp_path):
    """`import corvus` stays cheap where UP is installed (importing UP takes
    seconds): it does not load UP, and UP imported afterwards has the engines;
    corvus_up_hook itself imports no `importlib.abc` (with `importlib.resources`,
    `pathlib`, `re`) at interpreter start."""
    script = tmp_path / "later.py"
    script.write_text(
        "import sys\n"
        "assert 'importlib.abc' not in sys.modules, 'start-up loaded importlib.abc'\n"
        "import corvus\n"
        "assert not [m for m in sys.modules if m.startswith('unified_planning')], 'import corvus loaded UP'\n"
        "import unified_planning.shortcuts as up\n"
        "print(sorted(n for n in up.get_environment().factory.engines if n.startswith('corvus')))\n"
    )
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["['corvus', 'corvus-anytime', 'corvus-opt']"]


def briefcase() -> Problem:
    """A briefcase moves between three rooms and carries what is in it
    (a conditional effect under a forall); the goal asks, with a forall,
    that every item be in r2."""
    from unified_planning.shortcuts import And, Forall, Variable

    Room = UserType("Room")
    Item = UserType("Item")
    case_at = Fluent("case_at", BoolType(), r=Room)
    at = Fluent("at", BoolType(), i=Item, r=Room)
    inside = Fluent("inside", BoolType(), i=Item)
    move = InstantaneousAction("move", a=Room, b=Room)
    a, b = move.parameters
    move.add_precondition(case_at(a))
    move.add_precondition(Not(Equals(a, b)))
    move.add_effect(case_at(a), False)
    move.add_effect(case_at(b), True)
    i = Variable("i", Item)
    move.add_effect(at(i, b), True, condition=inside(i), forall=[i])
    move.add_effect(at(i, a), False, condition=inside(i), forall=[i])
    put_in = InstantaneousAction("put_in", i=Item, r=Room)
    put_in.add_precondition(And(at(put_in.parameters[0], put_in.parameters[1]), case_at(put_in.parameters[1])))
    put_in.add_effect(inside(put_in.parameters[0]), True)
    problem = Problem("briefcase")
    for f in (case_at, at, inside):
        problem.add_fluent(f, default_initial_value=False)
    problem.add_actions([move, put_in])
    rooms = [Object(f"r{k}", Room) for k in range(3)]
    items = [Object(f"o{k}", Item) for k in range(2)]
    problem.add_objects(rooms + items)
    problem.set_initial_value(case_at(rooms[0]), True)
    problem.set_initial_value(at(items[0], rooms[0]), True)
    problem.set_initial_value(at(items[1], rooms[1]), True)
    problem.add_goal(Forall(at(i, rooms[2]), i))
    return problem


def test_conditional_and_universal_effects_and_quantified_goals_are_supported():
    problem = briefcase()
    assert CorvusKind.supports(problem.kind)
    with OneshotPlanner(name="corvus-opt") as planner:
        result = planner.solve(problem)
    assert result.status == Status.SOLVED_OPTIMALLY, result
    assert_valid(problem, result.plan)
    # put o0 in at r0, move to r1, put o1 in, move to r2.
    assert len(result.plan.actions) == 4


def test_the_anytime_engine_yields_each_cheaper_plan_then_the_best():
    problem = robots(with_costs=True)
    with AnytimePlanner(name="corvus-anytime") as planner:
        assert planner.ensures(up.engines.AnytimeGuarantee.INCREASING_QUALITY)
        results = list(planner.get_solutions(problem, timeout=60))
    *intermediate, final = results
    assert intermediate and all(r.status == Status.INTERMEDIATE for r in intermediate), results
    costs = [int(r.metrics["plan_cost"]) for r in intermediate]
    # lama's first search counts actions and carries the parcel over the
    # shortcut (3 actions, cost 12); the anytime phases find the hand-over of
    # cost 9 (see test_action_costs_are_minimized) and prove it optimal.
    assert costs[0] == 12 and costs[-1] == 9, costs
    assert all(a > b for a, b in zip(costs, costs[1:])), costs
    for r in results:
        assert r.engine_name == "corvus-anytime"
        assert_valid(problem, r.plan)
    assert final.status == Status.SOLVED_OPTIMALLY, final
    assert final.metrics["plan_cost"] == "9" and final.metrics["proven_optimal"] == "True"
    assert final.plan == intermediate[-1].plan


def test_the_anytime_engine_is_chosen_by_guarantee_and_stops_when_left():
    problem = robots(with_costs=True)
    with AnytimePlanner(problem_kind=problem.kind, anytime_guarantee="INCREASING_QUALITY") as planner:
        assert planner.name == "corvus-anytime"
        # Leaving after the first plan stops the search (the thread is joined).
        solutions = planner.get_solutions(problem, timeout=60)
        first = next(solutions)
        solutions.close()
    assert first.status == Status.INTERMEDIATE
    assert_valid(problem, first.plan)
    # A problem without action costs: plans get shorter, down to the shortest.
    problem = robots()
    with AnytimePlanner(name="corvus-anytime", params={"alias": "lama-first"}) as planner:
        *_, final = planner.get_solutions(problem, timeout=60)
    assert final.status in (Status.SOLVED_OPTIMALLY, Status.SOLVED_SATISFICING)
    assert_valid(problem, final.plan)
    assert len(final.plan.actions) == 3

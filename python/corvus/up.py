"""corvus as a Unified Planning engine.

``corvus`` (satisficing, the ``seq-sat-corvus`` portfolio by default, any alias or search and
heuristic through ``params``), ``corvus-opt`` (the ``seq-opt`` portfolio,
optimal plans) and ``corvus-anytime`` (an anytime planner: ``lama`` by default, each
cheaper plan as it is found). They write the problem with UP's
``PDDLWriter``, solve it in-process through ``corvus.solve_pddl`` and map the
plans back onto the UP problem::

    from unified_planning.shortcuts import AnytimePlanner, OneshotPlanner
    with OneshotPlanner(name="corvus") as planner:
        result = planner.solve(problem)
    with AnytimePlanner(name="corvus-anytime") as planner:
        for result in planner.get_solutions(problem, timeout=10):
            print(result.status, result.plan)

``SUPPORTED_FEATURES`` below is what corvus accepts; UP refuses any other
problem kind before corvus sees it.
"""

from __future__ import annotations

import queue
import re
import threading
from typing import IO, Callable, Dict, Iterator, List, Optional, Tuple

import unified_planning as up
from unified_planning.engines import (
    Credits,
    Engine,
    LogLevel,
    LogMessage,
    OptimalityGuarantee,
    PlanGenerationResult,
    PlanGenerationResultStatus as Status,
)
from unified_planning.engines.mixins import AnytimePlannerMixin, OneshotPlannerMixin
from unified_planning.engines.mixins.anytime_planner import AnytimeGuarantee
from unified_planning.io import PDDLWriter
from unified_planning.model import ProblemKind

import corvus

# What corvus supports, as UP problem-kind features: `(category, feature)`,
# set with `ProblemKind.set_<category>(feature)`. This is the one list to
# extend when corvus learns more.
SUPPORTED_FEATURES: List[Tuple[str, str]] = [
    ("problem_class", "ACTION_BASED"),
    # STRIPS with typing (a type hierarchy), negative conditions, equality.
    ("typing", "FLAT_TYPING"),
    ("typing", "HIERARCHICAL_TYPING"),
    ("conditions_kind", "NEGATIVE_CONDITIONS"),
    ("conditions_kind", "EQUALITIES"),
    # Action costs: integers or static functions, `(:metric minimize (total-cost))`.
    ("quality_metrics", "ACTIONS_COST"),
    ("quality_metrics", "PLAN_LENGTH"),
    ("actions_cost_kind", "STATIC_FLUENTS_IN_ACTIONS_COST"),
    ("actions_cost_kind", "INT_NUMBERS_IN_ACTIONS_COST"),
    # UP's PDDL reader reads every number of an IPC cost domain as a real
    # (`(= (road-length a b) 10)`), and marks a cost function that is not
    # given for every argument tuple. corvus takes costs that are whole
    # numbers and refuses others, or a cost an action needs but the problem
    # leaves undefined, naming them.
    ("actions_cost_kind", "REAL_NUMBERS_IN_ACTIONS_COST"),
    ("initial_state", "UNDEFINED_INITIAL_NUMERIC"),
    # ADL: quantified and disjunctive conditions, conditional and universal effects.
    ("conditions_kind", "DISJUNCTIVE_CONDITIONS"),
    ("conditions_kind", "EXISTENTIAL_CONDITIONS"),
    ("conditions_kind", "UNIVERSAL_CONDITIONS"),
    ("effects_kind", "CONDITIONAL_EFFECTS"),
    ("effects_kind", "FORALL_EFFECTS"),
]

def _credits(name: str, what: str) -> Credits:
    return Credits(
        name=name,
        author="the corvus developers",
        contact="see the repository",
        website="see the repository",
        license="see the repository",
        short_description=f"corvus, a domain-independent classical planner in Rust: {what}.",
        long_description="A domain-independent classical planner in Rust: lazy greedy search with h_FF "
        "and landmarks (LAMA's first iteration), A* with LM-cut or pattern databases, anytime "
        "improvement; plans are validated on the PDDL problem before they are returned.",
    )


# corvus's status names (the `--stats-json` `status`) as UP result statuses.
_STATUS: Dict[str, Status] = {
    "unsolvable": Status.UNSOLVABLE_PROVEN,
    "incomplete": Status.UNSOLVABLE_INCOMPLETELY,
    "out-of-time": Status.TIMEOUT,
    "out-of-memory": Status.MEMOUT,
    "interrupted": Status.INTERNAL_ERROR,
}


def supported_kind() -> ProblemKind:
    kind = ProblemKind(version=2)
    for category, feature in SUPPORTED_FEATURES:
        getattr(kind, f"set_{category}")(feature)
    return kind


class _CorvusEngine(Engine):
    """What every corvus engine shares: its configuration from ``params``
    (``alias``, a ``search`` spec such as ``"astar(lmcut())"``, or a
    ``search`` name and ``heuristic``, as ``corvus.solve``;
    ``memory_limit``), the credits and the supported problem kind."""

    #: The alias run when no configuration is given.
    DEFAULT_ALIAS: Optional[str] = None
    #: The UP mixin of the engine's operation mode, initialised with it.
    _MIXIN: type = OneshotPlannerMixin

    def __init__(
        self,
        alias: Optional[str] = None,
        search: Optional[str] = None,
        heuristic: Optional[str] = None,
        memory_limit: corvus.MemoryLimit = None,
    ):
        Engine.__init__(self)
        self._MIXIN.__init__(self)
        if alias is None and search is None and heuristic is None:
            alias = self.DEFAULT_ALIAS
        # A bad configuration is refused here, with the place of the mistake.
        corvus.spec(alias=alias, search=search, heuristic=heuristic)
        self._config = dict(alias=alias, search=search, heuristic=heuristic, memory_limit=memory_limit)

    #: The engine's line in UP's credits banner.
    _CREDITS: Credits = _credits("corvus", "a first plan fast (the seq-sat-corvus portfolio, lama-first first)")

    @classmethod
    def get_credits(cls, **kwargs) -> Optional[Credits]:
        return cls._CREDITS

    @staticmethod
    def supported_kind() -> ProblemKind:
        return supported_kind()

    @staticmethod
    def supports(problem_kind: ProblemKind) -> bool:
        return problem_kind <= supported_kind()


class CorvusPlanner(_CorvusEngine, OneshotPlannerMixin):
    """The satisficing engine. ``params``: ``alias`` or ``search`` and
    ``heuristic`` (as ``corvus.solve``), ``memory_limit``."""

    DEFAULT_ALIAS: Optional[str] = "seq-sat-corvus"

    @property
    def name(self) -> str:
        return "corvus"

    @staticmethod
    def satisfies(optimality_guarantee: OptimalityGuarantee) -> bool:
        return optimality_guarantee == OptimalityGuarantee.SATISFICING

    def _solved_status(self) -> Status:
        return Status.SOLVED_SATISFICING

    def _solve(
        self,
        problem: "up.model.AbstractProblem",
        heuristic: Optional[Callable[["up.model.state.State"], Optional[float]]] = None,
        timeout: Optional[float] = None,
        output_stream: Optional[IO[str]] = None,
    ) -> PlanGenerationResult:
        assert isinstance(problem, up.model.Problem)
        if heuristic is not None:
            _warn("corvus uses its own heuristics; the custom heuristic is ignored")
        if output_stream is not None:
            _warn("corvus runs silently in-process; output_stream is ignored")
        writer = PDDLWriter(problem)
        try:
            result = corvus.solve_pddl(
                writer.get_domain(), writer.get_problem(), time_limit=timeout, **self._config
            )
        except corvus.CorvusError as e:
            return _refused(e, self.name, writer)
        metrics = {key: str(value) for key, value in result.stats.items()}
        if result.plan is None:
            return PlanGenerationResult(_STATUS[result.status], None, self.name, metrics=metrics)
        plan = _up_plan(problem, writer, result.plan)
        return PlanGenerationResult(self._solved_status(), plan, self.name, metrics=metrics)

class CorvusOptimalPlanner(CorvusPlanner):
    """The optimal engine: the ``seq-opt`` portfolio unless ``params`` name
    another optimal configuration."""

    DEFAULT_ALIAS = "seq-opt"
    _CREDITS = _credits(
        "corvus-opt",
        "optimal plans (a portfolio: A* with pattern databases, symbolic search, A* with LM-cut)",
    )

    @property
    def name(self) -> str:
        return "corvus-opt"

    @staticmethod
    def satisfies(optimality_guarantee: OptimalityGuarantee) -> bool:
        return True

    def _solved_status(self) -> Status:
        return Status.SOLVED_OPTIMALLY


class CorvusAnytimePlanner(_CorvusEngine, AnytimePlannerMixin):
    """The anytime engine: ``get_solutions`` yields a result of status
    ``INTERMEDIATE`` for each plan as soon as it is found, each one cheaper
    than the one before (in the problem's action costs, or in steps), and
    then a final one with the best plan: ``SOLVED_OPTIMALLY`` when corvus
    proved it optimal (a search for a cheaper plan found none),
    ``SOLVED_SATISFICING`` when the ``timeout`` ended the search first, or
    the status of a run without a plan. Without a ``timeout`` it searches
    until that proof. ``params`` as for ``corvus`` (``alias``, or ``search``
    and ``heuristic``: the configuration of the first search; the alias
    ``lama`` by default); the improvement is always corvus's ``--anytime``.

    The search runs on a thread of its own; closing the iterator early (or
    Ctrl-C while it waits) stops it."""

    DEFAULT_ALIAS: Optional[str] = "lama"
    _MIXIN = AnytimePlannerMixin
    _CREDITS = _credits("corvus-anytime", "cheaper and cheaper plans (lama)")

    @property
    def name(self) -> str:
        return "corvus-anytime"

    @staticmethod
    def ensures(anytime_guarantee: AnytimeGuarantee) -> bool:
        # Every plan after the first is cheaper than the one before; the
        # first need not be optimal.
        return anytime_guarantee == AnytimeGuarantee.INCREASING_QUALITY

    def _get_solutions(
        self,
        problem: "up.model.AbstractProblem",
        timeout: Optional[float] = None,
        output_stream: Optional[IO[str]] = None,
    ) -> Iterator[PlanGenerationResult]:
        assert isinstance(problem, up.model.Problem)
        if output_stream is not None:
            _warn("corvus runs silently in-process; output_stream is ignored")
        writer = PDDLWriter(problem)
        domain, problem_text = writer.get_domain(), writer.get_problem()
        events: "queue.Queue[Tuple[str, object]]" = queue.Queue()
        cancel = threading.Event()

        def search() -> None:
            try:
                result = corvus.solve_pddl(
                    domain,
                    problem_text,
                    time_limit=timeout,
                    anytime=True,
                    on_plan=lambda plan: events.put(("plan", plan)),
                    cancel=cancel,
                    **self._config,
                )
                events.put(("done", result))
            except BaseException as e:  # handed to the caller's thread
                events.put(("error", e))

        thread = threading.Thread(target=search, name="corvus-anytime", daemon=True)
        thread.start()
        try:
            while True:
                kind, value = events.get()
                if kind == "plan":
                    assert isinstance(value, corvus.Plan)
                    plan = _up_plan(problem, writer, value)
                    metrics = {"plan_cost": str(value.cost), "plan_length": str(len(value))}
                    yield PlanGenerationResult(Status.INTERMEDIATE, plan, self.name, metrics=metrics)
                elif kind == "error":
                    if isinstance(value, corvus.CorvusError):
                        yield _refused(value, self.name, writer)
                        return
                    assert isinstance(value, BaseException)
                    raise value
                else:
                    assert isinstance(value, corvus.Result)
                    yield self._final(problem, writer, value)
                    return
        finally:
            # Stops the search when the caller leaves early.
            cancel.set()
            thread.join()

    def _final(self, problem: "up.model.Problem", writer: PDDLWriter, result: corvus.Result) -> PlanGenerationResult:
        metrics = {key: str(value) for key, value in result.stats.items()}
        metrics["proven_optimal"] = str(result.proven_optimal)
        if result.plan is None:
            return PlanGenerationResult(_STATUS[result.status], None, self.name, metrics=metrics)
        status = Status.SOLVED_OPTIMALLY if result.proven_optimal else Status.SOLVED_SATISFICING
        return PlanGenerationResult(status, _up_plan(problem, writer, result.plan), self.name, metrics=metrics)


def _refused(error: corvus.CorvusError, engine: str, writer: PDDLWriter) -> PlanGenerationResult:
    status = Status.UNSUPPORTED_PROBLEM if error.unsupported else Status.INTERNAL_ERROR
    reason = _in_terms_of_the_problem(error.message, writer)
    return PlanGenerationResult(
        status,
        None,
        engine,
        metrics={"error": error.message},
        log_messages=[LogMessage(LogLevel.ERROR, reason)],
    )


def _in_terms_of_the_problem(message: str, writer: PDDLWriter) -> str:
    """corvus's message about the PDDL that UP wrote (`<domain>:13:61: ...`),
    retold in terms of the user's problem: the action (or derived predicate)
    the line belongs to, and the fluent or object the line names, by their
    names in the UP problem."""
    match = re.match(r"<(domain|problem)>:(\d+):(\d+): (.*)", message, re.DOTALL)
    if match is None:
        return f"corvus cannot solve this problem: {message}"
    part, line, text = match.group(1), int(match.group(2)), match.group(4)
    pddl = (writer.get_domain() if part == "domain" else writer.get_problem()).splitlines()
    written = pddl[line - 1].strip() if 0 < line <= len(pddl) else ""
    where = []
    if part == "domain":
        for earlier in reversed(pddl[:line]):
            found = re.match(r"\s*\(:(action|derived)\s+\(?([^\s()]+)", earlier)
            if found:
                name = _up_name(writer, found.group(2)) or found.group(2)
                where.append(f"in {found.group(1)} `{name}`")
                break
    else:
        # An initial value or a goal: the fluents it names.
        names = [_up_name(writer, n) for n in re.findall(r"\(\s*([^\s()=]+)", written)]
        names = [n for n in dict.fromkeys(names) if n is not None]
        if names:
            where.append("about " + ", ".join(f"`{n}`" for n in names))
    located = f" ({'; '.join(where)})" if where else ""
    return f"corvus cannot solve this problem: {text}{located}; UP's PDDL there reads `{written}`"


def _up_name(writer: PDDLWriter, pddl_name: str) -> Optional[str]:
    """The UP item's name behind a name UP's writer chose (the same unless
    it had to rename); `None` for a name of the writer's own (`total-cost`,
    a keyword)."""
    try:
        return str(writer.get_item_named(pddl_name).name)
    except Exception:
        return None


def _warn(message: str) -> None:
    import warnings

    warnings.warn(message, up.exceptions.UPWarning)


def _up_plan(problem: "up.model.Problem", writer: PDDLWriter, plan: corvus.Plan) -> "up.plans.SequentialPlan":
    """corvus's plan as UP action instances: the writer knows which UP item
    each PDDL name it wrote stands for."""
    objects = problem.environment.expression_manager.ObjectExp
    actions = [
        up.plans.ActionInstance(
            writer.get_item_named(step.name), [objects(writer.get_item_named(arg)) for arg in step.args]
        )
        for step in plan.actions
    ]
    return up.plans.SequentialPlan(actions, problem.environment)


ENGINES: List[Tuple[str, str]] = [
    ("corvus", "CorvusPlanner"),
    ("corvus-opt", "CorvusOptimalPlanner"),
    ("corvus-anytime", "CorvusAnytimePlanner"),
]


def register(environment: Optional["up.environment.Environment"] = None) -> None:
    """Adds the engines to the factory of `environment` (UP's global one by default)."""
    env = environment or up.environment.get_environment()
    for name, class_name in ENGINES:
        if name not in env.factory.engines:
            env.factory.add_engine(name, __name__, class_name)

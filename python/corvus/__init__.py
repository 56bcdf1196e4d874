"""corvus, a domain-independent classical planner, from Python.

    >>> import corvus
    >>> result = corvus.solve("domain.pddl", "problem.pddl", alias="seq-opt-lmcut", time_limit=60)
    >>> result.status, result.plan.cost, [str(a) for a in result.plan.actions]

``solve`` and ``validate`` read files; ``solve_pddl`` and ``validate_pddl``
take PDDL text. A configuration is an ``alias`` (see ``aliases()``), a
``search`` spec such as ``"astar(lmcut())"`` or
``"lazy([hff(cost=one), lmcount(cost=one)])"`` (the command line's
``--search``; Fast Downward's spelling works for the components corvus
has), or a ``search`` algorithm's name with a ``heuristic`` (names,
comma-separated); limits are seconds (or ``"5m"``)
and bytes (or ``"8G"``). The result carries the statistics of the command
line's ``--stats-json`` file under the same names. Searches run on a thread
of their own without the GIL, while the calling thread looks for signals
every 50 ms: Ctrl-C stops the search at its next checkpoint and raises
``KeyboardInterrupt``. ``anytime=True`` (or the alias
``lama``) keeps looking for cheaper plans until the time limit, and
``on_plan`` sees each one as it is found.

The Unified Planning engines ``corvus``, ``corvus-opt`` and
``corvus-anytime`` live in
``corvus.up``. UP finds them after the install without ``import corvus``
(see ``corvus_up_hook``); ``import corvus`` does not import UP.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from os import PathLike
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

from . import _corvus

__all__ = [
    "Action",
    "CorvusError",
    "Plan",
    "Result",
    "Validation",
    "aliases",
    "heuristics",
    "searches",
    "spec",
    "solve",
    "solve_pddl",
    "validate",
    "validate_pddl",
]

__version__: str = _corvus.__version__

Path = Union[str, "PathLike[str]"]
TimeLimit = Union[float, int, str, None]
MemoryLimit = Union[int, str, None]

# Exit codes that are refusals of the input rather than outcomes of a search
# (src/exit.rs): input error, unsupported feature.
INPUT_ERROR = 31
UNSUPPORTED = 34


class CorvusError(Exception):
    """The input was refused: unreadable, malformed, or using an unsupported
    feature. ``exit_code`` is the command line's (31 input, 34 unsupported)."""

    def __init__(self, message: str, exit_code: int):
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code

    @property
    def unsupported(self) -> bool:
        return self.exit_code == UNSUPPORTED


@dataclass(frozen=True)
class Action:
    """One plan step: an action name and its arguments (object names)."""

    name: str
    args: Tuple[str, ...] = ()

    def __str__(self) -> str:
        return "(" + " ".join((self.name,) + self.args) + ")"


@dataclass(frozen=True)
class Plan:
    """A plan that corvus has replayed on the PDDL problem."""

    actions: List[Action]
    cost: int
    #: True when ``cost`` counts steps (the task has no action costs).
    unit_cost: bool

    def __len__(self) -> int:
        return len(self.actions)

    def to_ipc(self) -> str:
        """The plan file text, as ``corvus solve`` writes it."""
        kind = "unit cost" if self.unit_cost else "general cost"
        return "".join(f"{a}\n" for a in self.actions) + f"; cost = {self.cost} ({kind})\n"


@dataclass(frozen=True)
class Result:
    """The outcome of ``solve``."""

    #: ``solved``, ``unsolvable``, ``incomplete``, ``out-of-time``,
    #: ``out-of-memory`` or ``interrupted``.
    status: str
    #: The command line's exit code for this outcome.
    exit_code: int
    plan: Optional[Plan]
    #: The ``--stats-json`` object: ``expanded``, ``evaluated``, ``generated``,
    #: ``initial_h``, ``search_time_s``, ``peak_memory_bytes``, ``config``, ...
    stats: Dict[str, Any] = field(default_factory=dict)

    #: An anytime run proved ``plan`` optimal (a search for a cheaper plan
    #: found none).
    proven_optimal: bool = False

    @property
    def solved(self) -> bool:
        return self.status == "solved"


@dataclass(frozen=True)
class Validation:
    """The outcome of ``validate``: length and cost of a valid plan, or the
    first step or goal that fails."""

    valid: bool
    length: int
    cost: int
    error: Optional[str]


def aliases() -> Dict[str, str]:
    """The named configurations: name to description (with the spec it stands for)."""
    return dict(_corvus.aliases())


def spec(
    alias: Optional[str] = None,
    search: Optional[str] = None,
    heuristic: Optional[str] = None,
    weight: float = 2.0,
) -> str:
    """The spec a configuration stands for, in corvus's spelling, as
    ``solve`` with the same arguments would run it: ``spec(alias="lama-first")``
    is ``"lazy([hff(cost=one), lmcount(cost=one)])"``. A bad configuration
    raises ``ValueError`` naming the place of the mistake."""
    return _corvus.spec(alias, search, heuristic, weight)


def searches() -> List[str]:
    """The search algorithms ``search=`` accepts by name (it takes specs too)."""
    return list(_corvus.registry()[0])


def heuristics() -> List[str]:
    """The heuristics ``heuristic=`` accepts."""
    return list(_corvus.registry()[1])


def _time_limit(limit: TimeLimit) -> Optional[str]:
    if limit is None or isinstance(limit, str):
        return limit
    return f"{float(limit)}s"


def _memory_limit(limit: MemoryLimit) -> Optional[str]:
    if limit is None or isinstance(limit, str):
        return limit
    # The command line's syntax has no plain bytes; KiB are exact enough.
    return f"{max(1, int(limit) // 1024)}K"


#: Called with each plan as it is found; returning ``False`` ends the run
#: with that plan.
OnPlan = Callable[["Plan"], Optional[bool]]


def _solve(domain: str, problem: str, from_text: bool, **config: Any) -> Result:
    on_plan = config["on_plan"]

    def plan_found(steps: List[Tuple[str, List[str]]], cost: int, unit_cost: bool) -> Optional[bool]:
        actions = [Action(name, tuple(args)) for name, args in steps]
        return on_plan(Plan(actions=actions, cost=cost, unit_cost=unit_cost))

    stats_text, steps, proven_optimal = _corvus.solve(
        domain,
        problem,
        from_text,
        alias=config["alias"],
        search=config["search"],
        heuristic=config["heuristic"],
        weight=float(config["weight"]),
        preferred_operators=bool(config["preferred_operators"]),
        time_limit=_time_limit(config["time_limit"]),
        memory_limit=_memory_limit(config["memory_limit"]),
        verbose=bool(config["verbose"]),
        anytime=bool(config["anytime"]),
        on_plan=plan_found if on_plan is not None else None,
        cancel=config["cancel"],
    )
    stats = json.loads(stats_text)
    if stats["status"] == "error":
        raise CorvusError(stats["error"], stats["exit_code"])
    plan = None
    if steps is not None:
        plan = Plan(
            actions=[Action(name, tuple(args)) for name, args in steps],
            cost=stats["plan_cost"],
            unit_cost=stats["unit_cost"],
        )
    return Result(
        status=stats["status"],
        exit_code=stats["exit_code"],
        plan=plan,
        stats=stats,
        proven_optimal=proven_optimal,
    )


def solve(
    domain: Path,
    problem: Path,
    *,
    alias: Optional[str] = None,
    search: Optional[str] = None,
    heuristic: Optional[str] = None,
    weight: float = 2.0,
    preferred_operators: bool = True,
    time_limit: TimeLimit = None,
    memory_limit: MemoryLimit = None,
    verbose: bool = False,
    anytime: bool = False,
    on_plan: Optional[OnPlan] = None,
    cancel: Any = None,
) -> Result:
    """Solves the task in a domain and a problem file.

    Without ``alias`` or ``search`` it runs ``corvus solve``'s default
    (the ``seq-sat-corvus`` portfolio, whose first entry is ``lama-first``). ``alias`` cannot be combined with ``search`` or
    ``heuristic``. ``search`` is a spec (``"astar(lmcut())"``) or a
    search's name; with a name, ``heuristic`` names its heuristics and
    ``weight`` (at least 0) is weighted A*'s. A bad spec raises
    ``ValueError`` with the place of the mistake. ``result.stats["config"]``
    is the spec that ran. ``verbose`` prints the search log on stderr.

    ``anytime`` is ``--anytime``: after the first plan, cheaper ones until
    the time limit or a proof that the best is optimal (the alias ``lama``
    sets it). ``on_plan(plan)`` is called, on the calling thread while the
    search waits, with each plan as soon as it is found, each one cheaper
    than the one before; returning ``False`` ends the run with that plan.
    ``cancel`` is a ``threading.Event`` (anything with ``is_set()``): once
    it is set the search stops and the result has the best plan so far, or
    the status ``interrupted``. Ctrl-C stops the search and raises
    ``KeyboardInterrupt``; so does an exception raised by ``on_plan``.

    ``memory_limit`` (bytes, or ``"512M"``) and ``time_limit`` belong to
    this run: runs on other threads never stop it. The memory counted is
    the heap memory that this run's search thread allocates and still
    holds, not the interpreter's resident size (which other runs and
    Python's own objects share); ``stats["peak_memory_bytes"]`` is the most
    it held.

    Raises ``CorvusError`` for refused input and ``ValueError`` for an
    unknown configuration or a malformed limit.
    """
    return _solve(
        str(domain),
        str(problem),
        False,
        alias=alias,
        search=search,
        heuristic=heuristic,
        weight=weight,
        preferred_operators=preferred_operators,
        time_limit=time_limit,
        memory_limit=memory_limit,
        verbose=verbose,
        anytime=anytime,
        on_plan=on_plan,
        cancel=cancel,
    )


def solve_pddl(
    domain: str,
    problem: str,
    *,
    alias: Optional[str] = None,
    search: Optional[str] = None,
    heuristic: Optional[str] = None,
    weight: float = 2.0,
    preferred_operators: bool = True,
    time_limit: TimeLimit = None,
    memory_limit: MemoryLimit = None,
    verbose: bool = False,
    anytime: bool = False,
    on_plan: Optional[OnPlan] = None,
    cancel: Any = None,
) -> Result:
    """As ``solve``, with the domain and the problem given as PDDL text."""
    return _solve(
        domain,
        problem,
        True,
        alias=alias,
        search=search,
        heuristic=heuristic,
        weight=weight,
        preferred_operators=preferred_operators,
        time_limit=time_limit,
        memory_limit=memory_limit,
        verbose=verbose,
        anytime=anytime,
        on_plan=on_plan,
        cancel=cancel,
    )


def _validation(answer: Tuple[bool, int, int, Optional[str], int]) -> Validation:
    valid, length, cost, message, exit_code = answer
    if exit_code in (INPUT_ERROR, UNSUPPORTED):
        raise CorvusError(message or "input refused", exit_code)
    return Validation(valid=valid, length=length, cost=cost, error=message)


def validate(domain: Path, problem: Path, plan: Path) -> Validation:
    """Replays an IPC plan file on the task of a domain and a problem file."""
    return _validation(_corvus.validate(str(domain), str(problem), str(plan), False))


def validate_pddl(domain: str, problem: str, plan: Union[str, Plan]) -> Validation:
    """As ``validate``, with PDDL text and the plan as IPC text or a ``Plan``."""
    text = plan.to_ipc() if isinstance(plan, Plan) else plan
    return _validation(_corvus.validate(domain, problem, text, True))


def _register_up_engines() -> None:
    """Makes the Unified Planning engines known to UP without importing UP
    (which takes seconds): when UP's factory is loaded already and lacks them,
    they are registered in UP's global environment; otherwise
    `corvus_up_hook` adds them once UP is imported (the install's
    `corvus_up.pth` has set it up; importing it here does so where the
    `.pth` file was not run)."""
    import sys

    factory = sys.modules.get("unified_planning.engines.factory")
    if factory is None:
        try:
            import corvus_up_hook  # noqa: F401
        except ImportError:
            pass
        return
    if "corvus" in getattr(factory, "DEFAULT_ENGINES", {}):
        return
    from .up import register

    register()


_register_up_engines()

"""Limits belong to one run, not to the interpreter (issue 29, item 7): a run's
memory limit counts what its own search thread allocates, so a heavy run on
another thread does not push it out of memory, and stopping one run leaves
the other running."""

import threading
import time
from pathlib import Path

import corvus

ROOT = Path(__file__).resolve().parents[2]
SOKOBAN = ROOT / "problems" / "ipc" / "sokoban-sat08-strips" / "domain.pddl"
# seq-opt-lmcut searches it for most of a second, holding little memory.
SOKOBAN_2 = ROOT / "problems" / "ipc" / "sokoban-sat08-strips" / "p02.pddl"
BLOCKS = ROOT / "problems" / "ipc" / "blocks" / "domain.pddl"
LONG = ROOT / "tests" / "data" / "blocks-18-0.pddl"

MIB = 1 << 20


def explosion(params: int, objects: int) -> "tuple[str, str]":
    """A domain whose grounding explodes: `act` has objects**params ground
    operators, and the goal needs one of them."""
    xs = " ".join(f"?x{i}" for i in range(params))
    pre = " ".join(f"(p ?x{i})" for i in range(params))
    aa = " ".join("?a" for _ in range(params))
    domain = (
        f"(define (domain explode) (:predicates (p ?x) (q {xs}) (done))"
        f" (:action act :parameters ({xs}) :precondition (and {pre}) :effect (q {xs}))"
        f" (:action finish :parameters (?a) :precondition (q {aa}) :effect (done)))"
    )
    objs = " ".join(f"o{i}" for i in range(objects))
    init = " ".join(f"(p o{i})" for i in range(objects))
    problem = f"(define (problem e) (:domain explode) (:objects {objs}) (:init {init}) (:goal (done)))"
    return domain, problem


def resident_bytes() -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS")


def test_a_run_fits_its_memory_limit_while_another_thread_grounds():
    alone = corvus.solve(SOKOBAN, SOKOBAN_2, alias="seq-opt-lmcut")
    assert alone.solved
    # Tight for this run, and far below what the grounding below holds.
    limit = 2 * alone.stats["peak_memory_bytes"] + 16 * MIB
    assert corvus.solve(SOKOBAN, SOKOBAN_2, alias="seq-opt-lmcut", memory_limit=limit).solved

    domain, problem = explosion(params=4, objects=60)
    heavy_limit = limit + 400 * MIB
    results = {}

    def heavy():
        results["heavy"] = corvus.solve_pddl(domain, problem, time_limit=60, memory_limit=heavy_limit)

    grounding = threading.Thread(target=heavy)
    grounding.start()
    # Wait until the interpreter holds more than the tight limit because of
    # the other run.
    deadline = time.monotonic() + 30
    while resident_bytes() < limit + 64 * MIB and time.monotonic() < deadline:
        time.sleep(0.01)
    assert resident_bytes() >= limit + 64 * MIB, "the grounding did not grow"
    tight = corvus.solve(SOKOBAN, SOKOBAN_2, alias="seq-opt-lmcut", memory_limit=limit)
    grounding.join()
    assert tight.status == "solved", tight.stats
    assert tight.stats["peak_memory_bytes"] <= limit
    # The heavy run stopped at its own limit, not at the tight one's.
    assert results["heavy"].status == "out-of-memory"
    assert results["heavy"].stats["peak_memory_bytes"] > limit


def test_cancelling_one_run_leaves_the_other_running():
    cancel = threading.Event()
    results = {}

    def run(name, **limits):
        results[name] = corvus.solve(BLOCKS, LONG, alias="seq-opt-blind", **limits)

    cancelled = threading.Thread(target=run, args=("cancelled",), kwargs={"time_limit": 60, "cancel": cancel})
    timed = threading.Thread(target=run, args=("timed",), kwargs={"time_limit": 3})
    start = time.monotonic()
    cancelled.start()
    timed.start()
    time.sleep(0.5)
    cancel.set()
    cancelled.join()
    timed.join()
    assert results["cancelled"].status == "interrupted"
    # The other run went on to its own time limit.
    assert results["timed"].status == "out-of-time"
    assert time.monotonic() - start >= 3

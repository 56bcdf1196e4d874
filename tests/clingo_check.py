#!/usr/bin/env python3
"""Checks an ASP Competition witness with clingo and the family's encoding.

    clingo_check.py ENCODING INSTANCE WITNESS   -> SAT iff the witness is valid
    clingo_check.py ENCODING INSTANCE --none    -> SAT iff some witness exists

The witness actions are pinned: every witness fact must hold, no other
action may happen at its step, and no action at all may happen at a step the
witness leaves out (Sokoban: those steps are noops; Hanoi: the encoding needs
a move at every step, so a missing step makes the check fail). Prints SAT or
UNSAT; exit status 0 for SAT, 1 for UNSAT, 2 for bad usage or input, 3 when
clingo cannot be imported.
"""
import re
import sys

try:
    import clingo
except ImportError as e:  # The Rust tests treat 3 as "clingo missing".
    print(f"clingo not importable: {e}", file=sys.stderr)
    sys.exit(3)

# Action predicate -> (arity, index of the step argument).
ACTIONS = {
    "put": (3, 0),
    "move": (5, 4),
    "pushtogoal": (7, 6),
    "pushtonongoal": (7, 6),
}


def pinning_program(witness_text):
    """Constraints that make the witness the only actions."""
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], witness_text)
    ctl.ground([("base", [])])
    actions = []
    for atom in ctl.symbolic_atoms:
        sym = atom.symbol
        spec = ACTIONS.get(sym.name)
        if spec is None or len(sym.arguments) != spec[0]:
            raise ValueError(f"not a witness action: {sym}")
        actions.append(sym)
    if not actions:
        raise ValueError("the witness has no actions")
    families = {"hanoi" if a.name == "put" else "sokoban" for a in actions}
    if len(families) != 1:
        raise ValueError("the witness mixes Hanoi and Sokoban actions")
    lines = []
    for a in actions:
        arity, step_at = ACTIONS[a.name]
        t = a.arguments[step_at]
        lines.append(f":- not {a}.")
        lines.append(f"pinned({t}).")
        for name, (other_arity, other_step) in ACTIONS.items():
            if (name == "put") != (a.name == "put"):
                continue
            vars_ = [f"X{i}" for i in range(other_arity)]
            vars_[other_step] = str(t)
            atom = f"{name}({','.join(vars_)})"
            if name == a.name:
                mine = [str(x) for i, x in enumerate(a.arguments) if i != step_at]
                theirs = [v for i, v in enumerate(vars_) if i != other_step]
                lines.append(f":- {atom}, ({','.join(theirs)},) != ({','.join(mine)},).")
            else:
                lines.append(f":- {atom}.")
    if "hanoi" in families:
        lines.append(":- put(T,I,J), not pinned(T).")
    else:
        lines.append(":- step(T), not pinned(T), not noop(T).")
    return "\n".join(lines) + "\n"


def solve(program_parts):
    ctl = clingo.Control(["--models=1", "--warn=none"])
    for text in program_parts:
        ctl.add("base", [], text)
    ctl.ground([("base", [])])
    return ctl.solve().satisfiable


def main(argv):
    if len(argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    encoding, instance, witness = argv[1:]
    try:
        parts = [open(encoding).read(), open(instance).read()]
        if witness != "--none":
            parts.append(pinning_program(open(witness).read()))
        sat = solve(parts)
    except (OSError, ValueError, RuntimeError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print("SAT" if sat else "UNSAT")
    return 0 if sat else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))

"""corvus's plans on the shared ADL domains, checked by an independent
validator: Unified Planning reads the PDDL itself and replays the plan with
its `SequentialPlanValidator` (quantifiers, conditional effects); on mutated
plans both validators agree. For psr-middle (derived predicates), which UP's
reader refuses, the test checks that it still does: corvus's own validator is
then the only one.

The domains come from the shared corpus (`../shared/ipc` beside the
repository, or `$CORVUS_SHARED/ipc`), else from their vendored copy in
`problems/ipc-adl` (the first five problems of each)."""

import os
from pathlib import Path

import pytest

import corvus
import unified_planning as up
import unified_planning.shortcuts  # noqa: F401 (up.shortcuts below)
from unified_planning.engines import ValidationResultStatus
from unified_planning.engines.plan_validator import SequentialPlanValidator
from unified_planning.io import PDDLReader
from unified_planning.plans import SequentialPlan

up.shortcuts.get_environment().credits_stream = None

ADL_DOMAINS = ["miconic-simpleadl", "schedule", "assembly", "openstacks-sat08-adl", "airport-adl", "psr-middle"]
REPO = Path(__file__).resolve().parents[2]


# Domains whose PDDL Unified Planning's reader cannot read.
UP_UNREADABLE = {"psr-middle"}


def adl_ipc() -> Path:
    for root in [os.environ.get("CORVUS_SHARED"), REPO.parent / "shared", REPO.parent.parent / "shared"]:
        if root and (Path(root) / "ipc").is_dir():
            return Path(root) / "ipc"
    return REPO / "problems" / "ipc-adl"


def first_problems(domain_dir: Path, n: int):
    problems = sorted(p for p in domain_dir.glob("*.pddl") if "domain" not in p.name)
    return problems[:n]


@pytest.mark.parametrize("name", ADL_DOMAINS)
def test_plans_on_shared_adl_domains_pass_an_independent_validator(name, tmp_path):
    domain_dir = adl_ipc() / name
    domain = domain_dir / "domain.pddl"
    checked = 0
    for problem in first_problems(domain_dir, 5):
        result = corvus.solve(str(domain), str(problem), time_limit=60)
        assert result.status == "solved", f"{problem.name}: {result.status}"
        # corvus validated the plan itself before returning it; now UP.
        plan_file = tmp_path / f"{problem.stem}.plan"
        plan_file.write_text("\n".join(str(a) for a in result.plan.actions) + "\n")
        reader = PDDLReader()
        if name in UP_UNREADABLE:
            with pytest.raises(Exception):
                reader.parse_problem(str(domain), str(problem))
            checked += 1
            continue
        up_problem = reader.parse_problem(str(domain), str(problem))
        up_plan = reader.parse_plan(up_problem, str(plan_file))
        with SequentialPlanValidator() as validator:
            verdict = validator.validate(up_problem, up_plan)
        assert verdict.status == ValidationResultStatus.VALID, f"{name}/{problem.name}: {verdict}"
        # Mutated plans (every step but the last; no step): both validators
        # give the same verdict, and the empty plan is invalid.
        for k in (len(up_plan.actions) - 1, 0):
            mutated_file = tmp_path / f"{problem.stem}.{k}.plan"
            mutated_file.write_text("".join(f"{a}\n" for a in result.plan.actions[:k]))
            with SequentialPlanValidator() as validator:
                up_valid = validator.validate(up_problem, SequentialPlan(up_plan.actions[:k])).status
            ours = corvus.validate(str(domain), str(problem), str(mutated_file)).valid
            assert (up_valid == ValidationResultStatus.VALID) == ours, f"{name}/{problem.name}, {k} steps"
            if k == 0:
                assert not ours, f"{name}/{problem.name}: the goal holds initially"
        checked += 1
    assert checked == 5

"""corvus's plans on the shared ADL domains, checked by an independent
validator: Unified Planning reads the PDDL itself and replays the plan with
its `SequentialPlanValidator` (quantifiers, conditional effects); on mutated
plans both validators agree. Domains UP cannot read (derived predicates) are
reported as skipped, not passed.

The shared corpus is `../shared/ipc` beside the repository, or
`$CORVUS_SHARED/ipc`; without it the test is skipped."""

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


def shared_ipc():
    for root in [os.environ.get("CORVUS_SHARED"), REPO.parent / "shared", REPO.parent.parent / "shared"]:
        if root and (Path(root) / "ipc").is_dir():
            return Path(root) / "ipc"
    return None


def first_problems(domain_dir: Path, n: int):
    problems = sorted(p for p in domain_dir.glob("*.pddl") if "domain" not in p.name)
    return problems[:n]


@pytest.mark.parametrize("name", ADL_DOMAINS)
def test_plans_on_shared_adl_domains_pass_an_independent_validator(name, tmp_path):
    root = shared_ipc()
    if root is None:
        pytest.skip("the shared corpus (../shared/ipc or $CORVUS_SHARED/ipc) is not here")
    domain_dir = root / name
    domain = domain_dir / "domain.pddl"
    checked = 0
    for problem in first_problems(domain_dir, 5):
        result = corvus.solve(str(domain), str(problem), time_limit=60)
        assert result.status == "solved", f"{problem.name}: {result.status}"
        # corvus validated the plan itself before returning it; now UP.
        plan_file = tmp_path / f"{problem.stem}.plan"
        plan_file.write_text("\n".join(str(a) for a in result.plan.actions) + "\n")
        reader = PDDLReader()
        try:
            up_problem = reader.parse_problem(str(domain), str(problem))
            up_plan = reader.parse_plan(up_problem, str(plan_file))
        except Exception as e:  # UP cannot read every ADL construct (e.g. :derived)
            pytest.skip(f"Unified Planning cannot read {name}: {type(e).__name__}: {e}")
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

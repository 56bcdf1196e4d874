"""Tests marked `slow` (they fetch packages and run experiments) are opt-in:
with CORVUS_SLOW=1 they run, otherwise they are deselected (pytest's summary
counts them as `deselected`), not skipped: `./test` treats a skip as a check
that could not run, which fails a CI run."""

import os


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: run only with CORVUS_SLOW=1")


def pytest_collection_modifyitems(config, items):
    if os.environ.get("CORVUS_SLOW") == "1":
        return
    slow = [item for item in items if "slow" in item.keywords]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if "slow" not in item.keywords]

"""Tests marked `slow` run only with CORVUS_SLOW=1 (they fetch packages and run experiments)."""

import os

import pytest


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: run only with CORVUS_SLOW=1")


def pytest_collection_modifyitems(config, items):
    if os.environ.get("CORVUS_SLOW") == "1":
        return
    skip = pytest.mark.skip(reason="slow: set CORVUS_SLOW=1 to run")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)

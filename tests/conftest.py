"""pytest setup: run the firmware on CPython through the host fakes.

A logic test that does not apply on CPython raises ``support.Skip`` (``support.skip(reason)``,
tests/logic/support.py); the hook below reports it as skipped, never as passed.
"""

import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "host"))
sys.path.insert(0, os.path.join(ROOT, "tests", "logic"))

import tablemate_host  # noqa: E402,F401  (installs the fakes)
import support  # noqa: E402  (tests/logic/support.py: the Skip convention)


@pytest.hookimpl(wrapper=True)
def pytest_pyfunc_call(pyfuncitem):
    """Turn ``support.Skip`` raised by a test into a pytest skip with its reason."""
    try:
        return (yield)
    except support.Skip as exc:
        # reported at the test's own location, as a skip mark is (pytest's unittest plugin
        # raises it the same way; pytest is pinned in pyproject.toml)
        raise pytest.skip.Exception("on CPython: %s" % exc, _use_item_location=True) from None

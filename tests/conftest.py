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


@pytest.fixture(scope="session")
def browser():
    """One headless Chromium for every browser test of this process (tests/web, tests/phones):
    Playwright's sync API refuses a second instance while one runs, so they share it.
    tests/web/chromium.py says which Chromium."""
    sys.path.insert(0, os.path.join(ROOT, "tests", "web"))
    import chromium
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("the Python package playwright is missing: `make test` installs it")
    with sync_playwright() as p:
        try:
            b = chromium.launch(p)
        except LookupError as err:
            pytest.fail(str(err))
        yield b
        b.close()

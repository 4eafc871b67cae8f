"""pytest setup: run the firmware on CPython through the host fakes.

A logic test that does not apply on CPython raises ``support.Skip`` (``support.skip(reason)``,
tests/logic/support.py); the hook below reports it as skipped, never as passed.

A test that needs the MicroPython VM (Node.js and ``tools/mpvm/node_modules``) where it is not
installed: ``tablemate_host.mpvm`` raises ``VMUnavailable`` (in the test or in a fixture), and
the hooks below report the test as skipped, with what is missing and how to install it. In CI
(``CI`` set, as ``.ci/run`` does) the same test fails instead: a green CI run means both VMs ran.

On several cores (pytest-xdist, ``make test``) the tests that share one costly run go to one
worker as one unit (``_unit``): the cases of one logic file under MicroPython (one VM run for
the file) and the modules whose module-scoped fixture runs the VM or compiles the firmware.
xdist's own ``--dist loadgroup`` no longer groups on pytest 9.2 (pytest-xdist issue 1386: the
group travels in the node id, which pytest no longer lets it change): each worker ran every
logic file's VM that it had a case of, most of them twice in all.
"""

import importlib.machinery
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "host"))
sys.path.insert(0, os.path.join(ROOT, "tests", "logic"))

import tablemate_host  # noqa: E402,F401  (installs the fakes)
import support  # noqa: E402  (tests/logic/support.py: the Skip convention)
from tablemate_host import mpvm  # noqa: E402
from tablemate_host.fakes import FIRMWARE  # noqa: E402


class _KeptCode(importlib.machinery.SourceFileLoader):
    """A firmware module's code, compiled once per test process.

    The firmware lets modules go after use (``tablemate.unload``: a Pico keeps a module's code
    in its heap) and imports them again when next needed, so a test imports the same module
    thousands of times (a resume per byte of a journal). Without bytecode files
    (``PYTHONDONTWRITEBYTECODE``, set on the machine these figures come from) CPython compiled the source at
    every one: 85 % of the power-cut test's CPU time. The code is kept in memory instead, keyed
    as a ``.pyc`` is (the file's mtime and size), and nothing is written."""

    _codes = {}

    def get_code(self, fullname):
        path = self.get_filename(fullname)
        st = os.stat(path)
        key = (path, st.st_mtime_ns, st.st_size)
        code = self._codes.get(key)
        if code is None:
            code = self._codes[key] = super().get_code(fullname)
        return code


def _firmware_finder(path):
    if not (path == FIRMWARE or path.startswith(FIRMWARE + os.sep)) or not os.path.isdir(path):
        raise ImportError("not a firmware folder")  # the next path hook's (runpy asks of files)
    return importlib.machinery.FileFinder(path, (_KeptCode, importlib.machinery.SOURCE_SUFFIXES))


sys.path_hooks.insert(0, _firmware_finder)
for _path in list(sys.path_importer_cache):
    if _path == FIRMWARE or _path.startswith(FIRMWARE + os.sep):
        del sys.path_importer_cache[_path]


_VM_CASE = "tests/test_micropython_vm.py::test_logic_under_micropython["
_ONE_WORKER = ("tests/test_vm_parity.py::", "tests/test_budgets.py::")  # module fixtures


def _unit(nodeid):
    """The unit of work a worker takes ``nodeid`` in: its logic file for a case under
    MicroPython, its module for the modules above, else the test alone."""
    if nodeid.startswith(_VM_CASE):
        return "vm:" + nodeid[len(_VM_CASE):].split(".", 1)[0]
    for module in _ONE_WORKER:
        if nodeid.startswith(module):
            return module
    return nodeid


# The units that take seconds each, handed out first: a worker that draws one of them last
# would run on alone while the other waits (the whole suite took 5:03 on two idle cores with
# them where collection puts them, among the last).
_LONG_FIRST = (_VM_CASE, "tests/phones/", "tests/test_budgets.py::", "tests/test_vm_parity.py::")


def pytest_collection_modifyitems(items):
    """Put the long units first (a stable sort: every worker collects the same order)."""
    items.sort(key=lambda item: not item.nodeid.startswith(_LONG_FIRST))


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """Load scheduling by the units above (for ``-n`` with the default ``--dist load``, and
    for ``loadgroup``); another ``--dist`` keeps its own."""
    if config.getvalue("dist") not in ("load", "loadgroup"):
        return None
    from xdist.scheduler import LoadScopeScheduling

    class Units(LoadScopeScheduling):
        def _split_scope(self, nodeid):
            return _unit(nodeid)
    return Units(config, log)


def _without_vm(exc):
    """The verdict on a test that found the MicroPython VM missing (``exc``), to raise."""
    if os.environ.get("CI"):
        return pytest.fail.Exception("in CI the MicroPython VM must run: %s" % exc, pytrace=False)
    return pytest.skip.Exception(str(exc), _use_item_location=True)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item):
    """A fixture that needs the VM (a module's VM run, the compiled firmware): see above."""
    try:
        return (yield)
    except mpvm.VMUnavailable as exc:
        raise _without_vm(exc) from None


@pytest.hookimpl(wrapper=True)
def pytest_pyfunc_call(pyfuncitem):
    """Turn ``support.Skip`` raised by a test into a pytest skip with its reason, and a test
    that needs the missing VM into a skip (a failure in CI)."""
    try:
        return (yield)
    except support.Skip as exc:
        # reported at the test's own location, as a skip mark is (pytest's unittest plugin
        # raises it the same way; pytest is pinned in pyproject.toml)
        raise pytest.skip.Exception("on CPython: %s" % exc, _use_item_location=True) from None
    except mpvm.VMUnavailable as exc:
        raise _without_vm(exc) from None


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

"""tests/logic again, under the real MicroPython VM (tools/mpvm), one pytest case per test.

The VM runs one logic file's selected tests in one Node process, the first time a case of that
file runs; each case looks its result up, so a failure names the test and shows the MicroPython
traceback. The cases of one file go to one pytest-xdist worker (``tests/conftest.py`` schedules
them as one unit): ``make test`` spreads the files over the cores and each file's VM runs once.
A hung VM is still stopped, but by a limit per test that no speed decides: ``VM_CASE_LIMIT``
seconds without a result (the slowest test takes about 10 s on a quiet machine;
``TABLEMATE_VM_LIMIT`` overrides it), and a VM that hung is started once more for the tests it
had not reported (a warning says so): only a test that hangs twice fails.
A missing Node.js or node_modules skips every case with what is missing and how to install it,
and fails them in CI (tests/conftest.py): a green CI run means both VMs passed. A logic test
that does not apply under MicroPython says so with ``support.skip(reason)`` and is reported here
as skipped, never passed; a logic test may not simply ``return`` early on one VM (checked
below).
"""

import ast
import functools
import os
import subprocess
import sys
import warnings

import pytest
import tablemate

from tablemate_host import mpvm

LOGIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "logic")
VM_CASE_LIMIT = int(os.environ.get("TABLEMATE_VM_LIMIT", "300"))  # 30x the slowest test
_RUNS = {}  # logic file -> {(file, test): result}, or the exception its run raised


@functools.lru_cache(maxsize=None)
def _logic_cases():
    """(file, test) for every module-level ``def test_*`` in tests/logic/test_*.py: read once
    (parsing them all takes a tenth of a second, and every case asks)."""
    cases = []
    for name in sorted(os.listdir(LOGIC)):
        if not (name.startswith("test_") and name.endswith(".py")):
            continue
        with open(os.path.join(LOGIC, name), encoding="utf-8") as f:
            source = f.read()
        try:
            tree = ast.parse(source, name)
        except SyntaxError:
            cases.append((name, "<import>"))
            continue
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                cases.append((name, node.name))
    return tuple(cases)


def pytest_generate_tests(metafunc):
    if "logic_case" in metafunc.fixturenames:
        metafunc.parametrize("logic_case", [
            pytest.param(case, id="%s.%s" % (case[0][:-3], case[1])) for case in _logic_cases()])


def _file_results(request, file):
    """{(file, test): result} of one VM run of ``file``'s selected tests (run once)."""
    if file not in _RUNS:
        selected = [item.callspec.params["logic_case"] for item in request.session.items
                    if item.module is request.module and hasattr(item, "callspec")
                    and "logic_case" in item.callspec.params
                    and item.callspec.params["logic_case"][0] == file]
        every = [case for case in _logic_cases() if case[0] == file]
        only = [file] if len(selected) == len(every) else ["%s::%s" % c for c in selected]
        try:
            results = mpvm.run_tests(LOGIC, only=only, case_limit=VM_CASE_LIMIT)
            _RUNS[file] = dict(((r["file"], r["test"]), r) for r in results)
        except (mpvm.VMUnavailable, RuntimeError, TimeoutError) as exc:
            _RUNS[file] = exc
    return _RUNS[file]


def test_logic_under_micropython(logic_case, request):
    file, test = logic_case
    results = _file_results(request, file)
    if isinstance(results, mpvm.VMUnavailable):
        raise results  # skipped, saying how to install (failed in CI): tests/conftest.py
    if isinstance(results, Exception):
        pytest.fail("MicroPython VM unusable for %s: %s" % (file, results), pytrace=False)
    known = set(_logic_cases())
    extra = [r for key, r in results.items() if key not in known and not r["ok"]]
    if extra:  # an import failure without tests, or a test the ast scan missed
        pytest.fail("\n".join("%s::%s\n%s" % (r["file"], r["test"], r["error"]) for r in extra),
                    pytrace=False)
    result = results.get(logic_case)
    if result is None:
        pytest.fail("%s::%s was not run by the MicroPython runner" % logic_case, pytrace=False)
    if not result["ok"]:
        message = "%s::%s failed under MicroPython:\n%s" % (file, test, result["error"])
        if result["stdout"]:
            message += "\n--- printed ---\n" + result["stdout"]
        pytest.fail(message, pytrace=False)
    if result["restarted"]:
        warnings.warn("%s::%s: its first MicroPython VM hung; a second one ran it" % logic_case)
    if result.get("skipped") is not None:
        pytest.skip("under MicroPython: %s" % result["skipped"])


def test_vm_is_installed():
    mpvm.require_vm()  # skipped without the VM, saying how to install it; failed in CI


def test_run_returns_stdout_and_sees_the_firmware():
    code = "import sys, tablemate\nprint(sys.implementation.name, tablemate.VERSION)"
    assert mpvm.run(code) == "micropython %s\n" % tablemate.VERSION


def test_run_chunks_share_globals_and_let_gc_run_between_them():
    out = mpvm.run([
        "import gc\njunk = [bytearray(1000) for i in range(200)]\njunk = None\ngc.collect()",
        "print(gc.mem_alloc() < 100000)",
    ])
    assert out == "True\n"


def test_run_raises_on_a_python_exception():
    with pytest.raises(mpvm.MicroPythonError) as exc:
        mpvm.run("print('before')\nraise ValueError('boom')")
    assert exc.value.type == "ValueError"
    assert "ValueError: boom" in exc.value.traceback


def test_runner_reports_a_failing_test(tmp_path):
    (tmp_path / "test_demo.py").write_text(
        "def test_good():\n    assert 1 + 1 == 2\n\n"
        "def test_bad():\n    print('clue')\n    assert [1] == [2], 'lists differ'\n"
    )
    results = {r["test"]: r for r in mpvm.run_tests(str(tmp_path))}
    assert sorted(results) == ["test_bad", "test_good"]
    assert results["test_good"]["ok"] and results["test_good"]["error"] is None
    assert results["test_good"]["skipped"] is None
    bad = results["test_bad"]
    assert not bad["ok"] and bad["skipped"] is None
    assert "AssertionError: lists differ" in bad["error"] and "line 6" in bad["error"]
    assert bad["stdout"] == "clue\n"


def test_runner_reports_a_skipped_test_with_its_reason(tmp_path):
    support = os.path.join(LOGIC, "support.py")
    with open(support, encoding="utf-8") as f:
        (tmp_path / "support.py").write_text(f.read())
    (tmp_path / "test_demo.py").write_text(
        "import support\n\n"
        "def test_skips():\n    support.skip('not on this VM')\n    assert False\n\n"
        "def test_runs():\n    pass\n"
    )
    results = {r["test"]: r for r in mpvm.run_tests(str(tmp_path))}
    assert results["test_skips"]["skipped"] == "not on this VM"
    assert results["test_skips"]["ok"] and results["test_skips"]["error"] is None
    assert results["test_runs"]["skipped"] is None


def test_a_test_that_hangs_every_vm_fails_named(tmp_path):
    (tmp_path / "test_demo.py").write_text(
        "def test_first():\n    pass\n\n"
        "def test_hangs():\n    while True:\n        pass\n")
    with pytest.raises(TimeoutError) as exc:
        mpvm.run_tests(str(tmp_path), case_limit=3)
    assert "hung twice in test_demo.py::test_hangs" in str(exc.value)


def test_a_vm_that_hangs_once_is_restarted_for_what_it_had_not_reported(tmp_path, monkeypatch):
    (tmp_path / "test_demo.py").write_text(
        "def test_a():\n    pass\n\ndef test_b():\n    pass\n\ndef test_c():\n    pass\n")
    real = mpvm._run_tests_once
    calls = []

    def hangs_once(test_dir, only, files, case_limit):
        calls.append(only)
        results, stuck = real(test_dir, only, files, case_limit)
        return (results[:1], True) if len(calls) == 1 else (results, stuck)

    monkeypatch.setattr(mpvm, "_run_tests_once", hangs_once)
    results = mpvm.run_tests(str(tmp_path), only=["test_demo.py"])
    assert calls == [["test_demo.py"], ["test_demo.py::test_b", "test_demo.py::test_c"]]
    assert [(r["test"], r["restarted"]) for r in results] == [
        ("test_a", False), ("test_b", True), ("test_c", True)]


def _early_returns(tree):
    """Line numbers of ``return`` statements in the body of each ``test_*`` (nested defs aside)."""
    found = {}
    for fn in tree.body:
        if not (isinstance(fn, ast.FunctionDef) and fn.name.startswith("test_")):
            continue
        todo = list(fn.body)
        while todo:
            node = todo.pop()
            if isinstance(node, ast.Return):
                found.setdefault(fn.name, []).append(node.lineno)
            elif not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda,
                                       ast.ClassDef)):
                todo.extend(ast.iter_child_nodes(node))
    return found


def test_logic_tests_skip_instead_of_returning_early():
    """A test that returns early on one VM would count as a pass there: use support.skip."""
    problems = []
    for name in sorted(os.listdir(LOGIC)):
        if name.startswith("test_") and name.endswith(".py"):
            with open(os.path.join(LOGIC, name), encoding="utf-8") as f:
                tree = ast.parse(f.read(), name)
            for test, lines in sorted(_early_returns(tree).items()):
                problems.append("%s::%s returns at line %s" % (name, test, lines))
            imports = [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]
            if any("pytest" in (getattr(n, "module", None) or "") or
                   any(a.name.split(".")[0] == "pytest" for a in n.names) for n in imports):
                problems.append("%s imports pytest (logic tests are plain functions)" % name)
    assert not problems, "\n".join(problems)


def test_a_skipping_logic_test_is_reported_skipped_by_pytest():
    """The pytest hook in tests/conftest.py turns support.Skip into a visible skip."""
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider",
         os.path.join(LOGIC, "test_keys.py") + "::test_update_does_not_allocate"],
        cwd=os.path.dirname(os.path.dirname(LOGIC)), stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, timeout=1200)
    out = proc.stdout.decode("utf-8", "replace")
    assert proc.returncode == 0, out
    assert "1 skipped" in out and "passed" not in out, out
    assert "SKIPPED [1] tests/logic/test_keys.py" in out and "heap_lock" in out, out


_WITHOUT_VM = """
import pytest
from tablemate_host import mpvm


@pytest.fixture
def vm():
    raise mpvm.VMUnavailable("Node.js is missing: install it")


def test_in_a_fixture(vm):
    pass


def test_in_the_test():
    raise mpvm.VMUnavailable("Node.js is missing: install it")
"""


def test_without_the_vm_a_test_is_skipped_saying_how_to_install_but_fails_in_ci(tmp_path):
    """The hooks in tests/conftest.py: ``VMUnavailable`` from a fixture or a test is a skip
    with its reason, and in CI (``CI`` set) a failure."""
    (tmp_path / "test_novm.py").write_text(_WITHOUT_VM)
    env = dict(os.environ, PYTHONPATH=os.path.dirname(LOGIC))
    env.pop("CI", None)
    for ci, verdict in ((None, "2 skipped"), ("1", "1 failed, 1 error")):
        if ci:
            env["CI"] = ci
        proc = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider",
             "-p", "conftest", "test_novm.py"], cwd=str(tmp_path), env=env,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=1200)
        out = proc.stdout.decode("utf-8", "replace")
        assert verdict in out, out
        if ci:
            assert out.count("in CI the MicroPython VM must run: Node.js is missing") == 2, out
        else:
            assert out.count(": Node.js is missing: install it") == 2, out


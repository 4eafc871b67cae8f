"""Run code under the real MicroPython VM (the WebAssembly port in Node) from CPython.

This is how the host checks what only the device VM can tell: that tests/logic pass under
MicroPython too, and that the CPython stand-ins (framebuf, ...) match the real modules.
The time limits only stop a VM that hangs: 10-100 times what a quiet machine needs, so that
no machine's speed decides a result; the test runner's limit is per test, and a VM that hangs
once is started again for the tests it had not reported.
Every call starts a fresh Node process with ``tools/mpvm/run.mjs``; ``firmware/`` is always
copied to ``/lib`` in the VM, so ``import tablemate`` works there as on the Pico.
"""

import json
import os
import queue
import re
import shutil
import subprocess
import tempfile
import threading

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MPVM_DIR = os.path.join(ROOT, "tools", "mpvm")
RUNNER = os.path.join(MPVM_DIR, "run.mjs")
_PACKAGE = os.path.join(
    MPVM_DIR, "node_modules", "@micropython", "micropython-webassembly-pyscript", "micropython.mjs"
)
INSTALL_HINT = "run `npm ci --prefix tools/mpvm` in the repository root"


class VMUnavailable(RuntimeError):
    """Node.js or the MicroPython npm package is missing."""


class MicroPythonError(Exception):
    """Code in the VM raised: ``type`` is the exception class name, ``traceback`` its text."""

    def __init__(self, type, traceback):
        super().__init__("%s raised under MicroPython:\n%s" % (type, traceback))
        self.type = type
        self.traceback = traceback


def _problem():
    """Why the VM cannot run, or None when it can."""
    if shutil.which("node") is None:
        return "Node.js 18+ (`node`) is not on PATH: install it, then " + INSTALL_HINT
    if not os.path.exists(_PACKAGE):
        return "the MicroPython VM is missing from tools/mpvm/node_modules: " + INSTALL_HINT
    return None


def node_available():
    """True when Node.js and the MicroPython npm package are installed."""
    return _problem() is None


def require_vm():
    """Raise VMUnavailable, saying how to install, unless the VM can run."""
    problem = _problem()
    if problem:
        raise VMUnavailable(problem)


def _node(args, timeout):
    require_vm()
    try:
        return subprocess.run(
            ["node", RUNNER] + args,
            cwd=ROOT,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        raise TimeoutError("the MicroPython VM did not finish within %s s" % timeout) from None


def _mounts(files):
    args = []
    for vm_path, host_path in (files or {}).items():
        if not os.path.exists(host_path):
            raise FileNotFoundError(host_path)
        args += ["--mount", "%s=%s" % (vm_path, os.path.abspath(host_path))]
    return args


def run(code, files=None, timeout=1200):
    """Run ``code`` in a fresh MicroPython VM and return what it printed.

    ``code`` may also be a list of strings, run one after another as separate VM calls that
    share globals (the VM defers gc.collect() to the end of a call: collect in one chunk, read
    gc.mem_alloc() in the next). ``files`` maps VM paths to host files or directories copied
    in first. Raises MicroPythonError if the code raises, VMUnavailable if Node or the VM is
    missing.
    """
    chunks = [code] if isinstance(code, str) else list(code)
    with tempfile.TemporaryDirectory(prefix="tablemate-mpvm-") as tmp:
        args = _mounts(files)
        for i, chunk in enumerate(chunks):
            script = os.path.join(tmp, "code%d.py" % i)
            with open(script, "w", encoding="utf-8") as f:
                f.write(chunk)
            args += ["--code", script]
        error_json = os.path.join(tmp, "error.json")
        proc = _node(args + ["--error-json", error_json], timeout)
        if os.path.exists(error_json):
            with open(error_json, encoding="utf-8") as f:
                error = json.load(f)
            raise MicroPythonError(error["type"], error["traceback"])
    if proc.returncode != 0:
        raise RuntimeError(
            "the MicroPython runner failed (exit %d):\n%s"
            % (proc.returncode, proc.stderr.decode("utf-8", "replace"))
        )
    return proc.stdout.decode("utf-8", "replace")


def run_tests(test_dir, only=None, files=None, case_limit=300):
    """Run every ``test_*`` function of ``test_dir/test_*.py`` under MicroPython.

    ``only`` is a list of ``"file.py"`` or ``"file.py::test_name"`` filters. Returns one dict
    per test run: file, test, ok, skipped (the reason a test gave through ``support.skip``, or
    None), ms, error (traceback text or None), stdout, restarted (True for a result that came
    from a second VM).

    The runner reports each test as it ends, so a hang is told apart from slowness per test:
    a VM that reports nothing for ``case_limit`` seconds (the slowest test takes about 10 s on
    a quiet machine) is stopped and a fresh one runs the tests it had not reported. A CI run
    once saw a Node process that never finished a file this VM runs in 0.15 s: once is the
    machine, so it is retried; a test that hangs a second VM too fails, named.
    """
    results = []
    todo = only
    for attempt in (1, 2):
        got, hung = _run_tests_once(test_dir, todo, files, case_limit)
        for r in got:
            r["restarted"] = attempt == 2
        results += got
        if not hung:
            return results
        todo = _unreported(test_dir, only, results)
    raise TimeoutError("the MicroPython VM hung twice in %s (%s s without a result)"
                       % (todo[0] if todo else "its start", case_limit))


def _unreported(test_dir, only, results):
    """``only`` filters for the selected tests that have no result yet."""
    done = set((r["file"], r["test"]) for r in results)
    left = []
    for name in sorted(os.listdir(test_dir)):
        if name.startswith("test_") and name.endswith(".py"):
            with open(os.path.join(test_dir, name), encoding="utf-8") as f:
                tests = re.findall(r"^def\s+(test_\w+)\s*\(", f.read(), re.M)
            for test in tests:
                picked = not only or name in only or "%s::%s" % (name, test) in only
                if picked and (name, test) not in done:
                    left.append("%s::%s" % (name, test))
    return left


def _run_tests_once(test_dir, only, files, case_limit):
    """(results, False) of one VM run, or (the results so far, True) if it hung."""
    require_vm()
    args = ["node", RUNNER] + _mounts(files) + ["--tests", os.path.abspath(test_dir)]
    for item in only or ():
        args += ["--only", item]
    proc = subprocess.Popen(args, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    lines = queue.Queue()
    errors = []
    threading.Thread(target=_pump, args=(proc.stdout, lines.put), daemon=True).start()
    stderr = threading.Thread(target=_pump, args=(proc.stderr, errors.append), daemon=True)
    stderr.start()
    results, last = [], None
    while True:
        try:
            line = lines.get(timeout=case_limit)
        except queue.Empty:
            proc.kill()
            proc.wait()
            return results, True
        if line is None:
            break
        last = line
        if line.startswith("{"):
            results.append(json.loads(line))
    proc.wait()
    stderr.join()
    if proc.returncode not in (0, 1) or last is None or " passed, " not in last:
        raise RuntimeError("the MicroPython test runner failed (exit %d):\n%s"
                           % (proc.returncode, "\n".join(e for e in errors if e is not None)))
    return results, False


def _pump(stream, put):
    """Hand each decoded line of ``stream`` to ``put``, then None at its end."""
    for raw in stream:
        put(raw.decode("utf-8", "replace").rstrip("\n"))
    put(None)

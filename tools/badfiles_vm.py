"""The bad-file matrix's long run: every case under the real MicroPython VM, not the subset.

    .venv/bin/python tools/badfiles_vm.py [-k TEXT]

``make test`` runs every case of tests/logic/test_bad_files.py on CPython (about 3,800) and a
deterministic subset under the MicroPython VM (about 690, ``badfiles.thin``). This runs each
test of that file in the VM with the subset off (``badfiles.ON_VM`` is only what thins it), one
``runPython`` call per test so that the VM collects its garbage in between, and prints the cases
and the wall time of each. ``-k TEXT``: only the tests whose name holds TEXT. Exit status 1 when
a test fails (its traceback is printed). docs/testing.md has the figures of the last run.
"""

import argparse
import ast
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LOGIC = os.path.join(ROOT, "tests", "logic")
MARK = "BADFILES "


def tests(only):
    with open(os.path.join(LOGIC, "test_bad_files.py"), encoding="utf-8") as f:
        tree = ast.parse(f.read())
    return [n.name for n in tree.body if isinstance(n, ast.FunctionDef)
            and n.name.startswith("test_") and (not only or only in n.name)]


def run_one(mpvm, name):
    """(cases run, seconds, error text or None) of one test in a fresh VM."""
    setup = ("import sys\nsys.path.insert(0, '/tests')\nimport badfiles\n"
             "badfiles.ON_VM = False\ncount = [0]\nrun = badfiles.run\n"
             "def counted(spec, data, *a, **k):\n"
             "    count[0] += 1\n"
             "    return run(spec, data, *a, **k)\n"
             "badfiles.run = counted\nimport test_bad_files\n")
    call = "test_bad_files.%s()\nprint(%r + str(count[0]))\n" % (name, MARK)
    start = time.time()
    try:
        out = mpvm.run([setup, call], files={"/tests": LOGIC}, timeout=6 * 3600)
    except mpvm.MicroPythonError as exc:
        return None, time.time() - start, str(exc)
    cases = [line[len(MARK):] for line in out.splitlines() if line.startswith(MARK)]
    return int(cases[-1]), time.time() - start, None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-k", dest="only", help="only the tests whose name holds this")
    args = ap.parse_args(argv)
    sys.path.insert(0, os.path.join(ROOT, "host"))
    from tablemate_host import mpvm
    failed = 0
    total = 0
    start = time.time()
    print("%-52s %7s %9s" % ("test (MicroPython VM, every case)", "cases", "seconds"))
    for name in tests(args.only):
        cases, seconds, error = run_one(mpvm, name)
        print("%-52s %7s %9.1f" % (name, "-" if cases is None else cases, seconds), flush=True)
        if error:
            failed += 1
            print(error)
        else:
            total += cases
    print("%-52s %7d %9.1f" % ("all", total, time.time() - start))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

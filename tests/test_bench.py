"""Smoke test for tools/bench.py: it runs to the end and prints every figure, each with its VM.

No timing or size is asserted here: the benchmark prints figures against docs/performance.md's budgets, and
a figure over budget is news for the closing note, not a test failure.
"""

import os
import subprocess
import sys

from tablemate_host import mpvm

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, "tools", "bench.py")

LABELS = (
    "heap after boot to home",
    "heap during largest game",
    "I2C first full frame",
    "I2C scorepad +1 press",
    "I2C scorepad +1 commit",
    "I2C menu cursor move",
    "I2C open new screen",
    "journal replay 500 actions",
    "firmware .mpy total",
    "boot to first frame",
    "journal resume 5000 actions",
    "journal resume 20000 actions",
    "resume 5000 actions allocates",
    "allocated by a scorepad +1",
    "allocated by a whole-screen change",
)


def test_bench_quick_prints_every_figure():
    proc = subprocess.run([sys.executable, BENCH, "--quick"], cwd=ROOT, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=1200)
    out = proc.stdout.decode("utf-8", "replace")
    assert proc.returncode == 0, out + proc.stderr.decode("utf-8", "replace")
    table = out[out.index("\nfigure "):]  # the final table repeats every figure with its VM
    assert "CPython" in table
    mpvm.require_vm()  # without it the VM's figures are "n/a" or missing: skipped, failed in CI
    for label in LABELS:
        assert label in table, "%r missing from the table:\n%s" % (label, out)
    assert "MicroPython 1.27 (WASM)" in table
    assert "n/a" not in table.split("\nnote:")[0], out

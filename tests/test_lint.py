"""The linter (ruff, pinned in pyproject.toml, its rules there too) finds nothing in the
firmware, the host, the tests and the tools: undefined names, unused imports and variables
are caught before a VM runs them (MicroPython reports an undefined name only when the line
runs, which on a Pico may be at a table)."""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_ruff_finds_nothing():
    proc = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache",
                           "--output-format", "concise", ROOT], cwd=ROOT,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=600)
    out = proc.stdout.decode("utf-8", "replace")
    assert proc.returncode == 0, "ruff check: fix these (`.venv/bin/ruff check --fix .`)\n" + out

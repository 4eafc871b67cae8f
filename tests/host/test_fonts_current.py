"""The generated fonts module matches the font sources in tools/fonts/."""

import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_generated_fonts_are_current():
    result = subprocess.run(
        [sys.executable, os.path.join(ROOT, "tools", "gen_fonts.py"), "--check"],
        capture_output=True, text=True)
    if result.returncode:
        pytest.fail("run `make generate` (or python tools/gen_fonts.py): " + result.stderr,
                    pytrace=False)

"""The generated icons module matches the icon sources in tools/icons/."""

import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_generated_icons_are_current():
    result = subprocess.run(
        [sys.executable, os.path.join(ROOT, "tools", "gen_icons.py"), "--check"],
        capture_output=True, text=True)
    if result.returncode:
        pytest.fail("run `make generate` (or python tools/gen_icons.py): " + result.stderr,
                    pytrace=False)

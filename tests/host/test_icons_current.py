"""The generated icons module matches the icon sources in tools/icons/."""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_generated_icons_are_current():
    result = subprocess.run(
        [sys.executable, os.path.join(ROOT, "tools", "gen_icons.py"), "--check"],
        capture_output=True, text=True)
    assert result.returncode == 0, result.stderr + "\nrun: python tools/gen_icons.py"

"""The generated fonts module matches the font sources in tools/fonts/."""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_generated_fonts_are_current():
    result = subprocess.run(
        [sys.executable, os.path.join(ROOT, "tools", "gen_fonts.py"), "--check"],
        capture_output=True, text=True)
    assert result.returncode == 0, result.stderr + "\nrun: python tools/gen_fonts.py"

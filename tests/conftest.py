"""pytest setup: run the firmware on CPython through the host fakes."""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "host"))
sys.path.insert(0, os.path.join(ROOT, "tests", "logic"))

import tablemate_host  # noqa: E402,F401  (installs the fakes)

"""The phones' page the firmware serves (firmware/tablemate/phones/page.py) is the gzipped
tools/phones/page.html, and it unzips back to that file."""

import gzip
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "firmware"))


def test_generated_page_is_current():
    result = subprocess.run(
        [sys.executable, os.path.join(ROOT, "tools", "gen_phones_page.py"), "--check"],
        capture_output=True, text=True)
    if result.returncode:
        pytest.fail("run `make generate` (or python tools/gen_phones_page.py): " + result.stderr,
                    pytrace=False)


def test_the_page_unzips_to_its_source_and_stays_small():
    from tablemate.phones.page import PAGE
    with open(os.path.join(ROOT, "tools", "phones", "page.html"), "rb") as f:
        assert gzip.decompress(PAGE) == f.read()
    assert len(PAGE) < 6 * 1024  # a few KB: one request, one or two TCP windows

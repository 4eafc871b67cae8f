"""The two VMs draw the same pictures: every walk through the app sends the same I2C bytes.

The walks in tests/logic/tours.py drive the real app and SSD1306 driver through every screen.
Run on CPython (with the framebuf stand-in) and on MicroPython 1.27 (with the real framebuf), the
byte streams to the display must agree exactly: same count, same checksum.
"""

import os

import pytest

import support
import tours
from tablemate_host import mpvm

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VM_CODE = """
import sys
sys.path.insert(0, '/tests')
import support, tours
for walk in tours.WALKS:
    rig = walk(support.scratch_dir('parity_' + walk.__name__))
    print(walk.__name__, rig.i2c.bytes, rig.i2c.sum)
"""


@pytest.fixture(scope="module")
def micropython_streams():
    mpvm.require_vm()
    out = mpvm.run(VM_CODE, files={"/tests": os.path.join(ROOT, "tests", "logic")})
    streams = {}
    for line in out.split("\n"):
        parts = line.split()
        if len(parts) == 3:
            streams[parts[0]] = (int(parts[1]), int(parts[2]))
    return streams


@pytest.mark.parametrize("walk", tours.WALKS, ids=lambda w: w.__name__)
def test_same_bytes_to_the_display_on_both_vms(walk, micropython_streams):
    rig = walk(support.scratch_dir("parity_cpython_" + walk.__name__))
    assert micropython_streams[walk.__name__] == (rig.i2c.bytes, rig.i2c.sum)

"""The README's screen PNGs must be what the firmware draws today (run `make screens` to update)."""

import os

import pytest

from tablemate_host import shots

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.mark.parametrize("name", sorted(shots.names()))
def test_screen_png_is_current(name, tmp_path):
    committed = os.path.join(ROOT, shots.OUT, name + ".png")
    if not shots.current(name, committed, str(tmp_path)):
        pytest.fail("run `make generate`: docs/screens/%s.png is not what the firmware draws "
                    "today (make test regenerates it outside CI)" % name, pytrace=False)

"""The README's screen PNGs must be what the firmware draws today (run `make screens` to update)."""

import os

import pytest
from PIL import Image

from tablemate_host import shots

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.mark.parametrize("name", sorted(shots.SHOTS))
def test_screen_png_is_current(name, tmp_path):
    committed = os.path.join(ROOT, shots.OUT, name + ".png")
    assert os.path.exists(committed), "missing %s: run `make screens`" % committed
    fresh = shots.render(name, str(tmp_path / (name + ".png")))
    with Image.open(committed) as a, Image.open(fresh) as b:
        assert a.size == b.size and a.tobytes() == b.tobytes(), \
            "%s.png is stale: run `make screens`" % name

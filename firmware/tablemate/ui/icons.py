"""Icons by name: the generated bitmaps of ``icondata`` drawn lit or dark.

The data module is generated from ASCII art by ``tools/gen_icons.py``; this module is the part a
screen calls, so regenerating the icons never touches code.
"""

from tablemate.ui import text
from tablemate.ui.icondata import DATA, H, NAMES, W

_BYTES = W * ((H + 7) // 8)
_MV = memoryview(DATA)


def index(name):
    """Position of icon ``name`` in NAMES (ValueError if there is none)."""
    return NAMES.index(name)


def draw(fb, name, x, y, color=1):
    """Blit icon ``name`` with its top-left at (x, y): lit pixels only (color=0: dark pixels)."""
    i = NAMES.index(name) * _BYTES
    text.blit(fb, _MV[i:i + _BYTES], W, H, x, y, color)

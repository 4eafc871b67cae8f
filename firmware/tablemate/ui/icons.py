"""Icons by name: the generated bitmaps of ``icondata`` drawn lit or dark.

The data module is generated from ASCII art by ``tools/gen_icons.py``; this module is the part a
screen calls, so regenerating the icons never touches code. Each icon becomes a frame buffer of
its own the first time it is drawn (framebuf needs a writable copy of the 32 bytes), because a
screen full of icons is redrawn at every cursor move and a prepared frame buffer blits in half
the time on a Pico.
"""

import framebuf

from tablemate.ui import text
from tablemate.ui.icondata import DATA, H, NAMES, W

_BYTES = W * ((H + 7) // 8)
_MV = memoryview(DATA)
_READY = {}  # name -> FrameBuffer over the icon's bytes


def index(name):
    """Position of icon ``name`` in NAMES (ValueError if there is none)."""
    return NAMES.index(name)


def draw(fb, name, x, y, color=1):
    """Blit icon ``name`` with its top-left at (x, y): lit pixels only (color=0: dark pixels)."""
    img = _READY.get(name)
    if img is None:
        i = NAMES.index(name) * _BYTES
        img = framebuf.FrameBuffer(bytearray(_MV[i:i + _BYTES]), W, H, framebuf.MONO_VLSB)
        _READY[name] = img
    if color:
        fb.blit(img, x, y, 0)
    else:
        fb.blit(img, x, y, 1, text.DARK)

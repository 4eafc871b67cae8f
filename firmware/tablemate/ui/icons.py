"""Icons by name: the generated bitmaps of ``icondata`` drawn lit or dark.

The data module is generated from ASCII art by ``tools/gen_icons.py``; this module is the part a
screen calls, so regenerating the icons never touches code. A screen full of icons is redrawn at
every cursor move: on page-aligned rows ``put`` copies each icon's bytes (no blit at all);
elsewhere ``draw`` blits a frame buffer made once per icon (framebuf needs a writable copy of
the 32 bytes), which is twice as fast as blitting from the bytes themselves.
"""

import framebuf

from tablemate.ui import text
from tablemate.ui.icondata import DATA, H, NAMES, W

_BYTES = W * ((H + 7) // 8)
_MV = memoryview(DATA)
_READY = {}  # name -> FrameBuffer over the icon's bytes
_DARK = {}  # name -> the icon's bytes inverted


def index(name):
    """Position of icon ``name`` in NAMES (ValueError if there is none)."""
    return NAMES.index(name)


def put(fb, name, x, page, color=1):
    """Copy icon ``name`` onto whole pages from ``page`` (its 16x16 square overwritten, dark:
    a lit square with the icon dark): the byte copy of ``text.put``, not a pixel-by-pixel blit."""
    i = NAMES.index(name) * _BYTES
    src = _MV[i:i + _BYTES]
    if not color:
        src = _DARK.get(name)
        if src is None:
            src = _DARK[name] = bytes([b ^ 0xFF for b in _MV[i:i + _BYTES]])
    buf = fb.buf
    for p in range(_BYTES // W):
        o = (page + p) * text.SCREEN_WIDTH + x
        buf[o:o + W] = src[p * W:(p + 1) * W]


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

"""Icons by name: the generated bitmaps of ``icondata`` drawn lit or dark.

The data module is generated from ASCII art by ``tools/gen_icons.py``; this module is the part a
screen calls, so regenerating the icons never touches code. The icons are 16x16: two pages of
the display. A screen full of icons is redrawn at every cursor move: on page-aligned rows
``put`` copies each icon's bytes and ``put_row`` a whole prepared row (no blit at all);
elsewhere ``draw`` blits a frame buffer made once per icon (framebuf needs a writable copy of
the 32 bytes), which is twice as fast as blitting from the bytes themselves.
"""

import framebuf

from tablemate.ui import text
from tablemate.ui.icondata import DATA, H, NAMES, W

_BYTES = W * ((H + 7) // 8)
_PAGES = _BYTES // W
_MV = memoryview(DATA)
_READY = {}  # name -> FrameBuffer over the icon's bytes
_COPY = {}  # (name, color) -> the icon's columns, one slice a page: what ``put`` copies


def index(name):
    """Position of icon ``name`` in NAMES (ValueError if there is none)."""
    return NAMES.index(name)


def _columns(name, color):
    """The icon's bytes page by page, lit (color=1) or inverted, made once per icon and color."""
    got = _COPY.get((name, color))
    if got is None:
        i = NAMES.index(name) * _BYTES
        src = _MV[i:i + _BYTES] if color else text.inverted(_MV[i:i + _BYTES])
        got = _COPY[(name, color)] = tuple(src[p * W:(p + 1) * W] for p in range(_PAGES))
    return got


def put(fb, name, x, page, color=1):
    """Copy icon ``name`` onto whole pages from ``page`` (its 16x16 square overwritten, dark:
    a lit square with the icon dark): the byte copy of ``text.put``, not a pixel-by-pixel blit.

    On a Pico every Python step costs microseconds (an icon put in a loop was 270 us), so the
    columns are sliced once and each page is one slice assignment."""
    top, bottom = _COPY.get((name, color)) or _columns(name, color)
    buf = fb.buf
    o = page * text.SCREEN_WIDTH + x
    buf[o:o + W] = top
    o += text.SCREEN_WIDTH
    buf[o:o + W] = bottom


def row(names, x, pitch):
    """A row of icons laid out once: the two 128-column pages showing ``names`` from column
    ``x``, one every ``pitch`` columns. ``put_row`` copies it in two slice assignments, where a
    screen that redraws a grid of icons at each cursor move would make one ``put`` per icon."""
    pages = [bytearray(text.SCREEN_WIDTH) for _ in range(_PAGES)]
    for k in range(len(names)):
        cols = _columns(names[k], 1)
        at = x + k * pitch
        for p in range(_PAGES):
            pages[p][at:at + W] = cols[p]
    return tuple(bytes(p) for p in pages)


def put_row(fb, pages, page):
    """Copy a ``row`` onto the display buffer from ``page``."""
    buf = fb.buf
    o = page * text.SCREEN_WIDTH
    for p in pages:
        buf[o:o + text.SCREEN_WIDTH] = p
        o += text.SCREEN_WIDTH


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

"""Blitting 1-bit bitmaps (font glyphs, icons) straight from their MONO_VLSB bytes.

Lit drawing (color=1) uses key 0, so the bitmap's background leaves the screen alone. Dark
drawing (color=0, on a highlighted bar) maps bit 1 to colour 0 through a two-entry palette and
uses key 1: framebuf compares the key after the palette lookup, so only the set bits are cleared.
"""

import framebuf

VLSB = framebuf.MONO_VLSB
DARK = framebuf.FrameBuffer(bytearray(2), 2, 1, VLSB)  # palette: 0 -> 1, 1 -> 0
DARK.pixel(0, 0, 1)


def blit(fb, data, w, h, x, y, color=1):
    """Draw the w x h bitmap ``data`` (a memoryview slice) with its top-left at (x, y)."""
    if color:
        fb.blit((data, w, h, VLSB), x, y, 0)
    else:
        fb.blit((data, w, h, VLSB), x, y, 1, DARK)

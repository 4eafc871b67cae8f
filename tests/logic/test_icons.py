"""The generated icons: one per Contrast symbol, the right size, no two alike, drawn as stored."""

import framebuf

from tablemate.rules import contrast
from tablemate.ui import icons

_BYTES = icons.W * ((icons.H + 7) // 8)


def _data(name):
    i = icons.NAMES.index(name) * _BYTES
    return bytes(icons.DATA[i:i + _BYTES])


def test_size_and_count():
    assert icons.W == 16 and icons.H == 16
    assert len(icons.DATA) == len(icons.NAMES) * _BYTES


def test_every_symbol_has_an_icon():
    for s in contrast.SYMBOLS:
        assert s in icons.NAMES, s
        assert icons.index(s) == icons.NAMES.index(s)


def test_icons_differ_and_are_not_blank():
    seen = {}
    for s in contrast.SYMBOLS:
        d = _data(s)
        assert d != bytes(_BYTES), s
        assert d not in seen, s + " looks like " + seen.get(d, "")
        seen[d] = s


def test_draw_lit_and_dark():
    for s in contrast.SYMBOLS:
        buf = bytearray(_BYTES)
        fb = framebuf.FrameBuffer(buf, 16, 16, framebuf.MONO_VLSB)
        icons.draw(fb, s, 0, 0)
        assert bytes(buf) == _data(s), s
        fb.fill(1)
        icons.draw(fb, s, 0, 0, 0)
        assert bytes(buf) == bytes(b ^ 0xFF for b in _data(s)), s


def test_draw_is_clipped_at_the_edge():
    buf = bytearray(16)
    fb = framebuf.FrameBuffer(buf, 16, 8, framebuf.MONO_VLSB)
    icons.draw(fb, "square", 0, 0)
    assert bytes(buf) == _data("square")[:16]

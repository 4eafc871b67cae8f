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


class _Panel:
    """What ``put`` writes into: the driver's page-ordered buffer."""

    def __init__(self):
        self.buf = bytearray(1024)


def test_put_copies_the_icon_onto_two_pages():
    p = _Panel()
    icons.put(p, "square", 5, 2)
    icons.put(p, "round", 40, 5, 0)
    d, r = _data("square"), bytes(b ^ 0xFF for b in _data("round"))
    assert p.buf[2 * 128 + 5:2 * 128 + 21] == d[:16] and p.buf[3 * 128 + 5:3 * 128 + 21] == d[16:]
    assert p.buf[5 * 128 + 40:5 * 128 + 56] == r[:16] and p.buf[6 * 128 + 40:6 * 128 + 56] == r[16:]
    assert sum(1 for b in p.buf if b) == sum(1 for b in d + r if b)  # nothing else written


def test_a_row_is_its_icons_put_side_by_side():
    names = contrast.SYMBOLS[:6]
    row = icons.row(names, 3, 21)
    got, ref = _Panel(), _Panel()
    got.buf[:] = b"\xff" * 1024
    ref.buf[:] = b"\xff" * 1024
    icons.put_row(got, row, 5)
    ref.buf[5 * 128:7 * 128] = bytes(256)
    for k in range(6):
        icons.put(ref, names[k], 3 + 21 * k, 5)
    assert got.buf == ref.buf

"""The CPython framebuf stand-in draws exactly the bytes MicroPython's C framebuf draws.

One drawing script (hand-picked edge cases plus seeded random primitives, many off the edges)
runs twice: in the real MicroPython 1.27 WebAssembly VM and on CPython with
``tablemate_host.framebuf``. Both print the buffers as hex at checkpoints; the outputs must be
identical, line by line, so a mismatch points at the first primitive that differs.
"""

import array
import random

import pytest

from tablemate_host import framebuf as standin
from tablemate_host import mpvm

# (name, width, height, format name, stride or None, bytes needed)
TARGETS = [
    ("oled", 128, 64, "MONO_VLSB", None, 1024),
    ("odd", 37, 21, "MONO_VLSB", 40, 120),
    ("hl", 30, 13, "MONO_HLSB", None, 4 * 13),
    ("hm", 19, 9, "MONO_HMSB", 21, 3 * 9),
    ("g8", 23, 17, "GS8", None, 23 * 17),
    ("g4", 21, 11, "GS4_HMSB", None, 11 * 11),
    ("g2", 22, 7, "GS2_HMSB", None, 6 * 7),
    ("rgb", 17, 12, "RGB565", None, 2 * 17 * 12),
]

PRELUDE = """
def hexof(b):
    return ''.join(['%02x' % v for v in b])

def dump(tag):
    for name in NAMES:
        print(tag, name, hexof(BUFS[name]))

def err(label, f):
    try:
        f()
        print(label, 'ok')
    except Exception as e:
        print(label, type(e).__name__)

NAMES = []
BUFS = {}
FB = {}
def make(name, w, h, fmt, stride, size):
    NAMES.append(name)
    BUFS[name] = bytearray(size)
    if stride is None:
        FB[name] = framebuf.FrameBuffer(BUFS[name], w, h, fmt)
    else:
        FB[name] = framebuf.FrameBuffer(BUFS[name], w, h, fmt, stride)

# an 11x9 sprite with a hole pattern, a 2-colour palette and a GS8 palette
SPRITE_BUF = bytearray([0x00, 0x7e, 0x81, 0xa5, 0x81, 0x99, 0x81, 0x7e, 0x00, 0xff, 0x11,
                        0x01, 0x00, 0x01, 0x01, 0x00, 0x01, 0x00, 0x01, 0x01, 0x00, 0x01])
SPRITE = framebuf.FrameBuffer(SPRITE_BUF, 11, 9, framebuf.MONO_VLSB)
PAL_INV = framebuf.FrameBuffer(bytearray([0x40]), 2, 1, framebuf.MONO_HLSB)  # 0->0, 1->1 swapped below
PAL_INV.pixel(0, 0, 1)
PAL_INV.pixel(1, 0, 0)
PAL8 = framebuf.FrameBuffer(bytearray([5, 200]), 2, 1, framebuf.GS8)
G8SRC = bytes(range(0, 240, 4))  # 6x10 GS8 source, read-only, for tuple blits
"""


def _rand_ops(rnd, name, w, h, n):
    """Random primitives on target `name`, biased to cross the edges."""
    def cx():
        return rnd.randint(-w // 2, w + w // 2)

    def cy():
        return rnd.randint(-h // 2, h + h // 2)

    maxcol = {"g8": 255, "g4": 15, "g2": 3, "rgb": 0xFFFF}.get(name, 1)

    def col():
        return rnd.choice([0, 1, 1, maxcol, rnd.randint(0, maxcol)])

    fb = "FB[%r]" % name
    lines = []
    for _ in range(n):
        kind = rnd.choice(["pixel", "get", "hline", "vline", "rect", "rectf", "fill_rect", "line",
                           "line", "ellipse", "poly", "blit", "tblit", "scroll", "text", "fill"])
        if kind == "pixel":
            lines.append("%s.pixel(%d, %d, %d)" % (fb, cx(), cy(), col()))
        elif kind == "get":
            lines.append("print('get', %s.pixel(%d, %d))" % (fb, rnd.randint(-2, w + 1), rnd.randint(-2, h + 1)))
        elif kind == "hline":
            lines.append("%s.hline(%d, %d, %d, %d)" % (fb, cx(), cy(), rnd.randint(-5, w + 10), col()))
        elif kind == "vline":
            lines.append("%s.vline(%d, %d, %d, %d)" % (fb, cx(), cy(), rnd.randint(-5, h + 10), col()))
        elif kind in ("rect", "rectf"):
            args = (fb, cx(), cy(), rnd.randint(-3, w), rnd.randint(-3, h), col())
            if kind == "rectf":
                lines.append("%s.rect(%d, %d, %d, %d, %d, True)" % args)
            else:
                lines.append("%s.rect(%d, %d, %d, %d, %d)" % args)
        elif kind == "fill_rect":
            lines.append("%s.fill_rect(%d, %d, %d, %d, %d)" % (fb, cx(), cy(), rnd.randint(-2, w), rnd.randint(-2, h), col()))
        elif kind == "line":
            lines.append("%s.line(%d, %d, %d, %d, %d)" % (fb, cx(), cy(), cx(), cy(), col()))
        elif kind == "ellipse":
            lines.append("%s.ellipse(%d, %d, %d, %d, %d, %s, %d)" % (
                fb, cx(), cy(), rnd.randint(0, w), rnd.randint(0, h), col(), rnd.choice(["False", "True"]),
                rnd.randint(0, 15)))
        elif kind == "poly":
            pts = []
            for _ in range(rnd.randint(1, 6)):
                pts += [rnd.randint(-10, w + 10), rnd.randint(-10, h + 10)]
            lines.append("%s.poly(%d, %d, array.array('h', %r), %d, %s)" % (
                fb, rnd.randint(-5, 5), rnd.randint(-5, 5), pts, col(), rnd.choice(["False", "True"])))
        elif kind == "blit":
            key = rnd.choice([-1, 0, 1, 5, 200])
            pal = rnd.choice(["None", "PAL_INV", "PAL8"])
            lines.append("%s.blit(SPRITE, %d, %d, %d, %s)" % (fb, rnd.randint(-12, w + 2), rnd.randint(-10, h + 2), key, pal))
        elif kind == "tblit":
            key = rnd.choice([-1, 0, 4, 128])
            lines.append("%s.blit((G8SRC, 6, 10, framebuf.GS8), %d, %d, %d)" % (fb, rnd.randint(-7, w + 1), rnd.randint(-11, h + 1), key))
        elif kind == "scroll":
            lines.append("%s.scroll(%d, %d)" % (fb, rnd.randint(-w - 2, w + 2), rnd.randint(-h - 2, h + 2)))
        elif kind == "text":
            s = "".join(rnd.choice("Ab9 %~\x7f\u00e9") for _ in range(rnd.randint(0, 4)))
            lines.append("%s.text(%r, %d, %d, %d)" % (fb, s, cx(), cy(), col()))
        else:
            lines.append("%s.fill(%d)" % (fb, rnd.choice([0, 0, 0, col()])))
    return lines


EDGE_CASES = """
o = FB['oled']
o.line(-10, -5, 140, 70, 1)
o.line(127, 0, 0, 63, 1)
o.line(5, 5, 5, 5, 1)
o.line(200, 3, -50, 4, 1)
o.line(64, -100, 65, 300, 1)
o.rect(-1, -1, 130, 66, 1)
o.rect(10, 10, -5, 4, 1)
o.rect(10, 10, 0, 4, 1, True)
o.fill_rect(120, 60, 100, 100, 1)
o.ellipse(64, 32, 0, 0, 1)
o.ellipse(64, 32, 30, 0, 1)
o.ellipse(64, 32, 0, 20, 1, True)
o.ellipse(0, 0, 20, 10, 1, True, 8)
o.ellipse(127, 63, 50, 40, 1, False, 3)
o.ellipse(64, 32, 300, 200, 1)
dump('edge1')
o.fill(0)
o.blit(SPRITE, -11, 0)
o.blit(SPRITE, -10, -8, 0)
o.blit(SPRITE, 120, 58, 1)
o.blit(SPRITE, 128, 0)
o.blit(SPRITE, 30, 20, -1, PAL_INV)
o.blit(SPRITE, 45, 20, 1, PAL_INV)
o.blit(SPRITE, 60, 20, 0, PAL_INV)
o.blit((SPRITE_BUF, 11, 9, framebuf.MONO_VLSB), 80, 30, 0)
o.blit([SPRITE_BUF, 8, 9, framebuf.MONO_VLSB, 11], 100, 30)
o.blit((G8SRC, 6, 10, framebuf.GS8), 2, 40, 4)
g = FB['g8']
g.blit(SPRITE, 1, 1, 200, PAL8)
g.blit(SPRITE, 8, 4, 5, PAL8)
g.blit(SPRITE, -3, -2, -1, PAL8)
o.text('Score: 12', 3, 3, 1)
o.text('\\u00e9t\\u00e9!', -5, 56)
o.text('cut\\x00here', 60, 10)
o.text('xyz', 120, -3, 1)
o.scroll(3, -2)
o.scroll(-500, 0)
o.scroll(0, 64)
o.scroll(-4, 5)
dump('edge2')
o.poly(10, 10, array.array('h', [0, 0, 30, 5, 15, 25, 40, 40, -5, 30]), 1, True)
o.poly(60, 5, array.array('h', [0, 0, 20, 0, 20, 20, 0, 20]), 1, True)
o.poly(90, 5, array.array('h', [10, 0, 20, 20, 10, 10, 0, 20]), 1, False)
o.poly(90, 35, array.array('b', [10, 0, 20, 20, 10, 10, 0, 20, 7]), 1, True)
o.poly(0, 0, array.array('h', []), 1, True)
o.poly(0, 0, array.array('h', [3, 3]), 1, True)
dump('edge3')
err('small', lambda: framebuf.FrameBuffer(bytearray(1023), 128, 64, framebuf.MONO_VLSB))
err('exact', lambda: framebuf.FrameBuffer(bytearray(1016 + 0), 128, 57, framebuf.MONO_VLSB))
err('badfmt', lambda: framebuf.FrameBuffer(bytearray(100), 8, 8, 9))
err('stride', lambda: framebuf.FrameBuffer(bytearray(100), 8, 8, framebuf.GS8, 7))
err('zero', lambda: framebuf.FrameBuffer(bytearray(100), 0, 8, framebuf.GS8))
err('ro', lambda: framebuf.FrameBuffer(bytes(100), 8, 8, framebuf.GS8))
err('float', lambda: o.pixel(1.5, 2))
err('kw', lambda: o.rect(1, 2, 3, 4, c=1))
err('tuple3', lambda: o.blit((SPRITE_BUF, 11, 9), 0, 0))
err('int', lambda: o.blit(5, 0, 0))
err('hl_small', lambda: framebuf.FrameBuffer(bytearray(8), 9, 4, framebuf.MONO_HLSB))
err('hl_ok', lambda: framebuf.FrameBuffer(bytearray(8), 9, 4, framebuf.MONO_HLSB, 9))
"""


def build_script():
    rnd = random.Random(1306)
    lines = [PRELUDE]
    for name, w, h, fmt, stride, size in TARGETS:
        lines.append("make(%r, %d, %d, framebuf.%s, %r, %d)" % (name, w, h, fmt, stride, size))
    lines.append(EDGE_CASES)
    for round_no in range(4):
        for name, w, h, _fmt, _stride, _size in TARGETS:
            lines += _rand_ops(rnd, name, w, h, 40 if name == "oled" else 20)
        lines.append("dump('round%d')" % round_no)
    return "\n".join(lines) + "\n"


def run_on_host(script):
    out = []

    def fake_print(*args):
        out.append(" ".join(str(a) for a in args))

    exec(script, {"framebuf": standin, "array": array, "print": fake_print})
    return out


def test_standin_matches_micropython_framebuf():
    script = build_script()
    device = mpvm.run("import framebuf\nimport array\n" + script).splitlines()
    host = run_on_host(script)
    assert len(device) > 40
    for i, (d, h) in enumerate(zip(device, host)):
        assert h == d, "first difference at output line %d: %s" % (i, d.split(" ")[:2])
    assert len(host) == len(device)


def test_text_is_the_builtin_font():
    buf = bytearray(16)
    fb = standin.FrameBuffer(buf, 16, 8, standin.MONO_VLSB)
    fb.text("A", 0, 0)
    assert buf[:8] == bytes.fromhex("007c7e0b0b7e7c00")


def test_subclass_and_positional_only():
    class Panel(standin.FrameBuffer):
        def __init__(self):
            self.buf = bytearray(8)
            super().__init__(self.buf, 8, 8, standin.MONO_VLSB)

    p = Panel()
    p.pixel(0, 7, 1)
    assert p.buf[0] == 0x80 and p.pixel(0, 7) == 1 and p.pixel(8, 0) is None
    with pytest.raises(TypeError):
        p.pixel(x=1, y=2)
    with pytest.raises(TypeError):
        bytes(p)

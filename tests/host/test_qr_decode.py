"""A real scanner reads what the firmware's QR encoder (ui/qr.py) makes.

The reader is ZXing's C++ port (PyPI ``zxing-cpp``, pinned in the dev extras), an implementation
of ISO/IEC 18004 that shares nothing with ours, and the one inside many phone apps. It is asked
not to try inverted codes (``try_invert=False``): it reads dark modules on a light ground, as
every scanner does, so a symbol it reads is one a phone reads the way ``qr.draw`` lights it.
It reports the version, level and mask it found, so each is checked too, not only the text.
The panel itself (the joining screens through the buttons) is tests/scenario/test_join_ui.py.
"""

import framebuf
import pytest
import zxingcpp
from PIL import Image

from tablemate.ui import qr


def image(sym, flips=(), px=4):
    """The symbol as a grayscale picture, dark modules black, with its quiet zone; the modules
    at ``flips`` turned over (damage)."""
    n = sym.size + 8
    im = Image.new("L", (n, n), 255)
    for y in range(sym.size):
        for x in range(sym.size):
            if sym.dark(x, y) ^ ((x, y) in flips):
                im.putpixel((x + 4, y + 4), 0)
    return im.resize((n * px, n * px), Image.NEAREST)


def read(im):
    """(text, version, level, mask) of the one code in ``im``, or None."""
    found = zxingcpp.read_barcodes(im, formats=zxingcpp.BarcodeFormat.QRCode, try_invert=False)
    if not found:
        return None
    assert len(found) == 1
    extra = found[0].extra
    return found[0].text, int(extra["Version"]), extra["ECLevel"], extra["DataMask"]


def format_cells(size):
    """The two copies of the format bits, bit 0 first (ISO/IEC 18004 figure 25)."""
    first = [(8, y) for y in (0, 1, 2, 3, 4, 5, 7, 8)] + [(x, 8) for x in (7, 5, 4, 3, 2, 1, 0)]
    second = [(size - 1 - i, 8) for i in range(8)] + [(8, size - 7 + i) for i in range(7)]
    return first, second


@pytest.mark.parametrize("version", range(1, 10))
def test_every_version_level_and_mask_reads_back(version):
    for level in (qr.L, qr.M):
        # as many bytes as the symbol holds, so that the level is the one asked for
        text = ("v%d%s " % (version, level) * 60)[:qr.capacity(version, level)]
        for mask in range(8):
            sym = qr.encode(text, mask, least=version)
            assert (sym.version, sym.level) == (version, level)
            assert read(image(sym)) == (text, version, level, mask), (level, mask)


def test_the_chosen_mask_reads_back_and_utf8_survives():
    for text in ("http://192.168.4.1/", "WIFI:T:WPA;S:Caf\u00e9 \u00e0 la table;P:m\u00f8t de passe;;"):
        sym = qr.encode(text)
        assert read(image(sym)) == (text, sym.version, sym.level, sym.mask)


def test_each_copy_of_the_format_bits_reads_alone():
    """Four of a copy's 15 bits turned over are past what a reader corrects (3): with one copy
    damaged the symbol reads from the other, with both it does not read at all."""
    for version in (1, 4, 7):
        for mask in range(8):
            sym = qr.encode("format", mask, least=version)
            first, second = format_cells(sym.size)
            want = ("format", version, sym.level, mask)
            assert read(image(sym, first[::4])) == want, (version, mask)
            assert read(image(sym, second[::4])) == want, (version, mask)
            assert read(image(sym, first[::4] + second[::4])) is None, (version, mask)


def test_each_block_of_the_version_bits_reads_alone():
    for version in (7, 8, 9):
        sym = qr.encode("version", least=version)
        s = sym.size
        lower_left = [(i // 3, s - 11 + i % 3) for i in range(18)]
        upper_right = [(s - 11 + i % 3, i // 3) for i in range(18)]
        want = ("version", version, sym.level, sym.mask)
        assert read(image(sym, lower_left)) == want
        assert read(image(sym, upper_right)) == want
        assert read(image(sym, lower_left + upper_right)) is None


def test_the_panel_drawing_reads_as_is_and_lit_modules_would_need_inverting():
    """``qr.draw`` on a 128x64 frame, lit pixels light: a scanner reads it without trying the
    inverted picture. The other way round (lit modules on the dark panel) it reads only when
    told to try inverted codes, which many phone scanners do not."""
    sym = qr.encode("http://192.168.4.1/")
    fb = framebuf.FrameBuffer(bytearray(1024), 128, 64, framebuf.MONO_VLSB)
    side = qr.draw(fb, sym, 40, 10, 1)

    def panel(lit):
        im = Image.new("L", (128, 64))
        im.putdata([255 if lit(x, y) else 0 for y in range(64) for x in range(128)])
        return im.resize((512, 256), Image.NEAREST)

    def inside(x, y):
        return 40 <= x < 40 + side and 10 <= y < 10 + side

    assert read(panel(fb.pixel)) == ("http://192.168.4.1/", sym.version, sym.level, sym.mask)
    other_way = panel(lambda x, y: inside(x, y) and not fb.pixel(x, y))
    assert read(other_way) is None
    found = zxingcpp.read_barcodes(other_way, try_invert=True)
    assert [f.text for f in found] == ["http://192.168.4.1/"]

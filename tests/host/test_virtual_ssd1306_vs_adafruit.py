"""The virtual SSD1306 against a driver that is not ours: Adafruit's CircuitPython library.

``host/tablemate_host/virtual_ssd1306.py`` decodes I2C bytes into what the panel shows, and
every display test trusts it. Checked only against the project's own driver, a decoder and a
driver could share a misreading of the datasheet. So here Adafruit's ``SSD1306_I2C`` (its own
framebuffer, ``adafruit_framebuf``, its own command sequence: one command per transaction with
Co=1, multi-byte commands split across transactions, the whole frame in one data write) draws
frames on CPython over a fake bus; its bytes go to the virtual panel, and the decoded pixels
must equal the pixels Adafruit drew, read back through Adafruit's own ``pixel()``.

The library and its two dependencies are installed by ``make test`` without their dependency
on Adafruit-Blinka (the CPython hardware layer, which this needs none of): the few names their
type annotations mention (``busio``, ``digitalio``, ``circuitpython_typing``) are stood in for
here, in the test only. The project's ``framebuf`` stand-in is hidden while the library is
imported, so that it takes its own ``adafruit_framebuf``.
"""

import importlib
import os
import random
import sys
import types

import pytest

import framebuf
from tablemate.ui import text
from tablemate_host.virtual_ssd1306 import VirtualSSD1306

INSTALL_HINT = ("Adafruit's SSD1306 library is missing: `make test` installs it "
                "(pip install --no-deps -r tests/host/adafruit-requirements.txt)")


class AdafruitBus:
    """What ``adafruit_bus_device.i2c_device.I2CDevice`` needs of a ``busio.I2C``: a lock and
    ``writeto``. Every write is one I2C transaction, handed to the virtual panel at once."""

    def __init__(self, panel, addr=0x3C):
        self.panel = panel
        self.addr = addr
        self.locked = False
        self.transactions = []

    def try_lock(self):
        if self.locked:
            return False
        self.locked = True
        return True

    def unlock(self):
        assert self.locked
        self.locked = False

    def writeto(self, address, buffer, *, start=0, end=None):
        assert self.locked, "Adafruit writes with the bus locked"
        if address != self.addr:
            raise OSError(19)  # ENODEV: nobody answers
        data = bytes(buffer[start:len(buffer) if end is None else end])
        self.transactions.append(data)
        if data:  # the empty write is the library's probe for the device
            self.panel.write(data)

    def readfrom_into(self, address, buffer, *, start=0, end=None):
        raise OSError(5)


def _stand_in(monkeypatch, name, **attrs):
    module = types.ModuleType(name)
    module.__dict__.update(attrs)
    monkeypatch.setitem(sys.modules, name, module)


@pytest.fixture
def adafruit_ssd1306(monkeypatch):
    """Adafruit's driver module, imported with its own framebuf and no Blinka."""
    _stand_in(monkeypatch, "busio", I2C=object, SPI=object)
    _stand_in(monkeypatch, "digitalio", DigitalInOut=object)
    _stand_in(monkeypatch, "circuitpython_typing", ReadableBuffer=bytes,
              WriteableBuffer=bytearray)
    monkeypatch.setitem(sys.modules, "framebuf", None)  # `import framebuf` fails in there
    for name in ("adafruit_ssd1306", "adafruit_framebuf", "adafruit_bus_device",
                 "adafruit_bus_device.i2c_device", "adafruit_bus_device.spi_device"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    try:
        module = importlib.import_module("adafruit_ssd1306")
    except ImportError as exc:
        pytest.fail("%s (%s)" % (INSTALL_HINT, exc), pytrace=False)
    assert module.framebuf.__name__ == "adafruit_framebuf"
    return module


@pytest.fixture
def font_file(tmp_path, monkeypatch):
    """Adafruit's text() reads glyphs from a file (width, height, then 5 column bytes for each of
    256 codes); its own file is not in the wheel, so the project's 5x7 font is written out in
    that format. Where the glyphs come from does not matter here: Adafruit's code draws them."""
    data = bytearray([5, 8])
    for code in range(256):
        cell = bytearray(6)
        text.draw(framebuf.FrameBuffer(cell, 6, 8, framebuf.MONO_VLSB), chr(code), 0, 0)
        data += cell[:5]
    path = tmp_path / "font5x8.bin"
    path.write_bytes(bytes(data))
    monkeypatch.chdir(tmp_path)  # the library opens "font5x8.bin" in the working directory
    return path


def _drawn(oled):
    """The 64 x 128 pixels Adafruit's framebuffer holds, read through its own pixel()."""
    return [[oled.pixel(x, y) for x in range(128)] for y in range(64)]


def _shown(panel):
    return panel.pixels()


def _first_difference(want, got):
    for y in range(64):
        for x in range(128):
            if want[y][x] != got[y][x]:
                return "first difference at (%d, %d): drawn %d, shown %d" % (
                    x, y, want[y][x], got[y][x])
    return None


def _rotated(pixels):
    return [list(reversed(row)) for row in reversed(pixels)]


def _inverted(pixels):
    return [[1 - p for p in row] for row in pixels]


def _frames(oled):
    """Draw frame after frame on Adafruit's driver; yield a name after each one is drawn."""
    oled.text("Tablemate 0123456789", 0, 0, 1)
    oled.text("ABCDEFGHIJKLMNOPQRSTU", 0, 9, 1)
    oled.text("abcdefghijklmnopqrstu", 3, 27, 1)
    oled.text("!?#%&*+-./:;<=>@[]", 1, 56, 1)  # the bottom page, to the last row
    yield "text"
    oled.fill(0)
    oled.line(0, 0, 127, 63, 1)
    oled.line(127, 0, 0, 63, 1)
    oled.hline(0, 31, 128, 1)
    oled.vline(64, 0, 64, 1)
    oled.line(5, 60, 120, 3, 1)
    yield "lines"
    oled.fill(0)
    oled.rect(0, 0, 128, 64, 1)
    oled.rect(10, 7, 30, 10, 1)  # edges on page boundaries (rows 7, 8, 15, 16)
    oled.fill_rect(50, 15, 40, 34, 1)
    oled.fill_rect(60, 25, 20, 14, 0)
    oled.circle(110, 40, 12, 1)
    yield "rectangles"
    oled.fill(1)
    yield "full"
    oled.fill(0)
    for x, y in ((0, 0), (127, 0), (0, 63), (127, 63), (1, 7), (126, 8), (64, 55), (63, 56)):
        oled.pixel(x, y, 1)
    yield "edge pixels"
    oled.text("scrolled", 0, 0, 1)
    oled.fill_rect(100, 50, 28, 14, 1)
    oled.scroll(13, 21)  # the framebuffer's own scroll: the picture moves in RAM
    yield "scrolled"
    rng = random.Random(1306)
    oled.fill(0)
    for _ in range(2500):
        oled.pixel(rng.randrange(128), rng.randrange(64), 1)
    yield "random pixels"


def test_adafruit_frames_decode_to_what_adafruit_drew(adafruit_ssd1306, font_file):
    panel = VirtualSSD1306()
    bus = AdafruitBus(panel)
    oled = adafruit_ssd1306.SSD1306_I2C(128, 64, bus)
    assert panel.lit and not panel.unknown, panel.unknown
    assert _shown(panel) == _drawn(oled) and not any(map(any, _shown(panel)))  # init shows blank
    assert bus.transactions[0] == b"" and (0x80, 0xAF) == tuple(bus.transactions[1])  # probe, on
    names = []
    for name in _frames(oled):
        oled.show()
        want = _drawn(oled)
        assert any(map(any, want)), name  # something was drawn
        assert _shown(panel) == want, "%s: %s" % (name, _first_difference(want, _shown(panel)))
        assert panel.frame_bytes() == bytes(oled.buffer[1:]), name  # same MONO_VLSB layout
        names.append(name)
    assert len(names) == 7
    assert all(len(t) == 2 and t[0] == 0x80 for t in bus.transactions[1:] if t[0] != 0x40)


def test_adafruit_panel_states_decode_as_the_datasheet_says(adafruit_ssd1306, font_file):
    panel = VirtualSSD1306()
    oled = adafruit_ssd1306.SSD1306_I2C(128, 64, AdafruitBus(panel))
    oled.text("Upside", 0, 0, 1)
    oled.fill_rect(100, 40, 20, 20, 1)
    oled.pixel(127, 63, 1)
    oled.show()
    drawn = _drawn(oled)
    assert _shown(panel) == drawn

    oled.invert(True)  # 0xA7: lit pixels dark and dark ones lit, RAM untouched
    assert panel.inverted and _shown(panel) == _inverted(drawn)
    oled.invert(False)
    assert _shown(panel) == drawn

    oled.rotate(False)  # 0xC0 + 0xA0: COM and segment order both reversed, 180 degrees
    oled.show()
    assert _shown(panel) == _rotated(drawn), _first_difference(_rotated(drawn), _shown(panel))
    oled.rotate(True)
    oled.show()
    assert _shown(panel) == drawn

    oled.contrast(0x10)
    assert panel.contrast == 0x10 and _shown(panel) == drawn

    oled.poweroff()  # 0xAE: the glass goes dark, RAM is kept
    assert not panel.lit and not any(map(any, _shown(panel)))
    oled.poweron()
    assert panel.lit and _shown(panel) == drawn


def test_adafruit_is_installed_at_the_pinned_versions():
    from importlib import metadata
    with open(os.path.join(os.path.dirname(__file__), "adafruit-requirements.txt")) as f:
        pins = [line.split("#")[0].strip() for line in f]
    pins = [p for p in pins if p]
    assert len(pins) == 3
    for pin in pins:
        name, version = pin.split("==")
        try:
            installed = metadata.version(name)
        except metadata.PackageNotFoundError:
            pytest.fail(INSTALL_HINT, pytrace=False)
        assert installed == version, (name, installed)
    with pytest.raises(metadata.PackageNotFoundError):
        metadata.version("Adafruit-Blinka")  # not needed, and it would bring its own micropython

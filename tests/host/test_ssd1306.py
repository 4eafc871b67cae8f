"""The partial-update OLED driver, checked against a virtual panel that decodes the I2C bytes.

Two halves: VirtualSSD1306 against hand-written command streams (so the referee itself is
trusted), then the driver on the fake I2C bus with the virtual panel attached: after every
show() the panel must display exactly the framebuffer, and the byte counts must stay small.
"""

import random

import pytest

import machine
from tablemate.hw.ssd1306 import SSD1306
from tablemate_host import mpvm
from tablemate_host.virtual_ssd1306 import VirtualSSD1306


@pytest.fixture(autouse=True)
def clean_world():
    machine.world.reset()
    yield
    machine.world.reset()


def cmds(*b):
    """One transaction: command stream control byte then the bytes."""
    return bytes((0x00,) + b)


def data(*b):
    return bytes((0x40,) + b)


def lit_panel(sh1106=False):
    v = VirtualSSD1306(sh1106=sh1106)
    if sh1106:
        v.write(cmds(0xA1, 0xC8, 0xAF))
    else:
        v.write(cmds(0xA1, 0xC8, 0x8D, 0x14, 0xAF))
    return v


def at(v, page, col):
    return v.ram[page * v.ram_width + col]


# ---- the virtual panel on its own ------------------------------------------------------------

def test_horizontal_mode_wraps_column_window_then_page_window():
    v = VirtualSSD1306()
    v.write(cmds(0x20, 0x00, 0x21, 10, 12, 0x22, 1, 2))
    v.write(data(1, 2, 3, 4, 5, 6, 7))
    assert [at(v, 1, c) for c in (10, 11, 12)] == [7, 2, 3]  # 7th byte wrapped to the start
    assert [at(v, 2, c) for c in (10, 11, 12)] == [4, 5, 6]
    assert at(v, 1, 13) == 0 and at(v, 0, 10) == 0 and at(v, 3, 10) == 0
    assert (v.page, v.col) == (1, 11)


def test_vertical_mode_walks_pages_first():
    v = VirtualSSD1306()
    v.write(cmds(0x20, 0x01, 0x21, 5, 6, 0x22, 0, 2))
    v.write(data(1, 2, 3, 4, 5, 6, 7))
    assert [at(v, p, 5) for p in range(3)] == [7, 2, 3]
    assert [at(v, p, 6) for p in range(3)] == [4, 5, 6]


def test_page_mode_uses_b0_and_column_nibbles_and_stays_on_the_page():
    v = VirtualSSD1306()
    assert v.mode == 2  # page addressing after reset
    v.write(cmds(0xB3, 0x05, 0x17))  # page 3, column 0x75 = 117
    v.write(data(*range(1, 14)))  # 11 bytes fill 117..127, then back to column 117
    assert [at(v, 3, c) for c in range(117, 128)] == [12, 13] + list(range(3, 12))
    assert at(v, 4, 0) == 0 and at(v, 3, 116) == 0


def test_page_commands_do_not_move_the_pointer_in_horizontal_mode():
    v = VirtualSSD1306()
    v.write(cmds(0x20, 0x00, 0x21, 0, 127, 0x22, 0, 7, 0xB5, 0x03))
    v.write(data(9))
    assert at(v, 0, 0) == 9


def test_co_bit_control_bytes_and_arguments_across_transactions():
    v = VirtualSSD1306()
    # Co=1: one byte per control byte; a command's argument may come in its own pair
    v.write(bytes([0x80, 0x8D, 0x80, 0x14, 0x80, 0xAF, 0x80, 0x81, 0x80, 0x42, 0xC0, 0xAA, 0x80, 0xA7]))
    assert v.charge_pump and v.display_on and v.contrast == 0x42 and v.inverted
    assert at(v, 0, 0) == 0xAA and v.col == 1
    # micropython-lib style: every command byte in a separate transaction
    for b in (0x20, 0x00, 0x21, 3, 4, 0x22, 6, 7):
        v.write(bytes([0x80, b]))
    v.write(data(1, 2, 3))
    assert (at(v, 6, 3), at(v, 6, 4), at(v, 7, 3)) == (1, 2, 3)
    assert v.transactions_total == 10 and v.unknown == []


def test_all_commands_parse_their_arguments():
    v = VirtualSSD1306()
    v.write(cmds(0x26, 0x00, 0x00, 0x07, 0x07, 0x00, 0xFF,  # horizontal scroll setup
                 0x29, 0x00, 0x00, 0x00, 0x07, 0x01, 0xA3, 0x00, 0x40, 0x2F))
    assert v.scroll_active and v.scroll == (0x29, (0, 0, 0, 7, 1)) and v.vscroll_area == (0, 64)
    v.write(cmds(0x2E, 0xA8, 0x1F, 0xD3, 0x05, 0xDA, 0x02, 0xD5, 0xF0, 0xD9, 0xF1, 0xDB, 0x40, 0x45,
                 0xE3, 0xA5, 0xA0, 0xC0, 0x81, 0x10))
    assert not v.scroll_active
    assert (v.mux, v.offset, v.com_pins, v.clock, v.precharge, v.vcomh, v.start_line) == (32, 5, 2, 0xF0, 0xF1, 0x40, 5)
    assert v.entire_on and not v.seg_remap and not v.com_reverse and v.contrast == 0x10
    assert v.unknown == []
    v.write(cmds(0xFF))
    assert v.unknown == [0xFF]


def test_visible_image_follows_remap_scan_invert_and_power():
    v = lit_panel()
    v.write(cmds(0x20, 0x00, 0x21, 0, 127, 0x22, 0, 7))
    v.write(data(0x01))  # pixel (0, 0) in RAM
    assert v.pixel(0, 0) == 1 and sum(map(sum, v.pixels())) == 1
    v.write(cmds(0xA0, 0xC0))  # both remaps off: the COM scan turns the picture at once...
    assert v.pixel(0, 63) == 1 and v.pixel(127, 63) == 0  # ...the segment remap does not
    v.write(cmds(0x21, 0, 127, 0x22, 0, 7))
    v.write(data(0x01, *[0] * 127))  # rewritten: rotated 180 degrees (SSD1306 datasheet 10.1.8)
    assert v.pixel(127, 63) == 1 and v.pixel(0, 63) == 0
    v.write(cmds(0xA1, 0xC8, 0x41))  # start line 1 moves the image up a row
    assert v.pixel(127, 63) == 1 and v.pixel(0, 63) == 0  # the RAM kept its segment order
    v.write(cmds(0x21, 0, 127, 0x22, 0, 7))
    v.write(data(0x01, *[0] * 127))
    assert v.pixel(0, 63) == 1 and sum(map(sum, v.pixels())) == 1
    v.write(cmds(0x40, 0xA7))
    assert v.pixel(0, 0) == 0 and v.pixel(5, 5) == 1
    v.write(cmds(0xA6, 0xA5))
    assert sum(map(sum, v.pixels())) == 128 * 64
    v.write(cmds(0xA4, 0xAE))
    assert sum(map(sum, v.pixels())) == 0 and v.read(1) == b"\x40"
    v.write(cmds(0xAF, 0x8D, 0x10))  # no charge pump, no light on these modules
    assert sum(map(sum, v.pixels())) == 0


def test_sequential_com_pins_interleave_rows():
    v = lit_panel()
    v.write(cmds(0x20, 0x00, 0xDA, 0x02))
    v.write(data(0x02))  # RAM row 1 of column 0
    assert v.pixel(0, 1) == 0 and sum(map(sum, v.pixels())) == 1


def test_sh1106_has_132_columns_page_mode_only_and_an_offset_of_two():
    v = lit_panel(sh1106=True)
    v.write(cmds(0x20, 0x00))  # not an SH1106 command: 0x20 unknown, 0x00 = lower column 0
    assert v.unknown == [0x20] and v.mode == 2
    v.write(cmds(0xB2, 0x02, 0x10))
    v.write(data(0xFF))
    assert at(v, 2, 2) == 0xFF and v.pixel(0, 16) == 1
    v.write(cmds(0xB0, 0x03, 0x18))  # column 131, the last one
    v.write(data(0x01, 0x01))  # the pointer wraps on the same page
    assert at(v, 0, 131) == 1 and at(v, 0, 0) == 1 and at(v, 1, 0) == 0
    v.write(cmds(0xA0, 0xC0))  # unremapped, the visible window is still RAM columns 2..129
    assert v.pixel(127, 47) == 1


def test_find_text_png_and_counters(tmp_path):
    v = lit_panel()
    v.write(cmds(0x20, 0x00, 0x21, 20, 21, 0x22, 1, 1))
    v.mark()
    v.write(data(0b11, 0b01))
    assert (v.transactions, v.bytes, v.data_bytes) == (1, 3, 2)
    assert v.find([[1, 1], [1, 0]]) == [(20, 8)]
    assert v.find([[1]]) == [(20, 8), (21, 8), (20, 9)]
    text = v.to_text().splitlines()
    assert len(text) == 32 and len(text[4]) == 128 and text[4][20:22] == "\u2588\u2580"
    pytest.importorskip("PIL")
    png = v.to_png(str(tmp_path / "p.png"), scale=3)
    from PIL import Image
    img = Image.open(png)
    assert img.size == (384, 192) and img.getpixel((60, 24)) == (0x9F, 0xD8, 0xFF)


# ---- the driver on the fake I2C with the virtual panel -----------------------------------------

def make(sh1106=False, flip=False):
    i2c = machine.I2C(0, scl=machine.Pin(5), sda=machine.Pin(4))
    panel = machine.world.attach_i2c(0, 0x3C, VirtualSSD1306(sh1106=sh1106))
    return SSD1306(i2c, sh1106=sh1106, flip=flip), panel


def expected(d, flip):
    if not flip:
        return bytes(d.buf)
    out = bytearray(1024)
    for y in range(64):
        for x in range(128):
            if d.pixel(127 - x, 63 - y):
                out[(y >> 3) * 128 + x] |= 1 << (y & 7)
    return bytes(out)


def scribble(rnd, d):
    kind = rnd.randrange(7)
    x, y = rnd.randint(-10, 130), rnd.randint(-10, 70)
    c = rnd.randint(0, 1)
    if kind == 0:
        d.fill_rect(x, y, rnd.randint(1, 30), rnd.randint(1, 20), c)
    elif kind == 1:
        d.line(x, y, rnd.randint(-10, 130), rnd.randint(-10, 70), c)
    elif kind == 2:
        d.text("%d" % rnd.randint(0, 999), x, y, c)
    elif kind == 3:
        d.ellipse(x, y, rnd.randint(0, 20), rnd.randint(0, 12), c, rnd.random() < 0.5)
    elif kind == 4:
        d.pixel(x, y, c)
    elif kind == 5:
        d.scroll(rnd.randint(-3, 3), rnd.randint(-3, 3))
    else:
        d.fill(rnd.choice((0, 0, 1)))


@pytest.mark.parametrize("sh1106,flip", [(False, False), (True, False), (False, True), (True, True)])
def test_panel_shows_the_framebuffer_after_every_show(sh1106, flip):
    d, panel = make(sh1106, flip)
    rnd = random.Random(64 + sh1106 * 2 + flip)
    d.show()
    assert panel.frame_bytes() == expected(d, flip) and panel.unknown == []
    for _ in range(120):
        for _ in range(rnd.randint(0, 3)):
            scribble(rnd, d)
        d.show()
        assert panel.frame_bytes() == expected(d, flip)


@pytest.mark.parametrize("sh1106,flip", [(False, False), (True, False), (False, True), (True, True)])
def test_a_turn_costs_two_commands_and_one_frame(sh1106, flip):
    """turn() rotates the picture 180 degrees on top of the mounting flip, for 3 bytes of
    commands and the whole frame once (the SSD1306's segment remap needs the RAM rewritten)."""
    d, panel = make(sh1106, flip)
    rnd = random.Random(26 + sh1106 * 2 + flip)
    for _ in range(30):
        scribble(rnd, d)
    d.fill_rect(0, 0, 40, 8, 0)
    d.text("turn", 0, 0, 1)  # not the same turned
    d.show()
    upright = panel.frame_bytes()
    panel.mark()
    logged = len(panel.log)
    d.turn(True)
    d.show()
    assert panel.bytes == 3 + (1064 if sh1106 else 1032)
    assert panel.transactions == 1 + (16 if sh1106 else 2)
    assert panel.log[logged:logged + 2] == ([(0xA1,), (0xC8,)] if flip else [(0xA0,), (0xC0,)])
    assert panel.frame_bytes() == expected(d, not flip) != upright
    panel.reader = 1  # the player across reads it as the near one read it before
    assert panel.frame_bytes() == upright
    panel.reader = 0
    panel.mark()
    d.turn(True)
    d.show()
    assert panel.bytes == 0  # already turned: nothing to send
    for _ in range(60):  # turned, changes still go as spans
        scribble(rnd, d)
        d.show()
        assert panel.frame_bytes() == expected(d, not flip)
    d.turn(False)
    d.show()
    assert panel.frame_bytes() == expected(d, flip)


# What the driver sends for one 8x16 digit at (60, 20), rows 20-35 across pages 2-4: the SSD1306
# gets one window of three pages by eight columns (24 data bytes, with the address commands 32
# bytes in 2 transactions); without the window merging it would be three windows (48 bytes in
# 6 transactions). The SH1106 has page addressing only: three windows, 39 bytes in 6 transactions.
DIGIT = {False: (32, 2), True: (39, 6)}


def test_byte_budget_full_frame_one_digit_and_nothing():
    for sh1106 in (False, True):
        machine.world.reset()
        d, panel = make(sh1106)
        panel.mark()
        d.show()
        full = panel.bytes
        d.fill_rect(60, 20, 8, 16, 1)  # one 8x16 digit, not page aligned: rows 20-35 touch 3 pages
        panel.mark()
        d.show()
        digit = (panel.bytes, panel.transactions)
        panel.mark()
        d.show()
        print("%s: full frame %d bytes, one digit %d bytes in %d transactions"
              % (("SH1106" if sh1106 else "SSD1306", full) + digit))
        assert full == (1064 if sh1106 else 1032)
        assert digit == DIGIT[sh1106], digit
        assert panel.bytes == 0 and panel.transactions == 0
        assert panel.frame_bytes() == bytes(d.buf)


def test_changes_on_neighbouring_pages_are_merged_into_one_window():
    d, panel = make()
    d.show()
    for page, x in ((1, 40), (2, 44), (3, 41)):  # a column of spans, a few columns apart
        d.fill_rect(x, page * 8 + 2, 6, 3, 1)
    panel.mark()
    d.show()
    assert panel.transactions == 2, "one command and one data transaction"
    assert panel.data_bytes == 3 * 11, panel.data_bytes  # pages 1-3, columns 40-50 (the spans
    # are found to within 4 columns: 40-47, 44-50, 40-47)
    assert panel.frame_bytes() == bytes(d.buf)


def test_far_apart_changes_are_sent_as_separate_windows():
    d, panel = make()
    d.show()
    d.pixel(0, 0, 1)
    d.pixel(127, 63, 1)
    panel.mark()
    d.show()
    # two windows of at most 8 columns each (the driver finds spans to within 8 columns)
    assert panel.transactions == 4 and 2 <= panel.data_bytes <= 16
    assert panel.frame_bytes() == bytes(d.buf)


def test_a_fast_bus_sends_a_mostly_new_frame_whole():
    """On a 1 MHz bus a frame with seven of its eight pages changed goes as one window of the
    whole frame, its spans not looked for (they cost a Pico more than the bytes they save),
    and one with six unless two or more changed on one side of their middle only; with five,
    and at 400 kHz, the changed spans go."""
    for hz, pages, x, whole in ((1000000, 7, 10, True), (1000000, 6, 50, True),
                                (1000000, 6, 10, False), (1000000, 5, 50, False),
                                (400000, 7, 10, False), (400000, 6, 50, False)):
        machine.world.reset()
        i2c = machine.I2C(0, scl=machine.Pin(5), sda=machine.Pin(4))
        panel = machine.world.attach_i2c(0, 0x3C, VirtualSSD1306())
        d = SSD1306(i2c, hz=hz)
        d.show()
        for page in range(pages):
            d.fill_rect(x, page * 8 + 2, 20, 3, 1)  # 20 columns of each of these pages
        panel.mark()
        d.show()
        got = (panel.transactions, panel.data_bytes)
        if whole:
            assert got == (2, 1024), (hz, pages, x, got)
        else:  # one window of the changed pages, the columns to within the driver's grain
            assert got[0] == 2 and pages * 20 <= got[1] <= pages * 28, (hz, pages, x, got)
        assert panel.frame_bytes() == bytes(d.buf)
    machine.world.reset()
    i2c = machine.I2C(0, scl=machine.Pin(5), sda=machine.Pin(4))
    panel = machine.world.attach_i2c(0, 0x3C, VirtualSSD1306())
    d = SSD1306(i2c, hz=1000000)
    d.show()
    for page in range(6):  # six pages, one of them changed on its left only: still whole
        d.fill_rect(10 if page == 3 else 50, page * 8 + 2, 20, 3, 1)
    panel.mark()
    d.show()
    assert (panel.transactions, panel.data_bytes) == (2, 1024)
    assert panel.frame_bytes() == bytes(d.buf)


def test_contrast_invert_power_reach_the_panel():
    d, panel = make()
    d.fill_rect(0, 0, 10, 10, 1)
    d.show()
    d.contrast(17)
    assert panel.contrast == 17
    d.invert(True)
    assert panel.inverted and panel.pixel(20, 20) == 1 and panel.pixel(0, 0) == 0
    d.invert(False)
    d.poweroff()
    assert not panel.display_on and sum(map(sum, panel.pixels())) == 0
    d.poweron()
    panel.mark()
    d.show()  # after poweron everything is resent
    assert panel.display_on and panel.data_bytes == 1024
    assert panel.frame_bytes() == bytes(d.buf)


def test_bus_error_mid_show_makes_the_next_show_resend_everything():
    d, panel = make()
    d.show()
    d.pixel(5, 5, 1)
    del machine.world.bus(0).devices[0x3C]
    with pytest.raises(OSError) as err:
        d.show()
    assert err.value.errno == 5  # rp2 hardware I2C: EIO on NACK
    machine.world.attach_i2c(0, 0x3C, panel)
    panel.mark()
    d.show()
    assert panel.data_bytes == 1024 and panel.frame_bytes() == bytes(d.buf)


DRIVER_SCRIPT = """
from tablemate.hw.ssd1306 import SSD1306

class Recorder:
    def writeto(self, addr, buf, stop=True):
        print('W', addr, ''.join(['%02x' % b for b in buf]))
    def writevto(self, addr, vec, stop=True):
        print('V', addr, ''.join([''.join(['%02x' % b for b in part]) for part in vec]))

for sh in (False, True):
    d = SSD1306(Recorder(), sh1106=sh, flip=sh)
    d.show()
    d.fill_rect(60, 20, 8, 16, 1)
    d.show()
    d.show()
    d.text('42', 3, 50, 1)
    d.pixel(127, 0, 1)
    d.show()
    d.ellipse(64, 32, 20, 12, 1, True)
    d.show()
    d.contrast(9)
    d.invert(1)
    d.poweroff()
    d.poweron()
    d.show()
"""


def test_driver_sends_the_same_bytes_under_micropython():
    device = mpvm.run(DRIVER_SCRIPT).splitlines()
    host = []

    def fake_print(*args):
        host.append(" ".join(str(a) for a in args))

    exec(DRIVER_SCRIPT, {"print": fake_print})
    assert len(device) > 20
    assert host == device


def test_fake_i2c_records_transactions_like_the_rp2_port():
    bus = machine.world.bus(0)
    i2c = machine.I2C(0, scl=machine.Pin(5), sda=machine.Pin(4))
    machine.world.attach_i2c(0, 0x3C, VirtualSSD1306())
    assert i2c.scan() == [0x3C]
    assert i2c.writevto(0x3C, [b"\x40", memoryview(b"\x01\x02")]) == 3
    assert bus.log[-1] == (0x3C, b"\x40\x01\x02") and bus.writes == 1 and bus.bytes == 3
    with pytest.raises(OSError) as hw:
        i2c.writeto(0x3D, b"\x00")
    soft = machine.SoftI2C(scl=machine.Pin(3), sda=machine.Pin(2))
    with pytest.raises(OSError) as sw:
        soft.writeto(0x3C, b"\x00")  # nothing attached to the soft bus's pins
    assert (hw.value.errno, sw.value.errno) == (5, 19)  # EIO from rp2 hardware, ENODEV from soft
    with pytest.raises(ValueError):
        machine.I2C(0, scl=machine.Pin(4), sda=machine.Pin(5))  # SCL must be an odd pin

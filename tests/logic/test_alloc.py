"""What a key press allocates, held at what it measures today (MicroPython: the WASM VM is a
32-bit MicroPython like the Pico's, so its byte counts are the device's within a few words).

A Pico collects garbage when an allocation finds no room, in the middle of a press: every
kilobyte a press allocates brings that pause nearer. The figures come from
``rig.press_allocations`` (a null bus: only the firmware allocates), which ``tools/bench.py``
prints; here they may not grow. The rig's own fake bus allocates nothing per byte.
"""

import support
import rig

# Measured on 2026-12-02 (MicroPython 1.27 WASM): a scorepad +1 allocates nothing in the key
# handler, 384 B drawing (the table's cell and the status line) and 1,152 B in show (the
# driver's memoryview slices while it finds the changed spans and sends them).
PLUS_ONE = {"+1 key": 0, "+1 draw": 384, "+1 show": 1152}


def _need_micropython():
    import sys
    if sys.implementation.name != "micropython":
        support.skip("CPython's heap is not a Pico's: the MicroPython VM measures this")


def test_a_scorepad_plus_one_allocates_no_more_than_today():
    _need_micropython()
    got = rig.press_allocations(support.scratch_dir("alloc-plus-one"))
    for part, most in PLUS_ONE.items():
        assert got[part] <= most, (part, got[part], most, got)


def test_the_rigs_fake_bus_allocates_nothing_per_byte():
    _need_micropython()
    bus = rig.FakeI2C()
    frame = memoryview(bytearray(range(256)) + bytearray(range(256)) + bytearray(1024 - 512))
    vector = [b"\x40", frame]
    bus.writevto(0x3C, vector)  # once, so that nothing is allocated the first time
    assert rig.alloc(lambda: bus.writevto(0x3C, vector)) == 0
    assert bus.bytes == 2 * (1 + 1024)


# Measured on 2026-12-06 (MicroPython 1.28 WASM): the score table of four players drawn again
# with the same scores allocates 384 B (the digits' slices, each value's digits formatted for
# ``put_digits``), no width: each value's width is kept (``ui/table.py``); 512 B when each was
# measured again. (256 B while the digits were kept too: 64 B of heap a value, 0.8 KB in a
# 6-player Viewpoint game, which the VM's ``heap-game`` budget had no room for.)
TABLE_AGAIN = 384


def test_a_score_table_drawn_again_measures_no_score_again():
    _need_micropython()
    from tablemate.hw.ssd1306 import SSD1306
    from tablemate.ui import table, text
    d = SSD1306(rig.NullI2C())
    names, scores = ["Ann", "Bob", "Cy", "Dee"], [12, 7, 130, 0]
    text.large()
    for lit in ((1,), ()):
        for _ in range(2):  # the names in the text cache's newest generation, which the first
            table.draw(d, names, scores, lit)  # draw may have turned over: steady state
        got = rig.alloc(lambda: table.draw(d, names, scores, lit))
        print("table drawn again, lit %r: %d B" % (lit, got))
        assert got <= TABLE_AGAIN, (lit, got)

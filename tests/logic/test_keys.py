"""Key state machine: debounce, long press, repeat, layouts and the ticks wrap, on exact timelines."""

import micropython
from time import ticks_add

from tablemate import keys
from tablemate.keys import BACK, DOWN, LEFT, LONG, OK, PRESS, RELEASE, REPEAT, RIGHT, UP, Keys
from tablemate.hw.buttons import Buttons

# Line bits of the six-button layout.
B_UP, B_DOWN, B_LEFT, B_RIGHT, B_OK, B_BACK = 1, 2, 4, 8, 16, 32


def run(k, timeline, end, base=0, step=5):
    """Sample ``timeline`` [(ms, bits), ...] every ``step`` ms from 0 to ``end``; return [(ms, key, kind)].

    Bits hold from their time until the next entry; times in the result are relative to ``base``.
    """
    events = []
    at = [0]

    def emit(key, kind):
        events.append((at[0], key, kind))

    bits = 0
    j = 0
    for ms in range(0, end + 1, step):
        while j < len(timeline) and timeline[j][0] <= ms:
            bits = timeline[j][1]
            j += 1
        at[0] = ms
        k.update(bits, ticks_add(base, ms), emit)
    return events


def test_constants_and_layouts():
    assert (UP, DOWN, LEFT, RIGHT, OK, BACK) == (1, 2, 3, 4, 5, 6)
    assert (PRESS, LONG, REPEAT, RELEASE) == (1, 2, 3, 4)
    assert keys.NAMES[OK] == "OK" and keys.NAMES[BACK] == "BACK"
    assert keys.KIND_NAMES[REPEAT] == "REPEAT"
    assert keys.LAYOUTS["six"] == (UP, DOWN, LEFT, RIGHT, OK, BACK)
    assert keys.LAYOUTS["five"] == (UP, DOWN, LEFT, RIGHT, OK)
    assert keys.LAYOUTS["three"] == (UP, DOWN, OK)
    try:
        Keys("seven")
    except ValueError:
        pass
    else:
        assert False, "unknown layout accepted"


def test_press_and_release():
    ev = run(Keys(), [(100, B_OK), (300, 0)], 600)
    assert ev == [(130, OK, PRESS), (330, OK, RELEASE)]


def test_each_line_maps_to_its_key():
    for i, key in enumerate(keys.LAYOUTS["six"]):
        ev = run(Keys(), [(100, 1 << i), (200, 0)], 400)
        assert ev == [(130, key, PRESS), (230, key, RELEASE)], (i, ev)


def test_bouncing_contact_gives_one_press_and_one_release():
    bounce_in = [(100, B_UP), (105, 0), (110, B_UP), (115, 0), (120, B_UP)]
    bounce_out = [(400, 0), (405, B_UP), (410, 0), (420, B_UP), (425, 0)]
    ev = run(Keys(), bounce_in + bounce_out, 800)
    assert ev == [(150, UP, PRESS), (455, UP, RELEASE)]


def test_short_glitch_gives_nothing():
    assert run(Keys(), [(100, B_OK), (125, 0)], 600) == []
    assert run(Keys(), [(100, B_LEFT), (105, 0), (300, B_LEFT), (310, 0)], 600) == []


def test_short_drop_while_held_is_not_a_release():
    ev = run(Keys(), [(100, B_OK), (400, 0), (420, B_OK), (600, 0)], 900)
    assert ev == [(130, OK, PRESS), (630, OK, RELEASE)]


def test_long_press_ok_and_back_in_six_layout():
    ev = run(Keys(), [(100, B_OK), (1500, 0)], 2000)
    assert ev == [(130, OK, PRESS), (830, OK, LONG), (1530, OK, RELEASE)]
    ev = run(Keys(), [(100, B_BACK), (1500, 0)], 2000)
    assert ev == [(130, BACK, PRESS), (830, BACK, LONG), (1530, BACK, RELEASE)]
    ev = run(Keys(), [(100, B_OK), (700, 0)], 1000)  # released before long_ms: no LONG
    assert ev == [(130, OK, PRESS), (730, OK, RELEASE)]


def test_repeat_timing():
    ev = run(Keys(), [(100, B_RIGHT), (950, 0)], 1500)
    assert ev == [
        (130, RIGHT, PRESS),
        (580, RIGHT, REPEAT),
        (690, RIGHT, REPEAT),
        (800, RIGHT, REPEAT),
        (910, RIGHT, REPEAT),
        (980, RIGHT, RELEASE),
    ]


def test_custom_timings():
    k = Keys(debounce_ms=20, long_ms=1000, repeat_delay_ms=300, repeat_ms=50)
    ev = run(k, [(10, B_DOWN | B_BACK), (500, 0)], 1200)
    assert ev == [
        (30, DOWN, PRESS),
        (30, BACK, PRESS),
        (330, DOWN, REPEAT),
        (380, DOWN, REPEAT),
        (430, DOWN, REPEAT),
        (480, DOWN, REPEAT),
        (520, DOWN, RELEASE),
        (520, BACK, RELEASE),
    ]


def test_late_update_repeats_once_and_keeps_going():
    k = Keys()
    ev = []

    def emit(key, kind):
        ev.append((key, kind))

    k.update(0, 0, emit)
    k.update(B_UP, 10, emit)
    k.update(B_UP, 40, emit)
    assert ev == [(UP, PRESS)]
    k.update(B_UP, 3000, emit)  # a long stall: one REPEAT, not a burst
    assert ev == [(UP, PRESS), (UP, REPEAT)]
    k.update(B_UP, 3100, emit)
    assert len(ev) == 2
    k.update(B_UP, 3110, emit)
    assert ev[-1] == (UP, REPEAT) and len(ev) == 3


def test_five_buttons_short_ok_is_ok_on_release():
    ev = run(Keys("five"), [(100, B_OK), (300, 0)], 600)
    assert ev == [(330, OK, PRESS), (330, OK, RELEASE)]


def test_five_buttons_long_ok_is_back():
    ev = run(Keys("five"), [(100, B_OK), (2000, 0)], 2500)
    assert ev == [(830, BACK, PRESS), (2030, BACK, RELEASE)]


def test_five_buttons_other_keys_and_unused_line():
    ev = run(Keys("five"), [(100, B_LEFT | B_BACK), (200, 0)], 400)  # line 5 is not wired
    assert ev == [(130, LEFT, PRESS), (230, LEFT, RELEASE)]


def test_three_buttons_prev_next_ok():
    k = Keys("three")
    ev = run(k, [(100, 1), (200, 0), (300, 2), (400, 0), (500, 4), (600, 0), (800, 4), (1700, 0)], 2000)
    assert ev == [
        (130, UP, PRESS),
        (230, UP, RELEASE),
        (330, DOWN, PRESS),
        (430, DOWN, RELEASE),
        (630, OK, PRESS),
        (630, OK, RELEASE),
        (1530, BACK, PRESS),
        (1730, BACK, RELEASE),
    ]
    ev = run(Keys("three"), [(100, 2), (700, 0)], 1000)
    assert ev == [(130, DOWN, PRESS), (580, DOWN, REPEAT), (690, DOWN, REPEAT), (730, DOWN, RELEASE)]


def test_all_keys_held_at_once():
    ev = run(Keys(), [(100, 63), (1000, 0)], 1500)
    presses = [e for e in ev if e[2] == PRESS]
    assert presses == [(130, key, PRESS) for key in (UP, DOWN, LEFT, RIGHT, OK, BACK)]
    for key in (UP, DOWN, LEFT, RIGHT):
        assert [e[0] for e in ev if e[1] == key and e[2] == REPEAT] == [580, 690, 800, 910]
    assert [e for e in ev if e[2] == LONG] == [(830, OK, LONG), (830, BACK, LONG)]
    releases = [e for e in ev if e[2] == RELEASE]
    assert releases == [(1030, key, RELEASE) for key in (UP, DOWN, LEFT, RIGHT, OK, BACK)]
    assert len(ev) == 6 + 16 + 2 + 6


def test_keys_are_independent():
    # DOWN is pressed and released while RIGHT keeps repeating; five-button OK joins in.
    timeline = [(10, B_RIGHT), (600, B_RIGHT | B_DOWN), (650, B_RIGHT), (700, B_RIGHT | B_OK), (1000, 0)]
    ev = run(Keys("five"), timeline, 1200)
    assert ev == [
        (40, RIGHT, PRESS),
        (490, RIGHT, REPEAT),
        (600, RIGHT, REPEAT),
        (630, DOWN, PRESS),
        (680, DOWN, RELEASE),
        (710, RIGHT, REPEAT),
        (820, RIGHT, REPEAT),
        (930, RIGHT, REPEAT),
        (1030, RIGHT, RELEASE),
        (1030, OK, PRESS),
        (1030, OK, RELEASE),
    ]


def test_ticks_wrap_in_the_middle_of_a_hold():
    timeline = [(100, B_RIGHT | B_OK), (1500, 0)]
    plain = run(Keys(), timeline, 2000)
    base = ticks_add(0, -400)  # the ticks counter wraps 400 ms in, during the hold
    assert base > 1000
    assert run(Keys(), timeline, 2000, base=base) == plain
    assert (830, OK, LONG) in plain
    assert plain[-2:] == [(1530, RIGHT, RELEASE), (1530, OK, RELEASE)]
    five = [(100, B_OK), (1500, 0)]
    assert run(Keys("five"), five, 2000, base=base) == [(830, BACK, PRESS), (1530, BACK, RELEASE)]


def test_no_events_while_nothing_changes():
    assert run(Keys(), [], 10000) == []
    ev = run(Keys(), [(5, B_OK)], 20000)  # held for good: PRESS and LONG, then silence
    assert ev == [(35, OK, PRESS), (735, OK, LONG)]


def test_key_held_at_first_update_is_ignored_until_released():
    # e.g. the OK that chose this layout is still down when the new Keys starts
    ev = run(Keys("five"), [(0, B_OK), (1500, 0), (2000, B_OK), (2100, 0)], 2500)
    assert ev == [(2130, OK, PRESS), (2130, OK, RELEASE)]


def test_update_does_not_allocate():
    if not hasattr(micropython, "heap_lock"):
        return  # CPython: the MicroPython VM runs this check
    count = [0]

    def emit(key, kind):
        count[0] += 1

    k = Keys("five")
    bits = (0, 63, 0, 1, 16, 0)
    micropython.heap_lock()
    try:
        for ms in range(0, 12000, 5):
            k.update(bits[ms // 2000], ms, emit)
    finally:
        micropython.heap_unlock()
    assert count[0] > 10


class _Pin:
    def __init__(self, level):
        self.level = level

    def value(self):
        return self.level


def test_buttons_read_inverts_pull_ups():
    pins = [_Pin(1), _Pin(0), _Pin(1), _Pin(0)]
    b = Buttons(pins)
    assert b.read() == 0b1010
    pins[0].level = 0
    pins[3].level = 1
    assert b.read() == 0b0011
    assert Buttons([]).read() == 0

"""Key state machine: debounce, long press, repeat, layouts and the ticks wrap, on exact timelines."""

import micropython
from time import ticks_add

import support
from tablemate import keys
from tablemate.keys import BACK, DOWN, LEFT, LONG, OK, PRESS, RELEASE, REPEAT, RIGHT, UP, Keys
from tablemate.hw.peripherals import Buttons

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
    assert ev == [(100, OK, PRESS), (300, OK, RELEASE)]


def test_each_line_maps_to_its_key():
    for i, key in enumerate(keys.LAYOUTS["six"]):
        ev = run(Keys(), [(100, 1 << i), (200, 0)], 400)
        assert ev == [(100, key, PRESS), (200, key, RELEASE)], (i, ev)


def test_bouncing_contact_gives_one_press_and_one_release():
    bounce_in = [(100, B_UP), (105, 0), (110, B_UP), (115, 0), (120, B_UP)]
    bounce_out = [(400, 0), (405, B_UP), (410, 0), (420, B_UP), (425, 0)]
    ev = run(Keys(), bounce_in + bounce_out, 800)
    assert ev == [(100, UP, PRESS), (400, UP, RELEASE)]  # both at their first edge


def test_eight_bounces_per_edge_at_1_ms_count_once():
    t = [(100 + i, B_OK if i % 2 == 0 else 0) for i in range(9)]  # ends pressed at 108
    t += [(500 + i, 0 if i % 2 == 0 else B_OK) for i in range(9)]  # ends released at 508
    ev = run(Keys(), t, 900, step=1)
    assert ev == [(100, OK, PRESS), (500, OK, RELEASE)]


def test_a_tap_shorter_than_the_debounce_window_is_one_press():
    # The press acts at its edge; the release inside the deaf window is seen when it closes.
    assert run(Keys(), [(100, B_OK), (125, 0)], 600) == [(100, OK, PRESS), (130, OK, RELEASE)]
    ev = run(Keys(), [(100, B_LEFT), (105, 0), (300, B_LEFT), (310, 0)], 600)
    assert ev == [(100, LEFT, PRESS), (130, LEFT, RELEASE), (300, LEFT, PRESS), (330, LEFT, RELEASE)]


def test_a_drop_while_held_after_the_window_is_a_release_and_a_new_press():
    # Chatter is only ignored right after an edge; 300 ms later a drop is the finger lifting.
    ev = run(Keys(), [(100, B_OK), (400, 0), (420, B_OK), (600, 0)], 900)
    assert ev == [(100, OK, PRESS), (400, OK, RELEASE), (430, OK, PRESS), (600, OK, RELEASE)]


def test_the_window_survives_the_ticks_wrap():
    base = ticks_add(0, -110)  # the counter wraps 10 ms after the press below
    ev = run(Keys(), [(100, B_UP), (105, 0), (110, B_UP), (300, 0)], 500, base=base)
    assert ev == [(100, UP, PRESS), (300, UP, RELEASE)]


def test_long_press_ok_and_back_in_six_layout():
    ev = run(Keys(), [(100, B_OK), (1500, 0)], 2000)
    assert ev == [(100, OK, PRESS), (800, OK, LONG), (1500, OK, RELEASE)]
    ev = run(Keys(), [(100, B_BACK), (1500, 0)], 2000)
    assert ev == [(100, BACK, PRESS), (800, BACK, LONG), (1500, BACK, RELEASE)]
    ev = run(Keys(), [(100, B_OK), (700, 0)], 1000)  # released before long_ms: no LONG
    assert ev == [(100, OK, PRESS), (700, OK, RELEASE)]


def test_repeat_timing():
    ev = run(Keys(), [(100, B_RIGHT), (950, 0)], 1500)
    assert ev == [
        (100, RIGHT, PRESS),
        (550, RIGHT, REPEAT),
        (660, RIGHT, REPEAT),
        (770, RIGHT, REPEAT),
        (880, RIGHT, REPEAT),
        (950, RIGHT, RELEASE),
    ]


def test_custom_timings():
    k = Keys(debounce_ms=20, long_ms=1000, repeat_delay_ms=300, repeat_ms=50)
    ev = run(k, [(10, B_DOWN | B_BACK), (15, 0), (20, B_DOWN | B_BACK), (500, 0)], 1200)
    assert ev == [
        (10, DOWN, PRESS),
        (10, BACK, PRESS),
        (310, DOWN, REPEAT),
        (360, DOWN, REPEAT),
        (410, DOWN, REPEAT),
        (460, DOWN, REPEAT),
        (500, DOWN, RELEASE),
        (500, BACK, RELEASE),
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
    assert ev == [(300, OK, PRESS), (300, OK, RELEASE)]


def test_five_buttons_long_ok_is_back():
    ev = run(Keys("five"), [(100, B_OK), (2000, 0)], 2500)
    assert ev == [(800, BACK, PRESS), (2000, BACK, RELEASE)]


def test_five_buttons_other_keys_and_unused_line():
    ev = run(Keys("five"), [(100, B_LEFT | B_BACK), (200, 0)], 400)  # line 5 is not wired
    assert ev == [(100, LEFT, PRESS), (200, LEFT, RELEASE)]


def test_three_buttons_prev_next_ok():
    k = Keys("three")
    ev = run(k, [(100, 1), (200, 0), (300, 2), (400, 0), (500, 4), (600, 0), (800, 4), (1700, 0)], 2000)
    assert ev == [
        (100, UP, PRESS),
        (200, UP, RELEASE),
        (300, DOWN, PRESS),
        (400, DOWN, RELEASE),
        (600, OK, PRESS),
        (600, OK, RELEASE),
        (1500, BACK, PRESS),
        (1700, BACK, RELEASE),
    ]
    ev = run(Keys("three"), [(100, 2), (700, 0)], 1000)
    assert ev == [(100, DOWN, PRESS), (550, DOWN, REPEAT), (660, DOWN, REPEAT), (700, DOWN, RELEASE)]


def test_all_keys_held_at_once():
    ev = run(Keys(), [(100, 63), (1000, 0)], 1500)
    presses = [e for e in ev if e[2] == PRESS]
    assert presses == [(100, key, PRESS) for key in (UP, DOWN, LEFT, RIGHT, OK, BACK)]
    for key in (UP, DOWN, LEFT, RIGHT):
        assert [e[0] for e in ev if e[1] == key and e[2] == REPEAT] == [550, 660, 770, 880, 990]
    assert [e for e in ev if e[2] == LONG] == [(800, OK, LONG), (800, BACK, LONG)]
    releases = [e for e in ev if e[2] == RELEASE]
    assert releases == [(1000, key, RELEASE) for key in (UP, DOWN, LEFT, RIGHT, OK, BACK)]
    assert len(ev) == 6 + 20 + 2 + 6


def test_keys_are_independent():
    # DOWN is pressed and released while RIGHT keeps repeating; five-button OK joins in.
    timeline = [(10, B_RIGHT), (600, B_RIGHT | B_DOWN), (650, B_RIGHT), (700, B_RIGHT | B_OK), (1000, 0)]
    ev = run(Keys("five"), timeline, 1200)
    assert ev == [
        (10, RIGHT, PRESS),
        (460, RIGHT, REPEAT),
        (570, RIGHT, REPEAT),
        (600, DOWN, PRESS),
        (650, DOWN, RELEASE),
        (680, RIGHT, REPEAT),
        (790, RIGHT, REPEAT),
        (900, RIGHT, REPEAT),
        (1000, RIGHT, RELEASE),
        (1000, OK, PRESS),
        (1000, OK, RELEASE),
    ]


def test_ticks_wrap_in_the_middle_of_a_hold():
    timeline = [(100, B_RIGHT | B_OK), (1500, 0)]
    plain = run(Keys(), timeline, 2000)
    base = ticks_add(0, -400)  # the ticks counter wraps 400 ms in, during the hold
    assert base > 1000
    assert run(Keys(), timeline, 2000, base=base) == plain
    assert (800, OK, LONG) in plain
    assert plain[-2:] == [(1500, RIGHT, RELEASE), (1500, OK, RELEASE)]
    five = [(100, B_OK), (1500, 0)]
    assert run(Keys("five"), five, 2000, base=base) == [(800, BACK, PRESS), (1500, BACK, RELEASE)]


def test_no_events_while_nothing_changes():
    assert run(Keys(), [], 10000) == []
    ev = run(Keys(), [(5, B_OK)], 20000)  # held for good: PRESS and LONG, then silence
    assert ev == [(5, OK, PRESS), (705, OK, LONG)]


def test_key_held_at_first_update_is_ignored_until_released():
    # e.g. the OK that chose this layout is still down when the new Keys starts
    ev = run(Keys("five"), [(0, B_OK), (1500, 0), (2000, B_OK), (2100, 0)], 2500)
    assert ev == [(2100, OK, PRESS), (2100, OK, RELEASE)]


def test_update_does_not_allocate():
    if not hasattr(micropython, "heap_lock"):
        support.skip("no micropython.heap_lock; the MicroPython VM makes this check")
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

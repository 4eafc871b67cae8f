"""Rotary encoder: quadrature detents, bounce, invalid jumps, fast turns, the push switch, ticks wrap.

The pure machine (tablemate.knob.Encoder) is fed A/B levels; the hardware adaptor
(tablemate.hw.encoder) is driven through pins that fire their interrupt handler on each change,
as the Pico's do.
"""

from time import ticks_add

from fuzz import Pin  # a pull-up input calling its interrupt handler on each change
from tablemate.hw.encoder import EncoderInput
from tablemate.hw.peripherals import ButtonInput
from tablemate.keys import BACK, DOWN, OK, PRESS, RELEASE, REPEAT, UP, Keys
from tablemate.knob import Encoder

# (A, B) through one detent from rest (1, 1); clockwise is DOWN.
CW = ((0, 1), (0, 0), (1, 0), (1, 1))
CCW = ((1, 0), (0, 0), (0, 1), (1, 1))


class Recorder:
    def __init__(self):
        self.events = []

    def __call__(self, key, kind):
        self.events.append((key, kind))

    def presses(self):
        """Detents as keys: PRESS or REPEAT of UP/DOWN (each one is followed by its RELEASE)."""
        return [k for k, kind in self.events if kind in (PRESS, REPEAT)]


def knob(a, b, sw, irq=True):
    """The encoder's input as the boot builds it: pins, quadrature machine, push-switch keys."""
    return EncoderInput(a, b, sw, Encoder(), Keys("encoder"), irq)


def feed(enc, states, emit, t0=0, dt=10):
    """Feed (A, B) states ``dt`` ms apart, starting at rest; returns the time after the last one."""
    t = t0
    for a, b in states:
        t = ticks_add(t, dt)
        enc.update(a, b, t, emit)
    return t


def fresh(**kw):
    enc = Encoder(**kw)
    enc.update(1, 1, 0, None)  # the first sample only says where the knob rests
    return enc


def test_clockwise_detent_is_down_and_anticlockwise_is_up():
    rec = Recorder()
    enc = fresh(fast_ms=0)
    feed(enc, CW, rec)
    assert rec.events == [(DOWN, PRESS), (DOWN, RELEASE)]
    rec.events = []
    feed(enc, CCW, rec, 100)
    assert rec.events == [(UP, PRESS), (UP, RELEASE)]


def test_nothing_before_the_cycle_is_complete():
    rec = Recorder()
    enc = fresh()
    feed(enc, CW[:3], rec)
    assert rec.events == []
    feed(enc, CW[3:], rec, 100)
    assert rec.presses() == [DOWN]


def test_first_sample_only_sets_the_state():
    rec = Recorder()
    enc = Encoder()
    enc.update(0, 0, 0, rec)  # booted mid-turn: no event, no count
    enc.update(1, 0, 10, rec)
    enc.update(1, 1, 20, rec)
    assert rec.events == []
    feed(enc, CW, rec, 30)
    assert rec.presses() == [DOWN]


def test_bounce_on_one_edge_makes_no_phantom_steps():
    rec = Recorder()
    enc = fresh(fast_ms=0)
    # A chatters between 1 and 0 at the first edge, then B at the second, and so on.
    chatter = [(0, 1), (1, 1), (0, 1), (1, 1), (0, 1),
               (0, 0), (0, 1), (0, 0), (0, 1), (0, 0),
               (1, 0), (0, 0), (1, 0),
               (1, 1), (1, 0), (1, 1), (1, 0), (1, 1)]
    feed(enc, chatter, rec, dt=1)
    assert rec.presses() == [DOWN], rec.events
    # Wiggling at rest, or half a turn and back, is no step at all.
    rec.events = []
    t = feed(enc, [(0, 1), (1, 1)] * 10, rec, 100, 1)
    t = feed(enc, [(0, 1), (0, 0), (1, 0), (0, 0), (0, 1), (1, 1)], rec, t, 1)
    t = feed(enc, [(1, 0), (0, 0), (0, 1), (0, 0), (1, 0), (1, 1)], rec, t, 1)
    assert rec.events == []


def test_invalid_double_transitions_are_ignored():
    rec = Recorder()
    enc = fresh()
    # 11 -> 00 skips a state: no direction can be told, so this cycle counts nothing.
    feed(enc, [(0, 0), (1, 0), (1, 1)], rec)
    assert rec.events == []
    # 01 -> 10 (both bits) in the middle of a cycle: the cycle is not counted either.
    feed(enc, [(0, 1), (1, 0), (1, 1)], rec, 100)
    assert rec.events == []
    # ... and the next clean detent counts normally.
    feed(enc, CCW, rec, 200)
    assert rec.presses() == [UP]


def test_every_entry_of_the_transition_table():
    """All 16 (old, new) pairs of A/B states, each on a fresh one-step-per-detent encoder
    (every state is a rest): one step clockwise (3 -> 1 -> 0 -> 2 -> 3) is a DOWN detent, one
    anticlockwise an UP one, no change or a jump of both bits (a missed sample) nothing."""
    order = (3, 1, 0, 2)  # clockwise Gray code, A << 1 | B
    for old in range(4):
        for new in range(4):
            i, j = order.index(old), order.index(new)
            want = 1 if (i + 1) % 4 == j else -1 if (j + 1) % 4 == i else 0
            enc = Encoder(steps_per_detent=1)
            assert enc.step(old >> 1, old & 1) == 0  # the first sample: where it rests
            assert enc.step(new >> 1, new & 1) == want, (old, new, want)


def test_fast_turns_count_every_detent_and_repeat():
    rec = Recorder()
    enc = fresh(fast_ms=40)
    t = feed(enc, CW * 25, rec, dt=2)  # 8 ms per detent: a fast spin
    assert rec.presses() == [DOWN] * 25
    kinds = [kind for key, kind in rec.events]
    assert kinds[0] == PRESS and kinds[1] == RELEASE
    assert kinds[2::2] == [REPEAT] * 24 and kinds[3::2] == [RELEASE] * 24
    # After a pause the next detent is a fresh PRESS; a change of direction is one too.
    rec.events = []
    t = feed(enc, CW, rec, ticks_add(t, 500))
    t = feed(enc, CCW, rec, t, 2)
    assert rec.events == [(DOWN, PRESS), (DOWN, RELEASE), (UP, PRESS), (UP, RELEASE)]


def test_steps_per_detent_options():
    rec = Recorder()
    enc = fresh(steps_per_detent=2, fast_ms=0)
    feed(enc, CW, rec)  # a half-step encoder rests at 11 and at 00: two detents per cycle
    assert rec.presses() == [DOWN, DOWN]
    rec.events = []
    enc = fresh(steps_per_detent=1, fast_ms=0)
    feed(enc, CCW, rec)
    assert rec.presses() == [UP] * 4
    try:
        Encoder(steps_per_detent=3)
    except ValueError:
        pass
    else:
        assert False, "3 steps per detent accepted"


def test_ticks_wrap():
    rec = Recorder()
    enc = fresh(fast_ms=40)
    start = ticks_add(0, -10)  # just below the wrap
    t = feed(enc, CW, rec, start, 2)
    feed(enc, CW, rec, t, 2)  # crosses the wrap: still a fast second detent
    assert rec.events == [(DOWN, PRESS), (DOWN, RELEASE), (DOWN, REPEAT), (DOWN, RELEASE)]


# -- the push switch: the "encoder" layout of the key machine ----------------------------------
def test_push_is_ok_and_long_push_is_back():
    rec = Recorder()
    k = Keys("encoder")
    k.update(0, 0, rec)
    for t in range(0, 300, 5):
        k.update(1 if 100 <= t < 200 else 0, t, rec)
    assert rec.events == [(OK, PRESS), (OK, RELEASE)]
    rec.events = []
    for t in range(300, 1500, 5):
        k.update(1 if t < 1300 else 0, t, rec)
    assert rec.events == [(BACK, PRESS), (BACK, RELEASE)]


# -- the hardware adaptor ---------------------------------------------------------------------
def test_adaptor_catches_edges_between_polls():
    a, b, sw = Pin(), Pin(), Pin()
    inp = knob(a, b, sw)
    rec = Recorder()
    inp.poll(0, rec)
    for _ in range(3):  # three detents between two polls: only the interrupts saw them
        for la, lb in CW:
            a.set(la)
            b.set(lb)
    inp.poll(10, rec)
    assert rec.presses() == [DOWN] * 3
    rec.events = []
    for la, lb in CCW:
        b.set(lb)
        a.set(la)
    sw.set(0)
    for t in range(20, 200, 10):
        inp.poll(t, rec)
    sw.set(1)
    for t in range(200, 300, 10):
        inp.poll(t, rec)
    assert rec.events == [(UP, PRESS), (UP, RELEASE), (OK, PRESS), (OK, RELEASE)]
    inp.close()
    assert a.handler is None and b.handler is None


def test_adaptor_without_interrupts_polls_the_pins():
    a, b, sw = Pin(), Pin(), Pin()
    inp = knob(a, b, sw, irq=False)
    rec = Recorder()
    t = 0
    for la, lb in CW + CW:
        a.level, b.level = la, lb
        t += 10
        inp.poll(t, rec)
    assert rec.presses() == [DOWN, DOWN]


def test_button_input_polls_the_key_machine():
    pins = [Pin(), Pin(), Pin()]
    inp = ButtonInput(pins, Keys("three"))
    rec = Recorder()
    inp.poll(0, rec)
    pins[1].level = 0
    for t in range(10, 100, 10):
        inp.poll(t, rec)
    assert rec.events == [(DOWN, PRESS)]


def bouncy(pin, level, bounces):
    """Set ``pin`` to ``level`` through ``bounces`` chatter transitions, as a worn contact does."""
    for i in range(bounces):
        pin.set(level if i % 2 == 0 else 1 - level)
    pin.set(level)


def test_adaptor_holds_eight_bounces_per_edge_between_polls():
    # A fast spin (five detents inside one 10 ms loop pass) whose every edge chatters eight
    # times: 180 interrupts between two polls, far more than any buffer of states would hold.
    a, b, sw = Pin(), Pin(), Pin()
    inp = knob(a, b, sw)
    rec = Recorder()
    inp.poll(0, rec)
    for _ in range(5):
        for la, lb in CW:
            if la != a.level:
                bouncy(a, la, 8)
            if lb != b.level:
                bouncy(b, lb, 8)
    inp.poll(10, rec)
    assert rec.presses() == [DOWN] * 5
    rec.events = []
    for _ in range(3):
        for la, lb in CCW:
            if lb != b.level:
                bouncy(b, lb, 8)
            if la != a.level:
                bouncy(a, la, 8)
    inp.poll(20, rec)
    assert rec.presses() == [UP] * 3

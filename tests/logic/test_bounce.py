"""Contact bounce: every physical press is one press, every detent one detent, on random traces.

Buttons. Each line of every layout gets its own random presses (so chords happen by overlap):
the contact chatters on each edge, up to 8 transitions 1 ms apart, then stays down for a hold
(a tap, or long enough for LONG and auto-repeat), then chatters again on release. The holds are
at least 20 ms and the gaps between presses at least 40 ms (50 ms and 80 ms when sampled by the
main loop's passes): a finger does not tap faster. ``keys.Keys`` is fed the levels once a
millisecond (every bounce seen) and, separately, as the main loop samples them (a pass takes
1-2 ms; the next comes 10 ms later, or 1 ms after an edge ends the nap, or at once after an edge
during the pass). Each physical press must give exactly one PRESS and one RELEASE of its key, in
that order, LONG and REPEAT only in between; on the layouts without BACK a hold of OK gives OK
on release when short and BACK when long.

Encoder. Turns of 1-12 detents in either direction, slow and fast (a quarter step every 2-15
ms), with up to 8 bounces per edge 1 ms apart (fewer than the quarter step's ms, so a pin has
settled before the other one moves), and pauses between turns; the knob only reverses after a
pause of 20 ms or more. The pins fire ``EncoderInput``'s interrupt handler at each level change,
and the main loop polls every 10 ms (and, separately, now and then after a late pass of 20-60
ms). Each detent must come out exactly once, in order.
"""

import sys

from tablemate import keys
from tablemate.hw.encoder import EncoderInput
from tablemate.knob import Encoder
from tablemate.keys import BACK, DOWN, LONG, OK, PRESS, RELEASE, REPEAT, UP, Keys

from fuzz import Pin, Xorshift

SEEDS = 12
FEW = 3 if sys.implementation.name == "micropython" else SEEDS  # a million updates: 20 s there


def _edge(events, t, line, pressed, bounces):
    """``line`` goes to ``pressed`` at t through ``bounces`` chatter transitions, 1 ms apart;
    returns when it has settled."""
    for j in range(bounces):
        events.append((t + j, line, pressed if j % 2 == 0 else not pressed))
    events.append((t + bounces, line, pressed))
    return t + bounces


def _presses(rng, line, events, end, hold_min, gap_min):
    """Random presses of ``line`` until ``end``: [(first edge down, first edge up)]."""
    out = []
    t = rng.between(0, 300)
    while True:
        k = rng.below(9)
        r = rng.below(10)
        if r < 7:
            hold = rng.between(hold_min, 400)
        elif r < 9:
            hold = rng.between(600, 1600)  # LONG, BACK on the layouts without one, repeats
        else:
            hold = rng.between(hold_min, hold_min + 15)
        release = t + k + hold
        if release + 8 + gap_min > end:
            return out
        _edge(events, t, line, True, k)
        settled = _edge(events, release, line, False, rng.below(9))
        out.append((t, release))
        t = settled + rng.between(gap_min, gap_min + 300)


def _bits_at(lines):
    """Merge each line's events (in time order) into [(ms, bits)] in time order.

    (No sort: MicroPython's quicksort takes seconds on a list that is nearly in order.)"""
    heads = [0] * len(lines)
    bits = 0
    out = []
    while True:
        best = -1
        for i in range(len(lines)):
            if heads[i] < len(lines[i]) and (best < 0 or
                                             lines[i][heads[i]][0] < lines[best][heads[best]][0]):
                best = i
        if best < 0:
            return out
        t, line, pressed = lines[best][heads[best]]
        heads[best] += 1
        if pressed:
            bits |= 1 << line
        else:
            bits &= ~(1 << line)
        if out and out[-1][0] == t:
            out[-1] = (t, bits)
        else:
            out.append((t, bits))


def _run_keys(layout, timeline, end, loop, rng=None):
    """Feed ``timeline`` to Keys(layout): every ms, or (``loop``) at the main loop's passes,
    each taking 1-2 ms. Returns [(ms, key, kind)]."""
    k = Keys(layout)
    got = []
    now = [0]

    def emit(key, kind):
        got.append((now[0], key, kind))

    k.update(0, 0, emit)
    j = 0
    bits = 0
    t = 1
    n = len(timeline)
    while t <= end:
        while j < n and timeline[j][0] <= t:
            bits = timeline[j][1]
            j += 1
        now[0] = t
        k.update(bits, t, emit)
        if not loop:
            t += 1
            continue
        done = t + 1 + rng.below(2)
        if j < n and timeline[j][0] <= done:
            t = done  # an edge during the pass: the next one follows at once
        elif j < n and timeline[j][0] < done + 10:
            t = timeline[j][0] + 1  # the edge ends the 1 ms nap it comes in
        else:
            t = done + 10
    return got


def _check(layout, presses, got):
    """Every line's events: one PRESS and one RELEASE per physical press, in order."""
    lines = keys.LAYOUTS[layout]
    okback = BACK not in lines
    for i in range(len(lines)):
        key = lines[i]
        mine = [e for e in got if e[1] == key or (okback and key == OK and e[1] == BACK)]
        starts = [e for e in mine if e[2] == PRESS]
        ends = [e for e in mine if e[2] == RELEASE]
        assert len(starts) == len(presses[i]) == len(ends), (
            layout, key, len(presses[i]), len(starts), len(ends), presses[i][:6], mine[:12])
        down = False
        for e in mine:
            if e[2] == PRESS:
                assert not down, (layout, key, e, mine)
                down = True
            elif e[2] == RELEASE:
                assert down, (layout, key, e, mine)
                down = False
            else:
                assert down and e[2] in (LONG, REPEAT), (layout, key, e)
        for p in range(len(presses[i])):
            start, release = presses[i][p]
            assert starts[p][0] >= start and ends[p][0] >= release, (layout, key, p)
            if okback and key == OK:  # OK on release when short, BACK when held
                held = release - start
                if held < 600:
                    assert starts[p][1] == OK and ends[p][1] == OK, (layout, p, held, mine)
                elif held > 800:
                    assert starts[p][1] == BACK and ends[p][1] == BACK, (layout, p, held, mine)


def _keys_case(layout, seed, loop):
    rng = Xorshift(seed * 7 + len(layout))
    end = 20000
    hold_min, gap_min = (50, 80) if loop else (20, 40)
    n = len(keys.LAYOUTS[layout])
    events = [[] for _ in range(n)]
    presses = [_presses(rng, i, events[i], end, hold_min, gap_min) for i in range(n)]
    got = _run_keys(layout, _bits_at(events), end + 2000, loop, rng)
    _check(layout, presses, got)
    return sum(len(p) for p in presses)


def test_every_press_counts_once_sampled_every_ms():
    total = 0
    for layout in keys.LAYOUTS:
        for seed in range(FEW):
            total += _keys_case(layout, seed, False)
    assert total > 100 * FEW, total


def test_every_press_counts_once_sampled_by_the_main_loop():
    total = 0
    for layout in keys.LAYOUTS:
        for seed in range(SEEDS):
            total += _keys_case(layout, seed, True)
    assert total > 1000, total


def test_a_chattering_press_is_acted_on_at_its_first_edge():
    # Seen every ms, the PRESS comes at the first edge, however the contact chatters after it.
    for seed in range(SEEDS):
        rng = Xorshift(seed)
        events = []
        _edge(events, 100, 0, True, rng.between(1, 8))
        _edge(events, 300, 0, False, rng.between(1, 8))
        got = _run_keys("six", _bits_at([events]), 600, False)
        assert got == [(100, UP, PRESS), (300, UP, RELEASE)], (seed, got)


# -- the encoder ---------------------------------------------------------------------------
_CW = ((0, 1), (0, 0), (1, 0), (1, 1))  # (A, B) through one clockwise detent from rest
_CCW = ((1, 0), (0, 0), (0, 1), (1, 1))


def _turns(rng, end):
    """Random turns until ``end``: ([(ms, pin, level)], the detents in order, DOWN or UP)."""
    events = []
    detents = []
    t = 20
    direction = DOWN
    a = 1  # line A's level (a step changes one line: B's is the step's other level)
    while True:
        pause = rng.between(0, 200)
        if pause >= 20:  # a hand reverses a knob only after a pause; a flick goes on
            direction = DOWN if rng.below(2) else UP
        t += pause
        n = rng.between(1, 12)
        q = rng.between(2, 8) if rng.below(2) else rng.between(9, 15)
        if t + n * 4 * q + 100 > end:
            return events, detents
        for _ in range(n):
            for na, nb in (_CW if direction == DOWN else _CCW):
                pin, level = (0, na) if na != a else (1, nb)
                _edge(events, t, pin, level, min(rng.below(9), q - 1))
                a = na
                t += q
            detents.append(direction)


def _encoder_case(seed, late):
    """Play a random trace through EncoderInput, polled every 10 ms, or (``late``) with now
    and then a pass of 20-60 ms in between (a full frame, a journal write, a collection on a
    Pico): (detents turned, detents emitted)."""
    rng = Xorshift(1000 + seed)
    end = 15000
    events, expected = _turns(rng, end)  # in time order: a pin settles before the next edge
    a, b, sw = Pin(), Pin(), Pin()
    pins = (a, b)
    inp = EncoderInput(a, b, sw, Encoder(), Keys("encoder"))
    got = []

    def emit(key, kind):
        if kind == PRESS or kind == REPEAT:
            got.append(key)
    j = 0
    poll = 0
    for t in range(end + 100):
        while j < len(events) and events[j][0] <= t:
            pins[events[j][1]].set(1 if events[j][2] else 0)  # its interrupt, at once
            j += 1
        if t == poll:
            inp.poll(t, emit)
            poll = t + (rng.between(20, 60) if late and rng.below(4) == 0 else 10)
    inp.close()
    return expected, got


def _encoder(late):
    total = 0
    for seed in range(SEEDS):
        expected, got = _encoder_case(seed, late)
        assert len(got) == len(expected), (seed, len(expected), len(got))
        assert got == expected, (seed, expected, got)
        total += len(expected)
    assert total > 500, total


def test_encoder_detents_count_once_through_bounce_and_fast_turns():
    _encoder(False)


def test_encoder_detents_count_once_when_the_loop_is_late():
    # Up to 60 ms between two polls: a fast spin with chattering contacts makes more than a
    # hundred edges in that time, all of them handled by the interrupt before the poll.
    _encoder(True)

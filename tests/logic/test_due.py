"""How long the main loop may sleep (``App.due``, ``Screen.due``, ``Keys.due``), on both VMs.

On the Pico ``boot.wait`` sleeps from one pass to the app's next deadline (or until a key's
edge): a deadline given too late is a clock second shown late, a repeat that stutters, a
pending add that is never committed while nobody presses. These tests run the real app on the
rig the way the Pico now runs it, a pass only when the app said one was due (``_sleep_pass``),
and check that each thing happens at its own millisecond, with a handful of passes instead of
the hundred a second of a 10 ms loop. (The fuzzer checks the same promise on every screen it
reaches: no pass before the due time changes anything.)
"""

from fuzz import Pin
from rig import Rig
from support import scratch_dir
from tablemate import keys as K
from tablemate.clock import change_in
from tablemate.hw.peripherals import ButtonInput

MOST = 1000  # app.NAP_MAX_MS


def _sleep_pass(rig, most=MOST):
    """One pass as the Pico makes it while nobody presses: sleep as long as the app says
    (``boot.wait``), then tick. Returns the sleep."""
    ms = rig.app.due(rig.now, most)
    rig.now += ms
    rig.app.tick(rig.now)
    return ms


def test_change_in_lands_on_the_next_figure():
    assert change_in(5000) == 1000 and change_in(4001) == 1 and change_in(4000) == 1000
    assert change_in(10500, 10000) == 500  # 0:11 -> 0:10 at 10 000 ms
    assert change_in(10000, 10000) == 1  # 0:10, then 9.9 (tenths) at 9 999 ms
    assert change_in(9999, 10000) == 99 and change_in(100, 10000) == 100
    assert change_in(0) == 0 and change_in(-5) == 0
    for ms in range(1, 12000, 7):  # the figure is the same until then, and differs then
        for tenths in (0, 10000):
            d = change_in(ms, tenths)

            def shown(left):
                return (left + 99) // 100 if left < tenths else (left + 999) // 1000 * 100
            assert shown(ms - d + 1) == shown(ms) != shown(ms - d), (ms, tenths, d)


def test_keys_due_debounce_long_and_repeat():
    events = []

    def emit(key, kind):
        events.append((key, kind))
    k = K.Keys("six")
    k.update(0, 0, events.append)
    assert k.due(0) is None  # nothing held: only an edge brings an event
    k.update(1, 10, emit)  # UP pressed: deaf for 30 ms
    assert events == [(K.UP, K.PRESS)] and k.due(10) == 30 and k.due(45) == 0
    k.update(1, 40, emit)
    assert k.due(40) == 420  # the first repeat, 450 ms after the press
    k.update(1, 460, emit)
    assert events[-1] == (K.UP, K.REPEAT) and k.due(460) == 110
    k.update(0, 500, emit)
    assert events[-1] == (K.UP, K.RELEASE) and k.due(500) == 30
    k.update(0, 530, emit)
    assert k.due(530) is None
    k.update(1 << 4, 600, emit)  # OK: its LONG 700 ms after the press
    k.update(1 << 4, 630, emit)
    assert k.due(630) == 670
    k.update(1 << 4, 1300, emit)
    assert events[-1] == (K.OK, K.LONG) and k.due(1300) is None  # nothing more to time


def test_home_sleeps_until_the_dim_and_the_off():
    rig = Rig(scratch_dir("due_home"))
    rig.advance(1500)  # the boot's frames and the first row's rest
    app = rig.app
    start = rig.now - 1510  # the last input: the boot
    passes = 0
    while app._idle == 0 and passes < 100:
        assert _sleep_pass(rig) <= MOST
        passes += 1
    assert rig.now == start + 30000 and passes <= 30  # dimmed at 30 s, to the millisecond
    while app._idle == 1 and passes < 400:
        _sleep_pass(rig)
        passes += 1
    assert rig.now == start + 300000  # off at 5 min
    assert app.due(rig.now, MOST) == MOST  # then a pass a second, for the watchdog


def test_a_notice_over_the_home_menu_is_drawn_at_once():
    """The home menu is the stack's index 0, so a dialog over it is redrawn from index 0: that
    must count as something to draw like any other index (it once read as "nothing", and the
    boot's notice waited for the next deadline, a second on the Pico)."""
    root = scratch_dir("due_notice")
    rig = Rig(root)
    rig.choose("Scorepad")
    rig.goto("Target: none")
    rig.press(K.RIGHT)  # a target of 5
    rig.press(K.DOWN)
    rig.press(K.RIGHT)  # won at once
    rig.choose("Start")
    rig.presses(K.RIGHT, K.RIGHT, K.RIGHT, K.RIGHT, K.RIGHT, K.OK)  # Ann reaches it: filed
    rig.advance(100)
    rig = Rig(root)  # a power cut: the boot's first pass asks its question over the home menu
    app = rig.app
    assert rig.top() == "Notice" and app.stack[-1].dirty and len(app.stack) == 2
    assert app.due(rig.now, MOST) == 0
    _sleep_pass(rig)
    assert not app.stack[-1].dirty  # on the panel


def test_scorepad_pending_add_commits_on_time():
    rig = Rig(scratch_dir("due_scorepad"))
    rig.choose("Scorepad")
    rig.choose("Start")
    rig.advance(3000)
    pad = rig.app.top()
    rig.press(K.RIGHT)  # +1, pending for 1.5 s
    assert pad.pending
    added = pad._pending_at
    passes = 0
    while pad.pending and passes < 10:
        _sleep_pass(rig)
        passes += 1
    assert not pad.pending and rig.now == added + 1500


def test_a_held_key_repeats_on_time():
    pins = [Pin() for _ in range(6)]
    rig = Rig(scratch_dir("due_held"))
    rig.advance(1500)
    app = rig.app
    inp = ButtonInput(pins, K.Keys("six"))
    app.input = inp
    app.tick(rig.now)  # the first poll: nothing held
    moves = []
    top = app.top()
    top_key = top.key

    def key(k, kind):
        moves.append((rig.now, kind))
        top_key(k, kind)
    top.key = key
    pins[1].set(0)  # DOWN held: the edge wakes the loop at once
    pressed = rig.now = rig.now + 1
    assert inp.woken
    app.tick(rig.now)
    passes = 0
    while rig.now - pressed < 1000 and passes < 100:
        _sleep_pass(rig)
        passes += 1
    times = [t - pressed for t, kind in moves]
    assert times == [0, 450, 560, 670, 780, 890, 1000], times  # no repeat late, none lost
    # each move queues the row's rest (``soon``: a pass at once), then the debounce's end
    assert passes <= 2 * len(times) + 1


def test_a_running_clock_shows_each_second_on_time():
    rig = Rig(scratch_dir("due_clock"))
    rig.choose("Chess clock")
    rig.choose("Start")
    rig.press(K.OK)  # Ann's time runs
    screen = rig.app.top()
    clock = screen.clock
    passes = 0
    end = rig.now + 20000
    while rig.now < end and passes < 100:
        left = clock.remaining(0, rig.now)
        d = _sleep_pass(rig)
        passes += 1
        if d:  # what a 1 ms loop would have shown before this pass: the same figure
            assert (clock.remaining(0, rig.now - 1) + 999) // 1000 == (left + 999) // 1000
        assert screen._shown[0] == (clock.remaining(0, rig.now) + 999) // 1000 * 10
    assert passes <= 20 + 2 + 2  # a pass a second, two saves, the pass after each frame

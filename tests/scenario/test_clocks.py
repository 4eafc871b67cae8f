"""The chess clock and the scorepad's per-turn countdown, on the fake clock and the buzzer log."""

from conftest import beeps, choose, commit, dump, goto, highlighted, hold, menu_row, new_scorepad

from tablemate_host import machine

LOW, FLAG = 2093, 880  # chess clock: last-5-s beep and flag tone (Hz)


def big(dev, s):
    from tablemate.ui import text
    return dev.find_text(s, text.large()[1])


def left_time(dev, s):
    return any(x < 64 for x, _ in big(dev, s))


def right_time(dev, s):
    return any(x >= 64 for x, _ in big(dev, s))


def highlighted_name(dev, name):
    return bool(highlighted(dev, name))


def start_clock(dev, minutes=1, increment=3):
    choose(dev, "Chess clock")
    goto(dev, "Minutes: 5")
    for _ in range(5 - minutes):
        dev.press("LEFT")
    assert menu_row(dev, "Minutes: %d" % minutes), dump(dev)
    dev.press("DOWN")
    for _ in range(increment - 3):
        dev.press("RIGHT")
    assert menu_row(dev, "Increment: %ds" % increment), dump(dev)
    choose(dev, "Start")


def test_chess_clock_runs_switches_pauses_and_flags(make_device, root):
    dev = make_device(settings={"names": ["Ann", "Bob"] + ["P%d" % i for i in range(3, 9)],
                                "dim_s": 10, "off_min": 1})
    start_clock(dev, minutes=1, increment=3)
    assert left_time(dev, "1:00") and right_time(dev, "1:00"), dump(dev)
    assert dev.shows("OK starts Ann"), dump(dev)
    dev.advance(5000)
    assert left_time(dev, "1:00"), "nothing runs before the first OK" + dump(dev)

    dev.press("OK", hold_ms=40, after_ms=0)  # Ann's time starts when the press registers
    t0 = dev.now
    dev.advance(10000 - (dev.now - t0))
    assert left_time(dev, "0:51") or left_time(dev, "0:50"), dump(dev)
    assert right_time(dev, "1:00") and highlighted_name(dev, "Ann"), dump(dev)
    dev.advance(5000)
    assert left_time(dev, "0:45") or left_time(dev, "0:46"), dump(dev)

    dev.press("OK")  # Ann moves: +3 s for her, Bob's time runs
    assert highlighted_name(dev, "Bob") and dev.shows("Move 2"), dump(dev)
    assert left_time(dev, "0:48") or left_time(dev, "0:49"), dump(dev)
    dev.advance(20000)
    assert right_time(dev, "0:40"), dump(dev)

    # While a clock runs the screen stays awake (dim_s is 10 s here).
    assert dev.panel.contrast > 0
    # BACK pauses: nothing moves, however long the table talks; a paused clock may dim.
    dev.press("BACK")
    assert dev.shows("Clock paused") and dev.shows("Resume"), dump(dev)
    dev.advance(30000)
    assert dev.panel.contrast == 0 and dev.shows("Clock paused"), dump(dev)
    dev.press("OK")  # wakes the screen, swallowed
    assert dev.shows("Clock paused"), dump(dev)
    dev.press("OK")  # Resume
    assert right_time(dev, "0:40") or right_time(dev, "0:39"), dump(dev)
    assert dev.panel.contrast > 0

    # Bob lets his time run out: five low beeps in the last 5 s, then the flag tone and the flag.
    start = dev.now
    dev.advance(36000)
    assert any(right_time(dev, "3.%d" % d) for d in range(10)), "tenths in the last 10 s" + dump(dev)
    dev.advance(5000)
    assert dev.shows("Flag: Bob"), dump(dev)
    assert right_time(dev, "0.0"), dump(dev)
    low = [t for t in beeps(LOW) if t >= start]
    flag = beeps(FLAG)
    assert len(low) == 5, low
    assert len(flag) == 1 and flag[0] - 5000 <= low[0] and low[-1] < flag[0], (low, flag)
    assert [b - a for a, b in zip(low, low[1:])] == [1000] * 4
    # The buzzer goes quiet after the flag tone.
    dev.advance(2000)
    assert machine.world.pwm[16][-1][2] == 0
    # OK does nothing more once flagged.
    dev.press("OK")
    assert dev.shows("Flag: Bob") and right_time(dev, "0.0"), dump(dev)


def test_clock_menu_restart_and_home(make_device, root):
    dev = make_device()
    start_clock(dev, minutes=2, increment=3)
    dev.press("OK")
    dev.advance(3000)
    dev.press("BACK")
    choose(dev, "Restart")
    assert left_time(dev, "2:00") and right_time(dev, "2:00") and dev.shows("OK starts Ann"), dump(dev)
    dev.press("BACK")
    choose(dev, "Home")
    assert menu_row(dev, "Scorepad") or menu_row(dev, "Chess clock"), dump(dev)
    assert dev.shows("Tablemate"), dump(dev)


def test_scorepad_turn_timer_beeps_in_its_last_5_s(make_device, root):
    dev = make_device()
    new_scorepad(dev, players=2, timer_steps=1)  # 15 s per turn
    assert dev.shows("0:15"), dump(dev)
    start = dev.now
    dev.advance(9000)
    assert dev.shows("0:06") and beeps(2093) == [], dump(dev)
    dev.advance(6100)
    ticks = beeps(2093)
    assert len(ticks) == 5, ticks
    assert [b - a for a, b in zip(ticks, ticks[1:])] == [1000] * 4
    # the countdown started at the OK's edge, 120 ms (hold + release) before ``start``
    assert 9880 - 10 <= ticks[0] - start <= 9880 + 10, ticks[0] - start
    assert len(beeps(880)) == 1 and beeps(880)[0] > ticks[-1]
    assert dev.shows("Time is up!") and dev.shows("0:00"), dump(dev)

    # The next turn starts a fresh countdown, with fresh beeps.
    dev.press("OK")
    assert dev.shows("0:15") or dev.shows("0:14"), dump(dev)
    dev.advance(15100)
    assert len(beeps(2093)) == 10


def test_sound_off_is_silent(make_device, root):
    dev = make_device(settings={"sound": False})
    new_scorepad(dev, players=2, timer_steps=1)
    dev.advance(16000)
    assert dev.shows("Time is up!"), dump(dev)
    assert beeps(2093) == [] and beeps(880) == []


def test_undoing_the_winning_add_restarts_the_turn_countdown(make_device, root):
    dev = make_device(settings={"sound": False})
    new_scorepad(dev, players=2, target=5, timer_steps=1, stop=True)  # 15 s per turn
    hold(dev, "RIGHT", 1000)
    before = _seconds_left(dev)
    commit(dev)
    assert dev.shows("Ann wins!") and _seconds_left(dev) is None, dump(dev)  # the winner shows
    dev.advance(3000)
    dev.press("BACK")
    choose(dev, "Undo")
    assert not dev.shows("Ann wins!"), dump(dev)
    frozen = _seconds_left(dev)
    assert before - 3 <= frozen <= before - 1, ("the countdown stopped when the game ended",
                                                before, frozen)
    dev.advance(3000)
    assert _seconds_left(dev) == frozen - 3, "the game goes on, and so does the turn's countdown"


def _seconds_left(dev):
    """The turn countdown on the status line, in seconds (None when it is not shown)."""
    for s in range(16):
        if dev.shows("0:%02d" % s):
            return s
    return None

"""The chess clock and the scorepad's per-turn countdown, on the fake clock and the buzzer log."""

import json
import os

import pytest
from conftest import (beeps, choose, commit, dump, goto, highlighted, hold, menu_row, new_scorepad,
                      plain)

from tablemate.keys import LAYOUTS, NAMES
from tablemate_host import machine

KEY_NAMES = {layout: [NAMES[k] for k in keys] for layout, keys in LAYOUTS.items()}

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


def outlined_name(dev, name):
    """The player to move while the clock waits: the name drawn plainly in a frame."""
    return bool(plain(dev, name)) and not highlighted(dev, name)


def start_clock(dev, minutes=1, increment=3):
    choose(dev, "Chess clock")
    goto(dev, "Minutes: 5")
    for _ in range(5 - minutes):
        dev.press("LEFT")
    assert menu_row(dev, "Minutes: %d" % minutes), dump(dev)
    dev.press("DOWN")
    for _ in range(abs(increment - 3)):
        dev.press("RIGHT" if increment > 3 else "LEFT")
    assert menu_row(dev, "Increment: %ds" % increment), dump(dev)
    choose(dev, "Start")


def saved_clock(root):
    path = os.path.join(root, "data", "clock.json")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)


def test_chess_clock_runs_switches_pauses_and_runs_out(make_device, root):
    dev = make_device(settings={"names": ["Ann", "Bob"] + ["P%d" % i for i in range(3, 9)],
                                "dim_s": 10, "off_min": 1})
    start_clock(dev, minutes=1, increment=3)
    assert left_time(dev, "1:00") and right_time(dev, "1:00"), dump(dev)
    assert dev.shows("OK starts Ann") and outlined_name(dev, "Ann"), dump(dev)
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
    # BACK pauses and opens the menu under the two times: nothing moves, however long the
    # table talks; a paused clock may dim.
    dev.press("BACK")
    assert menu_row(dev, "Resume") and dev.shows("New game") and dev.shows("Paused"), dump(dev)
    assert right_time(dev, "0:40") and (left_time(dev, "0:48") or left_time(dev, "0:49")), \
        "the menu keeps both times in view" + dump(dev)
    assert not highlighted_name(dev, "Bob") and outlined_name(dev, "Bob"), dump(dev)
    dev.advance(30000)
    assert dev.panel.contrast == 0 and dev.shows("Paused"), dump(dev)
    dev.press("OK")  # a dimmed screen is read: Resume
    assert highlighted_name(dev, "Bob"), dump(dev)
    assert right_time(dev, "0:40") or right_time(dev, "0:39"), dump(dev)
    assert dev.panel.contrast > 0

    # Bob lets his time run out: five low beeps in the last 5 s, then the long tone and the
    # words every player understands.
    start = dev.now
    dev.advance(36000)
    assert any(right_time(dev, "3.%d" % d) for d in range(10)), "tenths in the last 10 s" + dump(dev)
    dev.advance(5000)
    assert dev.shows("Time up: Bob") and not dev.shows("Flag"), dump(dev)
    assert right_time(dev, "0.0"), dump(dev)
    low = [t for t in beeps(LOW) if t >= start]
    flag = beeps(FLAG)
    assert len(low) == 5, low
    assert len(flag) == 1 and flag[0] - 5000 <= low[0] and low[-1] < flag[0], (low, flag)
    assert [b - a for a, b in zip(low, low[1:])] == [1000] * 4
    # The buzzer goes quiet after the tone.
    dev.advance(2000)
    assert machine.world.pwm[16][-1][2] == 0
    # OK does nothing more once the time is up; the game is over, so nothing is kept.
    dev.press("OK")
    assert dev.shows("Time up: Bob") and right_time(dev, "0.0"), dump(dev)
    assert saved_clock(root) is None


def test_new_games_swap_who_starts(make_device, root):
    dev = make_device()
    start_clock(dev, minutes=2, increment=3)  # Starts: Ann, Swap each game: on (the defaults)
    assert dev.shows("OK starts Ann") and outlined_name(dev, "Ann"), dump(dev)
    dev.press("OK")
    assert highlighted_name(dev, "Ann"), dump(dev)
    dev.advance(3000)
    dev.press("BACK")
    choose(dev, "New game")  # the rematch: Bob starts
    assert left_time(dev, "2:00") and right_time(dev, "2:00"), dump(dev)
    assert dev.shows("OK starts Bob") and outlined_name(dev, "Bob"), dump(dev)
    dev.press("RIGHT")  # Bob's own key does not start his own time...
    assert dev.shows("OK starts Bob"), dump(dev)
    dev.press("LEFT")  # ...Ann's does, as on a chess clock
    assert highlighted_name(dev, "Bob") and dev.shows("Move 1"), dump(dev)
    dev.advance(2000)
    assert right_time(dev, "1:58") or right_time(dev, "1:57"), dump(dev)
    assert left_time(dev, "2:00"), dump(dev)
    dev.press("BACK")
    choose(dev, "New game")
    assert dev.shows("OK starts Ann"), "and back again" + dump(dev)
    dev.press("BACK")
    choose(dev, "Home")
    assert dev.shows("Tablemate") and saved_clock(root) is None, dump(dev)

    # Without swapping, every game starts with the chosen player.
    choose(dev, "Chess clock")
    choose(dev, "Starts: Ann")  # OK moves the choice on
    assert menu_row(dev, "Starts: Bob"), dump(dev)
    choose(dev, "Swap each game: on")
    assert menu_row(dev, "Swap each game: off"), dump(dev)
    choose(dev, "Start")
    assert dev.shows("OK starts Bob"), dump(dev)
    dev.press("OK")
    dev.press("BACK")
    choose(dev, "New game")
    assert dev.shows("OK starts Bob"), dump(dev)


def test_a_power_cut_brings_the_clock_back_paused(make_device, root):
    dev = make_device()
    start_clock(dev, minutes=3, increment=2)
    dev.press("OK")  # Ann's time runs
    dev.advance(10000)
    dev.press("OK")  # Ann moves: 2:52 (with her 2 s)
    dev.advance(23500)  # Bob thinks: written at the switch, then 10 and 20 s into his turn
    assert left_time(dev, "2:52") and right_time(dev, "2:37"), dump(dev)
    assert highlighted_name(dev, "Bob") and dev.shows("Move 2"), dump(dev)

    dev = make_device()  # the power is cut and comes back: the same flash, a new boot
    assert left_time(dev, "2:52"), "Ann's time is exact" + dump(dev)
    assert right_time(dev, "2:40") or right_time(dev, "2:39"), \
        "Bob's is as at the latest write, 3.5 s before the cut" + dump(dev)
    assert outlined_name(dev, "Bob") and dev.shows("Paused - OK resumes"), dump(dev)
    assert dev.shows("BACK: menu"), dump(dev)
    dev.advance(60000)
    assert right_time(dev, "2:40") or right_time(dev, "2:39"), "it waits, paused" + dump(dev)
    d = saved_clock(root)
    assert d["names"] == ["Ann", "Bob"] and d["clock"]["base"] == 180000 \
        and d["clock"]["inc"] == 2000 and d["clock"]["moves"] == 1 and d["clock"]["cur"] == 1
    dev.press("OK")  # the dimmed screen's key counts: Bob's time runs on
    assert highlighted_name(dev, "Bob"), dump(dev)
    dev.advance(5000)
    assert right_time(dev, "2:35") or right_time(dev, "2:34"), dump(dev)
    dev.press("OK")  # Bob moves: his increment too, the settings came back
    assert highlighted_name(dev, "Ann") and dev.shows("Move 3"), dump(dev)
    assert right_time(dev, "2:37") or right_time(dev, "2:36"), dump(dev)

    # A cut while paused keeps the times to the millisecond.
    dev.advance(4000)
    dev.press("BACK")
    paused = saved_clock(root)["clock"]["cds"]
    dev = make_device()
    assert saved_clock(root)["clock"]["cds"] == paused
    assert outlined_name(dev, "Ann") and dev.shows("Paused - OK resumes"), dump(dev)
    dev.press("BACK")
    choose(dev, "Home")  # leaving the clock forgets it, once confirmed
    dev.press("OK")
    assert saved_clock(root) is None
    dev = make_device()
    assert dev.shows("Tablemate") and menu_row(dev, "Scorepad"), dump(dev)


def leave_asked(dev):
    """The clock asks before Home throws its times away, "Yes" picked."""
    from tablemate.ui import dialogs
    box = dev.app.top()
    return (type(box).__name__ == "Confirm"
            and box.lines == dialogs.wrap("Leave the clock? Its times are lost.", 112)
            and all(dev.shows(line) for line in box.lines) and bool(highlighted(dev, "Yes")))


def test_home_from_a_paused_clock_asks_first(make_device, root):
    dev = make_device()
    start_clock(dev, minutes=3, increment=0)
    dev.press("BACK")  # before the first move nothing is lost: Home at once
    choose(dev, "Home")
    assert dev.shows("Tablemate") and not dev.shows("Leave the clock?"), dump(dev)

    start_clock(dev, minutes=3, increment=0)
    dev.press("OK")
    dev.advance(20000)
    dev.press("BACK")  # paused, the menu under the times
    choose(dev, "Home")
    assert leave_asked(dev), dump(dev)
    dev.press("BACK")  # no: the clock, still paused, its times kept
    assert dev.shows("Paused - OK resumes") and left_time(dev, "2:40"), dump(dev)
    assert saved_clock(root) is not None
    dev.press("BACK")
    choose(dev, "Home")
    dev.press("RIGHT")  # the arrows pick No
    dev.press("OK")
    assert dev.shows("Paused - OK resumes") and saved_clock(root) is not None, dump(dev)
    dev.press("BACK")
    choose(dev, "Home")
    dev.press("OK")  # Yes: home, the clock forgotten
    assert dev.shows("Tablemate") and menu_row(dev, "Chess clock"), dump(dev)
    assert saved_clock(root) is None


def test_a_random_starter_is_drawn_once_and_kept(make_device, root, monkeypatch):
    import random
    draws = []

    def draw(bits):
        draws.append(bits)
        return 1  # Bob
    monkeypatch.setattr(random, "getrandbits", draw)
    dev = make_device()
    choose(dev, "Chess clock")
    goto(dev, "Starts: Ann")
    dev.press("LEFT")  # back from Ann past Bob to random
    assert menu_row(dev, "Starts: random"), dump(dev)
    choose(dev, "Start")
    assert draws == [1] and dev.shows("OK starts Bob"), dump(dev)
    dev.press("OK")
    dev.advance(2000)
    assert saved_clock(root)["first"] == 2 and saved_clock(root)["starter"] == 1
    dev = make_device()  # power cut: the draw is not made again
    assert draws == [1] and outlined_name(dev, "Bob"), dump(dev)
    dev.press("BACK")
    choose(dev, "New game")  # swapping is on: the rematch swaps, no new draw
    assert draws == [1] and dev.shows("OK starts Ann"), dump(dev)


@pytest.mark.parametrize("layout", ["five", "three"])
def test_labels_name_only_the_keys_the_layout_has(make_device, root, layout):
    dev = make_device(layout=layout)
    missing = [k for k in ("BACK", "LEFT", "RIGHT") if k not in KEY_NAMES[layout]]

    def check(what):
        for k in missing:
            assert not dev.shows(k), "%s names %s on %s buttons" % (what, k, layout) + dump(dev)

    choose(dev, "Chess clock")
    check("the setup")
    choose(dev, "Starts: Ann")  # OK moves a choice on: no LEFT/RIGHT needed
    assert menu_row(dev, "Starts: Bob"), dump(dev)
    choose(dev, "Start")
    assert dev.shows("OK starts Bob") and dev.shows("Hold OK: menu"), dump(dev)
    check("the waiting clock")
    dev.press("OK")  # on these layouts OK acts on its release
    assert highlighted_name(dev, "Bob"), dump(dev)
    check("the running clock")
    dev.advance(2000)
    dev.long_press("OK")  # a long OK is BACK: pause and the menu, under the times
    assert menu_row(dev, "Resume") and dev.shows("Paused"), dump(dev)
    assert left_time(dev, "5:00") and (right_time(dev, "4:58") or right_time(dev, "4:57")), \
        dump(dev)
    check("the pause menu")
    dev.long_press("OK")  # BACK again: the menu closes, the clock stays paused
    assert dev.shows("Paused - OK resumes") and dev.shows("Hold OK: menu"), dump(dev)
    check("the paused clock")
    dev.press("OK")
    assert highlighted_name(dev, "Bob"), dump(dev)


def test_a_damaged_clock_file_is_reported_and_kept_aside(make_device, root):
    bad = '{"v": 1, "names": ["Ann", "Bob"], "clock": {"cds": ['
    with open(os.path.join(root, "data", "clock.json"), "w") as f:
        f.write(bad)
    dev = make_device()
    assert dev.shows("Saved clock") and dev.shows("damaged: copy kept"), dump(dev)
    assert saved_clock(root) is None
    with open(os.path.join(root, "data", "clock.json.bad")) as f:
        assert f.read() == bad
    dev.press("OK")
    assert dev.shows("Tablemate") and menu_row(dev, "Scorepad"), dump(dev)


def test_a_saved_clock_comes_back_before_a_saved_game(make_device, root):
    dev = make_device()
    new_scorepad(dev, players=2)
    dev.press("RIGHT")
    commit(dev)
    dev.press("BACK")
    choose(dev, "Home")  # the game stays saved ("Continue Scorepad")
    start_clock(dev, minutes=5)
    dev.press("OK")
    dev.advance(1000)
    dev = make_device()  # power cut while the clock is in use
    assert outlined_name(dev, "Ann") and dev.shows("Paused - OK resumes"), dump(dev)
    assert not dev.shows("Resume game?"), dump(dev)
    dev.press("BACK")
    choose(dev, "Home")
    dev.press("OK")  # Yes, leave the paused clock
    assert menu_row(dev, "Continue Scorepad"), "the game is still there" + dump(dev)


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

"""Idle dimming and screen-off, the error net, and a boot without a display."""

import os

from conftest import (actions, home_items, choose, commit, dump, menu_row, new_scorepad, row_score)

from tablemate_host import machine


# -- idle -------------------------------------------------------------------------------------
def test_a_dimmed_screen_takes_its_press_and_a_dark_one_only_wakes(make_device, root):
    dev = make_device(settings={"dim_s": 5, "off_min": 1, "brightness": 4})
    from tablemate.app import CONTRAST
    bright = CONTRAST[3]
    assert dev.panel.contrast == bright and dev.panel.display_on
    assert menu_row(dev, "Scorepad"), dump(dev)

    dev.advance(4900)
    assert dev.panel.contrast == bright
    dev.advance(200)
    assert dev.panel.contrast < bright, "dimmed after dim_s"
    assert dev.panel.display_on and menu_row(dev, "Scorepad"), dump(dev)

    # A dimmed screen is read: its key brightens it and counts.
    dev.press("DOWN")
    assert dev.panel.contrast == bright
    assert menu_row(dev, home_items()[1]), "the key on a dimmed screen counts" + dump(dev)
    assert not dev.shows("Woken: press again"), dump(dev)
    dev.press("UP")
    assert menu_row(dev, "Scorepad"), dump(dev)

    # A minute without input: the panel is off.
    dev.advance(59000)
    assert dev.panel.display_on
    dev.advance(1100)
    assert not dev.panel.display_on and not dev.panel.lit
    assert not any(any(row) for row in dev.panel.pixels())

    # Holding the waking key long enough to repeat still moves nothing.
    dev.down("DOWN")
    dev.advance(50)
    assert dev.panel.display_on and dev.panel.contrast == bright
    assert dev.shows("Woken: press again"), "a dark screen says its key only woke it" + dump(dev)
    dev.advance(1000)
    dev.up("DOWN")
    dev.advance(60)
    assert menu_row(dev, "Scorepad"), "the waking key and its repeats were swallowed" + dump(dev)
    dev.advance(1000)
    assert not dev.shows("Woken: press again"), "the line goes after 2 s" + dump(dev)
    dev.press("DOWN")
    assert menu_row(dev, home_items()[1]), dump(dev)


def test_a_score_on_a_dimmed_scorepad_is_not_lost(make_device, root):
    """A turn at a table outlasts the 30 s dimming: the next tap is a point, not a wake-up."""
    dev = make_device(settings={"dim_s": 30, "off_min": 5})
    new_scorepad(dev, players=2, timer_steps=0)
    dev.advance(31000)
    assert dev.panel.contrast == 0
    dev.press("RIGHT")  # +1 for the player to play
    commit(dev)
    assert actions(dev) == [["add", 0, 1]] and row_score(dev, 0, 1), dump(dev)
    assert dev.panel.contrast > 0


def test_changes_while_the_screen_is_off_are_shown_on_waking(make_device, root):
    dev = make_device(settings={"dim_s": 0, "off_min": 1})
    new_scorepad(dev, players=3, timer_steps=0)
    dev.advance(61000)
    assert not dev.panel.display_on
    dev.press("OK")  # wakes, swallowed: no turn passes
    assert dev.panel.display_on and dev.shows("Round 1"), dump(dev)
    assert actions(dev) == []


def test_a_running_turn_timer_keeps_the_screen_awake(make_device, root):
    dev = make_device(settings={"dim_s": 5, "off_min": 1, "sound": False})
    new_scorepad(dev, players=2, timer_steps=8)  # 300 s per turn
    dev.advance(120000)
    assert dev.panel.display_on and dev.panel.contrast > 0


# -- the error net ----------------------------------------------------------------------------
def test_a_failing_screen_shows_the_error_logs_it_and_keeps_the_game(make_device, root, monkeypatch):
    dev = make_device()
    new_scorepad(dev, players=3)
    dev.presses("RIGHT", "RIGHT")
    dev.press("OK")
    dev.press("RIGHT")
    commit(dev)
    done = actions(dev)
    assert done == [["add", 0, 2], ["next"], ["add", 1, 1]]
    with open(os.path.join(root, "data", "game.jnl"), "rb") as f:
        journal_before = f.read()

    from tablemate.screens import scorepad
    real_key = scorepad.Scorepad.key
    calls = []

    def broken(self, key, kind):
        if not calls:
            calls.append(key)
            raise RuntimeError("boom")
        return real_key(self, key, kind)

    monkeypatch.setattr(scorepad.Scorepad, "key", broken)
    dev.press("DOWN")
    assert calls, "the patched method ran"
    assert dev.shows("Error: RuntimeError") and dev.shows("boom"), dump(dev)
    with open(os.path.join(root, "data", "errors.log")) as f:
        log = f.read()
    assert "Traceback" in log and "RuntimeError: boom" in log and "in broken" in log

    dev.press("OK")
    assert not dev.shows("Error:"), dump(dev)
    assert menu_row(dev, "Continue Scorepad"), "back on the home menu" + dump(dev)
    with open(os.path.join(root, "data", "game.jnl"), "rb") as f:
        assert f.read() == journal_before, "the journal is intact"

    choose(dev, "Continue Scorepad")
    assert all(row_score(dev, i, s) for i, s in enumerate([2, 1, 0])), dump(dev)
    dev.press("OK")
    assert actions(dev) == done + [["next"]]

    # And after a reboot, too.
    dev = make_device()
    dev.press("OK")
    assert all(row_score(dev, i, s) for i, s in enumerate([2, 1, 0])), dump(dev)


def test_a_failing_draw_is_caught_too(make_device, root, monkeypatch):
    dev = make_device()
    new_scorepad(dev, players=3)
    dev.press("RIGHT")
    commit(dev)
    from tablemate.ui import table
    real = table.draw
    calls = []

    def broken(*args, **kw):
        if not calls:
            calls.append(1)
            raise ValueError("bad table")
        return real(*args, **kw)

    monkeypatch.setattr(table, "draw", broken)
    dev.press("DOWN")
    assert dev.shows("Error: ValueError") and dev.shows("bad table"), dump(dev)
    dev.press("BACK")
    assert menu_row(dev, "Continue Scorepad"), dump(dev)
    dev.press("OK")
    assert row_score(dev, 0, 1) and dev.shows("Round 1"), dump(dev)
    assert actions(dev) == [["add", 0, 1]]


# -- no display -------------------------------------------------------------------------------
def test_no_display_blinks_the_error_code_and_says_why(tmp_path, capsys):
    from tablemate_host.device import Device
    dev = Device(str(tmp_path), display=False)
    assert dev.app is None, "main.build gives up after its blink cycles"
    flashes = [ms for ms, level in machine.world.history("LED") if level == 1]
    assert len(flashes) == 3 * 2, "two flashes per cycle, three cycles"
    gaps = [b - a for a, b in zip(flashes, flashes[1:])]
    assert gaps[0] == gaps[2] < gaps[1] == gaps[3], gaps  # pairs of flashes with a pause between
    out = capsys.readouterr().out
    assert "no display" in out and "0x3C" in out, out
    assert "error code 2" in out, out

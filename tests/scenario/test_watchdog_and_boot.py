"""Board-level robustness: the watchdog, safe mode and a wrong board configuration."""

import os
import time

from conftest import (actions, commit, dump, new_scorepad, row_score)

from tablemate_host import machine
from tablemate_host.device import Device


# -- the watchdog ---------------------------------------------------------------------------
def test_the_loop_feeds_the_watchdog(make_device):
    dev = make_device()
    wdt = machine.world.wdt
    assert wdt.timeout == dev.main.WDT_MS == 5000
    fed = len(wdt.feeds)
    dev.advance(1000)
    assert len(wdt.feeds) - fed == 100, "one feed per 10 ms loop pass"
    dev.advance(20000)
    assert dev.resets == [] and not wdt.starved()


def test_a_hung_screen_resets_the_board_and_the_game_resumes_from_its_journal(make_device, root,
                                                                             monkeypatch):
    dev = make_device()
    new_scorepad(dev, players=3)
    dev.presses("RIGHT", "RIGHT")
    dev.press("OK")
    dev.press("RIGHT")
    commit(dev)
    dev.press("DOWN")
    dev.press("RIGHT")  # pending: journaled only after a pause, so the reset takes it
    journaled = actions(dev)
    assert journaled == [["add", 0, 2], ["next"], ["add", 1, 1]]

    from tablemate.screens import scorepad
    real_tick = scorepad.Scorepad.tick
    hung = []

    def hang(self, now):
        if not hung:  # once: a glitch, not a bug that would hang every boot
            hung.append(now)
            time.sleep_ms(7000)  # on the fake clock: the loop is stuck for 7 s
        return real_tick(self, now)

    monkeypatch.setattr(scorepad.Scorepad, "tick", hang)
    dev.advance(50)
    assert hung and len(dev.resets) == 1, "the watchdog reset the board"
    assert machine.world.resets[-1][0] == "watchdog"
    assert machine.world.wdt.timeout == 5000 and not machine.world.wdt.starved(), "started again"

    assert dev.shows("Resume game?"), dump(dev)
    dev.press("OK")
    assert dev.shows("Round 1"), dump(dev)
    assert all(row_score(dev, i, s) for i, s in enumerate([2, 1, 0])), dump(dev)
    assert actions(dev) == journaled, "nothing journaled was lost, nothing added"

    from tablemate import lifecycle
    from tablemate.store.game import Game
    replayed, problem = Game.resume(lifecycle.rules, os.path.join(root, "data", "game.jnl"))
    assert problem is None
    assert dev.app.top().game.state == replayed.state

    dev.press("RIGHT")
    commit(dev)
    assert actions(dev) == journaled + [["add", 1, 1]]


def test_a_loop_that_stops_feeding_is_reset_after_the_timeout(make_device, capsys):
    dev = make_device()
    first = dev.wdt
    first.feed = lambda: None  # this boot's loop never feeds again
    dev.advance(4900)
    assert dev.resets == []
    dev.advance(200)
    assert len(dev.resets) == 1 and dev.wdt is not first
    assert "restarted by the watchdog" in capsys.readouterr().out
    dev.advance(10000)
    assert len(dev.resets) == 1, "the new boot feeds its watchdog"


# -- safe mode --------------------------------------------------------------------------------
def test_holding_ok_at_power_up_is_safe_mode(root, capsys):
    """Issue 33: the panel says it, and how to leave it (it stayed dark: a finger or a box on a
    key looked like a dead gadget, and only the serial console said "Safe mode")."""
    from tablemate import safe
    dev = Device(root, hold=("OK",))
    assert dev.app is None
    assert "Safe mode: app not started, watchdog off" in capsys.readouterr().out
    assert machine.world.wdt.timeout is None, "no watchdog: mpremote can take over"
    assert dev.panel.display_on and dev.panel.lit, "the panel is lit"
    for line in safe.LINES:
        assert not line or dev.shows(line), "%r is not on the panel" % line
    assert dev.shows("SAFE MODE") and dev.shows("To leave: let go of")
    assert os.listdir(os.path.join(root, "data")) == [], "nothing written"
    dev.advance(20000)
    assert dev.resets == []


def test_safe_mode_reaches_the_repl_even_when_the_panel_fails(root, capsys, monkeypatch):
    """Safe mode is for an app that is broken: whatever the panel's drawing raises is printed,
    and the boot still ends without the app or the watchdog (main.py returns to the REPL)."""
    from tablemate import safe

    def broken(display):
        raise ImportError("no module named 'tablemate.ui.fonts'")
    monkeypatch.setattr(safe, "show", broken)
    dev = Device(root, hold=("OK",))
    out = capsys.readouterr().out
    assert dev.app is None and machine.world.wdt.timeout is None
    assert "Safe mode: app not started" in out and "the panel could not show it" in out
    assert "tablemate.ui.fonts" in out
    assert Device(root, hold=("BACK",), display=False).app is None  # no display: nothing drawn


def test_holding_back_is_safe_mode_too_and_other_keys_are_not(root, capsys):
    assert Device(root, hold=("BACK",)).app is None
    assert "Safe mode" in capsys.readouterr().out
    dev = Device(root, hold=("DOWN",))
    assert dev.app is not None and "Safe mode" not in capsys.readouterr().out
    machine.world.drive(dev.pin("DOWN"), None)
    dev.advance(100)
    dev.press("DOWN")
    assert dev.app.top().index == 1, "the key held at boot was ignored, the next press counts"


def test_the_encoder_push_held_at_power_up_is_safe_mode(root, capsys):
    from tablemate.board import BOARD
    dev = Device(root, layout="encoder", board=dict(BOARD, buttons={}))
    assert dev.app is not None and dev.app.layout == "encoder"
    machine.world.reset()
    machine.world.drive(BOARD["encoder"]["sw"], 0)
    assert dev.main.start(dev.cfg, root, 1) is None
    assert "Safe mode" in capsys.readouterr().out


# -- a wrong board configuration ------------------------------------------------------------
def test_a_bad_board_prints_what_is_wrong_and_blinks_code_3(root, capsys):
    from tablemate.board import BOARD
    bad = dict(BOARD, sda=5, buttons=dict(BOARD["buttons"], OK=10))
    dev = Device(root, board=bad)
    assert dev.app is None
    out, err = capsys.readouterr()
    assert "SDA GP5 is not an I2C0 SDA pin (use GP0/4/8/12/16/20/28)" in out, out
    assert "GP10 used twice: UP and OK" in out, out
    assert "error code 3" in out, out
    assert "Traceback" not in out + err
    flashes = [ms for ms, level in machine.world.history("LED") if level == 1]
    assert len(flashes) == 3 * 3, "three flashes per cycle, three cycles"
    gaps = [b - a for a, b in zip(flashes, flashes[1:])]
    assert gaps[0] == gaps[1] < gaps[2], gaps
    assert machine.world.bus(0).writes == 0 and machine.world.wdt.timeout is None
    assert machine.world.pad(5).function is None, "no driver touched the pins"


def test_the_board_is_checked_once_and_again_when_it_changes(root, monkeypatch):
    """The check's verdict is kept on the flash: an unchanged board boots without importing
    ``boardcheck`` (22 ms of a Pico's boot), an edited one is checked again, and a bad edit
    is still caught."""
    import sys
    from tablemate import boardcheck
    from tablemate.board import BOARD
    runs = []
    real = boardcheck.check_board
    monkeypatch.setattr(boardcheck, "check_board", lambda cfg: runs.append(1) or real(cfg))
    os.makedirs(os.path.join(root, "data"), exist_ok=True)

    def boot(board=BOARD):
        monkeypatch.setitem(sys.modules, "tablemate.boardcheck", boardcheck)  # what it imports
        return Device(root, board=board).app

    assert boot() is not None and len(runs) == 1
    assert "tablemate.boardcheck" not in sys.modules, "let go after its run"
    assert boot() is not None and len(runs) == 1, "the same board: not checked"
    three = dict(BOARD, buttons={"UP": 10, "DOWN": 11, "OK": 14})
    assert boot(three).layouts == ("three", "encoder") and len(runs) == 2
    assert boot(dict(BOARD, sda=5)) is None and len(runs) == 3, "a bad edit is caught"
    assert boot(three).layouts == ("three", "encoder") and len(runs) == 3


def test_a_bad_led_pin_still_blinks_the_onboard_led(root, capsys):
    from tablemate.board import BOARD
    dev = Device(root, board=dict(BOARD, led=40))
    assert dev.app is None
    assert "LED: GP40 does not exist (Pico has GP0-GP28)" in capsys.readouterr().out
    assert len([1 for _, level in machine.world.history("LED") if level == 1]) == 9


def test_the_emergency_exception_buffer_exists_before_any_hard_irq(root):
    from tablemate.board import BOARD
    dev = Device(root, layout="encoder")
    assert dev.app.layout == "encoder"
    assert machine.world.emergency_buf >= 64
    assert machine.world.hard_irqs_too_early == []
    assert machine.world.pad(BOARD["encoder"]["a"]).irq_handler is not None

"""The terminal simulator: keys become button holds, frames are half-blocks, games survive a kill."""

import os

from tablemate_host import sim
from tablemate_host.device import Device


def test_split_keys_keeps_escape_sequences_whole():
    assert sim.split_keys("\x1b[Aw\r\x1b[D\x7f") == ["\x1b[A", "w", "\r", "\x1b[D", "\x7f"]


RIGHT = "\x1b[C"


def _tap(s, token):
    s.key(token)
    s.run_for(300)


def _scorepad(root, **kw):
    """A sim on a fresh two-player scorepad, first player's turn."""
    s = sim.Sim(Device(root), **kw)
    s.dev.choose("Scorepad")
    s.dev.choose("Start")
    assert s.dev.shows("Round 1")
    return s


def test_keys_drive_the_firmware_and_frames_are_half_blocks(tmp_path):
    s = sim.Sim(Device(str(tmp_path)))
    frame = s.frame()
    assert len(frame.split("\n")) == 35
    assert "\u2580" in frame or "\u2584" in frame
    for token in ("\r", "\x1b[C", "\x1b[B", "\x1b[B", "\x1b[B", "\r", "\x1b[C"):
        _tap(s, token)
    s.run_for(2000)
    assert s.dev.journal()[1] == ["add", 0, 1]
    assert s.dev.shows("Round 1")


def test_terminal_autorepeat_is_one_held_button(tmp_path):
    s = sim.Sim(Device(str(tmp_path)))
    for token in ("\r", "\x1b[B", "\x1b[B", "\x1b[B"):
        _tap(s, token)
    _tap(s, "\r")
    for _ in range(40):  # a held arrow key: the terminal repeats it every 30 ms
        s.key("\x1b[C")
        s.run_for(30)
    s.run_for(2000)
    adds = [line for line in s.dev.journal()[1:] if line[0] == "add"]
    assert len(adds) == 1 and adds[0][2] > 5  # one action, accelerated by the firmware


def test_back_is_long_ok_without_a_back_button(tmp_path):
    s = sim.Sim(Device(str(tmp_path), layout="three"))
    for token in ("\r", "\x1b[B", "\x1b[B", "\x1b[B", "\r"):
        _tap(s, token)
    s.key("\x7f")
    s.run_for(1200)
    assert s.dev.shows("Back to game")


def test_a_killed_simulator_resumes_on_the_same_flash(tmp_path):
    s = sim.Sim(Device(str(tmp_path)))
    for token in ("\r", "\x1b[B", "\x1b[B", "\x1b[B", "\r", "\x1b[C", "\x1b[C", "\r"):
        _tap(s, token)
    again = sim.Sim(Device(str(tmp_path)))  # the process died; a new one starts on the same data
    assert again.dev.shows("Resume game?")
    _tap(again, "\r")
    assert again.dev.shows("Round 1")
    assert again.dev.app.top().game.state["scores"] == [2, 0]


def test_fresh_wipes_the_whole_simulated_flash(tmp_path):
    s = _scorepad(str(tmp_path))
    s.key(RIGHT)
    s.run_for(2000)
    assert os.path.exists(os.path.join(str(tmp_path), "data", "game.jnl"))
    sim.wipe(str(tmp_path))
    assert os.listdir(str(tmp_path)) == []

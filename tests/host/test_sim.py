"""The terminal simulator: keys become button holds, frames are half-blocks, games survive a kill."""

import json
import os

import pytest

from tablemate_host import cli, sim
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
    s = sim.Sim(Device(str(tmp_path)), layout="three")
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


# -- --layout: this run only --------------------------------------------------------------------

def _settings_file(root):
    with open(os.path.join(root, "data", "settings.json")) as f:
        return json.load(f)


def _saved_layout(root, layout):
    """The device's settings file, saved with ``layout``."""
    from tablemate import settings
    os.makedirs(os.path.join(root, "data"))
    settings.save(os.path.join(root, "data", "settings.json"), dict(settings.defaults(), layout=layout))


@pytest.mark.parametrize("saved, run", [("six", "three"), ("three", "six"), ("six", "encoder"),
                                        ("encoder", "five")])
def test_the_layout_option_does_not_touch_the_saved_settings(tmp_path, saved, run):
    root = str(tmp_path)
    _saved_layout(root, saved)
    path = os.path.join(root, "data", "settings.json")
    with open(path, "rb") as f:
        before = f.read()
    s = sim.Sim(Device(root), layout=run)
    assert s.dev.app.layout == run
    s.run_for(1000)
    with open(path, "rb") as f:
        assert f.read() == before


def test_the_layout_option_is_accepted_for_every_layout():
    for layout in ("six", "five", "three", "encoder"):
        assert cli.build_parser().parse_args(["sim", "--layout", layout]).layout == layout


def test_no_settings_file_is_written_for_the_layout_option(tmp_path):
    s = sim.Sim(Device(str(tmp_path)), layout="five")
    s.run_for(1000)
    assert s.dev.app.layout == "five"
    assert not os.path.exists(os.path.join(str(tmp_path), "data", "settings.json"))


def _open_settings(dev):
    dev.choose("Settings")
    assert dev.menu_row("Brightness: 3")


def test_settings_saved_during_the_run_keep_the_saved_layout(tmp_path):
    root = str(tmp_path)
    _saved_layout(root, "six")
    s = sim.Sim(Device(root), layout="three")
    dev = s.dev
    _open_settings(dev)
    dev.press("OK")  # brightness 3 -> 4
    dev.long_press("OK")  # BACK on three buttons: leave, and save
    assert _settings_file(root)["brightness"] == 4
    assert _settings_file(root)["layout"] == "six"
    assert dev.app.layout == "three"


def test_a_layout_the_player_keeps_in_settings_is_saved(tmp_path):
    root = str(tmp_path)
    _saved_layout(root, "six")
    s = sim.Sim(Device(root), layout="three")
    dev = s.dev
    _open_settings(dev)
    dev.choose("Buttons: three")  # the next layout: encoder
    assert dev.menu_row("Buttons: encoder")
    dev.long_press("OK")  # leave: the new layout is tried
    assert dev.shows("Press OK with the new")
    dev.press("OK")  # the encoder's push: kept
    assert _settings_file(root)["layout"] == "encoder"
    assert dev.app.layout == "encoder"


def test_the_run_layout_survives_a_watchdog_reset(tmp_path):
    root = str(tmp_path)
    _saved_layout(root, "six")
    s = sim.Sim(Device(root), layout="three")
    s.dev.watchdog_reset()
    s.run_for(100)
    assert s.dev.app.layout == "three"
    assert _settings_file(root)["layout"] == "six"

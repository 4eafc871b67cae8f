"""What the board says on its serial console when a computer stopped the app
(``boot.save_stopped``, which ``tablemate pull --free`` runs and prints): nothing to save, the
lines saved, or the lines the flash still refuses and why.

The game is a real device's (``tablemate_host.device.Device``): a scorepad whose last actions a
full or read-only flash kept in RAM, as ``boot.run`` leaves the app when mpremote's Ctrl-C
stops it.
"""

import os

import pytest

from tablemate import boot
from tablemate_host.device import Device
from tablemate_host.flashfault import FlashFault

WORDS = {"full": "Flash full", "readonly": "Flash read-only"}
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]


def _scorepad(root):
    """A device playing a 2-player scorepad, one action saved."""
    os.makedirs(os.path.join(root, "data"), exist_ok=True)
    dev = Device(root, settings={"names": NAMES})
    dev.choose("Scorepad")
    dev.choose("Start")
    dev.press("OK")  # Ann's turn is over: journaled
    dev.advance(100)
    assert len(dev.app.game.state["names"]) == 2, "the setup's default"
    assert dev.app.game.count == 1 and not dev.app.game.unsaved
    return dev


def test_no_app_stopped_has_nothing_unsaved(monkeypatch):
    monkeypatch.setattr(boot, "stopped", None)  # the app never ran (safe mode, a failed boot)
    assert boot.save_stopped() == "nothing unsaved"


def test_a_stopped_app_without_a_game_has_nothing_unsaved(tmp_path, monkeypatch):
    dev = Device(str(tmp_path / "flash"), settings={"names": NAMES})
    assert dev.app.game is None
    monkeypatch.setattr(boot, "stopped", dev.app)
    assert boot.save_stopped() == "nothing unsaved"


def test_a_stopped_game_that_is_all_saved_has_nothing_unsaved(tmp_path, monkeypatch):
    root = str(tmp_path / "flash")
    dev = _scorepad(root)
    with open(os.path.join(root, "data", "game.jnl"), "rb") as f:
        saved = f.read()
    monkeypatch.setattr(boot, "stopped", dev.app)
    assert boot.save_stopped() == "nothing unsaved"
    with open(os.path.join(root, "data", "game.jnl"), "rb") as f:
        assert f.read() == saved, "nothing written"


@pytest.mark.parametrize("mode", ["full", "readonly"])
def test_lines_the_flash_still_refuses_are_counted_and_named(tmp_path, monkeypatch, mode):
    root = str(tmp_path / "flash")
    dev = _scorepad(root)
    fault = FlashFault(root, monkeypatch, mode)
    dev.press("OK")  # Bob's turn: refused by the flash, kept in RAM
    dev.advance(100)
    assert fault.refused and dev.shows(WORDS[mode]), "the players were told"
    dev.press("OK")  # past the notice
    dev.press("RIGHT")
    dev.press("OK")
    dev.advance(100)
    game = dev.app.game
    assert game.unsaved == 3, game.unsaved  # three actions queued
    monkeypatch.setattr(boot, "stopped", dev.app)  # what boot.run keeps on Ctrl-C
    # the flash is still locked: nothing is saved, and the console says why
    assert boot.save_stopped() == "3 lines not saved: " + WORDS[mode]
    assert game.unsaved == 3, "kept for the next try"
    fault.mode = None  # room again
    assert boot.save_stopped() == "3 lines saved"
    assert not game.unsaved
    assert boot.save_stopped() == "nothing unsaved"

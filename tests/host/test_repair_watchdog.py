"""A long journal's repair at the flash's slowest keeps the watchdog fed (issue 33).

A scorepad game of 6,000 actions (106 KB) whose last checkpoint is damaged is cut back to the
line before it on resume, the whole file kept aside. On the emulated Pico at the W25Q16JV's
maximum timing the repair took longer than the 5 s watchdog: "Resume game?", a reset, "Resume
game?" again, nine resets in a row and a partial copy aside after each. Here the host's fake
flash charges the fake clock what the chip takes (``flashtime.FlashTime``) and the fake
watchdog resets the device when a pass leaves it unfed for 5 s of that time, even if a feed
comes later in the pass (``Device``: a late feed does not count).
"""

import os

import pytest

from tablemate_host import machine, vmbench
from tablemate_host.device import Device
from tablemate_host.flashtime import FlashTime

NAMES = list(vmbench.NAMES)


def _damaged_journal(root, actions=6000):
    """A scorepad journal of ``actions`` actions, its last checkpoint's state changed (its CRC
    no longer holds): (its path, the bytes before that checkpoint line, the whole file)."""
    os.makedirs(os.path.join(root, "data"))
    path = os.path.join(root, "data", "game.jnl")
    vmbench.make_journal(path, "scorepad", 8, actions)
    return (path,) + vmbench.damage_last_checkpoint(path)


@pytest.mark.parametrize("timing", ["typ", "max"])
def test_the_repair_of_a_long_journal_keeps_the_watchdog_fed(tmp_path, monkeypatch, timing):
    root = str(tmp_path)
    path, kept, whole = _damaged_journal(root)
    flash = FlashTime(root, monkeypatch, timing)
    dev = Device(root, settings={"names": NAMES})
    dev.advance(1000)  # the boot's own writes (board.json) took flash time too: its passes
    assert dev.shows("Resume game?")
    dev.press("OK")
    spent = flash.spent
    assert dev.resets == [], "the watchdog reset the board %d times (%d ms of flash work)" % (
        len(dev.resets), spent)
    assert spent > (600 if timing == "typ" else 5000), spent  # the repair is long, and fed
    assert dev.shows("Bad line"), "the repair is told"
    dev.press("OK")
    assert dev.app.game is not None and dev.app.game.count > 5900
    with open(path, "rb") as f:
        assert f.read() == kept  # cut before the damaged checkpoint
    with open(path + ".bad", "rb") as f:
        assert f.read() == whole  # the damaged file kept aside, whole, once
    data = [n for n in os.listdir(os.path.join(root, "data")) if n.startswith("game.jnl")]
    assert sorted(data) == ["game.jnl", "game.jnl.bad"], data
    wdt = machine.world.wdt
    assert not wdt.starved() and wdt.bit is None

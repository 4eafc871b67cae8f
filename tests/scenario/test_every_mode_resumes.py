"""Every registered mode, started from the home menu with its setup's defaults, comes back after
a power cut: the boot asks "Resume game?" naming it, and OK shows the same game on the mode's
own screen. The modes are read from the registry, so a mode added by docs/adding-a-game.md's
steps is checked here with no line of this file changed."""

import pytest
from conftest import choose, dump

from tablemate import lifecycle, modes


@pytest.mark.parametrize("mode", [m["name"] for m in modes.MODES])
def test_a_started_game_resumes_after_a_power_cut(make_device, mode):
    dev = make_device()
    choose(dev, modes.label(mode))
    choose(dev, "Start")
    dev.advance(500)  # its first frame, then its journal
    assert dev.app.game is not None and dev.app.game.name == mode, dump(dev)
    before = dev.app.game.state
    again = make_device()  # the power went: a boot on the same flash
    assert again.shows("Resume game?") and again.shows(modes.label(mode)), dump(again)
    again.press("OK")
    again.advance(500)
    shown = again.app.game
    assert shown is not None and shown.state == before, dump(again)
    screens = [type(s) for s in again.app.stack]
    assert lifecycle.screen(mode) in screens, (screens, dump(again))

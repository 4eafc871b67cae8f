"""The battery on the panel: the home menu's and the games' status line show the charge read
from the fake ADC behind GP29 (VSYS/3); nothing without the sense pin, on USB or at 0 V; the
chemistry in Settings; the warnings; the cut-off (game saved, words left on the panel, the Pico
dormant) and the game resumed after the reset. Every frame passes the text check
(``conftest.text_fits``)."""

import json
import os

import pytest
from conftest import NAMES, choose, dump, goto, highlighted, new_scorepad

from tablemate_host import machine, shots
from tablemate_host.device import Device

from tablemate import battery
from tablemate.board import BOARD


def _u16(mv):
    return (mv * 65535 + 9899) // 9900  # VSYS through the Pico's 1:3 divider


def _set_vsys(mv):
    machine.world.set_adc(29, _u16(mv))


def _battery(dev, mv):
    """VSYS at ``mv`` from now; the gauge's next reading (at most READ_MS later) takes it."""
    _set_vsys(mv)
    dev.advance(battery.READ_MS)


LIPO_73 = 3700  # VSYS: a LiPo at 3.95 V behind the diode
FIGURE = "\x0673%"
ON_BATTERY = {29: _u16(LIPO_73)}  # Device(adc=...): the reading at power-up


def _figure_at(dev, figure=FIGURE):
    return [p for p in dev.find_text(figure) if p[1] == 0]


def test_home_menu_shows_the_charge_at_the_right_of_its_title(make_device):
    dev = make_device(adc=ON_BATTERY)
    dev.advance(100)  # the gauge loads after the first frame, and reads at once
    assert battery.percent(battery.CURVES[2], LIPO_73 + battery.DIODE_MV) == 73
    from tablemate.ui import text
    assert _figure_at(dev) == [(128 - text.ink_width(FIGURE), 0)], dump(dev)
    assert dev.shows("Tablemate")


def test_the_gauge_does_not_bring_the_settings_code_back(make_device, monkeypatch):
    """The gauge stays in RAM all session; the settings' checker leaves it after the boot
    (``App._settled``): the gauge must not import it again (2 KB of a game's heap)."""
    import sys
    monkeypatch.delitem(sys.modules, "tablemate.battery")  # imported as on a Pico's boot
    dev = make_device(adc=ON_BATTERY)
    dev.advance(100)
    assert dev.app.battery is not None and _figure_at(dev), dump(dev)
    assert "tablemate.store.settings" not in sys.modules


def test_nothing_is_shown_without_the_sense_pin(root):
    dev = Device(root, board=dict(BOARD, battery=None), settings={"names": NAMES},
                 adc=ON_BATTERY)
    dev.advance(battery.READ_MS)
    assert dev.app.battery is None and not _figure_at(dev), dump(dev)
    choose(dev, "Settings")
    assert not dev.menu_row("Battery: LiPo") and not dev.find_text("Battery:")


def test_nothing_is_loaded_or_shown_at_zero_volts_and_nothing_is_cut_off(make_device):
    """0 V is what the emulated Pico's ADC reads: not a battery, never an empty one. A pin
    that reads no supply at power-up is not sensing it: the gauge is not even loaded."""
    dev = make_device()
    assert dev.app.battery is None
    _battery(dev, 2000)
    dev.advance(3 * battery.READ_MS)
    assert dev.app.battery is None and not dev.find_text("%"), dump(dev)
    assert machine.world.sleeps == [] and dev.shows("Tablemate")


def test_usb_shows_no_figure_and_unplugged_the_battery_shows(make_device):
    dev = make_device(adc={29: _u16(4750)})  # USB: 5 V through the Pico's diode
    dev.advance(3 * battery.READ_MS)
    assert dev.app.battery is not None and dev.app.battery.percent is None
    assert not dev.find_text("%") and machine.world.sleeps == [], dump(dev)
    _battery(dev, LIPO_73)  # unplugged
    assert _figure_at(dev), dump(dev)


# The shots of the README, each a game screen: where its status line has room, the figure.
# (The chess clock is not a game screen: its page 0 holds the two players' boxes.)
GAME_SHOTS = ["scorepad", "scorepad-duel", "scorepad-eight", "winner", "contrast-pick",
              "contrast-result", "viewpoint-table", "viewpoint-cards", "viewpoint-target",
              "perfect-moment", "perfect-moment-score", "cartes-vote", "cartes-result",
              "cartes-secret", "perspective-turn", "perspective-solo"]
NO_ROOM = {  # shot -> why its status line shows no figure (the warnings come all the same)
    "contrast-result": "the round's result fills the line",
    "viewpoint-target": "the question to the player fills the line",
    "cartes-vote": "the round and the patient player fill the line",
    "cartes-secret": "the round and the patient player fill the line",
}


@pytest.mark.parametrize("name", GAME_SHOTS)
def test_a_games_status_line_shows_the_charge(root, name):
    dev = shots._device(root, adc=ON_BATTERY)
    shots.SHOTS[name](dev)
    dev.advance(100)
    if name in NO_ROOM:
        assert not _figure_at(dev), dump(dev)
    else:
        assert _figure_at(dev), dump(dev)


def test_the_figure_sits_between_a_status_lines_texts(make_device):
    """A scorepad with a target: "Round 1" at the left, "to 50" at the right, the figure a
    space clear of the latter."""
    dev = make_device(adc=ON_BATTERY)
    dev.advance(100)
    new_scorepad(dev, players=4, target=50)
    dev.advance(100)
    from tablemate.ui import text
    at = _figure_at(dev)
    to = [p for p in dev.find_text("to 50") if p[1] == 0]
    assert at and to, dump(dev)
    assert at[0][0] + text.ink_width(FIGURE) + 6 <= to[0][0], (at, to)


def test_the_chemistry_is_chosen_in_settings(make_device, root):
    dev = make_device(adc=ON_BATTERY)
    dev.advance(100)
    choose(dev, "Settings")
    goto(dev, "Battery: LiPo")
    dev.press("RIGHT")
    assert highlighted(dev, "Battery: alkaline"), dump(dev)
    dev.press("BACK")  # saved on leaving
    with open(os.path.join(root, "data", "settings.json")) as f:
        assert json.load(f)["battery"] == "alkaline"
    assert _figure_at(dev, "\x0670%"), dump(dev)  # 3.95 V is 70 % of three alkaline cells
    dev = make_device(adc=ON_BATTERY)  # and after a reboot
    _battery(dev, LIPO_73)
    assert dev.app.battery.chemistry == "alkaline" and _figure_at(dev, "\x0670%")


def test_warnings_at_15_and_5_percent(make_device):
    lipo = battery.CURVES[2]
    dev = make_device(adc={29: _u16(lipo[8] - battery.DIODE_MV)})  # 20 %: no warning
    dev.advance(battery.READ_MS)
    assert _figure_at(dev, "\x0620%") and not dev.find_text("Battery low")
    _battery(dev, 3678 - battery.DIODE_MV)  # 12 %: the mean reaches it over a few readings
    for _ in range(10):
        if dev.find_text("Battery low: "):
            break
        dev.advance(battery.READ_MS)
    percent = dev.app.battery.percent
    assert 5 < percent <= 15 and dev.shows("Battery low: %d%%" % percent), dump(dev)
    dev.press("OK")
    assert not dev.find_text("Battery low"), dump(dev)
    _set_vsys(lipo[10] - battery.DIODE_MV + 10)  # 0-1 %: the second warning
    for _ in range(10):
        if dev.find_text("Battery low: "):
            break
        dev.advance(battery.READ_MS)
    assert dev.app.battery.percent <= 5 and dev.find_text("Battery low: "), dump(dev)


def test_the_cut_off_saves_the_game_sleeps_and_the_game_resumes(make_device, root):
    dev = make_device(adc=ON_BATTERY)
    dev.advance(100)
    new_scorepad(dev, players=3)
    dev.press("RIGHT")
    dev.press("RIGHT")  # two points for Ann, pending (the scorepad commits after 1.5 s)
    _set_vsys(3000)  # a LiPo at 3.25 V: below the cut-off
    with pytest.raises(machine.ResetCalled):  # machine.deepsleep(): dormant until reset
        dev.advance(10 * battery.READ_MS)
    assert machine.world.sleeps == [("deep", None)]
    assert dev.shows("Battery empty:") and dev.shows("game saved"), dump(dev)
    assert dev.panel.display_on and dev.panel.contrast == 0  # the words stay, dimmed
    assert [a for a in dev.journal()[1:] if a[0] != "undo"], dev.journal()  # the points
    points = dev.app.game.state
    dev = make_device()  # the reset (the fake world's ADC reads 0 V again: no cut-off)
    assert dev.shows("Resume game?"), dump(dev)
    dev.press("OK")
    assert dev.app.game is not None and dev.app.game.state == points, dump(dev)


def test_the_cut_off_on_the_home_menu(make_device):
    dev = make_device(adc=ON_BATTERY)
    dev.advance(100)
    _set_vsys(2000)
    with pytest.raises(machine.ResetCalled):
        dev.advance(10 * battery.READ_MS)
    assert dev.shows("Battery empty") and not dev.find_text("game saved"), dump(dev)


def test_a_cut_off_the_flash_refuses_says_so(make_device, root, monkeypatch):
    from tablemate_host.flashfault import FlashFault
    dev = make_device(adc=ON_BATTERY)
    dev.advance(100)
    new_scorepad(dev, players=3)
    dev.press("OK")  # Ann's turn ends: journaled
    dev.advance(100)
    FlashFault(root, monkeypatch, "readonly")
    dev.press("RIGHT")  # pending, then refused by the flash at the cut-off
    _set_vsys(2000)
    with pytest.raises(machine.ResetCalled):
        dev.advance(10 * battery.READ_MS)
    assert dev.shows("Battery empty:") and dev.shows("game NOT saved"), dump(dev)

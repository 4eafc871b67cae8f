"""The on-device self-test: keys, display, sound and board facts, on every layout."""

import json
import os

from conftest import beeps, choose, dump, goto, hold, menu_row

from tablemate_host import machine


def open_selftest(dev, page=None):
    choose(dev, "Self-test")
    assert dev.shows("Self-test") and menu_row(dev, "Keys"), dump(dev)
    if page:
        choose(dev, page)


# -- keys -------------------------------------------------------------------------------------
def test_key_page_names_every_event_and_holding_back_leaves(make_device):
    dev = make_device()
    open_selftest(dev, "Keys")
    assert dev.shows("Keys: six") and dev.shows("Hold BACK 2s: leave"), dump(dev)
    dev.press("LEFT")
    assert dev.shows("LEFT PRESS") and dev.shows("LEFT RELEASE"), dump(dev)
    hold(dev, "RIGHT", 700)
    dev.advance(60)
    assert dev.shows("RIGHT REPEAT") and dev.shows("RIGHT RELEASE"), dump(dev)
    hold(dev, "OK", 800)
    dev.advance(60)
    assert dev.shows("OK LONG") and dev.shows("OK RELEASE"), dump(dev)

    hold(dev, "BACK", 1500)  # BACK is tested like any key: a short hold stays
    dev.advance(60)
    assert dev.shows("BACK RELEASE") and dev.shows("Keys: six"), dump(dev)
    hold(dev, "BACK", 2100)
    dev.advance(60)
    assert menu_row(dev, "Keys") and dev.shows("Self-test"), dump(dev)
    dev.press("BACK")
    assert menu_row(dev, "Self-test") and dev.shows("Tablemate"), dump(dev)


def test_key_page_on_the_encoder_shows_turns_and_a_long_push_leaves(make_device):
    dev = make_device(layout="encoder")
    for _ in range(12):
        if menu_row(dev, "Self-test"):
            break
        dev.turn(+1)
    dev.press("OK")
    dev.press("OK")  # Keys
    assert dev.shows("Keys: encoder") and dev.shows("Hold OK 3s: leave"), dump(dev)
    dev.turn(+1)
    assert dev.shows("DOWN PRESS") and dev.shows("DOWN RELEASE"), dump(dev)
    dev.turn(-1)
    assert dev.shows("UP PRESS") and dev.shows("UP RELEASE"), dump(dev)
    dev.press("OK")
    assert dev.shows("OK PRESS") and dev.shows("OK RELEASE"), dump(dev)
    hold(dev, "OK", 2800)  # long OK is BACK after 0.7 s, then BACK held for 2 s
    dev.advance(60)
    assert menu_row(dev, "Keys") and dev.shows("Self-test"), dump(dev)


def test_key_page_on_five_buttons(make_device):
    dev = make_device(layout="five")
    open_selftest(dev, "Keys")
    assert dev.shows("Hold OK 3s: leave"), dump(dev)
    hold(dev, "OK", 1000)
    dev.advance(60)
    assert dev.shows("BACK PRESS") and dev.shows("BACK RELEASE"), dump(dev)
    hold(dev, "OK", 2800)
    dev.advance(60)
    assert menu_row(dev, "Keys"), dump(dev)


# -- display ----------------------------------------------------------------------------------
def test_display_page_fills_checks_and_steps_the_contrast(make_device):
    dev = make_device(settings={"brightness": 3})
    from tablemate.app import CONTRAST
    open_selftest(dev, "Display")
    assert dev.shows("Display test"), dump(dev)
    dev.press("OK")
    px = dev.panel.pixels()
    assert all(all(row) for row in px), "full fill lights every pixel"
    dev.press("DOWN")
    px = dev.panel.pixels()
    assert all(px[y][x] == (x + y + 1) % 2 for y in range(64) for x in range(128)), dump(dev)
    dev.press("OK")
    px = dev.panel.pixels()
    assert all(px[y][x] == (x + y) % 2 for y in range(64) for x in range(128)), dump(dev)
    seen = []
    for _ in range(5):
        dev.press("OK")
        seen.append(dev.panel.contrast)
        assert dev.shows("Contrast %d" % seen[-1]), dump(dev)
    assert seen == [0, 64, 128, 192, 255]
    dev.press("UP")
    assert dev.panel.contrast == 192
    dev.press("BACK")
    assert dev.panel.contrast == CONTRAST[2] and menu_row(dev, "Display"), dump(dev)


# -- sound ------------------------------------------------------------------------------------
def test_sound_page_plays_a_scale(make_device):
    dev = make_device(settings={"sound": False})
    open_selftest(dev, "Sound")
    assert dev.shows("OK: play a scale"), dump(dev)
    dev.press("OK")
    assert dev.shows("Playing a scale"), dump(dev)
    dev.advance(1500)
    from tablemate.screens.selftest import SCALE
    for freq, _ in SCALE:
        assert beeps(freq), "note %d Hz played" % freq
    assert dev.shows("OK: play a scale"), dump(dev)
    dev.press("BACK")
    assert menu_row(dev, "Sound"), dump(dev)


def test_sound_page_without_a_buzzer(root):
    from tablemate.board import BOARD
    from tablemate_host.device import Device
    dev = Device(root, board=dict(BOARD, buzzer=None))
    open_selftest(dev, "Sound")
    assert dev.shows("No buzzer"), dump(dev)
    dev.press("OK")
    assert dev.shows("No buzzer"), dump(dev)


# -- the display bus: the fast display, opt-in ----------------------------------------------------
def _wiring(root):
    path = os.path.join(root, "data", "wiring.json")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)


def _bus_test(dev, opened=False):
    """Self-test > Display bus, OK: the frames at both speeds, then the result."""
    if not opened:
        open_selftest(dev, "Display bus")
    bus = machine.world.bus(0)
    sent = bus.bytes
    dev.press("OK")
    dev.advance(1000)
    assert dev.shows("A whole frame takes"), dump(dev)
    return bus.bytes - sent


def test_the_fast_display_is_tried_then_kept_as_a_board_setting(make_device, root):
    dev = make_device()
    assert machine.world.bus(0).freq == 400000, "the default"
    assert dev.app.display.hz == 400000, "the driver weighs spans by the bus's speed"
    open_selftest(dev, "Display bus")
    assert dev.shows("Now 400 kHz") and dev.shows("OK: whole frames at"), dump(dev)
    dev.press("BACK")
    assert menu_row(dev, "Display bus"), dump(dev)
    dev.press("OK")
    sent = _bus_test(dev, opened=True)
    assert sent >= 32 * 1024, "16 whole frames at each speed: %d bytes" % sent
    assert dev.shows("1 MHz: every frame in") and dev.shows("Text sharp? OK: 1 MHz"), dump(dev)
    assert machine.world.bus(0).freq == 1000000, "the result is drawn at 1 MHz"
    dev.press("OK")
    assert menu_row(dev, "Display bus"), dump(dev)
    assert _wiring(root) == {"freq": 1000000} and dev.app.display.hz == 1000000
    dev = make_device()
    assert dev.app is not None and machine.world.bus(0).freq == 1000000, "the next start too"
    assert dev.app.display.hz == 1000000

    _bus_test(dev)
    dev.press("BACK")  # back to the default: written, since the board's setting is 1 MHz now
    assert _wiring(root) == {"freq": 400000} and machine.world.bus(0).freq == 400000
    assert dev.app.display.hz == 400000


def test_a_panel_that_cannot_keep_up_stays_at_400_khz(make_device, root):
    dev = make_device()
    dev.panel.max_hz = 400000  # it answers no ACK at 1 MHz
    _bus_test(dev)
    assert dev.shows("1 MHz: 16 of 16 lost") and dev.shows("The panel is too slow"), dump(dev)
    assert machine.world.bus(0).freq == 400000, "back at 400 kHz to say so"
    dev.press("OK")  # not offered
    assert dev.shows("The panel is too slow"), dump(dev)
    dev.press("BACK")
    assert menu_row(dev, "Display bus") and _wiring(root) is None, dump(dev)


def test_a_fast_display_that_stopped_keeping_up_starts_at_400_khz(root):
    """1 MHz was kept once; the panel no longer answers at it (longer wires, another module):
    the boot tries 400 kHz before it calls the display missing."""
    from tablemate_host.device import Device
    dev = Device(root, wiring={"freq": 1000000}, max_hz=400000)
    assert dev.app is not None and machine.world.bus(0).freq == 400000, dump(dev)
    assert dev.shows("Scorepad"), dump(dev)
    assert dev.app.probe.hz == 400000 and dev.app.display.hz == 400000


def test_a_flash_that_refuses_the_choice_keeps_it_until_the_next_start(make_device, root,
                                                                       monkeypatch):
    from tablemate_host.flashfault import FlashFault
    dev = make_device()
    _bus_test(dev)
    FlashFault(root, monkeypatch, "readonly")
    dev.press("OK")
    assert dev.shows("Flash read-only:") and dev.shows("1 MHz until the"), dump(dev)
    assert machine.world.bus(0).freq == 1000000 and _wiring(root) is None


# -- board facts ------------------------------------------------------------------------------
def test_board_page_shows_bus_battery_heap_and_version(make_device, root):
    import tablemate
    dev = make_device()
    machine.world.set_adc(29, 24000)  # VSYS/3 at the ADC: 24000 / 65535 * 3.3 V * 3 = 3.63 V
    open_selftest(dev, "Board")
    assert dev.shows("I2C: 3C"), dump(dev)
    assert dev.shows("Battery: 3.63 V"), dump(dev)
    assert dev.shows("Free RAM not known"), dump(dev)  # the host cannot tell; the Pico can
    assert dev.shows("Firmware " + tablemate.VERSION), dump(dev)
    assert dev.shows("No version.json"), dump(dev)

    machine.world.set_adc(29, 27000)
    dev.advance(1100)
    assert dev.shows("Battery: 4.08 V"), "refreshed every second" + dump(dev)
    dev.press("OK")
    assert menu_row(dev, "Board"), dump(dev)

    os.makedirs(os.path.join(root, "tablemate"))
    os.makedirs(os.path.join(root, "tablemate", "store"), exist_ok=True)
    with open(os.path.join(root, "tablemate", "store", "version.json"), "w") as f:
        json.dump({"version": tablemate.VERSION, "git": "abc1234", "mpy": "6.3"}, f)
    dev.press("OK")
    assert dev.shows("Flashed abc1234"), dump(dev)


def test_board_page_on_the_uf2_says_it_is_frozen(make_device, root, monkeypatch):
    """Frozen into a UF2 (``tablemate.FROZEN``: the package's path is among the frozen modules)
    no version file is on the flash (the UF2's boot removes a flash install's): the page says
    so, not "No version.json"."""
    import tablemate
    assert not tablemate.FROZEN  # the host runs firmware/ from files
    monkeypatch.setattr(tablemate, "FROZEN", True)
    dev = make_device()
    open_selftest(dev, "Board")
    assert dev.shows("Frozen in the UF2"), dump(dev)
    assert not dev.shows("No version.json"), dump(dev)


def test_board_page_without_battery_sense(root):
    from tablemate.board import BOARD
    from tablemate_host.device import Device
    dev = Device(root, board=dict(BOARD, battery=None), layout="three")
    for _ in range(12):
        if menu_row(dev, "Self-test"):
            break
        dev.press("DOWN")
    dev.press("OK")
    goto(dev, "Board")
    dev.press("OK")
    assert dev.shows("Battery: not wired") and dev.shows("I2C: 3C"), dump(dev)
    dev.long_press("OK")  # three buttons: long OK is BACK
    assert menu_row(dev, "Board"), dump(dev)

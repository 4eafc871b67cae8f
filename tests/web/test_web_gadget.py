"""The web gadget in headless Chromium: the real firmware, pressed like a person, checked against
the host harness pixel for pixel.

Each flow is played first on the host's ``Device`` (the firmware on CPython fakes, the picture
decoded from its I2C bytes by the virtual SSD1306), which records the presses and the frames at
its checkpoints; the page then gets the same presses, from the keyboard or by clicking its
buttons, and its canvas must show the very same pixels. Every test fails on a console error, an
uncaught exception or a request to another origin (conftest.py).
"""

import base64
import json

import pytest

from web_harness import LIMIT_MS, WebGadget, bits, differs

NAMES = ["P1", "P2"]


def same(web, host_frame, label):
    frame = web.frame()
    assert frame == host_frame, differs(label, frame, host_frame)


def journal(text):
    """A journal's lines as data: the header without its random id and its start (the page's
    clock dates its games; the host's board has no clock set), then the actions."""
    lines = [json.loads(line) for line in text.split("\n") if line and "\x00" not in line]
    head = dict(lines[0])
    head.pop("id")
    head.pop("start", None)
    return [head] + lines[1:]


def started_now(text):
    """True when the journal's header holds a start within a minute of this computer's local
    time: the page's board clock is the browser's (issue 32: the page's games had no date)."""
    from datetime import datetime
    start = json.loads(text.split("\n")[0]).get("start")
    if not start:
        return False
    return abs((datetime.strptime(start, "%Y-%m-%d %H:%M:%S") - datetime.now()
                ).total_seconds()) < 60


# -- flows, played on the host first --------------------------------------------------------------
def scorepad_turn(dev):
    dev.check("the home menu")
    dev.choose("Scorepad")
    dev.check("the scorepad's setup")
    dev.choose("Start")
    dev.check("the score table")
    dev.presses("RIGHT", "RIGHT", "RIGHT")
    dev.check("+3 pending")
    dev.wait(1700)
    dev.check("+3 saved")
    dev.press("OK")
    dev.check("the next player's turn")


def contrast_round(dev):
    dev.choose("Contrast")
    dev.check("Contrast's setup")
    dev.choose("Start")
    dev.check("the first pick")
    dev.press("OK")
    dev.check("one pick in")
    dev.presses("RIGHT", "OK", "OK", "OK")
    dev.check("the round's result")
    dev.press("OK")
    dev.check("round 2")


def scorepad_turned(dev):
    """Turn: to player: the second player's turn turns the picture (the canvas decodes the
    remap commands as the host's panel does) and his RIGHT is the panel's LEFT."""
    dev.choose("Settings")
    dev.goto("Turn: off")
    dev.presses("RIGHT", "RIGHT")
    dev.check("Turn: to player")
    dev.press("BACK")
    dev.choose("Scorepad")
    dev.choose("Start")
    dev.press("OK")
    assert dev.app.display.turned
    dev.check("the second player's turn, turned to him")
    dev.press("LEFT")
    dev.check("+1 for him")
    dev.press("BACK")
    dev.check("the game menu, still turned")


# Each flow once, each way of pressing on two of them: the keys and the clicks reach the same
# key machine (test_holding_a_button_holds_the_key holds a key both ways), and the turned
# picture, where a click's key depends on the turn, is played both ways.
@pytest.mark.parametrize("flow, via", [(scorepad_turn, "keys"), (contrast_round, "clicks"),
                                       (scorepad_turned, "keys"), (scorepad_turned, "clicks")],
                         ids=["scorepad_turn-keys", "contrast_round-clicks", "scorepad_turned-keys",
                              "scorepad_turned-clicks"])
def test_a_flow_shows_what_the_host_shows(flow, via, page, origin, host):
    dev = host()
    flow(dev)
    web = WebGadget(page, origin, via).open()
    web.replay(dev.script)
    with open(dev.root + "/data/game.jnl") as f:
        assert journal(web.read("/data/game.jnl")) == journal(f.read())
    assert started_now(web.read("/data/game.jnl")), web.read("/data/game.jnl")[:200]


@pytest.mark.parametrize("via", ["keys", "clicks"])
def test_holding_a_button_holds_the_key(via, page, origin, host):
    """A held RIGHT auto-repeats and accelerates through the firmware's key machine: one
    journaled add, larger than the presses a hand could make."""
    dev = host()
    dev.choose("Scorepad")
    dev.choose("Start")
    web = WebGadget(page, origin, via).open()
    web.replay(dev.script)
    web.hold("RIGHT", 2000)
    web.wait(1700)
    actions = journal(web.read("/data/game.jnl"))[1:]
    assert len(actions) == 1 and actions[0][:2] == ["add", 0] and actions[0][2] > 15, actions


@pytest.mark.parametrize("how", ["reload", "reopen"])
def test_a_game_survives_the_page_as_a_power_cut(how, page, context, guard, origin, host):
    """Reloading or closing the page mid-game, then opening it, offers "Resume game?" and
    resumes the exact game; a change still pending is lost, as a power cut loses it."""
    dev = host()
    dev.choose("Scorepad")
    dev.choose("Start")
    dev.presses("RIGHT", "RIGHT")
    dev.wait(1700)
    dev.press("OK")
    dev.presses("RIGHT", "RIGHT", "RIGHT", "RIGHT")
    dev.check("mid-game, +4 pending")
    web = WebGadget(page, origin).open()
    web.replay(dev.script)

    if how == "reload":
        page.reload()
    else:
        page.close()
        page = context.new_page()
        page.on("console", guard.console)
        page.on("pageerror", guard.pageerror)
        web = WebGadget(page, origin)
        page.goto(origin + "/")
    web.ready()
    cut = type(dev)(dev.root)  # the host gadget powered up again on the same flash
    cut.check("Resume game?")
    cut.press("OK")
    cut.check("the game, resumed")
    cut.press("RIGHT")
    cut.check("and it goes on")
    web.replay(cut.script)


def test_export_and_import_the_devices_files(page, origin, host, tmp_path):
    dev = host()
    dev.choose("Scorepad")
    dev.choose("Start")
    dev.presses("RIGHT", "RIGHT")
    dev.wait(1700)
    dev.press("OK")
    web = WebGadget(page, origin).open()
    web.replay(dev.script)
    page.click(".device summary")

    with page.expect_download() as download:
        page.click("#export")
    exported = tmp_path / "export.json"
    download.value.save_as(str(exported))
    doc = json.loads(exported.read_text())
    assert doc["format"] == "tablemate-flash" and doc["version"] == 1, doc
    assert {"data/game.jnl", "data/setups.json"} <= set(doc["files"]), sorted(doc["files"])

    # Garbage is refused with a message, and nothing changes.
    before = web.stored()
    frame = web.frame()
    garbage = {
        "not-json.json": "this is not JSON {",
        "other.json": json.dumps({"format": "something else", "files": {}}),
        "escape.json": json.dumps({"format": "tablemate-flash", "version": 1,
                                   "files": {"data/../../etc/passwd": "AAAA"}}),
        "bad-base64.json": json.dumps({"format": "tablemate-flash", "version": 1,
                                       "files": {"data/game.jnl": "not base64!"}}),
        "future.json": json.dumps({"format": "tablemate-flash", "version": 99, "files": {}}),
    }
    for name, text in garbage.items():
        path = tmp_path / name
        path.write_text(text)
        page.set_input_files("#import-file", str(path))
        page.wait_for_function("document.getElementById('message').className === 'bad'")
        message = page.text_content("#message")
        assert message.startswith("Nothing imported."), (name, message)
        assert page.is_hidden("#confirm"), name
        page.evaluate("document.getElementById('message').className = ''")
    assert web.stored() == before
    web.settle()
    assert web.frame() == frame

    # Erase: a fresh device. Import the export: the game is back, offered at boot.
    page.click("#erase")
    with page.expect_navigation():
        page.click("#confirm-yes")
    web.ready()
    (tmp_path / "fresh").mkdir()
    fresh = type(dev)(str(tmp_path / "fresh"))
    same(web, fresh.frame(), "an erased flash boots to the home menu")
    page.click(".device summary")
    page.set_input_files("#import-file", str(exported))
    page.wait_for_selector("#confirm:not([hidden])")
    assert "Replace the device's files" in page.text_content("#confirm-text")
    with page.expect_navigation():
        page.click("#confirm-yes")
    web.ready()
    cut = type(dev)(dev.root)
    same(web, cut.frame(), "the imported game is offered at boot")


def test_an_export_mid_secret_ballot_holds_no_vote(page, origin, host, tmp_path):
    """Issue 22: the votes of a secret ballot in progress are in the page's RAM only (its VM),
    never in its flash (localStorage) nor in an export: the export holds the journal's seals,
    which say who voted and nothing of what."""
    dev = host()
    dev.choose("Cartes sur Table")
    dev.goto("Secret ballot: off")
    dev.press("RIGHT")
    dev.choose("Start")
    for card in (2, 3, 1):  # three of five vote: Pass the device to..., OK, the card, OK
        dev.press("OK")
        dev.presses(*["RIGHT"] * (card - 1))
        dev.press("OK")
    dev.check("the fourth player's turn to vote")
    web = WebGadget(page, origin).open()
    web.replay(dev.script)
    page.click(".device summary")
    with page.expect_download() as download:
        page.click("#export")
    exported = tmp_path / "export.json"
    download.value.save_as(str(exported))
    files = json.loads(exported.read_text())["files"]
    assert "data/game.jnl" in files and set(files) <= {
        "data/game.jnl", "data/settings.json", "data/setups.json"}, sorted(files)
    lines = journal(base64.b64decode(files["data/game.jnl"]).decode())
    assert [a[:2] for a in lines[1:]] == [["seal", 0], ["seal", 1], ["seal", 2]], lines
    assert all(len(a) == 3 and type(a[2]) is int for a in lines[1:]), lines
    assert "votes" not in json.dumps(lines[0]["opts"]), lines[0]
    stored = web.stored()
    assert not any("ballot" in key for key in stored), sorted(stored)


def test_layout_three_from_the_chooser(page, origin, host):
    dev = host(layout="three")
    dev.check("the home menu")
    dev.press("DOWN")
    dev.check("NEXT moved the cursor")
    dev.press("OK")
    dev.check("Contrast's setup")
    web = WebGadget(page, origin).open()
    page.click(".device summary")
    page.select_option("#layout", "three")
    web.settle()
    shown = page.eval_on_selector_all("[data-key]", "els => els.filter(e => !e.hidden).map(e => e.dataset.key)")
    assert sorted(shown) == ["DOWN", "OK", "UP"]
    assert "layout=three" in page.url
    web.replay(dev.script)
    assert json.loads(web.read("/data/settings.json") or "{}").get("layout", "six") == "six", \
        "the page's layout is not saved in the device's settings"


def test_layout_five_back_is_a_long_ok(page, origin, host):
    dev = host(layout="five")
    dev.choose("Scorepad")
    setup = dev.frame()
    script = list(dev.script)
    dev.long_press("OK")
    home = dev.frame()
    web = WebGadget(page, origin).open("?layout=five")
    assert page.is_hidden('[data-key="BACK"]')
    web.replay(script)
    same(web, setup, "the scorepad's setup")
    web.press("BACK")  # Backspace: OK held for a long press
    same(web, home, "a long OK went back")


def test_layout_encoder_turns_the_knob(page, origin, host):
    dev = host(layout="encoder")
    home = dev.frame()
    dev.turn(1)
    turned = dev.frame()
    dev.press("OK")
    opened = dev.frame()
    web = WebGadget(page, origin).open("?layout=encoder")
    same(web, home, "the home menu")
    web.press("DOWN")  # one detent clockwise
    same(web, turned, "one detent moved the cursor")
    web.press("OK", via="clicks")  # the knob's push
    same(web, opened, "the push opened Contrast")


def test_a_second_tab_waits_for_the_first(page, context, guard, origin):
    """Two pages of one browser would write over each other's flash: the second waits."""
    WebGadget(page, origin).open()
    second = context.new_page()
    second.on("console", guard.console)
    second.on("pageerror", guard.pageerror)
    second.goto(origin + "/")
    second.wait_for_selector("#wait:not([hidden])", timeout=LIMIT_MS)
    assert not second.evaluate("window.tablemate.running")
    page.close()
    WebGadget(second, origin).ready()
    assert second.is_hidden("#wait")


def test_works_offline_once_loaded(page, context, origin, host):
    web = WebGadget(page, origin).open()
    page.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.controller !== null",
                           timeout=LIMIT_MS)
    context.set_offline(True)
    try:
        page.reload()
        web.ready()
        dev = host()
        dev.check("the home menu, offline")
        dev.press("DOWN")
        dev.check("a key works offline")
        web.replay(dev.script)
    finally:
        context.set_offline(False)


def test_the_display_is_crisp_and_the_buzzer_sounds(page, origin):
    web = WebGadget(page, origin).open()
    size = page.evaluate("""() => {
        const c = document.getElementById("oled");
        const r = c.getBoundingClientRect();
        return [r.width * devicePixelRatio, r.height * devicePixelRatio,
                getComputedStyle(c).imageRendering, c.width, c.height];
    }""")
    assert size[3:] == [128, 64]
    assert size[0] % 128 == 0 and size[1] == size[0] / 2 and size[0] >= 3 * 128, size
    assert size[2] == "pixelated", size
    # The firmware's buzzer is a PWM; the page sets its oscillator from it (heard once a tap or
    # a key has allowed the page to play sound).
    page.evaluate("""() => window.tablemate.mp.runPython(
        "import webgadget\\nwebgadget.app.beep(((880, 300),))")""")
    page.wait_for_function("document.getElementById('status').textContent.includes('\u266a')")
    assert page.evaluate("[window.tablemate.buzzer.freq, window.tablemate.buzzer.duty]") == [880, 32768]
    web.wait(400)
    assert page.evaluate("window.tablemate.buzzer.duty") == 0, "the note ended"
    assert "\u266a" not in page.text_content("#status")


def test_host_frames_are_what_the_host_panel_shows(host):
    """The harness itself: a recorded checkpoint is the virtual SSD1306's picture."""
    dev = host()
    dev.check("home")
    assert dev.script[-1][2] == bits(dev.panel.pixels()) and "1" in dev.script[-1][2]

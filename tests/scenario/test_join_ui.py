"""The joining screens (ui/join.py) on a real App, driven through its buttons: what the panel
shows is read back, words by the firmware's own font and codes by a real scanner (ZXing's C++
port, tests/host/test_qr_decode.py says why that one) from the virtual SSD1306's pixels."""

import sys

import zxingcpp
from PIL import Image

SSID, PASSWORD, URL = "Tablemate-4F2A", "cards2play", "http://192.168.4.1/"


def scanned(dev):
    """The texts of the codes a phone's scanner finds on the panel (lit pixels light), read
    from a 4x picture as a camera would see it; it does not try inverted codes."""
    im = Image.new("L", (128, 64))
    im.putdata([255 * p for row in dev.panel.pixels() for p in row])
    im = im.resize((512, 256), Image.NEAREST)
    return [c.text for c in zxingcpp.read_barcodes(im, try_invert=False)]


def join(dev, ssid=SSID, password=PASSWORD, url=URL, **kw):
    """The phones option's part: push the joining screens with what its network is."""
    from tablemate.ui.join import Join
    screen = Join(dev.app, ssid, password, url, **kw)
    dev.app.push(screen)
    dev.advance(100)
    return screen


def test_the_wifi_code_then_the_address_through_the_buttons(make_device):
    dev = make_device()
    left = []
    join(dev, on_back=lambda: left.append(True))
    for words in ("Join Wi-Fi", SSID, "Password", PASSWORD, "OK: page"):
        assert dev.shows(words), words
    assert scanned(dev) == ["WIFI:T:WPA;S:Tablemate-4F2A;P:cards2play;;"]
    dev.press("OK")
    for words in ("Open page", "http://", "192.168.4.1/", "OK: Wi-Fi"):
        assert dev.shows(words), words
    assert not dev.shows(SSID)
    assert scanned(dev) == [URL]
    for key, page in (("LEFT", "Join Wi-Fi"), ("RIGHT", "Open page"), ("UP", "Join Wi-Fi"),
                      ("DOWN", "Open page"), ("DOWN", "Open page"), ("OK", "Join Wi-Fi")):
        dev.press(key)
        assert dev.shows(page), (key, page)
    dev.press("BACK")
    assert left == [True]
    assert dev.menu_row("Scorepad") and not dev.shows("Join Wi-Fi")
    assert "tablemate.ui.qr" not in sys.modules and "tablemate.ui.join" not in sys.modules


def test_a_layout_without_back_leaves_by_holding_ok(make_device):
    dev = make_device(layout="five")
    join(dev)
    dev.press("OK")
    assert dev.shows("Open page")
    dev.long_press("OK")
    assert dev.menu_row("Scorepad")


def test_the_address_code_is_made_in_a_quiet_pass_after_the_first_frame(make_device):
    dev = make_device()
    from tablemate.ui.join import Join
    screen = Join(dev.app, SSID, PASSWORD, URL)
    assert screen.codes[1] == 0  # not yet: the first frame waits only for the Wi-Fi's
    dev.app.push(screen)
    dev.advance(100)
    assert screen.codes[1].version == 2
    dev.press("RIGHT")
    assert scanned(dev) == [URL]


def test_the_screen_stays_lit_while_players_scan(make_device):
    dev = make_device(settings={"dim_s": 30, "off_min": 5})
    join(dev)
    bright = dev.panel.contrast
    dev.advance(6 * 60 * 1000)
    assert dev.panel.lit and dev.panel.contrast == bright
    assert scanned(dev) == ["WIFI:T:WPA;S:Tablemate-4F2A;P:cards2play;;"]


def test_escaped_characters_and_an_open_network(make_device):
    dev = make_device()
    join(dev, ssid='Ann;s "table"', password="a:b,c\\d")
    assert dev.shows('Ann;s "table"') and dev.shows("a:b,c\\d")
    assert scanned(dev) == ['WIFI:T:WPA;S:Ann\\;s \\"table\\";P:a\\:b\\,c\\\\d;;']
    dev.press("BACK")
    join(dev, ssid="Open table", password="")
    assert dev.shows("No password") and not dev.shows("Password")
    assert scanned(dev) == ["WIFI:T:nopass;S:Open table;;"]


def test_words_that_do_not_fit_beside_the_code_give_way_to_it(make_device):
    """The longest network a Pico W can make: a 32-character name, a 63-character password.
    Written out they would not fit beside the code; the code holds them all."""
    dev = make_device()
    ssid, password = "Tablemate-of-the-long-names-4F2A", "p" * 63
    join(dev, ssid=ssid, password=password, url="http://192.168.4.1/scores/table")
    assert dev.shows("Scan the") and dev.shows("code") and not dev.shows("Password")
    assert scanned(dev) == ["WIFI:T:WPA;S:%s;P:%s;;" % (ssid, password)]
    dev.press("OK")
    for words in ("http://", "192.168.4.1/", "scores/table"):
        assert dev.shows(words), words
    assert scanned(dev) == ["http://192.168.4.1/scores/table"]


def test_an_address_too_long_for_a_code_says_so_and_is_still_written(make_device):
    dev = make_device()
    url = "http://192.168.4.1/" + "x" * 240
    join(dev, url=url)
    dev.press("OK")
    assert dev.shows("No code: too long") and dev.shows("Open page") and dev.shows("http://1")
    assert scanned(dev) == []
    dev.press("OK")
    assert scanned(dev) == ["WIFI:T:WPA;S:Tablemate-4F2A;P:cards2play;;"]

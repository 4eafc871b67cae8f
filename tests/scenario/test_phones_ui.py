"""The gadget's side of Phones on the virtual display: the Settings row on a board with Wi-Fi,
the Phones page (how to join, the seats, the 8 phones the Wi-Fi serves), a radio that does not
start, and the count of the phones still choosing over the game."""

from phones_standin import Net, Service, contrast_round_begun

from tablemate import lifecycle

NAMES5 = ["Ann", "Bob", "Cy", "Dee", "Eve"]


def test_settings_offers_phones_on_a_board_with_wifi(make_device):
    dev = make_device()
    dev.advance(1500)
    dev.app.net = Net
    dev.choose("Settings")
    dev.goto("Phones: off")
    dev.press("RIGHT")
    assert dev.shows("Phones: on")
    dev.press("BACK")
    assert dev.shows("Phones: on: starting")
    assert dev.app.settings["phones"] is True
    dev.app.phones = Service(dev.app)  # the network is up: how to join, at once, and only once
    dev.advance(600)
    assert dev.shows("Join Wi-Fi") and dev.shows("Tablemate-1A2B")
    dev.press("BACK")
    dev.advance(600)
    assert dev.shows("Join: network, page") and not dev.shows("Join Wi-Fi")


def test_a_radio_that_does_not_start_switches_phones_off(make_device):
    from tablemate.phones import run
    dev = make_device()
    dev.advance(1500)
    app = dev.app
    app.net = Net
    app.settings["phones"] = True
    assert run.run(app, dev.wdt, 5) == 5
    dev.advance(200)
    assert dev.shows("Wi-Fi did not") and dev.shows("Phones is off")
    assert app.settings["phones"] is False
    assert app.phones is None


def test_the_phones_page_shows_how_to_join_and_the_seats(make_device):
    dev = make_device()
    dev.advance(1500)
    app = dev.app
    app.net = Net
    assert lifecycle.start(app, "cartes_sur_table", {"names": NAMES5, "secret": True}) is None
    dev.advance(600)
    svc = Service(app)
    app.phones = svc
    svc.table.claim(app.game, None, 1, "iPhone")
    dev.press("BACK")
    dev.choose("Phones")
    assert dev.shows("Bob: iPhone") and dev.shows("Ann: -")
    dev.choose("Join: network, page")  # the joining screens (tests/scenario/test_join_ui.py)
    for words in ("Join Wi-Fi", "Tablemate-1A2B", "Password", "abcd2345wxyz"):
        assert dev.shows(words), words
    dev.press("OK")  # the page's address
    assert dev.shows("Open page") and dev.shows("192.168.4.1/")
    dev.press("BACK")
    dev.advance(300)
    dev.choose("Wi-Fi: 3 of 8 phones")
    assert dev.shows("addresses to 8")
    while dev.app.top().__class__.__name__ == "Notice":
        dev.press("OK")
    dev.advance(300)
    dev.choose("Bob: iPhone")
    assert dev.shows("Free Bob's seat?")
    dev.press("OK")
    dev.advance(400)
    assert dev.shows("Bob: -") and svc.table.seats == {}


def test_the_count_of_the_phones_choosing_covers_the_game(make_device):
    from tablemate.phones.table import covered
    dev = make_device()
    dev.advance(1500)
    app = dev.app
    assert lifecycle.start(app, "contrast", {"names": NAMES5}) is None
    dev.advance(600)
    svc, toks = contrast_round_begun(app)
    t = svc.table
    covered(app, t, 0)
    dev.advance(400)
    for words in ("Phones choosing", "1 of 5 in", "Phones: Bob, Dee", "Gadget: Cy, Eve",
                  "Any key: buttons"):
        assert dev.shows(words), words
    assert not dev.shows("red")  # what Ann picked shows nowhere
    dev.press("OK")
    assert dev.shows("Round 1") and app.game.count == 0


def test_with_phones_off_the_loop_loads_nothing_of_them(make_device, monkeypatch):
    """A Pico W with Phones off: the boot's loop sleeps in lightsleep as before and imports
    nothing of the phones, the server or the radio."""
    import sys

    from tablemate_host import machine
    dev = make_device(settings={"dim_s": 0, "off_min": 0})
    dev.advance(1500)
    dev.app.net = Net
    # put back after the test: a later test's module holds their classes (``Refused``), and
    # the firmware's next import of a module gone would make new ones
    for name in [n for n in sys.modules if n.startswith(("tablemate.phones", "tablemate.hw.wifi"))]:
        monkeypatch.delitem(sys.modules, name)
    del machine.world.sleeps[:]
    dev.main.loop(dev.app, dev.wdt, 5)
    assert machine.world.sleeps and all(kind == "light" for kind, _ in machine.world.sleeps)
    assert not [n for n in sys.modules if n.startswith(("tablemate.phones", "tablemate.hw.wifi"))]

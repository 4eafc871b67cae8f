"""The gadget's side of Phones (screens/phones.py, the Settings row, the menus' entries) on the
real app, with the phones' service stood in by its table: both VMs. The server and the loop's
hand-over to asyncio run on real sockets in tests/phones/."""

import support
from phones_standin import Net, Service, contrast_round_begun
from rig import Rig

from tablemate import keys as K
from tablemate import lifecycle

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve"]


def rig_with_phones(name):
    r = Rig(support.scratch_dir(name))
    r.app.net = Net  # a board with Wi-Fi
    return r


def test_the_settings_row_shows_on_a_board_with_wifi_and_opens_the_phones_page():
    r = Rig(support.scratch_dir("phones_settings_none"))
    r.choose("Settings")
    assert not [i for i in r.app.top().items if i.startswith("Phones")]
    r = rig_with_phones("phones_settings")
    r.choose("Settings")
    r.goto("Phones: off")
    r.press(K.RIGHT)
    assert "Phones: on" in r.app.top().items
    r.press(K.BACK)  # leaving saves; Phones just went on: how to join
    assert r.app.settings["phones"] is True and r.top() == "PhonesPage"
    assert r.app.top().items == ["Phones: on: starting"]  # until the loop starts the service
    assert support.read_bytes(r.root + "/data/settings.json").count(b'"phones": true') == 1
    r.press(K.BACK)
    assert "Phones" in r.app.top().items  # Home has the page while Phones is on


def test_the_phones_page_lists_the_seats_and_frees_one_after_a_question():
    r = rig_with_phones("phones_page")
    assert lifecycle.start(r.app, "cartes_sur_table", {"names": NAMES, "secret": True}) is None
    r.advance(100)
    svc = Service(r.app)
    r.app.phones = svc
    svc.table.claim(r.app.game, None, 1, "iPhone")
    r.press(K.BACK)
    assert "Phones" in r.app.top().items  # the game menu, while Phones is on
    r.choose("Phones")
    page = r.app.top()
    assert page.items == ["Join: network, page", "Ann: -", "Bob: iPhone", "Cy: -", "Dee: -",
                          "Eve: -", "Wi-Fi: 3 of 8 phones"]
    r.choose("Join: network, page")
    join = r.app.top()
    assert r.top() == "Join", r.top()
    assert (join.ssid, join.password, join.url) == (svc.ssid, svc.password, svc.url)
    r.press(K.BACK)
    assert r.app.top() is page
    r.choose("Bob: iPhone")
    assert r.top() == "Confirm"
    r.press(K.OK)
    assert svc.table.seats == {} and "Bob: -" in page.items
    svc.table.claim(r.app.game, None, 2, "Android")
    r.advance(300)  # the page looks again four times a second
    assert "Cy: Android" in page.items
    r.choose("Wi-Fi: 3 of 8 phones")
    assert r.top() == "Notice" and "8 phones" in " ".join(r.app.top()._all)


def test_the_count_covers_the_game_while_phones_choose_and_goes_by_itself():
    from tablemate.phones.table import covered
    r = rig_with_phones("phones_progress")
    app = r.app
    assert lifecycle.start(app, "contrast", {"names": NAMES}) is None
    r.advance(100)
    svc, toks = contrast_round_begun(app)
    t = svc.table
    covered(app, t, 0)
    assert r.top() == "Progress"
    r.advance(300)
    assert app.top().shown == ([1, 3], [2, 4])  # Bob and Dee on phones; Cy and Eve on the gadget
    app.display.fill(0)
    app.top().draw(app.display)  # "1 of 5 in", the names still to choose: drawn whole
    t.act(app, toks[1], {"do": "pick", "symbol": "red"}, 0)
    t.act(app, toks[2], {"do": "pick", "symbol": "red"}, 0)
    r.advance(300)
    assert r.top() == "Contrast"  # no phone left to wait for: the gadget's grid, for Ann's turn
    assert app.game.count == 2  # Ann and Bob played; Cy is entered on the gadget


def test_a_key_sends_the_count_away_for_the_round():
    from tablemate.phones.table import covered
    r = rig_with_phones("phones_dismiss")
    app = r.app
    assert lifecycle.start(app, "cartes_sur_table", {"names": NAMES, "secret": True}) is None
    r.advance(100)
    svc = Service(app)
    app.phones = svc
    t = svc.table
    toks = [t.claim(app.game, None, p, "Android") for p in range(5)]
    for tok in toks:
        t.opened(tok)
    t.act(app, toks[2], {"do": "vote", "card": 1}, 0)
    covered(app, t, 0)
    assert r.top() == "Progress"
    r.press(K.OK)
    assert r.top() == "CartesSurTable"
    t.act(app, toks[3], {"do": "vote", "card": 1}, 0)
    covered(app, t, 0)
    assert r.top() == "CartesSurTable"  # sent away for this ballot
    r.press(K.OK)  # the gadget's own picker, for Ann
    t.act(app, toks[4], {"do": "vote", "card": 1}, 0)
    covered(app, t, 0)
    assert r.top() == "CartesSurTable"  # never over a vote being cast on the gadget

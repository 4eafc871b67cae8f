"""The phones' table (firmware/tablemate/phones/table.py and its modes) on the real app.

Seats and tokens, what a phone may see (never another seat's vote or pick before the rules
played it), a phone's request as the very action the buttons make (the same journal lines), the
held picks of Contrast and of an open ballot, a phone that left. Runs on both VMs: the server
around it is tested on real sockets in tests/phones/.
"""

import json

import support
from rig import Rig

from tablemate import RuleError
from tablemate import keys as K
from tablemate import lifecycle
from tablemate.phones.table import PHONES, Refused, Table
from tablemate.store import phones as kept

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve"]


class Tokens:
    """Tokens a test can read: t0000000000000001, ..."""

    def __init__(self):
        self.n = 0

    def __call__(self):
        self.n += 1
        return "%016x" % self.n


def table():
    return Table({}, Tokens(), "Tablemate-TEST", 1000)


def started(name, opts, root_name):
    r = Rig(support.scratch_dir(root_name))
    assert lifecycle.start(r.app, name, opts) is None
    r.advance(100)
    return r


def seat_all(t, game, n, kind="Android"):
    return [t.claim(game, None, p, kind) for p in range(n)]


def refused(fn, words, status=None):
    try:
        fn()
    except Refused as no:
        assert words in str(no), str(no)
        assert status is None or no.status == status, no.status
        return
    except RuleError as no:
        assert words in str(no), str(no)
        assert status is None
        return
    raise AssertionError("not refused: " + words)


def journal(r):
    return support.journal_lines(r.root + "/data/game.jnl")[1:]


# -- seats ------------------------------------------------------------------------------------
def test_a_seat_is_held_by_one_phone_until_the_gadget_frees_it():
    r = started("cartes_sur_table", {"names": NAMES, "secret": True}, "phones_seats")
    game = r.app.game
    t = table()
    ann = t.claim(game, None, 0, "iPhone")
    assert t.seat_of(game, ann) == 0 and t.name_of(ann) == "Ann" and t.dirty
    assert t.claim(game, ann, 0, "iPhone") == ann  # asking again changes nothing
    refused(lambda: t.claim(game, None, 0, "Android"), "Ann's seat is held by another phone "
            "(iPhone)", 409)
    refused(lambda: t.claim(game, "ffffffffffffffff", 0, "Android"), "held by another phone")
    t.free("Ann")
    assert t.seat_of(game, ann) == -1 and t.mine(game, ann)["seat"] == -1
    bob = t.claim(game, None, 0, "Android")
    assert bob != ann and t.seat_of(game, bob) == 0


def test_a_phone_moves_to_another_seat_and_keeps_its_token():
    r = started("cartes_sur_table", {"names": NAMES, "secret": True}, "phones_move")
    game = r.app.game
    t = table()
    tok = t.claim(game, None, 1, "iPhone")
    assert t.claim(game, tok, 3, "iPhone") == tok
    assert t.seat_of(game, tok) == 3 and sorted(t.seats) == ["Dee"]
    other = t.claim(game, None, 1, "Android")  # Bob's seat is free again
    assert t.seat_of(game, other) == 1


def test_a_token_the_gadget_never_gave_is_not_taken_over():
    r = started("cartes_sur_table", {"names": NAMES, "secret": True}, "phones_foreign")
    t = table()
    tok = t.claim(r.app.game, "0123456789abcdef", 2, "iPhone")  # from the next table's gadget
    assert tok != "0123456789abcdef" and t.seat_of(r.app.game, tok) == 2


def test_seats_are_kept_by_name_across_games_and_a_name_two_players_share_is_not_held():
    r = started("cartes_sur_table", {"names": NAMES, "secret": True}, "phones_names")
    t = table()
    tok = t.claim(r.app.game, None, 1, "iPhone")
    assert lifecycle.start(r.app, "contrast", {"names": ["Cy", "Bob", "Bob"]}) is None
    r.advance(100)
    game = r.app.game
    assert t.seat_of(game, tok) == -1  # two Bobs: which seat is the phone's is not known
    refused(lambda: t.claim(game, None, 1, "Android"), "Two players are called Bob")
    assert lifecycle.start(r.app, "contrast", {"names": ["Cy", "Bob", "Dee"]}) is None
    r.advance(100)
    assert t.seat_of(r.app.game, tok) == 1 and t.mine(r.app.game, tok)["name"] == "Bob"


def test_a_ninth_phone_is_told_the_gadget_serves_eight():
    r = started("cartes_sur_table", {"names": ["A1", "A2", "A3", "A4", "A5", "A6", "A7"],
                                     "secret": True}, "phones_ninth")
    t = table()
    seat_all(t, r.app.game, 7)
    assert lifecycle.start(r.app, "cartes_sur_table", {"names": ["B1", "B2", "B3"],
                                                       "secret": True}) is None
    r.advance(100)
    t.claim(r.app.game, None, 0, "iPhone")
    assert len(t.seats) == PHONES == 8
    refused(lambda: t.claim(r.app.game, None, 1, "iPhone"), "8 phones hold seats", 503)


def test_no_game_no_seat_and_bad_seats():
    r = Rig(support.scratch_dir("phones_nogame"))
    t = table()
    refused(lambda: t.claim(r.app.game, None, 0, "iPhone"), "No game on the gadget")
    assert t.public(None) == {"gadget": "Tablemate-TEST", "game": None}
    assert lifecycle.start(r.app, "scorepad", {"names": ["Ann", "Bob"]}) is None
    r.advance(100)
    for seat in (-1, 2, "0", None, 1.0, [0]):
        refused(lambda: t.claim(r.app.game, None, seat, "iPhone"), "No such seat", 400)
    tok = t.claim(r.app.game, None, 1, "iPhone")
    refused(lambda: t.act(r.app, tok, {"do": "vote", "card": 1}, 0), "Nothing to do on a phone")
    refused(lambda: t.act(r.app, None, {"do": "vote", "card": 1}, 0), "Pick your seat", 403)


def test_the_store_keeps_the_password_and_the_seats_and_drops_what_is_damaged():
    root = support.scratch_dir("phones_store")
    path = root + "/phones.json"
    assert kept.load(path) == (None, {})
    kept.save(path, "abcdefgh2345", {"Ann": ["00000000000000ab", "iPhone"]})
    assert kept.load(path) == ("abcdefgh2345", {"Ann": ["00000000000000ab", "iPhone"]})
    support.write_bytes(path, b'{"password": "short", "seats": {"Ann": ["xyz", "iPhone"], '
                              b'"Bob": ["00000000000000ab", "Android"], "": 3}}')
    assert kept.load(path) == (None, {"Bob": ["00000000000000ab", "Android"]})
    support.write_bytes(path, b'{"password": ')
    assert kept.load(path) == (None, {}) and support.read_bytes(path + ".bad") == \
        b'{"password": '


# -- Cartes sur Table: the secret ballot ---------------------------------------------------
def secret_game(root_name, names=NAMES):
    r = started("cartes_sur_table", {"names": names, "secret": True}, root_name)
    t = table()
    return r, t, seat_all(t, r.app.game, len(names))


def test_a_phones_vote_is_a_sealed_vote_and_the_reveal_the_gadgets():
    r, t, toks = secret_game("phones_ballot")
    app = r.app
    for p, card in ((0, 1), (1, 2), (2, 1), (3, 3), (4, 1)):
        t.act(app, toks[p], {"do": "vote", "card": card}, 0)
    r.advance(50)
    lines = journal(r)
    assert [line[:2] for line in lines] == [["seal", p] for p in range(5)]
    assert r.app.top().view == 3  # ALL_IN: "All votes in / OK: reveal", on the gadget
    r.press(K.OK)
    assert journal(r)[-1] == ["reveal", [1, 2, 1, 3, 1]]
    last = app.game.state["last"]
    assert last["card"] == 1 and last["scored"] == [0, 2, 4]


def test_a_vote_can_be_changed_until_the_reveal_and_the_phone_sees_its_own():
    r, t, toks = secret_game("phones_change")
    app = r.app
    got = t.mine(app.game, toks[1])
    assert got["vote"] is None and got["can"] == "vote"
    t.act(app, toks[1], {"do": "vote", "card": 2}, 0)
    assert t.mine(app.game, toks[1])["vote"] == 2
    t.act(app, toks[1], {"do": "vote", "card": 4}, 0)
    assert t.mine(app.game, toks[1])["vote"] == 4
    for p in (0, 2, 3, 4):
        t.act(app, toks[p], {"do": "vote", "card": 1}, 0)
    r.advance(50)
    r.press(K.OK)
    assert app.game.state["last"]["votes"] == [1, 4, 1, 1, 1]


def test_a_phone_sees_nothing_of_the_other_votes():
    """Two tables, the same seats and the same phone votes for Ann, different votes for the
    others: everything Ann's phone and an unseated phone can read is the same."""
    seen = []
    for k, others in enumerate(((1, 1, 1, 1), (2, 3, 4, 2))):
        r, t, toks = secret_game("phones_secret%d" % k)
        app = r.app
        t.act(app, toks[0], {"do": "vote", "card": 3}, 0)
        views = []
        for p in range(1, 5):
            t.act(app, toks[p], {"do": "vote", "card": others[p - 1]}, 0)
            r.advance(20)
            views.append((json.dumps(t.public(app.game)), json.dumps(t.mine(app.game, toks[0])),
                          json.dumps(t.mine(app.game, None))))
        seen.append(views)
        assert t.mine(app.game, toks[2])["vote"] == others[1]  # (the other phones do see theirs)
    assert seen[0] == seen[1]
    assert '"vote": 3' in seen[0][-1][1]


def test_a_phones_vote_leaves_the_gadgets_own_picker_and_result_alone():
    r, t, toks = secret_game("phones_picker")
    app = r.app
    screen = app.top()
    r.press(K.OK)  # Ann's picker, on the gadget
    assert screen.view == 2 and screen.voter == 0
    cur = screen.cur
    t.act(app, toks[3], {"do": "vote", "card": 2}, 0)
    assert (screen.view, screen.voter, screen.cur) == (2, 0, cur)
    r.press(K.OK)  # Ann votes on the gadget
    assert app.game.state["sealed"][0] is not None and screen.view == 1 and screen.voter == 1
    for p in (1, 2, 4):
        t.act(app, toks[p], {"do": "vote", "card": 1}, 0)
    r.advance(30)
    r.press(K.OK)  # the reveal: the result shows
    assert screen.view == 5
    t.act(app, toks[1], {"do": "vote", "card": 1}, 0)  # the next Patient's ballot, at once
    assert screen.view == 5 and app.game.state["sealed"][1] is not None
    r.press(K.OK)
    assert screen.view == 1  # on to the next voter the gadget asks for


def test_after_a_power_cut_a_phone_is_told_to_vote_again():
    r, t, toks = secret_game("phones_cut")
    t.act(r.app, toks[2], {"do": "vote", "card": 2}, 0)
    r.advance(30)
    r2 = Rig(r.root)  # the power went: a new app on the same flash
    for _ in range(4):  # "Resume game?" yes, then the notice of the lost vote
        if r2.top() != "CartesSurTable":
            r2.press(K.OK)
            r2.advance(200)
    assert r2.top() == "CartesSurTable"
    game = r2.app.game
    got = t.mine(game, toks[2])
    assert got["vote"] is None and got["lost"] is True and got["can"] == "vote"
    t.act(r2.app, toks[2], {"do": "vote", "card": 3}, 0)
    got = t.mine(r2.app.game, toks[2])
    assert got["vote"] == 3 and got["lost"] is False


def test_a_tie_is_settled_by_the_patients_phone_only():
    r, t, toks = secret_game("phones_tie", ["Ann", "Bob", "Cy", "Dee"])
    app = r.app
    for p, card in ((0, 1), (1, 2), (2, 1), (3, 2)):
        t.act(app, toks[p], {"do": "vote", "card": card}, 0)
    r.advance(30)
    r.press(K.OK)
    assert app.game.state["tie"] == [1, 2]
    assert t.mine(app.game, toks[0])["can"] == "tiebreak"
    assert t.mine(app.game, toks[1])["can"] == "wait"
    refused(lambda: t.act(app, toks[1], {"do": "tiebreak", "card": 1}, 0), "The Patient settles")
    refused(lambda: t.act(app, toks[0], {"do": "tiebreak", "card": 3}, 0), "No such card", 400)
    refused(lambda: t.act(app, toks[1], {"do": "vote", "card": 1}, 0), "Patient: settle tie")
    t.act(app, toks[0], {"do": "tiebreak", "card": 2}, 0)
    r.advance(30)
    assert journal(r)[-1] == ["tiebreak", 2] and app.game.state["points"] == [0, 1, 0, 1]


def test_bad_requests_are_refused_and_change_nothing():
    r, t, toks = secret_game("phones_bad")
    app = r.app
    for ask in ({}, {"do": "vote"}, {"do": "vote", "card": 0}, {"do": "vote", "card": 5},
                {"do": "vote", "card": "1"}, {"do": "vote", "card": True},
                {"do": "vote", "card": [1]}, {"do": "reveal", "card": 1},
                {"do": "pick", "symbol": "red"}):
        try:
            t.act(app, toks[0], ask, 0)
        except (Refused, RuleError):
            continue
        raise AssertionError("taken: %r" % ask)
    assert app.game.count == 0 and app.game.secret == {}


# -- Contrast: held picks ---------------------------------------------------------------------
def contrast_game(root_name, phones, names=NAMES):
    r = started("contrast", {"names": names}, root_name)
    t = table()
    toks = {}
    for p in phones:
        toks[p] = t.claim(r.app.game, None, p, "Android")
        t.opened(toks[p])
    return r, t, toks


def test_picks_wait_until_every_phone_picked_then_play_in_seat_order():
    r, t, toks = contrast_game("phones_picks", range(5))
    app = r.app
    picks = ["square", "red", "square", "big", "red"]
    for p in (3, 1, 4, 0):
        t.act(app, toks[p], {"do": "pick", "symbol": picks[p]}, 0)
        assert app.game.count == 0 and journal(r) == []
        pub = t.public(app.game)
        assert "square" not in json.dumps(pub) and "red" not in json.dumps(pub)
    t.act(app, toks[1], {"do": "pick", "symbol": "heavy"}, 0)  # Bob changes his mind
    assert t.mine(app.game, toks[1])["pick"] == "heavy"
    t.act(app, toks[2], {"do": "pick", "symbol": picks[2]}, 0)
    r.advance(50)
    assert journal(r) == [["pick", 0, "square"], ["pick", 1, "heavy"], ["pick", 2, "square"],
                          ["pick", 3, "big"], ["pick", 4, "red"]]
    assert app.game.state["last"]["winners"] == [0, 2]


def test_a_seat_without_a_phone_is_entered_on_the_gadget_in_its_turn():
    r, t, toks = contrast_game("phones_mixed", (0, 1, 3, 4))
    app = r.app
    for p, s in ((0, "round"), (1, "round"), (3, "wide"), (4, "round")):
        t.act(app, toks[p], {"do": "pick", "symbol": s}, 0)
    r.advance(50)
    assert journal(r) == [["pick", 0, "round"], ["pick", 1, "round"]]  # up to Cy, no phone
    w = t.waiting(app.game, 0)
    assert w == ([], [2])
    r.press(K.OK)  # Cy's pick on the gadget's grid
    t.flush(app, 0)  # the server's poll
    r.advance(50)
    assert [line[:2] for line in journal(r)] == [["pick", p] for p in range(5)]
    assert journal(r)[3:] == [["pick", 3, "wide"], ["pick", 4, "round"]]


def test_a_phone_that_left_is_not_waited_for():
    r, t, toks = contrast_game("phones_left", range(3), ["Ann", "Bob", "Cy"])
    app = r.app
    t.act(app, toks[0], {"do": "pick", "symbol": "red"}, 0)
    t.act(app, toks[2], {"do": "pick", "symbol": "red"}, 0)
    assert t.waiting(app.game, 0) == ([1], [])
    t.closed(toks[1], 5000)  # Bob's page closed
    assert t.waiting(app.game, 5500) == ([1], [])  # a reload takes a moment
    t.flush(app, 5500)
    assert app.game.count == 0
    assert t.waiting(app.game, 6000) == ([], [1])
    t.flush(app, 6000)
    r.advance(30)
    assert journal(r) == [["pick", 0, "red"]]  # Bob's turn: the gadget enters or skips him
    t.opened(toks[1])  # he is back: his pick is held again until it comes
    refused(lambda: t.act(app, toks[0], {"do": "pick", "symbol": "big"}, 6000), "Your pick is in")
    t.act(app, toks[1], {"do": "pick", "symbol": "blue"}, 6000)
    r.advance(50)
    assert journal(r)[1:] == [["pick", 1, "blue"], ["pick", 2, "red"]]


def test_a_phone_offers_the_hand_and_a_pick_off_it_is_still_taken():
    r, t, toks = contrast_game("phones_hand", range(3), ["Ann", "Bob", "Cy"])
    app = r.app
    for p in range(3):
        t.act(app, toks[p], {"do": "pick", "symbol": "red"}, 0)
    r.advance(50)
    got = t.mine(app.game, toks[0])
    assert got["can"] == "pick" and "red" in got["out"] and "yellow" in got["out"]
    t.act(app, toks[0], {"do": "pick", "symbol": "yellow"}, 0)  # the gadget takes it too
    assert t.mine(app.game, toks[0])["pick"] == "yellow"
    refused(lambda: t.act(app, toks[1], {"do": "pick", "symbol": "purple"}, 0),
            "No such symbol", 400)


def test_the_gadgets_buttons_come_first():
    r, t, toks = contrast_game("phones_buttons", range(3), ["Ann", "Bob", "Cy"])
    app = r.app
    t.act(app, toks[0], {"do": "pick", "symbol": "big"}, 0)  # held
    r.press(K.OK)  # the gadget enters Ann's pick itself (the grid's cursor: red)
    r.advance(30)
    assert journal(r) == [["pick", 0, "red"]]
    got = t.mine(app.game, toks[0])
    assert got["pick"] == "red" and got["can"] == "wait"
    for p in (1, 2):
        t.act(app, toks[p], {"do": "pick", "symbol": "big"}, 0)
    r.advance(30)
    assert journal(r)[1:] == [["pick", 1, "big"], ["pick", 2, "big"]]


def test_an_undo_on_the_gadget_opens_the_seat_on_its_phone_again():
    r, t, toks = contrast_game("phones_undo", range(3), ["Ann", "Bob", "Cy"])
    app = r.app
    for p in range(3):
        t.act(app, toks[p], {"do": "pick", "symbol": "big" if p else "red"}, 0)
    r.advance(30)
    assert app.game.state["rounds"] == 1
    r.press(K.BACK)
    r.choose("Undo")
    r.advance(30)
    assert journal(r)[-1] == ["undo"] and app.game.state["rounds"] == 0
    assert [t.mine(app.game, toks[p])["can"] for p in range(3)] == ["wait", "wait", "pick"]
    t.act(app, toks[2], {"do": "pick", "symbol": "red"}, 0)
    r.advance(30)
    assert journal(r)[-1] == ["pick", 2, "red"] and app.game.state["rounds"] == 1


# -- an open ballot: held votes ----------------------------------------------------------------
def test_open_ballot_votes_from_phones_wait_for_every_phone():
    r = started("cartes_sur_table", {"names": ["Ann", "Bob", "Cy"]}, "phones_open")
    app = r.app
    t = table()
    toks = seat_all(t, app.game, 3)
    for tok in toks:
        t.opened(tok)
    t.act(app, toks[2], {"do": "vote", "card": 2}, 0)
    t.act(app, toks[0], {"do": "vote", "card": 1}, 0)
    assert app.game.count == 0 and t.public(app.game)["chose"] == [True, False, True]
    assert t.mine(app.game, toks[0])["vote"] == 1
    t.act(app, toks[1], {"do": "vote", "card": 2}, 0)
    r.advance(30)
    assert journal(r) == [["vote", 0, 1], ["vote", 1, 2], ["vote", 2, 2]]

"""Refusals in their words: the scorepad's target and first player (the words every game's
options use: ``tablemate.options.check``) and its held key's limit, a Viewpoint game with too few
cards, and every reason a catalog file's line is left out (``viewpoint_extra.entry``, and
``parse``'s "line N: ..." list, which the game's start shows on the screen).

The words are what players read (a refusal on the message line, the catalog's problems on a
notice), so each is checked exactly, on both VMs; the line just inside each limit is checked to
be accepted, so a refusal is for the value it names and not for a neighbour.
"""

import json

import support
from tablemate import RuleError
from tablemate.rules import scorepad
from tablemate.rules import viewpoint as v
from tablemate.rules import viewpoint_extra as vx


# -- the scorepad's options ---------------------------------------------------------------------
def test_the_scorepad_refuses_a_bad_target():
    for target in (-1, 9996, 100000, "5", True, 2.5, None):
        support.setup_refused(scorepad, {"names": ["Ann", "Bob"], "target": target},
                              "Bad option target")
    for target in (0, 7, 9995):  # any number the setup's entry can reach (it steps by 5)
        assert scorepad.setup({"names": ["Ann", "Bob"], "target": target})["target"] == target


def test_the_scorepad_refuses_a_first_player_who_is_not_there():
    for first in (2, -1, "0", True, None, 1.0):
        support.setup_refused(scorepad, {"names": ["Ann", "Bob"], "first": first},
                              "Bad option first")
    assert scorepad.setup({"names": ["Ann", "Bob"], "first": 1})["turn"] == 1
    support.setup_refused(scorepad, {"names": ["Ann"], "first": 1}, "Bad option first")


def test_the_scorepad_says_limit_reached_past_a_change_of_999_not_at_it():
    """A held LEFT or RIGHT stops the pending change where the rules would refuse it, and says
    "Limit reached"; a change of exactly 999 either way is one the rules take, without a word."""
    from rig import Rig
    from tablemate import keys as K
    rig = Rig(support.scratch_dir("refusals_limit"))
    rig.choose("Scorepad")
    rig.choose("Start")
    pad = rig.app.top()
    for key, sign in ((K.RIGHT, 1), (K.LEFT, -1)):  # from a score of 0, then of 999
        rig.press(key, repeats=60)  # 1, then 9 x 1, 15 x 5 and 36 x 25
        assert pad.pending == sign * 985 and pad.msg.text is None
        for _ in range(14):
            rig.press(key)
        assert pad.pending == sign * 999 and pad.msg.text is None, pad.msg.text
        rig.press(key)
        assert pad.pending == sign * 999 and pad.msg.text == "Limit reached"
        rig.advance(5000)  # committed, and the message gone
        assert pad.pending == 0 and pad.msg.text is None
    assert rig.app.game.state["scores"][0] == 0


# -- Viewpoint: too few cards -------------------------------------------------------------------
def _without(*names):
    """Catalog entries that take the printed cards ``names`` out of the game (0 copies)."""
    out = []
    for c in v.CARDS:
        if c[0] in names:
            out.append(vx.entry(v, {"name": c[0], "value": c[1], "copies": 0}))
    assert len(out) == len(names), names
    return out


def test_a_catalog_that_leaves_too_few_cards_for_the_hands():
    cards = _without("Blindspot", "Blindsided", "Hindsight")  # 42 - 14: 28 cards
    assert sum(c[2] for c in v.catalog(cards)) == 28
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]
    support.setup_refused(v, {"names": names, "cards": cards}, "Too few cards")  # 6 x 5 = 30
    s = v.setup({"names": names[:5], "cards": cards})  # 5 x 5 = 25: enough
    assert v.pile(s) == 28 - 25 - 1 and sum(v.hands(s)) == 26
    support.setup_refused(v, {"names": names[:2], "cards": _without(*[c[0] for c in v.CARDS])},
                          "Too few cards")  # no card at all


# -- Viewpoint: a catalog file's lines ----------------------------------------------------------
def _entry_refused(obj, message):
    try:
        vx.entry(v, obj)
    except RuleError as e:
        assert str(e) == message, (obj, str(e))
        return
    assert False, "accepted %r" % (obj,)


def test_a_catalog_line_needs_a_name():
    for name in (None, "", "   ", "A" * 21, 7, ["Wink"]):
        obj = {"value": 1} if name is None else {"name": name, "value": 1}
        _entry_refused(obj, "bad name")
    assert vx.entry(v, {"name": "A" * 20, "value": 1})[0] == "A" * 20


def test_a_catalog_line_needs_a_value():
    for value in (None, "5", 1000, -100, True, 2.5):
        obj = {"name": "Dud"} if value is None else {"name": "Dud", "value": value}
        _entry_refused(obj, "bad value")
    assert [vx.entry(v, {"name": "Dud", "value": n})[1] for n in (-99, 999)] == [-99, 999]


def test_a_catalog_lines_copies():
    for copies in (-1, 21, "2", True, None):
        _entry_refused({"name": "Dud", "value": 1, "copies": copies}, "bad copies")
    assert [vx.entry(v, {"name": "Dud", "value": 1, "copies": n})[2] for n in (0, 20)] == [0, 20]
    assert vx.entry(v, {"name": "Dud", "value": 1})[2] == 1


def test_a_catalog_lines_actions():
    for actions in ("draw 1", ["fly"], ["draw 10"], ["draw 0"], ["draw two"], ["draw 1 2"],
                    [""], [3], ["draw 1"] * 5, None):
        _entry_refused({"name": "Dud", "value": 1, "actions": actions}, "bad actions")
    got = vx.entry(v, {"name": "Dud", "value": 1, "actions": ["draw 9", "swap", "steal 2", "miss"]})
    assert got[3] == [["draw", 9], ["swap", 1], ["steal", 2], ["miss", 1]]


def test_a_catalog_lines_reveal_actions():
    for reveal in ("steal 1", ["peek"], ["steal 10"], ["steal 1"] * 5, None):
        _entry_refused({"name": "Dud", "value": 1, "reveal": reveal}, "bad reveal")
    got = vx.entry(v, {"name": "Dud", "value": 1, "reveal": ["steal 1"]})
    assert got[4] == v.REVEAL and got[5] == [["steal", 1]]


def test_where_a_revealed_card_goes():
    for then in ("table", "", 0, None, "Hand"):
        _entry_refused({"name": "Dud", "value": 1, "then": then}, "bad then")
    assert [vx.entry(v, {"name": "Dud", "value": 1, "then": t})[6] for t in vx.THEN] == list(vx.THEN)


def test_a_catalog_lines_flags():
    _entry_refused({"name": "Dud", "value": 1, "nodestroy": 1}, "bad nodestroy")
    _entry_refused({"name": "Dud", "value": 1, "cancel": "yes"}, "bad cancel")


def test_a_catalog_line_with_a_key_the_catalog_does_not_know():
    _entry_refused({"name": "Dud", "value": 1, "colour": "red"}, "unknown key colour")
    _entry_refused({"name": "Dud", "value": 1, "description": "x"}, "unknown key descript")
    _entry_refused({"value": 1, "colour": "red"}, "unknown key colour")  # before its name
    _entry_refused([1, 2], "not a {...} object")


def test_parse_names_each_bad_line_by_its_number():
    lines = ['# the cards of a house rule', '',
             '{"name": "", "value": 1}',
             '{"name": "Dud", "value": "ten"}',
             '{"name": "Dud", "value": 1, "copies": 30}',
             '{"name": "Dud", "value": 1, "actions": ["fly"]}',
             '{"name": "Dud", "value": 1, "then": "table"}',
             '{"name": "Dud", "value": 1, "colour": "red"}',
             '{"name": "Dud", "value": 1, "reveal": ["peek"]}',
             '{"name": "Dud", ',
             '   {"name": "Wink", "value": 0, "copies": 2, "cancel": true}   ']
    entries, problems = vx.parse(v, lines, json.loads)
    assert problems == ["line 3: bad name", "line 4: bad value", "line 5: bad copies",
                        "line 6: bad actions", "line 7: bad then", "line 8: unknown key colour",
                        "line 9: bad reveal", "line 10: not JSON"], problems
    assert entries == [["Wink", 0, 2, [], v.CANCEL, [], "discard"]]

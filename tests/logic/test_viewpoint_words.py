"""What the Viewpoint screen says about what the device did by itself, on both VMs: the message
line after an action of every player (a catalog card's "all"/"others") and the game log's lines
for it."""

import json

from tablemate.rules import viewpoint as v
from tablemate.rules import viewpoint_extra as vx
from tablemate.screens import viewpoint as screen
from tablemate.screens.viewpoint_menu import describe

NAMES = ["Ann", "Bob", "Cid", "Dee"]


def _game(line, names=NAMES):
    cards, problems = vx.parse(v, [line], json.loads)
    assert problems == [], problems
    return v.setup({"names": names, "first": 0, "cards": cards})


def _played(s):
    """The events of the card just played (after its "play" event)."""
    log = v.log(s)
    for i in range(len(log) - 1, -1, -1):
        if log[i][0] == "play":
            return log[i + 1:]
    assert False, log


def test_every_player_doing_the_same_is_one_line():
    s = _game('{"name": "Rain", "value": 5, "actions": ["all draw 1", "others discard 1"]}')
    v.apply(s, ["play", 0, 13])
    told = _played(s)
    assert screen.tell(s, told) == "All but Ann discard 1"  # the last action's
    assert screen.tell(s, told[:4]) == "Everyone draws 1"
    assert [describe(s, ev) for ev in told[3:5]] == ["Dee draws 1", "Bob discards 1"]


def test_counts_that_differ_are_listed():
    s = _game('{"name": "Rain", "value": 5, "actions": ["all draw 2"]}')
    for _ in range(v.pile(s) - 3):
        v.apply(s, ["move", "pile", "discard", -1])
    v.apply(s, ["play", 0, 13])  # three cards for four players drawing two
    assert screen.tell(s, _played(s)) == "Drawn: Ann 2, Bob 1, Cid 0, Dee 0"
    long = ["Annabell", "Bobbie", "Cidney", "Deirdre"]  # on two lines, by initials
    s = _game('{"name": "Rain", "value": 5, "actions": ["all draw 2"]}', long)
    for _ in range(v.pile(s) - 3):
        v.apply(s, ["move", "pile", "discard", -1])
    v.apply(s, ["play", 0, 13])
    assert screen.tell(s, _played(s)) == "Drawn: A 2, B 1, C 0, D 0"


def test_a_pass_says_to_whom():
    s = _game('{"name": "Swirl", "value": 0, "actions": ["all passright 1"]}')
    v.apply(s, ["play", 0, 13])
    told = _played(s)
    assert told[0] == ["give", 0, 3, 1] and describe(s, told[0]) == "Ann passes 1 to Dee"
    assert screen.say(s, told[1]) == "Bob passes 1 to Ann"
    assert screen.tell(s, told) == "Everyone passes 1"
    assert screen.tell(s, told[:1]) == "Ann passes 1 to Dee"

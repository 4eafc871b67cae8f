"""Orderings both VMs must agree on: each place in firmware/ that orders things by a key, with
keys that tie.

MicroPython's ``list.sort`` is not stable (CPython's is) and its dicts do not keep the order
they were built in: a key that can tie, or a dict walked in order, gives the Pico another order
than the host, and the screen another proposal. Every case here has equal keys and a fixed
expected answer, so it fails on the VM that orders differently. ``tests/host/test_sort_keys.py``
checks that every keyed sort in firmware/ ends its key with the item itself.
"""

import json

from tablemate.rules import viewpoint as v
from tablemate.rules import viewpoint_extra as vx
from tablemate.screens import viewpoint as screen
from tablemate.flow.standings import ranking

(EYE, BLACKOUT, SPOT, SIDED, BLINK, BLUR, CROSS, SPY, HIND, INSIGHT, MIRAGE, MIRROR,
 PERI) = range(13)


def _view(cards):
    s = v.setup({"names": ["Ann", "Bob", "Cid"], "first": 0})
    for c in cards:
        v.apply(s, ["move", "pile", "v0", c])
    return s


def test_a_swap_offers_equal_cards_in_the_catalogs_order():
    # Seven cards worth 10, laid out in another order than the catalog's: the unstable sort
    # gave the VM [Insight, All-Seeing Eye, Blurred Vision, Blindsided, Peripheral Vision, ...].
    s = _view([PERI, MIRAGE, BLINK, EYE, INSIGHT, BLUR, SIDED, SPOT, HIND, CROSS])
    assert screen.own_cards(s, 0) == [CROSS, EYE, SIDED, BLINK, BLUR, INSIGHT, MIRAGE, PERI,
                                      SPOT, HIND]
    s = _view([MIRAGE, PERI])  # the pair
    assert screen.own_cards(s, 0) == [MIRAGE, PERI]
    s = _view([PERI, MIRAGE])
    assert screen.own_cards(s, 0) == [MIRAGE, PERI]


def test_the_card_picker_proposes_the_catalogs_first_among_equals():
    s = v.setup({"names": ["Ann", "Bob"], "first": 0})
    for c in (SPOT, SPOT):  # Blindspot's six down to four: tied with four other cards
        v.apply(s, ["move", "pile", "v1", c])
    assert v.likeliest(s) == SPOT
    v.apply(s, ["move", "pile", "v1", SPOT])
    assert v.likeliest(s) == SIDED  # Blindsided, Hindsight, Insight, Mirage and Peripheral
    # Vision have four each: the catalog's first


def test_a_suggestion_among_equal_keys_is_the_first_clockwise():
    s = v.setup({"names": ["Ann", "Bob", "Cid", "Dee"], "first": 0})
    v.apply(s, ["play", 0, SPOT])  # Bob, Cid and Dee: no Viewpoints, five cards each
    assert v.choices(s) == [1, 2, 3] and screen.suggest(s) == 0


def test_standings_rank_equal_scores_in_seat_order():
    assert ranking([5, 9, 5, 9, 5]) == [(1, 1), (1, 3), (3, 0), (3, 2), (3, 4)]
    assert ranking([7, 7, 7], [2, 0]) == [(1, 0), (1, 2), (3, 1)]


def test_a_catalog_line_with_two_unknown_keys_names_the_first_by_name():
    # A dict's order is not the line's: the VM named "size", CPython "colour".
    for line in ('{"name": "Odd", "value": 1, "colour": "red", "size": 2}',
                 '{"name": "Odd", "value": 1, "size": 2, "colour": "red"}'):
        assert vx.parse(v, [line], json.loads) == ([], ["line 1: unknown key colour"]), line

"""Viewpoint: the catalog, setup, every card's effect, win timing, the cards running out,
cancel and reveal cards from a catalog file, corrections, refusals, whole recorded games."""

import json

import support
from tablemate.rules import viewpoint as v
from tablemate.rules import viewpoint_extra as vx
from tablemate.store.game import Game

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]
# The printed cards, by catalog index.
(EYE, BLACKOUT, SPOT, SIDED, BLINK, BLUR, CROSS, SPY, HIND, INSIGHT, MIRAGE, MIRROR,
 PERI) = range(13)


def _refused(state, action, message):
    support.refused(v, state, action, message)


def _setup_refused(opts, message):
    support.setup_refused(v, opts, message)


def _new(n=2, first=0, cards=None):
    opts = {"names": NAMES[:n], "first": first}
    if cards is not None:
        opts["cards"] = cards
    return v.setup(opts)




def _cards(state):
    """Every card the state accounts for: hands, pile, views, the discard pile."""
    seen, gone = v.discard(state)
    views = 0
    for p in range(len(v.names(state))):
        views += len(v.view(state, p))
    return sum(v.hands(state)) + v.pile(state) + views + len(seen) + gone


def _lay(state, seat, cards):
    """Lay cards from the draw pile in a player's view (corrections)."""
    for c in cards:
        v.apply(state, ["move", "pile", "v%d" % seat, c])


def _hand_to(state, seat, k):
    while v.hands(state)[seat] > k:
        v.apply(state, ["move", "h%d" % seat, "pile", -1])
    while v.hands(state)[seat] < k:
        v.apply(state, ["move", "pile", "h%d" % seat, -1])


def _pile_to(state, k):
    while v.pile(state) > k:
        v.apply(state, ["move", "pile", "discard", -1])


def _since(state, event):
    """The log's events after the last one equal to ``event``."""
    log = v.log(state)
    for i in range(len(log) - 1, -1, -1):
        if log[i] == event:
            return log[i + 1:]
    assert False, (event, log)


# --- the catalog and setup ----------------------------------------------------------------------

def test_catalog_is_the_printed_list_of_42_cards():
    assert len(v.CARDS) == 13 and sum(c[2] for c in v.CARDS) == 42
    printed = [("All-Seeing Eye", 10, 2), ("Blackout", 0, 1), ("Blindspot", 20, 6),
               ("Blindsided", 10, 4), ("Blink", 10, 3), ("Blurred Vision", 10, 3),
               ("Cross-eyed", -5, 2), ("Eye Spy", 0, 3), ("Hindsight", 20, 4),
               ("Insight", 10, 4), ("Mirage", 10, 4), ("Mirror Image", 0, 2),
               ("Peripheral Vision", 10, 4)]
    assert [(c[0], c[1], c[2]) for c in v.CARDS] == printed
    assert [[list(a) for a in c[3]] for c in v.CARDS] == [
        [["take", 1]], [["discard", 3]], [["discard", 1]], [["miss", 1]], [["draw", 2]],
        [["discard", 2]], [["exchange", 1]], [["steal", 2]], [["recall", 1]], [["steal", 1]],
        [["destroy", 1]], [["mirror", 1]], [["swap", 1]]]
    assert [c for c in range(13) if v.CARDS[c][4]] == [HIND]  # only Hindsight is flagged
    s = _new()
    assert vx.cancellers(v, s) == [] and vx.revealers(v, s) == []


def test_setup_deals_five_and_the_first_player_draws():
    for n in range(2, 7):
        s = _new(n)
        assert v.pile(s) == 42 - 5 * n - 1, n
        assert v.hands(s) == [6] + [5] * (n - 1)
        assert v.turn(s) == 0 and v.turns(s) == 1 and v.prompt(s) is None
        assert v.scores(s) == [0] * n and v.result(s) is None and v.outcome(s) is None
        assert v.discard(s) == ([], 0) and v.missing(s) == [False] * n
        assert _cards(s) == 42 and json.loads(json.dumps(s)) == s
    s = _new(4, first=2)
    assert v.turn(s) == 2 and v.hands(s) == [5, 5, 6, 5] and v.pile(s) == 21
    _refused(s, ["play", 0, BLINK], "It is Cid's turn")


def test_setup_refusals():
    _setup_refused(None, "Bad options")
    _setup_refused({"names": ["Ann"]}, "Need 2-6 players")
    _setup_refused({"names": NAMES + ["Gus"]}, "Need 2-6 players")
    _setup_refused({}, "Need 2-6 players")
    _setup_refused({"names": ["Ann", ""]}, "Bad player name")
    _setup_refused({"names": ["Ann", "Christopher"]}, "Bad player name")
    for first in (2, -1, "1", True, None):
        _setup_refused({"names": ["Ann", "Bob"], "first": first}, "Bad option first")


def test_the_card_picker_keeps_the_catalog_order_and_proposes_the_most_copies():
    # The order is the catalog's whatever has been seen; a card leaves it once every copy is in
    # view or seen discarded. The proposal: the most copies unseen, the catalog's first among
    # equals (the same on both VMs: no sort).
    s = _new()
    every = list(range(len(v.CARDS)))
    assert v.held(s) == every and v.likeliest(s) == SPOT
    for _ in range(3):  # three Blindspots seen: 3 left, Blindsided's 4 lead
        p = v.turn(s)
        v.apply(s, ["play", p, SPOT])
        v.apply(s, ["target", p, v.choices(s)[0]])
        assert v.held(s) == every
    assert v.likeliest(s) == SIDED
    p = v.turn(s)
    v.apply(s, ["play", p, BLACKOUT])  # its one copy: it leaves the list, the rest stay put
    assert v.held(s) == [c for c in every if c != BLACKOUT]
    assert v.likeliest(s) == SIDED


def test_the_card_picker_takes_the_unseen_counts_a_screen_already_has():
    # The screen counts the unseen copies once per card played and hands the count to both
    # (one walk over the views instead of two, in the press); the answers are the same.
    s = _new()
    for _ in range(4):
        left = v.unseen(s)
        assert v.held(s, left) == v.held(s) and v.likeliest(s, left) == v.likeliest(s)
        p = v.turn(s)
        v.apply(s, ["play", p, SPOT])
        v.apply(s, ["target", p, v.choices(s)[0]])
    left = [0] * len(v.CARDS)  # what is passed is what counts: nothing left, nothing proposed
    assert v.held(s, left) == [] and v.likeliest(s, left) is None


# --- every card's effect ------------------------------------------------------------------------

def test_blink_draws_two_and_partly_when_the_pile_runs_low():
    s = _new()
    v.apply(s, ["play", 0, BLINK])
    assert _since(s, ["play", 0, BLINK]) == [["draw", 0, 2]]
    assert v.view(s, 0) == [BLINK] and v.scores(s) == [10, 0]
    assert v.hands(s) == [7, 6] and v.pile(s) == 28 and v.turn(s) == 1  # Bob has drawn
    for left in (1, 0):
        s = _new()
        _pile_to(s, left)
        v.apply(s, ["play", 0, BLINK])
        assert _since(s, ["play", 0, BLINK]) == [["draw", 0, left]]
        assert v.hands(s) == [5 + left, 5] and v.pile(s) == 0 and v.turn(s) == 1
        assert _cards(s) == 42


def test_discards_are_partial_and_counted_unseen():
    # Cid is the target: Bob, the next player, draws at once and Cid's hand stays as it is.
    for card, held, k in ((SPOT, 5, 1), (BLUR, 5, 2), (BLACKOUT, 1, 1)):
        s = _new(3)
        _hand_to(s, 2, held)
        v.apply(s, ["play", 0, card])
        assert v.prompt(s) == [0, "discard", v.CARDS[card][3][0][1], card]
        assert v.choices(s) == [1, 2]
        v.apply(s, ["target", 0, 2])
        assert _since(s, ["play", 0, card]) == [["discard", 0, 2, k]], card
        assert v.hands(s) == [5, 6, held - k] and v.discard(s) == ([], k)
        assert v.turn(s) == 1 and _cards(s) == 42


def test_steals_move_cards_between_hands_partly_when_short():
    s = _new(3)
    v.apply(s, ["play", 0, INSIGHT])
    assert v.prompt(s) == [0, "steal", 1, INSIGHT]
    v.apply(s, ["target", 0, 2])
    assert v.hands(s) == [6, 6, 4] and _since(s, ["play", 0, INSIGHT]) == [["steal", 0, 2, 1]]
    s = _new(3)
    _hand_to(s, 2, 1)
    v.apply(s, ["play", 0, SPY])
    v.apply(s, ["target", 0, 2])
    assert _since(s, ["play", 0, SPY]) == [["steal", 0, 2, 1]]
    assert v.hands(s)[0] == 6 and v.hands(s)[2] == 0 and _cards(s) == 42


def test_a_steal_or_a_discard_aims_only_at_a_hand_with_cards():
    # Bob holds nothing, Cid does: "all possible actions must be performed", so Cid it is.
    for card in (SPOT, BLUR, BLACKOUT, INSIGHT, SPY):
        s = _new(3)
        _hand_to(s, 1, 0)
        v.apply(s, ["play", 0, card])
        assert v.choices(s) == [2], card
        _refused(s, ["target", 0, 1], "Bob has no cards")
        v.apply(s, ["target", 0, 2])
        assert v.log(s)[-1][:3] == [v.CARDS[card][3][0][0], 0, 2] and v.turn(s) == 1
    # A miss acts on any other player, cards or none.
    s = _new(3)
    _hand_to(s, 1, 0)
    v.apply(s, ["play", 0, SIDED])
    assert v.choices(s) == [1, 2]
    v.apply(s, ["target", 0, 1])
    assert _since(s, ["miss", 0, 1]) == [["missed", 1]] and v.turn(s) == 2


def test_an_exchange_aims_at_any_hand_while_ones_own_has_cards():
    # Ann holds cards: an empty hand is one to give hers to.
    s = _new(3)
    _hand_to(s, 1, 0)
    v.apply(s, ["play", 0, CROSS])
    assert v.choices(s) == [1, 2]
    v.apply(s, ["target", 0, 1])
    assert v.hands(s) == [0, 6, 5] and v.turn(s) == 1  # Bob: Ann's five and his draw
    # Ann played her last card: an exchange with an empty hand would exchange nothing.
    s = _new(3)
    _hand_to(s, 0, 1)
    _hand_to(s, 1, 0)
    v.apply(s, ["play", 0, CROSS])
    assert v.choices(s) == [2]
    _refused(s, ["target", 0, 1], "Bob has no cards")
    v.apply(s, ["target", 0, 2])
    assert v.hands(s) == [5, 1, 0] and v.turn(s) == 1


def test_cross_eyed_exchanges_the_hand_counts():
    s = _new(3)
    _hand_to(s, 2, 2)
    v.apply(s, ["play", 0, CROSS])
    assert v.prompt(s) == [0, "exchange", 1, CROSS]
    v.apply(s, ["target", 0, 2])
    assert _since(s, ["play", 0, CROSS]) == [["exchange", 0, 2]]
    assert v.hands(s) == [2, 6, 5] and v.scores(s) == [-5, 0, 0] and v.turn(s) == 1


def test_all_seeing_eye_takes_a_card_from_another_view():
    s = _new(3)
    _lay(s, 1, [SPOT])
    _lay(s, 2, [CROSS])
    v.apply(s, ["play", 0, EYE])
    assert v.prompt(s) == [0, "take", 1, EYE] and v.choices(s) == [[1, SPOT], [2, CROSS]]
    _refused(s, ["card", 0, 0, EYE], "Already yours")
    _refused(s, ["card", 0, 1, BLINK], "No Blink there")
    _refused(s, ["target", 0, 1], "Expected: card")
    v.apply(s, ["card", 0, 1, SPOT])
    assert v.view(s, 0) == [EYE, SPOT] and v.view(s, 1) == [] and v.scores(s) == [30, 0, -5]
    assert _since(s, ["play", 0, EYE]) == [["take", 0, 1, SPOT]] and v.turn(s) == 1


def test_mirage_destroys_a_card_in_any_view_including_ones_own():
    s = _new()
    _lay(s, 0, [SPOT])
    _lay(s, 1, [BLINK, HIND])
    v.apply(s, ["play", 0, MIRAGE])
    assert v.choices(s) == [[0, SPOT], [0, MIRAGE], [1, BLINK]]  # not the Hindsight
    _refused(s, ["card", 0, 1, HIND], "Cannot be destroyed")
    v.apply(s, ["card", 0, 0, SPOT])
    assert v.view(s, 0) == [MIRAGE] and v.discard(s) == ([SPOT], 0)
    assert _since(s, ["play", 0, MIRAGE]) == [["destroy", 0, 0, SPOT]]
    assert v.unseen(s)[SPOT] == 5 and _cards(s) == 42


def test_peripheral_vision_swap_moves_25_between_the_totals():
    s = _new()
    _lay(s, 0, [SPOT])
    _lay(s, 1, [CROSS, BLINK])
    v.apply(s, ["play", 0, PERI])
    assert v.scores(s) == [30, 5] and v.choices(s) == [[1, CROSS], [1, BLINK]]
    _refused(s, ["swap", 0, BLINK, 1, CROSS], "No Blink there")
    _refused(s, ["swap", 0, SPOT, 1, SPOT], "No Blindspot there")
    _refused(s, ["swap", 0, SPOT, 0, PERI], "Another player")
    v.apply(s, ["swap", 0, SPOT, 1, CROSS])
    assert v.scores(s) == [5, 30] and v.view(s, 0) == [PERI, CROSS]
    assert v.view(s, 1) == [BLINK, SPOT]
    assert _since(s, ["play", 0, PERI]) == [["swap", 0, SPOT, 1, CROSS]]


def test_hindsight_recalls_another_card_of_ones_own():
    s = _new()
    _lay(s, 0, [SPOT])
    _lay(s, 1, [BLINK])
    v.apply(s, ["play", 0, HIND])
    assert v.prompt(s) == [0, "recall", 1, HIND] and v.choices(s) == [[0, SPOT]]
    _refused(s, ["card", 0, 0, HIND], "Pick another card")
    _refused(s, ["card", 0, 1, BLINK], "Pick one of yours")
    v.apply(s, ["card", 0, 0, SPOT])
    assert v.view(s, 0) == [HIND] and v.hands(s)[0] == 6 and v.unseen(s)[SPOT] == 6
    assert _since(s, ["play", 0, HIND]) == [["recall", 0, 0, SPOT]]
    # A second Hindsight copy is another card.
    s = _new()
    _lay(s, 0, [HIND])
    v.apply(s, ["play", 0, HIND])
    assert v.choices(s) == [[0, HIND]]
    v.apply(s, ["card", 0, 0, HIND])
    assert v.view(s, 0) == [HIND] and v.hands(s) == [6, 6] and v.turn(s) == 1


def test_blindsided_target_misses_one_turn_without_drawing():
    s = _new(3)
    v.apply(s, ["play", 0, SIDED])
    assert v.prompt(s) == [0, "miss", 1, SIDED]
    v.apply(s, ["target", 0, 2])
    assert v.missing(s) == [False, False, True] and v.turn(s) == 1 and v.pile(s) == 25
    v.apply(s, ["play", 1, BLINK])  # Cid's turn is missed: Ann's comes, she draws
    assert _since(s, ["draw", 1, 2]) == [["missed", 2]]
    assert v.turn(s) == 0 and v.missing(s) == [False] * 3 and v.turns(s) == 4
    assert v.hands(s) == [6, 7, 5] and v.pile(s) == 22
    v.apply(s, ["play", 0, BLINK])
    v.apply(s, ["play", 1, BLINK])
    assert v.turn(s) == 2 and v.hands(s)[2] == 6  # once only


def test_mirror_image_performs_another_cards_actions():
    s = _new()
    _lay(s, 1, [BLINK])
    v.apply(s, ["play", 0, MIRROR])
    assert v.prompt(s) == [0, "mirror", 1, MIRROR] and v.choices(s) == [[1, BLINK]]
    v.apply(s, ["card", 0, 1, BLINK])
    assert _since(s, ["play", 0, MIRROR]) == [["mirror", 0, 1, BLINK], ["draw", 0, 2]]
    assert v.hands(s)[0] == 7 and v.view(s, 1) == [BLINK] and v.turn(s) == 1
    s = _new()
    _lay(s, 0, [SPOT])
    _lay(s, 1, [PERI, CROSS])
    v.apply(s, ["play", 0, MIRROR])
    v.apply(s, ["card", 0, 1, PERI])
    assert v.prompt(s) == [0, "swap", 1, PERI] and v.turn(s) == 0
    v.apply(s, ["swap", 0, SPOT, 1, CROSS])
    assert v.view(s, 0) == [MIRROR, CROSS] and v.view(s, 1) == [PERI, SPOT]
    assert v.turn(s) == 1 and v.prompt(s) is None


def test_mirror_image_refuses_itself_and_other_mirrors():
    s = _new()
    _lay(s, 1, [MIRROR, BLINK])
    v.apply(s, ["play", 0, MIRROR])
    assert v.choices(s) == [[1, BLINK]]
    _refused(s, ["card", 0, 0, MIRROR], "Pick another card")
    # A refusal fits one screen line (21 characters): "Cannot mirror a mirror" has 22.
    _refused(s, ["card", 0, 1, MIRROR], "Can't mirror a mirror")


def test_actions_with_nothing_to_act_on_are_left_out():
    # (card, cards in Bob's view, Bob's hand, the action left out)
    for card, bobs, held, kind in ((EYE, [], 5, "take"), (PERI, [], 5, "swap"),
                                   (HIND, [BLINK], 5, "recall"), (MIRROR, [MIRROR], 5, "mirror"),
                                   (INSIGHT, [], 0, "steal"), (SPY, [], 0, "steal"),
                                   (SPOT, [], 0, "discard"), (BLACKOUT, [], 0, "discard")):
        s = _new()
        _lay(s, 1, bobs)
        _hand_to(s, 1, held)
        v.apply(s, ["play", 0, card])
        assert _since(s, ["play", 0, card]) == [["none", 0, kind]], card
        assert v.turn(s) == 1 and v.prompt(s) is None and v.hands(s) == [5, held + 1]


def test_a_mirage_may_destroy_itself():
    # "DESTROY 1 card in the Viewniverse" (not "another card", as Hindsight and Mirror Image
    # say), and the card is in its player's Field of View before its actions are performed.
    s = _new()
    _lay(s, 1, [BLINK])
    v.apply(s, ["play", 0, MIRAGE])
    assert v.choices(s) == [[0, MIRAGE], [1, BLINK]]
    v.apply(s, ["card", 0, 0, MIRAGE])
    assert v.view(s, 0) == [] and v.view(s, 1) == [BLINK] and v.discard(s) == ([MIRAGE], 0)
    assert _since(s, ["play", 0, MIRAGE]) == [["destroy", 0, 0, MIRAGE]] and v.turn(s) == 1
    assert v.unseen(s)[MIRAGE] == 3 and _cards(s) == 42


def test_a_mirage_with_only_itself_to_destroy_destroys_itself():
    # All possible actions must be performed: the Mirage is the one card it can destroy (an
    # empty table, or only Hindsights beside it), so the device performs it without asking.
    for ann, bob in (([], []), ([HIND], [HIND])):
        s = _new()
        _lay(s, 0, ann)
        _lay(s, 1, bob)
        v.apply(s, ["play", 0, MIRAGE])
        assert _since(s, ["play", 0, MIRAGE]) == [["itself", 0, MIRAGE]], ann
        assert v.view(s, 0) == ann and v.view(s, 1) == bob and v.discard(s) == ([MIRAGE], 0)
        assert v.turn(s) == 1 and v.prompt(s) is None and _cards(s) == 42
    # A second Mirage already laid out is another card: the one played destroys one of the two.
    s = _new()
    _lay(s, 0, [MIRAGE])
    v.apply(s, ["play", 0, MIRAGE])
    assert _since(s, ["play", 0, MIRAGE]) == [["itself", 0, MIRAGE]]
    assert v.view(s, 0) == [MIRAGE] and v.discard(s) == ([MIRAGE], 0)


def test_a_mirrored_mirage_may_destroy_the_mirror_image():
    # Mirror Image performs Mirage's action: the Mirror Image is a card in the Viewniverse too.
    s = _new()
    _lay(s, 1, [MIRAGE])
    v.apply(s, ["play", 0, MIRROR])
    v.apply(s, ["card", 0, 1, MIRAGE])
    assert v.prompt(s) == [0, "destroy", 1, MIRAGE]
    assert v.choices(s) == [[0, MIRROR], [1, MIRAGE]]
    v.apply(s, ["card", 0, 0, MIRROR])
    assert v.view(s, 0) == [] and v.discard(s) == ([MIRROR], 0) and v.turn(s) == 1


# --- winning ------------------------------------------------------------------------------------

def test_reaching_100_at_the_end_of_ones_own_turn_wins():
    s = _new()
    _lay(s, 0, [SPOT, SPOT, SPOT, HIND])
    v.apply(s, ["play", 0, SPOT])
    assert v.result(s) is None and v.scores(s) == [100, 0]  # the discard is still due
    v.apply(s, ["target", 0, 1])
    assert v.result(s) == [0] and v.outcome(s) == "100" and v.turn(s) == -1
    assert v.log(s)[-1] == ["won", 0, "100"] and v.prompt(s) is None
    assert v.summary(s) == {"names": ["Ann", "Bob"], "scores": [100, 0], "winners": [0],
                            "turns": 1, "outcome": "100"}
    _refused(s, ["play", 1, BLINK], "Game is over")
    _refused(s, ["move", "pile", "h1", -1], "Game is over")


def test_pushed_to_100_by_another_wins_only_at_the_end_of_ones_own_turn():
    # By a swap (Bob's -5 for Ann's 20) and by a take (Ann takes Bob's -5).
    for card, answer in ((PERI, ["swap", 0, SPOT, 1, CROSS]), (EYE, ["card", 0, 1, CROSS])):
        s = _new()
        _lay(s, 0, [SPOT])
        _lay(s, 1, [SPOT, SPOT, SPOT, SPOT, HIND, CROSS])
        assert v.scores(s)[1] == 95
        v.apply(s, ["play", 0, card])
        v.apply(s, answer)
        assert v.scores(s)[1] >= 100 and v.result(s) is None
        assert v.turn(s) == 1
        v.apply(s, ["play", 1, BLINK])
        assert v.result(s) == [1] and v.outcome(s) == "100", card


def test_a_lead_lost_before_ones_own_turn_ends_does_not_win():
    s = _new(3)
    _lay(s, 0, [SPOT])
    _lay(s, 2, [SPOT, SPOT, SPOT, SPOT, CROSS])
    v.apply(s, ["play", 0, PERI])
    v.apply(s, ["swap", 0, SPOT, 2, CROSS])
    assert v.scores(s)[2] == 100 and v.turn(s) == 1
    v.apply(s, ["play", 1, MIRAGE])
    v.apply(s, ["card", 1, 2, SPOT])
    assert v.scores(s)[2] == 80 and v.turn(s) == 2
    v.apply(s, ["play", 2, BLINK])
    assert v.result(s) is None and v.scores(s)[2] == 90 and v.turn(s) == 0


# --- the cards run out --------------------------------------------------------------------------

def _run_out(views):
    """A 2-player game where Ann holds one Blink, Bob nothing, the pile is empty."""
    s = _new()
    for p in range(2):
        _lay(s, p, views[p])
    _hand_to(s, 1, 0)
    _hand_to(s, 0, 1)
    _pile_to(s, 0)
    v.apply(s, ["play", 0, BLINK])
    return s


def test_when_the_cards_run_out_the_most_viewpoints_win_ties_shared():
    s = _run_out([[SPOT], [BLINK]])
    assert _since(s, ["play", 0, BLINK]) == [["draw", 0, 0], ["won", 0, "most"]]
    assert v.result(s) == [0] and v.outcome(s) == "most" and v.scores(s) == [30, 10]
    assert v.summary(s)["winners"] == [0] and _cards(s) == 42
    s = _run_out([[SPOT], [SPOT, BLINK]])  # a tie is a shared win
    assert v.result(s) == [0, 1] and v.outcome(s) == "most"
    assert v.log(s)[-1] == ["won", -1, "most"] and v.summary(s)["winners"] == [0, 1]


def test_an_empty_hand_passes_the_turn_and_may_win_then():
    s = _new(3)
    _hand_to(s, 1, 0)
    _hand_to(s, 2, 1)
    _hand_to(s, 0, 2)
    _pile_to(s, 0)
    v.apply(s, ["play", 0, BLINK])
    assert _since(s, ["draw", 0, 0]) == [["empty", 1]] and v.turn(s) == 2 and v.turns(s) == 3
    v.apply(s, ["play", 2, BLINK])
    assert v.turn(s) == 0 and v.result(s) is None  # Ann still holds a card
    v.apply(s, ["play", 0, SPOT])  # nothing to discard; now nobody holds a card
    assert _since(s, ["play", 0, SPOT]) == [["none", 0, "discard"], ["won", 0, "most"]]
    assert v.result(s) == [0] and v.outcome(s) == "most" and v.scores(s) == [30, 0, 10]
    # A player pushed to 100 whose turn is passed for an empty hand wins then (step 4).
    s = _new(3)
    _lay(s, 1, [SPOT, SPOT, SPOT, SPOT, SPOT])
    _hand_to(s, 1, 0)
    _pile_to(s, 0)
    v.apply(s, ["play", 0, BLINK])
    assert v.result(s) == [1] and v.outcome(s) == "100"
    assert _since(s, ["draw", 0, 0]) == [["empty", 1], ["won", 1, "100"]]


def test_the_cards_running_out_wait_for_a_player_at_100_to_end_a_turn():
    # Bob (100) and Cid (110) got there by corrections, on Ann's turn: nobody has won. Ann plays
    # the last card; every hand and the pile are then empty, but a player has 100: play goes
    # on, Bob's turn ends at once on his empty hand and he wins there (not Cid, by the most).
    s = _new(3)
    _lay(s, 1, [SPOT] * 5)
    _lay(s, 2, [HIND] * 4 + [INSIGHT] * 3)
    for p in (1, 2):
        _hand_to(s, p, 0)
    _hand_to(s, 0, 1)
    _pile_to(s, 0)
    assert v.scores(s) == [0, 100, 110] and v.result(s) is None
    v.apply(s, ["play", 0, BLINK])
    assert _since(s, ["draw", 0, 0]) == [["empty", 1], ["won", 1, "100"]]
    assert v.result(s) == [1] and v.outcome(s) == "100" and v.turns(s) == 2
    # Bob at 100 misses his next turn: it is passed, Ann's comes (empty), then Bob's, and he
    # wins at its end; the turns end, the loop does too.
    s = _new()
    _lay(s, 1, [SPOT] * 5)
    _hand_to(s, 1, 0)
    _hand_to(s, 0, 1)
    _pile_to(s, 0)
    v.apply(s, ["play", 0, SIDED])
    v.apply(s, ["target", 0, 1])
    assert _since(s, ["miss", 0, 1]) == [["missed", 1], ["empty", 0], ["empty", 1],
                                         ["won", 1, "100"]]
    assert v.result(s) == [1] and v.outcome(s) == "100" and v.turns(s) == 4


# --- a catalog file: cancel and reveal ----------------------------------------------------------

GLIMPSE = '{"name": "Glimpse", "value": 5, "copies": 2, "actions": ["draw 1"], ' \
          '"reveal": ["steal 1"], "then": "%s"}'
WINK = '{"name": "Wink", "value": 0, "copies": 2, "cancel": true}'
STARE = '{"name": "Stare", "value": 5, "actions": ["draw 1", "discard 1"]}'


def _extra(lines):
    entries, problems = vx.parse(v, lines, json.loads)
    assert problems == [], problems
    return entries


def test_parse_reports_bad_lines_and_keeps_the_good_ones():
    lines = [GLIMPSE % "hand",
             '{"name": "Dud", "value": "ten"}',
             '{"name": "Oops", ',
             '{"name": "Odd", "value": 1, "colour": "red"}',
             '{"name": "Flyer", "value": 1, "actions": ["fly 2"]}',
             '',
             '# a comment',
             '[1, 2]',
             '{"name": "Blink", "value": 15, "copies": 3, "actions": ["draw 3"]}']
    entries, problems = vx.parse(v, lines, json.loads)
    assert problems == ["line 2: bad value", "line 3: not JSON", "line 4: unknown key colour",
                        "line 5: bad actions", "line 8: not a {...} object"]
    assert entries == [["Glimpse", 5, 2, [["draw", 1]], v.REVEAL, [["steal", 1]], "hand"],
                       ["Blink", 15, 3, [["draw", 3]], 0, [], "discard"]]


def test_a_catalog_file_replaces_printed_cards_and_appends_new_ones():
    s = _new(cards=_extra([GLIMPSE % "hand", '{"name": "Blink", "value": 15, "copies": 3, '
                                             '"actions": ["draw 3"]}']))
    cat = v.catalog(s)
    assert len(cat) == 14 and v.name(s, BLINK) == "Blink" and v.value(s, BLINK) == 15
    assert v.name(s, 13) == "Glimpse" and vx.revealers(v, s) == [13] and v.pile(s) == 44 - 11
    v.apply(s, ["play", 0, BLINK])
    assert v.hands(s)[0] == 8 and v.scores(s) == [15, 0] and _cards(s) == 44
    assert v.catalog(json.loads(json.dumps(s))) == cat


def test_setup_refuses_malformed_cards():
    good = _extra([WINK])[0]
    _new(cards=[good])
    for cards in ("Wink", [good] * 41, ["Wink"], [good[:6]], [good[:4] + [8] + good[5:]],
                  [good[:5] + [[["draw", 1]]] + good[6:]]):  # reveal actions, no reveal flag
        _setup_refused({"names": ["Ann", "Bob"], "cards": cards}, "Bad option cards")


def test_setup_names_a_bad_card_entry_a_bad_option():
    # The catalog file's reason for an entry ("bad value", "bad name") is not setup's.
    good = _extra([WINK])[0]
    for bad in (good[:1] + ["ten"] + good[2:], [""] + good[1:]):
        _setup_refused({"names": ["Ann", "Bob"], "cards": [bad]}, "Bad option cards")


def test_with_a_cancel_card_in_the_game_a_draw_waits_for_go():
    s = _new(cards=_extra([WINK]))
    assert vx.cancellers(v, s) == [13] and not vx.cancellable(v, s)
    v.apply(s, ["play", 0, BLINK])
    assert v.prompt(s) == [0, "draw", 2, BLINK] and v.choices(s) == [] and v.hands(s)[0] == 5
    assert vx.cancellable(v, s)
    _refused(s, ["target", 0, 1], "Expected: go")
    _refused(s, ["go", 1], "It is Ann's turn")
    v.apply(s, ["go", 0])
    assert v.hands(s) == [7, 6] and v.turn(s) == 1 and not vx.cancellable(v, s)
    s = _new(cards=_extra([WINK]))
    _pile_to(s, 1)
    v.apply(s, ["play", 0, BLINK])
    v.apply(s, ["go", 0])
    assert _since(s, ["play", 0, BLINK]) == [["draw", 0, 1]] and v.hands(s) == [6, 5]


def test_with_a_cancel_card_in_the_game_a_mirage_that_must_destroy_itself_asks():
    # As a draw waits for "go": the device does not perform it before a cancel can come.
    s = _new(cards=_extra([WINK]))
    v.apply(s, ["play", 0, MIRAGE])
    assert v.prompt(s) == [0, "destroy", 1, MIRAGE] and v.choices(s) == [[0, MIRAGE]]
    assert vx.cancellable(v, s)
    v.apply(s, ["card", 0, 0, MIRAGE])
    assert v.discard(s) == ([MIRAGE], 0) and v.turn(s) == 1 and not vx.cancellable(v, s)
    s = _new(cards=_extra([WINK]))
    v.apply(s, ["play", 0, MIRAGE])
    v.apply(s, ["cancel", 1, 13])
    assert v.discard(s) == ([13, MIRAGE], 0) and v.view(s, 0) == [] and v.turn(s) == 1


def test_cancel_discards_both_cards_and_passes_the_turn():
    s = _new(3, cards=_extra([WINK]))
    _refused(s, ["cancel", 1, 13], "Nothing to cancel")
    v.apply(s, ["play", 0, BLINK])
    pile = v.pile(s)
    v.apply(s, ["cancel", 2, 13])
    assert v.discard(s) == ([13, BLINK], 0) and v.view(s, 0) == []
    assert v.hands(s) == [5, 6, 4] and v.pile(s) == pile - 1  # only Bob's draw
    assert v.turn(s) == 1 and v.prompt(s) is None
    assert _since(s, ["play", 0, BLINK]) == [["cancel", 2, 13, BLINK]]
    assert _cards(s) == 44


def test_a_played_card_a_correction_took_back_cannot_be_cancelled():
    """A cancel moves the cancelled card from its view to the discard pile: once a correction
    put it back in the hand, it is refused (before, the card was counted both in the hand and
    on the discard pile, one card too many in play)."""
    s = _new(3, cards=_extra([WINK]))
    v.apply(s, ["play", 0, BLINK])
    v.apply(s, ["move", "v0", "h0", BLINK])
    _refused(s, ["cancel", 2, 13], "That card was moved")
    assert _cards(s) == 44


def test_cancel_is_too_late_once_an_action_began_and_needs_a_cancel_card():
    s = _new(cards=_extra([WINK, STARE]))
    v.apply(s, ["play", 0, 14])
    _refused(s, ["cancel", 1, BLINK], "Cannot cancel")
    v.apply(s, ["go", 0])
    assert v.prompt(s) == [0, "discard", 1, 14] and not vx.cancellable(v, s)
    _refused(s, ["cancel", 1, 13], "Too late to cancel")
    # A Mirror Image may be cancelled before it picks a card; what it mirrors then goes on.
    s = _new(cards=_extra([WINK]))
    _lay(s, 1, [BLINK])
    v.apply(s, ["play", 0, MIRROR])
    assert vx.cancellable(v, s)
    v.apply(s, ["card", 0, 1, BLINK])
    assert v.hands(s)[0] == 7 and v.turn(s) == 1


def test_a_revealed_card_acts_for_the_revealer_and_is_not_a_play():
    for then in ("discard", "hand", "view"):
        s = _new(3, cards=_extra([GLIMPSE % then]))
        before = (v.turn(s), v.turns(s), s["phase"])
        v.apply(s, ["reveal", 2, 13])  # during Ann's turn, before she plays
        assert v.prompt(s) == [2, "steal", 1, 13] and v.choices(s) == [0, 1]
        _refused(s, ["play", 0, BLINK], "It is Cid's turn")
        v.apply(s, ["target", 2, 0])
        assert (v.turn(s), v.turns(s), s["phase"]) == before and v.prompt(s) is None
        assert v.hands(s) == [5, 5, 5 + (then == "hand")], then
        assert v.view(s, 2) == ([13] if then == "view" else [])
        assert v.discard(s)[0] == ([13] if then == "discard" else [])
        assert _since(s, ["reveal", 2, 13]) == [["steal", 2, 0, 1]] and _cards(s) == 44
        v.apply(s, ["play", 0, BLINK])  # Ann still plays her card
        assert v.turn(s) == 1


# A card that is only revealed, its one reveal action given by the test.
PEEK = '{"name": "Peek", "value": 5, "copies": 2, "reveal": ["%s"]}'


def test_a_hand_emptied_by_a_reveal_ends_the_turn_to_play():
    # Before Ann plays, a reveal (not a card play) leaves her no card: her turn ends (step 4)
    # and Bob's begins with his draw. (reveal action, who reveals, Ann's hand, Cid's hand,
    # the answer to the reveal's action, or None)
    for act, q, ann, cid, answer in (("steal 1", 2, 1, 5, ["target", 2, 0]),
                                     ("discard 1", 2, 1, 5, ["target", 2, 0]),
                                     ("exchange 1", 2, 6, 1, ["target", 2, 0]),
                                     ("miss 1", 0, 1, 5, ["target", 0, 2]),
                                     ("steal 1", 0, 1, 5, ["pass", 0])):
        s = _new(3, cards=_extra([PEEK % act]))
        _hand_to(s, 0, ann)
        _hand_to(s, 2, cid)
        v.apply(s, ["reveal", q, 13])
        v.apply(s, answer)
        assert v.log(s)[-1] == ["empty", 0], (act, v.log(s))
        assert v.turn(s) == 1 and v.turns(s) == 2 and v.hands(s)[0] == 0 and v.prompt(s) is None
        v.apply(s, ["play", 1, BLINK])  # the game goes on
        assert v.turn(s) == (0 if act == "miss 1" else 2), act


def test_a_cancel_with_the_last_card_ends_the_turn_to_play():
    # Bob reveals a Peek before Ann plays; Ann cancels it with her last card, a Wink.
    s = _new(3, cards=_extra([PEEK % "steal 1", WINK]))
    _hand_to(s, 0, 1)
    v.apply(s, ["reveal", 1, 13])
    v.apply(s, ["cancel", 0, 14])
    assert _since(s, ["reveal", 1, 13]) == [["cancel", 0, 14, 13], ["empty", 0]]
    assert v.turn(s) == 1 and v.hands(s) == [0, 5, 5] and v.discard(s) == ([14, 13], 0)


def test_a_turn_ended_outside_a_play_has_its_end_of_turn_checks():
    # With 100 in her view, Ann wins when a reveal takes her last card before she plays.
    s = _new(3, cards=_extra([PEEK % "steal 1"]))
    _lay(s, 0, [SPOT] * 5)
    _hand_to(s, 0, 1)
    v.apply(s, ["reveal", 2, 13])
    v.apply(s, ["target", 2, 0])
    assert _since(s, ["steal", 2, 0, 1]) == [["empty", 0], ["won", 0, "100"]]
    assert v.result(s) == [0] and v.outcome(s) == "100"
    # Bob discards Ann's last card with his own: every hand and the pile are empty.
    s = _new(cards=_extra([PEEK % "discard 1"]))
    _lay(s, 0, [SPOT])
    _lay(s, 1, [BLINK])
    _hand_to(s, 0, 1)
    _hand_to(s, 1, 1)
    _pile_to(s, 0)
    v.apply(s, ["reveal", 1, 13])
    v.apply(s, ["target", 1, 0])
    assert _since(s, ["discard", 1, 0, 1]) == [["empty", 0], ["won", 0, "most"]]
    assert v.result(s) == [0] and v.outcome(s) == "most" and _cards(s) == 44


def test_a_reveal_card_played_normally_does_only_its_first_actions():
    s = _new(cards=_extra([GLIMPSE % "hand"]))
    v.apply(s, ["play", 0, 13])
    assert _since(s, ["play", 0, 13]) == [["draw", 0, 1]] and v.hands(s) == [6, 6]
    _refused(s, ["reveal", 1, BLINK], "Not a Reveal card")


# --- actions of every player (a catalog file's "all" and "others") ------------------------------
RAIN = '{"name": "Rain", "value": 5, "copies": 2, "actions": ["all draw 1", "others discard 1"]}'
GLANCE = '{"name": "Glance", "value": 5, "copies": 2, "actions": ["all recall 1"]}'
SWIRL = '{"name": "Swirl", "value": 0, "copies": 2, "actions": ["all %s 2"]}'


def test_parse_reads_actions_of_every_player():
    entries = _extra([RAIN, GLANCE, SWIRL % "passleft",
                      '{"name": "Mob", "value": 0, "actions": ["others steal 1", "passright"], '
                      '"reveal": ["others destroy 1"]}'])
    assert [e[3] for e in entries] == [
        [["draw", 1, "all"], ["drop", 1, "others"]], [["recall", 1, "all"]],
        [["passleft", 2, "all"]], [["steal", 1, "others"], ["passright", 1]]]
    assert entries[3][5] == [["destroy", 1, "others"]]
    bad = ['{"name": "A", "value": 0, "actions": ["%s"]}' % a
           for a in ("all mirror 1", "others", "all", "drop 1", "all drop 1", "every draw 1",
                     "all draw 10", "all draw 1 2", "all all draw", "draw all 1")]
    entries, problems = vx.parse(v, bad, json.loads)
    assert entries == [] and problems == ["line %d: bad actions" % n for n in range(1, 11)]
    good = _extra([RAIN])[0]  # a journal's entries are checked the same way
    _new(cards=[good])
    for fx in ([["drop", 1]], [["draw", 1, "some"]], [["mirror", 1, "all"]], [["draw", 1, 0]],
               [["draw", 1, "all", 0]]):
        _setup_refused({"names": ["Ann", "Bob"], "cards": [good[:3] + [fx] + good[4:]]},
                       "Bad option cards")


def test_every_player_draws_clockwise_from_the_one_who_played():
    # "Actions affecting more than one player are played in a clockwise direction, starting
    # from the player who played the action": with two cards left, Cy and Dee draw them.
    s = _new(4, first=2, cards=_extra([RAIN]))
    _hand_to(s, 0, 0)  # Ann has nothing to discard: she discards none
    _pile_to(s, 2)
    gone = v.discard(s)[1]
    v.apply(s, ["play", 2, 13])
    assert _since(s, ["play", 2, 13]) == [
        ["draw", 2, 1], ["draw", 3, 1], ["draw", 0, 0], ["draw", 1, 0],
        ["drop", 3, 1], ["drop", 0, 0], ["drop", 1, 1]]  # others: from Dee, Cy's left
    assert v.hands(s) == [0, 4, 6, 5] and v.pile(s) == 0 and v.discard(s) == ([], gone + 2)
    assert v.turn(s) == 3 and _cards(s) == 44


def test_every_player_passes_what_they_held_before_any_card_moved():
    # Bob has one card, Cy none: Bob passes his one, Cy passes none (not the card Bob passed
    # him, as the PASS ruling says), whatever the clockwise order.
    for word, to in (("passleft", 1), ("passright", -1)):
        s = _new(4, cards=_extra([SWIRL % word]))
        _hand_to(s, 1, 1)
        _hand_to(s, 2, 0)
        v.apply(s, ["play", 0, 13])  # Ann holds 5, Dee 5
        assert _since(s, ["play", 0, 13]) == [
            ["give", 0, 1 % 4 if to > 0 else 3, 2], ["give", 1, (1 + to) % 4, 1],
            ["give", 2, (2 + to) % 4, 0], ["give", 3, (3 + to) % 4, 2]], word
        # Ann 5, Bob 1, Cy 0, Dee 5 pass 2, 1, 0, 2; then Bob's turn begins with his draw.
        assert v.hands(s) == {"passleft": [5, 3, 1, 3], "passright": [4, 1, 2, 5]}[word], word
        assert _cards(s) == 42 + 2


def test_each_players_choice_is_asked_in_turn_and_undone_with_the_card():
    path = support.scratch_dir("viewpoint-each") + "/game.jnl"
    g = Game.new(v, path, {"names": NAMES[:4], "first": 1, "cards": _extra([GLANCE])})
    for seat, card in ((0, SPOT), (1, BLINK), (3, HIND)):
        g.do(["move", "pile", "v%d" % seat, card])
    before = json.loads(json.dumps(g.state))
    g.do(["play", 1, 13])  # Bob: every player moves a card of their view to their hand
    assert v.prompt(g.state) == [1, "recall", 1, 13] and v.choices(g.state) == [[1, BLINK]]
    _refused(g.state, ["card", 0, 0, SPOT], "It is Bob's turn")
    g.do(["card", 1, 1, BLINK])
    # Cy has nothing in view: left out; Dee is asked next, then Ann.
    assert v.log(g.state)[-1] == ["none", 2, "recall"]
    assert v.prompt(g.state) == [3, "recall", 1, 13] and v.choices(g.state) == [[3, HIND]]
    g.do(["card", 3, 3, HIND])
    assert v.prompt(g.state) == [0, "recall", 1, 13] and v.choices(g.state) == [[0, SPOT]]
    g.do(["card", 0, 0, SPOT])
    assert v.prompt(g.state) is None and v.turn(g.state) == 2
    assert v.hands(g.state) == [6, 6, 6, 6] and v.view(g.state, 1) == [13]
    assert g.undo() == 4 and g.state == before  # the card and its three answers: one press
    g.save()
    r, problem = Game.resume(v, path)
    assert problem is None and r.state == before


def test_a_cancel_stops_every_players_action_before_any_is_performed():
    # The rulebook's own example: a card that would make every player DISCARD is cancelled,
    # and none of them discards.
    s = _new(3, cards=_extra([WINK, RAIN]))
    v.apply(s, ["play", 0, 14])
    assert v.prompt(s) == [0, "draw", 1, 14] and vx.cancellable(v, s)
    v.apply(s, ["cancel", 2, 13])
    assert v.hands(s) == [5, 6, 4] and v.discard(s) == ([13, 14], 0) and v.turn(s) == 1
    s = _new(3, cards=_extra([WINK, RAIN]))
    v.apply(s, ["play", 0, 14])
    v.apply(s, ["go", 0])  # once begun, every player's part follows
    assert _since(s, ["play", 0, 14]) == [["draw", 0, 1], ["draw", 1, 1], ["draw", 2, 1],
                                          ["drop", 1, 1], ["drop", 2, 1]]
    assert v.turn(s) == 1 and not vx.cancellable(v, s)


def test_a_mirrored_or_revealed_action_of_every_player_starts_from_its_performer():
    s = _new(3, cards=_extra([RAIN]))
    _lay(s, 2, [13])
    v.apply(s, ["play", 0, MIRROR])
    v.apply(s, ["card", 0, 2, 13])  # Ann performs Rain's actions: from Ann, then from Bob
    assert _since(s, ["mirror", 0, 2, 13]) == [
        ["draw", 0, 1], ["draw", 1, 1], ["draw", 2, 1], ["drop", 1, 1], ["drop", 2, 1]]
    s = _new(3, cards=_extra(['{"name": "Gust", "value": 0, "reveal": ["others discard 1"]}']))
    v.apply(s, ["reveal", 1, 13])  # Bob reveals on Ann's turn: from Cy, Bob's left
    assert _since(s, ["reveal", 1, 13]) == [["drop", 2, 1], ["drop", 0, 1]]
    assert v.hands(s) == [5, 4, 4] and v.turn(s) == 0 and v.prompt(s) is None


# --- corrections --------------------------------------------------------------------------------

def test_corrections_move_cards_between_places():
    s = _new(3)
    _lay(s, 0, [SPOT])
    v.apply(s, ["move", "v0", "v2", SPOT])
    assert v.view(s, 0) == [] and v.view(s, 2) == [SPOT]
    v.apply(s, ["move", "h1", "pile", -1])
    assert v.hands(s)[1] == 4 and v.pile(s) == 26
    v.apply(s, ["move", "pile", "h1", BLINK])
    assert v.hands(s)[1] == 5 and v.pile(s) == 25
    v.apply(s, ["move", "h2", "discard", -1])
    assert v.discard(s) == ([], 1) and v.hands(s)[2] == 4
    v.apply(s, ["move", "discard", "h0", -1])
    assert v.discard(s) == ([], 0) and v.hands(s)[0] == 7
    v.apply(s, ["move", "v2", "discard", SPOT])
    v.apply(s, ["move", "discard", "v1", SPOT])
    assert v.view(s, 1) == [SPOT] and v.discard(s) == ([], 0)
    assert v.log(s)[-1] == ["move", "discard", "v1", SPOT] and _cards(s) == 42
    assert v.turn(s) == 0 and v.prompt(s) is None and v.turns(s) == 1  # no turn passed


def test_correction_refusals():
    s = _new()
    _refused(s, ["move", "v5", "h0", BLINK], "No such place")
    _refused(s, ["move", "h0", "x0", -1], "No such place")
    _refused(s, ["move", "h0", 3, -1], "No such place")
    _refused(s, ["move", "h0", "h0", -1], "Same place")
    _refused(s, ["move", "h0", "v0", -1], "Which card?")
    _refused(s, ["move", "v1", "h1", BLINK], "No Blink there")
    _refused(s, ["move", "discard", "h1", -1], "Discard pile empty")
    _refused(s, ["move", "h0", "v0", 13], "No such card")
    _hand_to(s, 1, 0)
    _refused(s, ["move", "h1", "pile", -1], "Bob: no cards")
    _lay(s, 1, [MIRROR, MIRROR])
    _refused(s, ["move", "h0", "v0", MIRROR], "No Mirror Image left")
    _pile_to(s, 0)
    _refused(s, ["move", "pile", "h1", -1], "Draw pile empty")


# --- refusals -----------------------------------------------------------------------------------

def test_a_correction_that_empties_the_hand_to_play_ends_that_turn():
    s = _new()
    _hand_to(s, 0, 0)
    assert v.turn(s) == 1 and ["empty", 0] in v.log(s)
    assert v.hands(s)[1] == 6  # Bob's turn began with his draw


def test_a_correction_is_followed_by_the_same_check_as_any_action():
    # Mid-question: Ann's Insight would steal; corrections empty Bob's hand, then Cid's. The
    # steal has nothing left to act on: it is left out, and her turn ends.
    s = _new(3)
    v.apply(s, ["play", 0, INSIGHT])
    _hand_to(s, 1, 0)
    assert v.prompt(s) == [0, "steal", 1, INSIGHT] and v.choices(s) == [2]
    _hand_to(s, 2, 0)
    assert _since(s, ["move", "h2", "pile", -1]) == [["none", 0, "steal"]]
    assert v.turn(s) == 1 and v.prompt(s) is None and v.hands(s) == [5, 1, 0]


def test_refusals_leave_the_state_untouched():
    s = _new()
    _refused(s, ["play", 0, 13], "No such card")
    _refused(s, ["play", 0, -1], "No such card")
    _refused(s, ["play", 0, "Blink"], "No such card")
    _refused(s, ["play", 2, BLINK], "No such player")
    _refused(s, ["play", 1, BLINK], "It is Ann's turn")
    _refused(s, ["play", 0], "Bad action")
    _refused(s, ["fly", 0], "Unknown action")
    _refused(s, [], "Bad action")
    _refused(s, ["target", 0, 1], "Nothing to answer")
    _lay(s, 1, [BLINK, BLINK, BLINK])
    _refused(s, ["play", 0, BLINK], "No Blink left")
    _hand_to(s, 0, 3)
    v.apply(s, ["play", 0, SPOT])
    _refused(s, ["play", 0, SPOT], "Actions pending")
    _refused(s, ["target", 1, 0], "It is Ann's turn")
    _refused(s, ["card", 0, 1, BLINK], "Expected: target")
    _refused(s, ["swap", 0, SPOT, 1, BLINK], "Expected: target")
    _refused(s, ["go", 0], "Expected: target")
    _refused(s, ["target", 0, 2], "No such player")
    _refused(s, ["target", 0, 0], "Another player")
    _refused(s, ["target", 0, True], "No such player")
    v.apply(s, ["pass", 0])  # a correction: the discard is left out
    assert _since(s, ["play", 0, SPOT]) == [["pass", 0, "discard"]] and v.turn(s) == 1
    v.apply(s, ["play", 1, MIRAGE])
    _refused(s, ["card", 1, 0, BLINK], "No Blink there")
    _refused(s, ["card", 1, 1, EYE], "No All-Seeing E there")
    _refused(s, ["card", 1, 5, BLINK], "No such player")


# --- whole recorded games -----------------------------------------------------------------------

def _step(state, rng):
    """A deterministic player's next action: a card the active player may hold (``held``), or
    an answer from ``choices``."""
    got = v.prompt(state)
    if got is None:
        cards = v.held(state)
        return ["play", v.turn(state), cards[rng.below(len(cards))]]
    by, aim = got[0], v.AIMS[got[1]]
    if aim == "go":
        return ["go", by]
    options = v.choices(state)
    assert options, got  # a prompt always has something to aim at
    pick = options[rng.below(len(options))]
    if aim == "target":
        return ["target", by, pick]
    if aim == "card":
        return ["card", by, pick[0], pick[1]]
    mine = v.view(state, by)
    return ["swap", by, mine[rng.below(len(mine))], pick[0], pick[1]]


def _whole_game(name, n, seed, undo_at):
    """Play a game to its end through Game, saving now and then; undo once at step undo_at
    (or the first action after it that is not an answer: an answer's undo takes its card
    back too, ``JOINS``). Check the cards after every action and that the journal replays to
    the same game."""
    path = support.scratch_dir(name) + "/game.jnl"
    g = Game.new(v, path, {"names": NAMES[:n], "first": seed % n})
    rng = support.Lcg(seed)
    steps = 0
    undos = 0
    while v.result(g.state) is None:
        assert steps < 1500, "no end"
        action = _step(g.state, rng)
        if steps >= undo_at and not undos and action[0] not in v.JOINS:
            before = json.loads(json.dumps(g.state))
            g.do(action)
            assert g.undo() == 1
            undos = 1
            assert g.state == before and g.count == steps
        g.do(action)
        steps += 1
        assert _cards(g.state) == 42, action
        if steps % 5 == 0:
            g.save()
    g.save()
    r, problem = Game.resume(v, path)
    assert problem is None, problem
    assert r.state == g.state and r.count == g.count == steps
    lines = support.journal_lines(path)
    assert lines[0]["game"] == "viewpoint" and len(lines) == 1 + steps + 2 * undos
    assert v.turn(g.state) == -1 and v.prompt(g.state) is None
    totals = v.scores(g.state)
    for w in v.result(g.state):
        if v.outcome(g.state) == "100":
            assert totals[w] >= 100
        else:
            assert totals[w] == max(totals) and v.pile(g.state) == 0 and sum(v.hands(g.state)) == 0
    return g


def _a_game_ending(n, outcome, undo_at):
    """Play whole games (seeds 1, 2, ...) until one ends with ``outcome``: each one checked."""
    for seed in range(1, 17):
        g = _whole_game("viewpoint-%d" % n, n, seed, undo_at)
        if v.outcome(g.state) == outcome:
            return g
    assert False, "no %d-player game ended by %s" % (n, outcome)


def test_whole_game_2_players_ends_by_100():
    g = _a_game_ending(2, "100", 17)
    assert len(v.result(g.state)) == 1 and g.count > 17


def test_whole_game_4_players_ends_when_the_cards_run_out():
    g = _a_game_ending(4, "most", 31)  # the undo goes back past a checkpoint
    assert g.count > 32


def test_whole_game_6_players_ends_by_100_or_the_cards_running_out():
    g = _whole_game("viewpoint-6", 6, 3, 45)
    assert v.outcome(g.state) in ("100", "most") and g.count > 45


# --- json ---------------------------------------------------------------------------------------

def test_the_state_survives_json_and_play_goes_on_from_it():
    s = _new(3, cards=_extra([WINK]))
    _lay(s, 1, [SPOT])
    _lay(s, 2, [CROSS])
    for action in (["play", 0, BLINK], ["go", 0], ["play", 1, PERI], ["swap", 1, SPOT, 2, CROSS],
                   ["play", 2, INSIGHT], ["target", 2, 0]):
        copy = json.loads(json.dumps(s))  # at setup, waiting for a go, for a swap, a target
        assert copy == s
        v.apply(s, action)
        v.apply(copy, action)
        assert copy == s and json.loads(json.dumps(s)) == s, action
    assert v.view(s, 1) == [PERI, CROSS] and v.view(s, 2) == [SPOT, INSIGHT]
    assert v.turn(s) == 0 and v.hands(s) == [7, 5, 6] and _cards(s) == 44

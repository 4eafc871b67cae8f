"""Viewpoint through the buttons: card plays and answers, swaps, the pickers, undo, refusals, the
catalog file, a reveal that ends a turn, a power cut mid-prompt, a whole game, and the Fields of
View and log pages.

The table (``screens/viewpoint.py``) is read off the panel: each player's total in the score
font in their cell (conftest's ``row_score``), the active player's cell lit (``turn_of``), the
cards in each hand as a count and "c" ("5c") at the top right of the cell, "Needs N" at the top
left and "Pile N" at the top right. An action that aims at a player keeps the table: the
question on the top line, the player aimed at with their name bar lit and "OK: <name>" on the
bottom line (``aimed``). Lists (the card list, the card pickers) put their rows on pages 2-7
from x=2, the cursor's row a lit bar (``menu_row``).
"""

import copy
import os

from conftest import (NAMES, actions, choose, dump, goto, highlighted, history, menu_row,
                      row_score, table_cell, turn_of)

from tablemate.rules import viewpoint as rules
from tablemate.screens.viewpoint import QUESTIONS
from tablemate.ui import text

# The card list: the catalog's order, every turn (the cursor starts on the likeliest card).
CATALOG = [c[0] for c in rules.CARDS]
CARD = {c: i for i, c in enumerate(CATALOG)}


# -- driving --------------------------------------------------------------------------------------
def new_game(dev, players=4):
    """From the home menu: set up and start a Viewpoint game (the setup opens at 4 players)."""
    choose(dev, "Viewpoint")
    goto(dev, "Players: 4")
    for _ in range(abs(players - 4)):
        dev.press("RIGHT" if players > 4 else "LEFT")
    assert highlighted(dev, "Players: %d" % players), dump(dev)
    choose(dev, "Start")


def state(dev):
    return dev.app.game.state


def play(dev, card):
    """The active player plays ``card`` from the card list (DOWN opens it)."""
    dev.press("DOWN")
    goto(dev, card, limit=14)
    dev.press("OK")


def answer(dev, row):
    """Answer the question on the screen with ``row``: a player (on the table) or a card row."""
    if row in NAMES:
        for _ in range(6):
            if aimed(dev, row):
                break
            dev.press("DOWN")
    else:
        goto(dev, row, limit=8)
    dev.press("OK")


def aimed(dev, name):
    """The table's player picker aims at ``name``: their name bar lit (the name dark on it) in
    their cell, and "OK: <name>" on the bottom line unless a message covers it."""
    cell = [(x, y) for x, y in highlighted(dev, name) if y in (8, 16, 32)]
    bottom = (0, 56) in dev.find_text("OK: " + name) or message_bar(dev)
    return bottom and bool(cell) and not turn_of(dev, name)


def open_menu(dev, entry):
    dev.press("BACK")
    choose(dev, entry)


def empty_hand(dev, who, keep=0):
    """Corrections from the game menu: ``who``'s cards back to the draw pile, ``keep`` left."""
    p = NAMES.index(who)
    while rules.hands(state(dev))[p] > keep:
        open_menu(dev, "Correction")
        choose(dev, who + "'s hand")
        choose(dev, "Draw pile")  # a card from a hand to a pile need not be named


def picker_round(dev, n=4):
    """The players the table's picker aims at as DOWN moves it once round (and one step on)."""
    seen = []
    for _ in range(n):
        seen += [name for name in NAMES[:n] if aimed(dev, name)]
        dev.press("DOWN")
    return seen


# -- reading --------------------------------------------------------------------------------------
def top_line(dev, needs, pile):
    """'Needs N' at the top left (left out when ``needs`` is None), 'Pile N' at the top right."""
    p = "%d" % pile
    x = 128 - len(p) * text.SMALL.advance - text.width("Pile ")
    return ((x, 0) in dev.find_text("Pile " + p)
            and (needs is None or (0, 0) in dev.find_text("Needs %d" % needs)))


def hand_shown(dev, i, n):
    """Player ``i``'s cell shows ``n`` cards in hand at its top right ("5c": the count, then "c"
    for cards; the card sign before it read as a 0: "05")."""
    x, page, w = table_cell(len(rules.names(state(dev))), i)
    right = x + w - 1 - (6 if n < 10 else 12)
    return (right - 6, page * 8) in dev.find_text("%dc" % n) and not dev.shows(text.CARD)


def check_table(dev, totals, hands, turn):
    """Every total in the score font, every hand size, and only ``turn``'s cell lit."""
    for i in range(len(totals)):
        assert row_score(dev, i, totals[i]), (NAMES[i], totals[i], dump(dev))
        assert hand_shown(dev, i, hands[i]), (NAMES[i], hands[i], dump(dev))
        assert turn_of(dev, NAMES[i]) == (i == turn), (NAMES[i], dump(dev))
    assert rules.scores(state(dev)) == totals and rules.hands(state(dev)) == hands


def rows(dev, words, at=2):
    """The list pages (2-7) on which ``words`` start a row (from x=``at``: 0 on the read-only
    pages of the game menu)."""
    return [y // 8 for x, y in dev.find_text(words) if x == at and y >= 16 and y % 8 == 0]


def says(dev, words):
    """The message line (page 7, dark on a lit bar) shows ``words``."""
    return any(y == 56 for x, y in highlighted(dev, words))


def message_bar(dev):
    """Page 7 is the message line's lit bar (a refusal, whatever its words)."""
    px = dev.panel.pixels()
    return all(px[y][x] for y in range(56, 64) for x in (0, 127))


def title(dev, words):
    return (0, 0) in dev.find_text(words)


def asks(dev, p, kind, n=1):
    """The title line is player ``p``'s whole question (``QUESTIONS``), not cut short."""
    q = QUESTIONS[kind]
    return title(dev, NAMES[p] + ": " + (q % n if "%" in q else q))


# -- the tests ------------------------------------------------------------------------------------
def test_turns_through_the_buttons(make_device):
    dev = make_device()
    new_game(dev)
    assert dev.journal()[0]["opts"] == {"names": NAMES[:4], "first": 0}
    assert top_line(dev, 100, 21), dump(dev)
    check_table(dev, [0, 0, 0, 0], [6, 5, 5, 5], 0)
    assert (0, 56) in dev.find_text("OK Blindspot"), "what OK plays" + dump(dev)
    assert (128 - text.ink_width("20"), 56) in dev.find_text("20"), "its value" + dump(dev)

    dev.press("OK")  # Ann plays the suggestion, Blindspot; the leader (all at 0: Bob) is offered
    assert asks(dev, 0, "discard") and aimed(dev, "Bob"), dump(dev)
    dev.press("OK")
    assert actions(dev) == [["play", 0, CARD["Blindspot"]], ["target", 0, 1]]
    assert top_line(dev, 100, 20), dump(dev)
    check_table(dev, [20, 0, 0, 0], [5, 5, 5, 5], 1)  # Bob discarded one, then drew one

    dev.press("DOWN")  # the card list, on the likeliest card
    assert title(dev, "Bob plays") and menu_row(dev, "Blindspot"), dump(dev)
    assert rows(dev, "All-Seeing Eye") == [2] and rows(dev, "Blindspot") == [4], \
        "the catalog's order" + dump(dev)
    dev.press("DOWN")
    assert menu_row(dev, "Blindsided"), dump(dev)
    dev.press("OK")
    assert dev.shows("Bob: skip whose") and aimed(dev, "Ann"), "the leader" + dump(dev)
    dev.press("DOWN")  # round the end: Cy, the next player
    assert aimed(dev, "Cy"), dump(dev)
    dev.press("OK")
    assert says(dev, "Cy misses the turn"), dump(dev)
    assert top_line(dev, 100, 19), "Cy missed the turn: one card less, not two" + dump(dev)
    check_table(dev, [20, 10, 0, 0], [5, 4, 5, 6], 3)

    dev.press("OK")  # Dee: Blindspot, the leader Ann discards
    assert asks(dev, 3, "discard") and aimed(dev, "Ann"), dump(dev)
    dev.press("OK")
    assert top_line(dev, 80, 18), "Ann's turn: she needs 80" + dump(dev)
    check_table(dev, [20, 10, 0, 20], [5, 4, 5, 5], 0)
    assert actions(dev)[2:] == [["play", 1, CARD["Blindsided"]], ["target", 1, 2],
                                ["play", 3, CARD["Blindspot"]], ["target", 3, 0]]


def test_a_swap_moves_25_viewpoints(make_device):
    dev = make_device()
    new_game(dev)
    play(dev, "Cross-eyed")  # Ann: -5, hands exchanged with Bob
    answer(dev, "Bob")
    dev.press("OK")  # Bob: Blindspot, 20
    dev.press("OK")
    play(dev, "Blink")  # Cy and Dee draw two
    assert says(dev, "Cy draws 2"), dump(dev)
    dev.advance(2600)  # the message goes (see test_the_message_line_hides_no_list_row)
    play(dev, "Blink")
    check_table(dev, [-5, 20, 10, 10], [6, 5, 6, 7], 0)
    dev.advance(2600)

    play(dev, "Peripheral Vision")  # Ann: first her own card (the worst first), then theirs
    assert asks(dev, 0, "swap") and menu_row(dev, "Cross-eyed"), dump(dev)
    assert rows(dev, "Cross-eyed") == [2] and rows(dev, "Peripheral Vision") == [3], dump(dev)
    dev.press("OK")
    assert title(dev, "Ann: for which?") and menu_row(dev, "Bob Blindspot"), "the best" + dump(dev)
    assert rows(dev, "Cy Blink") and rows(dev, "Dee Blink"), dump(dev)
    dev.press("OK")
    assert actions(dev)[-1] == ["swap", 0, CARD["Cross-eyed"], 1, CARD["Blindspot"]]
    check_table(dev, [30, -5, 10, 10], [5, 6, 6, 7], 1)
    assert rules.view(state(dev), 0) == [CARD["Peripheral Vision"], CARD["Blindspot"]]


def test_pickers_leave_out_the_actor_and_the_card_list_wraps(make_device):
    dev = make_device()
    new_game(dev)
    # The card list: UP from the first card reaches the last; LEFT/RIGHT jump six, round the ends.
    dev.press("DOWN")
    assert menu_row(dev, "Blindspot"), "the likeliest card" + dump(dev)
    dev.presses("UP", "UP")
    assert menu_row(dev, CATALOG[0]), dump(dev)
    dev.press("UP")
    assert menu_row(dev, CATALOG[-1]) and rows(dev, CATALOG[-1]) == [7], dump(dev)
    assert (123, 16) in dev.find_text(text.ARROW_UP), "rows above" + dump(dev)
    for key, card in (("RIGHT", 5), ("RIGHT", 11), ("LEFT", 5), ("LEFT", 12), ("LEFT", 6)):
        dev.press(key)
        assert menu_row(dev, CATALOG[card]), (key, CATALOG[card], dump(dev))
    dev.press("BACK")
    assert top_line(dev, 100, 21) and turn_of(dev, "Ann"), "back at the table" + dump(dev)
    dev.press("RIGHT")  # any arrow opens the list on the likeliest card
    assert menu_row(dev, "Blindspot"), dump(dev)
    dev.press("BACK")

    # Every player's target picker: the others clockwise from the one acting, never them.
    for p in range(4):
        play(dev, "Blindspot")
        assert asks(dev, p, "discard"), dump(dev)
        others = [NAMES[(p + k) % 4] for k in (1, 2, 3)]
        seen = []
        for _ in range(4):  # the picker goes round the three others, clockwise
            seen += [name for name in NAMES[:4] if aimed(dev, name)]
            dev.press("DOWN")
        assert NAMES[p] not in seen, "the actor is not offered: %r" % seen
        start = others.index(seen[0])
        assert seen[:3] == (others + others)[start:start + 3] and seen[3] == seen[0], seen
        dev.press("OK")


def test_every_arrow_opens_the_card_list_on_the_likeliest_card(make_device):
    """The table says "OK Blindspot": the list opens on it, whichever arrow opened it, and OK
    there plays it; only the next arrow moves the cursor."""
    dev = make_device()
    new_game(dev)
    for key in ("DOWN", "UP", "RIGHT", "LEFT"):
        assert (0, 56) in dev.find_text("OK Blindspot"), dump(dev)
        dev.press(key)
        assert title(dev, "Ann plays") and menu_row(dev, "Blindspot"), (key, dump(dev))
        dev.press("BACK")
    dev.presses("RIGHT", "OK")
    assert actions(dev)[-1] == ["play", 0, CARD["Blindspot"]], actions(dev)


def test_the_card_list_keeps_its_order_from_turn_to_turn(make_device):
    """A list sorted by the odds moved every turn, and a hand that had learned where
    Peripheral Vision was picked Blink: the order is the catalog's, every turn; only the cursor
    moves, to the likeliest card."""
    dev = make_device()
    new_game(dev)
    dev.press("DOWN")
    first = [rows(dev, c) for c in CATALOG]
    assert first[:6] == [[2], [3], [4], [5], [6], [7]], dump(dev)
    assert menu_row(dev, "Blindspot"), "the likeliest" + dump(dev)
    dev.press("BACK")
    for _ in range(3):  # three Blindspots seen: Blindsided has the most copies left
        dev.press("OK")
        dev.press("OK")
    assert (0, 56) in dev.find_text("OK Blindsided"), dump(dev)
    dev.press("DOWN")
    assert title(dev, "Dee plays") and menu_row(dev, "Blindsided"), dump(dev)
    assert [rows(dev, c) for c in CATALOG] == first, "the same rows" + dump(dev)
    goto(dev, "Peripheral Vision", limit=14)  # where it was: 9 rows below Blindsided
    for _ in range(13):
        dev.press("DOWN")
    assert menu_row(dev, "Peripheral Vision"), "13 rows round" + dump(dev)


def test_the_picker_offers_only_hands_a_discard_or_a_steal_acts_on(make_device):
    dev = make_device()
    new_game(dev)
    empty_hand(dev, "Bob")
    check_table(dev, [0, 0, 0, 0], [6, 0, 5, 5], 0)
    play(dev, "Blindspot")  # Ann: Bob has nothing to discard, Cy and Dee have
    assert asks(dev, 0, "discard") and aimed(dev, "Cy"), dump(dev)
    seen = picker_round(dev)
    assert seen == ["Cy", "Dee", "Cy", "Dee"], "the cursor visits only Cy and Dee: %r" % seen
    dev.press("OK")
    assert actions(dev)[-1] == ["target", 0, 2], actions(dev)[-1]
    check_table(dev, [20, 0, 0, 0], [5, 1, 4, 5], 1)  # Bob drew


def test_a_reveal_that_takes_the_last_card_ends_that_turn(make_device, root):
    with open(os.path.join(root, "data", "viewpoint.jsonl"), "w") as f:
        f.write('{"name": "Peek", "value": 5, "copies": 2, "reveal": ["steal 1"]}\n')
    dev = make_device()
    new_game(dev)
    empty_hand(dev, "Ann", 1)
    open_menu(dev, "Reveal a card")  # before Ann plays, Bob reveals a Peek (the one such card)
    choose(dev, "Bob")
    assert dev.shows("Bob: steal 1 from?"), dump(dev)
    for _ in range(3):  # Ann's cell is lit (her turn): the bottom line says who OK aims at
        if (0, 56) in dev.find_text("OK: Ann"):
            break
        dev.press("DOWN")
    dev.press("OK")  # her last card: her turn ends, Bob's begins with his draw
    assert says(dev, "Ann: no card to play") and turn_of(dev, "Bob"), dump(dev)
    check_table(dev, [0, 0, 0, 0], [0, 6, 5, 5], 1)
    assert actions(dev)[-2:] == [["reveal", 1, 13], ["target", 1, 0]]
    dev.advance(3000)
    dev.press("OK")  # Bob plays the suggestion
    assert actions(dev)[-1] == ["play", 1, CARD["Blindspot"]], actions(dev)[-1]


def test_the_message_line_hides_no_list_row(make_device):
    """What happened by itself stays on the message line (page 7) for 2.5 s; a list puts its
    sixth row there: the cursor's row must not be hidden under it."""
    dev = make_device()
    new_game(dev)
    play(dev, "Blink")  # Ann draws two more
    assert says(dev, "Ann draws 2") and turn_of(dev, "Bob"), dump(dev)
    dev.press("LEFT")  # Bob: the card list, on Blindspot
    dev.press("LEFT")  # six up, round the top: the last row
    assert menu_row(dev, "Insight") and rows(dev, "Insight") == [7], \
        "the cursor's row is under the message" + dump(dev)


def test_questions_fit_the_title_line(make_device):
    """Each question is on the title line whole with three-letter names (the setup's)."""
    for kind, q in QUESTIONS.items():
        assert text.ink_width("Ann: " + (q % 2 if "%" in q else q)) <= 128, (kind, q)
    dev = make_device()
    new_game(dev)
    play(dev, "Blindsided")
    assert asks(dev, 0, "miss"), dump(dev)


def test_one_undo_takes_back_a_card_with_its_answer(make_device):
    """A card and the player it aimed at were one thing done: one undo (BACK, DOWN, OK) takes
    both back, and the journal replays it (an undo line per action)."""
    dev = make_device()
    new_game(dev)
    dev.press("OK")  # Ann: Blindspot, Bob discards
    dev.press("OK")
    dev.press("OK")  # Bob: Blindspot, the leader Ann discards
    answer(dev, "Ann")
    check_table(dev, [20, 20, 0, 0], [4, 4, 6, 5], 2)

    dev.presses("BACK", "DOWN")
    assert menu_row(dev, "Undo"), "Undo is one press from the menu's top" + dump(dev)
    dev.press("OK")  # the card and its answer: Bob's turn, as it was
    assert says(dev, "Undone: Blindspot"), dump(dev)
    assert top_line(dev, 100, 20), dump(dev)
    check_table(dev, [20, 0, 0, 0], [5, 5, 5, 5], 1)
    assert actions(dev)[-2:] == [["undo"], ["undo"]]
    assert dev.app.game.count == 2
    dev.advance(3000)  # the message leaves; the suggestion is back on the bottom line
    assert (0, 56) in dev.find_text("OK Blindspot"), dump(dev)

    dev.press("OK")  # an undo while the card is asked about takes back the card alone
    assert asks(dev, 1, "discard"), dump(dev)
    open_menu(dev, "Undo")
    assert dev.app.game.count == 2 and turn_of(dev, "Bob"), dump(dev)
    assert says(dev, "Undone: Blindspot"), dump(dev)

    dev.press("DOWN")  # and the game goes on from there
    goto(dev, "Blindsided", limit=14)
    dev.press("OK")
    answer(dev, "Dee")
    check_table(dev, [20, 10, 0, 0], [5, 4, 6, 5], 2)


def test_a_hindsight_is_not_offered_to_destroy(make_device):
    dev = make_device()
    new_game(dev)
    play(dev, "Hindsight")  # nothing else in Ann's view to take back to her hand
    assert says(dev, "No card to recall") and turn_of(dev, "Bob"), dump(dev)
    dev.press("OK")  # Bob: Blindspot
    answer(dev, "Cy")
    play(dev, "Mirage")  # Cy destroys: his own Mirage or Bob's Blindspot, not Ann's Hindsight
    assert asks(dev, 2, "destroy") and menu_row(dev, "Bob Blindspot"), dump(dev)
    assert rows(dev, "Mirage") == [2] and rows(dev, "Bob Blindspot") == [3], dump(dev)
    assert not dev.shows("Hindsight"), dump(dev)
    dev.press("OK")
    assert actions(dev)[-1] == ["card", 2, 1, CARD["Blindspot"]]
    check_table(dev, [20, 0, 10, 0], [5, 5, 4, 6], 3)


def test_a_mirage_with_nothing_else_to_destroy_destroys_itself(make_device):
    """"DESTROY 1 card in the Viewniverse", and the Mirage is in it: on an empty table it is the
    one card it can destroy, and all possible actions must be performed."""
    dev = make_device()
    new_game(dev)
    play(dev, "Mirage")
    assert says(dev, "Ann: Mirage destroyed") and turn_of(dev, "Bob"), dump(dev)
    assert actions(dev)[-1] == ["play", 0, CARD["Mirage"]], "no question" + dump(dev)
    assert rules.discard(state(dev)) == ([CARD["Mirage"]], 0)
    check_table(dev, [0, 0, 0, 0], [5, 6, 5, 5], 1)
    open_menu(dev, "Game log")
    assert rows(dev, "Ann: Mirage", 0) == [2] and rows(dev, "Destroyed Mirage", 0) == [3], \
        dump(dev)


def test_a_mirage_proposes_the_leaders_best_card_not_ones_own(make_device):
    """Ann leads with a Blindspot and plays a Mirage: the cursor starts on the best card of the
    leader among the others (Dee's Blindspot), not on her own; her own cards, the Mirage
    included, are offered below it."""
    dev = make_device()
    new_game(dev)
    dev.presses("OK", "OK")  # Ann: Blindspot, Bob discards
    play(dev, "Blink")  # Bob
    play(dev, "Blink")  # Cy
    dev.presses("OK", "OK")  # Dee: Blindspot, the leader Ann discards
    check_table(dev, [20, 10, 10, 20], [5, 6, 7, 5], 0)
    dev.advance(3000)
    play(dev, "Mirage")
    assert asks(dev, 0, "destroy") and menu_row(dev, "Dee Blindspot"), dump(dev)
    assert rows(dev, "Blindspot") == [2] and rows(dev, "Mirage") == [3], "her own" + dump(dev)
    assert rows(dev, "Bob Blink") == [4] and rows(dev, "Cy Blink") == [5], dump(dev)
    assert rows(dev, "Dee Blindspot") == [6], dump(dev)
    dev.press("OK")
    assert actions(dev)[-1] == ["card", 0, 3, CARD["Blindspot"]], actions(dev)[-1]
    check_table(dev, [30, 10, 10, 0], [4, 7, 7, 5], 1)


def test_a_correction_from_an_empty_view_is_refused_with_its_reason(make_device):
    dev = make_device()
    new_game(dev)
    before = copy.deepcopy(state(dev))
    journal = dev.journal()
    open_menu(dev, "Correction")
    assert title(dev, "Move a card from"), dump(dev)
    choose(dev, "Dee's view")
    assert title(dev, "To"), dump(dev)
    choose(dev, "Ann's hand")
    assert turn_of(dev, "Ann") and dev.journal() == journal and state(dev) == before, dump(dev)
    assert says(dev, "Dee's view"), "the reason names the empty view, not 'Which card?'" + dump(dev)


def test_corrections_from_the_discard_pile(make_device):
    """Never a "Which card?" question without a row to pick: a refusal with its reason."""
    dev = make_device()
    new_game(dev)
    before = copy.deepcopy(state(dev))
    journal = dev.journal()
    open_menu(dev, "Correction")
    choose(dev, "Discard pile")
    choose(dev, "Ann's view")
    assert turn_of(dev, "Ann") and says(dev, "Discard pile empty"), dump(dev)
    assert dev.journal() == journal and state(dev) == before

    dev.press("OK")  # Ann: Blindspot; Bob discards a card the device never sees
    dev.press("OK")
    assert rules.discard(state(dev)) == ([], 1)
    before = copy.deepcopy(state(dev))
    journal = dev.journal()
    dev.advance(3000)
    open_menu(dev, "Correction")
    choose(dev, "Discard pile")
    choose(dev, "Ann's view")  # an unseen card cannot go into a view
    assert turn_of(dev, "Bob") and message_bar(dev), "refused, not an empty question" + dump(dev)
    assert dev.journal() == journal and state(dev) == before

    dev.advance(3000)
    open_menu(dev, "Correction")
    choose(dev, "Discard pile")
    choose(dev, "Bob's hand")  # the one choice, the unseen card, is taken without asking
    assert actions(dev)[-1] == ["move", "discard", "h1", -1]
    check_table(dev, [20, 0, 0, 0], [5, 6, 5, 5], 1)


def test_catalog_file_adds_cards_and_names_its_bad_lines(make_device, root):
    with open(os.path.join(root, "data", "viewpoint.jsonl"), "w") as f:
        f.write('{"name": "Glimpse", "value": 5, "copies": 2, "actions": ["draw 1"]}\n')
        f.write('{"name": "Squint", "value": "lots"}\n')
    dev = make_device()
    new_game(dev)
    assert dev.shows("line") and dev.shows("2: bad value"), "the notice names line 2" + dump(dev)
    assert dev.journal()[0]["opts"]["cards"] == [["Glimpse", 5, 2, [["draw", 1]], 0, [],
                                                   "discard"]]
    dev.press("OK")
    assert not dev.shows("line 2") and top_line(dev, 100, 23), "44 cards" + dump(dev)
    dev.presses("UP", "UP")  # the card list on Blindspot; up: Blackout, then round the top
    assert menu_row(dev, "Blackout"), dump(dev)  # to the file's card, after the catalog's
    dev.presses("UP", "UP")
    assert menu_row(dev, "Glimpse") and (128 - 7 - text.width("5"), 56) in dev.find_text("5"), \
        dump(dev)
    assert not dev.shows("Squint"), dump(dev)
    dev.press("OK")
    assert says(dev, "Ann draws 1"), dump(dev)
    check_table(dev, [5, 0, 0, 0], [6, 6, 5, 5], 1)


def test_power_cut_mid_question(make_device):
    dev = make_device()
    new_game(dev)
    dev.press("OK")  # Ann: Blindspot, Bob discards
    dev.press("OK")
    dev.press("OK")  # Bob: Blindspot, Ann discards
    answer(dev, "Ann")
    play(dev, "Blindsided")  # Cy ... and the power goes before the answer
    assert aimed(dev, "Ann") and dev.shows("Cy: skip"), dump(dev)
    question = dev.panel.pixels()[:8]  # the title line
    assert actions(dev)[-1] == ["play", 2, CARD["Blindsided"]]

    dev = make_device()
    assert dev.shows("Resume game?"), dump(dev)
    dev.press("OK")
    assert dev.panel.pixels()[:8] == question and aimed(dev, "Ann"), dump(dev)
    check_table(dev, [20, 20, 10, 0], [4, 4, 5, 5], 2)  # the totals it aims by, in view
    dev.press("OK")
    check_table(dev, [20, 20, 10, 0], [4, 4, 5, 6], 3)
    assert actions(dev)[-1] == ["target", 2, 0]


def test_a_whole_game_to_its_end(make_device, root):
    dev = make_device()
    new_game(dev)
    presses = 0
    while rules.result(state(dev)) is None:
        assert presses < 300, "no end in 300 presses" + dump(dev)
        asked = rules.prompt(state(dev))
        first_of_swap = bool(asked) and asked[1] == "swap" and asks(dev, asked[0], "swap")
        count = dev.app.game.count
        dev.press("OK")
        presses += 1
        grew = dev.app.game.count - count
        assert grew == (0 if first_of_swap else 1), "OK was refused" + dump(dev)
    st = state(dev)
    winners = rules.result(st)
    totals = rules.scores(st)
    assert len(winners) == 1 and (totals[winners[0]] >= 100 or rules.outcome(st) == "most"), st
    for i in range(4):
        assert row_score(dev, i, totals[i]), dump(dev)
        assert turn_of(dev, NAMES[i]) == (i in winners), "the winner's cell is lit" + dump(dev)
    assert says(dev, "OK: standings") and top_line(dev, None, rules.pile(st)), dump(dev)
    assert not dev.shows("Needs"), dump(dev)
    games = history(root)
    assert len(games) == 1 and games[0]["game"] == "viewpoint", games
    assert games[0]["winners"] == winners and games[0]["scores"] == totals, games
    assert games[0]["outcome"] == rules.outcome(st) and games[0]["turns"] == rules.turns(st)

    dev.press("OK")  # the standings
    assert title(dev, NAMES[winners[0]] + " wins!"), dump(dev)
    assert dev.shows(text.CHECK) and dev.shows("%d" % totals[winners[0]]), dump(dev)
    dev.press("OK")  # filed already: home, the journal gone
    assert not os.path.exists(os.path.join(root, "data", "game.jnl"))
    assert len(history(root)) == 1 and menu_row(dev, "Viewpoint"), dump(dev)
    choose(dev, "History")
    assert dev.shows("Viewpoint: " + NAMES[winners[0]]), dump(dev)


def test_fields_of_view_and_the_log(make_device):
    dev = make_device()
    new_game(dev)
    dev.press("OK")  # Ann: Blindspot, Bob discards
    dev.press("OK")
    play(dev, "Mirage")  # Bob: his Mirage, or Ann's Blindspot (proposed: not his own)
    assert menu_row(dev, "Ann Blindspot") and rows(dev, "Mirage") == [2], dump(dev)
    dev.press("OK")  # he destroys it
    play(dev, "Insight")  # Cy steals one from the fullest hand
    dev.press("OK")

    open_menu(dev, "Fields of View")  # opens on the player whose turn it is: Dee
    assert title(dev, "Dee 0 " + text.CARD + "5") and rows(dev, "(no cards)", 0) == [2], dump(dev)
    dev.press("RIGHT")  # round to Ann
    assert title(dev, "Ann 0 " + text.CARD + "5") and rows(dev, "(no cards)", 0) == [2], dump(dev)
    dev.press("RIGHT")
    assert title(dev, "Bob 10 ") and rows(dev, "Mirage", 0) == [2], "Bob's Mirage" + dump(dev)
    assert (121 - text.ink_width("10"), 16) in dev.find_text("10"), "the card's value" + dump(dev)
    dev.press("LEFT")
    dev.press("LEFT")
    dev.press("LEFT")
    assert title(dev, "Cy 10 ") and rows(dev, "Insight", 0) == [2], dump(dev)
    dev.press("OK")
    assert dev.shows("Back to game"), "a page goes back to the menu it came from" + dump(dev)
    dev.press("BACK")
    assert turn_of(dev, "Dee") and top_line(dev, 100, 18), "back at the table" + dump(dev)

    open_menu(dev, "Game log")
    assert title(dev, "Game log, turn 4"), dump(dev)
    events = ["Ann: Blindspot", "Bob discards 1", "Bob: Mirage", "Destroyed Blindspot",
              "Cy: Insight"]
    for page, line in enumerate(events, 2):
        assert rows(dev, line, 0) == [page], (line, dump(dev))
    assert rows(dev, "Cy takes 1 of", 0) == [7], dump(dev)
    dev.press("BACK")  # one level up: the game menu, not the table (whose next OK plays)
    assert dev.shows("Back to game") and not turn_of(dev, "Dee"), dump(dev)
    dev.press("BACK")
    assert turn_of(dev, "Dee"), dump(dev)


def test_a_card_of_every_player_asks_each_in_turn(make_device, root):
    """A catalog card acts on every player, clockwise from the one who played it: Dee's Rain
    (every player draws, every other player discards) is done by the device; Ann's Glance
    (every player moves a card of their view to their hand) asks Ann, then Bob, Cy and Dee, each
    named on the title line. One undo takes the card back with its four answers."""
    with open(os.path.join(root, "data", "viewpoint.jsonl"), "w") as f:
        f.write('{"name": "Rain", "value": 5, "copies": 2, '
                '"actions": ["all draw 1", "others discard 1"]}\n')
        f.write('{"name": "Glance", "value": 5, "copies": 2, "actions": ["all recall 1"]}\n')
    dev = make_device()
    new_game(dev)
    dev.presses("OK", "OK")  # Ann: Blindspot, Bob discards
    play(dev, "Blink")  # Bob
    play(dev, "Blink")  # Cy
    check_table(dev, [20, 10, 10, 0], [5, 6, 7, 6], 3)
    dev.advance(3000)
    play(dev, "Rain")  # Dee: Dee, Ann, Bob and Cy draw one; Ann, Bob and Cy discard one
    assert says(dev, "All but Dee discard 1") and turn_of(dev, "Ann"), dump(dev)
    check_table(dev, [20, 10, 10, 5], [6, 6, 7, 6], 0)
    assert actions(dev)[-1] == ["play", 3, 13], actions(dev)[-1]
    dev.advance(3000)
    before = copy.deepcopy(state(dev))

    play(dev, "Glance")
    for p, card in ((0, "Blindspot"), (1, "Blink"), (2, "Blink"), (3, "Rain")):
        assert asks(dev, p, "recall") and menu_row(dev, card), (NAMES[p], dump(dev))
        dev.press("OK")
    assert actions(dev)[-5:] == [["play", 0, 14], ["card", 0, 0, CARD["Blindspot"]],
                                 ["card", 1, 1, CARD["Blink"]], ["card", 2, 2, CARD["Blink"]],
                                 ["card", 3, 3, 13]], actions(dev)[-5:]
    check_table(dev, [5, 0, 0, 0], [6, 8, 8, 7], 1)  # Bob drew: his turn

    open_menu(dev, "Undo")  # the card and every player's answer: one thing done
    assert says(dev, "Undone: Glance") and turn_of(dev, "Ann"), dump(dev)
    assert state(dev) == before and actions(dev)[-5:] == [["undo"]] * 5

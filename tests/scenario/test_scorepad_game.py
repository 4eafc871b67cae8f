"""A whole scorepad game through the six buttons, checked on the panel and in the journal."""

import os

import pytest

from conftest import (NAMES, actions, choose, commit, cursor_at, dump, header, history, hold,
                      new_scorepad, row_score, select_player, turn_of)


def test_setup_menu_adjusts_in_place_and_starts_a_journal(make_device):
    dev = make_device()
    new_scorepad(dev, players=3, target=100)
    assert dev.shows("Round 1") and dev.shows("to 100"), dump(dev)
    for i in range(3):
        assert dev.shows(NAMES[i]) and row_score(dev, i, 0), dump(dev)
    assert not dev.shows(NAMES[3])
    assert turn_of(dev, "Ann") and cursor_at(dev, "Ann"), "the player to move is lit" + dump(dev)
    assert len(dev.journal()) == 1 and header(dev) == {
        "v": 3, "game": "scorepad", "opts": {"names": NAMES[:3], "first": 0, "target": 100,
                                             "finish": True, "rotate": False, "timer": 0}}


def test_a_whole_game(make_device, root):
    dev = make_device()
    new_scorepad(dev, players=3, target=100)

    # Three quick RIGHT presses gather into one pending +3, journaled after the pause; until
    # then the cell shows the new total and the status line says the change is pending.
    dev.presses("RIGHT", "RIGHT", "RIGHT")
    assert dev.shows("+3 pending") and row_score(dev, 0, 3), dump(dev)
    assert actions(dev) == []
    commit(dev)
    assert actions(dev) == [["add", 0, 3]]
    assert row_score(dev, 0, 3) and not dev.shows("pending") and dev.shows("Round 1"), dump(dev)

    # OK: next turn; the cursor follows the turn.
    dev.press("OK")
    assert actions(dev)[-1] == ["next"]
    assert turn_of(dev, "Bob") and cursor_at(dev, "Bob") and not turn_of(dev, "Ann"), dump(dev)

    # A held RIGHT auto-repeats and accelerates; the whole hold is ONE add action.
    hold(dev, "RIGHT", 2000)
    dev.advance(100)
    assert actions(dev)[-1] == ["next"], "nothing journaled while the change is pending"
    commit(dev)
    last = actions(dev)[-1]
    assert last[:2] == ["add", 1], last
    # 2 s held: one press and ~14 repeats. Without acceleration that is at most +15.
    assert last[2] > 15, "held key did not accelerate: %r" % last
    assert len(actions(dev)) == 3
    assert row_score(dev, 1, last[2]), dump(dev)
    bob = last[2]

    # LEFT takes points off; moving to another player commits at once. The moved cursor is a
    # lit name bar; the turn stays lit.
    dev.presses("LEFT", "LEFT")
    assert dev.shows("-2 pending"), dump(dev)
    dev.press("UP")  # the seat before Bob's: Ann
    assert actions(dev)[-1] == ["add", 1, -2]
    assert row_score(dev, 1, bob - 2) and cursor_at(dev, "Ann") and turn_of(dev, "Bob"), dump(dev)
    assert not turn_of(dev, "Ann"), dump(dev)
    bob -= 2

    # Next round through the game menu.
    dev.press("BACK")
    assert dev.shows("Back to game") and dev.shows("Undo"), dump(dev)
    choose(dev, "Next round")
    assert actions(dev)[-1] == ["round"]
    assert dev.shows("Round 2") and turn_of(dev, "Ann") and cursor_at(dev, "Ann"), dump(dev)

    # Undo takes back the round, then the -2, saying so; the cursor is back on the turn.
    dev.press("BACK")
    choose(dev, "Undo")
    assert dev.shows("Round 1") and dev.shows("Undone: new round"), dump(dev)
    dev.press("DOWN")  # the cursor moved on purpose ...
    dev.press("BACK")
    choose(dev, "Undo")
    assert actions(dev)[-2:] == [["undo"], ["undo"]]
    assert dev.shows("Undone: Bob -2") and row_score(dev, 1, bob + 2), dump(dev)
    assert turn_of(dev, "Bob") and cursor_at(dev, "Bob"), "... and the undo brings it back" + dump(dev)
    bob += 2

    # Ann reaches the target: the round is played out, then she wins, every score in view.
    select_player(dev, "Ann", "UP")
    hold(dev, "RIGHT", 4000)  # 4 s of acceleration passes 97 points
    dev.press("UP")  # moving on commits
    last = actions(dev)[-1]
    assert last[:2] == ["add", 0] and 3 + last[2] >= 100, last
    assert dev.shows("Last round") and not dev.shows("Ann wins!"), dump(dev)
    dev.press("OK")  # Bob's turn ends
    assert turn_of(dev, "Cy"), dump(dev)
    dev.press("OK")  # Cy's: the round is over
    assert dev.shows("Ann wins!") and turn_of(dev, "Ann"), dump(dev)  # the winner's cell is lit
    for i, score in enumerate((3 + last[2], bob, 0)):
        assert row_score(dev, i, score), dump(dev)
    dev.advance(5000)
    assert dev.shows("Ann wins!") and dev.shows("OK: standings"), "the result stays" + dump(dev)
    games = history(root)
    assert len(games) == 1 and games[0]["winners"] == [0], "filed the moment it was won"
    assert games[0]["scores"] == [3 + last[2], bob, 0]

    # OK: the final standings; OK again goes home, filing nothing more.
    dev.press("OK")
    assert dev.shows("1") and dev.shows("Ann") and dev.shows("%d" % (3 + last[2])), dump(dev)
    dev.press("OK")
    assert not os.path.exists(os.path.join(root, "data", "game.jnl"))
    assert len(history(root)) == 1
    assert dev.shows("Scorepad") and not dev.shows("Continue Scorepad"), dump(dev)

    # History shows it.
    choose(dev, "History")
    assert dev.shows("Scorepad: Ann"), dump(dev)


def test_a_score_corrected_below_the_target_does_not_end_the_round(make_device, root):
    """Issue 32: 4 players, target 50, the round played out. Bob holds RIGHT past 50, waits
    for the save, then corrects his score down to 33: "Last round" goes, and the end of the
    round names no winner: the game goes on (the History files nothing)."""
    dev = make_device()
    new_scorepad(dev, players=4, target=50)
    dev.press("OK")  # Ann's turn ends: Bob's
    hold(dev, "RIGHT", 3000)
    commit(dev)
    bob = actions(dev)[-1]
    assert bob[:2] == ["add", 1] and bob[2] >= 50, bob
    assert dev.shows("Last round") and dev.shows("to 50"), dump(dev)
    for _ in range(bob[2] - 33):
        dev.press("LEFT")
    commit(dev)
    assert actions(dev)[-1] == ["add", 1, 33 - bob[2]] and row_score(dev, 1, 33), dump(dev)
    assert dev.shows("Round 1") and not dev.shows("Last round"), dump(dev)
    dev.presses("OK", "OK", "OK")  # Bob, Cy, Dee: the round is over
    assert not dev.shows("Bob wins!") and dev.shows("Round 2"), dump(dev)
    assert turn_of(dev, "Ann") and row_score(dev, 1, 33), dump(dev)
    assert dev.app.game.rules.result(dev.app.game.state) is None
    assert history(root) == []


def test_new_game_with_the_same_players(make_device, root):
    dev = make_device()
    new_scorepad(dev, players=3, target=10, stop=True)
    select_player(dev, "Bob")
    dev.press("RIGHT")
    dev.press("UP")  # commits Bob +1
    dev.press("BACK")
    choose(dev, "New game")
    assert dev.shows("Start again with"), dump(dev)
    dev.press("OK")
    games = history(root)
    assert len(games) == 1 and games[0]["winners"] == [] and games[0]["scores"] == [0, 1, 0]
    assert len(dev.journal()) == 1 and header(dev)["opts"]["names"] == NAMES[:3]
    assert dev.shows("Round 1") and row_score(dev, 1, 0) and turn_of(dev, "Ann") and cursor_at(dev, "Ann"), dump(dev)

    # A finished game: "New game" needs no question.
    hold(dev, "RIGHT", 1500)
    commit(dev)
    assert dev.shows("Ann wins!"), dump(dev)
    dev.press("BACK")
    choose(dev, "New game")
    assert len(history(root)) == 2 and history(root)[1]["winners"] == [0]
    assert len(dev.journal()) == 1
    assert dev.shows("Round 1") and row_score(dev, 0, 0) and not dev.shows("Ann wins!"), dump(dev)


def test_end_game_from_the_menu_announces_a_tie(make_device, root):
    dev = make_device()
    new_scorepad(dev, players=3)
    dev.press("BACK")
    choose(dev, "End game")
    assert dev.shows("End the game now?"), dump(dev)
    dev.press("OK")
    assert actions(dev) == [["end"]]
    assert dev.shows("Tie: Ann, Bob, Cy"), dump(dev)


def test_eight_players_standings_keep_the_two_columns_apart(make_device):
    """Issue 32: past five players the standings are two columns; the first column's numbers
    ended two pixels before the second column's ranks, so "60" and "5" read "605". Between
    them there is now a space's width at least (5 blank columns: a letter's gap is 1)."""
    dev = make_device()
    new_scorepad(dev, players=8)
    for n in range(8):  # every player scores two digits or more, Ann the most
        hold(dev, "RIGHT", 3000 - 150 * n)
        dev.press("OK")
    commit(dev)
    scores = dev.app.game.rules.scores(dev.app.game.state)
    assert all(s >= 10 for s in scores) and len(set(scores)) == 8, scores
    dev.press("BACK")
    choose(dev, "End game")
    dev.press("OK")  # yes: the standings, ranks 1-4 on the left, 5-8 on the right
    assert (0, 11) in dev.find_text("1") and (0, 38) in dev.find_text("4"), dump(dev)
    px = dev.panel.pixels()
    for y in (11, 20, 29, 38):
        lit = [x for x in range(128) if any(px[y + j][x] for j in range(8))]
        left = max(x for x in lit if x < 64)
        right = min(x for x in lit if x >= 64)
        assert right - left - 1 >= 5, ("row %d: %d blank columns" % (y, right - left - 1)
                                       ) + dump(dev)


def test_holding_right_stops_at_what_the_rules_accept(make_device):
    """Issue 14: held for 10 s the pending change passed +999 and the rules dropped it whole
    ("Bad amount"). It stops at +999 and is journaled as that."""
    dev = make_device()
    new_scorepad(dev, players=2)
    hold(dev, "RIGHT", 10000)
    dev.advance(2000)  # the pause that commits it
    assert actions(dev)[-1] == ["add", 0, 999], actions(dev)
    assert row_score(dev, 0, 999), dump(dev)


def test_a_score_stops_at_its_limit(make_device):
    """Past 99,999 the change stops at the limit; nothing the player entered is dropped."""
    dev = make_device()
    new_scorepad(dev, players=2)
    for _ in range(101):
        hold(dev, "RIGHT", 10000)
        dev.advance(2000)
    assert dev.app.game.state["scores"][0] == 99999, dev.app.game.state["scores"]
    assert not dev.shows("Bad amount") and not dev.shows("Score out of"), dump(dev)


@pytest.mark.parametrize("players", [4, 5, 6, 7, 8])
def test_up_and_down_walk_the_seats_whatever_the_columns(make_device, players):
    """DOWN is the next seat, UP the one before, round the table, as Viewpoint's picker and the
    turn go: in the 2x2 grid DOWN from Ann (top left) is Bob (top right), not Cy below her, and
    with five to eight players the columns of two rows do not change the order either."""
    dev = make_device()
    new_scorepad(dev, players=players)
    seats = NAMES[:players]
    for i in range(1, players + 1):
        dev.press("DOWN")
        assert cursor_at(dev, seats[i % players]), (i, dump(dev))
    assert turn_of(dev, "Ann"), dump(dev)
    for i in range(players - 1, -1, -1):
        dev.press("UP")
        assert cursor_at(dev, seats[i]), (i, dump(dev))

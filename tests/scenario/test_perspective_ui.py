"""Perspective through the buttons: the first-player questions, a 4-player team game (a partner
done), the advanced duel's two sides, the doubles' reminder of 2 players and the solitaire, the
solitaire (moves, timer, undo, "solved" confirmed and counted, records and their undo, a power
cut), the reference card and the draw pile's rebuild.

The screen (``screens/perspective.py``) is read off the panel. Choices (the colours, the players,
the check's answers) are rows on pages 2-7 from x=2, the cursor's row a lit bar (``menu_row``).
The turn view: "Turn N" at the top left, "with <partner>" ("+ common hand", "partner done") at
the top right, a row per player on
pages 2-5 (the active player's, or the winners', lit across the panel), "done" and "xN" (failed
checks) at its right. The solitaire: the time at the top right, the moves in big digits, "Now:
<colour> (<action>)" on page 5, "Best N moves, m:ss" on page 6. Results sit on the message line
(page 7, dark on a lit bar).
"""

import json
import os

from conftest import NAMES, actions, choose, dump, goto, highlighted, history, menu_row

from tablemate.screens import perspective as screen
from tablemate.store import bests as recfile
from tablemate.ui import dialogs, text


# -- driving --------------------------------------------------------------------------------------
def new_game(dev, players=4, advanced=False):
    """From the home menu: set up and start Perspective (the setup opens at 4 players, later
    as it was last set up)."""
    choose(dev, "Perspective")
    for _ in range(6):
        now = [n for n in range(1, 5) if any(x == 2 for x, y in highlighted(
            dev, "Players: %d" % n))]  # 1: "Players: 1 (solitaire)"
        if now:
            break
        dev.press("DOWN")
    assert now, dump(dev)
    for _ in range(abs(players - now[0])):
        dev.press("RIGHT" if players > now[0] else "LEFT")
    assert highlighted(dev, "Players: %d" % players), dump(dev)
    if players == 1:
        # the whole row on the panel: "Players: 1 (solitaire)" is one character too wide
        assert (menu_row(dev, "Players: 1 (solitaire)")
                or menu_row(dev, "Players: 1 (solo)")), dump(dev)
    if advanced:
        goto(dev, "Advanced (2): off")
        dev.press("RIGHT")
        assert highlighted(dev, "Advanced (2): on"), dump(dev)
    choose(dev, "Start")
    if players <= 2 and top(dev) == "Notice":  # the doubles' reminder (its own test below)
        dev.press("OK")


def top(dev):
    return type(dev.app.top()).__name__


def state(dev):
    return dev.app.game.state


def pick(dev, label):
    """Move the cursor of a choice list (RIGHT steps down) to ``label``, then OK."""
    goto(dev, label, key="RIGHT", limit=8)
    dev.press("OK")


def open_menu(dev, entry):
    dev.press("BACK")
    assert dev.shows("Back to game"), dump(dev)
    choose(dev, entry)


# -- reading --------------------------------------------------------------------------------------
def title(dev, words):
    return (0, 0) in dev.find_text(words)


def top_right(dev, words):
    return (128 - text.ink_width(words), 0) in dev.find_text(words)


def lit_row(dev, i):
    """Player ``i``'s row (page 2 + i) is a lit bar across the panel with the name dark on it."""
    page = 2 + i
    px = dev.panel.pixels()
    bar = all(px[page * 8 + j][x] for j in range(8) for x in (0, 1, 127))
    return bar and (2, page * 8) in highlighted(dev, NAMES[i])


def row_right(dev, i, words):
    """What player ``i``'s row shows at its right end ("done", "x1", "done  x1")."""
    return (126 - text.ink_width(words), (2 + i) * 8) in dev.find_text(words)


def says(dev, words):
    return any(y == 56 for x, y in highlighted(dev, words))


def announces(dev, words):
    """The message line starts with ``words`` and its whole message fits: the lit bar's end
    columns unbroken (a message wider than the panel is cut there, or not drawn at all)."""
    px = dev.panel.pixels()
    margins = all(px[y][x] for y in range(56, 64) for x in (0, 1, 126, 127))
    return margins and says(dev, words)


def turn_view(dev, n, active, partner):
    """ "Turn n" whole at the top left, ``partner`` ("with Dee", "common hand") ending at the top
    right, only ``active`` lit."""
    ok = title(dev, "Turn %d" % n) and top_right(dev, partner)
    players = len(state(dev)["names"])
    return ok and all(lit_row(dev, i) == (i == active) for i in range(players))


# -- the tests ------------------------------------------------------------------------------------
def test_a_four_player_team_game(make_device, root):
    dev = make_device()
    new_game(dev)
    assert not dev.shows("1st player"), dump(dev)
    assert title(dev, "First card's colour?") and menu_row(dev, "yellow"), dump(dev)
    pick(dev, "red")
    assert title(dev, "Who wears most red?") and menu_row(dev, "Ann"), dump(dev)
    assert (2, 48) in dev.find_text("Random"), "the last choice" + dump(dev)
    pick(dev, "Bob")
    assert actions(dev) == [["first", 1, "red"]]
    assert turn_view(dev, 1, 1, "with Dee"), "Bob acts with Dee" + dump(dev)

    dev.press("DOWN")  # Bob: red, one press
    assert actions(dev)[-1] == ["play", 1, "red"]
    assert dev.shows("OK end turn"), dump(dev)
    dev.press("OK")
    assert turn_view(dev, 2, 2, "with Ann"), dump(dev)

    dev.press("OK")  # Cy checks before playing: failed, the turn ends
    assert title(dev, "Cy: objective?") and menu_row(dev, "No"), dump(dev)
    assert (2, 24) in dev.find_text("Yes"), dump(dev)
    dev.press("OK")
    assert actions(dev)[-1] == ["check", 2, False]
    assert turn_view(dev, 3, 3, "with Bob") and row_right(dev, 2, "x1"), dump(dev)

    dev.press("LEFT")  # Dee: blue
    dev.press("OK")
    assert turn_view(dev, 4, 0, "with Cy"), dump(dev)
    dev.press("OK")  # Ann reaches her objective: her cards set aside, play goes on
    pick(dev, "Yes")
    assert actions(dev)[-1] == ["check", 0, True]
    assert turn_view(dev, 5, 1, "with Dee") and row_right(dev, 0, "done"), dump(dev)
    assert state(dev)["over"] is False

    dev.press("UP")  # Bob: yellow
    dev.press("OK")
    dev.press("RIGHT")  # Cy: green
    dev.press("OK")
    dev.press("LEFT")  # Dee: blue; Ann is done, so Bob is next
    dev.press("OK")
    assert turn_view(dev, 8, 1, "with Dee"), "Ann's turn skipped" + dump(dev)
    assert ["skip", 0] in state(dev)["log"]
    dev.press("DOWN")
    dev.press("OK")

    dev.press("RIGHT")  # Cy: green, then UP checks at the end of the turn
    dev.press("UP")
    assert title(dev, "Cy: objective?"), dump(dev)
    pick(dev, "Yes")
    assert actions(dev)[-4:] == [["play", 1, "red"], ["end", 1], ["play", 2, "green"],
                                 ["check", 2, True]]
    assert lit_row(dev, 0) and lit_row(dev, 2), "the winning team lit" + dump(dev)
    assert not lit_row(dev, 1) and not lit_row(dev, 3), dump(dev)
    assert row_right(dev, 2, "done  x1"), dump(dev)
    assert says(dev, "Ann & Cy win!"), "a team's win, not a tie" + dump(dev)
    assert history(root)[-1]["winners"] == [0, 2], history(root)
    assert history(root)[-1]["outcome"] == "team", history(root)

    dev.press("OK")  # the standings: the team first (rows from y=11, 9 px apart), checked
    assert title(dev, "Ann & Cy win!"), dump(dev)
    rows = {name: [y for x, y in dev.find_text(name) if x == 16] for name in NAMES[:4]}
    assert rows["Ann"] == [11] and rows["Cy"] == [20], "the winners on top" + dump(dev)
    assert sorted(rows["Bob"] + rows["Dee"]) == [29, 38], dump(dev)
    assert (8, 11) in dev.find_text(text.CHECK) and (8, 20) in dev.find_text(text.CHECK), dump(dev)
    assert (8, 29) not in dev.find_text(text.CHECK), dump(dev)


def test_a_team_win_ranks_the_team_first_together_and_is_no_tie(make_device, root):
    """Ann and Cy win as a team, Cy with a failed check: both rank 1 in the standings (not 1
    and 2 by their failed checks), and neither the History nor ``tablemate report`` calls the
    win a tie. Issue 32: failed checks are no points: Bob, who failed one, and Dee share the
    third place (not "3 Dee 0 / 4 Bob -1"), and no numbers are shown."""
    from tablemate_host import pull
    dev = make_device()
    new_game(dev)
    pick(dev, "yellow")
    pick(dev, "Ann")
    dev.press("OK")  # Ann reaches her objective
    pick(dev, "Yes")
    dev.press("OK")  # Bob checks: failed
    pick(dev, "No")
    dev.press("OK")  # Cy checks: failed
    pick(dev, "No")
    dev.presses("LEFT", "OK")  # Dee: blue; Ann's turn is skipped
    dev.presses("DOWN", "OK")  # Bob: red
    dev.press("OK")  # Cy: reached, the team wins
    pick(dev, "Yes")
    assert says(dev, "Ann & Cy win!"), dump(dev)
    assert state(dev)["failed"] == [0, 1, 1, 0], state(dev)
    dev.press("OK")  # the standings
    assert title(dev, "Ann & Cy win!"), dump(dev)
    ranks = {y: [r for r in "1234" if (0, y) in dev.find_text(r)] for y in (11, 20, 29, 38)}
    assert ranks == {11: ["1"], 20: ["1"], 29: ["3"], 38: ["3"]}, "the team first together" + dump(dev)
    assert [y for x, y in dev.find_text("Bob") if x == 16] == [29], "seat order" + dump(dev)
    assert (16, 20) in dev.find_text("Cy") and not dev.shows("-1"), dump(dev)
    assert [y for x, y in dev.find_text("0")] == [], "no numbers column" + dump(dev)
    dev.press("OK")  # filed: home
    choose(dev, "History")
    # the row as the History shows it: the label shortened, the team whole
    assert dev.app.top().items[0] == "Perspecti.: Ann & Cy", dev.app.top().items
    assert (2, 16) in highlighted(dev, "Perspecti.: Ann & Cy"), dump(dev)
    dev.press("OK")  # the details: the players, winners first, no numbers
    assert dev.shows("Ann Cy Bob Dee") and not dev.shows("-1"), dump(dev)
    lines = []
    pull.report(pull.read_history(os.path.join(root, "data", "history.jnl")), lines.append)
    assert "won by Ann and Cy (team)" in lines[1] and "tie" not in lines[1], lines
    assert lines[1].endswith("Ann  Bob  Cy  Dee"), lines


def test_the_colour_keys_are_spelt_out(make_device):
    """Not "^Y >G vR <B": each key's colour in words on the bottom two lines, whole, for a card
    played and for the solitaire's next action; each reads as its key plays."""
    dev = make_device()
    new_game(dev)
    pick(dev, "yellow")
    pick(dev, "Ann")
    for y, line in ((48, "Card: \x02yellow >green"), (56, "\x03red <blue  OK check")):
        assert (0, y) in dev.find_text(line) and text.ink_width(line) <= 128, (line, dump(dev))
    assert not dev.shows("\x02Y >G"), dump(dev)
    for key, colour in (("UP", "yellow"), ("RIGHT", "green"), ("DOWN", "red"), ("LEFT", "blue")):
        dev.press(key)
        assert actions(dev)[-1][2] == colour and dev.shows("OK end turn"), (key, dump(dev))
        dev.press("OK")
    dev.press("BACK")
    choose(dev, "End game")
    dev.press("OK")
    dev.press("OK")  # the standings: home
    new_game(dev, players=1)
    pick(dev, "red")
    for y, line in ((48, "Next: \x02yellow >green"), (56, "\x03red <blue OK solved")):
        assert (0, y) in dev.find_text(line) and text.ink_width(line) <= 128, (line, dump(dev))
    dev.press("LEFT")
    assert actions(dev)[-1][:2] == ["move", "blue"] and now_line(dev, "blue"), dump(dev)


def test_a_player_whose_partner_is_done_acts_alone(make_device):
    dev = make_device()
    new_game(dev)
    pick(dev, "yellow")
    pick(dev, "Ann")
    dev.press("OK")  # Ann checks first: reached, her cards set aside
    pick(dev, "Yes")
    assert turn_view(dev, 2, 1, "with Dee"), dump(dev)
    dev.press("UP")
    dev.press("OK")
    assert turn_view(dev, 3, 2, "partner done"), "Cy has no partner's hand" + dump(dev)
    assert not dev.shows("with Ann"), dump(dev)
    dev.press("RIGHT")
    dev.press("OK")
    assert turn_view(dev, 4, 3, "with Bob"), dump(dev)


def test_random_first_player_is_journaled(make_device):
    dev = make_device()
    new_game(dev)
    dev.press("OK")  # yellow
    # "Who wears most yellow?" is 22 characters: one more than the title line holds.
    assert title(dev, "Who wears most yellow?") or title(dev, "Most yellow worn by?"), dump(dev)
    pick(dev, "Random")
    first = actions(dev)
    assert len(first) == 1 and first[0][0] == "first" and first[0][2] is None, first
    p = first[0][1]
    assert 0 <= p < 4 and turn_view(dev, 1, p, "with " + NAMES[(p + 2) % 4]), dump(dev)


def test_an_advanced_duel_won_on_the_hidden_side(make_device, root):
    dev = make_device()
    new_game(dev, players=2, advanced=True)
    assert dev.journal()[0]["opts"]["advanced"] is True, dev.journal()[0]
    pick(dev, "green")
    pick(dev, "Ann")
    assert turn_view(dev, 1, 0, "common hand"), dump(dev)
    dev.press("UP")
    dev.press("OK")
    dev.press("OK")  # Bob checks at the start of the turn
    assert title(dev, "Bob: objective?"), dump(dev)
    for i, row in enumerate(["No", "Yes, visible side", "Yes, hidden side"]):
        assert (2, 16 + 8 * i) in dev.find_text(row), (row, dump(dev))
    pick(dev, "Yes, hidden side")
    assert actions(dev)[-1] == ["check", 1, "hidden"]
    assert state(dev)["over"] and lit_row(dev, 1) and not lit_row(dev, 0), dump(dev)
    assert says(dev, "Bob wins!"), dump(dev)
    rec = history(root)[-1]
    assert rec["winners"] == [1] and rec["outcome"] == "side", rec


def now_line(dev, colour, action=None):
    """Page 4: "Now: <colour> (<action>)" centred and whole (nothing cut at the panel's edges);
    ``action`` None: only its start is read (what blue is called has to be cut to fit)."""
    px = dev.panel.pixels()
    edges = any(px[y][x] for y in range(32, 40) for x in (0, 127))
    words = "Now: %s (%s)" % (colour, action) if action else "Now: " + colour
    at = [x for x, y in dev.find_text(words) if y == 32]
    if action:
        at = [x for x in at if x == (128 - text.ink_width(words)) // 2]
    return bool(at) and not edges


def solo_view(dev, moves, clock):
    """The moves in big digits and "moves" beside them, centred together; the time."""
    from tablemate.ui.text import large
    big = large()[1]
    w = text.digits_width(moves, big) - big.spacing
    x = (128 - w - 6 - text.ink_width("moves")) // 2
    return ((x, 16) in dev.find_text("%d" % moves, big) and (x + w + 6, 24) in dev.find_text(
        "moves") and title(dev, "Solitaire") and top_right(dev, clock))


def records_file(root):
    with open(os.path.join(root, "data", recfile.FILE)) as f:
        return json.load(f)


def test_the_solitaire_moves_timer_undo_and_records(make_device, root):
    dev = make_device()
    new_game(dev, players=1)
    assert title(dev, "Last card placed?"), dump(dev)
    pick(dev, "blue")
    assert actions(dev) == [["start", "blue", 0]]
    assert solo_view(dev, 0, "0:00") and now_line(dev, "blue"), dump(dev)
    assert not dev.shows("Best"), "no record yet" + dump(dev)

    dev.advance(5000)
    assert top_right(dev, "0:05"), "the timer runs" + dump(dev)
    dev.press("UP")  # a move: the next action is yellow
    dev.press("RIGHT")
    dev.press("DOWN")
    assert solo_view(dev, 3, "0:05") and now_line(dev, "red", "replace"), dump(dev)
    assert [a[:2] for a in actions(dev)[1:]] == [["move", "yellow"], ["move", "green"],
                                                 ["move", "red"]]

    open_menu(dev, "Undo")
    assert solo_view(dev, 2, "0:05") and now_line(dev, "green", "exchange"), dump(dev)
    assert state(dev)["moves"] == 2
    dev.advance(3000)
    dev.press("OK")  # the third action solved it, about 8 s in
    dev.press("OK")  # "Solved in 3 moves?" Yes
    assert state(dev)["over"] and announces(dev, "New record"), dump(dev)
    best = records_file(root)
    assert best["moves"] == 3 and 8000 <= best["ms"] < 9500, best

    # A second solitaire: the record shown; a worse result keeps it.
    dev.press("OK")  # the standings
    dev.press("OK")  # filed: home
    new_game(dev, players=1)
    pick(dev, "yellow")
    shown = "Best 3 moves, " + recfile.fmt_ms(best["ms"])
    assert dev.shows(shown), dump(dev)
    for key in ("UP", "UP", "LEFT"):
        dev.press(key)
    dev.advance(12000)
    dev.press("OK")
    dev.press("OK")  # Yes: 4 moves
    assert state(dev)["over"] and says(dev, "Solved! OK: standings"), dump(dev)
    assert records_file(root) == best


def confirm(dev, question):
    """The Confirm box asks ``question`` (its lines on the panel), "Yes" picked."""
    box = dev.app.top()
    return (top(dev) == "Confirm" and box.lines == dialogs.wrap(question, 112)
            and all(dev.shows(line) for line in box.lines) and bool(highlighted(dev, "Yes")))


def test_solved_is_confirmed_with_the_moves(make_device):
    dev = make_device()
    new_game(dev, players=1)
    pick(dev, "red")
    dev.press("UP")
    dev.advance(4000)
    dev.press("OK")  # a slip, or the second action solved it: asked, nothing ends yet
    assert confirm(dev, "Solved in 2 moves?"), dump(dev)
    assert not state(dev)["over"] and actions(dev)[-1][0] == "move", actions(dev)
    dev.press("BACK")  # no: back to the solitaire, the clock running
    assert top(dev) == "Perspective" and not state(dev)["over"], dump(dev)
    assert solo_view(dev, 1, "0:04") and now_line(dev, "yellow", "turn"), dump(dev)
    dev.advance(2000)
    assert top_right(dev, "0:06"), dump(dev)
    dev.press("OK")
    dev.press("RIGHT")  # the arrows pick No
    assert (highlighted(dev, "No") and confirm(dev, "Solved in 2 moves?") is False), dump(dev)
    dev.press("OK")  # No
    assert not state(dev)["over"] and len(actions(dev)) == 2, actions(dev)
    dev.press("OK")
    dev.press("OK")  # Yes, "Solved in 2 moves?": the time of the OK that asked
    assert state(dev)["over"] and state(dev)["moves"] == 2, state(dev)
    assert actions(dev)[-1][0] == "solved" and 6000 <= actions(dev)[-1][1] < 7000, actions(dev)
    assert solo_view(dev, 2, recfile.fmt_ms(actions(dev)[-1][1])), dump(dev)


def test_solved_with_the_first_action_is_one_move(make_device, root):
    dev = make_device()
    new_game(dev, players=1)
    pick(dev, "green")
    dev.advance(3000)
    dev.press("OK")  # the first action solved it
    assert confirm(dev, "Solved in 1 move?"), dump(dev)
    dev.press("OK")
    assert state(dev)["moves"] == 1 and solo_view(dev, 1, "0:03"), dump(dev)
    assert records_file(root)["moves"] == 1, records_file(root)
    dev.press("OK")  # the standings: the moves said as moves, the time on the bottom line
    assert title(dev, "Ann wins!") and (0, 11) in dev.find_text("1"), dump(dev)
    assert (128 - text.ink_width("1 move"), 11) in dev.find_text("1 move"), dump(dev)
    assert dev.shows("Time 0:03"), dump(dev)
    assert history(root)[-1]["moves"] == 1 and history(root)[-1]["scores"] == [1], history(root)
    dev.press("OK")  # filed: home
    choose(dev, "History")
    dev.press("OK")
    assert dev.shows("Ann 1 move") and dev.shows("Time 0:03"), dump(dev)


def _solve_beating(dev, root, records):
    """A solitaire on a flash holding ``records``, solved in 3 moves and about 3 s: a record."""
    with open(os.path.join(root, "data", recfile.FILE), "w") as f:
        json.dump(records, f)
    new_game(dev, players=1)
    pick(dev, "blue")
    assert dev.shows("Best 5 moves, 1:00"), dump(dev)
    dev.press("UP")
    dev.press("LEFT")
    dev.advance(3000)
    dev.press("OK")
    dev.press("OK")  # Yes, 3 moves
    assert announces(dev, "New record: both"), dump(dev)
    best = records_file(root)
    assert best["moves"] == 3 and best["before"] == records, best
    assert best["game"] == dev.journal()[0]["id"], best
    assert dev.shows("Best 3 moves, 0:03"), dump(dev)


def test_an_undo_of_solved_takes_its_record_back(make_device, root):
    dev = make_device()
    before = {"moves": 5, "ms": 60000}
    _solve_beating(dev, root, before)
    open_menu(dev, "Undo")  # it was not solved after all
    assert not state(dev)["over"] and dev.shows("Undone"), dump(dev)
    assert records_file(root) == before, "the record taken back"
    assert dev.shows("Best 5 moves, 1:00"), dump(dev)
    dev.press("DOWN")  # on with the solitaire, then solved for real, worse than before
    dev.press("DOWN")
    dev.press("DOWN")
    dev.advance(60000)
    dev.press("OK")
    dev.press("OK")
    assert says(dev, "Solved! OK: standings"), dump(dev)
    assert records_file(root) == before


def test_an_undo_of_solved_after_a_power_cut_takes_its_record_back(make_device, root):
    dev = make_device()
    before = {"moves": 5, "ms": 60000}
    _solve_beating(dev, root, before)
    gid = dev.journal()[0]["id"]
    # The power goes after the journal took "solved", before the end marker was written (the
    # game is not offered again once that marker is there: it is in the History).
    os.remove(os.path.join(root, "data", "game.end"))
    dev = make_device()
    assert dev.shows("Resume game?"), dump(dev)
    dev.press("OK")
    assert state(dev)["over"] and solo_view(dev, 3, "0:03"), "resumed solved" + dump(dev)
    assert records_file(root)["game"] == gid
    open_menu(dev, "Undo")
    assert not state(dev)["over"], dump(dev)
    assert records_file(root) == before, "the record taken back after the power cut"
    assert dev.shows("Best 5 moves, 1:00"), dump(dev)


def test_two_players_and_the_solitaire_are_told_to_remove_the_doubles(make_device):
    dev = make_device()
    for players, advanced in ((1, False), (2, False), (3, False), (4, False), (2, True)):
        choose(dev, "Perspective")
        setup = dev.app.top()
        while len(setup.seats) != players:
            dev.press("RIGHT" if len(setup.seats) < players else "LEFT")
        if advanced:
            goto(dev, "Advanced (2): off")
            dev.press("RIGHT")
        choose(dev, "Start")
        if top(dev) == "Confirm":  # "Replace the saved Perspective?" (the last one)
            dev.press("OK")
        if players > 2:
            assert top(dev) == "Perspective", (players, dump(dev))
        else:
            box = dev.app.top()
            assert top(dev) == "Notice" and " ".join(box.lines) == screen.DOUBLES, dump(dev)
            assert all(dev.shows(line) for line in box.lines), dump(dev)
            dev.press("OK")  # before play
            assert top(dev) == "Perspective" and actions(dev) == [], dump(dev)
        assert title(dev, "Last card placed?" if players == 1 else "First card's colour?"), (
            dump(dev))
        dev.press("BACK")
        choose(dev, "Home")


def test_a_power_cut_mid_solitaire_resumes_paused(make_device, root):
    dev = make_device()
    new_game(dev, players=1)
    pick(dev, "red")
    dev.advance(4000)
    dev.press("UP")
    dev.advance(3000)
    dev.press("LEFT")
    done = actions(dev)
    ms = done[-1][2]
    assert len(done) == 3 and 7000 <= ms < 7500, done

    dev = make_device()  # the power goes and comes back
    if dev.shows("Resume game?"):
        dev.press("OK")
    assert solo_view(dev, 2, recfile.fmt_ms(ms)), dump(dev)
    assert now_line(dev, "blue") and dev.shows("Paused: any key"), dump(dev)
    dev.advance(5000)
    assert top_right(dev, recfile.fmt_ms(ms)), "paused: the clock stands" + dump(dev)
    dev.press("DOWN")  # only wakes the clock
    assert state(dev)["moves"] == 2 and not dev.shows("Paused: any key"), dump(dev)
    dev.advance(2000)
    assert top_right(dev, recfile.fmt_ms(ms + 2000)), dump(dev)
    dev.press("DOWN")
    assert state(dev)["moves"] == 3 and actions(dev)[:3] == done, actions(dev)


def test_the_reference_card(make_device):
    dev = make_device()
    new_game(dev)
    pick(dev, "red")
    pick(dev, "Ann")
    open_menu(dev, "Reference card")
    for colour in ("yellow", "green", "red", "blue"):
        lines = screen.REFERENCE[colour].split("\n")
        assert len(lines) <= 8, lines
        for k, line in enumerate(lines):
            assert len(line) <= 21, line
            assert (0, 8 * k) in dev.find_text(line), (line, dump(dev))
        dev.press("RIGHT")
    assert (0, 0) in dev.find_text("Yellow: turn"), "round the end" + dump(dev)
    dev.press("LEFT")
    assert (0, 0) in dev.find_text("Blue: rearrange, or"), dump(dev)
    for page in screen.SOLO_REFERENCE.values():
        assert all(len(line) <= 21 for line in page.split("\n")), page
    dev.press("OK")
    assert dev.shows("Back to game"), "back to the menu" + dump(dev)
    dev.press("BACK")
    assert turn_view(dev, 1, 0, "with Cy"), "back to the game" + dump(dev)


def test_the_draw_pile_rebuild(make_device):
    dev = make_device()
    new_game(dev)
    pick(dev, "red")
    dev.press("BACK")  # before anybody starts there is no draw pile to rebuild
    seen = []
    for _ in range(8):
        seen.append(menu_row(dev, "Draw pile empty"))
        dev.press("DOWN")
    assert not any(seen), dump(dev)
    goto(dev, "Back to game")
    dev.press("OK")
    pick(dev, "Cy")
    open_menu(dev, "Draw pile empty")
    assert dev.shows("Keep the discard"), dump(dev)
    assert actions(dev) == [["first", 2, "red"], ["rebuild"]]
    assert state(dev)["rebuilds"] == 1
    dev.press("OK")  # the notice's second box: "draw pile. No shuffle."
    assert dev.shows("No shuffle."), dump(dev)
    dev.press("OK")
    assert turn_view(dev, 1, 2, "with Ann"), dump(dev)


def test_the_game_log_shows_what_happened(make_device):
    """The colours played and the checks, newest at the bottom, from the game menu."""
    dev = make_device()
    choose(dev, "Perspective")
    choose(dev, "Start", limit=8)
    dev.press("OK")  # yellow: the first card's colour
    dev.press("OK")  # Ann wears most yellow
    dev.press("DOWN")  # Ann plays red
    dev.press("OK")  # and ends her turn
    dev.press("OK")  # Bob checks at the start of his turn ...
    dev.press("OK")  # ... No: his turn ends
    dev.press("BACK")
    choose(dev, "Game log")
    assert dev.shows("Game log, turn 3"), dump(dev)
    assert (0, 16) in dev.find_text("Ann: red (replace)"), dump(dev)
    assert (0, 24) in dev.find_text("Bob: check failed"), dump(dev)
    dev.press("OK")
    assert dev.shows("Back to game"), dump(dev)
    dev.press("BACK")
    assert dev.shows("Turn 3"), dump(dev)

"""The Perfect Moment through the buttons: the setup race, turns and both clocks, scoring and
stealing fragments, refusals, warnings and time-outs, a power cut, the menu's pause, a whole game.

The table (``screens/perfect_moment.py``) is read off the panel: "Deck N" at the top left and
"Turn N" at the top right; each player's points in the 16-px digits in their half (conftest's
``row_score``), the player to move's cell lit (``turn_of``); each clock on page 5 under the
cell, dark on a lit bar while it runs (``clock_shows``); "F face up" on page 6 (``pile``); the
bottom line says what the keys do, or a message, dark on a lit bar (``says``).
"""

import copy
import os

from conftest import (NAMES, actions, beeps, choose, dump, goto, highlighted, history, menu_row,
                      row_score, turn_of)

from tablemate.ui import text

WARN_HZ, ZERO_HZ = 1760, 880  # the screen's BEEP_WARN and BEEP_ZERO
FULL = [600000, 600000]  # both banks of a default game (10 min)


# -- driving --------------------------------------------------------------------------------------
def new_game(dev, clock=None, turn_s=None, lose=False):
    """From the home menu: set up a game (the defaults unless said) and Start: the race."""
    choose(dev, "Perfect Moment")
    assert dev.shows("New Perfect Moment"), dump(dev)
    goto(dev, "Players: 2", limit=3)
    goto(dev, "Names: Ann Bob", limit=3)
    goto(dev, "Clock: time bank", limit=3)
    if clock:
        dev.press("RIGHT")
        assert menu_row(dev, "Clock: " + clock), dump(dev)
    if clock in (None, "time bank"):  # a bank's rows; a countdown's is "Per turn"
        goto(dev, "Bank: 10 min", limit=3)
        goto(dev, "Increment: 5s", limit=3)
    else:
        goto(dev, "Per turn: 60s", limit=3)
    if turn_s:
        for _ in range((60 - turn_s) // 15):
            dev.press("LEFT")
        assert menu_row(dev, "Per turn: %ds" % turn_s), dump(dev)
    dev.press("DOWN")  # what a clock at zero does (its row: test_every_setup_row_reads_whole)
    assert any(x == 2 for x, y in highlighted(dev, "At zero:")), dump(dev)
    if lose:
        dev.press("RIGHT")
    dev.press("DOWN")
    assert menu_row(dev, "Start"), "no '1st player' row: the race decides" + dump(dev)
    dev.press("OK")
    assert dev.shows("Who is ready first?"), dump(dev)
    assert dev.journal()[0]["opts"]["zero"] == ("lose" if lose else "alert")


def bob_first(dev, **kw):
    """A new game that Bob (RIGHT) starts: his clock runs from the end of the race."""
    new_game(dev, **kw)
    dev.press("RIGHT")
    assert actions(dev) and actions(dev)[0][:2] == ["first", 1], dump(dev)


def state(dev):
    return dev.app.game.state


# -- reading --------------------------------------------------------------------------------------
def clock_shows(dev, p, time):
    """'run' when player ``p``'s clock (page 5 of their half) shows ``time`` dark on the lit
    bar, 'stop' when it shows it plainly, None when it does not show it."""
    inside = lambda x: p * 64 <= x < p * 64 + 64  # noqa: E731
    if any(y == 40 and inside(x) for x, y in highlighted(dev, time)):
        return "run"
    if any(y == 40 and inside(x) for x, y in dev.find_text(time)):
        return "stop"
    return None


def top_line(dev, deck, turn):
    """'Deck N' at the top left, 'Turn N' at the top right."""
    t = "Turn %d" % turn
    return ((0, 0) in dev.find_text("Deck %d" % deck)
            and (128 - text.SMALL.advance * len(t), 0) in dev.find_text(t))


def pile(dev, p, up, dn):
    """'<up> face up' on page 6 of player ``p``'s half, whole (the next half's text starts 5
    columns on): the fragments in front of them; and ``dn`` face-down cards in the state (final,
    their points in the score: not on the table)."""
    words = "%d face up" % up
    whole = p * 64 + 5 + text.ink_width(words) < p * 64 + 64 + 5
    return (p * 64 + 5, 48) in dev.find_text(words) and whole and (
        state(dev)["down"][p] == dn) and not dev.shows(" dn")


def says(dev, words):
    """The message line (page 7, dark on a lit bar) shows ``words``."""
    return any(y == 56 for x, y in highlighted(dev, words))


def bottom(dev, words):
    return any(y == 56 for x, y in dev.find_text(words))


def on_row(dev, words):
    """The score list's cursor row (dark on its lit bar) shows ``words``."""
    return any(y >= 16 for x, y in highlighted(dev, words))


def points(dev, ann, bob):
    return row_score(dev, 0, ann) and row_score(dev, 1, bob)


# -- 1. the setup race ----------------------------------------------------------------------------
def test_the_setup_race_and_a_tie(make_device):
    dev = make_device()
    new_game(dev)
    assert dev.shows("< LEFT") and dev.shows("RIGHT >") and actions(dev) == [], dump(dev)
    dev.advance(5000)
    assert dev.shows("Who is ready first?") and actions(dev) == [], "nobody has pressed" + dump(dev)
    dev.press("RIGHT")  # Bob alone: the game starts with him
    assert actions(dev) == [["first", 1, FULL]], actions(dev)
    assert turn_of(dev, "Bob") and not turn_of(dev, "Ann"), dump(dev)
    assert points(dev, 0, 0) and top_line(dev, 11, 1), dump(dev)
    assert clock_shows(dev, 1, "10:00") == "run", dump(dev)
    assert clock_shows(dev, 0, "10:00") == "stop", dump(dev)
    dev.advance(2000)
    assert clock_shows(dev, 1, "9:58") == "run", dump(dev)
    assert clock_shows(dev, 0, "10:00") == "stop", dump(dev)

    # A tie: LEFT, then RIGHT 40 ms later. Nothing starts until the players settle it.
    dev.press("BACK")
    choose(dev, "New game")
    assert highlighted(dev, "Yes"), dump(dev)
    dev.press("OK")  # the same players, a new race
    assert dev.shows("Who is ready first?"), dump(dev)
    dev.down("LEFT")
    dev.advance(40)
    dev.down("RIGHT")
    dev.advance(40)
    dev.up("LEFT")
    dev.up("RIGHT")
    dev.advance(1000)
    assert dev.shows("Tie! Who starts?") and highlighted(dev, "Ann"), dump(dev)
    assert actions(dev) == [], "a tie starts nobody" + dump(dev)
    dev.press("RIGHT")
    assert highlighted(dev, "Bob") and not highlighted(dev, "Ann"), dump(dev)
    dev.press("LEFT")
    assert highlighted(dev, "Ann") and not highlighted(dev, "Bob"), dump(dev)
    dev.press("OK")
    assert actions(dev) == [["first", 0, FULL]], actions(dev)
    assert turn_of(dev, "Ann") and clock_shows(dev, 0, "10:00") == "run", dump(dev)


def test_the_slower_players_ready_key_changes_nothing(make_device):
    """Both players are told "Set up, then press your key": Ann's press after Bob won the race
    is her "ready", not an item's card taken from the deck."""
    dev = make_device()
    bob_first(dev)
    dev.advance(3000)  # Ann finishes her setup a little later
    dev.press("LEFT")
    assert actions(dev) == [["first", 1, FULL]], "Ann's ready press was taken as a card"
    assert top_line(dev, 11, 1), dump(dev)
    dev.press("LEFT")  # her next press is a card taken
    assert actions(dev)[-1][:2] == ["deck", -1] and top_line(dev, 10, 1), dump(dev)


def test_the_setup_shows_the_chosen_clocks_rows_each_read_whole(make_device):
    """Only the rows of the clock chosen show (a time bank had "Per turn: 60s" under it, issue
    32), and each, with each value, fits its 118 px: nothing is cut to a dot ("At zero: alert,
    pl.")."""
    dev = make_device()
    choose(dev, "Perfect Moment")
    setup = dev.app.top()
    goto(dev, "Clock: time bank")
    shown = {}
    for clock in ("time bank", "per turn", "off"):
        for _ in range(3):
            if menu_row(dev, "Clock: " + clock):
                break
            dev.press("RIGHT")
        rows = setup.items[3:-1]  # under the clock, above Start (the race: no "1st player")
        shown[clock] = [label.split(":")[0] for label in rows]
        for k in range(len(rows)):  # each row, with each of its values
            dev.press("DOWN")
            option = [o for o in setup.option_rows if o[1] == shown[clock][k]][0]
            for _ in range(len(option[4][0])):
                label = setup.items[k + 3]
                assert menu_row(dev, label), "%r is cut short" % label + dump(dev)
                assert text.ink_width(label) <= 118, label
                dev.press("RIGHT")
        goto(dev, "Clock: " + clock, "UP")
    assert shown == {"time bank": ["Bank", "Increment", "At zero"],
                     "per turn": ["Per turn", "At zero"], "off": []}, shown


# -- 2. turns and clocks --------------------------------------------------------------------------
def test_ok_ends_a_turn_and_passes_the_clock_with_the_increment(make_device):
    dev = make_device()
    bob_first(dev)
    assert bottom(dev, "OK end turn"), dump(dev)
    dev.advance(30000)
    assert clock_shows(dev, 1, "9:30") == "run", dump(dev)
    dev.press("OK")  # one press: Bob's 9:30 (and a little) + 0:05, Ann's runs
    end = actions(dev)[-1]
    assert end[:2] == ["end", 1] and end[2][0] == 600000, end
    assert 574000 < end[2][1] <= 575000, "10:00 - 0:30.x + 0:05" + repr(end)
    assert turn_of(dev, "Ann") and not turn_of(dev, "Bob") and top_line(dev, 11, 2), dump(dev)
    assert clock_shows(dev, 1, "9:35") == "stop", "10:00 - 0:30 + 0:05" + dump(dev)
    assert clock_shows(dev, 0, "10:00") == "run", dump(dev)
    dev.advance(12000)
    assert clock_shows(dev, 0, "9:48") == "run", dump(dev)
    assert clock_shows(dev, 1, "9:35") == "stop", "Bob's clock is frozen" + dump(dev)
    dev.press("OK")
    assert turn_of(dev, "Bob") and top_line(dev, 11, 3), dump(dev)
    assert clock_shows(dev, 0, "9:53") == "stop" and clock_shows(dev, 1, "9:35") == "run", dump(dev)
    assert [a[0] for a in actions(dev)] == ["first", "end", "end"]


# -- 3. scoring -----------------------------------------------------------------------------------
def test_scores_fragments_and_a_steal_within_four_presses(make_device):
    dev = make_device()
    bob_first(dev)
    dev.press("UP")  # the list opens on Bob's plan, at 2 points
    assert dev.shows("Bob scores") and menu_row(dev, "Plan"), dump(dev)
    assert dev.shows("< 2 >") and bottom(dev, "2: both, opposite"), dump(dev)
    dev.press("OK")
    assert actions(dev)[-1][:4] == ["score", 1, "plan", 2], actions(dev)
    assert points(dev, 0, 2) and top_line(dev, 10, 1), "a new plan drawn" + dump(dev)
    assert pile(dev, 1, 0, 1) and pile(dev, 0, 0, 0), dump(dev)
    dev.press("OK")

    dev.press("DOWN")  # Ann: the list opens on the Paradox
    assert dev.shows("Ann scores") and menu_row(dev, "Paradox"), dump(dev)
    dev.press("RIGHT")
    assert dev.shows("< 3 >") and bottom(dev, "3: both, same way"), dump(dev)
    dev.press("RIGHT")  # round the end
    assert dev.shows("< 1 >") and bottom(dev, "1: one item"), dump(dev)
    dev.press("OK")  # one item: a fragment in front of Ann; a new Paradox from the deck
    assert actions(dev)[-1][:4] == ["score", 0, "paradox", 1], actions(dev)
    assert points(dev, 1, 2) and top_line(dev, 9, 2), dump(dev)
    assert pile(dev, 0, 1, 0) and pile(dev, 1, 0, 1), dump(dev)
    dev.press("OK")

    # Bob steals Ann's fragment: UP (the plan), UP (round the end: the fragment), a point, OK.
    dev.press("UP")
    dev.press("UP")
    assert on_row(dev, "Ann") and dev.shows("< 2 >"), "Ann's fragment" + dump(dev)
    dev.press("LEFT")  # a fragment needs both items: 2 or 3, never 1
    assert dev.shows("< 3 >") and not bottom(dev, "1: one item"), dump(dev)
    dev.press("LEFT")
    assert dev.shows("< 2 >"), dump(dev)
    dev.press("RIGHT")
    assert dev.shows("< 3 >") and bottom(dev, "3: both, same way"), dump(dev)
    dev.press("OK")
    assert actions(dev)[-1][:4] == ["score", 1, "frag0", 3], actions(dev)
    assert points(dev, 0, 5), "Ann loses the fragment's point, Bob gains 3" + dump(dev)
    assert pile(dev, 0, 0, 0) and pile(dev, 1, 0, 2), "the card moved to Bob" + dump(dev)
    assert top_line(dev, 9, 3), "a fragment is not replaced from the deck" + dump(dev)


def test_a_long_name_leaves_the_points_of_its_fragment_readable(make_device):
    """Names have up to 8 letters: the fragment rows of the score list name their owner in full
    and keep clear of the points at the right (a dark column between)."""
    dev = make_device(settings={"names": ["Maximili", "Hannelor"] + NAMES[2:]})
    choose(dev, "Perfect Moment")
    choose(dev, "Start")
    dev.press("RIGHT")  # Hannelor starts and ends the turn
    dev.press("OK")
    dev.presses("DOWN", "LEFT", "OK", "OK")  # Maximili: the Paradox for 1, a fragment
    dev.press("UP")  # Hannelor: the plan, and the fragment below it
    px = dev.panel.pixels()
    frag = [(x, y) for x, y in dev.find_text("Maximili") if y >= 16]
    assert len(frag) == 1, "the owner named in full" + dump(dev)
    y = frag[0][1]
    two = [x for x, ty in dev.find_text("2") if ty == y and x > 64]
    assert two and not any(px[y + j][two[0] - 1] for j in range(8)), \
        "the label runs into its points" + dump(dev)
    dev.press("UP")  # the cursor on the fragment: its points between < and >
    px = dev.panel.pixels()
    pts = [x for x, ty in dev.find_text("< 2 >") if ty == y]
    assert on_row(dev, "Maximili") and pts, dump(dev)
    assert not any(px[y + j][pts[0] - 1] for j in range(8)), \
        "the cursor's bar runs under its points" + dump(dev)


# -- 4. refusals ----------------------------------------------------------------------------------
def test_refusals_leave_the_game_as_it_was(make_device, root):
    dev = make_device()
    bob_first(dev)
    dev.press("UP")
    dev.press("OK")
    before, snap = actions(dev), copy.deepcopy(state(dev))
    dev.press("UP")  # a second score this turn
    assert says(dev, "One score a turn") and not dev.shows("Bob scores"), dump(dev)
    assert actions(dev) == before and state(dev) == snap and points(dev, 0, 2), dump(dev)

    for n in range(9, -1, -1):  # LEFT: an item takes a card from the deck
        dev.press("LEFT")
        assert top_line(dev, n, 1) and actions(dev)[-1][:2] == ["deck", -1], dump(dev)
    assert state(dev)["deck"] == 0
    before, snap = actions(dev), copy.deepcopy(state(dev))
    dev.press("LEFT")  # from the empty deck: asked first, as it ends the game
    assert dev.shows("Yes") and dev.shows("No"), dump(dev)
    dev.press("BACK")  # no
    assert actions(dev) == before and state(dev) == snap and history(root) == [], dump(dev)
    assert turn_of(dev, "Bob") and top_line(dev, 0, 1), dump(dev)
    dev.press("LEFT")
    dev.press("OK")  # yes: the game ends, a draw from the empty deck
    assert actions(dev)[-1][:2] == ["empty", 1], actions(dev)
    assert state(dev)["outcome"] == "draw", state(dev)
    assert says(dev, "Bob wins!") and turn_of(dev, "Bob"), "Bob leads 2-0" + dump(dev)
    games = history(root)
    assert len(games) == 1 and games[0]["outcome"] == "draw" and games[0]["winners"] == [1], games


# -- 5. warnings and time-outs --------------------------------------------------------------------
def test_a_clock_at_zero_loses_with_its_warnings(make_device, root):
    dev = make_device()
    bob_first(dev, clock="per turn", turn_s=15, lose=True)
    assert actions(dev)[0] == ["first", 1, [15000, 15000]], actions(dev)
    start = dev.now
    dev.advance(16000)
    warned = [t - start for t in beeps(WARN_HZ) if t >= start]
    assert len(warned) == 2 and 4900 <= warned[0] <= 5200 and 9900 <= warned[1] <= 10200, warned
    assert len(beeps(ZERO_HZ)) == 1, beeps(ZERO_HZ)
    assert actions(dev)[-1][:2] == ["timeout", 1], actions(dev)
    assert says(dev, "Ann wins!") and turn_of(dev, "Ann") and not turn_of(dev, "Bob"), dump(dev)
    assert clock_shows(dev, 1, "time is up") == "stop", "Bob's clock says why" + dump(dev)
    games = history(root)
    assert len(games) == 1 and games[0]["winners"] == [0] and games[0]["outcome"] == "time", games


def test_a_game_lost_on_time_says_whose_time_is_up(make_device, root):
    """"Ann wins! Ann 0 / Bob 0" does not say why: the standings, the History and the report
    say "Bob's time is up"."""
    from tablemate_host import pull
    dev = make_device()
    bob_first(dev, clock="per turn", turn_s=15, lose=True)
    dev.advance(16000)
    dev.press("OK")  # the standings
    assert (0, 0) in dev.find_text("Ann wins!"), dump(dev)
    why = "Bob's time is up"
    assert ((128 - text.ink_width(why)) // 2, 56) in dev.find_text(why), \
        "centred on the bottom line" + dump(dev)
    dev.press("OK")  # filed: home
    choose(dev, "History")
    dev.press("OK")  # the game's details
    assert dev.shows("Ann 0 Bob 0") and dev.shows("Bob's time is up"), dump(dev)
    lines = []
    pull.report(pull.read_history(os.path.join(root, "data", "history.jnl")), lines.append)
    assert "won by Ann" in lines[1] and lines[1].endswith("(Bob's time is up)"), lines


def test_a_tie_says_that_the_last_turn_won(make_device, root):
    """Issue 32: the deck runs out with the points equal: the player who took the last turn
    wins (the rulebook's tie-break), and the standings, the History and the report say why."""
    from tablemate_host import pull
    dev = make_device()
    bob_first(dev)
    for _ in range(12):  # Bob's items draw the whole deck
        if state(dev)["deck"]:
            dev.press("LEFT")
    assert state(dev)["deck"] == 0 and not state(dev)["over"], dump(dev)
    dev.press("OK")  # his turn ends with the deck empty: 0 to 0, his was the last turn
    assert state(dev)["outcome"] == "deck" and history(root)[-1]["winners"] == [1], dump(dev)
    dev.press("OK")  # the standings
    assert (0, 0) in dev.find_text("Bob wins!"), dump(dev)
    why = "Tie: last turn won"
    assert ((128 - text.ink_width(why)) // 2, 56) in dev.find_text(why), dump(dev)
    dev.press("OK")  # filed: home
    choose(dev, "History")
    dev.press("OK")  # the game's details
    assert dev.shows("Ann 0 Bob 0") and dev.shows(why), dump(dev)
    lines = []
    pull.report(pull.read_history(os.path.join(root, "data", "history.jnl")), lines.append)
    assert "won by Bob" in lines[1] and lines[1].endswith("(%s)" % why), lines


def test_a_clock_at_zero_plays_on(make_device):
    dev = make_device()
    bob_first(dev, clock="per turn", turn_s=15)
    dev.advance(16000)
    assert len(beeps(ZERO_HZ)) == 1 and says(dev, "Bob: time is up!"), dump(dev)
    assert actions(dev)[-1][:2] == ["timeout", 1] and state(dev)["late"] == [0, 1], actions(dev)
    assert turn_of(dev, "Bob") and clock_shows(dev, 1, "0.0"), dump(dev)
    dev.advance(5000)
    assert len(beeps(ZERO_HZ)) == 1 and len(actions(dev)) == 2, "told once" + dump(dev)
    dev.press("OK")  # the turn still ends; Ann's turn has its 15 s
    assert actions(dev)[-1][:2] == ["end", 1] and turn_of(dev, "Ann"), dump(dev)
    assert clock_shows(dev, 0, "15.0") is None and clock_shows(dev, 0, "0:15") == "run", dump(dev)
    dev.advance(3000)
    assert clock_shows(dev, 0, "0:12") == "run", dump(dev)


# -- 6. a power cut -------------------------------------------------------------------------------
def test_a_power_cut_resumes_the_clocks_paused(make_device):
    dev = make_device()
    bob_first(dev)
    dev.advance(20000)
    dev.press("OK")  # journaled: Ann 10:00, Bob 9:40 + 0:05
    saved = actions(dev)[-1][2]
    dev.advance(25000)  # Ann thinks; nothing journaled... and the power goes
    assert clock_shows(dev, 0, "9:35") == "run", dump(dev)
    journal = dev.journal()

    dev = make_device()
    assert dev.shows("Resume game?"), dump(dev)
    dev.press("OK")
    # Ann's clock as kept 20 s into her turn (every 10 s: clock.Autosave), not as the last
    # action journaled it (10:00): the cut took back 5 s of her thinking, never more than 10
    assert clock_shows(dev, 0, "9:40") == "stop", "kept 20 s into the turn" + dump(dev)
    assert 584000 < saved[1] <= 585000, saved
    assert clock_shows(dev, 1, "9:45") == "stop", dump(dev)
    assert turn_of(dev, "Ann") and bottom(dev, "Paused: any key"), dump(dev)
    assert dev.journal() == journal, "the clocks kept beside the journal, not in it"
    dev.advance(20000)
    assert clock_shows(dev, 0, "9:40") == "stop" and clock_shows(dev, 1, "9:45") == "stop", \
        "paused" + dump(dev)
    count = len(actions(dev))
    dev.press("UP")  # resumes the clocks, and only that
    assert not dev.shows("Ann scores") and not bottom(dev, "Paused: any key"), dump(dev)
    assert len(actions(dev)) == count, dump(dev)
    dev.advance(4000)
    assert clock_shows(dev, 0, "9:36") == "run", dump(dev)
    dev.press("OK")  # Ann's turn ends: journaled with the times as they run now
    assert 575000 < actions(dev)[-1][2][0] <= 581000, actions(dev)[-1]

    dev = make_device()  # a cut right after that action: its own times, the kept ones stale
    dev.press("OK")
    assert clock_shows(dev, 1, "9:45") == "stop" and turn_of(dev, "Bob"), dump(dev)


def test_a_power_cut_while_playing_on_at_zero_does_not_time_out_again(make_device):
    dev = make_device()
    bob_first(dev, clock="per turn", turn_s=15)
    dev.advance(16000)  # Bob at zero plays on
    dev.press("UP")
    dev.press("OK")  # and scores: journaled with his clock at 0
    assert actions(dev)[-1][:2] == ["score", 1] and actions(dev)[-1][4][1] == 0, actions(dev)
    count = len(actions(dev))

    dev = make_device()
    dev.press("OK")  # resume
    dev.advance(3000)
    assert len(actions(dev)) == count, "a second timeout journaled: %r" % actions(dev)[count:]
    assert beeps(ZERO_HZ) == [], "the zero alarm again"
    assert state(dev)["late"] == [0, 1] and bottom(dev, "Paused: any key"), dump(dev)
    dev.press("LEFT")  # resumes
    dev.advance(2000)
    assert len(actions(dev)) == count and beeps(ZERO_HZ) == [], actions(dev)[count:]
    dev.press("OK")  # Bob's turn ends; Ann's 15 s run
    assert turn_of(dev, "Ann") and clock_shows(dev, 0, "0:15") == "run", dump(dev)


# -- 7. the game menu -----------------------------------------------------------------------------
def test_the_game_menu_pauses_the_clocks(make_device):
    dev = make_device()
    bob_first(dev)
    dev.advance(10000)
    dev.press("BACK")  # the menu is open: Bob's time stands still
    assert menu_row(dev, "Back to game"), dump(dev)
    dev.advance(20000)
    dev.press("OK")
    assert clock_shows(dev, 1, "9:50") == "run", "20 s in the menu cost nothing" + dump(dev)
    dev.advance(5000)
    assert clock_shows(dev, 1, "9:45") == "run", dump(dev)

    dev.press("BACK")
    choose(dev, "Pause")
    assert clock_shows(dev, 1, "9:45") == "stop" and bottom(dev, "Paused: any key"), dump(dev)
    dev.advance(20000)
    assert clock_shows(dev, 1, "9:45") == "stop", dump(dev)
    dev.press("OK")  # resumes, does not end the turn
    assert turn_of(dev, "Bob") and [a[0] for a in actions(dev)] == ["first"], dump(dev)
    dev.advance(5000)
    assert clock_shows(dev, 1, "9:40") == "run", dump(dev)


# -- 8. a whole game ------------------------------------------------------------------------------
def test_a_whole_game_to_16_points(make_device, root):
    dev = make_device()
    bob_first(dev)
    for turn in range(5):  # Bob: his plan for 3; Ann: the Paradox for 2
        dev.presses("UP", "RIGHT", "OK", "OK")
        dev.presses("DOWN", "OK", "OK")
        assert points(dev, 2 * (turn + 1), 3 * (turn + 1)), dump(dev)
    assert top_line(dev, 1, 11) and turn_of(dev, "Bob"), dump(dev)
    dev.presses("UP", "LEFT", "OK")  # one item: 16, the game ends in the middle of his turn
    assert points(dev, 10, 16) and state(dev)["outcome"] == "16", dump(dev)
    assert says(dev, "Bob wins!") and turn_of(dev, "Bob") and not turn_of(dev, "Ann"), dump(dev)
    assert pile(dev, 1, 1, 5) and pile(dev, 0, 0, 5), dump(dev)
    games = history(root)
    assert len(games) == 1 and games[0]["game"] == "perfect_moment", games
    assert games[0]["winners"] == [1] and games[0]["scores"] == [10, 16], games
    assert games[0]["outcome"] == "16" and games[0]["turns"] == 11, games

    dev.press("OK")  # the standings
    assert (0, 0) in dev.find_text("Bob wins!") and dev.shows(text.CHECK), dump(dev)
    assert dev.shows("16") and dev.shows("10"), dump(dev)
    dev.press("OK")  # home: the journal gone, the game in the history
    assert not os.path.exists(os.path.join(root, "data", "game.jnl"))
    assert menu_row(dev, "Perfect Moment") and len(history(root)) == 1, dump(dev)


def test_three_buttons_score_from_rows_and_take_deck_cards_from_the_menu(make_device):
    """Without LEFT/RIGHT each card's points are rows of their own, and the game menu takes a
    card from the deck or puts one back; the race is PREV (left player) and NEXT (right)."""
    dev = make_device(layout="three")
    dev.choose("Perfect Moment")
    dev.choose("Start")
    assert dev.shows("Who is ready first?") and dev.shows("NEXT >"), dump(dev)
    dev.press("DOWN")  # NEXT: the right player is ready first
    dev.advance(300)
    assert actions(dev)[0][:2] == ["first", 1], actions(dev)
    dev.press("UP")  # the score list, one row per card and points
    assert dev.menu_row("Plan: 1") and dev.shows("Plan: 3") and dev.shows("Paradox: 2"), dump(dev)
    dev.press("DOWN")
    dev.press("DOWN")
    assert dev.menu_row("Plan: 3") and dev.shows("3: both, same way"), dump(dev)
    dev.press("OK")
    assert actions(dev)[-1][:4] == ["score", 1, "plan", 3], actions(dev)
    assert row_score(dev, 1, 3), dump(dev)
    dev.long_press("OK")  # the game menu
    dev.choose("Card to the deck")
    assert actions(dev)[-1][:2] == ["deck", 1] and dev.shows("Deck 11"), dump(dev)

"""Cartes sur Table through the buttons: the open ballot and its press budget, a tie settled by
the Patient, the secret ballot (every frame and journal line read until the reveal), a power cut
mid-ballot, a changed secret vote, refusals, and a whole 3-player game to its shared win.

The picker (``screens/cartes_sur_table.py``) is read off the panel: the progress on the title
line, "Patient: <name>" on page 2, "<name> votes" (or "Tie: <name> picks") dark on a lit bar on
page 3, the cards in the 16-px digits on pages 4-5 in equal columns (the cursor's column a lit
block), and the count of votes per card in the small font on page 6 under its card.
"""

import copy
import json
import os

from conftest import (NAMES, actions, choose, dump, goto, highlighted, history, menu_row,
                      row_score)

from tablemate.ui import text


# -- driving --------------------------------------------------------------------------------------
def new_game(dev, players=5, secret=False):
    """From the home menu: set up and start a game (the setup opens at 5 players)."""
    choose(dev, "Cartes sur Table")
    assert menu_row(dev, "Players: 5"), dump(dev)
    for _ in range(abs(players - 5)):
        dev.press("RIGHT" if players > 5 else "LEFT")
    assert highlighted(dev, "Players: %d" % players), dump(dev)
    goto(dev, "Secret ballot: off")
    if secret:
        dev.press("RIGHT")
        assert menu_row(dev, "Secret ballot: on"), dump(dev)
    assert dev.shows("Just met: off") and dev.shows("1st player: Ann"), dump(dev)
    choose(dev, "Start")
    dev.advance(300)


def state(dev):
    return dev.app.game.state


def cards_of(dev):
    from tablemate.rules import cartes_sur_table as rules
    return rules.cards(state(dev))


def lit_card(dev, m):
    """The card whose column is a lit block (the cursor), or None."""
    px = dev.panel.pixels()
    w = 128 // m
    got = [c + 1 for c in range(m) if px[32][c * w + 1] and px[47][c * w + w - 2]]
    assert len(got) <= 1, got
    return got[0] if got else None


def digits_shown(dev, m):
    """Every card 1..m drawn in the big digits, centred in its column on pages 4-5."""
    big = text.large()[1]
    w = 128 // m
    for c in range(1, m + 1):
        x0 = (c - 1) * w
        hits = [x for x, y in dev.find_text("%d" % c, big) if y == 32 and x0 <= x < x0 + w]
        if not hits:
            return False
    return True


def counts(dev, m):
    """The counts under the cards on page 6 (0 where nothing is written)."""
    w = 128 // m
    out = [0] * m
    for k in range(1, 8):
        s = "%d" % k
        for x, y in dev.find_text(s):
            if y == 48:
                c = x // w
                if x == c * w + (w - text.ink_width(s)) // 2:
                    out[c] = k
    return out


def counts_row_blank(px):
    """Page 6 holds no count: its ink rows (its last may be the top row of the message line's
    lit band, ``text.bar``)."""
    return not any(any(row) for row in px[48:55])


def title(dev, words):
    return (0, 0) in dev.find_text(words)


def bar(dev, words):
    """``words`` dark on the lit bar of page 3 (whose vote, or who settles a tie)."""
    return (2, 24) in highlighted(dev, words)


def says(dev, words):
    return any(y == 56 for x, y in highlighted(dev, words))


def vote(dev, card, keys=None):
    """Move the cursor to ``card`` (with ``keys``, or RIGHT until it is lit) and press OK; the
    number of presses."""
    m = cards_of(dev)
    n = 0
    for key in keys or ():
        dev.press(key)
        n += 1
    while keys is None and lit_card(dev, m) != card and n < m:
        dev.press("RIGHT")
        n += 1
    assert lit_card(dev, m) == card, (card, dump(dev))
    dev.press("OK")
    return n + 1


def open_menu(dev, entry):
    dev.press("BACK")
    choose(dev, entry)


def secret_vote(dev, name, card):
    """``name`` takes the device and votes ``card``; the card the picker started on."""
    assert dev.shows("Pass the device to") and dev.shows(name) and dev.shows("OK to vote"), \
        dump(dev)
    dev.press("OK")
    start = lit_card(dev, cards_of(dev))
    assert bar(dev, name + " votes") and start == dev.app.top().cur, dump(dev)
    assert counts_row_blank(dev.panel.pixels()), "no count in the private picker" + dump(dev)
    vote(dev, card)
    return start


def reveal(dev):
    assert dev.shows("All votes in") and dev.shows("OK: reveal"), dump(dev)
    dev.press("OK")


# -- the tests ------------------------------------------------------------------------------------
def test_open_ballot_counts_and_press_budget(make_device):
    dev = make_device()
    new_game(dev)
    assert title(dev, "Round 1/4 Patient 1/5") and dev.shows("Patient: Ann"), dump(dev)
    assert bar(dev, "Ann votes") and digits_shown(dev, 4), dump(dev)
    assert lit_card(dev, 4) == 1 and counts(dev, 4) == [0, 0, 0, 0], dump(dev)
    for key, card in (("RIGHT", 2), ("LEFT", 1), ("LEFT", 4), ("RIGHT", 1)):
        dev.press(key)
        assert lit_card(dev, 4) == card, (key, dump(dev))
    assert actions(dev) == [], "moving the cursor votes nothing"

    # 5 votes, 3 agree (card 3): the cursor starts on the most-voted card so far.
    presses = vote(dev, 3, ["DOWN"])
    assert bar(dev, "Bob votes") and lit_card(dev, 4) == 3, "the cursor on the favourite" + \
        dump(dev)
    assert counts(dev, 4) == [0, 0, 1, 0], dump(dev)
    presses += vote(dev, 3, [])
    presses += vote(dev, 1, ["DOWN"])
    assert bar(dev, "Dee votes") and lit_card(dev, 4) == 3, dump(dev)
    assert counts(dev, 4) == [1, 0, 2, 0], dump(dev)
    presses += vote(dev, 3, [])
    assert bar(dev, "Eve votes") and counts(dev, 4) == [1, 0, 3, 0], dump(dev)
    presses += vote(dev, 4, ["RIGHT"])
    assert presses <= 10, presses
    assert actions(dev) == [["vote", 0, 3], ["vote", 1, 3], ["vote", 2, 1], ["vote", 3, 3],
                            ["vote", 4, 4]]

    assert title(dev, "Ann keeps card 3"), dump(dev)
    assert (0, 56) in dev.find_text("+1 Ann, Bob, Dee"), dump(dev)
    dev.press("DOWN")  # the score table
    for i, pts in enumerate([1, 1, 0, 1, 0]):
        assert row_score(dev, i, pts), (NAMES[i], dump(dev))
    dev.press("UP")
    assert title(dev, "Ann keeps card 3"), dump(dev)
    dev.press("OK")
    assert title(dev, "Round 1/4 Patient 2/5") and dev.shows("Patient: Bob"), dump(dev)
    assert bar(dev, "Ann votes") and lit_card(dev, 4) == 1 and counts(dev, 4) == [0] * 4, \
        dump(dev)


def test_a_tie_is_settled_by_the_patient(make_device):
    dev = make_device()
    new_game(dev)
    for card in (1, 1, 2, 2, 3):
        vote(dev, card)
    assert bar(dev, "Tie: Ann picks") and lit_card(dev, 4) == 1, dump(dev)
    assert counts(dev, 4) == [2, 2, 0, 0], "the tied cards' counts only" + dump(dev)
    seen = []
    for key in ("RIGHT", "RIGHT", "RIGHT", "LEFT", "DOWN", "UP"):
        dev.press(key)
        seen.append(lit_card(dev, 4))
    assert set(seen) == {1, 2}, "only the tied cards are reachable: %r" % seen
    while lit_card(dev, 4) != 2:
        dev.press("RIGHT")
    dev.press("OK")
    assert actions(dev)[-1] == ["tiebreak", 2]
    assert title(dev, "Ann keeps card 2") and (0, 56) in dev.find_text("+1 Cy, Dee"), dump(dev)
    assert state(dev)["points"] == [0, 0, 1, 1, 0] and state(dev)["kept"][0] == [2]


def test_secret_ballot_shows_and_journals_no_vote_before_the_reveal(make_device, root):
    dev = make_device()
    new_game(dev, secret=True)
    frames = []
    write = dev.panel.write

    def spy(data):  # every state of the panel, after each I2C transaction
        write(data)
        frames.append(dev.panel.pixels())
    dev.panel.write = spy
    jnl = os.path.join(root, "data", "game.jnl")
    votes = [2, 4, 2, 3, 2]
    assert title(dev, "Round 1/4 Patient 1/5"), dump(dev)
    starts = []
    for p in range(5):
        starts.append(secret_vote(dev, NAMES[p], votes[p]))
        with open(jnl) as f:
            lines = [json.loads(line) for line in f.read().splitlines()[1:]]
        lines = [a for a in lines if isinstance(a, list)]
        assert [a[:2] for a in lines] == [["seal", q] for q in range(p + 1)], lines
        assert all(type(a[2]) is int and a[2] > 10 for a in lines), lines
        assert sorted(os.listdir(os.path.dirname(jnl))) == ["board.json", "game.jnl",
                                                            "settings.json", "setups.json"]
        if p < 4:  # the screen blanks: only the next name
            assert dev.shows("Pass the device to") and dev.shows(NAMES[p + 1]), dump(dev)
            assert not dev.shows(NAMES[p]) and lit_card(dev, 4) is None, dump(dev)
    assert dev.shows("All votes in"), dump(dev)
    assert not any(frame_has(px, "%d" % k, rows=(48,)) for px in frames for k in range(1, 6)), \
        "a count on page 6 before the reveal"
    assert not any(frame_has(px, "keeps card") or frame_has(px, "+1") for px in frames), \
        "no result before the reveal"
    assert len(frames) > 20 and any(frame_has(px, "OK to vote", rows=(48,)) for px in frames)
    assert rules_votes(dev) == [None] * 5
    assert len(set(starts)) > 1, "each picker starts on a card drawn at random: %r" % starts

    frames[:] = []
    reveal(dev)
    assert actions(dev)[-1] == ["reveal", votes]
    assert any(frame_has(px, "+1") for px in frames), "the checks above see a result"
    assert title(dev, "Ann keeps card 2") and (0, 56) in dev.find_text("+1 Ann, Cy, Eve"), \
        dump(dev)


def frame_has(px, words, rows=None):
    """``words`` (lit on dark) in the frame ``px`` (at a top row of ``rows``, else anywhere)."""
    from tablemate_host.device import render_rows
    pat = render_rows(words, text.SMALL)
    h, w = len(pat), len(pat[0])
    return any(all(px[y + j][x:x + w] == pat[j] for j in range(h))
               for y in (rows or range(64 - h + 1)) for x in range(128 - w + 1))


def rules_votes(dev):
    return list(state(dev)["votes"])


def test_power_cut_mid_secret_ballot(make_device, root):
    """The sealed votes are in RAM only: a cut loses them, the seals say whose they were, and
    those players are told and vote again before the others go on."""
    dev = make_device()
    new_game(dev, secret=True)
    secret_vote(dev, "Ann", 3)
    secret_vote(dev, "Bob", 1)
    before = actions(dev)

    dev = make_device()
    assert dev.shows("Resume game?"), dump(dev)
    dev.press("OK")
    assert dev.shows("Power cut: 2") and dev.shows("secret votes were") and dev.shows(
        "again first."), dump(dev)
    dev.press("OK")
    assert actions(dev) == before and rules_votes(dev) == [None] * 5
    assert dev.shows("Ann") and dev.shows("OK to vote again"), dump(dev)
    secret_vote(dev, "Ann", 3)
    assert dev.shows("Bob") and dev.shows("OK to vote again"), dump(dev)
    secret_vote(dev, "Bob", 1)
    assert dev.shows("Pass the device to") and dev.shows("Cy"), dump(dev)
    dev.press("OK")
    assert bar(dev, "Cy votes") and counts_row_blank(dev.panel.pixels()), dump(dev)
    vote(dev, 3)
    secret_vote(dev, "Dee", 2)
    secret_vote(dev, "Eve", 3)
    reveal(dev)
    assert actions(dev)[-1] == ["reveal", [3, 1, 3, 2, 3]]
    assert title(dev, "Ann keeps card 3") and (0, 56) in dev.find_text("+1 Ann, Cy, Eve"), \
        dump(dev)


def test_change_a_secret_vote(make_device, root):
    dev = make_device()
    new_game(dev, secret=True)
    secret_vote(dev, "Ann", 1)
    secret_vote(dev, "Bob", 2)
    open_menu(dev, "Change a vote")
    assert dev.shows("Whose vote?") and dev.shows("Ann") and dev.shows("Bob"), dump(dev)
    assert not dev.shows("Cy"), "only who voted" + dump(dev)
    choose(dev, "Ann")
    secret_vote(dev, "Ann", 4)
    assert [a[:2] for a in actions(dev)] == [["seal", 0], ["seal", 1], ["seal", 0]]
    open_menu(dev, "Undo")  # the change taken back: Ann's first vote counts again
    assert [a[:2] for a in actions(dev) if a != ["undo"]] == [["seal", 0], ["seal", 1],
                                                             ["seal", 0]]
    assert [a[1] for a in dev.app.game._tail] == [0, 1]
    choose_again = dev.shows("Pass the device to") and dev.shows("Cy")
    assert choose_again, "Cy votes next, nobody again" + dump(dev)
    open_menu(dev, "Change a vote")
    choose(dev, "Ann")
    secret_vote(dev, "Ann", 4)
    secret_vote(dev, "Cy", 4)
    secret_vote(dev, "Dee", 1)
    secret_vote(dev, "Eve", 4)
    reveal(dev)
    assert actions(dev)[-1] == ["reveal", [4, 2, 4, 1, 4]]
    assert title(dev, "Ann keeps card 4"), dump(dev)


def test_refusals_leave_the_state_untouched(make_device):
    dev = make_device()
    new_game(dev)
    open_menu(dev, "Undo")
    assert says(dev, "Nothing to undo"), dump(dev)
    vote(dev, 2)
    dev.press("BACK")
    assert dev.shows("Back to game") and not dev.shows("Choose the Patient"), dump(dev)
    assert not dev.shows("Change a vote"), dump(dev)
    dev.press("BACK")
    assert bar(dev, "Bob votes"), dump(dev)
    screen = dev.app.top()
    before, done = copy.deepcopy(state(dev)), actions(dev)
    for action, reason in ((["vote", 1, 9], "No card 9"), (["vote", 0, 1], "Ann has voted"),
                           (["tiebreak", 1], "No tie to settle"),
                           (["patient", 2], "Votes already cast"),
                           (["seal", 1, 12345], "Open ballot")):
        assert screen.do(action) is False, action
        dev.advance(60)
        assert says(dev, reason), (action, dump(dev))
        assert state(dev) == before and actions(dev) == done, action
    assert bar(dev, "Bob votes") and lit_card(dev, 4) == 2, dump(dev)


def test_choosing_the_next_patient_goes_to_their_vote(make_device):
    dev = make_device()
    new_game(dev)
    for card in (1, 1, 1, 2, 3):
        vote(dev, card)
    dev.press("OK")
    assert dev.shows("Patient: Bob"), dump(dev)
    open_menu(dev, "Choose the Patient")
    assert not dev.shows("Ann"), "Ann was the Patient this round" + dump(dev)
    choose(dev, "Dee")
    assert actions(dev)[-1] == ["patient", 3]
    assert title(dev, "Round 1/4 Patient 2/5") and dev.shows("Patient: Dee"), dump(dev)
    assert bar(dev, "Ann votes") and not title(dev, "Ann keeps card 1"), \
        "the vote on Dee, not the last result again" + dump(dev)


def test_a_whole_three_player_game_ends_in_a_shared_win(make_device, root):
    dev = make_device()
    new_game(dev, players=3)
    for r in range(1, 5):
        for k in range(3):
            m = 3 if r == 4 else 2
            assert title(dev, "Round %d/4 Patient %d/3" % (r, k + 1)), dump(dev)
            assert digits_shown(dev, m) and lit_card(dev, m) == 1, dump(dev)
            agree = r == 4 and k == 0
            for p, card in enumerate((m, m, m if agree else 1)):
                assert bar(dev, NAMES[p] + " votes"), dump(dev)
                vote(dev, card)
            patient = NAMES[k]
            if r < 4:
                assert title(dev, "%s keeps card %d" % (patient, m)), dump(dev)
            else:  # the answer scores double; nothing is kept in the last round
                assert title(dev, "Most voted: card %d" % m), dump(dev)
                assert not dev.shows("keeps"), dump(dev)
            worth = 2 if r == 4 else 1
            scored = "Ann, Bob, Cy" if agree else "Ann, Bob"
            if r < 4 or k < 2:
                assert (0, 56) in dev.find_text("+%d %s" % (worth, scored)), dump(dev)
                dev.press("OK")
    assert state(dev)["points"] == [15, 15, 2] and state(dev)["winners"] == [0, 1]
    assert says(dev, "OK: standings"), dump(dev)
    dev.press("DOWN")
    assert (0, 0) in dev.find_text("Final scores"), dump(dev)
    for i, pts in enumerate((15, 15, 2)):
        assert row_score(dev, i, pts), (NAMES[i], dump(dev))
    dev.press("OK")
    assert title(dev, "Tie: Ann, Bob"), dump(dev)
    for i, (name, pts) in enumerate((("Ann", 15), ("Bob", 15), ("Cy", 2))):
        y = 11 + 9 * i
        assert (16, y) in dev.find_text(name), (name, dump(dev))
        assert (0, y) in dev.find_text("1" if pts == 15 else "3"), (name, dump(dev))
        assert ((8, y) in dev.find_text(text.CHECK)) == (pts == 15), (name, dump(dev))
    rec = history(root)[-1]
    assert rec["game"] == "cartes_sur_table" and rec["winners"] == [0, 1], rec
    assert rec["scores"] == [15, 15, 2] and rec["names"] == ["Ann", "Bob", "Cy"], rec


def test_undo_of_the_reveal_seals_the_same_votes_again(make_device, root):
    """The votes were public once revealed: an undo of the reveal (a slip on "All votes in")
    seals them again, in RAM, even after a power cut since the reveal."""
    dev = make_device()
    new_game(dev, players=3, secret=True)
    for name, card in (("Ann", 2), ("Bob", 1), ("Cy", 2)):
        secret_vote(dev, name, card)
    reveal(dev)
    assert actions(dev)[-1] == ["reveal", [2, 1, 2]]
    dev = make_device()  # a power cut after the reveal
    dev.press("OK")  # Resume game?
    open_menu(dev, "Undo")
    assert dev.shows("All votes in") and not dev.shows("vote again"), dump(dev)
    assert sorted(dev.app.game.secret.values()) == [1, 2, 2]
    open_menu(dev, "Change a vote")
    choose(dev, "Bob")
    secret_vote(dev, "Bob", 2)
    reveal(dev)
    assert actions(dev)[-1] == ["reveal", [2, 2, 2]]
    assert not dev.app.game.secret, "RAM keeps nothing of a revealed ballot"


def test_the_error_net_keeps_a_secret_ballot_in_progress(make_device, root, monkeypatch):
    dev = make_device()
    new_game(dev, players=3, secret=True)
    secret_vote(dev, "Ann", 2)
    secret_vote(dev, "Bob", 1)
    from tablemate.screens import cartes_sur_table as screen
    real = screen.CartesSurTable._draw_pass
    calls = []

    def broken(self, fb):
        if not calls:
            calls.append(1)
            raise ValueError("bad pass")
        return real(self, fb)
    monkeypatch.setattr(screen.CartesSurTable, "_draw_pass", broken)
    dev.press("BACK")
    dev.press("BACK")  # back to the game: its frame raises
    assert calls and dev.shows("Error: ValueError"), dump(dev)
    dev.press("OK")
    assert highlighted(dev, "Continue Cartes"), dump(dev)  # the menu's first row
    dev.press("OK")
    assert not dev.shows("vote again"), "the sealed votes are still in RAM" + dump(dev)
    secret_vote(dev, "Cy", 1)
    reveal(dev)
    assert actions(dev)[-1] == ["reveal", [2, 1, 1]]


def test_a_seal_and_the_reveal_are_on_the_flash_before_their_frame(make_device, root):
    """What the next screen confirms is on the flash when the players see it: the journal holds
    the seal before the next voter's screen is sent, and the reveal before the result (a cut
    in between can no longer cost a vote the voter saw confirmed, nor a result the table saw)."""
    dev = make_device()
    new_game(dev, players=3, secret=True)
    jnl = os.path.join(root, "data", "game.jnl")
    seen = []
    write = dev.panel.write

    def spy(data):
        write(data)
        with open(jnl) as f:
            kinds = [json.loads(line)[0] for line in f.read().splitlines()[1:]
                     if line.startswith("[")]
        seen.append((dev.panel.pixels(), kinds))
    dev.panel.write = spy
    for p, card in enumerate((2, 1, 2)):
        seen[:] = []
        secret_vote(dev, NAMES[p], card)
        picker = [i for i, (px, _) in enumerate(seen) if frame_has(px, "Patient: ")]
        after = [kinds for px, kinds in seen[picker[-1] + 1:]  # once the vote is cast
                 if frame_has(px, "Pass the device to") or frame_has(px, "All votes in")]
        assert after and all(kinds.count("seal") == p + 1 for kinds in after), after
    seen[:] = []
    reveal(dev)
    shown = [kinds for px, kinds in seen if frame_has(px, "Ann keeps card 2")]
    assert shown and all(kinds[-1] == "reveal" for kinds in shown), shown

"""Contrast: the rulebook's examples, every way a round resolves, rewards, whole games, refusals."""

import json

import support
from tablemate.store.game import Game
from tablemate import RuleError, lifecycle
from tablemate.rules import contrast as c

SQ, YE, GR, LI, RE, BL = "square", "yellow", "green", "light", "red", "blue"


def _names(n):
    return ["P%d" % (i + 1) for i in range(n)]


def _new(n=5, expert=False):
    return c.setup({"names": _names(n), "coop": n == 2, "expert": expert})


def _round(state, picks):
    """Enter one round's picks (None = skip) in seat order; return the resolved round."""
    for i in range(len(picks)):
        c.apply(state, ["skip", i] if picks[i] is None else ["pick", i, picks[i]])
    return c.last(state)


def _outcome(picks, coop=False):
    """(symbol, winners, why) of one round played from a fresh game."""
    s = _new(len(picks))
    r = _round(s, picks)
    assert (r["symbol"], r["winners"], r["why"]) == c.judge(picks, coop)
    return r["symbol"], r["winners"], r["why"]


def _total(state):
    return c.deck(state) + c.box(state) + sum(state["cards"]) + sum(c.piles(state))


def _refused(state, action, message):
    """Assert apply refuses action with message and leaves state exactly as it was."""
    before = json.dumps(state)
    copy = json.loads(before)
    try:
        c.apply(state, action)
    except RuleError as e:
        assert str(e) == message, (action, str(e))
        assert len(str(e)) <= 21
        assert json.dumps(state) == before and state == copy, action
        return
    assert False, "accepted %r" % (action,)


def _setup_refused(opts, message):
    try:
        c.setup(opts)
    except RuleError as e:
        assert str(e) == message, (opts, str(e))
        assert len(str(e)) <= 21
        return
    assert False, "accepted %r" % (opts,)


# --- setup -------------------------------------------------------------------------------

def test_symbols_are_the_rulebooks_twelve_in_order():
    assert c.SYMBOLS == ("red", "blue", "heavy", "wide", "big", "round",
                         "yellow", "green", "light", "narrow", "small", "square")
    assert len(set(c.SYMBOLS)) == 12


def test_setup_deck_sizes():
    for n, deck in ((2, 44), (3, 48), (4, 52), (5, 56), (6, 60)):
        s = _new(n)
        assert c.deck(s) == deck and c.box(s) == 74 - deck, n
        assert c.scores(s) == [0] * n
        assert c.turn(s) == 0 and c.round_no(s) == 1
        assert c.result(s) is None and c.outcome(s) is None and c.last(s) is None
        assert c.suggest(s) is None and c.tally(s) == [0] * 12
        assert json.loads(json.dumps(s)) == s
    assert _new(2)["coop"] is True and _new(3)["coop"] is False


def test_setup_expert_flag():
    assert c.face_up(_new(4)) == 2
    s = _new(4, expert=True)
    assert c.face_up(s) == 3 and s["expert"] is True
    assert c.face_up(c.setup({"names": ["A", "B"], "coop": True, "expert": True})) == 3


def test_setup_does_not_share_the_names_list():
    names = ["A", "B", "C"]
    s = c.setup({"names": names})
    names.append("D")
    assert s["names"] == ["A", "B", "C"]


def test_setup_refusals():
    _setup_refused(None, "Bad options")
    _setup_refused({"names": ["A"]}, "Need 2-6 players")
    _setup_refused({"names": _names(7)}, "Need 2-6 players")
    _setup_refused({}, "Need 2-6 players")
    _setup_refused({"names": ["A", ""]}, "Bad player name")
    _setup_refused({"names": ["A", "B", 3]}, "Bad player name")
    _setup_refused({"names": ["A", "B", "Christopher"]}, "Bad player name")
    _setup_refused({"names": ["A", "B"]}, "2 players: co-op only")
    _setup_refused({"names": ["A", "B"], "coop": False}, "2 players: co-op only")
    _setup_refused({"names": ["A", "B", "C"], "coop": True}, "Co-op is for 2 only")
    _setup_refused({"names": ["A", "B"], "coop": 1}, "Bad option coop")
    _setup_refused({"names": ["A", "B", "C"], "expert": "yes"}, "Bad option expert")


# --- resolution --------------------------------------------------------------------------

def test_rulebook_examples_with_5_players():
    # 2 square, 1 yellow, 1 green, 1 light: the square players win.
    s = _new(5)
    r = _round(s, [SQ, YE, SQ, GR, LI])
    assert r["symbol"] == SQ and r["winners"] == [0, 2] and r["why"] is None
    assert c.scores(s) == [1, 0, 1, 0, 0] and c.deck(s) == 54 and c.box(s) == 18
    # 2 square, 2 yellow, 1 green: nobody wins; the top card goes to the box.
    s = _new(5)
    r = _round(s, [SQ, YE, YE, GR, SQ])
    assert r["symbol"] is None and r["winners"] == [] and r["why"] == "tie"
    assert c.scores(s) == [0] * 5 and c.deck(s) == 55 and c.box(s) == 19
    # All square: nobody wins.
    s = _new(5)
    r = _round(s, [SQ] * 5)
    assert r["symbol"] is None and r["winners"] == [] and r["why"] == "all same"
    assert c.scores(s) == [0] * 5 and c.deck(s) == 55 and c.box(s) == 19


def test_plurality_wins():
    assert _outcome([RE, RE, RE, BL, BL, SQ]) == (RE, [0, 1, 2], None)
    assert _outcome([RE, BL, BL, BL]) == (BL, [1, 2, 3], None)
    assert _outcome([RE, BL, RE]) == (RE, [0, 2], None)
    assert _outcome([GR, GR, GR, GR, YE]) == (GR, [0, 1, 2, 3], None)


def test_tie_at_the_top():
    assert _outcome([RE, BL, GR]) == (None, [], "tie")
    assert _outcome([RE, BL, GR, YE, SQ, LI]) == (None, [], "tie")
    assert _outcome([RE, RE, BL, BL, SQ, SQ]) == (None, [], "tie")
    assert _outcome([RE, RE, BL, BL]) == (None, [], "tie")
    # A tie below the top does not matter.
    assert _outcome([RE, RE, RE, BL, SQ, GR]) == (RE, [0, 1, 2], None)


def test_all_same_wins_nothing():
    for n in (3, 4, 6):
        assert _outcome([YE] * n) == (None, [], "all same"), n


def test_skipped_players_do_not_count():
    # 4+ players: those who played all agreed -> nobody wins, however many skipped.
    assert _outcome([None, SQ, SQ, SQ]) == (None, [], "all same")
    assert _outcome([SQ, None, None, SQ]) == (None, [], "all same")
    assert _outcome([None, None, None, None, RE, RE]) == (None, [], "all same")
    # A card alone agrees with nothing: nobody wins, and the reason says so.
    assert _outcome([None, None, None, RE, None]) == (None, [], "one card")
    # Skips aside, the plurality among those who played wins.
    assert _outcome([None, RE, RE, BL, None]) == (RE, [1, 2], None)
    assert _outcome([RE, None, BL, RE, BL, None]) == (None, [], "tie")
    # Nobody played.
    assert _outcome([None] * 4) == (None, [], "no picks")
    assert _outcome([None] * 3) == (None, [], "no picks")


def test_three_player_note():
    # One skipped and the other two agreed: those two win.
    assert _outcome([None, GR, GR]) == (GR, [1, 2], None)
    assert _outcome([GR, None, GR]) == (GR, [0, 2], None)
    assert _outcome([GR, GR, None]) == (GR, [0, 1], None)
    # ... but not when they disagree, nor when two skipped.
    assert _outcome([GR, None, RE]) == (None, [], "tie")
    assert _outcome([None, None, RE]) == (None, [], "one card")
    # Without a skip the basic rules hold.
    assert _outcome([GR, GR, RE]) == (GR, [0, 1], None)
    assert _outcome([GR, GR, GR]) == (None, [], "all same")


def test_three_player_note_rewards():
    s = _new(3)
    _round(s, [None, GR, GR])
    assert c.scores(s) == [0, 1, 1] and c.deck(s) == 46 and c.box(s) == 26


def test_coop_rounds():
    s = _new(2)
    r = _round(s, [SQ, SQ])
    assert (r["symbol"], r["winners"], r["why"], r["pile"]) == (SQ, [0, 1], None, "right")
    assert c.piles(s) == [0, 1] and c.deck(s) == 43 and c.box(s) == 30
    r = _round(s, [SQ, RE])
    assert (r["symbol"], r["winners"], r["why"], r["pile"]) == (None, [], "differ", "left")
    r = _round(s, [None, RE])
    assert (r["symbol"], r["winners"], r["why"], r["pile"]) == (None, [], "skipped", "left")
    r = _round(s, [None, None])
    assert r["why"] == "skipped" and r["pile"] == "left"
    assert c.piles(s) == [3, 1] and c.deck(s) == 40 and c.scores(s) == [1, 1]
    assert _total(s) == 74


# --- rewards and the end ------------------------------------------------------------------

def test_no_winner_sends_the_top_card_to_the_box():
    s = _new(4)
    _round(s, [RE, BL, RE, BL])
    assert c.deck(s) == 51 and c.box(s) == 23 and c.scores(s) == [0] * 4
    assert c.last(s)["from_box"] == 0


def test_winners_take_from_the_box_when_the_deck_runs_short():
    s = _new(5)
    while c.deck(s) > 2:
        _round(s, [SQ] * 5)  # nobody wins: one card to the box each round
    assert c.deck(s) == 2 and c.box(s) == 18 + 54
    r = _round(s, [RE, RE, RE, RE, BL])  # four winners, two cards left
    assert r["winners"] == [0, 1, 2, 3] and r["from_box"] == 2
    assert c.scores(s) == [1, 1, 1, 1, 0]
    assert c.deck(s) == 0 and c.box(s) == 18 + 54 - 2 and _total(s) == 74
    assert c.result(s) == [0, 1, 2, 3] and c.outcome(s) == "shared"
    assert c.turn(s) == -1 and c.round_no(s) == 55 and c.tally(s) == [0] * 12


def test_the_last_card_boxed_ends_the_game():
    s = _new(3)
    _round(s, [RE, BL, GR])  # 47 left
    while c.deck(s) > 1:
        _round(s, [RE, RE, BL])
    assert c.result(s) is None and c.scores(s) == [23, 23, 0]
    _round(s, [RE, BL, GR])
    assert c.deck(s) == 0 and c.box(s) == 28
    assert c.result(s) == [0, 1] and c.outcome(s) == "shared"


def test_end_shares_ties_even_at_zero():
    s = _new(3)
    _round(s, [RE, RE, BL])
    while c.deck(s):
        _round(s, [RE, BL, GR])
    assert c.scores(s) == [1, 1, 0] and c.result(s) == [0, 1]
    s = _new(4)
    _round(s, [BL, RE, RE, SQ])
    while c.deck(s):
        _round(s, [SQ] * 4)
    assert c.result(s) == [1, 2]
    s = _new(3)
    while c.deck(s):
        _round(s, [SQ, None, SQ])  # the note needs the two to agree: they do, so they win
    assert c.scores(s) == [24, 0, 24]
    s = _new(6)
    while c.deck(s):
        _round(s, [SQ] * 6)
    # Nobody won a card: all tie on zero and share the win.
    assert c.result(s) == [0, 1, 2, 3, 4, 5] and c.outcome(s) == "shared"


def _coop_game(right_when):
    s = _new(2)
    r = 0
    while c.deck(s):
        _round(s, [SQ, SQ] if right_when(r) else [SQ, RE])
        r += 1
    assert r == 44 and _total(s) == 74 and c.round_no(s) == 44
    return s


def test_coop_win_lose_draw():
    s = _coop_game(lambda r: r % 3 != 2)
    assert c.piles(s) == [14, 30] and c.outcome(s) == "win" and c.result(s) == [0, 1]
    s = _coop_game(lambda r: r % 3 == 2)
    assert c.piles(s) == [30, 14] and c.outcome(s) == "lose" and c.result(s) == []
    s = _coop_game(lambda r: r % 2 == 0)
    assert c.piles(s) == [22, 22] and c.outcome(s) == "draw" and c.result(s) == []
    assert c.summary(s) == {"names": ["P1", "P2"], "scores": [22, 22],
                            "winners": [], "rounds": 44, "outcome": "draw", "coop": True,
                            "piles": [22, 22]}


# --- helpers for the screen -----------------------------------------------------------------

def test_turn_and_round_counter():
    s = _new(4)
    c.apply(s, ["pick", 0, RE])
    c.apply(s, ["skip", 1])
    assert c.turn(s) == 2 and c.round_no(s) == 1 and s["picks"] == [RE, None]
    c.apply(s, ["pick", 2, BL])
    c.apply(s, ["pick", 3, BL])
    assert c.turn(s) == 0 and c.round_no(s) == 2 and c.last(s)["round"] == 1
    assert c.last(s)["picks"] == [RE, None, BL, BL] and c.last(s)["winners"] == [2, 3]
    # The next pick starts round 2; the last round's outcome stays on show meanwhile.
    c.apply(s, ["pick", 0, GR])
    assert c.round_no(s) == 2 and c.last(s)["round"] == 1


def test_tally_and_suggest():
    s = _new(6)
    assert c.suggest(s) is None
    c.apply(s, ["skip", 0])
    assert c.suggest(s) is None and c.tally(s) == [0] * 12
    c.apply(s, ["pick", 1, SQ])
    assert c.suggest(s) == SQ
    c.apply(s, ["pick", 2, YE])
    assert c.suggest(s) == YE  # a tie: the previous player's
    c.apply(s, ["pick", 3, SQ])
    assert c.suggest(s) == SQ
    c.apply(s, ["pick", 4, YE])
    c.apply(s, ["pick", 5, "wide"])
    # All six picked: the round is resolved and the tally starts afresh.
    assert c.suggest(s) is None and c.tally(s) == [0] * 12
    s = _new(6)
    for i, sym in enumerate([SQ, SQ, YE, YE, "big"]):
        c.apply(s, ["pick", i, sym])
    t = c.tally(s)
    assert t[c.SYMBOLS.index(SQ)] == 2 and t[c.SYMBOLS.index(YE)] == 2
    assert t[c.SYMBOLS.index("big")] == 1 and sum(t) == 5
    # Tied at the top, the previous player's pick is not among them: latest of the tied.
    assert c.suggest(s) == YE


# --- refusals -----------------------------------------------------------------------------

def test_refusals_leave_the_state_untouched():
    s = _new(6)
    _round(s, [RE, RE, BL, BL, BL, SQ])
    # A seventh pick in a 6-player game: the round resolved with the sixth.
    _refused(s, ["pick", 6, RE], "No such player")
    _refused(s, ["skip", 6], "No such player")
    _refused(s, ["pick", -1, RE], "No such player")
    _refused(s, ["pick", "0", RE], "No such player")
    _refused(s, ["pick", True, RE], "No such player")
    _refused(s, ["pick", 0, "purple"], "Unknown symbol")
    _refused(s, ["pick", 0, "Red"], "Unknown symbol")
    _refused(s, ["pick", 0, None], "Unknown symbol")
    _refused(s, ["pick", 0, 3], "Unknown symbol")
    _refused(s, ["pick", 2, RE], "Next pick: P1")
    c.apply(s, ["pick", 0, RE])
    _refused(s, ["pick", 0, BL], "Next pick: P2")
    _refused(s, ["skip", 3], "Next pick: P2")
    _refused(s, ["pick", 1], "Bad action")
    _refused(s, ["skip", 1, RE], "Bad action")
    _refused(s, [], "Bad action")
    _refused(s, "pick", "Bad action")
    _refused(s, [1, 1], "Bad action")
    _refused(s, ["next"], "Unknown action")
    _refused(s, ["undo"], "Unknown action")


def test_nothing_after_the_game_ended():
    s = _new(3)
    while c.deck(s):
        _round(s, [RE, RE, BL])
    assert c.result(s) == [0, 1]
    _refused(s, ["pick", 0, RE], "Game is over")
    _refused(s, ["skip", 0], "Game is over")
    _refused(s, ["pick", 6, "purple"], "Game is over")


# --- whole games through the journal ------------------------------------------------------

def _play(name, n, cycle, undo_each_round=False):
    """Play a whole game of the given round cycle through Game; check resume on the way."""
    path = support.scratch_dir(name) + "/game.jnl"
    opts = {"names": _names(n), "coop": n == 2, "expert": False}
    g = Game.new(c, path, opts)
    k = 0
    while c.result(g.state) is None:
        picks = cycle[k % len(cycle)]
        for i in range(n):
            g.do(["skip", i] if picks[i] is None else ["pick", i, picks[i]])
            g.save()
        assert _total(g.state) == 74
        k += 1
    r, problem = Game.resume(c, path)
    assert problem is None and r.state == g.state and r.count == g.count
    assert g.count == k * n and len(support.journal_lines(path)) == k * n + 1
    return g.state, k


def test_whole_game_3_players():
    cycle = [[RE, RE, BL], [None, GR, GR], [SQ, SQ, SQ], [RE, BL, None], [LI, "heavy", "wide"]]
    s, rounds = _play("contrast-3", 3, cycle)
    assert rounds == 34 and c.round_no(s) == 34
    assert c.scores(s) == [7, 14, 7] and c.result(s) == [1] and c.outcome(s) == "win"
    assert c.deck(s) == 0 and c.box(s) == 46 and c.last(s)["why"] == "tie"
    assert c.summary(s) == {"names": ["P1", "P2", "P3"],
                            "scores": [7, 14, 7], "winners": [1], "rounds": 34,
                            "outcome": "win"}


def test_whole_game_5_players():
    cycle = [[SQ, SQ, YE, GR, LI], [SQ, YE, SQ, YE, GR], [SQ] * 5, [None, RE, RE, RE, BL]]
    s, rounds = _play("contrast-5", 5, cycle)
    assert rounds == 32
    assert c.scores(s) == [8, 16, 8, 8, 0] and c.result(s) == [1]
    assert c.deck(s) == 0 and c.box(s) == 34 and c.last(s)["from_box"] == 0


def test_whole_game_6_players():
    cycle = [[RE, RE, RE, BL, BL, SQ], [RE, BL, RE, BL, None, None],
             ["big"] * 5 + ["small"]]
    s, rounds = _play("contrast-6", 6, cycle)
    # 6 cycles use 54 cards; then 3 + 1, and the last round's five winners find two cards.
    assert rounds == 21
    assert c.scores(s) == [14, 14, 14, 7, 7, 0]
    assert c.result(s) == [0, 1, 2] and c.outcome(s) == "shared"
    assert c.last(s)["from_box"] == 3 and c.deck(s) == 0 and c.box(s) == 18


def test_whole_game_coop():
    s, rounds = _play("contrast-coop", 2, [[SQ, SQ], [SQ, SQ], [RE, None]])
    assert rounds == 44 and c.piles(s) == [14, 30]
    assert c.outcome(s) == "win" and c.result(s) == [0, 1]


# --- undo and resume ----------------------------------------------------------------------

def test_undo_a_pick_and_a_whole_round():
    path = support.scratch_dir("contrast-undo") + "/game.jnl"
    g = Game.new(c, path, {"names": _names(4)})
    for a in (["pick", 0, RE], ["pick", 1, RE], ["pick", 2, BL], ["skip", 3]):
        g.do(a)
    after_round = json.loads(json.dumps(g.state))
    g.do(["pick", 0, SQ])
    mid = json.loads(json.dumps(g.state))
    g.do(["pick", 1, YE])
    g.undo()  # one pick
    assert g.state == mid and c.turn(g.state) == 1 and c.suggest(g.state) == SQ
    g.undo()
    assert g.state == after_round
    g.undo()  # the last pick of round 1: the resolution goes with it
    assert c.last(g.state) is None and c.scores(g.state) == [0] * 4
    assert c.deck(g.state) == 52 and c.turn(g.state) == 3 and c.round_no(g.state) == 1
    g.undo()
    g.undo()
    g.undo()  # the whole round
    assert g.state == c.setup({"names": _names(4)}) and g.count == 0
    g.do(["pick", 0, GR])
    g.save()
    r, problem = Game.resume(c, path)
    assert problem is None and r.state == g.state and r.count == 1


def test_undo_reopens_a_finished_game():
    path = support.scratch_dir("contrast-reopen") + "/game.jnl"
    g = Game.new(c, path, {"names": _names(3)})
    while c.result(g.state) is None:
        for i, sym in enumerate([RE, RE, BL]):
            g.do(["pick", i, sym])
    assert c.result(g.state) == [0, 1] and c.turn(g.state) == -1
    g.undo()
    assert c.result(g.state) is None and c.turn(g.state) == 2 and c.deck(g.state) == 2
    g.do(["pick", 2, RE])  # all same now: the top card goes to the box, the deck still has 1
    assert c.result(g.state) is None and c.deck(g.state) == 1


def test_resume_mid_round_equals_live_state():
    path = support.scratch_dir("contrast-resume") + "/game.jnl"
    g = Game.new(c, path, {"names": _names(5), "expert": True})
    for picks in ([SQ, YE, SQ, GR, LI], [None, SQ, SQ, SQ, SQ]):
        for i in range(5):
            g.do(["skip", i] if picks[i] is None else ["pick", i, picks[i]])
    g.do(["pick", 0, RE])
    g.do(["skip", 1])
    g.undo()
    g.do(["pick", 1, BL])
    g.save()
    r, problem = Game.resume(lifecycle.rules, path)
    assert problem is None and r.rules is c and r.state == g.state and r.count == 12
    assert c.turn(r.state) == 2 and c.round_no(r.state) == 3 and c.face_up(r.state) == 3
    assert c.last(r.state)["why"] == "all same"
    before = support.read_bytes(path)
    try:
        r.do(["pick", 3, RE])
    except RuleError as e:
        assert str(e) == "Next pick: P3"
    else:
        assert False, "out of turn accepted"
    assert r.unsaved == 0
    r.save()
    assert support.read_bytes(path) == before


# --- the hand cycle: cards laid out in front of their players ------------------------------

def _out(*picked):
    """What ``unavailable`` gives for cards laid out with these symbols picked: each symbol
    and the other one on its card."""
    out = []
    for sym in picked:
        out += [sym, c.partner(sym)]
    return out


def test_a_laid_out_card_takes_both_its_symbols_out():
    assert [c.partner(sym) for sym in c.SYMBOLS] == list(c.SYMBOLS[6:] + c.SYMBOLS[:6])
    assert c.partner("heavy") == "light" and c.partner("round") == "square"
    s = _new(3)
    _round(s, ["wide", "small", "narrow"])
    assert c.unavailable(s, 0) == ["wide", "narrow"] and c.unavailable(s, 2) == ["narrow", "wide"]
    _round(s, [RE, "big", "light"])  # P2 picks big: its card is out, so small's is (the same)
    assert c.unavailable(s, 1) == ["big", "small"]
    assert c.unavailable(s, 2) == _out("light", "narrow")

def test_a_card_laid_out_comes_back_after_two_more_rounds():
    s = _new(3)
    assert [c.unavailable(s, p) for p in range(3)] == [[], [], []]  # setup's cards: unseen
    _round(s, [RE, BL, RE])
    assert c.unavailable(s, 0) == _out(RE) and c.unavailable(s, 1) == _out(BL)
    _round(s, [GR, BL, SQ])  # P2 plays blue again: the device was told wrong before, or now
    assert c.unavailable(s, 0) == _out(GR, RE) and c.unavailable(s, 1) == _out(BL)
    assert c.unavailable(s, 2) == _out(SQ, RE)
    _round(s, [YE, LI, RE])  # red was still out for P3: it is entered anyway, and moves up
    # P1's red (round 1) is back in hand for round 4; green (round 2) and yellow are out.
    assert c.unavailable(s, 0) == _out(YE, GR)
    assert c.unavailable(s, 1) == _out(LI, BL) and c.unavailable(s, 2) == _out(RE, SQ)
    assert json.loads(json.dumps(s)) == s


def test_the_expert_row_holds_three_cards():
    s = _new(4, expert=True)
    for sym in (RE, BL, "heavy", "wide"):
        _round(s, [sym, sym, SQ, LI])
    assert c.unavailable(s, 0) == _out("wide", "heavy", BL)  # red, laid out 3 rounds ago, is back
    assert c.unavailable(s, 2) == _out(SQ) and c.unavailable(s, 3) == _out(LI)


def test_a_skip_lays_nothing_out_and_takes_nothing_back():
    s = _new(4)
    _round(s, [RE, RE, BL, GR])
    _round(s, [None, BL, RE, RE])
    _round(s, [None, GR, GR, BL])
    assert c.unavailable(s, 0) == _out(RE)  # skipped twice: red still lies in front of P1
    assert c.unavailable(s, 1) == _out(GR, RE)  # green is on the blue card: it moved up


def test_the_suggestion_skips_symbols_not_in_hand():
    s = _new(5)
    _round(s, [SQ, SQ, SQ, YE, GR])
    c.apply(s, ["pick", 0, "heavy"])
    c.apply(s, ["pick", 1, YE])
    c.apply(s, ["pick", 2, YE])
    assert c.suggest(s) == "heavy"  # yellow is picked most, but P4 laid it out last round
    c.apply(s, ["pick", 3, SQ])
    assert c.suggest(s) == YE  # P5 has yellow
    s = _new(3)
    _round(s, [RE, BL, GR])
    c.apply(s, ["pick", 0, BL])
    assert c.suggest(s) is None  # the only symbol picked is out of P2's hand


def test_refused_picks_leave_the_rows_alone():
    s = _new(3)
    _round(s, [RE, BL, RE])
    _refused(s, ["pick", 1, RE], "Next pick: P1")
    _refused(s, ["pick", 0, "purple"], "Unknown symbol")
    assert c.unavailable(s, 1) == _out(BL) and c.unavailable(s, 0) == _out(RE)


# --- who starts -----------------------------------------------------------------------------

def test_entry_starts_at_the_first_player_every_round():
    s = c.setup({"names": _names(4), "first": 2})
    assert c.first(s) == 2 and c.turn(s) == 2
    _refused(s, ["pick", 0, RE], "Next pick: P3")
    for p, sym in ((2, RE), (3, RE), (0, BL), (1, GR)):
        assert c.turn(s) == p
        c.apply(s, ["pick", p, sym])
    r = c.last(s)
    assert r["picks"] == [BL, GR, RE, RE] and r["winners"] == [2, 3]  # seat order
    assert c.turn(s) == 2 and c.round_no(s) == 2
    c.apply(s, ["skip", 2])
    assert c.picks(s) == [None] and c.turn(s) == 3  # entry order
    assert c.unavailable(s, 0) == _out(BL) and c.unavailable(s, 2) == _out(RE)


def test_first_defaults_to_seat_0_and_is_checked():
    assert c.first(_new(4)) == 0 and c.turn(_new(4)) == 0
    _setup_refused({"names": _names(3), "first": 3}, "Bad option first")
    _setup_refused({"names": _names(3), "first": -1}, "Bad option first")
    _setup_refused({"names": _names(3), "first": "1"}, "Bad option first")
    _setup_refused({"names": _names(3), "first": True}, "Bad option first")


def test_the_three_player_note_with_another_first():
    s = c.setup({"names": _names(3), "first": 1})
    c.apply(s, ["pick", 1, GR])
    c.apply(s, ["skip", 2])
    c.apply(s, ["pick", 0, GR])
    assert c.last(s)["winners"] == [0, 1] and c.last(s)["picks"] == [GR, GR, None]


def test_who_took_from_the_box():
    s = _new(5)
    assert c.boxed(s) == []
    while c.deck(s) > 2:
        _round(s, [SQ] * 5)
    assert c.boxed(s) == []
    _round(s, [RE, BL, RE, RE, RE])
    assert c.last(s)["from_box"] == 2 and c.boxed(s) == [3, 4]


# --- journals written before the hand cycle and "first" ------------------------------------

def _strip(text, key):
    """JSON ``text`` with the key ``key`` and its value blanked out, every other byte in place
    (so the journal's byte offsets stay right): how a state saved by an older version reads."""
    i = text.index('"%s": ' % key)
    j = i + len(key) + 4  # where the value starts
    depth = 0
    while depth or text[j] not in ",}":
        if text[j] in "[{":
            depth += 1
        elif text[j] in "]}":
            depth -= 1
        j += 1
    if text[j] == ",":
        j += 2
    return text[:i] + " " * (j - i) + text[j:]


def test_a_journal_from_before_the_hand_cycle_resumes():
    path = support.scratch_dir("contrast-old") + "/game.jnl"
    g = Game.new(c, path, {"names": _names(5), "coop": False, "expert": False})
    picks = [[SQ, SQ, YE, GR, LI], [RE, RE, BL, RE, None], [GR, GR, GR, BL, YE]]
    for k in range(7):  # 35 picks: a checkpoint after 32, three picks after it
        for i in range(5):
            sym = picks[k % 3][i]
            g.do(["skip", i] if sym is None else ["pick", i, sym])
        g.save()
    text = support.read_bytes(path).decode()
    lines = text.split("\n")
    n = 0
    lines[0] = lines[0].replace('"v": 3', '"v": 2')  # that version wrote no CRC: " " for it
    for k in range(len(lines)):
        if lines[k].startswith('{"c"'):
            lines[k] = _strip(_strip(lines[k], "rows"), "first")
            n += 1
    assert n == 1 and '"first"' not in lines[0]
    support.write_bytes(path, "\n".join(lines).encode())
    r, problem = Game.resume(c, path)
    assert problem is None and r.count == g.count == 35
    assert "first" not in r.state and c.first(r.state) == 0
    # The rows start again with the round settled after the checkpoint (round 7).
    assert [c.unavailable(r.state, p) for p in range(5)] == [_out(s) for s in (SQ, SQ, YE, GR, LI)]
    for key in g.state:
        if key not in ("rows", "first"):
            assert r.state[key] == g.state[key], key
    for game in (g, r):  # both play on alike
        for i, sym in enumerate([RE, RE, RE, BL, BL]):
            game.do(["pick", i, sym])
    assert c.scores(r.state) == c.scores(g.state) and c.turn(r.state) == 0

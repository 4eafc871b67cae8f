"""The generic scorepad: every action, every refusal, target and shared wins, rounds."""

import json

from tablemate import RuleError, lifecycle
from tablemate.rules import scorepad


def _new(n=3, target=0):
    return scorepad.setup({"names": ["P%d" % (i + 1) for i in range(n)], "target": target})


def _refused(state, action, message):
    """Assert apply refuses action with message and leaves state exactly as it was."""
    before = json.loads(json.dumps(state))
    try:
        scorepad.apply(state, action)
    except RuleError as e:
        assert str(e) == message, (action, str(e))
        assert len(str(e)) <= 21
        assert state == before, action
        return
    assert False, "accepted %r" % (action,)


def test_setup():
    s = _new(2, 50)
    assert s == {"names": ["P1", "P2"], "scores": [0, 0], "round": 1, "turn": 0, "target": 50,
                 "over": False, "winners": [], "start": 0, "rotate": False, "finish": False}
    assert json.loads(json.dumps(s)) == s
    assert scorepad.scores(s) == [0, 0]
    assert scorepad.turn(s) == 0
    assert scorepad.round_no(s) == 1
    assert scorepad.result(s) is None


def test_setup_does_not_share_the_names_list():
    names = ["A", "B"]
    s = scorepad.setup({"names": names, "target": 0})
    names.append("C")
    assert s["names"] == ["A", "B"]


def test_setup_refuses_bad_options():
    bad = [None, {}, {"names": []}, {"names": ["A"] * 9}, {"names": "AB"},
           {"names": ["A", 3]}, {"names": [""]}, {"names": ["TOOLONGNAME"]},
           {"names": ["A"], "target": -1}, {"names": ["A"], "target": "5"},
           {"names": ["A"], "target": True}, {"names": ["A"], "target": 100000},
           {"names": ["A", "B"], "first": 2}, {"names": ["A", "B"], "first": -1},
           {"names": ["A", "B"], "first": "0"}]
    for opts in bad:
        try:
            scorepad.setup(opts)
        except RuleError as e:
            assert len(str(e)) <= 21
            continue
        assert False, "accepted %r" % (opts,)
    assert scorepad.setup({"names": ["A"] * 8})["target"] == 0


def test_add():
    s = _new()
    scorepad.apply(s, ["add", 1, 15])
    scorepad.apply(s, ["add", 1, -20])
    scorepad.apply(s, ["add", 2, 999])
    scorepad.apply(s, ["add", 0, -999])
    assert scorepad.scores(s) == [-999, -5, 999]
    assert scorepad.result(s) is None


def test_add_refusals_leave_state_untouched():
    s = _new()
    scorepad.apply(s, ["add", 0, 7])
    _refused(s, ["add", 3, 1], "No such player")
    _refused(s, ["add", -1, 1], "No such player")
    _refused(s, ["add", "0", 1], "No such player")
    _refused(s, ["add", True, 1], "No such player")
    _refused(s, ["add", 0, 0], "Bad amount")
    _refused(s, ["add", 0, 1000], "Bad amount")
    _refused(s, ["add", 0, -1000], "Bad amount")
    _refused(s, ["add", 0, 1.5], "Bad amount")
    _refused(s, ["add", 0, "5"], "Bad amount")
    _refused(s, ["add", 0, False], "Bad amount")
    _refused(s, ["add", 0], "Bad action")
    _refused(s, ["add", 0, 1, 2], "Bad action")


def test_score_limits():
    s = _new(1)
    for _ in range(100):
        scorepad.apply(s, ["add", 0, 999])
    scorepad.apply(s, ["add", 0, 99])
    assert scorepad.scores(s) == [99999]
    _refused(s, ["add", 0, 1], "Score out of range")
    s = _new(1)
    for _ in range(100):
        scorepad.apply(s, ["add", 0, -999])
    scorepad.apply(s, ["add", 0, -99])
    assert scorepad.scores(s) == [-99999]
    _refused(s, ["add", 0, -1], "Score out of range")


def test_malformed_and_unknown_actions():
    s = _new()
    _refused(s, [], "Bad action")
    _refused(s, None, "Bad action")
    _refused(s, "next", "Bad action")
    _refused(s, [3], "Bad action")
    _refused(s, ["fly"], "Unknown action")
    _refused(s, ["undo"], "Unknown action")
    _refused(s, ["next", 1], "Bad action")
    _refused(s, ["round", 1], "Bad action")
    _refused(s, ["end", 0], "Bad action")


def test_next_wraps_into_a_new_round():
    s = _new(3)
    seen = []
    for _ in range(7):
        seen.append((scorepad.round_no(s), scorepad.turn(s)))
        scorepad.apply(s, ["next"])
    assert seen == [(1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2), (3, 0)]
    assert (scorepad.round_no(s), scorepad.turn(s)) == (3, 1)


def test_next_with_one_player():
    s = _new(1)
    scorepad.apply(s, ["next"])
    assert (scorepad.round_no(s), scorepad.turn(s)) == (2, 0)


def test_round_starts_next_round_at_player_0():
    s = _new(4)
    scorepad.apply(s, ["next"])
    scorepad.apply(s, ["next"])
    scorepad.apply(s, ["round"])
    assert (scorepad.round_no(s), scorepad.turn(s)) == (2, 0)
    scorepad.apply(s, ["round"])
    assert (scorepad.round_no(s), scorepad.turn(s)) == (3, 0)


def test_target_win():
    s = _new(3, 100)
    scorepad.apply(s, ["add", 0, 60])
    scorepad.apply(s, ["add", 2, 99])
    assert scorepad.result(s) is None
    scorepad.apply(s, ["add", 0, 40])
    assert scorepad.result(s) == [0]
    assert s["over"] is True


def test_target_reached_exactly_and_then_only_one_winner():
    # Everybody else is below the target until the add that reaches it, so a target win is
    # never shared; shared wins come from "end".
    s = _new(3, 50)
    scorepad.apply(s, ["add", 0, 49])
    scorepad.apply(s, ["add", 2, 49])
    scorepad.apply(s, ["add", 2, 1])
    assert scorepad.result(s) == [2]


def test_no_target_never_ends_by_itself():
    s = _new(2, 0)
    for _ in range(20):
        scorepad.apply(s, ["add", 0, 999])
    assert scorepad.result(s) is None


def test_end_with_shared_win():
    s = _new(4)
    scorepad.apply(s, ["add", 0, 10])
    scorepad.apply(s, ["add", 2, 30])
    scorepad.apply(s, ["add", 3, 30])
    scorepad.apply(s, ["end"])
    assert scorepad.result(s) == [2, 3]


def test_end_with_all_level_is_everyones_win():
    s = _new(3)
    scorepad.apply(s, ["end"])
    assert scorepad.result(s) == [0, 1, 2]


def test_negative_scores_winner_is_highest():
    s = _new(2)
    scorepad.apply(s, ["add", 0, -5])
    scorepad.apply(s, ["add", 1, -3])
    scorepad.apply(s, ["end"])
    assert scorepad.result(s) == [1]


def test_everything_refused_after_game_over():
    s = _new(2, 10)
    scorepad.apply(s, ["add", 1, 10])
    for action in (["add", 0, 1], ["next"], ["round"], ["end"], ["fly"], [], None):
        _refused(s, action, "Game is over")
    s = _new(2)
    scorepad.apply(s, ["end"])
    _refused(s, ["add", 0, 1], "Game is over")


def test_summary():
    s = _new(2, 0)
    scorepad.apply(s, ["add", 0, 12])
    scorepad.apply(s, ["round"])
    sm = scorepad.summary(s)
    assert sm == {"names": ["P1", "P2"], "scores": [12, 0],
                  "winners": [], "rounds": 2}
    scorepad.apply(s, ["end"])
    sm = scorepad.summary(s)
    assert sm["winners"] == [0]
    assert json.loads(json.dumps(sm)) == sm
    sm["scores"].append(5)
    assert s["scores"] == [12, 0]


def test_state_survives_json_round_trip_midgame():
    s = _new(3, 200)
    for a in (["add", 0, 5], ["next"], ["add", 1, -3], ["round"]):
        scorepad.apply(s, a)
    t = json.loads(json.dumps(s))
    scorepad.apply(s, ["add", 2, 9])
    scorepad.apply(t, ["add", 2, 9])
    assert s == t


def _played(s, turns):
    """(round, turn) before each of ``turns`` presses of OK."""
    seen = []
    for _ in range(turns):
        seen.append((scorepad.round_no(s), scorepad.turn(s)))
        scorepad.apply(s, ["next"])
    return seen


def test_a_chosen_player_starts_and_every_round_starts_there():
    s = scorepad.setup({"names": ["A", "B", "C"], "first": 2})
    assert _played(s, 7) == [(1, 2), (1, 0), (1, 1), (2, 2), (2, 0), (2, 1), (3, 2)]
    scorepad.apply(s, ["round"])
    assert (scorepad.round_no(s), scorepad.turn(s)) == (4, 2)


def test_rotation_moves_the_first_seat_each_round():
    s = scorepad.setup({"names": ["A", "B", "C"], "first": 1, "rotate": True})
    assert _played(s, 9) == [(1, 1), (1, 2), (1, 0), (2, 2), (2, 0), (2, 1), (3, 0), (3, 1),
                             (3, 2)]
    scorepad.apply(s, ["round"])  # "Next round" from the menu rotates too
    assert (scorepad.round_no(s), scorepad.turn(s)) == (5, 2)


def test_a_target_with_finish_plays_the_round_out():
    s = scorepad.setup({"names": ["A", "B", "C"], "target": 20, "finish": True, "first": 1})
    scorepad.apply(s, ["next"])  # B
    scorepad.apply(s, ["add", 2, 25])  # C reaches the target: A still plays this round
    assert scorepad.result(s) is None and scorepad.last_round(s)
    scorepad.apply(s, ["next"])
    assert scorepad.turn(s) == 0 and scorepad.result(s) is None
    scorepad.apply(s, ["add", 0, 30])
    scorepad.apply(s, ["next"])  # the round ends: every player had one turn
    assert scorepad.result(s) == [0] and scorepad.round_no(s) == 1 and not scorepad.last_round(s)


def test_a_target_with_finish_ends_at_next_round_and_ties_are_shared():
    s = scorepad.setup({"names": ["A", "B"], "target": 10, "finish": True})
    scorepad.apply(s, ["add", 0, 10])
    scorepad.apply(s, ["next"])
    scorepad.apply(s, ["add", 1, 10])
    scorepad.apply(s, ["round"])  # "Next round" ends the last round as well
    assert scorepad.result(s) == [0, 1]


def _past_and_corrected():
    """Issue 32: 4 players, target 50, the round played out; Bob goes to 60, then his score is
    corrected down to 33 before the round ends."""
    s = scorepad.setup({"names": ["Ann", "Bob", "Cy", "Dee"], "target": 50, "finish": True})
    scorepad.apply(s, ["next"])  # Bob's turn
    scorepad.apply(s, ["add", 1, 60])
    assert scorepad.last_round(s)
    scorepad.apply(s, ["add", 1, -27])
    return s


def test_a_score_corrected_below_the_target_is_no_last_round():
    s = _past_and_corrected()
    assert not scorepad.last_round(s), "33 points: the target is not reached"
    _played(s, 3)  # Bob, Cy, Dee: the round ends
    assert scorepad.result(s) is None and scorepad.round_no(s) == 2, (s["over"], s["winners"])
    scorepad.apply(s, ["add", 0, 50])  # Ann reaches it now: her round is the last
    assert scorepad.last_round(s)
    _played(s, 4)
    assert scorepad.result(s) == [0]


def test_the_last_round_follows_the_scores_as_they_stand():
    s = _past_and_corrected()
    scorepad.apply(s, ["add", 1, 17])  # 50 again
    assert scorepad.last_round(s)
    scorepad.apply(s, ["add", 2, 70])  # Cy passes it too; Bob drops back: Cy's 70 stands
    scorepad.apply(s, ["add", 1, -40])
    assert scorepad.last_round(s)
    scorepad.apply(s, ["round"])
    assert scorepad.result(s) == [2]


def test_an_undone_score_past_the_target_is_no_last_round():
    import support
    from tablemate.store.game import Game
    g = Game.new(scorepad, support.scratch_dir("scorepad-undo-target") + "/game.jnl",
                 {"names": ["Ann", "Bob", "Cy", "Dee"], "target": 50, "finish": True})
    g.do(["next"])
    g.do(["add", 1, 60])
    assert scorepad.last_round(g.state)
    g.undo()
    assert not scorepad.last_round(g.state)
    for _ in range(3):
        g.do(["next"])
    assert scorepad.result(g.state) is None and scorepad.round_no(g.state) == 2


def test_a_saved_state_that_kept_the_old_flag_follows_its_scores():
    """A checkpoint written before issue 32 may hold ``"final": true`` after a correction: the
    scores as they stand decide, so such a game resumes without a false last round."""
    s = _past_and_corrected()
    s["final"] = True
    assert not scorepad.last_round(s)
    _played(s, 3)
    assert scorepad.result(s) is None


def test_a_state_from_before_the_options_plays_as_it_did():
    old = {"names": ["A", "B"], "scores": [0, 0], "round": 1, "turn": 0, "target": 10,
           "over": False, "winners": []}
    assert _played(old, 3) == [(1, 0), (1, 1), (2, 0)]
    scorepad.apply(old, ["add", 1, 10])
    assert scorepad.result(old) == [1]  # ended at once, as it did


def test_every_option_is_checked():
    """Issue 14: a journal header whose timer was a string, a list, negative, fractional or
    huge passed setup and broke the game screen at every resume."""
    base = {"names": ["Ann", "Bob"]}
    for key, value, message in (("timer", "30", "Bad option timer"),
                                ("timer", [30], "Bad option timer"),
                                ("timer", -15, "Bad option timer"),
                                ("timer", 1.5, "Bad option timer"),
                                ("timer", 10 ** 9, "Bad option timer"),
                                ("timer", True, "Bad option timer"),
                                ("rotate", "yes", "Bad option rotate"),
                                ("finish", 1, "Bad option finish")):
        opts = dict(base)
        opts[key] = value
        try:
            scorepad.setup(opts)
        except RuleError as e:
            assert str(e) == message, (key, value, str(e))
            continue
        assert False, (key, value)
    state = scorepad.setup(dict(base, timer=300, rotate=True, finish=False))
    assert state["rotate"] is True and state["finish"] is False


def test_a_journal_whose_options_are_refused_is_set_aside():
    import support
    from tablemate.store import journal
    from tablemate.store.game import Game
    path = support.scratch_dir("scorepad-bad-opts") + "/game.jnl"
    journal.create(path, "scorepad", {"names": ["Ann", "Bob"], "timer": "30"})
    assert Game.resume(lifecycle.rules, path) == (None, journal.BAD)
    assert support.journal_lines(path + ".bad")[0]["opts"]["timer"] == "30"

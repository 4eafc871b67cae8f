"""The generic scorepad: every action, every refusal, target and shared wins, rounds."""

import json

from tablemate import RuleError
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
                 "over": False, "winners": []}
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
           {"names": ["A"], "target": True}, {"names": ["A"], "target": 100000}]
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

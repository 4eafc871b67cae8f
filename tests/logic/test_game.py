"""Game: rules plus journal. Undo, resume, and actions the rules refuse on replay."""

import json
import os

import support
from tablemate import journal
from tablemate.game import Game, rules_for
from tablemate import RuleError
from tablemate.rules import scorepad

OPTS = {"names": ["Ann", "Bob", "Cy"], "target": 0}


def _path(name):
    return support.scratch_dir(name) + "/game.jnl"


def _copy(state):
    return json.loads(json.dumps(state))


def _expect_rule_error(fn, message):
    try:
        fn()
    except RuleError as e:
        assert str(e) == message, str(e)
        return
    assert False, "no RuleError"


def test_new_creates_the_journal():
    path = _path("game-new")
    g = Game.new(scorepad, path, OPTS)
    assert g.state == scorepad.setup(OPTS)
    assert g.count == 0 and g.opts == OPTS
    assert journal.load(path) == ({"v": 1, "game": "scorepad", "opts": OPTS}, [], None)


def test_new_with_bad_options_writes_nothing():
    path = _path("game-new-bad")
    _expect_rule_error(lambda: Game.new(scorepad, path, {"names": []}), "Need 1-8 players")
    assert journal.load(path) == (None, [], None)


def test_do_applies_and_journals():
    path = _path("game-do")
    g = Game.new(scorepad, path, OPTS)
    g.do(["add", 0, 5])
    g.do(["next"])
    assert scorepad.scores(g.state) == [5, 0, 0] and scorepad.turn(g.state) == 1
    assert g.count == 2
    assert journal.load(path)[1] == [["add", 0, 5], ["next"]]


def test_refused_action_changes_nothing():
    path = _path("game-refused")
    g = Game.new(scorepad, path, OPTS)
    g.do(["add", 1, 5])
    before, data = _copy(g.state), support.read_bytes(path)
    _expect_rule_error(lambda: g.do(["add", 7, 5]), "No such player")
    _expect_rule_error(lambda: g.do(["add", 1, 0]), "Bad amount")
    _expect_rule_error(lambda: g.do(["undo"]), "Unknown action")
    assert g.state == before and g.count == 1
    assert support.read_bytes(path) == data


def test_undo():
    path = _path("game-undo")
    g = Game.new(scorepad, path, OPTS)
    g.do(["add", 0, 5])
    after_one = _copy(g.state)
    g.do(["add", 0, 7])
    g.undo()
    assert g.state == after_one and g.count == 1
    assert journal.load(path)[1] == [["add", 0, 5], ["add", 0, 7], ["undo"]]


def test_undo_twice_undoes_two_actions():
    g = Game.new(scorepad, _path("game-undo2"), OPTS)
    g.do(["add", 0, 5])
    after_one = _copy(g.state)
    g.do(["next"])
    g.do(["add", 1, 3])
    g.undo()
    g.undo()
    assert g.state == after_one and g.count == 1
    g.undo()
    assert g.state == scorepad.setup(OPTS) and g.count == 0


def test_nothing_to_undo():
    path = _path("game-nothing")
    g = Game.new(scorepad, path, OPTS)
    data = support.read_bytes(path)
    _expect_rule_error(g.undo, "Nothing to undo")
    g.do(["next"])
    g.undo()
    data = support.read_bytes(path)
    _expect_rule_error(g.undo, "Nothing to undo")
    assert support.read_bytes(path) == data


def test_undo_reopens_a_finished_game():
    g = Game.new(scorepad, _path("game-reopen"), {"names": ["A", "B"], "target": 10})
    g.do(["add", 0, 12])
    assert scorepad.result(g.state) == [0]
    g.undo()
    assert scorepad.result(g.state) is None
    g.do(["add", 1, 10])
    assert scorepad.result(g.state) == [1]


def test_resume_equals_live_state():
    path = _path("game-resume")
    g = Game.new(scorepad, path, OPTS)
    for a in (["add", 0, 5], ["next"], ["add", 1, 9], ["undo"], ["add", 1, 8], ["next"],
              ["next"], ["round"], ["undo"], ["undo"], ["add", 2, -4]):
        if a == ["undo"]:
            g.undo()
        else:
            g.do(a)
    r, problem = Game.resume(scorepad, path)
    assert problem is None
    assert r.state == g.state and r.count == g.count and r.opts == OPTS
    r.do(["end"])  # the resumed game goes on in the same file
    g.rules.apply(g.state, ["end"])
    r2, problem = Game.resume(None, path)
    assert problem is None and r2.rules is scorepad and r2.state == g.state


def test_resume_without_a_journal():
    assert Game.resume(scorepad, _path("game-none")) == (None, None)


def test_resume_reports_a_torn_entry():
    path = _path("game-torn")
    g = Game.new(scorepad, path, OPTS)
    g.do(["add", 2, 4])
    with open(path, "ab") as f:
        f.write(b'["add", 0')
    r, problem = Game.resume(scorepad, path)
    assert problem == "Dropped torn entry" and r.state == g.state


def test_resume_of_another_game_is_refused_and_kept():
    path = _path("game-other")
    journal.create(path, "hearts", OPTS)
    assert Game.resume(scorepad, path) == (None, "Journal is another game")
    assert Game.resume(None, path) == (None, "Unknown game")
    assert os.listdir(path[:path.rindex("/")]) == ["game.jnl"]


def test_rules_for():
    assert rules_for("scorepad") is scorepad
    for name in ("nope", "../x", "Scorepad", "scorepad.x", ""):
        try:
            rules_for(name)
        except RuleError as e:
            assert str(e) == "Unknown game"
            continue
        assert False, name


def _write(path, opts, lines):
    journal.create(path, "scorepad", opts)
    for a in lines:
        journal.append(path, a)


def test_action_refused_on_replay_is_corruption():
    path = _path("game-replay-bad")
    lines = [["add", 0, 5], ["next"], ["add", 9, 1], ["add", 1, 2]]
    _write(path, OPTS, lines)
    whole = support.read_bytes(path)
    g, problem = Game.resume(scorepad, path)
    assert problem == "Bad line 4: copy kept"
    assert g.count == 2 and scorepad.scores(g.state) == [5, 0, 0]
    assert support.read_bytes(path + ".bad") == whole
    assert journal.load(path) == ({"v": 1, "game": "scorepad", "opts": OPTS}, lines[:2], None)
    g.do(["add", 1, 1])
    assert Game.resume(scorepad, path)[0].state == g.state


def test_refused_action_after_an_undone_bad_one():
    # Line 3 is refused but undone by line 4, so it never counts; line 5 is the corruption.
    path = _path("game-replay-undone")
    _write(path, OPTS, [["add", 0, 5], ["add", 9, 1], ["undo"], ["add", 0, 0], ["next"]])
    g, problem = Game.resume(scorepad, path)
    assert problem == "Bad line 5: copy kept"
    assert g.count == 1 and scorepad.scores(g.state) == [5, 0, 0]
    assert journal.load(path)[1] == [["add", 0, 5], ["add", 9, 1], ["undo"]]


def test_stray_undo_is_corruption():
    path = _path("game-stray-undo")
    _write(path, OPTS, [["add", 0, 5], ["undo"], ["undo"], ["next"]])
    g, problem = Game.resume(scorepad, path)
    assert problem == "Bad line 4: copy kept"
    assert g.count == 0 and g.state == scorepad.setup(OPTS)
    assert journal.load(path)[1] == [["add", 0, 5], ["undo"]]


def test_bad_options_in_header_is_no_game():
    path = _path("game-bad-opts")
    journal.create(path, "scorepad", {"names": []})
    assert Game.resume(scorepad, path) == (None, "Bad journal: copy kept")
    assert os.listdir(path[:path.rindex("/")]) == ["game.jnl.bad"]

"""Game: rules plus journal. The save queue, undo, checkpoints, resume, failed saves, damage."""

import json
import os
import sys

import support
from tablemate.store import game, journal
from tablemate.store.game import Game
from tablemate import RuleError, lifecycle
from tablemate.rules import contrast, scorepad

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


def _actions(path):
    return support.journal_lines(path)[1:]


def _every(n, fn):
    """Run fn with game.CHECKPOINT = n."""
    old = game.CHECKPOINT
    game.CHECKPOINT = n
    try:
        return fn()
    finally:
        game.CHECKPOINT = old


def _same(g, path, rules=scorepad):
    """A fresh resume of path equals the live game."""
    r, problem = Game.resume(rules, path)
    assert problem is None, problem
    assert r.state == g.state and r.count == g.count, (r.count, g.count)
    return r


# --- the basics ---------------------------------------------------------------------------

def test_new_creates_the_journal_at_its_first_save():
    path = _path("game-new")
    old = Game.new(scorepad, path, dict(OPTS, target=50))
    old.do(["add", 0, 5])
    old.save()
    g = Game.new(scorepad, path, OPTS)  # the new game's first frame comes before any flash write
    assert g.state == scorepad.setup(OPTS)
    assert g.count == 0 and g.opts == OPTS and g.unsaved == 1
    assert support.journal_lines(path)[0]["opts"]["target"] == 50  # the old game, untouched
    g.save()
    assert g.unsaved == 0
    head = support.journal_lines(path)
    assert len(head) == 1 and head[0]["opts"] == OPTS and head[0]["game"] == "scorepad"
    assert head[0]["id"] == g.id and len(g.id) == 8 and g.id != old.id  # its id in the history
    g.do(["add", 1, 2])
    g.save()
    assert _same(g, path).count == 1


def test_a_new_game_lets_the_journal_reader_go():
    """The home menu reads a saved game's header with ``readback`` (``modes.saved``); a new
    game that replaces it never reads a journal back, so it does not keep those 3 KB in RAM."""
    path = _path("game-new-reader")
    old = Game.new(scorepad, path, OPTS)
    old.save()
    from tablemate.store import readback
    assert readback.read_header(path)["game"] == "scorepad"
    assert "tablemate.store.readback" in sys.modules
    Game.new(scorepad, path, OPTS)
    assert "tablemate.store.readback" not in sys.modules


def test_new_with_bad_options_writes_nothing():
    path = _path("game-new-bad")
    _expect_rule_error(lambda: Game.new(scorepad, path, {"names": []}), "Need 1-8 players")
    assert os.listdir(path[:path.rindex("/")]) == []


def test_do_queues_and_save_writes_once():
    path = _path("game-do")
    g = Game.new(scorepad, path, OPTS)
    g.save()
    header = support.read_bytes(path)
    g.do(["add", 0, 5])
    g.do(["next"])
    assert scorepad.scores(g.state) == [5, 0, 0] and scorepad.turn(g.state) == 1
    assert g.count == 2 and g.unsaved == 2
    assert support.read_bytes(path) == header  # nothing written before save()
    g.save()
    assert g.unsaved == 0
    assert support.read_bytes(path) == header + b'["add", 0, 5]\n["next"]\n'
    g.save()  # nothing queued: nothing written
    assert support.read_bytes(path) == header + b'["add", 0, 5]\n["next"]\n'


def test_an_undo_leaves_the_state_it_replaced_as_it_was():
    """Undo replays into a new state: a screen keeps the one before as it was, to say what the
    undo took back (the scorepad's message), without copying it."""
    g = Game.new(scorepad, _path("game-undo-keeps"), OPTS)
    for action in (["add", 0, 5], ["next"], ["add", 1, 3]):
        g.do(action)
    before = g.state
    seen = _copy(before)
    g.undo()
    assert g.state is not before and before == seen
    assert scorepad.scores(g.state) == [5, 0, 0] and scorepad.scores(before) == [5, 3, 0]


def test_refused_action_changes_nothing():
    path = _path("game-refused")
    g = Game.new(scorepad, path, OPTS)
    g.do(["add", 1, 5])
    g.save()
    before, data = _copy(g.state), support.read_bytes(path)
    _expect_rule_error(lambda: g.do(["add", 7, 5]), "No such player")
    _expect_rule_error(lambda: g.do(["add", 1, 0]), "Bad amount")
    _expect_rule_error(lambda: g.do(["undo"]), "Unknown action")
    assert g.state == before and g.count == 1 and g.unsaved == 0
    g.save()
    assert support.read_bytes(path) == data


def test_undo():
    path = _path("game-undo")
    g = Game.new(scorepad, path, OPTS)
    g.do(["add", 0, 5])
    after_one = _copy(g.state)
    g.do(["add", 0, 7])
    g.undo()
    assert g.state == after_one and g.count == 1
    g.save()
    assert _actions(path) == [["add", 0, 5], ["add", 0, 7], ["undo"]]


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
    _expect_rule_error(g.undo, "Nothing to undo")
    g.do(["next"])
    g.undo()
    g.save()
    data = support.read_bytes(path)
    _expect_rule_error(g.undo, "Nothing to undo")
    assert g.unsaved == 0 and support.read_bytes(path) == data


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
    g.save()
    r = _same(g, path)
    assert r.opts == OPTS and r.unsaved == 0
    r.do(["end"])  # the resumed game goes on in the same file
    r.save()
    g.rules.apply(g.state, ["end"])
    r2, problem = Game.resume(lifecycle.rules, path)
    assert problem is None and r2.rules is scorepad and r2.state == g.state


def test_resume_without_a_journal():
    assert Game.resume(scorepad, _path("game-none")) == (None, None)


def test_resume_reports_a_torn_entry():
    path = _path("game-torn")
    g = Game.new(scorepad, path, OPTS)
    g.do(["add", 2, 4])
    g.save()
    with open(path, "ab") as f:
        f.write(b'["add", 0')
    r, problem = Game.resume(scorepad, path)
    assert problem == "Dropped torn entry" and r.state == g.state
    r.do(["next"])
    r.save()
    g.do(["next"])
    _same(g, path)


def test_resume_of_another_game_is_refused_and_kept_aside():
    """A journal of a game this build does not play is refused, then set aside once (issue
    14: it was offered again at every boot)."""
    path = _path("game-other")
    journal.create(path, "hearts", OPTS)
    assert Game.resume(scorepad, path) == (None, "Journal is another game")
    assert os.listdir(path[:path.rindex("/")]) == ["game.jnl"]
    assert Game.resume(lifecycle.rules, path) == (None, "Unknown game: copy kept")
    assert os.listdir(path[:path.rindex("/")]) == ["game.jnl.bad"]


def test_the_registry_hands_out_the_rules_of_registered_modes_only():
    assert lifecycle.rules("scorepad") is scorepad
    for name in ("nope", "../x", "Scorepad", "scorepad.x", "", None, 3):
        try:
            lifecycle.rules(name)
        except RuleError as e:
            assert str(e) == "Unknown game"
            continue
        assert False, name


def _write(path, opts, lines, version=2):
    support.write_bytes(path, (json.dumps({"v": version, "game": "scorepad", "opts": opts}) + "\n"
                               + "".join(json.dumps(a) + "\n" for a in lines)).encode())


def test_action_refused_on_replay_is_corruption():
    path = _path("game-replay-bad")
    lines = [["add", 0, 5], ["next"], ["add", 9, 1], ["add", 1, 2]]
    _write(path, OPTS, lines)
    whole = support.read_bytes(path)
    g, problem = Game.resume(scorepad, path)
    assert problem == "Bad line 4: copy kept"
    assert g.count == 2 and scorepad.scores(g.state) == [5, 0, 0]
    assert support.read_bytes(path + ".bad") == whole
    assert _actions(path) == lines[:2]
    g.do(["add", 1, 1])
    g.save()
    _same(g, path)


def test_refused_action_after_an_undone_bad_one():
    # Line 3 is refused but undone by line 4, so it never counts; line 5 is the corruption.
    path = _path("game-replay-undone")
    _write(path, OPTS, [["add", 0, 5], ["add", 9, 1], ["undo"], ["add", 0, 0], ["next"]])
    g, problem = Game.resume(scorepad, path)
    assert problem == "Bad line 5: copy kept"
    assert g.count == 1 and scorepad.scores(g.state) == [5, 0, 0]
    assert _actions(path) == [["add", 0, 5], ["add", 9, 1], ["undo"]]


def test_stray_undo_is_corruption():
    path = _path("game-stray-undo")
    _write(path, OPTS, [["add", 0, 5], ["undo"], ["undo"], ["next"]])
    g, problem = Game.resume(scorepad, path)
    assert problem == "Bad line 4: copy kept"
    assert g.count == 0 and g.state == scorepad.setup(OPTS)
    assert _actions(path) == [["add", 0, 5], ["undo"]]


def test_bad_options_in_header_is_no_game():
    path = _path("game-bad-opts")
    journal.create(path, "scorepad", {"names": []})
    assert Game.resume(scorepad, path) == (None, "Bad journal: copy kept")
    assert os.listdir(path[:path.rindex("/")]) == ["game.jnl.bad"]


def test_version_1_journal_resumes_and_goes_on_with_checkpoints():
    path = _path("game-v1")
    lines = [["add", i % 3, i + 1] for i in range(20)] + [["undo"], ["next"]]
    _write(path, OPTS, lines, version=1)
    g, problem = Game.resume(scorepad, path)
    assert problem is None and g.count == 20
    assert scorepad.scores(g.state) == [1 + 4 + 7 + 10 + 13 + 16 + 19, 2 + 5 + 8 + 11 + 14 + 17,
                                         3 + 6 + 9 + 12 + 15 + 18]

    def play():
        for i in range(10):
            g.do(["add", 0, 1])
            g.save()
        _same(g, path)
        while g.count:
            g.undo()
            g.save()
            _same(g, path)

    _every(4, play)
    assert support.read_bytes(path).count(b'{"c": ') >= 3


def test_a_long_version_1_journal_gets_short_checkpoint_lines():
    path = _path("game-v1-long")
    _write(path, OPTS, [["add", i % 3, 1 + i % 9] for i in range(300)], version=1)
    g, problem = Game.resume(scorepad, path)
    assert g.count == 300

    def play():
        g.do(["next"])  # the first save writes the base again: 300 actions on, the rest after
        g.save()
        assert max(len(line) for line in support.read_bytes(path).split(b"\n")) < 300
        assert _reads(path)[0] <= 8
        heavy = 0
        for i in range(40):  # an undo reads the version 1 lines once per checkpoint crossed
            before = journal.stats[0]
            g.undo()
            g.save()
            if journal.stats[0] - before > 50:
                heavy += 1
            _same(g, path)
        assert g.count == 261 and 5 <= heavy <= 11, heavy

    _every(4, play)


# --- checkpoints --------------------------------------------------------------------------

def _checkpoints(path):
    return [json.loads(line) for line in support.read_bytes(path).split(b"\n")[1:]
            if line.startswith(b"{")]


class _CountingJson:
    """``tablemate.json`` for ``store.game``, counting the states it encodes."""

    def __init__(self):
        self.dumps_calls = 0

    def dumps(self, obj):
        self.dumps_calls += 1
        return json.dumps(obj)

    def loads(self, text):
        return json.loads(text)


def test_a_checkpoint_is_encoded_by_save_after_the_frame_not_by_the_press():
    path = _path("game-deferred")
    g = Game.new(scorepad, path, OPTS)
    counting = _CountingJson()

    real = game.json

    def play():
        g.save()
        game.json = counting
        try:
            for i in range(12):  # 4 checkpoints due at 4, 8, 12 and a rebase on the way
                g.do(["add", 0, i + 1])  # the press: rules and a queued tuple only
                assert counting.dumps_calls == 0, (i, counting.dumps_calls)
                assert all(type(item) is tuple for item in g._queue), i
                g.save()  # after the frame: the checkpoint due is encoded and written
                counting.dumps_calls = 0
            g.undo()
            assert g.count == 11
        finally:
            game.json = real
    _every(4, play)
    cps = _checkpoints(path)
    assert [c["n"] for c in cps] == [4, 8, 12], [c["n"] for c in cps]
    assert cps[2]["s"]["scores"] == [78, 0, 0]
    g.save()
    _same(g, path)


def test_checkpoint_every_n_actions():
    path = _path("game-checkpoints")
    g = Game.new(scorepad, path, OPTS)

    def play():
        for i in range(9):
            g.do(["add", 0, i + 1])
        g.save()

    _every(4, play)
    lines = support.read_bytes(path).split(b"\n")
    assert lines[5].startswith(b'{"c": ') and b', "n": 4, "p": 0, "s": ' in lines[5]
    assert b', "n": 8, ' in lines[10]
    cps = _checkpoints(path)
    assert [c["n"] for c in cps] == [4, 8]
    assert cps[0]["s"]["scores"] == [10, 0, 0] and cps[1]["s"]["scores"] == [36, 0, 0]
    assert cps[1]["p"] == len(b"\n".join(lines[:5])) + 1
    assert _actions(path) == [["add", 0, i + 1] for i in range(9)]
    r = _same(g, path)
    assert r.unsaved == 0


def test_undo_goes_back_past_checkpoints_to_the_first_action():
    path = _path("game-undo-back")
    g = Game.new(scorepad, path, OPTS)
    states = [_copy(g.state)]

    def play():
        for i in range(23):
            g.do(["add", i % 3, i + 1] if i % 5 else ["next"])
            g.save()
            states.append(_copy(g.state))
        while g.count:
            g.undo()
            g.save()
            states.pop()
            assert g.state == states[-1] and g.count == len(states) - 1
            _same(g, path)
        _expect_rule_error(g.undo, "Nothing to undo")

    _every(4, play)
    # An undo back past a checkpoint writes its parent again, with the actions after it.
    assert any(c["n"] == 16 and len(c.get("t", ())) == 3 for c in _checkpoints(path))


def test_one_undo_takes_back_a_card_with_its_answer_across_checkpoints():
    """Viewpoint's answers continue the card they answer (``JOINS``): one undo takes back the
    card and its answer, written as two undo lines, wherever the checkpoints fall (every
    action, every other, every third), and a resume after each undo is the live game."""
    from tablemate.rules import viewpoint
    opts = {"names": ["Ann", "Bob", "Cy"]}
    spot = [c[0] for c in viewpoint.CARDS].index("Blindspot")
    old = viewpoint.CHECKPOINT
    for every in (1, 2, 3, 16):
        path = _path("game-joins-%d" % every)
        viewpoint.CHECKPOINT = every
        try:
            g = Game.new(viewpoint, path, opts)
            states = [_copy(g.state)]
            for turn in range(5):
                p = turn % 3
                g.do(["play", p, spot])
                g.save()
                g.do(["target", p, (p + 1) % 3])
                g.save()
                states.append(_copy(g.state))
            while len(states) > 1:
                assert g.undo() == 2
                g.save()
                states.pop()
                assert g.state == states[-1] and g.count == 2 * (len(states) - 1), every
                _same(g, path, viewpoint)
            _expect_rule_error(g.undo, "Nothing to undo")
            assert _actions(path)[-2:] == [["undo"], ["undo"]]
        finally:
            viewpoint.CHECKPOINT = old


def test_an_undo_with_a_card_still_unanswered_takes_back_the_card():
    from tablemate.rules import viewpoint
    opts = {"names": ["Ann", "Bob", "Cy"]}
    g = Game.new(viewpoint, _path("game-joins-open"), opts)
    start = _copy(g.state)
    g.do(["play", 0, [c[0] for c in viewpoint.CARDS].index("Blindspot")])
    assert g.undo() == 1 and g.state == start and g.count == 0


def test_back_and_forth_across_a_checkpoint():
    path = _path("game-seesaw")
    g = Game.new(scorepad, path, OPTS)

    def play():
        for i in range(8):
            g.do(["add", 1, 1])
        for i in range(30):  # undo across the checkpoint of depth 8, then redo
            g.undo()
            g.save()
            _same(g, path)
            g.do(["add", 1, 2])
            g.save()
            _same(g, path)
        assert g.count == 8 and scorepad.scores(g.state) == [0, 9, 0]

    _every(4, play)


def _reads(path, rules=scorepad):
    """(lines, bytes) read by one resume of path."""
    lines, data = journal.stats
    g, problem = Game.resume(rules, path)
    assert problem is None
    return journal.stats[0] - lines, journal.stats[1] - data, g


def test_resume_reads_the_same_however_long_the_game():
    got = []
    for n in (200, 200 + 2 * 1056):  # the moves repeat every 3 x 11 x 32 actions
        path = _path("game-long-%d" % n)
        g = Game.new(scorepad, path, {"names": ["A", "B", "C", "D"], "target": 0})
        for i in range(n):
            g.do(["add", i % 4, 1 + i % 7] if i % 3 else ["next"])
            if i % 11 == 10:
                g.undo()
                g.do(["add", i % 4, 2])
            g.save()
        size = len(support.read_bytes(path))
        lines, data, r = _reads(path)
        assert r.state == g.state and r.count == n
        got.append((lines, data, size))
    (lines1, data1, size1), (lines2, data2, size2) = got
    assert lines1 == lines2 and lines1 <= 4 * game.CHECKPOINT, got
    assert data2 <= data1 + 256 and data2 <= 6 * 1024, got
    assert size2 > 9 * size1  # the journal itself grows with the game, of course


def test_undo_and_redo_forever_keeps_resume_short():
    path = _path("game-churn")
    g = Game.new(scorepad, path, OPTS)
    for i in range(5):
        g.do(["add", 0, 1])
    most = 0
    for i in range(600):  # +1, undo, +1, undo, ... never reaching the next checkpoint
        g.do(["add", 2, 1])
        g.undo()
        g.save()
        if i % 50 == 0:
            lines, data, r = _reads(path)
            assert r.state == g.state and r.count == 5
            most = max(most, lines)
    assert most <= 4 * game.CHECKPOINT + 8, most
    while g.count:
        g.undo()
    g.save()
    _same(g, path)


def test_an_undo_into_damaged_history_is_refused_and_changes_nothing():
    path = _path("game-damaged-history")
    g = Game.new(scorepad, path, OPTS)

    def play():
        for i in range(9):
            g.do(["add", 0, i + 1])
        g.save()

    _every(4, play)
    data = support.read_bytes(path)
    at = data.index(b'["add", 0, 2]')
    support.write_bytes(path, data[:at] + b"#" * 13 + data[at + 13:])  # a bad line, long ago
    r, problem = Game.resume(scorepad, path)  # the line is before the last checkpoint: unseen
    assert problem is None and r.state == g.state

    def back():
        for i in range(5):
            r.undo()
        r.save()
        assert r.count == 4
        before = _copy(r.state)
        _expect_rule_error(r.undo, "Journal damaged")
        assert r.state == before and r.count == 4

    _every(4, back)


# --- saves that fail ----------------------------------------------------------------------

_real_open = open


class _Flaky:
    """A file opened for appending that writes the first `keep` bytes, then raises OSError."""

    def __init__(self, path, mode, keep):
        self.f = _real_open(path, mode)
        self.keep = keep

    def write(self, data):
        self.f.write(data[:self.keep])
        self.f.flush()
        raise OSError(28)  # ENOSPC

    def seek(self, *args):
        return self.f.seek(*args)

    def flush(self):
        self.f.flush()

    def close(self):
        self.f.close()


def _failing(keep):
    """An open() for journal.append: appends fail after keep bytes (None: at open)."""

    def fake(path, mode="r"):
        if mode != "ab":
            return _real_open(path, mode)
        if keep is None:
            raise OSError(5)
        return _Flaky(path, mode, keep)

    return fake


def _save_fails(g, keep):
    journal.open = _failing(keep)
    try:
        g.save()
    except OSError:
        return
    finally:
        del journal.open
    assert False, "save did not fail"


def _twins(name):
    """Two games played alike, one saved without faults, for comparing files."""
    a = Game.new(scorepad, _path(name + "-a"), OPTS)
    b = Game.new(scorepad, _path(name + "-b"), OPTS)
    b.id = a.id  # the same header, so the files can be compared byte for byte
    a.save()
    b.save()
    return a, b


def test_a_failed_save_keeps_the_queue_and_a_later_save_writes_it():
    g, ref = _twins("game-save-fails")
    before = support.read_bytes(g.path)
    for x in (g, ref):
        x.do(["add", 0, 3])
        x.do(["next"])
    ref.save()
    _save_fails(g, None)
    assert g.unsaved == 2 and support.read_bytes(g.path) == before
    g.do(["add", 1, 1])
    ref.do(["add", 1, 1])
    ref.save()
    g.save()
    assert g.unsaved == 0 and support.read_bytes(g.path) == support.read_bytes(ref.path)
    _same(g, g.path)


def test_a_partial_write_is_completed_by_the_next_save():
    def play():
        for keep in range(0, 60, 3):  # the failed save stopped after keep bytes
            g, ref = _twins("game-save-partial")
            for x in (g, ref):
                for i in range(3):
                    x.do(["add", 2, 5])
                x.save()
                x.do(["add", 2, 6])  # the fourth action: a checkpoint follows it in one save
            ref.save()
            _save_fails(g, keep)
            assert g.unsaved == 2
            lost, problem = Game.resume(scorepad, g.path)  # a power cut now: what is on flash
            assert lost.count == (4 if keep >= 14 else 3), keep
            del lost
            g.save()
            assert support.read_bytes(g.path) == support.read_bytes(ref.path), keep
            g.undo()
            g.save()
            _same(g, g.path)

    _every(4, play)


def test_a_partial_write_then_a_power_cut_resumes_cleanly():
    def play():
        g = Game.new(scorepad, _path("game-save-cut"), OPTS)
        for i in range(7):
            g.do(["add", 0, 1])
        g.save()
        state = _copy(g.state)
        g.do(["add", 1, 1])
        _save_fails(g, 5)
        r, problem = Game.resume(scorepad, g.path)
        assert problem == "Dropped torn entry" and r.state == state and r.count == 7
        r.do(["add", 2, 1])
        r.save()
        _same(r, r.path)
        while r.count:
            r.undo()
            r.save()
            _same(r, r.path)

    _every(4, play)


# --- random games -------------------------------------------------------------------------

def _scorepad_move(g, rnd, players):
    r = rnd.below(100)
    if r < 45:
        g.do(["add", rnd.below(players), rnd.below(60) - 30 or 7])
    elif r < 70:
        g.do(["next"])
    elif r < 78:
        g.do(["round"])
    elif r < 80 and g.state["target"]:
        g.do(["end"])
    elif g.count:
        g.undo()
    else:
        g.do(["next"])


def _contrast_move(g, rnd, players):
    if contrast.result(g.state) is not None or rnd.below(100) < 20 and g.count:
        g.undo()
        return
    p = contrast.turn(g.state)
    if rnd.below(10):
        g.do(["pick", p, contrast.SYMBOLS[rnd.below(12)]])
    else:
        g.do(["skip", p])


def _random_game(name, rules, opts, move, seed, steps, every):
    """Random moves and undo storms; after each one the live game, a model of it and a fresh
    resume agree."""
    path = _path(name)
    rnd = support.Lcg(seed)
    players = len(opts["names"])
    g = Game.new(rules, path, opts)
    states = [_copy(g.state)]

    most = [0, 0]  # lines read by one resume, by one undo

    def check():
        assert g.count == len(states) - 1 and g.state == states[-1]
        before = journal.stats[0]
        _same(g, path, rules)
        most[0] = max(most[0], journal.stats[0] - before)

    def undo():
        before = journal.stats[0]
        g.undo()
        most[1] = max(most[1], journal.stats[0] - before)

    def play():
        for step in range(steps):
            if rnd.below(40) == 0:  # an undo storm, across checkpoints
                for _ in range(min(g.count, rnd.below(4 * every))):
                    undo()
                    g.save()
                    states.pop()
                    check()
                continue
            before = g.count
            try:
                move(g, rnd, players)
            except RuleError:
                assert g.count == before
                continue
            g.save()
            if g.count > before:
                states.append(_copy(g.state))
            else:
                states.pop()
            check()
        while g.count:  # back to the first action
            undo()
            g.save()
            states.pop()
            check()

    _every(every, play)
    # However the game went: resume reads back to a base at most 2 * every lines from the end
    # (then forward again), an undo reads at most one stretch between two checkpoints.
    assert most[0] <= 4 * every + 6 and most[1] <= 3 * every + 4, most
    return path


def test_random_scorepad_games():
    for seed, every in ((1, 4), (2, 3), (3, 32)):
        opts = {"names": ["A", "B", "C", "D", "E"], "target": 0 if seed != 2 else 400}
        steps = 700 if every == 32 else 300
        _random_game("game-random-sp%d" % seed, scorepad, opts, _scorepad_move, seed, steps, every)


def test_random_contrast_games():
    for seed, n in ((7, 5), (8, 2), (9, 6)):
        opts = {"names": ["P%d" % i for i in range(n)], "coop": n == 2, "expert": seed == 9}
        _random_game("game-random-c%d" % seed, contrast, opts, _contrast_move, seed, 300, 5)


def test_replay_rebuilds_the_state_from_the_record_not_from_ram():
    path = _path("game-replay")
    g = Game.new(scorepad, path, OPTS)

    def play():
        for i in range(6):  # a checkpoint at 4, two actions after it, none saved
            g.do(["add", 1, i + 1])
        expected = _copy(g.state)
        g.state["scores"][1] = -999  # what an exception half way through a change leaves
        g.state["round"] = "broken"
        g.replay()
        assert g.state == expected and g.count == 6 and g.unsaved
        g.save()
        _same(g, path)
    _every(4, play)


def test_a_primed_journal_is_read_alike_whether_its_void_line_was_committed_or_not():
    """``Game.prime`` leaves the journal open with a void line not yet committed: the next save
    commits it with its lines, a close commits it alone, a power cut loses it (and the host's
    files, unbuffered for appends, keep it): every way, the game resumes the same and the next
    save appends after whatever the file holds."""
    g = Game.new(scorepad, _path("game-primed"), OPTS)
    for i in range(60):
        g.do(["add", i % 3, 1] if i % 2 == 0 else ["next"])
    g.save()
    assert g.size >= journal.INLINE
    g.prime()
    g.do(["add", 0, 5])
    g.save()  # through the primed file: its void line, then the action
    assert support.read_bytes(g.path).endswith(b'\x00\n["add", 0, 5]\n')
    g.prime()
    g.close()  # the void line committed alone
    g.do(["add", 1, 7])
    g.save()
    g.prime()  # and a cut now: the next boot reads the file as it is
    again, problem = Game.resume(scorepad, g.path)
    assert problem is None and again.state == g.state and again.count == g.count
    again.do(["next"])
    again.save()
    assert support.journal_lines(g.path)[-3:] == [["add", 0, 5], ["add", 1, 7], ["next"]]

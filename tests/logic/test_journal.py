"""The journal: append/load round trip, torn last lines, damaged middle lines, headers, history."""

import json
import os

import support
from tablemate import journal

OPTS = {"names": ["A", "B"], "target": 0}


def _journal(name, actions=()):
    path = support.scratch_dir(name) + "/game.jnl"
    journal.create(path, "scorepad", OPTS)
    for a in actions:
        journal.append(path, a)
    return path


def _files(path):
    d = path[:path.rindex("/")]
    return sorted(os.listdir(d))


def test_create_writes_one_header_line():
    path = _journal("jnl-create")
    data = support.read_bytes(path)
    assert data.endswith(b"\n") and data.count(b"\n") == 1
    assert json.loads(data) == {"v": 1, "game": "scorepad", "opts": OPTS}
    assert _files(path) == ["game.jnl"]


def test_create_replaces_an_old_journal():
    path = _journal("jnl-recreate", [["next"]])
    journal.create(path, "scorepad", {"names": ["Z"], "target": 5})
    header, actions, problem = journal.load(path)
    assert header["opts"] == {"names": ["Z"], "target": 5}
    assert actions == [] and problem is None


def test_round_trip():
    acts = [["add", 0, 5], ["next"], ["add", 1, -12], ["undo"], ["round"], ["pick", 2, "sq"]]
    path = _journal("jnl-round", acts)
    header, actions, problem = journal.load(path)
    assert header == {"v": 1, "game": "scorepad", "opts": OPTS}
    assert actions == acts
    assert problem is None


def test_append_adds_exactly_one_line():
    path = _journal("jnl-append")
    before = support.read_bytes(path)
    journal.append(path, ["add", 1, 3])
    after = support.read_bytes(path)
    assert after[:len(before)] == before
    assert after[len(before):] == b'["add", 1, 3]\n'


def test_missing_file_is_no_game_and_no_problem():
    path = support.scratch_dir("jnl-missing") + "/game.jnl"
    assert journal.load(path) == (None, [], None)


def test_torn_last_line_dropped_reported_and_repaired():
    path = _journal("jnl-torn", [["add", 0, 5], ["next"]])
    good = support.read_bytes(path)
    support.write_bytes(path, good + b'["add", 1, ')
    header, actions, problem = journal.load(path)
    assert header["game"] == "scorepad"
    assert actions == [["add", 0, 5], ["next"]]
    assert problem == "Dropped torn entry"
    assert support.read_bytes(path) == good
    journal.append(path, ["round"])
    assert journal.load(path) == (header, [["add", 0, 5], ["next"], ["round"]], None)
    assert _files(path) == ["game.jnl"]


def test_complete_json_without_newline_is_torn():
    path = _journal("jnl-nonl", [["next"]])
    good = support.read_bytes(path)
    support.write_bytes(path, good + b'["next"]')
    header, actions, problem = journal.load(path)
    assert actions == [["next"]] and problem == "Dropped torn entry"
    assert support.read_bytes(path) == good


def test_unparsable_last_line_with_newline_is_torn():
    path = _journal("jnl-garbage-last", [["next"]])
    good = support.read_bytes(path)
    support.write_bytes(path, good + b'["ne\xff\x00t"\n')
    header, actions, problem = journal.load(path)
    assert actions == [["next"]] and problem == "Dropped torn entry"
    assert support.read_bytes(path) == good


def test_corrupt_middle_line_kept_aside():
    path = _journal("jnl-middle", [["add", 0, 5]])
    good = support.read_bytes(path)
    damaged = good + b'["nex\n' + b'["round"]\n'
    support.write_bytes(path, damaged)
    header, actions, problem = journal.load(path)
    assert header is not None
    assert actions == [["add", 0, 5]]
    assert problem == "Bad line 3: copy kept"
    assert len(problem) <= 42
    assert support.read_bytes(path) == good
    assert support.read_bytes(path + ".bad") == damaged
    journal.append(path, ["next"])
    assert journal.load(path) == (header, [["add", 0, 5], ["next"]], None)


def test_non_list_line_is_corrupt():
    path = _journal("jnl-nonlist")
    good = support.read_bytes(path)
    support.write_bytes(path, good + b'{"a": 1}\n[]\n["next"]\n')
    header, actions, problem = journal.load(path)
    assert actions == [] and problem == "Bad line 2: copy kept"


def test_bad_copies_are_never_overwritten():
    path = _journal("jnl-badnames")
    good = support.read_bytes(path)
    for i in range(3):
        support.write_bytes(path, good + ("oops %d\n[\"next\"]\n" % i).encode())
        assert journal.load(path)[2] == "Bad line 2: copy kept"
    assert _files(path) == ["game.jnl", "game.jnl.bad", "game.jnl.bad1", "game.jnl.bad2"]
    assert support.read_bytes(path + ".bad1") == good + b'oops 1\n["next"]\n'


def test_bad_header_is_no_game_and_kept_aside():
    d = support.scratch_dir("jnl-header")
    path = d + "/game.jnl"
    cases = [b'{"v": 1, "game": "scorepad", "opts"', b'not json\n["next"]\n',
             b'{"v": 2, "game": "scorepad", "opts": {}}\n', b'{"v": 1, "opts": {}}\n',
             b'["v", 1]\n', b'', b'{"v": 1, "game": "scorepad", "opts": {}}']
    for i in range(len(cases)):
        support.write_bytes(path, cases[i])
        header, actions, problem = journal.load(path)
        assert header is None and actions == [], cases[i]
        assert problem == "Bad journal: copy kept"
        name = path + ".bad" + (str(i) if i else "")
        assert support.read_bytes(name) == cases[i]
        assert "game.jnl" not in os.listdir(d)
    assert journal.load(path) == (None, [], None)


def test_cut_keeps_a_prefix_and_a_copy():
    acts = [["add", 0, 1], ["add", 0, 2], ["add", 0, 3]]
    path = _journal("jnl-cut", acts)
    whole = support.read_bytes(path)
    problem = journal.cut(path, 1)
    assert problem == "Bad line 3: copy kept"
    assert journal.load(path)[1:] == ([["add", 0, 1]], None)
    assert support.read_bytes(path + ".bad") == whole


def test_history_lines():
    path = support.scratch_dir("jnl-history") + "/history.jsonl"
    s1 = {"game": "scorepad", "names": ["A", "B"], "scores": [3, 4], "winners": [1], "rounds": 2}
    s2 = {"game": "scorepad", "names": ["C"], "scores": [0], "winners": [0], "rounds": 1}
    journal.record_history(path, s1)
    journal.record_history(path, s2)
    lines = support.read_bytes(path).split(b"\n")
    assert lines[2] == b""
    assert [json.loads(lines[0]), json.loads(lines[1])] == [s1, s2]


def test_remove():
    path = _journal("jnl-remove", [["next"]])
    journal.remove(path)
    assert _files(path) == []
    journal.remove(path)  # already gone: fine

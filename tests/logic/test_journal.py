"""The journal file (journal.py, readback.py): header, lines both ways, saves, torn and damaged lines.

Checkpoints are written by Game (test_game.py); here they are written by hand where the reader's
rules about them are checked.
"""

import binascii
import json
import os
import sys

import support
from tablemate.store import files, journal, readback

OPTS = {"names": ["A", "B"], "target": 0}


def _line(obj):
    return (json.dumps(obj) + "\n").encode()


def _journal(name, actions=()):
    path = support.scratch_dir(name) + "/game.jnl"
    journal.create(path, "scorepad", OPTS)
    _add(path, b"".join(_line(a) for a in actions))
    return path


def _add(path, data):
    with open(path, "ab") as f:
        f.write(data)


def _files(path):
    d = path[:path.rindex("/")]
    return sorted(os.listdir(d))


def _tail(path):
    """(tail, problem) of readback.load's Read, checking that the base is the header."""
    got = readback.load(path)
    assert got.header["game"] == "scorepad" and got.base == (0, None)
    assert got.size == len(support.read_bytes(path))
    return got.tail, got.problem


def test_create_writes_one_header_line():
    path = support.scratch_dir("jnl-create") + "/game.jnl"
    size = journal.create(path, "scorepad", OPTS)
    data = support.read_bytes(path)
    assert data.endswith(b"\n") and data.count(b"\n") == 1 and size == len(data)
    assert json.loads(data) == {"v": 3, "game": "scorepad", "opts": OPTS}
    assert _files(path) == ["game.jnl"]


def test_create_replaces_an_old_journal():
    path = _journal("jnl-recreate", [["next"]])
    journal.create(path, "scorepad", {"names": ["Z"], "target": 5})
    got = readback.load(path)
    assert got.header["opts"] == {"names": ["Z"], "target": 5}
    assert got.tail == [] and got.problem is None and got.since == 0


def test_read_header():
    path = _journal("jnl-read-header", [["next"]])
    assert readback.read_header(path) == {"v": 3, "game": "scorepad", "opts": OPTS}
    support.write_bytes(path, b'{"v": 1, "game": "scorepad", "opts": {}}\n["next"]\n')
    assert readback.read_header(path)["v"] == 1  # written before checkpoints: still read
    for bad in (b'{"v": 1, "game": "scorepad", "opts": {}}', b'{"v": 4, "game": "x", "opts": {}}\n'):
        support.write_bytes(path, bad)
        assert readback.read_header(path) is None
    assert readback.read_header(path + ".none") is None


def test_a_long_header_is_read_by_the_boot_as_by_resume():
    # A Viewpoint game's header holds its catalog: up to 40 cards, about 5 KB.
    path = support.scratch_dir("jnl-long-header") + "/game.jnl"
    opts = {"names": ["A", "B"], "cards": [["Card%02d" % i, i, 2, ["draw 1"]] * 5
                                           for i in range(40)]}
    size = journal.create(path, "viewpoint", opts)
    assert 5000 < size < 16384
    assert readback.read_header(path)["opts"] == opts
    assert readback.load(path).header["opts"] == opts
    support.write_bytes(path, b'{"v": 3, "game": "viewpoint", "opts": {"x": "%s"}}\n'
                        % (b"y" * 17000))
    assert readback.read_header(path) is None and readback.load(path).header is None  # both: damage


def test_undos_resolve_on_load():
    acts = [["add", 0, 5], ["next"], ["add", 1, -12], ["undo"], ["round"], ["pick", 2, "sq"],
            ["undo"], ["undo"]]
    path = _journal("jnl-round", acts)
    got = readback.load(path)
    assert got.header == {"v": 3, "game": "scorepad", "opts": OPTS}
    assert got.base == (0, None) and got.tail == [["add", 0, 5], ["next"]] and got.problem is None
    data = support.read_bytes(path)
    assert got.offs == [data.index(b'["add", 0, 5]'), data.index(b'["next"]')]
    assert got.since == len(acts)


def test_missing_file_is_no_game_and_no_problem():
    path = support.scratch_dir("jnl-missing") + "/game.jnl"
    assert readback.load(path).header is None and readback.load(path).problem is None


def test_lines_both_ways_at_every_chunk_boundary():
    path = support.scratch_dir("jnl-lines") + "/lines.bin"
    lines = [b"x" * (i * 37 % 300) + b"\n" for i in range(40)] + [b"y" * 1500 + b"\n", b"tail"]
    data = b"".join(lines)
    support.write_bytes(path, data)
    offsets = []
    at = 0
    for line in lines:
        offsets.append(at)
        at += len(line)
    with open(path, "rb") as f:
        assert list(readback.forward(f, 0, len(data))) == list(zip(offsets, lines))
        back = list(readback.backward(f, 0, len(data)))
        assert back == list(zip(offsets, lines))[::-1]
        for k in (1, 13, 40):  # from any line start to any other
            assert list(readback.forward(f, offsets[k], offsets[41])) == list(zip(offsets, lines))[k:41]
            assert list(readback.backward(f, offsets[k], offsets[41]))[-1] == (offsets[k], lines[k])
        assert readback.line_at(f, offsets[40]) == lines[40]
        assert readback.line_at(f, offsets[41]) == b""  # no newline: not a line


def test_append_writes_what_render_gives_for_the_current_size():
    path = _journal("jnl-save")
    size = len(support.read_bytes(path))
    seen = []

    def render(offset):
        seen.append(offset)
        return b'["next"]\n["round"]\n'

    assert journal.append(path, size, render) == size + 19 and seen == [size]
    assert support.read_bytes(path)[size:] == b'["next"]\n["round"]\n'


def test_append_completes_what_a_failed_append_left():
    path = _journal("jnl-save-partial")
    size = len(support.read_bytes(path))
    data = b'["next"]\n{"n": 1, "p": 0, "s": {}}\n'
    for k in range(1, len(data) + 1):  # the earlier save stopped after k bytes
        support.write_bytes(path, support.read_bytes(path)[:size] + data[:k])
        assert journal.append(path, size, lambda offset: data) == size + len(data)
        assert support.read_bytes(path)[size:] == data, k


def test_append_cuts_off_bytes_that_are_not_its_own():
    path = _journal("jnl-save-junk")
    good = support.read_bytes(path)
    _add(path, b'["add", 1\n\x00\x00garbage')
    junk = support.read_bytes(path)
    sys.modules.pop("tablemate.store.readback", None)  # the reader out of RAM, as in play
    if hasattr(sys.modules["tablemate.store"], "readback"):
        delattr(sys.modules["tablemate.store"], "readback")
    assert journal.append(path, len(good), lambda offset: b'["next"]\n') == len(good) + 9
    assert "tablemate.store.readback" not in sys.modules  # the writer never needs the reader
    assert support.read_bytes(path) == good + b'["next"]\n'
    assert _files(path) == ["game.jnl", "game.jnl.bad"]  # what is cut is kept
    assert support.read_bytes(path + ".bad") == junk


def test_append_to_a_shorter_file_raises():
    path = _journal("jnl-save-short")
    size = len(support.read_bytes(path))
    raised = False
    try:
        journal.append(path, size + 5, lambda offset: b'["next"]\n')
    except OSError:
        raised = True
    assert raised, "no OSError"
    assert support.read_bytes(path)[size:] == b""


def test_torn_last_line_is_dropped_reported_and_made_void():
    path = _journal("jnl-torn", [["add", 0, 5], ["next"]])
    good = support.read_bytes(path)
    support.write_bytes(path, good + b'["add", 1, ')
    tail, problem = _tail(path)
    assert tail == [["add", 0, 5], ["next"]] and problem == "Dropped torn entry"
    assert support.read_bytes(path) == good + b'["add", 1, \x00\n'  # appended, not rewritten
    _add(path, b'["round"]\n')
    assert _tail(path) == ([["add", 0, 5], ["next"], ["round"]], None)
    assert _files(path) == ["game.jnl"]


def test_complete_json_without_newline_is_torn():
    path = _journal("jnl-nonl", [["next"]])
    good = support.read_bytes(path)
    support.write_bytes(path, good + b'["next"]')
    assert _tail(path) == ([["next"]], "Dropped torn entry")
    assert support.read_bytes(path) == good + b'["next"]\x00\n'
    assert _tail(path) == ([["next"]], None)


def test_unparsable_last_line_with_newline_is_torn():
    path = _journal("jnl-garbage-last", [["next"]])
    good = support.read_bytes(path)
    for junk in (b'["ne\xff\x00t"\n', b'{"n": 1, "s"\n', b'["next"]\x00junk\n', b'\n'):
        support.write_bytes(path, good + junk)
        assert _tail(path) == ([["next"]], "Dropped torn entry"), junk
        assert support.read_bytes(path) == good + junk + b"\x00\n"  # a void line voids it
        _add(path, b'["round"]\n')
        assert _tail(path) == ([["next"], ["round"]], None), junk


def test_a_cut_while_neutralising_is_torn_again():
    path = _journal("jnl-torn-twice", [["next"]])
    good = support.read_bytes(path)
    support.write_bytes(path, good + b'["ro\x00')  # the NUL made it, the newline did not
    assert _tail(path) == ([["next"]], "Dropped torn entry")
    support.write_bytes(path, good + b'{"bad\n\x00')
    assert _tail(path) == ([["next"]], "Dropped torn entry")
    assert _tail(path) == ([["next"]], None)


def test_void_line_does_not_void_a_good_line():
    path = _journal("jnl-void", [["next"]])
    _add(path, b'["round"]\n\x00\n["end"]\n')
    assert _tail(path) == ([["next"], ["round"], ["end"]], None)


def test_corrupt_middle_line_kept_aside():
    path = _journal("jnl-middle", [["add", 0, 5]])
    good = support.read_bytes(path)
    damaged = good + b'["nex\n' + b'["round"]\n'
    support.write_bytes(path, damaged)
    tail, problem = _tail(path)
    assert tail == [["add", 0, 5]] and problem == "Bad line 3: copy kept"
    assert support.read_bytes(path) == good
    assert support.read_bytes(path + ".bad") == damaged
    _add(path, b'["next"]\n')
    assert _tail(path) == ([["add", 0, 5], ["next"]], None)


def test_non_list_line_is_corrupt():
    path = _journal("jnl-nonlist")
    good = support.read_bytes(path)
    support.write_bytes(path, good + b'{"a": 1}\n[]\n["next"]\n')
    assert _tail(path) == ([], "Bad line 2: copy kept")
    support.write_bytes(path, good + b'[]\n["next"]\n')
    assert _tail(path) == ([], "Bad line 2: copy kept")


def test_stray_undo_is_corrupt():
    path = _journal("jnl-stray", [["next"], ["undo"], ["undo"], ["round"]])
    assert _tail(path) == ([], "Bad line 4: copy kept")


def test_bad_copies_are_never_overwritten():
    path = _journal("jnl-badnames")
    good = support.read_bytes(path)
    for i in range(3):
        support.write_bytes(path, good + ("oops %d\n[\"next\"]\n" % i).encode())
        assert readback.load(path).problem == "Bad line 2: copy kept"
    assert _files(path) == ["game.jnl", "game.jnl.bad", "game.jnl.bad1", "game.jnl.bad2"]
    assert support.read_bytes(path + ".bad1") == good + b'oops 1\n["next"]\n'


def test_bad_header_is_no_game_and_kept_aside():
    d = support.scratch_dir("jnl-header")
    path = d + "/game.jnl"
    cases = [b'{"v": 2, "game": "scorepad", "opts"', b'not json\n["next"]\n',
             b'{"v": 4, "game": "scorepad", "opts": {}}\n', b'{"v": 2, "opts": {}}\n',
             b'{"v": 2, "game": "scorepad", "opts": null}\n', b'{"v": 3, "game": "scorepad"}\n',
             b'["v", 2]\n', b'', b'{"v": 2, "game": "scorepad", "opts": {}}']
    for i in range(len(cases)):
        support.write_bytes(path, cases[i])
        got = readback.load(path)
        assert got.header is None and got.problem == "Bad journal: copy kept", cases[i]
        name = path + ".bad" + (str(i) if i else "")
        assert support.read_bytes(name) == cases[i]
        assert "game.jnl" not in os.listdir(d)
    assert readback.load(path).header is None and readback.load(path).problem is None


def test_cut_keeps_a_prefix_and_a_copy():
    acts = [["add", 0, 1], ["add", 0, 2], ["add", 0, 3]]
    path = _journal("jnl-cut", acts)
    whole = support.read_bytes(path)
    third = whole.index(b'["add", 0, 2]')
    assert readback.cut(path, third) == "Bad line 3: copy kept"
    assert _tail(path) == ([["add", 0, 1]], None)
    assert support.read_bytes(path + ".bad") == whole


def _checkpoint(n, p, s, e=None, t=None, crc=True):
    """A checkpoint line as Game writes it: its CRC first (crc False: as version 2 did)."""
    text = '"n": %d' % n
    if n:
        text += ', "p": %d' % p
    if e is not None:
        text += ', "e": %d' % e
    if t:
        text += ', "t": ' + json.dumps(t)
    body = (text + ', "s": ' + json.dumps(s) + "}").encode()
    if not crc:
        return b"{" + body + b"\n"
    return ('{"c": %d, ' % binascii.crc32(body)).encode() + body + b"\n"


def test_load_starts_at_the_last_valid_checkpoint():
    path = _journal("jnl-checkpoints", [["add", 0, 1], ["add", 0, 2]])
    c2 = len(support.read_bytes(path))
    _add(path, _checkpoint(2, 0, {"at": 2}) + _line(["add", 0, 3]))
    c3 = len(support.read_bytes(path))
    _add(path, _checkpoint(3, c2, {"at": 3}) + _line(["undo"]) + _line(["next"]))
    # The undo dropped below the checkpoint of depth 3: the one of depth 2 serves.
    got = readback.load(path)
    assert got.base[0] == c2 and got.base[1]["s"] == {"at": 2} and got.tail == [["next"]]
    assert got.since == 4 and got.problem is None
    _add(path, _checkpoint(3, c2, {"at": "3b"}))
    before = journal.stats[0]
    got = readback.load(path)
    assert got.base[1]["s"] == {"at": "3b"} and got.tail == [] and got.since == 0
    assert journal.stats[0] - before <= 4  # the header, the checkpoint twice, a look past it
    assert c3 > c2


def test_a_checkpoint_with_a_tail_stays_valid_while_its_tail_is_undone():
    # Depth 3, then the base of depth 1 written again with the two actions after it.
    path = _journal("jnl-checkpoint-tail", [["next"], ["add", 0, 1], ["add", 0, 2]])
    at = len(support.read_bytes(path))
    _add(path, _checkpoint(1, 0, {"at": 1}, t=[["add", 0, 1], ["add", 0, 2]]))
    got = readback.load(path)
    assert got.base[0] == at and got.tail == [["add", 0, 1], ["add", 0, 2]] and got.offs == [at, at]
    _add(path, _line(["undo"]) + _line(["undo"]))
    got = readback.load(path)
    assert got.base[0] == at and got.tail == [] and got.offs == []
    _add(path, _line(["undo"]))  # one more: below the checkpoint, the header serves
    got = readback.load(path)
    assert got.base == (0, None) and got.tail == [] and got.problem is None


def test_checkpoint_lines_are_checked():
    good = _checkpoint(3, 10, {"a": 1}, e=20, t=[["next"]])
    assert readback.checkpoint(good, 30)["t"] == [["next"]]
    assert readback.checkpoint(_checkpoint(0, 0, {}), 5)["s"] == {}
    assert readback.checkpoint(good, 20)["e"] == 20  # e may name the line itself
    for crc in (True, False):
        for line, at in ((good, 15), (good, 19), (_checkpoint(3, 40, {}, crc=crc), 30),
                         (_checkpoint(1, 0, {}, t=[[]], crc=crc), 9), (b'["n"]\n', 9),
                         (b'{"n": 1}\n', 9), (b'{"n": -1, "s": 1}\n', 9),
                         (b'{"n": 1, "p": "0", "s": 1}\n', 9),
                         (b'{"n": 2, "p": 0, "t": 5, "s": 0}\n', 9),
                         (b'{"n": 1, "p": 0, "s": 1}\x00\n', 9)):
            assert readback.checkpoint(line, at, crc) is None, line


def test_a_checkpoint_is_trusted_only_with_its_crc():
    good = _checkpoint(3, 10, {"scores": [10, 20]})
    assert readback.checkpoint(good, 30)["s"] == {"scores": [10, 20]}
    for bad in (good.replace(b"10, 20", b"19, 20"), good.replace(b"[10", b"[ 10"),
                good.replace(b'"c": ', b'"c":  '), good.replace(b'"c": ', b'"c": -'),
                good.replace(b'"c": ', b'"c": x'), good[:-2] + b"\n", b'{"c": 123', b'{"c": ',
                _checkpoint(3, 10, {"scores": [10, 20]}, crc=False)):
        assert readback.checkpoint(bad, 30) is None, bad
    # Version 2 journals (no CRC) still resume from their checkpoints.
    unsigned = _checkpoint(3, 10, {"scores": [10, 20]}, crc=False)
    assert readback.checkpoint(unsigned, 30, False)["s"] == {"scores": [10, 20]}
    assert readback.checkpoint(good, 30, False)["n"] == 3  # a CRC is no harm in version 2


def test_a_version_2_journal_resumes_from_its_checkpoints():
    path = support.scratch_dir("jnl-v2") + "/game.jnl"
    support.write_bytes(path, b'{"v": 2, "game": "scorepad", "opts": {}}\n["next"]\n')
    at = len(support.read_bytes(path))
    _add(path, _checkpoint(1, 0, {"at": 1}, crc=False) + _line(["add", 0, 3]))
    got = readback.load(path)
    assert got.base[0] == at and got.base[1]["s"] == {"at": 1} and got.tail == [["add", 0, 3]]
    assert got.problem is None


def test_a_checkpoint_that_fails_its_crc_is_damage():
    path = _journal("jnl-crc", [["next"]])
    at = len(support.read_bytes(path))
    _add(path, _checkpoint(1, 0, {"at": 1}).replace(b'"at": 1', b'"at": 7') + _line(["next"]))
    whole = support.read_bytes(path)
    got = readback.load(path)
    assert got.problem == "Bad line 3: copy kept" and got.base == (0, None) and got.tail == [["next"]]
    assert support.read_bytes(path) == whole[:at] and support.read_bytes(path + ".bad") == whole


def test_remove():
    path = _journal("jnl-remove", [["next"]])
    files.remove(path)  # a journal goes as any file the store replaces whole
    assert _files(path) == []
    files.remove(path)  # already gone: fine


def test_each_kind_of_line_is_encoded_beside_its_decoding():
    """journal.py writes every kind of line and reads it back; the bytes are those that earlier
    versions wrote (the hand-made lines here), so journals on boards still resume."""
    head = journal.header_line("scorepad", OPTS, "0badcafe", "2026-12-06 01:00:00")
    assert head.endswith(b"}\n") and head.count(b"\n") == 1  # key order: the VM's dict's
    assert readback.header(head) == {"v": 3, "game": "scorepad", "opts": OPTS, "id": "0badcafe",
                                    "start": "2026-12-06 01:00:00"}
    assert journal.action_line(["add", 0, 5]) == _line(["add", 0, 5])
    assert readback.action(journal.action_line(["add", 0, 5])) == ["add", 0, 5]
    assert journal.action_line(["undo"]) == journal.UNDO_LINE
    for n, p, e, t, s in ((0, None, None, (), {}), (0, None, None, [["next"]], {"a": [1]}),
                          (3, 10, None, (), {"scores": [10, 20]}),
                          (4, 10, 20, [["add", 1, -3], ["next"]], {"a": "b"})):
        line = journal.checkpoint_line(n, p, e, t, json.dumps(s))
        assert line == _checkpoint(n, p, s, e, t), line
        assert line[0] == journal.OPEN and readback.action(line) is None
        got = readback.checkpoint(line, 30)
        assert (got["n"], got.get("p"), got.get("e"), got.get("t", []), got["s"]) == \
            (n, p, e, list(t), s), got
        other = line.replace(('"n": %d' % n).encode(), ('"n": %d' % (n + 5)).encode())
        assert readback.checkpoint(other, 30) is None  # its CRC holds the line whole
        for void in (journal.VOID, line[:-1] + journal.VOID):
            assert readback.action(void) is None and readback.checkpoint(void, 30) is None
    assert readback.action(b'["add"' + journal.VOID) is None

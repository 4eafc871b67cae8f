"""The history file: read backwards a chunk at a time, kept short, and no game lost to a power cut.

The power-cut tests run ``history.file`` over a ``Flash`` that stands between the module and
the real files: it counts every change (a write call, a rename, a remove) and, at the chosen
one, keeps only part of that write (or does not rename) and raises ``PowerCut``; every later
change fails too, as nothing runs after a cut. Then the device "boots again" and plays on.
"""

import json
import os

import support
from tablemate.store import files, history
from tablemate import keys as K

PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]


def summary(i):
    """A game record of ~190 bytes that tells game i apart (three overflow a 512-byte chunk)."""
    return {"game": "scorepad", "names": PLAYERS, "scores": [i, 2 * i, 3, 4, 5, 6, 7, i % 9],
            "winners": [i % 8], "rounds": i, "actions": 1000 + i, "target": 500}


def line(i, n=None):
    g = summary(i)
    if n is not None:
        g["n"] = n
    return json.dumps(g) + "\n"


def write(path, text):
    support.write_bytes(path, text if isinstance(text, bytes) else text.encode())


def numbers(path):
    """The n of every readable game in a file, in file order ([] when there is no file)."""
    try:
        data = support.read_bytes(path)
    except OSError:
        return []
    out = []
    for raw in data.split(b"\n")[:-1]:
        g = history.game(raw)
        if g is not None:
            out.append(g.get("n"))
    return out


def lines_of(path):
    try:
        return support.read_bytes(path).count(b"\n")
    except OSError:
        return 0


# ---- reading ------------------------------------------------------------------------------------

def test_recent_gives_the_newest_games_newest_first():
    path = support.scratch_dir("hist-recent") + "/history.jnl"
    write(path, "".join(line(i, i) for i in range(1, 41)))  # ~7 KB: many chunks
    games = history.recent(path, 12)
    assert [g["n"] for g in games] == list(range(40, 28, -1))
    assert games[0] == dict(summary(40), n=40)
    assert [g["n"] for g in history.recent(path, 100)] == list(range(40, 0, -1))
    assert history.recent(path, 1)[0]["rounds"] == 40


def test_recent_reads_lines_across_chunk_boundaries():
    d = support.scratch_dir("hist-bounds")
    path = d + "/history.jnl"
    long_game = dict(summary(7), note="x" * 1500)  # one line longer than two chunks
    for pad in range(0, 520, 37):  # shift every line boundary through the chunk boundaries
        text = "\n" * pad + line(1) + json.dumps(long_game) + "\n" + line(2) + line(3)
        write(path, text)
        games = history.recent(path, 10)
        assert [g["rounds"] for g in games] == [3, 2, 7, 1], pad
        assert games[2]["note"] == "x" * 1500


def test_recent_skips_lines_that_are_not_games():
    path = support.scratch_dir("hist-bad") + "/history.jnl"
    good = [line(i, i) for i in range(1, 6)]
    bad = [b"42\n", b"[1, 2]\n", b"\xff\xfe{\"names\": []}\n", b"{\"names\": [\"\xff\"]}\n",
           b"\n", b"{\"game\": \"scorepad\"}\n", b"{\"names\": \"Ann\"}\n",
           b"{\"names\": [1, 2]}\n", b"{\"names\": [\"Ann\"], \"winners\": [\"0\"]}\n",
           b"{\"names\": [\"Ann\"], \"winners\": 0}\n", b"{\"names\": [\"Ann\"], \"scores\": 3}\n",
           b"{\"names\": [\"Ann\"], \"sco"]
    data = b""
    for i in range(5):
        data += good[i].encode() + bad[i] + bad[5 + i]
    data += bad[10] + bad[11]  # ends with a torn line (no newline)
    write(path, data)
    assert [g["n"] for g in history.recent(path, 12)] == [5, 4, 3, 2, 1]
    assert [g["n"] for g in history.recent(path, 3)] == [5, 4, 3]


def test_recent_without_a_file_or_games_is_empty():
    d = support.scratch_dir("hist-empty")
    assert history.recent(d + "/history.jnl", 12) == []
    for data in (b"", b"\n\n", b"{\"names\": [\"Ann\"]", b"not json\n"):
        write(d + "/history.jnl", data)
        assert history.recent(d + "/history.jnl", 12) == [], data


class _ChunkOnly:
    """A read-only file that allows only ``read(n)`` of at most 512 bytes, and counts them."""

    def __init__(self, path, log):
        self._f = open(path, "rb")
        self._log = log

    def read(self, n):
        assert 0 < n <= 512, n
        self._log.append(n)
        return self._f.read(n)

    def seek(self, offset, whence=0):
        return self._f.seek(offset, whence)

    def close(self):
        self._f.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def test_recent_reads_a_few_chunks_from_the_end_of_a_long_history():
    path = support.scratch_dir("hist-chunks") + "/history.jnl"
    write(path, "".join(line(i, i) for i in range(1, 201)))  # a full file: ~35 KB
    reads = []
    history.open = lambda p, mode="r": _ChunkOnly(p, reads)  # no readline, no iteration
    try:
        games = history.recent(path, 12)
    finally:
        del history.open
    assert [g["n"] for g in games] == list(range(200, 188, -1))
    assert len(reads) <= 6, reads  # 12 lines of ~180 bytes: 5 chunks, not the whole file


def test_the_screen_shows_the_games_of_a_damaged_history():
    from rig import Rig
    from tablemate.screens import history as page
    root = support.scratch_dir("hist-screen")
    write(root + "/history.jnl", "\n" + line(1) + "[]\n \r\n" + line(2, 2) + "\n"
          + "{\"names\": [\"Ann\"], \"wi")
    rig = Rig(root)
    rig.choose("History")
    assert rig.top() == "Notice" and " ".join(rig.app.top().lines) == page.damage(1)
    rig.press(K.OK)  # the "[]" line is counted; blank lines hold no game to lose, and the torn
    # last one is not a line yet
    menu = rig.app.top()
    assert rig.top() == "Menu" and menu.items == ["Scorepad: Cy", "Scorepad: Bob"]
    rig.press(K.OK)
    assert rig.top() == "Notice" and " ".join(rig.app.top().lines) == page.details(summary(2))
    assert not rig.exists("errors.log")


# ---- filing and the cap -------------------------------------------------------------------------

def test_file_appends_numbered_lines_and_leaves_the_summary_alone():
    d = support.scratch_dir("hist-file")
    path = d + "/history.jnl"
    s = summary(1)
    assert history.file(path, s) == 1
    assert s == summary(1)
    assert history.file(path, summary(2)) == 2
    assert numbers(path) == [1, 2]
    assert history.recent(path, 5)[0] == dict(summary(2), n=2)
    assert sorted(os.listdir(d)) == ["history.jnl"]


def test_file_numbers_on_after_unnumbered_lines_and_from_the_archive():
    d = support.scratch_dir("hist-number")
    path = d + "/history.jnl"
    write(path, line(1) + line(2))  # filed before games were numbered
    assert history.file(path, summary(3)) == 1
    os.remove(path)
    write(d + "/history.old", line(1, 41) + line(2, 42) + "{\"torn")
    assert history.file(path, summary(3)) == 43


def test_a_torn_last_line_cannot_swallow_the_next_game():
    path = support.scratch_dir("hist-torn") + "/history.jnl"
    write(path, line(1, 1) + line(2, 2)[:60])
    assert history.file(path, summary(3)) == 2  # the torn game 2 never counted
    assert [g["rounds"] for g in history.recent(path, 5)] == [3, 1]
    assert support.read_bytes(path).count(b"\n") == 3


def test_the_file_keeps_at_most_cap_games_and_the_archive_the_rest():
    d = support.scratch_dir("hist-cap")
    path = d + "/history.jnl"
    for i in range(1, 31):
        history.file(path, summary(i), cap=6, keep=3)
        assert 1 <= lines_of(path) <= 6, i
        assert numbers(d + "/history.old") + numbers(path) == list(range(1, i + 1)), i
    assert numbers(path) == [25, 26, 27, 28, 29, 30]  # moves at games 7, 11, ..., 27
    assert sorted(os.listdir(d)) == ["history.jnl", "history.old"]
    assert history.archive_path("/history.jnl") == "/history.old"


def test_the_default_cap_is_two_hundred_games():
    d = support.scratch_dir("hist-default")
    path = d + "/history.jnl"
    write(path, "".join(line(i, i) for i in range(1, 201)))
    history.file(path, summary(201))
    assert numbers(path) == list(range(102, 202))
    assert numbers(d + "/history.old") == list(range(1, 102))
    history.file(path, summary(202))
    assert lines_of(path) == 101


def test_a_move_closes_a_torn_line_of_the_archive():
    d = support.scratch_dir("hist-torn-old")
    path = d + "/history.jnl"
    write(d + "/history.old", line(1, 1) + line(2, 2)[:50])
    write(path, "".join(line(i, i) for i in range(2, 6)))
    history.file(path, summary(6), cap=4, keep=2)
    assert numbers(d + "/history.old") == [1, 2, 3, 4]
    assert numbers(path) == [5, 6]


# ---- power cuts ---------------------------------------------------------------------------------
Flash = support.CutFlash
PowerCut = support.PowerCut

def _filed(path, flash, i, cap, keep):
    """File game i through ``flash``; True if it went through, False if the power was cut."""
    flash.install(history, files)
    try:
        history.file(path, summary(i), cap, keep)
        return True
    except PowerCut:
        return False
    finally:
        flash.uninstall()


def _all_games(d):
    """The n of every game in the archive and the history file (or the temporary file a cut
    inside a non-atomic replace left in its place), each once, in order."""
    path = d + "/history.jnl"
    current = path if files.exists(path) else path + ".tmp"
    seen = []
    for n in numbers(d + "/history.old") + numbers(current):
        if n not in seen:
            seen.append(n)
    return seen


def _check_after_cut(d, before, label):
    """Every game filed before the cut is still on flash once, readable, in order."""
    path = d + "/history.jnl"
    got = _all_games(d)
    assert got[:len(before)] == before, (label, got)
    assert len(got) <= len(before) + 1, (label, got)  # the game being filed: there or not
    old = numbers(d + "/history.old")
    assert len(set(old)) == len(old), (label, old)  # the archive never holds a game twice
    if files.exists(path):
        ns = [g["n"] for g in history.recent(path, 50)]
        assert ns == sorted(ns, reverse=True) and len(set(ns)) == len(ns), (label, ns)


def _play(name, cap, keep, pre, cuts, torn, fat):
    """File games 1..pre, then one game per cut in ``cuts`` with the power cut at that change,
    then six more games. Return how many of the cut filings were really cut."""
    d = support.scratch_dir(name)
    path = d + "/history.jnl"
    for i in range(1, pre + 1):
        history.file(path, summary(i), cap, keep)
    before = list(range(1, pre + 1))
    cut = 0
    i = pre
    for change in cuts:
        i += 1
        label = (cuts, torn, fat, i)
        if not _filed(path, Flash(change, torn, fat), i, cap, keep):
            cut += 1
        _check_after_cut(d, before, label)
        before = _all_games(d)
    for i in range(i + 1, i + 7):
        assert _filed(path, Flash(None, 0, fat), i, cap, keep), label
    games = _all_games(d)
    assert games == sorted(games) and games[:pre] == list(range(1, pre + 1)), (label, games)
    assert len(games) >= pre + 6, (label, games)
    assert lines_of(path) <= cap, label
    old = numbers(d + "/history.old")
    assert len(set(old)) == len(old), (label, old)
    return cut


def _cut_sweep(name, cap, keep, pre, fat):
    """Game pre+1 moves games to the archive: cut its filing at every change and with every
    amount of a torn write, and each time cut the next filing at every change too.
    Return (changes in a move, scenarios played)."""
    runs = 0
    first = 0
    while _play(name, cap, keep, pre, (first,), 0, fat):
        for torn in range(4):
            second = 0
            while _play(name, cap, keep, pre, (first, second), torn, fat) == 2:
                second += 1
                runs += 1
        first += 1
    return first, runs


def test_a_power_cut_at_any_change_of_a_move_loses_no_game():
    changes, runs = _cut_sweep("hist-cut", 4, 2, 4, False)
    assert changes >= 5 and runs > 60, (changes, runs)  # append, archive, temp file, rename


def test_a_power_cut_with_a_rename_that_cannot_replace_loses_no_game():
    changes, runs = _cut_sweep("hist-cut-fat", 4, 2, 4, True)
    assert changes >= 6 and runs > 60, (changes, runs)  # ... and the remove before the rename


def test_a_cut_between_archive_and_rename_leaves_both_copies_then_heals():
    d = support.scratch_dir("hist-dup")
    path = d + "/history.jnl"
    for i in range(1, 5):
        history.file(path, summary(i), 4, 2)
    # changes when game 5 is filed: 1 append, 2-3 archive (two chunks), 4 temp file, 5 rename
    assert not _filed(path, Flash(4, 0), 5, 4, 2)
    assert numbers(d + "/history.old") == [1, 2, 3]
    assert numbers(path) == [1, 2, 3, 4, 5]  # games 1-3 in both files: twice, never zero times
    for i in range(6, 8):
        assert _filed(path, Flash(), i, 4, 2)
    assert numbers(d + "/history.old") == [1, 2, 3, 4]  # 1-3 not appended again
    assert numbers(path) == [5, 6, 7]

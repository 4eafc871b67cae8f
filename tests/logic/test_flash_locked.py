"""A flash that refuses writes (issue 14): full (ENOSPC) or read-only (EROFS), on both VMs.

Reading a damaged journal or settings file repairs it on the way; a flash that refuses the repair
must not stop the game: the journal is read as if it ended before the damage, the settings as
their good values, the file is left as it was, and the first save that works finishes the job.
The store's modules are given an ``open`` and an ``os`` that refuse writes (module globals come
before builtins on both VMs), so the real code runs unchanged against the fault.
"""

import json
import os

import support
from tablemate import lifecycle
from tablemate.store import settings
from tablemate.rules import scorepad
from tablemate.store import files, game, journal, readback
from tablemate.store.game import Game

FULL = 28  # errno.ENOSPC
READ_ONLY = 30  # errno.EROFS
OPTS = {"names": ["Ann", "Bob", "Cy"], "target": 0}
_MODULES = (files, game, readback, journal, settings)
_REAL_OPEN = open


class _RefusingOS:
    """``os`` for the store: reads as usual; on a full flash renames and removes still work
    (they free space, as on littlefs), on a read-only one nothing changes."""

    def __init__(self, code):
        self.code = code

    def stat(self, path):
        return os.stat(path)

    def listdir(self, path):
        return os.listdir(path)

    def _refuse(self):
        raise OSError(self.code)

    def mkdir(self, path):
        self._refuse()

    def rmdir(self, path):
        self._refuse()

    def rename(self, old, new):
        if self.code == READ_ONLY:
            self._refuse()
        os.rename(old, new)

    def remove(self, path):
        if self.code == READ_ONLY:
            self._refuse()
        os.remove(path)


class Locked:
    """``with Locked(code):`` the store's modules meet a flash that refuses with ``code``."""

    def __init__(self, code):
        self.code = code
        self.refused = 0

    def _open(self, path, mode="r"):
        if "w" in mode or "a" in mode or "+" in mode:
            self.refused += 1
            raise OSError(self.code)
        return _REAL_OPEN(path, mode)

    def __enter__(self):
        fake = _RefusingOS(self.code)
        for m in (readback, settings):  # imported again once the firmware let them go: these ones
            support.loaded(m)
        for m in _MODULES:
            m.open = self._open
            if hasattr(m, "os"):
                m.os = fake
        return self

    def __exit__(self, *exc):
        for m in _MODULES:
            del m.open  # the builtin again, for whatever stands in for it later
            if hasattr(m, "os"):
                m.os = os


def _game(name, actions):
    path = support.scratch_dir(name) + "/game.jnl"
    g = Game.new(scorepad, path, OPTS)
    for a in actions:
        g.do(a)
    g.save()
    return path, g


ACTIONS = [["add", 0, 2], ["next"], ["add", 1, 1], ["next"]]


def test_a_torn_journal_resumes_up_to_the_fragment():
    for code, words in ((FULL, "Flash full"), (READ_ONLY, "Flash read-only")):
        path, live = _game("locked-torn", ACTIONS)
        good = support.read_bytes(path)
        with open(path, "ab") as f:
            f.write(b'["add", 2, 1')
        torn = support.read_bytes(path)
        with Locked(code) as lock:
            g, problem = Game.resume(lifecycle.rules, path)
        assert lock.refused and problem.startswith(words + ":"), problem
        assert support.read_bytes(path) == torn, "nothing written"
        assert g.state == live.state and g.count == 4
        g.do(["add", 2, 5])
        g.save()  # writable again: the fragment is cut off, kept aside, the action appended
        assert support.read_bytes(path).startswith(good)
        assert support.journal_lines(path)[-1] == ["add", 2, 5]
        assert support.read_bytes(path + ".bad") == torn
        again, problem = Game.resume(lifecycle.rules, path)
        assert problem is None and again.state == g.state


def test_a_damaged_line_is_read_as_the_end_until_it_can_be_cut():
    path, live = _game("locked-damaged", ACTIONS)
    lines = support.read_bytes(path).split(b"\n")
    lines[3] = b'["add", 1, \xff'  # the third action
    damaged = b"\n".join(lines)
    support.write_bytes(path, damaged)
    with Locked(FULL):
        g, problem = Game.resume(lifecycle.rules, path)
    assert problem.startswith("Flash full:"), problem
    assert support.read_bytes(path) == damaged
    assert g.count == 2 and scorepad.scores(g.state) == [2, 0, 0]
    with Locked(READ_ONLY):
        try:
            g.do(["add", 1, 4])
            g.save()
            assert False, "the save was refused"
        except OSError:
            pass
        assert g.unsaved == 1, "kept queued"
    g.save()
    assert support.journal_lines(path)[1:] == ACTIONS[:2] + [["add", 1, 4]]
    assert support.read_bytes(path + ".bad") == damaged


def test_a_line_the_rules_refuse_is_read_as_the_end_until_it_can_be_cut():
    path, live = _game("locked-refused", ACTIONS)
    with open(path, "ab") as f:
        f.write(b'["add", 9, 1]\n["next"]\n')  # player 9 does not exist
    before = support.read_bytes(path)
    with Locked(READ_ONLY):
        g, problem = Game.resume(lifecycle.rules, path)
    assert problem.startswith("Flash read-only:"), problem
    assert support.read_bytes(path) == before and g.state == live.state


def test_a_bad_header_on_a_read_only_flash_is_reported_and_left():
    path = support.scratch_dir("locked-header") + "/game.jnl"
    support.write_bytes(path, b"\x00\x00 not a journal\n")
    with Locked(READ_ONLY):
        g, problem = Game.resume(lifecycle.rules, path)
    assert g is None and problem.startswith("Bad journal\nFlash read-only:"), problem
    assert support.read_bytes(path) == b"\x00\x00 not a journal\n"
    head = b'{"v": 2, "game": "scorepad", "opts": {"names": ["A"], "timer": "x"}}\n'
    support.write_bytes(path, head)
    with Locked(READ_ONLY):
        g, problem = Game.resume(lifecycle.rules, path)
    assert g is None and problem.startswith("Bad journal\nFlash read-only:"), problem
    with Locked(FULL):  # a rename needs no free block: the file goes aside as usual
        g, problem = Game.resume(lifecycle.rules, path)
    assert g is None and problem == journal.BAD and support.read_bytes(path + ".bad") == head


def test_settings_that_need_repair_keep_their_good_values():
    path = support.scratch_dir("locked-settings") + "/settings.json"
    names = ["Zed", "Yan", "Xi", "Wu", "Vi", "Ute", "Ty", "Sol"]
    text = json.dumps({"names": names, "brightness": 99})
    support.write_bytes(path, text.encode())
    for code, words in ((FULL, "Flash full"), (READ_ONLY, "Flash read-only")):
        with Locked(code):
            s, problem = settings.load(path)
        assert s["names"] == names and s["brightness"] == settings.DEFAULTS["brightness"]
        assert problem.startswith("Bad setting: brightness\n" + words), problem
        assert support.read_bytes(path) == text.encode()
        assert not files.exists(path + ".bad"), "no partial copy left"
    support.write_bytes(path, b"\xff{")
    with Locked(READ_ONLY):
        s, problem = settings.load(path)
    assert s == settings.defaults() and "Flash read-only" in problem
    assert support.read_bytes(path) == b"\xff{"

"""The one atomic write (``store.files.write_atomic``): a power cut at every change of a replace,
with every amount of a torn write, leaves the old file or the new one, whole; a flash that
refuses leaves the old file and no temporary one.

Every file the device replaces whole (settings, setups, the chess clock, the solitaire's
records, a journal's creation and repairs, the history's trim) goes through it, so this is the
power-cut test of all of them; the history and the journal have their own sweeps on top.
"""

import support
from tablemate.store import files

OLD = b'{"v": 1, "names": ["Ann", "Bob"]}'
NEW = b'{"v": 2, "names": ["Ann", "Bob", "Cy", "Dee"], "more": "' + b"x" * 300 + b'"}'


def _write(path, flash, data):
    """Replace path through ``flash``; True if it went through, False if the power was cut."""
    flash.install(files)
    try:
        files.write_atomic(path, data)
        return True
    except support.PowerCut:
        return False
    finally:
        flash.uninstall()


def _sweep(name, data, fat):
    """Cut the replace at every change with every torn amount; return the changes it makes."""
    d = support.scratch_dir(name)
    path = d + "/file.json"
    cut = 0
    while True:
        for torn in range(4):
            support.write_bytes(path, OLD)
            done = _write(path, support.CutFlash(cut, torn, fat), data)
            if not files.exists(path):  # FAT only: cut between the remove and the rename
                assert fat, (cut, torn)
                files.finish(path)  # what the next reader (history.file) does first
            got = support.read_bytes(path)
            assert got in (OLD, NEW), (cut, torn, got[:40])
            if done:
                assert got == NEW
                return cut
        cut += 1


def test_a_cut_at_every_change_leaves_the_old_file_or_the_new_one():
    assert _sweep("atomic", NEW, False) == 2  # the write, then the rename
    assert _sweep("atomic-str", NEW.decode(), False) == 2  # a str is written as its bytes


def test_a_rename_that_cannot_replace_is_finished_by_the_next_reader():
    assert _sweep("atomic-fat", NEW, True) == 3  # the write, the remove, the rename


def test_a_streamed_copy_is_atomic_too_and_returns_what_it_returned():
    d = support.scratch_dir("atomic-fill")
    src = d + "/src"
    support.write_bytes(src, NEW)

    def fill(f):
        with open(src, "rb") as fi:
            for chunk in (fi.read(100), fi.read()):
                f.write(chunk)
        return 7
    path = d + "/file.json"
    support.write_bytes(path, OLD)
    assert files.write_atomic(path, fill) == 7
    assert support.read_bytes(path) == NEW and not files.exists(path + ".tmp")
    cut = 0
    while True:  # two writes, then the rename: cut at each
        support.write_bytes(path, OLD)
        if _write(path, support.CutFlash(cut, 2), fill):
            break
        assert support.read_bytes(path) == OLD, cut
        cut += 1
    assert cut == 3 and support.read_bytes(path) == NEW


class _Full:
    """``open`` of a full flash: the temporary file is created, its data never commits."""

    def __init__(self):
        self.opened = []

    def open(self, path, mode="r"):
        f = open(path, mode)
        if "r" in mode:
            return f
        self.opened.append(path)
        return _Refusing(f)


class _Refusing:
    def __init__(self, f):
        self._f = f

    def write(self, data):
        raise OSError(28)  # ENOSPC

    def flush(self):
        pass

    def close(self):
        self._f.close()


def test_a_refused_write_keeps_the_old_file_and_leaves_no_temporary_file():
    d = support.scratch_dir("atomic-full")
    path = d + "/file.json"
    support.write_bytes(path, OLD)
    full = _Full()
    files.open = full.open
    try:
        try:
            files.write_atomic(path, NEW)
            raise AssertionError("the full flash took the write")
        except OSError as exc:
            assert files.trouble(exc) == "Flash full"
    finally:
        del files.open
    assert full.opened == [path + ".tmp"]
    assert support.read_bytes(path) == OLD and not files.exists(path + ".tmp")

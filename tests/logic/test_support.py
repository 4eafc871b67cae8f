"""The scratch-file helpers behave the same on CPython and under MicroPython."""

import os

import support


def test_scratch_dir_is_fresh_and_empty():
    path = support.scratch_dir("support-fresh")
    support.write_bytes(path + "/a.bin", b"old")
    os.mkdir(path + "/sub")
    support.write_bytes(path + "/sub/b.bin", b"nested")
    assert support.scratch_dir("support-fresh") == path
    assert os.listdir(path) == []


def test_scratch_dirs_are_separate():
    first = support.scratch_dir("support-one")
    second = support.scratch_dir("support-two")
    assert first != second
    support.write_bytes(first + "/x", b"1")
    assert os.listdir(second) == []


def test_bytes_round_trip():
    path = support.scratch_dir("support-bytes") + "/data.bin"
    data = bytes(range(256)) + b"\r\n\x00"
    support.write_bytes(path, data)
    assert support.read_bytes(path) == data
    support.write_bytes(path, b"short")
    assert support.read_bytes(path) == b"short"


def test_bad_scratch_names_are_refused():
    for name in ("", "a/b", ".."):
        try:
            support.scratch_dir(name)
        except AssertionError:
            continue
        assert False, "accepted %r" % name

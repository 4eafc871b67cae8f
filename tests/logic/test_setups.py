"""The last setup of each mode: kept in one small file, read back, a bad file kept aside."""

import support
from tablemate.store import files, setups


def _path(name):
    return support.scratch_dir(name) + "/setups.json"


def test_a_saved_setup_reads_back_and_other_modes_are_kept():
    path = _path("setups-round")
    records, problem = setups.load(path)
    assert records == {} and problem is None  # nothing saved yet: no problem either
    setups.save(path, records, "scorepad", {"seats": [0, 2], "first": -1, "values": {"target": 50}})
    setups.save(path, records, "contrast", {"seats": [1, 2, 3], "first": 0, "values": {}})
    again, problem = setups.load(path)
    assert problem is None and again["scorepad"]["seats"] == [0, 2]
    assert again["scorepad"]["values"] == {"target": 50} and again["contrast"]["first"] == 0
    assert not files.exists(path + ".tmp")


def test_an_unreadable_file_is_kept_aside_and_reported():
    for junk in (b'{"scorepad": [', b"[1, 2]", b"\xff\xfe", b""):
        path = _path("setups-bad")
        support.write_bytes(path, junk)
        records, problem = setups.load(path)
        assert records == {} and problem == setups.UNREADABLE, junk
        assert not files.exists(path) and files.exists(path + ".bad"), junk

"""Settings: defaults, round trip, damaged files kept aside, bad values replaced by defaults."""

import json
import os

import support
from tablemate.store import settings

NAMES = ["P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8"]
DEFAULTS = {"names": NAMES, "brightness": 3, "dim_s": 30, "off_min": 5, "sound": True,
            "layout": "six", "turn": 0, "battery": "LiPo", "phones": False}


def _path(name):
    return support.scratch_dir(name) + "/settings.json"


def _files(path):
    return sorted(os.listdir(path[:path.rindex("/")]))


def test_missing_file_gives_defaults():
    path = _path("set-missing")
    s, problem = settings.load(path)
    assert s == DEFAULTS and problem is None
    assert _files(path) == []


def test_defaults_are_fresh_copies():
    s, _ = settings.load(_path("set-fresh"))
    s["names"][0] = "Zed"
    s["brightness"] = 5
    assert settings.load(_path("set-fresh"))[0] == DEFAULTS
    assert settings.defaults() == DEFAULTS


def test_round_trip():
    path = _path("set-round")
    want = {"names": ["Ann", "Bob", "Cy", "D", "E e", "~!@#", "12345678", "P8"],
            "brightness": 5, "dim_s": 0, "off_min": 60, "sound": False, "layout": "three",
            "turn": 2, "battery": "NiMH", "phones": True}
    settings.save(path, want)
    s, problem = settings.load(path)
    assert s == want and problem is None
    assert _files(path) == ["settings.json"]


def test_save_fills_missing_keys_and_drops_unknown_ones():
    path = _path("set-partial")
    settings.save(path, {"brightness": 1, "colour": "red"})
    raw = json.loads(support.read_bytes(path))
    want = dict(DEFAULTS)
    want["brightness"] = 1
    assert raw == want


def test_save_refuses_bad_values_and_keeps_the_old_file():
    path = _path("set-save-bad")
    settings.save(path, DEFAULTS)
    data = support.read_bytes(path)
    for key, value in (("brightness", 6), ("layout", "two"), ("names", ["A"])):
        s = settings.defaults()
        s[key] = value
        try:
            settings.save(path, s)
        except ValueError as e:
            assert str(e) == "Bad setting: " + key
        else:
            assert False, key
    assert support.read_bytes(path) == data
    assert _files(path) == ["settings.json"]


def test_validate():
    good = [("names", NAMES), ("names", ["  x"] + NAMES[1:]), ("brightness", 1),
            ("brightness", 5), ("dim_s", 0), ("dim_s", 5), ("dim_s", 600), ("off_min", 0),
            ("off_min", 1), ("off_min", 60), ("sound", True), ("sound", False),
            ("layout", "six"), ("layout", "five"), ("layout", "three"), ("battery", "alkaline"),
            ("battery", "NiMH"), ("battery", "LiPo")]
    bad = [("names", NAMES[:7]), ("names", NAMES + ["P9"]), ("names", ["", ] + NAMES[1:]),
           ("names", ["NINECHARS"] + NAMES[1:]), ("names", ["    "] + NAMES[1:]),
           ("names", ["tab\t"] + NAMES[1:]), ("names", ["caf\u00e9"] + NAMES[1:]),
           ("names", [1] + NAMES[1:]), ("names", "P1"), ("brightness", 0),
           ("brightness", 6), ("brightness", 3.0), ("brightness", True), ("brightness", "3"),
           ("dim_s", 4), ("dim_s", 601), ("dim_s", -1), ("dim_s", False), ("off_min", 61),
           ("off_min", -1), ("sound", 1), ("sound", None), ("layout", "rotary"),
           ("layout", None), ("battery", "lipo"), ("battery", "Li-ion"), ("battery", None)]
    for key, value in good:
        assert settings.validate(key, value) is None, (key, value)
    for key, value in bad:
        msg = settings.validate(key, value)
        assert msg == "Bad setting: " + key, (key, value)
        assert len(msg) <= 42
    assert settings.validate("volume", 3) == "Bad setting: volume"  # not one of KEYS


def test_corrupt_json_kept_aside_and_defaults_used():
    path = _path("set-corrupt")
    junk = b'{"brightness": 4, "sou'
    support.write_bytes(path, junk)
    s, problem = settings.load(path)
    assert s == DEFAULTS
    assert problem == "Settings unreadable: using defaults"
    assert len(problem) <= 42
    assert support.read_bytes(path + ".bad") == junk
    assert _files(path) == ["settings.json.bad"]
    assert settings.load(path) == (DEFAULTS, None)


def test_not_an_object_and_binary_junk_are_unreadable():
    path = _path("set-notobj")
    for data in (b'[1, 2]', b'', b'\xff\xfe\x00junk', b'3'):
        support.write_bytes(path, data)
        assert settings.load(path) == (DEFAULTS, "Settings unreadable: using defaults")
    assert _files(path) == ["settings.json.bad", "settings.json.bad1", "settings.json.bad2",
                            "settings.json.bad3"]
    assert support.read_bytes(path + ".bad2") == b'\xff\xfe\x00junk'


def test_one_bad_value_falls_back_and_file_is_kept_aside():
    path = _path("set-onebad")
    original = dict(DEFAULTS)
    original["brightness"] = 9
    original["dim_s"] = 120
    original["layout"] = "bogus"
    original["battery"] = "lead-acid"
    data = json.dumps(original).encode()
    support.write_bytes(path, data)
    s, problem = settings.load(path)
    want = dict(DEFAULTS)
    want["dim_s"] = 120
    assert s == want
    assert problem == "Bad setting: brightness"  # the first bad key, in settings.KEYS order
    assert support.read_bytes(path + ".bad") == data
    assert settings.load(path) == (want, None)  # saved back repaired: next boot is clean
    assert _files(path) == ["settings.json", "settings.json.bad"]


def test_unknown_and_missing_keys():
    path = _path("set-unknown")
    support.write_bytes(path, b'{"sound": false, "wifi": "on", "names": null}')
    s, problem = settings.load(path)
    want = dict(DEFAULTS)
    want["sound"] = False
    assert s == want and problem == "Bad setting: names"
    support.write_bytes(path, b'{"sound": false, "wifi": "on"}')
    assert settings.load(path) == (want, None)
    assert _files(path) == ["settings.json", "settings.json.bad"]


# -- the board check's verdict ------------------------------------------------------------------
def test_a_board_that_passed_is_known_by_its_fingerprint_alone():
    folder = support.scratch_dir("board-passed") + "/"
    assert settings.checked_board(folder, 1234) is None  # never checked here
    settings.board_passed(folder, 1234, ("six", "three"))
    assert settings.checked_board(folder, 1234) == ("six", "three")
    assert settings.checked_board(folder, 4321) is None  # an edited board: checked again
    settings.board_passed(folder, 4321, ["encoder"])
    assert settings.checked_board(folder, 4321) == ("encoder",)
    assert settings.checked_board(folder, 1234) is None, "one board: the latest"


def test_a_damaged_verdict_only_means_the_check_runs_again():
    folder = support.scratch_dir("board-damaged") + "/"
    for data in ('{"board": 7, "layouts": ["six"', "[1, 2]", '{"board": 7}',
                 '{"board": 7, "layouts": []}', '{"board": 7, "layouts": ["sixty"]}',
                 '{"board": 7, "layouts": "six"}', "\x00\x00"):
        with open(folder + settings.BOARD_FILE, "w") as f:
            f.write(data)
        assert settings.checked_board(folder, 7) is None, data


def test_a_flash_that_refuses_the_verdict_is_no_error():
    missing = support.scratch_dir("board-refused") + "/no-such-folder/"
    settings.board_passed(missing, 7, ["six"])  # a first boot has no /data yet: nothing kept
    assert settings.checked_board(missing, 7) is None


# -- the builder's wiring file ------------------------------------------------------------------
BOARD = {"i2c": 0, "sda": 4, "scl": 5, "freq": 400000, "buttons": {"UP": 10, "DOWN": 11, "OK": 14},
         "buzzer": 16}


def test_without_a_wiring_file_the_board_is_board_py():
    folder = support.scratch_dir("wiring-none") + "/"
    board, problems = settings.wiring(folder, BOARD)
    assert board is BOARD and problems == []


def test_the_wiring_file_replaces_board_py_values_whole():
    folder = support.scratch_dir("wiring-some") + "/"
    support.write_bytes(folder + settings.WIRING_FILE,
                        b'{"sda": 2, "scl": 3, "i2c": 1, "buttons": {"OK": 8}, "buzzer": null}')
    board, problems = settings.wiring(folder, BOARD)
    assert problems == []
    assert board == {"i2c": 1, "sda": 2, "scl": 3, "freq": 400000, "buttons": {"OK": 8},
                     "buzzer": None}
    assert BOARD["sda"] == 4 and BOARD["buttons"]["UP"] == 10, "board.py's values untouched"


def test_a_wiring_file_that_is_not_an_object_or_has_other_keys():
    folder = support.scratch_dir("wiring-bad") + "/"
    for data in (b'{"sda": 2,', b"[1, 2]", b"", b"\xff\xfe"):
        support.write_bytes(folder + settings.WIRING_FILE, data)
        board, problems = settings.wiring(folder, BOARD)
        assert board is BOARD and problems == [
            'The file is not a JSON object such as {"sda": 2, "scl": 3}'], data
    support.write_bytes(folder + settings.WIRING_FILE, b'{"sda": 2, "sdaa": 3}')
    board, problems = settings.wiring(folder, BOARD)
    assert board["sda"] == 2 and "sdaa" not in board, "the known keys still apply"
    assert problems == ["'sdaa' is not a board setting (use buttons, buzzer, freq, i2c, scl, sda)"]
    assert support.read_bytes(folder + settings.WIRING_FILE) == b'{"sda": 2, "sdaa": 3}'


def test_rewire_sets_one_key_and_keeps_the_others():
    folder = support.scratch_dir("wiring-rewire") + "/"
    settings.rewire(folder, "freq", 1000000)
    assert json.loads(support.read_bytes(folder + settings.WIRING_FILE)) == {"freq": 1000000}
    support.write_bytes(folder + settings.WIRING_FILE, b'{"sda": 2, "freq": 1000000}')
    settings.rewire(folder, "freq", 400000)
    assert settings.wiring(folder, BOARD) == (dict(BOARD, sda=2), [])
    support.write_bytes(folder + settings.WIRING_FILE, b'{"sda": 2,')
    try:
        settings.rewire(folder, "freq", 1000000)
        raise AssertionError("a damaged file was overwritten")
    except ValueError:
        pass
    assert support.read_bytes(folder + settings.WIRING_FILE) == b'{"sda": 2,'

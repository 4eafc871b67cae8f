"""``tablemate players``: the names on a board (the fake of test_flash.py), shown and set."""

import json
import os

import pytest
from test_flash import FakeBoard, _changes, _RawReplBoard

from tablemate_host import cli, flash, players
from tablemate_host.device import Device

from tablemate.flow import play

STORED = {"names": ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"], "brightness": 5,
          "dim_s": 60, "off_min": 0, "sound": False, "layout": "five"}


def _board(files=None, path="/data/settings.json", settings=STORED):
    files = dict(files or {})
    if settings is not None:
        files[path] = json.dumps(settings).encode()
    return FakeBoard(files=files)


def _main(argv, board):
    args = cli.build_parser().parse_args(argv)
    return players.main(args, connect=lambda port: board)


def _stored(board, path="/data/settings.json"):
    return json.loads(board.files[path])


# --- set ----------------------------------------------------------------------------------------

def test_set_changes_the_names_only_and_restarts_the_firmware(capsys):
    board = _board()
    assert _main(["players", "set", "Zoe", "Max", "Alexandr"], board) == 0
    saved = _stored(board)
    assert saved["names"] == ["Zoe", "Max", "Alexandr", "Dee", "Eve", "Fay", "Gus", "Hal"]
    assert {k: v for k, v in saved.items() if k != "names"} == \
        {k: v for k, v in STORED.items() if k != "names"}
    size = len(board.files["/data/settings.json"])
    assert _changes(board) == [("write", "/data/settings.json.tmp", size),
                               ("rename", "/data/settings.json.tmp", "/data/settings.json"),
                               ("reset",)]
    out = capsys.readouterr()
    assert out.err == ""
    lines = out.out.splitlines()
    assert lines[0] == "Player names (/data/settings.json on the board):"
    assert lines[1] == "1  Zoe"
    assert lines[3] == ('3  Alexandr  shown as "Alex." in games of 5-8 players (wider than %d px)'
                        % play.NAME_PX)
    assert lines[4] == "4  Dee       kept"
    assert lines[-1] == "Restarting the firmware."


def test_the_device_boots_with_the_names_set(tmp_path):
    board = _board()
    assert _main(["players", "set", "Zoe", "Max"], board) == 0
    root = str(tmp_path / "flash")
    os.makedirs(os.path.join(root, "data"))
    with open(os.path.join(root, "data", "settings.json"), "wb") as f:
        f.write(board.files["/data/settings.json"])
    dev = Device(root)
    assert dev.app.settings["names"][:3] == ["Zoe", "Max", "Cy"]
    assert dev.app.settings["brightness"] == 5 and dev.app.layout == "five"
    assert not dev.shows("Bad setting") and not dev.shows("unreadable")


def test_what_does_not_fit_is_said_the_firmwares_way():
    from tablemate.ui import text
    for name in ("Bob", "Zoe", "Ann-Kat", "Alexandr", "WWWWW", "Mo Li"):
        cut = players.shown_as(name)
        if text.ink_width(name) <= play.NAME_PX:
            assert cut is None
        else:
            assert cut == text.fit(name, play.NAME_PX) and cut.endswith(".")
    assert players.shown_as("Alexandr") == "Alex."


def test_an_older_board_keeps_them_at_the_root():
    board = _board(path="/settings.json")
    assert _main(["players", "set", "Zoe"], board) == 0
    assert _stored(board, "/settings.json")["names"][:2] == ["Zoe", "Bob"]
    assert "/data/settings.json" not in board.files and "/data" not in board.dirs


def test_a_board_without_settings_gets_a_file_with_the_names():
    board = _board(settings=None)
    assert _main(["players", "set", "Zoe", "Max"], board) == 0
    assert "/data" in board.dirs
    assert _stored(board) == {"names": ["Zoe", "Max", "P3", "P4", "P5", "P6", "P7", "P8"]}


def test_a_board_with_pre_data_firmware_and_no_settings_file():
    board = _board(files={"/tablemate/version.json": b'{"version": "0.1.0"}\n'}, settings=None)
    assert _main(["players", "set", "Zoe"], board) == 0
    assert _stored(board, "/settings.json")["names"][0] == "Zoe"


def test_names_the_device_refused_are_replaced_by_its_defaults():
    board = _board(settings=dict(STORED, names=["Ann", "Bob"]))  # two names: the device's defaults
    assert _main(["players", "set", "Zoe"], board) == 0
    assert _stored(board)["names"] == ["Zoe", "P2", "P3", "P4", "P5", "P6", "P7", "P8"]


def test_a_cut_connection_leaves_the_old_file_whole():
    board = _board()
    board.fail_on_write = 1
    with pytest.raises(flash.FlashError):
        players.set_names(board, ["Zoe"], out=lambda line: None)
    assert board.files["/data/settings.json"] == json.dumps(STORED).encode()


# --- refusals: one line, exit status 2, nothing changed -----------------------------------------

@pytest.mark.parametrize("argv,message", [
    (["Alexandria"], '"Alexandria" has 10 characters; a name has at most 8'),
    (["Zo\u00eb"], '"Zo\u00eb": \'\u00eb\' is not a printable ASCII character'),
    (["Ann", "   "], '"   " is empty or only spaces'),
    (["Ann", ""], '"" is empty or only spaces'),
    (["Tab\tby"], '"Tab\tby": \'\\t\' is not a printable ASCII character'),
    (["A", "B", "C", "D", "E", "F", "G", "H", "I"], "9 names given; the device keeps 8"),
    ([], "give 1 to 8 names: tablemate players set Ann Bob ..."),
])
def test_refused_names_change_nothing(capsys, argv, message):
    board = _board()
    connected = []
    args = cli.build_parser().parse_args(["players", "set", "--"] + argv)
    assert players.main(args, connect=lambda port: connected.append(port) or board) == 2
    err = capsys.readouterr().err
    assert err.startswith("tablemate players: " + message) and err.count("\n") == 1, err
    assert connected == [] and board.ops == []  # refused before the board was asked


def test_no_board_is_one_line_and_status_2(monkeypatch, capsys):
    import serial.tools.list_ports
    monkeypatch.setattr(serial.tools.list_ports, "comports", lambda: [])
    assert cli.main(["players", "set", "Zoe"]) == 2
    assert capsys.readouterr().err == "tablemate players: " + flash.NO_BOARD + "\n"
    assert cli.main(["players"]) == 2
    assert capsys.readouterr().err == "tablemate players: " + flash.NO_BOARD + "\n"


def test_an_unreadable_settings_file_is_left_for_the_device(capsys):
    board = FakeBoard(files={"/data/settings.json": b"\x00not json"})
    assert _main(["players", "set", "Zoe"], board) == 2
    err = capsys.readouterr().err
    assert err.startswith("tablemate players: /data/settings.json on the board is unreadable")
    assert err.count("\n") == 1
    assert board.files["/data/settings.json"] == b"\x00not json"
    assert _changes(board) == [("reset",)]  # the firmware restarts and sets the file aside


# --- list ---------------------------------------------------------------------------------------

def test_list_prints_the_names(capsys):
    board = _board(settings=dict(STORED, names=["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus",
                                                "Maximili"]))
    assert _main(["players"], board) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Player names (/data/settings.json on the board):"
    assert lines[1:8] == ["1  Ann", "2  Bob", "3  Cy", "4  Dee", "5  Eve", "6  Fay", "7  Gus"]
    assert lines[8].startswith('8  Maximili  shown as "Maxi." in games of 5-8 players')
    assert _changes(board) == [("reset",)]
    assert _main(["players", "list", "--port", "/dev/ttyFAKE"], _board()) == 0


def test_list_without_a_settings_file_shows_the_defaults(capsys):
    assert _main(["players", "list"], _board(settings=None)) == 0
    out = capsys.readouterr().out
    assert "1  P1" in out and "(no settings file yet: these are the defaults)" in out


def test_port_before_or_after_the_subcommand():
    parse = cli.build_parser().parse_args
    assert parse(["players", "--port", "/dev/x", "set", "Zoe"]).port == "/dev/x"
    assert parse(["players", "set", "--port", "/dev/x", "Zoe"]).port == "/dev/x"
    assert parse(["players"]).port is None and parse(["players"]).players_command is None


# --- through mpremote, with the firmware's watchdog running --------------------------------------

def test_set_over_the_serial_adapter_keeps_the_watchdog_fed():
    board = _board()
    board.watchdog = True
    port = _RawReplBoard(board)
    try:
        args = cli.build_parser().parse_args(["players", "--port", port.port, "set", "Zoe",
                                              "Max"])
        assert players.main(args, out=lambda line: None) == 0
        port.wait_for_reset()
    finally:
        port.close()
    assert port.resets == 1 and board.ops[-1] == ("reset",)
    assert _stored(board)["names"][:3] == ["Zoe", "Max", "Cy"]
    assert "/data/settings.json.tmp" not in board.files
    changes = [i for i, op in enumerate(board.ops) if op[0] in ("write", "rename")]
    assert [board.ops[i][0] for i in changes] == ["write", "rename"]
    for i in changes:
        assert board.ops[i - 1] == ("wdt feed", 8388), board.ops[i - 2:i + 1]

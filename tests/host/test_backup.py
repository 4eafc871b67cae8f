"""``tablemate backup`` and ``tablemate restore`` against the in-memory board of test_flash.py."""

import json
import os

import pytest

from test_flash import FakeBoard
from test_pull import _played_device

from tablemate import lifecycle
from tablemate.clock import ChessClock
from tablemate.rules import scorepad
from tablemate.store import clockfile
from tablemate.store import history
from tablemate.store.game import Game
from tablemate_host import backup, cli

VERSION = b'{"version": "0.1.0", "git": "c29e30b", "mpy": "6.3", "source": false}'
EXTRA = {
    "perspective.json": b'{"moves": 31, "ms": 125000}',
    "viewpoint.jsonl": b'# my cards\n{"name": "Glimpse", "value": 5, "copies": 2, '
                       b'"actions": ["draw 1"]}\n',
    "ballot.json": b'{"17": 2}',  # sealed votes an older firmware wrote: never backed up
    "clock.json": json.dumps(clockfile.record(["Ann", "Bob"], 0, False, 0, ChessClock(),
                                               0)).encode(),
    "errors.log": b"--- 1234 v0.1.0\nTraceback (most recent call last):\nOSError: 5\n",
    "settings.json.bad": b"\x00damaged",
}


def _files(root):
    """{board path: bytes} of a device's /data folder on the host, and its version file."""
    data = os.path.join(root, "data")
    files = {"/tablemate/store/version.json": VERSION}
    for name in os.listdir(data):
        with open(os.path.join(data, name), "rb") as f:
            files["/data/" + name] = f.read()
    return files


def _played(tmp_path, name="flash"):
    """A device's data as it plays: settings, setups, history, a saved game, and the rest."""
    root = str(tmp_path / name)
    os.makedirs(root)
    _played_device(root)
    for name, data in EXTRA.items():
        with open(os.path.join(root, "data", name), "wb") as f:
            f.write(data)
    return _files(root)


def _run(argv, board):
    lines = []
    status = backup.main(cli.build_parser().parse_args(argv), connect=lambda port, keep_ram=False: board,
                         out=lines.append)
    return status, lines


def _changes(board):
    return [op for op in board.ops if op[0] in ("write", "rename", "remove", "mkdir", "rmdir")]


def _saved(tmp_path):
    """A backup of a played device in tmp_path/saved: (its folder, the board's files)."""
    files = _played(tmp_path)
    folder = str(tmp_path / "saved")
    assert _run(["backup", folder], FakeBoard(files=files))[0] == 0
    return folder, files


def _other_board(tmp_path):
    """Another board, with data of its own: another name list, no game, no history."""
    return FakeBoard(files={"/data/settings.json": b'{"names": ["Zoe", "Max", "C", "D", "E", '
                                                   b'"F", "G", "H"]}', "/main.py": b"app"})


# --- backup -----------------------------------------------------------------------------------

def test_backup_saves_every_data_file_with_a_manifest_and_changes_nothing(tmp_path):
    files = _played(tmp_path)
    board = FakeBoard(files=files)
    folder = str(tmp_path / "saved")
    status, lines = _run(["backup", folder], board)
    assert status == 0, lines
    assert not _changes(board) and board.ops[-1] == ("reset",)
    saved = sorted(os.listdir(folder))
    assert saved == sorted(["clock.json", "errors.log", "game.jnl",
                            "history.jnl", "manifest.json", "perspective.json", "settings.json",
                            "setups.json", "viewpoint.jsonl"])
    for name in saved[:-1]:
        if name != "manifest.json":
            with open(os.path.join(folder, name), "rb") as f:
                assert f.read() == files["/data/" + name], name
    with open(os.path.join(folder, "manifest.json")) as f:
        manifest = json.load(f)
    assert manifest["board"] == {"port": "/dev/ttyFAKE", "micropython": "1.27.0",
                                 "machine": "Raspberry Pi Pico with RP2040"}
    assert manifest["tablemate"]["version"] == "0.1.0" and manifest["refused"] == {}
    assert manifest["files"]["history.jnl"]["bytes"] == len(files["/data/history.jnl"])
    assert sorted(manifest["not_saved"]) == ["ballot.json", "board.json", "settings.json.bad"]
    assert any(line.startswith("history.jnl") and "2 games" in line for line in lines), lines
    assert any(line.startswith("game.jnl") and "Scorepad: Ann, Bob, 0 actions" in line
               for line in lines), lines
    assert any("settings.json.bad" in line and "not saved" in line for line in lines)


def test_a_backup_of_a_board_running_the_uf2_names_its_frozen_version(tmp_path):
    """A UF2 has no version file on its flash: the version is the one frozen in."""
    files = dict((path, data) for path, data in _played(tmp_path).items()
                 if not path.startswith("/tablemate/"))
    folder = str(tmp_path / "saved")
    status, lines = _run(["backup", folder], FakeBoard(files=files, frozen="0.1.0"))
    assert status == 0, lines
    assert lines[0] == "Board on /dev/ttyFAKE: MicroPython 1.27.0, Tablemate 0.1.0"
    with open(os.path.join(folder, "manifest.json")) as f:
        assert json.load(f)["tablemate"] == {"version": "0.1.0", "frozen": True}


def test_the_builders_wiring_file_is_saved_and_checked_like_the_boot_checks_it(tmp_path):
    files = _played(tmp_path)
    files["/data/wiring.json"] = b'{"i2c": 1, "sda": 2, "scl": 3, "buzzer": null}'
    folder = str(tmp_path / "saved")
    status, lines = _run(["backup", folder], FakeBoard(files=files))
    assert status == 0, lines
    assert os.path.exists(os.path.join(folder, "wiring.json"))
    assert any(line.startswith("wiring.json") and "unlike board.py: buzzer, i2c, scl, sda"
               in line for line in lines), lines
    notes, refused = backup.check({"wiring.json": b'{"sda": 5}'})
    assert refused == {"wiring.json": "SDA GP5 is not an I2C0 SDA pin (use GP0/4/8/12/16/20/28)"
                                      " (the device would not start: it says so)"}


def test_a_backup_says_which_files_restore_will_refuse(tmp_path):
    files = _played(tmp_path)
    files["/data/perspective.json"] = b'{"moves": "many"}'
    status, lines = _run(["backup", str(tmp_path / "saved")], FakeBoard(files=files))
    assert status == 0
    assert any(line.startswith("perspective.json") and "REFUSED" in line
               and "restore will refuse it" in line for line in lines), lines


def test_solitaire_records_in_either_form_pass_the_check():
    old = b'{"moves": 31, "ms": 125000}'
    new = (b'{"moves": 12, "ms": 65000, "game": "0badf11e", '
           b'"before": {"moves": 31, "ms": 125000}}')
    notes, refused = backup.check({"perspective.json": old})
    assert refused == {} and notes["perspective.json"] == (
        "solitaire records: fewest moves 31, fastest 2:05")
    notes, refused = backup.check({"perspective.json": new})
    assert refused == {} and notes["perspective.json"] == (
        "solitaire records: fewest moves 12, fastest 1:05, set by game 0badf11e")


def test_a_backup_in_the_folder_of_an_earlier_one_replaces_it(tmp_path):
    folder, files = _saved(tmp_path)
    del files["/data/clock.json"]  # the clock was put away since
    assert _run(["backup", folder], FakeBoard(files=files))[0] == 0
    assert not os.path.exists(os.path.join(folder, "clock.json"))


# --- restore ----------------------------------------------------------------------------------

def test_restore_puts_the_backup_on_another_board_through_temporary_files(tmp_path):
    folder, files = _saved(tmp_path)
    board = _other_board(tmp_path)
    status, lines = _run(["restore", folder], board)
    assert status == 0, lines
    restored = dict((p, d) for p, d in files.items()
                    if p.startswith("/data/") and p.rsplit("/", 1)[1] in backup.NAMES
                    and not p.endswith(".log"))
    assert dict((p, board.files[p]) for p in restored) == restored
    assert "/data/errors.log" not in board.files and board.files["/main.py"] == b"app"
    assert not [p for p in board.files if p.endswith(".tmp")]
    writes = [op[1] for op in board.ops if op[0] == "write"]
    assert writes and all(p.endswith(".tmp") for p in writes)
    assert [op[1:] for op in board.ops if op[0] == "rename"] == [(p, p[:-4]) for p in writes]
    assert any("errors.log" in line and "not restored" in line for line in lines)
    assert lines[-1] == "Restarting the firmware." and board.ops[-1] == ("reset",)


BAD = [
    ("settings.json", b'{"names": ["Ann"], "brightness": 3}', "Bad setting: names"),
    ("settings.json", b"\xff not JSON", "Settings unreadable"),
    ("history.jnl", b"scores: Ann 3, Bob 5\n", "not a history file"),
    ("game.jnl", b'{"v": 2, "game": "__init__", "opts": {}}\n', "Unknown game"),
    ("game.jnl", b'{"v": 2, "game": "scorepad", "opts": {"names": []}}\n', "Bad journal"),
    ("game.jnl", b'{"v": 2, "game": "scorepad", "opts": {"names": ["Ann", "Bob"]}}\n'
                 b'["add", 7, 1]\n["next"]\n', "Bad line 2"),
    ("setups.json", b"[1, 2]", "Saved setups unreadable"),
    ("perspective.json", b'{"moves": -1}', "holds more or other"),
    ("perspective.json", b'{"moves": 3, "ms": 9000, "game": "0badf11e", "before": {"ms": -1}}',
     "holds more or other"),
    ("viewpoint.jsonl", b'{"name": "Glimpse", "value": "five"}\n', "line 1: bad value"),
    ("clock.json", b'{"v": 1, "names": ["Ann"]}', "Saved clock damaged"),
    ("game.end", b"contrast", "marks a Contrast game; the saved game is Scorepad"),
]


@pytest.mark.parametrize("name,data,why", BAD, ids=["%s-%d" % (b[0], i) for i, b in
                                                     enumerate(BAD)])
def test_restore_refuses_a_file_the_firmware_would_not_take_and_changes_nothing(
        tmp_path, capsys, name, data, why):
    folder, _ = _saved(tmp_path)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)
    board = _other_board(tmp_path)
    before = dict(board.files)
    status, lines = _run(["restore", folder], board)
    assert status == 1
    assert board.files == before and not board.ops  # checked before connecting: not stopped
    refused = [line for line in lines if "REFUSED" in line]
    assert len(refused) == 1 and refused[0].startswith(name) and why in refused[0], lines
    assert "nothing on the board was changed" in capsys.readouterr().err


def test_every_refused_file_is_named(tmp_path, capsys):
    folder, _ = _saved(tmp_path)
    for name, data, _ in (BAD[0], BAD[2]):
        with open(os.path.join(folder, name), "wb") as f:
            f.write(data)
    board = _other_board(tmp_path)
    assert _run(["restore", folder], board)[0] == 1
    err = capsys.readouterr().err
    assert "2 files refused" in err and "Fix history.jnl and settings.json" in err, err
    assert not board.ops


def test_a_folder_that_is_not_a_backup_is_refused(tmp_path, capsys):
    folder = tmp_path / "pulled"
    folder.mkdir()
    (folder / "settings.json").write_bytes(b"{}")
    board = _other_board(tmp_path)
    assert _run(["restore", str(folder)], board)[0] == 1
    assert "no manifest.json" in capsys.readouterr().err and not board.ops


def test_what_a_power_cut_leaves_is_restored_and_said(tmp_path):
    folder, _ = _saved(tmp_path)
    with open(os.path.join(folder, "game.jnl"), "ab") as f:
        f.write(b'["add", 0')  # cut mid-line
    with open(os.path.join(folder, "history.jnl"), "ab") as f:
        f.write(b'{"names": ["Ann"], "sco#\n')  # a torn game, closed as the device closes it
    board = _other_board(tmp_path)
    status, lines = _run(["restore", folder], board)
    assert status == 0, lines
    assert any("torn last line dropped" in line for line in lines), lines
    assert any("1 damaged entry kept aside" in line for line in lines), lines
    assert any("changed since the backup" in line for line in lines)


def test_the_boards_archive_goes_with_the_history_it_completed(tmp_path):
    """Its game numbers would hide the restored games from the readers of both files."""
    folder, files = _saved(tmp_path)
    board = _other_board(tmp_path)
    board.files["/data/history.old"] = b'{"names": ["Zoe"], "scores": [1], "winners": [0], ' \
                                       b'"n": 1}\n'
    status, lines = _run(["restore", folder], board)
    assert status == 0 and "history.old      removed" in lines, lines
    assert "/data/history.old" not in board.files
    assert board.files["/data/history.jnl"] == files["/data/history.jnl"]


def test_restore_without_room_changes_nothing(tmp_path, capsys):
    folder, _ = _saved(tmp_path)
    board = FakeBoard(files={"/main.py": b"app"}, blocks=8)
    assert _run(["restore", folder], board)[0] == 1
    assert "Not enough space" in capsys.readouterr().err
    assert not _changes(board)


# --- a game in progress on the board ---------------------------------------------------------

def _board_game(tmp_path, ended=False):
    """Another board in the middle of its own game for Zoe and Max (or at its end, filed)."""
    root = tmp_path / "other"
    (root / "data").mkdir(parents=True)
    app = backup._App(str(root / "data"))
    game = Game.new(scorepad, app.path("game.jnl"), {"names": ["Zoe", "Max"], "target": 5})
    game.do(["add", 1, 5 if ended else 2])
    game.save()
    if ended:
        lifecycle.file(app, game)
    files = _files(str(root))
    return FakeBoard(files=files), game.id


def test_a_game_in_progress_on_the_board_is_kept(tmp_path):
    folder, files = _saved(tmp_path)
    board, _ = _board_game(tmp_path)
    game = board.files["/data/game.jnl"]
    status, lines = _run(["restore", folder], board)
    assert status == 0, lines
    assert board.files["/data/game.jnl"] == game
    assert "/data/ballot.json" not in board.files  # it goes with the backup's game
    assert board.files["/data/clock.json"] == files["/data/clock.json"]  # no clock was in use
    assert board.files["/data/history.jnl"] == files["/data/history.jnl"]
    said = [line for line in lines if line.startswith("The board has a saved game")]
    assert said == ["The board has a saved game (Scorepad: Zoe, Max): kept. The backup's "
                    "(Scorepad: Ann, Bob) is not restored: --replace-game puts it in its place "
                    "and files the board's game in the history as unfinished."], lines


def test_replace_game_files_the_boards_game_as_the_device_does(tmp_path):
    folder, files = _saved(tmp_path)
    board, gid = _board_game(tmp_path)
    status, lines = _run(["restore", folder, "--replace-game"], board)
    assert status == 0, lines
    assert board.files["/data/game.jnl"] == files["/data/game.jnl"]
    filed = history.game(board.files["/data/history.jnl"].splitlines(True)[-1])
    assert filed["id"] == gid and filed["names"] == ["Zoe", "Max"] and filed["winners"] == []
    assert filed["n"] == 3 and filed["scores"] == [0, 2]
    assert "The board's Scorepad game is filed in the restored history as game 3 " \
           "(unfinished)." in lines


def test_an_ended_game_kept_on_the_board_stays_in_the_history(tmp_path):
    folder, files = _saved(tmp_path)
    board, gid = _board_game(tmp_path, ended=True)
    assert "/data/game.end" in board.files
    status, lines = _run(["restore", folder], board)
    assert status == 0, lines
    games = [history.game(line) for line in board.files["/data/history.jnl"].splitlines(True)]
    assert [g["n"] for g in games] == [1, 2, 3] and games[2]["id"] == gid
    assert games[2]["winners"] == [1] and board.files["/data/game.end"] == b"scorepad %d" % len(
        board.files["/data/game.jnl"])


def test_replace_game_with_a_backup_without_one_leaves_none(tmp_path):
    folder, _ = _saved(tmp_path)
    for name in ("game.jnl", "clock.json"):
        os.remove(os.path.join(folder, name))
        with open(os.path.join(folder, "manifest.json")) as f:
            manifest = json.load(f)
        del manifest["files"][name]
        with open(os.path.join(folder, "manifest.json"), "w") as f:
            json.dump(manifest, f)
    board, gid = _board_game(tmp_path)
    board.files["/data/clock.json"] = EXTRA["clock.json"]
    status, lines = _run(["restore", folder, "--replace-game"], board)
    assert status == 0, lines
    assert "/data/game.jnl" not in board.files and "/data/clock.json" not in board.files
    assert history.game(board.files["/data/history.jnl"].splitlines(True)[-1])["id"] == gid
    assert "The board's saved game is replaced by the backup's (none: it is removed)." in lines
    assert "The board's chess clock in use is replaced by the backup's (none: it is removed)." \
        in lines


def test_backup_and_pull_let_the_app_go_on_or_say_it_restarted(tmp_path):
    """Issue 27: backup and pull connect without the soft reset (the app's RAM kept) and give
    the board back with the app going on where it was; a board that cannot (older firmware, or
    stopped mid-pass) restarts, and the command says which."""
    import types

    from tablemate_host import backup, flash, pull
    from test_flash import FakeBoard

    class GoesOn(FakeBoard):
        def resume(self):
            self._op("resume")
            self.alive = False
            return True

    for board, said in ((GoesOn(), flash.GOES_ON), (FakeBoard(), flash.RESTARTED)):
        for run in (lambda o: backup.main(types.SimpleNamespace(
                        command="backup", dir=str(tmp_path / "b"), port=None),
                        connect=lambda port, keep_ram=False: keep_ram and board, out=o),
                    lambda o: pull.main_pull(types.SimpleNamespace(
                        port=None, out=str(tmp_path / "p"), free=False),
                        connect=lambda port, keep_ram=False: keep_ram and board, out=o)):
            board.alive, board.ops = True, []
            lines = []
            assert run(lines.append) == 0
            assert lines[-1] == said, lines
            assert board.ops[-1][0] == ("resume" if said == flash.GOES_ON else "reset")

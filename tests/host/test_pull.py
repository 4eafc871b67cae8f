"""``tablemate pull`` copies what a device recorded; ``tablemate report`` reads it back."""

import json
import os
import types

from test_flash import FakeBoard

from tablemate_host import cli, pull
from tablemate_host.device import Device


def _played_device(root):
    """A real device that finished two scorepad games (one won by Bob, one left unfinished)."""
    dev = Device(root, settings={"names": ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]})
    dev.choose("Scorepad")
    dev.goto("Target: none")
    dev.press("RIGHT")  # target 5
    dev.choose("Start")
    dev.press("OK")  # Ann passes
    for _ in range(5):
        dev.press("RIGHT")
    dev.press("OK")  # Bob reaches 5
    dev.press("BACK")
    dev.choose("New game")  # the won game is filed
    dev.press("RIGHT")
    dev.press("BACK")
    dev.choose("New game")  # again: this one is filed unfinished
    dev.press("OK")  # yes, start again
    return dev


def test_pull_copies_the_history_and_changes_nothing(tmp_path):
    root = str(tmp_path / "flash")
    os.makedirs(root)
    _played_device(root)
    files = {}
    for name in ("history.jnl", "settings.json"):
        with open(os.path.join(root, "data", name), "rb") as f:
            files["/data/" + name] = f.read()
    board = FakeBoard(files=files)
    lines = []
    out = str(tmp_path / "pulled")
    assert pull.pull(board, out, lines.append) == ["history.jnl", "settings.json"]
    assert not [op for op in board.ops if op[0] in ("write", "remove", "mkdir", "rmdir")]
    with open(os.path.join(out, "history.jnl"), "rb") as f:
        assert f.read() == files["/data/history.jnl"]
    assert any("errors.log" in line and "not on the board" in line for line in lines)


def test_a_connection_lost_during_pull_leaves_the_earlier_copy_whole(tmp_path, capsys):
    """Issue 14: the cable pulled while the second file is read. The folder keeps the files an
    earlier pull wrote (never a new history beside an old archive), and the message says so."""
    files = {"/data/history.jnl": b'{"n": 7}\n', "/data/history.old": b'{"n": 1}\n' * 6,
             "/data/settings.json": b"{}"}
    out = tmp_path / "pulled"
    out.mkdir()
    earlier = {"history.jnl": b'{"n": 3}\n', "history.old": b'{"n": 1}\n'}
    for name, data in earlier.items():
        (out / name).write_bytes(data)
    board = FakeBoard(files=files, cut_at=4)  # stat, read, stat, and the second read
    args = cli.build_parser().parse_args(["pull", "--out", str(out)])
    assert pull.main_pull(args, connect=lambda port, keep_ram=False: board) == 1
    err = capsys.readouterr().err
    assert err.startswith("tablemate pull: Lost the connection to the board on /dev/ttyFAKE"), err
    assert "Nothing on the board was changed" in err and "incomplete" in err, err
    assert "%s is as an earlier pull left it" % out in err
    assert sorted(os.listdir(str(out))) == sorted(earlier)
    for name, data in earlier.items():
        assert (out / name).read_bytes() == data
    assert not [op for op in board.ops if op[0] in ("write", "remove", "mkdir", "rmdir")]


def test_report_lists_games_and_ranks_players_by_wins(tmp_path):
    root = str(tmp_path / "flash")
    os.makedirs(root)
    _played_device(root)
    history = os.path.join(root, "data", "history.jnl")
    with open(history, "a") as f:
        f.write('{"game": "contrast", "names": ["Ann", "Bob"], "scores": [9, 9], "winners": [],'
                ' "outcome": "lose"}\n')
        f.write('{"game": "scorepad", "names": ["Ann"], "sco')  # a torn last line is skipped
    lines = []
    assert pull.main_report(types.SimpleNamespace(file=history), lines.append) == 0
    games = [line for line in lines if line[:3].strip().isdigit()]
    assert len(games) == 3
    assert "won by Bob" in games[0] and "Bob 5" in games[0]
    assert "unfinished" in games[1]
    assert "co-op lost" in games[2]
    table = lines[lines.index("") + 2:]
    assert table[0].split() == ["Bob", "3", "1"]
    assert json.loads(open(history).readline())["winners"] == [1]


def test_report_without_a_history_says_how_to_get_one(tmp_path, capsys):
    args = types.SimpleNamespace(file=str(tmp_path / "missing.jnl"))
    assert pull.main_report(args, print) == 1
    assert "tablemate pull" in capsys.readouterr().err


def _file_games(root, count, cap, keep):
    """File ``count`` games through the firmware's history module, with a small cap."""
    from tablemate.store import history
    path = os.path.join(root, "history.jnl")
    for i in range(1, count + 1):
        history.file(path, {"game": "scorepad", "names": ["Ann", "Bob"], "scores": [i, 0],
                            "winners": [0] if i % 2 else [1], "rounds": i}, cap, keep)
    return path


def test_pull_copies_the_archive_too(tmp_path):
    root = str(tmp_path / "flash")
    os.makedirs(root)
    _file_games(root, 9, 4, 2)
    files = {}
    for name in ("history.jnl", "history.old"):
        with open(os.path.join(root, name), "rb") as f:
            files["/" + name] = f.read()
    assert files["/history.old"].count(b"\n") == 6 and files["/history.jnl"].count(b"\n") == 3
    board = FakeBoard(files=files)
    out = str(tmp_path / "pulled")
    assert pull.pull(board, out, [].append) == ["history.jnl", "history.old"]
    for name in ("history.jnl", "history.old"):
        with open(os.path.join(out, name), "rb") as f:
            assert f.read() == files["/" + name]


def test_report_reads_the_archive_then_the_history_each_game_once(tmp_path):
    root = str(tmp_path / "pulled")
    os.makedirs(root)
    path = _file_games(root, 9, 4, 2)
    assert [g["rounds"] for g in pull.read_history(path)] == list(range(1, 10))
    # What a power cut between the archive's append and the rename leaves: games 5 and 6 in
    # both files; and lines that are not games in either.
    with open(os.path.join(root, "history.old"), "rb") as f:
        old = f.read()
    with open(path, "rb") as f:
        new = f.read()
    both = b"".join(old.splitlines(True)[4:])
    assert [json.loads(line)["n"] for line in both.splitlines()] == [5, 6]
    with open(os.path.join(root, "history.old"), "wb") as f:
        f.write(b"42\n" + old + b'{"names": ["A#\n')
    with open(path, "wb") as f:
        f.write(b"[1]\n" + both + b"\xff\xfe\n" + new + b'{"game": "sc')
    games = pull.read_history(path)
    assert [g["rounds"] for g in games] == list(range(1, 10))
    assert [g["n"] for g in games] == list(range(1, 10))
    lines = []
    assert pull.main_report(types.SimpleNamespace(file=path), lines.append) == 0
    rows = [line for line in lines if line[:3].strip().isdigit()]
    assert len(rows) == 9 and "won by Ann" in rows[0] and "Ann 9" in rows[8]
    table = lines[lines.index("") + 2:]
    assert table[0].split() == ["Ann", "9", "5"] and table[1].split() == ["Bob", "9", "4"]


def test_report_without_an_archive_reads_the_history_alone(tmp_path):
    root = str(tmp_path / "pulled")
    os.makedirs(root)
    path = _file_games(root, 3, 200, 100)
    assert not os.path.exists(os.path.join(root, "history.old"))
    assert [g["n"] for g in pull.read_history(path)] == [1, 2, 3]


def test_report_skips_and_counts_damaged_lines_as_the_device_does(tmp_path):
    """Issue 14: the same lines the History screen skips (and counts) are skipped here."""
    history = tmp_path / "history.jnl"
    good = b'{"game": "scorepad", "names": ["Ann", "Bob"], "scores": [3, 1], "winners": [0]}\n'
    history.write_bytes(good + b"7\nnull\n\xff\xfe{\n" + good + b'{"torn')
    lines = []
    assert pull.main_report(types.SimpleNamespace(file=str(history)), lines.append) == 0
    assert sum("Ann 3" in line for line in lines) == 2, lines
    assert lines[-1] == "3 damaged entries kept aside (skipped, as on the device)", lines


def _board_with_history(root, count):
    """A FakeBoard holding the history of ``count`` games (cap 4, keep 2: most in the archive)."""
    _file_games(root, count, 4, 2)
    files = {}
    for name in ("history.jnl", "history.old"):
        with open(os.path.join(root, name), "rb") as f:
            files["/data/" + name] = f.read()
    return files


def test_pull_free_removes_the_archive_and_the_kept_copies_once_they_are_copied(tmp_path):
    """Issue 14: a full flash gets room back, and nothing is lost on either side."""
    root = str(tmp_path / "flash")
    os.makedirs(root)
    files = _board_with_history(root, 9)
    files["/data/settings.json.bad"] = b'{"brightness": 9'
    files["/data/game.jnl.bad1"] = b'{"v": 3, "game": "scorepad", "opts": {}}\n["nex'
    board = FakeBoard(files=files)
    out = str(tmp_path / "pulled")
    lines = []
    before = board.statvfs("/")[4]
    assert pull.pull(board, out, lines.append, free=True) == ["history.jnl", "history.old"]
    removed = sorted(op[1] for op in board.ops if op[0] == "remove")
    assert removed == ["/data/game.jnl.bad1", "/data/history.old", "/data/settings.json.bad"]
    assert not [op for op in board.ops if op[0] in ("write", "mkdir", "rmdir")]
    assert board.statvfs("/")[4] > before
    assert any(line.startswith("the board had") for line in lines), lines
    with open(os.path.join(out, "history.old"), "rb") as f:
        assert f.read() == files["/data/history.old"]
    for name in ("settings.json.bad", "game.jnl.bad1"):
        with open(os.path.join(out, "aside", name), "rb") as f:
            assert f.read() == files["/data/" + name]
    # The board's history alone still counts on; report reads all nine from the copy.
    assert [g["scores"][0] for g in pull.read_history(os.path.join(out, "history.jnl"))] == \
        list(range(1, 10))


def test_pulls_after_a_free_merge_the_archive_instead_of_replacing_it(tmp_path):
    root = str(tmp_path / "flash")
    os.makedirs(root)
    out = str(tmp_path / "pulled")
    board = FakeBoard(files=_board_with_history(root, 9))
    pull.pull(board, out, [].append, free=True)  # games 1-6 archived here, gone from the board
    os.remove(os.path.join(root, "history.old"))  # the device as --free left it
    _file_games(root, 6, 4, 2)  # six more games, numbered on from history.jnl: a new archive
    files = {}
    for name in ("history.jnl", "history.old"):
        with open(os.path.join(root, name), "rb") as f:
            files["/data/" + name] = f.read()
    assert b'"n": 1}' not in files["/data/history.old"]  # games 1-6 are only on the computer
    board = FakeBoard(files=files)
    pull.pull(board, out, [].append)
    games = pull.read_history(os.path.join(out, "history.jnl"))
    assert len(games) == len(set(g["n"] for g in games)) == 15, [g["n"] for g in games]
    assert not [op for op in board.ops if op[0] == "remove"]  # no --free: nothing removed


def test_pull_free_with_nothing_to_free_says_so(tmp_path):
    board = FakeBoard(files={"/data/history.jnl": b"", "/data/settings.json": b"{}"})
    lines = []
    pull.pull(board, str(tmp_path / "pulled"), lines.append, free=True)
    assert "nothing to free" in lines[-2]
    assert lines[-1].startswith("the game in the board's RAM: ")
    assert not [op for op in board.ops if op[0] == "remove"]


def test_pull_free_saves_what_a_full_flash_kept_in_ram(tmp_path, monkeypatch):
    """The firmware that pull stopped (boot.run keeps the app on Ctrl-C) holds the actions the
    full flash refused; once --free has made room they are saved, before the board restarts."""
    from tablemate import boot
    from tablemate_host.flashfault import FlashFault
    root = str(tmp_path / "flash")
    os.makedirs(root)
    dev = _played_device(root)  # a scorepad game in progress, saved
    saved = dev.journal()
    fault = FlashFault(root, monkeypatch, "full")
    dev.press("OK")  # Ann's turn: refused by the flash, kept in RAM
    dev.advance(100)
    assert dev.shows("Flash full"), "the players were told"
    dev.press("OK")  # past the notice
    dev.press("RIGHT")
    dev.press("OK")
    dev.advance(100)
    assert dev.journal() == saved and dev.app.game.unsaved
    monkeypatch.setattr(boot, "stopped", dev.app)  # what boot.run keeps on Ctrl-C
    os.makedirs(str(tmp_path / "board"))
    board = FakeBoard(files=_board_with_history(str(tmp_path / "board"), 9))
    fault.mode = None  # pull --free removed history.old: the flash has room again
    lines = []
    pull.pull(board, str(tmp_path / "pulled"), lines.append, free=True)
    assert lines[-1] == "the game in the board's RAM: 3 lines saved", lines
    assert not dev.app.game.unsaved
    again = Device(root)  # the board restarts: the game resumes with every action
    again.press("OK")  # "Resume game?"
    assert again.app.game.count == dev.app.game.count and again.app.game.state == \
        dev.app.game.state


def test_pull_free_connects_without_the_soft_reset_that_would_wipe_the_ram(tmp_path):
    """Seen on the emulated Pico: mpremote's soft reset on connecting cleared the game the full
    flash kept in RAM before --free could save it. --free connects with keep_ram."""
    calls = []

    def connect(port, keep_ram=False):
        calls.append(keep_ram)
        return FakeBoard(files={"/data/settings.json": b"{}"})
    for argv, keep in ((["pull"], True), (["pull", "--free"], True)):  # issue 27: both keep it
        args = cli.build_parser().parse_args(argv + ["--out", str(tmp_path / "pulled")])
        assert pull.main_pull(args, connect=connect, out=lambda line: None) == 0
        assert calls[-1] is keep

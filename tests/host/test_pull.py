"""``tablemate pull`` copies what a device recorded; ``tablemate report`` reads it back."""

import json
import os
import types

from test_flash import FakeBoard

from tablemate_host import pull
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
        with open(os.path.join(root, name), "rb") as f:
            files["/" + name] = f.read()
    board = FakeBoard(files=files)
    lines = []
    out = str(tmp_path / "pulled")
    assert pull.pull(board, out, lines.append) == ["history.jnl", "settings.json"]
    assert not [op for op in board.ops if op[0] in ("write", "remove", "mkdir", "rmdir")]
    with open(os.path.join(out, "history.jnl"), "rb") as f:
        assert f.read() == files["/history.jnl"]
    assert any("errors.log" in line and "not on the board" in line for line in lines)


def test_report_lists_games_and_ranks_players_by_wins(tmp_path):
    root = str(tmp_path / "flash")
    os.makedirs(root)
    _played_device(root)
    history = os.path.join(root, "history.jnl")
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
    assert "lost (co-op)" in games[2]
    table = lines[lines.index("") + 2:]
    assert table[0].split() == ["Bob", "3", "1"]
    assert json.loads(open(history).readline())["winners"] == [1]


def test_report_without_a_history_says_how_to_get_one(tmp_path, capsys):
    args = types.SimpleNamespace(file=str(tmp_path / "missing.jnl"))
    assert pull.main_report(args, print) == 1
    assert "tablemate pull" in capsys.readouterr().err

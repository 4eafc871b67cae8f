"""``tablemate report --csv --plots``: the games a device filed, as rows and as pictures."""

import csv
import os
import types

from PIL import Image

from test_pull import _played_device

from tablemate.rules import scorepad
from tablemate.store.game import Game
from tablemate_host import cli, pull, exports

MORE = (b'{"game": "contrast", "names": ["Ann", "Bob"], "scores": [9, 9], "winners": [],'
        b' "outcome": "lose", "coop": true}\n'
        b'{"game": "scorepad", "names": ["Ann", "Bob", "Cy"], "scores": [7, 7, 3],'
        b' "winners": [0, 1]}\n')


def _history(tmp_path):
    """Two scorepad games played on a real device (won by Bob; left unfinished), a co-op
    Contrast lost and a shared scorepad win."""
    root = str(tmp_path / "flash")
    os.makedirs(root)
    _played_device(root)
    path = os.path.join(root, "data", "history.jnl")
    with open(path, "ab") as f:
        f.write(MORE)
    return path


def _journal(tmp_path):
    """A scorepad game for Ann and Bob: two rounds, an undo, the third round begun."""
    path = str(tmp_path / "game.jnl")
    g = Game.new(scorepad, path, {"names": ["Ann", "Bob"]})
    for action in (["add", 0, 3], ["next"], ["add", 1, 5], ["next"],  # round 1: 3-5
                   ["add", 0, 9], ["add", 0, 4]):
        g.do(action)
    g.undo()  # the 4 is taken back
    for action in (["next"], ["add", 1, 2], ["next"], ["add", 0, 1]):  # round 2: 12-7
        g.do(action)
    g.save()
    return path


def test_csv_has_one_row_per_game_and_player(tmp_path):
    out = str(tmp_path / "games.csv")
    exports.write_csv(pull.read_history(_history(tmp_path)), out)
    with open(out, newline="") as f:
        got = list(csv.reader(f))
    assert got == [
        ["game", "mode", "player", "score", "place", "outcome", "unit"],
        ["1", "scorepad", "Ann", "0", "2", "lost", "points"],
        ["1", "scorepad", "Bob", "5", "1", "won", "points"],
        ["2", "scorepad", "Ann", "1", "1", "unfinished", "points"],
        ["2", "scorepad", "Bob", "0", "2", "unfinished", "points"],
        ["3", "contrast", "Ann", "9", "1", "co-op lost", "points"],
        ["3", "contrast", "Bob", "9", "1", "co-op lost", "points"],
        ["4", "scorepad", "Ann", "7", "1", "won, shared", "points"],
        ["4", "scorepad", "Bob", "7", "1", "won, shared", "points"],
        ["4", "scorepad", "Cy", "3", "3", "lost", "points"],
    ]


TEAM = {"game": "perspective", "names": ["Ann", "Bob", "Cy", "Dee"], "scores": [0, 0, -1, 0],
        "winners": [0, 2], "outcome": "team", "turns": 9, "kind": "teams"}


def test_a_team_win_is_no_tie_in_the_report_nor_the_csv():
    """Ann and Cy win Perspective as a team, Cy with a failed check: both placed first, their
    win a team's, not a tie nor a shared one."""
    lines = []
    pull.report([TEAM], lines.append)
    assert "won by Ann and Cy (team)" in lines[1] and "tie" not in lines[1], lines
    assert [r[3:] for r in exports.rows([TEAM])] == [  # no points: no score, no unit
        ("", 1, "won, team", ""), ("", 3, "lost", ""), ("", 1, "won, team", ""),
        ("", 3, "lost", "")]


def test_wins_per_mode_count_a_shared_win_for_each_winner(tmp_path):
    games = pull.read_history(_history(tmp_path))
    assert exports.wins_by_mode(games) == {"Ann": {"scorepad": 1}, "Bob": {"scorepad": 2},
                                           "Cy": {}}


def test_the_journal_is_replayed_without_its_undone_action(tmp_path):
    mode, rules, opts, actions = exports.replay(_journal(tmp_path))
    assert mode == "scorepad" and ["add", 0, 4] not in actions and len(actions) == 9
    names, scores, starts, numbers = exports.progression(mode, rules, opts, actions)
    assert names == ["Ann", "Bob"]
    assert scores == [[0, 0], [3, 0], [3, 0], [3, 5], [3, 5], [12, 5], [12, 5], [12, 7],
                      [12, 7], [13, 7]]
    assert starts == [4, 8]  # the "next" that ends each round
    assert numbers == "points"


def test_a_torn_last_line_is_left_out_as_the_device_does(tmp_path):
    path = _journal(tmp_path)
    whole = exports.replay(path)[3]
    with open(path, "ab") as f:
        f.write(b'["add", 1, 5')  # a power cut mid-write
    assert exports.replay(path)[3] == whole


def _picture(path):
    """(width, height, distinct colours) of a PNG."""
    with open(path, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"
    with Image.open(path) as im:
        colours = im.convert("RGB").getcolors(1 << 20)
        return im.size + (len(colours),)


def test_report_writes_the_csv_and_both_plots(tmp_path, capsys):
    history = _history(tmp_path)
    os.replace(_journal(tmp_path), os.path.join(os.path.dirname(history), "game.jnl"))
    plots = str(tmp_path / "plots")
    assert cli.main(["report", history, "--csv", str(tmp_path / "g.csv"), "--plots", plots]) == 0
    said = capsys.readouterr().out
    assert "CSV: 9 rows" in said and "Scorepad, 9 actions" in said, said
    for name in ("wins.png", "progression.png"):
        width, height, colours = _picture(os.path.join(plots, name))
        assert width >= 600 and height >= 400 and colours > 20, (name, colours)


def test_the_plots_draw_the_data(tmp_path):
    """Other wins and other scores: other pictures."""
    history = _history(tmp_path)
    games = pull.read_history(history)
    one, two = str(tmp_path / "a.png"), str(tmp_path / "b.png")
    exports.plot_wins(games, one)
    exports.plot_wins(games[:1], two)
    assert open(one, "rb").read() != open(two, "rb").read()
    mode, rules, opts, actions = exports.replay(_journal(tmp_path))
    exports.plot_progression(mode, rules, opts, actions, one)
    exports.plot_progression(mode, rules, opts, actions[:3], two)
    assert open(one, "rb").read() != open(two, "rb").read()


def test_without_a_journal_no_progression_is_drawn(tmp_path):
    history = _history(tmp_path)
    plots = str(tmp_path / "plots")
    lines = []
    args = types.SimpleNamespace(file=history, plots=plots, journal=str(tmp_path / "none.jnl"))
    assert pull.main_report(args, lines.append) == 0
    assert sorted(os.listdir(plots)) == ["night.png", "time.png", "wins.png"]
    assert any(line.startswith("No game journal at ") for line in lines), lines


def test_an_empty_history_draws_no_plot_but_the_journals(tmp_path, capsys):
    """A history with no game (new, or only damaged lines) crashed --plots (night.png divided
    its games into rows of none); the saved game's progression is still drawn."""
    history = tmp_path / "history.jnl"
    history.write_text("")
    os.replace(_journal(tmp_path), str(tmp_path / "game.jnl"))
    plots = tmp_path / "plots"
    assert cli.main(["report", str(history), "--plots", str(plots)]) == 0
    out = capsys.readouterr().out
    assert "No games in the history: no wins.png, night.png, time.png" in out, out
    assert os.listdir(str(plots)) == ["progression.png"]


def test_a_journal_that_is_not_a_game_is_refused(tmp_path, capsys):
    bad = tmp_path / "game.jnl"
    bad.write_bytes(b'{"v": 2, "game": "__init__", "opts": {}}\n["add", 0, 1]\n')
    args = types.SimpleNamespace(file=_history(tmp_path), plots=str(tmp_path / "p"),
                                 journal=str(bad))
    assert pull.main_report(args, [].append) == 1
    assert "not a game this version plays" in capsys.readouterr().err
    assert not os.path.exists(tmp_path / "p" / "progression.png")

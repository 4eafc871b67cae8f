"""Issue 32: every place of ``tablemate report`` that shows or exports a result follows what the
mode says its numbers are (``tablemate.flow.standings.numbers``): Perspective with others has no
points (its failed checks were reported as minus points, -1 ranked below 0, and BG Stats got
them as scores), the solitaire counts moves (fewer is better: BG Stats ranked 6 moves above 3).
"""

import csv
import os
import types

import pytest

from tablemate.rules import perspective
from tablemate.store.game import Game
from tablemate_host import bgstats, pull, exports, stats
from test_plots import _capture  # the figures a plot function made

TEAM = {"game": "perspective", "names": ["Ann", "Bob", "Cleo", "Dev"], "scores": [0, -1, 0, 0],
        "winners": [0, 2], "outcome": "team", "kind": "teams", "turns": 9, "n": 1,
        "start": "2026-11-06 19:00:00", "end": "2026-11-06 19:20:00"}
SOLO = [{"game": "perspective", "names": [name], "scores": [moves], "winners": [0],
         "outcome": "solved", "kind": "solo", "turns": 0, "moves": moves, "ms": ms, "n": n,
         "start": "2026-11-06 20:%02d:00" % n, "end": "2026-11-06 20:%02d:00" % (n + 5)}
        for name, moves, ms, n in (("Ann", 6, 300000, 2), ("Bob", 3, 225000, 3))]
SCOREPAD = {"game": "scorepad", "names": ["Ann", "Bob"], "scores": [12, 8], "winners": [0],
            "rounds": 3, "n": 4}


def test_bgstats_gets_no_points_for_a_game_without_numbers():
    p = bgstats.play(TEAM)
    assert p["game"]["noPoints"] is True
    assert all("score" not in q for q in p["players"]), p["players"]
    assert [(q["name"], q["winner"], q["rank"]) for q in p["players"]] == [
        ("Ann", True, 1), ("Bob", False, 3), ("Cleo", True, 1), ("Dev", False, 3)]


def test_bgstats_gets_moves_where_the_lowest_wins():
    for g in SOLO:
        p = bgstats.play(g)
        assert p["game"]["highestWins"] is False and p["game"]["noPoints"] is False
        assert p["players"][0]["score"] == g["moves"]
    p = bgstats.play(SCOREPAD)
    assert p["game"]["highestWins"] is True and p["game"]["noPoints"] is False
    assert [q["score"] for q in p["players"]] == [12, 8]


def test_the_report_prints_names_moves_and_points_as_they_are():
    lines = []
    pull.report([TEAM] + SOLO + [SCOREPAD], lines.append)
    assert lines[1].endswith("won by Ann and Cleo (team)  Ann  Bob  Cleo  Dev"), lines[1]
    assert lines[2].endswith("Ann 6 moves  (Time 5:00)") and "solved" in lines[2], lines[2]
    assert lines[4].endswith("Ann 12  Bob 8"), lines[4]


def test_the_csv_says_the_unit_and_leaves_no_points_empty(tmp_path):
    out = str(tmp_path / "games.csv")
    exports.write_csv([TEAM] + SOLO[:1] + [SCOREPAD], out)
    with open(out, newline="") as f:
        got = list(csv.reader(f))
    assert got[0] == ["game", "mode", "player", "score", "place", "outcome", "unit"]
    assert got[1:] == [
        ["1", "perspective", "Ann", "", "1", "won, team", ""],
        ["1", "perspective", "Bob", "", "3", "lost", ""],
        ["1", "perspective", "Cleo", "", "1", "won, team", ""],
        ["1", "perspective", "Dev", "", "3", "lost", ""],
        ["2", "perspective", "Ann", "6", "1", "won", "moves"],
        ["3", "scorepad", "Ann", "12", "1", "won", "points"],
        ["3", "scorepad", "Bob", "8", "2", "lost", "points"]]


def test_nights_give_the_fewest_moves_and_no_best_for_no_points():
    lines = []
    stats.view([TEAM] + SOLO + [SCOREPAD], lines.append)
    at = lines.index("Perspective: 3 games, 30m played")
    head = lines[at + 1].split()
    assert "fewest" in head and "best" not in head, lines[at + 1]
    bob = next(line for line in lines[at + 2:at + 6] if line.split()[0] == "Bob")
    assert bob.split()[-3:-1] == ["3", "3.0"], bob  # his solitaire: 3 moves
    dev = next(line for line in lines[at + 2:at + 6] if line.split()[0] == "Dev")
    assert dev.split()[-3:-1] == ["-", "-"], dev  # no moves, and failed checks are no points
    table = stats.players([TEAM])
    assert table["Bob"].scores == [] and table["Bob"].moves == []


def test_the_night_plot_draws_no_points_and_moves_as_such(monkeypatch, tmp_path):
    pytest.importorskip("matplotlib")
    capture = _capture(monkeypatch)
    exports.plot_night([TEAM] + SOLO, str(tmp_path / "night.png"))
    team, ann, bob = capture[0].axes
    assert [bar.get_height() for bar in team.patches] == [1, 1, 1, 1], "no minus bars"
    assert [bar.get_alpha() for bar in team.patches] == [1, exports._PALE, 1, exports._PALE]
    assert list(team.get_yticks()) == [] and "no points" in team.get_title()
    assert [bar.get_height() for bar in bob.patches] == [3] and "moves" in bob.get_title()


def test_no_score_progression_for_a_game_without_numbers(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    path = str(tmp_path / "game.jnl")
    g = Game.new(perspective, path, {"names": ["Ann", "Bob"]})
    for action in (["first", 0, "red"], ["check", 0, False], ["play", 1, "blue"]):
        g.do(action)
    g.save()
    history = tmp_path / "history.jnl"
    history.write_text("")
    args = types.SimpleNamespace(file=str(history), plots=str(tmp_path / "plots"), csv=None,
                                 bgstats=None, journal=path)
    lines = []
    assert exports.main(args, [SCOREPAD], lines.append) == 0
    assert not os.path.exists(str(tmp_path / "plots" / "progression.png"))
    assert any("keeps no score" in line for line in lines), lines

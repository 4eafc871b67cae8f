"""Issue 27: ``tablemate report --bgstats FILE`` writes plays BG Stats imports.

``data/bgstats_play.json`` is the example play of BG Stats' page "Push plays to BG Stats from
other apps or websites" (bgstatsapp.com/support), the format its createPlay link takes: every
play written here must use its fields, with the same JSON types."""

import json
import os
from urllib.parse import parse_qs, urlparse

from tablemate_host import bgstats, cli, pull

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.join(os.path.dirname(os.path.dirname(HERE)), "docs", "report", "history.jnl")


def _shape(value):
    """The JSON type of a value, numbers as one type (a score may be 47.3 or 39)."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "number"
    return type(value).__name__


def _check_against_the_example(play):
    with open(os.path.join(HERE, "data", "bgstats_play.json")) as f:
        example = json.load(f)
    for key, value in play.items():
        assert key in example and _shape(value) == _shape(example[key]), key
    for key, value in play["game"].items():
        assert key in example["game"] and _shape(value) == _shape(example["game"][key]), key
    known = example["players"][0]
    for p in play["players"]:
        for key, value in p.items():
            assert key in known and _shape(value) == _shape(known[key]), key


def test_every_play_has_the_documented_fields_and_types():
    games = pull.read_history(SAMPLE)
    plays = bgstats.plays(games)
    assert len(plays) == len(games) >= 30
    for p in plays:
        _check_against_the_example(p)
    first = plays[0]
    assert first["playDate"] == games[0]["start"]
    assert first["durationMin"] >= 1 and first["location"] == "Tablemate"
    assert sum(p["winner"] for p in first["players"]) == len(games[0]["winners"])


def test_a_game_without_a_boardgamegeek_id_goes_by_name():
    g = {"game": "perfect_moment", "names": ["Ann", "Bob"], "scores": [12, 9], "winners": [0],
         "outcome": "points", "n": 4}
    p = bgstats.play(g)
    assert p["game"]["name"] == "Perfect Moment" and "bggId" not in p["game"]
    assert p["game"]["sourceGameId"] == "tablemate-perfect_moment"
    assert [(q["name"], q["score"], q["winner"], q["rank"]) for q in p["players"]] == [
        ("Ann", 12, True, 1), ("Bob", 9, False, 2)]
    assert "playDate" not in p and "durationMin" not in p  # an undated game: BG Stats asks


def test_team_wins_unfinished_games_and_the_links(tmp_path, capsys):
    history = tmp_path / "history.jnl"
    history.write_text(
        '{"game": "perspective", "names": ["Ann", "Bob", "Cy", "Dee"], "scores": [0, 0, -1, 0],'
        ' "winners": [0, 2], "outcome": "team", "kind": "teams", "start": "2026-12-04 19:00:00",'
        ' "end": "2026-12-04 19:20:10"}\n'
        '{"game": "scorepad", "names": ["Ann", "Bob"], "scores": [1, 0], "winners": []}\n')
    out = str(tmp_path / "plays.json")
    assert cli.main(["report", str(history), "--bgstats", out]) == 0
    assert "BG Stats: 1 plays" in capsys.readouterr().out  # the unfinished game is no play
    with open(out) as f:
        plays = json.load(f)
    assert [q["winner"] for q in plays[0]["players"]] == [True, False, True, False]
    assert plays[0]["durationMin"] == 20 and "(team)" in plays[0]["comments"]
    with open(out + ".html") as f:
        page = f.read()
    href = page.split('href="')[1].split('"')[0].replace("&amp;", "&")
    assert href.startswith("https://app.bgstatsapp.com/createPlay.html?data=")
    assert json.loads(parse_qs(urlparse(href).query)["data"][0]) == plays[0]

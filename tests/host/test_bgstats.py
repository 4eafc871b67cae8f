"""Issue 27: ``tablemate report --bgstats FILE`` writes plays BG Stats imports.

``data/bgstats_play.json`` is the example play of BG Stats' page "Push plays to BG Stats from
other apps or websites" (bgstatsapp.com/support), the format its createPlay link takes: every
play written here must use its fields, or the page's ``sourceName`` and ``sourcePlayId`` (issue
32: a play imported again is updated, not doubled), with the same JSON types."""

import json
import os
import time
from datetime import datetime, timezone
from urllib.parse import parse_qs, urlparse

import pytest

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
    example.update(sourceName="an app", sourcePlayId="its id")  # the page's, not in its example
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
    assert first["sourceName"] == "Tablemate" and first["sourcePlayId"].startswith("tablemate-")
    assert len({p["sourcePlayId"] for p in plays}) == len(plays), "one id per game"
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
    assert "durationMin" not in p


def test_an_undated_game_imports_dated_the_day_of_the_export():
    """The page has every play carry its date: a game the board could not date (its clock was
    not set since the power came) is sent with the time of the export, and says so."""
    g = {"game": "scorepad", "names": ["Ann", "Bob"], "scores": [3, 1], "winners": [0], "n": 7}
    now = datetime(2026, 12, 5, 9, 30, 0, tzinfo=timezone.utc)
    p = bgstats.play(g, now)
    assert p["playDate"] == "2026-12-05 09:30:00" and "date unknown" in p["comments"], p


@pytest.fixture
def paris(monkeypatch):
    """This computer in Central European Time (a POSIX rule: no time zone files needed)."""
    monkeypatch.setenv("TZ", "CET-1CEST,M3.5.0,M10.5.0/3")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def test_the_play_date_is_the_end_in_utc(paris):
    """The board keeps the computer's local time; BG Stats takes the play's date in UTC."""
    winter = {"game": "scorepad", "names": ["Ann", "Bob"], "scores": [3, 1], "winners": [0],
              "start": "2026-12-04 19:00:00", "end": "2026-12-04 19:41:10"}
    assert bgstats.play(winter)["playDate"] == "2026-12-04 18:41:10"
    summer = dict(winter, start="2026-07-04 19:00:00", end="2026-07-04 19:41:10")
    assert bgstats.play(summer)["playDate"] == "2026-07-04 17:41:10"
    assert bgstats.play(dict(winter, end=None))["playDate"] == "2026-12-04 18:00:00"


def test_the_play_id_is_the_same_at_every_export_of_the_same_history(tmp_path):
    """The same games give the same ids however the history is read and numbered; a game an
    undo reopened and filed again (same journal id, a new number and end) keeps its id."""
    one = {"game": "scorepad", "names": ["Ann", "Bob"], "scores": [3, 1], "winners": [0],
           "id": "1a2b3c4d", "n": 5, "start": "2026-12-04 19:00:00", "end": "2026-12-04 19:30:00"}
    refiled = dict(one, n=6, scores=[3, 4], winners=[1], end="2026-12-04 19:45:00")
    other = dict(one, id="99aa77bb", n=7)
    assert bgstats.play_id(one) == bgstats.play_id(refiled) != bgstats.play_id(other)
    history = tmp_path / "history.jnl"
    history.write_text("".join(json.dumps(g) + "\n" for g in (one, other, refiled)))
    first = [p["sourcePlayId"] for p in bgstats.plays(pull.read_history(str(history)))]
    (tmp_path / "history.old").write_text(json.dumps(dict(one, id="0f0f0f0f", n=1)) + "\n")
    again = [p["sourcePlayId"] for p in bgstats.plays(pull.read_history(str(history)))]
    assert len(first) == 2 and again[1:] == first, "an older game before them changes nothing"
    # lines without an id: their date, else what they hold
    old = {"game": "scorepad", "names": ["Ann", "Bob"], "scores": [3, 1], "winners": [0], "n": 2}
    assert bgstats.play_id(dict(old, start="2026-12-04 19:00:00")) != bgstats.play_id(
        dict(old, start="2026-12-04 21:00:00"))
    assert bgstats.play_id(old) == bgstats.play_id(dict(old)) != bgstats.play_id(dict(old, n=3))


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

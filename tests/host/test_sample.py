"""Issue 32: the README's sample history holds only games the device can produce.

It held a co-op Contrast of three and four players, Cartes sur Table scores above what four
rounds give, Viewpoint totals off its cards' steps: its summaries were drawn at random.
``tools/gen_sample.py`` now plays each game through its mode's rules and keeps the options and
actions in ``docs/report/games.jsonl``; here every sample game is replayed through the rules and
must end with the very summary that was filed.
"""

import json
import os

import pytest

from tablemate import lifecycle
from tablemate_host import pull

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REPORT = os.path.join(ROOT, "docs", "report")


def _sample():
    games = pull.read_history(os.path.join(REPORT, "history.jnl"))
    with open(os.path.join(REPORT, "games.jsonl"), encoding="utf-8") as f:
        kept = [json.loads(line) for line in f]
    return games, kept


def test_every_sample_game_replays_to_what_was_filed():
    games, kept = _sample()
    assert len(games) == len(kept) >= 30
    for line, game in zip(games, kept):
        assert game["n"] == line["n"] and game["game"] == line["game"], (game["n"], line)
        rules = lifecycle.rules(game["game"])
        state = rules.setup(game["opts"])
        for action in game["actions"]:
            rules.apply(state, action)  # a RuleError: the device would refuse that game
        assert rules.result(state) is not None, "every sample game was played to its end"
        summary = rules.summary(state)
        assert {k: line[k] for k in summary} == summary, (game["n"], summary, line)
        assert line["actions"] == len(game["actions"]), game["n"]


def test_the_issues_impossible_games_are_gone():
    games = pull.read_history(os.path.join(REPORT, "history.jnl"))
    for g in games:
        if g["game"] == "contrast" and g.get("coop"):
            assert len(g["names"]) == 2, g
        if g["game"] == "viewpoint":
            assert all(s % 5 == 0 for s in g["scores"]), g
    modes = {g["game"] for g in games}
    assert modes == {"scorepad", "contrast", "viewpoint", "perfect_moment", "cartes_sur_table",
                     "perspective"}, modes


def test_a_changed_summary_is_caught(tmp_path, monkeypatch):
    """The replay test itself: a sample whose filed score is not the rules' fails it."""
    games, kept = _sample()
    lines = open(os.path.join(REPORT, "history.jnl"), encoding="utf-8").read().splitlines()
    first = json.loads(lines[0])
    first["scores"][0] += 1
    lines[0] = json.dumps(first)
    (tmp_path / "history.jnl").write_text("\n".join(lines) + "\n")
    (tmp_path / "games.jsonl").write_text(
        "".join(json.dumps(g) + "\n" for g in kept))
    monkeypatch.setitem(globals(), "REPORT", str(tmp_path))
    with pytest.raises(AssertionError):
        test_every_sample_game_replays_to_what_was_filed()


def test_the_readme_shows_the_samples_nights_as_the_report_prints_them():
    """The README's ``--nights`` example is the sample's, line for line ("..." leaves out the
    rest of a table's tail): regenerated with the sample, or this fails."""
    from tablemate_host import stats
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    block = readme[readme.index("```\nNights\n") + 4:]
    block = block[:block.index("```")].rstrip("\n").split("\n")
    printed = []
    stats.view(pull.read_history(os.path.join(REPORT, "history.jnl")), printed.append)
    at = 0
    for line in block:
        if line.strip() == "...":
            continue
        assert line in printed[at:], "README: %r is not what the report prints" % line
        at = printed.index(line, at) + 1

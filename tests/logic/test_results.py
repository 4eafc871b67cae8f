"""Issue 32: a finished game's results say what its numbers are and why its winner won.

Each mode declares what its summary's scores are (``flow.standings.numbers``, from the registry):
points (more is better), moves (the solitaire: fewer is better) or none (Perspective with
others: failed checks are no points). The standings' ranks, the History's details and the
bottom line all follow it; a tie broken by the rulebook (The Perfect Moment: the player who took
the last turn) says so, as a lost clock does.
"""

from tablemate.screens import history
from tablemate.flow import standings
from tablemate.ui import dialogs


def _team_game(**more):
    """The issue's 4-player Perspective: Ann and Cleo win as a team, Bob failed one check."""
    g = {"game": "perspective", "names": ["Ann", "Bob", "Cleo", "Dev"], "scores": [0, -1, 0, 0],
         "winners": [0, 2], "outcome": "team", "kind": "teams", "turns": 9}
    g.update(more)
    return g


def _solitaire():
    return {"game": "perspective", "names": ["Ann"], "scores": [12], "winners": [0],
            "outcome": "solved", "kind": "solo", "turns": 0, "moves": 12, "ms": 225000}


def test_each_mode_says_what_its_numbers_are():
    assert standings.numbers({"game": "scorepad"}) == standings.POINTS
    assert standings.numbers({"game": "perfect_moment"}) == standings.POINTS
    assert standings.numbers(_solitaire()) == standings.MOVES
    for kind in ("duel", "advanced", "trio", "teams"):
        assert standings.numbers(_team_game(kind=kind)) == standings.NONE, kind
    assert standings.numbers({"game": "no such mode"}) == standings.POINTS
    assert standings.numbers({}) == standings.POINTS


def test_a_damaged_kind_reads_as_any_other_setup():
    """A history line is data from the flash: a "kind" that is a list or an object (not a
    key) raised TypeError on the History page (the bad-file matrix found it)."""
    for kind in ([], {}, [["solo"]], None, 3):
        assert standings.numbers(_team_game(kind=kind)) == standings.NONE, kind
        assert history.details(_team_game(kind=kind)) == "Ann Cleo Bob Dev", kind


def test_failed_checks_are_no_points_in_the_ranking():
    g = _team_game()
    got = standings.ranking(g["scores"], g["winners"], standings.numbers(g))
    assert got == [(1, 0), (1, 2), (3, 1), (3, 3)], got  # not "4 Bob -1"


def test_moves_rank_the_fewest_first():
    assert standings.ranking([12, 8, 12], (), standings.MOVES) == [(1, 1), (2, 0), (2, 2)]
    assert standings.ranking([12, 8, 12], ()) == [(1, 0), (1, 2), (3, 1)]  # points


def test_the_numbers_as_they_are_said():
    assert standings.figure(standings.POINTS, -3) == "-3"
    assert standings.figure(standings.MOVES, 12) == "12 moves"
    assert standings.figure(standings.MOVES, 1) == "1 move"
    assert standings.figure(standings.NONE, -1) is None


def test_history_details_follow_the_numbers():
    assert history.details(_team_game()) == "Ann Cleo Bob Dev"
    assert history.details(_solitaire()) == "Ann 12 moves\nTime 3:45"
    assert history.details({"game": "scorepad", "names": ["Ann", "Bob"], "scores": [12, 8],
                            "winners": [0]}) == "Ann 12 Bob 8"


def test_a_line_from_older_firmware_reads_by_its_mode():
    """A Perspective line filed before the declaration (its failed checks as minus points) has
    its setup's kind: it reads as the new ones do."""
    old = _team_game()
    del old["turns"]
    assert history.details(old) == "Ann Cleo Bob Dev"
    assert standings.footnote(old) is None


def test_a_perfect_moment_tie_says_the_last_turn_won():
    tie = {"game": "perfect_moment", "names": ["Ann", "Bob"], "scores": [9, 9], "winners": [1],
           "turns": 20, "outcome": "deck"}
    assert standings.reason(tie) == "Tie: last turn won"
    assert len(standings.reason(tie)) <= 21  # the standings' bottom line
    assert history.details(tie) == "Ann 9 Bob 9\nTie: last turn won"
    assert dialogs.wrap(history.details(tie), 112) == ["Ann 9 Bob 9", "Tie: last turn won"]
    won = dict(tie, scores=[9, 11])
    assert standings.reason(won) is None  # the points say it
    late = dict(tie, outcome="time", winners=[0])  # a clock at zero is the reason, tie or not
    assert standings.reason(late) == "Bob's time is up"
    assert standings.reason(dict(tie, winners=[])) is None  # ended from the menu

"""Issue 27: games dated by the board's clock, and ``tablemate report --nights`` across them."""

import json
import os
import types

from tablemate_host import cli, flash, machine, pull, stats
from tablemate_host.device import Device

NAMES = {"names": ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]}


def _scorepad_won_by_bob(root, start=None, end=None):
    """A device plays one scorepad game to 5 (Bob wins), its clock at ``start`` then ``end``
    (RTC datetime tuples; None: never set, as after a power-up)."""
    dev = Device(root, settings=NAMES)
    if start:
        machine.world.rtc = start
    dev.choose("Scorepad")
    dev.goto("Target: none")
    dev.press("RIGHT")  # target 5
    dev.choose("Start")
    dev.press("OK")  # Ann passes
    for _ in range(5):
        dev.press("RIGHT")
    if end:
        machine.world.rtc = end
    dev.press("OK")  # Bob reaches 5: the game is filed
    with open(os.path.join(root, "data", "history.jnl")) as f:
        return [json.loads(line) for line in f]


def test_a_game_is_filed_with_its_start_and_end_when_the_clock_is_set(tmp_path):
    games = _scorepad_won_by_bob(str(tmp_path), (2026, 12, 4, 4, 19, 5, 0, 0),
                                 (2026, 12, 4, 4, 19, 41, 30, 0))
    assert len(games) == 1
    assert games[0]["start"] == "2026-12-04 19:05:00" and games[0]["end"] == "2026-12-04 19:41:30"
    assert stats.duration(games[0]) == 36 * 60 + 30


def test_a_clock_nobody_set_dates_nothing_and_the_report_says_unknown(tmp_path):
    games = _scorepad_won_by_bob(str(tmp_path))  # a Pico's clock after power-up: 2021-01-01
    assert "start" not in games[0] and "end" not in games[0]
    lines = []
    pull.report(games, lines.append)
    assert lines[1].split()[2] == "unknown" and "won by Bob" in lines[1], lines


def test_the_start_survives_a_power_cut_in_the_journal_header(tmp_path):
    root = str(tmp_path)
    dev = Device(root, settings=NAMES)
    machine.world.rtc = (2026, 12, 4, 4, 20, 0, 0, 0)
    dev.choose("Scorepad")
    dev.choose("Start")
    dev.press("RIGHT")
    dev.advance(500)
    with open(os.path.join(root, "data", "game.jnl")) as f:
        assert json.loads(f.readline())["start"] == "2026-12-04 20:00:00"
    again = Device(root)  # the power came back: the clock restarted, the header kept the start
    assert again.app.game is None or again.app.game.start == "2026-12-04 20:00:00"


def test_connecting_sets_the_board_clock_to_this_computers_time():
    """The code every command sends (``flash.connect``), run on the fake rp2 ``machine``."""
    import time
    code = flash.set_clock(time.strptime("2026-12-04 21:07:09", "%Y-%m-%d %H:%M:%S"))
    machine.world.reset()
    exec(code.replace("import machine", ""), {"machine": machine})
    assert machine.world.rtc == (2026, 12, 4, 4, 21, 7, 9, 0)  # a Friday: weekday 4


def test_a_clock_set_by_a_command_runs_on():
    """A board's RTC counts the seconds from the time a command gave it; the fake one runs
    with the fake clock (a tuple a test puts in ``world.rtc`` stays where it is put)."""
    from tablemate_host import fakes
    machine.world.reset()
    machine.RTC().datetime((2026, 12, 31, 3, 23, 59, 30, 0))
    fakes.clock.advance(45000)
    assert machine.RTC().datetime() == (2027, 1, 1, 4, 0, 0, 15, 0)  # a Friday: weekday 4


def test_the_simulators_games_are_dated_by_this_computers_clock(tmp_path):
    """Issue 32: games played in the simulator had no date; its board's clock is set to the
    computer's, as a command sets a real board's, and it runs while the game is played."""
    from datetime import datetime
    from tablemate_host import sim
    before = datetime.now().replace(microsecond=0)
    dev = sim.power_on(str(tmp_path))
    dev.choose("Scorepad")
    dev.goto("Target: none")
    dev.press("RIGHT")  # target 5
    dev.choose("Start")
    for _ in range(5):  # twenty minutes of play (a key every four: the screen stays on)
        dev.advance(4 * 60 * 1000)
        dev.presses("DOWN", "UP")
    dev.press("OK")
    for _ in range(5):
        dev.press("RIGHT")
    dev.press("OK")  # Bob reaches 5: filed
    with open(os.path.join(str(tmp_path), "data", "history.jnl")) as f:
        game = json.loads(f.readline())
    start = stats.moment(game, "start")
    assert start is not None and abs((start - before).total_seconds()) < 60, game
    assert 20 * 60 <= stats.duration(game) <= 21 * 60, game


def _g(start, end, names=("Ann", "Bob"), scores=(3, 1), winners=(0,), **more):
    g = {"game": "scorepad", "names": list(names), "scores": list(scores),
         "winners": list(winners)}
    if start:
        g["start"] = "2026-11-06 " + start if len(start) == 8 else start
    if end:
        g["end"] = "2026-11-06 " + end if len(end) == 8 else end
    g.update(more)
    return g


def test_nights_split_at_a_long_pause_and_keep_a_night_past_midnight_whole():
    games = [_g("19:00:00", "19:30:00"), _g("22:40:00", "2026-11-07 00:20:00"),
             _g("2026-11-07 01:00:00", "2026-11-07 01:30:00"),
             _g("2026-11-13 19:00:00", "2026-11-13 19:20:00"), _g(None, None)]
    got = [(title, len(night)) for title, night in stats.nights(games)]
    assert got == [("Fri 2026-11-06, 19:00-01:30", 3), ("Fri 2026-11-13, 19:00-19:20", 1),
                   ("date unknown", 1)]


def test_a_pause_is_measured_from_the_end_of_the_game_before():
    """A long game does not make the next one, after a short break, a night of its own; a pause
    of exactly ``GAP`` keeps the night, a second more does not."""
    games = [_g("17:00:00", "21:30:00"), _g("21:45:00", "22:15:00"),
             _g("2026-11-07 02:15:00", "2026-11-07 02:30:00"),
             _g("2026-11-07 06:30:01", "2026-11-07 06:45:00")]
    got = [(title, len(night)) for title, night in stats.nights(games)]
    assert got == [("Fri 2026-11-06, 17:00-02:30", 3), ("Sat 2026-11-07, 06:30-06:45", 1)]


def test_a_time_played_reads_in_minutes_rounded_to_the_nearest():
    assert [stats.clock(s) for s in (0, 29, 30, 89, 90, 36 * 60 + 30)] == [
        "0m", "0m", "1m", "1m", "2m", "37m"]
    assert [stats.clock(s) for s in (59 * 60 + 29, 59 * 60 + 30, 2 * 3600 + 5 * 60 + 40)] == [
        "59m", "1h 00m", "2h 06m"]
    assert stats.clock(None) == "unknown"


def test_team_shared_and_co_op_results_are_named_as_such():
    team = _g(None, None, ("Ann", "Bob", "Cleo", "Dev"), (0, 0, -1, 0), (0, 2),
              outcome="team", game="perspective")
    shared = _g(None, None, ("Ann", "Bob", "Cy"), (7, 7, 3), (0, 1))
    coop = {"game": "contrast", "names": ["Ann", "Bob"], "scores": [9, 9], "winners": [],
            "outcome": "lose", "coop": True}
    assert stats.result(team) == "won by Ann and Cleo (team)"
    assert stats.result(shared) == "won by Ann and Bob (shared)"
    assert stats.result(coop) == "co-op lost"
    assert stats.result(_g(None, None)) == "won by Ann"


def test_the_columns_stay_aligned_whatever_the_names_length():
    long = _g(None, None, ("Maximiliane", "Bo"), (120, 7), (1,), game="perfect_moment")
    lines = []
    pull.report([_g("19:00:00", "19:30:00"), long], lines.append)
    rows = lines[:3]
    for word in ("game", "when", "result", "scores"):
        at = rows[0].index(word)
        assert all(r[at - 1] == " " and r[at] != " " for r in rows[1:]), (word, rows)
    assert "Perfect Moment" in rows[2] and "perfect_moment" not in rows[2]
    table = lines[4:]
    assert len({len(r) for r in table}) == 1, table  # numbers right-aligned under their heads


def test_nights_view_counts_wins_rate_player_count_rival_scores_and_time():
    games = [_g("19:00:00", "19:30:00", ("Ann", "Bob", "Cy"), (10, 4, 2), (0,)),
             _g("19:40:00", "20:00:00", ("Ann", "Bob", "Cy"), (3, 9, 1), (1,)),
             _g("20:10:00", "20:25:00", ("Ann", "Bob"), (8, 5), (0,)),
             _g(None, None, ("Ann", "Cy"), (1, 6), (1,)),
             _g(None, None, ("Ann", "Bob"), (0, 0), ())]  # unfinished: not counted
    table = stats.players(games)
    ann, bob, cy = table["Ann"], table["Bob"], table["Cy"]
    assert (ann.games, ann.wins, ann.rate()) == (4, 2, "50%")
    assert ann.counts() == "2p 1/2  3p 1/2"
    assert ann.rival() == "Bob (1)" and cy.rival() == "Ann (1)"  # ties: the first by name
    assert (max(bob.scores), sum(bob.scores) / len(bob.scores)) == (9, 6.0)
    assert ann.time() == "1h 05m" and cy.time() == "50m"
    lines = []
    stats.view(games, lines.append)
    text = "\n".join(lines)
    assert "Fri 2026-11-06, 19:00-20:25" in text and "date unknown" in text
    assert "All games: 4, 1h 05m (+1 unknown) played" in text
    row = next(line for line in lines if line.split()[:1] == ["Ann"])
    assert row.split()[:4] == ["Ann", "4", "2", "50%"] and "Bob (1)" in row


def test_report_nights_from_the_command_line(tmp_path, capsys):
    path = tmp_path / "history.jnl"
    path.write_text("".join(json.dumps(g) + "\n" for g in (
        _g("19:00:00", "19:30:00"), _g("20:00:00", "20:45:00", winners=(1,)))))
    assert cli.main(["report", str(path), "--nights"]) == 0
    out = capsys.readouterr().out
    assert "Nights" in out and "Scorepad: 2 games, 1h 15m played" in out


def test_old_history_lines_without_dates_still_read(tmp_path):
    path = tmp_path / "history.jnl"
    path.write_bytes(b'{"game": "scorepad", "names": ["Ann", "Bob"], "scores": [3, 1],'
                     b' "winners": [0], "rounds": 2, "n": 1}\n')
    lines = []
    assert pull.main_report(types.SimpleNamespace(file=str(path), nights=True),
                            lines.append) == 0
    assert any("unknown" in line and "won by Ann" in line for line in lines)
    assert any(line.strip().startswith("date unknown") for line in lines)

"""Countdown and chess clock: beeps, expiry, late polls, increment, pause, flag, wrap, saving,
checks on saved data, who starts each game, fmt."""

import json
from time import ticks_add

from tablemate.clock import BEEP, EXPIRED, RANDOM, ChessClock, Countdown, first_player, fmt


def poll_every(clock, start, end, base=0, step=5):
    """Poll ``clock`` every ``step`` ms from ``start`` to ``end``; return [(ms, event)] for non-zero events."""
    out = []
    for ms in range(start, end + 1, step):
        ev = clock.poll(ticks_add(base, ms))
        if ev:
            out.append((ms, ev))
    return out


def test_countdown_beeps_in_last_five_seconds_then_expires_once():
    cd = Countdown(10000)
    cd.start(0)
    ev = poll_every(cd, 0, 15000)
    assert ev == [(5000, BEEP), (6000, BEEP), (7000, BEEP), (8000, BEEP), (9000, BEEP), (10000, EXPIRED)]
    assert cd.remaining(15000) == 0 and not cd.running


def test_short_countdown_does_not_beep_at_its_start():
    cd = Countdown(5000)
    cd.start(0)
    assert poll_every(cd, 0, 6000) == [(1000, BEEP), (2000, BEEP), (3000, BEEP), (4000, BEEP), (5000, EXPIRED)]
    cd = Countdown(2500)
    cd.start(0)
    assert poll_every(cd, 0, 3000) == [(500, BEEP), (1500, BEEP), (2500, EXPIRED)]


def test_countdown_late_polls_coalesce_beeps_but_keep_expiry():
    cd = Countdown(10000)
    cd.start(0)
    assert cd.poll(4500) == 0
    assert cd.poll(7500) == BEEP  # 5 s and 4 s passed unseen: one beep for both
    assert cd.poll(7600) == 0
    assert cd.poll(8000) == BEEP
    assert cd.poll(9999) == BEEP
    assert cd.poll(12000) == EXPIRED
    assert cd.poll(13000) == 0
    cd = Countdown(10000)
    cd.start(0)
    assert cd.poll(100) == 0
    assert cd.poll(60000) == EXPIRED  # straight past zero: no beep, but the expiry
    assert cd.poll(60005) == 0


def test_countdown_not_started_does_nothing():
    cd = Countdown(3000)
    assert not cd.running
    assert poll_every(cd, 0, 10000, step=100) == []
    assert cd.remaining(10000) == 3000


def test_countdown_stop_start_and_reset():
    cd = Countdown(10000)
    cd.start(0)
    cd.stop(3000)
    assert not cd.running
    assert cd.remaining(3000) == 7000 and cd.remaining(90000) == 7000
    cd.start(50000)
    assert cd.remaining(51000) == 6000
    cd.poll(52000)
    cd.stop()  # no time given: the latest time it saw
    assert cd.remaining(99999) == 5000
    cd.start(100000)
    cd.reset(101000)  # a new turn while running: full time again, counting from now
    assert cd.running and cd.remaining(102000) == 9000
    assert poll_every(cd, 101000, 112000) == [
        (106000, BEEP), (107000, BEEP), (108000, BEEP), (109000, BEEP), (110000, BEEP), (111000, EXPIRED)
    ]
    cd.start(113000)  # expired: stays at zero
    assert not cd.running and cd.remaining(114000) == 0
    cd.reset(115000)  # stopped: full time, still stopped
    assert not cd.running and cd.remaining(120000) == 10000
    cd.start(120000)
    assert poll_every(cd, 120000, 131000)[-1] == (130000, EXPIRED)


def test_countdown_across_the_ticks_wrap():
    base = ticks_add(0, -7000)
    cd = Countdown(10000)
    cd.start(base)
    ev = poll_every(cd, 0, 12000, base=base)
    assert ev == [(5000, BEEP), (6000, BEEP), (7000, BEEP), (8000, BEEP), (9000, BEEP), (10000, EXPIRED)]
    cd = Countdown(10000)
    cd.start(base)
    assert cd.remaining(ticks_add(base, 8000)) == 2000


def test_countdown_saved_through_json():
    cd = Countdown(30000)
    cd.start(1000)
    d = json.loads(json.dumps(cd.to_dict(11000)))
    back = Countdown.from_dict(d, 500)
    assert not back.running and back.duration == 30000
    assert back.remaining(500) == 20000
    back.start(600)
    assert back.remaining(1600) == 19000
    cd.poll(40000)
    done = Countdown.from_dict(json.loads(json.dumps(cd.to_dict(40000))), 7)
    assert done.remaining(8) == 0 and done.poll(9) == 0  # the expiry was already told


def test_chess_increment_and_turns():
    c = ChessClock(2, 60000, 2000)
    assert c.remaining(0, 0) == 60000 and not c.running and not c.paused
    c.start(0)
    assert c.running and c.current == 0 and c.moves == 0
    assert c.press(10000)
    assert c.current == 1 and c.moves == 1
    assert c.remaining(0, 15000) == 52000  # 60 - 10 + 2
    assert c.remaining(1, 15000) == 55000
    assert c.press(15000)
    assert c.remaining(1, 20000) == 57000 and c.remaining(0, 20000) == 47000
    assert c.current == 0 and c.moves == 2


def test_chess_start_with_second_player_and_three_players():
    c = ChessClock(3, 10000)
    c.start(0, player=1)
    assert c.current == 1 and c.players == 3
    c.press(1000)
    assert c.current == 2
    c.press(3000)
    assert c.current == 0
    c.press(6000)
    assert c.current == 1
    assert [c.remaining(i, 6000) for i in range(3)] == [7000, 9000, 8000]


def test_chess_pause_and_resume_keep_time():
    c = ChessClock(2, 60000)
    c.start(0)
    c.pause(10000)
    assert c.paused and not c.running
    assert c.remaining(0, 10000) == 50000 and c.remaining(0, 500000) == 50000
    assert not c.press(20000)  # paused: a press does nothing
    assert c.current == 0 and c.moves == 0
    assert c.poll(30000) == 0
    c.resume(500000)
    assert c.running and c.remaining(0, 501000) == 49000
    c.press(501000)
    assert c.remaining(1, 502000) == 59000


def test_chess_beeps_for_the_player_to_move_and_flag():
    c = ChessClock(2, 10000, 3000)
    c.start(0)
    assert poll_every(c, 0, 6500) == [(5000, BEEP), (6000, BEEP)]
    c.press(6500)  # 3.5 s left + 3 s = 6.5 s
    assert poll_every(c, 6500, 11000) == []  # player 1 still has more than 5 s
    c.press(11000)  # player 1: 10 - 4.5 + 3 = 8.5 s
    assert c.remaining(0, 11000) == 6500  # the increment re-arms player 0's beeps
    ev = poll_every(c, 11000, 30000)
    assert ev == [(12500, BEEP), (13500, BEEP), (14500, BEEP), (15500, BEEP), (16500, BEEP), (17500, EXPIRED)]
    assert c.flagged(30000) == 0
    assert not c.press(30000) and c.moves == 2
    assert c.remaining(0, 30000) == 0 and c.remaining(1, 90000) == 8500  # time stopped for everyone
    assert not c.running and c.poll(40000) == 0


def test_chess_flag_before_press_gets_no_increment():
    c = ChessClock(2, 5000, 10000)
    c.start(0)
    assert c.flagged(4999) == -1
    assert not c.press(5200)  # too late: the flag stands, no increment
    assert c.flagged(5300) == 0 and c.current == 0
    assert c.remaining(0, 6000) == 0 and c.remaining(1, 6000) == 5000
    assert c.poll(7000) == EXPIRED  # still told once, even though press found the flag
    assert c.poll(7005) == 0


def test_chess_late_poll_still_expires():
    c = ChessClock(2, 10000)
    c.start(0)
    assert c.poll(100) == 0
    assert c.poll(50000) == EXPIRED
    assert c.flagged(50001) == 0
    assert c.poll(50002) == 0


def test_chess_across_the_ticks_wrap():
    base = ticks_add(0, -5000)
    c = ChessClock(2, 8000, 1000)
    c.start(base)
    c.press(ticks_add(base, 4000))  # player 0 moves 1 s before the wrap
    assert c.remaining(0, ticks_add(base, 4000)) == 5000
    assert c.remaining(1, ticks_add(base, 6000)) == 6000  # the wrap happened at 5000
    c.pause(ticks_add(base, 7000))
    c.resume(ticks_add(base, 9000))
    assert c.remaining(1, ticks_add(base, 10000)) == 4000
    ev = poll_every(c, 9000, 16000, base=base)
    assert ev == [(10000, BEEP), (11000, BEEP), (12000, BEEP), (13000, BEEP), (14000, EXPIRED)]
    assert c.flagged(ticks_add(base, 16000)) == 1


def test_chess_saved_through_json_resumes_paused():
    c = ChessClock(2, 60000, 5000)
    c.start(1000)
    c.press(11000)
    c.press(14000)
    d = json.loads(json.dumps(c.to_dict(20000)))
    back = ChessClock.from_dict(d, 123)
    assert back.paused and not back.running
    assert back.current == 0 and back.moves == 2 and back.increment == 5000 and back.base == 60000
    assert back.remaining(0, 999999) == 49000 and back.remaining(1, 999999) == 62000
    back.resume(200)
    assert back.remaining(0, 1200) == 48000
    back.press(1200)
    assert back.remaining(0, 1300) == 53000 and back.current == 1
    # the original keeps running, untouched by saving
    assert c.running and c.remaining(0, 21000) == 48000


def test_chess_saved_before_start_and_after_flag():
    fresh = ChessClock.from_dict(json.loads(json.dumps(ChessClock(2, 9000).to_dict(0))), 0)
    assert not fresh.running and not fresh.paused
    fresh.start(10, player=1)
    assert fresh.current == 1 and fresh.remaining(1, 1010) == 8000
    c = ChessClock(2, 3000)
    c.start(0)
    assert c.poll(3000) == EXPIRED
    back = ChessClock.from_dict(json.loads(json.dumps(c.to_dict(4000))), 5)
    assert back.flagged(6) == 0 and not back.paused and not back.running
    assert back.poll(7) == 0  # the flag was already announced
    back.resume(8)
    assert back.flagged(9) == 0 and back.remaining(0, 20000) == 0


def test_fmt():
    assert fmt(0) == "0:00"
    assert fmt(-5) == "0:00"
    assert fmt(1) == "0:01"  # rounds up: 0:00 only once time is out
    assert fmt(59000) == "0:59"
    assert fmt(60000) == "1:00"
    assert fmt(61001) == "1:02"
    assert fmt(300000) == "5:00"
    assert fmt(3599000) == "59:59"
    assert fmt(3600000) == "1:00:00"
    assert fmt(3661000) == "1:01:01"
    assert fmt(36000000) == "10:00:00"
    assert fmt(9900, True) == "9.9"
    assert fmt(9901, True) == "0:10"
    assert fmt(10000, True) == "0:10"
    assert fmt(5040, True) == "5.1"
    assert fmt(50, True) == "0.1"
    assert fmt(0, True) == "0.0"
    assert fmt(9900) == "0:10"


def _saved(clock, now):
    return json.loads(json.dumps(clock.to_dict(now)))


def test_chess_idle_until_started():
    c = ChessClock(2, 9000)
    assert c.idle and not c.running and not c.paused
    c.start(0, player=1)
    assert not c.idle and c.running
    c.pause(10)
    assert not c.idle and c.paused
    assert ChessClock.from_dict(_saved(c, 20), 0).paused
    assert ChessClock.from_dict(_saved(ChessClock(2, 9000), 0), 0).idle


def test_chess_saved_running_state_comes_back_paused():
    c = ChessClock(2, 60000)
    c.start(0)
    d = _saved(c, 5000)
    d["state"] = 1  # running: never written by to_dict, but a clock must not run by itself
    back = ChessClock.from_dict(d, 0)
    assert back.paused and back.remaining(0, 99999) == 55000


def _refused(d):
    try:
        ChessClock.from_dict(d, 0)
    except (ValueError, KeyError, TypeError):
        return True
    return False


def test_chess_damaged_data_is_refused():
    c = ChessClock(2, 60000, 2000)
    c.start(0)
    c.press(1000)
    good = _saved(c, 3000)
    assert not _refused(good)
    bad = []
    for key, value in (("base", 0), ("base", "60000"), ("base", True), ("inc", -1),
                       ("cur", 2), ("cur", -1), ("moves", -3), ("moves", 1.5), ("flag", 2),
                       ("flag", 0), ("state", 9), ("cds", []), ("cds", {}), ("cds", None),
                       ("base", 2 ** 40)):
        d = _saved(c, 3000)
        d[key] = value
        bad.append(d)
    for key, value in (("left", -1), ("left", "5"), ("left", None), ("dur", False),
                       ("told", 0), ("told", "no")):
        d = _saved(c, 3000)
        d["cds"][1][key] = value
        bad.append(d)
    d = _saved(c, 3000)
    del d["moves"]
    bad.append(d)
    d = _saved(c, 3000)
    d["cds"][0] = [1, 2, 3]
    bad.append(d)
    for d in bad + [None, [], "clock", 7]:
        assert _refused(d), d
    flagged = _saved(c, 3000)
    flagged["state"], flagged["flag"] = 3, 1  # a flag with its state: fine
    assert ChessClock.from_dict(flagged, 0).flagged(0) == 1


def test_who_starts_fixed_or_alternating():
    def never():
        raise AssertionError("no draw needed")
    assert first_player(0, False, -1, never) == 0
    assert first_player(1, False, -1, never) == 1
    assert first_player(1, False, 1, never) == 1  # no swapping: the same starter every game
    games = []
    previous = -1
    for _ in range(5):  # a session of rematches, swapping each time
        previous = first_player(0, True, previous, never)
        games.append(previous)
    assert games == [0, 1, 0, 1, 0]
    assert first_player(1, True, -1, never) == 1 and first_player(1, True, 1, never) == 0


def test_who_starts_at_random_is_drawn_once_per_game():
    draws = []

    def draw():
        draws.append(1)
        return 5  # any number: its low bit decides
    assert first_player(RANDOM, False, -1, draw) == 1 and len(draws) == 1
    assert first_player(RANDOM, False, 1, lambda: 0) == 0  # no swapping: a new draw each game
    # Swapping: only a session's first game is drawn; the rematches swap from there.
    assert first_player(RANDOM, True, -1, lambda: 0) == 0
    assert first_player(RANDOM, True, 0, draw) == 1 and len(draws) == 1
    assert first_player(RANDOM, True, 1, draw) == 0 and len(draws) == 1


def test_autosave_asks_for_a_write_every_save_ms_while_the_clock_runs():
    from tablemate.clock import SAVE_MS, Autosave
    c = ChessClock(2, 60000, 0)
    keep = Autosave(1000)
    assert keep.due(c, 5000) is None  # idle: nothing runs, nothing to keep
    c.start(1000, 0)
    assert keep.due(c, 5000) == SAVE_MS - 4000
    assert keep.due(c, 1000 + SAVE_MS) == 0 and keep.due(c, 1000 + 3 * SAVE_MS) == 0
    keep.wrote(12000)
    assert keep.due(c, 12000) == SAVE_MS
    c.pause(13000)
    assert keep.due(c, 40000) is None  # paused: the time stands, as it was written
    c.resume(40000)
    assert keep.due(c, 40000) == 0  # the last write is old: at once

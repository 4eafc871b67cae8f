"""The clock core's additions for timed turns: warnings at chosen seconds (10 s and 5 s) and the
default ones unchanged, Fischer increments in a time bank, per-turn countdowns, playing on after
a flag, set_times (a saved game's clocks), a countdown given time after it ran out, and running
clocks across the 2**30 ticks wrap."""

from time import ticks_add

from tablemate import clock
from tablemate.clock import BEEP, EXPIRED, ChessClock, Countdown

WARN = (10, 5)  # the Perfect Moment's warnings


def poll_every(c, start, end, base=0, step=5):
    """Poll ``c`` every ``step`` ms from ``start`` to ``end``: [(ms, event)], events only."""
    out = []
    for ms in range(start, end + 1, step):
        ev = c.poll(ticks_add(base, ms))
        if ev:
            out.append((ms, ev))
    return out


def _times(c, now):
    return [c.remaining(0, now), c.remaining(1, now)]


# --- warnings ------------------------------------------------------------------------------

def test_the_default_warnings_are_the_old_five_to_one():
    assert clock.WARN == (5, 4, 3, 2, 1)
    old = [(5000, BEEP), (6000, BEEP), (7000, BEEP), (8000, BEEP), (9000, BEEP), (10000, EXPIRED)]
    for cd in (Countdown(10000), Countdown(10000, clock.WARN)):
        cd.start(0)
        assert poll_every(cd, 0, 12000) == old
    cd = Countdown(5000)  # no beep at the start of a 5 s turn
    cd.start(0)
    assert poll_every(cd, 0, 6000) == [(1000, BEEP), (2000, BEEP), (3000, BEEP), (4000, BEEP),
                                       (5000, EXPIRED)]
    c = ChessClock(2, 10000)
    c.start(0)
    assert poll_every(c, 0, 12000) == old


def test_warnings_at_ten_and_five_seconds():
    cd = Countdown(20000, WARN)
    cd.start(0)
    assert poll_every(cd, 0, 25000) == [(10000, BEEP), (15000, BEEP), (20000, EXPIRED)]
    cd = Countdown(60000, WARN)
    cd.start(1000)
    ev = poll_every(cd, 1000, 70000)
    assert [e for e in ev if e[1] == BEEP] == [(51000, BEEP), (56000, BEEP)]  # exactly two
    assert ev[-1] == (61000, EXPIRED) and len(ev) == 3
    # a late poll past both: one beep, then only the expiry
    cd = Countdown(20000, WARN)
    cd.start(0)
    assert cd.poll(9000) == 0
    assert cd.poll(16000) == BEEP
    assert cd.poll(16001) == 0 and cd.poll(19999) == 0
    assert cd.poll(20000) == EXPIRED


def test_no_warning_at_the_start_of_a_turn_that_begins_under_ten_seconds():
    for left, beeps in ((10000, [(5000, BEEP)]), (9500, [(4500, BEEP)]), (5000, []),
                        (4000, []), (10001, [(1, BEEP), (5001, BEEP)])):
        cd = Countdown(left, WARN)
        cd.start(0)
        ev = poll_every(cd, 0, left + 1000, step=1)
        assert ev == beeps + [(left, EXPIRED)], (left, ev)
    # in a bank: player 0's next turn begins with 8 s (6 s + 2 s): only the 5 s warning
    c = ChessClock(2, 30000, 2000, warn=WARN)
    c.start(0)
    assert poll_every(c, 0, 24000) == [(20000, BEEP)]
    assert c.press(24000) and c.remaining(0, 24000) == 8000
    assert c.press(25000)
    assert poll_every(c, 25000, 40000) == [(28000, BEEP), (33000, EXPIRED)]
    assert c.flagged(40000) == 0


def test_warnings_are_for_the_player_to_move_in_each_turn():
    c = ChessClock(2, 20000, 0, warn=WARN)
    c.start(0)
    assert poll_every(c, 0, 12000) == [(10000, BEEP)]
    assert c.press(12000)  # player 0 keeps 8 s
    assert poll_every(c, 12000, 24000) == [(22000, BEEP)]  # player 1's 10 s
    assert c.press(24000)  # player 1 keeps 8 s
    assert poll_every(c, 24000, 40000) == [(27000, BEEP), (32000, EXPIRED)]  # player 0's 5 s
    assert c.flagged(40000) == 0 and _times(c, 40000) == [0, 8000]


# --- a time bank with a Fischer increment -------------------------------------------------------

def test_fischer_increments_in_a_bank():
    c = ChessClock(2, 60000, 5000, warn=WARN)
    c.start(0)
    assert c.press(10000)
    assert _times(c, 10000) == [55000, 60000]
    assert c.press(12000)
    assert _times(c, 12000) == [55000, 63000]  # a bank grows past its start
    assert c.press(12500)
    assert _times(c, 13000) == [59500, 62500]
    assert c.moves == 3 and c.current == 1
    # the increment re-arms the warnings: 11 s after a press, 10 s beeps again
    c = ChessClock(2, 20000, 5000, warn=WARN)
    c.start(0)
    assert poll_every(c, 0, 14000) == [(10000, BEEP)]
    assert c.press(14000) and c.remaining(0, 14000) == 11000
    assert c.press(15000)
    assert poll_every(c, 15000, 30000) == [(16000, BEEP), (21000, BEEP), (26000, EXPIRED)]
    # a flag comes before the increment: none for a press that comes too late
    assert not c.press(27000) and c.remaining(0, 27000) == 0 and c.flagged(27000) == 0


# --- per-turn countdowns ---------------------------------------------------------------------

def test_per_turn_each_turn_starts_from_base_without_increment():
    c = ChessClock(2, 15000, 0, per_turn=True, warn=WARN)
    assert c.per_turn and _times(c, 0) == [15000, 15000]
    c.start(0, 1)
    assert c.remaining(1, 2000) == 13000
    assert c.press(2000)  # player 1 used 2 s
    assert c.remaining(0, 2000) == 15000 and c.remaining(0, 9000) == 8000
    assert c.press(9000)  # player 0 used 7 s
    assert c.remaining(1, 9000) == 15000  # not 13 s: a new turn's full time
    assert poll_every(c, 9000, 21000) == [(14000, BEEP), (19000, BEEP)]  # 10 s and 5 s each turn
    assert c.press(21000)
    assert c.remaining(0, 21000) == 15000  # not 8 s: nothing carries over
    assert poll_every(c, 21000, 40000) == [(26000, BEEP), (31000, BEEP), (36000, EXPIRED)]
    assert c.flagged(40000) == 0 and not c.press(40000) and c.moves == 3
    assert c.remaining(1, 40000) == 3000  # what the other player's last turn left


def test_per_turn_pause_keeps_the_turns_time():
    c = ChessClock(2, 30000, 0, per_turn=True, warn=WARN)
    c.start(0)
    c.pause(12000)
    assert c.paused and c.remaining(0, 99000) == 18000
    c.resume(100000)
    assert c.remaining(0, 101000) == 17000
    assert c.press(101000)
    assert c.remaining(1, 101000) == 30000


# --- playing on after a flag -----------------------------------------------------------------

def test_play_on_after_a_flag():
    c = ChessClock(2, 10000, 0, warn=WARN)
    c.play_on(0)  # nothing to play on from
    assert c.idle
    c.start(0)
    c.play_on(100)  # not flagged: nothing changes
    assert c.running and c.flagged(100) == -1
    assert poll_every(c, 0, 12000) == [(5000, BEEP), (10000, EXPIRED)]
    assert c.flagged(12000) == 0 and not c.running and not c.press(12000)
    c.play_on(13000)
    assert c.running and c.flagged(13000) == -1 and c.current == 0
    assert poll_every(c, 13000, 20000) == []  # no second expiry
    assert c.press(20000)  # the game goes on
    assert c.current == 1 and c.moves == 1 and _times(c, 20000) == [0, 10000]
    assert c.press(23000)
    assert c.current == 0 and _times(c, 23000) == [0, 7000]
    # player 0 is at zero again: not flagged while at zero
    assert poll_every(c, 23000, 60000, step=50) == []
    assert c.flagged(60000) == -1 and c.running and c.remaining(0, 60000) == 0
    c.pause(60000)
    assert c.paused
    c.resume(70000)
    assert c.press(71000) and c.current == 1
    assert c.remaining(1, 71000) == 7000  # player 1's time did not run while 0 played on
    # the other player can still run out
    assert poll_every(c, 71000, 80000) == [(73000, BEEP), (78000, EXPIRED)]
    assert c.flagged(80000) == 1
    c.play_on(80000)
    assert c.press(80000) and c.current == 0 and c.press(81000) and c.current == 1


def test_play_on_flags_again_once_time_came_back_in_a_bank():
    c = ChessClock(2, 10000, 3000, warn=WARN)
    c.start(0)
    assert poll_every(c, 0, 11000)[-1] == (10000, EXPIRED)
    c.play_on(11000)
    assert c.press(12000)  # at zero: the increment is 3 s
    assert _times(c, 12000) == [3000, 10000]
    assert c.press(14000)  # player 1: 8 s + 3 s
    assert _times(c, 14000) == [3000, 11000] and c.current == 0
    assert poll_every(c, 14000, 20000) == [(17000, EXPIRED)]  # time again, and out again
    assert c.flagged(20000) == 0 and not c.press(20000)
    c.play_on(20000)
    assert c.press(20000) and c.remaining(0, 20000) == 3000


def test_play_on_flags_again_once_time_came_back_per_turn():
    c = ChessClock(2, 8000, 0, per_turn=True, warn=WARN)
    c.start(0)
    assert poll_every(c, 0, 9000) == [(3000, BEEP), (8000, EXPIRED)]
    c.play_on(9000)
    assert poll_every(c, 9000, 12000) == []
    assert c.press(12000) and _times(c, 12000) == [0, 8000]
    assert c.press(13000)
    assert c.remaining(0, 13000) == 8000  # the next turn's full time
    assert poll_every(c, 13000, 30000) == [(16000, BEEP), (21000, EXPIRED)]
    assert c.flagged(30000) == 0


def test_a_countdown_given_time_after_it_ran_out_can_expire_again():
    cd = Countdown(3000, WARN)
    cd.start(0)
    assert poll_every(cd, 0, 4000) == [(3000, EXPIRED)]
    cd.add(0)  # nothing to run on: the expiry stays told
    cd.start(4000)
    assert not cd.running and cd.poll(5000) == 0
    cd.add(12000)
    cd.start(5000)
    assert cd.running and cd.remaining(6000) == 11000
    assert poll_every(cd, 5000, 20000) == [(7000, BEEP), (12000, BEEP), (17000, EXPIRED)]
    assert poll_every(cd, 17000, 20000) == []


# --- set_times -------------------------------------------------------------------------------

def test_set_times_before_the_start_and_while_paused():
    c = ChessClock(2, 60000, 2000, warn=WARN)
    c.set_times([45000, 30000], 500)
    assert c.idle and _times(c, 9999) == [45000, 30000]
    c.start(1000, 1)
    assert _times(c, 4000) == [45000, 27000]
    c.pause(5000)
    c.set_times([12000, 8000], 6000)
    assert c.paused and _times(c, 50000) == [12000, 8000]
    c.resume(50000)
    assert c.current == 1
    assert poll_every(c, 50000, 60000) == [(53000, BEEP), (58000, EXPIRED)]  # 8 s: 5 s only
    c = ChessClock(2, 60000, 2000, warn=WARN)
    c.set_times([12000, 60000], 0)
    c.start(0, 0)
    c.pause(0)
    c.resume(1000)
    assert poll_every(c, 1000, 14000) == [(3000, BEEP), (8000, BEEP), (13000, EXPIRED)]


def test_set_times_resumes_a_per_turn_game_mid_turn():
    c = ChessClock(2, 60000, 0, per_turn=True, warn=WARN)
    c.set_times([60000, 7000], 0)  # player 1 had 7 s left of this turn
    c.start(0, 1)
    c.pause(0)
    c.resume(100)
    assert c.remaining(1, 1100) == 6000
    assert c.press(1100) and c.remaining(0, 1100) == 60000
    assert c.press(2100) and c.remaining(1, 2100) == 60000


def test_set_times_with_a_player_at_zero_plays_on():
    # A game under "alert" journals a clock at zero after a time-out; its resume (and every
    # undo, which rebuilds the clock) sets those times: the player plays on at zero and is
    # not flagged (nor told EXPIRED) again until they have time again.
    c = ChessClock(2, 60000, 0, warn=WARN)
    c.set_times([0, 30000], 0)
    c.start(0, 1)
    c.pause(0)
    c.resume(1000)
    assert c.press(2000) and c.current == 0
    assert poll_every(c, 2000, 5000) == [] and c.flagged(5000) == -1
    assert c.press(5000) and c.current == 1
    c = ChessClock(2, 60000, 0, warn=WARN)
    c.set_times([0, 30000], 0)
    c.start(0, 0)  # the player at zero is to move
    c.pause(0)
    assert c.paused
    c.resume(1000)
    assert poll_every(c, 1000, 3000) == [] and c.flagged(3000) == -1
    assert c.press(3000) and c.current == 1 and c.remaining(1, 4000) == 29000


# --- the ticks wrap --------------------------------------------------------------------------

def test_a_running_clock_across_the_ticks_wrap():
    base = ticks_add(0, -6000)
    assert ticks_add(base, 5999) == 2 ** 30 - 1 and ticks_add(base, 6000) == 0
    c = ChessClock(2, 20000, 2000, warn=WARN)
    c.start(base)
    assert c.remaining(0, ticks_add(base, 5999)) == 14001  # before the wrap
    assert c.remaining(0, ticks_add(base, 6000)) == 14000  # at it
    assert c.remaining(0, ticks_add(base, 6001)) == 13999  # after it
    assert poll_every(c, 0, 21000, base=base) == [(10000, BEEP), (15000, BEEP), (20000, EXPIRED)]
    assert c.flagged(ticks_add(base, 21000)) == 0
    # a press before the wrap: the other clock runs across it
    base = ticks_add(0, -3000)
    c = ChessClock(2, 20000, 2000, warn=WARN)
    c.start(base)
    assert c.press(ticks_add(base, 1000))
    assert c.remaining(1, ticks_add(base, 2999)) == 18001
    assert c.remaining(1, ticks_add(base, 3001)) == 17999
    assert c.remaining(0, ticks_add(base, 3001)) == 21000
    c.pause(ticks_add(base, 2000))  # paused before the wrap, resumed after it
    c.resume(ticks_add(base, 9000))
    assert c.remaining(1, ticks_add(base, 10000)) == 18000
    assert poll_every(c, 9000, 30000, base=base) == [(18000, BEEP), (23000, BEEP),
                                                      (28000, EXPIRED)]
    c.play_on(ticks_add(base, 30000))
    assert c.press(ticks_add(base, 30000)) and c.current == 0


def test_a_per_turn_clock_across_the_ticks_wrap():
    base = ticks_add(0, -4000)
    c = ChessClock(2, 12000, 0, per_turn=True, warn=WARN)
    c.start(base, 1)
    assert c.press(ticks_add(base, 3000))  # player 0's turn starts 1 s before the wrap
    assert c.remaining(0, ticks_add(base, 3999)) == 11001
    assert c.remaining(0, ticks_add(base, 4001)) == 10999
    assert poll_every(c, 3000, 16000, base=base) == [(5000, BEEP), (10000, BEEP),
                                                      (15000, EXPIRED)]

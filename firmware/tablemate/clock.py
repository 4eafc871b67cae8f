"""Game clocks fed with ``now``: a per-turn countdown and a chess clock built from countdowns.

Nothing here reads a clock, so tests drive time exactly and the same code serves every game screen.
A running clock keeps only the ticks at which it started and the time it had then; everything else
is computed with ``ticks_diff``, so the 2**30 wrap does no harm, and a stopped clock holds plain
milliseconds. ``poll`` derives its events from the remaining time rather than from the time between
polls: a late poll coalesces low-time beeps but never loses the expiry. A clock stops itself when
it expires (so a long-forgotten expired clock cannot wrap back to life). Saved state is a small
JSON-able dict; a restored clock is always stopped, so a power cut costs no one any time.
``from_dict`` checks what it reads (a file on flash may be damaged): ValueError, never a clock
that breaks later. ``first_player`` says who starts each game of a chess-clock session.
``Autosave`` says when a running clock is written again: what a power cut may take back of a
player's time is bounded by it, the chess clock's and the game modes' alike.
"""

from micropython import const
from tablemate import ticks_diff

BEEP = const(1)
EXPIRED = const(2)

WARN = (5, 4, 3, 2, 1)  # the low-time beeps: seconds left, the most first

RANDOM = const(2)  # ``first_player``: a drawn starter (0 and 1 are the left and right player)

_IDLE = const(0)
_RUN = const(1)
_PAUSE = const(2)
_FLAG = const(3)
_MAX_MS = const(0x1FFFFFFF)  # 6 days: any saved time above is damage (and ticks_diff's range)
SAVE_MS = const(10000)  # while a player thinks, the most of their time a power cut takes back


def first_player(first, alternate, previous, draw):
    """Who starts a new game: 0 (left) or 1 (right).

    ``first`` is the setup's choice (0, 1 or RANDOM); ``alternate``: each game after the first
    starts with the other player than the game before (``previous``, -1 for a session's first
    game), so a rematch swaps; ``draw()`` returns a random 0 or 1 and is only called when the
    choice is RANDOM and no alternation decides (the caller saves the result: drawn once).
    """
    if alternate and previous >= 0:
        return 1 - previous
    if first == RANDOM:
        return draw() & 1
    return first


def _checked(value, lo, hi):
    """``value`` if it is an int (not a bool) in lo..hi, else ValueError."""
    if type(value) is not int or not lo <= value <= hi:
        raise ValueError("clock data")
    return value


def fmt(ms, tenths=False):
    """'m:ss', 'h:mm:ss' from an hour, or 's.t' under 10 s if ``tenths``; rounds up, as clocks do."""
    if ms < 0:
        ms = 0
    t = (ms + 99) // 100
    if tenths and t < 100:
        return "%d.%d" % (t // 10, t % 10)
    s = (ms + 999) // 1000
    if s >= 3600:
        return "%d:%02d:%02d" % (s // 3600, s // 60 % 60, s % 60)
    return "%d:%02d" % (s // 60, s % 60)


def change_in(ms, tenths_below=0):
    """Milliseconds until a running clock with ``ms`` left shows another figure (whole seconds
    rounded up, tenths under ``tenths_below``), when a low-time beep or the expiry comes too:
    the deadline a clock's screen gives the main loop (``Screen.due``)."""
    if ms <= 0:
        return 0
    step = 100 if ms < tenths_below else 1000
    d = (ms - 1) % step + 1
    if ms >= tenths_below > ms - d:  # the figure turns to tenths before the next second
        d = ms - tenths_below + 1
    return d


class Autosave:
    """When a running clock is written again: ``SAVE_MS`` after its latest write (a write at
    every turn, start and pause does not wait for it), so that a power cut takes back at most
    that much of the thinking player's time; the others' is exact, their clocks stood still.

    The chess clock (its file) and The Perfect Moment (its clocks between two actions) both
    keep their clocks by it: a screen calls ``wrote`` at each write, has the write done when
    ``due`` says 0 in its ``tick``, and sleeps no longer than ``due`` (``Screen.due``)."""

    def __init__(self, now):
        self.at = now

    def wrote(self, now):
        """The clock was written at ``now`` (or tried: a failed write is tried again
        ``SAVE_MS`` later, not at every pass)."""
        self.at = now

    def due(self, clock, now):
        """Milliseconds from ``now`` until the ``clock`` (a ``ChessClock``) must be written
        again, 0 when it must be now; None while it does not run."""
        if not clock.running:
            return None
        ms = SAVE_MS - ticks_diff(now, self.at)
        return ms if ms > 0 else 0


class Countdown:
    """A timer counting down from ``duration_ms``, with low-time beeps at ``warn`` (seconds
    left, the most first) and one expiry event."""

    def __init__(self, duration_ms, warn=WARN):
        self.duration = duration_ms
        self.warn = warn
        self.running = False
        self._left = duration_ms  # ms left at _t0 (while running) or now (while stopped)
        self._t0 = 0
        self._last = 0  # latest now seen, for stop() without a time
        self._beep = 0  # the next whole second to beep at; 0 = none due
        self._told = False  # EXPIRED has been returned
        self._arm()

    def _arm(self):
        # Beep only at seconds strictly below the time left now: no beep at the start of a 5 s turn.
        self._beep = self._under((self._left - 1) // 1000) if self._left > 0 else 0

    def _under(self, s):
        """The first warning at ``s`` seconds or fewer, 0 for none."""
        for w in self.warn:
            if w <= s:
                return w
        return 0

    def start(self, now):
        """Start or continue counting down from the time left; does nothing once expired."""
        self._last = now
        if not self.running and self._left > 0:
            self._t0 = now
            self.running = True
            self._arm()

    def stop(self, now=None):
        """Freeze the time left at ``now`` (or at the latest time this timer was given)."""
        if self.running:
            self._left = self.remaining(self._last if now is None else now)
            self.running = False

    def reset(self, now):
        """Back to the full duration; keeps running (from ``now``) if it was running."""
        self._left = self.duration
        self._t0 = now
        self._last = now
        self._told = False
        self._arm()

    def add(self, ms):
        """Give ``ms`` more time (a Fischer increment); re-arms the low-time beeps (and the
        expiry, for a clock that had run out and plays on)."""
        self._left += ms
        if self._left > 0:
            self._told = False
        self._arm()

    def remaining(self, now):
        """Milliseconds left at ``now``, never below 0."""
        if not self.running:
            return self._left
        left = self._left - ticks_diff(now, self._t0)
        return left if left > 0 else 0

    def poll(self, now):
        """Return BEEP, EXPIRED or 0 for what happened up to ``now``; call it every tick."""
        self._last = now
        left = self.remaining(now)
        if left == 0:
            if self.running:
                self._left = 0
                self.running = False
            if self._told:
                return 0
            self._told = True
            return EXPIRED
        if self.running and self._beep and left <= self._beep * 1000:
            self._beep = self._under((left + 999) // 1000 - 1)  # skip those a late poll passed
            return BEEP
        return 0

    def to_dict(self, now):
        """Plain data for saving; the restored timer is stopped at the time left at ``now``."""
        return {"dur": self.duration, "left": self.remaining(now), "told": self._told}

    @classmethod
    def from_dict(cls, d, now, warn=WARN):
        """Rebuild a stopped timer from ``to_dict`` data; ``now`` is its current time.

        ValueError (or KeyError, TypeError) when ``d`` is not such data."""
        c = cls(_checked(d["dur"], 0, _MAX_MS), warn)
        c._left = _checked(d["left"], 0, _MAX_MS)
        if d["told"] is not True and d["told"] is not False:
            raise ValueError("clock data")
        c._told = d["told"]
        c._last = now
        c._arm()
        return c


class ChessClock:
    """One countdown per player; only the player to move loses time, with optional increment.

    ``per_turn``: each turn starts from ``base_ms`` (a countdown per turn, not a time bank).
    ``warn``: the low-time beeps (seconds left). After a player's time ran out, ``play_on``
    lets the game go on with their clock at zero (it does not flag them again)."""

    def __init__(self, players=2, base_ms=300000, increment_ms=0, per_turn=False, warn=WARN):
        self.base = base_ms
        self.increment = increment_ms
        self.per_turn = per_turn
        self.current = 0
        self.moves = 0
        self._flag = -1
        self._state = _IDLE
        self._late = []  # the players who play on at zero
        self._cd = [Countdown(base_ms, warn) for _ in range(players)]

    @property
    def players(self):
        """Number of players."""
        return len(self._cd)

    @property
    def running(self):
        """True while someone's time is running."""
        return self._state == _RUN

    @property
    def idle(self):
        """True until ``start``: nobody's time has run yet."""
        return self._state == _IDLE

    @property
    def paused(self):
        """True between ``pause`` (or ``from_dict`` of a running game) and ``resume``."""
        return self._state == _PAUSE

    def start(self, now, player=0):
        """Start a new clock with ``player`` to move; ignored once started."""
        if self._state == _IDLE:
            self.current = player
            self._state = _RUN
            self._cd[player].start(now)

    def press(self, now):
        """The player to move ends the turn; returns False if ignored (not running, or flagged)."""
        if self._state != _RUN or self.flagged(now) >= 0:
            return False
        cd = self._cd[self.current]
        cd.stop(now)
        cd.add(self.increment)
        self.moves += 1
        self.current = (self.current + 1) % len(self._cd)
        cd = self._cd[self.current]
        if self.per_turn:
            cd.reset(now)
        if self.current in self._late and cd.remaining(now) > 0:
            self._late.remove(self.current)  # time again: it can run out again
        cd.start(now)
        return True

    def play_on(self, now):
        """After a flag: the game goes on, the flagged player's clock at zero (their next
        turns start at zero plus the increment, or from the turn's full time per turn)."""
        if self._state == _FLAG:
            self._late.append(self._flag)
            self._cd[self._flag]._told = True  # its expiry is told: not again at zero
            self._flag = -1
            self._state = _RUN

    def set_times(self, times, now):
        """Each player's time left (a saved game's); the clock stays as it is (idle or paused).
        A player at zero had run out and plays on: not flagged, nor told, again."""
        for i in range(len(self._cd)):
            cd = self._cd[i]
            cd.stop(now)
            cd._left = times[i]
            cd._told = times[i] == 0
            cd._arm()
        self._late = [i for i in range(len(self._cd)) if times[i] == 0]

    def pause(self, now):
        """Stop the running time (for everyone) until ``resume``."""
        if self._state == _RUN and self.flagged(now) < 0:
            self._cd[self.current].stop(now)
            self._state = _PAUSE

    def resume(self, now):
        """Continue after ``pause`` (or after ``from_dict``)."""
        if self._state == _PAUSE:
            self._state = _RUN
            self._cd[self.current].start(now)

    def remaining(self, i, now):
        """Milliseconds left for player ``i`` at ``now``."""
        return self._cd[i].remaining(now)

    def flagged(self, now):
        """Index of the player whose time ran out (all time then stops), else -1."""
        if (self._state == _RUN and self._cd[self.current].remaining(now) == 0
                and self.current not in self._late):
            self._cd[self.current].stop(now)
            self._flag = self.current
            self._state = _FLAG
        return self._flag

    def poll(self, now):
        """BEEP at the warnings of the player to move, EXPIRED once when they flag, else 0."""
        if self._state == _RUN:
            self.flagged(now)
        if self._state == _RUN or self._state == _FLAG:
            return self._cd[self.current].poll(now)
        return 0

    def to_dict(self, now):
        """Plain data for saving with a game; a running clock is saved as paused at ``now``."""
        self.flagged(now)
        return {
            "base": self.base,
            "inc": self.increment,
            "cur": self.current,
            "moves": self.moves,
            "flag": self._flag,
            "state": _PAUSE if self._state == _RUN else self._state,
            "cds": [cd.to_dict(now) for cd in self._cd],
        }

    @classmethod
    def from_dict(cls, d, now):
        """Rebuild a clock from ``to_dict`` data; a game in progress comes back paused.

        Everything is checked, so a damaged file raises here (ValueError, or KeyError and
        TypeError for missing or mistyped parts) instead of breaking the screen later."""
        cds = d["cds"]
        if type(cds) is not list or not cds:
            raise ValueError("clock data")
        n = len(cds)
        c = cls(n, _checked(d["base"], 1, _MAX_MS), _checked(d["inc"], 0, _MAX_MS))
        c._cd = [Countdown.from_dict(x, now) for x in cds]
        c.current = _checked(d["cur"], 0, n - 1)
        c.moves = _checked(d["moves"], 0, _MAX_MS)
        c._flag = _checked(d["flag"], -1, n - 1)
        state = _checked(d["state"], _IDLE, _FLAG)
        if (state == _FLAG) != (c._flag >= 0):
            raise ValueError("clock data")
        c._state = _PAUSE if state == _RUN else state  # never saved running; stopped if it was
        return c

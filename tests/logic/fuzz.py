"""A seeded key fuzzer for the real app on both VMs: raw pin levels in, invariants checked always.

The app is the firmware's own ``App`` with a real SSD1306 driver on a byte-counting bus, as in
``rig.py`` (with fakes that keep nothing, for long runs). Its input is ``FuzzInput``, which
drives fake pull-up pins through the firmware's own input classes (``hw.peripherals.ButtonInput`` for the
button layouts, ``hw.encoder.EncoderInput`` for the knob). So the key machine's debounce, long
press, auto-repeat and wake-up swallowing, and the encoder's quadrature table and interrupt
counters, are all in the path of every press.

What the fuzzer does, drawn from its own seeded xorshift (never ``random``, which the firmware
uses and which the fuzzer seeds so that a run repeats exactly):
- gestures on the layout's lines: taps (some shorter than the 30 ms debounce window), long
  presses, held keys (auto-repeat), chords of two keys, and on the encoder layout turns of
  1-20 detents, slow or fast, and wiggles that come back to the detent they left; every edge
  chatters up to 8 times, 1 ms apart;
- idle gaps, now and then long enough to dim the screen or switch it off;
- now and then a macro: go home, pick a mode (or a page) in the home menu and start it with the
  setup's defaults (or with a few rows changed first), every mode soon and then any; in a game,
  bursts of undos or "End game" through the game menu; in a game a third of the presses are
  OK, which is what plays in most modes, so games get long and some end;
- power cuts between loop passes, some while a key is held through the reboot, and power cuts
  inside the pass that takes a key, after its frame and before its journal lines are written.
The main loop is modelled as on the Pico (``boot.py``): a pass every 10 ms, or 1 ms after a
pin edge ends the nap; a pass takes 1 ms, now and then 20-60 ms (a flash write, a collection).
The clock starts a minute before ``ticks_ms`` wraps.

Invariants, checked after every gesture or macro (``FuzzFailure`` says which broke, with the seed
and the last gestures):
- no exception reaches the app's error net (no ErrorScreen), the screen stack is never empty
  (``known`` lists the texts of failures already reported: those are counted and the run goes
  on, so that a long run finds the next bug instead of the same one again);
- the journal replays to the live game: ``Game.resume`` of the journal file gives the state and
  action count the app holds in ``app.game``, with nothing left unsaved and no damage reported;
- a power cut and a reboot (a new App on the same files) offer "Resume game?", and OK brings back
  the state the journal held at the cut (a game that had ended and was filed is cleared instead);
- Home is always reachable: at most ``ESCAPE`` gestures of BACK (a tap, then a long hold when a
  tap changed nothing) or "Home" in a menu that has it (the game menus) reach the home menu.

``Fuzzer(root, layout, seed).run(presses)`` runs until ``presses`` physical presses were made (a
key pressed, a turn of the knob however many detents, a wiggle: one each; a chord two) and can
be called again to go on; ``stats`` has the figures.
``tools/fuzz.py`` is the long run; ``tests/logic/test_fuzz.py`` the short one.
"""

import os

from rig import FakeProbe
from tablemate import keys as K
from tablemate import lifecycle, modes, ticks_add, ticks_diff
from tablemate.store.files import exists

LAYOUTS = ("six", "five", "three", "encoder")
ESCAPE = 40  # gestures allowed to reach the home menu from anywhere
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal")
_START = -60000  # the clock starts a minute before ticks_ms wraps
_REST = ((0, 1), (0, 0), (1, 0), (1, 1))  # (A, B) through a clockwise detent from rest


class FuzzFailure(AssertionError):
    """An invariant broke: the message has the seed, the gesture count and the last gestures."""


class Xorshift:
    """Marsaglia's xorshift32: the same numbers on both VMs."""

    def __init__(self, seed):
        x = (seed * 2654435761 + 0x9E3779B9) & 0xFFFFFFFF
        self.x = x or 1

    def next(self):
        x = self.x
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.x = x
        return x

    def below(self, n):
        """A number in range(n)."""
        return self.next() % n

    def between(self, lo, hi):
        """A number in lo..hi, both included."""
        return lo + self.next() % (hi - lo + 1)

    def chance(self, per_mille):
        return self.next() % 1000 < per_mille


# -- the hardware side -------------------------------------------------------------------------
class NullI2C:
    """Takes the driver's bytes and counts them (the rig's checksum is not needed here)."""

    def __init__(self):
        self.bytes = 0

    def writeto(self, addr, buf, stop=True):
        self.bytes += len(buf)

    def writevto(self, addr, vector, stop=True):
        for buf in vector:
            self.bytes += len(buf)

    def scan(self):
        return [0x3C]


class NullPWM:
    """A buzzer's PWM that keeps nothing (a long run beeps a lot)."""

    def freq(self, f=None):
        return 0

    def duty_u16(self, d=None):
        return 0


class Pin:
    """A pull-up input (1 = open contact) that calls its interrupt handler on every change."""

    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self):
        self.level = 1
        self.handler = None

    def value(self):
        return self.level

    def irq(self, handler=None, trigger=0, hard=False):
        self.handler = handler

    def set(self, level):
        if level != self.level:
            self.level = level
            if self.handler is not None:
                self.handler(self)


class Board:
    """The physical gadget: the layout's pins and the level changes scheduled on them.

    Button layouts: one pin per line of ``keys.LAYOUTS[layout]``. Encoder: A, B, then the push
    switch. It outlives the App across a power cut, as the buttons do.
    """

    def __init__(self, layout):
        self.layout = layout
        n = 3 if layout == "encoder" else len(K.LAYOUTS[layout])
        self.pins = [Pin() for _ in range(n)]
        self.events = []  # [time, pin, level], in time order
        self.edges = 0

    def at(self, t, i, level):
        """Schedule pin ``i`` to go to ``level`` at ``t`` (after anything already due then)."""
        ev = self.events
        j = len(ev)
        while j and ticks_diff(ev[j - 1][0], t) > 0:
            j -= 1
        ev.insert(j, (t, i, level))

    def edge(self, t, i, level, bounces):
        """A contact closing (level 0) or opening at ``t``: ``bounces`` chatter transitions 1 ms
        apart, then ``level`` for good. Returns when it has settled."""
        for j in range(bounces):
            self.at(ticks_add(t, j), i, level if j % 2 == 0 else 1 - level)
        end = ticks_add(t, bounces)
        self.at(end, i, level)
        return end

    def next_at(self):
        return self.events[0][0] if self.events else None

    def advance(self, now):
        """Apply every change due by ``now``, in order (each one fires the pin's interrupt)."""
        ev = self.events
        pins = self.pins
        while ev and ticks_diff(ev[0][0], now) <= 0:
            t, i, level = ev.pop(0)
            if pins[i].level != level:
                self.edges += 1
            pins[i].set(level)

    def drop(self):
        """Forget what is scheduled (a power cut: the hand stops)."""
        self.events = []


class _Cut(BaseException):
    """The power goes in the middle of a pass (not an Exception: the app's net lets it by)."""


class _Later:
    """The app's after-frame queue, on which the power goes before the first job of a pass
    that came after key event ``keys`` (``App.tick`` runs ``while later: later.pop(0)()``)."""

    def __init__(self, jobs, keys):
        self.jobs = list(jobs)
        self.app_keys = keys
        self.app = None

    def append(self, fn):
        self.jobs.append(fn)

    def __len__(self):
        return len(self.jobs)

    def pop(self, i):
        if self.app is not None and self.app.keys > self.app_keys:
            raise _Cut()
        return self.jobs.pop(i)


class FuzzInput:
    """The app's input for the fuzzer's board: the firmware's own input class on fake pins."""

    def __init__(self, board):
        from tablemate.hw.encoder import EncoderInput
        from tablemate.hw.peripherals import ButtonInput
        from tablemate.knob import Encoder
        self.board = board
        self.layout = board.layout
        pins = board.pins
        if board.layout == "encoder":
            self.inner = EncoderInput(pins[0], pins[1], pins[2], Encoder(), K.Keys("encoder"))
        else:
            self.inner = ButtonInput(pins, K.Keys(board.layout))

    @property
    def woken(self):
        return self.inner.woken

    def due(self, now):
        return self.inner.due(now)

    def poll(self, now, emit):
        self.board.advance(now)
        self.inner.poll(now, emit)

    def close(self):
        self.inner.close()


def _trace_text(exc):
    try:
        import io
        import sys
        out = io.StringIO()
        sys.print_exception(exc, out)
        return out.getvalue()
    except Exception:
        return repr(exc)


# -- the fuzzer --------------------------------------------------------------------------------
class Fuzzer:
    """The real app on ``root``'s files, one layout, one seed."""

    def __init__(self, root, layout, seed, checks=True, journal_every=1, known=()):
        if layout not in LAYOUTS:
            raise ValueError("layout")
        try:  # the firmware's own draws (first player, game ids): the same on every run
            import random
            random.seed(seed)
        except (ImportError, AttributeError):
            pass
        self.root = root
        self.layout = layout
        self.seed = seed
        self.rng = Xorshift(seed)
        self.board = Board(layout)
        self.checks = checks
        self.journal_every = journal_every
        self.known = known  # texts of failures already reported: counted, not raised
        self.okback = K.BACK not in K.LAYOUTS[layout]
        self.now = ticks_add(0, _START)
        self.trace = []  # the last gestures, for the failure report
        self.gesture = 0
        self.stats = {"presses": 0, "gestures": 0, "key_events": 0, "edges": 0, "ms": 0,
                      "started": {}, "macros": 0, "pages": {}, "journal_checks": 0,
                      "power_cuts": 0, "resumes_checked": 0, "held_through_cut": 0,
                      "home_checks": 0, "longest_escape": 0, "dims": 0, "offs": 0,
                      "i2c_bytes": 0, "screens": {}, "most_actions": 0, "known": {},
                      "undos": 0, "ended": 0, "detents": 0,
                      "cuts_in_a_pass": 0}
        self._game_id = None
        self._failure = None
        self._due = None  # when the app said, after the last pass, that the next one is due
        try:
            os.mkdir(root + "/data")
        except OSError:
            pass
        with open(root + "/data/settings.json", "w") as f:
            f.write('{"names": [%s]}' % ", ".join('"%s"' % n for n in NAMES))
        self.app = None
        self._boot()
        self.loop(200)

    # -- the app ---------------------------------------------------------------------------
    def _boot(self):
        from tablemate.app import App
        from tablemate.hw.peripherals import Buzzer
        from tablemate.hw.ssd1306 import SSD1306
        if self.app is not None:
            self.stats["key_events"] += self.app.keys
            self.stats["i2c_bytes"] += self.i2c.bytes
        self.i2c = NullI2C()
        board = self.board

        def input_for(layout):
            assert layout == board.layout, layout
            return FuzzInput(board)
        app = App(SSD1306(self.i2c), input_for, self.root, Buzzer(NullPWM()), FakeProbe(),
                  layouts=(self.layout,))
        net = app.fail

        def fail(exc):  # the error net: remember what reached it, then let it do its job
            if self._failure is None:
                self._failure = (exc, _trace_text(exc))
            net(exc)
        app.fail = fail
        self.app = app
        self._due = None
        app.start(self.now)

    def _tick(self):
        app = self.app
        app.tick(self.now)
        if self._failure is not None:
            exc, text = self._failure
            self._failure = None
            for k in self.known:
                if k in str(exc) or k == type(exc).__name__:
                    counts = self.stats["known"]
                    counts[k] = counts.get(k, 0) + 1
                    self.note("known failure: %s" % k)
                    return
            self.fail("the error net caught %s: %s\n%s" % (type(exc).__name__, exc, text))
        if not app.stack:
            self.fail("the screen stack is empty")

    def step(self):
        """One pass of the main loop at ``now``, then the nap until the next one; the pass is
        checked against the previous one's promise (``_kept``)."""
        app = self.app
        before = (app, app.keys, self.board.edges, self.i2c.bytes, app.top(), len(app.stack),
                  app._idle)
        self._tick()
        self._kept(before)
        self._due = ticks_add(self.now, self.app.due(self.now, 1000))
        rng = self.rng
        now = self.now
        done = ticks_add(now, rng.between(20, 60) if rng.chance(15) else 1)
        nxt = self.board.next_at()
        if nxt is not None and ticks_diff(nxt, now) > 0 and ticks_diff(nxt, done) <= 0:
            self.now = done  # an edge during the pass: no nap at all
        elif nxt is not None and ticks_diff(nxt, done) > 0 and ticks_diff(nxt, done) < 10:
            self.now = ticks_add(nxt, 1)  # the 1 ms nap in which the edge came ends
        else:
            self.now = ticks_add(done, 10)

    def _kept(self, before):
        """The Pico sleeps from a pass until the app's due time (``App.due``) unless an edge
        wakes it: a pass before then that changed the screen, its stack or the dimming without
        a key (or an edge) is something the sleeping loop would have done late."""
        app = self.app
        due = self._due
        self._due = None
        if (due is None or ticks_diff(due, self.now) <= 0 or before[0] is not app
                or before[1] != app.keys or before[2] != self.board.edges):
            return
        after = (self.i2c.bytes, app.top(), len(app.stack), app._idle)
        changed = [what for what, a, b in zip(("frame", "top screen", "stack", "dimming"),
                                              after, before[3:]) if a != b]
        if changed:
            self.fail("a pass %d ms before the due time changed the %s on %s" % (
                ticks_diff(due, self.now), ", ".join(changed), type(before[4]).__name__))

    def loop(self, ms):
        """Run the loop for ``ms`` (and until nothing is scheduled any more)."""
        end = ticks_add(self.now, ms)
        while ticks_diff(end, self.now) > 0 or self.board.events:
            self.step()

    def nap(self, ms):
        """An idle gap: 10 ms passes for a second, then passes 250 ms apart (a late loop: the
        app only sees time jump, which it must take anyway)."""
        end = ticks_add(self.now, ms)
        self.loop(min(ms, 1000))
        self._due = None
        while ticks_diff(end, self.now) > 0:
            self.now = ticks_add(self.now, min(250, ticks_diff(end, self.now)))
            self._tick()
        self.loop(20)

    def fail(self, what):
        lines = ["%s (layout %s, seed %d, gesture %d, t=%d)" % (what, self.layout, self.seed,
                                                                self.gesture, self.now),
                 "screens: %s" % self.screens(), "last gestures:"]
        lines += self.trace
        raise FuzzFailure("\n".join(lines))

    def screens(self):
        return " > ".join(type(s).__name__ for s in self.app.stack)

    def note(self, what):
        self.trace.append("%d t=%d %s [%s]" % (self.gesture, self.now, what, self.screens()))
        if len(self.trace) > 40:
            self.trace.pop(0)

    # -- physical gestures ------------------------------------------------------------------
    def _bounces(self):
        r = self.rng.below(10)
        return 0 if r < 4 else self.rng.between(1, 8)

    def hold(self, i, at, ms):
        """Pin ``i`` closed at ``at`` for ``ms`` (its edges chatter); returns the release time."""
        b = self.board
        settled = b.edge(at, i, 0, self._bounces())
        up = ticks_add(settled, max(ms, 1))
        b.edge(up, i, 1, self._bounces())
        self.stats["presses"] += 1
        return up

    def line_of(self, key):
        """The pin of ``key`` on this layout (None: the layout lacks it)."""
        if self.layout == "encoder":
            return 2 if key == K.OK else None
        keys = K.LAYOUTS[self.layout]
        for i in range(len(keys)):
            if keys[i] == key:
                return i
        return None

    def turn(self, detents, quarter_ms, bounce=True):
        """Turn the knob ``detents`` (negative: anticlockwise), a quarter step every
        ``quarter_ms``; each edge chatters (at most quarter_ms - 1 times)."""
        b = self.board
        t = ticks_add(self.now, 1)
        seq = _REST if detents > 0 else ((1, 0), (0, 0), (0, 1), (1, 1))
        a = 1  # line A's level (B's is the step's other level: one line changes a step)
        for _ in range(abs(detents)):
            for na, nb in seq:
                i, level = (0, na) if na != a else (1, nb)
                k = min(self._bounces(), quarter_ms - 1) if bounce else 0
                b.edge(t, i, level, k)
                a = na
                t = ticks_add(t, quarter_ms)
            self.stats["detents"] += 1
        self.stats["presses"] += 1
        return t

    def wiggle(self):
        """Turn part of a detent and come back: no detent at all."""
        b = self.board
        t = ticks_add(self.now, 1)
        cw = self.rng.below(2)
        steps = self.rng.between(1, 3)
        seq = _REST if cw else ((1, 0), (0, 0), (0, 1), (1, 1))
        path = list(seq[:steps])
        back = list(reversed(seq[:steps - 1])) + [(1, 1)]
        a = 1
        for na, nb in path + back:
            i, level = (0, na) if na != a else (1, nb)
            b.edge(t, i, level, min(self._bounces(), 4))
            a = na
            t = ticks_add(t, self.rng.between(5, 30))
        self.stats["presses"] += 1
        return t

    # -- logical keys, as a player presses them -----------------------------------------------
    def tap(self, key):
        """Press ``key`` once, deliberately, and let the app take it; on a turned picture the
        player presses the arrow that means ``key`` as they read it (UP<->DOWN, LEFT<->RIGHT
        but where they are minus and plus: ``Screen.plus_minus``)."""
        if self.app.display.turned and key <= K.RIGHT and not K.linear(self.layout) and (
                key <= K.DOWN or not self.top().plus_minus):
            key = ((key - 1) ^ 1) + 1
        if self.layout == "encoder" and (key == K.UP or key == K.DOWN):
            self.turn(1 if key == K.DOWN else -1, 12, bounce=True)
        elif key == K.BACK and self.okback:
            self.hold(self.line_of(K.OK), ticks_add(self.now, 1), self.rng.between(800, 1000))
        else:
            i = self.line_of(key)
            if i is None:
                return False
            # 70 ms or more: a press shorter than a slow pass (up to 60 ms here) is never seen
            # (the buttons are sampled by the loop, not latched), and this one must be
            self.hold(i, ticks_add(self.now, 1), self.rng.between(70, 200))
        self.loop(self.rng.between(60, 150))
        return True

    def long_back(self):
        """Hold BACK (or OK where long OK is BACK) for 3 s: leaves even the self-test key page."""
        i = self.line_of(K.OK if self.okback else K.BACK)
        self.hold(i, ticks_add(self.now, 1), 3200 if self.okback else 2500)
        self.loop(100)

    def awake(self):
        """Wake a dimmed or dark screen with a key (a dimmed one also takes it: UP, or OK)."""
        if getattr(self.app, "_idle", 0):
            self.tap(K.OK if self.layout == "encoder" else K.LAYOUTS[self.layout][0])

    # -- the invariants -------------------------------------------------------------------------
    def top(self):
        return self.app.top()

    def at_home(self):
        stack = self.app.stack
        return len(stack) == 1 and type(stack[0]).__name__ == "Home"

    def go_home(self):
        """Reach the home menu within ESCAPE gestures, or fail: BACK, then a long BACK when a
        BACK changed nothing, and "Home" wherever a menu offers it, confirmed when it asks
        (a paused chess clock)."""
        self.stats["home_checks"] += 1
        stuck = False
        homed = False
        for n in range(ESCAPE + 1):
            if self.at_home():
                if n > self.stats["longest_escape"]:
                    self.stats["longest_escape"] = n
                return
            if n == ESCAPE:
                break
            self.awake()
            top = self.top()
            depth = len(self.app.stack)
            items = getattr(top, "items", None)
            if homed and type(top).__name__ == "Confirm":
                self.tap(K.OK)  # Yes: the question opens on it
            elif isinstance(items, list) and "Home" in items:
                self.choose(items.index("Home"))
            elif stuck:
                self.long_back()
            else:
                self.tap(K.BACK)
            homed = isinstance(items, list) and "Home" in items
            stuck = self.top() is top and len(self.app.stack) == depth
        self.fail("Home not reached in %d gestures" % ESCAPE)

    def check_journal(self):
        """The journal file replays to the game the app holds."""
        game = self.app.game
        if game is None:
            return
        from tablemate.store.game import Game
        if game.unsaved:
            self.fail("%d journal lines still unsaved after a pass" % game.unsaved)
        g, problem = Game.resume(lifecycle.rules, modes.game_path(self.app))
        if g is None or problem is not None:
            self.fail("the journal does not load: %r" % (problem,))
        if g.count != game.count or g.state != game.state:
            self.fail("the journal replays to another game: %d actions %r, live %d actions %r"
                      % (g.count, g.state, game.count, game.state))
        self.stats["journal_checks"] += 1

    def _count_games(self):
        game = self.app.game
        if game is not None and game.id != self._game_id:
            self._game_id = game.id
            if game.count == 0 or game.id is None:
                from tablemate import lifecycle
                name = lifecycle.name_of(game)
                started = self.stats["started"]
                started[name] = started.get(name, 0) + 1

    def checked(self):
        """After a gesture: the invariants that hold between any two."""
        self._count_games()
        seen = self.stats["screens"]
        name = type(self.top()).__name__
        seen[name] = seen.get(name, 0) + 1
        game = self.app.game
        if game is not None and game.count > self.stats["most_actions"]:
            self.stats["most_actions"] = game.count
        if self.checks and self.gesture % self.journal_every == 0:
            self.check_journal()

    # -- menus -----------------------------------------------------------------------------------
    def choose(self, index):
        """Move the top menu's cursor to ``index`` with UP/DOWN and press OK; False if the
        menu went away on the way."""
        menu = self.top()
        for _ in range(2 * len(menu.items) + 2):
            if self.top() is not menu:
                return False
            if menu.index == index:
                self.tap(K.OK)
                return True
            n = len(menu.items)
            down = (index - menu.index) % n
            self.awake()
            self.tap(K.DOWN if down <= n - down else K.UP)
        return False

    def start_mode(self):
        """From the home menu: a game mode with the setup's defaults (mostly), or a page."""
        self.stats["macros"] += 1
        self.go_home()
        rng = self.rng
        home = self.top()
        items = home.items
        pages = self.stats["pages"]
        r = rng.below(100)
        if r < 70:  # a mode: the first not tried yet, else any
            label = None
            for m in modes.MODES:
                if m["label"] not in pages:
                    label = m["label"]
                    break
            label = label or modes.MODES[rng.below(len(modes.MODES))]["label"]
        elif r < 78:
            label = "Chess clock"
        elif r < 85 and items[0].startswith("Continue"):
            label = items[0]
        else:
            label = ("Settings", "History", "Self-test", "About")[rng.below(4)]
        self.note("macro: " + label)
        pages[label] = pages.get(label, 0) + 1
        if not self.choose(items.index(label)):
            return
        if type(self.top()).__name__ == "Setup":
            if rng.chance(400):  # options or the player count changed first
                self.setup_options()
            if type(self.top()).__name__ == "Setup":
                self.choose(len(self.top().items) - 1)  # Start
                if type(self.top()).__name__ == "Confirm" and rng.chance(900):
                    self.tap(K.OK)  # replace the saved game
        self.loop(50)

    def setup_options(self):
        """In a setup menu: 1-4 rows changed, by OK on the row (a flag or a choice moves on, a
        number or the names open their editor, where a few random keys go before leaving it)
        or, with LEFT/RIGHT, in place."""
        rng = self.rng
        for _ in range(rng.between(1, 4)):
            menu = self.top()
            if type(menu).__name__ != "Setup":
                return
            row = rng.below(len(menu.items) - 1)  # not Start
            self.note("setup row %d" % row)
            if self.line_of(K.LEFT) is not None and rng.below(2):
                if not self.choose_only(row):
                    return
                for _ in range(rng.between(1, 3)):
                    self.tap(K.LEFT if rng.below(2) else K.RIGHT)
                continue
            self.choose(row)
            for _ in range(rng.between(0, 3)):
                if type(self.top()).__name__ == "Setup":
                    break
                i = 2 if self.layout == "encoder" else rng.below(len(self.board.pins))
                self.hold(i, ticks_add(self.now, 1), rng.between(40, 300))
                self.loop(100)
            self.go_back_to("Setup")

    def choose_only(self, index):
        """Move the top menu's cursor to ``index`` (no OK); False if the menu went away."""
        menu = self.top()
        for _ in range(2 * len(menu.items) + 2):
            if self.top() is not menu:
                return False
            if menu.index == index:
                return True
            n = len(menu.items)
            down = (index - menu.index) % n
            self.tap(K.DOWN if down <= n - down else K.UP)
        return False

    def game_menu(self, label):
        """From a game screen: open its menu with BACK and pick ``label`` (False when the top
        is no game screen, or its menu has no such entry)."""
        top = self.top()
        if not (hasattr(top, "game") and hasattr(top, "undo")):
            return False
        self.tap(K.BACK)
        menu = self.top()
        if type(menu).__name__ != "GameMenu" or label not in menu.items:
            return False
        return self.choose(menu.items.index(label))

    def game_macro(self, undo):
        """In a game: a burst of undos through the game menu (back past checkpoints, reopening
        ended games), or "End game" and yes (the standings, the game filed)."""
        self.stats["macros"] += 1
        if undo:
            n = self.rng.between(1, 12)
            self.note("macro: undo x%d" % n)
            for _ in range(n):
                if not self.game_menu("Undo"):
                    break
                self.stats["undos"] += 1
        else:
            self.note("macro: end game")
            if self.game_menu("End game") and type(self.top()).__name__ == "Confirm":
                self.tap(K.OK)
                self.stats["ended"] += 1

    def _untried(self):
        """True while some mode was never picked in the home menu."""
        pages = self.stats["pages"]
        for m in modes.MODES:
            if m["label"] not in pages:
                return True
        return False

    def go_back_to(self, name):
        for _ in range(12):
            if type(self.top()).__name__ == name or self.at_home():
                return
            self.tap(K.BACK)

    # -- power ----------------------------------------------------------------------------------
    def power_cut(self):
        """Cut the power, boot a new App on the same files and check the saved game comes back.

        The cut comes between two loop passes (now and then while a key is held: it stays down
        through the boot), or, half the time, inside the pass that takes a key: after its
        frame, before the work that pass left for after the frame (journal lines, the history,
        the setup's memory). The journal on the file at the cut is what must come back."""
        rng = self.rng
        self.stats["power_cuts"] += 1
        app = self.app
        torn = False
        held = None
        if rng.chance(500):
            torn = self._torn_pass()
        elif rng.chance(400):  # a key goes down, the power goes while it is held
            held = 2 if self.layout == "encoder" else rng.below(len(self.board.pins))
            self.board.edge(ticks_add(self.now, 1), held, 0, self._bounces())
            self.loop(rng.between(5, 900))
            self.stats["held_through_cut"] += 1
        if not torn:
            self.check_journal()
        path = modes.game_path(app)
        expected = None
        if exists(path):
            from tablemate.store.game import Game
            g, problem = Game.resume(lifecycle.rules, path)
            if problem is not None:
                self.fail("the journal at the cut does not load: %s" % problem)
            if g is not None:
                expected = (g.count, g.state)
        ended = modes.ended(app)
        clock = exists(app.path("clock.json"))
        self.note("power cut%s%s%s" % (" in a pass" if torn else "",
                                       " holding pin %d" % held if held is not None else "",
                                       ", game saved" if expected else ""))
        board = self.board
        board.drop()
        for i in range(len(board.pins)):  # what is down comes up, after the boot
            if board.pins[i].level == 0:
                board.edge(ticks_add(self.now, rng.between(20, 800)), i, 1, self._bounces())
        self._boot()
        self._game_id = None
        self.loop(300)
        if expected is None or clock:  # a chess clock in use comes back first
            return
        top = self.top()
        if ended:  # filed already: the boot clears it and says where it went
            if exists(path) or type(top).__name__ != "Notice":
                self.fail("an ended game's journal not cleared at the boot")
            return
        if type(top).__name__ != "Confirm" or not top.lines[0].startswith("Resume game?"):
            self.fail("no \"Resume game?\" after the reboot")
        self.tap(K.OK)
        self.loop(100)
        game = self.app.game
        if game is None or (game.count, game.state) != expected:
            self.fail("the resumed game differs from the journal at the cut: %r, expected %r"
                      % (game and (game.count, game.state), expected))
        self._game_id = game.id
        self.stats["resumes_checked"] += 1

    def _torn_pass(self):
        """Press keys (OK mostly: it is what acts in a game) until a pass after one of them
        has after-frame work, and cut the power in it once its frame is sent: True if that
        came within six presses."""
        app = self.app
        later = _Later(app._later, app.keys)
        later.app = app
        app._later = later
        rng = self.rng
        for _ in range(6):
            if self.layout == "encoder" and rng.below(3) == 0:
                self.turn(1 if rng.below(2) else -1, rng.between(3, 15))
            else:
                i = self.line_of(K.OK) if rng.below(2) else rng.below(len(self.board.pins))
                if self.layout == "encoder":
                    i = 2
                self.hold(i, ticks_add(self.now, 1), rng.between(40, 1000))
            try:
                self.loop(rng.between(50, 300))
            except _Cut:
                self.stats["cuts_in_a_pass"] += 1
                return True
        app._later = later.jobs
        return False

    # -- the run ---------------------------------------------------------------------------------
    def gesture_once(self):
        """One random gesture (or macro), then the checks."""
        rng = self.rng
        self.gesture += 1
        r = rng.below(1000)
        enc = self.layout == "encoder"
        nlines = len(self.board.pins)
        t = ticks_add(self.now, rng.between(1, 5))
        game = self.app.game is not None
        if r < 25 or (r < 60 and not game) or (r < 100 and self._untried()):
            self.start_mode()
        elif r < 40:
            self.note("home")
            self.go_home()
        elif r < 47 or (r < 55 and game):
            self.power_cut()
        elif game and 80 <= r < 100:
            self.game_macro(r < 92)
        elif r < 80:
            ms = rng.between(1000, 8000) if rng.chance(900) else (
                rng.between(30000, 45000) if rng.chance(800) else rng.between(300000, 330000))
            self.note("idle %d ms" % ms)
            self.nap(ms)
            if ms >= 30000:
                self.stats["dims" if ms < 300000 else "offs"] += 1
        elif enc and r < 500:
            detents = rng.between(1, 4) if rng.chance(700) else rng.between(5, 20)
            if rng.below(2):
                detents = -detents
            quarter = rng.between(2, 12) if rng.chance(500) else rng.between(12, 40)
            self.note("turn %d, %d ms a quarter" % (detents, quarter))
            self.turn(detents, quarter)
        elif enc and r < 540:
            self.note("wiggle")
            self.wiggle()
        elif r < 860 or (enc and r < 900):
            i = 2 if enc else rng.below(nlines)
            if not enc and hasattr(self.top(), "game") and rng.below(3) == 0:
                i = self.line_of(K.OK)  # OK is what plays, in most games: longer games
            kind = rng.below(100)
            if kind < 70:
                ms = rng.between(3, 40) if rng.chance(150) else rng.between(40, 400)
            elif kind < 88:
                ms = rng.between(650, 1500)
            else:
                ms = rng.between(1500, 4000)
            self.note("press pin %d for %d ms" % (i, ms))
            self.hold(i, t, ms)
        else:
            if enc:  # push while turning
                ms = rng.between(100, 1500)
                self.note("push and turn, %d ms" % ms)
                self.hold(2, t, ms)
                self.turn(rng.between(1, 3) * (1 if rng.below(2) else -1), 15)
            else:
                i = rng.below(nlines)
                j = (i + rng.between(1, nlines - 1)) % nlines
                a = rng.between(40, 1200)
                lag = rng.between(0, 150)
                b = rng.between(40, 1200)
                self.note("chord pins %d (%d ms) and %d (+%d, %d ms)" % (i, a, j, lag, b))
                self.hold(i, t, a)
                self.hold(j, ticks_add(t, lag), b)
        gap = rng.between(0, 40) if rng.chance(100) else rng.between(40, 400)
        self.loop(gap)
        self.checked()

    def run(self, presses):
        """Go on until ``presses`` more physical presses were made; returns ``stats``."""
        stop = self.stats["presses"] + presses
        t0 = self.now
        while self.stats["presses"] < stop:
            self.gesture_once()
        self.stats["gestures"] = self.gesture
        self.stats["ms"] += ticks_diff(self.now, t0)
        return self.figures()

    def figures(self):
        """The stats with the live app's counters folded in."""
        s = dict(self.stats)
        s["key_events"] += self.app.keys
        s["i2c_bytes"] += self.i2c.bytes
        s["edges"] = self.board.edges
        s["errors_log"] = exists(self.app.path("errors.log"))
        return s

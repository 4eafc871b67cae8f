"""Chess clock for two players, with a Fischer increment and pause.

OK ends the turn of whoever is to move (the only key a three-button build needs); on six buttons
LEFT and RIGHT are each player's own key and only count on that player's turn. BACK pauses and
opens the menu. The clock core is ``tablemate.clock.ChessClock``, shared with the game modes.
"""

from micropython import const

from tablemate import keys as K
from tablemate.clock import BEEP, EXPIRED, ChessClock, fmt
from tablemate.ui import Menu, Screen, text
from tablemate.ui.dialogs import NumberEntry

_TENTHS_BELOW = const(10000)
BEEP_LOW = ((2093, 50),)
BEEP_FLAG = ((880, 700),)
BEEP_PRESS = ((1568, 15),)


def setup(app):
    app.push(Setup(app))


class Setup(Menu):
    """Minutes per player and the increment, then Start."""

    def __init__(self, app):
        Menu.__init__(self, app, "Chess clock", [], self._pick, on_adjust=self._adjust)
        self.minutes = 5
        self.increment = 3
        self._relabel()

    def _relabel(self):
        self.items = ["Minutes: %d" % self.minutes, "Increment: %ds" % self.increment, "Start"]
        self.dirty = True

    def _adjust(self, index, step):
        if index == 0:
            self.minutes = min(180, max(1, self.minutes + step))
        elif index == 1:
            self.increment = min(60, max(0, self.increment + step))
        self._relabel()

    def _pick(self, index):
        app = self.app
        if index == 0:
            app.push(NumberEntry(app, "Minutes each", self.minutes, 1, 180, self._set_minutes))
        elif index == 1:
            app.push(NumberEntry(app, "Increment (s)", self.increment, 0, 60, self._set_increment))
        else:
            app.replace(ClockScreen(app, self.minutes * 60000, self.increment * 1000))

    def _set_minutes(self, value):
        self.minutes = value
        self._relabel()

    def _set_increment(self, value):
        self.increment = value
        self._relabel()


class ClockScreen(Screen):
    """Two big times; the side to move is marked. The first OK starts the left player's time."""

    def __init__(self, app, base_ms, increment_ms):
        Screen.__init__(self, app)
        self.base = base_ms
        self.increment = increment_ms
        self.names = app.settings["names"][:2]
        self.clock = ChessClock(2, base_ms, increment_ms)
        self._shown = [-1, -1]

    @property
    def keep_awake(self):
        return self.clock.running

    def key(self, key, kind):
        if kind != K.PRESS:
            return
        clock = self.clock
        now = self.app.now
        if key == K.BACK:
            if clock.running:
                clock.pause(now)
            self.app.push(ClockMenu(self.app, self))
        elif not clock.moves and not clock.running and not clock.paused:
            if key == K.OK or key == K.LEFT:
                clock.start(now, 0)
        elif clock.paused:
            if key == K.OK:
                clock.resume(now)
        elif key == K.OK or (key == K.LEFT and clock.current == 0) or \
                (key == K.RIGHT and clock.current == 1):
            if clock.press(now):
                self.app.beep(BEEP_PRESS)
        self.dirty = True

    def tick(self, now):
        event = self.clock.poll(now)
        if event == BEEP:
            self.app.beep(BEEP_LOW)
        elif event == EXPIRED:
            self.app.beep(BEEP_FLAG)
            self.dirty = True
        for i in range(2):
            left = self.clock.remaining(i, now)
            shown = (left + 99) // 100 if left < _TENTHS_BELOW else (left + 999) // 1000 * 10
            if shown != self._shown[i]:
                self._shown[i] = shown
                self.dirty = True

    def draw(self, fb):
        clock = self.clock
        now = self.app.now
        flagged = clock.flagged(now)
        for i in range(2):
            x = i * 64
            if clock.running and clock.current == i:
                fb.fill_rect(x, 0, 63, 11, 1)
                text.draw(fb, text.fit(self.names[i], 58), x + 3, 2, color=0)
            else:
                text.draw(fb, text.fit(self.names[i], 58), x + 3, 2)
            shown = fmt(clock.remaining(i, now), True)
            text.draw(fb, shown, x + (64 - text.width(shown, text.large()[1])) // 2, 20, text.large()[1])
        fb.vline(63, 12, 40, 1)
        if flagged >= 0:
            status = "Flag: " + self.names[flagged]
        elif clock.paused:
            status = "Paused - OK resumes"
        elif not clock.running:
            status = "OK starts " + self.names[0]
        else:
            status = "Move %d" % (clock.moves + 1)
        text.draw_centered(fb, status, 56, text.SMALL, 1)


class ClockMenu(Menu):
    """Paused: resume, restart with the same times, or leave."""

    def __init__(self, app, screen):
        self.screen = screen
        Menu.__init__(self, app, "Clock paused", ["Resume", "Restart", "Home"], self._pick)

    def _pick(self, index):
        screen = self.screen
        self.app.pop()
        if index == 0:
            if screen.clock.paused:
                screen.clock.resume(self.app.now)
        elif index == 1:
            screen.clock = ChessClock(2, screen.base, screen.increment)
            screen._shown = [-1, -1]
        else:
            self.app.home()

"""Self-test: check every part of a freshly built gadget from the gadget itself.

A menu of four pages, each driven only by keys every layout has (UP/DOWN, OK, BACK or long OK):
- Keys: every key event as it happens, named (turns of the encoder too). BACK is one of the keys
  under test, so the page is left by holding BACK for 2 s (a long OK for 2 s more on layouts
  without BACK: long OK is BACK there); the page says which.
- Display: full fill, checkerboards, then contrast steps 0..255 on a lit screen.
- Sound: a scale on the buzzer, or "No buzzer" when none is fitted.
- Board: the I2C scan, the battery voltage (where wired), free RAM and the firmware version
  (``tablemate.VERSION``, and how it is installed: frozen into a UF2, or what the version file
  of ``tablemate flash`` says).
Hardware facts come from ``app.probe`` (built by main.py), never from ``machine``.
"""

import framebuf
import tablemate
from tablemate import json, ticks_diff
from micropython import const

from tablemate import keys as K
from tablemate.screens import free_ram
from tablemate.ui import Menu, Screen, draw_title, text

LEAVE_MS = 2000  # BACK held this long leaves the key page
_LOG = const(4)  # events shown on the key page
CONTRASTS = (0, 64, 128, 192, 255)
PATTERNS = ("fill", "checker", "checker2")  # then one step per contrast
SCALE = ((523, 150), (587, 150), (659, 150), (698, 150), (784, 150), (880, 150), (988, 150),
         (1047, 300))
VERSION_FILE = "/tablemate/store/version.json"  # where ``tablemate flash`` writes it


def show(app):
    app.push(SelfTest(app))


class SelfTest(Menu):
    """The list of test pages; BACK leaves."""

    def __init__(self, app):
        Menu.__init__(self, app, "Self-test", ["Keys", "Display", "Sound", "Board"], self._pick)

    def _pick(self, index):
        self.app.push((KeyTest, DisplayTest, SoundTest, BoardInfo)[index](self.app))


class KeyTest(Screen):
    """Shows each key event; holding BACK for LEAVE_MS leaves."""

    keep_awake = True

    def __init__(self, app):
        Screen.__init__(self, app)
        self.log = [""] * _LOG  # newest first
        self.count = 0
        self._back_at = None  # when BACK was pressed, while it is held
        self._bar = 0  # the leaving bar's width drawn, in pixels

    def key(self, key, kind):
        self.count += 1
        self.log.pop()
        self.log.insert(0, "%s %s" % (K.NAMES[key], K.KIND_NAMES[kind]))
        if key == K.BACK:
            if kind == K.PRESS:
                self._back_at = self.app.now
                self._bar = 0
            elif kind == K.RELEASE:
                self._back_at = None
        self.dirty = True

    def tick(self, now):
        if self._back_at is not None:
            if ticks_diff(now, self._back_at) >= LEAVE_MS:
                self._back_at = None
                self.app.pop()
            else:
                bar = ticks_diff(now, self._back_at) * 128 // LEAVE_MS
                if bar != self._bar:  # the leaving bar grows
                    self._bar = bar
                    self.dirty = True

    def due(self, now):
        """The leaving bar's next pixel."""
        if self._back_at is None:
            return None
        ms = ((self._bar + 1) * LEAVE_MS + 127) // 128 - ticks_diff(now, self._back_at)
        return ms if ms > 0 else 0

    def draw(self, fb):
        draw_title(fb, "Keys: %s" % self.app.layout)
        text.draw_right(fb, "%d" % self.count, 128, 0)
        y = 12
        for line in self.log:
            text.draw(fb, line, 2, y)
            y += 9
        if K.BACK in K.LAYOUTS.get(self.app.layout, ()):
            hint = "Hold BACK 2s: leave"
        else:
            hint = "Hold OK 3s: leave"
        text.draw(fb, hint, 0, 56)
        if self._back_at is not None:
            fb.fill_rect(0, 54, min(128, self._bar), 1, 1)


class DisplayTest(Screen):
    """Steps through patterns: DOWN or OK next, UP previous, BACK leaves."""

    keep_awake = True

    def __init__(self, app):
        Screen.__init__(self, app)
        self.step = -1  # -1: the instructions
        self._tiles = (framebuf.FrameBuffer(bytearray(b"\x55\xaa" * 4), 8, 8, framebuf.MONO_VLSB),
                       framebuf.FrameBuffer(bytearray(b"\xaa\x55" * 4), 8, 8, framebuf.MONO_VLSB))

    def steps(self):
        return len(PATTERNS) + len(CONTRASTS)

    def key(self, key, kind):
        if kind != K.PRESS and kind != K.REPEAT:
            return
        if key == K.BACK:
            self.app.pop()
            return
        if key == K.UP or key == K.LEFT:
            self.step -= 1
        elif key == K.DOWN or key == K.RIGHT or key == K.OK:
            self.step += 1
        else:
            return
        n = self.steps()
        self.step = (self.step + 1) % (n + 1) - 1  # -1 .. n-1, wrapping
        i = self.step - len(PATTERNS)
        if i >= 0:
            self.app.display.contrast(CONTRASTS[i])
        else:
            self.app.apply_settings()
        self.dirty = True

    def on_close(self):
        self.app.apply_settings()

    def draw(self, fb):
        step = self.step
        if step < 0:
            draw_title(fb, "Display test")
            text.draw(fb, "OK/DOWN: next pattern", 0, 14)
            text.draw(fb, "UP: previous", 0, 24)
            text.draw(fb, "fill, checker, then", 0, 36)
            text.draw(fb, "contrast 0 to 255", 0, 46)
            text.draw(fb, K.BACK_WORD.get(self.app.layout, "BACK") + ": leave", 0, 56)
        elif step == 0:
            fb.fill(1)
        elif step < len(PATTERNS):
            tile = self._tiles[step - 1]  # checker2 is checker inverted
            for y in range(0, 64, 8):
                for x in range(0, 128, 8):
                    fb.blit(tile, x, y)
        else:
            fb.fill(1)
            label = "Contrast %d" % CONTRASTS[step - len(PATTERNS)]
            fb.fill_rect(20, 24, 88, 16, 0)
            text.draw_centered(fb, label, 28, text.SMALL, 1)


class SoundTest(Screen):
    """OK plays a scale; BACK leaves."""

    _shown_busy = False

    def key(self, key, kind):
        if kind != K.PRESS:
            return
        if key == K.BACK:
            self.app.pop()
        elif key == K.OK and self.app.buzzer:
            self.app.buzzer.play(SCALE, self.app.now)  # even with sound off: this is the test
            self.dirty = True

    def tick(self, now):
        buzzer = self.app.buzzer
        if buzzer and self._shown_busy != buzzer.busy:
            self.dirty = True

    def due(self, now):
        buzzer = self.app.buzzer
        return 0 if buzzer and self._shown_busy != buzzer.busy else None

    def draw(self, fb):
        draw_title(fb, "Sound test")
        buzzer = self.app.buzzer
        if not buzzer:
            text.draw(fb, "No buzzer", 0, 20)
            text.draw(fb, "(buzzer: None in", 0, 32)
            text.draw(fb, "board.py)", 0, 41)
        else:
            self._shown_busy = buzzer.busy
            text.draw(fb, "Playing a scale" if buzzer.busy else "OK: play a scale", 0, 20)
            if not self.app.settings["sound"]:
                text.draw(fb, "(even with sound off)", 0, 32)
        text.draw(fb, K.BACK_WORD.get(self.app.layout, "BACK") + ": leave", 0, 56)


class BoardInfo(Screen):
    """I2C scan, battery, free heap and version, refreshed every second; OK or BACK leaves."""

    keep_awake = True

    def __init__(self, app):
        Screen.__init__(self, app)
        self.lines = []
        self._at = 0
        self.flashed = _flashed(app, getattr(tablemate, "__path__", None))
        self.refresh(app.now)

    def refresh(self, now):
        probe = self.app.probe
        self._at = now
        if probe is None:
            i2c, mv = "I2C: not probed", None
        else:
            found = probe.scan()
            i2c = "I2C: " + (" ".join("%02X" % a for a in found) if found else "nothing")
            mv = probe.battery_mv()
        self.lines = [
            i2c,
            "Battery: not wired" if mv is None else _volts(mv),
            free_ram(),
            "Firmware " + self.app.version,
            self.flashed,
        ]
        self.dirty = True

    def tick(self, now):
        if ticks_diff(now, self._at) >= 1000:
            self.refresh(now)

    def due(self, now):
        return max(0, 1000 - ticks_diff(now, self._at))

    def key(self, key, kind):
        if kind == K.PRESS and (key == K.OK or key == K.BACK):
            self.app.pop()

    def draw(self, fb):
        draw_title(fb, "Board")
        y = 12
        for line in self.lines:
            text.draw(fb, text.fit(line, 128), 0, y)
            y += 10


def _volts(mv):
    centi = (mv + 5) // 10
    return "Battery: %d.%02d V" % (centi // 100, centi % 100)


def _flashed(app, package):
    """How the firmware is installed, in one line: frozen into a UF2 (``package``, the
    package's ``__path__``, is then in MicroPython's frozen modules, and no version file is on
    the flash), else what ``tablemate flash`` wrote in its version file."""
    if str(package).startswith(".frozen/"):
        return "Frozen in the UF2"
    from tablemate.store import textfiles
    try:
        stamp = textfiles.read_text(app.root + VERSION_FILE, lambda f: json.loads(f.read()))
    except (OSError, ValueError, RuntimeError):  # RuntimeError: too deep for CPython's json
        stamp = None
    if stamp is None:
        return "No version.json"
    if not isinstance(stamp, dict):
        return "Bad version.json"
    return "Flashed " + str(stamp.get("git") or stamp.get("version") or "?")

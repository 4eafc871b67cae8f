"""Self-test: check every part of a freshly built gadget from the gadget itself.

A menu of five pages, each driven only by keys every layout has (UP/DOWN, OK, BACK or long OK):
- Keys: every key event as it happens, named (turns of the encoder too). BACK is one of the keys
  under test, so the page is left by holding BACK for 2 s (a long OK for 2 s more on layouts
  without BACK: long OK is BACK there); the page says which.
- Display: full fill, checkerboards, then contrast steps 0..255 on a lit screen.
- Sound: a scale on the buzzer, or "No buzzer" when none is fitted.
- Display bus: whole frames at 400 kHz and at 1 MHz, the time of each and the errors; OK keeps
  the fast display (1 MHz) where the panel kept up, BACK the default 400 kHz. The choice is the
  board setting ``freq``, kept in ``/data/wiring.json``.
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
from tablemate.store.files import trouble
from tablemate.ui import Menu, Screen, draw_title, text

LEAVE_MS = const(2000)  # BACK held this long leaves the key page
_LOG = const(4)  # events shown on the key page
CONTRASTS = (0, 64, 128, 192, 255)
PATTERNS = ("fill", "checker", "checker2")  # then one step per contrast
SCALE = ((523, 150), (587, 150), (659, 150), (698, 150), (784, 150), (880, 150), (988, 150),
         (1047, 300))
VERSION_FILE = "/tablemate/store/version.json"  # where ``tablemate flash`` writes it
SLOW_HZ = 400000  # the display bus's default: every SSD1306 module is rated for it
FAST_HZ = 1000000  # the fast display: most modules keep up with short wires
_FRAMES = const(16)  # whole frames sent at each speed


def show(app):
    app.push(SelfTest(app))


class SelfTest(Menu):
    """The list of test pages; BACK leaves."""

    def __init__(self, app):
        Menu.__init__(self, app, "Self-test", ["Keys", "Display", "Sound", "Display bus", "Board"],
                      self._pick)

    def _pick(self, index):
        self.app.push((KeyTest, DisplayTest, SoundTest, BusTest, BoardInfo)[index](self.app))


class KeyTest(Screen):
    """Shows each key event; holding BACK for LEAVE_MS leaves."""

    keep_awake = True

    @property
    def leave_hold(self):
        """(the key held to leave, for how many ms from its press): BACK for ``LEAVE_MS``; on a
        layout without BACK, OK, whose long press (``keys.LONG_MS``) is the BACK that then
        counts. The page's hint says it, and the simulator's hold key holds it so long."""
        if K.BACK in K.LAYOUTS.get(self.app.layout, ()):
            return K.BACK, LEAVE_MS
        return K.OK, K.LONG_MS + LEAVE_MS

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
        key, ms = self.leave_hold
        text.draw(fb, "Hold %s %ds: leave" % (K.NAMES[key], (ms + 999) // 1000), 0, 56)
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


class BusTest(Screen):
    """The display bus at 400 kHz, then at 1 MHz: ``_FRAMES`` whole frames at each (every byte
    changes), the time a frame takes (from one loop pass to the next: the wire and the loop)
    and the transfers the panel did not acknowledge. A panel that misses one at 1 MHz is run at
    400 kHz again. Then OK keeps 1 MHz (where it kept up: the result is drawn at 1 MHz, so
    sharp text says it too), BACK 400 kHz; the choice is written to ``/data/wiring.json``
    where it differs from the board's setting, and applies at once."""

    keep_awake = True

    def __init__(self, app):
        Screen.__init__(self, app)
        self.phase = -1  # -1: the intro; 0: sending at 400 kHz, 1: at 1 MHz; 2: the result
        self.sent = 0
        self.errors = [0, 0]
        self.tenths = [0, 0]  # tenths of a ms a frame, at each speed
        self._t0 = 0
        probe = app.probe
        self.board_hz = probe.hz if probe is not None else None  # the board's setting
        self._frames = None  # the two checkerboards, while the test runs

    def key(self, key, kind):
        if kind != K.PRESS:
            return
        phase = self.phase
        if phase == -1 and key == K.OK and self.board_hz:
            self._frames = (b"\x55\xaa" * 512, b"\xaa\x55" * 512)
            self.app.probe.speed(SLOW_HZ)
            self.phase = 0
        elif phase == 2 and key == K.OK and not self.errors[1]:
            self._choose(FAST_HZ)
        elif key == K.BACK and phase == 2:
            self._choose(SLOW_HZ)
        elif key == K.BACK and phase == -1:
            self.app.pop()

    def _choose(self, hz):
        """Run the bus at ``hz``, and keep it as the board's setting; then leave."""
        app = self.app
        app.probe.speed(hz)
        app.display.hz = hz  # how the driver weighs spans against the whole frame
        app.pop()
        if hz != self.board_hz:
            from tablemate.store import settings  # .mpy: 3.8 KB, let go once read (app.py)
            try:
                settings.rewire(app.root + "/data/", "freq", hz)
            except OSError as exc:
                # .mpy: 2.8 KB a game holds only once a dialog shows
                from tablemate.ui.dialogs import Notice
                app.push(Notice(app, "%s:\n%s until the next start" % (trouble(exc), _hz(hz))))

    def due(self, now):
        return 0 if self.phase == 0 or self.phase == 1 else None

    def tick(self, now):
        phase = self.phase
        if phase != 0 and phase != 1:
            return
        if self.sent == 0:
            self._t0 = now
        if self.sent < _FRAMES:
            display = self.app.display
            display.buf[:] = self._frames[self.sent & 1]
            try:
                display.show()
            except OSError:  # no ACK: the panel did not keep up
                self.errors[phase] += 1
                display.invalidate()
            self.sent += 1
            return
        self.tenths[phase] = ticks_diff(now, self._t0) * 10 // _FRAMES
        self.sent = 0
        if phase == 0:
            self.app.probe.speed(FAST_HZ)
            self.phase = 1
            return
        if self.errors[1]:
            self.app.probe.speed(SLOW_HZ)
        slow, fast = self.tenths
        print("Tablemate: a whole frame takes %d.%d ms at 400 kHz, %d.%d ms at 1 MHz; %d of %d "
              "lost at 1 MHz" % (slow // 10, slow % 10, fast // 10, fast % 10, self.errors[1],
                                 _FRAMES))
        self._frames = None
        self.phase = 2
        self.app.display.invalidate()
        self.dirty = True

    def draw(self, fb):
        draw_title(fb, "Display bus")
        if self.phase == -1:
            if not self.board_hz:
                text.draw(fb, "Not on this board", 0, 14)
            else:
                text.draw(fb, "Now " + _hz(self.board_hz), 0, 14)
                text.draw(fb, "OK: whole frames at", 0, 26)
                text.draw(fb, "400 kHz, then 1 MHz", 0, 35)
            text.draw(fb, K.BACK_WORD.get(self.app.layout, "BACK") + ": leave", 0, 56)
            return
        text.draw(fb, "A whole frame takes", 0, 12)
        for i in (0, 1):
            t = self.tenths[i]
            text.draw(fb, "%d.%d ms at %s" % (t // 10, t % 10, _hz((SLOW_HZ, FAST_HZ)[i])),
                      0, 21 + 9 * i)
        missed = self.errors[1]
        if missed:
            text.draw(fb, "1 MHz: %d of %d lost" % (missed, _FRAMES), 0, 39)
            text.draw(fb, "The panel is too slow", 0, 48)
        else:
            text.draw(fb, "1 MHz: every frame in", 0, 39)
            text.draw(fb, "Text sharp? OK: 1 MHz", 0, 48)
        text.draw(fb, K.BACK_WORD.get(self.app.layout, "BACK") + ": 400 kHz", 0, 56)


def _hz(hz):
    return "%d MHz" % (hz // 1000000) if hz % 1000000 == 0 else "%d kHz" % (hz // 1000)


class BoardInfo(Screen):
    """I2C scan, battery, free heap and version, refreshed every second; OK or BACK leaves."""

    keep_awake = True

    def __init__(self, app):
        Screen.__init__(self, app)
        self.lines = []
        self._at = 0
        self.flashed = _flashed(app, tablemate.FROZEN)
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
            tablemate.free_ram(),
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


def _flashed(app, frozen):
    """How the firmware is installed, in one line: frozen into a UF2 (``tablemate.FROZEN``: no
    version file is on the flash then), else what ``tablemate flash`` wrote in its version
    file."""
    if frozen:
        return "Frozen in the UF2"
    from tablemate.store import textfiles  # .mpy: only for a file a player wrote
    try:
        stamp = textfiles.read_text(app.root + VERSION_FILE, lambda f: json.loads(f.read()))
    except (OSError, ValueError, RuntimeError):  # RuntimeError: too deep for CPython's json
        stamp = None
    if stamp is None:
        return "No version.json"
    if not isinstance(stamp, dict):
        return "Bad version.json"
    return "Flashed " + str(stamp.get("git") or stamp.get("version") or "?")

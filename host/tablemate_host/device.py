"""The whole gadget on the host: the real boot code (``tablemate/boot.py``, which
``firmware/main.py`` runs) booting on fake hardware.

A ``Device`` resets the fake ``machine`` world, puts a ``VirtualSSD1306`` on the I2C bus the
board configuration names, and lets ``boot.build`` construct the real drivers and app from that
configuration, exactly as on the Pico. Tests, the simulator and the README screenshots then press
buttons by driving GPIO levels, move the fake clock, and read the picture back from the virtual
panel, which only knows the I2C bytes the driver sent.

The watchdog is honest too: every loop pass goes through ``app.step`` (tick, then feed), and
when the fake clock runs past the watchdog's timeout without a feed (a screen that hangs, a loop
that stops feeding), the device resets as the Pico would and boots ``main.py`` again on the same
flash; ``resets`` records when. The check runs after each loop pass, so a pass that blocks resets
once it returns (on the Pico the reset cuts it short; nothing it did after the timeout counts).
Passes come every 10 ms here; on the Pico the loop sleeps from a pass until the app's next
deadline or a key's edge (``boot.wait``), whose promise (nothing changes before then) the
fuzzer checks and ``tests/scenario/test_sleep.py`` runs on the fake ``machine``.
"""

import importlib.util
import json
import os

from tablemate_host import fakes, machine
from tablemate_host.fakeclock import ticks_add, ticks_diff
from tablemate_host.framebuf import MONO_VLSB, FrameBuffer
from tablemate_host.virtual_ssd1306 import VirtualSSD1306

from tablemate import app as firmware_app

TICK_MS = 10  # the boot loop's period
_BOOT = os.path.join(fakes.FIRMWARE, "tablemate", "boot.py")


def load_main():
    """A fresh copy of the boot module (what ``main.py`` runs), as a power-up loads it."""
    spec = importlib.util.spec_from_file_location("tablemate_boot_main", _BOOT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Device:
    """One booted gadget. ``root`` is its flash filesystem (a host directory)."""

    def __init__(self, root, layout=None, sh1106=False, board=None, settings=None, start_ms=0,
                 display=True, hold=(), adc=None, rtc=None, wiring=None, max_hz=None):
        """``hold``: names of buttons held down while the board powers up (safe mode: "OK");
        ``adc``: {GPIO: read_u16 value} at power-up (the battery sense on GP29); ``rtc``: the
        calendar clock's time at power-up, as a command sets a board's (``flash.rtc_time()``),
        running from there (None: a Pico's clock nobody set, which dates no game); ``wiring``:
        the builder's ``/data/wiring.json`` (a dict, or the file's text), which the firmware
        reads at boot: a dict's values are also how this gadget is wired (its panel's bus, its
        buttons' pins); ``max_hz``: the panel answers no ACK above this bus speed."""
        from tablemate.board import BOARD
        self.root = root
        self.cfg = dict(board or BOARD)
        if sh1106:
            self.cfg["display"] = "sh1106"
        self.board = dict(self.cfg)  # board.py's values, as the firmware has them frozen
        if wiring is not None:
            os.makedirs(os.path.join(self.root, "data"), exist_ok=True)
            with open(os.path.join(self.root, "data", "wiring.json"), "w") as f:
                f.write(wiring if isinstance(wiring, str) else json.dumps(wiring))
            if isinstance(wiring, dict):
                self.cfg.update(wiring)
        if layout or settings:
            self._write_settings(layout, settings)
        machine.world.reset()
        fakes.clock.set(start_ms)
        self.panel = VirtualSSD1306(sh1106=self.cfg["display"] == "sh1106", max_hz=max_hz)
        if display:
            machine.world.attach_i2c(self.cfg["i2c"], self.cfg["addr"], self.panel)
        for key in hold:
            machine.world.drive(self.cfg["buttons"][key], 0)
        for gp, value in (adc or {}).items():
            machine.world.set_adc(gp, value)
        if rtc is not None:
            machine.RTC().datetime(rtc)
        self.main = load_main()
        self.app = None
        self.wdt = None
        self.resets = []  # fake-clock ms of each watchdog reset
        self._next_tick = 0
        self.boot()

    def _write_settings(self, layout, extra):
        os.makedirs(self.root, exist_ok=True)
        os.makedirs(os.path.join(self.root, "data"), exist_ok=True)
        path = os.path.join(self.root, "data", "settings.json")
        data = {}
        if os.path.exists(path):
            with open(path) as f:
                data = json.load(f)
        if layout:
            data["layout"] = layout
        data.update(extra or {})
        with open(path, "w") as f:
            json.dump(data, f)

    def boot(self, cycles=3):
        """Power on: ``boot.start`` builds the app and its watchdog; show the first frame."""
        booted = self.main.start(self.board, self.root, cycles)
        self.app, self.wdt = booted if booted else (None, None)
        if self.app is not None:
            self._next_tick = ticks_add(fakes.clock.ms, TICK_MS)
            self.advance(2 * TICK_MS)  # the first frame, then what boot asks over it
        return self.app

    def watchdog_reset(self):
        """What the Pico does when its watchdog starves: reset the chip, boot again.

        Outside the chip nothing changes (buttons held stay held, the panel keeps its pixels until
        the driver sends new ones, the flash keeps its files); inside, pins lose their setup and
        interrupts, the PWM stops and the watchdog is off until main.py starts it again.
        """
        world = machine.world
        now = fakes.clock.ms
        self.resets.append(now)
        world.resets.append(("watchdog", now))
        world.cause = machine.WDT_RESET
        world.wdt = machine._Watchdog()
        for pad in world.pads.values():
            pad.mode, pad.pull, pad.function = machine.Pin.IN, None, None
            pad.irq_handler, pad.irq_trigger = None, 0
        for log in world.pwm.values():
            if log[-1][1] or log[-1][2]:
                log.append((now, 0, 0))
        self.main = load_main()
        return self.boot()

    # -- time and buttons ------------------------------------------------------------------
    @property
    def now(self):
        return fakes.clock.ms

    def advance(self, ms):
        """Let exactly ``ms`` milliseconds of fake time pass, the main loop ticking every 10 ms.

        Ticks keep their 10 ms cadence across calls, so a test can change pin levels between
        ticks (a bouncing contact) and ``advance(3)`` moves the clock by 3 ms, not by a tick.
        """
        end = ticks_add(fakes.clock.ms, ms)
        while self.app is not None and ticks_diff(end, self._next_tick) >= 0:
            fakes.clock.set(self._next_tick)
            firmware_app.step(self.app, self.wdt)
            self._next_tick = ticks_add(self._next_tick, TICK_MS)
            if machine.world.wdt.starved():
                self.watchdog_reset()
            elif ticks_diff(fakes.clock.ms, self._next_tick) > 0:  # a pass that overran its slot
                self._next_tick = ticks_add(fakes.clock.ms, TICK_MS)
        if ticks_diff(end, fakes.clock.ms) > 0:
            fakes.clock.set(end)

    def pin(self, key):
        """The GPIO of ``key``'s button; OK is the encoder's push switch on the encoder layout."""
        if key == "OK" and self.app is not None and self.app.layout == "encoder":
            return self.cfg["encoder"]["sw"]
        return self.cfg["buttons"][key]

    def turn(self, detents=1, step_ms=4, after_ms=40, bounce=0):
        """Turn the encoder knob by ``detents`` (positive: clockwise) through full A/B cycles.

        Each detent is four Gray-code states, ``step_ms`` apart (4 ms: a brisk turn, faster than
        the 10 ms loop, so only the encoder's pin interrupts see every state). ``bounce`` makes
        each changing contact chatter that many times before it settles.
        """
        enc = self.cfg["encoder"]
        seq = ((0, 1), (0, 0), (1, 0), (1, 1)) if detents > 0 else ((1, 0), (0, 0), (0, 1), (1, 1))
        a, b = 1, 1  # at rest both contacts are open: pulled up
        for _ in range(abs(detents)):
            for na, nb in seq:
                for pin, old, new in ((enc["a"], a, na), (enc["b"], b, nb)):
                    if old != new:
                        for _ in range(bounce):
                            machine.world.drive(pin, None if new else 0)
                            machine.world.drive(pin, None if old else 0)
                        machine.world.drive(pin, None if new else 0)
                a, b = na, nb
                self.advance(step_ms)
        self.advance(after_ms)

    def down(self, key):
        machine.world.drive(self.pin(key), 0)

    def up(self, key):
        machine.world.drive(self.pin(key), None)

    def press(self, key, hold_ms=60, after_ms=60):
        """A clean press and release of the button wired for ``key`` ("UP", "OK", ...)."""
        self.down(key)
        self.advance(hold_ms)
        self.up(key)
        self.advance(after_ms)

    def long_press(self, key, hold_ms=900):
        self.press(key, hold_ms)

    def presses(self, *keys):
        for key in keys:
            self.press(key)

    # -- what the panel shows --------------------------------------------------------------
    def shows(self, words, font=None):
        """True when ``words`` appear on the panel in the firmware's font, lit or inverted."""
        return bool(self.find_text(words, font))

    def find_text(self, words, font=None):
        """Positions (x, y) where ``words`` are drawn, in either polarity."""
        from tablemate.ui import text
        font = font or text.SMALL
        rows = render_rows(words, font)
        found = self.panel.find(rows)
        found += self.panel.find([[1 - p for p in row] for row in rows])
        return found

    def menu_row(self, label):
        """True when the highlighted menu row reads exactly ``label`` (nothing more on the bar).

        A menu's highlight is a lit band from the left edge to just past its label.
        """
        from tablemate.ui import text
        rows = render_rows(label, text.SMALL)
        px = self.panel.pixels()
        end = 2 + text.width(label)  # the bar's last column
        for x, y in self.panel.find([[1 - p for p in row] for row in rows]):
            if x == 2 and y % 8 == 0 and all(px[y + j][i] for j in range(8) for i in (0, 1, end)) \
                    and not any(px[y + j][end + 1] for j in range(8)):
                return True
        return False

    def goto(self, label, key="DOWN", limit=None):
        """Move a menu's cursor with ``key`` until the row ``label`` is highlighted on the panel.

        Menus are found by what they show, so a new menu row never sends a test or a README
        picture to the wrong screen; AssertionError (with the panel) when the row never comes.
        ``limit`` (presses) defaults to one lap of the menu on top: a menu's length follows the
        registry (the home menu has a row per mode), so no count of rows is written here.
        """
        if limit is None:
            limit = len(getattr(self.app.top(), "items", ())) + 1
        for _ in range(limit):
            if self.menu_row(label):
                return
            self.press(key)
        raise AssertionError("menu row %r never highlighted\n%s" % (label, self.panel.to_text()))

    def choose(self, label, key="DOWN", limit=None):
        """Move to the menu row ``label`` and press OK."""
        self.goto(label, key, limit)
        self.press("OK")

    def journal(self):
        """The saved game's journal as data, or [] with no game: the header, then the actions
        and undos as played (checkpoints, void lines and a torn last line left out)."""
        path = os.path.join(self.root, "data", "game.jnl")
        if not os.path.exists(path):
            return []
        with open(path, "rb") as f:
            lines = f.read().split(b"\n")[:-1]
        out = []
        for line in lines:
            if b"\x00" in line:
                continue
            try:
                obj = json.loads(line)
            except ValueError:
                continue
            if not out or isinstance(obj, list):
                out.append(obj)
        return out


def render_rows(words, font):
    """``words`` drawn by the firmware's own text code, as rows of 0/1 cropped to the ink: its
    width, and the rows any glyph of the font inks (the small font's last row is blank in
    every glyph: under lit text it may be a lit band's top row)."""
    from tablemate.ui import text
    from tablemate_host.textcheck import ink_rows
    w = text.width(words, font)
    h = ink_rows(font)
    buf = bytearray(w * ((h + 7) // 8))
    fb = FrameBuffer(buf, w, h, MONO_VLSB)
    text.draw(fb, words, 0, 0, font)
    ink = text.ink_width(words, font)
    return [[fb.pixel(x, y) for x in range(ink)] for y in range(h)]

"""The boot, the top floor: check the board, build every driver and the app, run the loop.

``main.py`` only calls ``run()`` here: the Pico compiles ``main.py`` from source at every
power-up (about 90 ms for this module's code), while this module arrives as ``.mpy``. This is the
only builder of the drivers: it makes their device objects through
``tablemate.hw.peripherals`` (the one module of the running firmware that imports ``machine``)
and hands each driver what it drives, and the key machine to the inputs, so that ``hw/`` is the
bottom floor and imports nothing above it. (``hw`` has no ``__init__.py``: MicroPython imports a
folder without one as a namespace package, which saves the boot two file lookups and a module
load.) What can stop a boot, and what it does:
- a board configuration with a wrong or missing pin: the REPL lists every problem, the on-board
  LED blinks error code 3 (three short flashes, repeating), nothing else is touched;
- OK or BACK (or the encoder's push) held while powering up: safe mode, main.py returns to the
  REPL without starting the app or the watchdog, so mpremote can always reach the board;
- no display on the I2C bus: error code 2, and the bus is scanned again on every cycle, so a
  loose wire fixed in place lets the boot go on.
Those error paths live in ``tablemate.hw.fault``, imported only when one is taken: a healthy
boot does not pay for them. Once the app runs, a watchdog resets the Pico if one pass of the
loop takes longer than WDT_MS; the game survives in its journal and is offered again at boot.
The blinking error loops run before the watchdog starts, so they never reset the board.
"""

import gc
import sys

import micropython

from tablemate import keys, sleep_ms, ticks_add, ticks_diff, ticks_ms
from tablemate.board import BOARD
from tablemate.hw import peripherals as hw

WDT_MS = 5000  # rp2 allows up to 8388 ms; a loop pass takes ~10 ms, a journal write a few more
TICK_MS = 10  # the loop's period when nothing is pressed
GC_PAUSE_MS = 30  # garbage is collected this long after the last key, not in a key's path
GC_KEYS = 8  # ... once this many key events came since the last collection
SAFE_MODE = "Safe mode: app not started, watchdog off"
_DISPLAY_ADDRS = (0x3C, 0x3D)


def find_display(i2c, cfg):
    """The display's address on the bus, or None (the configured one is tried alone first)."""
    try:
        i2c.writeto(cfg["addr"], b"\x00")  # a bare command byte: an ACK says the OLED is there
        return cfg["addr"]
    except OSError:
        pass
    found = i2c.scan()
    if cfg["addr"] in found:
        return cfg["addr"]
    for addr in _DISPLAY_ADDRS:
        if addr in found:
            return addr
    return None


def safe_mode(cfg):
    """True when OK, BACK or the encoder's push is held at power-up (and still 20 ms later).

    The pull-ups settle within microseconds, so a boot with no key held waits 1 ms, not 40.
    """
    gps = [cfg["buttons"][k] for k in ("OK", "BACK") if k in cfg.get("buttons", {})]
    if cfg.get("encoder"):
        gps.append(cfg["encoder"]["sw"])
    pins = [hw.pull_up(gp) for gp in gps]
    for wait in (1, 20):
        sleep_ms(wait)
        held = False
        for pin in pins:
            held = held or pin.value() == 0
        if not held:
            return False
    return True


def build(cfg=BOARD, root="", cycles=-1):
    """The app on real hardware, or None (bad board configuration, safe mode, no display)."""
    import tablemate
    from tablemate import boardcheck
    problems = boardcheck.check_board(cfg)
    layouts = boardcheck.wired_layouts(cfg)
    # Run once per boot: dropped from the package and sys.modules, its 2 KB of bytecode go
    # with the next garbage collection.
    sys.modules.pop("tablemate.boardcheck", None)
    if hasattr(tablemate, "boardcheck"):
        delattr(tablemate, "boardcheck")
    if problems:
        from tablemate.hw import fault
        fault.bad_board(cfg, problems, cycles)
        return None
    if safe_mode(cfg):
        print(SAFE_MODE)
        return None
    from tablemate.app import App
    # Before any interrupt handler exists: the encoder's are hard IRQs, and an exception raised
    # inside one can only be reported through this preallocated buffer. (Ports without hard
    # interrupts, such as the WebAssembly one of the web page, leave the function out.)
    if hasattr(micropython, "alloc_emergency_exception_buf"):
        micropython.alloc_emergency_exception_buf(100)
    from tablemate.hw.ssd1306 import SSD1306
    i2c = hw.bus(cfg)
    addr = find_display(i2c, cfg)
    if addr is None:
        from tablemate.hw import fault
        addr = fault.wait_for_display(i2c, cfg, find_display, cycles)
        if addr is None:
            return None
    display = SSD1306(i2c, addr=addr, sh1106=cfg["display"] == "sh1106", flip=cfg["flip"])

    def input_for(layout):
        if layout == "encoder":
            from tablemate.hw.encoder import EncoderInput
            from tablemate.knob import Encoder
            enc = cfg["encoder"]
            return EncoderInput(hw.pull_up(enc["a"]), hw.pull_up(enc["b"]), hw.pull_up(enc["sw"]),
                                Encoder(), keys.Keys(layout))
        pins = cfg["buttons"]
        return hw.ButtonInput([hw.pull_up(pins[keys.NAMES[k]]) for k in keys.LAYOUTS[layout]],
                              keys.Keys(layout))

    buzzer = hw.Buzzer(hw.pwm(cfg["buzzer"])) if cfg.get("buzzer") is not None else None
    battery = cfg.get("battery")
    probe = hw.Probe(i2c, hw.adc(battery) if battery is not None else None)
    return App(display, input_for, root, buzzer, probe, layouts)


def start(cfg=BOARD, root="", cycles=-1):
    """Boot and start the app, then the watchdog: ``(app, wdt)``, or None when nothing runs."""
    if hw.reset_by_watchdog():
        print("Tablemate: restarted by the watchdog (the loop stopped for %d ms)" % WDT_MS)
    app = build(cfg, root, cycles)
    if app is None:
        return None
    app.start(ticks_ms())
    sense(app)
    return app, hw.watchdog(WDT_MS)


def sense(app):
    """The battery gauge, after the first frame, for a sense pin that reads a supply: a board
    without one (or whose pin reads none: ``Probe.battery_mv``) never loads its module."""
    if app.probe is not None and app.probe.battery_mv() is not None:
        app.after_frame(lambda: _gauge(app))


def _gauge(app):
    from tablemate.battery import Gauge
    app.battery = Gauge(app.probe.battery_mv, app.settings["battery"], app.now)


def step(app, wdt):
    """One pass of the loop: tick the app, then feed the watchdog."""
    app.tick(ticks_ms())
    wdt.feed()


def wait(app, ms=TICK_MS):
    """Sleep until the next pass is due, or less: a key edge or a knob turn ends the wait.

    The input's pin interrupts set ``woken``, so a press is seen within 1 ms instead of up to
    one whole period later; the 1 ms naps keep the CPU asleep the rest of the time.
    """
    inp = app.input
    end = ticks_add(ticks_ms(), ms)
    while not inp.woken and ticks_diff(end, ticks_ms()) > 0:
        sleep_ms(1)


stopped = None  # the app a computer's Ctrl-C stopped (``save_stopped``)


def run(cfg=BOARD, root="", loops=-1, cycles=-1):
    """Boot, then pass the loop every 10 ms or at once on a key (``loops`` limits it for tests)."""
    global stopped
    booted = start(cfg, root, cycles)
    if booted is None:
        return None
    app, wdt = booted
    keys = app.keys  # key events so far
    try:
        while loops:
            step(app, wdt)
            keys = collect(app, keys)
            wait(app)
            loops -= 1
    except KeyboardInterrupt:  # mpremote took the REPL (tablemate pull, flash...): the app
        stopped = app  # stays reachable, with what a full flash kept from being saved
        raise
    return app


def save_stopped():
    """Save what the app that a computer stopped still holds in RAM: the actions a full or
    read-only flash refused (``tablemate pull --free`` calls it once it has made room, before
    the board restarts and resumes the game from its journal). Returns what happened."""
    game = stopped and stopped.game
    if game is None or not game.unsaved:
        return "nothing unsaved"
    n = game.unsaved
    from tablemate.ui import play
    try:
        play.save(stopped, game)
    except OSError as exc:
        from tablemate.store.files import trouble
        return "%d lines not saved: %s" % (n, trouble(exc))
    return "%d lines saved" % n


def collect(app, keys):
    """Collect the garbage in a pause between keys once ``GC_KEYS`` keys came since the last
    collection (at ``keys`` key events); returns the count at the last collection.

    A full collection takes ~6 ms on a Pico. Done in a pause between keys, every few keys (each
    leaves a few KB of garbage), the heap never fills in the middle of a key press, which is
    when MicroPython would otherwise collect. Taps come ~100 ms apart, so the pause is short.
    (Counting keys, not bytes: gc.mem_alloc() walks the heap, ~2 ms.)
    """
    if app.keys - keys >= GC_KEYS and ticks_diff(ticks_ms(), app.last_key) >= GC_PAUSE_MS:
        gc.collect()
        return app.keys
    return keys


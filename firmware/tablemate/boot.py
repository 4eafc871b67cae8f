"""The boot, the top floor: check the board, build every driver and the app, run the loop.

``main.py`` only calls ``run()`` here: the Pico compiles ``main.py`` from source at every
power-up (about 90 ms for this module's code), while this module arrives as ``.mpy``. This is the
only builder of the drivers: it makes their device objects through
``tablemate.hw.peripherals`` (the one module of the running firmware that imports ``machine``)
and hands each driver what it drives, and the key machine to the inputs, so that ``hw/`` is the
bottom floor and imports nothing above it. (``hw`` has no ``__init__.py``: MicroPython imports a
folder without one as a namespace package, which saves the boot two file lookups and a module
load.) What can stop a boot, and what it does:
- a board configuration with a wrong or missing pin (``board.py``, with what
  ``/data/wiring.json`` changes of it): the REPL lists every problem, the panel shows them where
  one answers (``badboard``), the on-board LED blinks error code 3 (three short flashes,
  repeating), nothing else is touched;
- OK or BACK (or the encoder's push) held while powering up: safe mode, main.py returns to the
  REPL without starting the app or the watchdog, so mpremote can always reach the board; the
  panel says so, and how to leave it (``tablemate.safe``: the driver and the font's bytes);
- no display on the I2C bus: error code 2, and the bus is scanned again on every cycle, so a
  loose wire fixed in place lets the boot go on (a display set to more than 400 kHz that does
  not answer is tried at 400 kHz first: the fast display is an option, never a dark panel).
Those error paths live in ``tablemate.hw.fault``, imported only when one is taken: a healthy
boot does not pay for them. Once the app runs, a watchdog resets the Pico if one pass of the
loop takes longer than WDT_MS; the game survives in its journal and is offered again at boot.
Long work inside a pass (a damaged journal copied and cut: seconds at the flash's slowest) feeds
it between its steps (``tablemate.alive``), so only a pass that hangs is reset.
The blinking error loops run before the watchdog starts, so they never reset the board.
"""

import micropython

from tablemate import (VERSION, crc32, keep_fed, keys, sleep_ms, ticks_add, ticks_diff, ticks_ms,
                       unload)
from tablemate.board import BOARD
from tablemate.hw import peripherals as hw
from tablemate.hw.ssd1306 import SSD1306

WDT_MS = 5000  # rp2 allows up to 8388 ms; a pass takes ~1-20 ms, a journal write a few more
SAFE_MODE = "Safe mode: app not started, watchdog off"
_DISPLAY_ADDRS = (0x3C, 0x3D)
SLOW_HZ = 400000  # the display bus's default: what a panel that misses ACKs at "freq" gets


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


def check_board(cfg, root, cycles):
    """``(board, layouts, mark)``: ``cfg`` with what ``/data/wiring.json`` changes of it
    (``settings.wiring``), the button layouts it wires once it passed the board check, and the
    fingerprint to keep for it (None: it was known); None after reporting its problems.

    The check (``boardcheck``) runs when the board is new to this flash: its verdict is kept in
    ``/data`` with a fingerprint of the configuration and the firmware's version
    (``settings.checked_board``), so an unchanged board costs the boot two small file reads
    instead of 22 ms of import and check on a Pico. An edited ``board.py`` or wiring file is
    checked again."""
    from tablemate.store import settings  # .mpy: 3.8 KB, let go once read (app.py)
    folder = root + "/data/"
    board, problems = settings.wiring(folder, cfg)
    source = settings.WIRING_PATH if board is not cfg or problems else None
    mark = crc32((VERSION + repr(board)).encode())
    layouts = None if problems else settings.checked_board(folder, mark)
    if layouts is not None:
        return board, layouts, None
    from tablemate import boardcheck  # .mpy: 2 KB, only for a board new to the flash
    problems = problems or boardcheck.check_board(board)
    layouts = boardcheck.wired_layouts(board)
    unload(("tablemate.boardcheck",))  # its 2 KB go with the next garbage collection
    if problems:
        from tablemate import badboard  # only for a bad board
        badboard.show((board, cfg) if board is not cfg else (cfg,), source, problems,
                      find_display)
        from tablemate.hw import fault  # only for a fault
        fault.bad_board(board, problems, cycles, source)
        return None
    return board, layouts, mark


def safe_screen(cfg):
    """Say safe mode on the panel (``tablemate.safe``); if even that fails (the app may be
    broken: it is what safe mode is for), say why on the console and go on to the REPL."""
    try:
        from tablemate import safe  # only in safe mode
        i2c = hw.bus(cfg)
        addr = find_display(i2c, cfg)
        if addr is not None:
            safe.show(SSD1306(i2c, addr=addr, sh1106=cfg["display"] == "sh1106",
                              flip=cfg["flip"]))
    except Exception as exc:  # noqa: BLE001 - anything: the REPL must be reached
        print("Safe mode: the panel could not show it: %r" % (exc,))


def build(cfg=BOARD, root="", cycles=-1):
    """The app on real hardware, or None (bad board configuration, safe mode, no display)."""
    checked = check_board(cfg, root, cycles)
    if checked is None:
        return None
    cfg, layouts, mark = checked
    if safe_mode(cfg):
        print(SAFE_MODE)
        safe_screen(cfg)
        return None
    from tablemate.app import App  # after the safe-mode check: a broken app still reaches the REPL
    # Before any interrupt handler exists: the encoder's are hard IRQs, and an exception raised
    # inside one can only be reported through this preallocated buffer. (Ports without hard
    # interrupts, such as the WebAssembly one of the web page, leave the function out.)
    if hasattr(micropython, "alloc_emergency_exception_buf"):
        micropython.alloc_emergency_exception_buf(100)
    i2c = hw.bus(cfg)
    addr = find_display(i2c, cfg)
    if addr is None and cfg["freq"] > SLOW_HZ:  # a fast display that stopped keeping up
        cfg = dict(cfg, freq=SLOW_HZ)
        i2c = hw.bus(cfg)
        addr = find_display(i2c, cfg)
    if addr is None:
        from tablemate.hw import fault  # only for a fault
        addr = fault.wait_for_display(i2c, cfg, find_display, cycles)
        if addr is None:
            return None
    display = SSD1306(i2c, addr=addr, sh1106=cfg["display"] == "sh1106", flip=cfg["flip"],
                      hz=cfg["freq"])

    def input_for(layout):
        if layout == "encoder":
            from tablemate.hw.encoder import EncoderInput  # .mpy: only with an encoder wired
            from tablemate.knob import Encoder  # .mpy: only with an encoder wired
            enc = cfg["encoder"]
            return EncoderInput(hw.pull_up(enc["a"]), hw.pull_up(enc["b"]), hw.pull_up(enc["sw"]),
                                Encoder(), keys.Keys(layout))
        pins = cfg["buttons"]
        return hw.ButtonInput([hw.pull_up(pins[keys.NAMES[k]]) for k in keys.LAYOUTS[layout]],
                              keys.Keys(layout))

    buzzer = hw.Buzzer(hw.pwm(cfg["buzzer"])) if cfg.get("buzzer") is not None else None
    battery = cfg.get("battery")
    probe = hw.Probe(i2c, hw.adc(battery) if battery is not None else None, cfg)
    app = App(display, input_for, root, buzzer, probe, layouts)
    if hw.has_wifi():
        app.net = _access_point
    if mark is not None:  # a board new to this flash passed: kept once the home menu is shown
        from tablemate.store import settings  # .mpy: 3.8 KB, let go once read (app.py)
        app.after_frame(lambda: settings.board_passed(root + "/data/", mark, layouts))
    return app


def _access_point():
    """The Pico W's access point, made when Phones is switched on: ``network`` is imported
    then, never in a boot without it."""
    from tablemate.hw.wifi import AccessPoint  # only on a Pico W
    return AccessPoint()


def start(cfg=BOARD, root="", cycles=-1):
    """Boot and start the app, then the watchdog: ``(app, wdt)``, or None when nothing runs."""
    if hw.reset_by_watchdog():
        print("Tablemate: restarted by the watchdog (the loop stopped for %d ms)" % WDT_MS)
    app = build(cfg, root, cycles)
    if app is None:
        return None
    app.start(ticks_ms())
    sense(app)
    return app, watchdog()


def watchdog():
    """Start the watchdog, and give its feed to the long work of a pass (``keep_fed``)."""
    wdt = hw.watchdog(WDT_MS)
    keep_fed(wdt.feed)
    return wdt


def sense(app):
    """The battery gauge, after the first frame, for a sense pin that reads a supply: a board
    without one (or whose pin reads none: ``Probe.battery_mv``) never loads its module."""
    if app.probe is not None and app.probe.battery_mv() is not None:
        app.after_frame(lambda: _gauge(app))


def _gauge(app):
    from tablemate.battery import Gauge  # .mpy: 3.5 KB, only with a battery wired
    app.battery = Gauge(app.probe.battery_mv, app.settings["battery"], app.now)


def wait(app, keys):
    """Sleep until the next pass is due: nothing is polled meanwhile, and a key edge or a knob
    turn ends the sleep at once (the input's pin interrupts set ``woken`` and wake the core).

    The sleep is ``machine.lightsleep`` (``hw.nap``), ended early by any interrupt (a key, the
    USB host), hence the loop. While a note plays the PWM must keep its clock, which a
    lightsleep stops: the wait naps 1 ms at a time then, as it always did before.
    """
    from tablemate.app import due
    inp = app.input
    now = ticks_ms()
    end = ticks_add(now, due(app, keys, now))
    buzzer = app.buzzer
    left = ticks_diff(end, now)
    while left > 0 and not inp.woken:
        if buzzer and buzzer.busy:
            sleep_ms(1)
        else:
            hw.nap(left)
        left = ticks_diff(end, ticks_ms())


stopped = None  # the app a computer's Ctrl-C stopped (``save_stopped``, ``again``)
_passing = False  # inside a pass of the loop: a Ctrl-C there left it half done


def run(cfg=BOARD, root="", loops=-1, cycles=-1):
    """Boot, then pass the loop whenever something is due, or at once on a key (``loops``
    limits it for tests)."""
    booted = start(cfg, root, cycles)
    if booted is None:
        return None
    return loop(booted[0], booted[1], loops)


def loop(app, wdt, loops=-1):
    """Pass the loop until a computer's Ctrl-C (mpremote: tablemate pull, flash, mip...) stops
    it: the app stays reachable (``stopped``), with what a full flash kept from being saved,
    and its watchdog is stopped so that nothing resets the board under the computer."""
    global stopped, _passing
    from tablemate.app import collect, step
    keys = app.keys  # key events so far
    try:
        while loops:
            _passing = True
            step(app, wdt)
            keys = collect(app, keys)
            _passing = False
            if app.net is not None and app.settings["phones"]:
                from tablemate.phones.run import run  # Phones on: asyncio, the server, Wi-Fi
                loops = run(app, wdt, loops)  # the loop goes on there until Phones goes off
                keys = app.keys
                continue
            wait(app, keys)
            loops -= 1
    except KeyboardInterrupt:
        stopped = app
        hw.watchdog_off()  # docs/design-notes.md: a computer's Ctrl-C stops the watchdog
        keep_fed(None)
        if app.game is not None:
            app.game.close()  # the computer may read or replace the journal
        raise
    return app


def again(loops=-1):
    """Go on with the app a computer stopped, as it was: its screen, its game in RAM, a new
    watchdog (``tablemate backup`` and ``pull`` read the board without restarting it). None,
    changing nothing, when no app was stopped or the Ctrl-C came inside a pass of the loop
    (half a pass is not safe to go on from: the computer restarts the board instead)."""
    if stopped is None or _passing:
        return None
    return loop(stopped, watchdog(), loops)


def save_stopped():
    """Save what the app that a computer stopped still holds in RAM: the actions a full or
    read-only flash refused (``tablemate pull --free`` calls it once it has made room, before
    the board restarts and resumes the game from its journal). Returns what happened."""
    game = stopped and stopped.game
    if game is None or not game.unsaved:
        return "nothing unsaved"
    n = game.unsaved
    from tablemate.flow import play  # .mpy: 6.7 KB, loaded only by a game
    try:
        play.save(stopped, game)
    except OSError as exc:
        # .mpy: 2 KB the home menu and its boot do without
        from tablemate.store.files import trouble
        return "%d lines not saved: %s" % (n, trouble(exc))
    return "%d lines saved" % n

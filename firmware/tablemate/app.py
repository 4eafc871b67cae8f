"""The app: one loop tick at a time, a stack of screens, idle dimming and the error net.

Everything the app touches is injected (display, an input per button layout, buzzer, a hardware
probe for the self-test, a root directory for files), and
time arrives as ``now`` with every ``tick``: the same object runs on the Pico under ``main.py``, in
the terminal simulator and in scenario tests with a fake clock.
"""

import gc
import sys

from micropython import const

from tablemate import VERSION, ticks_diff, ticks_ms, unload
from tablemate import keys as K
from tablemate import screens
from tablemate.ui import text

_AWAKE = const(0)
_DIM = const(1)
_OFF = const(2)
_WOKEN_MS = const(2000)  # how long the line that says a press only woke the screen stays
WOKEN = "Woken: press again"  # a dark panel showed nothing to press on: that press is not used
CONTRAST = (2, 24, 64, 144, 255)  # the brightness setting 1..5 as the SSD1306's contrast
_SETTINGS = "tablemate.store.settings"
NAP_MAX_MS = 1000  # the longest sleep between passes: the watchdog counts on in a lightsleep
GC_PAUSE_MS = 30  # garbage is collected this long after the last key, not in a key's path
GC_KEYS = 8  # ... once this many key events came since the last collection


class App:
    """Owns the screen stack and routes keys, ticks and redraws to it."""

    def __init__(self, display, input_for, root="", buzzer=None, probe=None, layouts=None):
        """``input_for(layout)`` builds an object with ``poll(now, emit)`` and ``close()``;
        ``layouts`` are the ones the board wires (all of ``settings.LAYOUTS`` by default).

        The settings' module reads the file here and goes once the boot is over (``_settled``):
        the app keeps the settings, not the 2 KB of code that checks them (Settings and the
        name editor import it when opened, a save imports it)."""
        from tablemate.store import settings  # .mpy: 3.8 KB, let go once read (app.py)
        self.display = display
        self.input_for = input_for
        self.root = root
        self.buzzer = buzzer
        self.probe = probe
        self.layouts = layouts or settings.LAYOUTS
        self.input = None
        self.stack = []
        self.game = None  # the game in progress, kept in RAM by ``modes`` between visits
        self.battery = None  # the battery gauge, if any (``boot.sense``)
        self.net = None  # on a board with Wi-Fi, what makes its access point (``phones.run``)
        self.phones = None  # the phones' service while the Phones setting is on
        self.now = 0
        self.version = VERSION
        settings.data_folder(root)
        self.settings, self._problem = settings.load(self.path("settings.json"))
        self.layout = None
        self._use_layout(self.settings["layout"])
        self._later = []  # what runs once this pass's frame is sent (journal writes)
        self._soon = []  # work for a quiet pass: modules the player will probably need next
        self._keyed = False  # a key event came in this pass
        self._emit = self._on_key  # one bound method for good: an idle pass allocates nothing
        self._idle = _AWAKE
        self._last_input = 0
        self.last_key = 0  # when the last key event came (the loop collects garbage after a pause)
        self.keys = 0  # key events so far
        self._swallow = 0
        self._woken = None  # when WOKEN went up (None: not shown)
        self._failing = False

    # -- files ---------------------------------------------------------------
    def path(self, name):
        """Where the data file ``name`` lives: ``/data`` on the device's flash."""
        return self.root + "/data/" + name

    # -- lifecycle -------------------------------------------------------------
    def start(self, now):
        """Show the home screen, then anything found at boot that the player must know.

        The questions come once the home menu is on the panel: reading a saved game's journal
        and loading the dialogs would otherwise delay the first frame by 90 ms on a Pico.
        """
        self.now = now
        self._last_input = now
        self.apply_settings()
        self.push(screens.Home(self, look=False))
        self.after_frame(self._ask_at_boot)
        self.after_frame(self._settled)

    def _settled(self):
        """The boot's last chore: ``/data`` made on a first boot, then the settings' module let
        go (see ``__init__``)."""
        from tablemate.store import settings  # .mpy: 3.8 KB, let go once read (app.py)
        settings.data_folder(self.root, True)
        unload((_SETTINGS,))

    def _ask_at_boot(self):
        from tablemate.screens import saved  # .mpy: let go once asked (app.py)
        self.stack[0].on_open()  # the home menu learns about the saved game ("Continue")
        saved.offer(self)
        unload(("tablemate.screens.saved",))  # a question asked holds what it needs
        if self._problem:  # on top, so it is read before the resume question
            # .mpy: 2.8 KB a game holds only once a dialog shows
            from tablemate.ui.dialogs import Notice
            self.push(Notice(self, self._problem))
            self._problem = None

    def tick(self, now):
        """One pass of the loop: input, timers, idle, redraw. Never raises."""
        self.now = now
        try:
            self._keyed = False
            self.input.poll(now, self._emit)
            if self.stack:
                self.stack[-1].tick(now)
                if self._woken is not None and ticks_diff(now, self._woken) >= _WOKEN_MS:
                    self._woken = None
                    self.stack[-1].dirty = True
            self._check_idle(now)
            if self.battery is not None and self.battery.tick(now):
                self.battery.tell(self)
            if self.buzzer:
                self.buzzer.tick(now)
            busy = self.redraw() or self._keyed
            later = self._later
            while later:
                busy = True
                later.pop(0)()
            if self._soon and not busy:
                self._soon.pop(0)()
        except Exception as exc:  # the net: a broken screen must not take the game with it
            self.fail(exc)

    def due(self, now, most):
        """Milliseconds from ``now`` until a pass has something to do, at most ``most``; 0 when
        it has at once. The main loop sleeps that long (``boot.wait``, through ``due`` below) unless a key edge wakes
        it: the deadlines are the top screen's (``Screen.due``: a clock's next second, a
        pending add), the keys' (a held key's repeat), the buzzer's next note, the dimming and
        switching off, the line that says a press only woke the screen; work queued with
        ``soon`` or a screen left dirty needs a pass now."""
        if self._soon or self._later or self._dirty() is not None:  # 0: the home menu
            return 0
        top = self.stack[-1] if self.stack else None
        ms = _sooner(most, self.input.due(now))
        if top is not None:
            ms = _sooner(ms, top.due(now))
        if self.buzzer:
            ms = _sooner(ms, self.buzzer.due(now))
        if self._woken is not None:
            ms = _sooner(ms, _WOKEN_MS - ticks_diff(now, self._woken))
        if top is None or not getattr(top, "keep_awake", False):
            ms = _sooner(_sooner(ms, self._idle_in(now, False)), self._idle_in(now, True))
        return ms if ms > 0 else 0

    # -- the screen stack ------------------------------------------------------------
    def push(self, screen):
        if self.stack:
            self.stack[-1].on_hide()
        self.stack.append(screen)
        screen.dirty = True
        screen.on_open()

    def pop(self):
        """Close the top screen and uncover the one below."""
        screen = self.stack.pop()
        screen.on_close()
        if self.stack:
            top = self.stack[-1]
            top.dirty = True
            top.on_open()
        return screen

    def replace(self, screen):
        """Swap the top screen for ``screen`` (a setup menu turning into the game)."""
        old = self.stack.pop()
        old.on_close()
        self.push(screen)

    def home(self):
        """Close every screen above the home menu."""
        while len(self.stack) > 1:
            self.pop()

    def top(self):
        return self.stack[-1] if self.stack else None

    # -- services for screens --------------------------------------------------------
    def after_frame(self, fn):
        """Call ``fn`` once this pass's frame is on the panel: the screen never waits for flash."""
        self._later.append(fn)

    def soon(self, fn):
        """Call ``fn`` in a later pass with no key, no frame and no other work: one job a pass.

        For work that makes the next screen quick, such as importing the modules of the game
        the player is about to start (a module costs a Pico 15-30 ms): done while the player
        reads the screen, it is not done while they wait for the next one.
        """
        self._soon.append(fn)

    def beep(self, pattern):
        """Play ``pattern`` ((freq_hz, ms), ...) if a buzzer is fitted and sound is on."""
        if self.buzzer and self.settings["sound"]:
            self.buzzer.play(pattern, self.now)

    def brightness(self, level):
        """Light the panel at brightness ``level`` (the setting's 1..5): the settings' own and the
        Settings page's preview of a new one."""
        self.display.contrast(CONTRAST[level - 1])

    def apply_settings(self):
        """Push brightness and the button layout to the hardware after a settings change."""
        self.brightness(self.settings["brightness"])
        if self.settings["layout"] != self.layout:
            self._use_layout(self.settings["layout"])

    def save_settings(self):
        """Write the settings and apply them; a flash that refuses (full, read-only) keeps them
        in force until the gadget is switched off, and the player is told."""
        from tablemate.store import settings  # loaded already when the Settings page is open
        try:
            settings.save(self.path("settings.json"), self.settings)
        except OSError as exc:
            # .mpy: 2 KB the home menu and its boot do without
            from tablemate.store.files import trouble
            # .mpy: 2.8 KB a game holds only once a dialog shows
            from tablemate.ui.dialogs import Notice
            self.push(Notice(self, trouble(exc) + ":\nthe settings last\nuntil switched off"))
        self.apply_settings()

    def fail(self, exc):
        """Log ``exc``, show it, and leave the player on the home menu with the game intact
        (``screens/error.py``: what of the game in RAM is kept, and how)."""
        if not self._failing:
            self._failing = True
            try:
                from tablemate.screens import error  # only now: a healthy boot never loads it
                error.show(self, exc)
                self._failing = False
                return
            except Exception as again:  # the error screen itself failed
                exc = again
            self._failing = False
        sys.print_exception(exc)
        self.stack = []
        self.display.clear()
        self.display.fill_rect(0, 0, 128, 8, 1)  # a lit bar: the screen code is beyond trust
        self.display.show()

    # -- internals --------------------------------------------------------------------
    def _use_layout(self, layout):
        if layout not in self.layouts:  # settings from another build: take one this board has
            layout = self.settings["layout"] = self.layouts[0]
        if self.input is not None:
            self.input.close()
        self.layout = layout
        self.input = self.input_for(layout)

    def _on_key(self, key, kind):
        self._keyed = True
        self.keys += 1
        self._last_input = self.last_key = self.now
        if self._idle != _AWAKE:
            # A dimmed screen is still read: its press counts (one turn at a table is longer
            # than the dimming delay). A dark one showed nothing to press on: that press (its
            # repeats and release too) only wakes it, and the screen says so.
            if kind != K.PRESS:
                return
            dark = self._idle == _OFF
            self._wake()
            if dark:
                self._swallow = key
                self._woken = self.now
                return
        if self._swallow:
            if key == self._swallow:
                if kind == K.RELEASE:
                    self._swallow = 0
                return
        stack = self.stack
        if key <= K.RIGHT and self.display.turned and not K.linear(self.layout):
            # turned: UP<->DOWN (toward the top of the picture as it is read), LEFT<->RIGHT
            # where they point across the picture, not where they are minus and plus
            if key <= K.DOWN or not (stack and stack[-1].plus_minus):
                key = ((key - 1) ^ 1) + 1
        if stack:
            stack[-1].key(key, kind)

    def _wake(self):
        if self._idle == _OFF:
            self.display.poweron()
            if self.stack:
                self.stack[-1].dirty = True
        self._idle = _AWAKE
        self.apply_settings()

    def _check_idle(self, now):
        top = self.stack[-1] if self.stack else None
        if top is not None and getattr(top, "keep_awake", False):
            self._last_input = now
        off = self._idle_in(now, False)
        dim = self._idle_in(now, True)
        if off is not None and off <= 0:
            self._idle = _OFF
            self.display.poweroff()
        elif dim is not None and dim <= 0:
            self._idle = _DIM
            self.display.contrast(0)

    def _idle_in(self, now, dim):
        """Milliseconds from ``now`` until the screen dims (``dim``) or goes off, None when it
        will not: its delay is "never", or it has happened. ``_check_idle`` acts on them,
        ``due`` sleeps until them (an int each: an idle pass allocates nothing)."""
        if dim:
            delay = self.settings["dim_s"] * 1000 if self._idle == _AWAKE else 0
        else:
            delay = self.settings["off_min"] * 60000 if self._idle != _OFF else 0
        return delay - ticks_diff(now, self._last_input) if delay else None

    def _dirty(self):
        """The index of the top opaque screen when it or one above is dirty (the frame must be
        drawn from there up), else None."""
        stack = self.stack
        if not stack:
            return None
        first = len(stack) - 1
        while first > 0 and not stack[first].opaque:
            first -= 1
        for i in range(first, len(stack)):
            if stack[i].dirty:
                return first
        return None

    def redraw(self):
        """Draw the screens from the top opaque one up and send the frame: True if any was dirty."""
        first = self._dirty()
        if first is None:
            return False
        stack = self.stack
        fb = self.display
        fb.clear()
        for i in range(first, len(stack)):
            stack[i].draw(fb)
            stack[i].dirty = False
        if self.battery is not None and stack[first].shows_battery:
            self.battery.mark(fb)
        if self._woken is not None:  # over the message line, whatever the screen
            text.bar(fb, 0, 7, 128)
            text.put(fb, WOKEN, 1, 7, color=0)
        if self.settings["turn"] or fb.turned:  # face the player: only then loaded
            from tablemate.ui import face  # .mpy: only while the face shows
            face.update(self)
        if self._idle != _OFF:
            fb.show()
        return True


def _sooner(ms, due):
    """The sooner of ``ms`` and ``due`` (None: nothing due)."""
    return ms if due is None or due >= ms else due


# -- the loop's pass ------------------------------------------------------------------
def step(app, wdt):
    """One pass of the loop: tick the app, then feed the watchdog. The boot's loop
    (``boot.loop``) and the phones' (``phones/run.py``) pass the same way, with ``collect``
    and ``due`` here: both stand above this module."""
    app.tick(ticks_ms())
    wdt.feed()


def due(app, keys, now):
    """How long the loop may sleep from ``now``: until the app's next deadline (``App.due``)
    or the garbage collection's pause after ``GC_KEYS`` keys, at most ``NAP_MAX_MS``."""
    ms = app.due(now, NAP_MAX_MS)
    if app.keys - keys >= GC_KEYS:
        gc_ms = GC_PAUSE_MS - ticks_diff(now, app.last_key)
        if gc_ms < ms:
            ms = gc_ms if gc_ms > 0 else 0
    return ms


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


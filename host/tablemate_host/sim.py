"""``tablemate sim``: the real firmware app in a terminal, in real time, drawn in text.

The simulator is a ``Device`` (the real ``main.py`` on fake hardware) whose fake clock follows the
wall clock. Keys become button levels on the fake GPIO pins. A terminal sends no key-up, only a
character per press and, while a key is held, its own auto-repeat (after ~500 ms, every ~30 ms):
so a character holds its button for ``RELEASE_MS``, a repeat arriving within that time keeps it
held (the firmware's own auto-repeat then runs), and a character after a longer pause is a new
press. With the rotary encoder layout, UP/DOWN turn the knob one detent and OK is its push
switch. It needs only ANSI escapes, so it works over ssh. The device's flash is a directory that
outlives the process: kill the simulator mid-game and start it again to resume.

The picture is half-blocks where the terminal holds 130x36, braille cells in a smaller one
(down to 66x21: a default 80x24 terminal), chosen again at each resize (``simdraw``). What the
firmware prints for the serial console is kept off the picture (``Console``).

``--layout`` is for one run: the layout saved in the device's settings stays as it was, unless
the player keeps another one in the device's own Settings menu.
"""

import contextlib
import os
import queue
import shutil
import signal
import sys
import threading
import time

from tablemate_host import simdraw
from tablemate_host.device import TICK_MS, Device
from tablemate_host.fakeclock import ticks_add, ticks_diff

# A key is let go when no repeat of it came for this long: longer than a terminal's auto-repeat
# interval (30-40 ms), shorter than the pause between two quick taps (100 ms).
RELEASE_MS = 70
MARGIN_MS = 200  # a hold key's hold lasts this much past what the firmware counts
KEYMAP = {
    "\x1b[A": "UP", "\x1b[B": "DOWN", "\x1b[C": "RIGHT", "\x1b[D": "LEFT",
    "w": "UP", "s": "DOWN", "a": "LEFT", "d": "RIGHT",
    "\r": "OK", "\n": "OK", " ": "OK",
    "\x7f": "BACK", "\x08": "BACK", "\x1b": "BACK", "b": "BACK",
}
# The help line of each layout names only keys that do something with that layout.
HELP = {
    "six": "\u2190\u2191\u2192\u2193/wasd move  Enter/Space OK  o long OK (hold)  "
           "Backspace/Esc/b BACK  q quit",
    "five": "\u2190\u2191\u2192\u2193/wasd move  Enter/Space OK  "
            "o/Backspace/Esc/b BACK (long OK)  q quit",
    "three": "\u2191\u2193/ws PREV/NEXT  Enter/Space OK  o/Backspace/Esc/b BACK (long OK)  q quit",
    "encoder": "\u2191\u2193/ws turn the knob  Enter/Space push  "
               "o/Backspace/Esc/b BACK (long push)  q quit",
}


def default_data_dir():
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "tablemate", "sim")


def wipe(data):
    """Empty the simulated flash (``--fresh``): its files and its folders, such as ``data/``."""
    for name in os.listdir(data):
        path = os.path.join(data, name)
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path)
        else:
            os.remove(path)


def split_keys(data):
    """Split terminal input into key tokens (escape sequences kept whole)."""
    tokens = []
    i = 0
    while i < len(data):
        if data[i] == "\x1b" and data[i + 1:i + 2] == "[" and i + 2 < len(data):
            tokens.append(data[i:i + 3])
            i += 3
        else:
            tokens.append(data[i])
            i += 1
    return tokens


class Console:
    """What the firmware prints, kept off the picture.

    On the Pico ``print`` goes to the USB serial console, which nobody at the table reads; here
    sys.stdout is the terminal the picture is drawn on, so About's free-RAM line, the watchdog's
    restart notice or a traceback would land over the frame. While the firmware runs
    (``Sim.run_for``), sys.stdout and sys.stderr are this: its last line is on the status line,
    and ``main`` writes all of it into the shell once the terminal is given back.
    """

    def __init__(self):
        self.text = ""
        self.last = ""  # the last line that is not blank

    def write(self, s):
        self.text += s  # a few lines in a run: About, a watchdog reset, an error
        lines = [line for line in self.text.split("\n") if line.strip()]
        self.last = lines[-1].strip() if lines else ""
        return len(s)

    def flush(self):
        pass


class Sim:
    """Turns key tokens and wall-clock time into button levels and device ticks.

    ``layout`` (``--layout``) is used for this run only; see ``_use_run_layout``.
    """

    def __init__(self, dev, layout=None):
        self.dev = dev
        self.layout = layout
        self.held = {}  # key name -> fake-clock ms at which to release it
        self.let_go = {}  # key name -> fake-clock ms at which it was last released
        self.quit = False
        self.console = Console()
        self.app = None  # the app the run layout was given to (a watchdog reset boots another)
        self._adopt()

    # -- the layout of this run ----------------------------------------------------------------
    def _adopt(self):
        """Give a newly booted app the run's layout."""
        self.app = self.dev.app
        if self.app is not None and self.layout is not None:
            self._use_run_layout(self.app)

    def _use_run_layout(self, app):
        """Switch ``app`` to the run's layout without writing it to the device's settings.

        The app booted with the layout on its flash; the run's layout replaces it in RAM only.
        Its settings saves go through ``save_settings``, which writes the layout found on flash
        instead of the run's: changing the brightness in this run must not change the buttons
        of the next one. Keeping another layout in the Settings menu is the player's own choice:
        that one is saved, and the run's layout is over.
        """
        from tablemate.store import settings
        on_flash = app.settings["layout"]
        app.settings["layout"] = self.layout
        app.apply_settings()
        if app.stack:
            app.stack[-1].dirty = True  # a screen may show the keys it expects
        # One pass, so the new input samples its buttons at rest: a key down at its first sample
        # would be taken for one held across the change, and ignored until released.
        self.run_for(TICK_MS)

        def save_settings():  # App.save_settings, with the file keeping the layout it had
            values = dict(app.settings)
            if values["layout"] == self.layout:
                values["layout"] = on_flash
            else:
                self.layout = None
            settings.save(app.path("settings.json"), values)
            app.apply_settings()

        app.save_settings = save_settings

    def _has_back(self):
        from tablemate import keys
        return keys.BACK in keys.LAYOUTS[self.dev.app.layout]

    def _hold(self):
        """What the hold key ``o`` holds, and for how long: a long OK (``keys.LONG_MS``), or
        on a page left by holding a key (the self-test's key page: its ``leave_hold``) that key for
        as long as the page counts, so that the page's hint and the key agree."""
        from tablemate import keys
        hold = getattr(self.dev.app.top(), "leave_hold", None)
        key, ms = hold if hold else (keys.OK, keys.LONG_MS)
        return keys.NAMES[key], ms + MARGIN_MS

    def help(self):
        """The keys of the current layout, one line."""
        return HELP[self.dev.app.layout]

    # -- keys and time -------------------------------------------------------------------------
    def key(self, token):
        """Handle one key token from the terminal, now (``self.dev.now``).

        A repeat of a held key keeps it held; otherwise the key is pressed afresh. A key let go
        less than one loop pass ago is first left up until the firmware has sampled it up, so
        two quick taps never merge into one press.
        """
        if token == "q":
            self.quit = True
            return
        arrived = self.dev.now
        name = KEYMAP.get(token)
        hold = RELEASE_MS
        if token == "o" or (name == "BACK" and not self._has_back()):
            name, hold = self._hold()  # layouts without BACK: a long OK is BACK
        if name is None:
            return
        if self.dev.app.layout == "encoder" and name in ("UP", "DOWN"):
            self.dev.turn(-1 if name == "UP" else 1)  # arrows turn the knob by one detent
            return
        if name not in self.held:
            if name in self.let_go:
                self.run_for(TICK_MS - ticks_diff(self.dev.now, self.let_go[name]))
            self.dev.down(name)
        self.held[name] = ticks_add(arrived, hold)  # from the key, however late its press

    def play(self, keys, until):
        """Hand the device ``keys`` ((fake-clock ms, token), oldest first), each at the time it
        arrived, then run it up to ``until``.

        Why the times: the loop reads the terminal between passes that run the device and draw,
        so keys read together may have arrived 100 ms apart; pressed at the time of the read, two
        taps could come so close that they read as a held key.
        """
        for at, token in keys:
            self.run_until(at)
            self.key(token)
        self.run_until(until)

    def run_until(self, at):
        """Run the device up to fake-clock ``at`` (nothing if it is there already)."""
        self.run_for(ticks_diff(at, self.dev.now))

    def run_for(self, ms):
        """Advance the device by ``ms`` of time, releasing each key exactly when its hold ends;
        what the firmware prints meanwhile goes to ``self.console``."""
        with contextlib.redirect_stdout(self.console), contextlib.redirect_stderr(self.console):
            self._run_for(ms)

    def _run_for(self, ms):
        end = ticks_add(self.dev.now, ms)
        while ticks_diff(end, self.dev.now) > 0:
            stop = end
            for until in self.held.values():
                if ticks_diff(until, stop) < 0:
                    stop = until
            self.dev.advance(max(0, ticks_diff(stop, self.dev.now)))
            if self.dev.app is not self.app:  # the watchdog reset the device
                self._adopt()
            self._release_due()

    def _release_due(self):
        for name, until in list(self.held.items()):
            if ticks_diff(self.dev.now, until) >= 0:
                self.dev.up(name)
                del self.held[name]
                self.let_go[name] = self.dev.now

    # -- the picture ---------------------------------------------------------------------------
    def frame(self, drawing="full"):
        """The screen as lines of ``simdraw.SIZES[drawing]``: the panel inside a frame, a
        status line (the screen's state, a beep, the console's last line) and the help line."""
        panel = self.dev.panel
        from tablemate_host import machine
        dim = panel.contrast < 8
        status = ["screen " + ("off" if not panel.display_on else "dim" if dim else "on")]
        if any(log and log[-1][2] for log in machine.world.pwm.values()):
            status.append("\u266a beep")
        if self.console.last:
            status.append("serial: " + self.console.last)
        return simdraw.frame(panel, drawing, dim, "  ".join(status), self.help())


class Terminal:
    """The terminal the simulator draws on.

    ``open`` changes it: keys unbuffered and not echoed (cbreak), the alternate screen, the cursor
    hidden. ``close`` undoes exactly that, however the run ends (``q``, Ctrl-C, SIGTERM, SIGHUP
    or an error), so the shell gets its terminal back as it was; only SIGKILL, which no program
    can catch, leaves it changed (the README says: type ``reset``). Frames are written line by
    line, only the lines that changed: a key press rewrites a few lines, not 14 KB, which keeps
    the loop quick over a slow link.
    """

    ENTER = "\x1b[?1049h\x1b[?25l"
    LEAVE = "\x1b[0m\x1b[?25h\x1b[?1049l"

    def __init__(self, fd, out):
        self.fd = fd
        self.out = out
        self.saved = None
        self.shown = []  # the lines on the screen, [] after a clear

    def open(self):
        import termios
        import tty
        self.saved = termios.tcgetattr(self.fd)
        tty.setcbreak(self.fd)
        self._write(self.ENTER)

    def close(self):
        """Restore the terminal; a terminal already gone (SIGHUP) is no reason to fail."""
        import termios
        try:
            self._write(self.LEAVE)
        except OSError:
            pass
        try:
            termios.tcsetattr(self.fd, termios.TCSADRAIN, self.saved)
        except (OSError, termios.error):
            pass

    def size(self):
        """(columns, rows) of the terminal now."""
        size = os.get_terminal_size(self.out.fileno())
        return size.columns, size.lines

    def clear(self):
        """Blank the screen; the next ``show`` draws every line."""
        self._write("\x1b[H\x1b[2J")
        self.shown = []

    def say(self, line):
        """Blank the screen and show ``line`` alone."""
        self.clear()
        self._write(line)

    def show(self, lines):
        """Draw ``lines`` from the top left, writing only those that changed since the last."""
        parts = []
        for i, line in enumerate(lines):
            if i >= len(self.shown) or self.shown[i] != line:
                parts.append("\x1b[%d;1H%s" % (i + 1, line))
        self.shown = list(lines)
        if parts:
            self._write("".join(parts))

    def _write(self, s):
        self.out.write(s)
        self.out.flush()


class KeyReader:
    """Reads the terminal in a thread of its own and stamps each key with when it arrived.

    The loop that runs the device and draws cannot also watch the keyboard; with the keys
    stamped here, ``Sim.play`` presses each at its own time however long a pass took.
    """

    def __init__(self, fd):
        self.fd = fd
        self.keys = queue.Queue()
        self.closed = False  # the terminal went away (end of input)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        while True:
            try:
                data = os.read(self.fd, 64)
            except OSError:
                data = b""
            if not data:
                self.keys.put(None)
                return
            now = time.monotonic()
            for token in split_keys(data.decode("utf-8", "replace")):
                self.keys.put((now, token))

    def take(self, timeout):
        """The keys that arrived since the last call as (monotonic s, token); waits up to
        ``timeout`` s for the first."""
        items = []
        try:
            items.append(self.keys.get(timeout=timeout))
            while True:
                items.append(self.keys.get_nowait())
        except queue.Empty:
            pass
        if None in items:
            self.closed = True
        return [item for item in items if item is not None]


class Signals:
    """What the signals ask of the loop, seen by it at its next pass (every 10 ms).

    SIGTERM, SIGHUP and SIGINT end the run like ``q``: handled in the loop rather than where
    they strike, the terminal is restored and the firmware finishes its pass (a journal line is
    never cut in half by a quit). SIGWINCH asks for a fresh picture at the new size.
    """

    ENDING = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)

    def __init__(self):
        self.ending = None  # the signal that ends the run
        self.resized = True  # measure the terminal at the first pass

    def install(self):
        for sig in self.ENDING:
            if signal.getsignal(sig) is not signal.SIG_IGN:  # nohup: a hangup stays ignored
                signal.signal(sig, self._end)
        signal.signal(signal.SIGWINCH, self._resize)

    def _end(self, signum, frame):
        self.ending = signum

    def _resize(self, signum, frame):
        self.resized = True

    def die_as_asked(self):
        """After the clean-up, end the process by SIGTERM or SIGHUP as it was asked to, so the
        shell or service manager that sent it sees it obeyed (Ctrl-C is an ordinary quit)."""
        if self.ending in (signal.SIGTERM, signal.SIGHUP):
            signal.signal(self.ending, signal.SIG_DFL)
            os.kill(os.getpid(), self.ending)


def run(sim, term, signals, reader, wanted="auto"):
    """The loop: keys, time and pictures until ``q``, a signal or the end of input.

    At the start and after each resize it picks the drawing (``wanted``: "auto", "full" or
    "compact"; ``simdraw.choose``). While the terminal is too small for it, it shows one line
    saying so and waits for a resize; the device keeps running, and keys other than ``q`` are
    dropped (the player cannot see them act).
    """
    origin, start = sim.dev.now, time.monotonic()

    def device_ms(t):
        return ticks_add(origin, int((t - start) * 1000))

    drawing = None
    while not (sim.quit or signals.ending or reader.closed):
        stamped = reader.take(0.01)
        if signals.resized:
            signals.resized = False
            cols, rows = term.size()
            drawing = simdraw.choose(cols, rows, wanted)
            if drawing:
                term.clear()
            else:
                term.say(simdraw.too_small(cols, rows, wanted))
        keys = [(device_ms(t), token) for t, token in stamped if drawing or token == "q"]
        sim.play(keys, device_ms(time.monotonic()))
        if drawing and not sim.quit:
            term.show(sim.frame(drawing))


def power_on(data, sh1106=False):
    """The simulated board on the flash folder ``data``, its calendar clock set to this
    computer's time, as every command that connects sets a board's: the games played in the
    simulator are dated (their start and end in the history)."""
    from tablemate_host import flash
    return Device(data, sh1106=sh1106, rtc=flash.rtc_time())


def main(args):
    """Run the simulator until 'q' (or Ctrl-C, SIGTERM, SIGHUP).

    A run ended by SIGTERM or SIGHUP dies of that signal once the terminal is restored, so the
    script or service manager that sent it sees it obeyed; with ``--exit-zero-on-signal`` it
    exits 0 as after ``q`` instead. ``make sim`` asks for that: make reports a recipe whose
    command died of a signal as a failure ("make: *** [Makefile:NN: sim] Terminated"), while
    make itself, when it was the one signalled, still dies of the signal after its child ends.
    """
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        print("tablemate sim needs a terminal (try: ssh -t, or run it directly).")
        return 2
    data = args.data or default_data_dir()
    os.makedirs(data, exist_ok=True)
    if args.fresh:
        wipe(data)
    sim = Sim(power_on(data, args.sh1106), layout=args.layout)
    if sim.dev.app is None:
        print("No display: the firmware is blinking its error code.")
        return 1
    term = Terminal(sys.stdin.fileno(), sys.stdout)
    signals = Signals()
    signals.install()
    term.open()
    try:
        run(sim, term, signals, KeyReader(sys.stdin.fileno()), args.drawing)
    finally:
        term.close()
    try:
        print(sim.console.text + "Game data kept in %s (run again to resume)." % data, flush=True)
    except OSError:
        pass  # the terminal is gone
    if not args.exit_zero_on_signal:
        signals.die_as_asked()
    return 0

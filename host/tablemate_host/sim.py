"""``tablemate sim``: the real firmware app in a terminal, in real time, drawn in half-blocks.

The simulator is a ``Device`` (the real ``main.py`` on fake hardware) whose fake clock follows the
wall clock. Keys become button levels on the fake GPIO pins: a key is held down until no repeat of
it has arrived for a moment, so holding a key in the terminal holds the button and the firmware's
own auto-repeat runs. With the rotary encoder layout, UP/DOWN turn the knob one detent and OK
is its push switch. It needs only ANSI escapes, so it works over ssh. The device's flash is a
directory that outlives the process: kill the simulator mid-game and start it again to resume.
"""

import os
import select
import shutil
import sys
import time

from tablemate_host.device import Device
from tablemate_host.fakes import ticks_diff

RELEASE_MS = 70  # a key is let go when no repeat of it came for this long
LONG_MS = 900
KEYMAP = {
    "\x1b[A": "UP", "\x1b[B": "DOWN", "\x1b[C": "RIGHT", "\x1b[D": "LEFT",
    "w": "UP", "s": "DOWN", "a": "LEFT", "d": "RIGHT",
    "\r": "OK", "\n": "OK", " ": "OK",
    "\x7f": "BACK", "\x08": "BACK", "\x1b": "BACK", "b": "BACK",
}
HELP = ("arrows/wasd move  Enter/Space OK  Backspace/Esc/b BACK  "
        "o long OK  q quit")


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


class Sim:
    """Turns key tokens and wall-clock time into button levels and device ticks."""

    def __init__(self, dev):
        self.dev = dev
        self.held = {}  # key name -> fake-clock ms at which to release it
        self.quit = False
        self.last_frame = None

    def _has_back(self):
        from tablemate import keys
        return keys.BACK in keys.LAYOUTS[self.dev.app.layout]

    def key(self, token):
        """Handle one key token from the terminal."""
        if token in ("q", "\x03"):
            self.quit = True
            return
        name = KEYMAP.get(token)
        hold = RELEASE_MS
        if token == "o" or (name == "BACK" and not self._has_back()):
            name, hold = "OK", LONG_MS  # layouts without BACK: a long OK is BACK
        if name is None:
            return
        if self.dev.app.layout == "encoder" and name in ("UP", "DOWN"):
            self.dev.turn(-1 if name == "UP" else 1)  # arrows turn the knob by one detent
            return
        if name not in self.held:
            self.dev.down(name)
        self.held[name] = self.dev.now + hold

    def run_for(self, ms):
        """Advance the device by ``ms`` of time, releasing keys whose hold has run out."""
        while ms > 0:
            step = min(ms, 10)
            self.dev.advance(step)
            ms -= step
            for name, until in list(self.held.items()):
                if ticks_diff(self.dev.now, until) >= 0:
                    self.dev.up(name)
                    del self.held[name]

    def frame(self):
        """The screen as text: the panel in half-blocks inside a frame, and a status line."""
        panel = self.dev.panel
        from tablemate_host import machine
        beeping = any(log and log[-1][2] for log in machine.world.pwm.values())
        body = panel.to_text().split("\n") if panel.display_on else [" " * 128] * 32
        dim = panel.contrast < 8
        lines = ["\u250c" + "\u2500" * 128 + "\u2510"]
        for row in body:
            lines.append("\u2502" + ("\x1b[2m" + row + "\x1b[0m" if dim else row) + "\u2502")
        state = "off" if not panel.display_on else ("dim" if dim else "on")
        status = " screen %s  %s  %s" % (state, "\u266a beep" if beeping else "      ", HELP)
        lines.append("\u2514" + "\u2500" * 128 + "\u2518")
        lines.append(status[:130].ljust(130))
        return "\n".join(lines)


def main(args):
    """Run the simulator until 'q'."""
    import termios
    import tty
    data = args.data or default_data_dir()
    os.makedirs(data, exist_ok=True)
    if args.fresh:
        wipe(data)
    dev = Device(data, layout=args.layout, sh1106=args.sh1106)
    if dev.app is None:
        print("No display: the firmware is blinking its error code.")
        return 1
    sim = Sim(dev)
    out = sys.stdout
    if not sys.stdin.isatty():
        print("tablemate sim needs a terminal (try: ssh -t, or run it directly).")
        return 2
    cols = os.get_terminal_size().columns
    if cols < 130:
        print("Your terminal is %d columns wide; the screen needs 130. Widen it." % cols)
        time.sleep(2)
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    tty.setcbreak(fd)
    out.write("\x1b[?25l\x1b[2J")
    last = time.monotonic()
    try:
        while not sim.quit:
            ready, _, _ = select.select([fd], [], [], 0.01)
            if ready:
                for token in split_keys(os.read(fd, 64).decode("utf-8", "replace")):
                    sim.key(token)
            now = time.monotonic()
            elapsed = int((now - last) * 1000)
            if elapsed >= 10:
                sim.run_for(elapsed)
                last += elapsed / 1000.0
            frame = sim.frame()
            if frame != sim.last_frame:
                sim.last_frame = frame
                out.write("\x1b[H" + frame)
                out.flush()
    except KeyboardInterrupt:
        pass
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        out.write("\x1b[?25h\n")
        out.flush()
    print("Game data kept in %s (run again to resume)." % data)
    return 0

"""Check that the board tools respect the game on the table (issue 27), on real rp2 firmware.

    .venv/bin/python tools/pico/board_tools_check.py --rig DIR [--keep FOLDER]

DIR is a built copy of the emulated-Pico rig (``tools/pico/rig``, see tools/pico/README.md);
the board's USB serial is a pseudo-terminal, as in ``serial_check.py`` (whose ``Pico``, ``Story``
and ``tablemate`` this reuses). The story:

1. ``tablemate flash`` on a fresh Pico (every file written);
2. ``tablemate flash`` again: nothing differs, so no module is written and the count skipped is
   said;
3. a connection to the running app: its Ctrl-C stopped the watchdog (ENABLE clear), and the
   board's clock reads this computer's date (set by the connection before);
4. ``mpremote mip install --target / ./package.json`` from this clone over the running app: it
   must finish (before, the watchdog cut it after 14 files) and the board must boot after it;
5. ``tablemate backup`` and 6. ``tablemate pull`` over the running app: each says the app goes
   on where it was; no soft reboot on the console, the same screen; then a key press moves
   the home menu's cursor (the app runs).

Not part of `make test` (CI has no rig). Exit status 1 when a check fails.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import serial_check  # noqa: E402
from serial_check import ROOT, Pico, Story, must_boot, tablemate  # noqa: E402

from tablemate_host import flash  # noqa: E402


def _mip(port):
    """``mpremote mip install`` of this clone's package.json, as the README gives it."""
    mpremote = os.path.join(os.path.dirname(sys.executable), "mpremote")
    start = time.monotonic()
    run = subprocess.run([mpremote, "connect", port, "mip", "install", "--target", "/",
                          "./package.json", "+", "reset"], cwd=ROOT, capture_output=True,
                         text=True, timeout=1800)
    return run.returncode, run.stdout, run.stderr, time.monotonic() - start


def _connected(port):
    """(watchdog running when the connection stopped the app, the board's clock, its date)."""
    board = flash.connect(port)
    try:
        rtc = board.eval("machine.RTC().datetime()")
        return board.watchdog, tuple(rtc)
    finally:
        board.reset()


def run(rig, work, picos):
    story = Story()
    a = Pico(rig, work, "a")
    picos.append(a)
    rc, out, err, _ = story.step(a, "1. tablemate flash (fresh Pico)",
                                 lambda: tablemate("flash", "--port", a.tty))
    story.check(rc == 0, "flash wrote " + serial_check._written(out), err.strip())
    frames = must_boot(a, 0, "the first flash")

    rc, out, err, _ = story.step(a, "2. tablemate flash again (nothing changed)",
                                 lambda: tablemate("flash", "--port", a.tty))
    said = [line for line in out.splitlines() if "unchanged on the board" in line]
    story.check(rc == 0 and said and said[0].startswith("Writing 0 files"),
                "flash skipped the unchanged files", (said or [out[-300:]])[0] + err.strip())
    frames = must_boot(a, frames, "the second flash")

    wdt, rtc = story.step(a, "3. connect to the running app", lambda: _connected(a.tty))
    story.check(not wdt, "the app's Ctrl-C stopped its watchdog")
    today = time.localtime()
    story.check(rtc[:3] == (today.tm_year, today.tm_mon, today.tm_mday),
                "the board's clock is set", "RTC %r" % (rtc,))
    frames = must_boot(a, frames, "the connection")

    rc, out, err, _ = story.step(a, "4. mpremote mip install ./package.json (app running)",
                                 lambda: _mip(a.tty))
    installed = out.count("Installing:")
    story.check(rc == 0 and "could not enter raw repl" not in err,
                "mip install finished: %d files" % installed, err.strip()[-300:])
    frames = must_boot(a, 0, "the mip install")  # mpremote's reset: a new boot counts anew

    for n, what, args in (("5", "backup", ("backup", os.path.join(work, "bk"))),
                          ("6", "pull", ("pull", "--out", os.path.join(work, "pulled")))):
        before = a.frame("before-" + what)
        reboots = a.serial_log().count("soft reboot")
        rc, out, err, _ = story.step(a, "%s. tablemate %s (app running)" % (n, what),
                                     lambda: tablemate(*(args + ("--port", a.tty))))
        time.sleep(2)
        story.check(rc == 0 and out.rstrip().endswith(flash.GOES_ON),
                    "%s says the app goes on" % what, (out + err).strip()[-300:])
        story.check(a.serial_log().count("soft reboot") == reboots,
                    "%s restarted nothing (no soft reboot on the console)" % what)
        story.check(a.frame("after-" + what) == before, "the screen is as it was")
    a.ask("press 11 80")  # DOWN: the app that went on answers it (the home menu's cursor moves)
    time.sleep(3)
    story.check(a.frame("after-down") != before, "the app answers a key after the pull")
    return story


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rig", required=True, help="a built copy of tools/pico/rig")
    parser.add_argument("--keep", help="keep the emulator's output in this folder")
    args = parser.parse_args(argv)
    work = args.keep or tempfile.mkdtemp(prefix="tablemate-tools-")
    os.makedirs(work, exist_ok=True)
    picos = []
    try:
        story = run(os.path.abspath(args.rig), work, picos)
    finally:
        for p in picos:
            if p.proc.poll() is None:
                p.pull_cable()
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    print("%d check%s failed" % (len(story.failed), "" if len(story.failed) == 1 else "s")
          if story.failed else "every check passed")
    return 1 if story.failed else 0


if __name__ == "__main__":
    sys.exit(main())

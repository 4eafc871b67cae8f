"""Check `tablemate pull --free` on real rp2 firmware: a full flash, a game played on in RAM, room
made from the computer, and not one action lost.

    .venv/bin/python tools/pico/free_check.py --rig DIR [--keep FOLDER]

DIR is a built copy of the emulated-Pico rig (tools/pico/README.md); the board's USB serial is a
pty through socat (``tools/pico/rig/SERIAL.md``), so the host side is what a user runs. The flash
holds the ``.mpy`` install, a 4-player scorepad game of 40 actions (its journal ending 5 bytes
short of a block, so the next save needs a new one) and a ``boot.py`` that, at the first power-up
only, fills ``/data/history.old`` with finished games until littlefs refuses even one more line:
a Tablemate that played for years. Then:

1. the game is resumed and played on: the first turn's save is refused ("Flash full: this game
   is not being saved"), the turns go on in RAM;
2. ``tablemate pull --free`` copies the history, removes ``history.old`` from the board and has
   the stopped firmware save what it held in RAM; the board restarts;
3. the game is resumed again: the journal on the flash must hold every action played in step 1,
   and the game's frame must be the one shown before the pull.

Not part of `make test` (CI has no rig): tests/host/test_pull.py checks the same story against a
fake board and the host's flash fault. Exit status 1 when a check fails.
"""

import argparse
import os
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import flashfault  # noqa: E402  (the image: install, settings, a journal padded to its block)
import measure  # noqa: E402
import serial_check as sc  # noqa: E402  (the emulator on a pty, the tablemate command)

_FILL_BOOT = """# Years of games: fill /data/history.old until littlefs refuses a line (first boot only).
import os
if "filled" not in os.listdir("/data"):
    open("/data/filled", "w").close()
    line = b'{"game": "scorepad", "names": ["Ann", "Bob"], "scores": [5, 3], "winners": [0]'
    n = 0
    for per in (40, 1):
        while True:
            try:
                with open("/data/history.old", "ab") as f:
                    f.write(b"".join(line + b', "n": %d}\\n' % (n + i + 1) for i in range(per)))
                n += per
            except OSError:
                break
    print("FILLED", n, "games, FREE blocks", os.statvfs("/")[3])
"""

OK, RIGHT = flashfault.OK, flashfault.RIGHT


def make_flash(rig, work):
    app = os.path.join(work, "app")
    measure.build_app(rig, "mpy", app)
    measure.write_settings(app)
    journal = os.path.join(app, "data", "game.jnl")
    measure.vmbench.make_journal(journal, "scorepad", 4, 40)
    pad = flashfault._BLOCK - 5 - os.path.getsize(journal)
    with open(journal, "ab") as f:
        f.write(b" " * (pad - 2) + b"\x00\n")
    with open(os.path.join(app, "boot.py"), "w") as f:
        f.write(_FILL_BOOT)
    image = os.path.join(work, "full.img")
    flashfault.mkfs(rig, app, image)
    return image


def press(pico, pin, wait_s=1.5):
    pico.ask("press %d 80" % pin)
    time.sleep(wait_s)


def journal_count(port):
    """(actions in the board's saved game, its journal's size), read with the firmware's code."""
    from tablemate.store import readback
    files = sc.board_files(port)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "game.jnl")
        with open(path, "wb") as f:
            f.write(files["/data/game.jnl"])
        got = readback.load(path)
    cp = got.base[1]
    n = (cp["n"] if cp else 0) + len(got.tail)
    return n, got.size, got.problem, sorted(files)


def run(rig, work):
    story = sc.Story()
    image = make_flash(rig, work)
    pico = sc.Pico(rig, work, "free", "--fs", image)
    try:
        sc.BOOT_MS = 180000  # boot.py writes a megabyte first: about a minute of board time
        sc.must_boot(pico, 0, "the first power-up (boot.py fills the flash)")
        sc.BOOT_MS = 15000
        pico.frame("boot")  # "Resume game?"
        press(pico, OK)  # yes
        before = pico.frame("resumed")
        press(pico, RIGHT)
        press(pico, OK, 3)  # the turn ends: its save needs a block the flash does not have
        notice = pico.frame("notice")
        press(pico, OK)  # the notice read
        for _ in range(2):
            press(pico, RIGHT)
            press(pico, OK, 3)
        played = pico.frame("played")
        story.check(played[:len(played) // 8 * 7] != before[:len(before) // 8 * 7],
                    "the turns changed the game on the screen")
        status, out, err, seconds = sc.tablemate("pull", "--free", "--port", pico.tty, "--out",
                                                 os.path.join(work, "pulled"))
        print("-- tablemate pull --free: status %d, %.1f s\n%s%s" % (status, seconds, out, err))
        story.check(status == 0, "pull --free succeeded")
        story.check("removed from the board" in out, "history.old removed")
        story.check("lines saved" in out, "the game in RAM saved", out[-200:])
        sc.must_boot(pico, pico.stats()["frames"], "the restart after the pull")
        press(pico, OK)  # "Resume game?" yes
        after = pico.frame("after")
        n, size, problem, files = journal_count(pico.tty)
        print("-- the saved game: %d actions, journal %d bytes, problem %s; /data: %s"
              % (n, size, problem, ", ".join(files)))
        story.check("history.old" not in " ".join(files), "no history.old on the board")
        story.check(problem is None and n == 40 + 6, "the journal holds all 46 actions", str(n))
        story.check(after.splitlines()[:7] == played.splitlines()[:7],
                    "the resumed game's frame is the one played before the pull")
        print("-- frames\nbefore the turns:\n%s\nthe notice:\n%s\nplayed:\n%s\nafter:\n%s"
              % (before, notice, played, after))
    finally:
        pico.pull_cable()
    return story.failed


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rig", default=os.environ.get("PICO_RIG"), required=not os.environ.get(
        "PICO_RIG"), help="built rig folder (or $PICO_RIG)")
    ap.add_argument("--keep", help="keep the images, frames and logs in this folder")
    args = ap.parse_args(argv)
    work = args.keep or tempfile.mkdtemp(prefix="tablemate-free-")
    os.makedirs(work, exist_ok=True)
    try:
        failed = run(os.path.abspath(args.rig), work)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

"""Check `tablemate flash`, `pull` and `report` over a serial port, against real rp2 firmware.

    .venv/bin/python tools/pico/serial_check.py --rig DIR [--cut-at N] [--keep FOLDER]

DIR is a built copy of the emulated-Pico rig (``tools/pico/rig``, see tools/pico/README.md). Its
``emu/serial.mjs`` boots the real MicroPython v1.28 rp2 firmware and socat puts the board's USB
serial on a pseudo-terminal (``tools/pico/rig/SERIAL.md``), so everything on the host side is what
a user runs: the tablemate command, mpremote's serial transport, pyserial. Ending the emulator
with SIGTERM is pulling the cable: it saves the flash as it was at that instant, a flash program
in progress torn, and the next run boots from it.

The story, one step a row with its figures (wall seconds; bytes the host sent over the serial
line; bytes the board programmed into its flash):

1. ``tablemate flash`` on a fresh Pico;
2. a player's data put on it (settings, a game in progress, a history; made here with the
   firmware's own code), then ``tablemate pull`` and ``tablemate report``;
3. ``tablemate flash --source``: a second flash, the ``.py`` install a hand copy leaves; the data
   must be kept byte for byte;
4. ``tablemate flash`` again, the cable pulled half way (``--cut-at``): the command must say the
   connection was lost and that flashing again repairs the board;
5. the board powered up from the flash it was left with must boot to the frame it showed before;
6. ``tablemate flash`` repairs it: only ``.mpy`` modules, no file left half-written, the data kept,
   the same frame.

Not part of `make test` (CI has no rig): tests/host/test_flash.py cuts a flash at every operation
against a fake board. Exit status 1 when a check fails.
"""

import argparse
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
HOST = os.path.join(ROOT, "host")
sys.path.insert(0, HOST)

import tablemate_host  # noqa: E402,F401  (the fakes, so firmware modules run on CPython)
from tablemate_host import flash, vmbench  # noqa: E402

GAMES = 12  # finished games in the history put on the board
QUIET_MS = 1500  # a boot is over when no frame came for this long, in the board's own time
BOOT_MS = 15000  # a board that drew nothing by then does not boot


class Pico:
    """One power-on of the emulated Pico, its serial port on a pty (SERIAL.md's socat line)."""

    def __init__(self, rig, work, name, *options):
        self.tty = os.path.join(work, "tty-" + name)
        self.ctl = os.path.join(work, "ctl-" + name)
        self.out = os.path.join(work, "out-" + name)
        node = "node emu/serial.mjs --out %s --ctl %s %s" % (self.out, self.ctl, " ".join(options))
        self._log = open(os.path.join(work, "socat-%s.log" % name), "wb")
        # nofork: socat becomes node, so a signal to this process reaches the emulator
        self.proc = subprocess.Popen(
            ["socat", "-d", "-d", "PTY,link=%s,raw,echo=0" % self.tty, "EXEC:%s,nofork" % node],
            cwd=rig, stdout=self._log, stderr=subprocess.STDOUT)
        self.results = None
        _wait(lambda: os.path.exists(self.tty) and os.path.exists(self.ctl), 60, "the emulator")

    def ask(self, command):
        with socket.socket(socket.AF_UNIX) as s:
            s.connect(self.ctl)
            s.sendall(command.encode() + b"\n")
            answer = b""
            while not answer.endswith(b"\n"):
                answer += s.recv(4096)
        return answer.decode().strip()

    def stats(self):
        """The emulator's counters now (or at its end: the cable was pulled)."""
        if self.results:
            return dict(self.results["stats"], flash=self.results["boots"][-1]["flash"])
        return json.loads(self.ask("stats"))

    def frame(self, name):
        """The display now, as text (the rig's ``capture``: NAME.png and NAME.txt in its out)."""
        self.ask("capture " + name)
        with open(os.path.join(self.out, name + ".txt")) as f:
            return f.read()

    def serial_log(self):
        with open(os.path.join(self.out, "serial.log"), "rb") as f:
            return f.read().decode("utf-8", "replace")

    def pull_cable(self):
        """SIGTERM: the power goes, the flash is saved as it is; returns the run's results.json."""
        if self.results is None:
            self.proc.send_signal(signal.SIGTERM)
            self.proc.wait(120)
            self._log.close()
            with open(os.path.join(self.out, "results.json")) as f:
                self.results = json.load(f)
        return self.results


def _wait(ready, seconds, what):
    end = time.monotonic() + seconds
    while not ready():
        if time.monotonic() > end:
            raise SystemExit("serial_check: timed out waiting for %s" % what)
        time.sleep(0.1)


def booted(pico, frames_before):
    """Wait until the board drew a new frame and then nothing for QUIET_MS; the frame count, or
    None when no frame came within BOOT_MS.

    Counted in emulated time: on a busy machine the emulator runs at a twentieth of real time,
    and the resume question comes a few hundred emulated ms after the home menu.
    """
    now = pico.stats()
    last, since = frames_before, now["emuMs"]
    while now["emuMs"] - since < (QUIET_MS if last > frames_before else BOOT_MS):
        time.sleep(0.25)
        now = pico.stats()
        if now["frames"] != last:
            last, since = now["frames"], now["emuMs"]
    return last if last > frames_before else None


def must_boot(pico, frames_before, after):
    """``booted``, where the story cannot go on without a board that boots."""
    frames = booted(pico, frames_before)
    if frames is None:
        raise SystemExit("serial_check: no frame after %s; the serial port says:\n%s"
                         % (after, pico.serial_log()[-600:]))
    return frames


# -- the host side: the tablemate command and the project's own serial adapter -------------------

def tablemate(*args, cut=None):
    """Run ``tablemate ARGS`` of this checkout: (status, stdout, stderr, seconds). ``cut(line)``
    sees each stdout line as it comes (a flash's progress)."""
    path = [HOST] + ([os.environ["PYTHONPATH"]] if os.environ.get("PYTHONPATH") else [])
    env = dict(os.environ, PYTHONUNBUFFERED="1", PYTHONPATH=os.pathsep.join(path))
    start = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "tablemate_host.cli"] + list(args), env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    lines = []
    for line in proc.stdout:
        lines.append(line)
        if cut:
            cut(line)
    err = proc.stderr.read()
    proc.wait(900)
    return proc.returncode, "".join(lines), err, time.monotonic() - start


def board_files(port, top="/data"):
    """{path: bytes} of every file under ``top`` on the board (the firmware restarts after)."""
    board = flash.connect(port)
    try:
        return _walk(board, top)
    finally:
        board.reset()


def _walk(board, top):
    found = {}
    for name, is_dir, _ in board.listdir(top):
        path = top.rstrip("/") + "/" + name
        found.update(_walk(board, path) if is_dir else {path: board.read(path)})
    return found


def put_data(port, data):
    """Write ``data`` ({name: bytes}) into the board's /data, as the firmware would have."""
    board = flash.connect(port)
    try:
        if board.stat("/data") is None:
            board.mkdir("/data")
        for name, content in sorted(data.items()):
            board.write("/data/" + name, content)
    finally:
        board.reset()


def player_data(work):
    """Settings, a scorepad game in progress and GAMES finished games, made with the firmware's own
    code (``vmbench.make_journal``, ``history.file``) as the device writes them."""
    from tablemate.store import history
    folder = os.path.join(work, "data")
    os.makedirs(folder)
    vmbench.make_journal(os.path.join(folder, "game.jnl"), "scorepad", 4, 60)
    for i in range(GAMES):
        history.file(os.path.join(folder, "history.jnl"), {
            "game": "scorepad", "names": vmbench.NAMES[:3], "scores": [i, 2 * i % 7, 5],
            "winners": [i % 3], "rounds": i + 1, "id": "%08x" % (i + 1)})
    data = {"settings.json": json.dumps({"names": vmbench.NAMES}).encode()}
    for name in ("game.jnl", "history.jnl"):
        with open(os.path.join(folder, name), "rb") as f:
            data[name] = f.read()
    return data


# -- the report ----------------------------------------------------------------------------------

class Story:
    """The steps' figures and the checks' verdicts, printed as they come."""

    def __init__(self):
        self.failed = []
        print("%-52s %8s %11s %11s" % ("step", "seconds", "serial out", "flash prog"))

    def step(self, pico, what, fn):
        """Run ``fn``; print its wall time and what went over the line and into the flash."""
        before = pico.stats()
        start = time.monotonic()
        result = fn()
        seconds = time.monotonic() - start
        after = pico.stats()
        print("%-52s %8.1f %11s %11s" % (
            what, seconds, _bytes(after["fromHost"] - before["fromHost"]),
            _bytes(after["flash"]["bytesProgrammed"] - before["flash"]["bytesProgrammed"])))
        sys.stdout.flush()
        return result

    def check(self, ok, what, detail=""):
        print("  %s %s%s" % ("ok  " if ok else "FAIL", what, ": " + detail if detail else ""))
        sys.stdout.flush()
        if not ok:
            self.failed.append(what)
        return ok


def _bytes(n):
    return "%.1f KB" % (n / 1024.0) if n >= 1024 else "%d B" % n


def _written(output):
    """"Writing 54 files (137.7 KB, compiled .mpy)" from a flash's output, or "?"."""
    found = re.search(r"^Writing (\d+ files \([^)]*\))", output, re.M)
    return found.group(1) if found else "?"


# -- the story -----------------------------------------------------------------------------------

def run(rig, work, cut_at, picos):
    story = Story()
    a = Pico(rig, work, "a")  # an empty littlefs: a Pico fresh from its UF2
    picos.append(a)
    data = player_data(work)

    rc, out, err, _ = story.step(a, "1. tablemate flash (fresh Pico)",
                                 lambda: tablemate("flash", "--port", a.tty))
    story.check(rc == 0, "flash wrote " + _written(out), err.strip())
    frames = must_boot(a, 0, "the first flash")
    story.step(a, "2. a player's data put on the board", lambda: put_data(a.tty, data))
    frames = must_boot(a, frames, "the data went on")
    with_data = a.frame("mpy-with-data")
    pulled = os.path.join(work, "pulled")
    rc, out, err, _ = story.step(a, "   tablemate pull",
                                 lambda: tablemate("pull", "--port", a.tty, "--out", pulled))
    story.check(rc == 0 and _read(pulled, "history.jnl") == data["history.jnl"],
                "pull copied the history", err.strip())
    frames = must_boot(a, frames, "the pull")
    rc, out, err, _ = tablemate("report", os.path.join(pulled, "history.jnl"))
    games = [line for line in out.splitlines() if line[:3].strip().isdigit()]
    story.check(rc == 0 and len(games) == GAMES, "report lists the %d games" % GAMES,
                "%d listed %s" % (len(games), err.strip()))
    kept = story.step(a, "   the data on the board, read back", lambda: board_files(a.tty))
    frames = must_boot(a, frames, "the data was read")

    rc, out, err, _ = story.step(a, "3. tablemate flash --source (a .py install)",
                                 lambda: tablemate("flash", "--source", "--port", a.tty))
    story.check(rc == 0, "flash --source wrote " + _written(out), err.strip())
    frames = must_boot(a, frames, "flash --source")
    reference = a.frame("py-with-data")
    now = board_files(a.tty)
    story.check(now == kept, "settings, game and history kept byte for byte", _diff(now, kept))
    must_boot(a, frames, "reading the data back")

    cut = {}

    def pull_at(line):
        if re.match(r"\[\s*%d/" % cut_at, line) and not cut:
            cut["at"] = time.monotonic()
            cut["results"] = a.pull_cable()

    rc, out, err, _ = story.step(a, "4. tablemate flash, the cable pulled at file %d" % cut_at,
                                 lambda: tablemate("flash", "--port", a.tty, cut=pull_at))
    lost = "Lost the connection to the board" in err and "may be half-written" in err \
        and "`tablemate flash` again" in err
    story.check(rc == 1 and lost, "the message says the connection was lost", err.strip())
    if not cut:
        story.check(False, "the cable was pulled", "the flash ended before file %d" % cut_at)
        return story
    torn = cut["results"].get("cutFlashOp")
    print("  the message came %.1f s after the cut; flash op in progress at the cut: %s"
          % (time.monotonic() - cut["at"], json.dumps(torn) if torn else "none"))

    b = Pico(rig, work, "b", "--flash-image", os.path.join(a.out, "flash.bin"))
    picos.append(b)
    frames = story.step(b, "5. power on with the flash as the cut left it", lambda: booted(b, 0))
    story.check(b.frame("after-cut") == reference, "it boots to the frame it showed before",
                "%s frames" % frames)
    story.check("Traceback" not in b.serial_log(), "no traceback on its serial port",
                b.serial_log()[-300:])
    frames = frames or 0

    rc, out, err, _ = story.step(b, "6. tablemate flash again (the repair)",
                                 lambda: tablemate("flash", "--port", b.tty))
    story.check(rc == 0, "flash wrote " + _written(out), err.strip())
    frames = must_boot(b, frames, "the repair")
    story.check(b.frame("repaired") == with_data, "it boots to the frame of the first flash")
    _check_installed(story, b, kept)
    results = b.pull_cable()
    print("  first frame after the cut's power-on: %.0f ms emulated (the .py modules still shadow)"
          % results["boots"][0]["firstFrameMs"])
    return story


def _check_installed(story, pico, kept):
    files = board_files(pico.tty, "/")
    modules = [p for p in files if p.startswith("/tablemate/")]
    stale = [p for p in modules if p.endswith((".py", flash.PART))]
    story.check(not stale, "only whole .mpy modules in /tablemate (%d files)" % len(modules),
                " ".join(stale[:5]))
    stamp = json.loads(files.get("/" + flash.VERSION_FILE, b"{}"))
    story.check(stamp.get("source") is False, "version.json says .mpy", str(stamp))
    now = dict((p, d) for p, d in files.items() if p.startswith("/data/"))
    story.check(now == kept, "settings, game and history kept byte for byte", _diff(now, kept))


def _diff(now, before):
    return " ".join(sorted(p for p in set(now) | set(before) if now.get(p) != before.get(p)))


def _read(folder, name):
    try:
        with open(os.path.join(folder, name), "rb") as f:
            return f.read()
    except OSError:
        return None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rig", default=os.environ.get("PICO_RIG"),
                    help="built rig folder (or $PICO_RIG)")
    ap.add_argument("--cut-at", type=int, default=27,
                    help="pull the cable when the flash shows this file's progress (default 27)")
    ap.add_argument("--keep", help="keep the emulator's output, frames and pulled files here")
    args = ap.parse_args(argv)
    if not args.rig or not os.path.exists(os.path.join(args.rig, "emu", "serial.mjs")):
        ap.error("--rig must name a built copy of tools/pico/rig (see tools/pico/README.md)")
    if shutil.which("socat") is None:
        ap.error("socat is missing: apt-get install -y socat")
    work = args.keep or tempfile.mkdtemp(prefix="tablemate-serial-")
    os.makedirs(work, exist_ok=True)
    picos = []
    try:
        story = run(os.path.abspath(args.rig), os.path.abspath(work), args.cut_at, picos)
    finally:
        for pico in picos:
            if pico.proc.poll() is None:
                pico.pull_cable()
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    if story.failed:
        print("FAILED: " + "; ".join(story.failed))
        return 1
    print("All checks passed.")
    return 0


if __name__ == "__main__":
    sys.exit(main())

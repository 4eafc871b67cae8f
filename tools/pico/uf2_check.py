"""Tablemate's UF2 on the emulated Pico: a blank flash, a main.py alone, and upgrades that keep
the game in progress.

    .venv/bin/python tools/pico/uf2_check.py --rig DIR --uf2 build/tablemate-0.1.0-RPI_PICO.uf2
                                             [--new-uf2 FILE] [--keep DIR] [--only PART ...]

Copying a UF2 onto a Pico in BOOTSEL mode writes the firmware's blocks only: the filesystem's
region of the flash keeps what it held. The rig does the same with ``--flash-image`` (the flash a
run left) and ``--fw`` (the firmware laid over it). The parts:

- ``blank``: the filesystem's region erased (all 0xFF: a Pico whose flash never held one).
  MicroPython's own ``_boot.py`` formats it, and the UF2's frozen ``main.py`` starts Tablemate:
  the home menu, About's free heap on the console; at the REPL the package's path is the frozen
  modules' and the flash holds only ``/data``.
- ``main-py``: a filesystem holding nothing but ``main.py`` (``firmware/main.py``, as the README
  had users copy it): the frozen ``main.py`` runs in its place, the same home menu, and the file
  stays.
- ``from-flash``: stock MicroPython (the rig's own firmware) with the files ``tablemate flash``
  copies, a 4-player scorepad game played; then the UF2 over that flash: "Resume game?", OK
  shows the very frame of the game before, ``/tablemate`` and ``main.py`` are gone, ``/data``
  is whole, and the console says what was removed.
- ``uf2-to-uf2``: the same game played on the UF2 from a blank flash; then ``--new-uf2`` (a
  newer build; the same file by default) over it: the game resumes, the same frame.
- ``display-bus``: Self-test > Display bus, the fast display's test (16 whole frames at 400 kHz,
  16 at 1 MHz): the time a frame takes at each, as the page prints it on the console, with
  wire time from the rig's SCL (``--i2c-timing 1``); then OK keeps 1 MHz, and the next power-up
  runs the bus at it (a whole new screen, the game menu, timed at both speeds).

Exit 1 when a check fails. Nothing is written under the rig but its run's own ``out`` folders
in ``--keep`` (a temporary folder by default).
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import measure  # noqa: E402  (the rig helpers: build_app, write_settings)

FS_BYTES = 1408 * 1024  # the rp2 port's filesystem region on a 2 MB Pico (rp2.Flash())
UP, DOWN, RIGHT, OK, BACK = 10, 11, 13, 14, 15
# Start a 4-player scorepad from the home menu (its first row) and play a few turns: each OK
# ends a turn and is on the flash once the next frame is sent.
GAME = [
    {"wait_frame_idle_ms": 300, "timeout_ms": 20000, "label": "boot: the home menu"},
    {"wait_ms": 1000},
    {"press": OK, "idle_ms": 600, "label": "the scorepad's setup"},
    {"press": RIGHT}, {"press": RIGHT, "label": "4 players"},
] + [{"press": DOWN}] * 7 + [
    {"press": OK, "idle_ms": 600, "label": "Start"},
    {"press": RIGHT}, {"press": RIGHT}, {"press": OK, "label": "Ann +2, her turn ends"},
    {"press": RIGHT}, {"press": OK, "label": "Bob +1"},
    {"press": RIGHT}, {"press": RIGHT}, {"press": RIGHT}, {"press": OK, "label": "Cleo +3"},
    {"wait_ms": 2000, "label": "the journal written"},
    {"capture": "game"},
]
RESUME = [
    {"wait_frame_idle_ms": 300, "timeout_ms": 20000, "label": "boot: Resume game?"},
    {"capture": "question"},
    {"press": OK, "idle_ms": 600, "timeout_ms": 10000, "capture": "resumed", "label": "OK: resume"},
]
HOME = [
    {"wait_frame_idle_ms": 300, "timeout_ms": 20000, "label": "boot: the home menu"},
    {"capture": "home"},
    {"press": UP, "label": "wraps to About"},
    {"press": OK, "idle_ms": 300, "label": "About"},
    {"expect_serial": "Free RAM (\\d+) B", "regex": True, "timeout_ms": 2000},
]
# At the REPL (Ctrl-C stops the app and its watchdog): where the package comes from, and what
# is on the flash.
LOOK = [
    {"type": "\u0003", "wait_ms": 300},
    {"type": "import tablemate, os; print('PATH', tablemate.__path__, sorted(os.listdir('/')), "
             "sorted(os.listdir('/data')))\r\n", "wait_ms": 0},
    {"expect_serial": "PATH (\\S+) (\\[.*?\\]) (\\[.*?\\])", "regex": True, "timeout_ms": 3000},
]


def rig(args, out, script, flash=None, app=None, fw=None):
    """Run ``script`` on the rig into ``out``: from the ``flash`` image (and ``fw`` laid over
    it) or the folder ``app``; the results, or None when a step failed."""
    path = out + ".json"
    with open(path, "w") as f:
        json.dump(script, f)
    cmd = ["node", os.path.join(args.rig, "emu", "drive.mjs"), "--script", path, "--out", out,
           "--i2c-timing", "1"]
    if flash:
        cmd += ["--flash-image", flash]
    if app:
        cmd += ["--app", app]
    if fw:
        cmd += ["--fw", fw]
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    with open(os.path.join(out, "results.json")) as f:
        res = json.load(f)
    if proc.returncode:
        sys.stdout.write(proc.stdout.decode()[-2000:])
        return None
    return res


def captured(res, name):
    """The hash of the panel captured as ``name``."""
    for step in res["steps"]:
        cap = step.get("capture")
        if isinstance(cap, dict) and cap["png"] == name + ".png":
            return cap["hash"]
    raise KeyError(name)


def matched(res):
    """The regex groups of the script's expect_serial steps, in order."""
    return [step.get("groups") for step in res["steps"] if step["kind"] == "expect_serial"]


def files(res):
    """(files, folders) on the flash at the end of a run, as the rig's listing gives them."""
    fs = res["final"]["fs"]
    return sorted(f["path"] if isinstance(f, dict) else f for f in fs["files"]), sorted(fs["dirs"])


def serial(out):
    with open(os.path.join(out, "serial.log"), errors="replace") as f:
        return f.read()


class Checks:
    def __init__(self):
        self.failed = []

    def __call__(self, part, ok, what):
        print("  %s %s" % ("ok  " if ok else "FAIL", what))
        if not ok:
            self.failed.append("%s: %s" % (part, what))


def blank(args, work, check):
    image = os.path.join(work, "blank-fs.bin")
    with open(image, "wb") as f:
        f.write(b"\xff" * FS_BYTES)
    out = os.path.join(work, "blank")
    res = rig(args, out, HOME + LOOK, flash=image, fw=args.uf2)
    check("blank", res is not None, "an erased flash boots to the home menu, About answers")
    if res is None:
        return None
    print("  boot to the first frame %.0f ms (the filesystem formatted first); free heap at "
          "About %s B" % (res["boots"][0]["firstFrameMs"], matched(res)[0][0]))
    path, top, data = matched(res)[1]
    check("blank", path == ".frozen/tablemate", "the package runs frozen: __path__ %s" % path)
    check("blank", top == "['data']", "the flash holds only /data: %s" % top)
    return captured(res, "home")


def main_py(args, work, check, home):
    app = os.path.join(work, "app-main-py")
    shutil.rmtree(app, ignore_errors=True)
    os.makedirs(app)
    shutil.copy(os.path.join(measure.ROOT, "firmware", "main.py"), app)
    out = os.path.join(work, "main-py")
    res = rig(args, out, HOME + LOOK, app=app, fw=args.uf2)
    check("main-py", res is not None, "a flash with only main.py boots to the home menu")
    if res is None:
        return
    if home:
        check("main-py", captured(res, "home") == home, "the same home menu as the blank flash")
    path, top, _ = matched(res)[1]
    check("main-py", path == ".frozen/tablemate" and "main.py" in top,
          "the frozen main.py ran, the flash's stays: %s %s" % (path, top))


def resumed(args, part, check, first, out, fw):
    """Power the flash ``first`` left on with ``fw`` over it: the game of ``first`` resumes."""
    res = rig(args, out, RESUME + LOOK, flash=os.path.join(first[1], "flash.bin"), fw=fw)
    check(part, res is not None, "the new firmware boots from the old flash and resumes")
    if res is None:
        return None
    check(part, captured(res, "resumed") == captured(first[0], "game"),
          "OK shows the very frame of the game before (%s)" % captured(first[0], "game"))
    path, top, data = matched(res)[0]
    check(part, path == ".frozen/tablemate", "the package runs frozen: %s" % path)
    check(part, "game.jnl" in data, "/data kept: %s" % data)
    return res, top


def from_flash(args, work, check):
    app = os.path.join(work, "app-from-flash")
    measure.build_app(args.rig, "mpy", app)
    measure.write_settings(app)
    out1 = os.path.join(work, "from-flash-1")
    res = rig(args, out1, GAME, app=app)
    check("from-flash", res is not None, "stock MicroPython with `tablemate flash`'s files: a "
          "game played")
    if res is None:
        return
    before = files(res)[0]
    print("  before: %d files on the flash, %d in /tablemate"
          % (len(before), sum(1 for f in before if f.startswith("/tablemate/"))))
    got = resumed(args, "from-flash", check, (res, out1), os.path.join(work, "from-flash-2"),
                  args.uf2)
    if got is None:
        return
    top = got[1]
    check("from-flash", top == "['data']", "/tablemate and main.py removed: the flash holds %s" % top)
    said = [line for line in serial(os.path.join(work, "from-flash-2")).splitlines()
            if "earlier install" in line]
    check("from-flash", bool(said), "the console says so: %s" % (said[:1] or "nothing"))


def uf2_to_uf2(args, work, check):
    image = os.path.join(work, "blank-fs.bin")
    if not os.path.exists(image):
        with open(image, "wb") as f:
            f.write(b"\xff" * FS_BYTES)
    out1 = os.path.join(work, "uf2-1")
    res = rig(args, out1, GAME, flash=image, fw=args.uf2)
    check("uf2-to-uf2", res is not None, "a game played on the UF2 from a blank flash")
    if res is None:
        return
    resumed(args, "uf2-to-uf2", check, (res, out1), os.path.join(work, "uf2-2"),
            args.new_uf2 or args.uf2)


# Home: UP twice is Self-test (About is last); in it, DOWN three times is Display bus.
BUS = [
    {"wait_frame_idle_ms": 300, "timeout_ms": 20000, "label": "boot: the home menu"},
    {"press": UP}, {"press": UP},
    {"press": OK, "idle_ms": 300, "label": "Self-test opens: whole screen, 400 kHz"},
    {"press": DOWN}, {"press": DOWN}, {"press": DOWN, "label": "Display bus"},
    {"press": OK, "idle_ms": 300},
    {"press": OK, "idle_ms": 300, "timeout_ms": 10000, "label": "the frames at both speeds"},
    {"expect_serial": "takes (\\S+) ms at 400 kHz, (\\S+) ms at 1 MHz; (\\d+) of", "regex": True,
     "timeout_ms": 5000},
    {"wait_frame_idle_ms": 300, "timeout_ms": 5000},
    {"capture": "result"},
    {"press": OK, "idle_ms": 600, "label": "OK: keep 1 MHz"},
    {"power_cycle": True},
    {"wait_frame_idle_ms": 300, "timeout_ms": 20000, "label": "boot at 1 MHz"},
    {"press": UP}, {"press": UP},
    {"press": OK, "idle_ms": 300, "label": "Self-test opens: whole screen, 1 MHz"},
]


def display_bus(args, work, check):
    image = os.path.join(work, "blank-fs.bin")
    if not os.path.exists(image):
        with open(image, "wb") as f:
            f.write(b"\xff" * FS_BYTES)
    out = os.path.join(work, "display-bus")
    res = rig(args, out, BUS, flash=image, fw=args.uf2)
    check("display-bus", res is not None, "the Display bus page ran its frames, OK kept 1 MHz")
    if res is None:
        return
    slow, fast, lost = matched(res)[0]
    print("  a whole frame, as the page times it: %s ms at 400 kHz, %s ms at 1 MHz; %s of 16 "
          "lost" % (slow, fast, lost))
    check("display-bus", lost == "0" and float(fast) < float(slow), "1 MHz kept up, and is faster")
    wiring = [f for f in res["final"]["fs"]["files"] if "wiring.json" in str(f)]
    check("display-bus", bool(wiring), "the choice is on the flash: %s" % (wiring or "nothing"))
    presses = [s for s in res["steps"] if s["kind"] == "press" and s.get("response")]
    timed = dict((s["label"], s["response"]["lastData"]["ms"]) for s in presses
                 if (s.get("label") or "").startswith("Self-test opens"))
    print("  Self-test opens (a whole screen): %s" % ", ".join(
        "%.1f ms at %s" % (ms, label.split(", ")[1]) for label, ms in sorted(timed.items())))
    boots = [b["firstFrameMs"] for b in res["boots"]]
    print("  boot to the first frame: %.0f ms at 400 kHz (the flash formatted first), %.0f ms "
          "at 1 MHz" % tuple(boots[:2]))


PARTS = ("blank", "main-py", "from-flash", "uf2-to-uf2", "display-bus")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rig", default=os.environ.get("PICO_RIG"), help="built rig folder (or $PICO_RIG)")
    ap.add_argument("--uf2", required=True, help="the UF2 `make uf2` wrote for RPI_PICO")
    ap.add_argument("--new-uf2", help="the UF2 laid over the first one's flash (default: --uf2)")
    ap.add_argument("--keep", help="keep the apps and the rig's output in this folder")
    ap.add_argument("--only", nargs="+", choices=PARTS, help="run these parts only")
    args = ap.parse_args(argv)
    if not args.rig or not os.path.exists(os.path.join(args.rig, "emu", "drive.mjs")):
        ap.error("--rig must name a built copy of tools/pico/rig (see tools/pico/README.md)")
    args.rig = os.path.abspath(args.rig)
    args.uf2 = os.path.abspath(args.uf2)
    args.new_uf2 = args.new_uf2 and os.path.abspath(args.new_uf2)
    work = args.keep or tempfile.mkdtemp(prefix="tablemate-uf2-")
    os.makedirs(work, exist_ok=True)
    check = Checks()
    only = args.only or PARTS
    try:
        home = None
        if "blank" in only:
            print("blank: an erased flash, the UF2")
            home = blank(args, work, check)
        if "main-py" in only:
            print("main-py: only main.py on the flash, the UF2")
            main_py(args, work, check, home)
        if "from-flash" in only:
            print("from-flash: a game under `tablemate flash`'s install, then the UF2 over it")
            from_flash(args, work, check)
        if "uf2-to-uf2" in only:
            print("uf2-to-uf2: a game under the UF2, then %s over it"
                  % ("the newer UF2" if args.new_uf2 else "the UF2 again"))
            uf2_to_uf2(args, work, check)
        if "display-bus" in only:
            print("display-bus: the fast display's test, 1 MHz kept, the next power-up")
            display_bus(args, work, check)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    if check.failed:
        print("FAILED:\n  " + "\n  ".join(check.failed))
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Face the player on the emulated Pico: a turn's time and bytes, and the panel it leaves.

    .venv/bin/python tools/pico/face.py --rig DIR [--keep DIR] [--display ssd1306|sh1106|both]

The ``.mpy`` install with the settings "Turn: to player" plays The Perfect Moment (clocks off,
so no second redraws a frame): the race won by the second player (RIGHT), so the picture turns
to him; his OK ends his turn and it turns back to the first player; her OK turns it to him
again; his BACK opens the game menu (still turned) and the panel's UP, his DOWN, moves to
"Undo". Each press prints the rig's figure (ms from the edge to the last display byte, and the
bytes on the bus: data, commands, control bytes) and its capture, which shows the panel as
mounted, is compared character for character with the host's virtual panel after the same
presses (``tablemate_host.device.Device``, the same firmware on CPython fakes): a turned frame
must be upside down on the rig's glass exactly as the host decodes it. Exit 1 on a difference
or a failed step.
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

import measure  # noqa: E402  (build_app, and the firmware importable on CPython)

from tablemate_host.device import Device  # noqa: E402

GPIO = {"UP": 10, "DOWN": 11, "LEFT": 12, "RIGHT": 13, "OK": 14, "BACK": 15}
SETTINGS = {"names": measure.NAMES, "turn": 2}  # "Turn: to player"
# (key, what it does, capture name or None): from the home menu to the game menu over a turn
PRESSES = [("DOWN", "", None), ("DOWN", "", None), ("DOWN", "Perfect Moment", None),
           ("OK", "its setup", None), ("DOWN", "", None), ("DOWN", "Names, Clock", None),
           ("LEFT", "Clock: off", None), ("DOWN", "Start (no clock: no clock rows)", None),
           ("OK", "the race, upright", "race"),
           ("RIGHT", "the race won by the player across: the picture turns to him", "turned"),
           ("OK", "his turn ends: it turns back to her", "back"),
           ("OK", "her turn ends: it turns to him again", "again"),
           ("BACK", "the game menu over his turn: still turned", "menu"),
           ("UP", "the panel's UP, his DOWN: Undo, below for him", "menu-down")]


def rig_run(rig, display, work, turn):
    """Play PRESSES on the rig with the "turn" setting ``turn``: (results, out folder, ok)."""
    tag = "%s-%d" % (display, turn)
    app = os.path.join(work, "app-" + tag)
    measure.build_app(rig, "mpy", app)
    if display == "sh1106":  # the board's configuration, as a builder of that module sets it
        from tablemate.board import BOARD
        os.remove(os.path.join(app, "tablemate", "board.mpy"))
        with open(os.path.join(app, "tablemate", "board.py"), "w") as f:
            f.write("BOARD = %r\n" % dict(BOARD, display="sh1106"))
    os.makedirs(os.path.join(app, "data"), exist_ok=True)
    with open(os.path.join(app, "data", "settings.json"), "w") as f:
        json.dump(dict(SETTINGS, turn=turn), f)
    steps = [{"wait_frame_idle_ms": 300, "label": "boot"}]
    for key, label, name in PRESSES:
        steps.append({"press": GPIO[key], "idle_ms": 400, "label": label or key,
                      "capture": name or False})
    script = os.path.join(work, "face-%s.json" % tag)
    with open(script, "w") as f:
        json.dump(steps, f)
    out = os.path.join(work, "out-" + tag)
    proc = subprocess.run(["node", os.path.join(rig, "emu", "drive.mjs"), "--app", app,
                           "--script", script, "--out", out, "--i2c-timing", "1",
                           "--display", display], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    with open(os.path.join(out, "results.json")) as f:
        res = json.load(f)
    if proc.returncode:
        sys.stdout.write(proc.stdout.decode()[-3000:])
    return res, out, proc.returncode == 0


def host_frames(display, work):
    """The host panel's text after each captured press: {name: text}."""
    root = os.path.join(work, "host-" + display)
    shutil.rmtree(root, ignore_errors=True)  # a fresh flash: no game left by an earlier run
    os.makedirs(os.path.join(root, "data"))
    dev = Device(root, sh1106=display == "sh1106", settings=SETTINGS)
    dev.advance(1000)
    frames = {}
    for key, _, name in PRESSES:
        dev.press(key)
        dev.advance(500)
        if name:
            frames[name] = (dev.panel.to_text(), dev.app.display.turned)
    return frames


def figure(step):
    """A press's figure: ms from the edge to the last display byte, bytes (data+cmd+ctrl)."""
    r = step.get("response") or {}
    i2c = r.get("i2c", {})
    last = (r.get("lastData") or {}).get("ms")
    return "%6s ms %5d B (%d cmd)" % ("%.1f" % last if last is not None else "-", i2c.get(
        "dataBytes", 0) + i2c.get("cmdBytes", 0) + i2c.get("ctrlBytes", 0), i2c.get("cmdBytes", 0))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rig", default=os.environ.get("PICO_RIG"), help="built rig folder")
    ap.add_argument("--keep", help="keep the apps and the rig's output in this folder")
    ap.add_argument("--display", default="both", choices=("ssd1306", "sh1106", "both"))
    args = ap.parse_args(argv)
    if not args.rig or not os.path.exists(os.path.join(args.rig, "emu", "drive.mjs")):
        ap.error("--rig must name a built copy of tools/pico/rig (see tools/pico/README.md)")
    rig = os.path.abspath(args.rig)
    work = args.keep or tempfile.mkdtemp(prefix="tablemate-face-")
    os.makedirs(work, exist_ok=True)
    bad = 0
    try:
        for display in (("ssd1306", "sh1106") if args.display == "both" else (args.display,)):
            res, out, ok = rig_run(rig, display, work, 2)
            off, _, ok_off = rig_run(rig, display, work, 0)
            bad += not (ok and ok_off)
            host = host_frames(display, work)
            print("%s, Turn: to player (and Turn: off, the same presses), on the rig" % display.upper())
            steps = [s for s in res["steps"] if s.get("kind") == "press"]
            upright = [s for s in off["steps"] if s.get("kind") == "press"]
            for step, base, (key, label, name) in zip(steps[-6:], upright[-6:], PRESSES[-6:]):
                same = "-"
                if name:
                    with open(os.path.join(out, name + ".txt"), encoding="utf-8") as f:
                        seen = f.read().rstrip("\n")
                    text, turned = host[name]
                    same = "panel = host's" if seen == text else "panel DIFFERS from the host's"
                    bad += seen != text
                    same += ", turned" if turned else ", upright"
                print("  %-5s %-60s %s | off: %s  %s" % (key, label, figure(step), figure(base), same))
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    print("FAILED" if bad else "PASS")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

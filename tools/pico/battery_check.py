"""The battery gauge on the emulated Pico: the figure, the cut-off, dormant, the game resumed.

    .venv/bin/python tools/pico/battery_check.py --rig DIR [--keep FOLDER]

DIR is a built copy of the emulated-Pico rig (``tools/pico/rig``, see tools/pico/README.md). The
rig does not model the ADC (the firmware reads 0 V on GP29); ``vsys.mjs`` beside this file runs
the rig's ``drive.mjs`` with VSYS set from a schedule (rp2040js's ADC channel 3), without
changing the rig. Two runs of the ``.mpy`` install (LiPo, the default chemistry):

1. **battery**: VSYS 3.70 V (a LiPo at 3.95 V behind the diode: 73 %), the home menu and a
   scorepad game with a point; then VSYS 2.00 V from ``DROP_MS``: the low warning, the cut-off
   ("Battery empty: game saved" on the panel and on the serial console), then 6 s (longer than
   the 5 s watchdog) in which the Pico sends nothing more to the panel and does not restart;
   a reset (power cycle), "Resume game?", the game with its points.
2. **no supply**: the rig as it is (0 V): after 25 s (past a reading's time) the app still
   answers a key and nothing was cut off.

What the emulator cannot show: rp2040js models the XOSC's DORMANT register by clearing its
STABLE bit and nothing more, so the core keeps running in pico-sdk's ``xosc_dormant()``, which
waits for STABLE (no wake source, so for ever): the "dormant" Pico is a core spinning in that
loop there, its cycles counted as busy. What is checked is what it must do: no more bus
traffic, no restart (the watchdog does not bite), the words still on the panel.

Frames are saved as PNG and text beside the run's ``results.json``; the printed lines say what
each check found. Not part of ``make test`` (CI has no rig). Exit status 1 when a check fails.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
NAMES = ["Ann", "Ben", "Cleo", "Dev", "Eve", "Finn", "Gus", "Hana"]
UP, DOWN, LEFT, RIGHT, OK, BACK = 10, 11, 12, 13, 14, 15
DROP_MS = 15000

def script(quick):
    """The battery run's steps. Plain: VSYS at 3.70 V, dropping to 2.00 V at ``DROP_MS``. With
    ``quick`` (--quick): 2.00 V from power-up, so "Battery low: 0%" comes at the first reading
    (OK closes it, before the setup and again before "Resume game?") and the cut-off at the
    second (20 s), the game set up in between."""
    notice = [{"press": OK, "idle_ms": 300, "label": "the low notice closed"}] if quick else []
    return [
        {"wait_frame_idle_ms": 300, "label": "boot"},
        {"wait_ms": 1500, "label": "the gauge loads and reads"},
        {"capture": "home"},
    ] + notice + [
        {"press": OK, "idle_ms": 600, "label": "Scorepad: its setup"},
    ] + [{"press": DOWN} for _ in range(6)] + [  # to Start (no target: no "Win" row)
        {"press": OK, "idle_ms": 600, "label": "Start"},
        {"press": RIGHT, "label": "+1 for Ann, pending"},
        {"wait_ms": 2000, "label": "journaled"},
        {"press": RIGHT, "label": "+1 more, pending at the cut-off"},
        {"capture": "game"},
        {"expect_serial": "Battery empty", "timeout_ms": 30000 if quick else 120000,
         "label": "the cut-off"},
        {"wait_ms": 2000},
        {"capture": "empty"},
        {"wait_ms": 6000, "label": "dormant: nothing more on the bus"},
        {"capture": "empty-later"},
        {"power_cycle": True, "label": "reset"},
        {"wait_frame_idle_ms": 300},
        {"wait_ms": 1500},
        {"capture": "resume-question"},
    ] + notice + [
        {"press": OK, "idle_ms": 800, "label": "Resume game?: OK"},
        {"capture": "resumed"},
    ]


NO_SUPPLY = [
    {"wait_frame_idle_ms": 300, "label": "boot"},
    {"wait_ms": 25000, "label": "a reading's time"},
    {"press": DOWN, "label": "the app still answers"},
    {"capture": "home-later"},
]


def build_app(rig, out):
    subprocess.run([sys.executable, os.path.join(rig, "tools", "mkapp.py"), ROOT, out], check=True,
                   stdout=subprocess.DEVNULL)
    os.makedirs(os.path.join(out, "data"), exist_ok=True)
    with open(os.path.join(out, "data", "settings.json"), "w") as f:
        json.dump({"names": NAMES, "battery": "LiPo"}, f)


def drive(rig, app, steps, out, vsys):
    script = out + ".json"
    with open(script, "w") as f:
        json.dump(steps, f)
    cmd = ["node", os.path.join(HERE, "vsys.mjs"), "--rig", rig, "--vsys", vsys, "--",
           "--app", app, "--script", script, "--out", out, "--i2c-timing", "1"]
    proc = subprocess.run(cmd, cwd=rig, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    text = proc.stdout.decode()
    with open(os.path.join(out, "results.json")) as f:
        return json.load(f), text


def _step(res, label):
    for e in res["steps"]:
        if e.get("label") == label or e["step"].get("capture") == label:
            return e
    raise KeyError(label)


def _serial(out):
    with open(os.path.join(out, "serial.log"), errors="replace") as f:
        return f.read()


def _frame(out, name):
    """The capture's text file (the panel as characters), for the report."""
    path = os.path.join(out, name + ".txt")
    if not os.path.exists(path):
        return "(no %s.txt)" % name
    with open(path) as f:
        return f.read()


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--rig", required=True)
    p.add_argument("--keep", help="keep the runs here (default: a temporary folder)")
    p.add_argument("--quick", action="store_true",
                   help="an empty battery from power-up: the cut-off in 20 s, not 60")
    p.add_argument("--only", choices=("battery", "no-supply"), help="one of the two runs")
    args = p.parse_args(argv)
    rig = os.path.abspath(args.rig)
    work = os.path.abspath(args.keep) if args.keep else tempfile.mkdtemp(prefix="tablemate-bat-")
    os.makedirs(work, exist_ok=True)
    failed = []

    def check(ok, what):
        print(("ok    " if ok else "FAIL  ") + what)
        if not ok:
            failed.append(what)
    try:
        app = os.path.join(work, "app")
        build_app(rig, app)
        if args.only != "no-supply":
            battery_run(rig, app, work, args.quick, check)
        if args.only != "battery":
            no_supply_run(rig, app, work, check)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    print("%d checks failed" % len(failed) if failed else "all checks passed")
    return 1 if failed else 0


def battery_run(rig, app, work, quick, check):
    out = os.path.join(work, "battery")
    res, text = drive(rig, app, script(quick), out,
                      "2000@0" if quick else "3700@0,2000@%d" % DROP_MS)
    print("\n".join(line for line in text.splitlines() if line.startswith(("[drive]", "[vsys]"))))
    serial = _serial(out)
    check("Traceback" not in serial, "no traceback on the serial console")
    check(_step(res, "the cut-off")["ok"], "the console says: " + " ".join(
        line for line in serial.splitlines() if "Battery empty" in line))
    empty, later = _step(res, "empty"), _step(res, "empty-later")
    check(empty.get("capture") == later.get("capture"),
          "the panel keeps the same frame 6 s on (no restart): %s, %s"
          % (empty.get("capture"), later.get("capture")))
    wait = _step(res, "dormant: nothing more on the bus")
    check("serial" not in wait, "nothing on the console meanwhile: %r" % wait.get("serial"))
    print("      (the emulated core ran %s cycles in those 6 s: rp2040js spins in "
          "xosc_dormant(), see above)" % wait.get("cpuCycles"))
    boot0 = res["boots"][0]
    check(boot0["oled"]["displayOn"] is not False, "the panel was left on (displayOn %s)"
          % boot0["oled"]["displayOn"])
    for name in ("home", "game", "empty", "resume-question", "resumed"):
        print("--- %s\n%s" % (name, _frame(out, name)))


def no_supply_run(rig, app, work, check):
    out0 = os.path.join(work, "no-supply")
    res0, text0 = drive(rig, app, NO_SUPPLY, out0, "0@0")
    print("\n".join(line for line in text0.splitlines() if line.startswith(("[drive]", "[vsys]"))))
    check(all(e["ok"] for e in res0["steps"]), "0 V: every step ran, the app answered")
    check("Battery" not in _serial(out0), "0 V: nothing about a battery on the console")
    print("--- home-later (0 V)\n%s" % _frame(out0, "home-later"))


if __name__ == "__main__":
    sys.exit(main())

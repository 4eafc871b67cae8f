"""``tablemate pull`` and ``tablemate report``: the games a Tablemate played, on your computer.

The device keeps one JSON line per finished game in ``/data/history.jnl``, its newest games;
older ones are moved to ``/data/history.old`` (``tablemate/store/history.py``), and tracebacks
go to ``/data/errors.log`` (a board last flashed before ``/data`` existed has them at the root).
``pull`` copies those files, and the settings, from a connected Pico through the same mpremote
connection as ``tablemate flash`` (so a running watchdog is kept fed), changing nothing on the
board unless told to free room (``--free``: see ``pull``). Every file is read before any is
written here, and each is written under a temporary name and renamed: a connection lost half
way leaves the folder as an earlier pull left it, never a history cut short. ``report`` reads
the archive and the history file and prints every game once, oldest first, and a table of wins.
"""

import os
import sys

from tablemate import modes
from tablemate.store import history
from tablemate.flow.standings import footnote
from tablemate_host import flash, stats

FILES = ("history.jnl", "history.old", "errors.log", "settings.json",  # in /data on the board
         "game.jnl")  # the saved game: `report --plots` draws its scores


def pull(board, out_dir, out=print, free=False):
    """Copy the device's history, error log and settings into ``out_dir``; return what was copied.

    The board's ``history.old`` is merged into the one in ``out_dir`` (games an earlier pull
    kept are never dropped, whatever the board holds now). With ``free``, what the copy now
    holds is then removed from the board: ``history.old`` (the History screen and the device's
    own numbering need only ``history.jnl``) and the damaged files it kept aside (``*.bad*``,
    copied into ``out_dir/aside``): room again on a full flash. Nothing is removed unless its
    copy is written and read back whole.
    """
    found = _fetch(board, out)
    asides = _fetch_asides(board) if free else []
    os.makedirs(out_dir, exist_ok=True)
    for name, path, data in found:
        target = os.path.join(out_dir, name)
        if name == "history.old":
            data = _merged(target, data)
        _write(target, data)
        out("%-14s %6d bytes -> %s" % (name, len(data), target))
    if asides:
        os.makedirs(os.path.join(out_dir, "aside"), exist_ok=True)
    for name, path, data in asides:
        _write(os.path.join(out_dir, "aside", name), data)
    if free:
        _free(board, out_dir, [f for f in found if f[0] == "history.old"], asides, out)
    return [name for name, _, _ in found]


def _write(path, data):
    with open(path + ".part", "wb") as f:
        f.write(data)
    os.replace(path + ".part", path)


def _fetch(board, out=print):
    """``[(name, path on the board, bytes), ...]`` of the ``FILES`` on the board, read whole."""
    found = []
    for name in FILES:
        path = "/data/" + name
        if board.stat(path) is None:
            path = "/" + name  # a board that has not booted since a version before /data
            if board.stat(path) is None:
                out("%-14s not on the board" % name)
                continue
        found.append((name, path, board.read(path)))
    return found


def _fetch_asides(board):
    """The copies the firmware kept of damaged files (``NAME.bad``, ``NAME.bad1``...)."""
    if board.stat("/data") is None:
        return []
    return [(name, "/data/" + name, board.read("/data/" + name))
            for name, is_dir, _ in board.listdir("/data") if not is_dir and ".bad" in name]


def _lines(data):
    """The whole lines of a history file (a torn last line is no game)."""
    return [line + b"\n" for line in data.split(b"\n")[:-1] if line.strip()]


def _merged(path, board_data):
    """The local archive at ``path`` with the board's lines it does not hold yet appended."""
    try:
        with open(path, "rb") as f:
            local = f.read()
    except FileNotFoundError:
        local = b""
    if local and not local.endswith(b"\n"):
        local += b"\n"
    have = set(_lines(local))
    return local + b"".join(line for line in _lines(board_data) if line not in have)


def _free(board, out_dir, archives, asides, out):
    """Remove from the board the files whose copies in ``out_dir`` are whole."""
    before = _free_bytes(board)
    for name, path, data in archives:
        with open(os.path.join(out_dir, name), "rb") as f:
            kept = set(_lines(f.read()))
        if [line for line in _lines(data) if line not in kept]:  # never: _merged wrote them
            raise flash.FlashError("the copy of %s is not whole: nothing removed" % path)
        board.remove(path)
        out("%-14s removed from the board (%d games, kept in %s)"
            % (name, len(_lines(data)), os.path.join(out_dir, name)))
    for name, path, data in asides:
        with open(os.path.join(out_dir, "aside", name), "rb") as f:
            if f.read() != data:
                raise flash.FlashError("the copy of %s is not whole: nothing removed" % path)
        board.remove(path)
        out("%-14s removed from the board (kept in %s)"
            % (name, os.path.join(out_dir, "aside", name)))
    if not archives and not asides:
        out("nothing to free: no history.old and no damaged copies on the board")
    else:
        after = _free_bytes(board)
        out("the board had %d KB free, now %d KB" % (before // 1024, after // 1024))
    out("the game in the board's RAM: %s" % board.eval(_SAVE_STOPPED))


# The firmware this pull stopped may hold actions a full flash refused: saved now, before the
# board restarts and resumes the game from its journal (``tablemate.boot.save_stopped``).
_SAVE_STOPPED = ("getattr(__import__('sys').modules.get('tablemate.boot'), "
                 "'save_stopped', lambda: 'not running')()")


def _free_bytes(board):
    st = board.statvfs("/")
    return max(0, st[1] * st[4])  # a littlefs filled to its last block may count below zero


def read_history(path):
    """Every game of a history file, after those of its archive beside it, each once.

    A line that is not a game (torn, foreign) is skipped, as the History screen does. A power
    cut while the device moved games to its archive can leave them in both files: a game
    number ``n`` seen before is skipped. A game filed again under the same ``id`` (an undo
    reopened it after it ended) counts once, where it was first filed, as its last line says.
    ``OSError`` when there is no history file.
    """
    return read_history_counted(path)[0]


def read_history_counted(path):
    """(``read_history``'s games, the damaged lines skipped: counted as the History screen
    counts them, and left in the files)."""
    games = []
    damaged = 0
    seen = set()
    where = {}  # id -> index in games
    archive = history.archive_path(path)
    for name in ([archive] if os.path.exists(archive) else []) + [path]:
        with open(name, "rb") as f:
            for line in f:
                record = history.game(line)
                if record is None:  # a torn last line (no newline) is not an entry yet
                    damaged += line.strip() != b"" and line.endswith(b"\n")
                    continue
                n = record.get("n")
                if isinstance(n, int):
                    if n in seen:
                        continue
                    seen.add(n)
                gid = record.get("id")
                if gid is not None and gid in where:
                    games[where[gid]] = record
                    continue
                if gid is not None:
                    where[gid] = len(games)
                games.append(record)
    return games, damaged


def report(games, out=print):
    """Print each game, finished or not ("unfinished": left, or replaced by a new one), then
    players by wins (a shared or team win counts for each winner).

    A game's mode is named by its label in the registry, as the device's History names it (a
    mode this version does not know, by the name its history line gives); its result in words
    (``stats.result``: a team's win and a shared win are named so); its date, or "unknown";
    each player's number as the mode declares it ("Ann 12", "Ann 12 moves", or the names
    alone in a game without numbers), then what the standings' bottom line said."""
    if not games:
        out("No games in the history.")
        return
    played = {}
    wins = {}
    rows = [["#", "game", "when", "result", "scores"]]
    for n, g in enumerate(games, 1):
        names = g["names"]
        table = "  ".join((name + " " + said).strip() for name, said in zip(names,
                                                                              stats.figures(g)))
        why = footnote(g)  # the device's words: how it ended ("Ann's time is up"), the time
        if why:
            table += "  (%s)" % why
        rows.append([str(n), modes.label(g.get("game", "?")), stats.when(g), stats.result(g),
                     table])
        for name in names:
            played[name] = played.get(name, 0) + 1
        for name in stats.winners(g):
            wins[name] = wins.get(name, 0) + 1
    for line in stats.columns(rows, right={0}):
        out(line)
    out("")
    rows = [["player", "games", "wins"]]
    for name in sorted(played, key=lambda p: (-wins.get(p, 0), -played[p], p)):
        rows.append([name, str(played[name]), str(wins.get(name, 0))])
    for line in stats.columns(rows, right={1, 2}):
        out(line)


def main_pull(args, connect=flash.connect, out=print):
    """Entry point of ``tablemate pull``; returns the exit status."""
    board = None
    try:
        free = getattr(args, "free", False)
        board = connect(args.port, keep_ram=True)  # the app's RAM kept: it goes on after
        pull(board, args.out, out, free=free)
    except flash.ConnectionLost as er:
        print("tablemate pull: %s. Nothing on the board was changed. The copy is incomplete, so "
              "none of it was written: %s is as an earlier pull left it. Reconnect the board and "
              "run `tablemate pull` again." % (er, args.out), file=sys.stderr)
        return 1
    except flash.FlashError as er:
        print("tablemate pull: %s" % er, file=sys.stderr)
        return 1
    finally:
        if board is not None:
            flash.give_back(board, out)  # connecting stopped the app: it goes on
    return 0


def main_report(args, out=print):
    """Entry point of ``tablemate report``."""
    try:
        games, damaged = read_history_counted(args.file)
    except OSError as er:
        print("tablemate report: cannot read %s (%s); `tablemate pull` fetches it from the Pico"
              % (args.file, er.strerror), file=sys.stderr)
        return 1
    report(games, out)
    if getattr(args, "nights", False):
        out("")
        stats.view(games, out)
    if damaged:
        from tablemate.screens.history import damage
        out("")
        out(damage(damaged) + " (skipped, as on the device)")
    from tablemate_host import exports  # --csv and --plots
    return exports.main(args, games, out)

"""``tablemate pull`` and ``tablemate report``: the games a Tablemate played, on your computer.

The device keeps one JSON line per finished game in ``/data/history.jnl``, its newest games;
older ones are moved to ``/data/history.old`` (``tablemate/store/history.py``), and tracebacks go
to ``/data/errors.log`` (a board last flashed before ``/data`` existed has them at the root). ``pull`` copies those files, and the settings, from a connected Pico through the
same mpremote connection as ``tablemate flash`` (so a running watchdog is kept fed), changing
nothing on the board. Every file is read before any is written here, and each is written under a
temporary name and renamed: a connection lost half way leaves the folder as an earlier pull left
it, never a history cut short. ``report`` reads the archive and the history file and prints every
game once, oldest first, and a table of wins.
"""

import os
import sys

from tablemate import session
from tablemate.store import history
from tablemate_host import flash

FILES = ("history.jnl", "history.old", "errors.log", "settings.json",  # in /data on the board
         "game.jnl")  # the saved game: `report --plots` draws its scores


def pull(board, out_dir, out=print):
    """Copy the device's history, error log and settings into ``out_dir``; return what was copied."""
    found = _fetch(board, out)
    os.makedirs(out_dir, exist_ok=True)
    for name, data in found:
        path = os.path.join(out_dir, name)
        with open(path + ".part", "wb") as f:
            f.write(data)
        os.replace(path + ".part", path)
        out("%-14s %6d bytes -> %s" % (name, len(data), path))
    return [name for name, _ in found]


def _fetch(board, out=print):
    """``[(name, bytes), ...]`` of the ``FILES`` on the board, read whole."""
    found = []
    for name in FILES:
        path = "/data/" + name
        if board.stat(path) is None:
            path = "/" + name  # a board that has not booted since a version before /data
            if board.stat(path) is None:
                out("%-14s not on the board" % name)
                continue
        found.append((name, board.read(path)))
    return found


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
    """Print each game, then players by wins (a shared win counts for everyone sharing it)."""
    if not games:
        out("No finished games.")
        return
    played = {}
    wins = {}
    for n, g in enumerate(games, 1):
        names = g["names"]
        scores = g.get("scores", [])
        winners = [names[i] for i in g.get("winners", []) if i < len(names)]
        result = session.result(g)  # the registry says how a mode's outcomes read
        if winners and result.startswith(winners[0]):
            result = "won by " + result
        table = "  ".join("%s %s" % (names[i], scores[i]) for i in range(min(len(names),
                                                                                len(scores))))
        out("%3d  %-9s %-24s %s" % (n, g.get("game", "?"), result, table))
        for name in names:
            played[name] = played.get(name, 0) + 1
        for name in winners:
            wins[name] = wins.get(name, 0) + 1
    out("")
    out("%-10s %6s %6s" % ("player", "games", "wins"))
    for name in sorted(played, key=lambda p: (-wins.get(p, 0), -played[p], p)):
        out("%-10s %6d %6d" % (name, played[name], wins.get(name, 0)))


def main_pull(args, connect=flash.connect, out=print):
    """Entry point of ``tablemate pull``; returns the exit status."""
    board = None
    try:
        board = connect(args.port)
        pull(board, args.out, out)
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
            try:
                board.reset()  # connecting stopped the firmware: start it again
            except (flash.FlashError, OSError):
                pass
            board.close()
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
    if damaged:
        from tablemate.screens.history import damage
        out("")
        out(damage(damaged) + " (skipped, as on the device)")
    from tablemate_host import records  # --csv and --plots
    return records.main(args, games, out)

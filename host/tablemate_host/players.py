"""``tablemate players``: the players' names on a connected Tablemate, shown or set.

``tablemate players`` (or ``players list``) prints the eight names the device offers for new
games; ``tablemate players set Ann Bob ...`` makes them players 1, 2, ... (players after the last
name given keep theirs). Both go through the same mpremote connection as ``tablemate flash``, so
a running watchdog is kept fed, and both restart the firmware when done.

The names are checked with the firmware's own rules (``tablemate.store.settings.validate``, imported
under the host fakes) before the board is even asked: a refused name, or more than eight,
changes nothing. The settings file is read from ``/data/settings.json``, or ``/settings.json`` on
a board whose firmware predates ``/data`` (as ``tablemate pull`` reads it); only its ``names``
change, every other setting is written back as it was, through a ``.tmp`` file and a rename so
the file is always whole. A name wider than ``tablemate.flow.play.NAME_PX`` pixels is cut in the
score table of five to eight players: the command says how it will read there.
"""

import json
import sys

import tablemate_host  # noqa: F401  (installs the fakes before any firmware import)
from tablemate.store import settings
from tablemate.flow import play
from tablemate.ui import text
from tablemate.ui.names import MAX
from tablemate_host import flash

PATHS = ("/data/settings.json", "/settings.json")  # where the device reads them; older boards
SLOTS = len(settings.DEFAULTS["names"])


class PlayersError(Exception):
    """A problem said in one line; nothing on the board was changed."""


# --- the names ------------------------------------------------------------------------------------

def refusal(name):
    """None when the firmware takes ``name`` as a player's name, else why not (one line)."""
    if settings.validate("names", [name] + settings.DEFAULTS["names"][1:]) is None:
        return None
    if len(name) > MAX:
        return '"%s" has %d characters; a name has at most %d' % (name, len(name), MAX)
    for ch in name:
        if not " " <= ch <= "~":
            return ('"%s": %r is not a printable ASCII character (letters, digits, punctuation, '
                    'space)' % (name, ch))
    return '"%s" is empty or only spaces' % name


def check(names):
    """``names`` if the firmware takes them all (1 to 8 of them), else PlayersError."""
    if not names:
        raise PlayersError("give 1 to %d names: tablemate players set Ann Bob ..." % SLOTS)
    if len(names) > SLOTS:
        raise PlayersError("%d names given; the device keeps %d (players 1-%d)"
                           % (len(names), SLOTS, SLOTS))
    for name in names:
        why = refusal(name)
        if why:
            raise PlayersError(why)
    return list(names)


def shown_as(name):
    """How ``name`` reads in the score table of five to eight players: None when it fits in
    ``play.NAME_PX`` pixels, else its abbreviation (``text.fit``)."""
    if text.ink_width(name) <= play.NAME_PX:
        return None
    return text.fit(name, play.NAME_PX)


# --- the board ------------------------------------------------------------------------------------

def locate(board):
    """``(path, present)``: where the board keeps its settings, or will look for them."""
    for path in PATHS:
        stat = board.stat(path)
        if stat is not None and not stat[0]:
            return path, True
    if board.stat("/" + flash.VERSION_FILE) is None and board.stat("/" + flash.LEGACY[1]):
        return PATHS[1], False  # firmware from before /data reads the root
    return PATHS[0], False


def load(board):
    """``(path, settings as stored, or {} when there is no file)``; PlayersError when the file
    cannot be read (the device sets such a file aside at its next start and uses defaults)."""
    path, present = locate(board)
    if not present:
        return path, {}
    try:
        raw = json.loads(board.read(path))
    except ValueError:
        raw = None
    if not isinstance(raw, dict):
        raise PlayersError("%s on the board is unreadable; the device sets it aside as it "
                           "starts now: run the command again" % path)
    return path, raw


def names_of(raw):
    """The eight names ``raw`` gives the device (the defaults when its names are refused)."""
    names = raw.get("names")
    if settings.validate("names", names) is not None:
        return list(settings.DEFAULTS["names"])
    return list(names)


def store(board, path, raw):
    """Write ``raw`` as the board's settings at ``path``: a ``.tmp`` file, then a rename."""
    folder = path.rsplit("/", 1)[0]
    if folder and board.stat(folder) is None:
        board.mkdir(folder)
    tmp = path + ".tmp"
    try:
        board.write(tmp, json.dumps(raw).encode())
        try:
            board.rename(tmp, path)
        except OSError:  # a file system that does not rename over a file (FAT)
            board.remove(path)
            board.rename(tmp, path)
    except OSError:
        try:
            if board.stat(tmp) is not None:
                board.remove(tmp)
        except (OSError, flash.FlashError):
            pass
        raise


def show(names, path, out, given=None):
    """Print the names, one a line, and how those too wide for small cells will read."""
    out("Player names (%s on the board):" % path)
    for i, name in enumerate(names):
        notes = []
        if given is not None and i >= given:
            notes.append("kept")
        cut = shown_as(name)
        if cut is not None:
            notes.append('shown as "%s" in games of 5-8 players (wider than %d px)'
                         % (cut, play.NAME_PX))
        out(("%d  %-8s  %s" % (i + 1, name, ", ".join(notes))).rstrip())


def set_names(board, names, out=print):
    """Make ``names`` players 1, 2, ... on ``board`` (validated already); returns all eight."""
    path, raw = load(board)
    new = list(names) + names_of(raw)[len(names):]
    if settings.validate("names", new) is not None:  # check() let a name through: a bug
        raise PlayersError("the device would refuse these names")
    raw = dict(raw)
    raw["names"] = new
    store(board, path, raw)
    show(new, path, out, len(names))
    return new


def list_names(board, out=print):
    path, raw = load(board)
    names = names_of(raw)
    show(names, path, out)
    if not raw:
        out("(no settings file yet: these are the defaults)")
    return names


def main(args, connect=flash.connect, out=print):
    """Entry point of ``tablemate players``; returns the exit status (2 for any problem)."""
    board = None
    try:
        names = check(args.names) if args.players_command == "set" else None
        board = connect(args.port)
        if names is None:
            list_names(board, out)
        else:
            set_names(board, names, out)
            out("Restarting the firmware.")
    except (PlayersError, flash.FlashError) as er:
        print("tablemate players: %s" % er, file=sys.stderr)
        return 2
    except OSError as er:
        print("tablemate players: the board refused: %s" % er, file=sys.stderr)
        return 2
    finally:
        if board is not None:
            try:
                board.reset()  # connecting stopped the firmware: start it, with the new names
            except (flash.FlashError, OSError):
                pass
            board.close()
    return 0

"""A folder where the device keeps a file (issue 33): moved aside, the file written, nothing lost.

A computer can make a folder anywhere on the flash (``mpremote mkdir :data/game.jnl``, a backup
unpacked the wrong way). littlefs then refuses to open the name as a file and to rename a file
over it, so every write of that file failed: a folder at ``game.jnl`` left every later game "not
being saved", and one at ``history.jnl`` kept a new game from replacing the saved one (the
filing of the old game failed, the new journal waited for it), so a power cycle brought back the
old game and lost the new one's turns. Now the write that meets the folder moves it aside as a
damaged file is kept (``NAME.bad``, whole, with what is in it) and writes its file.

Each case: a flash with a folder (holding a file of its own) at one of the fixed paths in
``/data`` or at its temporary name, a new app booted on it, the screen that writes that file
driven to; then no error screen, the file written, the folder whole under its ``.bad`` name,
and, where it matters, a power cycle that finds what was played.
"""

import os

import support
from badfiles import Boot, choose, dismiss, go_home, screen_problems, solve_solitaire
from rig import Rig
from tablemate import keys as K

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal")
INSIDE = b"something of the owner's"


def _flash(name, folder):
    """A fresh flash with its settings (unless the folder stands there) and a folder at
    ``data/folder`` holding a file; the root."""
    root = support.scratch_dir("inway-" + name)
    os.mkdir(root + "/data")
    if not folder.startswith("settings.json"):
        support.write_bytes(root + "/data/settings.json",
                            b'{"names": [%s]}' % b", ".join(b'"%s"' % n.encode() for n in NAMES))
    os.mkdir(root + "/data/" + folder)
    support.write_bytes(root + "/data/" + folder + "/keep.txt", INSIDE)
    return root


def _boot(root):
    """A new app on the flash, past a boot notice: in the MicroPython VM a folder opens to read
    and its read fails, which a reader takes for a damaged file and moves aside, saying so
    (littlefs refuses the open: a missing file, until a write moves the folder aside)."""
    rig = Boot(root)
    dismiss(rig)
    return rig


def _is_file(path):
    try:
        return os.stat(path)[0] & 0x4000 == 0
    except OSError:
        return False


def _written(root, folder, written):
    """``written`` is a file now, and the folder is kept whole as folder.bad."""
    assert _is_file(root + "/data/" + written), (folder, os.listdir(root + "/data"))
    kept = root + "/data/" + folder + ".bad/keep.txt"
    assert _is_file(kept) and support.read_bytes(kept) == INSIDE, (folder, os.listdir(
        root + "/data"))


def _fine(rig, folder):
    """No error screen, and the home menu reachable (which may leave the game or the clock:
    after the checks of the files)."""
    problems = screen_problems(rig, (rig.top(),))
    assert not problems, (folder, problems)
    assert go_home(rig), folder


def _check(root, rig, folder, written):
    _written(root, folder, written)
    _fine(rig, folder)


def _scorepad(rig, target=False):
    choose(rig, "Scorepad")
    dismiss(rig)
    if target:  # a target of 5, won at once: the first player's +5 ends the game
        rig.goto("Target: none")
        rig.press(K.RIGHT)
        rig.press(K.DOWN)
        rig.press(K.RIGHT)
    choose(rig, "Start")
    _play(rig)


def _play(rig):
    """The first player's +5."""
    rig.presses(K.RIGHT, K.RIGHT, K.RIGHT, K.RIGHT, K.RIGHT, K.OK)
    rig.advance(100)


def test_a_folder_at_the_journal():
    for folder in ("game.jnl", "game.jnl.tmp"):
        root = _flash("journal", folder)
        rig = _boot(root)
        _scorepad(rig)
        assert rig.top() == "Scorepad", rig.top()  # no "not being saved" notice
        _check(root, rig, folder, "game.jnl")
        again = Boot(root)
        assert again.top() == "Confirm", again.top()  # "Resume game?"
        again.press(K.OK)
        assert again.app.game.state["scores"][0] == 5


def test_a_folder_at_the_history_keeps_the_new_game():
    for folder in ("history.jnl", "history.jnl.tmp"):
        root = _flash("history", folder)
        rig = _boot(root)
        _scorepad(rig)  # a game in progress
        rig.press(K.BACK)
        choose(rig, "New game")  # the first is filed, and the new journal takes its place
        rig.press(K.OK)  # "Start again with the same players?"
        _play(rig)
        assert rig.top() == "Scorepad", rig.top()  # no "not being saved" notice
        rig.app.home()
        if folder == "history.jnl.tmp":  # only a move of old games replaces the history
            from tablemate.store import history
            history.file(root + "/data/history.jnl", {"names": ["A"], "scores": [1]}, cap=1)
        _check(root, rig, folder, "history.jnl")
        filed = rig.lines("history.jnl") + rig.lines("history.old")
        assert len(filed) == 1 + (folder == "history.jnl.tmp"), filed
        again = Boot(root)
        again.press(K.OK)  # "Resume game?"
        assert again.app.game.count == 2 and again.app.game.id == rig.app.game.id


def test_a_folder_at_the_end_marker():
    root = _flash("end", "game.end")
    rig = _boot(root)
    _scorepad(rig, target=True)
    assert rig.app.game.filed is not None
    _written(root, "game.end", "game.end")
    again = Boot(root)  # the game had ended and was filed: not offered again
    assert again.top() == "Notice" and "Last game ended" in "".join(again.app.top().lines)
    _fine(rig, "game.end")


def test_a_folder_at_the_settings():
    for folder in ("settings.json", "settings.json.tmp"):
        root = _flash("settings", folder)
        rig = _boot(root)
        choose(rig, "Settings")
        rig.press(K.RIGHT)  # brightness 3 -> 4
        rig.press(K.BACK)  # left: saved
        assert rig.top() == "Home", rig.top()  # no "the settings last until switched off"
        _check(root, rig, folder, "settings.json")
        assert Boot(root).app.settings["brightness"] == 4


def test_a_folder_at_the_setups_and_the_records():
    for folder in ("setups.json", "perspective.json", "perspective.json.tmp"):
        root = _flash("records", folder)
        rig = _boot(root)
        solve_solitaire(rig)
        rig.advance(100)
        _check(root, rig, folder, folder.replace(".tmp", ""))


def test_a_folder_at_the_chess_clock():
    root = _flash("clock", "clock.json")
    rig = _boot(root)
    choose(rig, "Chess clock")
    choose(rig, "Start")
    rig.press(K.OK)
    rig.advance(3000)
    rig.press(K.OK)
    rig.advance(100)
    again = Boot(root)  # the clock in use comes back
    assert again.top() == "ClockScreen", again.top()
    _check(root, rig, "clock.json", "clock.json")


def test_a_folder_at_the_files_of_the_boot_and_the_error_log():
    from tablemate.store import settings
    for folder, write in (
            ("board.json", lambda d: settings.board_passed(d, 7, ("six",))),
            ("errors.log", lambda d: _log(d, 10)),
            ("errors.old", lambda d: _log(d, 2000))):  # past the limit: the log becomes .old
        root = _flash("boot", folder)
        write(root + "/data/")
        rig = Rig(root)
        dismiss(rig)
        _check(root, rig, folder, folder)


def _log(folder, size):
    """An error log of ``size`` bytes, then one more entry."""
    from tablemate.store import textfiles
    for n in (size, 10):
        textfiles.append(folder + "errors.log", lambda f: f.write("x" * (n - 1) + "\n"), 1000,
                         folder + "errors.old")

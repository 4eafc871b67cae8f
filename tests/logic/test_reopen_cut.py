"""An undo that reopens a finished game, with a power cut at each file operation (issue 33).

A solved Perspective solitaire is filed the moment it ends: its history line, the end marker
(``game.end``: the boot then says "Last game ended" and clears the journal) and its records.
Undo reopens it: the journal's undo line, the records it beat written back, the marker removed.
The power is cut at each of those changes, with every torn amount of a cut write, and a new app
boots on what the flash holds. Before issue 33 the undo line came after its frame and the
marker went after it: a cut between the two (or before the line, with the undo on the panel)
booted into "Last game ended: ... solved", the journal cleared, the game beyond reopening.

Every cut must leave: a boot that offers the reopened game ("Resume game?", then the game not
over) when the undo line is on the flash, else one that clears the ended game (or offers it as
it ended, when a torn line follows it); and never an undo that was on the panel (a frame sent
after the OK on "Undo") and is not on the flash.
"""

import support
from badfiles import Boot, dismiss, solve_solitaire
from rig import Rig
from tablemate import keys as K
from tablemate.store import files, journal


def _solved(root):
    """A Perspective solitaire solved in two moves, on the screen, filed: the rig."""
    rig = Rig(root)
    solve_solitaire(rig)
    rig.advance(100)
    assert rig.app.game.filed is not None and rig.exists("game.end"), rig.top()
    return rig


class _Frames:
    """Counts the frames the display sends."""

    def __init__(self, display):
        self.sent = 0
        show = display.show

        def counted():
            show()
            self.sent += 1
        display.show = counted


def _undo(rig, flash):
    """The game menu's Undo through ``flash``: (whether the power was cut, whether a frame
    went out after the OK on "Undo")."""
    rig.press(K.BACK)
    rig.goto("Undo")
    frames = _Frames(rig.display)
    flash.install(journal, files)
    try:
        rig.press(K.OK)
        rig.advance(200)
        return False, frames.sent > 0
    except support.PowerCut:
        return True, frames.sent > 0
    finally:
        flash.uninstall()


def _undo_on_flash(root):
    lines = support.journal_lines(root + "/data/game.jnl") if files.exists(
        root + "/data/game.jnl") else []
    return bool(lines) and lines[-1] == ["undo"]


def test_an_undo_of_a_finished_game_survives_a_cut_at_each_file_operation():
    cut = 0
    lost = []
    done = False  # the first N whose operation the action never reaches
    while not done:
        assert cut < 64, "the action never ends"
        for torn in range(4):
            root = support.scratch_dir("reopen-cut")
            rig = _solved(root)
            was_cut, shown = _undo(rig, support.CutFlash(cut, torn))
            if not was_cut:
                assert rig.top() == "Perspective" and not rig.app.top().over(), rig.top()
                assert not rig.exists("game.end")
                assert cut >= 2, "the undo changed %d files" % cut
                assert not lost, lost
                done = True
                break
            undone = _undo_on_flash(root)
            again = Boot(root)
            if undone:  # reopened on the flash: offered again, and not over
                assert again.top() == "Confirm", (cut, torn, again.top())
                again.press(K.OK)
                dismiss(again)
                assert again.app.game is not None and not again.app.top().over(), (cut, torn)
            elif again.top() == "Confirm":  # the game as it ended, a torn line after it
                again.press(K.OK)  # (the marker holds no more): offered again, as it ended
                dismiss(again)
                assert again.app.top().over(), (cut, torn)
            else:  # the journal as it was at the end: cleared, in the History
                assert again.top() == "Notice" and "Last game ended" in "".join(
                    again.app.top().lines), (cut, torn, again.top())
            if shown and not undone:
                lost.append((cut, torn))
        cut += 1

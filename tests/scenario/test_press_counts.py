"""Presses for the common actions of every mode, counted through the buttons of the real app.

Each count is of presses on the virtual device (``Device.press``), from the game's own screen to
the frame that shows the action taken; the helpers move cursors by what the panel shows, so a
count is what a player at the table needs, not what the code intends. The table these tests
print is the one in docs/performance.md ("Presses"); the recorded-game figures (a Viewpoint card
with a target, a Perfect Moment score, five open votes) are the budgets' own, in test_budgets.py.

The undo rows hold the issue's promise (budget ``presses-undo``): undo from the game takes back
what the player did, in at most 3 presses, in every mode.
"""

import pytest
import test_contrast_ui as contrast
import test_perfect_moment_ui as pm
import test_perspective_ui as perspective
import test_viewpoint_ui as viewpoint
from conftest import actions, dump, new_scorepad, row_score

from tablemate_host import budgets

UNDO_MOST = budgets.limit("presses-undo")  # from the game, for one undo (the figure)
class Counter:
    """Counts the presses sent to ``dev`` while it is installed (``with Counter(dev) as c``)."""

    def __init__(self, dev):
        self.dev = dev
        self.n = 0
        self._press = dev.press

    def __enter__(self):
        def press(key, *args, **kw):
            self.n += 1
            self._press(key, *args, **kw)
        self.dev.press = press
        return self

    def __exit__(self, *exc):
        self.dev.press = self._press


def undo(dev, back):
    """Undo from the game through the menu until ``back()`` (the game as it was before the
    player's action); the presses it took."""
    with Counter(dev) as c:
        for _ in range(4):
            dev.press("BACK")
            dev.goto("Undo")
            dev.press("OK")
            if back():
                break
    assert back(), dump(dev)
    return c.n


def figure(what, n):
    print("\npresses: %s: %s" % (what, n))


def test_scorepad_plus_seven_and_its_undo(make_device):
    dev = make_device()
    new_scorepad(dev, players=4)
    with Counter(dev) as c:
        for _ in range(7):
            dev.press("RIGHT")
    dev.advance(1600)  # the pending change is journaled
    assert actions(dev)[-1] == ["add", 0, 7] and row_score(dev, 0, 7), dump(dev)
    figure("scorepad +7", c.n)
    n = undo(dev, lambda: row_score(dev, 0, 0) and actions(dev)[-1] == ["undo"])
    figure("scorepad undo", n)
    assert n <= UNDO_MOST


def test_a_contrast_round_of_three_and_its_undo(make_device):
    dev = make_device()
    contrast.new_game(dev, 3)
    with Counter(dev) as c:
        for sym in ("square", "square", "yellow"):
            contrast.pick(dev, sym)
    assert dev.shows("square won"), dump(dev)
    figure("Contrast round, 3 players (first round)", c.n)
    n = undo(dev, lambda: contrast.turn_is(dev, "Cy") and not dev.shows("square won"))
    figure("Contrast undo", n)
    assert n <= UNDO_MOST


@pytest.mark.parametrize("how", ["suggested", "from the list"])
def test_a_viewpoint_card_with_a_target_and_its_undo(make_device, how):
    """The suggested card at the suggested player (OK, OK), or a card picked from the list
    (Blurred Vision: who discards 2) at another player; one undo takes the card back with its
    answer, whatever the list's order."""
    dev = make_device()
    viewpoint.new_game(dev)
    before = viewpoint.state(dev)["view"][0][:], viewpoint.state(dev)["hand"][:]
    with Counter(dev) as c:
        if how == "suggested":
            dev.press("OK")
            dev.press("OK")
        else:
            viewpoint.play(dev, "Blurred Vision")
            viewpoint.answer(dev, "Cy")
    assert viewpoint.turn_of(dev, "Bob"), dump(dev)
    figure("Viewpoint card with a target (%s)" % how, c.n)

    def back():
        s = viewpoint.state(dev)
        return (viewpoint.turn_of(dev, "Ann") and (s["view"][0], s["hand"]) == before
                and s["phase"] == "play")
    n = undo(dev, back)
    figure("Viewpoint undo of that card", n)
    assert n <= UNDO_MOST
    assert viewpoint.says(dev, "Undone: "), dump(dev)


def test_a_perspective_turn_and_its_undo(make_device):
    dev = make_device()
    perspective.new_game(dev)
    perspective.pick(dev, "red")
    perspective.pick(dev, "Bob")
    with Counter(dev) as c:
        dev.press("DOWN")  # Bob: red
        dev.press("OK")  # ends the turn
    assert perspective.turn_view(dev, 2, 2, "with Ann"), dump(dev)
    figure("Perspective turn", c.n)
    n = undo(dev, lambda: actions(dev)[-1] == ["undo"] and dev.app.game.count == 2)
    figure("Perspective undo", n)
    assert n <= UNDO_MOST


def test_a_perfect_moment_score_and_its_undo(make_device):
    dev = make_device()
    pm.bob_first(dev)
    dev.advance(300)
    taken = len(actions(dev))
    dev.press("OK")  # Bob ends his turn: the action to take back
    assert len(actions(dev)) == taken + 1, dump(dev)
    n = undo(dev, lambda: actions(dev)[-1] == ["undo"])
    figure("Perfect Moment undo", n)
    assert n <= UNDO_MOST


def test_cartes_sur_table_a_vote_and_its_undo(make_device):
    dev = make_device()
    dev.choose("Cartes sur Table")
    dev.choose("Start")
    dev.advance(300)
    with Counter(dev) as c:
        dev.press("OK")  # the first vote, on the card the cursor starts on
    assert actions(dev)[-1][0] == "vote", dump(dev)
    figure("Cartes sur Table one open vote", c.n)
    n = undo(dev, lambda: actions(dev)[-1] == ["undo"])
    figure("Cartes sur Table undo", n)
    assert n <= UNDO_MOST

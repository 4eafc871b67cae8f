"""Walks through every screen of the real app; the same walks run on CPython and MicroPython.

Each walk drives a fresh ``Rig`` with key events, checks what a player would see happen (the
screen on top, the journal, the history) and returns the rig, so ``test_tours.py`` can assert on
it and ``tests/test_vm_parity.py`` can compare the I2C streams of the two VMs byte for byte.
"""

import json

import support
from rig import Rig
from tablemate import keys as K


def _actions(rig):
    return support.journal_lines(rig.root + "/data/game.jnl")[1:]


def scorepad(root):
    rig = Rig(root)
    rig.choose("Scorepad")
    assert rig.top() == "Setup"
    # 3 players; (names as saved); to 10, won at once; (no rotation); a 15 s turn timer
    rig.presses(K.RIGHT, K.DOWN, K.DOWN, K.RIGHT, K.RIGHT, K.DOWN, K.RIGHT, K.DOWN, K.DOWN,
                K.RIGHT)
    rig.choose("Start")
    assert rig.top() == "Scorepad"
    rig.presses(K.RIGHT, K.RIGHT, K.RIGHT)
    rig.advance(1600)  # the pending +3 is journaled as one action
    assert _actions(rig) == [["add", 0, 3]]
    rig.press(K.OK)
    rig.press(K.RIGHT, repeats=12)  # held: auto-repeat accelerates
    rig.press(K.DOWN)  # moving on commits
    assert _actions(rig)[-2:] == [["next"], ["add", 1, 25]]  # 1 + 9 x 1 + 3 x 5
    rig.press(K.BACK)
    rig.choose("Undo")
    assert _actions(rig)[-1] == ["undo"]
    rig.press(K.BACK)
    rig.choose("Adjust score")
    assert rig.top() == "NumberEntry"
    rig.presses(K.UP, K.UP, K.OK)
    assert _actions(rig)[-1] == ["add", 1, 2]  # the undo put the cursor back on Bob, to move
    rig.advance(16000)  # the turn timer runs out: beeps in its last 5 s, then a long tone
    assert 880 in rig.pwm.notes and rig.pwm.notes.count(2093) == 5
    rig.press(K.BACK)
    rig.choose("Next round")
    rig.press(K.RIGHT, repeats=9)  # Ann reaches the target
    rig.press(K.OK)
    assert rig.app.top().game.state["winners"] == [0]
    rig.press(K.LEFT)  # refused: "Game is over"
    assert rig.app.top().msg.text == "Game is over"
    rig.press(K.BACK)
    rig.choose("Home")
    assert rig.top() == "Home" and not rig.exists("game.jnl")
    # Bob's 25 ended the game and filed it; the undo reopened it; Ann's win filed it again,
    # under the same id: the History shows the game once, as it ended last.
    history = [json.loads(line) for line in rig.lines("history.jnl")]
    assert [g["winners"] for g in history] == [[1], [0]] and history[0]["id"] == history[1]["id"]
    from tablemate.store.history import recent
    games = recent(rig.root + "/data/history.jnl", 12)
    assert len(games) == 1 and games[0]["winners"] == [0]
    return rig


def contrast(root):
    rig = Rig(root)
    rig.choose("Contrast")
    rig.press(K.RIGHT)  # 5 players
    rig.choose("Start")
    assert rig.top() == "Contrast"
    for moves in ((K.RIGHT,), (), (K.RIGHT,), (), (K.UP,)):
        rig.presses(*moves)
        rig.press(K.OK)
    # The cursor starts on the symbol picked most so far: "blue" for the fourth player.
    assert [a[2] for a in _actions(rig)] == ["blue", "blue", "heavy", "blue", "green"]
    assert rig.app.top().game.state["last"]["winners"] == [0, 1, 3]
    rig.press(K.OK)  # on to round 2
    rig.press(K.BACK)
    rig.choose("Count to 3")
    rig.advance(3500)
    assert rig.top() == "Confirm"
    rig.press(K.OK)  # skip the player who could not decide
    assert _actions(rig)[-1] == ["skip", 0]
    rig.press(K.BACK)
    rig.choose("Undo")
    assert _actions(rig)[-1] == ["undo"]
    rig.press(K.BACK)
    rig.choose("Scores")
    rig.press(K.OK)
    rig.press(K.BACK)
    rig.choose("End game")
    rig.press(K.OK)
    assert rig.top() == "Standings"
    rig.press(K.OK)
    assert rig.top() == "Home" and not rig.exists("game.jnl")
    return rig


def chess_clock(root):
    rig = Rig(root)
    rig.choose("Chess clock")
    rig.choose("Start")
    assert rig.top() == "ClockScreen"
    rig.press(K.OK)  # Ann's time runs
    rig.advance(3000)
    rig.press(K.OK)  # Ann ends her turn: Bob's time runs, Ann gets the increment
    clock = rig.app.top().clock
    assert clock.current == 1 and clock.moves == 1
    assert clock.remaining(0, rig.now) > 300000 - 3000
    rig.press(K.BACK)  # pause
    assert clock.paused
    rig.choose("Resume")
    rig.advance(500)
    rig.press(K.BACK)
    rig.choose("Home")
    assert rig.top() == "Confirm"  # a paused clock's times: asked first
    rig.press(K.OK)
    assert rig.top() == "Home"
    return rig


def settings_and_history(root):
    rig = Rig(root)
    rig.choose("Settings")
    rig.press(K.RIGHT)  # brightness 4
    rig.choose("Player names")
    rig.press(K.OK)  # Ann: the name entry, its cursor on the check mark in the middle
    rig.presses(K.DOWN, K.LEFT, K.LEFT, K.OK)  # B
    rig.presses(K.UP, K.OK, K.UP, K.OK)  # n, n
    rig.press(K.OK)  # the check mark saves
    rig.press(K.BACK)  # leave settings: saved once
    with open(root + "/data/settings.json") as f:
        saved = json.load(f)
    assert saved["brightness"] == 4 and saved["names"][0] == "Bnn"
    rig.choose("History")
    rig.press(K.OK)  # "No finished games yet"
    assert rig.top() == "Home" and not rig.exists("errors.log")
    return rig


def self_test_and_about(root):
    """The pages that show free heap, which differs between the VMs by nature."""
    rig = Rig(root)
    for page in ("Keys", "Display", "Sound", "Board"):
        rig.choose("Self-test")
        rig.choose(page)
        rig.advance(500)
        rig.presses(K.OK, K.UP, K.DOWN)
        rig.app.home()  # every page has its own way out; the tour only visits
    rig.choose("About")
    rig.press(K.OK)
    assert rig.top() == "Home" and not rig.exists("errors.log")
    return rig


def error_net(root):
    """A screen that breaks: the error screen, the log, and home again with the game intact."""
    from tablemate.ui import Screen
    rig = Rig(root)
    rig.choose("Scorepad")
    rig.choose("Start")
    rig.press(K.RIGHT)
    rig.press(K.OK)
    saved = rig.lines("game.jnl")

    class Broken(Screen):
        def draw(self, fb):
            raise ValueError("broken on purpose")

    rig.app.push(Broken(rig.app))
    rig.advance(20)
    assert rig.top() == "ErrorScreen"
    assert "ValueError" in "\n".join(rig.lines("errors.log"))
    rig.press(K.OK)
    assert rig.top() == "Home" and rig.lines("game.jnl") == saved
    rig.choose("Continue Scorepad")
    assert rig.app.top().game.state["scores"][0] == 1
    return rig


# Walks whose display bytes must be the same on both VMs (free heap is never shown in them).
WALKS = (scorepad, contrast, chess_clock, settings_and_history, error_net)

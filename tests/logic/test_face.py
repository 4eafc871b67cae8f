"""Face the player: the "turn" setting, who each mode faces, and the arrow keys turning with the
picture (the real app on the rig, on both VMs; the pictures themselves: tests/scenario/test_face_ui.py).
"""

import json

import support
from rig import Rig
from tablemate import keys as K
from tablemate import lifecycle
from tablemate.store import settings
from tablemate.ui import Screen, face

OFF, FLIP, PLAYER = 0, 1, 2


def test_the_rule():
    # seat None: no game (the home menu and its pages); -1: a game that faces no one seat
    for seat in (None, -1, 0, 1):
        assert not face.turned(OFF, seat)
        assert face.turned(FLIP, seat) == (seat is not None)
        assert face.turned(PLAYER, seat) == (seat == 1)


def test_the_setting_is_validated_and_a_bad_one_repaired():
    for value in (OFF, FLIP, PLAYER):
        assert settings.validate("turn", value) is None
    for value in (3, -1, "flip", None, True, 1.0):
        assert settings.validate("turn", value) == "Bad setting: turn"
    assert settings.defaults()["turn"] == OFF
    path = support.scratch_dir("face-settings") + "/settings.json"
    raw = json.dumps({"turn": "sideways", "sound": False}).encode()
    support.write_bytes(path, raw)
    s, problem = settings.load(path)
    assert s["turn"] == OFF and not s["sound"] and problem == "Bad setting: turn"
    assert support.read_bytes(path + ".bad") == raw  # kept aside, and saved back repaired
    assert settings.load(path) == (s, None)
    s["turn"] = PLAYER
    settings.save(path, s)
    assert settings.load(path)[0]["turn"] == PLAYER


def _rig(name, turn):
    """A rig whose "turn" setting was chosen in the Settings menu."""
    rig = Rig(support.scratch_dir(name))
    rig.choose("Settings")
    rig.goto("Turn: off")
    for _ in range(turn):
        rig.press(K.RIGHT)
    assert rig.app.top().items[rig.app.top().index] == "Turn: " + ("off", "flip", "to player")[turn]
    rig.press(K.BACK)  # saved when the menu is left
    assert rig.app.settings["turn"] == turn and rig.top() == "Home"
    assert not rig.app.display.turned
    return rig


def _start(rig, name, names, **opts):
    opts["names"] = names
    assert lifecycle.start(rig.app, name, opts) is None
    rig.advance(20)
    return rig.app.stack[1]  # the game (a mode's opening words may be over it)


def test_two_player_modes_face_the_player_to_move():
    rig = _rig("face-modes", PLAYER)
    app = rig.app
    pad = _start(rig, "scorepad", ["Ann", "Bob"])
    assert face.seat(pad) == 0 and not app.display.turned
    rig.press(K.OK)  # Bob's turn
    assert face.seat(pad) == 1 and app.display.turned
    rig.press(K.BACK)  # the game menu keeps the game's facing
    assert rig.top() == "GameMenu" and app.display.turned
    rig.choose("Home")
    assert rig.top() == "Home" and not app.display.turned  # the home menu is upright
    co = _start(rig, "contrast", ["Ann", "Bob"], coop=True)
    assert face.seat(co) == 0 and not app.display.turned
    co.do(["pick", 0, co.rules.SYMBOLS[0]])
    rig.advance(20)
    assert face.seat(co) == co.rules.turn(co.game.state) == 1 and app.display.turned
    pm = _start(rig, "perfect_moment", ["Ann", "Bob"])
    assert face.seat(pm) == -1 and not app.display.turned  # the race for the first move
    pm.do(["first", 1, pm.times()])
    rig.advance(20)
    assert face.seat(pm) == 1 and app.display.turned
    vp = _start(rig, "viewpoint", ["Ann", "Bob"])
    assert face.seat(vp) == vp.rules.turn(vp.game.state) >= 0
    assert app.display.turned == (face.seat(vp) == 1)
    # more than two players: no one seat to face, upright under "to player"
    for name in ("scorepad", "viewpoint", "cartes_sur_table", "perspective", "contrast"):
        screen = _start(rig, name, ["Ann", "Bob", "Cy"])
        assert face.seat(screen) == -1 and not app.display.turned, name


def test_the_chess_clock_faces_the_side_to_move():
    rig = _rig("face-clock", PLAYER)
    rig.choose("Chess clock")
    rig.choose("Start")
    clock = rig.app.top()
    assert face.seat(clock) == 0 and not rig.app.display.turned
    rig.press(K.OK)  # Ann's time runs
    rig.press(K.OK)  # Bob's
    assert clock.clock.current == 1 and rig.app.display.turned
    rig.press(K.BACK)  # paused, the menu over the clock: still Bob's
    assert rig.top() == "ClockMenu" and rig.app.display.turned


def test_off_never_turns():
    rig = Rig(support.scratch_dir("face-off"))
    pad = _start(rig, "scorepad", ["Ann", "Bob"])
    rig.press(K.OK)  # Bob's turn
    assert face.seat(pad) == 1 and not rig.app.display.turned


def test_flip_turns_every_game_once_and_home_stays_upright():
    rig = _rig("face-flip", FLIP)
    app = rig.app
    for names in (["Ann", "Bob", "Cy"], ["Ann", "Bob"]):
        _start(rig, "scorepad", names)
        assert app.display.turned
        rig.press(K.OK)  # the next player's turn
        assert app.display.turned  # whoever moves
        rig.press(K.BACK)
        rig.choose("End game")
        rig.press(K.OK)  # yes: the standings, still the game's page
        assert rig.top() == "Standings" and app.display.turned
        rig.press(K.OK)
        assert rig.top() == "Home" and not app.display.turned


class _Reader(Screen):
    """Records the keys it is given; read from seat ``reads``."""

    def __init__(self, app, reads):
        Screen.__init__(self, app)
        self.reads = reads
        self.got = []

    def key(self, key, kind):
        if kind == K.PRESS:
            self.got.append(key)

    def seat(self):
        return self.reads


ALL = (K.UP, K.DOWN, K.LEFT, K.RIGHT, K.OK, K.BACK)


def test_arrow_keys_turn_with_the_picture_and_a_knob_does_not():
    rig = _rig("face-keys", PLAYER)
    app = rig.app
    for seat, want in ((0, ALL), (1, (K.DOWN, K.UP, K.RIGHT, K.LEFT, K.OK, K.BACK))):
        screen = _Reader(app, seat)
        app.push(screen)
        rig.advance(20)
        rig.presses(*ALL)
        assert tuple(screen.got) == want and app.display.turned == (seat == 1)
        app.pop()
    # where LEFT and RIGHT are minus and plus, only UP and DOWN turn: "+" is "+" for both
    screen = _Reader(app, 1)
    screen.plus_minus = True
    app.push(screen)
    rig.advance(20)
    rig.presses(*ALL)
    assert tuple(screen.got) == (K.DOWN, K.UP, K.LEFT, K.RIGHT, K.OK, K.BACK), screen.got
    assert app.display.turned
    app.pop()
    for layout in ("three", "encoder"):  # PREV and NEXT walk in order: no up to turn
        app.settings["layout"] = layout
        app.apply_settings()
        screen = _Reader(app, 1)
        app.push(screen)
        rig.advance(20)
        rig.presses(K.UP, K.DOWN, K.OK)
        assert tuple(screen.got) == (K.UP, K.DOWN, K.OK) and app.display.turned
        app.pop()


def test_the_player_across_adds_with_the_same_plus_key():
    rig = _rig("face-pad", PLAYER)
    _start(rig, "scorepad", ["Ann", "Bob"])
    rig.presses(K.RIGHT, K.RIGHT, K.RIGHT)  # Ann: +3
    rig.press(K.OK)  # Bob's turn: the picture turns to him
    assert rig.app.display.turned
    rig.presses(K.RIGHT, K.RIGHT, K.RIGHT)  # the same key: +3 for him too (it was -3)
    rig.advance(2000)  # the pending points are journaled
    assert support.journal_lines(rig.root + "/data/game.jnl")[-3:] == [
        ["add", 0, 3], ["next"], ["add", 1, 3]]

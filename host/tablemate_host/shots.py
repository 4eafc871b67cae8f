"""``tablemate screens``: the README's pictures, rendered from the running firmware.

Each shot boots a fresh ``Device`` (the real ``main.py`` on fake hardware), presses buttons like a
player would, and saves what the virtual SSD1306 decoded from the I2C bytes. Nothing is drawn by
hand, and a test regenerates the shots to check the committed PNGs are current. Menu rows are
found by the text the panel shows (``Device.choose``), never by counting DOWN presses, so a new
menu row cannot make a shot capture the wrong screen; games are found by their label in the
registry (``modes.MODES``), which also gives every mode a picture of its setup menu.
"""

import os
import shutil
import tempfile

from tablemate_host.device import Device

from tablemate import modes

NAMES = ["Ann", "Ben", "Cleo", "Dev", "Eve", "Finn", "Gus", "Hana"]
OUT = os.path.join("docs", "screens")


def _device(root, **kw):
    return Device(root, settings={"names": NAMES, "sound": True}, **kw)


def _scorepad(dev, players, target=0):
    """From the home menu: a new scorepad with ``players`` and an optional target."""
    dev.choose(modes.label("scorepad"))
    for _ in range(players - 2):
        dev.press("RIGHT")
    dev.goto("Target: none")
    for _ in range(target // 5):
        dev.press("RIGHT")
    dev.choose("Start")


def _score(dev, *deltas):
    """Give each player in turn ``delta`` points and end their turn."""
    for delta in deltas:
        for _ in range(abs(delta)):
            dev.press("RIGHT" if delta > 0 else "LEFT", 40, 40)
        dev.press("OK")


def home(dev):
    pass


def scorepad(dev):
    _scorepad(dev, 4, target=50)
    _score(dev, 7, 4, 9, 3, 5)
    dev.press("DOWN")
    dev.press("RIGHT")
    dev.press("RIGHT")


def scorepad_duel(dev):
    _scorepad(dev, 2)
    _score(dev, 12, 9, 6)


def scorepad_eight(dev):
    _scorepad(dev, 8)
    _score(dev, 3, 5, 2, 8, 1, 4, 6, 2, 3)


def winner(dev):
    """Ann reaches the target in round 2; Ben and Cleo play the round out; Ann wins."""
    _scorepad(dev, 3, target=10)
    _score(dev, 6, 4, 3, 5, 2, 1)
    dev.advance(1600)


def standings(dev):
    winner(dev)
    dev.press("OK")


def game_menu(dev):
    scorepad_duel(dev)
    dev.press("BACK")
    dev.goto("Undo")


def chess_clock(dev):
    dev.choose("Chess clock")
    dev.choose("Start")
    dev.press("OK")
    dev.advance(7300)
    dev.press("OK")
    dev.advance(4100)


def resume(dev):
    _scorepad(dev, 3)
    _score(dev, 4, 2)
    dev.boot()  # power cut: the device starts again on the same flash


def settings(dev):
    dev.choose("Settings")


def names(dev):
    """The name entry grid: the first player renamed, two letters typed."""
    dev.choose("Settings")
    dev.choose("Player names")
    dev.press("OK")
    dev.presses("RIGHT", "OK", "DOWN", "OK")


def _contrast(dev, rounds):
    """From the home menu: a 5-player Contrast game, ``rounds`` of picks (key names) entered."""
    dev.choose(modes.label("contrast"))
    dev.press("RIGHT")  # 5 players
    dev.choose("Start")
    for keys in rounds:
        dev.presses(*keys)


# Round 1: Ann, Ben and Dev pick round, Cleo yellow, Eve green; OK goes on to round 2.
# Round 2: Ann and Ben pick green, and the cursor waits on green for Cleo, whose red/yellow card
# lies on the table (dimmed).
_ROUND_1 = ("DOWN", "LEFT", "OK", "OK", "RIGHT", "OK", "OK", "RIGHT", "RIGHT", "OK", "OK")
_ROUND_2 = ("DOWN", "RIGHT", "OK", "OK")


def contrast_pick(dev):
    _contrast(dev, (_ROUND_1, _ROUND_2))


def contrast_result(dev):
    _contrast(dev, (_ROUND_1[:-1],))


def _viewpoint(dev, keys):
    """From the home menu: a 4-player Viewpoint game, ``keys`` pressed."""
    dev.choose(modes.label("viewpoint"))
    dev.choose("Start")
    dev.presses(*keys)


# Four turns of cards and answers (OK takes the suggestion, DOWN opens the card list), then Dev
# makes the leader discard, then Ann's turn.
_VP_TURNS = ("OK", "DOWN", "OK", "DOWN", "DOWN", "DOWN", "DOWN", "OK", "OK", "OK", "DOWN", "OK")


def viewpoint_table(dev):
    _viewpoint(dev, _VP_TURNS + ("OK", "OK"))


def viewpoint_cards(dev):
    _viewpoint(dev, _VP_TURNS + ("OK", "OK", "DOWN", "DOWN"))


def viewpoint_target(dev):
    _viewpoint(dev, _VP_TURNS + ("OK",))


def _moment(dev, keys):
    """From the home menu: a Perfect Moment game (a 10-minute bank), Ben ready first, ``keys``
    pressed a few seconds apart."""
    dev.choose(modes.label("perfect_moment"))
    dev.choose("Start")
    dev.press("RIGHT")
    dev.advance(300)
    for key in keys:
        dev.press(key)
        dev.advance(4000)


# Ben scores his plan for 2 and ends his turn; Ann scores the Paradox for 1 (a fragment) and
# ends hers; Ben's turn.
_PM_TURNS = ("UP", "OK", "OK", "DOWN", "LEFT", "OK", "OK")


def perfect_moment(dev):
    _moment(dev, _PM_TURNS)


def perfect_moment_score(dev):
    _moment(dev, _PM_TURNS + ("UP", "UP", "RIGHT"))


def _cartes(dev, keys, secret=False):
    """From the home menu: a 5-player Cartes sur Table game, ``keys`` pressed."""
    dev.choose(modes.label("cartes_sur_table"))
    if secret:
        dev.goto("Secret ballot: off")
        dev.press("OK")
    dev.choose("Start")
    dev.presses(*keys)


# Ann is the Patient: Ann, Ben and Cleo vote 2, Dev 4; Eve's vote is next.
_CST_VOTES = ("RIGHT", "OK", "OK", "OK", "DOWN", "OK")


def cartes_vote(dev):
    _cartes(dev, _CST_VOTES)


def cartes_result(dev):
    _cartes(dev, _CST_VOTES + ("OK",))


def cartes_secret(dev):
    _cartes(dev, ("OK", "RIGHT", "OK"), secret=True)


def _perspective(dev, keys, players=4):
    """From the home menu: a Perspective game of ``players`` (1: the solitaire), ``keys``."""
    dev.choose(modes.label("perspective"))
    for _ in range(4 - players):
        dev.press("LEFT")
    dev.choose("Start")
    dev.presses(*keys)


def perspective_turn(dev):
    # Red first; Ben wears most red; Ben plays yellow, Cleo fails a check; Dev's turn.
    _perspective(dev, ("DOWN", "DOWN", "OK", "DOWN", "OK", "UP", "OK", "OK", "OK"))


def perspective_solo(dev):
    """Past the doubles' reminder (OK), the first colour, five moves, 95 s in."""
    _perspective(dev, ("OK", "DOWN", "OK", "UP", "RIGHT", "DOWN", "LEFT", "UP"), players=1)
    dev.advance(95000)


def phones_wifi(dev):
    """The joining screens (issue 36) pushed as the phones option pushes them, with a network's
    name, its password and the page's address: the Wi-Fi code first."""
    from tablemate.ui.join import Join
    dev.app.push(Join(dev.app, "Tablemate-4F2A", "cards2play", "http://192.168.4.1/"))
    dev.advance(100)


def phones_page(dev):
    """OK: the page's address as a code and as text."""
    phones_wifi(dev)
    dev.press("OK")


SHOTS = {
    "home": home,
    "scorepad": scorepad,
    "scorepad-duel": scorepad_duel,
    "scorepad-eight": scorepad_eight,
    "winner": winner,
    "standings": standings,
    "game-menu": game_menu,
    "chess-clock": chess_clock,
    "resume": resume,
    "settings": settings,
    "names": names,
    "contrast-pick": contrast_pick,
    "contrast-result": contrast_result,
    "viewpoint-table": viewpoint_table,
    "viewpoint-cards": viewpoint_cards,
    "viewpoint-target": viewpoint_target,
    "perfect-moment": perfect_moment,
    "perfect-moment-score": perfect_moment_score,
    "cartes-vote": cartes_vote,
    "cartes-result": cartes_result,
    "cartes-secret": cartes_secret,
    "perspective-turn": perspective_turn,
    "perspective-solo": perspective_solo,
    "phones-wifi": phones_wifi,
    "phones-page": phones_page,
}


def names():
    """Every shot: those above, and each registered game's setup menu ("setup-<mode>"), read
    from the registry when asked, so a mode registered later has its picture too."""
    return list(SHOTS) + ["setup-" + m["name"] for m in modes.MODES]


def _shot(name):
    if name in SHOTS:
        return SHOTS[name]
    if name.startswith("setup-") and modes.mode(name[6:]) is not None:
        label = modes.label(name[6:])
        return lambda dev: dev.choose(label)  # the setup menu, as a player first sees it
    raise KeyError(name)


def render(name, path, scale=4):
    """Play shot ``name`` on a fresh device and save the panel to ``path``."""
    root = tempfile.mkdtemp(prefix="tablemate-shot-")
    try:
        dev = _device(root)
        _shot(name)(dev)
        dev.panel.to_png(path, scale)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return path


def current(name, committed, scratch):
    """True when the PNG at ``committed`` shows what shot ``name`` draws today (pixels)."""
    from PIL import Image
    if not os.path.exists(committed):
        return False
    fresh = render(name, os.path.join(scratch, name + ".png"))
    with Image.open(committed) as a, Image.open(fresh) as b:
        return a.size == b.size and a.tobytes() == b.tobytes()


def refresh(out=OUT):
    """Render again only the shots whose PNG is stale, saying which (``make test`` runs it
    before the tests); return 0."""
    scratch = tempfile.mkdtemp(prefix="tablemate-shots-")
    try:
        for name in names():
            path = os.path.join(out, name + ".png")
            if not current(name, path, scratch):
                print("regenerated %s (commit it)" % render(name, path))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


def main(args):
    out = args.out or OUT
    os.makedirs(out, exist_ok=True)
    every = names()
    for name in args.names or every:
        if name not in every:
            print("unknown screen %r; choose from: %s" % (name, ", ".join(every)))
            return 2
        print(render(name, os.path.join(out, name + ".png")))
    return 0

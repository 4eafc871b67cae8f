"""A secret ballot stays secret: mid-ballot, no vote can be read from the flash (every byte of
a littlefs image that took every change the firmware made), a backup, or the files a web page
would export; after the reveal, an undo, "End game" or a replaced game, nothing of the ballot
is left beyond the journal.

The check is a difference: the same table plays the same presses but for the cards chosen,
with the same random draws (the game's id, the seals' tokens). Whatever the flash, a backup
or an export held of a vote, in any encoding, would make the two runs differ somewhere.
"""

import datetime
import os
import random

from test_flash import FakeBoard

from tablemate_host import backup
from tablemate_host.device import Device
from tablemate_host.lfsmirror import LfsMirror

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
WHEN = datetime.datetime(2026, 12, 2, 20, 0, tzinfo=datetime.timezone.utc)


def _secret_game(dev, players=5):
    dev.choose("Cartes sur Table")
    for _ in range(5 - players):
        dev.press("LEFT")
    if not dev.shows("Secret ballot: on"):  # the setup opens as it was last set up
        dev.goto("Secret ballot: off")
        dev.press("RIGHT")
    dev.choose("Start")
    dev.advance(300)


def _vote(dev, name, card, cards=4):
    """``name`` casts ``card`` with the same number of presses whatever the card and the one
    the picker started on (RIGHT to it, then RIGHT/LEFT pairs), so both runs spend the same
    time."""
    assert dev.shows("Pass the device to") and dev.shows(name), dev.panel.to_text()
    dev.press("OK")
    steps = (card - dev.app.top().cur) % cards
    for _ in range(steps):
        dev.press("RIGHT")
    for _ in range(cards - 1 - steps):
        dev.presses("RIGHT", "LEFT")
    dev.press("OK")
    dev.advance(200)


def _data(root):
    data = os.path.join(root, "data")
    out = {}
    for name in sorted(os.listdir(data)):
        with open(os.path.join(data, name), "rb") as f:
            out[name] = f.read()
    return out


def _backup(root, tmp):
    """What ``tablemate backup`` saves of this flash: {name: bytes}, the manifest included."""
    board = FakeBoard(files=dict(("/data/" + n, d) for n, d in _data(root).items()))
    folder = str(tmp)
    backup.backup(board, folder, out=lambda line: None, now=WHEN)
    got = {}
    for name in sorted(os.listdir(folder)):
        with open(os.path.join(folder, name), "rb") as f:
            got[name] = f.read()
    return got


def _mid_ballot(tmp_path, monkeypatch, name, votes):
    """Three of five secret votes cast: (image, files, backup) of what the flash then holds."""
    root = str(tmp_path / name)
    os.makedirs(os.path.join(root, "data"))
    random.seed(2026)  # the firmware's ids and tokens: the same draws in both runs
    with monkeypatch.context() as m:
        mirror = LfsMirror(root, m)
        dev = Device(root, settings={"names": NAMES})
        _secret_game(dev)
        for p, card in enumerate(votes):
            _vote(dev, NAMES[p], card)
        assert len([a for a in dev.journal()[1:] if a[0] == "seal"]) == len(votes)
        image = mirror.image()
    return image, _data(root), _backup(root, tmp_path / (name + "-backup")), dev


def test_no_vote_reaches_the_flash_a_backup_or_an_export(tmp_path, monkeypatch):
    one = _mid_ballot(tmp_path, monkeypatch, "one", [1, 4, 2])
    two = _mid_ballot(tmp_path, monkeypatch, "two", [3, 1, 4])
    assert one[0].count(b"seal") >= 3, "the image holds the journal (and its older copies)"
    assert one[0] == two[0], "a byte of the flash image depends on the votes"
    assert one[1] == two[1], "a file depends on the votes"  # the web page's export: /data
    assert sorted(one[1]) == ["board.json", "game.jnl", "settings.json", "setups.json"]
    assert one[2] == two[2], "the backup depends on the votes"
    dev = two[3]  # the votes are there all the same: in RAM, and they count at the reveal
    _vote(dev, "Dee", 2)
    _vote(dev, "Eve", 2)
    dev.press("OK")  # All votes in: the reveal
    assert dev.journal()[-1] == ["reveal", [3, 1, 4, 2, 2]]


def test_a_ballot_an_older_version_left_on_the_flash_is_removed(tmp_path):
    root = str(tmp_path / "old")
    os.makedirs(os.path.join(root, "data"))
    for name in ("ballot.json", "ballot.json.tmp"):
        with open(os.path.join(root, "data", name), "w") as f:
            f.write('{"123456": 2, "654321": 3}')
    dev = Device(root, settings={"names": NAMES})
    assert dev.shows("Scorepad"), dev.panel.to_text()
    assert sorted(_data(root)) == ["board.json", "settings.json"]


def _gone(root):
    """Only the journal and the files every game keeps: nothing of a ballot."""
    return set(_data(root)) <= {"game.jnl", "settings.json", "setups.json", "history.jnl",
                                "game.end", "board.json"}


def test_after_end_game_or_a_replaced_game_nothing_of_the_ballot_remains(tmp_path):
    root = str(tmp_path / "end")
    os.makedirs(os.path.join(root, "data"))
    dev = Device(root, settings={"names": NAMES})
    _secret_game(dev)
    _vote(dev, "Ann", 2)
    _vote(dev, "Bob", 3)
    assert dev.app.game.secret and _gone(root)
    dev.press("BACK")
    dev.choose("End game")
    dev.press("OK")  # End the game now? yes: the standings
    assert dev.app.game is None or not dev.app.game.secret
    dev.press("OK")
    assert dev.app.game is None and _gone(root)
    _secret_game(dev)  # a new ballot, then a game of another mode replaces it
    _vote(dev, "Ann", 4)
    ballot = dev.app.game.secret
    assert list(ballot.values()) == [4]
    dev.press("BACK")
    dev.choose("Home")
    dev.choose("Scorepad")
    dev.choose("Start")
    assert dev.shows("Replace") or dev.shows("unfinished"), dev.panel.to_text()
    dev.press("OK")
    assert dev.app.game.rules.__name__.endswith("scorepad") and not dev.app.game.secret
    assert _gone(root)

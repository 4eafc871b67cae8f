"""A full or read-only flash in the modes' own files (issue 14): the chess clock's clock.json,
a Cartes sur Table secret ballot (its votes are in RAM only: the journal's seals), the
Perspective solitaire's records, a game's end filed into
history.jnl with its end marker, the remembered setups, and the move of the oldest games to
history.old. Settings and the journal are in test_flash_fault.py.

Each case, with a full and with a read-only flash: no ErrorScreen, a readable message (on the
panel), the game or the clock goes on, nothing already saved changes, and once the fault is
lifted (space freed, a writable mount) the next write works. The faults come from
``tablemate_host.flashfault`` (OSError 28 ENOSPC / 30 EROFS as MicroPython's littlefs raises
them; a full littlefs still renames and removes). ``Only`` narrows a fault to some files: the
flash fills up between two writes of one operation (filing, then its end marker or its move).

Each test below whose comment names what the firmware did before failed until it was fixed.
"""

import json
import os

import pytest

from conftest import choose, commit, dump, goto, history, menu_row, new_scorepad
from test_flash_fault import WORDS, data, files, read

from tablemate_host.flashfault import FlashFault

MODES = ["full", "readonly"]
NOT_SAVED = "being saved"  # "Flash full:\nthis game is not\nbeing saved" (the journal's notice)


class Only(FlashFault):
    """A fault on the files named ``names`` (under /data) only: the rest writes as usual."""

    def __init__(self, root, monkeypatch, mode, names):
        self.names = [os.path.abspath(os.path.join(root, "data", n)) for n in names]
        FlashFault.__init__(self, root, monkeypatch, mode)

    def _ours(self, path):
        return isinstance(path, str) and os.path.abspath(path) in self.names


def top(dev):
    return type(dev.app.top()).__name__


def stack(dev):
    return [type(s).__name__ for s in dev.app.stack]


def no_error(dev):
    assert "ErrorScreen" not in stack(dev) and dev.app.stack, (
        "%s%s" % (stack(dev), dump(dev)))


def past_notices(dev, mode=None):
    """OK on the notices on top (each read first: the fault is named when ``mode``)."""
    for _ in range(3):
        no_error(dev)
        if top(dev) != "Notice":
            return
        if mode:
            assert dev.shows(WORDS[mode]), dump(dev)
        dev.press("OK")


def games(root):
    """Every game line in history.jnl and history.old: (n, id)."""
    out = []
    for name in ("history.old", "history.jnl"):
        path = data(root, name)
        if os.path.exists(path):
            with open(path, "rb") as f:
                for line in f.read().split(b"\n"):
                    if line.startswith(b"{"):
                        g = json.loads(line)
                        out.append((g["n"], g.get("id")))
    return out


def leave(dev):
    """The game menu's Home (a game that ended is filed and let go there)."""
    dev.press("BACK")
    choose(dev, "Home", limit=10)


# -- the chess clock ---------------------------------------------------------------------------
def start_clock(dev):
    choose(dev, "Chess clock")
    choose(dev, "Start")
    dev.press("OK")  # the left player's time runs: written
    dev.advance(100)


@pytest.mark.parametrize("mode", MODES)
def test_the_chess_clock_runs_on_when_clock_json_cannot_be_written(make_device, root,
                                                                 monkeypatch, mode):
    dev = make_device()
    start_clock(dev)
    path = data(root, "clock.json")
    saved = read(path)
    clock = dev.app.top().clock
    fault = FlashFault(root, monkeypatch, mode)
    dev.advance(2000)
    dev.press("OK")  # a move: the write is refused
    dev.advance(100)
    assert fault.refused, "the fault was met"
    no_error(dev)
    assert top(dev) == "ClockScreen" and dev.shows("Not saved: flash?"), dump(dev)
    assert clock.running and clock.moves == 1, "the clock goes on"
    dev.advance(12000)  # the 10 s save is tried again, refused again, quietly
    dev.press("OK")
    dev.advance(100)
    no_error(dev)
    assert clock.moves == 2 and dev.shows("Not saved: flash?"), dump(dev)
    assert read(path) == saved, "the clock saved before the fault is left as it was"
    fault.mode = None
    dev.advance(1000)
    dev.press("OK")  # the next move is written
    dev.advance(100)
    assert not dev.shows("Not saved"), "the message goes once a write works" + dump(dev)
    now = json.loads(read(path))
    assert now["clock"]["moves"] == 3 and read(path) != saved
    dev = make_device(settings=None)  # a power cut: the clock comes back as last written
    assert top(dev) == "ClockScreen" and dev.app.top().clock.moves == 3, dump(dev)


@pytest.mark.parametrize("mode", MODES)
def test_a_saved_clock_on_a_locked_flash_comes_back_and_plays(make_device, root, monkeypatch,
                                                              mode):
    dev = make_device()
    start_clock(dev)
    before = files(root)
    FlashFault(root, monkeypatch, mode)
    dev = make_device(settings=None)  # a power cut; the flash now refuses writes
    assert top(dev) == "ClockScreen" and dev.app.top().clock.paused, dump(dev)
    dev.press("OK")  # resume
    dev.advance(1000)
    dev.press("OK")
    dev.advance(100)
    no_error(dev)
    assert dev.shows("Not saved: flash?") and dev.app.top().clock.moves == 1, dump(dev)
    dev.press("BACK")
    choose(dev, "Home")  # leaving the clock removes its file (a full flash can remove) ...
    assert top(dev) == "Confirm", dump(dev)  # ... once asked: its times would be lost
    dev.press("OK")
    no_error(dev)
    if mode == "full":
        del before["data/clock.json"]
    assert top(dev) == "Home" and files(root) == before, dump(dev)


# -- Cartes sur Table's secret ballot ----------------------------------------------------------
def secret_game(dev, players=4):
    choose(dev, "Cartes sur Table")
    for _ in range(5 - players):
        dev.press("LEFT")
    goto(dev, "Secret ballot: off")
    dev.press("RIGHT")
    assert menu_row(dev, "Secret ballot: on"), dump(dev)
    choose(dev, "Start")
    dev.advance(300)


def seal(dev, name, card):
    """``name`` takes the device and casts a secret vote for ``card``."""
    assert dev.shows("Pass the device to") and dev.shows(name), dump(dev)
    dev.press("OK")
    while dev.app.top().cur != card:  # the picker starts on a card drawn at random
        dev.press("RIGHT")
    dev.press("OK")
    dev.advance(200)


@pytest.mark.parametrize("mode", MODES)
def test_a_secret_ballot_on_a_locked_flash_goes_on_in_ram(make_device, root, monkeypatch, mode):
    dev = make_device()
    secret_game(dev)
    seal(dev, "Ann", 1)
    before = files(root)
    fault = FlashFault(root, monkeypatch, mode)
    seal(dev, "Bob", 2)  # its seal cannot be journaled: said once, the ballot goes on
    assert fault.refused
    no_error(dev)
    assert top(dev) == "Notice" and dev.shows(NOT_SAVED), dump(dev)
    past_notices(dev, mode)
    screen = dev.app.top()
    assert top(dev) == "CartesSurTable" and screen.voter == 2, "Cy votes next" + dump(dev)
    assert files(root) == before, "nothing saved changed, no vote written anywhere"
    fault.mode = None
    seal(dev, "Cy", 2)  # the journal takes the seals held back: still no vote on the flash
    no_error(dev)
    assert [a[:2] for a in json_lines(root)] == [["seal", 0], ["seal", 1], ["seal", 2]]
    assert sorted(os.listdir(os.path.join(root, "data"))) == ["board.json", "game.jnl",
                                                              "settings.json", "setups.json"]
    dev = make_device(settings=None)  # a power cut: the three sealed votes were in RAM
    dev.press("OK")  # Resume game?
    assert top(dev) == "Notice" and dev.app.top().lines == [
        "Power cut: 3", "secret votes were", "lost. They vote", "again first."], dump(dev)
    dev.press("OK")
    for name, card in (("Ann", 1), ("Bob", 2), ("Cy", 2), ("Dee", 2)):
        seal(dev, name, card)
    assert dev.shows("All votes in"), dump(dev)
    dev.press("OK")  # the reveal
    no_error(dev)
    last = dev.app.game.state["last"]
    assert sorted(last["votes"]) == [1, 2, 2, 2], last


def json_lines(root):
    """The journal's actions."""
    with open(data(root, "game.jnl")) as f:
        return [a for a in (json.loads(line) for line in f.read().splitlines()[1:])
                if isinstance(a, list)]


# -- the Perspective solitaire's records -------------------------------------------------------
def solitaire(dev, mode=None):
    """A solitaire from the home menu to its first colour, past its notices: the flash's fault
    (when ``mode``: the journal cannot be created, said once) over the doubles' reminder."""
    choose(dev, "Perspective")
    setup = dev.app.top()
    while len(setup.seats) > 1:
        dev.press("LEFT")
    choose(dev, "Start")
    dev.advance(100)
    if mode:
        assert top(dev) == "Notice" and dev.shows(WORDS[mode]), dump(dev)
        dev.press("OK")
    no_error(dev)
    assert top(dev) == "Notice" and dev.shows("Remove one copy"), dump(dev)
    dev.press("OK")


def solve(dev, moves=1, ms=1000):
    """``moves`` actions, then one more solves it: OK, and Yes to "Solved in N moves?"."""
    dev.press("OK")  # the first card's colour
    for _ in range(moves):
        dev.press("UP")
    dev.advance(ms)
    dev.press("OK")  # solved
    assert top(dev) == "Confirm", dump(dev)
    dev.press("OK")  # Yes
    dev.advance(200)


@pytest.mark.parametrize("mode", MODES)
def test_a_solitaire_record_on_a_locked_flash(make_device, root, monkeypatch, mode):
    dev = make_device()
    solitaire(dev)
    solve(dev, moves=3, ms=5000)  # 4 moves, the solving action counted
    dev.press("OK")  # the standings
    dev.press("OK")  # filed, home
    records = data(root, "perspective.json")
    assert json.loads(read(records))["moves"] == 4
    before = files(root)
    fault = FlashFault(root, monkeypatch, mode)
    solitaire(dev, mode)  # the journal cannot be created: said once
    solve(dev, moves=1)  # fewer moves, faster: a record, which cannot be written
    assert fault.refused
    no_error(dev)
    assert top(dev) == "Perspective" and dev.app.game.rules.result(dev.app.game.state), dump(dev)
    assert dev.shows("not saved") or dev.shows("Not filed"), dump(dev)
    assert files(root) == before, "the records and the history as they were"
    fault.mode = None
    dev.press("OK")  # the standings
    dev.press("OK")  # filed now, home
    no_error(dev)
    assert top(dev) == "Home" and len(history(root)) == 2, dump(dev)
    solitaire(dev)
    solve(dev, moves=2)  # 3 moves beat the record on the flash (4 moves): written
    no_error(dev)
    assert json.loads(read(records))["moves"] == 3, read(records)


# -- a game's end: history.jnl and the end marker ----------------------------------------------
def play_to_the_end(dev, mode=None, players=2):
    """A scorepad to 5, won at once: Ann scores 5 (past the notice that the game is not
    being saved, on a locked flash: ``mode``)."""
    new_scorepad(dev, players=players, target=5, stop=True)
    dev.advance(100)
    past_notices(dev, mode)
    for _ in range(5):
        dev.press("RIGHT")
    dev.press("OK")
    dev.advance(300)


@pytest.mark.parametrize("mode", MODES)
def test_a_game_ending_on_a_locked_flash_is_filed_once_it_can_be(make_device, root,
                                                                 monkeypatch, mode):
    dev = make_device()
    play_to_the_end(dev)  # one game in the history already
    leave(dev)
    before = files(root)
    fault = FlashFault(root, monkeypatch, mode)
    play_to_the_end(dev, mode)
    assert fault.refused
    no_error(dev)
    assert top(dev) == "Scorepad" and dev.shows("Not filed: flash?"), dump(dev)
    assert files(root) == before, "no line, no end marker, nothing changed"
    fault.mode = None
    leave(dev)  # the players leave: filed now
    no_error(dev)
    assert top(dev) == "Home" and [g["winners"] for g in history(root)] == [[0], [0]], dump(dev)
    assert not os.path.exists(data(root, "game.end")) and not os.path.exists(
        data(root, "game.jnl"))


@pytest.mark.parametrize("mode", MODES)
def test_leaving_a_game_that_ended_on_a_locked_flash(make_device, root, monkeypatch, mode):
    dev = make_device()
    before = files(root)
    fault = FlashFault(root, monkeypatch, mode)
    play_to_the_end(dev, mode)
    assert dev.shows("Not filed: flash?"), dump(dev)
    dev.press("OK")  # the standings
    dev.press("OK")  # leave: filing is tried again and refused again
    # The OSError of history.file is told over the home menu, and the game is kept (it went
    # through lifecycle.finish to an ErrorScreen "OSError 30"/"28", from the standings as
    # from the game menu's Home).
    no_error(dev)
    assert top(dev) == "Notice" and dev.shows(WORDS[mode]), dump(dev)
    assert dev.shows("game not filed;") and dev.shows("it stays saved"), dump(dev)
    assert files(root) == before, dump(dev)
    dev.press("OK")
    assert top(dev) == "Home" and menu_row(dev, "Continue Scorepad"), dump(dev)
    dev.press("OK")  # the game as it ended, from RAM (a read-only flash never held it)
    dev.advance(300)
    past_notices(dev, mode)  # "this game is not being saved", told again by its new screen
    assert top(dev) == "Scorepad", dump(dev)
    fault.mode = None
    leave(dev)  # filed now, and let go
    no_error(dev)
    assert top(dev) == "Home" and [g["winners"] for g in history(root)] == [[0]], dump(dev)
    assert not os.path.exists(data(root, "game.jnl"))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("refused", [("game.end",), ("history.jnl", "game.end")],
                         ids=["marker", "history"])
def test_a_game_that_ended_unmarked_on_a_locked_flash(make_device, root, monkeypatch, mode,
                                                      refused):
    """The flash fills up between the history line and the end marker (lifecycle.file), or
    refuses both (the journal still writes): the game stays on the screen; after a power
    cut the boot finds it ended and not marked, and files it on resume."""
    dev = make_device()
    fault = Only(root, monkeypatch, mode, refused)
    play_to_the_end(dev)
    assert fault.refused
    no_error(dev)
    assert top(dev) == "Scorepad", dump(dev)
    filed = len(history(root))
    assert filed == (1 if refused == ("game.end",) else 0), history(root)
    assert dev.shows("Not filed: flash?") == (not filed), "said only when it is not filed"
    assert not os.path.exists(data(root, "game.end"))
    dev = make_device(settings=None)  # a power cut before the players leave
    assert top(dev) == "Confirm", dump(dev)  # "Resume game?": it is not known as filed
    dev.press("OK")
    dev.advance(300)
    # The game screen files a game it finds ended, and says "Not filed: flash?" when the
    # flash refuses (lifecycle.resume filed it after the frame, its OSError uncaught: an
    # ErrorScreen right after "Resume game?").
    no_error(dev)
    past_notices(dev)
    assert top(dev) == "Scorepad", dump(dev)
    fault.mode = None
    leave(dev)
    from tablemate.store.history import recent
    assert len(recent(data(root, "history.jnl"), 12)) == 1, "one game, however often filed"


# -- the remembered setups -------------------------------------------------------------------
@pytest.mark.parametrize("mode", MODES)
def test_starting_from_remembered_setups_on_a_locked_flash(make_device, root, monkeypatch,
                                                           mode):
    dev = make_device()
    play_to_the_end(dev, players=3)
    leave(dev)  # filed and let go: no saved game (replacing one is the next test)
    setups = data(root, "setups.json")
    assert json.loads(read(setups))["scorepad"]["seats"] == [0, 1, 2]
    before = files(root)
    fault = FlashFault(root, monkeypatch, mode)
    choose(dev, "Scorepad")
    setup = dev.app.top()
    assert setup.seats == [0, 1, 2], "the menu opens as last set up"
    dev.press("RIGHT")  # four players now
    choose(dev, "Start")
    dev.advance(300)
    assert fault.refused
    past_notices(dev, mode)
    no_error(dev)
    assert top(dev) == "Scorepad" and len(dev.app.game.state["names"]) == 4, dump(dev)
    assert files(root) == before, "setups.json as it was"
    fault.mode = None
    dev.press("RIGHT")
    commit(dev)
    leave(dev)
    choose(dev, "Scorepad")
    assert dev.app.top().seats == [0, 1, 2], "the refused setup was not remembered"
    dev.press("RIGHT")
    choose(dev, "Start")
    if top(dev) == "Confirm":
        dev.press("OK")  # replace the saved game
    dev.advance(300)
    no_error(dev)
    assert json.loads(read(setups))["scorepad"]["seats"] == [0, 1, 2, 3], "written again"


@pytest.mark.parametrize("mode", MODES)
def test_a_new_game_replacing_a_saved_one_on_a_locked_flash(make_device, root, monkeypatch,
                                                            mode):
    dev = make_device()
    new_scorepad(dev, players=3)
    dev.press("RIGHT")
    commit(dev)
    leave(dev)
    before = files(root)
    FlashFault(root, monkeypatch, mode)
    choose(dev, "Scorepad")
    choose(dev, "Start")
    assert top(dev) == "Confirm", dump(dev)  # "Replace the saved Scorepad?"
    dev.press("OK")
    dev.advance(300)
    # The save that would create the new journal files the old game first: refused, it
    # leaves both as they are (lifecycle._file_replaced's OSError was uncaught: ErrorScreen).
    no_error(dev)
    past_notices(dev, mode)
    assert top(dev) == "Scorepad" and files(root) == before, dump(dev)


# -- the move of the oldest games to history.old ---------------------------------------------
def long_history(root, count=200):
    """history.jnl at its cap (filed by the firmware's history.file)."""
    from tablemate.store import history as store
    game = {"names": ["Ann", "Bob"], "scores": [1, 0], "winners": [0], "rounds": 1,
            "game": "scorepad", "actions": 2}
    path = data(root, "history.jnl")
    for i in range(count):
        game["id"] = "%08x" % i
        store.file(path, game)
    assert not os.path.exists(data(root, "history.old"))


@pytest.mark.parametrize("mode", MODES)
def test_the_move_to_history_old_on_a_locked_flash(make_device, root, monkeypatch, mode):
    long_history(root)
    dev = make_device()
    before = files(root)
    fault = FlashFault(root, monkeypatch, mode)
    play_to_the_end(dev, mode)  # the 201st game: it cannot be filed, so nothing moves
    assert fault.refused
    no_error(dev)
    assert top(dev) == "Scorepad" and dev.shows("Not filed: flash?"), dump(dev)
    assert files(root) == before
    fault.mode = None
    leave(dev)  # filed: the oldest 101 move to history.old, 100 stay
    no_error(dev)
    got = games(root)
    assert sorted(n for n, _ in got) == list(range(1, 202)), "every game once"
    assert len(history(root)) == 100


@pytest.mark.parametrize("mode", MODES)
def test_the_move_refused_after_the_game_is_filed(make_device, root, monkeypatch, mode):
    """The game's line fits, the move does not (history.old and the rewrite of history.jnl
    through history.jnl.tmp are refused): every game stays where it is, none is lost, and the
    next filing that can write does the move."""
    long_history(root)
    dev = make_device()
    fault = Only(root, monkeypatch, mode, ["history.old", "history.jnl.tmp"])
    play_to_the_end(dev)
    assert fault.refused
    no_error(dev)
    assert top(dev) == "Scorepad", dump(dev)
    got = games(root)
    assert sorted(set(n for n, _ in got)) == list(range(1, 202)), "filed, nothing lost"
    assert not os.path.exists(data(root, "history.old"))
    fault.mode = None
    leave(dev)
    no_error(dev)
    got = games(root)
    assert len(set(gid for _, gid in got)) == 201, "every game, each once by its id"
    assert os.path.exists(data(root, "history.old")) and len(history(root)) <= 101

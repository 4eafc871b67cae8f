"""Messages a player reads, each reached through the buttons and read off the virtual panel.

``tests/host/test_messages.py`` lists every message the firmware can show; these are the ones
no other test reached: the flash's words in a game (an undo past a checkpoint on a locked
flash, saving that works again, a flash error that is neither full nor read-only, a damaged
journal), the setup's "Cannot start" (from the setup menu and from the game menu's New game),
the scorepad's limit and the undo of a game's end, the Viewpoint catalog's notice and the
corrections' refusals, Contrast's second OK and the knob's tip, the Perfect Moment's empty
deck, Perspective's log and its solitaire record on a locked flash, and the Cartes sur Table
variant. ``test_a_refusal_shows_the_rules_words`` shows that the message line shows a rules
refusal in the rules' own words, which is why a refusal may be pinned by a logic test.

A message on the message line is checked whole (``message_is``): the bottom page must be
exactly what the message line draws for those words, not just contain them. A notice is checked
line by line (``notice``): each line as the players read it, top to bottom, and the lines
together the whole message.
"""

import copy
import errno
import os

import pytest
from conftest import (NAMES, choose, commit, dump, goto, highlighted, history, menu_row,
                      new_scorepad, row_score)
from test_contrast_table import play_round
from test_contrast_table import start as start_contrast
from test_contrast_ui import cursor
from test_flash_fault_modes import Only, solitaire, solve
from test_perfect_moment_ui import bob_first
from test_viewpoint_ui import empty_hand
from test_viewpoint_ui import new_game as new_viewpoint
from test_viewpoint_ui import open_menu

from tablemate_host.flashfault import FlashFault
from tablemate_host.framebuf import MONO_VLSB, FrameBuffer

MODES = ["full", "readonly"]
LOCKED = {"full": "Flash full:", "readonly": "Flash read-only:"}  # a notice's first line
ERROR = "Flash error"  # what ``files.trouble`` calls an OSError neither full nor read-only


# -- reading ------------------------------------------------------------------------------------
class _Frame(FrameBuffer):
    """A blank frame as the display driver is one: a FrameBuffer with its ``buf``."""

    def __init__(self):
        self.buf = bytearray(1024)
        FrameBuffer.__init__(self, self.buf, 128, 64, MONO_VLSB)


def drawn_message(words):
    """The bottom page (rows 56-63) as the message line draws ``words`` (the firmware's own
    ``MessageLine``, on a blank frame): a lit bar with the words dark in its middle."""
    from tablemate.flow.play import MessageLine
    fb = _Frame()
    line = MessageLine()
    line.show(words, 0)
    line.draw(fb)
    return [[fb.pixel(x, y) for x in range(128)] for y in range(56, 64)]


def message_in(px, words):
    """True when the frame ``px`` (rows of pixels) has exactly ``words`` on its message line."""
    return px[56:64] == drawn_message(words)


def message_is(dev, words):
    """The message line shows ``words``, exactly: nothing more, nothing less."""
    return message_in(dev.panel.pixels(), words)


def top(dev):
    return type(dev.app.top()).__name__


def notice(dev, message, lines, kind="Notice"):
    """A notice (or question: ``kind``) on top reads ``message``: each of ``lines`` drawn in
    the box, one under the other, and the lines together are the whole message."""
    assert " ".join(lines) == message.replace("\n", " "), "the lines are the whole message"
    assert top(dev) == kind, dump(dev)
    ys = []
    for line in lines:
        at = [y for x, y in dev.find_text(line)]
        assert at, "%r not on the notice%s" % (line, dump(dev))
        ys.append(min(at))
    assert ys == sorted(ys) and len(set(ys)) == len(ys), (ys, dump(dev))


def frames(dev):
    """Every picture the panel shows from now on (after each I2C transaction)."""
    seen = []
    write = dev.panel.write

    def spy(data):
        write(data)
        seen.append(dev.panel.pixels())
    dev.panel.write = spy
    return seen


def journal_bytes(root):
    with open(os.path.join(root, "data", "game.jnl"), "rb") as f:
        return f.read()


class BrokenFlash(FlashFault):
    """A flash that fails every write with EIO (5): neither full nor read-only (a worn block,
    a driver fault). Its mode is "readonly": every write and every change of a name fails."""

    def __init__(self, root, monkeypatch):
        FlashFault.__init__(self, root, monkeypatch, "readonly")

    def _refuse(self, code):
        self.refused += 1
        raise OSError(errno.EIO, os.strerror(errno.EIO))


# -- a refusal in the rules' words --------------------------------------------------------------
def test_a_refusal_shows_the_rules_words(make_device):
    """A correction the rules refuse (a card from Bob's empty hand to the draw pile: the screen
    asks nothing, the move goes to the rules): the message line shows str(RuleError) as it is."""
    from tablemate import RuleError
    from tablemate.rules import viewpoint as rules
    dev = make_device()
    new_viewpoint(dev)
    empty_hand(dev, "Bob")
    dev.advance(3000)  # the corrections' messages leave
    before = copy.deepcopy(dev.app.game.state)
    saved = dev.journal()
    try:
        rules.apply(copy.deepcopy(before), ["move", "h1", "pile", -1])
    except RuleError as err:
        words = str(err)
    else:
        raise AssertionError("the rules took a card from an empty hand")
    assert words == "Bob: no cards"
    open_menu(dev, "Correction")
    choose(dev, "Bob's hand")
    choose(dev, "Draw pile")  # from a hand to the pile: no card to name, the move is sent
    assert top(dev) == "Viewpoint" and message_is(dev, words), dump(dev)
    assert dev.app.game.state == before and dev.journal() == saved


# -- the flash in a game ------------------------------------------------------------------------
def checkpointed(make_device, root):
    """A 2-player scorepad with 32 turns passed (OK): the journal holds its first checkpoint,
    so an undo from here reads the journal back to its header."""
    dev = make_device()
    new_scorepad(dev, players=2)
    for _ in range(32):
        dev.press("OK")
    dev.advance(200)
    lines = journal_bytes(root).split(b"\n")
    assert dev.app.game.count == 32 and not dev.app.game.unsaved
    assert lines[33].startswith(b'{"c": '), "the checkpoint after 32 actions"
    return dev, lines


def undo(dev):
    dev.press("BACK")
    choose(dev, "Undo")


@pytest.mark.parametrize("mode", MODES)
def test_an_undo_past_a_checkpoint_needs_the_flash_then_saving_works_again(make_device, root,
                                                                         monkeypatch, mode):
    dev, _ = checkpointed(make_device, root)
    fault = FlashFault(root, monkeypatch, mode)
    dev.press("OK")  # the 33rd action: refused by the flash, kept in RAM
    dev.advance(100)
    assert fault.refused
    notice(dev, LOCKED[mode] + "\nthis game is not\nbeing saved",
           [LOCKED[mode], "this game is not", "being saved"])
    dev.press("OK")
    undo(dev)  # the 33rd action, from RAM
    assert dev.app.game.count == 32 and message_is(dev, "Turn undone: Ann"), dump(dev)
    state = copy.deepcopy(dev.app.game.state)
    undo(dev)  # past the checkpoint: the journal must take what is queued first
    assert top(dev) == "Scorepad" and message_is(dev, "Undo needs the flash"), dump(dev)
    assert dev.app.game.count == 32 and dev.app.game.state == state, "nothing changed"
    fault.mode = None  # room again
    dev.press("OK")
    dev.advance(100)
    assert message_is(dev, "Saved again"), dump(dev)
    assert not dev.app.game.unsaved
    undo(dev)
    undo(dev)  # past the checkpoint, on a flash that takes the lines: done
    assert dev.app.game.count == 31 and message_is(dev, "Undone: new round"), dump(dev)


def test_a_flash_error_that_is_neither_full_nor_read_only(make_device, root, monkeypatch):
    dev = make_device()
    new_scorepad(dev, players=3)
    dev.press("RIGHT")
    commit(dev)
    saved = journal_bytes(root)
    fault = BrokenFlash(root, monkeypatch)
    dev.press("RIGHT")
    commit(dev)
    assert fault.refused
    notice(dev, ERROR + ":\nthis game is not\nbeing saved",
           [ERROR + ":", "this game is not", "being saved"])
    dev.press("OK")
    assert top(dev) == "Scorepad" and row_score(dev, 0, 2), dump(dev)
    assert journal_bytes(root) == saved
    fault.mode = None
    dev.press("RIGHT")
    commit(dev)
    assert message_is(dev, "Saved again") and not dev.app.game.unsaved, dump(dev)
    assert [a for a in dev.journal()[1:]] == [["add", 0, 1], ["add", 0, 1], ["add", 0, 1]]


def test_an_undo_into_a_damaged_stretch_of_the_journal(make_device, root):
    dev, lines = checkpointed(make_device, root)
    lines[5] = b"#" * len(lines[5])  # an action line before the checkpoint: unreadable
    with open(os.path.join(root, "data", "game.jnl"), "wb") as f:
        f.write(b"\n".join(lines))
    state = copy.deepcopy(dev.app.game.state)
    undo(dev)
    assert top(dev) == "Scorepad" and message_is(dev, "Journal damaged"), dump(dev)
    assert dev.app.game.count == 32 and dev.app.game.state == state, "nothing changed"


# -- the scorepad -------------------------------------------------------------------------------
def test_a_held_key_stops_at_the_limit_and_says_so(make_device):
    dev = make_device()
    new_scorepad(dev, players=2)
    dev.down("RIGHT")
    dev.advance(2000)  # +1, then +5 a repeat: far from the limit
    assert dev.app.top().pending < 999 and not message_is(dev, "Limit reached"), dump(dev)
    dev.advance(6000)  # +25 a repeat: a change of 999 is the most the rules take
    assert dev.shows("+999 pending") and message_is(dev, "Limit reached"), dump(dev)
    dev.up("RIGHT")
    commit(dev)
    assert row_score(dev, 0, 999) and dev.journal()[1:] == [["add", 0, 999]], dump(dev)
    dev.advance(3000)
    dev.down("LEFT")
    dev.advance(8000)
    assert dev.shows("-999 pending") and message_is(dev, "Limit reached"), dump(dev)
    dev.up("LEFT")
    commit(dev)
    assert row_score(dev, 0, 0) and dev.journal()[-1] == ["add", 0, -999], dump(dev)


def test_the_undo_of_a_games_end(make_device, root):
    dev = make_device()
    new_scorepad(dev, players=2, target=5)  # the round is played out
    for _ in range(5):
        dev.press("RIGHT")
    dev.press("OK")  # Ann reaches 5: Bob's turn ends the round, and the game
    dev.press("OK")
    dev.advance(200)
    assert dev.shows("Ann wins!") and message_is(dev, "OK: standings"), dump(dev)
    assert len(history(root)) == 1
    undo(dev)
    assert message_is(dev, "Undone: game end") and not dev.shows("Ann wins!"), dump(dev)
    assert row_score(dev, 0, 5) and dev.app.game.state["over"] is False


# -- "Cannot start" -----------------------------------------------------------------------------
TOO_FEW = ('{"name": "Blindspot", "value": 20, "copies": 0}\n'  # 42 - 14 cards: 28, fewer
           '{"name": "Blindsided", "value": 10, "copies": 0}\n'  # than six hands of five
           '{"name": "Hindsight", "value": 20, "copies": 0}\n')


def write_catalog(root, text):
    with open(os.path.join(root, "data", "viewpoint.jsonl"), "w") as f:
        f.write(text)


def test_the_setup_cannot_start_a_viewpoint_game_with_too_few_cards(make_device, root):
    write_catalog(root, TOO_FEW)
    dev = make_device()
    new_viewpoint(dev, players=6)
    notice(dev, "Cannot start:\nToo few cards", ["Cannot start:", "Too few cards"])
    dev.press("OK")
    assert top(dev) == "Setup" and menu_row(dev, "Start"), "the menu, to change" + dump(dev)
    assert not os.path.exists(os.path.join(root, "data", "game.jnl"))
    goto(dev, "Players: 6", key="UP")
    dev.press("LEFT")  # five players: 28 cards are enough
    choose(dev, "Start")
    assert top(dev) == "Viewpoint" and dev.journal()[0]["opts"]["names"] == NAMES[:5], dump(dev)


def test_a_new_game_from_the_game_menu_that_the_rules_refuse(make_device, root):
    dev = make_device()
    new_viewpoint(dev, players=6)
    assert top(dev) == "Viewpoint", dump(dev)
    write_catalog(root, TOO_FEW)  # the catalog changed on the flash during the game
    dev.press("BACK")
    choose(dev, "New game")
    notice(dev, "Start again with the same players?",
           ["Start again with", "the same players?"], "Confirm")
    dev.press("OK")
    notice(dev, "Cannot start:\nToo few cards", ["Cannot start:", "Too few cards"])
    assert [g["game"] for g in history(root)] == ["viewpoint"], "the old game is filed"
    assert not os.path.exists(os.path.join(root, "data", "game.jnl"))
    dev.press("OK")
    assert top(dev) == "Home" and dev.shows("Cartes sur Table"), dump(dev)


# -- Viewpoint ----------------------------------------------------------------------------------
def test_the_catalog_files_bad_lines_are_named_and_left_out(make_device, root):
    write_catalog(root, '{"name": "", "value": 1}\n'
                        '{"name": "Squint", "value": "lots"}\n'
                        '{"name": "Glimpse", "value": 5, "copies": 2, "actions": ["draw 1"]}\n')
    dev = make_device()
    new_viewpoint(dev)
    notice(dev, "viewpoint.jsonl line 1: bad name, line 2: bad value: left out",
           ["viewpoint.jsonl", "line 1: bad name,", "line 2: bad value:", "left out"])
    assert [c[0] for c in dev.journal()[0]["opts"]["cards"]] == ["Glimpse"]
    dev.press("OK")
    assert top(dev) == "Viewpoint" and not dev.shows("left out"), dump(dev)


def test_one_bad_line_of_the_catalog_file(make_device, root):
    write_catalog(root, '{"name": "Squint", "value": "lots"}\n')
    dev = make_device()
    new_viewpoint(dev)
    notice(dev, "viewpoint.jsonl line 1: bad value: left out",
           ["viewpoint.jsonl", "line 1: bad value:", "left out"])
    assert "cards" not in dev.journal()[0]["opts"], "the printed cards alone"


def notice_pages(dev, message, pages):
    """A notice longer than its box, read a box at a time: each of ``pages`` (its lines) in
    turn, OK showing the next; together they are the whole message. OK closes it at the end."""
    assert " ".join(" ".join(p) for p in pages) == message.replace("\n", " ")
    for k, lines in enumerate(pages):
        notice(dev, " ".join(lines), lines)
        more = (120 - 4, 0)  # the arrow at the box's lower right says another box follows
        assert (k < len(pages) - 1) == any(x >= more[0] for x, y in dev.find_text(
            "\x03")), (k, dump(dev))
        dev.press("OK")
    assert top(dev) != "Notice", dump(dev)


def test_many_bad_lines_of_the_catalog_file_are_counted(make_device, root):
    write_catalog(root, "".join('{"name": "Dud%d", "value": "x"}\n' % i for i in range(5)))
    dev = make_device()
    new_viewpoint(dev)
    notice_pages(dev, "viewpoint.jsonl line 1: bad value, line 2: bad value, line 3: bad value "
                      "(+2): left out", [["viewpoint.jsonl", "line 1: bad", "value, line 2:",
                                          "bad value, line"], ["3: bad value", "(+2): left out"]])


def test_a_correction_from_an_empty_view(make_device):
    dev = make_device()
    new_viewpoint(dev)
    before = copy.deepcopy(dev.app.game.state)
    saved = dev.journal()
    open_menu(dev, "Correction")
    choose(dev, "Dee's view")
    choose(dev, "Ann's hand")
    assert top(dev) == "Viewpoint" and message_is(dev, "Dee's view empty"), dump(dev)
    assert dev.app.game.state == before and dev.journal() == saved


def test_an_unseen_discard_cannot_go_into_a_view(make_device):
    from tablemate.rules import viewpoint as rules
    dev = make_device()
    new_viewpoint(dev)
    dev.press("OK")  # Ann: Blindspot; Bob discards a card the device never sees
    dev.press("OK")
    assert rules.discard(dev.app.game.state) == ([], 1)
    dev.advance(3000)
    before = copy.deepcopy(dev.app.game.state)
    saved = dev.journal()
    open_menu(dev, "Correction")
    choose(dev, "Discard pile")
    choose(dev, "Ann's view")
    assert top(dev) == "Viewpoint" and message_is(dev, "Seen cards only"), dump(dev)
    assert dev.app.game.state == before and dev.journal() == saved


# -- Contrast -----------------------------------------------------------------------------------
def test_a_card_on_the_table_takes_a_second_ok(make_device):
    dev = make_device(layout="three")
    start_contrast(dev, 3)
    play_round(dev, ["blue", "red", "red"])
    dev.press("OK")  # round 2: Ann's blue card lies on the table
    for _ in range(14):  # PREV walks the symbols in hand, then the dimmed ones
        if cursor(dev) == "blue":
            break
        dev.press("UP")
    assert cursor(dev) == "blue", dump(dev)
    count = dev.app.game.count
    dev.press("OK")
    assert message_is(dev, "Not in hand? OK again") and dev.app.game.count == count, dump(dev)
    dev.advance(5000)
    assert message_is(dev, "Not in hand? OK again"), "it stays until answered" + dump(dev)
    dev.press("OK")
    assert dev.journal()[-1] == ["pick", 0, "blue"], dump(dev)
    assert not message_is(dev, "Not in hand? OK again"), dump(dev)


def test_the_knob_says_where_skip_is(make_device):
    dev = make_device(layout="encoder")
    start_contrast(dev, 3)
    dev.long_press("OK")  # the game menu
    dev.turn(+2)  # past Undo
    assert highlighted(dev, "Skip Ann"), dump(dev)
    dev.press("OK")
    assert message_is(dev, "Keep turning to skip"), dump(dev)
    assert dev.journal()[1:] == [["skip", 0]]


def test_the_buttons_say_which_key_skips(make_device):
    dev = make_device()
    start_contrast(dev, 3)
    dev.press("BACK")
    choose(dev, "Skip Ann")
    assert message_is(dev, "Hold \x02 skip, \x03 count"), dump(dev)


# -- the Perfect Moment -------------------------------------------------------------------------
def test_taking_a_card_from_the_empty_deck_asks_first(make_device, root):
    from tablemate.rules import perfect_moment as rules
    dev = make_device()
    bob_first(dev)
    for _ in range(14):  # an item takes the deck's cards (Ann's first LEFT ends the race)
        if not rules.deck(dev.app.game.state):
            break
        dev.press("LEFT")
    assert rules.deck(dev.app.game.state) == 0, dump(dev)
    count = dev.app.game.count
    dev.press("LEFT")
    notice(dev, "The deck is empty: taking a card ends the game.",
           ["The deck is empty:", "taking a card ends", "the game."], "Confirm")
    assert dev.shows("Yes") and dev.shows("No") and dev.app.game.count == count, dump(dev)
    dev.press("OK")
    assert dev.journal()[-1][:2] == ["empty", 1] and history(root), dump(dev)


# -- Perspective --------------------------------------------------------------------------------
def test_the_game_log_names_a_pass_and_a_rebuild(make_device):
    dev = make_device()
    choose(dev, "Perspective")
    choose(dev, "Start", limit=8)  # four players, a team game
    dev.press("OK")  # the first card: yellow
    dev.press("OK")  # Ann wears the most yellow
    dev.press("OK")  # Ann checks at the start of her turn ...
    goto(dev, "Yes", key="RIGHT", limit=3)
    dev.press("OK")  # ... reached: her cards are set aside
    for key in ("UP", "RIGHT", "LEFT"):  # Bob, Cy and Dee play and end their turns
        dev.press(key)
        dev.press("OK")
    assert ["skip", 0] in dev.app.game.state["log"], "Ann's turn passed"
    open_menu(dev, "Draw pile empty")
    assert top(dev) == "Notice", dump(dev)
    dev.presses("OK", "OK")  # its two boxes
    open_menu(dev, "Game log")
    assert (0, 0) in dev.find_text("Game log, turn 5"), dump(dev)
    rows = ["Ann: done", "Bob: yellow (turn)", "Cy: green (exchange)", "Dee: blue (rearrange)",
            "Ann: done, passes", "Draw pile rebuilt"]
    for k, row in enumerate(rows):
        assert (0, 16 + 8 * k) in dev.find_text(row), (row, dump(dev))


@pytest.mark.parametrize("mode", MODES)
def test_a_record_the_flash_will_not_keep(make_device, root, monkeypatch, mode):
    """Only the records file is refused: the game and the history are written, and the message
    line says the record is not."""
    dev = make_device()
    fault = Only(root, monkeypatch, mode, ["perspective.json", "perspective.json.tmp"])
    solitaire(dev)
    solve(dev, moves=2)
    assert fault.refused
    assert top(dev) == "Perspective" and message_is(dev, "Record not saved"), dump(dev)
    assert not os.path.exists(os.path.join(root, "data", "perspective.json"))
    assert len(history(root)) == 1 and history(root)[0]["moves"] == 3


@pytest.mark.parametrize("mode", MODES)
def test_a_record_on_a_locked_flash_is_said_before_the_filing_is(make_device, root,
                                                                monkeypatch, mode):
    """The whole flash locked: "Record not saved" comes first, in the frame of the solve, then
    "Not filed: flash?" replaces it once the filing after that frame is refused."""
    dev = make_device()
    FlashFault(root, monkeypatch, mode)
    solitaire(dev, mode)
    seen = frames(dev)
    solve(dev, moves=1)
    said = [i for i, px in enumerate(seen) if message_in(px, "Record not saved")]
    filed = [i for i, px in enumerate(seen) if message_in(px, "Not filed: flash?")]
    assert said and filed and said[0] < filed[0], (said, filed)
    assert message_is(dev, "Not filed: flash?"), dump(dev)
    assert not os.path.exists(os.path.join(root, "data", "perspective.json"))


# -- Cartes sur Table ---------------------------------------------------------------------------
VARIANT_SHOWN = ["Variant: each", "player keeps one", "card for", "themselves, then"]


def just_met(dev):
    choose(dev, "Cartes sur Table")
    goto(dev, "Just met: off")
    dev.press("RIGHT")
    assert menu_row(dev, "Just met: on"), dump(dev)
    choose(dev, "Start")
    dev.advance(300)


def test_a_just_met_game_starts_with_its_variant(make_device):
    dev = make_device()
    just_met(dev)
    assert dev.journal()[0]["opts"]["known"] is True
    notice(dev, " ".join(VARIANT_SHOWN), VARIANT_SHOWN)
    dev.presses("OK", "OK", "OK")  # its three boxes (test_the_whole_variant_is_on_its_notice)
    assert top(dev) == "CartesSurTable" and not dev.shows("Variant: each"), dump(dev)


def test_the_whole_variant_is_on_its_notice(make_device):
    dev = make_device()
    just_met(dev)
    notice_pages(dev, "Variant: each player keeps one card for themselves, then passes the rest "
                      "to the right, until one is left. Scoring is the same.",
                 [VARIANT_SHOWN, ["passes the rest", "to the right,", "until one is",
                                  "left. Scoring is"], ["the same."]])

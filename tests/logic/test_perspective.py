"""Perspective: setups (the doubles' reminder), the first player, turns and checks, every victory
(a partner done), the rebuild reminder, the solitaire (the action that solves counted) and its
records (the game that set them, their undo, across a power cycle), refusals, whole games
through the journal."""

import json
import os

import support
from tablemate import RuleError, lifecycle
from tablemate.rules import perspective as ps
from tablemate.screens import perspective as screen
from tablemate.store import files
from tablemate.store import bests as recfile
from tablemate.store.game import Game
from tablemate.ui import dialogs

ANN, BOB, CY, DEE = 0, 1, 2, 3
NAMES = ["Ann", "Bob", "Cy", "Dee"]


def _refused(state, action, message):
    support.refused(ps, state, action, message)


def _setup_refused(opts, message):
    support.setup_refused(ps, opts, message)


def _new(n=4, advanced=False):
    return ps.setup({"names": NAMES[:n], "advanced": advanced})


def _started(n=4, first=ANN, advanced=False):
    s = _new(n, advanced)
    ps.apply(s, ["first", first, "red"])
    return s


def _turn(s, colour="yellow"):
    """The active player plays a card and ends the turn; returns who played."""
    p = ps.turn(s)
    ps.apply(s, ["play", p, colour])
    ps.apply(s, ["end", p])
    return p




# --- setups ------------------------------------------------------------------------------

def test_setups_by_player_count():
    for n, advanced, kind in ((1, False, "solo"), (2, False, "duel"), (2, True, "advanced"),
                              (3, False, "trio"), (4, False, "teams")):
        s = _new(n, advanced)
        assert ps.kind(s) == kind and s["kind"] == kind, (n, advanced)
        assert ps.names(s) == NAMES[:n]
        assert ps.failed(s) == [0] * n and ps.done(s) == [False] * n
        assert ps.turn(s) == -1 and ps.turns(s) == 0 and ps.stage(s) == "start"
        assert ps.result(s) is None and ps.outcome(s) is None and ps.log(s) == []
        assert ps.moves(s) == 0 and ps.next_colour(s) is None and ps.elapsed(s) == 0
        assert json.loads(json.dumps(s)) == s
    assert ps.kind(ps.setup({"names": ["Ann", "Bob"]})) == "duel"  # advanced defaults off
    assert ps.scores(_new(1)) == [0] and ps.scores(_new(4)) == [0, 0, 0, 0]


def test_partners_by_setup():
    t = _new(4)
    assert [ps.partner(t, p) for p in range(4)] == [CY, DEE, ANN, BOB]  # P1+P3, P2+P4
    for n, advanced in ((2, False), (2, True), (3, False)):
        s = _new(n, advanced)
        assert [ps.partner(s, p) for p in range(n)] == [-1] * n  # the common hand
    assert ps.partner(_new(1), 0) is None


def test_setup_refusals():
    _setup_refused({"names": ["A", "B", "C", "D", "E"]}, "Need 1-4 players")
    _setup_refused({"names": []}, "Need 1-4 players")
    _setup_refused({"names": ["A", "B", "C"], "advanced": True}, "Advanced: 2 players")
    _setup_refused({"names": ["A"], "advanced": True}, "Advanced: 2 players")
    _setup_refused({"names": ["A", "B", "C", "D"], "advanced": True}, "Advanced: 2 players")
    _setup_refused({"names": ["A", "B"], "advanced": 1}, "Bad option advanced")
    _setup_refused({"names": ["A", ""]}, "Bad player name")
    _setup_refused({"names": ["A", "Ninecharz"]}, "Bad player name")
    _setup_refused({"names": "AB"}, "Need 1-4 players")
    _setup_refused(None, "Bad options")
    try:
        Game.new(ps, support.scratch_dir("perspective-five") + "/game.jnl",
                 {"names": ["A", "B", "C", "D", "E"]})
        assert False, "five players accepted"
    except RuleError as e:
        assert str(e) == "Need 1-4 players"


def test_two_players_and_the_solitaire_are_told_to_remove_the_doubles():
    for n, advanced, removes in ((1, False, True), (2, False, True), (2, True, True),
                                 (3, False, False), (4, False, False)):
        assert ps.removes_doubles(_new(n, advanced)) is removes, (n, advanced)
    lines = dialogs.Notice(_App("/"), screen.DOUBLES).lines  # the Notice's own wrapping
    assert len(lines) <= 4 and " ".join(lines) == screen.DOUBLES, lines  # every word shown


def test_setup_does_not_share_the_names_list():
    names = ["Ann", "Bob"]
    s = ps.setup({"names": names})
    names.append("Cy")
    assert ps.names(s) == ["Ann", "Bob"]


# --- the first player --------------------------------------------------------------------

def test_the_first_player_by_colour_or_a_random_pick():
    for colour in ps.COLOURS:
        s = _new(3)
        ps.apply(s, ["first", BOB, colour])
        assert ps.turn(s) == BOB and ps.turns(s) == 1 and s["colour"] == colour
        assert ps.stage(s) == "start"
    s = _new(4)
    ps.apply(s, ["first", DEE, None])  # nobody could tell: a random pick, journaled as such
    assert ps.turn(s) == DEE and ps.turns(s) == 1 and s["colour"] is None


def test_the_first_player_refusals():
    s = _new(3)
    for action in (["play", ANN, "red"], ["end", ANN], ["check", ANN, False], ["rebuild"]):
        _refused(s, action, "Who starts first?")
    _refused(s, ["first", 3, "red"], "No such player")
    _refused(s, ["first", -1, "red"], "No such player")
    _refused(s, ["first", True, "red"], "No such player")
    _refused(s, ["first", ANN, "purple"], "No such colour")
    _refused(s, ["first", ANN], "Bad action")
    ps.apply(s, ["first", CY, "blue"])
    _refused(s, ["first", ANN, "red"], "Already started")
    _refused(s, ["first", CY, None], "Already started")


# --- turns -------------------------------------------------------------------------------

def test_turns_go_clockwise_and_the_log_shows_the_colours():
    s = _started(3, first=BOB)
    played = []
    for colour in ("yellow", "green", "red", "blue", "yellow"):
        p = ps.turn(s)
        ps.apply(s, ["play", p, colour])
        assert ps.stage(s) == "played" and ps.turn(s) == p
        assert ps.log(s)[-1] == ["play", p, colour]
        ps.apply(s, ["end", p])
        assert ps.stage(s) == "start"
        played.append(p)
    assert played == [BOB, CY, ANN, BOB, CY]
    assert ps.turn(s) == ANN and ps.turns(s) == 6
    assert ps.log(s) == [["play", BOB, "yellow"], ["play", CY, "green"], ["play", ANN, "red"],
                         ["play", BOB, "blue"], ["play", CY, "yellow"]]
    assert ps.failed(s) == [0, 0, 0] and ps.result(s) is None


def test_the_log_keeps_the_newest_events():
    s = _started(2)
    for i in range(ps.LOG_SIZE + 5):
        _turn(s, ps.COLOURS[i % 4])
    log = ps.log(s)
    assert len(log) == ps.LOG_SIZE
    assert log[-1] == ["play", (ps.LOG_SIZE + 4) % 2, ps.COLOURS[(ps.LOG_SIZE + 4) % 4]]
    assert log[0] == ["play", 5 % 2, ps.COLOURS[5 % 4]]


def test_turn_refusals():
    s = _started(3)
    _refused(s, ["end", ANN], "Play a card first")
    _refused(s, ["play", ANN, "purple"], "No such colour")
    _refused(s, ["play", ANN, None], "No such colour")
    _refused(s, ["play", BOB, "red"], "It is Ann's turn")
    _refused(s, ["end", CY], "It is Ann's turn")
    _refused(s, ["play", 3, "red"], "No such player")
    _refused(s, ["play", ANN], "Bad action")
    _refused(s, ["play", ANN, "red", 1], "Bad action")
    _refused(s, ["undo"], "Unknown action")
    _refused(s, [], "Bad action")
    _refused(s, "play", "Bad action")
    _refused(s, [3, ANN], "Bad action")
    ps.apply(s, ["play", ANN, "red"])
    _refused(s, ["play", ANN, "blue"], "Already played")


def test_a_check_by_a_player_who_is_not_active():
    s = ps.setup({"names": ["Ann", "Benedict", "Cy"]})
    ps.apply(s, ["first", BOB, "green"])
    _refused(s, ["check", ANN, True], "It is Benedict's turn")  # 21 characters
    _refused(s, ["check", CY, False], "It is Benedict's turn")
    _turn(s)
    _refused(s, ["check", BOB, True], "It is Cy's turn")


# --- objective checks --------------------------------------------------------------------

def test_a_failed_check_at_the_start_of_a_turn_ends_it_and_is_counted():
    s = _started(3)
    ps.apply(s, ["check", ANN, False])
    assert ps.turn(s) == BOB and ps.turns(s) == 2 and ps.stage(s) == "start"
    assert ps.failed(s) == [1, 0, 0] and ps.scores(s) == [-1, 0, 0]
    assert ps.log(s)[-1] == ["check", ANN, False]
    assert ps.result(s) is None and ps.done(s) == [False] * 3


def test_a_failed_check_at_the_end_of_a_turn_ends_it_and_is_counted():
    s = _started(2)
    ps.apply(s, ["play", ANN, "blue"])
    ps.apply(s, ["check", ANN, False])
    assert ps.turn(s) == BOB and ps.turns(s) == 2 and ps.stage(s) == "start"
    assert ps.failed(s) == [1, 0]
    assert ps.log(s)[-2:] == [["play", ANN, "blue"], ["check", ANN, False]]
    _refused(s, ["end", ANN], "It is Bob's turn")  # the failed check already ended it
    ps.apply(s, ["play", BOB, "red"])
    ps.apply(s, ["check", BOB, False])
    ps.apply(s, ["check", ANN, False])
    assert ps.failed(s) == [2, 1] and ps.scores(s) == [-2, -1] and ps.turns(s) == 4


def test_check_refusals():
    s = _started(2)
    _refused(s, ["check", ANN, "visible"], "Bad check")  # only in the advanced duel
    _refused(s, ["check", ANN, None], "Bad check")
    _refused(s, ["check", ANN, 1], "Bad check")
    _refused(s, ["check", ANN], "Bad action")
    a = _started(2, advanced=True)
    _refused(a, ["check", ANN, True], "Which side matched?")
    _refused(a, ["check", ANN, "both"], "Bad check")


# --- victory -----------------------------------------------------------------------------

def test_the_first_to_finish_wins_with_two_and_three_players():
    for n, winner, at_end in ((2, BOB, False), (2, ANN, True), (3, CY, False), (3, BOB, True)):
        s = _started(n)
        while ps.turn(s) != winner:
            _turn(s)
        if at_end:
            ps.apply(s, ["play", winner, "green"])
        ps.apply(s, ["check", winner, True])
        assert ps.result(s) == [winner] and ps.outcome(s) == "objective", (n, winner)
        assert ps.turn(s) == -1 and ps.done(s)[winner]
        assert ps.log(s)[-1] == ["check", winner, True]
        rec = ps.summary(s)
        assert rec["winners"] == [winner] and rec["outcome"] == "objective"
        assert rec["names"] == NAMES[:n] and rec["kind"] == ("duel", "trio")[n - 2]
        _refused(s, ["play", winner, "red"], "Game is over")


def test_the_advanced_duel_is_won_on_either_side_of_the_common_hand():
    for side, winner in (("visible", ANN), ("hidden", BOB), ("visible", BOB), ("hidden", ANN)):
        s = _started(2, advanced=True)
        ps.apply(s, ["check", ANN, False])  # a failure counts as in the other setups
        if winner == ANN:
            _turn(s)
        ps.apply(s, ["check", winner, side])
        assert ps.result(s) == [winner] and ps.outcome(s) == "side", side
        assert ps.log(s)[-1] == ["check", winner, side]
        assert ps.failed(s) == [1, 0] and ps.turn(s) == -1
        assert ps.summary(s)["kind"] == "advanced"


def test_team_victory_in_order():
    s = _started(4)
    ps.apply(s, ["check", ANN, True])  # P1 done at the start of the turn: cards set aside
    assert ps.result(s) is None and ps.done(s) == [True, False, False, False]
    assert ps.turn(s) == BOB and ps.turns(s) == 2  # play goes on
    seen = []
    for _ in range(7):
        seen.append(_turn(s))
    assert ANN not in seen and seen == [BOB, CY, DEE, BOB, CY, DEE, BOB]  # P1 is skipped
    assert ["skip", ANN] in ps.log(s)
    ps.apply(s, ["check", CY, False])  # a failure by P3 still counts
    assert ps.failed(s) == [0, 0, 1, 0] and ps.turn(s) == DEE
    _turn(s)
    assert ps.turn(s) == BOB and ps.log(s)[-1] == ["skip", ANN]
    _turn(s)
    ps.apply(s, ["play", CY, "blue"])
    ps.apply(s, ["check", CY, True])  # P3 done at the end of the turn: P1+P3 win
    assert ps.result(s) == [ANN, CY] and ps.outcome(s) == "team"
    assert ps.done(s) == [True, False, True, False] and ps.turn(s) == -1
    rec = ps.summary(s)
    assert rec["winners"] == [ANN, CY] and rec["outcome"] == "team" and rec["kind"] == "teams"
    assert rec["scores"] == [0, 0, -1, 0] and rec["turns"] == ps.turns(s)
    _refused(s, ["check", DEE, True], "Game is over")
    _refused(s, ["rebuild"], "Game is over")


def test_team_victory_second_partner_first_and_two_done_players_skipped():
    s = _started(4, first=DEE)
    ps.apply(s, ["check", DEE, True])  # P4 done
    assert ps.turn(s) == ANN
    ps.apply(s, ["play", ANN, "red"])
    ps.apply(s, ["check", ANN, True])  # P1 done: one of each team
    assert ps.turn(s) == BOB and ps.result(s) is None
    for _ in range(6):
        assert ps.turn(s) in (BOB, CY)
        _turn(s)
    assert ps.log(s)[-2:] == [["skip", DEE], ["skip", ANN]]
    ps.apply(s, ["check", BOB, True])  # P2 joins P4: P2+P4 win, in seat order
    assert ps.result(s) == [BOB, DEE] and ps.outcome(s) == "team"


def test_a_done_players_turn_is_skipped():
    s = _started(4, first=BOB)
    ps.apply(s, ["check", BOB, True])
    for _ in range(12):
        assert ps.turn(s) != BOB
        _refused(s, ["play", BOB, "red"], "It is %s's turn" % NAMES[ps.turn(s)])
        _refused(s, ["check", BOB, True], "It is %s's turn" % NAMES[ps.turn(s)])
        _refused(s, ["end", BOB], "It is %s's turn" % NAMES[ps.turn(s)])
        if ps.turn(s) == DEE:
            ps.apply(s, ["check", DEE, False])
        else:
            _turn(s)
    assert ps.done(s) == [False, True, False, False] and ps.result(s) is None
    assert ps.failed(s)[DEE] > 0


def test_a_player_whose_partner_is_done_acts_alone():
    s = _started(4)
    ps.apply(s, ["check", ANN, True])  # Ann's cards set aside: Cy has no partner's hand
    assert [ps.partner(s, p) for p in range(4)] == [CY, DEE, None, BOB]
    _turn(s)  # Bob
    assert ps.turn(s) == CY and ps.partner(s, CY) is None
    _turn(s)  # Cy
    ps.apply(s, ["check", DEE, True])  # one of each team done
    assert [ps.partner(s, p) for p in range(4)] == [CY, None, None, BOB]


# --- the draw pile -----------------------------------------------------------------------

def test_the_rebuild_reminder_is_counted():
    s = _started(3)
    ps.apply(s, ["rebuild"])
    ps.apply(s, ["play", ANN, "green"])
    ps.apply(s, ["rebuild"])  # any time in a turn: it changes no turn
    assert s["rebuilds"] == 2 and ps.turn(s) == ANN and ps.stage(s) == "played"
    assert ps.log(s) == [["rebuild"], ["play", ANN, "green"], ["rebuild"]]
    _refused(s, ["rebuild", 1], "Bad action")


# --- the solitaire -----------------------------------------------------------------------

def test_the_solitaire_counts_moves_with_the_next_colour():
    s = _new(1)
    assert ps.turn(s) == -1 and ps.next_colour(s) is None
    ps.apply(s, ["start", "red", 0])
    assert ps.next_colour(s) == "red" and ps.moves(s) == 0 and ps.elapsed(s) == 0
    for i, (colour, ms) in enumerate((("green", 4000), ("blue", 9500), ("yellow", 20000))):
        ps.apply(s, ["move", colour, ms])
        assert ps.moves(s) == i + 1 and ps.next_colour(s) == colour and ps.elapsed(s) == ms
        assert ps.scores(s) == [i + 1] and ps.result(s) is None and ps.turn(s) == -1
    ps.apply(s, ["solved", 31000])  # the fourth action solved it: OK instead of its arrow
    assert ps.result(s) == [0] and ps.outcome(s) == "solved" and ps.elapsed(s) == 31000
    assert ps.moves(s) == 4
    rec = ps.summary(s)
    assert rec["moves"] == 4 and rec["ms"] == 31000 and rec["outcome"] == "solved"
    assert rec["kind"] == "solo" and rec["winners"] == [0] and rec["scores"] == [4]
    _refused(s, ["move", "red", 32000], "Game is over")
    _refused(s, ["solved", 32000], "Game is over")


def test_the_action_that_solves_is_counted():
    s = _new(1)
    ps.apply(s, ["start", "green", 0])
    _refused(s, ["solved", 0.5], "Bad time")  # refused: nothing counted
    ps.apply(s, ["solved", 2500])  # the first action solved it
    assert ps.moves(s) == 1 and ps.scores(s) == [1] and ps.summary(s)["moves"] == 1
    s = _new(1)
    ps.apply(s, ["start", "red", 0])
    ps.apply(s, ["move", "blue", 1000])
    ps.apply(s, ["solved", 2000])
    assert ps.moves(s) == 2 and ps.result(s) == [0]


def test_solitaire_refusals():
    s = _new(1)
    _refused(s, ["move", "red", 10], "First colour?")
    _refused(s, ["solved", 10], "First colour?")
    _refused(s, ["start", "purple", 0], "No such colour")
    _refused(s, ["start", None, 0], "No such colour")
    _refused(s, ["start", "red", -1], "Bad time")
    _refused(s, ["start", "red", 1.5], "Bad time")
    _refused(s, ["start", "red", True], "Bad time")
    _refused(s, ["start", "red", 0x20000000], "Bad time")
    _refused(s, ["start", "red"], "Bad action")
    ps.apply(s, ["start", "yellow", 0])
    _refused(s, ["start", "red", 5], "Already started")
    _refused(s, ["move", "pink", 10], "No such colour")
    _refused(s, ["move", "red", "10"], "Bad time")
    for action in (["first", 0, "red"], ["play", 0, "red"], ["check", 0, True], ["end", 0],
                   ["rebuild"]):
        _refused(s, action, "Not in a solitaire")


def test_solitaire_actions_in_a_multiplayer_game():
    for n, advanced in ((2, False), (2, True), (3, False), (4, False)):
        for s in (_new(n, advanced), _started(n, advanced=advanced)):
            for action in (["start", "red", 0], ["move", "red", 10], ["solved", 10]):
                _refused(s, action, "Solitaire only")


def test_solitaire_undo_and_resume_through_the_game():
    path = support.scratch_dir("perspective-solo") + "/game.jnl"
    opts = {"names": ["Ann"]}
    g = Game.new(ps, path, opts)
    states = [json.loads(json.dumps(g.state))]
    for action in (["start", "blue", 0], ["move", "red", 3000], ["move", "green", 7000]):
        g.do(action)
        g.save()
        states.append(json.loads(json.dumps(g.state)))
    g.do(["move", "yellow", 9000])  # a wrong colour, taken back
    g.save()
    g.undo()
    assert g.state == states[-1] and ps.moves(g.state) == 2 and ps.next_colour(g.state) == "green"
    assert g.count == 3
    g.save()
    r, problem = Game.resume(ps, path)  # a power cut: the solitaire resumes at its last move
    assert problem is None, problem
    assert r.state == g.state and r.count == 3 and ps.elapsed(r.state) == 7000
    r.do(["move", "blue", 12000])
    r.do(["solved", 15000])
    r.save()
    assert ps.result(r.state) == [0] and ps.moves(r.state) == 4  # the solving action too
    back, problem = Game.resume(lifecycle.rules, path)
    assert problem is None and back.rules is ps and back.state == r.state and back.count == 5
    lines = support.journal_lines(path)
    assert lines[0]["game"] == "perspective" and lines[0]["opts"] == opts
    assert lines[1:] == [["start", "blue", 0], ["move", "red", 3000], ["move", "green", 7000],
                         ["move", "yellow", 9000], ["undo"], ["move", "blue", 12000],
                         ["solved", 15000]]
    back.undo()  # the solved press taken back: the solitaire runs again
    assert ps.result(back.state) is None and ps.elapsed(back.state) == 12000
    assert ps.moves(back.state) == 3
    while back.count:
        back.undo()
    assert back.state == states[0]
    try:
        back.undo()
        assert False, "undid past the start"
    except RuleError as e:
        assert str(e) == "Nothing to undo"


# --- the solitaire's records -------------------------------------------------------------

class _App:
    """What read_records needs of the app: path(name) in a scratch root."""

    def __init__(self, root):
        self.root = root

    def path(self, name):
        return self.root + "/" + name


def test_better_beats_moves_and_time_separately():
    assert recfile.better({}, 12, 60000) == ({"moves": 12, "ms": 60000}, ["moves", "time"])
    rec = {"moves": 10, "ms": 50000}
    assert recfile.better(rec, 9, 70000) == ({"moves": 9, "ms": 50000}, ["moves"])
    assert recfile.better(rec, 11, 40000) == ({"moves": 10, "ms": 40000}, ["time"])
    assert recfile.better(rec, 8, 30000) == ({"moves": 8, "ms": 30000}, ["moves", "time"])
    assert recfile.better(rec, 10, 50000) == (rec, [])  # equal is no record
    assert recfile.better(rec, 9, 50000) == ({"moves": 9, "ms": 50000}, ["moves"])  # nor a tie
    assert recfile.better(rec, 11, 60000) == (rec, [])
    assert rec == {"moves": 10, "ms": 50000}  # not changed in place
    assert recfile.better({"ms": 5000}, 20, 9000) == ({"moves": 20, "ms": 5000}, ["moves"])


def test_fmt_ms():
    assert recfile.fmt_ms(0) == "0:00"
    assert recfile.fmt_ms(999) == "0:00"
    assert recfile.fmt_ms(61000) == "1:01"
    assert recfile.fmt_ms(599999) == "9:59"
    assert recfile.fmt_ms(3599999) == "59:59"
    assert recfile.fmt_ms(3600000) == "60:00"


GID = "0badf11e"  # a game's id (``Game.id``)
OTHER = "12345678"


def test_records_survive_a_power_cycle():
    root = support.scratch_dir("perspective-records")
    app = _App(root)
    assert recfile.read_records(app.path(recfile.FILE)) == {}  # no file yet
    rec, beaten = recfile.records_solved(recfile.read_records(app.path(recfile.FILE)), GID, 14, 95000)
    assert beaten == ["moves", "time"]
    files.write_atomic(app.path(recfile.FILE), json.dumps(rec))  # as the screen writes it
    again = _App(root)  # a power cycle: a new app reads the flash
    assert recfile.read_records(again.path(recfile.FILE)) == {"moves": 14, "ms": 95000, "game": GID, "before": {}}
    rec, beaten = recfile.records_solved(recfile.read_records(again.path(recfile.FILE)), OTHER, 16, 80000)
    assert beaten == ["time"]
    files.write_atomic(again.path(recfile.FILE), json.dumps(rec))
    assert recfile.read_records(_App(root).path(recfile.FILE)) == {"moves": 14, "ms": 80000, "game": OTHER,
                                               "before": {"moves": 14, "ms": 95000}}


def test_a_record_remembers_the_game_that_set_it_and_what_it_beat():
    old = {"moves": 10, "ms": 50000}
    new, beaten = recfile.records_solved(old, GID, 8, 60000)
    assert beaten == ["moves"] and new == {"moves": 8, "ms": 50000, "game": GID, "before": old}
    assert old == {"moves": 10, "ms": 50000}  # not changed in place
    assert recfile.records_unsolved(new, GID) == old  # that game's undo: the records it beat
    assert recfile.records_unsolved(new, OTHER) is new  # any other game: they stand
    assert recfile.records_unsolved(old, GID) is old
    same, beaten = recfile.records_solved(old, GID, 12, 70000)
    assert same is old and beaten == []  # nothing beaten: nothing to write
    # Solved again while its records still stand (an undo the flash refused, a power cut before
    # the journal took the solve): measured against what it beat, not against itself.
    again, beaten = recfile.records_solved(new, GID, 9, 55000)
    assert beaten == ["moves"] and again == {"moves": 9, "ms": 50000, "game": GID, "before": old}
    back, beaten = recfile.records_solved(new, GID, 12, 70000)
    assert back == old and beaten == []
    first, beaten = recfile.records_solved({}, GID, 5, 9000)  # the first solve ever
    assert first == {"moves": 5, "ms": 9000, "game": GID, "before": {}} and len(beaten) == 2
    assert recfile.records_unsolved(first, GID) == {}
    newer, beaten = recfile.records_solved(new, OTHER, 7, 40000)  # before: the records alone
    assert newer == {"moves": 7, "ms": 40000, "game": OTHER, "before": {"moves": 8, "ms": 50000}}
    for gid in (None, 7, "", "x" * 17):  # a journal without a sound id: a record, no undo
        plain, beaten = recfile.records_solved(old, gid, 8, 60000)
        assert plain == {"moves": 8, "ms": 50000} and beaten == ["moves"], gid
        assert recfile.records_unsolved(plain, gid) is plain


def test_a_records_file_names_the_game_that_set_it():
    good = {"moves": 8, "ms": 50000, "game": GID, "before": {"moves": 10, "ms": 50000}}
    assert recfile.records_in(good) == (good, True)
    first = {"moves": 8, "ms": 50000, "game": GID, "before": {}}
    assert recfile.records_in(first) == (first, True)
    assert recfile.records_in({"moves": 31, "ms": 125000}) == ({"moves": 31, "ms": 125000}, True)
    for game, before in ((GID, None), (None, {}), (7, {}), ("", {}), ("x" * 17, {}),
                         (GID, []), (GID, {"moves": -1}), (GID, {"ms": "9"}),
                         (GID, {"moves": 10 ** 9})):
        bad = {"moves": 8, "ms": 50000}
        if game is not None:
            bad["game"] = game
        if before is not None:
            bad["before"] = before
        assert recfile.records_in(bad) == ({"moves": 8, "ms": 50000}, False), bad


def test_an_unreadable_records_file_reads_as_none_and_is_kept_aside():
    root = support.scratch_dir("perspective-bad-records")
    app = _App(root)
    path = app.path(recfile.FILE)
    cases = ((b"", {}), (b'{"moves": 9, "m', {}), (b"not json", {}), (b"[1, 2]", {}),
             (b"7", {}), (b"null", {}), (b"\xff\xfe\x00garbage", {}),
             (b'{"moves": "9", "ms": 4000}', {"ms": 4000}),
             (b'{"moves": true, "ms": 4000.5}', {}),
             (b'{"moves": 9, "ms": 1%s}' % (b"0" * 400), {"moves": 9}))
    for i in range(len(cases)):
        data, sound = cases[i]
        support.write_bytes(path, data)
        assert recfile.read_records(app.path(recfile.FILE)) == sound, data
        assert not os.path.exists(path), "moved aside: the next record writes a new file"
        assert support.read_bytes(path + ".bad" + (str(i) if i else "")) == data
    support.write_bytes(path, b'{"moves": 9, "ms": 4000, "other": 1}')
    assert recfile.read_records(app.path(recfile.FILE)) == {"moves": 9, "ms": 4000}
    assert os.path.exists(path)  # sound: stays


# --- whole games through the journal -----------------------------------------------------

def _play(g, path, actions, resume_at=()):
    """Do and save each action; resume from the journal at the given counts (equal state)."""
    for action in actions:
        g.do(action)
        g.save()
        if g.count in resume_at:
            r, problem = Game.resume(ps, path)
            assert problem is None, problem
            assert r.state == g.state and r.count == g.count
            g = r
    return g


def _team_game():
    """A 4-player game (random first player Cy) with checks, rebuilds and a team win."""
    acts = [["first", CY, None]]
    seat = CY
    colours = ps.COLOURS
    done = [False] * 4
    for i in range(34):
        while done[seat]:
            seat = (seat + 1) % 4
        if i == 5:
            acts.append(["rebuild"])
        if i == 6:  # the active player is done at the start of the turn
            acts.append(["check", seat, True])
            done[seat] = True
            seat = (seat + 1) % 4
            continue
        if i % 7 == 2:
            acts.append(["check", seat, False])
            seat = (seat + 1) % 4
            continue
        acts.append(["play", seat, colours[i % 4]])
        if i % 5 == 4:
            acts.append(["check", seat, False])
        else:
            acts.append(["end", seat])
        seat = (seat + 1) % 4
    while done[seat]:
        seat = (seat + 1) % 4
    partner_done = done[(seat + 2) % 4]
    assert not partner_done
    partner = [p for p in range(4) if done[p]][0]
    while seat != (partner + 2) % 4:
        acts.append(["play", seat, "blue"])
        acts.append(["end", seat])
        seat = (seat + 1) % 4
        while done[seat]:
            seat = (seat + 1) % 4
    acts.append(["play", seat, "red"])
    acts.append(["check", seat, True])
    return acts, sorted([partner, seat])


def test_a_whole_team_game_through_the_journal():
    path = support.scratch_dir("perspective-teams") + "/game.jnl"
    opts = {"names": NAMES[:], "advanced": False}
    acts, winners = _team_game()
    assert len(acts) > 2 * 32  # past two checkpoints
    g = Game.new(ps, path, opts)
    g = _play(g, path, acts, resume_at=(1, 20, 33, 50, 64, 65))
    assert ps.result(g.state) == winners and ps.outcome(g.state) == "team"
    r, problem = Game.resume(lifecycle.rules, path)
    assert problem is None and r.rules is ps and r.state == g.state and r.count == len(acts)
    lines = support.journal_lines(path)
    assert lines[0]["game"] == "perspective" and lines[0]["opts"] == opts
    assert lines[1:] == acts and lines[1] == ["first", CY, None]  # the random pick journaled
    # the state replays from the actions alone
    s = ps.setup(opts)
    for a in acts:
        ps.apply(s, a)
    assert s == r.state
    # undo back across the checkpoints, then resume: equal states all the way
    r.undo()
    assert ps.result(r.state) is None and r.count == len(acts) - 1
    for _ in range(40):
        r.undo()
    r.save()
    back, problem = Game.resume(ps, path)
    assert problem is None and back.state == r.state and back.count == len(acts) - 41
    s = ps.setup(opts)
    for a in acts[:len(acts) - 41]:
        ps.apply(s, a)
    assert s == back.state


def test_whole_duel_trio_and_advanced_games_resume_equal():
    games = (
        ({"names": ["Ann", "Bob"]}, [["first", BOB, "green"], ["play", BOB, "red"],
                                     ["end", BOB], ["check", ANN, False], ["rebuild"],
                                     ["play", BOB, "yellow"], ["check", BOB, True]],
         [BOB], "objective"),
        ({"names": ["Ann", "Bob", "Cy"]}, [["first", ANN, None], ["play", ANN, "blue"],
                                           ["check", ANN, False], ["play", BOB, "green"],
                                           ["end", BOB], ["check", CY, True]],
         [CY], "objective"),
        ({"names": ["Ann", "Bob"], "advanced": True},
         [["first", ANN, "yellow"], ["check", ANN, False], ["play", BOB, "red"], ["end", BOB],
          ["play", ANN, "green"], ["check", ANN, "hidden"]], [ANN], "side"),
    )
    for i, (opts, acts, winners, outcome) in enumerate(games):
        path = support.scratch_dir("perspective-game%d" % i) + "/game.jnl"
        g = _play(Game.new(ps, path, opts), path, acts, resume_at=(2, 4))
        assert ps.result(g.state) == winners and ps.outcome(g.state) == outcome
        r, problem = Game.resume(lifecycle.rules, path)
        assert problem is None and r.state == g.state and r.count == len(acts)
        assert support.journal_lines(path)[1:] == acts
        try:
            r.do(["play", 0, "red"])
            assert False, "played after the end"
        except RuleError as e:
            assert str(e) == "Game is over"
        assert r.count == len(acts) and r.unsaved == 0

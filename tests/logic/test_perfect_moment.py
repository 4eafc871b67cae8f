"""The Perfect Moment: setup and its options, the setup race, 1/2/3-point scoring of the plan,
the Paradox and fragments, steals, the deck and its corrections, the three ends and the tie the
last turn decides, time-outs under both policies, the clocks in the actions, refusals, and a
recorded game through the journal (resume, undo)."""

import json

import support
from tablemate import RuleError, lifecycle
from tablemate import clock
from tablemate.rules import perfect_moment as pm
from tablemate.store.game import Game

ANN = 0
BOB = 1
NAMES = ["Ann", "Bob"]
BANK = [600000, 600000]  # both clocks of a fresh 10-minute bank
KINDS = ("first", "score", "end", "deck", "empty", "timeout")


def _refused(state, action, message):
    support.refused(pm, state, action, message)


def _setup_refused(opts, message):
    support.setup_refused(pm, opts, message)


def _opts(**opts):
    o = {"names": list(NAMES), "clock": "off"}
    o.update(opts)
    return o


def _times(s):
    """The clocks an action carries here: the ones the state holds (None without clocks)."""
    return None if s["clocks"] is None else list(s["clocks"])


def _do(s, *action):
    """Apply the action, ending with the clocks the state holds."""
    pm.apply(s, list(action) + [_times(s)])


def _new(first=ANN, **opts):
    """A game without clocks (unless the options say) that ``first`` started."""
    s = pm.setup(_opts(**opts))
    _do(s, "first", first)
    return s


def _drain(s):
    """Item actions draw the deck empty (-1 corrections)."""
    while pm.deck(s):
        _do(s, "deck", -1)




def _all_refused(state, message, p=ANN):
    """Every kind of action, well formed, is refused with message."""
    t = _times(state)
    for action in (["first", p, t], ["score", p, "plan", 2, t], ["score", p, "paradox", 1, t],
                   ["end", p, t], ["deck", 1, t], ["deck", -1, t], ["empty", p, t],
                   ["timeout", p, t]):
        _refused(state, action, message)


# --- setup ---------------------------------------------------------------------------------

def test_setup_two_players_a_deck_of_11_and_the_defaults():
    s = pm.setup({"names": ["Ann", "Bob"]})
    assert pm.names(s) == ["Ann", "Bob"] and pm.deck(s) == 11 == pm.DECK
    assert pm.scores(s) == [0, 0] and pm.fragments(s) == [0, 0] and pm.face_down(s) == [0, 0]
    assert pm.turn(s) == -1 and pm.turns(s) == 0 and not pm.scored(s)
    assert pm.clock(s) == ("bank", 600000, 5000) and s["zero"] == "alert"
    assert pm.clocks(s) == BANK and pm.late(s) == [0, 0]
    assert pm.result(s) is None and pm.outcome(s) is None
    assert pm.summary(s) == {"names": ["Ann", "Bob"], "scores": [0, 0], "winners": [],
                             "turns": 0, "outcome": None}
    assert json.loads(json.dumps(s)) == s


def test_setup_clock_kinds_and_their_times():
    s = pm.setup(_opts(clock="bank", minutes=10))
    assert pm.clocks(s) == [600000, 600000] and pm.clock(s) == ("bank", 600000, 5000)
    s = pm.setup(_opts(clock="bank", minutes=1, increment=0))
    assert pm.clocks(s) == [60000, 60000] and pm.clock(s) == ("bank", 60000, 0)
    s = pm.setup(_opts(clock="bank", minutes=60, increment=30, zero="lose"))
    assert pm.clocks(s) == [3600000, 3600000] and pm.clock(s) == ("bank", 3600000, 30000)
    assert s["zero"] == "lose"
    s = pm.setup(_opts(clock="turn"))
    assert pm.clocks(s) == [60000, 60000] and pm.clock(s) == ("turn", 60000, 0)
    s = pm.setup(_opts(clock="turn", turn=15, increment=30))  # no increment per turn
    assert pm.clocks(s) == [15000, 15000] and pm.clock(s) == ("turn", 15000, 0)
    s = pm.setup(_opts(clock="turn", turn=180))
    assert pm.clocks(s) == [180000, 180000]
    s = pm.setup(_opts(clock="off"))
    assert pm.clocks(s) is None and pm.clock(s)[0] == "off"
    assert json.loads(json.dumps(s)) == s


def test_setup_does_not_share_the_names_list():
    names = ["Ann", "Bob"]
    s = pm.setup({"names": names})
    names[0] = "Eve"
    assert pm.names(s) == ["Ann", "Bob"]


def test_setup_refusals():
    _setup_refused(None, "Bad options")
    _setup_refused(["Ann", "Bob"], "Bad options")
    _setup_refused({}, "Need 2 players")
    _setup_refused({"names": ["Ann"]}, "Need 2 players")
    _setup_refused({"names": ["Ann", "Bob", "Cy"]}, "Need 2 players")
    _setup_refused({"names": "AB"}, "Need 2 players")
    _setup_refused({"names": ["Ann", ""]}, "Bad player name")
    _setup_refused({"names": ["Ann", 7]}, "Bad player name")
    _setup_refused({"names": ["Ann", "Christopher"]}, "Bad player name")
    for key, value in (("clock", "fast"), ("clock", None), ("clock", 1),
                       ("minutes", 0), ("minutes", 61), ("minutes", "10"), ("minutes", True),
                       ("minutes", 10.0), ("minutes", 7), ("increment", -1), ("increment", 61),
                       ("increment", "5"), ("increment", 3), ("turn", 4), ("turn", 601),
                       ("turn", "60"), ("turn", 50),
                       ("turn", None), ("zero", "pause"), ("zero", None), ("zero", 0)):
        opts = {"names": ["Ann", "Bob"]}
        opts[key] = value
        _setup_refused(opts, "Bad option " + key)
    # every option is checked, even one the clock kind does not use
    _setup_refused(_opts(clock="off", minutes=0), "Bad option minutes")
    _setup_refused(_opts(clock="bank", turn=0), "Bad option turn")


# --- the setup race --------------------------------------------------------------------------

def test_the_setup_race_says_who_moves_first():
    for p in (ANN, BOB):
        s = pm.setup({"names": NAMES})
        for action in (["score", p, "plan", 2, BANK], ["end", p, BANK], ["empty", p, BANK],
                       ["timeout", p, BANK], ["end", 1 - p, BANK]):
            _refused(s, action, "Race to start first")
        _refused(s, ["first", 2, BANK], "No such player")
        _refused(s, ["first", -1, BANK], "No such player")
        _refused(s, ["first", True, BANK], "No such player")
        pm.apply(s, ["first", p, [600000, 600000]])
        assert pm.turn(s) == p and pm.turns(s) == 1 and not pm.scored(s)
        assert pm.result(s) is None and pm.deck(s) == 11
        _refused(s, ["first", p, BANK], "Already started")
        _refused(s, ["first", 1 - p, BANK], "Already started")
        _refused(s, ["end", 1 - p, BANK], "It is %s's turn" % NAMES[p])
        _do(s, "end", p)
        assert pm.turn(s) == 1 - p and pm.turns(s) == 2


def test_a_deck_correction_waits_for_the_race():
    s = pm.setup({"names": NAMES})
    _refused(s, ["deck", -1, BANK], "Race to start first")
    _refused(s, ["deck", 1, BANK], "Race to start first")


# --- scoring -------------------------------------------------------------------------------

def test_scoring_the_plan_or_the_paradox_for_1_2_or_3_points():
    for what in ("plan", "paradox"):
        for pts in (1, 2, 3):
            s = _new(BOB)
            _do(s, "score", BOB, what, pts)
            assert pm.scores(s) == [0, pts], (what, pts)
            if pts == 1:  # one item: face up, a fragment in front of the scorer
                assert pm.fragments(s) == [0, 1] and pm.face_down(s) == [0, 0]
            else:  # both items: face down
                assert pm.fragments(s) == [0, 0] and pm.face_down(s) == [0, 1]
            assert pm.deck(s) == 10  # a new plan drawn, or a new Paradox revealed
            assert pm.scored(s) and pm.turn(s) == BOB and pm.result(s) is None
            _do(s, "end", BOB)
            assert pm.turn(s) == ANN and not pm.scored(s) and pm.turns(s) == 2
            assert pm.deck(s) == 10 and pm.scores(s) == [0, pts]


def test_one_score_a_turn():
    s = _new(ANN)
    _do(s, "score", ANN, "paradox", 1)
    for what, pts in (("plan", 2), ("paradox", 3), ("frag0", 2)):
        _refused(s, ["score", ANN, what, pts, None], "One score a turn")
    _do(s, "end", ANN)
    _do(s, "score", BOB, "frag0", 3)  # the next turn: a new score
    assert pm.scores(s) == [0, 3]


def test_a_steal_moves_the_fragment_and_its_point():
    for pts in (2, 3):
        s = _new(ANN)
        _do(s, "score", ANN, "plan", 1)
        assert pm.scores(s) == [1, 0] and pm.fragments(s) == [1, 0] and pm.deck(s) == 10
        _do(s, "end", ANN)
        _do(s, "score", BOB, "frag0", pts)
        assert pm.scores(s) == [0, pts]  # Ann loses 1, Bob gains 2 or 3
        assert pm.fragments(s) == [0, 0] and pm.face_down(s) == [0, 1]  # the card moved
        assert pm.deck(s) == 10  # a fragment is on the table: nothing is drawn
        assert pm.scored(s) and pm.turn(s) == BOB


def test_a_steal_of_one_of_two_fragments_and_rescoring_ones_own():
    s = _new(ANN)
    _do(s, "score", ANN, "plan", 1)
    _do(s, "end", ANN)
    _do(s, "end", BOB)
    _do(s, "score", ANN, "paradox", 1)
    assert pm.scores(s) == [2, 0] and pm.fragments(s) == [2, 0] and pm.deck(s) == 9
    _do(s, "end", ANN)
    _do(s, "score", BOB, "frag0", 2)
    assert pm.scores(s) == [1, 2] and pm.fragments(s) == [1, 0] and pm.face_down(s) == [0, 1]
    _do(s, "end", BOB)
    _do(s, "score", ANN, "frag0", 3)  # her own fragment, now with both items
    assert pm.scores(s) == [3, 2] and pm.fragments(s) == [0, 0] and pm.face_down(s) == [1, 1]
    assert pm.deck(s) == 9


def test_scoring_refusals():
    s = _new(ANN)
    _do(s, "score", ANN, "plan", 1)  # Ann: a fragment
    _do(s, "end", ANN)
    _do(s, "score", BOB, "plan", 2)  # Bob: a face-down card
    _do(s, "end", BOB)
    _refused(s, ["score", ANN, "frag0", 1, None], "Needs both items")
    _refused(s, ["score", ANN, "frag1", 2, None], "No fragment there")
    _refused(s, ["score", ANN, "frag1", 1, None], "No fragment there")
    _refused(s, ["score", ANN, "down1", 3, None], "Face down: final")
    _refused(s, ["score", ANN, "down0", 2, None], "Face down: final")
    for what in ("hand", "frag2", "", None, 0, "PLAN"):
        _refused(s, ["score", ANN, what, 2, None], "Score what?")
    for pts in (0, 4, -1, "2", True, 2.0, None):
        _refused(s, ["score", ANN, "plan", pts, None], "Points: 1, 2 or 3")
    _refused(s, ["score", BOB, "plan", 2, None], "It is Ann's turn")
    _refused(s, ["score", 2, "plan", 2, None], "No such player")
    assert pm.scores(s) == [1, 2] and pm.deck(s) == 9


# --- the ends --------------------------------------------------------------------------------

def test_sixteen_points_end_the_game_in_the_middle_of_the_turn():
    s = _new(ANN)
    for k in range(5):  # Ann scores her plan perfectly each turn; Bob passes
        _do(s, "score", ANN, "plan", 3)
        _do(s, "end", ANN)
        _do(s, "end", BOB)
    assert pm.scores(s) == [15, 0] and pm.deck(s) == 6 and pm.result(s) is None
    assert pm.turns(s) == 11 and pm.turn(s) == ANN
    _do(s, "score", ANN, "plan", 1)  # 16: the game ends before the new plan is drawn
    assert pm.result(s) == [ANN] and pm.outcome(s) == "16" and pm.turn(s) == -1
    assert pm.scores(s) == [16, 0] and pm.deck(s) == 6 and pm.fragments(s) == [1, 0]
    assert pm.turns(s) == 11
    assert pm.summary(s) == {"names": NAMES, "scores": [16, 0], "winners": [0], "turns": 11,
                             "outcome": "16"}
    _all_refused(s, "Game is over")
    _all_refused(s, "Game is over", BOB)


def test_sixteen_by_a_steal_and_over_sixteen_from_an_empty_deck():
    s = _new(BOB)
    for pts in (3, 3, 3, 3, 2):
        _do(s, "score", BOB, "paradox", pts)
        _do(s, "end", BOB)
        _do(s, "end", ANN)
    _do(s, "end", BOB)
    _do(s, "score", ANN, "plan", 1)
    _do(s, "end", ANN)
    assert pm.scores(s) == [1, 14] and pm.deck(s) == 5
    _do(s, "score", BOB, "frag0", 2)
    assert pm.result(s) == [BOB] and pm.outcome(s) == "16" and pm.scores(s) == [0, 16]
    s = _new(ANN)
    for k in range(5):
        _do(s, "score", ANN, "plan", 3)
        _do(s, "end", ANN)
        _do(s, "end", BOB)
    _drain(s)
    _do(s, "score", ANN, "paradox", 2)  # 17 with nothing to reveal: the points end it
    assert pm.outcome(s) == "16" and pm.result(s) == [ANN] and pm.scores(s) == [17, 0]


def test_a_plan_or_paradox_scored_from_an_empty_deck_ends_the_game_at_once():
    for what in ("plan", "paradox"):
        for pts in (1, 2, 3):
            s = _new(BOB)
            _drain(s)
            assert pm.deck(s) == 0 and pm.result(s) is None
            _do(s, "score", BOB, what, pts)  # nothing to draw or reveal
            assert pm.outcome(s) == "draw" and pm.result(s) == [BOB] and pm.deck(s) == 0
            assert pm.scores(s) == [0, pts] and pm.turn(s) == -1
            _all_refused(s, "Game is over", BOB)


def test_taking_a_card_from_the_empty_deck_ends_the_game():
    s = _new(ANN)
    _do(s, "score", ANN, "plan", 2)
    _refused(s, ["empty", ANN, None], "The deck is not empty")
    _drain(s)
    _refused(s, ["empty", BOB, None], "It is Ann's turn")
    _refused(s, ["empty", 2, None], "No such player")
    _refused(s, ["deck", -1, None], "The deck is empty")
    _do(s, "empty", ANN)
    assert pm.outcome(s) == "draw" and pm.result(s) == [ANN] and pm.scores(s) == [2, 0]
    _all_refused(s, "Game is over")


def test_a_fragment_rescored_from_an_empty_deck_draws_nothing():
    s = _new(ANN)
    _do(s, "score", ANN, "paradox", 1)
    _do(s, "end", ANN)
    _drain(s)
    _do(s, "score", BOB, "frag0", 3)
    assert pm.result(s) is None and pm.scores(s) == [0, 3] and pm.deck(s) == 0
    _do(s, "end", BOB)  # but the turn ends on an empty deck
    assert pm.outcome(s) == "deck" and pm.result(s) == [BOB]


def test_a_turn_that_ends_with_the_deck_empty_ends_the_game():
    s = _new(ANN)
    while pm.deck(s) > 1:
        _do(s, "deck", -1)
    _do(s, "score", ANN, "plan", 2)  # the last card: the new plan
    assert pm.deck(s) == 0 and pm.result(s) is None
    _do(s, "end", ANN)
    assert pm.outcome(s) == "deck" and pm.result(s) == [ANN] and pm.turn(s) == -1
    assert pm.turns(s) == 1
    _all_refused(s, "Game is over")
    # a card put back before the end of the turn: play goes on
    s = _new(BOB)
    _drain(s)
    _do(s, "deck", 1)
    _do(s, "end", BOB)
    assert pm.result(s) is None and pm.turn(s) == ANN and pm.deck(s) == 1


def test_the_tie_goes_to_the_player_who_took_the_last_turn():
    for last in (ANN, BOB):
        other = 1 - last
        # the turn ends on an empty deck, 0 : 0
        s = _new(last)
        _drain(s)
        _do(s, "end", last)
        assert pm.outcome(s) == "deck" and pm.result(s) == [last], last
        # the turn ends on an empty deck, 2 : 2
        s = _new(other)
        _do(s, "score", other, "plan", 2)
        _do(s, "end", other)
        _do(s, "score", last, "paradox", 2)
        _drain(s)
        _do(s, "end", last)
        assert pm.scores(s) == [2, 2] and pm.outcome(s) == "deck" and pm.result(s) == [last]
        # a plan scored from an empty deck, 3 : 3
        s = _new(other)
        _do(s, "score", other, "plan", 3)
        _do(s, "end", other)
        _drain(s)
        _do(s, "score", last, "plan", 3)
        assert pm.scores(s) == [3, 3] and pm.outcome(s) == "draw" and pm.result(s) == [last]
        # a card taken from the empty deck, 1 : 1
        s = _new(other)
        _do(s, "score", other, "paradox", 1)
        _do(s, "end", other)
        _do(s, "score", last, "paradox", 1)
        _drain(s)
        _do(s, "empty", last)
        assert pm.scores(s) == [1, 1] and pm.outcome(s) == "draw" and pm.result(s) == [last]
        # the most points win, whoever took the last turn
        s = _new(other)
        _do(s, "score", other, "plan", 1)
        _do(s, "end", other)
        _drain(s)
        _do(s, "end", last)
        assert pm.outcome(s) == "deck" and pm.result(s) == [other]
        # 16 cannot tie: only the scorer gains, and the other player is under 16
        # a time-out under "lose": the other player wins, tie or not
        s = _new(last, clock="bank", zero="lose")
        _do(s, "timeout", last)
        assert pm.outcome(s) == "time" and pm.result(s) == [other] and pm.scores(s) == [0, 0]


def test_the_deck_count_through_a_whole_game():
    s = _new(BOB)
    script = (
        (("score", BOB, "plan", 1), 10, [0, 1]),  # Bob's plan: a new plan drawn
        (("deck", -1), 9, [0, 1]),  # an item drew a card
        (("end", BOB), 9, [0, 1]),
        (("deck", 1), 10, [0, 1]),  # an item put a card back
        (("score", ANN, "frag1", 2), 10, [2, 0]),  # a steal draws nothing
        (("end", ANN), 10, [2, 0]),
        (("score", BOB, "paradox", 3), 9, [2, 3]),  # a new Paradox revealed
        (("end", BOB), 9, [2, 3]),
        (("end", ANN), 9, [2, 3]),  # no score
        (("deck", -1), 8, [2, 3]),
        (("deck", -1), 7, [2, 3]),
        (("score", BOB, "plan", 2), 6, [2, 5]),
        (("end", BOB), 6, [2, 5]),
        (("score", ANN, "paradox", 1), 5, [3, 5]),
        (("end", ANN), 5, [3, 5]),
        (("score", BOB, "plan", 3), 4, [3, 8]),
        (("end", BOB), 4, [3, 8]),
        (("deck", -1), 3, [3, 8]),
        (("score", ANN, "plan", 2), 2, [5, 8]),
        (("end", ANN), 2, [5, 8]),
        (("score", BOB, "frag0", 3), 2, [4, 11]),
        (("deck", -1), 1, [4, 11]),
        (("end", BOB), 1, [4, 11]),
        (("score", ANN, "paradox", 3), 0, [7, 11]),  # the last card
        (("end", ANN), 0, [7, 11]),  # ends the game
    )
    turns = 1
    for action, deck, points in script:
        assert pm.result(s) is None, action
        _do(s, *action)
        if action[0] == "end" and pm.result(s) is None:
            turns += 1
        assert pm.deck(s) == deck and pm.scores(s) == points, (action, pm.deck(s))
        assert pm.turns(s) == turns
    assert pm.outcome(s) == "deck" and pm.result(s) == [BOB] and pm.turns(s) == 10
    assert pm.fragments(s) == [0, 0] and pm.face_down(s) == [3, 4]


def test_deck_corrections():
    s = _new(ANN)
    _do(s, "deck", 1)
    assert pm.deck(s) == 12 and pm.turn(s) == ANN and not pm.scored(s)
    _do(s, "score", ANN, "plan", 2)
    _do(s, "deck", -1)  # after the score, in the same turn
    assert pm.deck(s) == 10 and pm.scored(s) and pm.turn(s) == ANN
    for d in (0, 2, -2, "1", True, False, 1.0, None, [1]):
        _refused(s, ["deck", d, None], "Deck: +1 or -1")
    _drain(s)
    _refused(s, ["deck", -1, None], "The deck is empty")
    _do(s, "deck", 1)
    assert pm.deck(s) == 1


# --- time-outs -------------------------------------------------------------------------------

def test_a_timeout_under_lose_ends_the_game_for_that_player():
    for kind in ("bank", "turn"):
        s = pm.setup(_opts(clock=kind, zero="lose"))
        base = pm.clocks(s)[0]
        pm.apply(s, ["first", ANN, [base, base]])
        pm.apply(s, ["score", ANN, "plan", 3, [base - 9000, base]])
        _refused(s, ["timeout", BOB, [base - 9000, base]], "It is Ann's turn")
        pm.apply(s, ["timeout", ANN, [0, base]])
        assert pm.result(s) == [BOB] and pm.outcome(s) == "time" and pm.turn(s) == -1
        assert pm.scores(s) == [3, 0] and pm.clocks(s) == [0, base] and pm.late(s) == [0, 0]
        assert pm.summary(s) == {"names": NAMES, "scores": [3, 0], "winners": [1],
                                 "turns": 1, "outcome": "time"}
        _all_refused(s, "Game is over")


def test_a_timeout_under_alert_counts_and_play_goes_on():
    s = pm.setup(_opts(clock="turn", zero="alert"))
    pm.apply(s, ["first", BOB, [60000, 60000]])
    pm.apply(s, ["timeout", BOB, [60000, 0]])
    assert pm.late(s) == [0, 1] and pm.result(s) is None and pm.turn(s) == BOB
    assert pm.clocks(s) == [60000, 0] and not pm.scored(s)
    pm.apply(s, ["score", BOB, "plan", 2, [60000, 0]])  # play goes on at zero
    pm.apply(s, ["end", BOB, [60000, 0]])
    assert pm.turn(s) == ANN and pm.scores(s) == [0, 2]
    _refused(s, ["timeout", BOB, [0, 0]], "It is Ann's turn")
    pm.apply(s, ["timeout", ANN, [0, 0]])
    pm.apply(s, ["end", ANN, [0, 0]])
    pm.apply(s, ["timeout", BOB, [0, 0]])  # Bob had a new turn's time, and ran out again
    pm.apply(s, ["timeout", BOB, [0, 0]])
    assert pm.late(s) == [1, 3] and pm.result(s) is None and pm.outcome(s) is None
    s = _new(ANN, clock="bank")  # the default: alert
    _do(s, "timeout", ANN)
    assert pm.late(s) == [1, 0] and pm.result(s) is None


def test_a_timeout_needs_clocks():
    for zero in ("lose", "alert"):
        s = _new(ANN, clock="off", zero=zero)
        _refused(s, ["timeout", ANN, None], "No clocks in game")


# --- clocks in the actions -------------------------------------------------------------------

def test_the_clocks_of_each_action_are_stored():
    s = pm.setup(_opts(clock="bank", minutes=10))
    t = [600000, 600000]
    pm.apply(s, ["first", ANN, t])
    assert pm.clocks(s) == t
    t[0] = 1  # the state holds its own list
    assert pm.clocks(s) == [600000, 600000]
    seq = ((["score", ANN, "plan", 1], [590000, 600000]),
           (["deck", -1], [585000, 600000]),
           (["end", ANN], [587000, 600000]),  # the increment
           (["score", BOB, "frag0", 3], [587000, 570000]),
           (["timeout", BOB], [587000, 0]),
           (["deck", 1], (587000, 0)),  # a tuple is stored as a list
           (["end", BOB], [587000, 5000]))
    for action, times in seq:
        pm.apply(s, action + [times])
        assert pm.clocks(s) == list(times) and type(pm.clocks(s)) is list, action
        assert json.loads(json.dumps(s)) == s
    pm.apply(s, ["score", ANN, "plan", 2, [0, 5000]])  # the bounds
    pm.apply(s, ["deck", -1, [0x1FFFFFFF, 5000]])
    _drain(s)
    pm.apply(s, ["empty", ANN, [17, 5000]])
    assert pm.clocks(s) == [17, 5000] and pm.outcome(s) == "draw"


def test_malformed_clocks_are_refused():
    s = _new(ANN, clock="bank")
    assert pm.clocks(s) == BANK
    for bad in (None, [], [1], [1, 2, 3], ["1", 2], [1, "2"], [-1, 5], [5, -1], [1.5, 2],
                [True, 5], [5, False], [None, None], [0x20000000, 5], "600000,600000",
                {"0": 1, "1": 2}, 600000):
        for kind in ("score", "end", "deck", "timeout"):
            action = {"score": ["score", ANN, "plan", 2], "end": ["end", ANN],
                      "deck": ["deck", 1], "timeout": ["timeout", ANN]}[kind]
            _refused(s, action + [bad], "Bad clocks")
    _drain(s)
    _refused(s, ["empty", ANN, None], "Bad clocks")
    s = pm.setup(_opts(clock="turn"))
    _refused(s, ["first", BOB, None], "Bad clocks")
    _refused(s, ["first", BOB, [60000]], "Bad clocks")


def test_a_game_without_clocks_takes_none():
    s = pm.setup(_opts(clock="off"))
    pm.apply(s, ["first", BOB, None])
    pm.apply(s, ["score", BOB, "plan", 2, None])
    assert pm.clocks(s) is None and pm.scores(s) == [0, 2]
    for bad in ([600000, 600000], [0, 0], (1, 2), "x", 0, []):
        _refused(s, ["end", BOB, bad], "No clocks in game")
        _refused(s, ["deck", 1, bad], "No clocks in game")


# --- players and malformed actions -----------------------------------------------------------

def test_a_third_player_and_the_wrong_player():
    s = _new(ANN)
    for p in (2, -1, 3, "0", None, True, 0.0):
        for action in (["score", p, "plan", 2, None], ["end", p, None],
                       ["timeout", p, None], ["empty", p, None], ["first", p, None]):
            _refused(s, action, "No such player")
    _refused(s, ["end", BOB, None], "It is Ann's turn")
    _refused(s, ["score", BOB, "plan", 2, None], "It is Ann's turn")
    _do(s, "end", ANN)
    _refused(s, ["end", ANN, None], "It is Bob's turn")
    _refused(s, ["score", ANN, "frag1", 3, None], "It is Bob's turn")
    assert pm.turn(s) == BOB


def test_malformed_actions():
    s = _new(ANN)
    for action in (None, [], (), "end", {"end": 0}, [3], [None, 0, None]):
        _refused(s, action, "Bad action")
    _refused(s, ["pass", ANN, None], "Unknown action")
    _refused(s, ["undo"], "Unknown action")
    for action in (["end", ANN], ["end", ANN, None, None], ["score", ANN, "plan", 2],
                   ["deck", 1], ["first", ANN], ["timeout", ANN, None, 1]):
        _refused(s, action, "Bad action")
    pm.apply(s, ("end", ANN, None))  # a tuple does as well as a list
    assert pm.turn(s) == BOB


# --- a recorded game -------------------------------------------------------------------------

# A game on a 1-minute bank with a 2 s increment, "alert" at zero, as the screen plays it: the
# clocks run in a chess clock, each action carries both clocks at that moment, ending a turn
# presses the clock first. (ms after the previous action, action without its clocks)
_PLAY = (
    (0, ["first", BOB]),
    (12000, ["score", BOB, "plan", 2]),
    (3000, ["end", BOB]),
    (20000, ["deck", -1]),
    (5000, ["score", ANN, "paradox", 1]),
    (1000, ["end", ANN]),
    (8000, ["score", BOB, "frag0", 3]),  # a steal
    (2000, ["end", BOB]),
    (60000, ["timeout", ANN]),  # Ann's bank runs out: she plays on at zero
    (4000, ["end", ANN]),
    (6000, ["score", BOB, "plan", 3]),
    (1000, ["end", BOB]),
    (1500, ["end", ANN]),
    (2000, ["score", BOB, "paradox", 3]),
    (1000, ["end", BOB]),
    (500, ["deck", 1]),
    (1000, ["end", ANN]),
    (3000, ["score", BOB, "plan", 3]),
    (1000, ["end", BOB]),
    (2000, ["end", ANN]),
    (4000, ["score", BOB, "paradox", 2]),  # 16: no new Paradox
)


def test_a_recorded_game_resumes_with_its_clocks_and_undoes():
    path = support.scratch_dir("perfect-moment-game") + "/game.jnl"
    opts = {"names": ["Ann", "Bob"], "clock": "bank", "minutes": 1, "increment": 2,
            "zero": "alert"}
    g = Game.new(pm, path, opts)
    c = clock.ChessClock(2, 60000, 2000)
    now = 1000
    done = []
    history = [json.loads(json.dumps(g.state))]
    for dt, action in _PLAY:
        now += dt
        if action[0] == "first":
            c.start(now, action[1])
        elif action[0] == "end":
            assert c.press(now)
        elif action[0] == "timeout":
            assert c.poll(now) == clock.EXPIRED and c.flagged(now) == ANN
        t = [c.remaining(0, now), c.remaining(1, now)]
        if action[0] == "score" and action[2] == "frag0":  # a mistake, taken back
            g.do(["score", BOB, "plan", 1, t])
            g.save()
            g.undo()
            assert g.state == history[-1] and g.count == len(done)
        g.do(action + [t])
        if action[0] == "timeout":
            c.play_on(now)
        done.append(action + [t])
        history.append(json.loads(json.dumps(g.state)))
        assert pm.clocks(g.state) == t
        g.save()
        if len(done) == 9:  # resumed after the time-out
            r, problem = Game.resume(pm, path)
            assert problem is None, problem
            assert r.state == g.state and r.count == g.count == 9
            assert pm.clocks(r.state) == [0, 60000 - 12000 - 3000 - 8000 - 2000 + 4000]
            assert pm.late(r.state) == [1, 0]
            back = clock.ChessClock(2, 60000, 2000)
            back.set_times(pm.clocks(r.state), 77)
            assert [back.remaining(0, 99), back.remaining(1, 99)] == pm.clocks(r.state)
    assert pm.result(g.state) == [BOB] and pm.outcome(g.state) == "16"
    assert pm.scores(g.state) == [0, 16] and pm.deck(g.state) == 6 and pm.late(g.state) == [1, 0]
    r, problem = Game.resume(lifecycle.rules, path)  # the journal names its rules
    assert problem is None, problem
    assert r.rules is pm and r.state == g.state and r.count == g.count == len(_PLAY)
    assert pm.clocks(r.state) == done[-1][-1] == pm.clocks(g.state)
    lines = support.journal_lines(path)
    assert lines[0]["game"] == "perfect_moment" and lines[0]["opts"] == opts
    acts = lines[1:]
    assert len(acts) == len(_PLAY) + 2 and ["undo"] in acts
    assert [a for a in acts if a != ["undo"] and a[:4] != ["score", BOB, "plan", 1]] == done
    # undo the winning score: the game runs again, with the clocks of the action before it
    r.undo()
    assert r.state == history[-2] and pm.result(r.state) is None
    assert pm.clocks(r.state) == done[-2][-1]
    r.save()
    back, problem = Game.resume(pm, path)
    assert problem is None and back.state == history[-2] and back.count == len(_PLAY) - 1
    while back.count:
        back.undo()
    assert back.state == pm.setup(opts) and pm.turn(back.state) == -1
    try:
        back.undo()
        assert False, "undid past the start"
    except RuleError as e:
        assert str(e) == "Nothing to undo"

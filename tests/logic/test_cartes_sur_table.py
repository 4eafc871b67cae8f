"""Cartes sur Table: setup, the rulebook's flow for 3, 5 and 7 players, ties, round 4, the end,
the secret ballot, refusals, and whole games through the journal (resume and undo)."""

import json

import support
from tablemate import lifecycle
from tablemate.rules import cartes_sur_table as cst
from tablemate.store.game import Game

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus"]
# The refusal during a tie (the 23-character "Patient: settle the tie" broke the 21-character,
# one-screen-line contract).
SETTLE = "Patient: settle tie"


def _refused(state, action, message):
    support.refused(cst, state, action, message)


def _setup_refused(opts, message):
    support.setup_refused(cst, opts, message)


def _names(n):
    return NAMES[:n]


def _new(n=5, secret=False, first=0, known=False):
    return cst.setup({"names": _names(n), "secret": secret, "known": known, "first": first})




def _cast(state, votes):
    """Enter one Patient's votes (seat order) in either ballot; no tie-break."""
    if cst.secret(state):
        for p in range(len(votes)):
            cst.apply(state, ["seal", p, 100 + p])
        cst.apply(state, ["reveal", list(votes)])
    else:
        for p in range(len(votes)):
            cst.apply(state, ["vote", p, votes[p]])


def _expected(votes, pick=None):
    """(card, voters) the rulebook gives: the most-voted card, or the Patient's pick of a tie."""
    counts = {}
    for v in votes:
        counts[v] = counts.get(v, 0) + 1
    best = max(counts.values())
    top = sorted([c for c in counts if counts[c] == best])
    card = top[0] if len(top) == 1 else pick
    return card, [p for p in range(len(votes)) if votes[p] == card], top


# --- setup ---------------------------------------------------------------------------------

def test_setup_3_to_7_players():
    for n in range(3, 8):
        s = _new(n)
        assert cst.names(s) == _names(n) and cst.scores(s) == [0] * n
        assert cst.round_no(s) == 1 and cst.patient(s) == 0 and cst.patients_done(s) == 0
        assert cst.cards(s) == n - 1 and cst.tally(s) == [0] * (n - 1)
        assert cst.votes(s) == [None] * n and cst.sealed(s) == [False] * n
        assert cst.tie(s) == [] and cst.last(s) is None and cst.result(s) is None
        assert cst.turn(s) == 0 and not cst.secret(s) and not cst.known(s)
        assert [cst.kept(s, p) for p in range(n)] == [[]] * n
        assert json.loads(json.dumps(s)) == s


def test_setup_refuses_2_and_8_players():
    _setup_refused({"names": _names(2)}, "Need 3-7 players")
    _setup_refused({"names": _names(7) + ["Hal"]}, "Need 3-7 players")
    _setup_refused({"names": []}, "Need 3-7 players")
    _setup_refused({}, "Need 3-7 players")
    _setup_refused({"names": "AnnBobCid"}, "Need 3-7 players")
    _setup_refused(["Ann", "Bob", "Cid"], "Bad options")
    _setup_refused({"names": ["Ann", "", "Cid"]}, "Bad player name")
    _setup_refused({"names": ["Ann", 7, "Cid"]}, "Bad player name")


def test_setup_options_validated():
    s = cst.setup({"names": _names(4), "secret": True, "known": True, "first": 3})
    assert cst.secret(s) and cst.known(s) and cst.patient(s) == 3 and cst.turn(s) == 0
    s = cst.setup({"names": _names(3)})  # defaults: open ballot, basic dealing, seat 0 first
    assert not cst.secret(s) and not cst.known(s) and cst.patient(s) == 0
    for bad in (1, 0, "yes", None, [True]):
        _setup_refused({"names": _names(5), "secret": bad}, "Bad option secret")
        _setup_refused({"names": _names(5), "known": bad}, "Bad option known")
    for bad in (5, -1, 99, True, "1", 1.0, None):
        _setup_refused({"names": _names(5), "first": bad}, "Bad option first")
    for first in range(5):
        assert cst.patient(_new(5, first=first)) == first


def test_known_variant_changes_no_scoring():
    a, b = _new(4, known=False), _new(4, known=True)
    for votes in ([1, 1, 2, 3], [3, 3, 3, 1], [2, 2, 1, 1]):
        _cast(a, votes)
        _cast(b, votes)
    cst.apply(a, ["tiebreak", 1])
    cst.apply(b, ["tiebreak", 1])
    b["known"] = False
    assert a == b


# --- the flow of a round -------------------------------------------------------------------

def test_rulebook_flow_3_players_by_hand():
    s = _new(3)
    plays = [  # (round, patient, votes, tie-break or None, points after)
        (1, 0, [1, 1, 2], None, [1, 1, 0]),
        (1, 1, [2, 2, 2], None, [2, 2, 1]),
        (1, 2, [1, 2, 1], None, [3, 2, 2]),
        (2, 0, [2, 1, 2], None, [4, 2, 3]),
        (2, 1, [1, 1, 1], None, [5, 3, 4]),
        (2, 2, [2, 2, 1], None, [6, 4, 4]),
        (3, 0, [1, 2, 2], None, [6, 5, 5]),
        (3, 1, [1, 1, 2], None, [7, 6, 5]),
        (3, 2, [2, 1, 1], None, [7, 7, 6]),
        (4, 0, [3, 3, 1], None, [9, 9, 6]),
        (4, 1, [1, 2, 3], 3, [9, 9, 8]),
        (4, 2, [2, 1, 2], None, [11, 9, 10]),
    ]
    for rnd, pat, votes, pick, after in plays:
        assert cst.round_no(s) == rnd and cst.patient(s) == pat and cst.turn(s) == 0
        assert cst.cards(s) == (3 if rnd == 4 else 2)
        _cast(s, votes)
        if pick is not None:
            assert cst.tie(s) == [1, 2, 3] and cst.turn(s) == pat and cst.result(s) is None
            cst.apply(s, ["tiebreak", pick])
        assert cst.scores(s) == after, (rnd, pat, cst.scores(s))
        last = cst.last(s)
        assert last["round"] == rnd and last["patient"] == pat and last["votes"] == votes
        assert last["worth"] == (2 if rnd == 4 else 1)
    assert [cst.kept(s, p) for p in range(3)] == [[1, 2, 2], [2, 1, 1], [1, 2, 1]]
    assert cst.result(s) == [0] and cst.turn(s) == -1 and cst.patient(s) == -1
    assert cst.summary(s) == {"names": _names(3), "scores": [11, 9, 10], "winners": [0],
                              "rounds": 4, "secret": False}


def test_number_cards_per_round():
    for n in (3, 4, 5, 6, 7):
        s = _new(n)
        for rnd in (1, 2, 3, 4):
            for k in range(n):
                assert cst.round_no(s) == rnd
                assert cst.cards(s) == (3 if rnd == 4 else n - 1), (n, rnd)
                assert len(cst.tally(s)) == cst.cards(s)
                _cast(s, [1] * n)
        assert cst.result(s) == list(range(n))


def test_every_player_votes_and_the_patients_vote_counts():
    s = _new(5, first=0)
    # Without the Patient's vote cards 1 and 2 tie 2-2; Ann's own vote for card 1 decides.
    for p, card in ((1, 2), (2, 2), (3, 1), (4, 1)):
        cst.apply(s, ["vote", p, card])
        assert cst.last(s) is None  # not settled until every player (the Patient too) voted
    assert cst.turn(s) == 0 and cst.tally(s) == [2, 2, 0, 0]
    cst.apply(s, ["vote", 0, 1])
    last = cst.last(s)
    assert last["card"] == 1 and last["scored"] == [0, 3, 4] and last["tie"] == []
    assert cst.scores(s) == [1, 0, 0, 1, 1] and cst.kept(s, 0) == [1]
    assert cst.patient(s) == 1 and cst.votes(s) == [None] * 5


def test_votes_in_any_order_and_turn():
    s = _new(4)
    cst.apply(s, ["vote", 2, 3])
    assert cst.turn(s) == 0 and cst.votes(s) == [None, None, 3, None]
    cst.apply(s, ["vote", 0, 3])
    assert cst.turn(s) == 1 and cst.tally(s) == [0, 0, 2]
    cst.apply(s, ["vote", 3, 1])
    cst.apply(s, ["vote", 1, 2])
    assert cst.last(s)["card"] == 3 and cst.scores(s) == [1, 0, 1, 0]


def test_a_tie_is_settled_by_the_patient():
    s = _new(5, first=2)
    _cast(s, [1, 1, 2, 2, 3])
    assert cst.tie(s) == [1, 2] and cst.turn(s) == 2 and cst.last(s) is None
    assert cst.tally(s) == [2, 2, 1, 0] and cst.scores(s) == [0] * 5
    _refused(s, ["tiebreak", 3], "Card 3 was not tied")
    _refused(s, ["tiebreak", 4], "Card 4 was not tied")
    _refused(s, ["tiebreak", 9], "Card 9 was not tied")
    _refused(s, ["tiebreak", True], "Bad card")
    _refused(s, ["tiebreak", "1"], "Bad card")
    _refused(s, ["tiebreak"], "Bad action")
    _refused(s, ["vote", 0, 1], SETTLE)
    _refused(s, ["vote", 4, 2], SETTLE)
    _refused(s, ["patient", 3], SETTLE)
    _refused(s, ["seal", 0, 1], SETTLE)
    _refused(s, ["reveal", [1, 1, 1, 1, 1]], SETTLE)
    cst.apply(s, ["tiebreak", 2])
    last = cst.last(s)
    assert last["card"] == 2 and last["tie"] == [1, 2] and last["scored"] == [2, 3]
    assert last["patient"] == 2 and last["votes"] == [1, 1, 2, 2, 3]
    assert cst.scores(s) == [0, 0, 1, 1, 0] and cst.kept(s, 2) == [2]
    assert cst.tie(s) == [] and cst.patient(s) == 3 and cst.turn(s) == 0
    _refused(s, ["tiebreak", 1], "No tie to settle")


def test_a_three_way_tie_and_the_patient_picking_a_card_nobody_else_chose():
    s = _new(7)
    _cast(s, [1, 2, 3, 1, 2, 3, 6])
    assert cst.tie(s) == [1, 2, 3]
    _refused(s, ["tiebreak", 6], "Card 6 was not tied")
    cst.apply(s, ["tiebreak", 3])
    assert cst.scores(s) == [0, 0, 1, 0, 0, 1, 0] and cst.kept(s, 0) == [3]


def test_every_player_is_the_patient_once_per_round_in_seat_order():
    for n, first in ((3, 0), (5, 2), (7, 6)):
        s = _new(n, first=first)
        for rnd in (1, 2, 3, 4):
            seen = []
            for k in range(n):
                assert cst.patients_done(s) == k
                assert cst.patient(s) == (first + k) % n, (n, rnd, k)
                if k:
                    assert cst.next_patient(s) == cst.patient(s)
                seen.append(cst.patient(s))
                _cast(s, [1] * n)
            assert sorted(seen) == list(range(n))
        assert cst.result(s) is not None


def test_choosing_another_patient():
    s = _new(5)
    cst.apply(s, ["patient", 3])  # before any vote, any player not yet Patient this round
    assert cst.patient(s) == 3
    cst.apply(s, ["patient", 3])
    cst.apply(s, ["vote", 0, 2])
    _refused(s, ["patient", 1], "Votes already cast")
    _refused(s, ["patient", 3], "Votes already cast")
    for p in range(1, 5):
        cst.apply(s, ["vote", p, 2])
    assert cst.last(s)["patient"] == 3 and cst.kept(s, 3) == [2] and cst.kept(s, 0) == []
    assert cst.patient(s) == 4 and cst.next_patient(s) == 4  # seat order, on from Dee
    _refused(s, ["patient", 3], "Already the Patient")
    _refused(s, ["patient", 5], "No such player")
    _refused(s, ["patient", -1], "No such player")
    _refused(s, ["patient", True], "No such player")
    _refused(s, ["patient", "Ann"], "No such player")
    cst.apply(s, ["patient", 1])
    _cast(s, [1] * 5)
    assert cst.patient(s) == 2  # on from Bob in seat order: Cid
    order = [3, 1]
    while cst.round_no(s) == 1:
        order.append(cst.patient(s))
        _cast(s, [1] * 5)
    assert sorted(order) == [0, 1, 2, 3, 4]
    assert cst.patients_done(s) == 0 and cst.kept(s, 1) == [1]


def test_choosing_the_patient_in_a_secret_ballot():
    s = _new(4, secret=True)
    cst.apply(s, ["patient", 2])
    cst.apply(s, ["seal", 1, 77])
    _refused(s, ["patient", 0], "Votes already cast")
    assert cst.patient(s) == 2


# --- round 4 and the end ------------------------------------------------------------------

def _to_round_4(n, secret=False):
    s = _new(n, secret)
    for k in range(3 * n):
        _cast(s, [1] * n)
    assert cst.round_no(s) == 4 and cst.scores(s) == [3 * n] * n and cst.cards(s) == 3
    return s


def test_round_4_scores_2_per_voter_and_keeps_nothing():
    s = _to_round_4(5)
    kept = [list(cst.kept(s, p)) for p in range(5)]
    assert kept == [[1, 1, 1]] * 5
    _refused(s, ["vote", 0, 4], "No card 4")
    _cast(s, [3, 3, 1, 2, 3])
    last = cst.last(s)
    assert last["worth"] == 2 and last["card"] == 3 and last["cards"] == 3
    assert last["scored"] == [0, 1, 4] and cst.scores(s) == [17, 17, 15, 15, 17]
    _cast(s, [1, 2, 1, 2, 3])  # a tie in round 4: the Patient (Bob) settles it as before
    assert cst.tie(s) == [1, 2]
    cst.apply(s, ["tiebreak", 1])
    assert cst.scores(s) == [19, 17, 17, 15, 17]
    assert [cst.kept(s, p) for p in range(5)] == kept


def test_the_end_most_points_win():
    s = _to_round_4(3)
    _cast(s, [1, 1, 2])
    _cast(s, [3, 3, 3])
    assert cst.result(s) is None
    _cast(s, [2, 2, 2])
    assert cst.scores(s) == [15, 15, 13] and cst.result(s) == [0, 1]  # a shared win
    assert cst.summary(s)["winners"] == [0, 1]
    assert cst.turn(s) == -1 and cst.patient(s) == -1


def test_a_single_winner_and_a_shared_win_of_all():
    s = _to_round_4(4)
    for votes in ([1, 1, 1, 2], [1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3]):
        _cast(s, votes)
    assert cst.scores(s) == [20, 20, 20, 18] and cst.result(s) == [0, 1, 2]
    s = _to_round_4(6)
    for k in range(6):
        _cast(s, [2] * 6)
    assert cst.result(s) == [0, 1, 2, 3, 4, 5] and cst.scores(s) == [30] * 6


def test_anything_after_the_end_is_refused():
    s = _to_round_4(3)
    for k in range(3):
        _cast(s, [1, 2, 2])
    assert cst.result(s) == [1, 2]
    for action in (["vote", 0, 1], ["patient", 0], ["tiebreak", 1], ["seal", 0, 1],
                   ["reveal", [1, 1, 1]], ["vote", 9, 9], ["undo"], []):
        _refused(s, action, "Game is over")
    s = _to_round_4(3, secret=True)
    for k in range(3):
        _cast(s, [3, 3, 2])
    _refused(s, ["seal", 0, 5], "Game is over")
    _refused(s, ["reveal", [1, 1, 1]], "Game is over")


# --- the secret ballot --------------------------------------------------------------------

def test_secret_ballot_keeps_the_votes_out_of_the_state():
    s = _new(5, secret=True)
    for p in (3, 0, 1):
        cst.apply(s, ["seal", p, 4000 + p])
    assert cst.votes(s) == [None] * 5 and s["votes"] == [None] * 5
    assert cst.tally(s) == [0, 0, 0, 0] and cst.sealed(s) == [True, True, False, True, False]
    assert cst.turn(s) == 2
    _refused(s, ["reveal", [1, 1, 2, 3, 4]], "Votes still missing")
    cst.apply(s, ["seal", 2, 4002])
    _refused(s, ["reveal", [1, 1, 2, 3, 4]], "Votes still missing")
    cst.apply(s, ["seal", 4, 4004])
    assert cst.turn(s) == -1 and cst.votes(s) == [None] * 5 and cst.tally(s) == [0] * 4
    assert cst.last(s) is None and cst.scores(s) == [0] * 5
    _refused(s, ["reveal", [1, 1, 2, 3]], "Bad votes")
    _refused(s, ["reveal", [1, 1, 2, 3, 4, 4]], "Bad votes")
    _refused(s, ["reveal", 1], "Bad votes")
    _refused(s, ["reveal", [1, 1, 2, 3, 5]], "No card 5")
    _refused(s, ["reveal", [1, 0, 2, 3, 4]], "No card 0")
    _refused(s, ["reveal", [1, None, 2, 3, 4]], "Bad card")
    cst.apply(s, ["reveal", [4, 4, 2, 3, 4]])
    last = cst.last(s)
    assert last["card"] == 4 and last["scored"] == [0, 1, 4] and last["votes"] == [4, 4, 2, 3, 4]
    assert cst.scores(s) == [1, 1, 0, 0, 1] and cst.kept(s, 0) == [4]
    assert cst.sealed(s) == [False] * 5 and cst.votes(s) == [None] * 5 and cst.patient(s) == 1


def test_a_second_seal_replaces_the_first():
    s = _new(3, secret=True)
    cst.apply(s, ["seal", 1, 11])
    cst.apply(s, ["seal", 1, 12])  # Bob changed his vote
    assert s["sealed"] == [None, 12, None] and cst.sealed(s) == [False, True, False]
    cst.apply(s, ["seal", 0, 5])
    cst.apply(s, ["seal", 2, 5])
    cst.apply(s, ["seal", 0, 6])
    assert s["sealed"] == [6, 12, 5] and cst.votes(s) == [None] * 3
    _refused(s, ["seal", 0, "2"], "Bad vote")
    _refused(s, ["seal", 0, None], "Bad vote")
    _refused(s, ["seal", 0, True], "Bad vote")
    _refused(s, ["seal", 3, 1], "No such player")
    cst.apply(s, ["reveal", [2, 2, 1]])
    assert cst.scores(s) == [1, 1, 0]


def test_secret_and_open_ballot_actions_do_not_mix():
    s = _new(4, secret=True)
    _refused(s, ["vote", 0, 1], "Secret ballot")
    cst.apply(s, ["seal", 0, 3])
    _refused(s, ["vote", 1, 1], "Secret ballot")
    o = _new(4)
    _refused(o, ["seal", 0, 1], "Open ballot")
    _refused(o, ["reveal", [1, 1, 1, 1]], "Open ballot")
    cst.apply(o, ["vote", 0, 1])
    _refused(o, ["seal", 1, 1], "Open ballot")
    _refused(o, ["reveal", [1, 1, 1, 1]], "Open ballot")


def test_a_secret_tie_is_settled_by_the_patient():
    s = _new(4, secret=True, first=1)
    _cast(s, [1, 3, 3, 1])
    assert cst.tie(s) == [1, 3] and cst.turn(s) == 1 and cst.tally(s) == [2, 0, 2]
    _refused(s, ["seal", 0, 1], SETTLE)
    _refused(s, ["tiebreak", 2], "Card 2 was not tied")
    cst.apply(s, ["tiebreak", 1])
    assert cst.scores(s) == [1, 0, 0, 1] and cst.kept(s, 1) == [1] and cst.patient(s) == 2


# --- bad input ------------------------------------------------------------------------------

def test_bad_votes_are_refused_with_the_state_untouched():
    s = _new(5)
    _refused(s, ["vote", 0, 5], "No card 5")
    _refused(s, ["vote", 0, 0], "No card 0")
    _refused(s, ["vote", 0, -2], "No card -2")
    _refused(s, ["vote", 0, True], "Bad card")
    _refused(s, ["vote", 0, "1"], "Bad card")
    _refused(s, ["vote", 0, 1.0], "Bad card")
    _refused(s, ["vote", 5, 1], "No such player")
    _refused(s, ["vote", -1, 1], "No such player")
    _refused(s, ["vote", None, 1], "No such player")
    cst.apply(s, ["vote", 0, 2])
    _refused(s, ["vote", 0, 2], "Ann has voted")
    _refused(s, ["vote", 0, 3], "Ann has voted")
    cst.apply(s, ["vote", 2, 1])
    _refused(s, ["vote", 2, 1], "Cid has voted")
    s7 = _new(7)
    _refused(s7, ["vote", 6, 7], "No card 7")
    cst.apply(s7, ["vote", 6, 6])
    _refused(s7, ["vote", 6, 1], "Gus has voted")
    s3 = _new(3)
    _refused(s3, ["vote", 1, 3], "No card 3")  # 3 players: cards 1 and 2 in rounds 1-3


def test_bad_actions_are_refused():
    s = _new(3)
    _refused(s, [], "Bad action")
    _refused(s, "vote", "Bad action")
    _refused(s, None, "Bad action")
    _refused(s, [1, 0, 1], "Bad action")
    _refused(s, ["fold", 0], "Unknown action")
    _refused(s, ["undo"], "Unknown action")
    _refused(s, ["vote", 0], "Bad action")
    _refused(s, ["vote", 0, 1, 1], "Bad action")
    _refused(s, ["patient"], "Bad action")
    _refused(s, ["tiebreak", 1], "No tie to settle")
    _refused(s, ["reveal", [1, 1, 1]], "Open ballot")


# --- whole games through the journal --------------------------------------------------------

def _votes_for(rng, n, m, patient):
    """Votes for one Patient: mostly a favourite card, some spread, now and then a tie."""
    fav = 1 + rng.below(m)
    if m >= 3 and rng.below(5) == 0:  # a tie made on purpose: a, b, a, b, ... (and c)
        a, b = fav, fav % m + 1
        out = [(a, b)[p % 2] for p in range(n)]
        if n % 2:
            out[patient] = b % m + 1
        return out
    out = []
    for p in range(n):
        out.append(fav if rng.below(3) else 1 + rng.below(m))
    return out


def _play(name, n, secret, seed, first=0):
    """Play a whole game through Game with the journal, checking resume and undo on the way;
    return (game, path, ties)."""
    path = support.scratch_dir(name) + "/game.jnl"
    g = Game.new(cst, path, {"names": _names(n), "secret": secret, "known": False,
                             "first": first})
    rng = support.Lcg(seed)
    points = [0] * n
    ties = 0
    undone = 0
    actions = 0
    while cst.result(g.state) is None:
        s = g.state
        rnd, pat, m = cst.round_no(s), cst.patient(s), cst.cards(s)
        assert m == (3 if rnd == 4 else n - 1)
        assert pat == (first + cst.patients_done(s)) % n  # the proposed seat order
        votes = _votes_for(rng, n, m, pat)
        card, voters, top = _expected(votes, None)
        if secret:
            for p in range(n):
                g.do(["seal", p, 1000 + rng.below(9000)])
                actions += 1
            assert cst.votes(g.state) == [None] * n and cst.tally(g.state) == [0] * m
            if rng.below(3) == 0:  # a changed vote: a second seal
                g.do(["seal", rng.below(n), 7])
                actions += 1
            g.save()
            r, problem = Game.resume(cst, path)  # a resumed secret ballot still hides them
            assert problem is None and r.state == g.state and r.count == g.count
            assert cst.votes(r.state) == [None] * n and cst.sealed(r.state) == [True] * n
            before = json.loads(json.dumps(g.state))
            g.do(["reveal", votes])
        else:
            for p in range(n - 1):
                g.do(["vote", p, votes[p]])
                actions += 1
            before = json.loads(json.dumps(g.state))
            g.do(["vote", n - 1, votes[n - 1]])
        actions += 1
        if len(top) > 1:
            ties += 1
            assert cst.tie(g.state) == top and cst.turn(g.state) == pat
            card = top[rng.below(len(top))]
            voters = [p for p in range(n) if votes[p] == card]
            tied = json.loads(json.dumps(g.state))
            g.do(["tiebreak", card])
            actions += 1
            if ties % 2:
                g.undo()  # the tie-break taken back: the tie is open again
                assert g.state == tied
                g.do(["tiebreak", card])
                undone += 1
        else:
            assert cst.tie(g.state) == []
        after = json.loads(json.dumps(g.state))
        if rng.below(4) == 0:  # take back the action that settled the Patient, then again
            while g.state != before:
                g.undo()
                undone += 1
            assert cst.votes(g.state) == before["votes"] and cst.last(g.state) == before["last"]
            assert cst.scores(g.state) == points and cst.patient(g.state) == pat
            if secret:
                assert cst.sealed(g.state) == [True] * n and cst.votes(g.state) == [None] * n
            else:
                assert cst.votes(g.state)[:n - 1] == votes[:n - 1]
                assert cst.votes(g.state)[n - 1] is None and cst.turn(g.state) == n - 1
            g.do(["reveal", votes] if secret else ["vote", n - 1, votes[n - 1]])
            if len(top) > 1:
                g.do(["tiebreak", card])
            assert g.state == after
        w = 2 if rnd == 4 else 1
        for p in voters:
            points[p] += w
        last = cst.last(g.state)
        assert last["card"] == card and last["scored"] == voters and last["worth"] == w
        assert last["patient"] == pat and last["round"] == rnd and last["votes"] == votes
        assert cst.scores(g.state) == points
        if rnd < 4:
            assert cst.kept(g.state, pat)[-1] == card
        if rng.below(5) == 0:
            g.save()
            r, problem = Game.resume(cst, path)
            assert problem is None and r.state == g.state and r.count == g.count
    assert g.count == actions
    best = max(points)
    assert cst.result(g.state) == [p for p in range(n) if points[p] == best]
    assert [len(cst.kept(g.state, p)) for p in range(n)] == [3] * n
    g.save()
    r, problem = Game.resume(lifecycle.rules, path)
    assert problem is None and r.rules is cst and r.state == g.state and r.count == g.count
    lines = support.journal_lines(path)
    assert lines[0]["game"] == "cartes_sur_table" and lines[0]["opts"]["secret"] == secret
    assert len(lines) == 1 + actions + 2 * undone
    if secret:
        assert not [a for a in lines[1:] if a[0] == "vote"]
    else:
        assert not [a for a in lines[1:] if a[0] in ("seal", "reveal")]
    return g, path, ties


def _end_undo(g, path):
    """The last action ends the game; undoing it reopens the game, and the journal agrees."""
    over = json.loads(json.dumps(g.state))
    g.undo()
    assert cst.result(g.state) is None and cst.round_no(g.state) == 4
    if cst.tie(g.state):  # the last action was a tie-break: the tie is open again
        assert cst.turn(g.state) == cst.patient(g.state) != -1
    else:
        assert cst.turn(g.state) == (-1 if cst.secret(g.state) else len(cst.names(g.state)) - 1)
        assert cst.votes(g.state)[-1] is None and cst.patient(g.state) != -1
    g.save()
    r, problem = Game.resume(cst, path)
    assert problem is None and r.state == g.state
    last = support.journal_lines(path)[-1]
    assert last == ["undo"]
    return over


def test_whole_game_3_players_open():
    g, path, ties = _play("cst-3-open", 3, False, 7)
    over = _end_undo(g, path)
    assert cst.round_no(over) == 4


def test_whole_game_3_players_secret():
    g, path, ties = _play("cst-3-secret", 3, True, 8, first=1)
    _end_undo(g, path)


def test_whole_game_5_players_open():
    g, path, ties = _play("cst-5-open", 5, False, 11, first=2)
    assert ties > 0
    _end_undo(g, path)


def test_whole_game_5_players_secret():
    g, path, ties = _play("cst-5-secret", 5, True, 12)
    assert ties > 0
    _end_undo(g, path)


def test_whole_game_7_players_open():
    g, path, ties = _play("cst-7-open", 7, False, 21, first=6)
    assert ties > 0
    _end_undo(g, path)


def test_whole_game_7_players_secret():
    g, path, ties = _play("cst-7-secret", 7, True, 22, first=3)
    assert ties > 0
    _end_undo(g, path)


def test_undo_the_vote_that_settled_a_patient():
    path = support.scratch_dir("cst-undo") + "/game.jnl"
    g = Game.new(cst, path, {"names": _names(4)})
    for p, card in ((0, 1), (1, 1), (2, 3)):
        g.do(["vote", p, card])
    mid = json.loads(json.dumps(g.state))
    g.do(["vote", 3, 2])  # settles Ann: card 1, Ann and Bob score
    assert cst.patient(g.state) == 1 and cst.scores(g.state) == [1, 1, 0, 0]
    g.save()
    g.undo()
    assert g.state == mid and cst.votes(g.state) == [1, 1, 3, None] and cst.turn(g.state) == 3
    assert cst.scores(g.state) == [0] * 4 and cst.kept(g.state, 0) == [] and cst.patient(g.state) == 0
    assert cst.last(g.state) is None and cst.tally(g.state) == [2, 0, 1]
    g.do(["vote", 3, 3])  # Dee votes again: now a tie
    assert cst.tie(g.state) == [1, 3]
    g.save()
    r, problem = Game.resume(cst, path)
    assert problem is None and r.state == g.state and r.count == 4
    assert support.journal_lines(path)[1:] == [["vote", 0, 1], ["vote", 1, 1], ["vote", 2, 3],
                                               ["vote", 3, 2], ["undo"], ["vote", 3, 3]]
    r.undo()
    assert r.state == mid


def test_undo_a_reveal_hides_the_votes_again():
    path = support.scratch_dir("cst-undo-secret") + "/game.jnl"
    g = Game.new(cst, path, {"names": _names(3), "secret": True})
    for p in range(3):
        g.do(["seal", p, 50 + p])
    sealed = json.loads(json.dumps(g.state))
    g.do(["reveal", [2, 2, 1]])
    assert cst.scores(g.state) == [1, 1, 0]
    g.undo()
    assert g.state == sealed and cst.votes(g.state) == [None] * 3 and cst.tally(g.state) == [0, 0]
    g.undo()
    assert cst.sealed(g.state) == [True, True, False]
    g.do(["seal", 2, 99])
    g.do(["reveal", [1, 1, 1]])
    g.save()
    r, problem = Game.resume(cst, path)
    assert problem is None and r.state == g.state and cst.scores(r.state) == [1, 1, 1]
    assert support.journal_lines(path)[1:4] == [["seal", 0, 50], ["seal", 1, 51], ["seal", 2, 52]]

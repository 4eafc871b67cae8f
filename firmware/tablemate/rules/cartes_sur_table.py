"""Cartes sur Table: four rounds of Patients and votes; the most-voted card scores its voters.

The device takes every vote, finds the most-voted card, lets the Patient settle a tie, scores
and ranks. The published Cartes sur Table Rulebook is the spec; docs/rules/
cartes-sur-table.md has the readings of its gaps.

State (plain JSON data):
  names, secret, known  from the options: the players (3-7), a secret ballot, the variant for
                        players who know each other briefly (it only changes the dealing)
  round                 1-4; each round every player is the Patient once
  patient, done         the Patient being voted on; the seats that were Patient this round
  votes                 this Patient's votes by seat (a card number, or None); in a secret
                        ballot None until the reveal
  sealed                in a secret ballot, per seat the token of the vote cast (the vote
                        itself is kept off the journal until the reveal: see ``seal``)
  tie                   the tied cards while the Patient must settle a tie, else []
  points, kept          per player: points, and the cards they kept as Patient (rounds 1-3)
  last                  the last settled vote: {"round", "patient", "card", "cards" (how many
                        were voted on), "votes", "scored", "worth", "tie"}, or None
  over, winners
Actions:
  ["patient", p]        the next Patient is p (before any vote; the device proposes seat order)
  ["vote", p, card]     p's vote in an open ballot (once: a changed vote is an undo)
  ["seal", p, token]    p voted in a secret ballot (again: p changed their vote); the token is
                        the screen's, and says nothing of the vote
  ["reveal", votes]     a secret ballot's votes, all at once, in seat order
  ["tiebreak", card]    the Patient picks one of the tied cards
"""

from micropython import const

from tablemate import FLAG, RuleError, action_kind

ROUNDS = const(4)
LAST_CARDS = const(3)  # the cards the Patient shows in the last round
_ARITY = {"patient": 2, "vote": 3, "seal": 3, "reveal": 2, "tiebreak": 2}
PLAYERS = (3, 7, 5)
OPTIONS = (("secret", "Secret ballot", FLAG, False, None),
           ("known", "Just met", FLAG, False, None))


def setup(opts):
    """Opening state for {"names": [3..7 str], "secret": bool, "known": bool, "first": seat}:
    the first Patient is ``first`` (default 0)."""
    from tablemate.options import check  # at setup only: a game lets the module go
    o = check(opts, PLAYERS, OPTIONS)
    names, first = o["names"], o["first"]
    n = len(names)
    return {"names": names, "secret": o["secret"], "known": o["known"],
            "round": 1, "patient": first, "done": [], "votes": [None] * n, "sealed": [None] * n,
            "tie": [], "points": [0] * n, "kept": [[] for _ in names], "last": None,
            "over": False, "winners": []}


def cards(state):
    """How many cards are voted on: one fewer than the players, three in the last round."""
    return LAST_CARDS if state["round"] == ROUNDS else len(state["names"]) - 1


def apply(state, action):
    """Apply action to state in place, or raise RuleError and leave state untouched."""
    kind = action_kind(state, action, _ARITY)
    if kind == "tiebreak":
        if not state["tie"]:
            raise RuleError("No tie to settle")
        card = action[1]
        if card not in state["tie"] or type(card) is not int:
            raise RuleError("Card %d was not tied" % card if type(card) is int and 0 <= card < 100
                            else "Bad card")
        _settle(state, card)
        return
    if state["tie"]:
        raise RuleError("Patient: settle tie")
    if kind == "reveal":
        _reveal(state, action[1])
        return
    p = action[1]
    n = len(state["names"])
    if type(p) is not int or not 0 <= p < n:
        raise RuleError("No such player")
    if kind == "patient":
        if p in state["done"]:
            raise RuleError("Already the Patient")
        if _started(state):
            raise RuleError("Votes already cast")
        state["patient"] = p
    elif kind == "vote":
        if state["secret"]:
            raise RuleError("Secret ballot")
        card = _card(state, action[2])
        if state["votes"][p] is not None:
            raise RuleError(state["names"][p] + " has voted")
        state["votes"][p] = card
        if None not in state["votes"]:
            _count(state)
    else:  # seal
        if not state["secret"]:
            raise RuleError("Open ballot")
        token = action[2]
        if type(token) is not int:
            raise RuleError("Bad vote")
        state["sealed"][p] = token


def _started(state):
    return any(v is not None for v in state["votes"]) or any(
        t is not None for t in state["sealed"])


def _card(state, card):
    if type(card) is not int or not 1 <= card <= cards(state):
        raise RuleError("No card %d" % card if type(card) is int and -99 < card < 100
                        else "Bad card")
    return card


def _reveal(state, votes):
    if not state["secret"]:
        raise RuleError("Open ballot")
    if None in state["sealed"]:
        raise RuleError("Votes still missing")
    if not isinstance(votes, (list, tuple)) or len(votes) != len(state["names"]):
        raise RuleError("Bad votes")
    checked = [_card(state, v) for v in votes]
    state["votes"] = checked
    _count(state)


def tally(state):
    """Votes per card so far (index 0 is card 1); a secret ballot's count only after the reveal."""
    counts = [0] * cards(state)
    for v in state["votes"]:
        if v is not None:
            counts[v - 1] += 1
    return counts


def _count(state):
    """Every vote is in: the most-voted card scores, or the Patient settles a tie."""
    counts = tally(state)
    best = max(counts)
    top = [c + 1 for c in range(len(counts)) if counts[c] == best]
    if len(top) > 1:
        state["tie"] = top
        return
    _settle(state, top[0])


def _settle(state, card):
    """Score the voters of ``card``, the Patient keeps it, and the next Patient is up."""
    worth = 2 if state["round"] == ROUNDS else 1
    votes = state["votes"]
    scored = [p for p in range(len(votes)) if votes[p] == card]
    for p in scored:
        state["points"][p] += worth
    patient = state["patient"]
    if state["round"] < ROUNDS:
        state["kept"][patient].append(card)
    state["last"] = {"round": state["round"], "patient": patient, "card": card,
                     "cards": cards(state), "votes": list(votes), "scored": scored,
                     "worth": worth, "tie": list(state["tie"])}
    n = len(votes)
    state["tie"] = []
    state["votes"] = [None] * n
    state["sealed"] = [None] * n
    state["done"].append(patient)
    if len(state["done"]) == n:
        if state["round"] == ROUNDS:
            best = max(state["points"])
            state["winners"] = [p for p in range(n) if state["points"][p] == best]
            state["over"] = True
            return
        state["round"] += 1
        state["done"] = []
    state["patient"] = next_patient(state)


def next_patient(state):
    """The first seat after the last Patient, in seat order, not yet Patient this round (the
    first Patient before any)."""
    if state["last"] is None:
        return state["patient"]
    n = len(state["names"])
    done = state["done"]
    start = state["last"]["patient"]
    for k in range(1, n + 1):
        p = (start + k) % n
        if p not in done:
            return p
    return start


# -- queries --------------------------------------------------------------------------------------
def names(state):
    return state["names"]


def scores(state):
    return state["points"]


def round_no(state):
    return state["round"]


def patient(state):
    """The Patient being voted on (-1 once the game is over)."""
    return -1 if state["over"] else state["patient"]


def patients_done(state):
    """How many players were the Patient this round."""
    return len(state["done"])


def were_patient(state):
    """The seats that were the Patient this round, in turn."""
    return state["done"]


def turn(state):
    """The first player still to vote, or the Patient during a tie, or -1 (all in, or over)."""
    if state["over"]:
        return -1
    if state["tie"]:
        return state["patient"]
    got = state["sealed"] if state["secret"] else state["votes"]
    for p in range(len(got)):
        if got[p] is None:
            return p
    return -1


def votes(state):
    """The open votes so far (a secret ballot's are None until the reveal)."""
    return state["votes"]


def sealed(state):
    """Per seat, whether they cast their secret vote."""
    return [t is not None for t in state["sealed"]]


def tokens(state):
    """Per seat, the token of their sealed secret vote (the screen keeps the vote itself, by
    token, in RAM), or None."""
    return state["sealed"]


def secret(state):
    return state["secret"]


def known(state):
    """True in the variant for players who know each other briefly."""
    return state["known"]


def tie(state):
    """The tied cards the Patient must choose from, else []."""
    return state["tie"]


def kept(state, p):
    """The cards player p kept as Patient (their numbers in those rounds)."""
    return state["kept"][p]


def last(state):
    """The last settled Patient, or None: {"round", "patient", "card" (the one kept, 1-based),
    "cards" (how many were on offer), "votes" (each player's card, None for the Patient),
    "scored" (the seats that scored), "worth" (points each), "tie" (the tied cards the Patient
    chose from, [] without a tie)}."""
    return state["last"]


def result(state):
    """None while the game runs, else the winners (several: a shared win)."""
    return state["winners"] if state["over"] else None


def summary(state):
    return {"names": list(state["names"]), "scores": list(state["points"]),
            "winners": list(state["winners"]), "rounds": state["round"],
            "secret": state["secret"]}

"""Cartes sur Table on the phones: every player votes at once on their own phone.

Secret ballot: a phone's vote is exactly a vote sealed on the gadget (``screens.
cartes_sur_table``'s ``seal``): the journal gets a random token, the vote stays in the
gadget's RAM under it (``Game.secret``) until the gadget's "All votes in" reveals them all, the
same journaled action as with the buttons. A vote can be changed until then (sealed again). A
phone sees its own vote and nothing of the others': ``public`` says who voted, never what, and
``mine`` reads only the seat's own token. A vote cast on a phone never disturbs one being cast
on the gadget's picker at the same moment, nor the last result the gadget shows.

Open ballot: the votes are open, but still cast at the same time: a phone's vote is held
(``table.hold``) until every phone that is here has voted, then played as the buttons' "vote"
actions (the tally on the gadget would otherwise tell the players still choosing).

A tie: the Patient's phone picks one of the tied cards (or the gadget does).
"""

from tablemate import RuleError
from tablemate.phones.table import Refused
from tablemate.rules import cartes_sur_table as rules


def round_key(state):
    """A ballot is over when its Patient is settled: the settled count changes."""
    return (rules.round_no(state), rules.patients_done(state))


def pending(state):
    """The seats still to vote on this Patient (none during a tie: the Patient settles it)."""
    if rules.tie(state):
        return []
    got = rules.tokens(state) if rules.secret(state) else rules.votes(state)
    return [p for p in range(len(got)) if got[p] is None]


def covers(screen):
    """The count covers the gadget while it waits for a voter (not over a vote being cast on
    its picker, a tie or a result)."""
    from tablemate.screens.cartes_sur_table import PASS, VOTE  # .mpy: only with phones on
    return screen.view == PASS or screen.view == VOTE


def public(state):
    last = rules.last(state)
    return {"round": rules.round_no(state), "patient": rules.patient(state),
            "cards": rules.cards(state), "secret": rules.secret(state),
            "tie": rules.tie(state), "last": last}


def _vote(table, game, seat):
    """The seat's own vote so far: sealed in RAM, held, or (open ballot) played; else None."""
    state = game.state
    if rules.secret(state):
        token = rules.tokens(state)[seat]
        return game.secret.get(token) if token is not None else None
    held = table.held.get(seat)
    return held[2] if held else rules.votes(state)[seat]


def mine(table, game, seat):
    state = game.state
    out = {"vote": _vote(table, game, seat)}
    if rules.secret(state):
        token = rules.tokens(state)[seat]
        out["lost"] = token is not None and token not in game.secret  # a power cut took it
    out["can"] = ("tiebreak" if rules.tie(state) and rules.patient(state) == seat else
                  "wait" if rules.tie(state) else
                  "vote" if seat in pending(state) or rules.secret(state) else "wait")
    return out


def _card(request, state, choices):
    card = request.get("card")
    if type(card) is not int or card not in choices:
        raise Refused("No such card", 400)
    return card


def act(table, screen, seat, request):
    """{"do": "vote", "card": c} or, the Patient in a tie, {"do": "tiebreak", "card": c}."""
    state = screen.game.state
    what = request.get("do")
    if what == "tiebreak":
        if not rules.tie(state):
            raise RuleError("No tie to settle")
        if rules.patient(state) != seat:
            raise Refused("The Patient settles the tie")
        card = _card(request, state, rules.tie(state))
        if not screen.do(["tiebreak", card]):
            raise RuleError("Not taken: see gadget")
        return
    if what != "vote":
        raise Refused("Unknown request", 400)
    card = _card(request, state, range(1, rules.cards(state) + 1))
    if rules.tie(state):
        raise RuleError("Patient: settle tie")
    if not rules.secret(state):
        if rules.votes(state)[seat] is not None:
            raise RuleError(rules.names(state)[seat] + " has voted")
        table.hold(screen.game, seat, ["vote", seat, card])
        return
    _seal(screen, seat, card)


def _seal(screen, seat, card):
    """Seal ``seat``'s vote through the gadget's own ``seal``, leaving the gadget where it was
    when it shows the last result or another player's vote being cast on its picker."""
    # .mpy: only with phones on
    from tablemate.screens.cartes_sur_table import RESULT, SCORES, SECRET
    busy = screen.view in (RESULT, SCORES) or screen.view == SECRET and screen.voter != seat
    view, voter, cur = screen.view, screen.voter, screen.cur
    before = screen.game.count
    screen.seal(seat, card)
    if screen.game.count == before:
        raise RuleError("Not taken: see gadget")
    if busy:
        screen.view, screen.voter, screen.cur = view, voter, cur
        screen.dirty = True

"""Contrast on the phones: every player picks their symbol at once on their own phone.

The rulebook's players lay their cards face down and turn them over together. So a phone's
pick is held (``table.hold``, RAM only) until every phone that is here has picked, then played
through the game screen as the buttons' ``["pick", seat, symbol]`` actions, in the rules' seat
order: the gadget's tally never shows a pick to a player still choosing. A seat without a phone
(or whose phone left) is entered or skipped on the gadget when its turn comes, as always; the
held picks after it follow. A phone offers the symbols of the cards the gadget knows are in
the player's hand (``rules.unavailable``: the others are marked, and a second tap takes one, as
the gadget's second OK does: an earlier pick may have been entered wrong).
"""

from tablemate.phones.table import Refused
from tablemate.rules import contrast as rules


def round_key(state):
    return rules.round_no(state)


def pending(state):
    """The seats still to pick this round, in the order the rules take them."""
    t = rules.turn(state)
    if t < 0:
        return []
    n = len(rules.names(state))
    return [(t + k) % n for k in range(n - len(rules.picks(state)))]


def covers(screen):
    """The count covers the gadget's pick grid (not a round's result)."""
    from tablemate.screens.contrast import PICK  # .mpy: only with phones on
    return screen.view == PICK


def public(state):
    return {"round": rules.round_no(state), "deck": rules.deck(state), "box": rules.box(state),
            "coop": rules.coop(state), "piles": rules.piles(state), "last": rules.last(state)}


def mine(table, game, seat):
    state = game.state
    held = table.held.get(seat)
    waits = seat in pending(state)
    if waits:
        pick = held[2] if held else None
    else:  # entered this round (on the gadget, or played from this phone)
        picks = rules.picks(state)
        k = (seat - rules.first(state)) % len(rules.names(state))
        pick = picks[k] if k < len(picks) else None
    return {"pick": pick, "out": rules.unavailable(state, seat), "symbols": rules.SYMBOLS,
            "can": "pick" if waits else "wait"}


def act(table, screen, seat, request):
    """{"do": "pick", "symbol": s}: held until the round's phones are all in; picking again
    before that changes it."""
    state = screen.game.state
    if request.get("do") != "pick":
        raise Refused("Unknown request", 400)
    symbol = request.get("symbol")
    if symbol not in rules.SYMBOLS:
        raise Refused("No such symbol", 400)
    if seat not in pending(state):
        raise Refused("Your pick is in: the gadget's Undo takes it back")
    table.hold(screen.game, seat, ["pick", seat, symbol])

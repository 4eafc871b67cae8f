"""Viewpoint, the rarer part: cards from a catalog file (reading it, and the Reveal, Cancel and
every-player actions they bring) and the corrections.

The printed game needs none of it, so ``rules/viewpoint.py`` imports this module only when a
game carries a catalog file's cards or an action needs it (a Pico keeps the RAM otherwise: a
module's code lives in the heap). It is part of the same rules: pure, no I/O, the same state.
The card helpers it shares with the printed game (the catalog, the entry flags, the log) are
``rules/viewpoint.py``'s, handed in as ``v`` by whoever calls (``viewpoint`` passes itself): this
module imports nothing of it, so that neither module imports the other back.
"""

from tablemate import RuleError

THEN = ("discard", "hand", "view")  # where a revealed card goes once its actions are done
# A catalog file's action words: what the card's player does ("discard 2": make another player
# DISCARD 2) ...
WORDS = ("draw", "discard", "steal", "exchange", "take", "destroy", "swap", "recall", "miss",
         "mirror", "passleft", "passright")
# ... and after "all" or "others" (``WHO``), what each player does in turn, as the rules'
# action kind ("others discard 1": every other player DISCARDs 1 card of their own hand).
WHO = ("all", "others")  # every player, the card's first; every other, from the next one
EACH = {"draw": "draw", "discard": "drop", "passleft": "passleft", "passright": "passright",
        "steal": "steal", "exchange": "exchange", "take": "take", "destroy": "destroy",
        "swap": "swap", "recall": "recall", "miss": "miss"}
_KEYS = ("name", "value", "copies", "actions", "reveal", "then", "nodestroy", "cancel")


def check(v, extra):
    """Refuse a journal's catalog entries unless each is what the catalog file would give."""
    if not isinstance(extra, list) or len(extra) > 40:
        raise RuleError("Bad option cards")
    for e in extra:
        try:
            ok = isinstance(e, list) and len(e) == 7 and entry(v, _as_obj(v, e)) == e
        except RuleError:
            ok = False
        if not ok:
            raise RuleError("Bad option cards")


def _actions(items):
    """[[kind, n], ...] from a catalog file's ["draw 2", "swap", "all discard 1", ...] ([kind,
    n, "all"|"others"] for an action of every player), or None if malformed."""
    if not isinstance(items, list) or len(items) > 4:
        return None
    out = []
    for item in items:
        if not isinstance(item, str):
            return None
        words = item.split()
        who = words.pop(0) if words and words[0] in WHO else None
        if not words or len(words) > 2:
            return None
        kind = EACH.get(words[0]) if who else (words[0] if words[0] in WORDS else None)
        if kind is None:
            return None
        n = 1
        if len(words) == 2:
            if not words[1].isdigit() or not 1 <= int(words[1]) <= 9:
                return None
            n = int(words[1])
        out.append([kind, n, who] if who else [kind, n])
    return out


def entry(v, obj):
    """A catalog entry from one catalog file line's object, or raise RuleError (the reason)."""
    if not isinstance(obj, dict):
        raise RuleError("not a {...} object")
    for k in sorted(obj):  # the first unknown key by name: a dict's order is not the line's,
        # and differs between MicroPython and CPython
        if k not in _KEYS:
            raise RuleError("unknown key " + str(k)[:8])
    name = obj.get("name")
    if not isinstance(name, str) or not 1 <= len(name) <= 20 or not name.strip():
        raise RuleError("bad name")
    value = obj.get("value")
    if type(value) is not int or not -99 <= value <= 999:
        raise RuleError("bad value")
    copies = obj.get("copies", 1)
    if type(copies) is not int or not 0 <= copies <= 20:
        raise RuleError("bad copies")
    fx = _actions(obj.get("actions", []))
    if fx is None:
        raise RuleError("bad actions")
    flags = 0
    for key, bit in (("nodestroy", v.NODESTROY), ("cancel", v.CANCEL)):
        flag = obj.get(key, False)
        if type(flag) is not bool:
            raise RuleError("bad " + key)
        flags |= bit if flag else 0
    rfx = []
    if "reveal" in obj:
        rfx = _actions(obj["reveal"])
        if rfx is None:
            raise RuleError("bad reveal")
        flags |= v.REVEAL
    then = obj.get("then", "discard")
    if then not in THEN:
        raise RuleError("bad then")
    return [name, value, copies, fx, flags, rfx, then]


def parse(v, lines, loads):
    """(entries, problems) from a catalog file's lines: one JSON object per card, e.g.
    {"name": "Glimpse", "value": 5, "copies": 2, "actions": ["draw 1", "others discard 1"],
    "reveal": ["steal 1"], "then": "hand", "cancel": true}; blank lines and lines starting
    with # are skipped. A card named as a printed one replaces it. A bad line is left out and
    reported: "line 3: bad value".
    ``loads`` is json.loads (the rules do no I/O and import nothing they do not need)."""
    entries = []
    problems = []
    n = 0
    for line in lines:
        n += 1
        line = line.strip()
        if not line or line[0] == "#":
            continue
        try:
            obj = loads(line)
        except (ValueError, RuntimeError):  # RuntimeError: too deep for CPython's json
            problems.append("line %d: not JSON" % n)
            continue
        try:
            e = entry(v, obj)
        except RuleError as err:
            problems.append("line %d: %s" % (n, err))
            continue
        entries = [x for x in entries if x[0] != e[0]] + [e]
        if len(entries) > 40:
            problems.append("line %d: over 40 cards" % n)
            entries.pop()
    return entries, problems


def _as_obj(v, e):
    """An entry as the catalog file writes it (to check a journal's entries the same way)."""
    obj = {"name": e[0], "value": e[1], "copies": e[2],
           "actions": [_word(a) for a in e[3]] if isinstance(e[3], list) else None,
           "then": e[6], "nodestroy": bool(e[4] & v.NODESTROY) if type(e[4]) is int else None,
           "cancel": bool(e[4] & v.CANCEL) if type(e[4]) is int else None}
    if type(e[4]) is int and e[4] & v.REVEAL:
        obj["reveal"] = [_word(a) for a in e[5]] if isinstance(e[5], list) else None
    return obj


def _word(a):
    """An action as the catalog file writes it (None: not one ``_actions`` makes)."""
    if not isinstance(a, list) or not 2 <= len(a) <= 3:
        return None
    if len(a) == 2:
        return "%s %s" % (a[0], a[1])
    for word in EACH:
        if EACH[word] == a[0]:
            return "%s %s %s" % (a[2], word, a[1])
    return None


def reveal(v, state, q, c):
    e = v.catalog(state)[c]
    if not e[4] & v.REVEAL:
        raise RuleError("Not a Reveal card")
    v._from_hand(state, q, c)
    state["hand"][q] -= 1
    v._log(state, ["reveal", q, c])
    state["stack"].append({"by": q, "card": c, "self": c, "how": "reveal",
                           "fx": [list(a) for a in e[5]], "then": e[6], "began": False})


def cancel(v, state, q, c):
    if not v.catalog(state)[c][4] & v.CANCEL:
        raise RuleError("Cannot cancel")
    stack = state["stack"]
    if not stack or stack[-1]["how"] == "mirror":
        raise RuleError("Nothing to cancel")
    top = stack[-1]
    if top["began"]:
        raise RuleError("Too late to cancel")
    if top["how"] == "play" and top["self"] not in state["view"][top["by"]]:
        raise RuleError("That card was moved")  # a correction took it out of play first
    v._from_hand(state, q, c)
    state["hand"][q] -= 1
    state["discard"].append(c)
    stack.pop()
    if top["how"] == "play":
        v._take_out(state["view"][top["by"]], top["self"])
    state["discard"].append(top["self"])
    v._log(state, ["cancel", q, c, top["self"]])


def each(state, top):
    """An action of every player ("all": the card's player first) or every other player
    ("others": from the next one) becomes one action per player, clockwise, as the rulebook
    plays "actions affecting more than one player". A pass is worked out from the hands before
    any card moves: a card passed to a player is not passed on."""
    kind, n, who = top["fx"][0]
    hand = state["hand"]
    seats = len(hand)
    out = []
    for k in range(0 if who == "all" else 1, seats):
        q = (top["by"] + k) % seats
        out.append([kind, min(n, hand[q]) if kind[:4] == "pass" else n, q])
    top["fx"] = out + top["fx"][1:]


def hand_out(v, state, kind, n, q):
    """Seat ``q`` discards ``n`` cards from their hand ("drop") or passes them to the next
    player clockwise ("passleft") or the one before ("passright"), fewer if the hand is short."""
    hand = state["hand"]
    k = min(n, hand[q])
    hand[q] -= k
    if kind == "drop":
        state["gone"] += k
        v._log(state, ["drop", q, k])
    else:
        t = (q + (1 if kind == "passleft" else -1)) % len(hand)
        hand[t] += k
        v._log(state, ["give", q, t, k])


def cancellable(v, state):
    """True when a card that cancels could be played against the card whose actions are due
    (none of them performed yet)."""
    stack = state["stack"]
    return (bool(stack) and stack[-1]["how"] != "mirror" and not stack[-1]["began"]
            and bool(cancellers(v, state)))


def due_card(state):
    """The card whose actions are due (the one a cancel would take back), or None."""
    stack = state["stack"]
    return stack[-1]["self"] if stack else None


def cancellers(v, state):
    """The catalog's cards that cancel (none in the printed set)."""
    cat = v.catalog(state)
    return [c for c in range(len(cat)) if cat[c][4] & v.CANCEL and cat[c][2]]


def revealers(v, state):
    """The catalog's cards that can be revealed (none in the printed set)."""
    cat = v.catalog(state)
    return [c for c in range(len(cat)) if cat[c][4] & v.REVEAL and cat[c][2]]


def _place(state, where):
    """(list of cards or None, seat or None) for a place name of a ``move``."""
    if where == "pile":
        return None, None
    if where == "discard":
        return state["discard"], None
    if isinstance(where, str) and len(where) == 2 and where[0] in "vh" and where[1].isdigit():
        p = int(where[1])
        if p < len(state["names"]):
            return (state["view"][p] if where[0] == "v" else None), p
    raise RuleError("No such place")


def move(v, state, src, dst, c):
    """The correction: one card from ``src`` to ``dst`` (see the module notes)."""
    if c != -1:
        c = v._card(state, c)
    cards, p = _place(state, src)
    to, q = _place(state, dst)
    if src == dst:
        raise RuleError("Same place")
    if c == -1 and (src[0] == "v" or dst[0] == "v"):
        raise RuleError("Which card?")
    hand = state["hand"]
    if src[0] == "v" or (src == "discard" and c != -1):
        if c not in cards:
            raise RuleError("No %s there" % v.name(state, c)[:12])
    elif src == "discard":
        if not state["gone"]:
            raise RuleError("Discard pile empty")
    elif src == "pile":
        if not state["pile"]:
            raise RuleError("Draw pile empty")
    elif not hand[p]:
        raise RuleError(state["names"][p][:8] + ": no cards")
    if c != -1 and (src == "pile" or src[0] == "h") and v.unseen(state)[c] <= 0:
        raise RuleError("No %s left" % v.name(state, c)[:12])
    if src[0] == "v" or (src == "discard" and c != -1):
        v._take_out(cards, c)
    elif src == "discard":
        state["gone"] -= 1
    elif src == "pile":
        state["pile"] -= 1
    else:
        hand[p] -= 1
    if dst[0] == "v" or (dst == "discard" and c != -1):
        to.append(c)
    elif dst == "discard":
        state["gone"] += 1
    elif dst == "pile":
        state["pile"] += 1
    else:
        hand[q] += 1
    v._log(state, ["move", src, dst, c])

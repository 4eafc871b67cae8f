"""A game's options, declared once by its rules module and checked by one function.

Each rules module says what a game takes: ``PLAYERS`` (fewest, most, the setup menu's first
count), ``OPTIONS`` (one row per option: ``(key, label, kind, default, params)``, and a sixth
item when a journal from before the option was added must read another value than the menu's
default: what it was played with), ``FIRST``
(False when the game's own first screen settles who starts: no "first" option), and where
needed ``NOTE`` ({player count: a word the setup shows after it}), ``fixed(n)`` (options
that follow from the player count) and ``unused(opts, n)`` (the keys of the options that do not
apply to the values chosen, ``opts`` by key, with ``n`` players: the setup menu hides their rows
and gives the rules their defaults). The rules' ``setup`` checks its options against that with
``check``, the setup menu (``flow/setup.py``) draws its rows from it: the ranges are written
once, where the game is.

Kinds (``tablemate.NUMBER``, ``CHOICE``, ``FLAG``: the package has them, so a rules module's
table needs no import) and their params:
  NUMBER  (lo, hi, step, word shown for 0 or None): any int lo..hi; the menu steps by ``step``
  CHOICE  (values, unit or words): one of the values; a unit reads "30s" (0 "off"), a tuple of
          words gives each value its word
  FLAG    None: True or False
This module is imported by the setup menu and by a rules ``setup`` when a game starts, and let
go once the game is on.
"""

from micropython import const

from tablemate import CHOICE, FLAG, RuleError

NAME_MAX = const(8)  # characters of a player's name (the settings' limit)

# The fields of an ``OPTIONS`` row and of its params, by name: the rows stay plain tuples, as
# the rules modules write them, and the setup menu reads them through these
KEY = const(0)
LABEL = const(1)
KIND = const(2)
DEFAULT = const(3)
PARAMS = const(4)
PLAYED = const(5)  # what a journal from before the option was played with (a row may lack it)
VALUES = const(0)  # CHOICE: the values, ...
UNIT = const(1)  # ... then a unit, or a word for each value
LO = const(0)  # NUMBER: the lowest, ...
HI = const(1)  # ... the highest, ...
STEP = const(2)  # ... the menu's step, ...
ZERO = const(3)  # ... and the word shown for 0 (None: "0")


def valid(option, value):
    """True when ``value`` is one that ``option`` (key, label, kind, default, params) takes."""
    kind, params = option[KIND], option[PARAMS]
    if kind == FLAG:
        return value is True or value is False
    if kind == CHOICE:
        return value in params[VALUES] and type(value) is type(params[VALUES][0])
    return type(value) is int and params[LO] <= value <= params[HI]


def check(opts, players, options, first=True):
    """A rules ``setup``'s options checked against its ``PLAYERS`` and ``OPTIONS``: {"names":
    [...], "first": seat (when ``first``: the rules' ``FIRST``), and a value for every option,
    its default where ``opts`` has none}; or RuleError naming what is wrong, in the words every
    game uses."""
    if not isinstance(opts, dict):
        raise RuleError("Bad options")
    lo, hi = players[0], players[1]
    names = opts.get("names")
    if not isinstance(names, (list, tuple)) or not lo <= len(names) <= hi:
        raise RuleError("Need %d players" % lo if lo == hi else "Need %d-%d players" % (lo, hi))
    for n in names:
        if not isinstance(n, str) or not 1 <= len(n) <= NAME_MAX:
            raise RuleError("Bad player name")
    out = {"names": list(names)}
    if first:
        seat = opts.get("first", 0)
        if type(seat) is not int or not 0 <= seat < len(names):
            raise RuleError("Bad option first")
        out["first"] = seat
    for option in options:
        key = option[KEY]
        value = opts.get(key, option[PLAYED] if len(option) > PLAYED else option[DEFAULT])
        if not valid(option, value):
            raise RuleError("Bad option " + key)
        out[key] = value
    return out

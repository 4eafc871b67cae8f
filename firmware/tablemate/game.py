"""A game in progress: pure rules plus a journal, so every accepted action survives a power cut.

The journal holds the actions as they happened, undos included; the state is what replaying the
effective actions gives. Undo is an action in the journal (["undo"]), never a rules action: it
drops the latest effective action, so two undos drop two. Resume is replay: undos are resolved
first in one pass, then the remaining actions are applied once (O(n)). An action the rules refuse
on replay is corruption: the file is copied aside and cut before that line.
"""

import sys

from tablemate import files, journal
from tablemate import RuleError

UNDO = ["undo"]


def rules_for(name):
    """Import and return the rules module tablemate.rules.<name>, or raise RuleError."""
    if not name:
        raise RuleError("Unknown game")
    for c in name:
        if not ("a" <= c <= "z" or "0" <= c <= "9" or c == "_"):
            raise RuleError("Unknown game")
    full = "tablemate.rules." + name
    try:
        __import__(full)
    except ImportError:
        raise RuleError("Unknown game")
    return sys.modules[full]


def _is_undo(action):
    return len(action) == 1 and action[0] == "undo"


def _resolve(lines):
    """Indices of the effective lines, and where a stray undo stops them (else len(lines))."""
    keep = []
    for i in range(len(lines)):
        if _is_undo(lines[i]):
            if not keep:
                return keep, i
            keep.pop()
        else:
            keep.append(i)
    return keep, len(lines)


def _play(rules, opts, actions, n):
    """State after applying the first n actions to a fresh setup (they were accepted before)."""
    state = rules.setup(opts)
    for i in range(n):
        rules.apply(state, actions[i])
    return state


class Game:
    """One game: rules module, journal path, options, live state and effective actions."""

    def __init__(self, rules, path):
        self.rules = rules
        self.path = path
        self.opts = None
        self.state = None
        self._actions = []

    @property
    def count(self):
        """Number of effective actions (undone ones excluded)."""
        return len(self._actions)

    @staticmethod
    def new(rules, path, opts):
        """Start a game: set up the rules (RuleError on bad opts), then create its journal."""
        g = Game(rules, path)
        g.state = rules.setup(opts)
        g.opts = opts
        journal.create(path, rules.__name__.split(".")[-1], opts)
        return g

    @staticmethod
    def resume(rules, path):
        """Replay the journal at path: (game or None, problem or None).

        rules may be None to pick the module named in the journal's header.
        """
        header, lines, problem = journal.load(path)
        if header is None:
            return None, problem
        name = header["game"]
        if rules is None:
            try:
                rules = rules_for(name)
            except RuleError as e:
                return None, str(e)
        elif rules.__name__.split(".")[-1] != name:
            return None, "Journal is another game"
        g = Game(rules, path)
        g.opts = header["opts"]
        try:
            state = rules.setup(g.opts)
        except RuleError:
            files.aside(path, True)
            return None, "Bad journal: copy kept"
        keep, stop = _resolve(lines)
        for k in range(len(keep)):
            try:
                rules.apply(state, lines[keep[k]])
            except RuleError:
                # Undo is LIFO, so no later line undoes what comes before a kept line: the
                # kept lines before the refused one are exactly what its prefix resolves to.
                stop = keep[k]
                keep = keep[:k]
                break
        if stop < len(lines):
            problem = journal.cut(path, stop)
        g.state = state
        g._actions = [lines[i] for i in keep]
        return g, problem

    def do(self, action):
        """Apply action (RuleError leaves everything untouched), then journal it."""
        self.rules.apply(self.state, action)
        action = list(action)
        try:
            journal.append(self.path, action)
        except OSError:
            self.state = _play(self.rules, self.opts, self._actions, len(self._actions))
            raise
        self._actions.append(action)

    def save(self):
        """(Until the queued journal lands: do and undo write at once.)"""

    def undo(self):
        """Drop the latest effective action (RuleError "Nothing to undo" when there is none)."""
        n = len(self._actions) - 1
        if n < 0:
            raise RuleError("Nothing to undo")
        state = _play(self.rules, self.opts, self._actions, n)
        journal.append(self.path, UNDO)
        self._actions.pop()
        self.state = state

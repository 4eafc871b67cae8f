"""A game in progress: pure rules plus a journal, so every accepted action survives a power cut.

Undo is a journal line (["undo"]), never a rules action: it drops the latest effective action
(a player's one step that the rules journal as several actions, ``JOINS``, is as many lines).
Why checkpoints: replaying a whole game costs ~1 ms per action on a Pico and holding it costs
RAM, so the journal holds the state every CHECKPOINT actions (journal.py has the format) and the
game keeps in RAM only its base (the state of the last checkpoint, as JSON text) and the tail
(the effective actions after it). Resume reads back to the base and replays the tail; undo
replays the base and the tail but one; an undo with an empty tail goes back to the base's
parent, reading only the lines between the two.

Why a queue: do() and undo() change RAM and queue lines, so the screen can show the new state
first; save() then writes every queued line with one open/write/close. A power cut before the
save loses only what was queued. A new game is queued too: its journal is created by the first
save, after the game's first frame (creating a file is several flash writes, 20-30 ms on a Pico);
a cut before that loses the start, and a game it replaced is still offered.

Why a journal kept open (``prime``, ``close``): littlefs readies a new block (an erase and a copy)
at the first write after a commit; ``prime`` does that right after a save, so that the next save,
after its action's frame, only programs its lines and commits them (``journal.prime``).

Checkpoints are worked out by save(), after the frame, never in the key's path (encoding a
Viewpoint state takes a Pico several ms, and a rebase replays actions); save() queues them
after the lines they follow (a second do() or an undo before the save works out the one due
first, so a checkpoint always holds the depth it was due at):
- CHECKPOINT actions follow the base (the depth a multiple of CHECKPOINT, as a base's depth
  is): a new base {"n": depth, "p": base, "s": state};
- 2 * CHECKPOINT lines follow the base (undos and redos back and forth; or an undo went back
  past the base, and the lines after its parent were not counted): the base again, with its
  "p", "e" and "s" and the tail as "t" (a tail of CHECKPOINT actions or more, read from a
  version 1 journal, moves the base on by whole multiples instead). So resume never reads more
  than about 2 * CHECKPOINT lines and an undo never more than about 3 * CHECKPOINT, however long
  the game and however it was played.
"""

import sys

from micropython import const

from tablemate import RuleError, alive, json, random, unload
from tablemate.store import files, journal

CHECKPOINT = 32  # effective actions between checkpoints (tuned on the device); a rules module
# whose actions cost more to replay sets its own CHECKPOINT
UNKNOWN = "Unknown game: copy kept"
DAMAGED = "Journal damaged"

# A checkpoint record: its journal line, on the file or queued. p and e are offsets (int) or
# other records (queued ones get their offset when they are written); e None = the line itself.
_OFF = const(0)
_N = const(1)
_P = const(2)
_E = const(3)
_S = const(4)  # the state as JSON text (None for the header: rules.setup(opts))
_T = const(5)  # actions on the line after the state
_FAR = const(1 << 20)
_HEADER = (0, 0, None, None, None, ())
_READBACK = "tablemate.store.readback"  # what reads a journal back: a game in play only appends


def _new_id():
    """A game's id: 32 random bits, so that a game filed twice (it ended, an undo reopened it,
    it ended again) is one game in the history. rp2 seeds ``random`` from its ring oscillator."""
    return "%08x" % random.getrandbits(32)


def _at(ref):
    return ref if type(ref) is int else ref[_OFF]


def _line(rec):
    """The journal line of a checkpoint record placed at rec[_OFF]."""
    n = rec[_N]
    return journal.checkpoint_line(n, _at(rec[_P]) if n else None,
                                   None if rec[_E] is None else _at(rec[_E]), rec[_T], rec[_S])


def _record(off, cp):
    """The record of a checkpoint read from the file (cp: ``readback.checkpoint``'s; None: the
    header)."""
    if cp is None:
        return _HEADER
    n = cp["n"]
    return (off, n, cp.get("p") if n else None, cp.get("e") if n else None,
            json.dumps(cp["s"]), cp.get("t", ()))


class Game:
    """One game: rules module, journal path, options, live state and effective actions."""

    def __init__(self, rules, path, opts, base, tail, size, since):
        self.rules = rules
        self.path = path
        self.opts = opts
        self.state = None
        self._base = base
        self._tail = tail
        self._queue = []  # not yet written: undo lines (bytes), (action,) and checkpoint records
        self._size = size  # the file's size after the last save (None: not created yet)
        self._since = since  # lines after the base line, on the file and queued
        self.name = None  # the mode's name in the registry, the journal's and history's "game"
        self.id = None  # the game's id in the history (its journal's header), None in old ones
        self.start = None  # when it began ("YYYY-MM-DD HH:MM:SS", its journal's header), if known
        self.filed = None  # the count of actions when the game was last filed in the history
        self.signed = True  # its checkpoints carry their CRC (False: a version 2 journal)
        self.replaces = None  # the saved game this new one replaces, until it is filed: the
        # Game in RAM, or True for the one on the flash (``lifecycle.start`` and ``file_replaced``)
        self.secret = {}  # what the mode keeps with the game in RAM only and never writes
        # (Cartes sur Table's sealed votes, by token): a power cut takes it, the mode asks again
        self._out = None  # the journal opened and primed for the next save (``prime``)

    @property
    def count(self):
        """Number of effective actions (undone ones excluded)."""
        return self._base[_N] + len(self._tail)

    @property
    def size(self):
        """The journal's size on the flash after the last save (None: not created yet)."""
        return self._size

    @property
    def unsaved(self):
        """Number of queued lines, the header of a journal not created yet included (0 when
        everything is on flash)."""
        return len(self._queue) + (self._size is None)

    @staticmethod
    def new(rules, path, opts, name=None):
        """Start a game of mode ``name`` (by default its rules module's name): set up the rules
        (RuleError on bad opts); its journal, replacing any other at ``path``, is created by the
        first ``save``."""
        state = rules.setup(opts)
        g = Game(rules, path, opts, _HEADER, [], None, 0)
        g.name = name or rules.__name__.split(".")[-1]
        g.id = _new_id()
        g.state = state
        unload((_READBACK,))  # read by the look at a saved game before (``modes.saved``)
        return g

    @staticmethod
    def resume(rules, path):
        """Read the journal at path from its last checkpoint: (game or None, problem or None).

        ``rules`` is the game's rules module, or a function that gives the rules module of the
        game the journal's header names (``lifecycle.rules``: RuleError for a name it does not
        know, and such a journal is set aside)."""
        try:
            return _read(rules, path)
        finally:  # .mpy: 3.5 KB the game in play does not need (an undo past one imports it)
            unload((_READBACK,))

    def do(self, action):
        """Apply action (RuleError leaves everything untouched) and queue it for save()."""
        self._checkpoint()  # only when two actions come between saves: one a press never waits
        self.rules.apply(self.state, action)
        action = list(action)
        self._tail.append(action)
        self._queue.append((action,))  # encoded by save(), after the frame: not in the key's path
        self._since += 1

    def undo(self):
        """Take back what the player did last, as one step (RuleError "Nothing to undo" when
        nothing was done): the latest effective action, and while the action taken back is of
        a kind the rules module lists in ``JOINS`` (it continues the action before it, as a
        Viewpoint card's answers continue the card), the one before it too. Returns how many
        actions went; each is one ["undo"] line, queued together so that one append writes
        them (the journal's format is unchanged: a replay pops one action per line).

        Going back past a checkpoint it saves the queue first and reads the journal (OSError,
        or RuleError when the journal is damaged there, change nothing).
        """
        self._checkpoint()
        joins = getattr(self.rules, "JOINS", ())
        base, tail = self._base, self._tail[:]
        k = 0
        while True:
            if not tail:
                if not base[_N]:
                    if k:  # a joined action with nothing before it (a damaged game): stop
                        break
                    raise RuleError("Nothing to undo")
                base, tail = self._back(base)
            k += 1
            if tail.pop()[0] not in joins:
                break
        state = self._start(base)
        if _apply(self.rules, state, tail) < len(tail):
            raise RuleError(DAMAGED)
        if base is not self._base:
            self._since = _FAR  # the lines after that base are not counted: write it again
        self._base, self._tail, self.state = base, tail, state
        for _ in range(k):
            self._queue.append(journal.UNDO_LINE)
        self._since += k
        return k

    def replay(self):
        """Rebuild the state from the base and the effective actions: what the record says,
        not what RAM holds (the error net's way to keep a game an exception interrupted)."""
        state = self._start(self._base)
        if _apply(self.rules, state, self._tail) < len(self._tail):
            raise RuleError(DAMAGED)
        self.state = state

    def save(self):
        """Queue the checkpoint that is due, then write the queued lines with one
        open/write/close; OSError keeps them for a retry. The journal is not created over a
        saved game this one replaces until that game is filed (``flow.play.save`` does it first):
        OSError then too."""
        self._checkpoint()
        if self._size is None:
            if self.replaces is not None:
                raise OSError("saved game not filed")
            self._size = journal.create(self.path, self.name, self.opts,
                                        self.id, self.start)
        if self._queue:
            out, self._out = self._out, None
            self._size = journal.append(self.path, self._size, self._render, out)
            if out is not None:
                self._since += 1  # its void line
            for item in self._queue:  # on file now: refer to parents by offset, so that no
                if type(item) is list:  # chain of old records stays in RAM
                    item[_P] = None if item[_P] is None else _at(item[_P])
                    item[_E] = None if item[_E] is None else _at(item[_E])
            self._queue = []

    def prime(self):
        """Open the journal for the next save and have littlefs ready its next block now
        (``journal.prime``): after a save, never in a key's path. Nothing when it is primed
        already, not created yet or short (``journal.INLINE``); OSError when the flash refuses (the next save then opens
        the journal as usual)."""
        if self._out is None and self._size is not None and self._size >= journal.INLINE:
            self._out = journal.prime(self.path, self._size)

    def close(self):
        """Close the journal kept open by ``prime`` (its void line committed), before anything
        else replaces or removes the file, or a computer reads it."""
        out, self._out = self._out, None
        if out is not None:
            try:
                out.close()
            except OSError:  # the next save finds the file as it is (``journal.append``)
                return
            self._size += len(journal.VOID)
            self._since += 1

    # --- inside ------------------------------------------------------------------------------
    @property
    def every(self):
        """Effective actions between checkpoints: the rules module's CHECKPOINT, else ours."""
        return getattr(self.rules, "CHECKPOINT", CHECKPOINT)

    def _start(self, base):
        """A fresh copy of the state at base."""
        if base[_S] is None:
            return self.rules.setup(self.opts)
        return json.loads(base[_S])

    def _checkpoint(self):
        """Queue the checkpoint that is due, if one is (see the module docstring)."""
        if self._since >= 2 * self.every:
            self._rebase()
        if len(self._tail) >= self.every:  # a new base
            self._put([None, self.count, self._base, None, json.dumps(self.state), ()], [])

    def _rebase(self):
        """Write the base again with the tail after it, so resume reads from here."""
        base, tail = self._base, self._tail
        k = len(tail) - len(tail) % self.every  # a long tail (a version 1 journal): move on
        if k:  # a new base k actions on, the lines since the old one leading to it
            state = self._start(base)
            _apply(self.rules, state, tail[:k])
            self._put([None, base[_N] + k, base, None, json.dumps(state), tail[k:]], tail[k:])
            return
        s = base[_S]
        if s is None:
            s = json.dumps(self.rules.setup(self.opts))
        if base[_N]:
            rec = [None, base[_N], base[_P], base if base[_E] is None else base[_E], s, list(tail)]
        else:
            rec = [None, 0, None, None, s, list(tail)]
        self._put(rec, tail)

    def _put(self, rec, tail):
        """Queue the checkpoint record rec and make it the base, with tail after it."""
        self._queue.append(rec)
        self._base = rec
        self._tail = tail
        self._since = 0

    def _render(self, offset):
        """The queued lines as bytes, written from offset: checkpoints learn their offsets.

        The queue holds bytes (an undo), (action,) tuples and checkpoint records (lists).
        """
        out = []
        for item in self._queue:
            if type(item) is list:
                item[_OFF] = offset
                item = _line(item)
            elif type(item) is tuple:
                item = journal.action_line(item[0])
            out.append(item)
            offset += len(item)
        return b"".join(out)

    def _back(self, base):
        """The parent of ``base`` (the game's base, or a parent read before) and the effective
        actions from it to ``base`` (RuleError if the journal is damaged there)."""
        self.save()
        p = _at(base[_P])
        e = _at(base[_E] if base[_E] is not None else base)
        from tablemate.store import readback
        f = open(self.path, "rb")
        try:
            try:
                line = readback.line_at(f, p)
                if p:
                    cp = readback.checkpoint(line, p, self.signed)
                    if cp is None or cp["n"] >= base[_N]:
                        raise RuleError(DAMAGED)
                    parent = _record(p, cp)
                else:
                    parent = _HEADER
                stack = list(parent[_T])
                bad, _ = readback.resolve(f, p + len(line), e, stack)
            except ValueError:
                raise RuleError(DAMAGED)
        finally:
            f.close()
            unload((_READBACK,))
        need = base[_N] - parent[_N]
        if bad >= 0 or len(stack) < need:
            raise RuleError(DAMAGED)
        del stack[need:]
        return parent, stack


def _read(rules, path):
    """``Game.resume`` but for letting the journal reader go."""
    from tablemate.store import readback
    problem = None
    limit = -1
    while True:
        got = readback.load(path, limit)
        problem = _worse(problem, got.problem)
        header, base, tail, offs = got.header, got.base, got.tail, got.offs
        if header is None:
            return None, problem
        name = header["game"]
        if type(rules) is not type(sys):  # the lookup: the module is the header's
            try:
                rules = rules(name)
            except RuleError:  # not a game this build plays: kept aside, offered no more
                return None, _aside(path, UNKNOWN)
        elif rules.__name__.split(".")[-1] != name:
            return None, "Journal is another game"
        opts = header["opts"]
        try:
            state = rules.setup(opts)
        except RuleError:
            return None, _aside(path, journal.BAD)
        rec = _record(base[0], base[1])
        if rec[_S] is not None:
            state = base[1]["s"]
        k = _apply(rules, state, tail)
        if k < len(tail):  # the rules refuse a line: damage, the file is cut before it
            if limit < 0:
                try:
                    problem = _worse(problem, readback.cut(path, offs[k]))
                    continue
                except OSError as exc:
                    problem = files.trouble(exc) + files.NOT_SAVED
            limit = offs[k]
            continue
        g = Game(rules, path, opts, rec, tail, got.size, got.since)
        g.state = state
        g.name = name
        g.id = header.get("id")
        g.start = header.get("start")
        g.signed = readback.signed(header)
        return g, problem


def _aside(path, problem):
    """Move a journal that cannot be played aside; say so, or why it could not be moved."""
    try:
        files.aside(path, True)
    except OSError as exc:
        return problem.split(":")[0] + "\n" + files.trouble(exc) + files.NOT_SAVED
    return problem


def _worse(problem, new):
    """The message to show: the first damage found beats a torn entry."""
    if new is None or (problem is not None and problem != journal.TORN):
        return problem
    return new


def _apply(rules, state, actions):
    """Apply actions to state in turn; return how many the rules took (all: len(actions)).
    A long replay (a journal of version 1 has no checkpoints) feeds the watchdog as it goes."""
    for k in range(len(actions)):
        alive()
        try:
            rules.apply(state, actions[k])
        except RuleError:
            return k
    return len(actions)

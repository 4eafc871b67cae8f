"""What ``tablemate report`` says about the games: their results in words, the columns it prints,
and the nights view (``--nights``): wins, win rate, rivals, scores and time across game nights.

A history line (``tablemate.store.history``) holds the names, scores and winners of a game, and
since the device dates its games, its ``start`` and ``end`` ("YYYY-MM-DD HH:MM:SS", the board's
clock as ``tablemate flash`` or ``pull`` last set it). Older lines, and games played after the
board lost its clock (a power cut: a Pico's clock restarts in 2021), have no date: they are
reported as "unknown", counted in every total, and grouped as a night of their own.

Nights: games are taken in the order the device filed them; a game that starts more than
``GAP`` after the one before it ended begins a new night, so a night past midnight stays one.
Scores are compared only within one game (a Scorepad's 120 is no Perspective's 3): the best and
average scores are per game, wins and rivals across all of them. What a game's numbers are is
its mode's declaration (``tablemate.flow.standings.numbers``): points (the most is the best),
moves (the solitaire: the fewest is the best, "fewest moves"), or none (Perspective with
others: no best nor average; its places are the winners', then everyone else's).
"""

from datetime import datetime, timedelta

from tablemate import modes
from tablemate.screens import history as history_screen
from tablemate.flow import standings

GAP = timedelta(hours=4)  # a longer pause between two games: they were played on two nights
UNKNOWN = "unknown"
_FORMAT = "%Y-%m-%d %H:%M:%S"


def places(g):
    """{seat: place} of game ``g``, as the standings rank them (``flow.standings.ranking``, by
    what its numbers are); {} when a history written by hand holds scores that are not one
    number per player."""
    scores = g.get("scores", [])
    if len(scores) != len(g["names"]) or not all(type(s) is int for s in scores):
        return {}
    return {i: rank for rank, i in standings.ranking(scores, g.get("winners", []),
                                                     standings.numbers(g))}


def figures(g):
    """Each player's number as the report prints it, in seat order: "12" (points), "12 moves",
    or "" (a game without numbers)."""
    numbers = standings.numbers(g)
    scores = g.get("scores", [])
    said = [standings.figure(numbers, score) for score in scores[:len(g["names"])]]
    return [s or "" for s in said] + [""] * (len(g["names"]) - len(said))


# --- one game ----------------------------------------------------------------------------------

def moment(g, key):
    """The ``start`` or ``end`` of game ``g`` as a datetime, or None when not known."""
    text = g.get(key)
    if not isinstance(text, str):
        return None
    try:
        return datetime.strptime(text, _FORMAT)
    except ValueError:
        return None


def duration(g):
    """The seconds game ``g`` lasted, or None when its start or end is not known."""
    start, end = moment(g, "start"), moment(g, "end")
    if start is None or end is None or end < start:
        return None
    return int((end - start).total_seconds())


def winners(g):
    """The names of the winners of ``g`` (a co-op win: every player), seat order."""
    names = g["names"]
    return [names[i] for i in g.get("winners", []) if 0 <= i < len(names)]


def finished(g):
    """True when ``g`` ended (a win, a shared or team win, or a co-op loss or draw)."""
    return history_screen.result(g) != "unfinished"


def _and(names):
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def result(g):
    """How ``g`` ended, in words: "won by Ann", "won by Ann and Cy (team)", "won by Ann and
    Bob (shared)" (equal first), or the mode's own word ("co-op lost", "solved", "unfinished",
    from the firmware's registry as the device's History says it)."""
    won = winners(g)
    words = history_screen.result(g)
    if not won or not words.startswith(won[0]):  # the registry's word for this outcome
        return words
    if len(won) == 1:
        return "won by " + won[0]
    return "won by %s (%s)" % (_and(won), "team" if g.get("outcome") == "team" else "shared")


def when(g):
    """The start of ``g`` as "YYYY-MM-DD HH:MM", else its end, else "unknown"."""
    t = moment(g, "start") or moment(g, "end")
    return t.strftime("%Y-%m-%d %H:%M") if t else UNKNOWN


def clock(seconds):
    """A time played: "45m", "2h 05m"; "unknown" for None."""
    if seconds is None:
        return UNKNOWN
    minutes = (seconds + 30) // 60
    return "%dh %02dm" % divmod(minutes, 60) if minutes >= 60 else "%dm" % minutes


# --- columns -----------------------------------------------------------------------------------

def columns(rows, right=(), gap=2):
    """``rows`` (lists of strings, the header first) as lines of aligned columns, as wide as
    their longest cell whatever the names' lengths; columns in ``right`` (indices) aligned
    right (numbers). Trailing blanks are cut."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = []
    for r in rows:
        cells = [c.rjust(w) if i in right else c.ljust(w)
                 for i, (c, w) in enumerate(zip(r, widths))]
        lines.append((" " * gap).join(cells).rstrip())
    return lines


# --- across games ------------------------------------------------------------------------------

def nights(games):
    """``[(title, games), ...]``: the games of each night in filing order, then those without a
    date (title "date unknown"). A title reads "Fri 2026-12-04, 19:05-23:40"."""
    out = []
    undated = []
    current = None
    last = None  # when the game before ended (or began, if its end is unknown)
    for g in games:
        start = moment(g, "start") or moment(g, "end")
        if start is None:
            undated.append(g)
            continue
        if current is None or last is None or start - last > GAP:
            current = []
            out.append(current)
        current.append(g)
        last = moment(g, "end") or start
    titled = [(_night_title(night), night) for night in out]
    if undated:
        titled.append(("date unknown", undated))
    return titled


def _night_title(night):
    first = moment(night[0], "start") or moment(night[0], "end")
    ends = [moment(g, "end") or moment(g, "start") for g in night]
    return "%s, %s-%s" % (first.strftime("%a %Y-%m-%d"), first.strftime("%H:%M"),
                          max(ends).strftime("%H:%M"))


class Player:
    """One player's record over some games: what the nights view prints in a row."""

    def __init__(self, name):
        self.name = name
        self.games = 0  # finished games played
        self.wins = 0
        self.by_count = {}  # players at the table -> [wins, games]
        self.beaten_by = {}  # winner -> games this player lost to them
        self.scores = []  # the points of games scored in points
        self.moves = []  # the moves of games counted in moves (fewer is better)
        self.seconds = 0
        self.timed = 0  # games whose time is known

    def rate(self):
        return "%d%%" % round(100 * self.wins / self.games) if self.games else "-"

    def rival(self):
        """The player this one lost to most (ties: the first by name), "Bob (3)"; or "-"."""
        if not self.beaten_by:
            return "-"
        name = min(self.beaten_by, key=lambda p: (-self.beaten_by[p], p))
        return "%s (%d)" % (name, self.beaten_by[name])

    def counts(self):
        """Wins of games played by each number of players: "2p 3/5  4p 1/2"."""
        return "  ".join("%dp %d/%d" % (n, w, t) for n, (w, t) in sorted(self.by_count.items()))

    def time(self):
        return clock(self.seconds if self.timed else None)


def players(games):
    """{name: Player} over the finished ``games``: a shared or team win counts for each of its
    winners, and a loser is beaten by every winner (in a co-op loss, by nobody)."""
    table = {}
    for g in games:
        if not finished(g):
            continue
        names = g["names"]
        won = winners(g)
        scores = g.get("scores", [])
        kept = {standings.POINTS: "scores", standings.MOVES: "moves"}.get(standings.numbers(g))
        seconds = duration(g)
        for i, name in enumerate(names):
            p = table.get(name) or table.setdefault(name, Player(name))
            p.games += 1
            count = p.by_count.setdefault(len(names), [0, 0])
            count[1] += 1
            if name in won:
                p.wins += 1
                count[0] += 1
            else:
                for w in won:
                    p.beaten_by[w] = p.beaten_by.get(w, 0) + 1
            if kept and i < len(scores):
                getattr(p, kept).append(scores[i])
            if seconds is not None:
                p.seconds += seconds
                p.timed += 1
    return table


def _ranked(table):
    return sorted(table.values(), key=lambda p: (-p.wins, -p.games, p.name))


def view(games, out=print):
    """Print the nights view: each night, then every player over all games, then each game's
    players with their best and average scores."""
    done = [g for g in games if finished(g)]
    if not done:
        out("No finished games.")
        return
    out("Nights")
    rows = [["night", "games", "time", "most wins"]]
    for title, night in nights(done):
        table = players(night)
        best = max(p.wins for p in table.values())
        top = [p.name for p in _ranked(table) if p.wins == best] if best else []
        rows.append([title, str(len(night)), _total(night),
                     "%s (%d)" % (_and(top), best) if top else "-"])
    for line in columns(rows, right={1}):
        out("  " + line)
    out("")
    out("All games: %d, %s played" % (len(done), _total(done)))
    _players(players(done), out, numbers=())
    for m in modes.MODES + _unknown_modes(done):
        mine = [g for g in done if g.get("game") == m["name"]]
        if mine:
            out("")
            out("%s: %d game%s, %s played" % (m["label"], len(mine), "" if len(mine) == 1
                                              else "s", _total(mine)))
            _players(players(mine), out, numbers={standings.numbers(g) for g in mine})


def _unknown_modes(games):
    """Registry-like entries for modes this version does not know (named as the line has it)."""
    known = {m["name"] for m in modes.MODES}
    names = sorted({g.get("game", "?") for g in games} - known)
    return [{"name": n, "label": n} for n in names]


def _total(games):
    """The time ``games`` took: the sum of those whose time is known, "+N unknown" for the
    others; "unknown" when none is known."""
    known = [s for s in (duration(g) for g in games) if s is not None]
    if not known:
        return UNKNOWN
    text = clock(sum(known))
    missing = len(games) - len(known)
    return text + (" (+%d unknown)" % missing if missing else "")


def _players(table, out, numbers):
    """A row per player; with the best and average of the games' numbers among ``numbers``:
    points ("best", "avg") and moves ("fewest moves", "avg moves")."""
    head = ["player", "games", "wins", "win %", "by players", "rival"]
    shown = [(key, best, label) for key, best, label in (
        (standings.POINTS, max, ("best", "avg")),
        (standings.MOVES, min, ("fewest moves", "avg moves"))) if key in numbers]
    for _, _, label in shown:
        head += label
    right = set(range(1, 4)) | set(range(6, len(head)))
    head.append("time")
    rows = [head]
    for p in _ranked(table):
        row = [p.name, str(p.games), str(p.wins), p.rate(), p.counts(), p.rival()]
        for key, best, _ in shown:
            got = p.scores if key == standings.POINTS else p.moves
            row += [str(best(got)), "%.1f" % (sum(got) / len(got))] if got else ["-", "-"]
        row.append(p.time())
        rows.append(row)
    for line in columns(rows, right=right):
        out("  " + line)

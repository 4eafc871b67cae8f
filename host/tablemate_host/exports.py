"""``tablemate report --csv FILE --plots DIR --bgstats FILE``: the pulled games as a spreadsheet,
as pictures and (``bgstats``) as plays for BG Stats.

The CSV has one row per game and player, numbered as ``report`` prints them (the order the games
were filed; their dates, where the board's clock was set, are in the report and ``--nights``).
Places are the device's own standings (``tablemate.flow.standings.ranking``), so a shared win, a
co-op game and a team win read as they did on the screen. What a score is follows the mode's
declaration (``standings.numbers``): ``unit`` says "points" (more is better) or "moves"
(fewer is better), and a game without numbers (Perspective with others) has an empty score
and unit: its places are the winners', then everyone else's.

The plots (``PLOTS``): ``wins.png``, each player's wins per game; ``night.png``, the scores of
the last night (moves drawn as moves, fewer winning; a game without numbers as its winners and
the others); ``time.png``, the time a game of each mode takes; and ``progression.png``, the
score of every player after each action of the game in a journal (``game.jnl``: the game in
progress, or the last one played while it is still on the screen), replayed with the mode's own
rules, with a line where each round (or turn) begins (moves for the solitaire; a game without
numbers has no progression to draw). Only the history's summaries survive a
game, so this is the one game whose course can be drawn. matplotlib (the ``plots`` extra) draws
off screen (Agg) and is imported only when plots are asked for: ``report`` alone stays quick.
"""

import csv
import os
import sys

from tablemate import RuleError, lifecycle, modes
from tablemate.screens import history as history_screen
from tablemate.store import readback
from tablemate.flow import standings

from tablemate_host import stats

COLUMNS = ("game", "mode", "player", "score", "place", "outcome", "unit")
_DPI = 100
_GROUP = 0.75  # of the space between two players' bar groups: the rest is the gap
_PALE = 0.35  # a bar of a player who did not win
_NIGHT_GAMES = 10  # games drawn by night.png when no game has a date
_UNITS = {standings.MOVES: ", moves", standings.NONE: ", no points"}  # a night.png panel's
# title, for a game not scored in points (a bar of moves: the shortest wins)


# --- the CSV -----------------------------------------------------------------------------------

def rows(games):
    """One row (``COLUMNS``) per game and player, oldest game first, players in seat order."""
    out = []
    for n, g in enumerate(games, 1):
        names, scores = g["names"], g.get("scores", [])
        places = stats.places(g)
        unit = standings.numbers(g)
        if unit == standings.NONE:
            unit, scores = "", []
        for i, name in enumerate(names):
            out.append((n, g.get("game", "?"), name, scores[i] if i < len(scores) else "",
                        places.get(i, ""), _outcome(g, i), unit))
    return out


def _outcome(g, seat):
    """"won" (a shared win: "won, shared"; a team's: "won, team"), "lost", or the game's own
    word when nobody won: "unfinished", "co-op lost", "co-op draw"."""
    won = g.get("winners", [])
    if seat in won:
        if len(won) == 1:
            return "won"
        return "won, team" if g.get("outcome") == "team" else "won, shared"
    return "lost" if won else history_screen.result(g)


def write_csv(games, path):
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(COLUMNS)
        w.writerows(rows(games))


# --- what the plots show -----------------------------------------------------------------------

def wins_by_mode(games):
    """{player: {mode: wins}} for every player of ``games`` (0 wins too), as ``report`` counts
    them: a shared win counts for everyone sharing it."""
    table = {}
    for g in games:
        names = g["names"]
        for name in names:
            table.setdefault(name, {})
        mode = g.get("game", "?")
        for i in g.get("winners", []):
            if 0 <= i < len(names):
                table[names[i]][mode] = table[names[i]].get(mode, 0) + 1
    return table


def replay(path):
    """(mode name, rules module, opts, effective actions) of the journal at ``path``, read
    without changing it: undos are taken back, and reading stops where the device would cut
    the file (a torn or damaged line). ``ValueError`` when it is not a game's journal."""
    with open(path, "rb") as f:
        first = readback.first_line(f)
        head = readback.header(first)
        if head is None:
            raise ValueError("no game header on its first line")
        try:
            rules = lifecycle.rules(head["game"])
        except RuleError:
            raise ValueError("%r is not a game this version plays" % head["game"])
        actions = []
        size = f.seek(0, 2)
        readback.resolve(f, len(first), size, actions)  # at a damaged line: the actions before it
    return head["game"], rules, head["opts"], actions


def progression(mode, rules, opts, actions):
    """(the players' names, their scores before any action and after each one, the numbers of
    the actions that begin a new round or turn, what the scores are: ``standings.numbers`` of
    the game as it stands). A line the rules refuse ends the game there, as resume does.
    ``ValueError`` when the rules refuse the options."""
    try:
        state = rules.setup(opts)
    except RuleError as er:
        raise ValueError("its options are refused (%s)" % er)
    counter = _counter(rules)[0]
    scores = [list(rules.scores(state))]
    starts = []
    for n, action in enumerate(actions, 1):
        before = counter(state)
        try:
            rules.apply(state, action)
        except RuleError:
            break
        if counter(state) != before:
            starts.append(n)
        scores.append(list(rules.scores(state)))
    summary = rules.summary(state)
    summary["game"] = mode
    return list(rules.names(state)), scores, starts, standings.numbers(summary)


def _counter(rules):
    """(what marks a new round in this mode, its word): its round number, else its count of
    turns, else whose turn it is (``turn``, a query every mode has: a new mode needs nothing
    more for its plot)."""
    if hasattr(rules, "round_no"):
        return rules.round_no, "round"
    return getattr(rules, "turns", rules.turn), "turn"


# --- drawing -----------------------------------------------------------------------------------

def _figure(width, height):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    fig = Figure(figsize=(width, height), dpi=_DPI)
    FigureCanvasAgg(fig)
    return fig


def _save(fig, path):
    fig.tight_layout()
    fig.savefig(path, metadata={"Software": None})  # the same data give the same bytes


def _legend_outside(ax, count):
    """The legend to the right of the plot, never over the data."""
    if count:
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), borderaxespad=0, frameon=False)


def plot_wins(games, path):
    """Grouped bars: for each player (most wins first), one bar per mode played, a gap between
    players, the legend beside the plot."""
    from matplotlib.ticker import MaxNLocator
    table = wins_by_mode(games)
    played = [m["name"] for m in modes.MODES if any(g.get("game") == m["name"] for g in games)]
    players = sorted(table, key=lambda p: (-sum(table[p].values()), p))
    fig = _figure(max(7, 1.1 * len(players) + 4), 4)
    ax = fig.add_subplot()
    width = _GROUP / max(1, len(played))
    for k, mode in enumerate(played):
        xs = [i + (k - (len(played) - 1) / 2) * width for i in range(len(players))]
        ax.bar(xs, [table[p].get(mode, 0) for p in players], width * 0.9,
               label=modes.label(mode))
    ax.set_xticks(range(len(players)), players)
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylabel("wins")
    ax.set_title("Wins per player and game (%d game%s)" % (len(games),
                                                           "" if len(games) == 1 else "s"))
    _legend_outside(ax, len(played))
    _save(fig, path)


def plot_night(games, path):
    """The scores of the last dated night: one panel per game, in the order played, each
    player's score as a bar in that player's colour, pale where the player did not win (scores
    of two games do not share a scale); the legend beside the panels."""
    dated = [night for title, night in stats.nights(games) if title != "date unknown"]
    night = dated[-1] if dated else games[-_NIGHT_GAMES:]
    title = stats.nights(night)[0][0] if dated else "the last games (no dates known)"
    names = sorted({n for g in night for n in g["names"]})
    cols = min(len(night), 5)
    rows_ = (len(night) + cols - 1) // cols
    fig = _figure(2.3 * cols + 1.6, 2.3 * rows_ + 0.8)
    colors = {n: "C%d" % i for i, n in enumerate(names)}
    for k, g in enumerate(night):
        ax = fig.add_subplot(rows_, cols, k + 1)
        won = g.get("winners", [])
        numbers = standings.numbers(g)
        heights = g.get("scores", [])
        if numbers == standings.NONE:  # no numbers: one bar each, the winners' full
            heights = [1] * len(g["names"])
            ax.set_yticks([])
        for i, (name, score) in enumerate(zip(g["names"], heights)):
            ax.bar(i, score, 0.7, color=colors[name], alpha=1 if i in won else _PALE)
        ax.set_xticks(range(len(g["names"])), g["names"], fontsize=8)
        ax.axhline(0, color="0.5", linewidth=0.6)
        ax.set_title("%s\n%s%s" % (modes.short(g.get("game", "?")), stats.when(g)[11:] or "?",
                                   _UNITS.get(numbers, "")), fontsize=9)
        ax.tick_params(labelsize=8)
    from matplotlib.patches import Patch
    handles = [Patch(color=colors[n], label=n) for n in names]
    handles.append(Patch(color="0.5", alpha=_PALE, label="pale: lost"))
    fig.legend(handles=handles, loc="center right", frameon=False)
    fig.suptitle("Scores over %s" % title)
    fig.tight_layout(rect=(0, 0, 1 - 1.3 / fig.get_figwidth(), 1))
    fig.savefig(path, metadata={"Software": None})


def plot_time(games, path):
    """Horizontal bars: the average minutes a game of each mode took, with the number of timed
    games and the total beside each bar; modes without a known time are left out."""
    from tablemate_host import stats
    timed = []
    for m in modes.MODES:
        secs = [s for s in (stats.duration(g) for g in games if g.get("game") == m["name"])
                if s is not None]
        if secs:
            timed.append((m["label"], secs))
    fig = _figure(7, 0.55 * max(2, len(timed)) + 1.4)
    ax = fig.add_subplot()
    avg = [sum(s) / len(s) / 60 for _, s in timed]
    ax.barh(range(len(timed)), avg, 0.6, color="C0")
    ax.set_yticks(range(len(timed)), [label for label, _ in timed])
    ax.invert_yaxis()
    top = max(avg) if avg else 1
    ax.set_xlim(0, top * 1.45)
    for i, (label, secs) in enumerate(timed):
        ax.text(avg[i] + top * 0.02, i, "%d game%s, %s in all" % (
            len(secs), "" if len(secs) == 1 else "s", stats.clock(sum(secs))),
            va="center", fontsize=9)
    ax.set_xlabel("minutes per game (average)")
    ax.set_title("Time per game" if timed else "Time per game: no game with a known time")
    _save(fig, path)


def plot_progression(mode, rules, opts, actions, path):
    """One line per player, the score (or the moves) after each action; a grey line where a
    round begins. Returns the number of actions drawn, or None, drawing nothing, for a game
    without numbers."""
    from matplotlib.ticker import MaxNLocator
    names, scores, starts, numbers = progression(mode, rules, opts, actions)
    if numbers == standings.NONE:
        return None
    fig = _figure(8, 4.5)
    ax = fig.add_subplot()
    for n in starts:
        ax.axvline(n, color="0.85", linewidth=0.8, zorder=0)
    for i, name in enumerate(names):
        ax.step(range(len(scores)), [s[i] for s in scores], where="post", label=name)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("actions (grey: a new %s begins)" % _counter(rules)[1])
    ax.set_ylabel("moves" if numbers == standings.MOVES else "score")
    ax.set_title("%s: %s" % (modes.label(mode), ", ".join(names)))
    ax.legend()
    _save(fig, path)
    return len(scores) - 1


PLOTS = (("wins.png", plot_wins, "wins per player and game"),
         ("night.png", plot_night, "scores over the last night"),
         ("time.png", plot_time, "time per game"))
PROGRESSION = ("progression.png", "the score after each action of the saved game")


# --- the command -------------------------------------------------------------------------------

def main(args, games, out=print):
    """``--csv`` and ``--plots`` of ``tablemate report``, after the printed report; returns the
    exit status. The plots go together: a missing or unreadable journal skips only its plot."""
    if getattr(args, "csv", None):
        write_csv(games, args.csv)
        out("CSV: %d rows -> %s" % (len(rows(games)), args.csv))
    if getattr(args, "bgstats", None):
        from tablemate_host import bgstats
        bgstats.write(games, args.bgstats, out)
    if getattr(args, "plots", None):
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            print("tablemate report: --plots needs matplotlib: pip install 'tablemate[plots]'",
                  file=sys.stderr)
            return 1
        os.makedirs(args.plots, exist_ok=True)
        for name, draw, what in PLOTS if games else ():
            target = os.path.join(args.plots, name)
            draw(games, target)
            out("Plot: %s -> %s" % (what, target))
        if not games:
            out("No games in the history: no %s" % ", ".join(name for name, _, _ in PLOTS))
        return _journal_plot(args, out)
    return 0


def _journal_plot(args, out):
    path = getattr(args, "journal", None) or os.path.join(os.path.dirname(args.file), "game.jnl")
    if not os.path.exists(path):
        out("No game journal at %s: no score progression (`tablemate pull` copies the game "
            "on the board, if one is saved there)" % path)
        return 0
    target = os.path.join(args.plots, PROGRESSION[0])
    try:
        mode, rules, opts, actions = replay(path)
        n = plot_progression(mode, rules, opts, actions, target)
    except ValueError as er:
        print("tablemate report: %s is not a readable game journal: %s" % (path, er),
              file=sys.stderr)
        return 1
    if n is None:
        out("No score progression: a game of %s in this setup keeps no score (%s)"
            % (modes.label(mode), path))
        return 0
    out("Plot: %s, %d actions, score after each -> %s" % (modes.label(mode), n, target))
    return 0

"""History: the most recent finished games, newest first, read from the history file.

The file is one JSON line per game (``tablemate.store.history`` files them and keeps the file short);
only the newest few are read, backwards a chunk at a time, so a long history costs nothing but
flash. Lines that are not a readable game are skipped and counted ("2 damaged entries kept
aside"), so a damaged file still shows the rest.
"""

from tablemate import modes
from tablemate.store.history import read
from tablemate.ui import ROW_WIDTH, Menu, shorten, text
from tablemate.ui.dialogs import Notice

_KEEP = 12


def show(app):
    games, damaged = read(app.path("history.jnl"), _KEEP)
    if games:
        app.push(Menu(app, "History", [headline(g) for g in games],
                      lambda i: app.push(Notice(app, details(games[i])))))
    if damaged:
        app.push(Notice(app, damage(damaged)))
    elif not games:
        app.push(Notice(app, "No finished games yet"))


def damage(n):
    """What the History says of the lines it could not read (they stay in the file)."""
    return "%d damaged entr%s kept aside" % (n, "y" if n == 1 else "ies")


def headline(g):
    """'Scorepad: Ann', 'Contrast: co-op lost', 'Scorepad: unfinished' (a game left early),
    within a row: the mode's short label if need be ("Cartes: Ann"), then the winners by
    their initials or their count (``text.names``), never a name cut off."""
    game = g.get("game", "?")
    said = result(g)
    for label in ("%s" % modes.label(game), "%s" % modes.short(game)):  # a damaged
        # line's game may be anything
        s = "%s: %s" % (label, said)
        if text.ink_width(s) <= ROW_WIDTH:
            return s
    won = winners(g)
    joined = ", ".join(won)
    if not won or not said.startswith(joined):
        return shorten.abbreviate(s, ROW_WIDTH)  # the label first: "Perspe.: unfinished"
    return shorten.names(label + ": ", won, ROW_WIDTH, tail=said[len(joined):])


def winners(record):
    """The names of a history line's winners."""
    names = record.get("names", [])
    return [names[i] for i in record.get("winners", []) if 0 <= i < len(names)]


def result(record):
    """How a finished game reads in the history: "Ann", "Ann, Bob (tie)", a team's "Ann & Cy"
    (outcome "team": both won together, no tie), a mode's word for its outcome ("co-op
    lost"), or "unfinished". ``record`` is a history line, already checked."""
    words = (modes.mode(record.get("game")) or {}).get("outcomes", {})
    outcome = str(record.get("outcome"))
    if record.get("coop") and "coop:" + outcome in words:
        return words["coop:" + outcome]
    if outcome in words:
        return words[outcome]
    won = winners(record)
    if not won:
        return "unfinished"
    if outcome == "team":
        return " & ".join(won)
    return ", ".join(won) + (" (tie)" if len(won) > 1 else "")


def details(g):
    """The players with their numbers ("Ann 12 Bob 8", "Ann 12 moves"; a game without numbers:
    the names, winners first), then what the standings' bottom line says ("Ann's time is up",
    the solitaire's time)."""
    from tablemate.flow import standings  # .mpy: 3.8 KB, only once a game ends
    names = g.get("names", [])
    scores = g.get("scores", [])
    numbers = standings.numbers(g)
    if numbers == standings.NONE:
        said = " ".join(names[i] for _, i in standings.ranking(scores, g.get("winners", []),
                                                                 numbers))
    else:
        said = " ".join("%s %s" % (names[i], standings.figure(numbers, scores[i]))
                        for i in range(min(len(names), len(scores))))
    why = standings.footnote(g)
    return said + ("\n" + why if why else "")

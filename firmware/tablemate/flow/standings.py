"""The final standings: every player ranked, the winners checked; OK files the game and goes home.

Its own module, loaded when a game ends (``flow.play.show_standings``) or a mode draws its final
ranking: during a game a Pico keeps only what the game needs in its heap. What a game's end
needs lives here with it: the winners in words, leaving the game.
"""

from tablemate import modes
from tablemate import keys as K
from tablemate.ui import Screen, draw_title, text


POINTS = "points"  # a game's numbers are points: more is better (the registry's default)
MOVES = "moves"  # moves (the solitaire): fewer is better
NONE = "none"  # no numbers (Perspective with others): the winners first, everyone else after


def numbers(record):
    """What the scores of a game are: ``POINTS``, ``MOVES`` or ``NONE``, as its mode's registry
    entry declares (``numbers``: a word, or a dict by the summary's ``kind``, "*" for any other
    setup; points without one). ``record`` is a history line, or a summary with its "game":
    a line written before the declaration reads by it too."""
    said = (modes.mode(record.get("game")) or {}).get("numbers", POINTS)
    if type(said) is dict:
        kind = record.get("kind")  # a damaged line's may be anything: only a word is a setup
        said = said.get(kind if type(kind) is str else "*", said.get("*", POINTS))
    return said


def ranking(scores, winners=(), numbers=POINTS):
    """[(rank, player), ...] best first: the winners, all first together (a team, whatever
    each member's numbers), then the others by their numbers (the most points, the fewest
    moves; without numbers, all together after the winners), equal numbers sharing a rank;
    players in seat order within a rank."""
    sign = -1 if numbers == POINTS else 1 if numbers == MOVES else 0
    order = sorted(range(len(scores)), key=lambda i: (i not in winners, sign * scores[i], i))
    key = lambda i: (False, 0) if i in winners else (True, sign * scores[i])  # what ranks them
    out = []
    for n in range(len(order)):
        rank = n + 1 if n == 0 or key(order[n]) != key(order[n - 1]) else out[-1][0]
        out.append((rank, order[n]))
    return out


def figure(numbers, score):
    """A player's number as the standings and the History say it: "12" (points), "12 moves"
    ("1 move"), or None (a game without numbers)."""
    if numbers == NONE:
        return None
    if numbers == MOVES:
        return "%d move%s" % (score, "" if score == 1 else "s")
    return "%d" % score


_COLUMN = (0, 67)  # x of the two columns past five players: a space's width between them,
_COLUMN_W = 61  # so that a number and the next column's rank never read as one ("604")


def draw_standings(fb, names, scores, winners, y=11, numbers=POINTS):
    """Every player ranked, one row each (two columns past five), winners checked, each
    player's number at the right (none for a game without numbers). A game without numbers
    that nobody won shows no ranks: there is no order to show."""
    rows = ranking(scores, winners, numbers)
    two = len(rows) > 5
    ranked = winners or numbers != NONE
    w = _COLUMN_W if two else 128
    for n in range(len(rows)):
        rank, i = rows[n]
        x = _COLUMN[n >= 4] if two else 0
        ry = y + (n % 4 if two else n) * 9
        if ranked:
            text.draw(fb, "%d" % rank, x, ry)
        if i in winners:
            text.draw(fb, text.CHECK, x + 8, ry)
        said = figure(numbers, scores[i])
        room = w - 16 - (text.ink_width(said) + 4 if said else 0)  # 4: clear of the number
        text.draw(fb, text.fit(names[i], room), x + 16, ry)
        if said:
            text.draw_right(fb, said, x + w, ry)


class Standings(Screen):
    """The final ranking after "End game" (or any time a mode wants it); OK or BACK goes on."""

    def __init__(self, app, game, on_done):
        Screen.__init__(self, app)
        self.game = game
        self.on_done = on_done
        record = game.rules.summary(game.state)
        record["game"] = game.name
        self.numbers = numbers(record)
        self.reason = footnote(record)  # the bottom line: why it ended ("Ann's time is up")

    def key(self, key, kind):
        if kind == K.PRESS and (key == K.OK or key == K.BACK):
            self.on_done()

    def seat(self):
        """Still the game's page: a game turned by "flip" stays turned; no one seat is faced."""
        return -1

    def draw(self, fb):
        rules = self.game.rules
        state = self.game.state
        winners = rules.result(state) or ()
        team = hasattr(rules, "outcome") and rules.outcome(state) == "team"
        title = winners_text(rules.names(state), winners, team) if winners else "Game ended"
        if text.ink_width(title) > 127:  # long names: shortened, by a module loaded only then
            from tablemate.ui import shorten  # .mpy: 1.1 KB, only for a text too long (shorten.py)
            title = shorten.abbreviate(title, 127, name=False)
        draw_title(fb, title)
        draw_standings(fb, rules.names(state), rules.scores(state), winners,
                       numbers=self.numbers)
        if self.reason:
            text.put_centered(fb, text.fit(self.reason, 128), 7)


def show(app, game):
    """Replace the game's screens by its standings; OK files the game and goes home."""
    def done():
        if not leave(app, game):
            app.home()
    app.home()
    app.push(Standings(app, game, done))


def leave(app, game):
    """Leave ``game`` (``lifecycle.finish``); when the flash keeps it from being filed, say so
    over the home menu and return True (the game stays saved, for Continue)."""
    from tablemate import lifecycle  # .mpy: 3.9 KB kept out of a game's heap
    problem = lifecycle.finish(app, game)
    if problem:
        # .mpy: 2.8 KB a game holds only once a dialog shows
        from tablemate.ui.dialogs import Notice
        app.home()
        app.push(Notice(app, problem))
    return problem is not None


def reason(record):
    """Why a finished game ended, or why its winner won, where its scores do not say it ("Ann's
    time is up", "Tie: last turn won"), or None: the mode's word for the outcome (the
    registry's ``ends``, "%s" the names of the players who did not win), else, when a winner's
    number equals another player's, its word for the tie-break (``ends["tie"]``). ``record`` is
    a history line (``rules.summary`` and the mode's name)."""
    ends = (modes.mode(record.get("game")) or {}).get("ends", {})
    won = record.get("winners") or ()
    word = ends.get(str(record.get("outcome")))
    if word is None and "tie" in ends and _tied(record.get("scores", []), won):
        word = ends["tie"]
    if word is None or not won:
        return None
    names = record.get("names", [])
    return word % ", ".join(names[i] for i in range(len(names)) if i not in won) \
        if "%s" in word else word


def _tied(scores, won):
    """True when a player who did not win has a winner's number."""
    return any(scores[i] == scores[w] for w in won for i in range(len(scores)) if i not in won)


def footnote(record):
    """What the standings' bottom line and the History's details add to the numbers: why the
    game ended (``reason``), else the time it counted (a summary's "ms": the solitaire's),
    "Time 3:45"; or None."""
    why = reason(record)
    if why is None and type(record.get("ms")) is int:
        from tablemate.store.bests import fmt_ms  # .mpy: 1.8 KB kept out of a game's heap
        why = "Time " + fmt_ms(record["ms"])
    return why


def winners_text(names, winners, team=False):
    """'Ann wins!', 'Tie: Ann, Bob', or for a team 'Ann & Cy win!', for a finished game's
    winner indices."""
    if len(winners) == 1:
        return names[winners[0]] + " wins!"
    if team:
        return " & ".join(names[i] for i in winners) + " win!"
    return "Tie: " + ", ".join(names[i] for i in winners)

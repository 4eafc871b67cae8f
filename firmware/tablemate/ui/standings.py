"""The final standings: every player ranked, the winners checked; OK files the game and goes home.

Its own module, loaded when a game ends (``ui.play.show_standings``) or a mode draws its final
ranking: during a game a Pico keeps only what the game needs in its heap. What a game's end
needs lives here with it: the winners in words, leaving the game.
"""

from tablemate import session
from tablemate.ui import Screen, draw_title, text


def ranking(scores, winners=()):
    """[(rank, player), ...] best first: the winners, all first together (a team, whatever
    each member's points), then the others by score, equal scores sharing a rank; players in
    seat order within a rank."""
    order = sorted(range(len(scores)), key=lambda i: (i not in winners, -scores[i], i))
    key = lambda i: (False, 0) if i in winners else (True, -scores[i])  # what ranks them
    out = []
    for n in range(len(order)):
        rank = n + 1 if n == 0 or key(order[n]) != key(order[n - 1]) else out[-1][0]
        out.append((rank, order[n]))
    return out


def draw_standings(fb, names, scores, winners, y=11):
    """Every player ranked, one row each (two columns past five), winners checked."""
    rows = ranking(scores, winners)
    two = len(rows) > 5
    for n in range(len(rows)):
        rank, i = rows[n]
        x = 0 if not two or n < 4 else 65
        w = 63 if two else 128
        ry = y + (n % 4 if two else n) * 9
        text.draw(fb, "%d" % rank, x, ry)
        if i in winners:
            text.draw(fb, text.CHECK, x + 8, ry)
        text.draw(fb, text.fit(names[i], w - 40), x + 16, ry)
        text.draw_right(fb, "%d" % scores[i], x + w, ry)


class Standings(Screen):
    """The final ranking after "End game" (or any time a mode wants it); OK or BACK goes on."""

    def __init__(self, app, game, on_done):
        Screen.__init__(self, app)
        self.game = game
        self.on_done = on_done
        record = game.rules.summary(game.state)
        record["game"] = game.name
        self.reason = reason(record)  # on the bottom line: why it ended ("Ann's time is up")

    def key(self, key, kind):
        from tablemate import keys as K
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
            from tablemate.ui import shorten
            title = shorten.abbreviate(title, 127, name=False)
        draw_title(fb, title)
        draw_standings(fb, rules.names(state), rules.scores(state), winners)
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
    from tablemate import lifecycle
    problem = lifecycle.finish(app, game)
    if problem:
        from tablemate.ui.dialogs import Notice
        app.home()
        app.push(Notice(app, problem))
    return problem is not None


def reason(record):
    """Why a finished game ended, where its scores do not say it ("Ann's time is up"), or None:
    the mode's word for the outcome (the registry's ``ends``) with the names of the players who
    did not win. ``record`` is a history line (``rules.summary`` and the mode's name)."""
    word = (session.mode(record.get("game")) or {}).get("ends", {}).get(str(record.get("outcome")))
    won = record.get("winners") or ()
    if word is None or not won:
        return None
    names = record.get("names", [])
    return word % ", ".join(names[i] for i in range(len(names)) if i not in won)


def winners_text(names, winners, team=False):
    """'Ann wins!', 'Tie: Ann, Bob', or for a team 'Ann & Cy win!', for a finished game's
    winner indices."""
    if len(winners) == 1:
        return names[winners[0]] + " wins!"
    if team:
        return " & ".join(names[i] for i in winners) + " win!"
    return "Tie: " + ", ".join(names[i] for i in winners)

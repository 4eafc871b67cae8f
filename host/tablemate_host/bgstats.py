"""``tablemate report --bgstats FILE``: the finished games as plays for BG Stats.

BG Stats (the board game play logger, bgstatsapp.com) takes plays from other apps as JSON: its
support page "Push plays to BG Stats from other apps or websites"
(https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/) gives
the format of one play, sent to the app as
``https://app.bgstatsapp.com/createPlay.html?data=<the play, url-encoded>``; opened on a phone
with BG Stats installed, the link shows its import dialog, where the game and players are
matched to the app's own (by BoardGameGeek id, else by name; each match is remembered).

The fields used here, all from that page: ``playDate`` ("YYYY-MM-DD HH:MM:SS"), ``durationMin``,
``location``, ``comments``, ``game`` (``name``, ``sourceGameId``, ``highestWins`` and
``noPoints``, from what the mode's numbers are, ``tablemate.ui.standings.numbers``: points, the
highest wins; moves, the lowest wins; none, no points; and ``bggId`` only when known: no
Tablemate mode has a BoardGameGeek id, so BG Stats matches it by name), ``players``
(``name``, ``sourcePlayerId``, ``score``, not sent for a game without numbers, ``winner``,
``rank``). A game the device did not date has no ``playDate`` (BG Stats then asks). Not sent:
the start player (the history does not keep who began), ``board`` and ``role``.

``FILE`` gets the list of plays (one JSON object each, the page's format), and ``FILE.html``
beside it a page with one link per play: open it on the phone and tap each link.
"""

import html
import json
from urllib.parse import quote

from tablemate import session
from tablemate.ui import standings
from tablemate_host import stats

LINK = "https://app.bgstatsapp.com/createPlay.html?data="
LOCATION = "Tablemate"


def play(g):
    """The play of finished game ``g`` (a history line) in BG Stats' format."""
    names = g["names"]
    scores = g.get("scores", [])
    won = g.get("winners", [])
    places = stats.places(g)
    mode = g.get("game", "?")
    numbers = standings.numbers(g)
    game = {"name": session.label(mode), "sourceGameId": "tablemate-" + mode,
            "highestWins": numbers != standings.MOVES, "noPoints": numbers == standings.NONE}
    bgg = (session.mode(mode) or {}).get("bgg")
    if bgg:
        game["bggId"] = bgg
    players = []
    for i, name in enumerate(names):
        p = {"name": name, "sourcePlayerId": name}
        if numbers != standings.NONE:
            p["score"] = scores[i] if i < len(scores) else 0
        p["winner"] = i in won
        p["rank"] = places.get(i, len(names))
        players.append(p)
    out = {"game": game, "location": LOCATION,
           "comments": "%s (game %s on the Tablemate)" % (stats.result(g), g.get("n", "?")),
           "players": players}
    start = stats.moment(g, "start") or stats.moment(g, "end")
    if start is not None:
        out["playDate"] = start.strftime("%Y-%m-%d %H:%M:%S")
    seconds = stats.duration(g)
    if seconds is not None:
        out["durationMin"] = max(1, (seconds + 30) // 60)
    return out


def plays(games):
    """The plays of the finished ``games``, oldest first (unfinished games are not plays)."""
    return [play(g) for g in games if stats.finished(g)]


def link(p):
    """The createPlay link that opens play ``p`` in BG Stats."""
    return LINK + quote(json.dumps(p, separators=(",", ":")), safe="")


def write(games, path, out=print):
    """Write the plays to ``path`` and their links to ``path + ".html"``."""
    found = plays(games)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(found, f, indent=1)
        f.write("\n")
    rows = "\n".join('<li><a href="%s">%s</a></li>' % (html.escape(link(p)), html.escape(
        "%s, %s: %s" % (p.get("playDate", "date unknown"), p["game"]["name"], p["comments"])))
        for p in found)
    with open(path + ".html", "w", encoding="utf-8") as f:
        f.write("<!doctype html><meta charset=utf-8><meta name=viewport "
                "content='width=device-width'><title>Tablemate plays for BG Stats</title>\n"
                "<p>Tap a play to open it in BG Stats (installed on this phone).</p>\n"
                "<ol>\n%s\n</ol>\n" % rows)
    undated = sum("playDate" not in p for p in found)
    out("BG Stats: %d plays -> %s (links to tap on the phone: %s)%s"
        % (len(found), path, path + ".html",
           "; %d without a date" % undated if undated else ""))
    return found

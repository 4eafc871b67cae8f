"""``tablemate report --bgstats FILE``: the finished games as plays for BG Stats.

BG Stats (the board game play logger, bgstatsapp.com) takes plays from other apps as JSON: its
support page "Push plays to BG Stats from other apps or websites"
(https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/) gives
the format of one play, sent to the app as
``https://app.bgstatsapp.com/createPlay.html?data=<the play, url-encoded>``; opened on a phone
with BG Stats installed, the link shows its import dialog, where the game and players are
matched to the app's own (by BoardGameGeek id, else by name; each match is remembered).

The fields used here, all from that page:
- ``sourceName`` ("Tablemate") and ``sourcePlayId``: the app that sends a play and its own id
  for it. A play imported again under the same pair updates the one BG Stats has instead of
  adding a second, so the id must stay the same whenever the same history is exported again
  (``play_id``).
- ``playDate``, "YYYY-MM-DD HH:MM:SS" in UTC: the time the play ended. The board's clock is the
  computer's local time when a command set it, so the history's times are turned into UTC with
  this computer's time zone (run the report where the games were played). The page has the
  date as a field every play carries; a game the device could not date (its clock was not set
  since the power came) gets the time of this export, and its comment says the date is
  unknown.
- ``durationMin``, ``location``, ``comments``.
- ``game``: ``name``, ``sourceGameId``, ``highestWins``, ``noPoints`` (from what the mode's
  numbers are, ``tablemate.flow.standings.numbers``: points, the highest wins; moves, the lowest
  wins; none, no points), and ``bggId`` only when known: no Tablemate mode has a BoardGameGeek
  id, so BG Stats matches it by name.
- ``players``: ``name``, ``sourcePlayerId``, ``score`` (not sent for a game without numbers),
  ``winner``, ``rank``.
Not sent: the start player (the history does not keep who began), ``board`` and ``role``.

``FILE`` gets the list of plays (one JSON object each, the page's format), and ``FILE.html``
beside it a page with one link per play: open it on the phone and tap each link.
"""

import hashlib
import html
import json
from datetime import datetime, timezone
from urllib.parse import quote

from tablemate import modes
from tablemate.flow import standings
from tablemate_host import stats

LINK = "https://app.bgstatsapp.com/createPlay.html?data="
LOCATION = "Tablemate"
SOURCE = "Tablemate"
_UTC = "%Y-%m-%d %H:%M:%S"


def play_id(g):
    """The play's ``sourcePlayId``: "tablemate-" and a digest of what identifies the game, the
    same at every export of the same history.

    Not the game's number ``n``: a history that is restored, or a board whose files were
    removed, numbers its games from 1 again, and a game an undo reopened is filed again under a
    new number. The journal's ``id`` (8 random hex digits, written with every game filed since
    games are filed the moment they end) stays with a game through its refilings, so with the
    mode and the names it is the identity;
    an older line without it is known by its start (or end) time, and an undated one by its
    scores and number, the most that line holds."""
    key = [g.get("game", "?"), g["names"]]
    if g.get("id") is not None:
        key.append(g["id"])
    elif g.get("start") or g.get("end"):
        key.append(g.get("start") or g.get("end"))
    else:
        key += [g.get("scores", []), g.get("n")]
    digest = hashlib.sha1(json.dumps(key, separators=(",", ":")).encode()).hexdigest()
    return "tablemate-" + digest[:16]


def play(g, now=None):
    """The play of finished game ``g`` (a history line) in BG Stats' format; ``now`` (a UTC
    datetime, default the time now) dates a game the device could not date."""
    names = g["names"]
    scores = g.get("scores", [])
    won = g.get("winners", [])
    places = stats.places(g)
    mode = g.get("game", "?")
    numbers = standings.numbers(g)
    game = {"name": modes.label(mode), "sourceGameId": "tablemate-" + mode,
            "highestWins": numbers != standings.MOVES, "noPoints": numbers == standings.NONE}
    bgg = (modes.mode(mode) or {}).get("bgg")
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
    when = stats.moment(g, "end") or stats.moment(g, "start")
    comments = "%s (game %s on the Tablemate)" % (stats.result(g), g.get("n", "?"))
    if when is None:
        when = now or datetime.now(timezone.utc)
        comments += "; date unknown: the day it was exported"
    else:
        when = when.astimezone(timezone.utc)  # the board's time is this computer's local time
    out = {"sourceName": SOURCE, "sourcePlayId": play_id(g),
           "playDate": when.strftime(_UTC), "game": game, "location": LOCATION,
           "comments": comments, "players": players}
    seconds = stats.duration(g)
    if seconds is not None:
        out["durationMin"] = max(1, (seconds + 30) // 60)
    return out


def plays(games, now=None):
    """The plays of the finished ``games``, oldest first (unfinished games are not plays)."""
    return [play(g, now) for g in games if stats.finished(g)]


def link(p):
    """The createPlay link that opens play ``p`` in BG Stats."""
    return LINK + quote(json.dumps(p, separators=(",", ":")), safe="")


def write(games, path, out=print):
    """Write the plays to ``path`` and their links to ``path + ".html"``."""
    found = plays(games)
    dated = [g for g in games if stats.finished(g)]
    with open(path, "w", encoding="utf-8") as f:
        json.dump(found, f, indent=1)
        f.write("\n")
    rows = "\n".join('<li><a href="%s">%s</a></li>' % (html.escape(link(p)), html.escape(
        "%s, %s: %s" % (stats.when(g), p["game"]["name"], p["comments"])))
        for g, p in zip(dated, found))
    with open(path + ".html", "w", encoding="utf-8") as f:
        f.write("<!doctype html><meta charset=utf-8><meta name=viewport "
                "content='width=device-width'><title>Tablemate plays for BG Stats</title>\n"
                "<p>Tap a play to open it in BG Stats (installed on this phone).</p>\n"
                "<ol>\n%s\n</ol>\n" % rows)
    undated = sum(stats.when(g) == stats.UNKNOWN for g in dated)
    out("BG Stats: %d plays -> %s (links to tap on the phone: %s)%s"
        % (len(found), path, path + ".html",
           "; %d without a date, dated the day of this export" % undated if undated else ""))
    return found

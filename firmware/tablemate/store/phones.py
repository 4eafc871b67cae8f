"""What the phones need across a power cut: the Wi-Fi password, and which phone holds which seat.

``/data/phones.json`` is ``{"password": "...", "seats": {name: [token, kind], ...}}``. The
password is drawn once, the first time Phones is switched on, and kept: a phone that joined the
gadget's network once joins it again by itself. The seats let a phone find its seat after a power
cut (its page keeps its token). The file never holds a vote, a pick or anything else a player
chose (docs/rules/cartes-sur-table.md: the network's part of the threat model). It is written
when a seat is taken or freed, a few times a game night, through ``write_atomic``.

A damaged file is kept aside (``.bad``) and the phones start afresh: a new password (the phones
join again from the gadget's QR code) and no seat held.
"""

from micropython import const

from tablemate import json
from tablemate.store import files
from tablemate.store.files import write_atomic

SEATS_MAX = const(8)  # a name for each phone the network can hold (``phones.table.PHONES``)
TOKEN_LEN = const(16)  # hex characters of a seat's token: 64 random bits
KIND_MAX = const(10)  # "Android", "iPhone", "a browser": what the seat's holder is told


def _password_ok(p):
    """WPA2 takes 8-63 printable ASCII characters."""
    if not isinstance(p, str) or not 8 <= len(p) <= 63:
        return False
    for c in p:
        if not " " <= c <= "~":
            return False
    return True


def _token_ok(t):
    if not isinstance(t, str) or len(t) != TOKEN_LEN:
        return False
    for c in t:
        if c not in "0123456789abcdef":
            return False
    return True


def _seat_ok(name, held):
    return (isinstance(name, str) and 1 <= len(name) <= 8 and isinstance(held, list)
            and len(held) == 2 and _token_ok(held[0]) and isinstance(held[1], str)
            and len(held[1]) <= KIND_MAX)


def load(path):
    """``(password or None, seats)``: what the file holds that is sound (a bad seat is left
    out, a bad password is None: a new one is drawn); no file: ``(None, {})``."""
    try:
        with open(path) as f:
            data = json.loads(f.read())
    except OSError:
        return None, {}
    except (ValueError, RuntimeError):  # RuntimeError: too deep for CPython's json
        data = None
    if type(data) is not dict:
        try:
            files.aside(path, move=True)
        except OSError:
            pass
        return None, {}
    password = data.get("password")
    seats = {}
    got = data.get("seats")
    if type(got) is dict:
        for name in got:
            if len(seats) < SEATS_MAX and _seat_ok(name, got[name]):
                seats[name] = list(got[name])
    return (password if _password_ok(password) else None), seats


def save(path, password, seats):
    """Keep the password and the seats (a temporary file, then a rename); OSError when the
    flash refuses: the phones play on, and find their seats again only until a power cut."""
    write_atomic(path, json.dumps({"password": password, "seats": seats}))

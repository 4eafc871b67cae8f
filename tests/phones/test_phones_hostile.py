"""Tests that try to break the phones' server, on CPython and on MicroPython's unix port: a phone
asking for another seat's vote, malformed, oversized and slow requests, more connections and
streams than the gadget serves, a ninth phone, a phone that drops mid-ballot, a power cut
between two votes. After each, the app is not on its error screen and the game goes on."""

import socket
import time

import pytest

from phones_rig import NAMES, Phone, Stream, TableRig

pytestmark = pytest.mark.xdist_group("phones_hostile")  # one rig per VM for the module


def raw(rig, data, wait=10):
    """Send ``data`` on a new connection and return what came back before it closed."""
    s = socket.create_connection(("127.0.0.1", rig.port), timeout=wait)
    s.sendall(data)
    got = b""
    try:
        while True:
            chunk = s.recv(4096)
            if not chunk:
                break
            got += chunk
    except OSError:
        pass
    s.close()
    return got


def status(reply):
    return int(reply.split(b" ")[1]) if reply.startswith(b"HTTP/1.1 ") else None


def healthy(rig):
    st = rig.state()
    assert st["top"] != "ErrorScreen", st
    return st


def secret_ballot(rig):
    assert rig.send("free *") == "ok"
    rig.start_game("cartes_sur_table", {"names": NAMES, "secret": True})
    phones = [Phone(rig.url, kind) for kind in ("iPhone", "Android", "iPad", "Android", "Mac")]
    for i, ph in enumerate(phones):
        ph.seat(i)
    return phones


def test_no_phone_reaches_another_seats_vote(rig):
    phones = secret_ballot(rig)
    ann, bob = phones[0], phones[1]
    assert ann.act(do="vote", card=3)[0] == 200
    # Bob names Ann's seat in his request: the token says whose vote it is
    assert bob.act(do="vote", card=1, seat=0)[1]["vote"] == 1
    assert ann.me()["vote"] == 3
    assert bob.me() == {"seat": 1, "name": "Bob", "vote": 1, "lost": False, "can": "vote"}
    nobody = Phone(rig.url)
    assert nobody.me() == {"seat": -1, "name": None}
    for guess in ("0" * 16, ann.token[:15] + "x", ann.token.upper(), ann.token + "0", ""):
        got = nobody.call("GET", "/me", token=guess)[1]
        assert "vote" not in got, guess
        assert nobody.call("POST", "/act", {"do": "vote", "card": 2}, token=guess)[0] == 403
    # a second phone asking for Ann's seat is told who holds it, and nothing more
    status_, got = nobody.call("POST", "/seat", {"seat": 0})
    assert status_ == 409 and "held by another phone (iPhone)" in got["error"]
    assert ann.me()["vote"] == 3 and healthy(rig)["state"]["sealed"][0] is not None


def test_malformed_and_oversized_requests_get_a_status_and_nothing_changes(rig):
    secret_ballot(rig)  # a game on the gadget: a bad seat is refused for being bad
    before = healthy(rig)
    cases = [
        (b"\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03" + b"\x00" * 40 + b"\r\n\r\n", 400),
        (b"GET /\r\n\r\n", 400),
        (b"BREW /pot HTTP/1.1\r\n\r\n", 404),
        (b"DELETE /act HTTP/1.1\r\n\r\n", 405),
        (b"GET /act HTTP/1.1\r\n\r\n", 405),
        (b"POST / HTTP/1.1\r\n\r\n", 405),
        (b"GET /" + b"a" * 200 + b" HTTP/1.1\r\n\r\n", 414),
        (b"GET / HTTP/1.1\r\nX-Junk: " + b"j" * 3000 + b"\r\n\r\n", 431),
        (b"GET / HTTP/1.1\r\n" + b"X-A: b\r\n" * 400 + b"\r\n", 431),
        (b"POST /act HTTP/1.1\r\nContent-Length: 100000\r\n\r\n" + b"x" * 300, 413),
        (b"POST /act HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n", 411),
        (b"POST /act HTTP/1.1\r\nContent-Length: 5\r\n\r\n{bad}", 400),
        (b"POST /seat HTTP/1.1\r\nContent-Length: 6\r\n\r\n[1, 2]", 400),
        (b"POST /seat HTTP/1.1\r\nContent-Length: 13\r\n\r\n{\"seat\": 1e9}", 400),
        (b"POST /act HTTP/1.1\r\nContent-Length: 12\r\n\r\n" + b"[" * 12, 400),
        (b"GET / HTTP/1.1\r\nno colon\r\n\r\n", 400),
        (b"GET /\xff\xfe HTTP/1.1\r\n\r\n", 400),
    ]
    for data, want in cases:
        got = raw(rig, data)
        assert status(got) == want, (data[:40], got[:80])
        assert b"Cache-Control: no-store" in got and b"Connection: close" in got
    # a request cut short, and a connection closed at once: no answer owed, nothing broken
    raw(rig, b"POST /act HTTP/1.1\r\nContent-Length: 50\r\n\r\n{\"do\":", wait=2)
    s = socket.create_connection(("127.0.0.1", rig.port))
    s.close()
    after = healthy(rig)
    assert after["count"] == before["count"] and after["state"] == before["state"]
    assert status(raw(rig, b"GET / HTTP/1.1\r\n\r\n")) == 200


def test_slow_and_idle_connections_time_out_and_a_crowd_is_turned_away(rig):
    idle = []
    for _ in range(12):  # CONNS_MAX connections that send half a request and wait
        s = socket.create_connection(("127.0.0.1", rig.port), timeout=15)
        s.sendall(b"GET / HTTP/1.1\r\nHost: a")
        idle.append(s)
    time.sleep(0.3)
    got = raw(rig, b"GET / HTTP/1.1\r\n\r\n")
    assert status(got) == 503 and "Too many phones on the gadget's page".encode() in got
    for s in idle:  # each is answered 408 after REQUEST_S (5 s) and closed
        s.settimeout(15)
        reply = s.recv(4096)
        assert status(reply) == 408, reply[:60]
        s.close()
    assert status(raw(rig, b"GET / HTTP/1.1\r\n\r\n")) == 200
    healthy(rig)


def test_a_tenth_event_stream_is_refused_and_a_closed_one_frees_its_place(rig):
    streams = [Stream(rig.url) for _ in range(9)]
    for st in streams:
        st.wait(lambda f: True)
    got = raw(rig, b"GET /ev HTTP/1.1\r\n\r\n")
    assert status(got) == 503 and b"Too many phones" in got
    streams[0].close()
    time.sleep(0.3)
    extra = Stream(rig.url)
    assert extra.wait(lambda f: True)["gadget"] == "Tablemate-RIG1"
    for st in streams[1:] + [extra]:
        st.close()
    healthy(rig)


def test_a_ninth_phone_is_told_the_gadget_serves_eight(rig):
    """DHCP's 8 leases cannot be emulated on 127.0.0.1: the server's own limit is what a ninth
    phone that reached the page meets (eight seats held, across games)."""
    assert rig.send("free *") == "ok"
    rig.start_game("cartes_sur_table", {"names": ["A1", "A2", "A3", "A4", "A5", "A6", "A7"],
                                        "secret": True})
    for i in range(7):
        Phone(rig.url).call("POST", "/seat", {"seat": i})
    rig.start_game("cartes_sur_table", {"names": ["B1", "B2", "B3"], "secret": True})
    assert Phone(rig.url).call("POST", "/seat", {"seat": 0})[0] == 200
    st, got = Phone(rig.url).call("POST", "/seat", {"seat": 1})
    assert st == 503 and "8 phones hold seats" in got["error"]
    for name in ["A%d" % i for i in range(1, 8)] + ["B1"]:
        assert rig.send("free " + name) == "ok"
    healthy(rig)


def test_a_phone_dropping_mid_ballot_never_holds_the_game_up(rig):
    """Contrast: Cy's page closes before he picks; the others' picks wait only the grace, then
    the gadget enters Cy when his turn comes, and the held picks after him follow."""
    assert rig.send("free *") == "ok"
    rig.start_game("contrast", {"names": NAMES})
    phones = [Phone(rig.url) for _ in NAMES]
    streams = []
    for i, ph in enumerate(phones):
        ph.seat(i)
        streams.append(Stream(rig.url, ph.token))
    streams[0].wait(lambda f: f["held"] == [True] * 5)
    for i in (0, 1, 3, 4):
        assert phones[i].act(do="pick", symbol="round")[0] == 200
    streams[2].close()  # Cy's phone goes (the rig's grace: 1 s)
    time.sleep(0.3)
    assert rig.state()["count"] == 0  # a reload takes a moment: still waited for
    streams[0].wait(lambda f: f["n"] == 2, timeout=5)  # then Ann and Bob play; Cy's turn
    time.sleep(0.3)  # the count of the phones choosing goes by itself: none is left to wait for
    st = rig.state()
    assert st["view"] == 0 and st["state"]["picks"] == ["round", "round"]
    assert st["top"] == "Contrast"
    st = rig.keys("BACK")
    assert st["top"] == "GameMenu"
    st = rig.keys("DOWN", "DOWN", "OK")  # "Skip Cy", as the gadget's menu offers it
    streams[0].wait(lambda f: f["n"] == 5 and f["round"] == 2)
    assert rig.state()["state"]["last"]["picks"] == ["round", "round", None, "round", "round"]
    for s in streams:
        s.close()
    healthy(rig)


def test_a_power_cut_between_two_votes(tmp_path, vm):
    """Ann and Bob vote, the power goes; at the next boot the phones find their seats, are told
    their votes were lost, vote again, and the ballot goes on as the gadget's would."""
    rig = TableRig(vm, str(tmp_path / "flash"), grace=1000)
    try:
        phones = secret_ballot(rig)
        phones[0].act(do="vote", card=2)
        phones[1].act(do="vote", card=3)
        sealed = rig.state()["state"]["sealed"]
        assert sealed[0] and sealed[1] and not sealed[2]
        rig.cut()
        rig.start()  # the same flash: the journal holds the two seals, never the votes
        with open(str(tmp_path / "flash" / "data" / "game.jnl")) as f:
            assert [line.split(",")[0] for line in f.read().split("\n")[1:] if line] == \
                ['["seal"', '["seal"']
        for _ in range(3):  # "Resume game?" and the notice of the lost votes
            if rig.state()["top"] != "CartesSurTable":
                rig.keys("OK")
        assert rig.state()["top"] in ("CartesSurTable", "Progress")
        assert phones[0].me() == {"seat": 0, "name": "Ann", "vote": None, "lost": True,
                                  "can": "vote"}
        for i, card in enumerate((2, 3, 1, 1, 4)):
            assert phones[i].act(do="vote", card=card)[1]["vote"] == card
        assert phones[1].me()["lost"] is False
        st = rig.state()
        if st["top"] == "Progress":
            st = rig.keys("OK")
        assert st["view"] == 3  # ALL_IN
        st = rig.keys("OK")
        assert st["state"]["last"]["votes"] == [2, 3, 1, 1, 4]
    finally:
        rig.stop()

"""No phone finds a vote before its reveal, in any byte the server sends it: its responses, its
event stream, the page. Two ballots on the same table, Ann's phone voting the same in both and
every other phone differently: until the gadget reveals, everything Ann's phone and a phone with
no seat received is byte for byte the same (the seat tokens, which differ by chance, aside).
Then the reveal, where the two must differ: the test sees votes when there are votes to see.
On CPython and on MicroPython's unix port."""

import time

import pytest

from phones_rig import NAMES, Phone, Stream

pytestmark = pytest.mark.xdist_group("phones_secret")  # one rig per VM for the module


def ballot(rig, others):
    assert rig.send("free *") == "ok"
    rig.start_game("cartes_sur_table", {"names": NAMES, "secret": True})
    phones = [Phone(rig.url) for _ in NAMES]
    for i, ph in enumerate(phones):
        ph.seat(i)
    watcher = Phone(rig.url)  # a phone on the Wi-Fi with no seat
    ann_stream = Stream(rig.url, phones[0].token)
    open_stream = Stream(rig.url)
    ann_stream.wait(lambda f: f["held"] == [True] * 5)
    tokens = [ph.token for ph in phones]
    ann, seen = phones[0], []
    seen.append(ann.call("GET", "/")[1])
    votes = [2] + list(others)
    for i in [0, 3, 1, 4, 2, 0]:  # Ann votes first and changes her vote (to the same card) last
        got = phones[i].act(do="vote", card=votes[i])
        assert got[0] == 200 and got[1]["vote"] == votes[i]
        ann_stream.wait(lambda f: f["chose"][i])
        seen.append(ann.me())
        seen.append(watcher.me())
    time.sleep(0.3)
    before = (ann_stream.frames[:], open_stream.frames[:], seen,
              [_clean(raw, tokens) for raw in ann.received[1:]],
              [_clean(raw, tokens) for raw in watcher.received])
    st = rig.keys("OK") if rig.state()["top"] != "Progress" else rig.keys("OK", "OK")
    assert st["state"]["last"] and st["state"]["last"]["votes"] == votes, st["state"]
    after = ann_stream.wait(lambda f: f["last"] is not None)
    for s in (ann_stream, open_stream):
        s.close()
    return before, after


def _clean(raw, tokens):
    for i, t in enumerate(tokens):
        raw = raw.replace(t.encode(), b"T%d" % i)
    return raw


def test_no_phone_sees_a_vote_before_the_reveal(rig):
    first, shown1 = ballot(rig, (1, 1, 1, 1))
    second, shown2 = ballot(rig, (3, 4, 4, 4))
    names = ("Ann's stream", "an open stream", "/me answers", "Ann's responses", "the watcher's")
    for k in range(5):
        assert first[k] == second[k], names[k]
    assert len(first[0]) >= 6 and first[0][-1]["chose"] == [True] * 5
    assert shown1["last"]["votes"] != shown2["last"]["votes"]  # now they are public

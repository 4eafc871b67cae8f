"""Cartes sur Table's secret ballot on the emulated Pico: secrecy on the flash, and power cuts.

    .venv/bin/python tools/pico/ballot_check.py --rig DIR [--keep DIR] [--jobs N]
        [--torn half|old|garbage] [--flash-timing typ|max|0] [--only secrecy|cuts]

The secret ballot keeps the sealed votes in RAM and puts only a random token per voter in the
journal (["seal", p, token]); the reveal writes ["reveal", votes]; both are journaled before
their frame. Each voter's picker starts on a card drawn at random. A power cut before the
reveal loses the sealed votes, and the next boot counts them ("Power cut: 2 secret votes were
lost. They vote again first.") and asks those voters first ("OK to vote again"). The host
tests mirror the firmware's writes on a host littlefs; this checks both claims where the bytes
are written by the real rp2 MicroPython 1.28 port on its own littlefs, in the ``.mpy`` install
``tablemate flash`` copies (settings with the 8 names; the setup seats its default 5 players).

0. Discovery: the rig is deterministic, rp2 draws ``random``'s seed from pico_rand (whose
   ring-oscillator bits rp2040js does not model) and the firmware's draws (game id, start
   cards, tokens) come in the same order whatever the presses; so one run plays the setup and
   OK on every picker's start card, and the lit card read from each captured picker (the
   cards in equal columns on pages 4-5, the cursor's a lit block) is the start card of every
   later run. Every run checks the start cards it sees and the card lit at each OK (the
   secrecy part) or the votes the reveal journals (the cuts part) against the intended ones.
1. Secrecy: a 5-player game with "Secret ballot: on", three secret votes, a power cut after
   the last one settles; twice, with votes 1,4,2 and then 3,1,4, each vote the same presses
   (PASS OK, four cursor moves from the start card, OK; RIGHT/LEFT move one card, DOWN two,
   which makes up the odd distances: four RIGHT/LEFT moves reach only the even ones). Both
   runs draw the same tokens, and then the two 2 MiB flash images should be byte for byte the
   same. It prints whether they are; where they differ, the littlefs tag that holds each
   differing byte (walking the metadata blocks as littlefs's fetch does: a file's mtime
   attribute, a commit CRC, ...), each seal's mtime against its write, and whether the images
   are the same once those tags' data and the tokens are masked; per seal the time from the
   OK's edge to its journal write (and from the write to the next frame); which steps' spans
   differ between the runs (what moves the later presses' instants); then the first voter
   alone on each of the four cards, the OK pressed 0, 0.3 and 0.6 ms later, to set the card's
   effect on the OK-to-write time against the press instant's. Last, every occurrence of
   ``ballot`` and of the votes as JSON in the image, against the app's own files (its code
   names "ballot" too); the files on the flash.
2. Power cuts: a reference run plays a whole ballot (5 votes, the reveal) and lists the flash
   operations from the first vote's OK to the reveal's end, and for each OK its first write,
   the end of its last and its frame (first and last display byte); then for every N of them,
   once right after and once in the middle of the N-th operation (a torn program or erase,
   the rig's ``--torn``), and for each OK once in the gap between its writes and its frame
   (half way from the last write's end to the frame's last byte; or, were the frame first,
   from the frame to the first write: a time cut that no operation count reaches), the power
   is cut, the board powered on, "Resume game?" answered with OK and the frames captured
   (after the answer, and after one more OK). Each cut checks (a) a boot to a frame with no
   traceback on the console, (b) that the journal on the flash (the rig's littlefs-python
   extraction) holds every line that was on it when the operation before the cut ended (the
   "after N-1" cut's; a gap cut: the OK's own writes too) and is a prefix of the uncut run's,
   and that a reveal in it holds the votes intended, (c) that the frame is exactly the
   firmware's Notice counting the seals in that journal, over the PASS screen of the first of
   those voters, and after one more OK that PASS screen alone, saying "OK to vote again" (no
   Notice, and the next voter's PASS screen then picker, when there is no seal or the reveal
   is in), and that the Notice's sentence is whole in its four lines, and (d) counts the votes
   to cast again: counted by the Notice (a seal on the flash, the vote gone with the RAM) and
   uncounted (the voter's OK had drawn the next screen, the seal had not reached the flash),
   and a revealed result shown, then lost: with the writes before the frames, both must be 0.
The expected frames are drawn on the host by the firmware's own drawing code and compared pixel
for pixel with the panel the rig captured. It prints a row per cut and the totals; exit 1 when
the images differ beyond littlefs's modification times (which say when each seal was written,
not what: docs/rules/cartes-sur-table.md), a vote is not the one intended, or a cut fails a
check.
"""

import argparse
import concurrent.futures
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import measure  # noqa: E402  (the rig helpers; imports tablemate_host, so firmware runs here)

from tablemate_host.framebuf import MONO_VLSB, FrameBuffer  # noqa: E402

DOWN, LEFT, RIGHT, OK = 11, 12, 13, 14  # GPIO (firmware/tablemate/board.py)
PLAYERS = 5
CARDS = PLAYERS - 1  # the picker's cards in the first rounds: 1..4
NAMES = measure.NAMES[:PLAYERS]  # the setup seats the first five of the settings' eight
SECRECY_VOTES = ([1, 4, 2], [3, 1, 4])
BALLOT_VOTES = [2, 2, 3, 2, 1]  # card 2 wins: no tie for the Patient to settle
# Four cursor moves from the start card to the card r to its right (round the ends): RIGHT and
# LEFT move one card, DOWN two. Four moves of RIGHT/LEFT alone reach only the even r, so DOWN
# makes up the odd ones (1,4,2 against 3,1,4 from the same start cards needs both parities).
PATHS = {0: [RIGHT, LEFT, RIGHT, LEFT], 1: [DOWN, LEFT, RIGHT, LEFT],
         2: [RIGHT, RIGHT, RIGHT, LEFT], 3: [DOWN, RIGHT, RIGHT, LEFT]}
SWEEP_PHASES = (0, 0.3, 0.6)  # ms added before the OK that seals, in the per-card sweep


def path(start, card):
    """The secrecy part's four moves from ``start`` to ``card``."""
    return PATHS[(card - start) % CARDS]


# -- scripts ----------------------------------------------------------------------------------
def setup_steps():
    """Boot, Cartes sur Table's setup (rows: Players, Names, Secret ballot, Just met, 1st player,
    Start), Secret ballot on, Start: the first voter's PASS screen."""
    return ([{"wait_frame_idle_ms": 400, "timeout_ms": 20000, "label": "boot"},
             {"capture": "home"}]
            + [{"press": DOWN}] * 4
            + [{"press": OK, "idle_ms": 600, "label": "Cartes sur Table's setup"},
               {"press": DOWN}, {"press": DOWN},
               {"press": OK, "capture": "secret-on", "label": "Secret ballot: on"},
               {"press": DOWN}, {"press": DOWN}, {"press": DOWN, "label": "Start"},
               {"press": OK, "idle_ms": 800, "capture": "started", "label": "Start"}])


def vote_steps(k, moves, arm=None):
    """Voter k's PASS OK, the moves (the picker captured after the last), and the OK that
    seals (``arm`` goes just before it)."""
    steps = [{"press": OK, "idle_ms": 300, "capture": "start%d" % k, "label": "pass-%d" % k}]
    steps += [{"press": key, "label": "move-%d" % k} for key in moves]
    if moves:
        steps[-1]["capture"] = "picked%d" % k
    if arm:
        steps.append(arm)
    steps.append({"press": OK, "idle_ms": 300, "capture": "voted%d" % k, "label": "seal-%d" % k})
    return steps


def discovery_script():
    """Every voter's PASS OK and OK on the card the picker starts on, then the reveal: the
    firmware's random draws (game id, start cards, tokens) come in the same order whatever the
    presses, so the start cards seen here are those of every run."""
    steps = setup_steps()
    for k in range(PLAYERS):
        steps += vote_steps(k, [])
    steps.append({"press": OK, "idle_ms": 400, "capture": "revealed", "label": "reveal"})
    return steps


def secrecy_script(votes, starts, wait=0):
    """The votes, each in four moves (``wait`` ms more before each OK that seals), and a cut
    once the last has settled."""
    steps = setup_steps()
    for k, card in enumerate(votes):
        steps += vote_steps(k, path(starts[k], card), {"wait_ms": wait} if wait else None)
    steps.append({"power_cut_in_ms": 200, "label": "cut after the last vote settled"})
    return steps


def ballot_script(starts, arm=None, where="seal-0"):
    """The whole ballot, each voter RIGHT from the start card to the card (``arm`` just before
    the OK labelled ``where``), then, when there is a cut: power on, OK to "Resume game?", one
    more OK."""
    steps = setup_steps()
    for k, card in enumerate(BALLOT_VOTES):
        steps += vote_steps(k, [RIGHT] * ((card - starts[k]) % CARDS),
                            arm if where == "seal-%d" % k else None)
    if arm and where == "reveal":
        steps.append(arm)
    steps.append({"press": OK, "idle_ms": 400, "capture": "revealed", "label": "reveal"})
    if arm:
        steps += [{"power_on": True},
                  {"wait_frame_idle_ms": 400, "timeout_ms": 20000, "label": "boot after the cut"},
                  {"capture": "resume"},
                  {"press": OK, "idle_ms": 800, "timeout_ms": 30000, "capture": "answered",
                   "label": "OK: Resume game?"},
                  {"press": OK, "idle_ms": 400, "capture": "next", "label": "one more OK"}]
    return steps


# -- the rig --------------------------------------------------------------------------------------
def build(rig, work):
    """The .mpy install and the settings, once for every run; a build that fails because the
    firmware is being edited (mpy-cross on another file) is tried again a minute later."""
    app = os.path.join(work, "app")
    for attempt in range(5):
        shutil.rmtree(app, ignore_errors=True)
        proc = subprocess.run([sys.executable, os.path.join(rig, "tools", "mkapp.py"), measure.ROOT,
                               app], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if proc.returncode == 0:
            measure.write_settings(app)
            return app
        out = proc.stdout.decode(errors="replace")
        if "cartes_sur_table.py" in out or attempt == 4:
            raise SystemExit("build failed:\n" + out[-3000:])
        print("build failed (a file being edited?), again in 60 s:\n" + out[-600:])
        time.sleep(60)


def drive(rig, app, name, steps, work, flash):
    script = os.path.join(work, name + ".json")
    with open(script, "w") as f:
        json.dump(steps, f)
    out = os.path.join(work, "out-" + name)
    shutil.rmtree(out, ignore_errors=True)
    proc = subprocess.run(["node", os.path.join(rig, "emu", "drive.mjs"), "--app", app, "--script",
                           script, "--out", out, "--i2c-timing", "1"] + flash,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    with open(os.path.join(out, "results.json")) as f:
        res = json.load(f)
    res["_out"] = out
    res["_exit"] = proc.returncode
    res["_log"] = proc.stdout.decode(errors="replace")
    return res


def read(path, mode="r"):
    try:
        with open(path, mode) as f:
            return f.read()
    except OSError:
        return None


def journal_lines(path):
    """The journal's lines as JSON (a line that does not parse is kept as its text)."""
    text = read(path, "rb")
    if text is None:
        return None
    out = []
    for raw in text.split(b"\n"):
        if raw.strip(b" \x00"):
            try:
                out.append(json.loads(raw))
            except ValueError:
                out.append(raw.decode(errors="replace"))
    return out


def serial(res):
    return read(os.path.join(res["_out"], "serial.log"), "rb").decode(errors="replace")


# -- frames: the rig's panel text, and the firmware's drawing on the host --------------------------
class _Panel(FrameBuffer):
    """A 128x64 frame as the display driver gives it to the screens (``buf`` is its RAM)."""

    def __init__(self):
        self.buf = bytearray(1024)
        FrameBuffer.__init__(self, self.buf, 128, 64, MONO_VLSB)


_HALF = {" ": (0, 0), "\u2580": (1, 0), "\u2584": (0, 1), "\u2588": (1, 1)}


def panel(out, name):
    """The captured panel as 64 rows of 128 pixels (None when there was no capture)."""
    text = read(os.path.join(out, name + ".txt"))
    if text is None:
        return None
    rows = []
    for line in text.split("\n")[:32]:
        line = line.ljust(128)[:128]
        rows.append([_HALF[c][0] for c in line])
        rows.append([_HALF[c][1] for c in line])
    return rows


def replay(lines):
    """The rules' state after the journal's actions (header first; no undo in these runs)."""
    from tablemate.rules import cartes_sur_table as rules
    state = rules.setup(lines[0]["opts"])
    for a in lines[1:]:
        if isinstance(a, list):
            rules.apply(state, a)
    return state


def _screen(state, view, voter, cur=1):
    from tablemate.screens import cartes_sur_table as cst
    from tablemate.flow.play import MessageLine

    class _Game:
        pass
    s = cst.CartesSurTable.__new__(cst.CartesSurTable)
    s.game = _Game()
    s.game.state = state
    s.view, s.voter, s.cur, s.msg = view, voter, cur, MessageLine()
    s.ballot = {}  # after a cut: no sealed vote is in RAM
    return s


def lost_text(n):
    """The firmware's Notice after a cut that took ``n`` sealed votes (None: no Notice)."""
    from tablemate.screens import cartes_sur_table as cst
    return None if not n else cst.LOST[0] if n == 1 else cst.LOST[1] % n


def _notice(fb, message):
    """Draw the firmware's Notice of ``message`` on ``fb``; its lines, all its boxes'."""
    from tablemate.ui import dialogs
    b = dialogs.Notice(None, message)  # (a Notice keeps its app only to pop itself)
    b.draw(fb)
    return b.lines, b._all


def expected(state, named):
    """The frames the firmware draws after "Resume game?": the PASS screen of the first voter
    it asks (the first whose seal is on the flash, else the next to vote), under the Notice
    counting the lost votes when there are any; and the frames it may draw after one more OK
    (the Notice gone; or, without one, that voter's picker, on any start card: the draw after
    a boot is not the one the uncut run made)."""
    from tablemate.rules import cartes_sur_table as rules
    from tablemate.screens import cartes_sur_table as cst
    voter = named[0] if named else rules.turn(state)

    def draw(view, box=None, cur=1):
        fb = _Panel()
        _screen(state, view, voter, cur).draw(fb)
        if box:
            _notice(fb, box)
        return [[fb.pixel(x, y) for x in range(128)] for y in range(64)]
    msg = lost_text(len(named))
    first = draw(cst.PASS, msg)
    seconds = ([draw(cst.PASS)] if msg else
               [draw(cst.SECRET, cur=c) for c in range(1, rules.cards(state) + 1)])
    return first, seconds, msg, voter


def notice_count(px):
    """How many lost votes a Notice on ``px`` counts, found by drawing each count (None: none
    fits, or there is no Notice)."""
    for n in range(1, PLAYERS + 1):
        fb = _Panel()
        lines = _notice(fb, lost_text(n))[0]
        h = len(lines) * 9 + 6
        y0 = (64 - h) // 2
        if all(px[y][x] == fb.pixel(x, y) for y in range(y0, y0 + h) for x in range(4, 124)):
            return n
    return None


def lit_card(px, m=CARDS):
    """The card a picker frame has lit: the cards 1..m in equal columns on pages 4-5, the
    cursor's column a lit block (``_draw_picker``); None when no column, or more than one, is
    mostly lit."""
    if px is None:
        return None
    w = 128 // m
    lit = [c for c in range(1, m + 1) if sum(px[y][x] for y in range(32, 48)
                                               for x in range((c - 1) * w + 1, c * w - 1))
           > 8 * (w - 2)]
    return lit[0] if len(lit) == 1 else None


# -- 1. secrecy ------------------------------------------------------------------------------------
FS_START, FS_BLOCK = 0xA0000, 4096  # the rp2 port's littlefs region (352 blocks)
MTIME = 0x301  # littlefs user attribute 1: MicroPython's file mtime, 8 bytes of ns since 1970
EPOCH_NS = 1609459200 * 10 ** 9  # 2021-01-01, where rp2's clock starts when no one set the RTC


def lfs_tags(img, block):
    """The tags of a littlefs metadata block, as littlefs's own fetch walks them: (offset in
    the image, type, id, data size); commits end in CRC tags, the walk stops at erased flash."""
    base = FS_START + block * FS_BLOCK
    off, ptag, out = 4, 0xFFFFFFFF, []
    while off + 4 <= FS_BLOCK:
        tag = struct.unpack(">I", img[base + off:base + off + 4])[0] ^ ptag
        if tag & 0x80000000:
            break
        kind, tid, size = (tag >> 20) & 0x7FF, (tag >> 10) & 0x3FF, tag & 0x3FF
        size = 0 if size == 0x3FF else size
        if off + 4 + size > FS_BLOCK:
            break
        out.append((base + off, kind, tid, size))
        ptag = tag
        if kind & 0x780 == 0x500:  # a commit's CRC: the next commit's valid bit flips
            ptag ^= (kind & 1) << 31
        off += 4 + size
    return out


def classify(img, offsets):
    """What each differing byte is: the tag whose header or data holds it."""
    found = {}
    for block in sorted(set((o - FS_START) // FS_BLOCK for o in offsets)):
        for at, kind, tid, size in lfs_tags(img, block):
            for o in offsets:
                if at <= o < at + 4 + size:
                    found[o] = (at, kind, tid, size)
    return found


def seal_times(res):
    """Per seal press of the first boot: its edge, its first flash operation's start and its
    last one's end, its frame's first and last display data byte (all in ms since power-on),
    the frame's data bytes and the number of flash operations."""
    ops = res["boots"][0]["flashOps"]
    out = []
    for s in res["steps"]:
        label = s["step"].get("label") or ""
        if s.get("boot") != 1 or not label.startswith("seal-") or "edge" not in s:
            continue
        mine = [o for o in ops if s["tStartMs"] <= o["atMs"] <= s["tEndMs"]]
        r, e = s.get("response") or {}, s["edge"]["ms"]
        out.append(dict(k=int(label[5:]), edge=e, write=mine[0]["atMs"] if mine else None,
                        write_end=mine[-1]["atMs"] + mine[-1]["busyMs"] if mine else None,
                        first=e + r["firstData"]["ms"], last=e + r["lastData"]["ms"],
                        bytes=r["i2c"]["dataBytes"], ops=len(mine)))
    return out


def spans(res):
    """Each step of the first boot: (start, end, span in ms, label or kind)."""
    return [(s["tStartMs"], s["tEndMs"], s["tEndMs"] - s["tStartMs"],
             s["step"].get("label") or s.get("kind"))
            for s in sorted(res["steps"], key=lambda s: s["i"])
            if s.get("boot") == 1 and "tStartMs" in s]


def secrecy_run(rig, app, work, flash, name, votes, starts, wait=0):
    res = drive(rig, app, name, secrecy_script(votes, starts, wait), work, flash)
    cut = (res.get("cuts") or [{}])[0]
    image = read(os.path.join(res["_out"], cut.get("flashImage", "flash.bin")), "rb")
    jnl = journal_lines(os.path.join(res["_out"], cut.get("fsDir", "fs"), "data", "game.jnl"))
    files = [f["path"] for f in (cut.get("fs") or {}).get("files", [])]
    # (checks) the picker started on the discovered card and the last move lit the vote
    seen = [(lit_card(panel(res["_out"], "start%d" % k)),
             lit_card(panel(res["_out"], "picked%d" % k))) for k in range(len(votes))]
    wrong = ["voter %d: started on %s (expected %d), lit %s at OK (intended %d)" % (
        k, a, starts[k], b, votes[k]) for k, (a, b) in enumerate(seen)
        if a != starts[k] or b != votes[k]]
    return dict(votes=votes, res=res, image=image, jnl=jnl, files=files, wrong=wrong,
                seals=seal_times(res), seen=seen)


def mtimes(img, block, tid):
    """The mtime attributes of file id ``tid`` in a metadata block, in commit order, in ms of
    rp2's clock (which starts at 2021-01-01 at boot)."""
    return [(at, (struct.unpack("<Q", img[at + 4:at + 12])[0] - EPOCH_NS) / 1e6)
            for at, kind, t, size in lfs_tags(img, block) if kind == MTIME and t == tid
            and size == 8]


def compare(ra, rb, title):
    """Print where two runs' images differ (each byte's littlefs tag, each seal's mtime) and
    whether they are the same once the mtimes, the commit CRCs and the tokens are masked."""
    ia, ib = ra["image"], rb["image"]
    tokens = [[a[2] for a in (r["jnl"] or [])[1:] if isinstance(a, list) and a[0] == "seal"]
              for r in (ra, rb)]
    same = ia == ib and ia is not None
    print("  %s: tokens %s / %s (%s); flash images byte-identical: %s" % (
        title, tokens[0], tokens[1], "the same" if tokens[0] == tokens[1] else "DIFFERENT",
        "YES" if same else "NO"))
    if same or ia is None or ib is None:
        return same, same
    diff = [i for i in range(len(ia)) if ia[i] != ib[i]]
    print("    %d bytes differ, 0x%x..0x%x, in %d 4 KB block(s) of the filesystem (block %s)" % (
        len(diff), diff[0], diff[-1], len(set(d >> 12 for d in diff)), ", ".join(sorted(set(
            "%d" % ((d - FS_START) // FS_BLOCK) for d in diff)))))
    where = classify(ia, diff)
    names = {MTIME: "mtime attribute", 0x500: "commit CRC", 0x5FF: "next-commit CRC",
             0x201: "inline file data"}
    masks = [bytearray(ia), bytearray(ib)]
    for at, kind, tid, size in sorted(set(where.values())):
        hit = [o for o in diff if at <= o < at + 4 + size]
        line = "      %d B (%s) in the %s (tag at 0x%x, id %d, %d B)" % (
            len(hit), ", ".join("0x%x" % o for o in hit), names.get(kind, "tag 0x%03x" % kind),
            at, tid, size)
        if kind == MTIME:
            t = [struct.unpack("<Q", img[at + 4:at + 12])[0] for img in (ia, ib)]
            line += ": %+.3f ms" % ((t[1] - t[0]) / 1e6)
        print(line)
        if kind in (MTIME, 0x500, 0x5FF):
            for m in masks:
                m[at + 4:at + 4 + size] = b"#" * size
    # each seal's mtime against its write: the clock of the mtime is the write's
    tids = set((at - at % FS_BLOCK, tid) for at, kind, tid, size in where.values() if kind == MTIME)
    for base, tid in sorted(tids):
        block = (base - FS_START) // FS_BLOCK
        ta, tb = mtimes(ia, block, tid), mtimes(ib, block, tid)
        n = len(ra["seals"])
        for r, ts, label in ((ra, ta, "a"), (rb, tb, "b")):
            print("      %s votes %s: the last %d mtimes of file id %d in block %d, minus their "
                  "seal's write time: %s ms" % (label, r["votes"], n, tid, block, " / ".join(
                      "%.3f" % (t - s["write"]) for (_, t), s in zip(ts[-n:], r["seals"]))))
    for m, toks in zip(masks, tokens):
        for t in toks:
            for x in re.finditer(b"%d" % t, bytes(m)):
                m[x.start():x.end()] = b"#" * (x.end() - x.start())
    rest = [i for i in range(len(ia)) if masks[0][i] != masks[1][i]]
    unexplained = [o for o in diff if o not in where]
    print("    with the mtime attributes, the commit CRCs and the tokens masked: %s%s" % (
        "byte-identical" if not rest else "%d bytes still differ (first at 0x%x)" % (
            len(rest), rest[0]), "; %d differing bytes outside any tag" % len(unexplained)
        if unexplained else ""))
    return same, not rest


def secrecy(rig, app, work, flash, starts, jobs):
    print("== 1. Secrecy on the flash: two runs, votes %s and %s, the same start cards %s and "
          "presses (PASS OK, 4 moves, OK), cut after the third vote" % (
              SECRECY_VOTES[0], SECRECY_VOTES[1], starts[:3]))
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        runs = list(pool.map(lambda iv: secrecy_run(rig, app, work, flash, "secret-%d" % (
            iv[0] + 1), iv[1], starts), enumerate(SECRECY_VOTES)))
    wrong = []
    for r in runs:
        res = r["res"]
        wrong += ["votes %s: %s" % (r["votes"], w) for w in r["wrong"]]
        print("  votes %s: drive.mjs exit %d, cut at %.1f ms, %d B image, journal actions %s" % (
            r["votes"], res["_exit"], res["cuts"][0]["atMs"] if res.get("cuts") else -1,
            len(r["image"] or b""), (r["jnl"] or [])[1:]))
        print("    per seal: OK edge at %s ms; OK to the journal write %s ms (%s flash op(s)); "
              "write end to the frame's first display byte %s ms; frame %s data bytes; "
              "start card / card lit at OK %s" % (
                  " / ".join("%.3f" % s["edge"] for s in r["seals"]),
                  " / ".join("%.3f" % (s["write"] - s["edge"]) for s in r["seals"]),
                  "/".join("%d" % s["ops"] for s in r["seals"]),
                  " / ".join("%.3f" % (s["first"] - s["write_end"]) for s in r["seals"]),
                  "/".join("%d" % s["bytes"] for s in r["seals"]),
                  " ".join("%s/%s" % v for v in r["seen"])))
    ra, rb = runs
    same, masked_same = compare(ra, rb, "as played")
    # where the press instants part: each step's span in both runs
    sa, sb = spans(ra["res"]), spans(rb["res"])
    parted = [(i, a[3], a[2], b[2]) for i, (a, b) in enumerate(zip(sa, sb))
              if abs(a[2] - b[2]) > 0.0005]
    print("    the OK edges differ by %s ms; the steps whose spans differ (a / b ms): %s" % (
        " / ".join("%+.3f" % (b["edge"] - a["edge"]) for a, b in zip(ra["seals"], rb["seals"])),
        ", ".join("%d %s %.3f/%.3f" % p for p in parted) or "none"))
    # the first voter alone, each card from the same start card, the OK pressed 0, 0.3 and
    # 0.6 ms later than the rig's settle: the OK-to-write time against the card and the phase
    sweep = [(c, ph) for c in range(1, CARDS + 1) for ph in SWEEP_PHASES]
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        got = dict(pool.map(lambda cp: (cp, secrecy_run(
            rig, app, work, flash, "sweep-%d-%s" % (cp[0], cp[1]), [cp[0]], starts,
            wait=cp[1])), sweep))
    wrong += ["sweep %s: %s" % (cp, w) for cp, r in got.items() for w in r["wrong"]]
    delay = dict((cp, r["seals"][0]["write"] - r["seals"][0]["edge"]) for cp, r in got.items())
    print("  the first voter alone (start card %d), OK to the journal write in ms, per card lit "
          "(row) and the OK pressed %s ms after the rig's usual instant (columns):" % (
              starts[0], " / ".join("%g" % ph for ph in SWEEP_PHASES)))
    for c in range(1, CARDS + 1):
        print("    card %d: %s" % (c, "  ".join("%.3f" % delay[(c, ph)] for ph in SWEEP_PHASES)))
    by_card = [max(delay[(c, ph)] for c in range(1, CARDS + 1))
               - min(delay[(c, ph)] for c in range(1, CARDS + 1)) for ph in SWEEP_PHASES]
    by_phase = [max(delay[(c, ph)] for ph in SWEEP_PHASES)
                - min(delay[(c, ph)] for ph in SWEEP_PHASES) for c in range(1, CARDS + 1)]
    print("    spread over the cards at one instant: %s ms; over the instants for one card: %s ms"
          % (" / ".join("%.3f" % x for x in by_card), " / ".join("%.3f" % x for x in by_phase)))
    for w in wrong:
        print("  WRONG VOTE: %s" % w)
    # the bytes "ballot" and the votes as JSON: in the image, and in the app's own files
    own = b""
    for root, _, names in os.walk(app):
        for n in names:
            own += read(os.path.join(root, n), "rb") + b"\x00"
    for r in runs:
        votes, image, files = r["votes"], r["image"], r["files"]
        pats = [b"ballot", b'"reveal"', b'"vote"']
        pats += [s.encode() for s in ("%s" % votes, json.dumps(votes), ",".join(map(str, votes)))]
        found = []
        for p in dict.fromkeys(pats):
            at = [m.start() for m in re.finditer(re.escape(p), image or b"")]
            found.append("%s: %d in the image, %d in the app's own files%s" % (
                p.decode(), len(at), own.count(p), "" if not at else " (at " + ", ".join(
                    "0x%x" % a for a in at[:8]) + ")"))
        print("  votes %s:\n    %s" % (votes, "\n    ".join(found)))
        print("    %d files on the flash; in /data: %s" % (len(files), ", ".join(
            f[6:] for f in files if f.startswith("/data/"))))
    return same, masked_same, wrong


# -- 2. power cuts --------------------------------------------------------------------------------
def step_times(res):
    """label -> (edge ms, ms of the press's first display data byte, of its last; None when
    none) for the first boot's steps (None, None, None: the step did not run)."""
    out = {}
    for s in res["steps"]:
        label = s["step"].get("label")
        if s.get("boot") != 1 or not label or label in out:
            continue
        if s.get("skipped") or "edge" not in s:
            out[label] = (None, None, None)
            continue
        r = s.get("response") or {}
        edge = s["edge"]["ms"]
        first, last = [(r.get(k) or {}).get("ms") for k in ("firstData", "lastData")]
        out[label] = (edge, None if first is None else edge + first,
                      None if last is None else edge + last)
    return out


def reference(rig, app, work, flash, starts):
    """The uncut ballot: its flash operations from the first vote's OK (each with the press it
    came in), the journal at the end, and per OK its edge, first write, last write's end and
    frame (first and last display byte)."""
    res = drive(rig, app, "ballot-uncut", ballot_script(starts), work, flash)
    times = step_times(res)
    start = times["seal-0"][0]
    ops = [o for o in res["boots"][0]["flashOps"] if o["atMs"] >= start]
    spans = sorted((t[0], label) for label, t in times.items() if t[0] is not None)
    for o in ops:
        o["press"] = [label for at, label in spans if at <= o["atMs"]][-1]
    windows = {}
    for i, o in enumerate(ops):
        w = windows.setdefault(o["press"], dict(
            edge=times[o["press"]][0], frame_first=times[o["press"]][1],
            frame_last=times[o["press"]][2], write=o["atMs"], first_op=i + 1))
        w["write_end"], w["last_op"] = o["atMs"] + o["busyMs"], i + 1
    jnl = journal_lines(os.path.join(res["_out"], "fs", "data", "game.jnl"))
    return res, ops, jnl, times, windows


def gap_at(w):
    """Where the "gap" cut of an OK goes: half way between its frame's last byte and its first
    write when the frame comes first, else between its last write's end and that byte."""
    if w["frame_last"] <= w["write"]:
        return (w["frame_last"] + w["write"]) / 2
    return (w["write_end"] + w["frame_last"]) / 2


def prefix_len(a, b):
    n = 0
    while n < len(a) and n < len(b) and a[n] == b[n]:
        n += 1
    return n


def one_cut(rig, app, work, flash, starts, key, ops, windows):
    """Cut ``key`` = (mode, N): "after" or "during" the N-th operation from the first vote's OK;
    "gap": in the gap between the frame and the writes of the OK whose first write is op N."""
    mode, n = key
    if mode == "gap":
        press = ops[n - 1]["press"]
        w = windows[press]
        arm = {"power_cut_in_ms": round(gap_at(w) - w["edge"], 3), "label": "arm"}
        script = ballot_script(starts, arm, press)
    else:
        arm = {"power_cut_after_flash_ops": n, "kind": "any", "during": mode == "during",
               "timeout_ms": 20000, "label": "arm"}
        script = ballot_script(starts, arm)
    return key, drive(rig, app, "cut-%s-%d" % key, script, work, flash)


def check_cut(res, full):
    """One cut's row: (a) boot, (c) the frames, (d) who votes again; the journal on the flash
    for (b), which needs the other cuts."""
    row = {}
    cut = (res.get("cuts") or [None])[0]
    if cut is None:
        row["error"] = "the cut did not fire"
        return row
    out = res["_out"]
    row["cut_ms"] = cut["atMs"]
    jnl = journal_lines(os.path.join(out, cut["fsDir"], "data", "game.jnl")) or []
    row["journal"] = jnl
    log = serial(res)
    boot2 = res["boots"][1] if len(res["boots"]) > 1 else {}
    row["traceback"] = "Traceback" in log or any(s.get("exception") for s in res["steps"])
    row["boot_ok"] = bool(boot2.get("firstFrameMs")) and not row["traceback"]
    row["prefix_ok"] = prefix_len(jnl, full) == len(jnl)
    actions = [a for a in jnl[1:] if isinstance(a, list)]
    row["damaged"] = len(jnl) - 1 - len(actions)
    reveals = [a[1] for a in actions if a[0] == "reveal"]
    revealed = bool(reveals)
    row["reveal_ok"] = all(v == BALLOT_VOTES for v in reveals)  # the votes intended
    seals = [] if revealed else sorted(set(a[1] for a in actions if a[0] == "seal"))
    state = replay(jnl)
    first, seconds, msg, voter = expected(state, seals)
    got1, got2, resume = panel(out, "answered"), panel(out, "next"), panel(out, "resume")
    row["resume_prompt"] = resume is not None and _shows(resume, "Resume game?")
    row["count_expected"] = len(seals)
    row["frame_ok"] = got1 == first
    row["next_ok"] = got2 in seconds
    # the first voter asked: "OK to vote again" when their vote was lost, else "OK to vote"
    again = got2 is not None and _shows(got2, "OK to vote again")
    row["again_ok"] = again if seals else not (got1 is not None and _shows(got1, "vote again"))
    if row["frame_ok"]:
        row["count_shown"] = row["count_expected"]
    else:
        row["count_shown"] = notice_count(got1) if got1 is not None else None
    row["first_asked"] = NAMES[voter] if voter >= 0 else "-"
    row["text_cut"] = ""  # what of the Notice's sentence its four lines leave out
    if msg:  # in its first box, so that the one more OK closes it
        shown = " ".join(_notice(_Panel(), msg)[0])
        row["text_cut"] = msg[len(shown):].strip() if msg.startswith(shown) else "?"
    times = step_times(res)
    seen = [k for k in range(PLAYERS) if times["seal-%d" % k][2] is not None
            and times["seal-%d" % k][2] <= cut["atMs"]]
    row["again_named"] = len(seals)
    row["again_unnamed"] = [] if revealed else [NAMES[k] for k in seen if k not in seals]
    shown = times["reveal"][2]
    row["result_lost"] = shown is not None and shown <= cut["atMs"] and not revealed
    return row


def _shows(px, words):
    from tablemate.ui import text
    from tablemate_host.device import render_rows
    rows = render_rows(words, text.SMALL)
    h, w = len(rows), len(rows[0])
    return any(all(px[y + j][x:x + w] == rows[j] for j in range(h))
               for y in range(64 - h + 1) for x in range(128 - w + 1))


def power_cuts(rig, app, work, flash, jobs, starts):
    ref, ops, full, times, windows = reference(rig, app, work, flash, starts)
    print("\n== 2. Power cuts at every flash operation of the ballot (votes %s from the start "
          "cards %s, then the reveal)" % (BALLOT_VOTES, starts))
    reveal = [a[1] for a in full[1:] if isinstance(a, list) and a[0] == "reveal"]
    print("  uncut run: drive.mjs exit %d, %d flash operations from the first vote's OK to the "
          "reveal's end; journal actions %s; the reveal journals %s (%s)" % (
              ref["_exit"], len(ops), full[1:], reveal, "the votes intended" if reveal == [
                  BALLOT_VOTES] else "NOT THE VOTES INTENDED %s" % BALLOT_VOTES))
    for i, o in enumerate(ops):
        print("    op %d: %-7s %4d B at 0x%s (fs block %s), %.1f ms, busy %.1f ms, in the OK %s" % (
            i + 1, o["kind"], o["len"], o["offs"][2:], o["fsBlock"], o["atMs"], o["busyMs"],
            o["press"]))
    print("  per OK, from its edge (ms): first write, last write's end, its frame's first and "
          "last display byte; frame before the write?")
    for p, w in windows.items():
        print("    %-7s %6.3f %7.3f %7.3f %7.3f  %s" % (
            p, w["write"] - w["edge"], w["write_end"] - w["edge"], w["frame_first"] - w["edge"],
            w["frame_last"] - w["edge"], "YES, %.3f ms before" % (w["write"] - w["frame_last"])
            if w["frame_last"] <= w["write"] else "no: the frame's first byte %.3f ms after the "
            "write's end" % (w["frame_first"] - w["write_end"])))
    todo = ([(m, n) for m in ("after", "during") for n in range(1, len(ops) + 1)]
            + [("gap", w["first_op"]) for w in windows.values()])
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        done = dict(pool.map(lambda key: one_cut(rig, app, work, flash, starts, key, ops,
                                                 windows), todo))
    rows = dict((key, check_cut(done[key], full)) for key in todo)
    # (b) the journal on the flash when the N-th operation had ended is the "after N" cut's (0:
    # the uncut run's lines before the first seal); a cut after or during op N must hold the
    # one after N-1, a gap cut what the OK's writes before it left
    boundary = {0: full[:1 + next(i for i, a in enumerate(full[1:]) if a[0] == "seal")]}
    for n in range(1, len(ops) + 1):
        if "journal" in rows[("after", n)]:
            boundary[n] = rows[("after", n)]["journal"]
    for (mode, n), r in rows.items():
        if "journal" in r:
            w = windows[ops[n - 1]["press"]]
            held = (w["last_op"] if mode == "gap" and w["frame_last"] > w["write"] else n - 1)
            before = boundary.get(held, [])
            r["lost"] = len(before) - prefix_len(r["journal"], before)
    print("\n  %-9s %-20s %7s %-4s %-6s %-4s %-14s %-5s %-5s %-5s %-13s %s" % (
        "cut", "operation", "at ms", "boot", "prompt", "lost", "Notice (exp.)", "frame", "next",
        "again", "asked unnamed", "journal on the flash"))
    t = dict(cuts=0, boots=0, lost=0, prefix_bad=0, frame_bad=0, named=0, named_cuts=0,
             unnamed=0, unnamed_cuts=0, result_lost=0, errors=0, damaged=0, text_cut=0,
             again_bad=0, reveal_bad=0, gap_cuts=0, gap_unnamed=0, gap_result_lost=0)
    for key in todo:
        mode, n = key
        r, o = rows[key], ops[n - 1]
        t["cuts"] += 1
        label = "%s %d" % key
        what = "%s, OK %s" % ("gap" if mode == "gap" else o["kind"], o["press"])
        if "error" in r:
            t["errors"] += 1
            print("  %-9s %-20s %s" % (label, what, r["error"]))
            continue
        t["boots"] += r["boot_ok"]
        t["lost"] += max(r["lost"], 0)
        t["prefix_bad"] += not r["prefix_ok"]
        t["damaged"] += r["damaged"]
        t["frame_bad"] += not (r["frame_ok"] and r["next_ok"])
        t["again_bad"] += not r["again_ok"]
        t["reveal_bad"] += not r["reveal_ok"]
        t["named"] += r["again_named"]
        t["named_cuts"] += r["again_named"] > 0
        t["unnamed"] += len(r["again_unnamed"])
        t["unnamed_cuts"] += bool(r["again_unnamed"])
        t["result_lost"] += r["result_lost"]
        t["text_cut"] += bool(r["text_cut"])
        if mode == "gap":
            t["gap_cuts"] += 1
            t["gap_unnamed"] += len(r["again_unnamed"])
            t["gap_result_lost"] += r["result_lost"]
        shown = "?" if r["count_shown"] is None else "%d" % r["count_shown"] if r[
            "count_shown"] else "-"
        if r["count_shown"] != r["count_expected"]:
            shown += " (%s)" % (r["count_expected"] or "none")
        acts = " ".join("R" if isinstance(a, list) and a[0] == "reveal" else
                        "s%d" % a[1] if isinstance(a, list) else "??" for a in r["journal"][1:])
        print("  %-9s %-20s %7.1f %-4s %-6s %-4s %-14s %-5s %-5s %-5s %-13s %s%s%s%s" % (
            label, what, r["cut_ms"], "ok" if r["boot_ok"] else "FAIL",
            "ok" if r["resume_prompt"] else "NO",
            ("%d" if r["prefix_ok"] else "%d!") % r["lost"], shown,
            "ok" if r["frame_ok"] else "DIFF", "ok" if r["next_ok"] else "DIFF",
            "ok" if r["again_ok"] else "NO",
            ", ".join(r["again_unnamed"]) or "-", acts or "-",
            "  (the result was shown, then lost)" if r["result_lost"] else "",
            "  (Notice leaves out: %r)" % r["text_cut"] if r["text_cut"] else "",
            "" if r["reveal_ok"] else "  (REVEAL NOT THE VOTES INTENDED)"))
    print("\n  totals: %(cuts)d cuts, %(boots)d booted to a frame with no traceback; %(lost)d "
          "journal lines lost that were on the flash before the cut, %(prefix_bad)d journals not "
          "a prefix of the uncut run's, %(damaged)d damaged lines; %(frame_bad)d cuts whose "
          "frames are not the expected ones, %(again_bad)d whose first voter's PASS screen does "
          "not say \"OK to vote again\" exactly when their vote was lost; %(reveal_bad)d reveals "
          "not the votes intended; votes to cast again: %(named)d counted by the Notice "
          "(in %(named_cuts)d cuts), %(unnamed)d asked again uncounted, their OK's frame seen "
          "but their seal not on the flash (in %(unnamed_cuts)d cuts); %(result_lost)d revealed "
          "results lost after being shown; of the %(gap_cuts)d gap cuts, %(gap_unnamed)d "
          "uncounted votes and %(gap_result_lost)d results lost; %(errors)d cuts that did not "
          "fire; %(text_cut)d Notices whose four lines leave the end of the sentence out" % t)
    # (c) the Notice's sentence for every count a game can have (3-7 players), on the host
    fits = [(n, len(_notice(_Panel(), lost_text(n))[1])) for n in range(1, 8)]
    print("  the Notice for 1..7 lost votes takes %s lines of its box's 4 (drawn on the host)" % (
        "/".join("%d" % k for n, k in fits)))
    bad = [key for key in todo if "error" in rows[key] or not rows[key]["boot_ok"]
           or rows[key]["lost"] or not rows[key]["prefix_ok"] or not rows[key]["frame_ok"]
           or not rows[key]["next_ok"] or not rows[key]["resume_prompt"]
           or not rows[key]["again_ok"] or not rows[key]["reveal_ok"]
           or rows[key]["again_unnamed"] or rows[key]["result_lost"] or rows[key]["text_cut"]
           or rows[key]["damaged"]]
    if reveal != [BALLOT_VOTES]:
        bad.append(("uncut", 0))
    if any(k > 4 for n, k in fits):
        bad.append(("notice", 0))
    for key in bad:
        if key not in rows:
            continue
        r = rows[key]
        print("\n  -- %s %d: %s" % (key[0], key[1], dict(
            (k, v) for k, v in r.items() if k != "journal")))
        log = serial(done[key])
        if "Traceback" in log:
            print(log[max(0, log.index("Traceback") - 200):][:1500])
        for name in ("resume", "answered", "next"):
            print("  frame %s:\n%s" % (name, read(os.path.join(done[key]["_out"], name + ".txt"))))
    return t, bad


def discover(rig, app, work, flash):
    """The card each voter's picker starts on (see ``discovery_script``)."""
    res = drive(rig, app, "discovery", discovery_script(), work, flash)
    starts = [lit_card(panel(res["_out"], "start%d" % k)) for k in range(PLAYERS)]
    jnl = journal_lines(os.path.join(res["_out"], "fs", "data", "game.jnl")) or []
    reveal = [a[1] for a in jnl[1:] if isinstance(a, list) and a[0] == "reveal"]
    print("== 0. Discovery: drive.mjs exit %d; the pickers start on the cards %s; the reveal of "
          "those (OK on the start card) journals %s" % (res["_exit"], starts, reveal))
    if None in starts or reveal != [starts]:
        raise SystemExit("discovery failed: the start cards read %s, the reveal %s" % (
            starts, reveal))
    return starts


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rig", default=os.environ.get("PICO_RIG"), help="built rig folder (or $PICO_RIG)")
    ap.add_argument("--keep", help="keep the app, the scripts and the rig's output in this folder")
    ap.add_argument("--jobs", type=int, default=min(4, os.cpu_count() or 1),
                    help="rig runs at once (default: the CPUs, at most 4)")
    ap.add_argument("--torn", default="half", choices=("half", "old", "garbage"),
                    help="what a cut during a program or erase leaves (the rig's --torn)")
    ap.add_argument("--flash-timing", default="typ", choices=("typ", "max", "0"),
                    help="the flash chip's busy times (the rig's --flash-timing)")
    ap.add_argument("--only", choices=("secrecy", "cuts"), help="run one of the two parts")
    args = ap.parse_args(argv)
    rig = os.path.abspath(args.rig or "")
    if not os.path.exists(os.path.join(rig, "emu", "drive.mjs")):
        ap.error("--rig must name a built copy of tools/pico/rig (see tools/pico/README.md)")
    flash = ["--torn", args.torn, "--flash-timing", args.flash_timing]
    work = args.keep or tempfile.mkdtemp(prefix="tablemate-ballot-")
    os.makedirs(work, exist_ok=True)
    t0 = time.time()
    ok = True
    try:
        app = build(rig, work)
        starts = discover(rig, app, work, flash)
        if args.only != "cuts":
            same, masked_same, wrong = secrecy(rig, app, work, flash, starts, max(1, args.jobs))
            ok = ok and masked_same and not wrong  # the mtimes tell when, not what
        if args.only != "secrecy":
            totals, bad = power_cuts(rig, app, work, flash, max(1, args.jobs), starts)
            ok = ok and not bad
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    print("\nhost time %.0f s (MicroPython v1.28 rp2 on rp2040js; --torn %s, --flash-timing %s)" % (
        time.time() - t0, args.torn, args.flash_timing))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

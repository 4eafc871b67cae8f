"""The bad-file matrix's machinery (issue 14), for ``test_bad_files.py``, on both VMs.

A *flash* is a dict {path under the root: bytes}. A *spec* names one file the device reads, how
a sound copy of it is made (by playing through the real app, or with the firmware's own
writers), the screen path that reads it (``drive``), what may follow (``follow``: the rest of
the interaction that uses what was read), which screens count as a readable end, and what may
become of the file. ``Spec.cases`` turns the sound bytes into the damaged ones, by kind;
``run(spec, bad)`` restores the flash with the one file damaged, boots the app on it, drives
to the reader and returns what went wrong (an empty list when nothing did):

- an exception that escaped the app, an ErrorScreen, an empty screen stack or an errors.log;
- a top screen that is not one of the spec's readable ones (a Notice or the normal screen), or
  a blank frame;
- any OTHER file not byte-identical to what the same drive leaves on the sound flash;
- the corrupted file neither left as it was nor kept aside byte-identical as NAME.bad/.bad1...
  (``grows`` specs may also append to it: the journal voids a torn line, the history closes it);
- a rendered string wider than ``HUGE_PX``: a Pico renders a string into a buffer of its own
  (``ui/text.py``), 6 bytes per character, so a 20 KB string would ask its ~150 KB heap for
  120 KB; the WASM VM's heap just grows, so this is checked by width, not by running out;
- text work that grows with the square of a string (``Measured``: a hang on a Pico);
- the home menu not reachable with BACK/OK (and a menu's "Home") afterwards.

Only firmware modules, ``rig`` and ``support`` are imported: no ``random`` (``support.Lcg``).
"""

import json
import os
import sys

import support
from rig import FakeI2C, FakePWM, FakeProbe, Rig, ScriptInput
from tablemate import keys as K

ON_VM = sys.implementation.name == "micropython"
HUGE = 20000  # characters in a "huge" string: a name of 20 KB
DEEP = 200  # nesting levels of a "deeply nested" value
HUGE_PX = 1024  # the widest string a screen may render (eight screens); a fitted one is 128
WORK = 3000000  # characters a case may have ``text.width`` measure (a sound case: < 100000)
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal")
SCRATCH = "badfiles"
_DIR_BIT = 0x4000
ALL_CUTS = 300  # files shorter than this are truncated at every byte (on CPython)
SPREAD = 40  # cut points of a longer file (both ends included)


# -- the flash ---------------------------------------------------------------------------------
def _is_dir(path):
    try:
        return os.stat(path)[0] & _DIR_BIT != 0
    except OSError:
        return False


def snapshot(root, sub=""):
    """{path under root: bytes} of every file below root."""
    out = {}
    base = root + ("/" + sub if sub else "")
    for name in os.listdir(base):
        rel = sub + "/" + name if sub else name
        if _is_dir(root + "/" + rel):
            out.update(snapshot(root, rel))
        else:
            out[rel] = support.read_bytes(root + "/" + rel)
    return out


_ROOTS = {}


def restore(flash, scratch=SCRATCH):
    """The scratch root holding exactly ``flash`` (only what differs is written: a case
    changes a file or two of the last one's flash)."""
    root = _ROOTS.get(scratch)
    if root is None or not _is_dir(root):
        root = _ROOTS[scratch] = support.scratch_dir(scratch)
    have = snapshot(root)
    for rel in have:
        if rel not in flash:
            os.remove(root + "/" + rel)
    for rel in sorted(flash):
        if have.get(rel) == flash[rel]:
            continue
        path = root
        for part in rel.split("/")[:-1]:
            path += "/" + part
            if not _is_dir(path):
                os.mkdir(path)
        support.write_bytes(root + "/" + rel, flash[rel])
    return root


class Boot(Rig):
    """``Rig`` on the flash as it is: the rig writes its own settings.json first, which would
    overwrite the one under test (and the full one the matrix's flash holds)."""

    def __init__(self, root):  # Rig.__init__ but for the settings file it writes
        from tablemate.app import App
        from tablemate.hw.peripherals import Buzzer
        from tablemate.hw.ssd1306 import SSD1306
        self.root = root
        self.i2c = FakeI2C()
        self.pwm = FakePWM()
        self.input = ScriptInput()
        self.display = SSD1306(self.i2c)
        self.app = App(self.display, lambda layout: self.input, root, Buzzer(self.pwm),
                       FakeProbe())
        self.now = 1000
        self.app.start(self.now)
        self.advance(50)


class TooMuchWork(Exception):
    """Raised (once a case) by the counting ``text.width`` past ``WORK`` characters."""


class Measured:
    """``with Measured():`` ``text.width`` counts the characters it measures and raises
    TooMuchWork past ``WORK``, once, inside the app (whose net shows it as an ErrorScreen).
    Text work that grows with the square of a string's length (a 20 KB word wrapped a
    character at a time) would hang a Pico for hours and fill the VM's deferred-GC heap: the
    matrix turns that into a prompt, named failure instead of a stuck run."""

    def __enter__(self):
        from tablemate.ui import text
        self.real = real = text.width
        count = [0]

        def width(s, font=text.SMALL):
            count[0] += len(s)
            if count[0] > WORK and count[0] - len(s) <= WORK:
                raise TooMuchWork("text.width measured over %d characters" % WORK)
            return real(s, font)
        text.width = width
        return self

    def __exit__(self, *exc):
        from tablemate.ui import text
        text.width = self.real


class FixedIds:
    """``with FixedIds():`` every new game gets the same id. Game ids are random
    (``store.game._new_id``), and a run must file the same bytes as its sound reference."""

    def __enter__(self):
        from tablemate.store import game
        self.real = game._new_id
        game._new_id = lambda: "0badf11e"
        return self

    def __exit__(self, *exc):
        from tablemate.store import game
        game._new_id = self.real


# -- JSON surgery ------------------------------------------------------------------------------
def dumps(obj):
    return json.dumps(obj).encode()


def copy(obj):
    return json.loads(json.dumps(obj))


def fields(obj, path=(), depth=3):
    """Paths of the values inside obj (dict keys sorted: both VMs in the same order; lists by
    their first element only), outermost first."""
    out = []
    if depth == 0:
        return out
    if type(obj) is dict:
        for k in sorted(obj):
            out.append(path + (k,))
            out += fields(obj[k], path + (k,), depth - 1)
    elif type(obj) is list and obj:
        out.append(path + (0,))
        out += fields(obj[0], path + (0,), depth - 1)
    return out


def get(obj, path):
    for p in path:
        obj = obj[p]
    return obj


def put(obj, path, value):
    """A copy of obj with the value at path replaced."""
    obj = copy(obj)
    if not path:
        return value
    get(obj, path[:-1])[path[-1]] = value
    return obj


def name(path):
    return ".".join(str(p) for p in path) or "top"


_MARK = "@@BADFILES@@"


def deep_list(depth):
    return b"[" * depth + b"]" * depth


def deep_dict(depth):
    return b'{"a": ' * depth + b"{}" + b"}" * depth


def spliced(obj, path, raw):
    """obj as JSON bytes with the value at path replaced by the raw bytes ``raw``."""
    return dumps(put(obj, path, _MARK)).replace(b'"' + _MARK.encode() + b'"', raw)


WRONG = ((None, "null"), (True, "true"), (-1, "-1"), (1.5, "1.5"), ("x", '"x"'), ([], "[]"),
         ({}, "{}"))


def _kind_of(v):
    if v is None:
        return "null"
    if v is True or v is False:
        return "bool"
    return type(v).__name__


def json_cases(obj, extra_range=()):
    """(kind, label, raw bytes of the whole value) for a sound JSON value ``obj``: wrong types
    (top level and per field), out-of-range values, huge strings and numbers, deep nesting,
    unknown keys. ``extra_range``: the spec's own out-of-range (path, value) pairs."""
    out = []
    for v, label in WRONG:
        if _kind_of(v) != _kind_of(obj):
            out.append(("types", "top=" + label, dumps(v)))
    out.append(("types", "top=[sound]", dumps([obj])))
    paths = fields(obj)
    for path in paths:
        have = _kind_of(get(obj, path))
        for v, label in WRONG:
            if _kind_of(v) != have:
                out.append(("types", "%s=%s" % (name(path), label), dumps(put(obj, path, v))))
    for path in paths:
        v = get(obj, path)
        if type(v) is int:
            for bad in (-1, 1000000, 2 ** 40):
                out.append(("range", "%s=%d" % (name(path), bad), dumps(put(obj, path, bad))))
        elif type(v) is str:
            out.append(("range", name(path) + '=""', dumps(put(obj, path, ""))))
            out.append(("range", name(path) + "=64 chars", dumps(put(obj, path, "W" * 64))))
        elif type(v) is list:
            out.append(("range", name(path) + "=[]", dumps(put(obj, path, []))))
            if v:
                out.append(("range", name(path) + "=x100", dumps(put(obj, path, v[:1] * 100))))
    for path, bad in extra_range:
        out.append(("range", "%s=%s" % (name(path), str(bad)[:24]), dumps(put(obj, path, bad))))
    big = "A" * HUGE
    for path in paths:
        v = get(obj, path)
        if type(v) is str:
            out.append(("huge", name(path) + "=20KB", dumps(put(obj, path, big))))
        elif type(v) is int:
            out.append(("huge", name(path) + "=20000 digits",
                        spliced(obj, path, b"9" * HUGE)))
    if type(obj) is dict:
        more = copy(obj)
        more["zz" + big] = big
        out.append(("huge", "20KB unknown key", dumps(more)))
    out.append(("deep", "top=%d lists" % DEEP, deep_list(DEEP)))
    out.append(("deep", "top=%d dicts" % DEEP, deep_dict(DEEP)))
    for path in paths:
        out.append(("deep", "%s=%d lists" % (name(path), DEEP),
                    spliced(obj, path, deep_list(DEEP))))
    for path in [()] + paths:
        v = get(obj, path) if path else obj
        if type(v) is dict:
            out.append(("unknown", name(path) + "+zz", dumps(put(obj, path + ("zz",), 1))))
            out.append(("unknown", name(path) + "+empty key", dumps(put(obj, path + ("",), None))))
        elif type(v) is list and path == ():
            out.append(("unknown", "top+extra item", dumps(obj + [0])))
    return out


# -- bytes -------------------------------------------------------------------------------------
def cuts(size, every=ALL_CUTS, spread=SPREAD):
    """Cut points 1..size-1: every one for a file under ``every`` bytes, else ``spread`` of them
    spaced evenly, both ends included (0 is the "empty" case, size the sound file)."""
    if size <= 1:
        return []
    if size - 1 <= every:
        return list(range(1, size))
    n = spread
    out = []
    for i in range(n):
        c = 1 + (size - 2) * i // (n - 1)
        if not out or c != out[-1]:
            out.append(c)
    return out


def _lcg_bytes(seed, n, lo=0, hi=256):
    rng = support.Lcg(seed)
    return bytes(lo + rng.below(hi - lo) for _ in range(n))


def byte_cases(good, target=None):
    """(kind, label, bytes) that damage the file's bytes: empty, truncated, garbage, invalid
    UTF-8. ``target`` (start, end) is the span of the line the text cases aim at."""
    out = [("empty", "empty", b"")]
    for c in cuts(len(good)):
        out.append(("cut", "cut at %d/%d" % (c, len(good)), good[:c]))
    n = max(len(good), 8)
    out.append(("garbage", "random bytes", _lcg_bytes(14, n)))
    out.append(("garbage", "random ascii", _lcg_bytes(41, n, 32, 127)))
    out.append(("garbage", "NULs", b"\x00" * n))
    out.append(("garbage", "0xFF", b"\xff" * n))
    out.append(("garbage", "newlines", b"\n" * min(n, 64)))
    half = len(good) // 2
    out.append(("garbage", "half + random", good[:half] + _lcg_bytes(7, n - half)))
    out.append(("garbage", "NUL in the middle", good[:half] + b"\x00" + good[half:]))
    out.append(("garbage", "sound + NUL + junk", good + b"\x00junk"))
    out.append(("garbage", "sound + junk", good + b" }{ junk"))
    out.append(("garbage", "sound twice", good + good))
    start, end = target or (0, len(good))
    q = good.find(b'"', start, end)
    at = q + 1 if q >= 0 else start
    for seq, label in ((b"\xff", "0xFF"), (b"\xc3", "lone lead byte"),
                       (b"\x80", "lone continuation"), (b"\xc0\xaf", "overlong"),
                       (b"\xed\xa0\x80", "surrogate")):
        out.append(("utf8", label + " in a string", good[:at] + seq + good[at:]))
    out.append(("utf8", "0xFF first", b"\xff" + good))
    out.append(("utf8", "BOM first", b"\xef\xbb\xbf" + good))
    return out


def line_cases(good, index, extra_range=()):
    """The JSON cases aimed at one line of a file of JSON lines (index may be negative), the
    other lines as they are."""
    lines = good.split(b"\n")
    i = _real(lines)[index]
    obj = json.loads(lines[i])
    out = []
    for kind, label, raw in json_cases(obj, extra_range):
        new = lines[:i] + [raw] + lines[i + 1:]
        out.append((kind, "line %d: %s" % (i + 1, label), b"\n".join(new)))
    return out


def _real(lines):
    """Indexes of the lines that hold JSON (not blank, not a # comment, not a journal's void
    line: the one a primed journal holds after each save, ``Game.prime``)."""
    return [i for i in range(len(lines))
            if lines[i].strip(b" \t\x00") and lines[i][:1] != b"#"]


def line_span(good, index):
    lines = good.split(b"\n")
    i = _real(lines)[index]
    start = sum(len(x) + 1 for x in lines[:i])
    return start, start + len(lines[i])


# -- the VM's subset ---------------------------------------------------------------------------
def spread(items, n):
    """n items of ``items`` spaced evenly, the first and the last included."""
    if len(items) <= n:
        return items
    if n <= 1:
        return items[:n]
    return [items[(len(items) - 1) * i // (n - 1)] for i in range(n)]


def thin(cases, caps):
    """Per kind, at most caps[kind] cases (spread evenly: deterministic), in the same order."""
    by = {}
    order = []
    for c in cases:
        if c[0] not in by:
            by[c[0]] = []
            order.append(c[0])
        by[c[0]].append(c)
    out = []
    for kind in order:
        out += spread(by[kind], caps.get(kind, len(by[kind])))
    return out


# -- driving the app ---------------------------------------------------------------------------
def dismiss(rig, names=("Notice",)):
    """OK on notices (at most three) until something else is on top."""
    for _ in range(3):
        if rig.top() in names:
            rig.press(K.OK)


def solve_solitaire(rig):
    """From the home menu: a Perspective solitaire started, one move, and solved in two moves
    (OK to "Solved in 2 moves?"): on the screen, filed, a record kept."""
    choose(rig, "Perspective")
    rig.presses(K.LEFT, K.LEFT, K.LEFT)  # one player: the solitaire
    choose(rig, "Start")
    dismiss(rig)  # the doubles' reminder
    rig.press(K.OK)  # the first colour
    rig.press(K.UP)
    rig.advance(1000)
    rig.press(K.OK)  # solved
    rig.press(K.OK)  # "Solved in 2 moves?" Yes: a new record


def choose(rig, label):
    """Pick ``label`` in the menu on top, or the first row that starts with it (rows show
    values); AssertionError, never a loop, when the menu is not there or lacks it."""
    menu = rig.app.top()
    items = getattr(menu, "items", None) or ()
    found = [i for i in items if i == label] or [i for i in items if i.startswith(label)]
    if not found:
        raise AssertionError("no %r in %s %r" % (label, rig.top(), items))
    for _ in range(len(items) + 1):
        if rig.app.top() is not menu:
            raise AssertionError("%s left while looking for %r" % (rig.top(), label))
        if menu.items[menu.index] == found[0]:
            rig.press(K.OK)
            return
        rig.press(K.DOWN)
    raise AssertionError("%r not reached in %r" % (label, items))


def go_home(rig):
    """BACK/OK (and a menu's "Home", Yes when it asks) until the home menu is on top; True
    when it is."""
    homed = False
    for _ in range(12):
        screen = rig.app.top()
        if screen is None:
            return False
        kind = type(screen).__name__
        if kind == "Home":
            return True
        items = getattr(screen, "items", None)
        if items and "Home" in items:
            choose(rig, "Home")
            homed = True
            continue
        yes = homed and kind == "Confirm"  # "Leave the clock?": the walk's own question
        homed = False
        rig.press(K.OK if yes or kind in ("Notice", "ErrorScreen", "Standings") else K.BACK)
        if rig.app.top() is screen:
            rig.press(K.OK)
    return rig.top() == "Home"


def _wide(font, limit):
    """Rendered strings of a font wider than ``limit`` px (dropped from its caches)."""
    found = []
    for cache in (font.new, font.old, font.kept):
        for s in list(cache):
            if cache[s][0] > limit:
                found.append(cache[s][0])
                del cache[s]
    return found


def huge_renders():
    from tablemate.ui import text
    found = _wide(text.SMALL, HUGE_PX)
    for font in text._LARGE:
        found += _wide(font, HUGE_PX)
    return found


def screen_problems(rig, allowed):
    """What is wrong with the screen on top: an error, an empty stack, a blank frame, or a
    screen that is not one of ``allowed``."""
    out = []
    app = rig.app
    if not app.stack:
        return ["empty screen stack (the app's last resort: a lit bar)"]
    names = [type(s).__name__ for s in app.stack]
    if "ErrorScreen" in names:
        screen = app.stack[-1]
        return ["ErrorScreen %s: %s" % (getattr(screen, "kind", "?"),
                                        " ".join(getattr(screen, "lines", ())))]
    kind = names[-1]
    if kind not in allowed:
        out.append("top is %s (stack %s), not one of %s" % (kind, names, allowed))
    if kind == "Notice" and not "".join(app.stack[-1].lines).strip():
        out.append("an empty Notice")
    if not any(rig.display.buf):
        out.append("a blank frame")
    wide = huge_renders()
    if wide:
        out.append("rendered a %d px string (a Pico would need %d KB for it)"
                   % (max(wide), max(wide) // 1024 + 1))
    return out


def _asides(files, path):
    return [p for p in files if p.startswith(path + ".bad")]


def file_problems(spec, before, ref, now, bad):
    """What the run did wrong to the flash: ``before`` the corrupted flash, ``ref`` what the
    same drive left on the sound flash, ``now`` the flash after the run."""
    out = []
    path = spec.path
    ours = (path, path + ".tmp")
    for p in sorted(set(ref) | set(now)):
        if p in ours or p.startswith(path + ".bad"):
            continue
        if p not in now:
            out.append("lost " + p)
        elif p not in ref:
            out.append("new file " + p)
        elif now[p] != ref[p]:
            out.append("changed " + p)
    if path + ".tmp" in now and path + ".tmp" not in ref:
        out.append("left " + path + ".tmp")
    asides = _asides(now, path)
    kept = False
    for p in asides:
        if now[p] == bad or (spec.grows and now[p].startswith(bad)):
            kept = True
        elif p not in before:
            out.append("%s is not the damaged file" % p)
    if kept:
        return out
    if path in now:
        if now[path] != bad and not (spec.grows and now[path].startswith(bad)):
            out.append("%s changed, no copy kept aside (%d -> %d bytes)"
                       % (path, len(bad), len(now[path])))
    elif not (spec.consumed and path not in ref):
        out.append("%s removed, no copy kept aside" % path)
    return out


class Spec:
    """One file the device reads, and the path of screens that reads it.

    path: the file, relative to the root ("data/settings.json"); build(): the sound flash;
    drive(rig): to the screen that reads the file; allowed: the readable ends of the drive;
    follow(rig) and after: what is then done with what was read, and its readable ends;
    form: "json" (one JSON value), "lines" (JSON lines: ``lines`` are the indexes of those the
    JSON cases aim at) or "raw" (bytes only); grows: the reader may append to the file;
    consumed: the drive removes the file on the sound flash too (so it may here);
    free: other files whose bytes depend on what the damaged file held (not compared);
    extra(good): more (kind, label, bytes) cases; extra_range(obj): out-of-range (path, value)
    pairs of the spec; caps: the VM's subset, at most so many cases per kind.
    """

    def __init__(self, path, build, drive, allowed, follow=None, after=None, form="json",
                 lines=(-1,), grows=False, consumed=False, free=(), extra=None,
                 extra_range=None, caps=None):
        self.path = path
        self.build = build
        self.drive = drive
        self.allowed = allowed
        self.follow = follow
        self.after = after or allowed
        self.form = form
        self.lines = lines
        self.grows = grows
        self.consumed = consumed
        self.free = free
        self.extra = extra
        self.extra_range = extra_range
        self.caps = caps or {}
        self._ref = None

    def flash(self):
        return self.build()

    def good(self):
        return self.flash()[self.path]

    def cases(self):
        good = self.good()
        if self.form == "json":
            obj = json.loads(good)
            rng = self.extra_range(obj) if self.extra_range else ()
            out = byte_cases(good) + json_cases(obj, rng)
            out.append(("huge", "top=20KB string", dumps("A" * HUGE)))
        elif self.form == "lines":
            out = byte_cases(good, line_span(good, self.lines[0]))
            for i in self.lines:
                obj = json.loads(good.split(b"\n")[_real(good.split(b"\n"))[i]])
                rng = self.extra_range(obj) if self.extra_range else ()
                out += line_cases(good, i, rng)
            out.append(("huge", "a 20KB line", good + b"A" * HUGE + b"\n"))
        else:
            out = byte_cases(good)
            out.append(("huge", "20KB", b"A" * HUGE))
        if self.extra:
            out += self.extra(good)
        if ON_VM:
            out = thin(out, self.caps)
        return out

    def reference(self):
        """What the drive leaves on the sound flash (worked out once)."""
        if self._ref is None:
            with FixedIds():
                root = restore(self.flash())
                rig = Boot(root)
                self.drive(rig)
                self._ref = snapshot(root)
                problems = screen_problems(rig, self.allowed)
                if self.follow:
                    self.follow(rig)
                    problems += screen_problems(rig, self.after)
                assert not problems, "%s, sound: %s" % (self.path, problems)
                assert go_home(rig), "%s, sound: no way home" % self.path
        return self._ref


def run(spec, bad):
    """Boot on the spec's flash with its file replaced by ``bad``; return the problems."""
    ref = spec.reference()
    flash = dict(spec.flash())
    flash[spec.path] = bad
    stage = "boot"
    with FixedIds(), Measured():
        root = restore(flash)
        try:
            rig = Boot(root)
            stage = "drive"
            spec.drive(rig)
            problems = screen_problems(rig, spec.allowed)
            now = snapshot(root)
            ref = dict(ref)
            for p in spec.free:
                now.pop(p, None)
                ref.pop(p, None)
            problems += file_problems(spec, flash, ref, now, bad)
            if spec.follow and not problems:
                stage = "follow"
                spec.follow(rig)
                problems += ["then: " + p for p in screen_problems(rig, spec.after)]
            stage = "home"
            if not go_home(rig):
                problems.append("home not reachable: %s on top" % rig.top())
        except Exception as exc:  # what escapes the app is what this looks for
            problems = ["%s raised %s: %s" % (stage, type(exc).__name__, str(exc)[:80])]
    return problems


def matrix(spec, cases=None):
    """Run the cases of ``spec`` (all of them by default); assert that none went wrong,
    listing each distinct problem with how many cases met it and a few of them. Returns the
    number of cases run."""
    seen = {}
    order = []
    if cases is None:
        cases = spec.cases()
    for kind, label, bad in cases:
        for p in run(spec, bad):
            key = p[:150]
            if key not in seen:
                seen[key] = []
                order.append(key)
            seen[key].append(kind + ": " + label)
    report = []
    for key in order:
        got = seen[key]
        report.append("%s -- %d case(s), e.g. %s" % (key, len(got), "; ".join(got[:3])))
    assert not report, "%s, %d cases:\n%s" % (spec.path, len(cases), "\n".join(report))
    return len(cases)


_FLASHES = {}


def memo(name, make):
    """``make()``, once per process (the VM runs every test file in one)."""
    if name not in _FLASHES:
        _FLASHES[name] = make()
    return _FLASHES[name]

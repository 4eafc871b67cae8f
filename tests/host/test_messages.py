"""What players read is pinned: every message the firmware can show is checked by a test.

The firmware's messages are found in its source (``messages``): the text of every refusal
(``RuleError``), every line a game screen shows on its message line (``refuse``, ``announce``,
``msg.show``), every ``Notice`` and ``Confirm``, the problems a store or a screen reports
(names with "problem", "message", "hint", "status" or "reason"), and the module constants that
hold a sentence, and the sentences functions return for their callers to show ("Flash full").
A message is pinned when a test holds its words: a string in a test that the message renders
to (its format's placeholders filled in any way), or a whole line of it (a notice wraps), or
twelve characters or more of one of its lines. Screen messages must be pinned by a test that reads the virtual display
(tests/scenario, tests/host, tests/web); a refusal may be pinned by a logic test instead
(``support.refused`` checks its words on both VMs, and ``GameScreen.refuse`` shows those words
as they are: ``test_a_refusal_shows_the_rules_words`` below).

``ALLOW`` lists what no test can show, each with its reason. A message that is neither pinned
nor allowed fails ``test_every_message_is_pinned_by_a_test``, naming its file and line.
"""

import ast
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIRMWARE = os.path.join(ROOT, "firmware", "tablemate")
TESTS = os.path.join(ROOT, "tests")
# call name -> which argument is the message
CALLS = {"RuleError": 0, "refuse": 0, "announce": 0, "Notice": 1, "Confirm": 1}
SAYS = re.compile(r"(problem|message|hint|status|reason)", re.I)
WORDS = re.compile(r"[A-Za-z]{2,}[:,.?!]* +[A-Za-z]{2,}")  # words: not a glyph, a grid, a path
PLACEHOLDER = re.compile(r"%[-0-9.]*[sdrxf]")

# Files whose sentences go to the serial console, not the display: a test of any kind pins them.
CONSOLE = ("firmware/tablemate/boardcheck.py", "firmware/tablemate/boot.py")
# (file, first words) -> why no test can show it
ALLOW = {
    ("firmware/tablemate/screens/viewpoint.py", "No card left to play"):
        "a safety net: it needs a hand holding cards while every copy of every card is seen, "
        "and the unseen copies always count the cards in hands (the one way around it, a "
        "cancel of a card a correction had taken back, is refused: test_viewpoint's "
        "test_a_played_card_a_correction_took_back_cannot_be_cancelled)",
    ("firmware/tablemate/phones/cartes_sur_table.py", "Not taken: see gadget"):
        "a safety net: a phone's vote and tie-break are checked against every refusal of the "
        "rules before they go through the game screen (test_phones_table's "
        "test_bad_requests_are_refused_and_change_nothing), so the screen cannot refuse them",
}


def _pieces(node):
    """A message expression's text as pieces: str for fixed text, None for what varies (a
    placeholder of its % format, or an expression joined to it)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _pieces(node.left) + _pieces(node.right)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and (
            isinstance(node.left, ast.Constant) and isinstance(node.left.value, str)):
        return [None if PLACEHOLDER.fullmatch(part) else part
                for part in re.split("(" + PLACEHOLDER.pattern + ")", node.left.value) if part]
    return [None]


def _message_nodes(tree):
    """(node, kind) of every message expression in a module: kind "rule" for a RuleError."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
            if name in CALLS and len(node.args) > CALLS[name]:
                yield node.args[CALLS[name]], "rule" if name == "RuleError" else "screen"
            if name == "show" and isinstance(f, ast.Attribute) and isinstance(
                    f.value, ast.Attribute) and f.value.attr == "msg" and node.args:
                yield node.args[0], "screen"
        elif isinstance(node, ast.Return) and node.value is not None:
            yield node.value, "screen"  # a problem or a word a caller shows ("Flash full")
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            t = node.targets[0]
            name = t.id if isinstance(t, ast.Name) else t.attr if isinstance(t, ast.Attribute) else ""
            if (name.isupper() and len(name) > 2) or SAYS.search(name):
                yield node.value, "screen"


def messages():
    """[(file, line, pieces, kind)] of every message in the firmware: kind "rule" (a
    refusal), "console" (printed on the serial port) or "screen"."""
    found = []
    for folder, _, names in os.walk(FIRMWARE):
        for name in sorted(names):
            if not name.endswith(".py"):
                continue
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, ROOT)
            with open(path, encoding="utf-8") as f:
                tree = ast.parse(f.read(), rel)
            for node, kind in _message_nodes(tree):
                kind = "console" if rel in CONSOLE else kind
                todo = [node]
                while todo:
                    x = todo.pop()
                    if isinstance(x, ast.IfExp):
                        todo += [x.body, x.orelse]
                        continue
                    pieces = _pieces(x)
                    text = "".join(p for p in pieces if p)
                    if WORDS.search(text):
                        found.append((rel, x.lineno, pieces, kind))
    return found


def _test_strings(folders):
    """Every string constant (and % format) in the tests under ``folders``."""
    out = set()
    for top in folders:
        for folder, _, names in os.walk(os.path.join(TESTS, top)):
            for name in names:
                if not name.endswith(".py") or name == "test_messages.py":  # (its own check)
                    continue
                with open(os.path.join(folder, name), encoding="utf-8") as f:
                    tree = ast.parse(f.read(), name)
                for n in ast.walk(tree):
                    if isinstance(n, ast.Constant) and isinstance(n.value, str):
                        out.add(n.value)
                    elif isinstance(n, ast.JoinedStr):
                        out.update(v.value for v in n.values if isinstance(v, ast.Constant))
    return out


def pinned(pieces, strings):
    """True when a test string is a rendering of the message, or a whole line of it (a notice
    wraps), or twelve characters or more of one of its lines."""
    rx = re.compile("".join(".*?" if p is None else re.escape(p) for p in pieces), re.S)
    fixed = [line.strip() for p in pieces if p for line in p.split("\n") if line.strip()]
    for s in strings:
        if rx.fullmatch(s):
            return True
        t = s.strip()
        if t and any(t in line and len(t) >= min(12, len(line)) for line in fixed):
            return True
    return False


def _key(rel, pieces):
    return rel, "".join(p if p else "%" for p in pieces)[:24]


def test_every_message_is_pinned_by_a_test():
    display = _test_strings(["scenario", "host", "web", "phones"])  # phones: what a phone's page
    # shows, read from the server's answers
    anywhere = display | _test_strings(["logic"])
    missing = []
    for rel, line, pieces, kind in messages():
        if _key(rel, pieces) in ALLOW:
            continue
        if not pinned(pieces, display if kind == "screen" else anywhere):
            missing.append("%s:%d %r" % (rel, line, "".join(p or "%s" for p in pieces)))
    assert not missing, ("%d messages no test reads (test them on the virtual display, or add "
                         "them to ALLOW with the reason):\n" % len(missing)) + "\n".join(missing)


def test_allowed_messages_still_exist_and_are_unpinned():
    found = dict((_key(rel, pieces), pieces) for rel, _, pieces, _ in messages())
    stale = [k for k in ALLOW if k not in found]
    assert not stale, "ALLOW names messages the firmware no longer has: %r" % stale


def test_the_scan_finds_the_messages_it_must():
    """The scan's own check: messages of every kind it looks for are among those it finds."""
    texts = set("".join(p or "%s" for p in pieces) for _, _, pieces, _ in messages())
    for words in ("Limit reached", "Undo needs the flash", "Record not saved", "Saved again",
                  "Flash full", "It is %s's turn", "Journal damaged",
                  "Replace the saved %s? The History files it unfinished."):
        assert any(words in t for t in texts), words
    assert len(texts) > 150

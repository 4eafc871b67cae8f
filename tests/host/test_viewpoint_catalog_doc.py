"""The catalog file examples in the README and in docs/rules/viewpoint.md are files the firmware
reads without a problem: a reader who copies one gets those cards."""

import json
import os
import re

from tablemate.rules import viewpoint, viewpoint_extra

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _example(doc, after):
    """The lines of the first ``` block after the line ``after`` in ``doc``."""
    with open(os.path.join(ROOT, doc), encoding="utf-8") as f:
        text = f.read()
    block = re.search(r"```\n(.*?)```", text[text.index(after):], re.S)
    return block.group(1).splitlines()


def test_the_examples_are_read_whole():
    for doc, after, names in (
            ("README.md", "### Cards from other Viewpoint sets",
             ["Glimpse", "Veto", "Downpour", "Glance Left"]),
            ("docs/rules/viewpoint.md", "## Cards from other sets",
             ["Glimpse", "Veto", "Mirage", "Downpour"])):
        entries, problems = viewpoint_extra.parse(viewpoint, _example(doc, after), json.loads)
        assert problems == [] and [e[0] for e in entries] == names, (doc, problems, entries)
    entries = viewpoint_extra.parse(viewpoint, _example("README.md", "### Cards from other"), json.loads)[0]
    assert entries[2][3] == [["draw", 1, "all"], ["drop", 1, "others"]]
    assert entries[3][3] == [["passleft", 1, "all"]]

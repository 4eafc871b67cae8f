"""The help a newcomer reads first: plain words, no reStructuredText markup from docstrings."""

import os
import re

import pytest

from tablemate_host import cli, exports

README = os.path.join(os.path.dirname(__file__), "..", "..", "README.md")

COMMANDS = ["sim", "screens", "flash", "players", "pull", "report", "backup", "restore", "bench"]


def _help(capsys, args):
    with pytest.raises(SystemExit):
        cli.build_parser().parse_args(args + ["--help"])
    return capsys.readouterr().out


@pytest.mark.parametrize("args", [[]] + [[c] for c in COMMANDS])
def test_help_has_no_markup(capsys, args):
    out = _help(capsys, args)
    assert "usage: tablemate" in out
    assert "``" not in out and "`" not in out, out


def test_report_help_and_the_readme_name_what_report_writes(capsys):
    """Issue 32: the help said report lists who won (it lists every game, unfinished ones too)
    and that --plots writes two files (it writes four): both now come from the code's own
    names, and the README names the same."""
    with open(README, encoding="utf-8") as f:
        readme = f.read()
    top = " ".join(_help(capsys, []).split())
    assert "print every game of a pulled history (unfinished ones too)" in top, top
    out = " ".join(_help(capsys, ["report"]).split())
    for name in [p[0] for p in exports.PLOTS] + [exports.PROGRESSION[0]]:
        assert name in out, (name, out)
        assert "`%s`" % name in readme, name
    assert ", ".join(exports.COLUMNS) in out, out
    assert "`%s`" % ",".join(exports.COLUMNS) in readme
    assert re.search(r"tablemate report \S*history\.jnl", readme), "how to point report at a file"

"""The help a newcomer reads first: plain words, no reStructuredText markup from docstrings."""

import pytest

from tablemate_host import cli

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

"""Smoke test for tools/power.py: it reads the measured awake fractions, draws each state on
the virtual SSD1306 and prints a row per state with both batteries. No figure is asserted
(they are the benchmark's to print, ``hardware/power.md`` says where each input comes from),
only that each state has its row and that a sleeping state draws less than the old loop."""

import os
import runpy

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
POWER = os.path.join(ROOT, "tools", "power.py")


def test_power_table_has_every_state(capsys):
    power = runpy.run_path(POWER)
    assert power["main"]([]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = {line.split("  ")[0].strip(): line for line in lines[1:]}
    for state in power["STATES"] + ("home, before", "phones on"):
        assert state in rows, state
        assert rows[state].count(" mA ") == 2 and rows[state].endswith(" h")
    pico = power["state_ma"]
    assert sum(pico(0.01, 1000, 64, True)) < sum(pico(1.0, 1000, 64, True))
    assert sum(pico(1.0, 1000, 64, True)) < sum(pico(1.0, 1000, 64, True, radio=True))


def test_every_source_is_documented():
    power = runpy.run_path(POWER)
    with open(os.path.join(ROOT, "hardware", "power.md"), encoding="utf-8") as f:
        doc = f.read()
    for name in power["SOURCES"]:
        assert "`%s`" % name in doc, name

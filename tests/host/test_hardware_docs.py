"""The pin map and wiring diagram in hardware/ agree with firmware/tablemate/board.py."""

import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))

import gen_hardware  # noqa: E402

BOARD = gen_hardware.load_board()


def board_pins():
    """(signal as the table names it, GP number) for every pin BOARD sets."""
    pins = [("OLED SDA", BOARD["sda"]), ("OLED SCL", BOARD["scl"])]
    pins += [("button " + k, gp) for k, gp in BOARD["buttons"].items()]
    if BOARD.get("buzzer") is not None:
        pins.append(("piezo +", BOARD["buzzer"]))
    return pins


def pinmap_rows():
    with open(gen_hardware.README, encoding="utf-8") as f:
        text = f.read()
    section = text.split(gen_hardware.START, 1)[1].split(gen_hardware.END, 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 5 and cells[0] not in ("signal", "---"):
            rows[cells[0]] = cells
    return rows


def test_generated_hardware_docs_are_current():
    result = subprocess.run(
        [sys.executable, os.path.join(ROOT, "tools", "gen_hardware.py"), "--check"],
        capture_output=True, text=True)
    if result.returncode:
        pytest.fail("run `make generate` (or python tools/gen_hardware.py): " + result.stderr,
                    pytrace=False)


def test_pin_map_lists_every_board_pin():
    rows = pinmap_rows()
    for signal, gp in board_pins():
        assert signal in rows, "%s missing from the pin map in hardware/README.md" % signal
        _, gpio, pin, colour, _ = rows[signal]
        assert gpio == "GP%d" % gp, signal
        assert pin == str(gen_hardware.GP_TO_PIN[gp]), signal
        assert colour, signal


def test_physical_pins_follow_the_pico_pinout():
    # spot checks against the Raspberry Pi Pico datasheet's pinout
    expect = {0: 1, 4: 6, 5: 7, 10: 14, 15: 20, 16: 21, 22: 29, 26: 31, 28: 34}
    for gp, pin in expect.items():
        assert gen_hardware.GP_TO_PIN[gp] == pin
    assert gen_hardware.PICO_PINS[36] == "3V3(OUT)"
    assert sorted(gen_hardware.GND_PINS) == [3, 8, 13, 18, 23, 28, 38]


def test_power_rows_use_power_pins():
    rows = pinmap_rows()
    assert rows["OLED VCC"][2] == "36 (3V3(OUT))"
    for signal in ("OLED GND", "button GND rail", "piezo -"):
        if signal in rows:
            assert rows[signal][2].endswith("(GND)"), signal


def test_wiring_svg_marks_each_used_gpio():
    with open(gen_hardware.SVG, encoding="utf-8") as f:
        svg = f.read()
    used = set(re.findall(r'class="name used"[^>]*>(GP\d+)<', svg))
    for signal, gp in board_pins():
        assert "GP%d" % gp in used, "%s (GP%d) not drawn as a used pin" % (signal, gp)
    assert used == {"GP%d" % gp for _, gp in board_pins()} | {
        "GP%d" % r["gp"] for r in gen_hardware.plan(BOARD)
        if r["gp"] is not None and r["pin"] is not None}


def test_check_notices_a_changed_board():
    moved = dict(BOARD, buttons=dict(BOARD["buttons"], OK=21))
    _, readme, svg = gen_hardware.outputs(moved)
    _, readme_now, svg_now = gen_hardware.outputs(BOARD)
    assert readme != readme_now and svg != svg_now
    assert "| button OK | GP21 | 27 |" in readme

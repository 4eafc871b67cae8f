"""A power figure, not a guess: mA per state and hours on a battery, from measured parts.

    .venv/bin/python tools/power.py [--awake hardware/awake.json]

Three kinds of input, none of them a timing of this machine:
- **the awake fraction** of each state, measured on the emulated Pico by
  ``tools/pico/idle.py`` (its ``--json`` output is kept as ``hardware/awake.json``): the share
  of the time the core runs, the rest in ``machine.lightsleep``;
- **the display's lit pixels and contrast** in each state, read from the virtual SSD1306 after
  the real firmware (on the host, ``Device``) drew that state's screen;
- **the datasheet and published currents** in ``SOURCES`` below, each with its document and
  section in ``hardware/power.md``.

The model, and what it leaves out, is in ``hardware/power.md``. The figures are printed, never
asserted: ``tests/host/test_power.py`` only checks that the table is made.
"""

import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "host"))

import tablemate_host  # noqa: E402,F401  (the fakes: the firmware imports on CPython)

# Every number has its source in hardware/power.md (same names).
SOURCES = {
    "pico_awake_ma": 21.0,  # Pico at 5 V on VSYS, MicroPython waiting in time.sleep (#8770)
    "pico_lightsleep_ma": 1.5,  # Pico from USB 5 V in machine.lightsleep(5000) (b004e7e)
    "pico_supply_v": 5.0,  # the supply both of those were measured at
    "iseg_max_ua": 100.0,  # SSD1306 segment current at contrast 255 (Rev 1.5, 8.8)
    "mux": 64,  # SSD1306 multiplex ratio: each row is driven 1/64 of the time
    "pump_factor": 2.0,  # SSD1306 charge pump: a doubler draws twice its output (model)
    "oled_sleep_ua": 10.0,  # SSD1306 display off, charge pump off (unverified, see power.md)
    "rail_v": 3.3,  # the Pico's 3V3 output, which feeds the display
    "reg_efficiency": 0.85,  # RT6150 at a light load: "up to 90 %" (model, see power.md)
    "reg_quiescent_ua": 60.0,  # RT6150 power-save-mode quiescent current (EC table)
    "cyw43_awake_ma": 36.0,  # CYW43439 kept awake (no power save), idle (cyw43-driver #126)
}
BATTERIES = (
    ("3xAA alkaline", 4.5, 2500),  # (name, volts, mAh): the figures the issue asks for
    ("1000 mAh LiPo", 3.7, 1000),
)
STATES = ("home", "game", "dimmed", "off", "perfect-moment", "chess-clock")


def _start(dev, row):
    """From the home menu: the mode on ``row``, its setup's Start (seven rows down), then
    RIGHT (a point, or the race's key)."""
    for _ in range(row):
        dev.press("DOWN")
    dev.press("OK")
    dev.advance(600)
    for _ in range(7):
        dev.press("DOWN")
    dev.press("OK")
    dev.advance(600)
    dev.press("RIGHT")


def screens():
    """{state: (lit pixels, contrast, panel on)} as the virtual SSD1306 shows each state,
    the real firmware booted on the host and pressed there as idle.py presses the rig."""
    import tempfile

    from tablemate_host.device import Device
    out = {}
    for state in STATES:
        root = tempfile.mkdtemp(prefix="tm-power-")
        settings = {"dim_s": 5 if state in ("dimmed", "off") else 0,
                    "off_min": 1 if state == "off" else 0}
        dev = Device(root, settings=settings)
        dev.advance(3000)
        if state == "game":
            _start(dev, 0)  # the scorepad
            dev.advance(3000)
        elif state == "perfect-moment":
            _start(dev, 3)
            dev.advance(2000)
        elif state == "chess-clock":
            for _ in range(6):
                dev.press("DOWN")
            dev.press("OK")
            dev.advance(600)
            dev.press("UP")
            dev.press("OK")
            dev.advance(600)
            dev.press("OK")
            dev.advance(2000)
        elif state == "dimmed":
            dev.advance(5000)
        elif state == "off":
            dev.advance(60000)
        dev.advance(30000 if state in ("perfect-moment", "chess-clock") else 1000)
        panel = dev.panel
        lit = sum(sum(row) for row in panel.pixels())
        out[state] = (lit, panel.contrast, panel.lit)
    return out


def state_ma(awake, lit, contrast, on, s=SOURCES, radio=False):
    """Battery-independent parts: (Pico mW at its supply, display mW at the 3V3 rail);
    ``radio``: the Pico W's access point is up (Phones on)."""
    pico_mw = s["pico_supply_v"] * (s["pico_awake_ma"] * awake
                                   + s["pico_lightsleep_ma"] * (1 - awake)
                                   + (s["cyw43_awake_ma"] if radio else 0))
    if on:
        iseg_ma = s["iseg_max_ua"] * contrast / 256 / 1000
        oled_ma = lit * iseg_ma / s["mux"] * s["pump_factor"]
    else:
        oled_ma = s["oled_sleep_ua"] / 1000
    oled_mw = s["rail_v"] * oled_ma / s["reg_efficiency"]
    return pico_mw, oled_mw


def battery_ma(pico_mw, oled_mw, volts, s=SOURCES):
    return (pico_mw + oled_mw) / volts + s["reg_quiescent_ua"] / 1000


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--awake", default=os.path.join(ROOT, "hardware", "awake.json"))
    args = ap.parse_args(argv)
    with open(args.awake) as f:
        measured = {row["state"]: row for row in json.load(f)}
    shown = screens()
    head = "%-15s %7s %6s %9s %8s %8s" % ("state", "awake", "lit px", "contrast", "Pico mW",
                                          "OLED mW")
    for name, volts, mah in BATTERIES:
        head += "  %s: mA, h" % name
    print(head)
    for state in STATES:
        row = measured.get(state)
        if row is None or row.get("awake") is None:
            continue
        lit, contrast, on = shown[state]
        pico_mw, oled_mw = state_ma(row["awake"], lit, contrast, on)
        line = "%-15s %6.2f%% %6d %9s %8.2f %8.2f" % (
            state, 100 * row["awake"], lit, contrast if on else "off", pico_mw, oled_mw)
        for name, volts, mah in BATTERIES:
            ma = battery_ma(pico_mw, oled_mw, volts)
            line += "  %6.2f mA %6.0f h" % (ma, mah / ma)
        print(line)
    # the loop before the change: the core never slept (awake 1), the same screens
    lit, contrast, on = shown["home"]
    _row("home, before", 1.0, lit, contrast, on)
    # Phones on (a Pico W's access point): the core never lightsleeps (the asyncio loop waits
    # in WFE between passes, as time.sleep does) and the radio stays awake; a game's screen
    lit, contrast, on = shown["game"]
    _row("phones on", 1.0, lit, contrast, on, radio=True)
    return 0


def _row(label, awake, lit, contrast, on, radio=False):
    pico_mw, oled_mw = state_ma(awake, lit, contrast, on, radio=radio)
    line = "%-15s %6.2f%% %6d %9s %8.2f %8.2f" % (label, 100 * awake, lit, contrast, pico_mw,
                                                  oled_mw)
    for name, volts, mah in BATTERIES:
        ma = battery_ma(pico_mw, oled_mw, volts)
        line += "  %6.2f mA %6.0f h" % (ma, mah / ma)
    print(line)


if __name__ == "__main__":
    sys.exit(main())

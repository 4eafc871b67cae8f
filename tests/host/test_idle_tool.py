"""tools/pico/idle.py on a UF2, without the rig: what goes on the flash and the steps it runs.

The UF2's frozen main.py runs in place of one on the flash, so there the probe is a module the
REPL imports after a safe-mode power-up; the measured minute is then later in the script.
"""

import json
import os
import sys

TOOLS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                     "tools", "pico")


def _idle():
    sys.path.insert(0, TOOLS)
    try:
        import idle
    finally:
        sys.path.remove(TOOLS)
    return idle


def test_on_a_uf2_the_probe_is_imported_in_safe_mode_and_the_minute_measured(tmp_path,
                                                                              monkeypatch):
    idle = _idle()
    ran = {}

    def drive(rig, app, script, out, uf2=None):
        with open(script) as f:
            steps = json.load(f)
        ran.update(app=sorted(os.listdir(app)), steps=steps, uf2=uf2)
        window = "PROBE 10000000 9900000 10 10\n"
        res = [{"ok": True, "serial": ""} for _ in steps]
        minute = [i for i in range(len(steps)) if steps[i].get("label") == "measured"][0]
        res[minute] = {"ok": True, "serial": window * 7, "cpuCycles": 125_000_000,
                       "tStartMs": 0, "tEndMs": 70000}
        res[minute + 1] = {"ok": True, "response": {"lastData": {"ms": 12.5}}}
        return {"steps": res}, True
    monkeypatch.setattr(idle.measure, "drive", drive)
    row = idle.run("/no/rig", idle.ROOT, "home", str(tmp_path), uf2="/some/tablemate.uf2")
    assert ran["uf2"] == "/some/tablemate.uf2"
    assert ran["app"] == ["data", "idle_probe.py"], "no main.py, no package: the UF2 has them"
    steps = ran["steps"]
    assert steps[0] == {"set_pin": idle.OK, "value": 0, "label": "OK held at power-up: safe mode"}
    assert steps[:len(idle.SAFE_START)] == idle.SAFE_START
    assert {"type": "import idle_probe\r\n", "label": "the probe boots the app"} in steps
    assert abs(row["awake"] - 0.01) < 1e-9 and row["press_ms"] == 12.5 and row["ok"]

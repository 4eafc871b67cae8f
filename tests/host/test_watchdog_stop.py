"""Issue 27: a computer's Ctrl-C (mpremote, mip, tablemate) stops the app and its watchdog, so
no reset cuts the computer off; the next boot starts the watchdog again."""

import pytest

from tablemate import boot
from tablemate_host import machine
from tablemate_host.device import Device


def test_ctrl_c_stops_the_watchdog_and_keeps_the_app(monkeypatch, tmp_path):
    dev = Device(str(tmp_path))  # a board with its display, booted once
    passes = []

    def wait(app, ms=boot.TICK_MS):  # the third nap is where mpremote's Ctrl-C lands
        passes.append(app)
        if len(passes) == 3:
            raise KeyboardInterrupt
    monkeypatch.setattr(boot, "wait", wait)
    monkeypatch.setattr(boot, "stopped", None)
    with pytest.raises(KeyboardInterrupt):
        boot.run(dev.cfg, dev.root)
    assert boot.stopped is passes[0]
    wdt = machine.world.wdt
    assert wdt.timeout is None and wdt.stops == 1
    assert machine.mem32[0x40058000] == 0  # ENABLE clear, as tablemate's connect reads it
    machine.world.wdt.started = 0
    again = Device(str(tmp_path))  # the next boot (mpremote's reset) starts it again
    assert again.app is not None and machine.world.wdt.timeout == boot.WDT_MS

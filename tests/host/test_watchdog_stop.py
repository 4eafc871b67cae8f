"""Issue 27: a computer's Ctrl-C (mpremote, mip, tablemate) stops the app and its watchdog, so
no reset cuts the computer off; the next boot starts the watchdog again."""

import pytest

from tablemate import app as firmware_app
from tablemate import boot
from tablemate_host import machine
from tablemate_host.device import Device


def test_ctrl_c_stops_the_watchdog_and_keeps_the_app(monkeypatch, tmp_path):
    dev = Device(str(tmp_path))  # a board with its display, booted once
    passes = []

    def wait(app, keys=0):  # the third nap is where mpremote's Ctrl-C lands
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


def _stopped(monkeypatch, tmp_path, inside):
    """A board whose loop a Ctrl-C stopped, in its nap or (``inside``) in a pass's tick."""
    dev = Device(str(tmp_path))
    calls = []
    real_step = firmware_app.step

    def wait(app, keys=0):
        calls.append(app)
        if len(calls) == 3 and not inside:
            raise KeyboardInterrupt

    def step(app, wdt):
        real_step(app, wdt)
        if len(calls) == 3 and inside:
            raise KeyboardInterrupt
    monkeypatch.setattr(boot, "wait", wait)
    monkeypatch.setattr(firmware_app, "step", step)
    monkeypatch.setattr(boot, "stopped", None)
    with pytest.raises(KeyboardInterrupt):
        boot.run(dev.cfg, dev.root)
    monkeypatch.setattr(boot, "wait", lambda app, keys=0: calls.append(app))
    monkeypatch.setattr(firmware_app, "step", real_step)
    return calls


def test_the_stopped_app_goes_on_where_it_was(monkeypatch, tmp_path):
    """``tablemate backup`` and ``pull`` give the board back through ``boot.again``: the same
    app (its screen, its game in RAM), the watchdog started again."""
    calls = _stopped(monkeypatch, tmp_path, inside=False)
    app = calls[0]
    assert machine.world.wdt.timeout is None
    assert boot.again(loops=2) is app
    assert calls[-1] is app and len(calls) == 5
    assert machine.world.wdt.timeout == boot.WDT_MS


def test_an_app_stopped_inside_a_pass_is_not_gone_on_with(monkeypatch, tmp_path):
    """Half a pass (a journal write cut between its write and its bookkeeping) is not safe to
    go on from: ``again`` changes nothing and the host restarts the board instead."""
    _stopped(monkeypatch, tmp_path, inside=True)
    assert boot.again(loops=2) is None
    assert machine.world.wdt.timeout is None

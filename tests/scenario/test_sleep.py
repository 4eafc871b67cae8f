"""The boot's loop as the Pico runs it: sleep until the app's next deadline, in lightsleep.

The Device steps the loop every 10 ms (``app.step``); these tests run the boot's own
``wait`` between passes instead, on the fake ``machine`` whose ``lightsleep`` moves the fake
clock and records the call, and check what the Pico relies on: a sleep never outlasts the
watchdog, a note is never cut by a lightsleep (which stops the PWM's clock), a key's edge
ends the sleep, and an idle minute takes a pass a second instead of a hundred.
"""

from tablemate import app as firmware_app
from tablemate_host import fakes, machine


def _run(dev, ms):
    """The boot's loop (``run``'s body) for ``ms`` of fake time: (passes, sleeps)."""
    main, app = dev.main, dev.app
    keys = app.keys
    end = fakes.clock.ms + ms
    passes = 0
    del machine.world.sleeps[:]
    while fakes.clock.ms < end:
        firmware_app.step(app, dev.wdt)
        keys = firmware_app.collect(app, keys)
        main.wait(app, keys)
        passes += 1
    return passes, list(machine.world.sleeps)


def test_an_idle_minute_sleeps_in_lightsleep_under_the_watchdog(make_device):
    dev = make_device(settings={"dim_s": 0, "off_min": 0})
    dev.advance(3000)
    passes, sleeps = _run(dev, 60000)
    assert passes <= 62, passes  # a pass a second (the nap's cap), not 100 a second
    assert sleeps and all(kind == "light" for kind, ms in sleeps)
    assert max(ms for _, ms in sleeps) == firmware_app.NAP_MAX_MS < dev.main.WDT_MS
    assert not machine.world.wdt.starved() and dev.resets == []


def test_the_sleep_ends_at_the_dim_delay(make_device):
    dev = make_device(settings={"dim_s": 5, "off_min": 0})
    dev.advance(3000)
    last = dev.app.last_key
    _run(dev, 2000 + 1)  # the pass that dims lands on the deadline, not up to a second late
    assert dev.app._idle == 1
    assert fakes.clock.ms - last >= 5000 and any(ms < 1000 for _, ms in machine.world.sleeps)


def test_a_note_is_never_cut_by_a_lightsleep(make_device):
    dev = make_device(settings={"dim_s": 0, "off_min": 0})
    dev.advance(3000)
    app = dev.app
    app.beep(((880, 120), (0, 30), (660, 120)))
    start = fakes.clock.ms
    del machine.world.sleeps[:]
    firmware_app.step(app, dev.wdt)
    while app.buzzer.busy:
        dev.main.wait(app, app.keys)
        firmware_app.step(app, dev.wdt)
    assert machine.world.sleeps == []  # 1 ms naps in sleep_ms while the notes play
    assert 270 <= fakes.clock.ms - start <= 275
    dev.main.wait(app, app.keys)
    assert machine.world.sleeps and machine.world.sleeps[0][0] == "light"  # silence: asleep


def test_a_key_edge_ends_the_wait_at_once(make_device):
    dev = make_device(settings={"dim_s": 0, "off_min": 0})
    dev.advance(3000)
    app = dev.app
    firmware_app.step(app, dev.wdt)
    dev.down("DOWN")  # the edge's interrupt sets ``woken`` before the loop sleeps
    before = fakes.clock.ms
    del machine.world.sleeps[:]
    dev.main.wait(app, app.keys)
    assert fakes.clock.ms == before and machine.world.sleeps == []
    dev.up("DOWN")

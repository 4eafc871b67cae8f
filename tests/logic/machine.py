"""``machine`` for the MicroPython test VM, whose WebAssembly port has none: names only.

Logic tests hand the drivers of ``tablemate.hw.peripherals`` fake pins, buses and PWMs, but
importing that module still runs its ``from machine import ...``. Nothing here works: a test
that reaches one of these builds a device it should have faked. On CPython the host's working
stand-in (``tablemate_host.machine``) is installed before any test runs, so this file is never
the ``machine`` CPython loads (``tests/test_device_api.py`` checks it).
"""


def _absent(*args, **kwargs):
    raise OSError("the test VM has no machine: hand the driver a fake")


ADC = I2C = PWM = RTC = WDT = Pin = deepsleep = lightsleep = reset_cause = _absent
WDT_RESET = 3

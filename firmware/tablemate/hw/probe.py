"""Facts about the hardware for the self-test: who answers on the I2C bus, the supply voltage.

Built by ``main.py`` from already-made ``machine`` objects (this module never imports machine),
so the self-test screen asks an injected object and the host fakes stand in for the Pico.
"""

_VOLTS_PER_COUNT = 3.3 * 3 / 65535  # ADC full scale is 3.3 V; VSYS reaches the ADC through 1:3


class Probe:
    """``scan()`` the display's bus; ``battery_volts()`` when a battery sense pin is wired."""

    def __init__(self, i2c, adc=None):
        self._i2c = i2c
        self._adc = adc

    def scan(self):
        """7-bit addresses that answer on the display's I2C bus."""
        return self._i2c.scan()

    def battery_volts(self):
        """The supply voltage (VSYS, through the 1:3 divider), or None when not wired."""
        if self._adc is None:
            return None
        return self._adc.read_u16() * _VOLTS_PER_COUNT

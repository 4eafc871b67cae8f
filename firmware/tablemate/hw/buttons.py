"""Button lines as one integer: bit i set while button i is pressed.

The pins arrive configured as inputs with pull-ups (the boot code builds them from the board
config), so a pressed button reads 0. Timing, debounce and key meaning live in ``tablemate.keys``;
this module only samples, without allocating, so it can run every tick.
"""


class Buttons:
    """Samples a fixed sequence of pull-up input pins."""

    def __init__(self, pins):
        self._pins = tuple(pins)
        self._n = len(self._pins)

    def read(self):
        """Return the pressed bits: bit i is set when pins[i] reads low."""
        bits = 0
        pins = self._pins
        for i in range(self._n):
            if pins[i].value() == 0:
                bits |= 1 << i
        return bits

"""Button lines as one integer, and the input object the app polls.

The pins arrive configured as inputs with pull-ups (the boot code builds them from the board
config), so a pressed button reads 0. Timing, debounce and key meaning live in ``tablemate.keys``;
``Buttons`` only samples, without allocating, so it can run every tick. ``ButtonInput`` joins the
two behind ``poll(now, emit)``, the one call the app makes per tick whatever the layout
(``tablemate.hw.encoder.EncoderInput`` is the rotary encoder's).
"""

from tablemate.keys import Keys


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


class ButtonInput:
    """Buttons of one layout (pins in ``keys.LAYOUTS[layout]`` order) through the key machine."""

    def __init__(self, pins, layout):
        self.layout = layout
        self._buttons = Buttons(pins)
        self._keys = Keys(layout)

    def poll(self, now, emit):
        """Sample the buttons at ``now``; calls ``emit(key, kind)`` for each key event."""
        self._keys.update(self._buttons.read(), now, emit)

    def close(self):
        """Nothing to release (the encoder's input detaches its interrupts here)."""

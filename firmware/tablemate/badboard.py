"""A board configuration that cannot work, said on the panel where one answers.

The boot imports this only when the board check failed (``boot.check_board``): the problems go
to the REPL and the LED blinks code 3 (``hw/fault.py``) as before, and a builder with a display
reads them on it too. The display's own settings may be the problem, so each candidate (the
configuration with ``/data/wiring.json``'s values, then ``board.py``'s alone) is tried in turn:
one whose bus cannot be made (a pin that is no I2C pin) or where no display answers is skipped.
Nothing else is touched: no file, no other pin.
"""

from tablemate.hw import peripherals as hw
from tablemate.hw.ssd1306 import SSD1306
from tablemate.ui import draw_title, text
from tablemate.ui.dialogs import wrap

TITLE = "Board settings"
_LINES = 5  # below the title, above the last line
_WIDTH = 128


def show(cfgs, source, problems, find):
    """Draw ``problems`` (in ``source``, the wiring file, or None: board.py) on the first
    display of ``cfgs`` that answers (``find(i2c, cfg)``, the boot's probe); True when one did."""
    for cfg in cfgs:
        try:
            i2c = hw.bus(cfg)
            addr = find(i2c, cfg)
        except (ValueError, TypeError, KeyError, OSError):  # not a bus: the next candidate
            continue
        if addr is None:
            continue
        try:
            display = SSD1306(i2c, addr=addr, sh1106=cfg.get("display") == "sh1106",
                              flip=cfg.get("flip") is True)
            draw(display, source, problems)
            display.show()
        except OSError:  # the display went away while it was told: the LED and REPL say it
            return False
        return True
    return False


def draw(fb, source, problems):
    """The message: where the problem is, the first problem without its remedy (the part in
    brackets at its end: the REPL has it, the panel has not the room), and how many more."""
    fb.fill(0)
    draw_title(fb, TITLE)
    where = "In " + (source or "board.py") + ":"
    lines = wrap(where + "\n" + problems[0].split(" (")[0], _WIDTH, _LINES)
    y = 12
    for line in lines:
        text.draw(fb, line, 0, y)
        y += 9
    more = len(problems) - 1
    text.draw(fb, "+%d more on the REPL" % more if more else "Details on the REPL", 0, 56)

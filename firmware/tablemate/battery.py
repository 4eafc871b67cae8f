"""The battery gauge: the supply's millivolts as a charge in percent, read rarely and calmly,
and the figure on the status line.

Loaded only on a board whose ``board.py`` wires the battery sense (``"battery": 29``, VSYS/3
inside a Pico) and whose first reading is a supply at all (``Probe.battery_mv``: None below
1.8 V, which no running Pico has: a Pico W's shared GP29, a loose divider, the emulated Pico
whose ADC reads 0 V), after the first frame (``boot.sense``): other boards never import this.
It reads through the function it is handed and never touches ``machine`` or a clock, so both
test VMs drive it with a fake ADC; the screens it warns through load only when it warns.

What it does with a reading, every ``READ_MS``:
- **Samples**: the median of ``_SAMPLES`` conversions taken at once (an RP2040 ADC reading
  jumps by tens of mV; one wild sample does not move a median).
- **The cell, not VSYS**: the battery reaches VSYS through a Schottky diode (``hardware/``),
  so the pack is estimated as VSYS + ``DIODE_MV``.
- **Not a battery**: a reading of None (the probe's "no supply on this pin") shows nothing and
  never cuts off. A pack above its chemistry's full voltage by ``_OVER_MV`` is no battery
  either: USB feeds VSYS (4.6-4.8 V through the Pico's own diode, which also keeps the
  battery from draining): no figure is shown, never "100%" of a battery not in use.
- **Smoothing**: the pack estimate is a running mean (each reading moves it a quarter of the
  way), so a load step (the screen lit after a dim) does not jump the figure.
- **Hysteresis**: the figure shown falls freely but rises only by ``_RISE`` points or more (a
  new or recharged battery), so it never flickers between two values.
- **Warnings** at ``WARN`` percent (15, then 5), once each; **empty** after two readings in a
  row at the chemistry's cut-off, the curve's 0 %.

The curves (pack millivolts at 100, 90, ... 0 %) are measured discharge curves from Rockbox's
power management, which ships one table per player (only the numbers are taken):
- alkaline and NiMH: ``firmware/target/sh/archos/ondio/powermgmt-ondio.c``, three cells in
  series as in a 3xAA holder ("measured values" on an Archos Ondio, 4.75 V full). The cut-offs
  are their 0 %: 2.80 V (0.93 V a cell; alkaline makers rate capacity to 0.8 V, so this is
  honest and leaves margin) and 3.10 V (1.03 V a cell: a NiMH cell driven below 1.0 V in a
  series pack risks reversal).
- LiPo: ``firmware/target/arm/ipod/powermgmt-ipod-pcf.c``, the iPod Video's 1-cell Li-ion
  ("first approach based upon measurements"). Its 0 % is 3.45 V: a cut-off above the 3.3 V a
  LiPo must never go below, with room for the diode's and the ADC's error (about 0.1 V).
``hardware/README.md`` repeats these sources.
"""

from micropython import const

from tablemate import BATTERIES, ticks_add, ticks_diff
from tablemate.ui import text

READ_MS = 20000  # one reading every 20 s: a charge changes over minutes
DIODE_MV = const(250)  # the 1N5817 / SS14 from the battery to VSYS at 20-40 mA
_OVER_MV = const(100)  # this far above a full pack: USB, not the battery
_RISE = const(5)  # the figure rises only by this much (a fresh battery), never by 1-4
_SAMPLES = const(5)
_CLEAR = const(6)  # blank columns (a space) between the figure and a status line's text
WARN = (15, 5)

# Events of ``Gauge.tick``
SAME = const(0)
SHOWN = const(1)  # the figure changed (or appeared, or went)
LOW = const(2)  # a warning level was crossed: ``percent`` says where it is now
EMPTY = const(3)  # the cut-off: save the game and sleep

# Pack millivolts at 100, 90, ..., 10, 0 % (Rockbox, see above), highest first.
CURVES = (
    (4750, 4270, 4090, 3950, 3850, 3740, 3640, 3530, 3410, 3250, 2800),  # 3 alkaline cells
    (4050, 3860, 3800, 3780, 3760, 3740, 3720, 3690, 3630, 3550, 3100),  # 3 NiMH cells
    (4180, 4100, 4010, 3930, 3870, 3830, 3790, 3750, 3710, 3670, 3450),  # 1 LiPo cell
)


def percent(curve, mv):
    """The charge of a pack at ``mv`` on ``curve``: 0-100, straight between its points."""
    if mv >= curve[0]:
        return 100
    for i in range(1, len(curve)):
        lo = curve[i]
        if mv >= lo:
            hi = curve[i - 1]
            return 100 - 10 * i + (10 * (mv - lo) + (hi - lo) // 2) // (hi - lo)
    return 0


def median(values, n):
    """The median of the first ``n`` of ``values``, sorted in place (no new list)."""
    for i in range(1, n):
        v = values[i]
        j = i - 1
        while j >= 0 and values[j] > v:
            values[j + 1] = values[j]
            j -= 1
        values[j + 1] = v
    return values[n // 2]


class Gauge:
    """Reads ``read()`` (VSYS in mV, or None: ``Probe.battery_mv``) every ``READ_MS`` and keeps
    what is shown.

    ``percent``: the figure (None: none to show, USB or not a battery); ``label``: the battery
    glyph and the figure, made once per change, and ``ink`` its width (drawing it allocates
    nothing); ``vsys``: the last median, in mV (0: none); ``event``: the last one."""

    def __init__(self, read, chemistry, now):
        self._read = read
        self._samples = [0] * _SAMPLES
        self._due = now
        self.vsys = 0
        self.ink = 0
        self.event = SAME
        self.use(chemistry)

    def use(self, chemistry):
        """Take the curve of ``chemistry`` (a name of ``BATTERIES``) and start again from the
        last reading: the event that makes (the figure changes at once in Settings)."""
        self.chemistry = chemistry
        self.curve = CURVES[BATTERIES.index(chemistry)]
        self._mv = 0  # the smoothed pack estimate (0: none yet)
        self._low = 0  # readings in a row at the cut-off
        self._warned = 100  # the lowest warning level given
        self.percent = None
        self.label = None
        return self.take(self.vsys) if self.vsys else SHOWN

    def tick(self, now):
        """One of the events above: a reading when it is due, else SAME at once."""
        if ticks_diff(now, self._due) < 0:
            return SAME
        self._due = ticks_add(now, READ_MS)
        samples = self._samples
        for i in range(_SAMPLES):
            mv = self._read()
            if mv is None:
                return self.take(None)
            samples[i] = mv
        return self.take(median(samples, _SAMPLES))

    def take(self, vsys):
        """Take one (median) reading of VSYS in mV, or None: the event it makes (``event``)."""
        self.event = event = self._take(vsys)
        return event

    def _take(self, vsys):
        self.vsys = vsys or 0
        if vsys is None or vsys + DIODE_MV > self.curve[0] + _OVER_MV:
            self._mv = 0  # not on the battery: the next one starts afresh
            self._low = 0
            return self._show(None)
        pack = vsys + DIODE_MV
        mv = self._mv = pack if not self._mv else self._mv + (pack - self._mv) // 4
        if mv <= self.curve[-1]:
            self._low += 1
            if self._low >= 2:
                self._show(0)
                return EMPTY
        else:
            self._low = 0
        p = percent(self.curve, mv)
        shown = self.percent
        if shown is not None and shown < p < shown + _RISE:
            p = shown
        event = self._show(p)
        if p > WARN[0]:  # a fresh battery: its own warnings again
            self._warned = 100
        for level in WARN:
            if p <= level < self._warned:
                self._warned = level
                event = LOW
        return event

    def _show(self, p):
        if p == self.percent:
            return SAME
        self.percent = p
        self.label = None if p is None else text.BATTERY + "%d%%" % p
        self.ink = 0 if p is None else text.ink_width(self.label)
        return SHOWN

    # -- the app's side ------------------------------------------------------------------------
    def tell(self, app):
        """After an event: the screen shows the new figure; a warning or the cut-off goes to
        ``screens.power`` (loaded then)."""
        if app.stack:
            app.stack[-1].dirty = True
        if self.event == LOW:
            from tablemate.screens import power  # .mpy: 1.6 KB, only on a low battery
            power.low(app)
        elif self.event == EMPTY:
            from tablemate.screens import power  # .mpy: 1.6 KB, only on a low battery
            power.cut_off(app)

    def chosen(self, app):
        """The settings were applied: another chemistry reads the last VSYS on its curve."""
        if app.settings["battery"] != self.chemistry:
            self.event = self.use(app.settings["battery"])
            self.tell(app)

    def mark(self, fb):
        """The figure on page 0 (the home menu's title, a game's status line), as far right as
        blank columns allow, a space clear of the screen's own text: a line with no room for it
        shows none (the warnings still come). Only blank columns are written, so no text of
        the screen is touched; a scan of at most 128 bytes, no allocation. The page's last row
        is not the line's: it may be the top row of a lit band below (``text.bar``), kept."""
        label = self.label
        if label is None:
            return
        buf = fb.buf
        need = self.ink + 2 * _CLEAR
        run = 0
        edge = _CLEAR  # no space needed at the screen's right edge
        x = 127
        while x >= 0:
            if buf[x] & 0x7F:
                run = 0
                edge = 0
            else:
                run += 1
                if run >= need - edge:
                    x += _CLEAR
                    end = min(x + text.width(label), 128)  # what ``put`` writes
                    kept = 0  # the band's row under the figure, a bit per column
                    for i in range(x, end):
                        kept |= (buf[i] >> 7) << (i - x)
                    text.put(fb, label, x, 0)
                    for i in range(x, end):
                        buf[i] |= (kept >> (i - x) & 1) << 7
                    return
            x -= 1

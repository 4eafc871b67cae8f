"""A bench for the real app that runs on both VMs: fake bus, scripted keys, hand-moved time.

Scenario tests on the host use the full fake ``machine`` world; MicroPython has no such world,
so this rig gives the app the smallest honest parts instead (an I2C object that checksums what it
is sent, a PWM that records notes, an input object that plays queued key events) and lets a test
walk through screens on CPython and on MicroPython alike.
"""

import os

from tablemate import keys as K
from tablemate.boot import sense
from tablemate.hw.peripherals import Probe


class FakeI2C:
    """Counts bytes and folds them into a checksum, so two VMs can compare their streams.

    It allocates nothing per byte (the sum stays a small int: 31 times 2**22 is below 2**30,
    and a loop over an index makes no iterator), so what a press allocates through the rig is
    the firmware's own (``alloc`` below)."""

    def __init__(self):
        self.bytes = 0
        self.sum = 0

    def _take(self, buf):
        s = self.sum
        for i in range(len(buf)):
            s = (s * 31 + buf[i]) & 0x3FFFFF
        self.sum = s
        self.bytes += len(buf)

    def writeto(self, addr, buf, stop=True):
        self._take(buf)

    def writevto(self, addr, vector, stop=True):
        for buf in vector:
            self._take(buf)

    def scan(self):
        return [0x3C]


class FakePWM:
    def __init__(self):
        self.notes = []
        self._freq = 0

    def freq(self, f=None):
        if f is not None:
            self._freq = f
        return self._freq

    def duty_u16(self, d=None):
        if d:
            self.notes.append(self._freq)


class FakeADC:
    """The battery sense's ADC, reading what a test sets: VSYS in mV through the Pico's 1:3."""

    def __init__(self, mv=0):
        self.set_mv(mv)

    def set_mv(self, mv):
        self.u16 = min(65535, (mv * 65535 + 9899) // 9900)  # Probe.battery_mv() reads mv back

    def read_u16(self):
        return self.u16


class FakeProbe(Probe):
    """The firmware's own probe on a fake bus and ``adc`` (None: no battery sense wired);
    ``dormant()`` is counted instead of stopping the VM."""

    def __init__(self, adc=None):
        Probe.__init__(self, FakeI2C(), adc)
        self.dormant_calls = 0

    def dormant(self):
        self.dormant_calls += 1

    def wall(self):
        return None  # a Pico's clock nobody set: games are filed undated


class ScriptInput:
    """Plays queued (key, kind) events on the next poll."""

    def __init__(self):
        self.queue = []

    def due(self, now):
        return 0 if self.queue else None

    def poll(self, now, emit):
        while self.queue:
            key, kind = self.queue.pop(0)
            emit(key, kind)

    def close(self):
        pass


class Rig:
    """The real App with a real SSD1306 driver on the fakes above."""

    def __init__(self, root, names=("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"),
                 adc=None):
        """``adc``: a ``FakeADC`` for a board with the battery sense wired."""
        from tablemate.app import App
        from tablemate.hw.peripherals import Buzzer
        from tablemate.hw.ssd1306 import SSD1306
        self.root = root
        try:
            os.mkdir(root + "/data")
        except OSError:
            pass
        with open(root + "/data/settings.json", "w") as f:
            f.write('{"names": [%s]}' % ", ".join('"%s"' % n for n in names))
        self.i2c = FakeI2C()
        self.pwm = FakePWM()
        self.input = ScriptInput()
        self.display = SSD1306(self.i2c)
        self.probe = FakeProbe(adc)
        self.app = App(self.display, lambda layout: self.input, root, Buzzer(self.pwm), self.probe)
        self.now = 1000
        self.app.start(self.now)
        sense(self.app)  # as the boot does
        self.advance(10)

    def advance(self, ms):
        """Run the loop for ``ms`` of time, 10 ms a pass."""
        for _ in range(ms // 10):
            self.now += 10
            self.app.tick(self.now)

    def idle_locked(self, passes=200):
        """Run ``passes`` loop passes (10 ms apart) and the loop's question of how long it may
        sleep (``App.due``) with the heap locked (MicroPython only): an allocation raises, the
        app's net shows an ErrorScreen (or the question raises), and this fails. Returns the
        top screen."""
        import micropython
        micropython.heap_lock()
        try:
            for _ in range(passes):
                self.now += 10
                self.app.tick(self.now)
                self.app.due(self.now, 1000)
        finally:
            micropython.heap_unlock()
        top = self.app.top()
        assert type(top).__name__ != "ErrorScreen", "an idle pass raised (an allocation?)"
        return top

    def press(self, key, repeats=0):
        """A press (with ``repeats`` auto-repeat events, as a held key gives) and its release."""
        q = self.input.queue
        q.append((key, K.PRESS))
        for _ in range(repeats):
            q.append((key, K.REPEAT))
        q.append((key, K.RELEASE))
        self.advance(20)

    def presses(self, *keys):
        for key in keys:
            self.press(key)

    def top(self):
        return type(self.app.top()).__name__

    def goto(self, label):
        """Move a menu's cursor to the row ``label``."""
        menu = self.app.top()
        target = menu.items.index(label)
        while menu.index != target:
            self.press(K.DOWN)

    def choose(self, label):
        """Move a menu's cursor to the row ``label`` and press OK."""
        self.goto(label)
        self.press(K.OK)

    def lines(self, name):
        """The lines of a file on the app's flash, [] when it does not exist."""
        try:
            with open(self.root + "/data/" + name) as f:
                return f.read().split("\n")[:-1]
        except OSError:
            return []

    def exists(self, name):
        try:
            os.stat(self.root + "/data/" + name)
            return True
        except OSError:
            return False


def alloc(fn):
    """Bytes the heap grew by while ``fn()`` ran, nothing collected meanwhile (MicroPython
    only: CPython has no ``gc.mem_alloc``)."""
    import gc
    gc.collect()
    gc.disable()
    try:
        before = gc.mem_alloc()
        fn()
        return gc.mem_alloc() - before
    finally:
        gc.enable()


class NullI2C:
    """A bus that takes the bytes and does nothing with them: allocation figures of the
    driver's own, with no fake's work in them."""

    def writeto(self, addr, buf, stop=True):
        pass

    def writevto(self, addr, vector, stop=True):
        pass


def press_allocations(root):
    """Bytes a scorepad +1 and a whole-screen change (the game menu opening over the table)
    allocate, in the key handler, in ``draw`` and in ``show`` (a null bus): ``tools/bench.py``
    prints them, ``test_alloc.py`` holds them. MicroPython only (``alloc``)."""
    r = Rig(root)
    r.choose("Scorepad")
    r.choose("Start")
    r.advance(2000)
    app = r.app
    app.display.i2c = NullI2C()
    table = app.top()
    fb = app.display

    def draw():
        fb.clear()
        for screen in app.stack[app.stack.index(table):]:
            screen.draw(fb)
    out = {}
    for _ in range(2):  # the first +1 renders its words once (the text cache): the second is
        out["+1 key"] = alloc(lambda: table.key(K.RIGHT, K.PRESS))  # every later one
        out["+1 draw"] = alloc(draw)
        out["+1 show"] = alloc(fb.show)
    out["screen key"] = alloc(lambda: table.key(K.BACK, K.PRESS))
    out["screen draw"] = alloc(draw)
    out["screen show"] = alloc(fb.show)
    return out

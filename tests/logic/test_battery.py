"""The battery gauge (``tablemate.battery``): curves, smoothing, hysteresis, USB and a wiring
fault, the warnings, and the cut-off through the app with a fake ADC (``rig.FakeADC``): the game
is on the flash afterwards and resumes."""

import support
from rig import FakeADC, FakeProbe, Rig
from tablemate import battery
from tablemate import keys as K

LIPO = battery.CURVES[2]


def _gauge(mv, chemistry="LiPo", now=0):
    """A gauge reading a steady VSYS of ``mv`` (a list: the samples in turn), first read."""
    seq = mv if isinstance(mv, list) else [mv]
    at = [0]

    def read():
        at[0] += 1
        return seq[(at[0] - 1) % len(seq)]
    g = battery.Gauge(read, chemistry, now)
    return g, g.tick(now)


def _pack(percent_point, curve=LIPO):
    """VSYS that reads as the curve's point ``i`` (the pack minus the diode)."""
    return curve[percent_point] - battery.DIODE_MV


def test_curves_fall_and_end_at_the_cut_off():
    for curve in battery.CURVES:
        assert len(curve) == 11
        for i in range(10):
            assert curve[i] > curve[i + 1]
            assert battery.percent(curve, curve[i]) == 100 - 10 * i
        assert battery.percent(curve, curve[10]) == 0
        assert battery.percent(curve, curve[10] - 500) == 0
        assert battery.percent(curve, curve[0] + 300) == 100
    assert battery.CURVES[2][10] >= 3300 + 100  # a LiPo stops well above 3.3 V (ADC error)


def test_between_points_is_a_straight_line():
    assert battery.percent(LIPO, (3830 + 3870) // 2) == 55
    assert battery.percent(LIPO, 3450 + (3670 - 3450) // 4) == 3  # 2.5 rounds up
    assert battery.percent(LIPO, 4179) == 100  # 99.9 rounds


def test_the_probe_reads_millivolts_and_no_supply_below_1800():
    assert FakeProbe().battery_mv() is None  # not wired
    for mv in (1800, 3300, 4200, 5000, 9900):
        assert FakeProbe(FakeADC(mv)).battery_mv() == mv
    for mv in (0, 150, 1799):  # no running Pico has this VSYS: the pin does not sense it
        assert FakeProbe(FakeADC(mv)).battery_mv() is None


def test_a_sample_of_no_supply_is_no_battery():
    seq = [3700, 3700, None, 3700, 3700]
    g, event = _gauge(seq)
    assert g.percent is None and g.vsys == 0


def test_median_ignores_a_wild_sample():
    assert battery.median([3900, 9900, 3890, 0, 3910], 5) == 3900
    assert battery.median([5, 1, 3, 9, 9], 3) == 3  # the first three only


def test_a_reading_is_the_median_of_five_samples():
    g, event = _gauge([3700, 3700, 9000, 3690, 3710])
    assert event == battery.SHOWN and g.vsys == 3700
    assert g.percent == battery.percent(LIPO, 3700 + battery.DIODE_MV)
    assert g.label == "\x06%d%%" % g.percent


def test_reads_only_every_read_ms():
    count = [0]

    def read():
        count[0] += 1
        return 3700
    g = battery.Gauge(read, "LiPo", 1000)
    assert g.tick(1000) == battery.SHOWN and count[0] == 5
    assert g.tick(1000 + battery.READ_MS - 1) == battery.SAME and count[0] == 5
    g.tick(1000 + battery.READ_MS)
    assert count[0] == 10


def test_smoothing_moves_a_quarter_of_the_way():
    g, _ = _gauge(_pack(2))  # 80 %
    assert g.percent == 80
    g.take(_pack(6))  # one reading at 40 %: a load step, not the charge
    assert g.percent == battery.percent(LIPO, LIPO[2] - (LIPO[2] - LIPO[6]) // 4) == 73


def test_the_figure_falls_freely_and_rises_only_by_five():
    g, _ = _gauge(_pack(5))  # 50 %
    low = 3830 - 4 - battery.DIODE_MV  # 49 %
    for _ in range(20):
        g.take(low)
    assert g.percent == 49
    assert g.take(3830 - battery.DIODE_MV) == battery.SAME and g.percent == 49  # back to 50: no
    seen = set()
    for _ in range(20):
        g.take(_pack(4))  # 60 %: a fresh battery, the mean climbing to it
        seen.add(g.percent)
    assert 55 <= g.percent <= 60 and min(seen) == 49
    steps = sorted(seen)
    for i in range(1, len(steps)):  # it rose in steps of five or more
        assert steps[i] - steps[i - 1] >= 5, steps


def test_usb_and_a_wiring_fault_show_nothing_and_never_cut_off():
    for mv in (4700, 5000, None):  # None: what the probe reads below 1.8 V
        for chemistry in ("alkaline", "NiMH", "LiPo"):
            g, event = _gauge(mv, chemistry)
            assert g.percent is None and g.label is None, (mv, chemistry)
            for _ in range(5):
                assert g.take(mv) == battery.SAME
    g, _ = _gauge(_pack(3))
    assert g.take(4800) == battery.SHOWN and g.percent is None  # plugged in
    assert g.take(_pack(3)) == battery.SHOWN and g.percent == 70  # unplugged


def test_a_fresh_alkaline_pack_is_a_battery_not_usb():
    g, _ = _gauge(4750 - battery.DIODE_MV, "alkaline")  # 1.58 V a cell, read through the diode
    assert g.percent == 100


def test_warns_at_15_then_5_once_each():
    g, _ = _gauge(_pack(7))  # 30 %
    events = []
    mv = _pack(7)
    while mv > _pack(10):
        mv -= 5
        events.append((g.take(mv), g.percent))
    lows = [p for e, p in events if e == battery.LOW]
    assert len(lows) == 2 and 13 <= lows[0] <= 15 and 3 <= lows[1] <= 5, lows


def test_boot_on_a_low_battery_warns_once():
    g, event = _gauge(_pack(10) + 20)  # 1 %
    assert event == battery.LOW and g.percent == 1
    assert g.take(_pack(10) + 19) == battery.SAME


def test_empty_after_two_readings_at_the_cut_off():
    g, _ = _gauge(_pack(9))
    g.take(_pack(10) - 400)
    assert g.percent > 0  # one reading moves the mean a quarter of the way
    events = [g.take(_pack(10) - 400) for _ in range(8)]
    assert battery.EMPTY in events
    assert events.index(battery.EMPTY) >= 1 and g.percent == 0


def test_a_new_chemistry_reads_the_same_voltage_again():
    g, _ = _gauge(3700)
    lipo = g.percent
    assert g.use("NiMH") in (battery.SHOWN, battery.LOW)
    assert g.chemistry == "NiMH" and g.percent != lipo


# -- through the app ---------------------------------------------------------------------------
def _rig(name, mv):
    adc = FakeADC(mv)
    r = Rig(support.scratch_dir(name), adc=adc)
    r.advance(50)
    return r, adc


def test_not_wired_or_no_supply_at_boot_loads_no_gauge():
    r = Rig(support.scratch_dir("bat-none"))
    r.advance(100)
    assert r.app.battery is None
    r, adc = _rig("bat-zero", 0)  # the emulated Pico's ADC: 0 V
    adc.set_mv(2500)
    r.advance(3 * battery.READ_MS)
    assert r.app.battery is None and r.probe.dormant_calls == 0


def test_the_app_reads_the_adc_and_shows_the_figure():
    r, adc = _rig("bat-app", 3900)
    g = r.app.battery
    assert g is not None and g.vsys in (3899, 3900) and g.percent is not None
    assert r.app.top().shows_battery


def test_a_low_battery_warns_with_a_notice():
    r, adc = _rig("bat-low", _pack(5))
    adc.set_mv(_pack(10) + 15)
    for _ in range(6):
        r.advance(battery.READ_MS)
        if r.top() == "Notice":
            break
    assert r.top() == "Notice", r.top()
    assert r.app.top().lines[0].startswith("Battery low: ")


def test_the_cut_off_saves_the_game_and_sleeps_then_it_resumes():
    root = support.scratch_dir("bat-cut")
    adc = FakeADC(_pack(5))
    r = Rig(root, adc=adc)
    r.advance(50)
    r.choose("Scorepad")
    r.choose("Start")
    r.advance(2000)
    r.press(K.RIGHT)  # a point, pending on the scorepad
    assert r.app.game is not None
    adc.set_mv(_pack(10) - 300)
    for _ in range(8):
        r.advance(battery.READ_MS)
        if r.probe.dormant_calls:
            break
    assert r.probe.dormant_calls == 1
    assert r.top() == "Empty" and r.app.top().words == "Battery empty:\ngame saved"
    assert r.app.game.unsaved == 0
    lines = r.lines("game.jnl")
    assert len(lines) >= 2, lines  # the header and the point
    again = Rig(root, adc=FakeADC(4800))  # reset, on USB
    again.advance(100)
    assert again.top() == "Confirm"  # "Resume game?"
    again.press(K.OK)
    again.advance(100)
    assert again.app.game is not None and again.app.game.count == r.app.game.count >= 1

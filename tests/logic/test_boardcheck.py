"""Board configuration check: every mistake found, each named in words a builder understands."""

from tablemate import boardcheck
from tablemate.board import BOARD


def board(**changes):
    cfg = dict(BOARD)
    cfg["buttons"] = dict(BOARD["buttons"])
    cfg.update(changes)
    return cfg


def test_the_reference_board_is_fine():
    assert boardcheck.check_board(BOARD) == []
    assert boardcheck.wired_layouts(BOARD) == ("six", "five", "three", "encoder")


def test_i2c_pins_must_fit_the_bus():
    assert boardcheck.check_board(board(sda=5, scl=4)) == [
        "SDA GP5 is not an I2C0 SDA pin (use GP0/4/8/12/16/20/28)",
        "SCL GP4 is not an I2C0 SCL pin (use GP1/5/9/13/17/21)"]
    assert boardcheck.check_board(board(i2c=1, sda=2, scl=3)) == []
    assert boardcheck.check_board(board(i2c=1)) == [
        "SDA GP4 is not an I2C1 SDA pin (use GP2/6/10/14/18/22/26)",
        "SCL GP5 is not an I2C1 SCL pin (use GP3/7/11/15/19/27)"]
    assert boardcheck.check_board(board(i2c=2)) == ["i2c: 2 is not a bus (the Pico has I2C 0 and 1)"]


def test_a_pin_used_twice_names_both_users():
    cfg = board()
    cfg["buttons"]["OK"] = 10
    assert boardcheck.check_board(cfg) == ["GP10 used twice: UP and OK"]
    assert boardcheck.check_board(board(buzzer=4)) == ["GP4 used twice: SDA and buzzer"]
    assert boardcheck.check_board(board(encoder={"a": 18, "b": 18, "sw": 20})) == [
        "GP18 used twice: encoder A and encoder B"]


def test_pins_that_do_not_exist_or_are_inside_the_pico():
    cfg = board()
    cfg["buttons"]["UP"] = 30
    assert boardcheck.check_board(cfg) == ["UP: GP30 does not exist (Pico has GP0-GP28)"]
    assert boardcheck.check_board(board(buzzer=23)) == [
        "buzzer GP23 is not wired on a Pico (it is the power supply's mode pin)"]
    assert boardcheck.check_board(board(buzzer=25)) == [
        "buzzer GP25 is not wired on a Pico (it is the on-board LED)"]
    cfg = board()
    cfg["buttons"]["BACK"] = 29
    assert boardcheck.check_board(cfg) == ["BACK GP29 is not wired on a Pico (it is VSYS sense)"]
    cfg["buttons"]["BACK"] = "GP15"
    assert boardcheck.check_board(cfg) == ["BACK: 'GP15' is not a GP number"]
    cfg["buttons"]["BACK"] = True
    assert boardcheck.check_board(cfg) == ["BACK: True is not a GP number"]


def test_battery_needs_an_adc_pin():
    assert boardcheck.check_board(board(battery=None)) == []
    assert boardcheck.check_board(board(battery=26)) == []
    assert boardcheck.check_board(board(battery=12)) == [
        "GP12 used twice: LEFT and battery"]
    assert boardcheck.check_board(board(battery=9)) == [
        "battery GP9 has no ADC (use GP26-28, or 29 for VSYS)"]


def test_layouts_follow_the_wired_keys():
    cfg = board(encoder=None)
    for k in ("LEFT", "RIGHT", "BACK"):
        del cfg["buttons"][k]
    assert boardcheck.check_board(cfg) == []
    assert boardcheck.wired_layouts(cfg) == ("three",)
    cfg = board(buttons={})
    assert boardcheck.check_board(cfg) == []
    assert boardcheck.wired_layouts(cfg) == ("encoder",)
    cfg = board(buttons={"UP": 10, "OK": 14}, encoder=None)
    assert boardcheck.check_board(cfg) == [
        "No complete input: buttons need UP, DOWN and OK, or add an encoder"]
    assert boardcheck.check_board(board(encoder={"a": 18, "b": 19})) == [
        "encoder: 'sw' is missing (it needs a, b and sw)"]
    cfg = board()
    cfg["buttons"]["SELECT"] = 22
    assert boardcheck.check_board(cfg) == [
        "buttons: 'SELECT' is not a key (use UP DOWN LEFT RIGHT OK BACK)"]


def test_display_address_and_speed():
    assert boardcheck.check_board(board(display="st7735")) == [
        "display: 'st7735' is unknown (use ssd1306 or sh1106)"]
    assert boardcheck.check_board(board(display="sh1106")) == []
    assert boardcheck.check_board(board(addr=0x80)) == [
        "addr: 128 is not an I2C address (the OLED is 0x3C or 0x3D)"]
    assert boardcheck.check_board(board(freq=3400000)) == [
        "freq: 3400000 Hz is not an I2C speed (use 100000 to 1000000)"]


def test_flip_is_true_or_false():
    assert boardcheck.check_board(board(flip=True)) == []
    for bad in ("yes", 1, None):
        assert boardcheck.check_board(board(flip=bad)) == [
            "flip: %r is not true or false" % (bad,)], bad


def test_every_problem_is_reported_at_once():
    cfg = board(sda=6, buzzer=40, display="oled")
    problems = boardcheck.check_board(cfg)
    assert len(problems) == 3, problems
    for msg in problems:
        assert len(msg) < 80, msg

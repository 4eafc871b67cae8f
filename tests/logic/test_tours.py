"""Every screen of the real app, driven by keys, on both VMs (the walks are in tours.py)."""

import tours
from support import scratch_dir


def test_scorepad_walk():
    tours.scorepad(scratch_dir("tour_scorepad"))


def test_contrast_walk():
    tours.contrast(scratch_dir("tour_contrast"))


def test_chess_clock_walk():
    tours.chess_clock(scratch_dir("tour_clock"))


def test_settings_and_history_walk():
    tours.settings_and_history(scratch_dir("tour_settings"))


def test_self_test_and_about_walk():
    tours.self_test_and_about(scratch_dir("tour_pages"))


def test_error_net_walk():
    tours.error_net(scratch_dir("tour_error"))


def test_history_headlines_say_how_each_game_ended():
    from tablemate.screens import history
    pair = {"game": "contrast", "names": ["Ann", "Bob"]}

    def line(**fields):
        rec = dict(pair)
        rec.update(fields)
        return history.headline(rec)
    assert history.headline({"game": "scorepad", "names": ["Ann", "Bob"], "winners": [1]}) \
        == "Scorepad: Bob"
    assert history.headline({"game": "scorepad", "names": ["Ann", "Bob", "Cy"],
                             "winners": [0, 2]}) == "Scorepad: A, C (tie)"  # the whole is 137 px
    assert line(winners=[0, 1], outcome="win", coop=True) == "Contrast: co-op won"
    assert line(winners=[1], outcome="win") == "Contrast: Bob"
    assert line(winners=[], outcome="lose", coop=True) == "Contrast: co-op lost"
    assert line(winners=[], outcome="lose") == "Contrast: co-op lost"  # filed before "coop"
    assert line(winners=[], outcome="draw", coop=True) == "Contrast: co-op draw"
    assert history.headline({"game": "scorepad", "names": ["Ann"], "winners": []}) \
        == "Scorepad: unfinished"
    assert history.headline({"game": "dice", "names": ["Ann"], "winners": [0]}) == "dice: Ann"

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


def test_history_headlines_tell_a_lost_coop_game_from_an_unfinished_one():
    from tablemate.screens import history
    assert history.headline({"game": "scorepad", "names": ["Ann", "Bob"], "winners": [1]}) \
        == "scorepad: Bob"
    assert history.headline({"game": "contrast", "names": ["Ann", "Bob"], "winners": [],
                             "outcome": "lose"}) == "contrast: lost"
    assert history.headline({"game": "contrast", "names": ["Ann", "Bob"], "winners": [],
                             "outcome": "draw"}) == "contrast: draw"
    assert history.headline({"game": "scorepad", "names": ["Ann"], "winners": []}) \
        == "scorepad: unfinished"

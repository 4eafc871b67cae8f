"""Resume after a killed process: a new Device on the same flash is a power cut and reboot."""

import json
import os
import sys

from conftest import (actions, choose, commit, cursor_at, dump, highlighted, history,
                      new_scorepad, row_score, turn_of)


def play_some(dev):
    """Ann +2, next, Bob +5, next, Cy -1 (committed), then a pending Ann +1 that dies with the power."""
    new_scorepad(dev, players=3, target=50)
    dev.presses("RIGHT", "RIGHT")
    dev.press("OK")
    dev.presses("RIGHT", "RIGHT", "RIGHT", "RIGHT", "RIGHT")
    dev.press("OK")
    dev.press("LEFT")
    commit(dev)
    dev.press("DOWN")  # from Cy, the last seat, round to Ann
    dev.press("RIGHT")  # pending when the power goes: never journaled
    return [["add", 0, 2], ["next"], ["add", 1, 5], ["next"], ["add", 2, -1]]


def scores_shown(dev, scores):
    return all(row_score(dev, i, s) for i, s in enumerate(scores))


def test_resume_after_kill_shows_the_same_scores(make_device, root):
    dev = make_device()
    done = play_some(dev)
    assert actions(dev) == done
    assert scores_shown(dev, [3, 5, -1]) and dev.shows("+1 pending"), dump(dev)

    dev = make_device()  # the process was killed; the Pico boots again
    assert dev.shows("Resume game?") and dev.shows("Scorepad"), dump(dev)
    dev.press("OK")
    assert not dev.shows("Resume game?"), dump(dev)
    assert dev.shows("Round 1") and dev.shows("to 50"), dump(dev)
    assert scores_shown(dev, [2, 5, -1]), "the pending +1 died with the power" + dump(dev)
    assert turn_of(dev, "Cy") and cursor_at(dev, "Cy"), "the player to move is lit" + dump(dev)
    assert actions(dev) == done

    # The game goes on and is journaled after the replayed actions.
    dev.press("RIGHT")
    dev.press("OK")
    assert actions(dev) == done + [["add", 2, 1], ["next"]]
    assert dev.shows("Round 2") and row_score(dev, 2, 0), dump(dev)


def test_no_keeps_the_game_for_continue(make_device, root):
    dev = make_device()
    done = play_some(dev)

    dev = make_device()
    assert dev.shows("Resume game?"), dump(dev)
    dev.press("RIGHT")  # toggle to "No"
    assert highlighted(dev, "No"), dump(dev)
    dev.press("OK")
    assert not dev.shows("Resume game?"), dump(dev)
    assert highlighted(dev, "Continue Scorepad"), dump(dev)
    assert actions(dev) == done, "saying No must not touch the journal"

    # Another reboot still asks; BACK is No as well.
    dev = make_device()
    assert dev.shows("Resume game?"), dump(dev)
    dev.press("BACK")
    choose(dev, "Continue Scorepad")
    assert scores_shown(dev, [2, 5, -1]), dump(dev)
    assert actions(dev) == done


def test_a_new_game_asks_before_replacing_the_saved_one(make_device, root):
    dev = make_device()
    done = play_some(dev)
    dev = make_device()
    dev.press("BACK")  # No
    new_scorepad(dev, players=2)
    assert dev.shows("Replace the saved") and dev.shows("unfinished."), dump(dev)
    dev.press("RIGHT")  # No
    dev.press("OK")
    assert actions(dev) == done and history(root) == []
    dev.press("BACK")  # leave the setup menu
    assert dev.shows("Continue Scorepad") and dev.shows("Contrast"), dump(dev)  # the home menu

    # Yes: the saved game goes to the history, unfinished, as it stood; the new one starts.
    new_scorepad(dev, players=2)
    dev.press("OK")
    games = history(root)
    assert len(games) == 1 and games[0]["winners"] == [] and games[0]["scores"] == [2, 5, -1]
    assert games[0]["names"] == ["Ann", "Bob", "Cy"] and actions(dev) == []
    assert row_score(dev, 0, 0) and row_score(dev, 1, 0) and not dev.shows("Cy"), dump(dev)
    # Filing it read its journal and end marker back: the new game keeps no reader in RAM.
    assert "tablemate.store.readback" not in sys.modules



def test_files_kept_at_the_root_by_an_older_version_move_into_data(tmp_path):
    # before 0.2 the settings, the game and the history lived at the root of the flash
    from tablemate_host.device import Device
    root = str(tmp_path / "flash")
    os.makedirs(root)
    with open(os.path.join(root, "settings.json"), "w") as f:
        json.dump({"names": ["Zoe", "Yan", "Xi", "Wu", "V", "U", "T", "S"]}, f)
    with open(os.path.join(root, "game.jnl"), "w") as f:
        f.write('{"v": 1, "game": "scorepad", "opts": {"names": ["Zoe", "Yan"], "target": 0}}\n'
                '["add", 0, 7]\n')
    with open(os.path.join(root, "game.jnl.bad"), "w") as f:
        f.write("kept aside\n")
    dev = Device(root)
    assert sorted(os.listdir(os.path.join(root, "data"))) == ["board.json", "game.jnl",
                                                            "game.jnl.bad", "settings.json"]
    assert sorted(os.listdir(root)) == ["data"]
    assert dev.shows("Resume game?"), dump(dev)
    dev.press("OK")
    assert dev.shows("Zoe") and dev.app.game.state["scores"] == [7, 0], dump(dev)

"""The last setup of each game mode (who played, the options, who started), offered first.

A table plays the same game with the same people many times: the setup menu opens as it was
left. One small JSON file holds one record per mode, ``{"seats": [...], "values": {...},
"first": n}``: ``seats`` are positions in the settings' list of names (so a renamed player keeps
their seat), ``values`` the mode's options by key, ``first`` the starting seat or -1 for a
random draw. The setup menu checks each record against the registry before using it (a record
from another version never starts a game the rules refuse); a file that cannot be read is kept
aside (``.bad``) and the menu starts from the defaults, saying so.
"""

from tablemate import json

UNREADABLE = "Saved setups unreadable: defaults used"


def load(path):
    """(records by mode name, problem text or None)."""
    try:
        with open(path) as f:
            data = json.loads(f.read())
    except OSError:
        return {}, None  # none saved yet
    except (ValueError, RuntimeError):  # RuntimeError: too deep for CPython's json
        data = None
    if type(data) is not dict:
        from tablemate.store import files  # only then: a first visit to a setup imports less
        try:
            files.aside(path, move=True)
        except OSError:
            pass
        return {}, UNREADABLE
    return data, None


def save(path, records, mode_name, rec):
    """Store ``rec`` as the last setup of ``mode_name`` (temporary file, then a rename)."""
    records[mode_name] = rec
    # .mpy: 2 KB the home menu and its boot do without
    from tablemate.store.files import write_atomic
    write_atomic(path, json.dumps(records))

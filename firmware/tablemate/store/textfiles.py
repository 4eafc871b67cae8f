"""Reading a text file whole and appending to a log: the file helpers of rare paths.

The Viewpoint catalog (read when a game starts), the self-test's version stamp and the error
log use these; ``store/files.py``, which every game keeps loaded, does not carry them (a Pico
keeps module code in its heap: these are about 400 B of it).
"""

from tablemate import os
from tablemate.store.files import in_the_way


def read_text(path, parse):
    """``parse(f)`` of the text file at ``path`` (iterate ``f`` for its lines, or read it);
    None when there is no file. What the file holds is ``parse``'s to judge."""
    try:
        f = open(path)
    except OSError:
        return None
    try:
        return parse(f)
    finally:
        f.close()


def append(path, write, limit, old):
    """Append what ``write(f)`` writes to the file at ``path``, a log: past ``limit`` bytes
    the file first becomes ``old`` (replacing it), so that it never outgrows the flash. A
    folder at either name is moved aside (``files.in_the_way``): the log must not stop."""
    in_the_way(path)
    try:
        if os.stat(path)[6] > limit:
            if not in_the_way(old):
                try:
                    os.remove(old)
                except OSError:
                    pass
            os.rename(path, old)
    except OSError:
        pass
    with open(path, "a") as f:
        write(f)

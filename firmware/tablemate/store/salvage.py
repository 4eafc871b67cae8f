"""A journal's good start kept, the rest cut: the repair's copy (``readback``) and an append
that finds bytes not its own (``journal.append``).

Why a module of its own: both are rare, and a game in play keeps ``journal`` and ``files`` in
RAM; here the copy is loaded only when a repair needs it (.mpy: 0.2 KB out of a game's heap).
"""

from tablemate import alive
from tablemate.store.files import CHUNK, write_atomic


def keep_start(path, length, more=b""):
    """Make the file at ``path`` its first ``length`` bytes and ``more``, the whole file kept
    aside (``write_atomic`` with ``keep``); return the number of newlines in what is kept.

    littlefs cannot shorten a file, so a journal's repair (a cut at a damaged line, or an append
    that finds bytes not its own) copies what it keeps; a long journal takes seconds at the
    flash's slowest, so the copy feeds the watchdog chunk by chunk."""
    def fill(fo):
        lines = 0
        left = length
        with open(path, "rb") as fi:
            while left > 0:
                alive()
                data = fi.read(min(CHUNK, left))
                if not data:
                    break
                fo.write(data)
                lines += data.count(b"\n")
                left -= len(data)
        fo.write(more)
        return lines
    return write_atomic(path, fill, True)

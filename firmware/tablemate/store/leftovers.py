"""What an install on the flash left, once Tablemate runs frozen into its firmware (the UF2).

``tablemate flash`` and ``mpremote mip install --target /`` put the package in ``/tablemate``,
and ``tablemate flash`` lists what it wrote, ``main.py`` at the root among it, in its manifest.
Under the UF2 those files never run: its frozen ``main.py`` imports the frozen package. Yet they
hold 250-300 KB of the 1.4 MB flash, and a stock MicroPython installed later would run them,
however old. So the UF2's ``main.py`` calls ``clear`` at every boot; it finds nothing once they
are gone (one failed lookup).

``main.py`` goes first, and only when the manifest lists it: a ``main.py`` of the user's own is
theirs (it does not run under the UF2). Then the folder, its files before their folders. A power
cut part way leaves the rest for the next boot. ``/data`` is never looked at.
"""

from tablemate import os

PACKAGE = "/tablemate"
_MANIFESTS = ("/tablemate/store/MANIFEST", "/tablemate/MANIFEST")  # the second before 0.2
_DIR = 0x4000  # S_IFDIR in os.stat()[0], on MicroPython and CPython alike


def clear(root):
    """Remove what an earlier install left in ``root`` (the flash: ""); the number of files
    removed, 0 when there was nothing. Never raises: a flash that refuses (read-only, damaged)
    is reported on the console, and the frozen firmware runs all the same."""
    try:
        os.stat(root + PACKAGE)
    except OSError:
        return 0
    removed = 0
    try:
        if _lists_main(root):
            os.remove(root + "/main.py")
            removed += 1
        removed += _remove_tree(root + PACKAGE)
    except OSError as exc:
        print("Tablemate: could not remove the files of an earlier install in %s (%s); "
              "the firmware's own modules run all the same" % (PACKAGE, exc))
        return removed
    print("Tablemate: removed %d files an earlier install left in %s: this firmware carries "
          "Tablemate itself (settings, games and history in /data are kept)" % (removed, PACKAGE))
    return removed


def _lists_main(root):
    """True when the install's manifest lists ``main.py`` and it is still there."""
    for manifest in _MANIFESTS:
        try:
            f = open(root + manifest)
        except OSError:
            continue
        try:
            listed = "main.py" in f.read().split("\n")
        finally:
            f.close()
        if listed:
            try:
                os.stat(root + "/main.py")
                return True
            except OSError:
                return False
    return False


def _remove_tree(path):
    """Remove the folder ``path`` with all it holds; the number of files removed."""
    removed = 0
    for name in os.listdir(path):
        child = path + "/" + name
        if os.stat(child)[0] & _DIR:
            removed += _remove_tree(child)
        else:
            os.remove(child)
            removed += 1
    os.rmdir(path)
    return removed

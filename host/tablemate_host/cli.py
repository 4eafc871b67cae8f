"""The ``tablemate`` command: simulator, flashing a Pico, its players' names, pulling its history,
backing up and restoring its data, screens, benchmark."""

import argparse
import os
import sys

import tablemate_host  # noqa: F401  (installs the fakes before any firmware import)


def build_parser():
    parser = argparse.ArgumentParser(
        prog="tablemate", description="Tablemate on your computer: the simulator, flashing a Pico, "
        "its players' names, pulling its history, backing up its data, the README pictures, "
        "the benchmark.")
    sub = parser.add_subparsers(dest="command", required=True)

    sim = sub.add_parser("sim", help="run the firmware in this terminal")
    sim.add_argument("--data", help="directory standing in for the Pico's flash "
                     "(default: ~/.local/share/tablemate/sim)")
    sim.add_argument("--layout", choices=("six", "five", "three", "encoder"),
                     help="button layout (encoder: arrows turn the knob)")
    sim.add_argument("--sh1106", action="store_true", help="emulate the 1.3\" SH1106 module")
    sim.add_argument("--fresh", action="store_true", help="wipe the simulated flash first")
    sim.add_argument("--drawing", choices=("auto", "full", "compact"), default="auto",
                     help="full: half-blocks, needs 130x36; compact: braille, 2x4 pixels a "
                     "character, needs 66x21 (an 80x24 terminal holds it); auto (the default): "
                     "full where it fits, else compact, chosen again at each resize")
    sim.add_argument("--exit-zero-on-signal", action="store_true",
                     help="exit with status 0, as after q, when SIGTERM or SIGHUP ends the run, "
                     "instead of dying of that signal (make sim uses it: make reports a "
                     "command that died of a signal as a failed recipe)")

    shots = sub.add_parser("screens", help="render the README's screen PNGs")
    shots.add_argument("names", nargs="*", help="which screens (default: all)")
    shots.add_argument("--out", help="output directory (default: docs/screens)")

    fl = sub.add_parser("flash", help="deploy firmware/ to a connected Pico (keeps settings and games)")
    fl.add_argument("--source", action="store_true",
                    help="copy the .py files instead of compiling them to .mpy")
    fl.add_argument("--port", help="serial port of the board, e.g. /dev/ttyACM0 or COM5 "
                    "(default: the first board found, like mpremote)")
    fl.add_argument("--dry-run", action="store_true",
                    help="show what would be written and removed, change nothing (without a "
                    "board: the plan for a first flash)")

    pp = sub.add_parser("players", help="show or set the players' names on a connected Pico",
                        description="tablemate players (or: players list) prints the eight "
                        "names; tablemate players set Ann Bob ... sets players 1, 2, ...")
    pp.add_argument("--port", help="serial port of the board (default: the first board found)")
    psub = pp.add_subparsers(dest="players_command", metavar="{list,set}")
    pls = psub.add_parser("list", help="print the players' names (the default)")
    pset = psub.add_parser("set", help="set players 1, 2, ... (the others keep their names)")
    pset.add_argument("names", nargs="*", metavar="NAME",
                      help="1 to 8 names of 1-8 printable ASCII characters (quote names with "
                      "spaces; `--` before a name starting with -)")
    for p in (pls, pset):  # --port after the subcommand too; SUPPRESS keeps one given before
        p.add_argument("--port", default=argparse.SUPPRESS, help=argparse.SUPPRESS)

    pl = sub.add_parser("pull", help="copy the history, error log and settings from a connected Pico")
    pl.add_argument("--port", help="serial port of the board (default: the first board found)")
    pl.add_argument("--out", default="pulled", help="folder to copy into (default: ./pulled)")
    pl.add_argument("--free", action="store_true",
                    help="then remove from the board what the copy holds: the archive of old "
                    "games (history.old) and the damaged files kept aside (*.bad): room on a "
                    "full flash")

    rp = sub.add_parser("report", help="print every game of a pulled history (unfinished ones "
                        "too) and who won most")
    rp.add_argument("file", nargs="?", default=os.path.join("pulled", "history.jnl"),
                    help="a history file (default: pulled/history.jnl); its archive beside it, "
                    "history.old, is read first")
    rp.add_argument("--nights", action="store_true",
                    help="also print the games night by night and, per player and per game, "
                    "wins, win rate, by player count, rival, best and average score (the "
                    "solitaire: fewest and average moves), time played")
    rp.add_argument("--bgstats", metavar="FILE",
                    help="also write the finished games as a BG Stats import file (JSON)")
    from tablemate_host import exports  # what --csv and --plots write, named by their code
    rp.add_argument("--csv", metavar="FILE",
                    help="also write one row per game and player: " + ", ".join(exports.COLUMNS))
    rp.add_argument("--plots", metavar="DIR",
                    help="also draw PNGs into DIR: " + "; ".join(
                        "%s (%s)" % (name, what) for name, _, what in exports.PLOTS)
                    + "; %s (%s)" % exports.PROGRESSION)
    rp.add_argument("--journal", metavar="FILE",
                    help="the game whose scores progression.png draws (default: game.jnl "
                    "beside the history file)")

    bk = sub.add_parser("backup", help="save the board's data (settings, history, saved game, "
                        "records) into a folder",
                        description="Copies every file the firmware keeps in /data into DIR, "
                        "with manifest.json; changes nothing on the board.")
    bk.add_argument("dir", metavar="DIR", help="folder to save into (an earlier backup there "
                    "is replaced)")
    bk.add_argument("--port", help="serial port of the board (default: the first board found)")

    rs = sub.add_parser("restore", help="put a backup back on the board, after checking every "
                        "file", description="Checks every file of the backup with the "
                        "firmware's own readers; if one is refused, nothing on the board "
                        "changes. A game in progress on the board is kept unless "
                        "--replace-game is given.")
    rs.add_argument("dir", metavar="DIR", help="a folder written by tablemate backup")
    rs.add_argument("--port", help="serial port of the board (default: the first board found)")
    rs.add_argument("--replace-game", action="store_true",
                    help="put the backup's saved game (and chess clock) in place of the one on "
                    "the board, which is filed in the history as the device files a replaced "
                    "game")

    bench = sub.add_parser("bench", help="print the performance figures")
    bench.add_argument("--quick", action="store_true")
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    if args.command == "sim":
        from tablemate_host import sim
        return sim.main(args)
    if args.command == "screens":
        from tablemate_host import shots
        return shots.main(args)
    if args.command == "flash":
        from tablemate_host import flash
        return flash.main(args)
    if args.command == "players":
        from tablemate_host import players
        return players.main(args)
    if args.command == "pull":
        from tablemate_host import pull
        return pull.main_pull(args)
    if args.command == "report":
        from tablemate_host import pull
        return pull.main_report(args)
    if args.command in ("backup", "restore"):
        from tablemate_host import backup
        return backup.main(args)
    if args.command == "bench":
        import runpy
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        bench = runpy.run_path(os.path.join(root, "tools", "bench.py"))
        return bench["main"](["--quick"] if args.quick else [])
    return 2


if __name__ == "__main__":
    sys.exit(main())

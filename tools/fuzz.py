"""The long run of the key fuzzer (tests/logic/fuzz.py): the real app, raw key levels, invariants.

    .venv/bin/python tools/fuzz.py [--seed N] [--presses N] [--layout six|five|three|encoder|all]
                                   [--vm cpython|micropython] [--jobs N] [--known TEXT ...]

Runs ``fuzz.Fuzzer`` for ``--presses`` physical presses per layout (a chord counts two, a turn
of the knob one) and prints its figures: presses, gestures, key events, pin edges, simulated
time, games started per mode, journal checks, power cuts (and the resumes checked after them),
home checks (and the longest way home), failures already known, and the wall time. A broken
invariant stops the layout's run and prints the failure (seed, gesture, screens and the last
gestures); the exit status is then 1. ``--layout all`` (the default) runs the four layouts,
``--jobs`` of them at a time, each in its own process.

``--vm micropython`` runs the same module in the real MicroPython VM (tools/mpvm, through
``tablemate_host.mpvm`` as tests/test_micropython_vm.py does), ``--chunk`` presses per
``runPython`` call: the VM only collects garbage between calls, so one call per run would grow
the heap by the whole run's garbage.

``--known TEXT`` (repeatable): a failure whose exception text contains TEXT was reported already;
it is counted and the run goes on (the failure's own test lives in tests/logic/test_fuzz.py).
The nightly size is 100,000 presses per layout on CPython and 10,000 on the MicroPython VM;
docs/testing.md has the figures of the last such run.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LOGIC = os.path.join(ROOT, "tests", "logic")
LAYOUTS = ("six", "five", "three", "encoder")
MARK = "FUZZ-FIGURES "


def _host():
    for p in (os.path.join(ROOT, "host"), LOGIC):
        if p not in sys.path:
            sys.path.insert(0, p)
    import tablemate_host  # noqa: F401  (the fakes: micropython, time.ticks_*, ...)


def run_cpython(layout, seed, presses, known, chunk):
    """Run in this process; returns (figures, failure text or None)."""
    _host()
    import fuzz
    root = tempfile.mkdtemp(prefix="tablemate-fuzz-")
    devnull = open(os.devnull, "w")
    stdout = sys.stdout
    f = fuzz.Fuzzer(root.replace("\\", "/"), layout, seed, known=tuple(known))
    failure = None
    done = 0
    try:
        while done < presses:
            n = min(chunk, presses - done)
            sys.stdout = devnull  # the About page and the error net print to the console
            try:
                f.run(n)
            finally:
                sys.stdout = stdout
            done += n
            print("%s: %d presses" % (layout, f.stats["presses"]), file=sys.stderr, flush=True)
    except fuzz.FuzzFailure as exc:
        failure = str(exc)
    figures = f.figures()
    figures["gestures"] = f.gesture
    return figures, failure


def run_micropython(layout, seed, presses, known, chunk):
    """Run in the MicroPython VM, ``chunk`` presses per call; returns (figures, failure)."""
    _host()
    from tablemate_host import mpvm
    setup = ("import sys\nsys.path.insert(0, '/tests')\nimport support, fuzz\n"
             "F = fuzz.Fuzzer(support.scratch_dir('fuzz-%s'), %r, %d, known=%r)\n"
             "FAIL = None\n" % (layout, layout, seed, tuple(known)))
    step = ("if FAIL is None:\n"
            "    try:\n"
            "        F.run(%d)\n"
            "    except fuzz.FuzzFailure as e:\n"
            "        FAIL = str(e)\n")
    chunks = [setup]
    done = 0
    while done < presses:
        n = min(chunk, presses - done)
        chunks.append(step % n)
        done += n
    chunks.append("import json\ns = F.figures()\ns['gestures'] = F.gesture\n"
                  "print(%r + json.dumps({'figures': s, 'failure': FAIL}))" % MARK)
    out = mpvm.run(chunks, files={"/tests": LOGIC}, timeout=24 * 3600)
    for line in out.splitlines():
        if line.startswith(MARK):
            data = json.loads(line[len(MARK):])
            return data["figures"], data["failure"]
    raise RuntimeError("no figures from the VM:\n" + out[-2000:])


def one(args, layout):
    run = run_micropython if args.vm == "micropython" else run_cpython
    t0 = time.time()
    figures, failure = run(layout, args.seed, args.presses, args.known, args.chunk)
    figures["wall_s"] = round(time.time() - t0, 1)
    figures["layout"] = layout
    figures["vm"] = args.vm
    figures["seed"] = args.seed
    return figures, failure


def _table(results):
    rows = (("presses", "presses"), ("gestures", "gestures"), ("key events", "key_events"),
            ("pin edges", "edges"), ("simulated time (min)", "minutes"),
            ("games started", "games"), ("journal checks", "journal_checks"),
            ("encoder detents", "detents"), ("power cuts", "power_cuts"),
            ("  inside a pass", "cuts_in_a_pass"), ("  key held through", "held_through_cut"),
            ("  resumes checked", "resumes_checked"), ("home checks", "home_checks"),
            ("  longest way home", "longest_escape"), ("undos (game menu)", "undos"),
            ("games ended (menu)", "ended"), ("most actions in a game", "most_actions"),
            ("dimmed / off gaps", "idle"), ("known failures", "known_n"),
            ("wall time (s)", "wall_s"), ("presses per second", "rate"))
    for r in results:
        r["minutes"] = round(r["ms"] / 60000.0, 1)
        r["games"] = sum(r["started"].values())
        r["idle"] = "%d / %d" % (r["dims"], r["offs"])
        r["known_n"] = sum(r["known"].values())
        r["rate"] = int(r["presses"] / r["wall_s"]) if r["wall_s"] else 0
    lines = ["%-24s" % ("%s, seed %d" % (results[0]["vm"], results[0]["seed"]))
             + "".join("%12s" % r["layout"] for r in results)]
    for label, key in rows:
        lines.append("%-24s" % label + "".join("%12s" % r[key] for r in results))
    modes = sorted(set(m for r in results for m in r["started"]))
    lines.append("games started per mode:")
    for m in modes:
        lines.append("%-24s" % ("  " + m) + "".join("%12d" % r["started"].get(m, 0)
                                                   for r in results))
    known = sorted(set(k for r in results for k in r["known"]))
    for k in known:
        lines.append("known: %s: %s" % (k, ", ".join("%s %d" % (r["layout"], r["known"].get(k, 0))
                                                   for r in results)))
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--presses", type=int, default=10000, help="per layout")
    ap.add_argument("--layout", choices=LAYOUTS + ("all",), default="all")
    ap.add_argument("--vm", choices=("cpython", "micropython"), default="cpython")
    ap.add_argument("--jobs", type=int, default=2, help="layouts run at once (--layout all)")
    ap.add_argument("--chunk", type=int, default=500, help="presses per VM call (progress "
                    "lines on CPython)")
    ap.add_argument("--known", action="append", default=[], metavar="TEXT")
    ap.add_argument("--json", action="store_true", help="print the figures as one JSON line")
    args = ap.parse_args(argv)
    if args.layout != "all":
        figures, failure = one(args, args.layout)
        results = [(figures, failure)]
    else:
        results = _parallel(args)
    if args.json:
        print(json.dumps([{"figures": f, "failure": e} for f, e in results]))
    else:
        print(_table([f for f, _ in results]))
    failed = False
    for figures, failure in results:
        if failure:
            failed = True
            if not args.json:
                print("\nFAILURE, layout %s, seed %d:\n%s" % (figures["layout"], args.seed,
                                                              failure))
    return 1 if failed else 0


def _parallel(args):
    """Each layout in a process of its own, ``--jobs`` at a time."""
    todo = list(LAYOUTS)
    running = []
    done = {}
    base = [sys.executable, os.path.abspath(__file__), "--seed", str(args.seed), "--presses",
            str(args.presses), "--vm", args.vm, "--chunk", str(args.chunk), "--json"]
    for k in args.known:
        base += ["--known", k]
    while todo or running:
        while todo and len(running) < max(1, args.jobs):
            layout = todo.pop(0)
            running.append((layout, subprocess.Popen(base + ["--layout", layout],
                                                     stdout=subprocess.PIPE)))
        layout, proc = running.pop(0)
        out = proc.communicate()[0].decode("utf-8", "replace")
        lines = [line for line in out.splitlines() if line.startswith("[")]
        if not lines:
            raise RuntimeError("the %s run printed no figures:\n%s" % (layout, out[-2000:]))
        item = json.loads(lines[-1])[0]
        done[layout] = (item["figures"], item["failure"])
    return [done[layout] for layout in LAYOUTS]


if __name__ == "__main__":
    sys.exit(main())

"""Issue 27: each plot of ``tablemate report --plots``, rendered and read back: its size, its
labels, no two texts overlapping (matplotlib's own text extents) and the legend off the data."""

import itertools
import os
import subprocess
import sys

import pytest

from tablemate_host import pull, exports

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAMPLE = os.path.join(ROOT, "docs", "report", "history.jnl")


def _capture(monkeypatch):
    """Run a plot function and keep its Figure (``exports._save`` and savefig are the same)."""
    figs = []
    real = exports._figure

    def figure(width, height):
        fig = real(width, height)
        figs.append(fig)
        return fig
    monkeypatch.setattr(exports, "_figure", figure)
    return figs


def _texts(fig):
    """Every text ``fig`` draws (tick labels only of ticks inside the axes' limits, as
    matplotlib draws them), non-empty, with its extent in pixels."""
    from matplotlib.text import Text
    renderer = fig.canvas.get_renderer()
    ticks, drawn = set(), set()
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            lo, hi = sorted(axis.get_view_interval())
            for tick in axis.get_major_ticks() + axis.get_minor_ticks():
                ticks |= {id(tick.label1), id(tick.label2)}
                if lo - 1e-9 <= tick.get_loc() <= hi + 1e-9 and tick.get_visible():
                    drawn |= {id(tick.label1), id(tick.label2)}
    found = []
    for t in set(fig.findobj(Text)):
        if id(t) in ticks and id(t) not in drawn:
            continue
        if t.get_visible() and t.get_text().strip():
            box = t.get_window_extent(renderer)
            if box.width > 0:
                found.append((t.get_text(), box))
    return found


def _check(fig, path, labels):
    from PIL import Image
    with Image.open(path) as im:
        w, h = im.size
    assert 600 <= w <= 1600 and 250 <= h <= 1000, (path, w, h)
    texts = _texts(fig)
    words = [t for t, _ in texts]
    for label in labels:
        assert any(label in t for t in words), (label, words)
    for (a, ba), (b, bb) in itertools.combinations(texts, 2):
        assert not ba.overlaps(bb), "%r overlaps %r in %s" % (a, b, os.path.basename(path))
    for _, box in texts:  # nothing cut at the edges
        assert box.x0 >= 0 and box.y0 >= 0 and box.x1 <= w and box.y1 <= h, (box, w, h)
    renderer = fig.canvas.get_renderer()
    legends = [lg for lg in fig.legends] + [ax.get_legend() for ax in fig.axes
                                            if ax.get_legend()]
    for lg in legends:
        box = lg.get_window_extent(renderer)
        for ax in fig.axes:
            assert not box.overlaps(ax.get_window_extent(renderer)), "the legend is on the data"


@pytest.fixture
def sample():
    return pull.read_history(SAMPLE)


def test_wins_per_player_and_game(monkeypatch, sample, tmp_path):
    figs = _capture(monkeypatch)
    path = str(tmp_path / "wins.png")
    exports.plot_wins(sample, path)
    _check(figs[0], path, ["Ann", "Bob", "Cleo", "Dev", "Perfect Moment", "Cartes sur Table",
                           "wins", "Wins per player and game (38 games)"])
    bars = sorted((p.get_x(), p.get_x() + p.get_width()) for p in figs[0].axes[0].patches)
    gaps = [b[0] - a[1] for a, b in zip(bars, bars[1:])]
    assert min(gaps) > 0 and max(gaps) > 5 * min(gaps)  # bars apart, groups further apart


def test_scores_over_the_last_night(monkeypatch, sample, tmp_path):
    figs = _capture(monkeypatch)
    path = str(tmp_path / "night.png")
    exports.plot_night(sample, path)
    last = [g for g in sample if g["start"].startswith("2026-11-27")]
    assert len(figs[0].axes) == len(last)
    _check(figs[0], path, ["Scores over Fri 2026-11-27", "pale: lost", "Cleo", "19:25"])


def test_time_per_game(monkeypatch, sample, tmp_path):
    figs = _capture(monkeypatch)
    path = str(tmp_path / "time.png")
    exports.plot_time(sample, path)
    _check(figs[0], path, ["Time per game", "minutes per game (average)", "Scorepad",
                           "Perspective", "games,"])


def test_undated_games_still_draw(monkeypatch, tmp_path, sample):
    old = [{k: v for k, v in g.items() if k not in ("start", "end")} for g in sample[:12]]
    figs = _capture(monkeypatch)
    for name, draw, _ in exports.PLOTS:
        draw(old, str(tmp_path / name))
    _check(figs[1], str(tmp_path / "night.png"), ["no dates known"])
    _check(figs[2], str(tmp_path / "time.png"), ["no game with a known time"])


def test_plots_without_matplotlib_name_the_command_that_installs_it(tmp_path):
    """matplotlib is the [plots] extra: without it, --plots says how to get it."""
    code = ("import sys; sys.modules['matplotlib'] = None\n"
            "from tablemate_host import cli\n"
            "sys.exit(cli.main(['report', %r, '--plots', %r]))" % (SAMPLE, str(tmp_path / "p")))
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 1
    assert "pip install 'tablemate[plots]'" in run.stderr, run.stderr
    assert not os.path.exists(tmp_path / "p")


def test_the_readme_sample_is_current():
    """docs/report/ is what tools/gen_sample.py makes today from the firmware's history writer."""
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    try:
        import gen_sample
    finally:
        sys.path.pop(0)
    stale = gen_sample.stale()
    assert not stale, "run `python tools/gen_sample.py` (or make generate): %s stale" % stale
    assert len(sample_games := pull.read_history(SAMPLE)) >= 30
    from tablemate_host import stats
    assert len([t for t, _ in stats.nights(sample_games) if t != "date unknown"]) == 4


def test_the_check_sees_overlapping_text(tmp_path):
    """The check itself: two titles drawn on top of each other are caught."""
    fig = exports._figure(7, 3)
    ax = fig.add_subplot()
    ax.set_title("Wins per player")
    ax.text(0.5, 1.02, "Time per game", transform=ax.transAxes, ha="center")
    path = str(tmp_path / "bad.png")
    exports._save(fig, path)
    with pytest.raises(AssertionError, match="overlaps"):
        _check(fig, path, [])

"""The report's figures, drawn with matplotlib (Agg, no display): SVG for the HTML page,
PNG for the Markdown. Text at reading size (11 px labels, 10 px legends, outside the
axes when there are many lines); every point that has a 95% interval over sentences
draws it, in a group whose SVG id starts with ``interval`` (the browser test counts
them).

Drawing is most of a report's time, so a report folder keeps what it drew
(``.drawings/``, by a digest of each plot's inputs, matplotlib's version and this
module's code): a report written again draws only the plots whose inputs changed,
and reuses the bytes of the others (:class:`Drawings`). The paired tests' resamples
are kept there too, by a digest of the stored results they come from (:func:`kept`)."""

from __future__ import annotations

import contextlib
import functools
import hashlib
import io
import json
from collections.abc import Callable, Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeVar

from parsebench.present.plots import BoundedPoint, Drawing, GroupPoint, LevelSeries
from parsebench.report import colours
from parsebench.report.colours import colour_of


@dataclass(frozen=True)
class Plot:
    png: bytes
    svg: bytes
    points: int = 0
    """The points drawn (the plots with intervals count them)."""
    intervals: int = 0
    """The points among them drawn with their 95% interval."""
    colours: dict[str, str] = field(default_factory=dict)
    """The parsers given their colour by drawing it."""


RC: dict[str, Any] = {
    "font.size": 11, "axes.titlesize": 12, "axes.labelsize": 11, "legend.fontsize": 10,
    "xtick.labelsize": 10, "ytick.labelsize": 10, "svg.fonttype": "none",
    "svg.hashsalt": "parsebench"}

@dataclass
class Drawings:
    """The plots of one report folder: those drawn before (FOLDER, read when asked for)
    and those this report uses (:meth:`save` writes the new ones and drops the ones no
    longer shown). A cached plot whose bytes do not match its record is drawn again."""

    folder: Path | None
    used: dict[str, Plot] = field(default_factory=dict)
    drawn: int = 0
    """The plots drawn (not reused) for this report."""
    values: dict[str, str] = field(default_factory=dict)
    """The computed values this report uses (:func:`kept`), as JSON, by key."""
    computed: int = 0
    """The values computed (not reused) for this report."""

    def value(self, key: str) -> str | None:
        """The JSON of value KEY kept in the folder, if its record holds."""
        if self.folder is None:
            return None
        try:
            record = json.loads((self.folder / f"{key}.value").read_text(encoding="utf-8"))
            text = record["json"]
            if not isinstance(text, str) or \
                    record["sha256"] != hashlib.sha256(text.encode()).hexdigest():
                return None
            json.loads(text)
            return text
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def get(self, key: str) -> Plot | None:
        if self.folder is None:
            return None
        try:
            meta = json.loads((self.folder / f"{key}.json").read_text(encoding="utf-8"))
            png = (self.folder / f"{key}.png").read_bytes()
            svg = (self.folder / f"{key}.svg").read_bytes()
            if meta["sha256"] != hashlib.sha256(png + svg).hexdigest():
                return None
            return Plot(png, svg, int(meta["points"]), int(meta["intervals"]),
                        {str(k): str(v) for k, v in meta.get("colours", {}).items()})
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def save(self, folder: Path) -> None:
        folder.mkdir(exist_ok=True)
        for key, plot in self.used.items():
            if not (folder / f"{key}.json").exists():
                (folder / f"{key}.png").write_bytes(plot.png)
                (folder / f"{key}.svg").write_bytes(plot.svg)
                (folder / f"{key}.json").write_text(json.dumps({
                    "sha256": hashlib.sha256(plot.png + plot.svg).hexdigest(),
                    "points": plot.points, "intervals": plot.intervals,
                    "colours": plot.colours}))
        for key, text in self.values.items():
            if not (folder / f"{key}.value").exists():
                (folder / f"{key}.value").write_text(json.dumps({
                    "sha256": hashlib.sha256(text.encode()).hexdigest(), "json": text}),
                    encoding="utf-8")
        for f in folder.iterdir():
            if (f.stem not in self.used and f.suffix in (".png", ".svg", ".json")) or \
                    (f.suffix == ".value" and f.stem not in self.values):
                f.unlink()


_DRAWINGS: ContextVar[Drawings | None] = ContextVar("drawings", default=None)
DRAWN = [0]
"""Every plot drawn in this process (tests count the drawings, not the seconds)."""


@contextlib.contextmanager
def drawings(folder: Path | None) -> Iterator[Drawings]:
    """Plots drawn inside the block reuse those kept in FOLDER (None: draw them all)."""
    d = Drawings(folder if folder is not None and folder.is_dir() else None)
    token = _DRAWINGS.set(d)
    try:
        yield d
    finally:
        _DRAWINGS.reset(token)


@functools.cache
def _code() -> str:
    from parsebench.common.installed import (
        version,  # not matplotlib itself: a reused plot needs none
    )

    return hashlib.sha256(Path(__file__).read_bytes() + version("matplotlib").encode()
                          + json.dumps(RC, sort_keys=True).encode()).hexdigest()


F = TypeVar("F", bound=Callable[..., "Plot"])
COMPUTED = [0]
"""Every value :func:`kept` computed in this process (tests count them)."""


def kept(what: Any, compute: Callable[..., Any], *args: Any) -> Any:
    """COMPUTE(*ARGS), a JSON-shaped value, reused from the report folder's drawings when
    WHAT (JSON: a name and what decides the value, such as the stored results' digest)
    and parsebench's code are the same: the paired tests' ten thousand resamples are
    drawn once, not on every report. Reused or not, the value has been through JSON, so
    both give the same report."""
    from parsebench.common.installed import code_digest, version

    d = _DRAWINGS.get()
    key = hashlib.sha256(json.dumps([code_digest(), version("numpy"), what],
                                    sort_keys=True).encode()).hexdigest()[:32]
    text = None if d is None else d.values.get(key) or d.value(key)
    if text is None:
        text = json.dumps(compute(*args))
        COMPUTED[0] += 1
        if d is not None:
            d.computed += 1
    if d is not None:
        d.values[key] = text
    return json.loads(text)


def _reused(fn: F) -> F:
    """FN's plot from the report folder's drawings when its inputs are the same: its
    arguments and the parsers' colours (:mod:`colours`) when it is called. A plot that
    gives a parser its colour leaves it given when it is reused, as when it is drawn."""
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Plot:
        d = _DRAWINGS.get()
        before = dict(colours.given())
        try:
            key = hashlib.sha256(json.dumps([_code(), fn.__name__, args, kwargs, before],
                                            default=repr, sort_keys=True).encode()
                                 ).hexdigest()[:32]
        except (TypeError, ValueError):  # inputs JSON cannot write: drawn every time
            d = None
        got = None if d is None else d.used.get(key) or d.get(key)
        if got is None:
            got = fn(*args, **kwargs)
            DRAWN[0] += 1
            if d is not None:
                d.drawn += 1
            got = replace(got, colours={k: v for k, v in colours.given().items()
                                        if k not in before})
        else:
            colours.give(got.colours)
        if d is not None:
            d.used[key] = got
        return got
    return wrapper  # type: ignore[return-value]


def _figure(width: float = 6.0, height: float = 3.6) -> Any:
    """A figure at most about 6 in (432 pt) wide: the page draws it at its natural size on
    a screen, and on a phone's (343 px for it at 390) scales it down; 8 in brought
    the 10 pt tick labels there to 6 px and less, 6 in keeps them near 8."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rc: Any = plt.rcParams
    rc.update(RC)
    fig, ax = plt.subplots(figsize=(width, height), dpi=100, layout="constrained")
    return plt, fig, ax


def _legend(ax: Any, entries: int) -> None:
    """The legend inside the axes when short, to the right of them when long."""
    if entries > 4:
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
    elif entries:
        ax.legend()


def _interval_bars(ax: Any, xs: Sequence[float], ys: Sequence[float],
                   lo: Sequence[float], hi: Sequence[float], colour: Any, n: int) -> None:
    """95% intervals (in the plot's units) as error bars, their SVG group named."""
    eb = ax.errorbar(xs, ys, yerr=[[y - a for y, a in zip(ys, lo, strict=True)],
                                   [b - y for y, b in zip(ys, hi, strict=True)]],
                     fmt="none", ecolor=colour, color=colour, capsize=3, linewidth=1.0)
    for k, coll in enumerate(eb[2]):
        coll.set_gid(f"interval-{n}-{k}")


def _png(plt: Any, fig: Any, points: int = 0, intervals: int = 0) -> Plot:
    import matplotlib.image

    png, svg = io.BytesIO(), io.BytesIO()
    # drawn once on the canvas and written as savefig writes a PNG (the same bytes),
    # without savefig's dry-run drawing for the layout engine: a third of the drawing
    fig.canvas.draw()
    matplotlib.image.imsave(png, fig.canvas.buffer_rgba(), format="png", origin="upper",
                            dpi=fig.dpi)
    # laid out by that drawing: the SVG keeps those places, and with no layout engine
    # at all (not "none", a placeholder) savefig skips its dry-run drawing
    fig._layout_engine = None
    fig.savefig(svg, format="svg", metadata={"Date": None})
    plt.close(fig)
    return Plot(png.getvalue(), svg.getvalue(), points, intervals)


@_reused
def against_level(title: str, ylabel: str, series: dict[str, LevelSeries]) -> Plot:
    """Lines against error level, with the replicates' min-max as a band and the 95%
    interval over sentences as error bars where the points have one. Series named
    "PARSER @ WHAT" share a colour a parser and take a line style a WHAT. Error levels
    are ordered (a rate, errors a sentence), so their points are joined."""
    plt, fig, ax = _figure()
    styles: dict[str, str] = {}
    labels: list[str] = []
    for pts in series.values():
        for lab, *_ in pts:
            if lab not in labels:
                labels.append(lab)
    numeric = all(lab.endswith("%") for lab in labels)
    try:  # rates on a scale true to their values; other levels evenly spaced
        pos = {lab: float(lab[:-1]) for lab in labels} if numeric else {}
    except ValueError:
        numeric = False
    if not numeric:
        pos = {lab: float(i) for i, lab in enumerate(labels)}
    points = intervals = 0
    for n, (name, pts) in enumerate(series.items()):
        xs = [pos[p[0]] for p in pts]
        parser, sep, what = name.partition(" @ ")
        if sep:
            colour = colour_of(parser)
            style = styles.setdefault(what, ("-", "--", ":", "-.")[len(styles) % 4])
            label = f"{parser} {what}"
        else:
            colour = colour_of(name)
            style = "--" if "real" in name else ":" if "calibrated" in name else "-"
            label = name
        ys = [100 * p[1] for p in pts]
        ax.plot(xs, ys, style, marker="o", markersize=5, color=colour, label=label)
        if any(p[2] != p[3] for p in pts):
            ax.fill_between(xs, [100 * p[2] for p in pts], [100 * p[3] for p in pts],
                            alpha=0.2, color=colour)
        ci = [(x, y, p[4], p[5]) for x, y, p in zip(xs, ys, pts, strict=True)
              if len(p) >= 6 and p[4] is not None and p[5] is not None]
        points += len(pts)
        intervals += len(ci)
        if ci:
            _interval_bars(ax, [c[0] for c in ci], [c[1] for c in ci],
                           [100 * c[2] for c in ci], [100 * c[3] for c in ci], colour, n)
    if numeric:
        ax.set_xlabel("misspelled words (%)")
        ax.set_xlim(left=0)
    else:
        ax.set_xticks(range(len(labels)), labels)
        ax.set_xlabel("error level")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(alpha=0.3)
    _legend(ax, len(series))
    return _png(plt, fig, points, intervals)


@_reused
def relation_bars(title: str, bars: dict[str, dict[str, float]]) -> Plot:
    """Grouped bars: recall by relation, one colour per parser."""
    plt, fig, ax = _figure(6.8, 4.0)
    relations: list[str] = []
    for d in bars.values():
        relations += [r for r in d if r not in relations]
    width = 0.8 / max(1, len(bars))
    for k, (name, d) in enumerate(bars.items()):
        ax.bar([i + k * width for i in range(len(relations))],
               [100 * d.get(r, 0.0) for r in relations], width, label=name,
               color=colour_of(name))
    ax.set_xticks([i + width * (len(bars) - 1) / 2 for i in range(len(relations))],
                  relations, rotation=45, ha="right")
    ax.set_ylabel("labeled recall (%)")
    ax.set_ylim(0, 100)
    ax.set_title(title)
    _legend(ax, len(bars))
    return _png(plt, fig)


@_reused
def time_by_length(series: dict[str, Sequence[tuple[int, float]]]) -> Plot:
    """Mean parse time against sentence length, one line per parser."""
    plt, fig, ax = _figure()
    for name, pts in series.items():
        ax.plot([p[0] for p in pts], [1000 * p[1] for p in pts], marker=".", label=name,
                color=colour_of(name))
    ax.set_xlabel("sentence length (words)")
    ax.set_ylabel("mean parse time (ms)")
    ax.set_title("Parse time against sentence length")
    ax.grid(alpha=0.3)
    _legend(ax, len(series))
    return _png(plt, fig)


@_reused
def by_group(title: str, ylabel: str, groups: Sequence[str],
             series: dict[str, dict[str, GroupPoint]]) -> Plot:
    """Points across groups (arc lengths, sentence lengths) with their 95% intervals, one
    series a parser and level ("PARSER @ LEVEL"): one colour a parser, one marker a
    level, the series side by side within a group. The groups are categories (the root
    is no arc length), so no line joins them."""
    plt, fig, ax = _figure()
    markers: dict[str, str] = {"clean": "o"}
    width = 0.8 / max(1, len(series))
    points = intervals = 0
    for n, (name, pts) in enumerate(series.items()):
        parser, _, level = name.partition(" @ ")
        colour = colour_of(parser)
        marker = markers.setdefault(level, ("s", "^", "D", "v", "P", "X")[(len(markers) - 1)
                                                                          % 6])
        shift = -0.4 + width * (n + 0.5)
        at = [(i + shift, pts[g]) for i, g in enumerate(groups) if g in pts]
        ax.plot([x for x, _ in at], [100 * p[0] for _, p in at], linestyle="none",
                marker=marker, color=colour, label=name, markersize=6,
                markerfacecolor=colour if level == "clean" else "white")
        ci = [(x, p) for x, p in at if p[1] is not None and p[2] is not None]
        points += len(at)
        intervals += len(ci)
        if ci:
            _interval_bars(ax, [x for x, _ in ci], [100 * p[0] for _, p in ci],
                           [100 * (p[1] or 0.0) for _, p in ci],
                           [100 * (p[2] or 0.0) for _, p in ci], colour, n)
    ax.set_xticks(range(len(groups)), groups)
    for i in range(1, len(groups)):
        ax.axvline(i - 0.5, color="#ddd", linewidth=0.8)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(alpha=0.3, axis="y")
    _legend(ax, len(series))
    return _png(plt, fig, points, intervals)


@_reused
def heatmap(title: str, labels: Sequence[str], matrix: Sequence[Sequence[int]]) -> Plot:
    """A confusion matrix, each gold row as shares of its words (the diagonal: right)."""
    plt, fig, ax = _figure(6.0, 5.4)
    shares = [[n / max(1, sum(row)) for n in row] for row in matrix]
    im = ax.imshow(shares, cmap="Blues", vmin=0, vmax=1)
    ax.set_xticks(range(len(labels)), labels, rotation=60, ha="right")
    ax.set_yticks(range(len(labels)), labels)
    ax.set_xlabel("system")
    ax.set_ylabel("gold")
    for i, row in enumerate(shares):
        for j, v in enumerate(row):
            if v >= 0.01:
                ax.text(j, i, f"{100 * v:.0f}", ha="center", va="center", fontsize=9,
                        color="white" if v > 0.5 else "black")
    fig.colorbar(im, ax=ax, fraction=0.046)
    ax.set_title(title)
    return _png(plt, fig)


@_reused
def loss_grid(title: str, rows: Sequence[str], columns: Sequence[str],
              cells: Sequence[Sequence[float | None]]) -> Plot:
    """A benchmark's picture of degradation: a row a language (treebank), a column a
    parser, each cell the LAS points lost under noise, darker for more; n/a cells
    blank and said."""
    import math

    plt, fig, ax = _figure(min(6.0, 2.0 + 0.9 * len(columns)),
                           min(8.0, 1.4 + 0.35 * len(rows)))
    grid = [[math.nan if v is None else 100 * v for v in row] for row in cells]
    known = [v for row in grid for v in row if not math.isnan(v)]
    top = max([1.0, *(abs(v) for v in known)])
    im = ax.imshow(grid, cmap="Reds", vmin=min(0.0, *known) if known else 0.0, vmax=top,
                   aspect="auto")
    ax.set_xticks(range(len(columns)), columns, rotation=30, ha="right")
    ax.set_yticks(range(len(rows)), rows)
    for i, row in enumerate(grid):
        for j, v in enumerate(row):
            ax.text(j, i, "n/a" if math.isnan(v) else f"{v:.1f}", ha="center",
                    va="center", fontsize=8, color="white" if v > top / 2 else "black")
    fig.colorbar(im, ax=ax, fraction=0.046, label="LAS points lost")
    ax.set_title(title)
    return _png(plt, fig, points=len(known))


@_reused
def bounded(title: str, parsers: dict[str, list[BoundedPoint]], xlabel: str, ylabel: str,
            few: int = 100) -> Plot:
    """Estimates between their bounds against a measured x (a true scale): one colour a
    parser; its bounds a band, the estimate a solid line with its 95% interval over
    sentences, the real value (where one was measured) dashed with its interval, a
    calibrated estimate dotted; "n=" beside a point that rests on fewer than FEW
    sentences."""
    plt, fig, ax = _figure()
    points = intervals = 0
    entries = 0
    for k, (name, pts) in enumerate(parsers.items()):
        colour = colour_of(name)
        pts = sorted(pts, key=lambda p: p.x)
        xs = [100 * p.x for p in pts]
        ax.fill_between(xs, [100 * p.lower for p in pts], [100 * p.upper for p in pts],
                        color=colour, alpha=0.15, linewidth=0)
        ax.plot(xs, [100 * p.estimate for p in pts], "-", marker="o", markersize=4,
                color=colour, label=f"{name}: estimate (band: bounds)")
        entries += 1
        est = [(p, p.estimate_ci) for p in pts if p.estimate_ci]
        points += len(pts)
        intervals += len(est)
        if est:
            _interval_bars(ax, [100 * p.x for p, _ in est], [100 * p.estimate for p, _ in est],
                           [100 * iv[0] for _, iv in est], [100 * iv[1] for _, iv in est],
                           colour, 2 * k)
        real = [(p, p.real) for p in pts if p.real is not None]
        if real:
            entries += 1
            ax.plot([100 * p.x for p, _ in real], [100 * y for _, y in real], "--s",
                    markersize=4, color=colour, label=f"{name}: real (95% CI)")
            withci = [(p, y, p.real_ci) for p, y in real if p.real_ci]
            points += len(real)
            intervals += len(withci)
            if withci:
                _interval_bars(ax, [100 * p.x for p, _, _ in withci],
                               [100 * y for _, y, _ in withci],
                               [100 * iv[0] for _, _, iv in withci],
                               [100 * iv[1] for _, _, iv in withci], colour, 2 * k + 1)
        cal = [(p, p.calibrated) for p in pts if p.calibrated is not None]
        if cal:
            entries += 1
            ax.plot([100 * p.x for p, _ in cal], [100 * y for _, y in cal], ":",
                    color=colour, label=f"{name}: calibrated")
        for p in pts:
            if p.sentences is not None and p.sentences < few:
                ax.annotate(f"n={p.sentences}", (100 * p.x, 100 * p.estimate),
                            textcoords="offset points", xytext=(3, 4), fontsize=9,
                            color=colour)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_xlim(left=0)
    ax.set_ylim(bottom=0)
    ax.set_title(title)
    ax.grid(alpha=0.3)
    _legend(ax, entries)
    return _png(plt, fig, points, intervals)


DRAWINGS: dict[str, Callable[..., Plot]] = {
    "against_level": against_level, "bounded": bounded,
    "relation_bars": relation_bars, "by_group": by_group, "heatmap": heatmap,
    "time_by_length": time_by_length}
"""The drawings a section can ask for (:class:`parsebench.present.plots.Drawing`)."""


def draw(request: Drawing) -> Plot:
    """The plot REQUEST asks for, drawn, or reused from the report folder's drawings."""
    return DRAWINGS[request.kind](*request.args)

"""Plots drawn as small SVG by hand, for the pages of a benchmark's corpora.

A benchmark of forty corpora asked matplotlib for 320 plots, 90% of its report's
time and 13 MB of page; a UD release would ask for two thousand. A corpus's page
shows the same plots the run's report shows (:mod:`parsebench.present.plots`'s
requests), drawn here as a few dozen SVG elements each (about a millisecond, a few
kilobytes): axes, lines, points, 95% interval bars, a band, bars and a grid. What
matplotlib gives beyond that (layout engines, fonts, PNG) a corpus page does without;
the run's own report keeps matplotlib's drawings (:mod:`parsebench.report.plots`).
Everything from data is escaped.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from typing import Any

from parsebench.present.plots import BoundedPoint, Drawing
from parsebench.report.colours import colour_of
from parsebench.report.plots import Plot

W, H = 432, 260
"""The drawing's size (points), as matplotlib's figures of the run's report."""
LEFT, RIGHT, TOP, BOTTOM = 48, 12, 24, 40


def _e(text: Any) -> str:
    return html.escape(str(text), quote=True)


class _Chart:
    """An x axis of categories or numbers, a y axis of numbers, and the marks on them."""

    def __init__(self, title: str, ylabel: str, ys: Sequence[float],
                 categories: Sequence[str] | None = None,
                 xs: Sequence[float] | None = None) -> None:
        lo, hi = (min(ys), max(ys)) if ys else (0.0, 1.0)
        pad = (hi - lo) * 0.08 or max(abs(hi), 1.0) * 0.1
        # shares and times are never below 0: the axis does not pretend they could be
        self.y0, self.y1 = (lo - pad if lo < 0 else max(lo - pad, 0.0)), hi + pad
        self.categories = list(categories or [])
        xs = list(xs or [])
        self.x0, self.x1 = (min(xs), max(xs)) if xs else (0.0, 1.0)
        if self.x1 == self.x0:
            self.x0, self.x1 = self.x0 - 1, self.x1 + 1
        self.parts = [f"<text x='{W / 2}' y='15' text-anchor='middle' font-size='12'>"
                      f"{_e(title)}</text>",
                      f"<text x='12' y='{H / 2}' font-size='10' text-anchor='middle' "
                      f"transform='rotate(-90 12 {H / 2})'>{_e(ylabel)}</text>"]
        self.points = 0
        self.intervals = 0
        self._axes()

    def x(self, v: float) -> float:
        span = W - LEFT - RIGHT
        if self.categories:
            return LEFT + span * (v + 0.5) / len(self.categories)
        return LEFT + span * (v - self.x0) / (self.x1 - self.x0)

    def y(self, v: float) -> float:
        return TOP + (H - TOP - BOTTOM) * (self.y1 - v) / (self.y1 - self.y0)

    def _axes(self) -> None:
        p = self.parts
        p.append(f"<path d='M{LEFT} {TOP}V{H - BOTTOM}H{W - RIGHT}' fill='none' "
                 "stroke='#000' stroke-width='0.8'/>")
        for k in range(5):
            v = self.y0 + (self.y1 - self.y0) * (k + 0.5) / 5
            p.append(f"<text x='{LEFT - 4}' y='{self.y(v) + 3:.1f}' font-size='9' "
                     f"text-anchor='end'>{v:.3g}</text>")
        step = (self.x1 - self.x0) / 4
        ticks = list(enumerate(self.categories)) if self.categories else \
            [(self.x0 + step * k, f"{self.x0 + step * k:.3g}") for k in range(5)]
        for v, label in ticks:
            p.append(f"<text x='{self.x(v):.1f}' y='{H - BOTTOM + 12}' font-size='9' "
                     f"text-anchor='middle'>{_e(label)}</text>")

    def line(self, pts: Sequence[tuple[float, float]], colour: str, dash: str = "") -> None:
        if len(pts) > 1:
            d = "M" + "L".join(f"{self.x(a):.1f} {self.y(b):.1f}" for a, b in pts)
            style = f" stroke-dasharray='{dash}'" if dash else ""
            self.parts.append(f"<path d='{d}' fill='none' stroke='{colour}' "
                              f"stroke-width='1.5'{style}/>")

    def dot(self, a: float, b: float, colour: str, hollow: bool = False) -> None:
        fill = "#fff" if hollow else colour
        self.parts.append(f"<circle cx='{self.x(a):.1f}' cy='{self.y(b):.1f}' r='3' "
                          f"fill='{fill}' stroke='{colour}'/>")
        self.points += 1

    def bar(self, a: float, lo: float | None, hi: float | None, colour: str) -> None:
        if lo is None or hi is None:
            return
        self.parts.append(f"<path d='M{self.x(a):.1f} {self.y(lo):.1f}V{self.y(hi):.1f}' "
                          f"stroke='{colour}' stroke-width='1'/>")
        self.intervals += 1

    def band(self, pts: Sequence[tuple[float, float, float]], colour: str) -> None:
        if len(pts) > 1 and any(lo != hi for _, lo, hi in pts):
            upper = "L".join(f"{self.x(a):.1f} {self.y(hi):.1f}" for a, _, hi in pts)
            lower = "L".join(f"{self.x(a):.1f} {self.y(lo):.1f}" for a, lo, _ in reversed(pts))
            self.parts.append(f"<path d='M{upper}L{lower}Z' fill='{colour}' "
                              "fill-opacity='0.2' stroke='none'/>")

    def legend(self, entries: Sequence[tuple[str, str]]) -> None:
        for k, (label, colour) in enumerate(entries[:8]):
            y = TOP + 4 + 12 * k
            self.parts.append(f"<rect x='{W - RIGHT - 110}' y='{y}' width='8' height='8' "
                              f"fill='{colour}'/><text x='{W - RIGHT - 98}' y='{y + 8}' "
                              f"font-size='9'>{_e(label[:22])}</text>")

    def plot(self) -> Plot:
        svg = (f"<svg xmlns='http://www.w3.org/2000/svg' width='{W}pt' height='{H}pt' "
               f"viewBox='0 0 {W} {H}' font-family='sans-serif'><rect width='{W}' "
               f"height='{H}' fill='#fff'/>" + "".join(self.parts) + "</svg>")
        return Plot(b"", svg.encode("utf-8"), self.points, self.intervals)


def _levels(series: dict[str, list[tuple[Any, ...]]]) -> list[str]:
    return list(dict.fromkeys(str(p[0]) for pts in series.values() for p in pts))


def against_level(title: str, ylabel: str, series: dict[str, list[tuple[Any, ...]]]
                  ) -> Plot:
    labels = _levels(series)
    ys = [100 * v for pts in series.values() for p in pts for v in p[1:]
          if isinstance(v, int | float)]
    c = _Chart(title, ylabel, ys, categories=labels)
    styles: dict[str, str] = {}
    entries = []
    for name, pts in series.items():
        parser, _, what = name.partition(" @ ")
        colour = colour_of(parser)
        dash = styles.setdefault(what, ("", "5 3", "2 2", "6 2 2 2")[len(styles) % 4])
        at = [(labels.index(str(p[0])), p) for p in pts]
        c.band([(i, 100 * p[2], 100 * p[3]) for i, p in at], colour)
        c.line([(i, 100 * p[1]) for i, p in at], colour, dash)
        for i, p in at:
            c.dot(i, 100 * p[1], colour)
            if len(p) >= 6 and p[4] is not None and p[5] is not None:
                c.bar(i, 100 * p[4], 100 * p[5], colour)
        entries.append((f"{parser} {what}".strip(), colour))
    c.legend(entries)
    return c.plot()


def by_group(title: str, ylabel: str, groups: Sequence[str],
             series: dict[str, dict[str, tuple[float, float | None, float | None]]]) -> Plot:
    ys = [100 * v for pts in series.values() for p in pts.values() for v in p
          if v is not None]
    c = _Chart(title, ylabel, ys, categories=list(groups))
    n = max(len(series), 1)
    for k, (name, pts) in enumerate(series.items()):
        parser, _, level = name.partition(" @ ")
        colour = colour_of(parser)
        shift = (k - (n - 1) / 2) * 0.6 / n
        for g, (v, lo, hi) in pts.items():
            if g in groups:
                i = list(groups).index(g) + shift
                c.dot(i, 100 * v, colour, hollow=level != "clean")
                c.bar(i, None if lo is None else 100 * lo, None if hi is None else 100 * hi,
                      colour)
    c.legend([(p, colour_of(p)) for p in dict.fromkeys(n.partition(" @ ")[0]
                                                       for n in series)])
    return c.plot()


def bounded(title: str, parsers: dict[str, list[BoundedPoint]], xlabel: str, ylabel: str
            ) -> Plot:
    pts = [p for ps in parsers.values() for p in ps]
    ys = [100 * v for p in pts for v in (p.lower, p.upper, p.estimate, p.real)
          if v is not None]
    c = _Chart(title, ylabel, ys, xs=[100 * p.x for p in pts])
    c.parts.append(f"<text x='{W / 2}' y='{H - 6}' font-size='10' text-anchor='middle'>"
                   f"{_e(xlabel)}</text>")
    for parser, ps in parsers.items():
        colour = colour_of(parser)
        ps = sorted(ps, key=lambda p: p.x)
        c.band([(100 * p.x, 100 * p.lower, 100 * p.upper) for p in ps], colour)
        c.line([(100 * p.x, 100 * p.estimate) for p in ps], colour)
        real = [(100 * p.x, 100 * p.real) for p in ps if p.real is not None]
        c.line(real, colour, "5 3")
        for p in ps:
            c.dot(100 * p.x, 100 * p.estimate, colour)
            if p.estimate_ci:
                c.bar(100 * p.x, 100 * p.estimate_ci[0], 100 * p.estimate_ci[1], colour)
    c.legend([(p, colour_of(p)) for p in parsers])
    return c.plot()


def relation_bars(title: str, bars: dict[str, dict[str, float]]) -> Plot:
    relations = list(dict.fromkeys(r for b in bars.values() for r in b))
    c = _Chart(title, "recall (%)", [0.0, 100.0], categories=relations)
    n = max(len(bars), 1)
    for k, (parser, got) in enumerate(bars.items()):
        colour = colour_of(parser)
        for r, v in got.items():
            i = relations.index(r) + (k - (n - 1) / 2) * 0.8 / n
            x, y0, y1 = c.x(i), c.y(0), c.y(100 * v)
            width = (W - LEFT - RIGHT) * 0.8 / n / max(len(relations), 1)
            c.parts.append(f"<rect x='{x - width / 2:.1f}' y='{y1:.1f}' width='{width:.1f}' "
                           f"height='{max(y0 - y1, 0):.1f}' fill='{colour}'/>")
            c.points += 1
    c.legend([(p, colour_of(p)) for p in bars])
    return c.plot()


def heatmap(title: str, labels: Sequence[str], matrix: Sequence[Sequence[int]]) -> Plot:
    n = max(len(labels), 1)
    top = max((v for row in matrix for v in row), default=0) or 1
    cell = min((W - 90) / n, (H - 50) / n)
    parts = [f"<text x='{W / 2}' y='15' text-anchor='middle' font-size='12'>{_e(title)}"
             "</text>"]
    for i, row in enumerate(matrix):
        parts.append(f"<text x='{84}' y='{34 + cell * (i + 0.6):.1f}' font-size='8' "
                     f"text-anchor='end'>{_e(labels[i])}</text>")
        for j, v in enumerate(row):
            shade = 255 - int(200 * v / top)
            parts.append(f"<rect x='{88 + cell * j:.1f}' y='{24 + cell * i:.1f}' "
                         f"width='{cell:.1f}' height='{cell:.1f}' "
                         f"fill='rgb({shade},{shade},255)'><title>{_e(labels[i])} -> "
                         f"{_e(labels[j])}: {v}</title></rect>")
    svg = (f"<svg xmlns='http://www.w3.org/2000/svg' width='{W}pt' height='{H}pt' "
           f"viewBox='0 0 {W} {H}' font-family='sans-serif'><rect width='{W}' "
           f"height='{H}' fill='#fff'/>" + "".join(parts) + "</svg>")
    return Plot(b"", svg.encode("utf-8"), sum(1 for row in matrix for v in row if v))


def time_by_length(series: dict[str, Sequence[tuple[int, float]]]) -> Plot:
    xs = [float(n) for pts in series.values() for n, _ in pts]
    ys = [1000 * t for pts in series.values() for _, t in pts]
    c = _Chart("Parse time against sentence length", "mean parse time (ms)", ys, xs=xs)
    for parser, pts in series.items():
        colour = colour_of(parser)
        c.line([(float(n), 1000 * t) for n, t in pts], colour)
        for n, t in pts:
            c.dot(float(n), 1000 * t, colour)
    c.legend([(p, colour_of(p)) for p in series])
    return c.plot()


SKETCHES: dict[str, Callable[..., Plot]] = {
    "against_level": against_level, "bounded": bounded,
    "relation_bars": relation_bars, "by_group": by_group, "heatmap": heatmap,
    "time_by_length": time_by_length}
"""Every drawing a section can ask for, sketched."""


def sketch(request: Drawing) -> Plot:
    """The plot REQUEST asks for, as a small SVG (no PNG)."""
    return SKETCHES[request.kind](*request.args)

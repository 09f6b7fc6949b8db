"""The plots a section asks for, as data: what to draw and from which numbers, never a
drawing. A paper's section says *what* its plot shows (:class:`Drawing`); the report
draws it with matplotlib when it writes the page (:func:`parsebench.report.plots.draw`),
and reuses a drawing of the same request kept from an earlier report. So the papers
never import matplotlib, and a report that does not show a plot never draws it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

LevelSeries = list[tuple[Any, ...]]
"""(level label, mean, min, max) points of one line, optionally followed by the 95%
interval over sentences (lo, hi)."""

GroupPoint = tuple[float, float | None, float | None]
"""A group's figure and its 95% interval over sentences (None: none stored)."""


@dataclass(frozen=True)
class BoundedPoint:
    """One point of one parser in :func:`bounded`: its x, the bounds and the estimate
    between them, and where there are, the estimate's 95% interval, the real value and
    its interval, a calibrated estimate, and the sentences the point rests on."""

    x: float
    lower: float
    upper: float
    estimate: float
    estimate_ci: list[float] | None = None
    real: float | None = None
    real_ci: list[float] | None = None
    calibrated: float | None = None
    sentences: int | None = None


@dataclass(frozen=True)
class Drawing:
    """A plot asked for: the name of one of the report's drawings
    (:data:`parsebench.report.plots.DRAWINGS`) and its arguments."""

    kind: str
    args: tuple[Any, ...]


def against_level(title: str, ylabel: str, series: dict[str, LevelSeries]) -> Drawing:
    """Lines against error level (series "PARSER @ WHAT": a colour a parser, a line
    style a WHAT), the replicates' min-max a band, 95% intervals as bars."""
    return Drawing("against_level", (title, ylabel, series))


def bounded(title: str, parsers: dict[str, list[BoundedPoint]], xlabel: str,
            ylabel: str) -> Drawing:
    """Estimates between their bounds (a band), and the real values, against a measured
    x, one colour a parser."""
    return Drawing("bounded", (title, parsers, xlabel, ylabel))


def relation_bars(title: str, bars: dict[str, dict[str, float]]) -> Drawing:
    """Grouped bars by relation, one colour a parser."""
    return Drawing("relation_bars", (title, bars))


def by_group(title: str, ylabel: str, groups: Sequence[str],
             series: dict[str, dict[str, GroupPoint]]) -> Drawing:
    """Points across groups with their 95% intervals (series "PARSER @ LEVEL")."""
    return Drawing("by_group", (title, ylabel, groups, series))


def heatmap(title: str, labels: Sequence[str], matrix: Sequence[Sequence[int]]) -> Drawing:
    """A confusion matrix, gold by system."""
    return Drawing("heatmap", (title, labels, matrix))


def time_by_length(series: dict[str, Sequence[tuple[int, float]]]) -> Drawing:
    """Parse time against sentence length, one colour a parser."""
    return Drawing("time_by_length", (series,))

"""One colour a parser for the whole report: the same parser is drawn in the same
colour in every plot and in the summary, whatever the plot's order of series. The
report names the page's parsers once (:func:`for_parsers`, in the order they first
appear); a parser it did not name gets the next free colour."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager

PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
           "#7f7f7f", "#bcbd22", "#17becf")
"""matplotlib's tab10, its default cycle: distinct, and told apart by most readers with
a colour-vision deficiency when the legend and line styles help."""

_colours: dict[str, str] = {}


def colour_of(parser: str) -> str:
    return _colours.setdefault(parser, PALETTE[len(_colours) % len(PALETTE)])


def given() -> dict[str, str]:
    """The colours given so far, by parser."""
    return _colours


def give(colours: dict[str, str]) -> None:
    """Give these parsers these colours (a reused plot's, as drawing it gave them)."""
    _colours.update(colours)


@contextmanager
def for_parsers(parsers: Iterable[str]) -> Iterator[dict[str, str]]:
    """The page's parsers, their colours given in order for as long as the page is built."""
    saved = dict(_colours)
    _colours.clear()
    for p in parsers:
        colour_of(p)
    try:
        yield _colours
    finally:
        _colours.clear()
        _colours.update(saved)

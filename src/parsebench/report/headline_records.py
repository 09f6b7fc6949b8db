"""The headline table's content as records (results.json's ``summary.headline``): apart
from :mod:`parsebench.report.headline`, which computes it from the summary's figures,
because the summary's own record holds one (a module each way would import the other)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from parsebench.common.record import Interval, Record


@dataclass(frozen=True)
class Cell(Record):
    """A parser's LAS at a level, its interval and letters; at a noisy level the points
    lost from the clean text and their paired interval (the keys ``loss`` and
    ``loss_ci95`` are absent at the clean level, present and null where not known)."""

    level: str
    value: float | None
    ci95: Interval | None
    letters: str
    loss: float | None = None
    loss_ci95: Interval | None = None

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        if self.level == "clean":
            del out["loss"], out["loss_ci95"]
        return out


@dataclass(frozen=True)
class Row(Record):
    """A parser's row: is it the best baseline, does it beat it (None: no baseline, or
    it is one)."""

    parser: str
    baseline: bool
    beats_baseline: bool | None
    cells: list[Cell]


@dataclass(frozen=True)
class LevelColumn(Record):
    """One level's column of the headline table."""

    level: str
    label: str
    """As the tables show it: 10%, 2/sentence."""


@dataclass(frozen=True)
class Headline(Record):
    """The headline table's content (results.json's ``summary.headline``)."""

    figure: str
    levels: list[LevelColumn]
    baseline: str | None
    """The best baseline, whose row is shown."""
    letters: bool
    """Whether any level has letters from the paired tests."""
    rows: list[Row]
    link: str

"""Records of the robustness methods' values for tests that need only a few figures:
every other figure n/a (None) or empty."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from parsebench.metrics.robustness.bigert_records import Assumption, RowsFigures, RowsGold
from parsebench.metrics.robustness.kakkonen_records import (
    RelativeDrop,
    SentenceIntervals,
    SentencesValue,
    UnlabeledLabeled,
)

_NONE = UnlabeledLabeled(None, None)


def rows_value(gold: dict[str, Any] | None = None, **figures: Any) -> RowsFigures:
    """Bigert et al.'s figures: FIGURES, and GOLD's figures of the gold key."""
    g = None if gold is None else replace(
        RowsGold(0.0, 0.0, 0.0, 0.0, {}, {}, 0.0, 0.0, 0.0, 0.0, False,
                 Assumption(None, 0.0, True, None, 0)), **gold)
    return replace(RowsFigures(0, None, None, None, None), gold=g, **figures)


def sentences_value(**figures: Any) -> SentencesValue:
    """Kakkonen's scores of a level: FIGURES."""
    base = SentencesValue(0, 0, None, None, _NONE, _NONE, 0, {},
                          RelativeDrop(None, None, None, None, 30),
                          SentenceIntervals(None, None))
    return replace(base, **figures)

"""Gaizauskas et al.'s figures as records (:mod:`parsebench.common.record`): ``eval flat``'s
object and a run's ``flat`` result, apart from the scorer (:mod:`.gaizauskas`), which
fills them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from parsebench.common.record import OMIT, Record


@dataclass(frozen=True)
class FlatScores(Record):
    """Gaizauskas et al.'s figures of responses against flat keys: the constituents
    counted, and recall, precision and conformance (None where nothing is counted)."""

    key_constituents: int = 0
    response_constituents: int = 0
    matched: int = 0
    violated: int = 0
    recall: float | None = None
    precision: float | None = None
    conformance: float | None = None


@dataclass(frozen=True)
class FlatEval(FlatScores):
    """``eval flat --json``: the figures and the signature."""

    signature: str = ""


@dataclass(frozen=True)
class FlatIntervals(Record):
    recall: list[float] | None = None
    conformance: list[float] | None = None


@dataclass(frozen=True)
class FlatValue(FlatScores):
    """A run's ``flat`` result: the noisy parses' spans against the clean parses' made
    a flat key, pooled over a level's replicates."""

    sentences: int = 0
    replicates: int = 0
    error_level_label: str = ""
    ci95: FlatIntervals = FlatIntervals()
    stats: dict[str, Any] | None = field(default=None, metadata=OMIT)

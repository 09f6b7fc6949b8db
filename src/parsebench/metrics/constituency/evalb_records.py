"""EVALB's summary and the ``eval brackets`` object as records (:mod:`parsebench.common.record`):
apart from the scorer (:mod:`.evalb`), which fills them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from parsebench.common.record import OMIT, Record


@dataclass(frozen=True)
class EvalbTotals(Record):
    """EVALB's summary of a set of sentences (all, or those within the cutoff), with
    the counts its shares are of."""

    sentences: int = 0
    error_sentences: int = 0
    skip_sentences: int = 0
    valid_sentences: int = 0
    bracketing_recall: float = 0.0
    bracketing_precision: float = 0.0
    bracketing_fmeasure: float | None = None
    complete_match: float = 0.0
    average_crossing: float = 0.0
    no_crossing: float = 0.0
    two_or_less_crossing: float = 0.0
    tagging_accuracy: float = 0.0
    matched: int = 0
    gold_brackets: int = 0
    test_brackets: int = 0
    words: int = 0
    correct_tags: int = 0
    crossing: int = 0
    complete_matches: int = 0
    no_crossing_sentences: int = 0
    two_or_less_crossing_sentences: int = 0


class RowsWhenRead(Sequence[dict[str, int | float]]):
    """:class:`BracketsEval`'s rows, made by MAKE when first read: the command's text
    (EVALB's report and messages) never reads them, and a million words' rows are a
    dict a sentence."""

    def __init__(self, make: Callable[[], list[dict[str, int | float]]]) -> None:
        self.make: Callable[[], list[dict[str, int | float]]] | None = make
        self._rows: list[dict[str, int | float]] = []

    @property
    def rows(self) -> list[dict[str, int | float]]:
        if self.make is not None:
            self._rows, self.make = self.make(), None
        return self._rows

    def __getitem__(self, k: Any) -> Any:
        return self.rows[k]

    def __len__(self) -> int:
        return len(self.rows)

    def __eq__(self, other: object) -> bool:
        return self.rows == (other.rows if isinstance(other, RowsWhenRead) else other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(self.rows)


@dataclass(frozen=True)
class BracketsEval(Record):
    """``eval brackets --json``: the totals of all sentences and of those within the
    cutoff (both absent when EVALB gave up: ``aborted``), each sentence's row (as
    EVALB's report has it), EVALB's messages and the signature."""

    all: EvalbTotals | None = field(default=None, metadata=OMIT)
    len40: EvalbTotals | None = field(default=None, metadata=OMIT)
    cutoff_len: int = 40
    rows: Sequence[dict[str, int | float]] = field(default_factory=list)
    """Kept as the JSON's objects (a million-word file has a row per sentence), made
    when first read (the scorer's rows are its table's until then)."""
    messages: list[str] = field(default_factory=list)
    signature: str = ""
    aborted: bool | None = field(default=None, metadata=OMIT)
    """True when EVALB gave up (too many errors), else absent."""

    def to_dict(self) -> dict[str, Any]:
        out = Record.to_dict(replace(self, rows=[]))
        rows = self.rows  # already plain: not copied row by row
        out["rows"] = rows.rows if isinstance(rows, RowsWhenRead) else rows
        return out


@dataclass(frozen=True)
class AlignedBracketsEval(Record):
    """``eval brackets --align --json``: jp-evalb's totals (all, and sentences of at
    most 40 words), a row an aligned group of sentences, what was aligned (the groups
    that are not one sentence each side with the same words) and what the alignment
    decided where jp-evalb stops."""

    all: EvalbTotals = EvalbTotals()
    len40: EvalbTotals = EvalbTotals()
    cutoff_len: int = 40
    rows: list[dict[str, Any]] = field(default_factory=list)
    alignment: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    signature: str = ""


@dataclass(frozen=True)
class EvalbIntervals(Record):
    f1: list[float] | None = None


@dataclass(frozen=True)
class EvalbValue(Record):
    """A run's ``evalb`` result: the noisy parses' labeled brackets against the clean
    parses' (the key), pooled over a level's replicates."""

    recall: float | None = None
    precision: float | None = None
    f1: float | None = None
    matched: int = 0
    key_brackets: int = 0
    noisy_brackets: int = 0
    unscored: int = 0
    sentences: int = 0
    replicates: int = 0
    error_level_label: str = ""
    ci95: EvalbIntervals = EvalbIntervals()
    stats: dict[str, Any] | None = field(default=None, metadata=OMIT)

"""Kakkonen's figures as records (:mod:`parsebench.common.record`): a run's ``sentences``
result and ``robustness sentences``'s object, apart from the scorer
(:mod:`.kakkonen`), which fills them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from parsebench.common.record import OMIT, Record
from parsebench.common.record import key as json_key


@dataclass(frozen=True)
class UnlabeledLabeled(Record):
    """A pair of figures, unlabeled and labeled (None where n/a)."""

    unlabeled: float | None
    labeled: float | None


@dataclass(frozen=True)
class SentenceFigures(Record):
    """Kakkonen's scores of some sentence pairs (:meth:`Tally.scores`): the shares of
    pairs whose parse matched, of every pair and of the parsed ones, and the matches."""

    sentences: int
    failures: int
    unlabeled: float | None
    labeled: float | None
    parsed_only: UnlabeledLabeled
    matched: UnlabeledLabeled


@dataclass(frozen=True)
class RelativeDrop(Record):
    """The share of the score lost from the lowest number of errors to the highest, of
    the bins with at least ``min_sentences`` pairs (None: fewer than two such bins)."""

    unlabeled: float | None
    labeled: float | None
    from_: int | None = field(metadata=json_key("from"))
    to: int | None
    min_sentences: int


@dataclass(frozen=True)
class SentenceIntervals(Record):
    """95% intervals over sentences of the unlabeled and labeled scores (None: n/a)."""

    unlabeled: list[float] | None
    labeled: list[float] | None


@dataclass(frozen=True)
class SentencesReplicate(Record):
    """One replicate's scores, in a level of several."""

    unlabeled: float | None
    labeled: float | None
    sentences: int
    failures: int
    matched: UnlabeledLabeled


@dataclass(frozen=True)
class SentencesValue(SentenceFigures):
    """Kakkonen's scores of a level (a run's ``sentences`` result): of the pairs with a
    misspelling (every pair when none has one), by number of errors, the relative drop
    and, with several replicates, each replicate's."""

    unchanged_sentences: int
    by_errors: dict[str, SentenceFigures]
    relative_drop: RelativeDrop
    ci95: SentenceIntervals
    stats: dict[str, Any] | None = field(default=None, metadata=OMIT)
    warnings: list[str] = field(default_factory=list)
    error_level_label: str | None = field(default=None, metadata=OMIT)
    replicates: list[SentencesReplicate] | None = field(default=None, metadata=OMIT)

    @property
    def unchanged(self) -> SentenceFigures | None:
        """The figures of the sentences the noise left unchanged (0 errors), if any."""
        return self.by_errors.get("0")

    def to_dict(self) -> dict[str, Any]:
        """The JSON object; where the clean parses have no heads (no ``pairs``
        statistics), ``stats`` follows ``warnings``, as it always has."""
        out = super().to_dict()
        if self.stats is None or "pairs" in self.stats:
            return out
        stats = out.pop("stats")
        at = list(out).index("warnings") + 1
        items = list(out.items())
        return dict([*items[:at], ("stats", stats), *items[at:]])


@dataclass(frozen=True)
class SentencesCommand(SentencesValue):
    """``robustness sentences``'s object: the scores of the pooled noisy files and the
    signature."""

    signature: str = ""

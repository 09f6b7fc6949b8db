"""Hashemi & Hwa's counts and figures as records (:mod:`parsebench.common.record`): what a run's
``f1`` results and the ``robustness f1`` command give, apart from how the sentence pairs
are aligned and scored (:mod:`.hashemi_hwa`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Self, cast

from parsebench.common.record import OMIT, Record
from parsebench.metrics.core.counts import Additive, f_measure


@dataclass(slots=True)
class F1Counts(Additive):
    """Sufficient statistics of robustness F1, summed over pairs for the micro average."""

    shared: int = 0
    ungrammatical_deps: int = 0
    ungrammatical_error_deps: int = 0
    grammatical_deps: int = 0
    grammatical_error_deps: int = 0
    sentences: int = 0
    failures: int = 0

    @property
    def precision(self) -> float | None:
        """None (n/a) without dependencies to score: a tagger's output, or only failures."""
        d = self.ungrammatical_deps - self.ungrammatical_error_deps
        return self.shared / d if d else None

    @property
    def recall(self) -> float | None:
        d = self.grammatical_deps - self.grammatical_error_deps
        return self.shared / d if d else None

    @property
    def f1(self) -> float | None:
        return f_measure(self.precision, self.recall)

    DERIVED = ("precision", "recall", "f1")


@dataclass(frozen=True)
class F1Figures(Record):
    """Robustness F1 of some sentence pairs: the counts (:class:`F1Counts`), then the
    scores made of them (None where n/a)."""

    shared: int
    ungrammatical_deps: int
    ungrammatical_error_deps: int
    grammatical_deps: int
    grammatical_error_deps: int
    sentences: int
    failures: int
    precision: float | None
    recall: float | None
    f1: float | None

    def counts(self) -> F1Counts:
        """The counts, to be summed with others."""
        return F1Counts(self.shared, self.ungrammatical_deps, self.ungrammatical_error_deps,
                        self.grammatical_deps, self.grammatical_error_deps, self.sentences,
                        self.failures)


@dataclass(frozen=True)
class AttachmentFigures(Record):
    """Attachment against the gold key through the alignment (:class:`Attachment`)."""

    uas: float | None
    las: float | None
    words: int
    uas_correct: int
    las_correct: int


@dataclass(frozen=True)
class GroupIntervals(Record):
    """95% intervals of an error type's or operation's F1 and aligned LAS over the
    sentences that hold it (None: n/a, or no gold key)."""

    f1: list[float] | None
    aligned_las: list[float] | None


@dataclass(frozen=True)
class F1Intervals(Record):
    """95% intervals over sentence pairs of the text's robustness F1 and its parts."""

    precision: list[float] | None
    recall: list[float] | None
    f1: list[float] | None


@dataclass(frozen=True)
class TypeFigures(F1Figures):
    """An error type's robustness F1 (of the pairs with an error of that type), its
    intervals and, with a gold key, its attachment."""

    ci95: GroupIntervals
    accuracy: AttachmentFigures | None = field(default=None, metadata=OMIT)


@dataclass(frozen=True)
class LasFigure(Record):
    las: float | None


@dataclass(frozen=True)
class OperationFigures(Record):
    """An operation's (M, U, R) robustness F1 and aligned LAS (None without a gold)."""

    sentences: int
    f1: float | None
    accuracy: LasFigure
    ci95: GroupIntervals


@dataclass(frozen=True)
class F1Value(F1Figures):
    """A run's ``f1`` result: :class:`F1Levels` (a noise level) or :class:`F1Corrected`
    (the text against its corrected version), told apart when read back by the
    level's label, which only the former has."""

    @classmethod
    def from_dict(cls, data: Any) -> Self:
        if cls is F1Value:
            sub = F1Levels if "error_level_label" in data else F1Corrected
            return cast(Self, sub.from_dict(data))
        return super().from_dict(data)


@dataclass(frozen=True)
class F1Levels(F1Value):
    """Robustness F1 of a level of learner-like errors against the clean parse, by
    error type and operation, with the attachment against the gold key."""

    replicates: int
    error_level_label: str
    by_type: dict[str, TypeFigures]
    by_operation: dict[str, OperationFigures]
    stats: dict[str, Any] | None = field(default=None, metadata=OMIT)
    ci95: dict[str, list[float] | None] = field(default_factory=dict)
    accuracy: AttachmentFigures | None = field(default=None, metadata=OMIT)

    @property
    def f1_ci95(self) -> list[float] | None:
        """The robustness F1's 95% interval over sentence pairs; None where n/a."""
        return self.ci95.get("f1")

    @property
    def aligned_las_ci95(self) -> list[float] | None:
        """The aligned LAS's 95% interval; None where n/a or without a gold key."""
        return self.ci95.get("aligned_las")


@dataclass(frozen=True)
class F1Corrected(F1Value):
    """Robustness F1 of the text against its corrected version, by number of errors
    (and by ERRANT's error type when ERRANT aligned the pairs)."""

    ci95: F1Intervals
    stats: dict[str, Any] | None = field(default=None, metadata=OMIT)
    by_errors: dict[str, F1Figures] = field(default_factory=dict)
    by_type: dict[str, TypeFigures] | None = field(default=None, metadata=OMIT)


@dataclass(frozen=True)
class CommandIntervals(F1Intervals):
    """95% intervals over sentence pairs of the robustness F1 and, with a gold key, of
    both parses' attachment."""

    clean_uas: list[float] | None = field(default=None, metadata=OMIT)
    clean_las: list[float] | None = field(default=None, metadata=OMIT)
    noisy_uas: list[float] | None = field(default=None, metadata=OMIT)
    noisy_las: list[float] | None = field(default=None, metadata=OMIT)


ATTACHMENT_INTERVALS = ("clean_uas", "clean_las", "noisy_uas", "noisy_las")


@dataclass(frozen=True)
class CommandAttachment(Record):
    """Both parses' attachment against the gold key, the ungrammatical one's also by
    error type."""

    clean: AttachmentFigures
    noisy: AttachmentFigures
    by_type: dict[str, AttachmentFigures]


@dataclass(frozen=True)
class F1Command(F1Figures):
    """``robustness f1``'s object: the robustness F1 of the text against its corrected
    version, its intervals, and where there are any the breakdowns, the attachment
    against a gold key and why the figures are n/a."""

    ci95: CommandIntervals
    warnings: list[str] | None = field(default=None, metadata=OMIT)
    accuracy: CommandAttachment | None = field(default=None, metadata=OMIT)
    by_errors: dict[str, F1Figures] | None = field(default=None, metadata=OMIT)
    by_type: dict[str, TypeFigures] | None = field(default=None, metadata=OMIT)
    signature: str = ""

    def to_dict(self) -> dict[str, Any]:
        """The JSON object: with a gold key the attachment's intervals are keys even
        where they are n/a (null)."""
        out = super().to_dict()
        if self.accuracy is not None:
            ci = out["ci95"]
            out["ci95"] = {**ci, **{k: ci.get(k) for k in ATTACHMENT_INTERVALS}}
        return out

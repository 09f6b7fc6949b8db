"""Bigert et al.'s figures of a level as records (:mod:`parsebench.common.record`): what a run's
``rows`` result and the ``robustness rows`` command give, apart from how the rows are
counted and the bounds computed (:mod:`.bigert`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from parsebench.common.record import OMIT, Record, key

_NA = ("acr_0n", "differs", "acr", "degr_lower", "degr_upper", "degr_estimate", "acc_lower",
       "acc_upper", "acc_estimate")
_NOT_CARRIED_KEYS = ("error_level", *_NA, "rows", "spread", "not_applicable", "warnings")
"""The key order of :func:`_not_applicable`."""
_NONE_COMPARED_KEYS = (*_NA, "rows", "error_level", "misspelled", "spread", "warnings")
"""The key order of :func:`_not_applicable_counts` with its warnings."""


@dataclass(frozen=True)
class ReplicateSummary(Record):
    """A figure over several replicates (noisy files of one level): the sample's mean,
    standard deviation (0 for one file), minimum and maximum (:func:`aggregate`)."""

    mean: float
    std: float
    min: float
    max: float


Replicated = float | ReplicateSummary
"""One noisy file's number, or the summary of several replicates' numbers."""


@dataclass(frozen=True)
class Assumption(Record):
    """Appendix A's assumption on one file: whether the rows that change were right in
    the clean parse as often as rows are overall."""

    aab_share_of_changes: Replicated | None
    acr: Replicated
    condition_holds: bool | float
    """A file's verdict, or over replicates the share of files where it holds."""
    changed_rows_clean_accuracy: Replicated | None
    changed_rows_clean_correct: Replicated


@dataclass(frozen=True)
class RowsGold(Record):
    """The figures that need the gold key: the real degradation, Table 1's case
    frequencies and the deviations of eqs. 8-22."""

    acr_m0: Replicated
    acr_mn: Replicated
    degr_real: Replicated
    acc_real: Replicated
    cases: dict[str, Replicated]
    case_rows: dict[str, Replicated]
    epsilon: Replicated
    delta: Replicated
    gamma: Replicated
    lambda_: Replicated = field(metadata=key("lambda"))
    within_bounds: bool | float
    """A file's verdict, or over replicates the share of files within the bounds."""
    assumption: Assumption


@dataclass(frozen=True)
class CalibrationRecord(Record):
    """The calibration an annotated sample gave (:func:`calibration.apply`); over
    replicates, its intervals are None where the files' differ."""

    method: str
    ratio: Replicated
    sample_sentences: Replicated
    sample_rows: Replicated
    level: Replicated
    bootstrap: Replicated
    ratio_interval: list[float] | None
    interval: list[float] | None
    acc_interval: list[float] | None


@dataclass(frozen=True)
class SpreadCell(Record):
    """The rows at one distance from a misspelling: how many, how many changed, the
    shares, and with the gold how often the changed rows were right in the clean parse."""

    rows: Replicated
    changed: Replicated
    share_of_changes: Replicated
    changed_rate: Replicated
    changed_clean_accuracy: Replicated | None = field(default=None, metadata=OMIT)
    """None where none changed (then still a key, with the gold)."""
    changed_clean_correct: Replicated | None = field(default=None, metadata=OMIT)
    """Absent without the gold."""

    def to_dict(self) -> dict[str, Any]:
        """The JSON object: with the gold, the clean accuracy of the changed rows is a
        key even where none changed (null, n/a)."""
        out = super().to_dict()
        if self.changed_clean_correct is None or "changed_clean_accuracy" in out:
            return out
        correct = out.pop("changed_clean_correct")
        return {**out, "changed_clean_accuracy": None, "changed_clean_correct": correct}


@dataclass(frozen=True)
class RowsFigures(Record):
    """Bigert et al.'s figures of one level of a projection (a run's ``rows`` result),
    or of one of its replicates (in ``replicates``): shares in [0, 1], None where n/a;
    with several replicates each number is their :class:`ReplicateSummary`."""

    rows: Replicated
    error_level: Replicated | None
    acr_0n: Replicated | None
    differs: Replicated | None
    acr: Replicated | None
    misspelled: Replicated | None = field(default=None, metadata=OMIT)
    """Absent where the projection is not carried."""
    changed: Replicated | None = field(default=None, metadata=OMIT)
    """Absent where no row was compared."""
    spread: dict[str, SpreadCell] = field(default_factory=dict)
    """Distance to a misspelling -> its rows, changed rows and shares (with the gold,
    also the changed rows' clean accuracy, None where none changed)."""
    degr_lower: Replicated | None = None
    degr_upper: Replicated | None = None
    degr_estimate: Replicated | None = None
    acc_lower: Replicated | None = None
    acc_upper: Replicated | None = None
    acc_estimate: Replicated | None = None
    gold: RowsGold | None = field(default=None, metadata=OMIT)
    not_applicable: bool | None = field(default=None, metadata=OMIT)
    """True where the clean parse does not carry the projection."""
    warnings: list[str] = field(default_factory=list)
    degr_calibrated: Replicated | None = field(default=None, metadata=OMIT)
    acc_calibrated: Replicated | None = field(default=None, metadata=OMIT)
    calibration: CalibrationRecord | None = field(default=None, metadata=OMIT)
    replicates: list[RowsFigures] | None = field(default=None, metadata=OMIT)
    stats: dict[str, Any] | None = field(default=None, metadata=OMIT)
    ci95: dict[str, list[float] | None] | None = field(default=None, metadata=OMIT)
    error_level_label: str | None = field(default=None, metadata=OMIT)

    @property
    def differs_ci95(self) -> list[float] | None:
        """Parse differs' 95% interval over sentences (:func:`intervals`); None where n/a
        or not computed."""
        return (self.ci95 or {}).get("differs")

    @property
    def degr_real_ci95(self) -> list[float] | None:
        """The real degradation's 95% interval over sentences; None without a gold key."""
        return (self.ci95 or {}).get("degr_real")

    @property
    def sentences_resampled(self) -> int | None:
        """The sentences the intervals resample (rows of :func:`_stats`); None where the
        value has no statistics (a command's, or read from results.json)."""
        rows = (self.stats or {}).get("differs")
        return len(rows) if isinstance(rows, list) else None

    def to_dict(self) -> dict[str, Any]:
        """The JSON object; the figures of a projection not carried and of a file none
        of whose rows was compared keep the key order they have always had."""
        out = super().to_dict()
        if self.changed is not None:
            return out
        first = _NOT_CARRIED_KEYS if self.not_applicable else _NONE_COMPARED_KEYS
        return {**{k: out.pop(k) for k in first if k in out}, **out}


@dataclass(frozen=True)
class RowsCommand(RowsFigures):
    """``robustness rows``'s object: the figures of the noisy files, the clean accuracy
    the command was given (None: none, or the gold's) and the signature."""

    acr_given: float | None = None
    signature: str = ""

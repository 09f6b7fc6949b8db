"""The figures of Lin's and CoNLL 2018's scores against a gold key, as records
(:mod:`parsebench.common.record`): a run's ``deps`` result is :class:`DepsValue`, whose
``to_dict()`` is the JSON the store and results.json keep, key for key.

Apart from :mod:`parsebench.metrics.dependency.lin` so that ``eval deps`` (which
must start without the run's modules) can share the figures' records with it.

Every field has a default (n/a, None), so that a result built in code may give only
the figures it has; one read from JSON has them all, and an unknown key is refused.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from parsebench.common.record import OMIT, Record

StoredInterval = list[float] | None
"""A 95% interval as JSON keeps it, [low, high], or None (n/a)."""


@dataclass(frozen=True)
class Conll18Score(Record):
    """One CoNLL 2018 (or IWPT) metric: its shares and the counts they are of (None where
    the files cannot give it)."""

    precision: float | None = None
    recall: float | None = None
    f1: float | None = None
    aligned_accuracy: float | None = None
    correct: int | None = None
    gold: int | None = None
    system: int | None = None
    aligned: int | None = None


@dataclass(frozen=True)
class ExactMatch(Record):
    """UCM or LCM: the share of gold sentences whose every arc is right."""

    accuracy: float | None = None
    matched: int | None = None
    sentences: int | None = None


@dataclass(frozen=True)
class LinScore(Record):
    """Lin's precision and recall of one set of dependencies (``answer_matched`` only
    where a selection makes it differ from ``matched``)."""

    precision: float | None = None
    recall: float | None = None
    f1: float | None = None
    key: int = 0
    answer: int = 0
    matched: int = 0
    answer_matched: int | None = field(default=None, metadata=OMIT)

    @property
    def answer_found(self) -> int:
        """Answer arcs found in the key: ``matched`` but where a selection parts them."""
        return self.matched if self.answer_matched is None else self.answer_matched


@dataclass(frozen=True)
class Bucket(Record):
    """One group of a breakdown; by genre also its parse time and speed (``seconds``
    present: ``words_per_second`` is written, None where no time was taken)."""

    sentences: int = 0
    words: int = 0
    unlabeled: LinScore = LinScore()
    labeled: LinScore = LinScore()
    seconds: float | None = field(default=None, metadata=OMIT)
    words_per_second: float | None = field(default=None, metadata=OMIT)

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        if self.seconds is not None:
            out["words_per_second"] = self.words_per_second
        return out


@dataclass(frozen=True)
class Confusion(Record):
    """Gold label (row) by system label (column) on the aligned words."""

    labels: list[str] = field(default_factory=list)
    matrix: list[list[int]] = field(default_factory=list)


@dataclass(frozen=True)
class ValidityCounts(Record):
    """The system sentences that are not trees, by cause, and what they got."""

    sentences: int = 0
    invalid: int = 0
    cycles: int = 0
    no_root: int = 0
    multiple_roots: int = 0
    bad_heads: int = 0
    policy: str = "warn"


@dataclass(frozen=True)
class AlignmentCounts(Record):
    """What the alignment of other words did (``align = "words"``)."""

    matched: int = 0
    substituted: int = 0
    deleted: int = 0
    inserted: int = 0


_NA = Conll18Score()


@dataclass(frozen=True)
class DepsScores(Record):
    """The scores of a system against the gold: CoNLL 2018's thirteen, IWPT's ELAS and
    EULAS, exact match, Lin's; the breakdown asked for (``by``)."""

    tokens: Conll18Score = _NA
    sentences: Conll18Score = _NA
    words: Conll18Score = _NA
    upos: Conll18Score = _NA
    xpos: Conll18Score = _NA
    ufeats: Conll18Score = _NA
    alltags: Conll18Score = _NA
    lemmas: Conll18Score = _NA
    uas: Conll18Score = _NA
    las: Conll18Score = _NA
    clas: Conll18Score = _NA
    mlas: Conll18Score = _NA
    blex: Conll18Score = _NA
    elas: Conll18Score = _NA
    eulas: Conll18Score = _NA
    ucm: ExactMatch = ExactMatch()
    lcm: ExactMatch = ExactMatch()
    unlabeled: LinScore = LinScore()
    labeled: LinScore = LinScore()
    gold_sentences: int | None = None
    gold_words: int | None = None
    failed: int = 0
    warnings: list[str] = field(default_factory=list)
    punct: bool = True
    enhancements: str = "0"
    confusion: Confusion | None = field(default=None, metadata=OMIT)
    by: dict[str, Bucket] | None = field(default=None, metadata=OMIT)

    def metric(self, name: str) -> Conll18Score:
        """The CoNLL 2018 or IWPT metric NAME (``las``, ``elas``...)."""
        got = getattr(self, name)
        if not isinstance(got, Conll18Score):
            raise KeyError(name)
        return got


@dataclass(frozen=True)
class DepsEval(DepsScores):
    """``eval deps --json``: the scores, the alignment (``--align words``), the validity
    of the system's sentences and the signature; the same records as a run's
    :class:`DepsValue`, in the command's order."""

    alignment: AlignmentCounts | None = field(default=None, metadata=OMIT)
    validity: ValidityCounts = ValidityCounts()
    signature: str = ""


@dataclass(frozen=True)
class DepsValue(DepsScores):
    """A run's ``deps`` result: the scores, the validity of the parses, the alignment
    (other words), and for the by-relation results the 95% intervals, the breakdowns
    of where the errors fall and each sentence's statistics."""

    validity: ValidityCounts = ValidityCounts()
    alignment: AlignmentCounts | None = field(default=None, metadata=OMIT)
    ci95: dict[str, Any] | None = field(default=None, metadata=OMIT)
    """Metric -> its interval (a metric the files cannot give has none); ``breakdowns``
    -> breakdown -> group -> the interval of its labeled F1."""
    breakdowns: dict[str, dict[str, Bucket]] | None = field(default=None, metadata=OMIT)
    stats: dict[str, Any] | None = field(default=None, metadata=OMIT)

    def interval(self, metric: str) -> StoredInterval:
        """METRIC's 95% interval over sentences, None where there is none."""
        got = (self.ci95 or {}).get(metric)
        return _interval(got)

    def breakdown(self, name: str) -> dict[str, Bucket]:
        """The groups of the breakdown NAME (``arc-length``, ``deprel``...), {} where the
        result has none."""
        return (self.breakdowns or {}).get(name) or {}

    def group_interval(self, breakdown: str, group: str) -> StoredInterval:
        """The interval of a breakdown group's labeled F1, None where there is none."""
        groups = (self.ci95 or {}).get("breakdowns")
        got = (groups.get(breakdown) or {}).get(group) if isinstance(groups, dict) else None
        return _interval(got)


def _interval(got: Any) -> StoredInterval:
    if isinstance(got, list | tuple) and len(got) == 2 and None not in got:
        return [float(got[0]), float(got[1])]
    return None

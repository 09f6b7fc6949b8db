"""The summary's content as records (results.json's ``summary``): apart from
:mod:`parsebench.report.summary`, which computes it from a run's results."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from parsebench.common.record import OMIT, Interval, Record
from parsebench.report.headline_records import Headline


@dataclass(frozen=True)
class FigureTest(Record):
    """One paired bootstrap test of two parsers on a figure at a level (results.json's
    ``summary.tests``): the letters, the baseline's verdicts and the significance table
    are read from these."""

    figure: str
    """The figure's title as the tables show it."""
    method: str
    """The score's name in metrics.registry.REGISTRY (``las``...)."""
    projection: str
    level: str
    a: str
    b: str
    difference: float | None
    """B's figure minus A's."""
    ci95: Interval | None
    p_holm: float | None
    significant: bool | None
    resamples: int


@dataclass(frozen=True)
class Entry(Record):
    """A parser's place in a ranking: its figure and interval."""

    parser: str
    value: float | None
    ci95: Interval | None
    baseline: bool | None = field(default=None, metadata=OMIT)
    """True for an uninformed baseline (ranked after the parsers); absent otherwise."""


@dataclass(frozen=True)
class Ranked(Record):
    """One question answered by a ranking: accuracy on clean text, or robustness at a
    level."""

    figure: str
    method: str
    level: str
    projection: str
    higher_is_better: bool
    ranking: list[Entry]
    not_ranked: list[str]
    """The parsers without the figure."""
    groups: list[list[str]]
    """The compact letter display's groups, best first."""
    letters: dict[str, str]
    tests: int
    """How many paired tests the letters come from."""
    sentence: str
    link: str
    leader: str | None = field(default=None, metadata=OMIT)
    """The parser the paired tests separate from every other it is ranked with (the
    sentence names it as the best); None when none is (ties, no tests)."""


@dataclass(frozen=True)
class Verdict(Record):
    """Whether a parser beats the best baseline, and why."""

    parser: str
    beats: bool
    value: float | None
    difference: float | None
    ci95: Interval | None
    p_holm: float | None
    why: str


@dataclass(frozen=True)
class BaselineItem(Record):
    """The best uninformed baseline and every other parser against it (all None with no
    baseline: the sentence says how to add one)."""

    baseline: str | None
    spec: str | None
    value: float | None
    ci95: Interval | None
    not_beating: list[Verdict]
    beating: list[Verdict]
    link: str
    sentence: str


@dataclass(frozen=True)
class Hurt(Record):
    """Where the noise hurts most: a parser's LAS lost at its worst level (``clean``,
    ``noisy``), the arc length that loses most there (``group``), or the error types
    with the lowest robustness F1 (``types``); the keys of the other kinds are absent."""

    parser: str
    level: str
    figure: str
    clean: float | None = field(default=None, metadata=OMIT)
    noisy: float | None = field(default=None, metadata=OMIT)
    group: str | None = field(default=None, metadata=OMIT)
    loss: float | None = field(default=None, metadata=OMIT)
    types: list[str] | None = field(default=None, metadata=OMIT)
    sentence: str = ""
    link: str = ""


@dataclass(frozen=True)
class Warned(Record):
    """One cause of warnings, with every figure, parser, level and replicate it was
    given for."""

    text: str
    figures: list[str]
    parsers: list[str]
    projections: list[str]
    levels: list[str]
    replicates: list[str]
    link: str
    sentence: str


@dataclass(frozen=True)
class Summary(Record):
    """An experiment's summary (results.json's ``summary``). The report adds the
    headline table and the noise's caveat; the caveat's key is there only beside a
    headline (a run without dependency scores has neither)."""

    accuracy: Ranked | None
    baseline: BaselineItem | None
    robustness: list[Ranked]
    hurts: list[Hurt]
    warnings: list[Warned]
    tests: list[FigureTest]
    headline: Headline | None = None
    noise_caveat: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        if self.headline is None:
            del out["noise_caveat"]
        return out

    def claims(self) -> list[tuple[str, Ranked | BaselineItem | Hurt]]:
        """The summary's claims in reading order, each with its kind (``ranked``,
        ``baseline``, ``hurts``)."""
        items: list[tuple[str, Ranked | BaselineItem | Hurt]] = []
        if self.accuracy:
            items.append(("ranked", self.accuracy))
        if self.baseline:
            items.append(("baseline", self.baseline))
        items += [("ranked", x) for x in self.robustness]
        items += [("hurts", x) for x in self.hurts]
        return items

"""What a benchmark stores, as records: its run's settings (:class:`BenchmarkRecord`) and
its macro averages (results ``benchmark`` and ``benchmark-tests``); apart from
:mod:`parsebench.run.benchmark`, which makes them, so that the report's reading of a
stored page (:mod:`parsebench.run.page_values`) does not import the runner that the
benchmark runs."""

from __future__ import annotations

from dataclasses import dataclass, field

from parsebench.common.record import OMIT, Record
from parsebench.run.experiment import ParserConf


@dataclass(frozen=True)
class MacroAverage(Record):
    """A parser's macro average of a figure (LAS, or LAS lost) over the corpora at a
    level, with its rank and letters where it has a value."""

    value: float | None
    """None where a corpus lacks the figure."""
    ci95: list[float] | None
    rank: int | None = field(default=None, metadata=OMIT)
    tier: str | None = field(default=None, metadata=OMIT)
    """Letters from the paired tests: parsers sharing one are not separated."""


@dataclass(frozen=True)
class CorpusLas(Record):
    """A parser's LAS on one corpus at the clean level, as that corpus's run stored it."""

    lang: str | None
    las: float | None
    ci95: list[float] | None


@dataclass(frozen=True)
class CorpusLoss(CorpusLas):
    """A parser's LAS on one corpus at a noisy level, and the points lost from the clean
    text (both keys present, null where not known)."""

    loss: float | None
    loss_ci95: list[float] | None


@dataclass(frozen=True)
class BenchmarkValue(Record):
    """The ``benchmark`` result of a parser at a level: its macro averages (``las``, and
    ``loss`` at a noisy level) and each corpus's figure, by corpus name."""

    macro: dict[str, MacroAverage]
    corpora: dict[str, CorpusLas | CorpusLoss]


@dataclass(frozen=True)
class MacroTest(Record):
    """A paired test of two parsers' macro averages (the same stratified resamples),
    Holm-corrected across the pairs of its level."""

    figure: str
    """``las`` or ``loss``."""
    a: str
    b: str
    difference: float
    """B's figure minus A's."""
    ci95: list[float] | None
    p_holm: float | None
    significant: bool | None


@dataclass(frozen=True)
class BenchmarkTests(Record):
    """The ``benchmark-tests`` result of a level: every pair's test."""

    tests: list[MacroTest]


@dataclass(frozen=True)
class BenchmarkCorpus(Record):
    """One corpus of a benchmark's record."""

    name: str
    experiment: str
    """The experiment its results are kept under (``BENCHMARK [CORPUS]``)."""
    lang: str | None = None
    corpus: str = ""
    """Its files, joined with " + "."""


@dataclass(frozen=True)
class BenchmarkRecord(Record):
    """A benchmark run's settings as the store keeps them (``runs.config``): its corpora,
    the parsers and levels they share, and the resampling of the macro averages."""

    name: str
    corpora: list[BenchmarkCorpus]
    parsers: list[ParserConf]
    levels: list[str]
    """The levels' labels (``rate=0.05``)."""
    replicates: int = 1
    seed: int = 1
    resampling: str | None = None
    """How the macro averages' intervals and tests resample (None: a record without)."""
    samples: int | None = None

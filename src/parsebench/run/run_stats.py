"""A run's statistics (the ``stats`` of its record in the store, and of results.json's
``run``): what :mod:`parsebench.run.runner` measures of an experiment's run and
:mod:`parsebench.run.benchmark` of a benchmark's. Each is a record whose JSON is what
the store keeps, key for key; the keys a run of an earlier release did not write yet
(``scoring``, ``corpus``, ``scores_reused``, ``stages``) are left out where absent, so
that an old store's record reads back and writes out as it was. Kept apart from the
runner so that reading a store does not import the run's machinery."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from parsebench.common.record import OMIT, Record


@dataclass(frozen=True)
class TrainedStats(Record):
    """What trained a parser the run trained itself (``spec = "udpipe:train"``)."""

    train: str
    """The training file."""
    sentences: int
    seconds: float
    key: str
    """The training cache's key (its data and settings)."""
    iterations: int | None
    """None: the parser's own iterations."""
    parser: str | None = field(default=None, metadata=OMIT)
    """Which parser ``train`` trained (None: UDPipe 1, all a run of an earlier release
    could train)."""


@dataclass(frozen=True)
class ParserStats(Record):
    """One parser's share of a run: what it parsed, what came from the cache, its time."""

    parser_key: str
    identity: Any
    """The parser's identity (its name, version, model...), as its adapter gives it."""
    kind: str
    distinct_sentences: int
    """The distinct sentences (clean and noisy) it was given, parsed or from the cache."""
    parsed_sentences: int
    """Those parsed in this run (the rest came from the cache)."""
    parsed_words: int
    naive_words: int
    """The words a parse of every version of every sentence would have taken."""
    parse_seconds: float
    """The parser's own time on the sentences it parsed."""
    wall_seconds: float
    trained: TrainedStats | None = field(default=None, metadata=OMIT)

    @property
    def cache_hits(self) -> int:
        """The distinct sentences taken from the cache."""
        return self.distinct_sentences - self.parsed_sentences


@dataclass(frozen=True)
class RunStats(Record):
    """An experiment's run (:func:`parsebench.run.runner.run_experiment`)."""

    wall_seconds: float
    noise_seconds: float
    score_seconds: float
    parsers: dict[str, ParserStats]
    """By parser name, in the experiment's order."""
    workers: int
    executor: str
    scoring: str | None = field(default=None, metadata=OMIT)
    """The digest of the code that scored (scores are reused only under the same)."""
    corpus: str | None = field(default=None, metadata=OMIT)
    """The corpus's digest (its noisy versions are stored under it)."""
    scores_reused: list[str] | None = field(default=None, metadata=OMIT)
    """The parsers with no new parse whose scores came back from the last run."""
    stages: list[list[Any]] | None = field(default=None, metadata=OMIT)
    """Where the time went: ``[name, seconds, remark]`` a stage."""

    @property
    def parsed(self) -> int:
        """The distinct sentences the run's parsers parsed (not from the cache)."""
        return sum(p.parsed_sentences for p in self.parsers.values())


@dataclass(frozen=True)
class BenchmarkStats(Record):
    """A benchmark's run (:func:`parsebench.run.benchmark.run_benchmark`): its corpora's
    runs and what they parsed in all."""

    wall_seconds: float
    executor: str
    workers: int
    runs: dict[str, int]
    """Each corpus's run."""
    parsed: int

"""The one interface of a run's methods, one a paper, and the statistics they give.

A method never loops over levels, replicates or sentences itself, and never pools:
:func:`parsebench.run.score.score` does that once for all of them. A method says

- which *variants* of it a run asks for (Bigert's projections, Lin's breakdowns of
  the clean text, the noisy levels; most methods have one), each with its levels;
- for one replicate's pairs (clean parse, noisy parse, gold, alignment), each
  sentence's statistics: a few additive rows by name (:data:`SentenceStats`);
- the figures of a level from those statistics, summed (:class:`LevelStats`).

Names with ``=`` are *keyed* statistics of a breakdown (``by_type=R:DET``,
``deprel=nsubj``): a sentence has rows only for the keys it holds, and the store
keeps them sparse, a row ``[sentence, key, counts...]`` a key a sentence, so a
breakdown is re-aggregated, resampled or tested from the store like any figure.

Replicates are pooled one way for every method: a sentence's rows are summed over
the replicates of its level, and the sentence (with its replicates) is what an
interval resamples. Sums of one replicate are kept too, for the methods whose
figures are a mean over replicates (Bigert et al.'s).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from parsebench.common.record import Record
from parsebench.metrics.core.word_alignment import Alignment
from parsebench.model.parses import Parse
from parsebench.model.scored import Scored
from parsebench.present.tables import Section

if TYPE_CHECKING:  # annotations only: the commands that score no run start without NumPy
    import numpy as np
    import numpy.typing as npt

SentenceStats = dict[str, Sequence[float]]
"""A sentence's statistics: name -> a row of additive counts."""


@dataclass(frozen=True)
class Pair:
    """One sentence as a method sees it: the clean parse (or the corrected text's), the
    parse of its noisy version, the gold key when there is one, and the alignment of the
    noisy words to the clean ones when the noise moves words."""

    clean: Parse
    noisy: Parse
    gold: Parse | None = None
    alignment: Alignment | None = None


@dataclass(frozen=True)
class Replicate:
    label: str
    """The noisy version's label (``rate=0.05/seed=2``), or the clean text's file."""
    pairs: Sequence[Pair]
    source: Any = None
    """The noisy version itself (:class:`parsebench.run.corpus.Version`), for a method that
    reads the parser's sentences whole (Lin's, through the CoNLL 2018 alignment)."""


@dataclass(frozen=True)
class ScoredLevel:
    label: str
    """The result's level (``rate=0.05``, ``clean``, ``corrected``)."""
    short: str
    replicates: Sequence[Replicate]


@dataclass(frozen=True)
class Variant:
    """One result a level of a method: what it counts and how it makes its figures."""

    projection: str
    """The result's projection (``head+deprel``, ``brackets``, a breakdown)."""
    levels: Sequence[ScoredLevel]
    stats: Callable[[Replicate], Iterable[SentenceStats]]
    """Each sentence's statistics of one replicate, in sentence order."""
    figures: Callable[[ScoredLevel, LevelStats], dict[str, Any]]
    """The figures of a level from its statistics (None where a number is n/a)."""
    signature: Callable[[ScoredLevel], dict[str, Any]]
    """The settings the result's signature shows."""
    per_replicate: frozenset[str] = frozenset()
    """Names whose per-sentence rows of each replicate the figures need (a calibration
    fitted per replicate); of the others only pooled rows and replicate sums are kept."""


class RunContext(Protocol):
    """What a method sees of a run, for one parser (:class:`parsebench.run.score.Context`
    is the one implementation): declared here so that a method's ``variants`` is typed
    without the metrics importing the run."""

    @property
    def exp(self) -> Any:
        """The experiment (``exp.wants(name)``, ``exp.metrics[name]``: its settings)."""

    @property
    def conf(self) -> Any:
        """The parser's settings in the experiment."""

    @property
    def parsed(self) -> Any:
        """The parser's parses of the corpus's versions."""

    @property
    def corpus(self) -> Any:
        """The corpus: its sentences, versions and files."""

    @property
    def levels(self) -> Mapping[Any, Sequence[Any]]:
        """Each error level's noisy versions."""

    @property
    def calibration(self) -> tuple[Any, Any] | None: ...

    @property
    def corrected(self) -> tuple[Any, Any] | None: ...

    @property
    def kind(self) -> str:
        """What the parser gives: ``deps`` or ``trees``."""

    @property
    def own_tokens(self) -> bool:
        """Whether the parsers tokenize the text themselves (``tokens = "raw"``)."""

    @property
    def moves_words(self) -> bool:
        """Whether the noise adds, drops or moves words."""

    @property
    def clean(self) -> list[Parse]: ...

    @property
    def gold(self) -> list[Parse] | None: ...

    def noisy_levels(self, with_gold: bool = False) -> list[ScoredLevel]: ...

    def clean_level(self) -> ScoredLevel: ...

    def calibration_levels(self) -> Mapping[Any, Sequence[Any]]: ...


class Where(Protocol):
    """Where a method's ``[metrics]`` value was read: to refuse it, or to resolve a path
    in it against the experiment file."""

    def fail(self, message: str) -> Exception: ...

    def path(self, value: str) -> Path: ...


def on(settings: Any) -> bool:
    """Whether a method's settings leave it on: a flag, a list (of projections,
    breakdowns: on when not empty), or settings with an ``on`` field."""
    return bool(getattr(settings, "on", settings))


@dataclass(frozen=True)
class RankingFigure:
    """How a report's summary ranks parsers by a figure."""

    title: str
    get: Callable[[Any], Any]
    """The figure of a result's value, its record (None where it has none)."""
    ci: str
    """Its key in the result's ``ci95``."""
    higher_is_better: bool
    rank: int
    """0: the accuracy figure; 1, 2...: the robustness figures, the first a run has
    ranks the parsers."""
    note: str = ""
    """What the figure measures, said after its ranking where it stands beside the
    points of LAS lost (``{proj}``: the projection ranked)."""
    of: str = ""
    """What the figure is of, after its name in the ranking's title (``{proj}``: the
    projection ranked)."""


@dataclass(frozen=True)
class Metric:
    """One score of a method: its per-sentence statistics and how their sum becomes the
    score (resampled for intervals and paired tests alike)."""

    name: str
    title: str
    reads: str
    """What the gold and system files are: ``deps`` (CoNLL-U) or ``trees`` (brackets);
    ``run`` for a score a run stores and ``compare`` does not offer."""
    columns: tuple[str, ...]
    score: Callable[[Any], Any]
    """Scores from rows of summed statistics (a NumPy array); NaN where not defined."""
    stored: tuple[str, str] | None = None
    """For a run's metrics: the result that holds the statistics, and their key in it."""
    needs: tuple[str, ...] = ()
    """What a system file must hold for a number (:data:`parsebench.model.inputs.NEEDS`);
    a file without it gets n/a, with a warning naming the cause."""
    file_stats: Callable[..., Any] | None = None
    """For a metric ``compare`` offers: its statistics, one row a gold sentence, of a
    system file against a gold file (``file_stats`` of deps, evalb, flat)."""
    headline: RankingFigure | None = None
    """Where the report's summary ranks parsers by it."""

    def corpus(self, stats: Any) -> float | None:
        import numpy as np

        v = float(self.score(stats.sum(axis=0)[None, :])[0])
        return None if np.isnan(v) else v


@dataclass(frozen=True)
class Method:
    """A paper's method, one object: what it scores in a run, its scores, its report
    sections and its summary line; listed once in
    :data:`parsebench.metrics.registry.METHODS`, from which the score registry, the
    paired tests, the experiment's ``[metrics]`` keys, the report's sections and the
    summary's links are all derived."""

    name: str
    """Its key in ``[metrics]`` and the name of its results."""
    paper: str
    variants: Callable[[RunContext], list[Variant]]
    """The run's context (:class:`parsebench.run.score.Context`) -> what it scores there;
    [] when it does not apply."""
    moved_words: str | None = None
    """What it does when the noise adds, drops or moves words; None: it compares the
    parses word by word and does not apply then."""
    own_tokens: bool = False
    """Whether it scores parsers that tokenize the text themselves (a run's
    ``tokens = "raw"``: their words aligned to the gold's by characters); False: it
    compares parses of the same words and does not apply then."""
    columns: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """The columns of the statistics it stores, by name (a breakdown's: ``sentence``,
    ``key``, then its counts), so that the store names every number it keeps."""
    scores: tuple[Metric, ...] = ()
    """Its scores: what ``compare`` offers, and what a report's intervals and paired
    tests resample."""
    settings: Callable[[Any, Where], Any] | None = None
    """Its ``[metrics]`` value (True when the key is absent, False, a list...) -> its
    settings (``Where`` refuses a bad value in one line naming the file and key); None:
    the value is on or off only."""
    default: Any = True
    """Its settings in an experiment built in code, with no ``[metrics]`` table."""
    record: Callable[[Any], Any] | None = None
    """Its settings as a run's record keeps them (JSON); None: as they are."""
    restore: Callable[[Any], Any] | None = None
    """The inverse of :attr:`record`: its settings from a run's record (already checked
    when the experiment was read, its paths resolved); None: as they are."""
    sections: tuple[Callable[[list[Scored]], Section | None], ...] = ()
    """Its report sections: the run's results -> a section (its tables, notes and the
    plots it asks for) or None where it has nothing to show. A section is data
    (:mod:`parsebench.present.tables`): the report writes it and draws its plots."""
    text: Callable[..., str] = lambda record, *names: record.to_json()
    """Its command's record (and the names of the files it read) -> the command's text
    on the terminal: the paper's table laid out as the paper lays it out (a method
    without a layout of its own prints its record's JSON)."""
    section_title: str = ""
    """What the report's summary calls its section when it links there."""
    anchor: Callable[[Scored], str] | None = None
    """A result -> the id of the report table that shows it (the summary's links)."""
    headline: Callable[[Any], str] | None = None
    """A result's value (its record) -> its line in the terminal's end-of-run table."""
    value_type: type[Record] | None = None
    """The typed value of its results (:mod:`parsebench.common.record`): what the report reads
    by attribute; None: its value is the plain JSON object."""
    projection: str | None = None
    """The one projection of its results that its scores, tests and rankings read (the
    others are breakdowns); None: every result's."""
    by_projection: bool = False
    """Its figures differ by projection: a paired test's label names it."""
    hurts: Callable[[list[Scored]], list[dict[str, Any]]] | None = None
    """Its results (baselines left out) -> where the noise hurts most, as the summary's
    ``Hurt`` records' fields: a paper's own reading of its figures."""
    legend: Mapping[str, str] = field(default_factory=dict)
    """What each column of its report tables holds (header -> what the number is),
    written under every table that shows it: the method says what its figures mean,
    once; a header means one thing in the whole report (a test), and a test computes
    on a tiny case the number each text states."""


@dataclass
class LevelStats:
    """One level's statistics: each sentence's rows pooled over the replicates, each
    replicate's sums, and the per-replicate rows of the names a variant keeps."""

    keep: frozenset[str] = frozenset()
    sentences: list[dict[str, list[float]]] = field(default_factory=list)
    """Sentence k -> name -> its rows summed over the replicates."""
    totals: list[dict[str, list[float]]] = field(default_factory=list)
    """Replicate r -> name -> its sum over the sentences."""
    kept: list[dict[str, list[list[float]]]] = field(default_factory=list)
    """Replicate r -> a name of ``keep`` -> its rows, one a sentence."""
    widths: dict[str, int] = field(default_factory=dict)

    def add_replicate(self, rows: Iterable[SentenceStats]) -> None:
        total: dict[str, list[float]] = {}
        kept: dict[str, list[list[float]]] = {n: [] for n in self.keep}
        for k, stats in enumerate(rows):
            if k == len(self.sentences):
                self.sentences.append({})
            pooled = self.sentences[k]
            for name, row in stats.items():
                _add(pooled, name, row)
                _add(total, name, row)
                if name in kept:
                    kept[name].append(list(row))
                self.widths.setdefault(name, len(row))
        self.totals.append(total)
        self.kept.append(kept)

    @property
    def replicates(self) -> int:
        return len(self.totals)

    def names(self, group: str | None = None) -> list[str]:
        """The plain names, or with GROUP the keys of that breakdown, sorted."""
        if group is None:
            return sorted(n for n in self.widths if "=" not in n)
        prefix = group + "="
        return sorted(n[len(prefix):] for n in self.widths if n.startswith(prefix))

    def rows(self, name: str) -> list[list[float]]:
        """NAME's rows, one a sentence (zeros where a sentence has none), pooled."""
        zero: list[float] = [0] * self.widths.get(name, 0)
        return [s.get(name, zero) for s in self.sentences]

    def held(self, name: str) -> list[list[float]]:
        """NAME's pooled rows of only the sentences that hold it (a breakdown's group):
        what a group's interval resamples when it is a figure of those sentences."""
        return [s[name] for s in self.sentences if name in s]

    def sums(self, name: str, replicate: int | None = None) -> npt.NDArray[np.float64]:
        """NAME summed over the sentences (of one REPLICATE, or of all)."""
        import numpy as np

        width = self.widths.get(name, 0)
        totals = self.totals if replicate is None else [self.totals[replicate]]
        out = np.zeros(width, dtype=np.float64)
        for t in totals:
            if name in t:
                out += np.asarray(t[name], dtype=np.float64)
        return out

    def stored(self, names: Iterable[str] | None = None) -> dict[str, list[list[Any]]]:
        """What the store keeps: each plain name's rows, pooled, one a sentence; each
        breakdown's keyed rows ``[sentence, key, counts...]``, only where a sentence
        holds the key (NAMES: only these plain names and breakdowns)."""
        wanted = None if names is None else set(names)
        out: dict[str, list[list[Any]]] = {}
        for name in self.names():
            if wanted is None or name in wanted:
                out[name] = self.rows(name)
        groups = sorted({n.split("=", 1)[0] for n in self.widths if "=" in n})
        for g in groups:
            if wanted is not None and g not in wanted:
                continue
            prefix = g + "="
            out[g] = [[k, name[len(prefix):], *row] for k, s in enumerate(self.sentences)
                      for name, row in sorted(s.items()) if name.startswith(prefix)]
        return out


def _add(into: dict[str, list[float]], name: str, row: Sequence[float]) -> None:
    got = into.get(name)
    if got is None:
        into[name] = list(row)  # counts stay integers: the store writes 3, not 3.0
    else:
        for i, x in enumerate(row):
            got[i] += x


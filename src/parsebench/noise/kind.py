"""What a kind of noise is: the one interface through which a run (``parsebench run``,
``export``) and the noise command (:func:`parsebench.noise.make.noise`) reach it.

For a run, a kind says how the store files its versions (``key``), plans the
changes of one level and seed (``planner``: stored as plain lists, so a killed run
or an export rebuilds the very same noisy text), rebuilds a version from them
(``rebuild``), and whether it adds, drops or moves words (``moves_words``: then the
methods that compare parses word by word do not apply, and the others go through
the version's alignment). For the noise command it plans every replicate of a
corpus once and writes them a sentence at a time (``make``). A new kind is a module
with a class of these members, and its line in :data:`parsebench.noise.kinds.KINDS`.

A kind owns its options: it names them (``options``), reads and checks them from a
run's ``[noise]`` table (``settings``) or the noise command's keywords (``make``),
and keeps them in a run's record (``record``, ``restore``). What every kind shares
is outside it: the error levels, replicates and seeds, the language with its
keyboard and lexicon, and the shortest word that noise may change.

The run's objects are described here by what a kind reads of them (protocols), so
that the noise package does not import the run's modules (which import it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from parsebench.common.errors import InputError
from parsebench.common.progress import Progress
from parsebench.formats.conllu import Sentence
from parsebench.noise.keyboard import Keyboard
from parsebench.noise.source import CorpusLike

if TYPE_CHECKING:
    from parsebench.metrics.core.word_alignment import Alignment


class Level(Protocol):
    """One error level of a run (:class:`parsebench.run.experiment.Level`)."""

    @property
    def label(self) -> str: ...

    @property
    def rate(self) -> float | None: ...

    @property
    def per_sentence(self) -> int | None: ...


class RunSettings(Protocol):
    """A run's ``[noise]`` settings (:class:`parsebench.run.experiment.Experiment` has
    them): those every kind shares, and ``noise``, the kind's own (its ``settings``)."""

    @property
    def lang(self) -> str: ...

    @property
    def lexicon(self) -> str | None: ...

    @property
    def keyboard(self) -> str | None: ...

    @property
    def min_length(self) -> int: ...

    @property
    def noise(self) -> Any: ...


class Key(Protocol):
    """One key of a run's ``[noise]`` table as a kind reads it (the experiment's reader,
    :class:`parsebench.run.schema.At`): a bad value is refused in one line naming the
    file and the key's line."""

    @property
    def key(self) -> str: ...

    def get(self, kind: type | tuple[type, ...], default: Any = None) -> Any: ...

    def fail(self, message: str) -> Exception: ...

    def paths(self, required: bool, many: bool = True) -> list[Path] | None: ...


class Shared(Protocol):
    """The ``[noise]`` settings read before a kind's own, for its checks."""

    @property
    def lang(self) -> str: ...

    @property
    def natural(self) -> bool: ...

    @property
    def levels(self) -> Sequence[Level]: ...


class RunCorpus(Protocol):
    """A run's clean corpus (:class:`parsebench.run.corpus.CorpusData`)."""

    @property
    def paths(self) -> Sequence[Path]: ...

    @property
    def sentences(self) -> Sequence[Sentence]: ...


Plan = Callable[[Level, int], tuple[list[list[Any]], dict[str, Any]]]
"""The changes of one level and seed, and a summary of them."""


class Rebuilt(NamedTuple):
    """A noisy version's sentences, and with words added, dropped or moved, each one's
    alignment to the clean words and its M2 edits (start, end, type, clean words)."""

    sentences: list[Sentence]
    alignments: list[Alignment] | None = None
    m2: list[list[tuple[int, int, str, str]]] | None = None


@dataclass(frozen=True)
class Options:
    """The noise command's options, as given: those every kind shares, and ``own``, the
    kind's own options by name (a kind checks those it reads and refuses the others, in
    the command's words)."""

    rate: float | None = None
    per_sentence: int | None = None
    seed: int = 1
    replicates: int = 1
    lang: str = "en"
    lexicon: str | None = None
    keyboard: str | None = None
    min_length: int = 2
    drop_short: bool = False
    own: Mapping[str, Any] = field(default_factory=dict)
    """The options of :attr:`NoiseKind.options` given (a Python value, or the command's
    text for it)."""


def unknown(given: Mapping[str, Any], options: Mapping[str, str], kind: str) -> None:
    """Refuse, in the noise command's words, an option of GIVEN that KIND (whose own
    are OPTIONS) does not have."""
    bad = [k for k in given if k not in options]
    if bad:
        raise InputError(f"--kind {kind} has no option {bad[0]!r}" + (
            "; its own: " + ", ".join(options) if options else "; it has none of its own"))


@dataclass
class NoisyCorpus:
    """One seed's noisy corpus, as the noise command reports it."""

    seed: int
    report: dict[str, Any] = field(default_factory=dict)
    """Its figures, as in the command's JSON (words, errors or misspellings...)."""
    summary: str = ""
    """The command's summary of it: lines, without the file's name."""
    timing: str = ""
    """The timing line the command prints after the summary, if any."""
    files: dict[str, str] = field(default_factory=dict)
    """What was written of it (``file``; ``m2`` and ``align`` beside it for grammar)."""

    def to_dict(self) -> dict[str, Any]:
        """Its entry of the command's JSON ``files``."""
        return {**self.files, "seed": self.seed, **self.report}


class Made(Protocol):
    """One kind's noise of one corpus, planned for every seed; written a sentence at a
    time, the source read again, so that the noisy corpus is never held."""

    replicates: list[NoisyCorpus]
    signature: str
    conllu: bool
    """Whether it is written as CoNLL-U (else as text, a sentence a line)."""
    timing: str
    """The timing line the command prints after the summaries, if any."""
    warnings: list[str]

    def settle(self, replicate: NoisyCorpus) -> None:
        """Make REPLICATE's report final (a kind may learn it only by making the text)."""

    def sentences(self, replicate: NoisyCorpus) -> Iterator[Sentence]:
        """REPLICATE's noisy sentences, as written (a short sentence dropped is left out)."""

    def write(self, replicate: NoisyCorpus, target: Path) -> list[Path]:
        """Write REPLICATE as TARGET (and its side files), each atomically; set its
        ``files``; return the paths written."""


class NoiseKind(Protocol):
    """A kind of noise (see the module's docstring)."""

    name: str
    """Its name in ``[noise] kind`` and ``noise --kind``."""
    title: str
    """What the report calls it."""
    moves_words: bool
    """Whether it adds, drops or moves words; a kind whose settings decide it also has
    ``moves(settings) -> bool`` (read through :func:`parsebench.noise.kinds.moves_words`).
    A kind may also have ``describe(settings) -> str``, what the report's Run table calls
    it with those settings (else its ``title``; :func:`parsebench.noise.kinds.described`),
    and ``caveat(settings, lang, natural) -> str | None``, the line the report says of it
    beside the headline (:func:`parsebench.report.headline.noise_caveat`), and
    ``units(settings, sentences) -> list[int] | None``, the words of each unit a parser is
    given when a version is not given a sentence at a time (transcript segments:
    :func:`parsebench.noise.kinds.units_of`)."""

    @property
    def options(self) -> Mapping[str, str]:
        """Its own options, by their ``[noise]`` key (``noise`` keyword), with what each is."""

    def settings(self, at: Callable[[str], Key], shared: Shared) -> Any:
        """Its settings from a run's ``[noise]`` table (AT gives each key's reader; the
        key ``kind`` refuses a kind that cannot serve SHARED), checked."""

    def record(self, settings: Any) -> dict[str, Any]:
        """SETTINGS as a run's flat record keeps them (JSON)."""

    def restore(self, config: Mapping[str, Any]) -> Any:
        """The settings of a run's record (the inverse of :meth:`record`)."""

    def rows(self, settings: Any, changes: Mapping[str, Sequence[Sequence[Any]]]
             ) -> list[list[str]]:
        """The report's Run-table rows on this noise, from each level's stored changes
        (pooled over its replicates); [] for none."""

    def key(self, exp: RunSettings, kb: Keyboard) -> str: ...

    def planner(self, exp: RunSettings, corpus: RunCorpus, kb: Keyboard) -> Plan: ...

    def rebuild(self, sentences: Sequence[Sentence], level: Level, seed: int,
                changes: Sequence[Sequence[Any]]) -> Rebuilt: ...

    def valid_change(self, change: Any) -> bool:
        """Whether CHANGE, read back from the store, has the shape this kind's planner
        gives (else the stored version is taken as damaged and made again)."""

    def make(self, corpus: CorpusLike, options: Options, progress: Progress) -> Made:
        """Check OPTIONS (as the command does, in its order; an option of ``own`` it does
        not have refused), read CORPUS and plan every replicate."""

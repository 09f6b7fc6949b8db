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

The run's objects are described here by what a kind reads of them (protocols), so
that the noise package does not import the run's modules (which import it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from parsebench.formats.conllu import Sentence
from parsebench.noise.keyboard import Keyboard
from parsebench.noise.source import CorpusLike
from parsebench.progress import Progress

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
    """A run's ``[noise]`` settings (:class:`parsebench.run.experiment.Experiment` has them)."""

    @property
    def lang(self) -> str: ...

    @property
    def lexicon(self) -> str | None: ...

    @property
    def keyboard(self) -> str | None: ...

    @property
    def weights(self) -> Mapping[str, float]: ...

    @property
    def min_length(self) -> int: ...

    @property
    def keep_mix(self) -> bool: ...

    @property
    def profile(self) -> str | None: ...

    @property
    def types(self) -> Sequence[str]: ...


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
    """The noise command's options, as given (a kind checks those it reads and refuses
    the others' misuse, in the command's words)."""

    rate: float | None = None
    per_sentence: int | None = None
    seed: int = 1
    replicates: int = 1
    lang: str = "en"
    lexicon: str | None = None
    keyboard: str | None = None
    weights: str | Mapping[str, float] | None = None
    """``sub=2,ins=1`` (``R:WO=2`` for grammar), or the same as a mapping."""
    min_length: int = 2
    drop_short: bool = False
    types: str | Sequence[str] | None = None
    """``M:DET,R:WO``, or the same as a sequence."""
    tagger: str | None = None
    keep_mix: bool = False
    """Spelling: keep the asked-for operation mix (:class:`.spelling.Settings`)."""
    profile: str | None = None
    """Spelling: a learnt noise profile's file (:mod:`.profile`) instead of the keyboard
    model; RATE may then be None (the profile's own rate)."""


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

    @property
    def weights(self) -> Mapping[str, float]:
        """What a run's ``[noise] weights`` can name, with their defaults."""

    @property
    def types(self) -> tuple[str, ...]:
        """The error types it makes, by name (none: it makes one kind of error)."""

    def key(self, exp: RunSettings, kb: Keyboard) -> str: ...

    def planner(self, exp: RunSettings, corpus: RunCorpus, kb: Keyboard) -> Plan: ...

    def rebuild(self, sentences: Sequence[Sentence], level: Level, seed: int,
                changes: Sequence[Sequence[Any]]) -> Rebuilt: ...

    def valid_change(self, change: Any) -> bool:
        """Whether CHANGE, read back from the store, has the shape this kind's planner
        gives (else the stored version is taken as damaged and made again)."""

    def make(self, corpus: CorpusLike, options: Options, progress: Progress) -> Made:
        """Check OPTIONS (as the command does, in its order), read CORPUS and plan every
        replicate."""

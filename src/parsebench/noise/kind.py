"""What a kind of noise is: the one interface through which a run (``parsebench run``,
``export``) reaches it.

For a run, a kind says how the store files its versions (``key``), plans the
changes of one level and seed (``planner``: stored as plain lists, so a killed run
or an export rebuilds the very same noisy text), rebuilds a version from them
(``rebuild``), and whether it adds, drops or moves words (``moves_words``: then the
methods that compare parses word by word do not apply, and the others go through
the version's alignment). A new kind is a module with a class of these members,
and its line in :data:`parsebench.noise.kinds.KINDS`.

The run's objects are described here by what a kind reads of them (protocols), so
that the noise package does not import the run's modules (which import it).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple, Protocol

from parsebench.formats.conllu import Sentence
from parsebench.metrics.wordalign import Alignment
from parsebench.noise.keyboard import Keyboard


class Level(Protocol):
    """One error level of a run (:class:`parsebench.experiment.Level`)."""

    @property
    def label(self) -> str: ...

    @property
    def rate(self) -> float | None: ...

    @property
    def per_sentence(self) -> int | None: ...


class RunSettings(Protocol):
    """A run's ``[noise]`` settings (:class:`parsebench.experiment.Experiment` has them)."""

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
    def types(self) -> Sequence[str]: ...


class RunCorpus(Protocol):
    """A run's clean corpus (:class:`parsebench.corpus.CorpusData`)."""

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


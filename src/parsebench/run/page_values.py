"""The values of the report's pages that are not a method's figures: a parser's speed,
the sentences the report draws and the sentence browser's data
(:mod:`parsebench.run.examples` makes them), and the attack's
(:class:`parsebench.probes.attack.AttackValue`). Each is a record whose JSON is what the store
keeps, key for key; :func:`typed_page` reads a stored page back into its record, as
:func:`parsebench.metrics.registry.typed` does a method's figures, so the report reads
attributes. Kept apart from ``run/examples.py`` so that reading a store does not import
the run's machinery."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from parsebench.common.errors import InputError
from parsebench.common.record import OMIT, Record
from parsebench.model.scored import Scored


@dataclass(frozen=True)
class LengthTime(Record):
    """The parse time of the distinct sentences of one length."""

    sentences: int
    mean: float
    max: float


@dataclass(frozen=True)
class SpeedValue(Record):
    """A parser's speed over the distinct sentences it parsed (``speed``)."""

    sentences: int
    words: int
    parse_seconds: float
    failures: int
    words_per_second: float | None
    """None where no time was taken."""
    seconds_by_length: dict[str, LengthTime]
    """By sentence length in words (as text: a JSON key), shortest first."""
    identity: Any
    """The parser's identity, as the run's statistics give it."""


@dataclass(frozen=True)
class Example(Record):
    """One sentence's clean and noisy parse side by side, as the report draws it."""

    sentence: int
    level: str
    level_label: str
    seed: int
    why: str
    kind: str
    clean_words: list[str]
    noisy_words: list[str]
    misspelled: list[bool]
    clean: list[str]
    """The clean parse a row a word, as the report's tables show it."""
    noisy: list[str]
    clean_arcs: list[list[Any]] | None
    """[dependent, head, label] (or links); None for trees and failures."""
    noisy_arcs: list[list[Any]] | None
    gold_arcs: list[list[Any]] | None
    changed_arcs: int | None
    clean_tags: list[str] | None
    noisy_tags: list[str] | None
    alignment: list[list[int]] | None = field(default=None, metadata=OMIT)
    """With noise that moves words: the noisy words' alignment to the clean ones."""
    types: list[str] | None = field(default=None, metadata=OMIT)
    """With noise that moves words: the sentence's error types."""


@dataclass(frozen=True)
class BrowserVersion(Record):
    """One noisy version the browser offers."""

    level: str
    seed: int


@dataclass(frozen=True)
class BrowserData(Record):
    """A parser's data for the sentence browser, in the compact form its script reads
    (:func:`parsebench.run.examples.browser_data` says what each list holds)."""

    kind: str
    versions: list[BrowserVersion]
    labels: list[str]
    words: list[list[str]]
    noise: list[list[Any]]
    clean: list[Any]
    noisy: list[list[Any]]
    gold: list[Any] | None


def _examples(v: Any) -> list[Example]:
    return [Example.from_dict(x) for x in v]


def _attack(v: Any) -> Any:
    from parsebench.probes.attack import AttackValue  # numpy's import only where it is needed

    return AttackValue.from_dict(v)


def _benchmark(v: Any) -> Any:
    from parsebench.run.benchmark_values import BenchmarkValue

    return BenchmarkValue.from_dict(v)


def _benchmark_tests(v: Any) -> Any:
    from parsebench.run.benchmark_values import BenchmarkTests

    return BenchmarkTests.from_dict(v)


PAGE_TYPES: dict[str, Callable[[Any], Any]] = {
    "speed": SpeedValue.from_dict, "examples": _examples, "browser": BrowserData.from_dict,
    "attack": _attack, "benchmark": _benchmark, "benchmark-tests": _benchmark_tests}
"""How each page's stored JSON becomes its value (``examples``: a list of records); a
benchmark's macro averages and their tests
(:class:`parsebench.run.benchmark_values.BenchmarkValue`, :class:`~parsebench.run.benchmark_values
.BenchmarkTests`) are read here too: they are no method's figures."""


def typed_page(r: Scored) -> Scored:
    """R with its value as its page's record(s), where R is a page read as plain JSON; a
    value that does not read as one is refused in one line (a damaged store)."""
    read = PAGE_TYPES.get(r.method)
    if read is None or isinstance(r.value, Record) or (
            isinstance(r.value, list) and r.value and isinstance(r.value[0], Record)):
        return r
    try:
        return dataclasses.replace(r, value=read(r.value))
    except (TypeError, ValueError, KeyError, AttributeError) as e:
        raise InputError(f"the report's {r.method} of {r.parser} does not read ({e}); the "
                         "store is damaged or from another version: run the experiment "
                         "again") from None


def typed_result(r: Scored) -> Scored:
    """R as the report reads it: a method's result as its record
    (:func:`parsebench.metrics.registry.typed`), a page as its own."""
    from parsebench.metrics.registry import METHODS, typed

    return typed(r) if r.method in METHODS else typed_page(r)

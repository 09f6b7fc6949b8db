"""A batch parser behind a dict cache, and what it keeps of a parse (:class:`CachedParse`):
each word's ``HEAD:DEPREL`` and UPOS. The worst-case search (:mod:`parsebench.probes.attack`)
and the invariance tests (:mod:`parsebench.probes.invariance`) both parse through it, so no
sentence is parsed twice."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from parsebench.common.errors import InputError
from parsebench.common.progress import Progress
from parsebench.formats.conllu import NO_HEAD
from parsebench.model.parses import FAILED
from parsebench.parsers.base import Analysis, Item


@dataclass(frozen=True, slots=True)
class CachedParse:
    """What the attack reads of a parse: each word's ``HEAD:DEPREL`` (every row
    ``<failed>`` when the parser failed, as the rows metric counts it) and its UPOS."""

    rows: tuple[str, ...]
    upos: tuple[str, ...]
    failed: bool = False


def parsed_of(words: Sequence[str], outcome: object) -> CachedParse:
    n = len(words)
    if not isinstance(outcome, Analysis) or outcome.heads is None:
        return CachedParse((FAILED,) * n, ("_",) * n, True)
    if outcome.forms is not None and len(outcome.forms) != n:
        return CachedParse((FAILED,) * n, ("_",) * n, True)
    deprels = outcome.deprels or ["_"] * n
    rows = tuple(f"{'_' if h == NO_HEAD else h}:{d}"
                 for h, d in zip(outcome.heads, deprels, strict=True))
    return CachedParse(rows, tuple(outcome.upos) if outcome.upos else ("_",) * n)


BatchParser = Callable[[Sequence[tuple[str, ...]]], list[CachedParse]]
"""Parses a batch of sentences (their words) in order."""


class CachedParser:
    """A batch parser behind a dict cache: a sentence's words are parsed once.

    ``calls`` counts the sentences actually sent to the parser, ``hits`` the ones
    answered from the cache. With PROGRESS, each batch that has sentences to parse is
    a stage (named by ``many``'s WHAT); the BatchParser advances it."""

    def __init__(self, parse: BatchParser, progress: Progress | None = None) -> None:
        self.parse, self.progress = parse, progress
        self.cache: dict[tuple[str, ...], CachedParse] = {}
        self.calls = 0
        self.hits = 0

    def many(self, variants: Sequence[tuple[str, ...]], what: str = "parsing"
             ) -> list[CachedParse]:
        todo: list[tuple[str, ...]] = []
        seen: set[tuple[str, ...]] = set()
        for v in variants:
            if v in self.cache or v in seen:
                self.hits += 1
            else:
                seen.add(v)
                todo.append(v)
        if todo:
            if self.progress is not None:
                self.progress.stage(what, len(todo))
            got = self.parse(todo)
            if len(got) != len(todo):
                raise ValueError("the parser answered another number of sentences")
            self.calls += len(todo)
            self.cache.update(zip(todo, got, strict=True))
        return [self.cache[v] for v in variants]


def pool_parser(pool: Any, progress: Progress | None = None) -> BatchParser:
    """A :class:`BatchParser` over a running :class:`~parsebench.parsers.pool.Pool`; each
    sentence parsed advances PROGRESS."""
    if pool.kind != "deps":
        raise InputError(f"parser {pool.spec!r} gives {pool.kind}, not dependency trees: the "
                         "attack compares heads and relations")

    def parse(batch: Sequence[tuple[str, ...]]) -> list[CachedParse]:
        items = [Item(k, list(w), " ".join(w)) for k, w in enumerate(batch)]
        done = None if progress is None else (lambda _t: progress.advance())
        return [parsed_of(w, t.outcome)
                for w, t in zip(batch, pool.parse(items, done), strict=True)]

    return parse


def changed(clean: CachedParse, noisy: CachedParse, touched: set[int]) -> list[int]:
    """Words outside TOUCHED whose row differs between the clean and the noisy parse."""
    return [i for i, (a, b) in enumerate(zip(clean.rows, noisy.rows, strict=True))
            if i not in touched and a != b]


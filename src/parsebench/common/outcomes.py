"""What goes into a parser and what comes out of it, for one sentence: plain data, below
both the adapters that make it (:mod:`parsebench.parsers`) and the parse model that
reads it (:mod:`parsebench.model.parses`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class Item:
    """One sentence to parse: its position in the input, its words, its text."""

    index: int
    words: list[str]
    text: str


@dataclass(slots=True)
class Analysis:
    """A parser's analysis of one sentence; unset columns stay ``_``."""

    heads: list[int] | None = None
    deprels: list[str] | None = None
    upos: list[str] | None = None
    xpos: list[str] | None = None
    lemmas: list[str] | None = None
    feats: list[str] | None = None
    links: list[tuple[int, int, str]] | None = None
    """Undirected links (i < j, 1-based, 0 = left wall, label)."""
    tree: str | None = None
    """A bracketed constituency tree."""
    forms: list[str] | None = None
    """The parser's own words, when it tokenized raw text itself."""
    tokens: list[tuple[int, int, str]] | None = None
    """Its multiword tokens then: (first word, last word, 0-based, inclusive; the token's
    form), so that the words' text can be matched to the gold's characters."""
    starts: list[int] | None = None
    """Then too: the words (0-based) where it began a sentence after the first, when it
    split the text it was given, so that its sentence segmentation is scored."""


@dataclass(slots=True)
class Failure:
    reason: str


Outcome = Analysis | Failure


@dataclass(slots=True)
class Timed:
    """An outcome with the seconds the parser spent on it."""

    index: int
    outcome: Outcome
    seconds: float
    meta: dict[str, Any] = field(default_factory=dict)

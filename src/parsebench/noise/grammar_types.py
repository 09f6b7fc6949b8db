"""Learner-like errors: their ERRANT types and default weights, one error as an edit,
the settings that choose them and the report of what was made.

Apart from the planner (:mod:`.grammar`) and the sites (:mod:`.grammar_sites`) so that
what a run's settings and the store speak of is read without loading either.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from parsebench.common.errors import InputError
from parsebench.noise.spelling import check_level
from parsebench.noise.spelling import parse_weights as parse_op_weights

TYPES = ("M:DET", "U:DET", "R:DET", "M:PREP", "U:PREP", "R:PREP", "R:VERB:SVA",
         "R:VERB:FORM", "R:VERB:TENSE", "R:NOUN:NUM", "R:PRON", "R:WO", "U:REPEAT", "R:ORTH",
         "M:PUNCT", "U:PUNCT", "R:SPELL")
"""The kinds of error this module makes, by ERRANT's type names. ``U:REPEAT`` (a word
written twice) is not one of ERRANT's (it types the extra word by its class, U:NOUN...):
it is recorded as U:REPEAT everywhere, as the default weights count it
(:func:`parsebench.metrics.robustness.errant_types.repeated`)."""

DEFAULT_WEIGHTS: dict[str, float] = {
    # How often ERRANT 3.0.2 (with spaCy's en_core_web_sm 3.8.0) finds each type between
    # JFLEG dev's 754 sources and their first corrections: scripts/jfleg_error_types.py,
    # the whole table in docs/noise.md. A word deleted beside the same word is U:REPEAT.
    "M:DET": 109, "U:DET": 85, "R:DET": 61, "M:PREP": 40, "U:PREP": 32, "R:PREP": 83,
    "R:VERB:SVA": 65, "R:VERB:FORM": 40, "R:VERB:TENSE": 57, "R:NOUN:NUM": 127,
    "R:PRON": 29, "R:WO": 38, "U:REPEAT": 3, "R:ORTH": 156, "M:PUNCT": 263, "U:PUNCT": 40,
    "R:SPELL": 334,
}


@dataclass(slots=True)
class Edit:
    """One error: clean words [start, end) are written as NOISY; TYPE is ERRANT's name.

    ``links`` pairs the noisy words (0-based within NOISY) with clean ones
    (0-based within the span): the alignment inside the edit.
    """

    start: int
    end: int
    noisy: list[str]
    type: str
    links: list[tuple[int, int]] = field(default_factory=list)


@dataclass
class GrammarSettings:
    rate: float | None = None
    per_sentence: int | None = None
    seed: int = 1
    types: tuple[str, ...] = TYPES
    weights: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_WEIGHTS))

    def check(self) -> None:
        check_level(self.rate, self.per_sentence)
        bad = [t for t in self.types if t not in TYPES]
        if bad or not self.types:
            raise InputError(f"--types: unknown {', '.join(bad) or 'none given'}; known: "
                             + ",".join(TYPES))
        if set(self.weights) - set(TYPES) or any(w < 0 for w in self.weights.values()) or \
                not any(self.weights.get(t, 0) for t in self.types):
            raise InputError("--weights: give TYPE=W with TYPE one of the types, W >= 0, "
                             "not all of the chosen types 0")


def parse_types(text: str | Sequence[str] | None) -> tuple[str, ...]:
    """``M:DET,R:WO`` (or the same as a sequence) -> the types, each once; none: all."""
    if not text:
        return TYPES
    names = text.split(",") if isinstance(text, str) else text
    return tuple(dict.fromkeys(t.strip() for t in names if t.strip()))


def parse_type_weights(text: str | Mapping[str, float] | None) -> dict[str, float]:
    """``R:SPELL=2,M:DET=1`` (or the same as a mapping) over the defaults."""
    return parse_op_weights(text, DEFAULT_WEIGHTS, "TYPE")


@dataclass
class GrammarReport:
    words: int = 0
    sites: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    """Errors made, by kind."""
    short_sentences: list[int] = field(default_factory=list)
    shortfall: int = 0

    @property
    def made(self) -> int:
        return sum(self.errors.values())

    def summary(self) -> str:
        n = self.made
        pct = 100 * n / self.words if self.words else 0.0
        lines = [f"{n} errors in {self.words} words ({pct:.2f}%)",
                 "by type: " + ", ".join(f"{t} {c}" for t, c in sorted(self.errors.items()))]
        if self.short_sentences:
            lines.append(f"sentences with too few sites: {len(self.short_sentences)}")
        if self.shortfall:
            lines.append(f"could not reach the rate: {self.shortfall} errors short")
        return "\n".join(lines)

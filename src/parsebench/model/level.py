"""An error level, parsed once: a share of the words misspelled (``rate=0.05``), a
number of errors in every sentence (``per-sentence=2``), or the errors people made
(``natural``). A run's record, the store and the report keep a level as its label;
every reader gets it back through :meth:`Level.parse`, so a label is read one way and
shown one way (:attr:`Level.short`: ``5%``, ``2/sentence``)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Level:
    """One error level: a rate of misspelled words, or misspellings per sentence."""

    mode: str
    """``rate``, ``per_sentence`` or ``natural``."""
    value: float

    @property
    def label(self) -> str:
        if self.mode == "natural":
            return "natural"
        return f"rate={self.value:g}" if self.mode == "rate" else f"per-sentence={self.value:g}"

    @staticmethod
    def of_label(label: str) -> Level:
        """The level whose :attr:`label` is LABEL (as a run's record keeps it)."""
        got = Level.parse(label)
        if got is None:
            raise ValueError(f"not an error level: {label!r}")
        return got

    @staticmethod
    def parse(label: str) -> Level | None:
        """The level LABEL names; None for what is no error level (``clean``,
        ``corrected``, a damaged label)."""
        if label == "natural":
            return Level("natural", 0.0)
        mode, _, value = label.partition("=")
        if mode not in ("rate", "per-sentence"):
            return None
        try:
            return Level("per_sentence" if mode == "per-sentence" else mode, float(value))
        except ValueError:
            return None

    @property
    def rate(self) -> float | None:
        """The noise settings' rate (None unless a rate level)."""
        return self.value if self.mode == "rate" else None

    @property
    def per_sentence(self) -> int | None:
        return int(self.value) if self.mode == "per_sentence" else None

    @property
    def short(self) -> str:
        """As the tables show it: ``5%``, ``2/sentence``, ``natural``."""
        if self.mode == "natural":
            return "natural"
        return f"{self.value * 100:.3g}%" if self.mode == "rate" else f"{self.value:g}/sentence"


def level_order(label: str) -> tuple[int, float]:
    """Where a level label sorts: the clean text, then rates, then errors a sentence,
    each by its number; anything else last."""
    if label == "clean":
        return (0, 0.0)
    level = Level.parse(label)
    if level is None or level.mode == "natural":
        return (3, 0.0)
    return (1 if level.mode == "rate" else 2, level.value)


def short_label(label: str) -> str:
    """LABEL as the tables show it (``5%``), or as it is where it names no error level."""
    level = Level.parse(label)
    return label if level is None else level.short

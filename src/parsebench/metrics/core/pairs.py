"""The interface of a run's methods that score each noisy parse against the clean parse
of the same sentence (EVALB's and the flat key's clean-key scores; a new method of this
shape is a module that defines one, makes it a Method with :func:`as_method`, and a line
in ``metrics.registry``)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from parsebench.metrics.core.method import (
    LevelStats,
    Method,
    Metric,
    Replicate,
    RunContext,
    ScoredLevel,
    SentenceStats,
    Variant,
)
from parsebench.model.parses import Parse

if TYPE_CHECKING:  # annotations only: eval deps, brackets and flat start without NumPy
    import numpy as np
    import numpy.typing as npt


@dataclass(frozen=True)
class PairMethod:
    """A run's method that scores each noisy parse against the clean parse of the same
    sentence: the interface a new method of this shape implements in its own module,
    then makes a Method with :func:`as_method` (scoring loops over levels, replicates and sentences,
    pools and resamples for it; see docs/architecture.md)."""

    name: str
    """Its key in ``[metrics]`` and the name of its results."""
    paper: str
    reads: str
    """The kind of parse it needs (``tree``, ``deps``, ``links``)."""
    columns: tuple[str, ...]
    prepare: Callable[[Any], Callable[[Parse, Parse], Sequence[float]]]
    """The experiment's settings -> the statistics of one (clean, noisy) pair."""
    figures: Callable[[npt.NDArray[np.float64]], dict[str, Any]]
    """The figures of a level from its summed statistics (None where not defined)."""
    intervals: tuple[tuple[str, str], ...]
    """(figure, the name of the score (of ``as_method``'s SCORES) that is that figure):
    its 95% interval."""
    signature: Callable[[Any, str], dict[str, Any]]
    """The experiment and a level's label -> the settings a result's signature shows."""



def as_method(pm: PairMethod, scores: tuple[Metric, ...], **report: Any) -> Method:
    """PM as a run's method: each level's pairs scored one by one, the figures from the
    pooled sums, their intervals from SCORES; REPORT: the Method's report fields."""
    score_of = {m.name: m.score for m in scores}

    def variants(ctx: RunContext) -> list[Variant]:
        if not (ctx.exp.wants(pm.name) and ctx.kind == pm.reads and ctx.levels):
            return []
        pair_stats = pm.prepare(ctx.exp)

        def stats(rep: Replicate) -> Iterator[SentenceStats]:
            return ({pm.name: pair_stats(p.clean, p.noisy)} for p in rep.pairs)

        def figures(level: ScoredLevel, t: LevelStats) -> dict[str, Any]:
            from parsebench.metrics.core.resample import sentence_interval  # NumPy: scoring

            rows = t.rows(pm.name)
            return {**pm.figures(t.sums(pm.name)), "sentences": len(rows),
                    "replicates": t.replicates, "error_level_label": level.short,
                    "stats": {pm.name: rows},
                    "ci95": {fig: sentence_interval(rows, score_of[metric])
                             for fig, metric in pm.intervals}}

        return [Variant("brackets", ctx.noisy_levels(), stats, figures,
                        lambda level: pm.signature(ctx.exp, level.label))]

    return Method(pm.name, pm.paper, variants, columns={pm.name: pm.columns}, scores=scores,
                  **report)

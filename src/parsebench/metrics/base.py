"""One interface for the metrics: per-sentence sufficient statistics, and a corpus
score computed from their sum.

Resampling (:mod:`parsebench.metrics.resample`) then works for every metric in
the registry at once: a metric only says what a sentence's counts are and how
summed counts become a score. The counting itself stays in each method's module
(deps for Lin and CoNLL 2018, evalb, flat, rows for Bigert et al., sentences for
Kakkonen, robust_f1 for Hashemi & Hwa); this module names the metrics and adapts
per-sentence results to rows of numbers. Metrics that compare a system with a
gold are what ``compare`` offers; the robustness metrics are counted by a run,
which stores each result's per-sentence statistics (``stored``), and the report
draws its intervals and tests between parsers from them.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from parsebench.formats.conllu import Sentence
from parsebench.metrics import deps, evalb, flat
from parsebench.metrics.conll18 import CONLL18_NAMES, METRIC_NEEDS
from parsebench.metrics.method import Level, LevelStats, Method, Replicate, SentenceStats, Variant
from parsebench.metrics.pairs import PairMethod
from parsebench.metrics.resample import Stats, sentence_interval
from parsebench.metrics.scores import (
    Score,
    conformance,
    f1_of_counts,
    f1_of_pr,
    f1_of_shared,
    flat_recall,
    loss,
    share,
)


@dataclass(frozen=True)
class Metric:
    name: str
    title: str
    reads: str
    """What the gold and system files are: ``deps`` (CoNLL-U) or ``trees`` (brackets)."""
    columns: tuple[str, ...]
    score: Callable[[Stats], Score]
    """Scores from rows of summed statistics; NaN where not defined."""
    stored: tuple[str, str] | None = None
    """For a run's metrics: the result that holds the statistics, and their key in it."""
    needs: tuple[str, ...] = ()
    """What a system file must hold for a number (:data:`parsebench.inputs.NEEDS`);
    a file without it gets n/a, with a warning naming the cause."""
    file_stats: Callable[..., Stats] | None = None
    """For a metric ``compare`` offers: its statistics, one row a gold sentence, of a
    system file against a gold file, from its paper's module (``file_stats`` of deps,
    evalb, flat); None for a run's metric, whose statistics a run stores."""

    def corpus(self, stats: Stats) -> float | None:
        v = float(self.score(stats.sum(axis=0)[None, :])[0])
        return None if np.isnan(v) else v


_HEADS = ("heads",)
_COUNTS = ("correct", "gold", "system")
_PR = ("key", "answer", "key_matched", "answer_matched")
REGISTRY: dict[str, Metric] = {m.name: m for m in (
    *(Metric(k, f"CoNLL 2018 {name} (F1)", "deps", _COUNTS, f1_of_counts,
             ("deps", "las") if k == "las" else None, METRIC_NEEDS.get(k, ()),
             deps.file_stats)
      for k, name in CONLL18_NAMES.items()),
    Metric("ucm", "unlabeled exact match (share of sentences)", "deps", _COUNTS,
           f1_of_counts, needs=_HEADS, file_stats=deps.file_stats),
    Metric("lcm", "labeled exact match (share of sentences)", "deps", _COUNTS, f1_of_counts,
           needs=_HEADS, file_stats=deps.file_stats),
    Metric("lin-unlabeled", "Lin's unlabeled dependency F1", "deps", _PR, f1_of_pr,
           needs=_HEADS, file_stats=deps.file_stats),
    Metric("lin-labeled", "Lin's labeled dependency F1", "deps", _PR, f1_of_pr, needs=_HEADS,
           file_stats=deps.file_stats),
    Metric("evalb", "EVALB bracketing F-measure (valid sentences)", "trees",
           ("matched", "gold", "test", "unscored"), f1_of_counts, ("evalb", "evalb"),
           file_stats=evalb.file_stats),
    Metric("flat-recall", "Gaizauskas et al.'s recall against a flat key", "trees",
           ("key", "response", "matched", "violated"), flat_recall, ("flat", "flat"),
           file_stats=flat.file_stats),
    Metric("flat-conformance", "Gaizauskas et al.'s conformance to a flat key", "trees",
           ("key", "response", "matched", "violated"), conformance, ("flat", "flat"),
           file_stats=flat.file_stats),
    Metric("bigert-differs", "parse differs", "run", ("rows", "changed rows"), share(1, 0),
           ("rows", "differs")),
    Metric("bigert-real-degradation", "real degradation", "run",
           ("rows right in the clean parse", "rows right in the noisy parse"), loss(1, 0),
           ("rows", "degr_real")),
    Metric("kakkonen-unlabeled", "Kakkonen unlabeled", "run",
           ("pairs", "unlabeled matches", "labeled matches"), share(1, 0),
           ("sentences", "pairs")),
    Metric("kakkonen-labeled", "Kakkonen labeled", "run",
           ("pairs", "unlabeled matches", "labeled matches"), share(2, 0),
           ("sentences", "pairs")),
    Metric("hashemi-hwa-f1", "robustness F1", "run",
           ("shared", "ungrammatical deps", "grammatical deps"), f1_of_shared, ("f1", "f1")),
    Metric("aligned-uas", "UAS through the errors' alignment", "run",
           ("gold words aligned", "heads right", "heads and labels right"), share(1, 0),
           ("f1", "aligned")),
    Metric("aligned-las", "LAS through the errors' alignment", "run",
           ("gold words aligned", "heads right", "heads and labels right"), share(2, 0),
           ("f1", "aligned")),
)}
COMPARABLE = [name for name, m in REGISTRY.items() if m.reads in ("deps", "trees")]
"""The metrics ``compare`` offers: a system against a gold (those stored by a run too,
EVALB and the flat keys, there score a noisy parse against the clean one)."""


def sentence_stats(metric: Metric, gold: str | os.PathLike[str],
                   system: str | os.PathLike[str], warnings: list[str] | None = None,
                   gold_sentences: Sequence[Sentence] | None = None) -> Stats:
    """METRIC's statistics of SYSTEM against GOLD, one row per gold sentence; what the
    scorer warns about (another annotation scheme, no heads) goes to WARNINGS. A system
    that cannot give METRIC (a tagger's output for an attachment score) gets rows of
    NaN: its score, intervals and tests are n/a, never 0. The output of ``noise`` is
    refused (:mod:`parsebench.inputs`). GOLD_SENTENCES: the gold's sentences when the
    caller has read them already (``compare`` reads the gold once for every system)."""
    assert metric.file_stats is not None, f"{metric.name} is a run's metric"
    return metric.file_stats(metric, gold, system, warnings, gold_sentences)


PAIRED: tuple[PairMethod, ...] = (evalb.CLEAN_KEY, flat.CLEAN_KEY)
"""Every method that scores noisy parses against clean ones pair by pair."""


def as_method(pm: PairMethod) -> Method:
    """PM as a run's method: each level's pairs scored one by one, the figures from the
    pooled sums, their intervals from the registry's scores."""
    def variants(ctx: Any) -> list[Variant]:
        if not (ctx.exp.wants(pm.name) and ctx.kind == pm.reads and ctx.levels):
            return []
        pair_stats = pm.prepare(ctx.exp)

        def stats(rep: Replicate) -> Iterator[SentenceStats]:
            return ({pm.name: pair_stats(p.clean, p.noisy)} for p in rep.pairs)

        def figures(level: Level, t: LevelStats) -> dict[str, Any]:
            rows = t.rows(pm.name)
            return {**pm.figures(t.sums(pm.name)), "sentences": len(rows),
                    "replicates": t.replicates, "error_level_label": level.short,
                    "stats": {pm.name: rows},
                    "ci95": {fig: sentence_interval(rows, REGISTRY[metric].score)
                             for fig, metric in pm.intervals}}

        return [Variant("brackets", ctx.noisy_levels(), stats, figures,
                        lambda level: pm.signature(ctx.exp, level.label))]

    return Method(pm.name, pm.paper, variants, columns={pm.name: pm.columns})

"""``parsebench compare``: is one parser really better than another on this gold?

Each system's score gets a 95% percentile-bootstrap interval over sentences (a share
of sentences, exact match, the Wilson score interval: never of width zero); each
system is tested against the first (or every pair against each other) with a
paired test on the same sentences; with several pairs the p-values are Holm-
corrected. Definitions are in :mod:`parsebench.metrics.core.resample`.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from parsebench.common.errors import InputError
from parsebench.common.limits import check
from parsebench.common.progress import Progress, Quiet
from parsebench.common.record import OMIT, Record
from parsebench.metrics.core.proportions import METHOD as WILSON
from parsebench.metrics.core.proportions import sentence_share
from parsebench.metrics.core.resample import (
    bootstrap_scores,
    holm,
    interval,
    paired_bootstrap,
    randomization,
)
from parsebench.metrics.dependency.figures import AlignmentCounts, ValidityCounts
from parsebench.metrics.dependency.settings import DepsScoring
from parsebench.metrics.registry import comparable, file_stats
from parsebench.model.conditions import differing_inputs
from parsebench.present import p_value

TESTS = {"bootstrap": paired_bootstrap, "randomization": randomization}
SENTENCE_SHARES = ("ucm", "lcm")
"""Scores that are shares of sentences (statistics: matched, sentences, sentences)."""
GOLD_IN_MEMORY = 8_000_000
"""Bytes of gold CoNLL-U kept in memory for all systems (EWT test is 1.8 MB): about ten
times as much as objects, so a few tens of MB at most."""


@dataclass(frozen=True)
class SystemScore(Record):
    """A system's score with its interval over sentences and the counts it is made of
    (by the metric's columns; None where the score is n/a); with dependency scoring
    options not at their default, what they found in the system."""

    file: str
    score: float | None
    ci: list[float] | None
    interval: str
    """How the interval was made: the Wilson score interval or the percentile bootstrap."""
    counts: dict[str, int | float | None] | None
    validity: ValidityCounts | None = field(default=None, metadata=OMIT)
    alignment: AlignmentCounts | None = field(default=None, metadata=OMIT)
    input: str | None = field(default=None, metadata=OMIT)
    """What the system was given, as its scores show it: ``gold-words``,
    ``gold-words-and-tags`` (every tag the gold's) or ``own-words`` (a dependency
    metric's; :mod:`parsebench.model.conditions`)."""


@dataclass(frozen=True)
class SystemPair(Record):
    """A paired test of SYSTEM against BASELINE (indices of ``systems``): the difference
    of their scores, its interval, and the p-value (Holm-corrected with several pairs)."""

    baseline: int
    system: int
    delta: float | None
    ci: list[float] | None
    p: float | None
    p_uncorrected: float | None
    significant: bool | None


@dataclass(frozen=True)
class Comparison(Record):
    """``compare``'s object: the settings, each system's score, each pair's test; the
    dependency scoring options only where not at their default, and the signature once
    the command has made it."""

    metric: str
    title: str
    test: str
    samples: int
    seed: int
    alpha: float
    sentences: int
    correction: str | None
    align: str | None = field(default=None, metadata=OMIT)
    invalid: str | None = field(default=None, metadata=OMIT)
    enhancements: str | None = field(default=None, metadata=OMIT)
    no_empty_nodes: bool | None = field(default=None, metadata=OMIT)
    multiple_roots_okay: bool | None = field(default=None, metadata=OMIT)
    systems: list[SystemScore] = field(default_factory=list)
    pairs: list[SystemPair] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    signature: str | None = field(default=None, metadata=OMIT)


def compare(gold: str | os.PathLike[str], systems: Sequence[str | os.PathLike[str]],
            metric: str = "las", test: str = "bootstrap", samples: int = 10_000,
            seed: int = 1, alpha: float = 0.05, all_pairs: bool = False,
            progress: Progress | None = None,
            scoring: DepsScoring | None = None) -> Comparison:
    """The object of ``compare`` (without its signature); fractions in [0, 1].
    SCORING: how a dependency metric is scored (``eval deps``'s ``--align``,
    ``--invalid``, ``--enhancements``...); with settings not at their default, each
    system's ``validity`` (and ``alignment``) is in the JSON, and the settings too."""
    m = comparable(metric)
    if m is None:
        from parsebench.metrics.registry import COMPARABLE

        raise InputError(f"--metric {metric!r}: expected one of " + ", ".join(COMPARABLE))
    if test not in TESTS:
        raise InputError(f"--test {test!r}: expected bootstrap or randomization")
    check("samples", samples)
    if not 0 < alpha < 1:
        raise InputError(f"--alpha {alpha}: must be in (0, 1)")
    if len(systems) < 1:
        raise InputError("give at least one system file")
    scoring = scoring or DepsScoring()
    why = scoring.refusal(metric, m.reads)
    if why is not None:
        raise InputError(why)
    warnings: list[str] = []
    # a small gold is read once for every system; a big one is read again for each, so
    # that memory stays flat in the corpus's size
    gold_sentences = _read_gold(gold) if m.reads == "deps" and len(systems) > 1 \
        and os.path.getsize(gold) <= GOLD_IN_MEMORY else None
    bar = progress or Quiet()
    bar.stage("scoring the systems", len(systems))
    stats = []
    facts: list[dict[str, Any]] = []
    for s in systems:
        facts.append({})
        stats.append(file_stats(m, gold, s, warnings, gold_sentences, scoring,
                                facts[-1]))
        bar.advance()
    for s, path in zip(stats, systems, strict=True):
        if s.shape[0] != stats[0].shape[0]:
            raise InputError(f"{s.shape[0]} sentences scored, but {systems[0]} gives "
                             f"{stats[0].shape[0]}: the systems must parse the same sentences",
                             path)
    if stats[0].shape[0] == 0:
        raise InputError("no sentences to compare", gold)
    pairs_idx = [(i, j) for i in range(len(systems)) for j in range(i + 1, len(systems))] \
        if all_pairs else [(0, j) for j in range(1, len(systems))]
    bar.stage(f"{test}, {samples:,} samples", 1 + len(pairs_idx))
    boot = bootstrap_scores(stats, m.score, samples, seed)
    bar.advance()
    share = metric in SENTENCE_SHARES
    out_systems = [SystemScore(
        str(path), (point := m.corpus(s)),
        _pair(sentence_share(s.tolist(), 0, 1, alpha) if share
              else None if point is None else interval(b, alpha, point)),
        WILSON if share else "percentile bootstrap",
        None if point is None else _counts(m.columns, s),
        **({} if scoring.is_default else _found(found)), input=found.get("input"))
        for path, s, b, found in zip(systems, stats, boot, facts, strict=True)]
    given = [(str(s.file), s.input) for s in out_systems if s.input is not None]
    if len(given) == len(out_systems):
        differ = differing_inputs(given)
        if differ is not None:
            warnings.append(differ)
    # the pairs are resampled as every system was (same seed, same sentences): their
    # scores are reused, not drawn again
    results = []
    for i, j in pairs_idx:
        results.append(TESTS[test](stats[i], stats[j], m.score, samples, seed, alpha,
                                   (boot[i], boot[j])))
        bar.advance()
    corrected = holm([r.p for r in results]) if len(results) > 1 else [r.p for r in results]
    pairs = [SystemPair(i, j, r.delta, _pair(r.ci), p, r.p, None if p is None else p < alpha)
             for (i, j), r, p in zip(pairs_idx, results, corrected, strict=True)]
    return Comparison(metric, m.title, test, samples, seed, alpha, int(stats[0].shape[0]),
                      "holm" if len(results) > 1 else None, **scoring.record(),
                      systems=out_systems, pairs=pairs,
                      warnings=list(dict.fromkeys(warnings)))  # (the gold's once)


def _found(facts: dict[str, Any]) -> dict[str, Any]:
    """What the scoring options found in a system (:func:`file_stats`'s FACTS), as the
    fields of its :class:`SystemScore`."""
    return {"validity": ValidityCounts.from_dict(facts["validity"]),
            "alignment": AlignmentCounts.from_dict(facts["alignment"])
            if "alignment" in facts else None}


def _read_gold(gold: str | os.PathLike[str]) -> list[Any]:
    from parsebench.formats.conllu import iter_conllu

    return list(iter_conllu(gold))


def _pair(x: Sequence[float] | None) -> list[float] | None:
    return None if x is None else [x[0], x[1]]


def _counts(columns: Sequence[str], stats: Any) -> dict[str, int | float | None]:
    """The summed statistics a system's score is made of, by name (the metric's
    columns: LAS's correct, gold and system words), so a reader can check the score;
    null for a system whose score is n/a (a file without the column has no count)."""
    return {c: None if x != x else int(x) if float(x).is_integer() else float(x)
            for c, x in zip(columns, stats.sum(axis=0).tolist(), strict=True)}


def compare_table(r: Comparison) -> str:
    """The terminal table, laid out like sacreBLEU's paired comparison."""
    level = round(100 * (1 - r.alpha))

    def pct(x: float | None) -> str:
        return "n/a" if x is None else f"{100 * x:.2f}"

    def ci(x: list[float] | None) -> str:
        return "n/a" if x is None else f"({100 * x[0]:.2f}, {100 * x[1]:.2f})"

    test = "paired bootstrap" if r.test == "bootstrap" else "approximate randomization"
    lines = [f"{r.title} ({r.metric}) on {r.sentences} sentences; {test}, "
             f"{r.samples:,} samples, seed {r.seed}; {level}% intervals over sentences"
             + (f" ({r.systems[0].interval} for the systems' scores)"
                if r.systems and r.systems[0].interval == WILSON else ""),
             ""]
    width = max(12, *(len(s.file) for s in r.systems)) + 2
    lines.append(f"{'system':<{width}} {'score':>7}  {f'{level}% CI':<18}")
    for k, s in enumerate(r.systems):
        mark = " (baseline)" if k == 0 and all(p.baseline == 0 for p in r.pairs) else ""
        lines.append(f"{s.file:<{width}} {pct(s.score):>7}  {ci(s.ci):<18}{mark}")
    if r.pairs:
        names = [f"{r.systems[p.system].file} - {r.systems[p.baseline].file}"
                 for p in r.pairs]
        pw = max(len(n) for n in names) + 2
        lines += ["", f"{'pair':<{pw}} {'delta':>7}  {f'{level}% CI':<18} {'p':>8}"]
        for name, p in zip(names, r.pairs, strict=True):
            delta = "n/a" if p.delta is None else f"{100 * p.delta:+.2f}"
            pv = p_value(p.p, 4)
            star = " *" if p.significant else ""
            lines.append(f"{name:<{pw}} {delta:>7}  {ci(p.ci):<18} "
                         f"{pv:>8}{star}")
        lines.append("")
        lines.append(f"* significant at alpha {r.alpha}"
                     + (f"; p-values Holm-corrected for {len(r.pairs)} comparisons"
                        if r.correction == "holm" else ""))
    lines += _scoring_lines(r)
    return "\n".join(lines) + "\n"


def _scoring_lines(r: Comparison) -> list[str]:
    """What the dependency scoring options found in each system: its words aligned
    (``--align words``) and its sentences that are not trees."""
    out = []
    for s in r.systems:
        a = s.alignment
        if a is not None:
            out.append(f"{s.file}: words aligned (--align words): {a.matched} matched, "
                       f"{a.substituted} substituted, {a.deleted} deleted, "
                       f"{a.inserted} inserted")
        v = s.validity
        if v is not None and v.invalid:
            out.append(f"{s.file}: {v.invalid} of {v.sentences} sentences are not "
                       f"trees (--invalid {v.policy})")
    return ["", *out] if out else []

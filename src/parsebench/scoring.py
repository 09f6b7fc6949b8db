"""What a run scores: one entry a method, each saying when it applies and what it gives.

The runner loops over :data:`METHODS` for every parser: a method that the
experiment's ``[metrics]`` leaves on and that fits the corpus and the parser's
output (gold or not, dependencies, trees, a corrected text) turns the parses
into results. Each result holds its figures, its per-sentence statistics
(``stats``, summed over a sentence's replicates, which are resampled
together) and their 95% intervals (``ci95``); the metrics of
:mod:`parsebench.metrics.base` name those statistics, so the report's tests
between parsers work for every method alike. The counting lives in each
method's module; this one only feeds it the run's parses.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from parsebench.analysis import Parse, default_projection, from_sentence
from parsebench.corpus import CorpusData, Parsed, Version, versions_by_level
from parsebench.experiment import Experiment, Level, ParserConf
from parsebench.metrics.base import PAIRED, REGISTRY
from parsebench.metrics.pairs import PairMethod
from parsebench.metrics.resample import pool_replicates, sentence_interval
from parsebench.signature import signature
from parsebench.versions import KINDS

GOLD_PROJECTIONS = ("head+deprel", "head", "deprel", "upos", "xpos", "tag")
"""Projections a CoNLL-U gold file can give (links and brackets it cannot)."""

Result = tuple[str, str, str, str, str, Any]
"""(parser, metric, projection, level, signature, value) as the store keeps it."""


@dataclass
class Context:
    """One parser's parses of a run's corpus, and what the methods need besides."""

    exp: Experiment
    conf: ParserConf
    parsed: Parsed
    corpus: CorpusData
    levels: dict[Level, list[Version]]
    base: dict[str, Any]
    """The settings every result's signature carries."""
    calibration: tuple[CorpusData, Parsed] | None = None
    corrected: tuple[CorpusData, Parsed] | None = None

    @property
    def kind(self) -> str:
        return self.parsed.kind

    @property
    def moves_words(self) -> bool:
        """The noise adds, drops or moves words: parses are paired through alignments."""
        return KINDS[self.exp.kind].moves_words

    @functools.cached_property
    def clean(self) -> list[Parse]:
        return self.parsed.parses(self.corpus.versions[0])

    @functools.cached_property
    def gold(self) -> list[Parse] | None:
        return [from_sentence(s) for s in self.corpus.sentences] if self.corpus.gold else None


@dataclass(frozen=True)
class Method:
    name: str
    """Its key in ``[metrics]``."""
    paper: str
    applies: Callable[[Context], bool]
    results: Callable[[Context], list[Result]]
    moved_words: str | None = None
    """What it does when the noise adds, drops or moves words (kind grammar); None: it
    compares parses word by word and does not apply."""


def _fits(projection: str, kind: str) -> bool:
    if kind == "links":
        return projection == "links"
    if kind == "tree":
        return projection in ("brackets", "upos", "xpos", "tag")
    if kind == "tags":
        return projection in ("upos", "xpos", "tag")
    return projection not in ("links", "brackets")


def _rows(ctx: Context) -> list[Result]:
    """Bigert et al.'s rows, projection by projection and level by level."""
    from parsebench.metrics.rows import calibration_sample, rows_report

    out: list[Result] = []
    clean, gold, conf, corpus = ctx.clean, ctx.gold, ctx.conf, ctx.corpus
    projections = [default_projection(clean) if p == "default" else p for p in ctx.exp.rows]
    cal_gold = None if ctx.calibration is None else \
        [from_sentence(s) for s in ctx.calibration[0].sentences]
    c_levels = {} if ctx.calibration is None else versions_by_level(ctx.calibration[0])
    for proj in dict.fromkeys(projections):
        if not _fits(proj, ctx.kind):
            continue
        use_gold = gold if proj in GOLD_PROJECTIONS else None
        cache: dict[Any, Any] = {}
        for level, versions in ctx.levels.items():
            noisy = [(v.label, ctx.parsed.parses(v)) for v in versions]
            cal = None
            # the natural-typo levels exist in the corpus only, not in the calibration sample
            if ctx.calibration is not None and proj in GOLD_PROJECTIONS and level in c_levels:
                cc, cp = ctx.calibration
                assert cal_gold is not None
                cal = calibration_sample(cal_gold, cp.parses(cc.versions[0]),
                                         [(v.label, cp.parses(v)) for v in c_levels[level]],
                                         proj, str(cc.path), str(cc.path))
            acc = conf.accuracy_for(proj)
            value = rows_report(clean, noisy, use_gold, acc, proj,
                                f"{conf.name}:clean", str(corpus.path), cal, cache)
            value["error_level_label"] = level.short
            sig = signature(method="bigert-rows", projection=proj, level=level.label,
                            acr=acc if acc is not None else
                            "gold" if use_gold else None,
                            calibration=None if cal is None else
                            f"ratio-to-upper-bound:{cal[0].sample_sentences}", **ctx.base)
            out.append((conf.name, "rows", proj, level.label, sig, value))
    return out


def _sentences(ctx: Context) -> list[Result]:
    """Kakkonen's sentence scores a level, the replicates pooled."""
    from parsebench.metrics.sentences import SentenceScores, score_sentences

    out: list[Result] = []
    clean = ctx.clean
    for level, versions in ctx.levels.items():
        per = [score_sentences(clean, [ctx.parsed.parses(v)], "clean", [v.label],
                               None if v.alignments is None else [v.alignments])
               for v in versions]
        pooled = SentenceScores()
        for one in per:
            pooled.add(one)
        s = pooled.as_dict()
        s["error_level_label"] = level.short
        if len(per) > 1:
            s["replicates"] = [{k: d[k] for k in ("unlabeled", "labeled", "sentences",
                                                  "failures")}
                               for d in (one.as_dict() for one in per)]
        sig = signature(method="kakkonen-sentences", structure=ctx.kind,
                        level=level.label, **ctx.base)
        out.append((ctx.conf.name, "sentences", ctx.kind, level.label, sig, s))
    return out


def _deps(ctx: Context) -> list[Result]:
    """Lin's scores against the gold key: the clean text with every breakdown asked
    for (by genre also with words per second, his Table 18.2), each error level by
    relation (replicates pooled)."""
    from parsebench.metrics.deps import evaluate_deps

    out: list[Result] = []
    corpus, parsed, conf = ctx.corpus, ctx.parsed, ctx.conf
    groups: list[tuple[str, list[Version], list[str]]] = [
        ("clean", [corpus.versions[0]], ctx.exp.deps_by)]
    if not ctx.moves_words:  # errors that move words are scored by _f1's alignment
        groups += [(lv.label, vs, ["deprel"]) for lv, vs in ctx.levels.items()]
    for label, versions, bys in groups:
        # the words as in the gold, so that misspellings do not upset the alignment
        gold_s = [s for _ in versions for s in corpus.sentences]
        sys_s = [replace(s, forms=g.forms) for v in versions
                 for s, g in zip(parsed.sentences_of(v), corpus.sentences, strict=True)]
        # one pass for every breakdown: Lin's, and where the errors fall (MaltEval)
        scored = evaluate_deps(gold_s, sys_s, by="deprel",
                               also_by=[*bys, *WHERE_ERRORS_FALL],
                               confusion="deprel" if label == "clean" else None,
                               gold_path=str(corpus.path),
                               system_path=f"{conf.name}:{label}")
        scored.replicates = len(versions)  # statistics a sentence, as every method pools
        whole = scored.as_dict()
        extra = whole.pop("breakdowns", {})
        for by in bys:
            res = dict(whole)
            if by != "deprel":
                res["by"] = extra[by]
                for k in ("confusion", "ci95", "stats"):
                    res.pop(k, None)
            else:
                res["breakdowns"] = {f: extra[f] for f in WHERE_ERRORS_FALL}
                res["ci95"] = {**res.get("ci95", {}), "breakdowns": {
                    f: scored.group_intervals(f) for f in WHERE_ERRORS_FALL}}
            if by == "category":
                secs: dict[str, float] = {}
                for s in corpus.sentences:
                    cat = s.category or "(none)"
                    secs[cat] = secs.get(cat, 0.0) + parsed.outcome(s)[1]
                for cat, b in res["by"].items():
                    b["seconds"] = secs.get(cat, 0.0)
                    b["words_per_second"] = b["words"] / secs[cat] if secs.get(cat) else None
            sig = signature(method="lin-deps", by=by, level=label, **ctx.base)
            out.append((conf.name, "deps", by, label, sig, res))
    return out


WHERE_ERRORS_FALL = ("arc-length", "sentence-length")
"""Breakdowns stored with every level's scores: where does noise hurt?"""


def _f1(ctx: Context) -> list[Result]:
    """Hashemi & Hwa's robustness F1: of the text against its corrected version, and of
    each level of learner-like errors against the clean text through the errors'
    alignment (with the attachment against the gold key through it, by error type)."""
    out = _f1_corrected(ctx) if ctx.corrected is not None else []
    if ctx.moves_words:
        out += _f1_levels(ctx)
    return out


def _f1_levels(ctx: Context) -> list[Result]:
    from parsebench.metrics.robust_f1 import F1Counts, F1Result, score_corpus

    out: list[Result] = []
    for level, versions in ctx.levels.items():
        merged = F1Result(F1Counts())
        rows_f1, rows_acc = [], []
        for v in versions:
            r = score_corpus(ctx.clean, ctx.parsed.parses(v), v.alignments, "clean", v.label,
                             gold=ctx.gold)
            merged.extend(r)
            rows_f1.append([list(x) for x in r.pairs])
            if r.accuracy_rows:
                rows_acc.append([list(x[3:]) for x in r.accuracy_rows])
        f1_stats = _pooled(rows_f1)
        value: dict[str, Any] = {
            **merged.total.as_dict(), "error_level_label": level.short,
            "replicates": len(versions), "by_type": merged.by_type_dict(),
            "by_operation": merged.by_operation(), "stats": {"f1": f1_stats},
            "ci95": {"f1": _interval("hashemi-hwa-f1", f1_stats)}}
        if rows_acc:
            acc_stats = _pooled(rows_acc)
            value["accuracy"] = merged.accuracy["noisy"].as_dict()
            value["stats"]["aligned"] = acc_stats
            value["ci95"]["aligned_uas"] = _interval("aligned-uas", acc_stats)
            value["ci95"]["aligned_las"] = _interval("aligned-las", acc_stats)
        sig = signature(method="hashemi-hwa-f1", alignment="noise", labeled=False,
                        punct=True, root=True, level=level.label, **ctx.base)
        out.append((ctx.conf.name, "f1", "deps", level.label, sig, value))
    return out


def _f1_corrected(ctx: Context) -> list[Result]:
    from parsebench.metrics.robust_f1 import score_corpus

    assert ctx.corrected is not None
    corr, corr_parsed = ctx.corrected
    g = corr_parsed.parses(corr.versions[0])
    aligns = None
    if ctx.exp.alignment == "errant":
        from parsebench.metrics.errant_types import alignment

        aligns = [alignment(u.forms, c.forms, ctx.exp.errant_pipeline)
                  for u, c in zip(ctx.clean, g, strict=True)]
    f1r = score_corpus(g, ctx.clean, aligns, str(corr.path), str(ctx.corpus.path))
    f1 = f1r.total.as_dict()
    f1["ci95"] = f1r.intervals()
    f1["stats"] = {"f1": [list(x) for x in f1r.pairs]}
    f1["by_errors"] = {str(k): v.as_dict() for k, v in sorted(f1r.by_errors.items())}
    if aligns is not None:
        f1["by_type"] = f1r.by_type_dict()
    sig = signature(method="hashemi-hwa-f1", alignment=ctx.exp.alignment if aligns is None
                    else f"errant:{ctx.exp.errant_pipeline}", labeled=False,
                    punct=True, root=True, **ctx.base)
    return [(ctx.conf.name, "f1", "deps", "corrected", sig, f1)]


def _tree_pairs(ctx: Context, versions: Sequence[Version]
                ) -> list[list[tuple[Parse, Parse]]]:
    """Per replicate, (clean parse, noisy parse) of every sentence."""
    clean = ctx.clean
    return [list(zip(clean, ctx.parsed.parses(v), strict=True)) for v in versions]


def _pooled(per_replicate: Sequence[Sequence[Sequence[float]]]) -> list[list[float]]:
    """Each sentence's statistics summed over the replicates."""
    return pool_replicates([row for rep in per_replicate for row in rep], len(per_replicate))


def _interval(name: str, rows: list[list[float]]) -> list[float] | None:
    return sentence_interval(rows, REGISTRY[name].score)


def _pair_applies(pm: PairMethod) -> Callable[[Context], bool]:
    def applies(c: Context) -> bool:
        return c.exp.wants(pm.name) and c.kind == pm.reads and bool(c.levels)
    return applies


def _paired(pm: PairMethod) -> Callable[[Context], list[Result]]:
    """The results of a method that scores each noisy parse against its clean parse, one
    row of statistics a pair (:class:`parsebench.metrics.base.PairMethod`): the same loop
    over levels and replicates for every such method, replicates pooled per sentence."""
    def results(ctx: Context) -> list[Result]:
        stats_of = pm.prepare(ctx.exp)
        out: list[Result] = []
        for level, versions in ctx.levels.items():
            per_rep = [[list(stats_of(c, n)) for c, n in pairs]
                       for pairs in _tree_pairs(ctx, versions)]
            stats = _pooled(per_rep)
            sums = np.asarray(stats, dtype=np.float64).reshape(-1, len(pm.columns)).sum(axis=0)
            value: dict[str, Any] = {
                **pm.figures(sums), "sentences": len(stats), "replicates": len(versions),
                "error_level_label": level.short, "stats": {pm.name: stats},
                "ci95": {fig: _interval(metric, stats) for fig, metric in pm.intervals}}
            sig = signature(**pm.signature(ctx.exp, level.label), **ctx.base)
            out.append((ctx.conf.name, pm.name, "brackets", level.label, sig, value))
        return out
    return results


METHODS: dict[str, Method] = {m.name: m for m in (
    Method("rows", "Bigert et al.", lambda c: bool(c.exp.rows and c.levels), _rows),
    Method("sentences", "Kakkonen", lambda c: c.exp.sentences and bool(c.levels), _sentences,
           "scored through the alignment (a match: the same dependencies away from the "
           "error words)"),
    Method("deps", "Lin; CoNLL 2018",
           lambda c: c.exp.deps and c.corpus.gold and c.kind == "deps", _deps,
           "the clean text against the gold key; the noisy levels through the alignment "
           "under f1"),
    Method("f1", "Hashemi & Hwa",
           lambda c: (c.corrected is not None or (c.moves_words and bool(c.levels)))
           and c.exp.f1 and c.kind == "deps", _f1,
           "scored through the alignment, by error type, with the attachment against the "
           "gold key"),
    *(Method(pm.name, pm.paper, _pair_applies(pm), _paired(pm)) for pm in PAIRED),
)}
"""Every method a run can score, by its key in ``[metrics]``."""


def applicability(kind: str) -> dict[str, str]:
    """What each method does with noise of KIND: the table a run's report shows."""
    return {name: "scored" if not KINDS[kind].moves_words else m.moved_words or
            "not applicable: it compares the parses word by word, and the words change"
            for name, m in METHODS.items()}


def score(ctx: Context) -> list[Result]:
    """The results of every method the experiment asks for that fits CTX."""
    out: list[Result] = []
    for m in METHODS.values():
        if m.applies(ctx) and (not ctx.moves_words or m.moved_words is not None):
            out += m.results(ctx)
    return out

"""A benchmark's report (an experiment over several corpora): the answers first (which
parser is most accurate on average, which is most robust, where the ranking flips),
then a table of treebanks x parsers (LAS with its interval, as the CoNLL 2018 shared
task's results page), the macro average and its ranking with tiers from the paired
tests, and each language's LAS points lost under noise, parser by parser.

Everything comes from the benchmark's stored results (:func:`parsebench.run.benchmark
.macro`); the per-corpus details are each corpus's own section of the report.
"""

from __future__ import annotations

import typing
from dataclasses import dataclass, field, replace
from typing import Any

from parsebench.common.record import OMIT, Interval, Record
from parsebench.model.level import level_order
from parsebench.model.scored import Scored
from parsebench.present import interval_text
from parsebench.present.tables import Table
from parsebench.run.benchmark_values import (
    BenchmarkRecord,
    BenchmarkTests,
    BenchmarkValue,
    CorpusLoss,
    MacroTest,
)


@dataclass(frozen=True)
class BenchmarkCorpus(Record):
    name: str
    lang: str | None
    experiment: str
    """The experiment its own results are stored under."""


@dataclass(frozen=True)
class CorpusFigure(Record):
    """A parser's LAS (or LAS lost) on one corpus at a level; in the API's
    ``BenchmarkResult.macro``, its macro average (``corpus == "macro"``) with its rank
    and letters."""

    corpus: str
    lang: str | None
    parser: str
    level: str
    figure: str
    """``LAS`` or ``LAS lost`` (from the clean text)."""
    value: float | None
    ci95: Interval | None
    rank: int | None = field(default=None, metadata=OMIT)
    """The macro average's rank at its level (1 the best); None on a corpus."""
    tier: str | None = field(default=None, metadata=OMIT)
    """The macro average's letters from the paired tests: parsers sharing one are not
    separated."""


@dataclass(frozen=True)
class MacroFigure(Record):
    """A parser's macro average over the corpora at a level: its rank and letters
    (``tier``) where it has a value."""

    parser: str
    level: str
    figure: str
    value: float | None
    ci95: Interval | None
    rank: int | None = field(default=None, metadata=OMIT)
    tier: str | None = field(default=None, metadata=OMIT)


@dataclass(frozen=True)
class BenchmarkSummary(Record):
    """A benchmark's content (results.json's ``summary``): per corpus and macro figures
    side by side, each level's paired tests, and the answers."""

    benchmark: str
    corpora: list[BenchmarkCorpus]
    parsers: list[str]
    levels: list[str]
    baselines: list[str]
    resampling: str | None
    per_corpus: list[CorpusFigure]
    macro: list[MacroFigure]
    tests: dict[str, list[MacroTest]]
    """Each level's paired tests on the macro average, as the benchmark's run stored
    them (:func:`parsebench.run.benchmark.macro`)."""
    answers: list[str] = field(default_factory=list)

    def ranked(self, level: str, figure: str) -> list[MacroFigure]:
        """The macro averages with a value at LEVEL, best first."""
        got = [m for m in self.macro if m.level == level and m.figure == figure
               and m.value is not None]
        return sorted(got, key=lambda m: m.rank or 0)

    def macro_of(self, parser: str, level: str, figure: str) -> MacroFigure | None:
        return next((m for m in self.macro if m.parser == parser and m.level == level
                     and m.figure == figure), None)

    def value_of(self, corpus: str, parser: str, level: str, figure: str
                 ) -> CorpusFigure | None:
        """The figure of PARSER on CORPUS at LEVEL (None: not measured)."""
        return next((x for x in self.per_corpus if x.corpus == corpus and x.parser == parser
                     and x.level == level and x.figure == figure), None)


def is_benchmark(config: dict[str, Any]) -> bool:
    """Whether a run's record is a benchmark's (its macro averages), not a corpus's."""
    return isinstance(config.get("corpora"), list)


def _iv_of(ci: list[float] | None) -> Interval | None:
    return None if ci is None else (ci[0], ci[1])


def summarize_benchmark(config: dict[str, Any], results: list[Scored]) -> BenchmarkSummary:
    """The benchmark's content from the run's record CONFIG and its RESULTS (the macro
    averages, as :func:`parsebench.run.benchmark.macro` makes them or
    :func:`parsebench.run.page_values.typed_result` reads them from the store)."""
    record = BenchmarkRecord.from_dict(config)
    corpora = [BenchmarkCorpus(c.name, c.lang, c.experiment) for c in record.corpora]
    levels = sorted({r.level for r in results if r.method == "benchmark"}, key=level_order)
    parsers = list(dict.fromkeys(r.parser for r in results if r.method == "benchmark"))
    at: dict[tuple[str, str], BenchmarkValue] = {
        (r.parser, r.level): r.value for r in results if r.method == "benchmark"}
    tests = {r.level: typing.cast(BenchmarkTests, r.value).tests for r in results
             if r.method == "benchmark-tests"}
    macro, per_corpus = [], []
    for level in levels:
        for p in parsers:
            v = at.get((p, level))
            if v is None:
                continue
            for what, fig in v.macro.items():
                macro.append(MacroFigure(p, level, _figure(what), fig.value,
                                         _iv_of(fig.ci95), fig.rank, fig.tier))
            for c in corpora:
                cell = v.corpora.get(c.name)
                if cell is not None:
                    per_corpus.append(CorpusFigure(c.name, c.lang, p, level, _figure("las"),
                                                   cell.las, _iv_of(cell.ci95)))
                if isinstance(cell, CorpusLoss):
                    per_corpus.append(CorpusFigure(c.name, c.lang, p, level, _figure("loss"),
                                                   cell.loss, _iv_of(cell.loss_ci95)))
    from parsebench.report.summary import baselines_of

    out = BenchmarkSummary(record.name, corpora, parsers, levels,
                           sorted(baselines_of(record.parsers)), record.resampling,
                           per_corpus, macro, tests)
    return replace(out, answers=_answers(out))


def _figure(what: str) -> str:
    """A stored figure's name as the CoNLL 2018 script prints it (``LAS lost``: the
    points lost from the clean text; ``UCM``, ``LCM``: exact match)."""
    from parsebench.metrics.dependency.conll18 import CONLL18_NAMES

    return "LAS lost" if what == "loss" else CONLL18_NAMES.get(what, what.upper())


def _value(s: BenchmarkSummary, corpus: str, parser: str, level: str, figure: str
           ) -> float | None:
    x = s.value_of(corpus, parser, level, figure)
    return None if x is None else x.value


def _pc(x: float | None) -> str:
    return "n/a" if x is None else f"{100 * x:.1f}"


def _iv(ci: Any) -> str:
    return interval_text(ci, 1)


def _answers(s: BenchmarkSummary) -> list[str]:
    """Which parser is most accurate on average, which is most robust, where the
    ranking flips: each a sentence from the figures and tests."""
    out = []
    clean = s.ranked("clean", "LAS")
    lead: list[str] = []
    """The parsers the paired tests do not separate from the first on clean text."""
    if clean:
        best = clean[0]
        lead = [best.parser] + [m.parser for m in clean[1:] if _together(m, best)]
        n = len(s.corpora)
        figure = (f"macro LAS {_pc(best.value)}% {_iv(best.ci95)} over "
                  f"{'1 corpus' if n == 1 else f'{n} corpora'}")
        out.append(f"Most accurate on average: {best.parser}, {figure}." if len(lead) == 1
                   else f"Most accurate on average: no parser alone; the paired tests do "
                   f"not separate {', '.join(lead)} (the first: {figure}).")
    noisy = [lv for lv in s.levels if lv != "clean"]
    if noisy:
        top = noisy[-1]
        lost = s.ranked(top, "LAS lost")
        # a baseline ignores the words, so it never changes its parse: robust, not good;
        # with only baselines there is no robustness to name
        informed = [m for m in lost if m.parser not in s.baselines]
        if informed:
            r = informed[0]
            aside = (" (the uninformed baselines left aside: they ignore the words)"
                     if len(informed) < len(lost) else "")
            with_r = [r.parser] + [m.parser for m in informed[1:] if _together(m, r)]
            figure = f"{_pc(r.value)} LAS points lost on average {_iv(r.ci95)}"
            out.append(f"Most robust at {top}: {r.parser}, {figure}{aside}."
                       if len(with_r) == 1 else
                       f"Most robust at {top}: no parser alone; the paired tests do not "
                       f"separate {', '.join(with_r)} (the first: {figure}){aside}.")
    order = [m.parser for m in clean]
    flips = []
    for c in s.corpora:
        vals = {p: _value(s, c.name, p, "clean", "LAS") for p in order}
        known = [p for p in order if vals[p] is not None]
        mine = sorted(known, key=lambda p: -(vals[p] or 0.0))
        if mine and vals[mine[0]] != vals[order[0]]:
            flips.append(f"{c.name} ({mine[0]} first)")
    for level in noisy:
        ranked = s.ranked(level, "LAS")
        if ranked and order and ranked[0].parser != order[0] and \
                ranked[0].value != next((m.value for m in ranked if m.parser == order[0]),
                                        None):
            flips.append(f"the macro average at {level} ({ranked[0].parser} first)")
    if order and len(lead) == 1:
        out.append("The ranking flips on " + "; ".join(flips) + "." if flips else
                   f"The ranking does not flip: {order[0]} is first on every corpus and "
                   "at every level.")
    return out


def _together(m: Any, first: Any) -> bool:
    """Whether the paired tests leave M in a tier with FIRST (not separated from it)."""
    return bool(set(m.tier or "") & set(first.tier or "")) or m.value == first.value


def _every_figure(s: BenchmarkSummary) -> list[Table]:
    """Each parser's macro average of every figure the corpora score, on the clean text
    (as the CoNLL 2018 results pages give them), with its interval."""
    figs = list(dict.fromkeys(m.figure for m in s.macro if m.level == "clean"))
    if figs == ["LAS"]:
        return []
    rows = []
    for p in s.parsers:
        row = [p]
        for f in figs:
            got = s.macro_of(p, "clean", f)
            row.append("n/a" if got is None or got.value is None
                       else f"{_pc(got.value)} {_iv(got.ci95)}")
        rows.append(row)
    many = len(s.corpora) != 1
    note = (f"The mean over the {len(s.corpora)} corpora of each corpus's figure (%), "
            f"with its 95% interval from a {s.resampling}." if many else
            "Over 1 corpus: the corpus's own figures and intervals (%).")
    return [Table("Macro average of every figure (clean text)", ["parser", *figs], rows,
                  notes=[note + " n/a: a corpus's parse lacks what the figure needs "
                         "(lemmas for Lemmas and BLEX)."], anchor="benchmark-figures",
                  stacked=True)]


def benchmark_tables(s: BenchmarkSummary) -> list[Table]:
    """The treebanks x parsers table, the macro ranking, and the degradation table."""
    parsers, corpora = s.parsers, s.corpora
    rows = []
    for c in corpora:
        row = [f"{c.name} ({c.lang})" if c.lang else c.name]
        for p in parsers:
            x = s.value_of(c.name, p, "clean", "LAS")
            row += [_pc(None if x is None else x.value), _iv(None if x is None else x.ci95)]
        rows.append(row)
    macro_row = ["macro average"]
    for p in parsers:
        got = s.macro_of(p, "clean", "LAS")
        macro_row += [_pc(None if got is None else got.value),
                      _iv(None if got is None else got.ci95)]
    rows.append(macro_row)
    headers = ["treebank"] + [h for p in parsers for h in (f"{p} LAS", "95% CI")]
    note = ("LAS: CoNLL 2018 labeled attachment F1 on the clean text (%), with its 95% "
            "interval over the corpus's sentences; macro average: the mean over the "
            f"corpora, its interval from a {s.resampling}.")
    out = [Table("LAS by treebank and parser", headers, rows, notes=[note],
                 anchor="benchmark-las", stacked=True), *_every_figure(s)]
    rank_rows = []
    for level in s.levels:
        for m in s.ranked(level, "LAS"):
            lost = s.macro_of(m.parser, level, "LAS lost")
            rank_rows.append([level, str(m.rank), m.parser, _pc(m.value),
                              _iv(m.ci95), m.tier or "",
                              "" if lost is None else _pc(lost.value),
                              "" if lost is None else _iv(lost.ci95),
                              "" if lost is None else lost.tier or ""])
    heads = ["level", "rank", "parser", "macro LAS", "95% CI", "tier", "LAS lost", "95% CI",
             "tier (lost)"]
    if len(s.levels) < 2:  # the clean text only: no points lost
        heads, rank_rows = heads[:6], [r[:6] for r in rank_rows]
    out.append(Table("Macro average: ranking and tiers", heads, rank_rows, notes=[
        "Tiers: parsers that share a letter are not separated by the paired tests on the "
        "macro average (the same stratified resamples for both parsers, Holm-corrected "
        "across the pairs at each level, p < 0.05); a is the best group. LAS lost: the "
        "macro average of each corpus's clean LAS minus its LAS at the level."],
        anchor="benchmark-ranking", stacked=True))
    noisy = [lv for lv in s.levels if lv != "clean"]
    if noisy:
        deg_rows = []
        for c in corpora:
            row = [c.lang or c.name, c.name]
            for level in noisy:
                row += [_pc(_value(s, c.name, p, level, "LAS lost")) for p in parsers]
            deg_rows.append(row)
        heads = ["language", "treebank"] + [f"{p} lost {lv}" for lv in noisy for p in parsers]
        out.append(Table("Degradation under noise: LAS points lost, by language and parser",
                         heads, deg_rows, notes=[
                             "Each corpus's clean LAS minus its LAS at the level (points); "
                             "its interval is in results.json."],
                         anchor="benchmark-degradation", stacked=True))
    return out


def benchmark_picture(s: BenchmarkSummary) -> tuple[str, str, Any] | None:
    """The language x parser picture of the LAS points lost at the highest noise level
    (file name, caption, plot); None without a noisy level."""
    from parsebench.report.plots import loss_grid

    noisy = [lv for lv in s.levels if lv != "clean"]
    if not noisy or not s.parsers:
        return None
    top = noisy[-1]
    rows = [f"{c.lang} ({c.name})" if c.lang else c.name for c in s.corpora]
    cells = [[_value(s, c.name, p, top, "LAS lost") for p in s.parsers] for c in s.corpora]
    caption = (f"LAS points lost at {top}, by language (treebank) and parser: each "
               "corpus's clean LAS minus its LAS there")
    return ("benchmark-degradation.png", caption,
            loss_grid(f"LAS points lost at {top}", rows, s.parsers, cells))


def benchmark_text(s: BenchmarkSummary) -> str:
    """The answers and the treebank table as the terminal shows them."""
    lines = [*s.answers, ""]
    for t in benchmark_tables(s)[:2]:
        lines.append(t.title)
        widths = [max(len(str(x)) for x in col) for col in zip(t.headers, *t.rows,
                                                               strict=True)]
        for row in [t.headers, *t.rows]:
            lines.append("  ".join(str(x).ljust(w) for x, w in zip(row, widths, strict=True)))
        lines.append("")
    return "\n".join(lines)

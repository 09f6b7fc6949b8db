"""The answers first: what a run's results say, computed from them, never written by hand.

For each question the run can answer, one sentence and its figure: which parser
is most accurate on the clean text, which is most robust at each error level,
which parsers the paired tests cannot separate (a compact letter display:
groups that may overlap), which parsers do not beat the best uninformed baseline
(``baseline:right`` and the like: below it, or not separated from it by the same paired
tests), where the noise hurts most, and every warning once, naming its figure, parser
and levels. Each item
carries the anchor of the table or plot it comes from (``link``); the report
(:mod:`parsebench.report.pages`) renders them at the top of the HTML and Markdown
pages and writes them to results.json as ``summary``.

The paired tests are here too (:func:`pairwise_tests`): the report's
significance section shows the same tests the letters are built from.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from parsebench.common.record import Interval, Record, plain
from parsebench.metrics.core.letters import letter_names, letters
from parsebench.metrics.core.scores import ALPHA
from parsebench.model.conditions import differing_conditions
from parsebench.model.level import level_order
from parsebench.model.scored import Scored
from parsebench.present import interval_after, p_value, percent_text, value
from parsebench.present.tables import level_label
from parsebench.report.summary_records import (
    BaselineItem,
    Entry,
    FigureTest,
    Hurt,
    Ranked,
    Summary,
    Verdict,
    Warned,
)

if TYPE_CHECKING:
    from parsebench.run.experiment import ParserConf

SIGNIFICANCE_SAMPLES = 2000


def _figure_label(title: str, metric: str, projection: str) -> str:
    from parsebench.metrics.registry import METHODS

    m = METHODS.get(metric)
    return f"{title} ({projection})" if m is not None and m.by_projection else title


def _reads(metric: str, projection: str) -> bool:
    """Whether METRIC's results of PROJECTION hold the statistics its figures rank (a
    method's breakdowns are other projections)."""
    from parsebench.metrics.registry import METHODS

    m = METHODS.get(metric)
    return m is None or m.projection is None or m.projection == projection


def _las_results(results: list[Scored], level: str | None = None) -> list[Scored]:
    """The results that hold the accuracy figure (LAS), at LEVEL or every level."""
    return [r for r in results if r.method == LAS.method and _reads(r.method, r.projection)
            and (level is None or r.level == level)]


def pairwise_tests(results: list[Scored]) -> list[FigureTest]:
    """Every pair of parsers on every stored figure and level: a paired bootstrap over
    the sentences (the same sentences and replicates for both), Holm-corrected within
    each figure and level (the pairs of parsers compared on it): over a whole study the
    tests number in the hundreds, and with 2,000 resamples no p could then fall below
    0.05."""
    import numpy as np

    from parsebench.metrics.core.resample import holm, paired_bootstrap
    from parsebench.metrics.registry import REGISTRY

    figures = [m for m in REGISTRY.values() if m.stored]
    groups: dict[tuple[str, str, str, str], list[tuple[str, Any]]] = {}
    for r in results:
        st = _field(r.value, "stats")
        if not isinstance(st, dict):
            continue
        for m in figures:
            assert m.stored is not None
            metric, key = m.stored
            if r.method == metric and key in st and _reads(metric, r.projection):
                label = _figure_label(m.title, metric, r.projection)
                groups.setdefault((label, m.name, r.projection, r.level), []).append(
                    (r.parser, st[key]))
    score_of = {m.name: m.score for m in figures}
    out: list[FigureTest] = []
    for (label, key, proj, level), entries in groups.items():
        pairs = [(entries[i], entries[j]) for i in range(len(entries))
                 for j in range(i + 1, len(entries))
                 if len(entries[i][1]) == len(entries[j][1]) and entries[i][1]]
        # enough resamples that the smallest p, Holm-adjusted over this family, can still
        # fall well below 0.05: m / (N + 1) < 1/400
        samples = max(SIGNIFICANCE_SAMPLES, 400 * len(pairs))
        family = [(pa, pb, paired_bootstrap(np.asarray(a, dtype=float),
                                            np.asarray(b, dtype=float), score_of[key],
                                            samples, 1))
                  for (pa, a), (pb, b) in pairs]
        for (pa, pb, t), p in zip(family, holm([t.p for *_, t in family]), strict=True):
            out.append(FigureTest(label, key, proj, level, pa, pb, t.delta,
                                  (t.ci[0], t.ci[1]) if t.ci else None, p,
                                  None if p is None else p < ALPHA, samples))
    return out


@dataclass(frozen=True)
class RankedScore:
    """A score the summary ranks parsers by: where a result holds it, its interval,
    which way is better."""

    score: str
    """Its name in metrics.registry.REGISTRY (the paired tests' ``method`` in JSON)."""
    method: str
    """The method that gives it (``Scored.method``: ``deps``, ``rows``...)."""
    name: str
    get: Callable[[Any], Any]
    ci: str
    higher_is_better: bool
    link: Callable[[Scored], str]
    note: str = ""
    """What it measures (:attr:`RankingFigure.note`)."""
    of: str = ""
    """What it is of (:attr:`RankingFigure.of`)."""


def _ranked_scores() -> list[RankedScore]:
    """Every score the methods rank parsers by (:attr:`Metric.headline`), by rank."""
    from parsebench.metrics.registry import METHODS

    out = []
    for m in METHODS.values():
        for sc in m.scores:
            h = sc.headline
            if h is not None:
                link = m.anchor or (lambda r: "x")
                out.append((h.rank, RankedScore(sc.name, m.name, h.title, h.get, h.ci,
                                                h.higher_is_better, link, h.note, h.of)))
    return [f for _, f in sorted(out, key=lambda x: x[0])]


RANKED = _ranked_scores()
LAS = RANKED[0]
"""The accuracy figure (rank 0): LAS against the gold key."""
ROBUSTNESS = tuple(RANKED[1:])
"""The robustness figures a summary ranks by, the first a run has."""


def _entry(r: Scored, fig: RankedScore) -> Entry:
    v = r.value
    ci = (plain(_field(v, "ci95")) or {}).get(fig.ci)
    return Entry(r.parser, value(fig.get(v)),
                 (ci[0], ci[1]) if isinstance(ci, list | tuple) and len(ci) == 2
                 and None not in ci else None)


def _letters_text(ranking: list[str], names: dict[str, str],
                  shown: Callable[[str], str] = str) -> str:
    return ", ".join(f"{shown(p)} {names[shown(p)]}" for p in ranking)


def _ranked(fig: RankedScore, rs: list[Scored], level: str, what: str,
            tests: list[FigureTest], link: str,
            baselines: Mapping[str, str] | None = None) -> Ranked | None:
    """One question answered: FIG's ranking among RS (one result a parser) at LEVEL.
    The BASELINES follow the real parsers, marked as baselines: a parser that ignores
    the words is the most robust and would otherwise lead every robustness sentence."""
    entries = [_entry(r, fig) for r in rs]
    known = sorted((e for e in entries if e.value is not None),
                   key=lambda e: -(e.value or 0.0) if fig.higher_is_better
                   else e.value or 0.0)
    base = set(baselines or ())
    by_figure = [e.parser for e in known]
    """The ranking the figure gives: its letters follow it (a is the best group), even
    where a baseline leads it and is shown last."""
    known = [e for e in known if e.parser not in base] + \
        [replace(e, baseline=True) for e in known if e.parser in base]

    def shown(p: str) -> str:
        return f"{p} (baseline)" if p in base else p
    missing = [e.parser for e in entries if e.value is None]
    if not known:
        return None
    mine = [t for t in tests if t.method == fig.score and t.level == level
            and t.projection == rs[0].projection]
    order = [e.parser for e in known]
    groups = letters(by_figure, mine)
    names = letter_names(by_figure, groups)
    best = known[0]
    figs = ", ".join(f"{shown(e.parser)} {percent_text(e.value)}{interval_after(e.ci95)}"
                     for e in known)
    # named as the best only when the paired tests separate it from every parser it is
    # ranked with (a baseline ahead of it is told apart: "of the parsers")
    rivals = [e for e in known[1:] if e.baseline == best.baseline]
    leader = best.parser if rivals and mine and all(
        e.value != best.value and not set(names.get(e.parser, "")) & set(names[best.parser])
        for e in rivals) else None
    if len(known) == 1:
        text = f"{what}: {figs}."
    else:
        word = "highest" if fig.higher_is_better else "lowest"
        among = " of the parsers" if base & set(order) and best.parser not in base else ""
        if leader is not None:
            text = f"{what}: {shown(best.parser)} has the {word} {fig.name}{among}, {figs}."
        elif mine:
            tied = [shown(e.parser) for e in [best, *rivals]
                    if e is best or set(names.get(e.parser, "")) & set(names[best.parser])
                    or e.value == best.value]
            text = (f"{what}: no parser alone has the {word} {fig.name}{among}; the paired "
                    f"tests do not separate {', '.join(tied)}; {figs}.")
        else:
            text = f"{what}: {figs}."
        if mine:
            shown_letters = _letters_text(order, {shown(p): n for p, n in names.items()},
                                          shown)
            if all(len(g) == 1 for g in groups):
                text += f" The paired tests separate every pair: {shown_letters}."
            elif len(groups) == 1:
                text += f" The paired tests separate no pair: {shown_letters}."
            else:
                text += (" Parsers that share a letter are not separated by the paired "
                         f"tests (Holm-corrected, p < {ALPHA}); parsers that share none "
                         f"are: {shown_letters}.")
        else:
            text += " No paired test compares them."
    if missing:
        text += f" No {fig.name} for {', '.join(missing)}."
    return Ranked(fig.name, fig.score, level, rs[0].projection, fig.higher_is_better,
                  known, missing, groups, names, len(mine), text, link, leader)


def _accuracy(results: list[Scored], tests: list[FigureTest]) -> Ranked | None:
    rs = _las_results(results, "clean")
    if not rs:
        return None
    return _ranked(LAS, rs, "clean", "Accuracy on clean text (LAS against the gold key)",
                   tests, LAS.link(rs[0]))


def _robustness_figure(results: list[Scored]
                       ) -> tuple[RankedScore, str, list[Scored]] | None:
    """The first figure of ROBUSTNESS the run has a number for, the projection (for a
    method whose figures differ by projection) that most parsers have, and its noisy
    results."""
    for fig in ROBUSTNESS:
        rs = [r for r in results if r.method == fig.method and r.level not in
              ("clean", "corrected") and isinstance(r.value, dict | Record)
              and value(fig.get(r.value)) is not None]
        if not rs:
            continue
        by_proj: dict[str, set[str]] = {}
        for r in rs:
            by_proj.setdefault(r.projection, set()).add(r.parser)
        proj = max(by_proj, key=lambda p: len(by_proj[p]))  # ties: the first
        return fig, proj, [r for r in results if r.method == fig.method
                           and r.projection == proj and r.level not in
                           ("clean", "corrected") and isinstance(r.value, dict | Record)]
    return None


def _field(v: Any, name: str) -> Any:
    """Figure NAME of a result's value: its record's attribute, or its JSON's key (a
    plugin's or page's value), None where it has none."""
    return v.get(name) if isinstance(v, dict) else getattr(v, name, None)


def _robustness(results: list[Scored], tests: list[FigureTest],
                baselines: Mapping[str, str] | None = None) -> list[Ranked]:
    got = _robustness_figure(results)
    if got is None:
        return []
    fig, proj, rs = got
    out = []
    levels = sorted({r.level for r in rs}, key=level_order)
    accuracy = {r.parser: value(LAS.get(r.value)) for r in _las_results(results, "clean")}
    for level in levels:
        at = [r for r in rs if r.level == level]
        on = fig.of.format(proj=proj)
        item = _ranked(fig, at, level, f"Robustness at {level_label(at[0])} "
                       f"({fig.name}{on})", tests, fig.link(at[0]), baselines)
        if item is not None:
            out.append(replace(item, sentence=item.sentence
                               + (_beside_accuracy(item.leader, accuracy, baselines)
                                  if item.leader else "")
                               + _baselines_ahead(item.ranking, fig, accuracy,
                                                  baselines or {})
                               + fig.note.format(proj=proj)))
    return out


def _baselines_ahead(ranking: list[Entry], fig: RankedScore,
                     accuracy: dict[str, float | None], baselines: Mapping[str, str]) -> str:
    """The baselines that score better than the best parser: why they look robust."""
    real = [e for e in ranking if e.parser not in baselines]
    if not real or real[0].value is None:
        return ""
    top = real[0].value
    ahead = [e.parser for e in ranking if e.parser in baselines and e.value is not None
             and (e.value > top if fig.higher_is_better else e.value < top)]
    if not ahead:
        return ""
    named = ", ".join(f"{p} ({baselines[p]}, LAS on clean text {percent_text(accuracy.get(p))})"
                      for p in ahead)
    many = len(ahead) > 1
    return (f" The baseline{'s' if many else ''} {named} score{'' if many else 's'} better: "
            "an uninformed baseline's parse does not depend on what the words are, so it "
            "looks robust; read robustness beside accuracy.")


def _beside_accuracy(robust: str, accuracy: dict[str, float | None],
                     baselines: Mapping[str, str] | None = None) -> str:
    """A warning when the most robust parser is not the most accurate: a parser that
    always returns a right-branching chain never changes its parse, so it is perfectly
    robust (``baseline:right``); robustness has to be read beside accuracy. When the
    most robust is one of the run's BASELINES (name: spec), the warning says so."""
    mine = accuracy.get(robust)
    better = [p for p, v in accuracy.items() if v is not None and mine is not None
              and v > mine]
    if baselines and robust in baselines:
        return (f" {robust} is an uninformed baseline ({baselines[robust]}): its parse "
                "does not depend on what the words are, so it looks robust; read robustness "
                f"beside accuracy (LAS on clean text {percent_text(mine)}"
                + (f", below {', '.join(better)}" if better else "") + ").")
    if not better:
        return ""
    return (f" {robust} is the most robust but less accurate on clean text (LAS) than "
            f"{', '.join(better)}: read robustness beside accuracy (a parser that always "
            "returns a right-branching chain never changes its parse).")


def baselines_of(parsers: Sequence[ParserConf]) -> dict[str, str]:
    """The run's uninformed baselines among its PARSERS (those whose spec is
    ``baseline:...``), by name: their spec."""
    return {p.name: p.spec for p in parsers
            if p.spec.partition(":")[0].strip() == "baseline"}


BASELINE_HINT = ("No uninformed baseline in this run (add [[parsers]] name = \"right\", "
                 "spec = \"baseline:right\" to see which parsers beat one).")


def _clean_las(results: list[Scored]) -> dict[str, Scored]:
    return {r.parser: r for r in _las_results(results, "clean")}


def best_baseline(results: list[Scored], baselines: Mapping[str, str]) -> str | None:
    """The baseline with the highest LAS on clean text (the first of a tie), or None."""
    clean = _clean_las(results)
    scored = [(value(LAS.get(clean[p].value)), p) for p in baselines if p in clean]
    known = [(v, p) for v, p in scored if v is not None]
    return max(known, key=lambda t: t[0])[1] if known else None


def against_baseline(parser: str, mine: float | None, base: str, theirs: float,
                     tests: list[FigureTest]) -> Verdict:
    """Whether PARSER (LAS MINE on clean text) beats the baseline BASE (LAS THEIRS): only
    when it scores above it and the paired test (Holm-corrected, the one the letters come
    from) separates them. A parser below or equal to it, not separated from it, without a
    test or without a LAS does not."""
    t = next((t for t in tests if t.method == LAS.score and t.level == "clean"
              and _reads(LAS.method, t.projection) and {t.a, t.b} == {parser, base}), None)
    diff: float | None = None
    ci: Interval | None = None
    p: float | None = None
    if t is not None and t.difference is not None:
        sign = 1 if t.b == parser else -1  # the test's difference is b - a
        diff = sign * t.difference
        if t.ci95:
            lo, hi = sorted(sign * x for x in t.ci95)
            ci = (lo, hi)
        p = t.p_holm
    by = "" if diff is None else f" by {100 * diff:.1f} points{interval_after(ci)}"
    pt = "" if p is None else f", p {'= ' if p >= 0.001 else ''}{p_value(p)}"
    if mine is None:
        beats, why = False, "has no LAS"
    elif mine < theirs:
        beats, why = False, f"scores below it ({percent_text(mine)}{pt})"
    elif mine == theirs:
        beats, why = False, f"scores the same ({percent_text(mine)})"
    elif t is None or t.significant is None:
        beats, why = False, f"scores above it{by}, but no paired test compares them"
    elif not t.significant:
        beats, why = False, (f"scores above it{by}, but the paired test does not separate "
                             f"them{pt}")
    else:
        beats, why = True, f"beats it{by}{pt}"
    return Verdict(parser, beats, mine, diff, ci, p, why)


def _baseline(results: list[Scored], tests: list[FigureTest],
              baselines: Mapping[str, str]) -> BaselineItem | None:
    """The best baseline's LAS on clean text and every other parser against it: the
    parsers that do not beat it are marked (``not_beating``), each with its reason; with
    no baseline in the run, one line on how to add one."""
    clean = _clean_las(results)
    if not clean:
        return None
    item = BaselineItem(None, None, None, None, [], [], "deps-accuracy", "")
    base = best_baseline(results, baselines)
    if not baselines:
        return replace(item, sentence=BASELINE_HINT)
    if base is None:
        return replace(item, sentence=f"No LAS for the baselines ({', '.join(baselines)}): "
                                      "no parser can be compared with one.")
    e = _entry(clean[base], LAS)
    assert e.value is not None  # the best baseline is one with a LAS
    verdicts = [against_baseline(p, value(LAS.get(r.value)), base, e.value, tests)
                for p, r in clean.items() if p not in baselines]
    marked = [v for v in verdicts if not v.beats]
    beating = [v for v in verdicts if v.beats]
    text = (f"Best uninformed baseline: {base} ({baselines[base]}), LAS on clean text "
            f"{percent_text(e.value)}{interval_after(e.ci95)}; a parser must beat it.")
    if not verdicts:
        text += " No other parser to compare with it."
    if marked:
        text += (" Not beating it (below it, or not separated from it by the paired test, "
                 f"Holm-corrected, p < {ALPHA}): "
                 + "; ".join(f"{v.parser} {v.why}" for v in marked) + ".")
    if beating:
        text += " Beating it: " + "; ".join(f"{v.parser} {v.why.removeprefix('beats it ')}"
                                            for v in beating) + "."
    return BaselineItem(base, baselines[base], e.value, e.ci95, marked, beating,
                        item.link, text)


def _hurts(results: list[Scored], baselines: Mapping[str, str]) -> list[Hurt]:
    """Where the noise hurts most, as each method reads its own figures
    (:attr:`parsebench.metrics.core.method.Method.hurts`). Not for the BASELINES: what a
    parser that ignores the words loses says nothing."""
    from parsebench.metrics.registry import METHODS

    results = [r for r in results if r.parser not in baselines]
    return [Hurt(**h) for m in METHODS.values() if m.hurts is not None
            for h in m.hurts(results)]


def _section_of() -> dict[str, tuple[str, Callable[[Scored], str]]]:
    from parsebench.metrics.registry import METHODS

    return {name: (m.section_title, m.anchor) for name, m in METHODS.items()
            if m.anchor is not None}


SECTION_OF = _section_of()
"""Each method's section title and the id of the table a result of it is in."""


def _cause(r: Scored, warning: str) -> tuple[str, list[str]]:
    """A warning without the parse it names (``udpipe:clean has no lemmas``: ``the parse
    has no lemmas``) nor the replicate (``rate=0.2/seed=3``: ``the noisy parse``), so that
    one cause is one line for every parser, level and replicate; and the replicates
    (``seed=3``) it named."""
    import re

    text = re.sub(rf"(?<![\w/]){re.escape(r.parser)}:[^\s']+", "the parse", warning)
    seeds: list[str] = []

    def replicate(m: re.Match[str]) -> str:
        seeds.append(m.group(1))
        return "the noisy parse"

    text = re.sub(rf"(?<![\w/]){re.escape(r.level)}/(seed=\d+)", replicate, text)
    return text, seeds


def _plain() -> frozenset[str]:
    """Projections a warning need not name: none, and each method's one projection."""
    from parsebench.metrics.registry import METHODS

    return frozenset({"-", "deps", *(m.projection for m in METHODS.values() if m.projection)})


_PLAIN = _plain()


def _warnings(results: list[Scored]) -> list[Warned]:
    """Every warning of the results once a cause, with the figures, parsers, projections
    and levels it was given for (12 lines "no lemmas", one a parser and level, are one)."""
    seen: dict[str, Warned] = {}
    for r in results:
        v = r.value
        if not isinstance(v, dict | Record) or r.method not in SECTION_OF:
            continue
        for w in _field(v, "warnings") or []:
            cause, seeds = _cause(r, str(w))
            fig, link = SECTION_OF[r.method]
            item = seen.setdefault(cause, Warned(cause, [], [], [], [], [], link(r), ""))
            for got, x in ((item.figures, fig), (item.parsers, r.parser),
                           (item.levels, level_label(r)), (item.projections, r.projection),
                           *((item.replicates, s) for s in seeds)):
                if x not in got:
                    got.append(x)
    out = []
    shown = [r for r in results if r.method in SECTION_OF]
    for text in differing_conditions((r.parser, r.signature) for r in shown):
        parsers = list(dict.fromkeys(r.parser for r in shown))
        out.append(Warned(text, [], parsers, [], [], [], SECTION_OF[shown[0].method][1](
            shown[0]), text))
    for item in seen.values():
        on = [p for p in item.projections if p not in _PLAIN]
        reps = item.replicates
        out.append(replace(item, sentence=(
            f"{item.text} ({', '.join(item.figures)}{': ' + ', '.join(on) if on else ''}; "
            f"{', '.join(item.parsers)}; {', '.join(item.levels)}"
            + (f"; replicate{'s' if len(reps) > 1 else ''} {', '.join(reps)}"
               if reps else "") + ")")))
    return out


def summarize(results: list[Scored], tests: list[FigureTest] | None = None,
              baselines: Mapping[str, str] | None = None) -> Summary:
    """The summary of one experiment's RESULTS (with their ``stats``); TESTS are its
    pairwise tests when already computed; BASELINES the run's uninformed baselines
    (:func:`baselines_of`)."""
    tests = pairwise_tests(results) if tests is None else tests
    baselines = baselines or {}
    return Summary(_accuracy(results, tests), _baseline(results, tests, baselines),
                   _robustness(results, tests, baselines), _hurts(results, baselines),
                   _warnings(results), tests)

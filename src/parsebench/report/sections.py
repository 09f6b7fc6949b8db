"""The report's sections, one function a method: Bigert et al.'s rows, Kakkonen's
sentences, Lin's dependencies and where noise hurts them, Hashemi & Hwa's robustness
F1 and learner-like errors by type, EVALB's brackets and flat keys, the attack, the
paired tests between parsers and the speed, each from an experiment's results to a
:class:`~parsebench.report.tables.Section`, all listed once in :func:`sections`. Each
number's signature is printed under its table; a 95% interval stands beside its figure.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from parsebench.metrics.robustness.bigert import RowsFigures
from parsebench.metrics.robustness.hashemi_hwa import (
    F1Corrected,
    F1Counts,
    F1Figures,
    F1Levels,
    TypeFigures,
)
from parsebench.metrics.robustness.kakkonen import SentencesReplicate, SentencesValue
from parsebench.present import anchor, ci95, p_value, value
from parsebench.report.examples import examples_section
from parsebench.report.plots import (
    DegradationPoint,
    LevelSeries,
    against_level,
    degradation,
    time_by_length,
)
from parsebench.report.summary import SIGNIFICANCE_SAMPLES, FigureTest
from parsebench.report.tables import (
    CI_NOTE,
    Section,
    Table,
    level_free_signature,
    pct,
    results_of,
)
from parsebench.run.page_values import SpeedValue
from parsebench.scored import Scored, level_order

if TYPE_CHECKING:  # the attack's module imports NumPy, which a cached re-run does without
    from parsebench.attack import AttackValue, Damage, Success


def _interval(iv: Sequence[float | None] | None) -> str:
    """A 95% interval over sentences as text in percent, "n/a" where there is none."""
    if iv is None or len(iv) != 2 or iv[0] is None or iv[1] is None:
        return "n/a"
    return f"[{100 * float(iv[0]):.2f}, {100 * float(iv[1]):.2f}]"


def _rows_of(r: Scored) -> RowsFigures:
    v = r.value
    assert isinstance(v, RowsFigures), "a rows result read without its record"
    return v


def _within(wb: bool | float | None) -> str:
    """Whether the real degradation lies within the bounds: of one file, or the share of
    the replicates where it does."""
    if wb is None:
        return "–"
    return ("yes" if wb else "no") if isinstance(wb, bool) else f"{100 * float(wb):.0f}% of runs"


def rows_section(results: list[Scored]) -> Section | None:
    rows = results_of(results, "rows")
    if not rows:
        return None
    sec = Section("Degradation, row by row (Bigert et al., Tables 3-12)")
    groups: dict[tuple[str, str], list[Scored]] = {}
    for r in rows:
        groups.setdefault((r.parser, r.projection), []).append(r)
    lines: dict[str, dict[str, list[DegradationPoint]]] = {}
    for (parser, proj), rs in groups.items():
        vs = [_rows_of(r) for r in rs]
        has_gold = any(v.gold is not None for v in vs)
        has_cal = any(v.degr_calibrated is not None for v in vs)
        # two tables a parser and projection, so that each fits a 1,280 px window
        headers = ["error level", "misspelled", "parse differs", "95% CI", "degr. lower",
                   "degr. upper", "degr. estimate", "95% CI"]
        acc_headers = ["error level", "acc. lower", "acc. upper", "acc. estimate"]
        if has_gold:
            headers += ["real degr.", "95% CI", "within bounds"]
            acc_headers += ["real acc."]
        if has_cal:
            headers += ["calibrated degr.", "95% interval"]
        t = Table(f"{parser}, {proj}: degradation", headers, [],
                  anchor=anchor("rows", parser, proj))
        acc = Table(f"{parser}, {proj}: accuracy under noise", acc_headers, [])
        for v in vs:
            label = v.error_level_label or ""
            row = [label, pct(v.error_level), pct(v.differs), _interval(v.differs_ci95),
                   pct(v.degr_lower), pct(v.degr_upper), pct(v.degr_estimate),
                   _interval(_estimate_ci(v))]
            acc_row = [label, pct(v.acc_lower), pct(v.acc_upper), pct(v.acc_estimate)]
            if has_gold:
                g = v.gold
                row += [pct(None if g is None else g.degr_real),
                        _interval(v.degr_real_ci95),
                        _within(None if g is None else g.within_bounds)]
                acc_row.append(pct(None if g is None else g.acc_real))
            if has_cal:
                row.append(pct(v.degr_calibrated))
                if v.calibration is not None and v.calibration.interval is not None:
                    row.append(_interval(v.calibration.interval))
                else:
                    row.append("per replicate")
            t.rows.append(row)
            acc.rows.append(acc_row)
            for w in v.warnings:
                note = f"warning ({label}): {w}"
                if note not in t.notes:
                    t.notes.append(note)
        t.notes += [CI_NOTE + "; the estimate's interval is parse differs' scaled as the "
                    "estimate is (3/4 of it over the clean accuracy, which is fixed)",
                    "signature: " + level_free_signature(rs[0])]
        sec.tables += [t, acc]
        points = lines.setdefault(proj, {})
        for v in vs:
            x, lo, hi, est = (value(f) for f in (v.error_level, v.degr_lower, v.degr_upper,
                                                 v.degr_estimate))
            if x is None or lo is None or hi is None or est is None:
                continue
            points.setdefault(parser, []).append(DegradationPoint(
                x, lo, hi, est, _estimate_ci(v),
                None if v.gold is None else value(v.gold.degr_real),
                v.degr_real_ci95, value(v.degr_calibrated), v.sentences_resampled))
    check = _bounds_check(groups)
    if check is not None:
        sec.tables.insert(0, check)
    for proj, by_parser in lines.items():
        if any(by_parser.values()):
            real = any(p.real is not None for pts in by_parser.values() for p in pts)
            cal = any(p.calibrated is not None for pts in by_parser.values() for p in pts)
            sec.images.append((f"degradation-{proj.replace('+', '-')}.png",
                               f"Degradation of the {proj} rows against the share of "
                               "misspelled words, one colour a parser: the band between "
                               "Bigert et al.'s bounds, the estimate solid"
                               + (", the real degradation against the gold key dashed"
                                  if real else "")
                               + (", the calibrated estimate dotted" if cal else "")
                               + "; bars: 95% intervals over sentences",
                               degradation(f"Degradation ({proj})", by_parser)))
    return sec


def _estimate_ci(v: RowsFigures) -> list[float] | None:
    """The unsupervised estimate's 95% interval over sentences: the estimate is
    3/4 (1 - acr_0n) / acr with acr fixed, and 1 - acr_0n is the parse-differs share,
    so its interval is parse differs' scaled the same way."""
    iv = v.differs_ci95
    acr = value(v.acr)
    if not isinstance(iv, list) or len(iv) != 2 or None in iv or not acr:
        return None
    return [min(0.75 * float(iv[0]) / acr, 1), min(0.75 * float(iv[1]) / acr, 1)]


def _bounds_check(groups: dict[tuple[str, str], list[Scored]]) -> Table | None:
    """How the unsupervised estimates fared against the gold: the share of runs (level
    x replicate) whose real degradation lies within the bounds, and |estimate - real|."""
    t = Table("The estimates against the real degradation (every level and replicate)",
              ["parser", "projection", "runs", "real within bounds", "mean |estimate - real|",
               "max |estimate - real|", "mean estimate - real"], [])
    for (parser, proj), rs in groups.items():
        runs = [(x.gold, x.degr_estimate) for r in rs
                for x in (_rows_of(r).replicates or [_rows_of(r)])
                if x.gold is not None and x.degr_estimate is not None]
        if not runs:
            continue
        inside = sum(bool(g.within_bounds) for g, _ in runs)
        diffs = [float(value(est) or 0) - float(value(g.degr_real) or 0) for g, est in runs]
        t.rows.append([parser, proj, str(len(runs)),
                       f"{inside}/{len(runs)} ({100 * inside / len(runs):.0f}%)",
                       f"{100 * sum(map(abs, diffs)) / len(diffs):.2f} points",
                       f"{100 * max(map(abs, diffs)):.2f} points",
                       f"{100 * sum(diffs) / len(diffs):+.2f} points"])
    return t if t.rows else None


def sentences_section(results: list[Scored]) -> Section | None:
    rs = results_of(results, "sentences")
    if not rs:
        return None
    sec = Section("Sentence robustness (Kakkonen, Table 1)")
    t = Table("Robustness: share of noisy sentences whose parse is the clean parse's",
              ["parser", "error level", "sentences", "failures", "unlabeled", "95% CI",
               "labeled", "95% CI"], [], anchor="sentences")
    series: dict[str, LevelSeries] = {}
    for r in rs:
        v = r.value
        assert isinstance(v, SentencesValue), "a sentences result read without its record"
        label = v.error_level_label or ""
        t.rows.append([r.parser, label, str(v.sentences), str(v.failures), pct(v.unlabeled),
                       _interval(v.ci95.unlabeled), pct(v.labeled), _interval(v.ci95.labeled)])
        reps: Sequence[SentencesValue | SentencesReplicate] = v.replicates or [v]
        for which, got, ci in (("unlabeled", [x.unlabeled for x in reps], v.ci95.unlabeled),
                               ("labeled", [x.labeled for x in reps], v.ci95.labeled)):
            vals = [f for f in got if f is not None]
            iv: Sequence[float | None] = ci or [None, None]
            if vals:
                series.setdefault(f"{r.parser} @ {which}", []).append(
                    (label, sum(vals) / len(vals), min(vals), max(vals), *iv[:2]))
    t.notes += [CI_NOTE, "signature: " + level_free_signature(rs[0])]
    sec.tables.append(t)
    if series:
        sec.images.append(("robustness.png", "Sentence robustness against error level: one "
                           "colour a parser, unlabeled solid, labeled dashed; bands: the "
                           "replicates' min-max; bars: 95% intervals over sentences",
                           against_level("Sentence robustness (Kakkonen)",
                                         "robustness (%)", series)))
    return sec


def _lowest_f1_first(types: Mapping[str, TypeFigures] | None
                     ) -> list[tuple[str, TypeFigures]]:
    """A robustness F1 result's error types, the lowest F1 first (n/a last)."""
    return sorted((types or {}).items(), key=lambda kv: (kv[1].f1 is None, kv[1].f1 or 0))


def _las(acc: Any) -> float | None:
    """The aligned LAS of an attachment record, None where there is none (no gold)."""
    return None if acc is None else acc.las


def types_section(results: list[Scored]) -> Section | None:
    """Learner-like errors (noise kind grammar): robustness F1 against the clean parse and
    LAS against the gold key through the errors' alignment, by level and by ERRANT type."""
    rs = [(r, r.value) for r in results_of(results, "f1") if isinstance(r.value, F1Levels)]
    if not rs:
        return None
    rs.sort(key=lambda rv: (rv[0].parser, level_order(rv[0].level)))
    t = Table("Robustness F1 of the noisy parse against the clean one, and attachment "
              "against the gold key, through the errors' alignment",
              ["parser", "error level", "sentences", "F1", "95% CI", "aligned LAS",
               "LAS 95% CI"],
              [[r.parser, v.error_level_label, str(v.sentences), pct(v.f1),
                _interval(v.f1_ci95), pct(_las(v.accuracy)),
                _interval(v.aligned_las_ci95)] for r, v in rs], anchor="types")
    t.notes += [CI_NOTE, "signature: " + level_free_signature(rs[0][0])]
    by = Table("By error type (ERRANT's names): each sentence counts under the types of its "
               "errors; lowest F1 first", ["parser", "error level", "type", "sentences", "F1",
                                            "95% CI", "aligned LAS", "LAS 95% CI"], [],
               anchor="types-by-type")
    for r, v in rs:
        by.rows += [[r.parser, v.error_level_label, k, str(b.sentences), pct(b.f1),
                     _interval(b.ci95.f1), pct(_las(b.accuracy)),
                     _interval(b.ci95.aligned_las)]
                    for k, b in _lowest_f1_first(v.by_type)]
    ops = Table("By operation: M (a word missing), U (a word unnecessary), R (a word "
                "replaced, reordered, split or merged)",
                ["parser", "error level", "operation", "sentences", "F1", "95% CI",
                 "aligned LAS", "LAS 95% CI"], [])
    for r, v in rs:
        for op, o in v.by_operation.items():
            ops.rows.append([r.parser, v.error_level_label, op, str(o.sentences), pct(o.f1),
                             _interval(o.ci95.f1), pct(o.accuracy.las),
                             _interval(o.ci95.aligned_las)])
    return Section("Learner-like errors by type (Hashemi & Hwa through the alignment)",
                   [x for x in (t, ops, by) if x.rows])


def f1_section(results: list[Scored]) -> Section | None:
    rs = [(r, r.value) for r in results_of(results, "f1") if isinstance(r.value, F1Corrected)]
    if not rs:
        return None
    t = Table("Robustness F1 of ungrammatical sentences against their corrections",
              ["parser", "precision", "recall", "F1", "95% CI", "shared", "ungrammatical deps",
               "grammatical deps"],
              [[r.parser, pct(v.precision), pct(v.recall), pct(v.f1),
                _interval(v.ci95.f1), str(v.shared), str(v.ungrammatical_deps),
                str(v.grammatical_deps)] for r, v in rs])
    t.notes.append("signature: " + rs[0][0].signature)
    sec = Section("Robustness F1 (Hashemi & Hwa)", [t])
    by = Table("Robustness F1 by the number of errors in the sentence (word edits against "
               "the correction)", ["parser", "errors", "sentences", "precision", "recall",
                                   "F1"], [])
    for r, v in rs:
        by.rows += [[r.parser, *row] for row in _error_bins(v.by_errors)]
    if by.rows:
        sec.tables.append(by)
    typed = Table("By ERRANT's error type (each sentence counts under the types of its "
                  "errors; ERRANT aligned and typed every pair); lowest F1 first",
                  ["parser", "type", "sentences", "F1", "95% CI"], [])
    for r, v in rs:
        typed.rows += [[r.parser, k, str(b.sentences), pct(b.f1), _interval(b.ci95.f1)]
                       for k, b in _lowest_f1_first(v.by_type) if b.sentences >= 10]
    if typed.rows:
        typed.notes.append("types with fewer than 10 sentences are left out (results.json "
                           "has them)")
        sec.tables.append(typed)
    return sec


ERROR_BINS = (("0", 0, 0), ("1", 1, 1), ("2", 2, 2), ("3", 3, 3), ("4-6", 4, 6),
              ("7+", 7, 10**9))


def _error_bins(by_errors: Mapping[str, F1Figures]) -> list[list[str]]:
    """Robustness F1 of the sentences with 0, 1, 2, 3, 4-6 and 7+ errors, micro-averaged
    from the counts (the JSON keeps every count)."""
    rows = []
    for label, lo, hi in ERROR_BINS:
        got = [b for n, b in by_errors.items() if lo <= int(n) <= hi]
        if not got:
            continue
        c = F1Counts()
        for b in got:
            c.add(b.counts())
        rows.append([label, str(c.sentences), pct(c.precision), pct(c.recall), pct(c.f1)])
    return rows


def _speed_section(results: list[Scored]) -> Section | None:
    rs = results_of(results, "speed")
    if not rs:
        return None
    speeds = [r.value for r in rs]
    assert all(isinstance(v, SpeedValue) for v in speeds), "speed read without its record"
    t = Table("Parser speed on the distinct sentences of the corpus (clean and noisy)",
              ["parser", "sentences", "words", "failures", "parse seconds", "words/s"],
              [[r.parser, str(v.sentences), str(v.words), str(v.failures),
                f"{v.parse_seconds:.2f}", f"{v.words_per_second or 0:,.0f}"]
               for r, v in zip(rs, speeds, strict=True)])
    series: dict[str, Sequence[tuple[int, float]]] = {
        r.parser: [(int(n), d.mean) for n, d in sorted(v.seconds_by_length.items(),
                                                       key=lambda kv: int(kv[0]))]
        for r, v in zip(rs, speeds, strict=True)}
    return Section("Speed (Lin, Fig. 18.1)", [t], [("time-by-length.png",
                                                     "Mean parse time of the distinct "
                                                     "sentences of each length, one line a "
                                                     "parser (a measurement of this machine, "
                                                     "no interval)",
                                                     time_by_length(series))])


def _attack_section(results: list[Scored]) -> Section | None:
    """``[attack]``: the worst case at each budget beside random misspellings at the same
    budget (docs/attack.md); the attacked sentences are drawn with the examples."""
    rs = results_of(results, "attack")
    if not rs:
        return None

    def share(x: Success | Damage | None) -> str:
        return "n/a" if x is None else pct(x.rate)

    def iv(x: Success | Damage) -> str:
        return _interval(x.ci95) if isinstance(x.ci95, list) else "n/a"

    rows = []
    for r in rs:
        v: AttackValue = r.value
        rand, ratio = v.random, v.ratio
        rci = None if ratio is None else ratio.ci95
        calls = v.calls.per_sentence_mean
        rows.append([r.parser, r.level, f"{v.attacked} of {v.sentences}",
                     share(v.success), iv(v.success), share(rand.success if rand else None),
                     share(v.damage), iv(v.damage), share(rand.damage if rand else None),
                     "n/a" if ratio is None or ratio.value is None else f"{ratio.value:.2f}",
                     "n/a" if not rci or None in rci else f"[{rci[0]:.2f}, {rci[1]:.2f}]",
                     "n/a" if calls is None else f"{calls:.1f}"])
    t = Table("The worst K misspellings a sentence against K random ones",
              ["parser", "budget", "attacked", "success", "95% CI", "success (random)",
               "damage", "95% CI", "damage (random)", "ratio", "95% CI",
               "parses a sentence"], rows,
              notes=["success: sentences whose parse of the words not misspelled changed; "
                     "damage: the share of those words whose head or relation changed, "
                     "against the parser's own clean parse (no gold); random: K "
                     "misspellings as noise makes them, same seed; ratio: damage under "
                     "attack over random damage. The sentences the attack hurt most are "
                     "drawn with the examples below."])
    return Section("Worst-case misspellings (attack)", [t])


def _significance_section(tests: list[FigureTest]) -> Section | None:
    """Which parsers differ, figure by figure and level by level: the paired bootstrap
    tests of :func:`parsebench.report.summary.pairwise_tests` (the summary's letters come from
    them), Holm-corrected within each figure and level."""
    if not tests:
        return None
    t = Table("Which parsers differ (paired bootstrap over sentences)",
              ["figure", "level", "parser B - parser A", "difference", "95% CI", "p (Holm)",
               "significant at 0.05"], [], anchor="significance")
    for x in tests:
        p = x.p_holm
        t.rows.append([x.figure, x.level, f"{x.b} - {x.a}", pct(x.difference),
                       ci95({"ci95": {"d": list(x.ci95 or ())}}, "d"),
                       p_value(p, 4),
                       "n/a" if p is None else ("yes" if x.significant else "no")])
    t.notes.append(f"At least {SIGNIFICANCE_SAMPLES:,} paired resamples of the sentences "
                   "(seed 1), the same for both parsers; p = (1 + #{|d* - mean d*| >= |d|}) / "
                   "(1 + N), Holm-corrected within each figure and level (the pairs of "
                   "parsers compared on it)")
    return Section("Is the difference real?", [t])


def _named(ref: str) -> Callable[[list[Scored]], Section | None]:
    """A method's section by its ``module:function`` name."""
    from importlib import import_module

    module, _, name = ref.partition(":")
    made: Callable[[list[Scored]], Section | None] = getattr(import_module(module),
                                                                     name)
    return made


def baseline_note(name: str, spec: str) -> str:
    """What a robustness table says under an uninformed baseline's row."""
    return (f"{name} ({spec}) is an uninformed baseline: its parse ignores what the words "
            "are, so it can look perfectly robust (a chain never changes); read its "
            "robustness beside its accuracy (LAS).")


def _mark_baselines(sec: Section, baselines: Mapping[str, str], robust: bool) -> None:
    """Each baseline's row (or its own table's title) says that it is a baseline; under a
    table of a ROBUST section, a note says why its robustness is to be read beside its
    accuracy."""
    for t in sec.tables:
        marked = []
        if t.headers and t.headers[0] == "parser":
            for row in t.rows:
                if row and row[0] in baselines:
                    marked.append(row[0])
                    row[0] = f"{row[0]} (baseline)"
        for b in baselines:
            for sep in (", ", ": "):
                if t.title.startswith(b + sep):
                    t.title = f"{b} (baseline){t.title[len(b):]}"
                    marked.append(b)
                    break
        if robust:
            t.notes += [baseline_note(b, baselines[b]) for b in dict.fromkeys(marked)]


def sections(results: list[Scored], tests: list[FigureTest],
             baselines: Mapping[str, str] | None = None) -> list[Section]:
    """Each method's sections in the order of the methods (a section two methods share,
    once), then the run's own: the attack, the paired tests, speed, drawn examples. The
    rows of the run's uninformed BASELINES (name: spec) say so; in the robustness
    sections (every method's but the accuracy's, and the attack) with a note."""
    from parsebench.metrics.registry import METHODS
    from parsebench.report.summary import LAS

    refs = dict.fromkeys(ref for m in METHODS.values() for ref in m.sections)
    accuracy = set(METHODS[LAS.method].sections) if LAS.method in METHODS else set()
    makers = [*((_named(ref), ref not in accuracy) for ref in refs), (_attack_section, True),
              (lambda _: _significance_section(tests), False), (_speed_section, False),
              (examples_section, False)]
    out = []
    for make, robust in makers:
        sec = make(results)
        if sec is not None:
            _mark_baselines(sec, baselines or {}, robust)
            out.append(sec)
    return out

"""How Bigert et al.'s figures are shown: the report's section (their Tables 3-12 a
parser and projection, the estimates against the real degradation, the degradation
plot asked for) and ``robustness rows``'s text on the terminal."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from parsebench.metrics.robustness.bigert_records import ReplicateSummary, RowsCommand, RowsFigures
from parsebench.model.scored import Scored
from parsebench.present import anchor, interval_text, percent, value
from parsebench.present.plots import BoundedPoint, bounded
from parsebench.present.tables import (
    CI_NOTE,
    Section,
    Table,
    level_free_signature,
    pct,
    results_of,
)


def _p(x: Any, width: int = 5, digits: int = 2) -> str:
    return percent(x, width, digits)


def _rows_of(r: Scored) -> RowsFigures:
    v = r.value
    assert isinstance(v, RowsFigures), "a rows result read without its record"
    return v

def _within_runs(wb: bool | float | None) -> str:
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
    lines: dict[str, dict[str, list[BoundedPoint]]] = {}
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
            row = [label, pct(v.error_level), pct(v.differs), interval_text(v.differs_ci95),
                   pct(v.degr_lower), pct(v.degr_upper), pct(v.degr_estimate),
                   interval_text(_estimate_ci(v))]
            acc_row = [label, pct(v.acc_lower), pct(v.acc_upper), pct(v.acc_estimate)]
            if has_gold:
                g = v.gold
                row += [pct(None if g is None else g.degr_real),
                        interval_text(v.degr_real_ci95),
                        _within_runs(None if g is None else g.within_bounds)]
                acc_row.append(pct(None if g is None else g.acc_real))
            if has_cal:
                row.append(pct(v.degr_calibrated))
                if v.calibration is not None and v.calibration.interval is not None:
                    row.append(interval_text(v.calibration.interval))
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
            points.setdefault(parser, []).append(BoundedPoint(
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
                               bounded(f"Degradation ({proj})", by_parser,
                                       "misspelled words (%)", "degradation (%)")))
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


SUBTYPES_NOTE = ("(rows compare whole relations, subtypes included as in nsubj:pass; LAS "
                 "compares only the universal part, so it can be higher)")
"""Why the clean accuracy from the gold is not the LAS of the same parse."""


def rows_table(r: RowsCommand, clean: str, noisy: list[str], projection: str) -> str:
    """Bigert et al.'s Tables 3-12: error level, parse differs, bounds (estimate), real values."""
    reps = f" ({len(noisy)} replicates, means)" if len(noisy) > 1 else ""
    acr = value(r.acr)
    gold = r.gold
    source = "from the gold" if gold is not None and r.acr_given is None else "given"
    lines = [f"Robustness of {', '.join(noisy)} against {clean}{reps}",
             f"projection {projection}, {int(value(r.rows) or 0)} rows; clean accuracy "
             + (f"{100 * acr:.2f}% ({source})" if acr is not None else "unknown"),
             *([SUBTYPES_NOTE] if gold is not None and projection in ("head+deprel", "deprel")
               else []),
             "",
             "Err lev  Parse differs  Estimated degradation   Real degr.  "
             "Estimated accuracy       Real accur."]
    real_d = _p(gold.degr_real) if gold else "    -"
    real_a = _p(gold.acc_real) if gold else "    -"
    lines.append(f"{_p(r.error_level):>7}  {_p(r.differs):>13}  "
                 f"{_p(r.degr_lower)} - {_p(r.degr_upper)} ({_p(r.degr_estimate)})"
                 f"  {real_d:>10}  {_p(r.acc_lower)} - {_p(r.acc_upper)} "
                 f"({_p(r.acc_estimate)})  {real_a:>10}")
    if r.ci95 is not None:
        lines.append("95% interval over sentences: parse differs " + _ci(r.ci95, "differs")
                     + (f", real degradation {_ci(r.ci95, 'degr_real')}" if gold else ""))
    cal = r.calibration
    if r.degr_calibrated is not None and cal is not None:
        ratio = value(cal.ratio) or 0.0
        lo, hi = (value(x) for x in cal.interval) if cal.interval is not None else (None, None)
        lines += ["", "Calibrated on an annotated sample (net loss per changed row "
                  f"{ratio:.3f}, {int(value(cal.sample_sentences) or 0)} sentences)",
                  "               degradation  accuracy",
                  f"paper's est.   {_p(r.degr_estimate, 11)}  {_p(r.acc_estimate, 8)}",
                  f"calibrated     {_p(r.degr_calibrated, 11)}  "
                  f"{_p(r.acc_calibrated, 8)}"
                  + (f"   95% interval {_p(lo, 1)} - {_p(hi, 1)}" if lo is not None else "")]
        if gold:
            lines.append(f"real           {_p(gold.degr_real, 11)}  "
                         f"{_p(gold.acc_real, 8)}")
    if isinstance(r.differs, ReplicateSummary):
        d = r.differs
        lines.append(f"parse differs over replicates: std {100 * d.std:.3f}, "
                     f"min {100 * d.min:.2f}, max {100 * d.max:.2f}")
    lines += ["", "Where the changes are (distance in words to the nearest misspelling)",
              "distance      rows  changed  changed%  share of changes"
              + ("  clean-right%" if gold else "")]
    for dist, cell in r.spread.items():
        row = (f"{dist:<8} {value(cell.rows) or 0:9.0f} {value(cell.changed) or 0:8.0f}"
               f"  {_p(cell.changed_rate, 8)}  {_p(cell.share_of_changes, 16)}")
        if gold:
            row += f"  {_p(cell.changed_clean_accuracy, 12)}"
        lines.append(row)
    if gold:
        cases = gold.cases
        lines += ["", "With gold: case frequencies (Table 1) and deviations (eqs. 8, 11, 15, 22)",
                  "  ".join(f"x_{k} {_p(x, 6, 3)}" for k, x in cases.items()),
                  f"acr_m0 {_p(gold.acr_m0)}  acr_mn {_p(gold.acr_mn)}  "
                  f"epsilon {_p(gold.epsilon)}  delta {_p(gold.delta)}  "
                  f"gamma {_p(gold.gamma)}  lambda {_p(gold.lambda_)}",
                  "real degradation within the bounds: "
                  + _within_replicates(gold.within_bounds)]
        a = gold.assumption
        lines.append(f"assumption (Appendix A): x_aab/(1-acr_0n) {_p(a.aab_share_of_changes)}"
                     f" vs acr {_p(a.acr)}; x_aab >= 3 x_aba + x_abc: "
                     + _within_replicates(a.condition_holds))
    lines += ["", f"signature: {r.signature}"]
    return "\n".join(lines) + "\n"

def _ci(intervals: Mapping[str, list[float] | None] | None, figure: str) -> str:
    """The 95% interval of FIGURE among a result's INTERVALS (by figure name), as text."""
    return interval_text((intervals or {}).get(figure))

def _within_replicates(x: bool | float) -> str:
    """A file's verdict, or over replicates the share of files where it holds (a number:
    "yes" for one replicate of two in bounds would hide the other)."""
    if isinstance(x, bool):
        return "yes" if x else "no"
    return f"{100 * x:.0f}% of replicates"

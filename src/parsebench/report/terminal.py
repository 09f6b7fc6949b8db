"""Text tables for the terminal: the layouts of the papers' tables, plain and diffable."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from parsebench.metrics.dependency.conll18 import CONLL18_NAMES, ENHANCED_NAMES, SPAN_METRICS
from parsebench.metrics.dependency.lin import ROOT_ARC_FIELDS
from parsebench.present import interval_text, percent, value
from parsebench.scored import Scored

if TYPE_CHECKING:  # eval deps does not import the flat or robustness metrics
    from collections.abc import Mapping, Sequence

    from parsebench.metrics.constituency.gaizauskas import FlatEval
    from parsebench.metrics.dependency.figures import (
        Bucket,
        Confusion,
        DepsEval,
        DepsScores,
        ExactMatch,
    )
    from parsebench.metrics.robustness.bigert import RowsCommand
    from parsebench.metrics.robustness.hashemi_hwa import F1Command, F1Figures
    from parsebench.metrics.robustness.kakkonen import SentencesCommand


def _pct(x: float | None) -> str:
    return percent(x, 6)


def deps_table(scores: DepsEval, gold: str, system: str, notes: Sequence[str] = (),
               selected: bool = False, by: str | None = None, counts: bool = False,
               graphs: bool = False) -> str:
    """``eval deps``'s text: every ratio beside the counts it is of (recall = key arcs
    found in the answer / key, precision = answer arcs found in the key / answer: with
    --select the two counts differ). NOTES are lines shown above the signature
    (validity, the alignment); SELECTED: Lin's counts are of a selection, which the
    CoNLL 2018 table below them is not; BY: the field of the breakdown; COUNTS:
    udeval's table of counts; GRAPHS: either file has enhanced graphs (ELAS, EULAS)."""
    lines = [
        f"Dependency evaluation of {system} against {gold}",
        f"{scores.gold_words} gold words in {scores.gold_sentences} sentences",
        "",
        "Lin" + (" (the dependencies --select chose)" if selected else ""),
        "              precision  recall      F1     key in answer   answer   in key",
    ]
    for name, f in (("unlabeled", scores.unlabeled), ("labeled", scores.labeled)):
        lines.append(f"{name:<13} {_pct(f.precision):>9} {_pct(f.recall):>7} "
                     f"{_pct(f.f1):>7} {f.key:7d} {f.matched:9d} {f.answer:8d} "
                     f"{f.answer_found:8d}")
    lines.append("recall = key arcs in the answer / key; precision = answer arcs in the key "
                 "/ answer")
    whole = "; all words: --select does not restrict it" if selected else ""
    if scores.alignment is not None:  # --align words: no character spans, not the script's
        lines += ["", ("CoNLL 2018 counts" if counts else "CoNLL 2018 metrics")
                  + " over words aligned by edit distance (parsebench's, not "
                  + ("udeval's" if counts else "conll18_ud_eval.py's")
                  + ", which aligns on characters)" + whole,
                  *(counts_table(scores, graphs) if counts
                    else conll18_table(scores, graphs)),
                  *ALIGNED_ROWS]
    elif counts:
        lines += ["", "CoNLL 2018 and IWPT counts (the table of udeval --counts)" + whole,
                  *counts_table(scores, graphs)]
    else:
        lines += ["", "CoNLL 2018 (the table of conll18_ud_eval.py -v"
                  + (", and udeval's ELAS and EULAS)" if graphs else ")") + whole,
                  *conll18_table(scores, graphs)]
    lines.append("Exact match: UCM " + _share(scores.ucm) + ", LCM "
                 + _share(scores.lcm) + f" of {scores.ucm.sentences} sentences")
    if not scores.punct:
        lines.append("Words tagged PUNCT have no attachment scores (--no-punct).")
    if scores.confusion is not None:
        lines += ["", *confusion_lines(scores.confusion)]
    if scores.by is not None and by in ROOT_ARC_FIELDS:
        lines += ["", *breakdown_lines(by or "", scores.by)]
    elif scores.by is not None:
        field = by or ""
        lines += ["", f"By {field} (in ans: key arcs in the answer, in key: answer arcs in "
                  "the key)"]
        head = f"{field:<16}"
        if field == "category":
            head += " sentences avg.len"
        head += ("    key answer in ans in key  prec. recall in ans in key  l.prec "
                 "l.recall")
        lines.append(head)
        items = sorted(scores.by.items(), key=lambda kv: (-(kv[1].unlabeled.key
                                                            + kv[1].unlabeled.answer), kv[0]))
        for name, b in items:
            row = f"{name[:16]:<16}"
            if field == "category":
                avg = b.words / b.sentences if b.sentences else 0.0
                row += f" {b.sentences:9d} {avg:7.2f}"
            u, lab = b.unlabeled, b.labeled
            row += (f" {u.key:6d} {u.answer:6d} {u.matched:6d} {u.answer_found:6d} "
                    f"{_pct(u.precision)} {_pct(u.recall)} {lab.matched:6d} "
                    f"{lab.answer_found:6d}  {_pct(lab.precision)} {_pct(lab.recall)}")
            lines.append(row)
    if notes:
        lines += ["", *notes]
    lines += ["", f"signature: {scores.signature}"]
    return "\n".join(lines) + "\n"


ALIGNED_ROWS = [
    "Words: system words paired with a gold word (matched or substituted); Tokens: tokens",
    "whose words pair, in order, with a gold token's words; Sentences: sentences whose",
    "paired words are all of one gold sentence's paired words (the boundaries alone); the",
    "other rows over the paired words, an arc right when both ends pair with the gold's."]
"""What the rows of ``eval deps --align words``'s table are: none is the script's (it pairs
words on characters, this table by edit distance)."""


def _share(x: ExactMatch) -> str:
    return "n/a" if x.accuracy is None else f"{100 * x.accuracy:.2f}% ({x.matched})"


ORDER = {"arc-length": ["1", "2", "3-6", "7+", "root"], "direction": ["left", "right", "root"],
         "sentence-length": ["1-10", "11-20", "21-30", "31-40", "41+"],
         "depth": [*map(str, range(1, 7)), "7+", "cycle"]}


def breakdown_lines(field: str, by: Mapping[str, Bucket]) -> list[str]:
    """MaltEval's breakdowns: attachment (unlabeled) and labeled attachment precision,
    recall and F1 a group, the key's arcs grouped by the key's values, the answer's by
    the answer's; the root's arc counts."""
    lines = [f"By {field} (the root's arc included; in ans: key arcs in the answer, in key: "
             "answer arcs in the key)",
             f"{field:<16}    key answer in ans in key   UA P   UA R  UA F1 in ans in key"
             "   LA P   LA R  LA F1"]
    for name in [x for x in ORDER.get(field, []) if x in by]:
        u, lab = by[name].unlabeled, by[name].labeled
        lines.append(f"{name:<16} {u.key:6d} {u.answer:6d} {u.matched:6d} "
                     f"{u.answer_found:6d} {_pct(u.precision)} "
                     f"{_pct(u.recall)} {_pct(u.f1)} {lab.matched:6d} "
                     f"{lab.answer_found:6d} {_pct(lab.precision)} "
                     f"{_pct(lab.recall)} {_pct(lab.f1)}")
    return lines


def confusion_lines(table: Confusion) -> list[str]:
    """Gold labels down, system labels across, on the aligned words."""
    names = table.labels
    width = max(7, *(len(x) for x in names)) + 1
    lines = ["Confusion (rows: gold, columns: system; aligned words)",
             " " * width + "".join(f"{x[:9]:>10}" for x in names)]
    for name, row in zip(names, table.matrix, strict=True):
        lines.append(f"{name:<{width}}" + "".join(f"{n:10d}" for n in row))
    return lines



def conll18_table(scores: DepsScores, enhanced: bool = False) -> list[str]:
    """The thirteen metrics laid out as the shared task's script prints them, and with
    ENHANCED ELAS and EULAS after them as udeval does; "n/a" where the system cannot
    have a figure (no heads, no words, no enhanced graph)."""
    def cell(x: float | None) -> str:
        return f"{'n/a':>10}" if x is None else f"{100 * x:10.2f}"

    lines = ["Metric     | Precision |    Recall |  F1 Score | AligndAcc",
             "-----------+-----------+-----------+-----------+-----------"]
    names = {**CONLL18_NAMES, **(ENHANCED_NAMES if enhanced else {})}
    for key, name in names.items():
        d = scores.metric(key)
        lines.append(f"{name:11}|{cell(d.precision)} |{cell(d.recall)} |"
                     f"{cell(d.f1)} |" + ("" if key in SPAN_METRICS
                                          or key in ENHANCED_NAMES
                                          else cell(d.aligned_accuracy)))
    return lines


def counts_table(scores: DepsScores, enhanced: bool = False) -> list[str]:
    """udeval's ``--counts`` table: correct, gold, predicted and aligned of each metric
    (the aligned words' count for Words, blank where a metric is not on aligned words)."""
    lines = ["Metric     | Correct   |      Gold | Predicted | Aligned",
             "-----------+-----------+-----------+-----------+-----------"]
    names = {**CONLL18_NAMES, **(ENHANCED_NAMES if enhanced else {})}
    for key, name in names.items():
        d = scores.metric(key)
        aligned = d.aligned or (d.correct if key == "words" else "")
        lines.append(f"{name:11}|{d.correct:10} |{d.gold:10} |{d.system:10} |"
                     f"{aligned:10}")
    return lines


def flat_table(scores: FlatEval, key: str, response: str) -> str:
    """``eval flat``'s text: the counts and Gaizauskas et al.'s three shares."""
    c = scores
    return (
        f"Flat-key evaluation of {response} against {key}\n"
        "KeyCons  RespCons  Matched  KCV   Recall  Precision  Conformance\n"
        f"{c.key_constituents:7d} {c.response_constituents:9d} {c.matched:8d} "
        f"{c.violated:4d}  {_pct(c.recall):>7} {_pct(c.precision):>10} "
        f"{_pct(c.conformance):>12}\n"
        f"\nsignature: {c.signature}\n"
    )


_v = value


def _p(x: Any, width: int = 5, digits: int = 2) -> str:
    return percent(x, width, digits)


SUBTYPES_NOTE = ("(rows compare whole relations, subtypes included as in nsubj:pass; LAS "
                 "compares only the universal part, so it can be higher)")
"""Why the clean accuracy from the gold is not the LAS of the same parse."""


def rows_table(r: RowsCommand, clean: str, noisy: list[str], projection: str) -> str:
    """Bigert et al.'s Tables 3-12: error level, parse differs, bounds (estimate), real values."""
    reps = f" ({len(noisy)} replicates, means)" if len(noisy) > 1 else ""
    acr = _v(r.acr)
    gold = r.gold
    source = "from the gold" if gold is not None and r.acr_given is None else "given"
    lines = [f"Robustness of {', '.join(noisy)} against {clean}{reps}",
             f"projection {projection}, {int(_v(r.rows) or 0)} rows; clean accuracy "
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
        ratio = _v(cal.ratio) or 0.0
        lo, hi = (_v(x) for x in cal.interval) if cal.interval is not None else (None, None)
        lines += ["", "Calibrated on an annotated sample (net loss per changed row "
                  f"{ratio:.3f}, {int(_v(cal.sample_sentences) or 0)} sentences)",
                  "               degradation  accuracy",
                  f"paper's est.   {_p(r.degr_estimate, 11)}  {_p(r.acc_estimate, 8)}",
                  f"calibrated     {_p(r.degr_calibrated, 11)}  "
                  f"{_p(r.acc_calibrated, 8)}"
                  + (f"   95% interval {_p(lo, 1)} - {_p(hi, 1)}" if lo is not None else "")]
        if gold:
            lines.append(f"real           {_p(gold.degr_real, 11)}  "
                         f"{_p(gold.acc_real, 8)}")
    from parsebench.metrics.robustness.bigert import ReplicateSummary

    if isinstance(r.differs, ReplicateSummary):
        d = r.differs
        lines.append(f"parse differs over replicates: std {100 * d.std:.3f}, "
                     f"min {100 * d.min:.2f}, max {100 * d.max:.2f}")
    lines += ["", "Where the changes are (distance in words to the nearest misspelling)",
              "distance      rows  changed  changed%  share of changes"
              + ("  clean-right%" if gold else "")]
    for dist, cell in r.spread.items():
        row = (f"{dist:<8} {_v(cell.rows) or 0:9.0f} {_v(cell.changed) or 0:8.0f}"
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
                  + _within(gold.within_bounds)]
        a = gold.assumption
        lines.append(f"assumption (Appendix A): x_aab/(1-acr_0n) {_p(a.aab_share_of_changes)}"
                     f" vs acr {_p(a.acr)}; x_aab >= 3 x_aba + x_abc: "
                     + _within(a.condition_holds))
    lines += ["", f"signature: {r.signature}"]
    return "\n".join(lines) + "\n"


def _ci(intervals: Mapping[str, list[float] | None] | None, figure: str) -> str:
    """The 95% interval of FIGURE among a result's INTERVALS (by figure name), as text."""
    return interval_text((intervals or {}).get(figure))


def _within(x: bool | float) -> str:
    """A file's verdict, or over replicates the share of files where it holds (a number:
    "yes" for one replicate of two in bounds would hide the other)."""
    if isinstance(x, bool):
        return "yes" if x else "no"
    return f"{100 * x:.0f}% of replicates"


def sentences_table(r: SentencesCommand, clean: str, noisy: list[str]) -> str:
    """Kakkonen's Table 1: overall and per number of misspellings, unlabeled and labeled."""
    by = r.by_errors
    levels = [k for k in by if k != "0"] or list(by)
    lines = [f"Sentence robustness of {', '.join(noisy)} against {clean}",
             f"{r.sentences} sentence pairs with errors, {r.failures} with a "
             f"failed parse (counted as non-matches)", "",
             f"{'':<10} {'Overall':>8} " + " ".join(f"{k:>7}" for k in levels),
             f"{'sentences':<10} {r.sentences:8d} "
             + " ".join(f"{by[k].sentences:7d}" for k in levels)]
    lines.append(f"{'unlabeled':<10} {_p(r.unlabeled, 8)} "
                 + " ".join(_p(by[k].unlabeled, 7) for k in levels))
    lines.append(f"{'labeled':<10} {_p(r.labeled, 8)} "
                 + " ".join(_p(by[k].labeled, 7) for k in levels))
    lines.append(f"95% interval over sentences: unlabeled {interval_text(r.ci95.unlabeled)}, "
                 f"labeled {interval_text(r.ci95.labeled)}")
    drop = r.relative_drop
    least = drop.min_sentences
    if drop.unlabeled is not None:
        frm = levels[0] if drop.from_ is None else drop.from_
        to = levels[-1] if drop.to is None else drop.to
        lines.append(f"relative drop from {frm} to {to} errors: unlabeled "
                     f"{_p(drop.unlabeled, 1, 1)}%, labeled {_p(drop.labeled, 1, 1)}%"
                     + (f" (the fewest and most errors with {least} pairs or more)"
                        if least else ""))
    elif least and len([k for k in levels if k != "0"]) > 1:
        lines.append(f"relative drop: n/a (fewer than two numbers of errors with {least} "
                     "pairs or more)")
    if r.unchanged_sentences:
        zero = r.unchanged

        def own(x: float | None) -> str:
            return "n/a" if x is None else f"{_p(x, 1, 1)}%"

        lines.append(f"{r.unchanged_sentences} pairs without an error are left out of "
                     f"the overall score (their own: unlabeled "
                     f"{own(zero.unlabeled if zero else None)}, labeled "
                     f"{own(zero.labeled if zero else None)})")
    lines += ["", f"signature: {r.signature}"]
    return "\n".join(lines) + "\n"


def f1_table(r: F1Command, grammatical: str, ungrammatical: str) -> str:
    """Hashemi & Hwa's robustness F1, with the breakdowns when there are any."""
    ci = r.ci95
    lines = [f"Robustness F1 of {ungrammatical} against {grammatical}",
             f"{r.sentences} sentence pairs, {r.failures} with a failed parse", "",
             "              precision  recall      F1  shared  U deps  U err  G deps  G err",
             _f1_row("all", r),
             f"95% interval over sentence pairs: precision {interval_text(ci.precision)}, "
             f"recall {interval_text(ci.recall)}, F1 {interval_text(ci.f1)}"]
    for title, groups in (("by number of errors", r.by_errors), ("by error type", r.by_type)):
        if groups:
            lines += ["", title]
            lines += [_f1_row(k, v) for k, v in groups.items()]
    acc = r.accuracy
    if acc:
        lines += ["", "Attachment against the gold key (the ungrammatical parse through the "
                  "alignment, error words left out)",
                  "                 UAS     LAS   words"]
        for side, a in (("clean", acc.clean), ("noisy", acc.noisy)):
            lines.append(f"{side:<12} {_p(a.uas, 7)} {_p(a.las, 7)} {a.words:7d}")
        if ci.noisy_las is not None:
            lines.append(f"95% interval: clean LAS {interval_text(ci.clean_las)}, noisy LAS "
                         f"{interval_text(ci.noisy_las)}")
        if acc.by_type:
            lines += ["", "noisy attachment by error type"]
            lines += [f"{k[:12]:<12} {_p(a.uas, 7)} {_p(a.las, 7)} {a.words:7d}"
                      for k, a in acc.by_type.items()]
    lines += ["", f"signature: {r.signature}"]
    return "\n".join(lines) + "\n"


def _f1_row(name: str, c: F1Figures) -> str:
    return (f"{name[:12]:<12} {_p(c.precision, 11)} {_p(c.recall, 7)} {_p(c.f1, 7)}"
            f" {c.shared:7d} {c.ungrammatical_deps:7d} "
            f"{c.ungrammatical_error_deps:6d} {c.grammatical_deps:7d} "
            f"{c.grammatical_error_deps:6d}")


def times_table(stages: list[list[Any]], wall: float) -> str:
    """Where a run's time went: the whole, from its start to its report written, then
    each stage ([name, seconds, remark]), the stages adding up to the whole."""
    from parsebench.progress import duration

    width = max(len(str(s[0])) for s in stages)
    lines = [f"time: {duration(wall)} from the start to the report written"]
    lines += [f"  {name:<{width}} {duration(secs):>10}" + (f"  ({remark})" if remark else "")
              for name, secs, remark in stages]
    return "\n".join(lines) + "\n"


def summary_table(results: list[Scored]) -> str:
    """The end-of-run table on the terminal: the headline of every result whose method
    has one (:attr:`parsebench.metrics.core.method.Method.headline`), and parse speed."""
    from parsebench.metrics.registry import METHODS
    from parsebench.run.page_values import typed_result

    lines = [f"{'parser':<16} {'metric':<10} {'projection':<12} {'level':<18} headline"]
    for r in results:
        parser, metric, proj, level, v = r.parser, r.method, r.projection, r.level, r.value
        m = METHODS.get(metric)
        if m is not None and m.headline is not None:
            head = m.headline(typed_result(r).value)  # a reused result is read as stored
        elif metric == "speed":
            v = typed_result(r).value  # a SpeedValue, a reused one too
            head = f"{v.words_per_second or 0:,.0f} words/s, {v.failures} failures"
        else:
            continue
        lines.append(f"{parser:<16} {metric:<10} {proj:<12} {level:<18} {head}")
    return "\n".join(lines) + "\n"

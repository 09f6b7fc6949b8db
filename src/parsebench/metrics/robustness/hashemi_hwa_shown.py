"""How Hashemi & Hwa's robustness F1 is shown: the report's sections (F1 against the
corrections, by number and type of errors; learner-like noise by level, operation and
ERRANT type, with LAS through the alignment) and ``robustness f1``'s text on the
terminal."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from parsebench.metrics.robustness.hashemi_hwa_records import (
    F1Command,
    F1Corrected,
    F1Counts,
    F1Figures,
    F1Levels,
    TypeFigures,
)
from parsebench.model.level import level_order
from parsebench.model.scored import Scored
from parsebench.present import interval_after, interval_text, percent, percent_text, value
from parsebench.present.tables import (
    CI_NOTE,
    Section,
    Table,
    level_free_signature,
    level_label,
    pct,
    results_of,
)


def _p(x: Any, width: int = 5, digits: int = 2) -> str:
    return percent(x, width, digits)


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
                interval_text(v.f1_ci95), pct(_las(v.accuracy)),
                interval_text(v.aligned_las_ci95)] for r, v in rs], anchor="types")
    t.notes += [CI_NOTE, "signature: " + level_free_signature(rs[0][0])]
    by = Table("By error type (ERRANT's names): each sentence counts under the types of its "
               "errors; lowest F1 first", ["parser", "error level", "type", "sentences", "F1",
                                           "95% CI", "aligned LAS", "LAS 95% CI"], [],
               anchor="types-by-type")
    for r, v in rs:
        by.rows += [[r.parser, v.error_level_label, k, str(b.sentences), pct(b.f1),
                     interval_text(b.ci95.f1), pct(_las(b.accuracy)),
                     interval_text(b.ci95.aligned_las)]
                    for k, b in _lowest_f1_first(v.by_type)]
    ops = Table("By operation: M (a word missing), U (a word unnecessary), R (a word "
                "replaced, reordered, split or merged)",
                ["parser", "error level", "operation", "sentences", "F1", "95% CI",
                 "aligned LAS", "LAS 95% CI"], [])
    for r, v in rs:
        for op, o in v.by_operation.items():
            ops.rows.append([r.parser, v.error_level_label, op, str(o.sentences), pct(o.f1),
                             interval_text(o.ci95.f1), pct(o.accuracy.las),
                             interval_text(o.ci95.aligned_las)])
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
                interval_text(v.ci95.f1), str(v.shared), str(v.ungrammatical_deps),
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
        typed.rows += [[r.parser, k, str(b.sentences), pct(b.f1), interval_text(b.ci95.f1)]
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


def hurts(results: list[Scored]) -> list[dict[str, Any]]:
    """With learner-like errors, where the noise hurts most: each level's error types
    with the lowest robustness F1 (those of 10 sentences or more, where there are)."""
    out: list[dict[str, Any]] = []
    for r in results:
        if r.method != "f1" or r.level in ("clean", "corrected") \
                or not isinstance(r.value, F1Levels):
            continue
        types = [(f, str(k), b) for k, b in r.value.by_type.items()
                 if (f := value(b.f1)) is not None]
        if not types:
            continue
        enough = [t for t in types if t[2].sentences >= 10] or types
        lowest = sorted(enough, key=lambda t: (t[0], t[1]))[:3]
        listed = ", ".join(f"{k} {percent_text(f)}{interval_after(b.ci95.f1)} "
                           f"({b.sentences} sentences)" for f, k, b in lowest)
        out.append({"parser": r.parser, "level": r.level,
                    "figure": "robustness F1 by error type",
                    "types": [k for _, k, _ in lowest],
                    "sentence": f"{r.parser} at {level_label(r)}: the error types with "
                                f"the lowest robustness F1 are {listed}.",
                    "link": "types-by-type"})
    return out

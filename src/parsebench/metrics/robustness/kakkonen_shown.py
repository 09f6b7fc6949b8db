"""How Kakkonen's sentence robustness is shown: the report's section (his Table 1 a
parser and error level, the robustness plot asked for) and ``robustness sentences``'s
text on the terminal."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from parsebench.metrics.robustness.kakkonen_records import (
    SentencesCommand,
    SentencesReplicate,
    SentencesValue,
)
from parsebench.model.scored import Scored
from parsebench.present import interval_text, percent
from parsebench.present.plots import LevelSeries, against_level
from parsebench.present.tables import CI_NOTE, Section, Table, level_free_signature, pct, results_of


def _p(x: Any, width: int = 5, digits: int = 2) -> str:
    return percent(x, width, digits)


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
                       interval_text(v.ci95.unlabeled), pct(v.labeled),
                       interval_text(v.ci95.labeled)])
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

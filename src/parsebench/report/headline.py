"""The summary's headline table: each parser's LAS on the clean text and at every noise
level, with its 95% interval; the points it loses from the clean level, with the paired
interval; at each level the letters of the paired tests (a compact letter display:
parsers that share a letter are not separated); the best uninformed baseline's row, and
a mark on the parsers that do not beat it. One table, so that the answer to "which
parser, and how much does the noise cost it" is read in one place before the details.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from parsebench.common.record import Interval
from parsebench.metrics.core.letters import letter_names, letters
from parsebench.metrics.core.scores import ALPHA
from parsebench.model.level import level_order
from parsebench.model.scored import Scored
from parsebench.noise.kinds import DEFAULT_KIND, KINDS
from parsebench.present import interval_text, value
from parsebench.present.tables import Table
from parsebench.report.headline_records import Cell, Headline, LevelColumn, Row

if TYPE_CHECKING:  # the summary's names are imported where used: headline runs first
    from parsebench.report.summary_records import FigureTest

NOT_ABOVE = "†"
"""The mark of a parser that does not beat the best baseline."""

def _ci(ci: list[float] | None) -> Interval | None:
    return None if ci is None else (ci[0], ci[1])


def _loss_ci(clean: Scored, noisy: Scored) -> Interval | None:
    """The 95% interval of clean LAS minus noisy LAS: a paired bootstrap over the
    sentences (a noisy sentence's replicates pooled, as the stored statistics are)."""
    import numpy as np

    from parsebench.metrics.core.resample import paired_bootstrap
    from parsebench.metrics.registry import REGISTRY
    from parsebench.report.summary import LAS, SIGNIFICANCE_SAMPLES

    metric = REGISTRY[LAS.score]
    assert metric.stored is not None
    key = metric.stored[1]
    a, b = ((r.value.stats or {}).get(key) for r in (clean, noisy))
    if not a or not b or len(a) != len(b):
        return None
    t = paired_bootstrap(np.asarray(a, dtype=float), np.asarray(b, dtype=float),
                         metric.score, SIGNIFICANCE_SAMPLES, 1)
    return None if t.ci is None else (0.0 - t.ci[1], 0.0 - t.ci[0])  # no -0.0


def headline(results: list[Scored], tests: list[FigureTest],
             baselines: Mapping[str, str], best: str | None,
             not_beating: set[str]) -> Headline | None:
    """The table's content: every parser that is not a baseline and the BEST baseline,
    ranked by LAS on clean text; NOT_BEATING the parsers the summary marks. None without
    dependency scores."""
    from parsebench.present.tables import level_label
    from parsebench.report.summary import LAS

    deps = [r for r in results if r.method == "deps" and r.projection == "deprel"]
    if not deps:
        return None
    at = {(r.parser, r.level): r for r in deps}
    shown = [p for p in dict.fromkeys(r.parser for r in deps)
             if p not in baselines or p == best]
    levels = sorted({r.level for r in deps}, key=level_order)

    def las(p: str, level: str) -> float | None:
        r = at.get((p, level))
        return None if r is None else value(LAS.get(r.value))

    def rank(level: str) -> list[str]:
        known = [p for p in shown if las(p, level) is not None]
        return sorted(known, key=lambda p: -(las(p, level) or 0.0))

    names: dict[str, dict[str, str]] = {}
    for level in levels:
        order = rank(level)
        at_level = [t for t in tests if t.method == LAS.score and t.level == level
                    and t.projection == "deprel" and t.a in order and t.b in order]
        names[level] = letter_names(order, letters(order, at_level)) if at_level else {}
    ranked = rank("clean") if "clean" in levels else shown
    rows = []
    for p in [*ranked, *(p for p in shown if p not in ranked)]:
        cells = []
        for level in levels:
            r = at.get((p, level))
            mine, clean = las(p, level), las(p, "clean")
            loss = None if level == "clean" or mine is None or clean is None \
                else clean - mine
            cells.append(Cell(level, mine, None if r is None else _ci(r.value.interval("las")),
                              names[level].get(p, ""), loss,
                              None if loss is None else
                              _loss_ci(at[(p, "clean")], at[(p, level)])))
        rows.append(Row(p, p in baselines, None if best is None or p in baselines
                        else p not in not_beating, cells))
    label = {level: level_label(next(r for r in deps if r.level == level))
             for level in levels}
    return Headline(LAS.name, [LevelColumn(x, label[x]) for x in levels], best,
                    any(names.values()), rows, "deps-accuracy")


def _pc(x: float | None) -> str:
    return "n/a" if x is None else f"{100 * x:.1f}"


def _iv(ci: Interval | None) -> str:
    return interval_text(ci, 1)


def headline_table(h: Headline) -> Table:
    """H (:func:`headline`) as a Table: a row a parser; a column a level's LAS (its
    interval and letters folded into the cell) and, at a noisy level, the points lost."""
    headers = ["parser"]
    for lv in h.levels:
        headers += [f"LAS {lv.label}", "95% CI"] + (["letters"] if h.letters else [])
        if lv.level != "clean":
            headers += [f"lost {lv.label}", "95% CI"]
    rows = []
    for row in h.rows:
        name = row.parser + (" (best baseline)" if row.baseline else
                             f" {NOT_ABOVE}" if row.beats_baseline is False else "")
        cells = [name]
        for c in row.cells:
            cells += [_pc(c.value), _iv(c.ci95)] + ([c.letters] if h.letters else [])
            if c.level != "clean":
                cells += [_pc(c.loss), _iv(c.loss_ci95)]
        rows.append(cells)
    notes = ["LAS: CoNLL 2018 labeled attachment F1 against the gold key (%), with its 95% "
             "interval over sentences (replicates pooled); lost: the LAS points lost from "
             "the clean text, with the 95% interval of a paired bootstrap over the same "
             "sentences."]
    if h.letters:
        notes.append("Letters: at each level, parsers that share a letter are not separated "
                     f"by the paired tests (Holm-corrected, p < {ALPHA}); a is the best "
                     "group.")
    if any(row.beats_baseline is False for row in h.rows):
        notes.append(f"{NOT_ABOVE}: does not beat the best baseline ({h.baseline}) on "
                     "clean LAS: below it, or not separated from it by the paired test.")
    return Table("Headline: LAS at each level, and the points lost", headers,
                 rows, notes=notes, anchor="headline", stacked=True)


def noise_caveat(cfg: Mapping[str, Any]) -> str | None:
    """The one line a report says of its noise beside the headline (a run's record CFG):
    the kind's ``caveat(settings, lang, natural)`` where it has one (spelling names a
    learnt profile, or gives the validity test's measurement of its keyboard model),
    else nothing."""
    kind = KINDS.get(str(cfg.get("kind", DEFAULT_KIND)))
    caveat = getattr(kind, "caveat", None)
    if kind is None or caveat is None:
        return None
    got = caveat(kind.restore(cfg), str(cfg.get("lang", "en")), bool(cfg.get("natural")))
    return None if got is None else str(got)

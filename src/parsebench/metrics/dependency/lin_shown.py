"""How the dependency scores are shown (Lin's precision and recall by relation, word
and category; the CoNLL 2018 metrics; MaltEval's breakdowns): the report's sections
(accuracy clean and under noise, where the errors fall, the plots asked for) and
``eval deps``'s text on the terminal."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from parsebench.metrics.dependency.conll18 import conll18_table, counts_table
from parsebench.metrics.dependency.figures import (
    Bucket,
    Confusion,
    DepsEval,
    DepsValue,
    ExactMatch,
)
from parsebench.metrics.dependency.lin_scorer import ROOT_ARC_FIELDS
from parsebench.model.scored import Scored
from parsebench.present import interval_text, percent, percent_text, value
from parsebench.present.plots import GroupPoint, by_group, heatmap, relation_bars
from parsebench.present.tables import (
    Section,
    Table,
    level_free_signature,
    level_label,
    pct,
    results_of,
    safe_name,
)


def _pct(x: float | None) -> str:
    return percent(x, 6)


def _pr_row(name: str, b: Bucket, extra: Sequence[str] = ()) -> list[str]:
    return [name, str(b.labeled.key), str(b.labeled.answer), pct(b.unlabeled.precision),
            pct(b.unlabeled.recall), pct(b.labeled.precision), pct(b.labeled.recall),
            *extra]

def _deps(results: list[Scored]) -> list[tuple[Scored, DepsValue]]:
    return [(r, r.value) for r in results_of(results, "deps")]

PR_HEADERS = ["key deps", "answer deps", "unlabeled P", "unlabeled R", "labeled P",
              "labeled R"]

BREAKDOWNS = {
    "deprel": "by relation, the 15 most frequent in the key (Lin, Table 18.3 style)",
    "group": "by relation group (Lin, Table 18.3)",
    "preposition": "attachment of prepositional phrases, the ten most frequent "
                   "prepositions (Lin, Table 18.4)",
    "category": "by genre, with parse speed (Lin, Table 18.2)",
    "upos": "by part of speech of the dependent",
    "word": "by dependent word, the 15 most frequent",
}

TOP = {"deprel": 15, "preposition": 10, "word": 15}

def deps_section(results: list[Scored]) -> Section | None:
    rvs = _deps(results)
    if not rvs:
        return None
    rs = [r for r, _ in rvs]
    sec = Section("Dependency evaluation against the gold key (Lin; CoNLL 2018 UAS/LAS)")
    # where the gold has enhanced graphs, ELAS and EULAS of the basic trees copied (the
    # IWPT baseline: docs/udeval.md)
    graphs = any(v.elas.f1 is not None for r, v in rvs if r.projection == "deprel")
    t = Table("Accuracy, clean and at each error level (replicates pooled)",
              ["parser", "input", "UAS", "LAS", "LAS 95% CI",
               *(["ELAS", "EULAS"] if graphs else []), "unlabeled P", "unlabeled R",
               "labeled P", "labeled R"], [], anchor="deps-accuracy")
    if graphs:
        t.notes.append("ELAS and EULAS (udeval's, the IWPT shared tasks'): each parse's "
                       "basic tree copied into its enhanced graph, against the gold's "
                       "enhanced graph; what a basic tree cannot say counts missing")
    bars: dict[str, dict[str, float]] = {}
    for r, v in rvs:
        if r.projection == "deprel":
            enhanced = [pct(v.elas.f1), pct(v.eulas.f1)] if graphs else []
            t.rows.append([r.parser, r.level, pct(v.uas.f1), pct(v.las.f1),
                           interval_text(v.interval("las")), *enhanced, pct(v.unlabeled.precision),
                           pct(v.unlabeled.recall), pct(v.labeled.precision),
                           pct(v.labeled.recall)])
        for w in v.warnings:  # e.g. another annotation scheme than the gold's
            note = f"warning ({r.parser}): {w}"
            if ("scheme" in w or "no heads" in w) and note not in t.notes:
                t.notes.append(note)
        if r.level != "clean" or not v.by:
            continue
        by = r.projection
        items = sorted(v.by.items(), key=lambda kv: -kv[1].labeled.key)
        items = items[:TOP[by]] if by in TOP else items
        extra = ["words/s"] if by == "category" else []
        sub = Table(f"{r.parser}: {BREAKDOWNS.get(by, 'by ' + by)}, clean text",
                    [by, *PR_HEADERS, *extra],
                    [_pr_row(k, b, [f"{b.words_per_second:,.0f}"
                                    if b.words_per_second else "–"] if extra else [])
                     for k, b in items])
        sub.notes.append("signature: " + r.signature)
        sec.tables.append(sub)
        if by == "deprel":
            bars[r.parser] = {k: b.labeled.recall for k, b in items
                              if b.labeled.recall is not None}
    t.notes.append("signature: " + level_free_signature(rs[0]))
    sec.tables.insert(0, t)
    if bars:
        sec.images.append(("relations.png", "Labeled recall by relation (clean text, the 15 "
                           "most frequent relations of the key)",
                           relation_bars("Recall by relation", bars)))
    return sec

GROUP_ORDER = {"arc-length": ["1", "2", "3-6", "7+", "root"],
               "sentence-length": ["1-10", "11-20", "21-30", "31-40", "41+"]}

def where_section(results: list[Scored]) -> Section | None:
    """Where the errors fall, clean and noisy (MaltEval's breakdowns): labeled F1 of the
    arcs by their length and by the length of their sentence, and each parser's
    relation confusions on the clean text."""
    rvs = [(r, v) for r, v in _deps(results) if r.projection == "deprel" and v.breakdowns]
    if not rvs:
        return None
    sec = Section("Where does noise hurt? Accuracy by arc length and sentence length")
    for breakdown, groups in GROUP_ORDER.items():
        t = Table(f"Labeled attachment F1 by {breakdown.replace('-', ' ')} (the root's arc "
                  "included; key arcs grouped by the gold, answer arcs by the parse)",
                  ["parser", "input", *groups], [], anchor=f"where-{breakdown}")
        series: dict[str, dict[str, GroupPoint]] = {}
        for r, v in rvs:
            by = (v.breakdowns or {}).get(breakdown, {})
            cells = []
            for g in groups:
                f1 = by[g].labeled.f1 if g in by else None
                iv = v.group_interval(breakdown, g)
                cells.append(pct(f1) + (" " + interval_text(iv) if iv else ""))
                if f1 is not None:
                    series.setdefault(f"{r.parser} @ {r.level}", {})[g] = (
                        f1, *(iv or (None, None)))
            t.rows.append([r.parser, r.level, *cells])
        first = (rvs[0][1].breakdowns or {}).get(breakdown, {})
        counts = {g: first[g].labeled.key if g in first else None for g in groups}
        t.notes.append("gold arcs a group (the first row's input): " + ", ".join(
            f"{g} {n:,}" for g, n in counts.items() if n is not None))
        sec.tables.append(t)
        if series:
            what = breakdown.replace("-", " ")
            sec.images.append((f"by-{breakdown}.png", f"Labeled F1 by {what}: one colour a "
                               "parser, filled markers the clean text, open markers the "
                               "error levels, side by side within a group (no line: the "
                               "groups are categories); bars: 95% intervals over sentences",
                               by_group(f"Labeled F1 by {what}", "labeled F1 (%)",
                                        groups, series)))
    for r, v in rvs:
        conf = v.confusion
        if r.level == "clean" and conf and conf.labels:
            sec.images.append((f"confusion-{safe_name(r.parser)}.png",
                               f"{r.parser}: relation confusions on the clean text (rows: "
                               "gold, shares of its aligned words; the 12 most frequent "
                               "relations, the rest pooled)",
                               heatmap(f"{r.parser}: gold relation by parsed relation",
                                       conf.labels, conf.matrix)))
    return sec


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
    if not names:  # no word of the gold aligned with one of the system's
        return ["Confusion (rows: gold, columns: system; aligned words): no aligned words"]
    width = max(7, *(len(x) for x in names)) + 1
    lines = ["Confusion (rows: gold, columns: system; aligned words)",
             " " * width + "".join(f"{x[:9]:>10}" for x in names)]
    for name, row in zip(names, table.matrix, strict=True):
        lines.append(f"{name:<{width}}" + "".join(f"{n:10d}" for n in row))
    return lines


def hurts(results: list[Scored]) -> list[dict[str, Any]]:
    """Where the noise hurts a parser's accuracy most: its LAS lost at its own worst
    level (each parser's sentence says "its own": two parsers that "lose most" at one
    level would read as a contradiction), and the arc length that loses most there
    (MaltEval's breakdown)."""
    out: list[dict[str, Any]] = []
    deps = [r for r in results if r.method == "deps" and r.projection == "deprel"]
    clean = {r.parser: r for r in deps if r.level == "clean"}
    for parser, c in clean.items():
        c_las = value(c.value.las.f1)
        noisy: list[tuple[float, Scored]] = []
        for r in deps:
            x = value(r.value.las.f1)
            if r.parser == parser and r.level != "clean" and x is not None:
                noisy.append((x, r))
        if c_las is None or not noisy:
            continue
        worst, r = min(noisy, key=lambda t: t[0])
        out.append({"parser": parser, "level": r.level, "figure": "LAS", "clean": c_las,
                    "noisy": worst, "loss": c_las - worst,
                    "sentence": f"{parser}'s own worst level is {level_label(r)}: LAS "
                                f"{percent_text(c_las)} on clean text, {percent_text(worst)} "
                                f"there ({100 * (c_las - worst):.1f} points of LAS lost).",
                    "link": "deps-accuracy"})
        groups = _arc_f1(c.value)
        noisy_groups = _arc_f1(r.value)
        drops = [(f - noisy_groups[g], g) for g, f in groups.items() if g in noisy_groups]
        if drops:
            d, g = max(drops)
            out.append({"parser": parser, "level": r.level,
                        "figure": "labeled F1 by arc length", "group": g, "loss": d,
                        "sentence": f"{parser}: arcs of length {g} lose most at "
                                    f"{level_label(r)}, labeled F1 "
                                    f"{percent_text(groups[g])} → "
                                    f"{percent_text(noisy_groups[g])} ({100 * d:.1f} points).",
                        "link": "where-arc-length"})
    return out


def _arc_f1(v: DepsValue) -> dict[str, float]:
    """Labeled F1 by arc length (the groups that have one)."""
    out = {}
    for g, b in v.breakdown("arc-length").items():
        f = value(b.labeled.f1)
        if f is not None:
            out[str(g)] = f
    return out

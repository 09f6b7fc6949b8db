"""The report's sections of accuracy against a gold key: Lin's and CoNLL 2018's scores
(by relation, word and category), where the errors fall (MaltEval's breakdowns by arc
and sentence length), and EVALB's and the flat keys' brackets. The robustness
sections are in :mod:`parsebench.report.sections`."""

from __future__ import annotations

from collections.abc import Sequence

from parsebench.metrics.constituency.evalb_method import EvalbValue
from parsebench.metrics.constituency.gaizauskas_method import FlatValue
from parsebench.metrics.dependency.figures import Bucket, DepsValue, Interval
from parsebench.report.plots import (
    GroupPoint,
    LevelSeries,
    against_level,
    by_group,
    heatmap,
    relation_bars,
)
from parsebench.report.tables import (
    CI_NOTE,
    Section,
    Table,
    level_free_signature,
    pct,
    results_of,
    safe_name,
)
from parsebench.scored import Scored, level_order


def _pr_row(name: str, b: Bucket, extra: Sequence[str] = ()) -> list[str]:
    return [name, str(b.labeled.key), str(b.labeled.answer), pct(b.unlabeled.precision),
            pct(b.unlabeled.recall), pct(b.labeled.precision), pct(b.labeled.recall),
            *extra]


def ci95(iv: Interval) -> str:
    """An interval as the tables show it, in percent ("n/a" where there is none)."""
    return "n/a" if iv is None else f"[{100 * iv[0]:.2f}, {100 * iv[1]:.2f}]"


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
                           ci95(v.interval("las")), *enhanced, pct(v.unlabeled.precision),
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
                cells.append(pct(f1) + (" " + ci95(iv) if iv else ""))
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


def brackets_section(results: list[Scored]) -> Section | None:
    """EVALB's brackets and the flat key of a constituency parser's noisy parses, each
    against its clean parse (no gold trees needed)."""
    ev: dict[tuple[str, str], Scored] = {(r.parser, r.level): r
                                         for r in results_of(results, "evalb")}
    fl: dict[tuple[str, str], Scored] = {(r.parser, r.level): r
                                         for r in results_of(results, "flat")}
    keys = sorted(set(ev) | set(fl), key=lambda k: (k[0], level_order(k[1])))
    if not keys:
        return None
    t = Table("Structure of the clean parse kept in the noisy one",
              ["parser", "error level", "sentences", "EVALB recall", "EVALB precision",
               "EVALB F", "95% CI", "flat-key recall", "95% CI", "conformance", "95% CI"], [],
              anchor="brackets")
    series: dict[str, LevelSeries] = {}
    for k in keys:
        e: EvalbValue = ev[k].value if k in ev else EvalbValue()
        f: FlatValue = fl[k].value if k in fl else FlatValue()
        one = e if k in ev else f
        label = one.error_level_label
        t.rows.append([k[0], label, str(one.sentences),
                       pct(e.recall), pct(e.precision), pct(e.f1), ci95(_iv(e.ci95.f1)),
                       pct(f.recall), ci95(_iv(f.ci95.recall)), pct(f.conformance),
                       ci95(_iv(f.ci95.conformance))])
        for name, v, iv in (("EVALB F", e.f1, _iv(e.ci95.f1)),
                            ("conformance", f.conformance, _iv(f.ci95.conformance))):
            if v is not None:
                lo, hi = iv or (None, None)
                series.setdefault(f"{k[0]} @ {name}", []).append((label, v, v, v, lo, hi))
    t.notes += ["The key is each sentence's clean parse: EVALB's labeled brackets (no "
                "label deleted) and Gaizauskas et al.'s recall and conformance against its "
                "unlabeled spans (flattened by the experiment's rules, if any). A failed "
                "noisy parse is the flat (PARSE-FAILED ...) tree: it matches little and "
                "crosses nothing. Replicates pooled.", CI_NOTE]
    t.notes += ["signature: " + level_free_signature(r) for r in (next(iter(ev.values()), None),
                                                  next(iter(fl.values()), None)) if r]
    sec = Section("Brackets under noise (EVALB; flat keys, Gaizauskas et al.)", [t])
    if series:
        sec.images.append(("brackets.png", "Brackets of the clean parse kept, against error "
                           "level: one colour a parser, EVALB F solid, conformance dashed; "
                           "bars: 95% intervals over sentences",
                           against_level("Brackets kept (clean parse as key)", "%",
                                         series)))
    return sec


def _iv(iv: Interval) -> Interval:
    """IV where it is an interval: None for a missing bound."""
    return iv if isinstance(iv, list) and len(iv) == 2 and None not in iv else None

"""``parsebench report``: the store's results as Markdown, one HTML page, CSV and JSON.

Every table is built once as a :class:`Table` and rendered twice (Markdown,
HTML), so both show the same numbers. Each experiment opens on its summary
(:mod:`parsebench.report.summary`): the answers, each linked to the table or plot it
comes from. The HTML page is self-contained: plots are embedded as SVG, the
style is inline; the only script is the sentence browser's. Each number's
signature is printed under its table; a 95% interval stands beside its figure.
"""

from __future__ import annotations

import base64
import csv
import hashlib
import html
import io
import json
import re
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from parsebench.errors import InputError, atomic_output, check_folder
from parsebench.metrics.robust_f1 import F1Counts
from parsebench.present import interval, percent, value
from parsebench.report.browser import SCRIPT, html_of, merge
from parsebench.report.browser import STYLE as BROWSER_STYLE
from parsebench.report.draw import draw, draw_aligned, first_marked_x, moved_pairs
from parsebench.report.plots import (
    DegradationPoint,
    GroupPoint,
    LevelSeries,
    Plot,
    against_level,
    by_group,
    degradation,
    heatmap,
    relation_bars,
    time_by_length,
)
from parsebench.report.summary import SIGNIFICANCE_SAMPLES, anchor, pairwise_tests, summarize
from parsebench.store import Store
from parsebench.versions import KINDS


@dataclass
class Table:
    title: str
    headers: list[str]
    rows: list[list[str]]
    notes: list[str] = field(default_factory=list)
    anchor: str = ""
    """The id a summary's claim links to."""
    numeric: bool = True
    """Right-align the cells that hold numbers (not in a table of settings)."""


@dataclass
class Section:
    title: str
    tables: list[Table] = field(default_factory=list)
    images: list[tuple[str, str, Plot]] = field(default_factory=list)
    """(file name, caption, the plot); its anchor is ``plot-`` and the file name."""
    html_extra: list[str] = field(default_factory=list)
    md_extra: list[str] = field(default_factory=list)


def _dig(d: Any, path: tuple[str, ...]) -> Any:
    """The value at PATH in nested dicts, None where a key is missing."""
    for k in path:
        d = d.get(k) if isinstance(d, dict) else None
    return d


def pct(x: Any, digits: int = 2) -> str:
    """A figure with ± std for replicates; "n/a" where the method cannot give a number."""
    return percent(x, digits=digits, spread=True)


CI_NOTE = ("95% CI: percentile bootstrap over sentences (1,000 resamples, the replicates of "
           "a sentence together); it measures the sample of sentences, the ± the noise")


ci95 = interval


def _sig(r: dict[str, Any]) -> str:
    """A result's signature without its level, for a table that has one row a level."""
    return re.sub(r"level:[^|]*\|", "", r["signature"])


def _level_order(label: str) -> tuple[int, float]:
    if label == "clean":
        return (0, 0.0)
    mode, _, value = label.partition("=")
    if mode not in ("rate", "per-sentence"):
        return (3, 0.0)
    return (1 if mode == "rate" else 2, float(value))


def _by(results: list[dict[str, Any]], metric: str) -> list[dict[str, Any]]:
    return sorted((r for r in results if r["metric"] == metric),
                  key=lambda r: (r["parser"], r["projection"], _level_order(r["level"])))


def _rows_section(results: list[dict[str, Any]]) -> Section | None:
    rows = _by(results, "rows")
    if not rows:
        return None
    sec = Section("Degradation, row by row (Bigert et al., Tables 3-12)")
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for r in rows:
        groups.setdefault((r["parser"], r["projection"]), []).append(r)
    lines: dict[str, dict[str, list[DegradationPoint]]] = {}
    for (parser, proj), rs in groups.items():
        has_gold = any("gold" in r["value"] for r in rs)
        has_cal = any("degr_calibrated" in r["value"] for r in rs)
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
        for r in rs:
            v = r["value"]
            row = [v["error_level_label"], pct(v["error_level"]), pct(v["differs"]),
                   ci95(v, "differs"), pct(v["degr_lower"]), pct(v["degr_upper"]),
                   pct(v["degr_estimate"]), ci95({"ci95": {"e": _estimate_ci(v)}}, "e")]
            acc_row = [v["error_level_label"], pct(v["acc_lower"]), pct(v["acc_upper"]),
                       pct(v["acc_estimate"])]
            if has_gold:
                g = v.get("gold", {})
                wb = g.get("within_bounds")
                row += [pct(g.get("degr_real")), ci95(v, "degr_real"),
                        "–" if wb is None else (("yes" if wb else "no") if isinstance(wb, bool)
                                                else f"{100 * float(wb):.0f}% of runs")]
                acc_row.append(pct(g.get("acc_real")))
            if has_cal:
                cal = v.get("calibration")
                row.append(pct(v.get("degr_calibrated")))
                if isinstance(cal, dict) and isinstance(cal.get("interval"), list):
                    lo, hi = cal["interval"]
                    row.append(f"[{100 * lo:.2f}, {100 * hi:.2f}]")
                else:
                    row.append("per replicate")
            t.rows.append(row)
            acc.rows.append(acc_row)
            for w in v.get("warnings", []):
                note = f"warning ({v['error_level_label']}): {w}"
                if note not in t.notes:
                    t.notes.append(note)
        t.notes += [CI_NOTE + "; the estimate's interval is parse differs' scaled as the "
                    "estimate is (3/4 of it over the clean accuracy, which is fixed)",
                    "signature: " + _sig(rs[0])]
        sec.tables += [t, acc]
        points = lines.setdefault(proj, {})
        for r in rs:
            v = r["value"]
            x, lo, hi, est = (value(v.get(k)) for k in ("error_level", "degr_lower",
                                                        "degr_upper", "degr_estimate"))
            if None in (x, lo, hi, est):
                continue
            stats = (v.get("stats") or {}).get("differs")
            points.setdefault(parser, []).append({
                "x": x, "lower": lo, "upper": hi, "estimate": est,
                "estimate_ci": _estimate_ci(v),
                "real": value(_dig(v, ("gold", "degr_real"))),
                "real_ci": (v.get("ci95") or {}).get("degr_real"),
                "calibrated": value(v.get("degr_calibrated")),
                "sentences": len(stats) if isinstance(stats, list) else None})
    check = _bounds_check(groups)
    if check is not None:
        sec.tables.insert(0, check)
    for proj, by_parser in lines.items():
        if any(by_parser.values()):
            real = any(p.get("real") is not None for pts in by_parser.values() for p in pts)
            cal = any(p.get("calibrated") is not None for pts in by_parser.values()
                      for p in pts)
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


def _estimate_ci(v: dict[str, Any]) -> list[float] | None:
    """The unsupervised estimate's 95% interval over sentences: the estimate is
    3/4 (1 - acr_0n) / acr with acr fixed, and 1 - acr_0n is the parse-differs share,
    so its interval is parse differs' scaled the same way."""
    iv = (v.get("ci95") or {}).get("differs")
    acr = value(v.get("acr"))
    if not isinstance(iv, list) or len(iv) != 2 or None in iv or not acr:
        return None
    return [0.75 * float(iv[0]) / acr, 0.75 * float(iv[1]) / acr]


def _bounds_check(groups: dict[tuple[str, str], list[dict[str, Any]]]) -> Table | None:
    """How the unsupervised estimates fared against the gold: the share of runs (level
    x replicate) whose real degradation lies within the bounds, and |estimate - real|."""
    t = Table("The estimates against the real degradation (every level and replicate)",
              ["parser", "projection", "runs", "real within bounds", "mean |estimate - real|",
               "max |estimate - real|", "mean estimate - real"], [])
    for (parser, proj), rs in groups.items():
        runs = [x for r in rs for x in (r["value"].get("replicates") or [r["value"]])
                if isinstance(x.get("gold"), dict) and x.get("degr_estimate") is not None]
        if not runs:
            continue
        inside = sum(bool(x["gold"]["within_bounds"]) for x in runs)
        diffs = [x["degr_estimate"] - x["gold"]["degr_real"] for x in runs]
        t.rows.append([parser, proj, str(len(runs)),
                       f"{inside}/{len(runs)} ({100 * inside / len(runs):.0f}%)",
                       f"{100 * sum(map(abs, diffs)) / len(diffs):.2f} points",
                       f"{100 * max(map(abs, diffs)):.2f} points",
                       f"{100 * sum(diffs) / len(diffs):+.2f} points"])
    return t if t.rows else None


def _sentences_section(results: list[dict[str, Any]]) -> Section | None:
    rs = _by(results, "sentences")
    if not rs:
        return None
    sec = Section("Sentence robustness (Kakkonen, Table 1)")
    t = Table("Robustness: share of a noisy sentence's structure kept from the clean parse",
              ["parser", "error level", "sentences", "failures", "unlabeled", "95% CI",
               "labeled", "95% CI"], [], anchor="sentences")
    series: dict[str, LevelSeries] = {}
    for r in rs:
        v = r["value"]
        t.rows.append([r["parser"], v["error_level_label"], str(v["sentences"]),
                       str(v["failures"]), pct(v["unlabeled"]), ci95(v, "unlabeled"),
                       pct(v["labeled"]), ci95(v, "labeled")])
        reps = v.get("replicates") or [{"unlabeled": v["unlabeled"], "labeled": v["labeled"]}]
        for key in ("unlabeled", "labeled"):
            vals = [x[key] for x in reps if x[key] is not None]
            iv = (v.get("ci95") or {}).get(key) or [None, None]
            if vals:
                series.setdefault(f"{r['parser']} @ {key}", []).append(
                    (v["error_level_label"], sum(vals) / len(vals), min(vals), max(vals),
                     *iv[:2]))
    t.notes += [CI_NOTE, "signature: " + _sig(rs[0])]
    sec.tables.append(t)
    if series:
        sec.images.append(("robustness.png", "Sentence robustness against error level: one "
                           "colour a parser, unlabeled solid, labeled dashed; bands: the "
                           "replicates' min-max; bars: 95% intervals over sentences",
                           against_level("Sentence robustness (Kakkonen)",
                                               "robustness (%)", series)))
    return sec


def _pr_row(name: str, b: dict[str, Any], extra: Sequence[str] = ()) -> list[str]:
    return [name, str(b["labeled"]["key"]), str(b["labeled"]["answer"]),
            pct(b["unlabeled"]["precision"]), pct(b["unlabeled"]["recall"]),
            pct(b["labeled"]["precision"]), pct(b["labeled"]["recall"]), *extra]


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


def _deps_section(results: list[dict[str, Any]]) -> Section | None:
    rs = _by(results, "deps")
    if not rs:
        return None
    sec = Section("Dependency evaluation against the gold key (Lin; CoNLL 2018 UAS/LAS)")
    t = Table("Accuracy, clean and at each error level (replicates pooled)",
              ["parser", "input", "UAS", "LAS", "LAS 95% CI", "unlabeled P", "unlabeled R",
               "labeled P", "labeled R"], [], anchor="deps-accuracy")
    bars: dict[str, dict[str, float]] = {}
    for r in rs:
        v = r["value"]
        if r["projection"] == "deprel":
            t.rows.append([r["parser"], r["level"], pct(v["uas"]["f1"]), pct(v["las"]["f1"]),
                           ci95(v, "las"), pct(v["unlabeled"]["precision"]),
                           pct(v["unlabeled"]["recall"]), pct(v["labeled"]["precision"]),
                           pct(v["labeled"]["recall"])])
        for w in v.get("warnings", []):  # e.g. another annotation scheme than the gold's
            note = f"warning ({r['parser']}): {w}"
            if ("scheme" in w or "no heads" in w) and note not in t.notes:
                t.notes.append(note)
        if r["level"] != "clean" or not v.get("by"):
            continue
        by = r["projection"]
        items = sorted(v["by"].items(), key=lambda kv: -kv[1]["labeled"]["key"])
        items = items[:TOP[by]] if by in TOP else items
        extra = ["words/s"] if by == "category" else []
        sub = Table(f"{r['parser']}: {BREAKDOWNS.get(by, 'by ' + by)}, clean text",
                    [by, *PR_HEADERS, *extra],
                    [_pr_row(k, b, [f"{b['words_per_second']:,.0f}"
                                    if b.get("words_per_second") else "–"] if extra else [])
                     for k, b in items])
        sub.notes.append("signature: " + r["signature"])
        sec.tables.append(sub)
        if by == "deprel":
            bars[r["parser"]] = {k: b["labeled"]["recall"] for k, b in items
                                 if b["labeled"]["recall"] is not None}
    t.notes.append("signature: " + _sig(rs[0]))
    sec.tables.insert(0, t)
    if bars:
        sec.images.append(("relations.png", "Labeled recall by relation (clean text, the 15 "
                           "most frequent relations of the key)",
                           relation_bars("Recall by relation", bars)))
    return sec


GROUP_ORDER = {"arc-length": ["1", "2", "3-6", "7+", "root"],
               "sentence-length": ["1-10", "11-20", "21-30", "31-40", "41+"]}


def _where_section(results: list[dict[str, Any]]) -> Section | None:
    """Where the errors fall, clean and noisy (MaltEval's breakdowns): labeled F1 of the
    arcs by their length and by the length of their sentence, and each parser's
    relation confusions on the clean text."""
    rs = [r for r in _by(results, "deps") if r["projection"] == "deprel"
          and isinstance(r["value"], dict) and r["value"].get("breakdowns")]
    if not rs:
        return None
    sec = Section("Where does noise hurt? Accuracy by arc length and sentence length")
    for breakdown, groups in GROUP_ORDER.items():
        t = Table(f"Labeled attachment F1 by {breakdown.replace('-', ' ')} (the root's arc "
                  "included; key arcs grouped by the gold, answer arcs by the parse)",
                  ["parser", "input", *groups], [], anchor=f"where-{breakdown}")
        series: dict[str, dict[str, GroupPoint]] = {}
        for r in rs:
            by = r["value"]["breakdowns"].get(breakdown, {})
            cells = []
            for g in groups:
                f1 = (by.get(g) or {}).get("labeled", {}).get("f1")
                iv = _group_ci(r["value"], breakdown, g)
                cells.append(pct(f1) + (" " + ci95({"ci95": {"g": iv}}, "g") if iv else ""))
                if f1 is not None:
                    series.setdefault(f"{r['parser']} @ {r['level']}", {})[g] = (
                        f1, *(iv or (None, None)))
            t.rows.append([r["parser"], r["level"], *cells])
        counts = {g: (rs[0]["value"]["breakdowns"].get(breakdown, {}).get(g) or {})
                  .get("labeled", {}).get("key") for g in groups}
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
    for r in rs:
        conf = r["value"].get("confusion")
        if r["level"] == "clean" and conf and conf.get("labels"):
            sec.images.append((f"confusion-{safe_name(r['parser'])}.png",
                               f"{r['parser']}: relation confusions on the clean text (rows: "
                               "gold, shares of its aligned words; the 12 most frequent "
                               "relations, the rest pooled)",
                               heatmap(f"{r['parser']}: gold relation by parsed relation",
                                             conf["labels"], conf["matrix"])))
    return sec


def _group_ci(v: dict[str, Any], breakdown: str, group: str) -> list[float] | None:
    """A breakdown group's 95% interval over sentences, where the run stored one."""
    iv = ((v.get("ci95") or {}).get("breakdowns") or {}).get(breakdown, {}).get(group) \
        if isinstance((v.get("ci95") or {}).get("breakdowns"), dict) else None
    return iv if isinstance(iv, list) and len(iv) == 2 and None not in iv else None


def _lowest_f1_first(r: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """A robustness F1 result's error types, the lowest F1 first (n/a last)."""
    types = r["value"].get("by_type") or {}
    return sorted(types.items(), key=lambda kv: (kv[1]["f1"] is None, kv[1]["f1"] or 0))


def _types_section(results: list[dict[str, Any]]) -> Section | None:
    """Learner-like errors (noise kind grammar): robustness F1 against the clean parse and
    LAS against the gold key through the errors' alignment, by level and by ERRANT type."""
    rs = [r for r in _by(results, "f1") if r["level"] != "corrected"]
    if not rs:
        return None
    rs.sort(key=lambda r: (r["parser"], _level_order(r["level"])))
    t = Table("Robustness F1 of the noisy parse against the clean one, and attachment "
              "against the gold key, through the errors' alignment",
              ["parser", "error level", "sentences", "F1", "95% CI", "aligned LAS",
               "LAS 95% CI"],
              [[r["parser"], r["value"]["error_level_label"], str(r["value"]["sentences"]),
                pct(r["value"]["f1"]), ci95(r["value"], "f1"),
                pct((r["value"].get("accuracy") or {}).get("las")),
                ci95(r["value"], "aligned_las")] for r in rs], anchor="types")
    t.notes += [CI_NOTE, "signature: " + _sig(rs[0])]
    by = Table("By error type (ERRANT's names): each sentence counts under the types of its "
               "errors; lowest F1 first", ["parser", "error level", "type", "sentences", "F1",
                                            "95% CI", "aligned LAS", "LAS 95% CI"], [],
               anchor="types-by-type")
    for r in rs:
        by.rows += [[r["parser"], r["value"]["error_level_label"], k, str(v["sentences"]),
                     pct(v["f1"]), ci95(v, "f1"), pct((v.get("accuracy") or {}).get("las")),
                     ci95(v, "aligned_las")] for k, v in _lowest_f1_first(r)]
    ops = Table("By operation: M (a word missing), U (a word unnecessary), R (a word "
                "replaced, reordered, split or merged)",
                ["parser", "error level", "operation", "sentences", "F1", "95% CI",
                 "aligned LAS", "LAS 95% CI"], [])
    for r in rs:
        for op, v in (r["value"].get("by_operation") or {}).items():
            ops.rows.append([r["parser"], r["value"]["error_level_label"], op,
                             str(v["sentences"]), pct(v["f1"]), ci95(v, "f1"),
                             pct(v["accuracy"]["las"]), ci95(v, "aligned_las")])
    return Section("Learner-like errors by type (Hashemi & Hwa through the alignment)",
                   [x for x in (t, ops, by) if x.rows])


def _f1_section(results: list[dict[str, Any]]) -> Section | None:
    rs = [r for r in _by(results, "f1") if r["level"] == "corrected"]
    if not rs:
        return None
    t = Table("Robustness F1 of ungrammatical sentences against their corrections",
              ["parser", "precision", "recall", "F1", "95% CI", "shared", "ungrammatical deps",
               "grammatical deps"],
              [[r["parser"], pct(r["value"]["precision"]), pct(r["value"]["recall"]),
                pct(r["value"]["f1"]), ci95(r["value"], "f1"), str(r["value"]["shared"]),
                str(r["value"]["ungrammatical_deps"]), str(r["value"]["grammatical_deps"])]
               for r in rs])
    t.notes.append("signature: " + rs[0]["signature"])
    sec = Section("Robustness F1 (Hashemi & Hwa)", [t])
    by = Table("Robustness F1 by the number of errors in the sentence (word edits against "
               "the correction)", ["parser", "errors", "sentences", "precision", "recall",
                                   "F1"], [])
    for r in rs:
        by.rows += [[r["parser"], *row] for row in _error_bins(r["value"].get("by_errors", {}))]
    if by.rows:
        sec.tables.append(by)
    typed = Table("By ERRANT's error type (each sentence counts under the types of its "
                  "errors; ERRANT aligned and typed every pair); lowest F1 first",
                  ["parser", "type", "sentences", "F1", "95% CI"], [])
    for r in rs:
        typed.rows += [[r["parser"], k, str(v["sentences"]), pct(v["f1"]), ci95(v, "f1")]
                       for k, v in _lowest_f1_first(r) if v["sentences"] >= 10]
    if typed.rows:
        typed.notes.append("types with fewer than 10 sentences are left out (results.json "
                           "has them)")
        sec.tables.append(typed)
    return sec


def _brackets_section(results: list[dict[str, Any]]) -> Section | None:
    """EVALB's brackets and the flat key of a constituency parser's noisy parses, each
    against its clean parse (no gold trees needed)."""
    ev = {(r["parser"], r["level"]): r for r in _by(results, "evalb")}
    fl = {(r["parser"], r["level"]): r for r in _by(results, "flat")}
    keys = sorted(set(ev) | set(fl), key=lambda k: (k[0], _level_order(k[1])))
    if not keys:
        return None
    t = Table("Structure of the clean parse kept in the noisy one",
              ["parser", "error level", "sentences", "EVALB recall", "EVALB precision",
               "EVALB F", "95% CI", "flat-key recall", "95% CI", "conformance", "95% CI"], [],
              anchor="brackets")
    series: dict[str, LevelSeries] = {}
    for k in keys:
        e = ev[k]["value"] if k in ev else {}
        f = fl[k]["value"] if k in fl else {}
        label = (e or f)["error_level_label"]
        t.rows.append([k[0], label, str((e or f)["sentences"]),
                       pct(e.get("recall")), pct(e.get("precision")), pct(e.get("f1")),
                       ci95(e, "f1"), pct(f.get("recall")), ci95(f, "recall"),
                       pct(f.get("conformance")), ci95(f, "conformance")])
        for name, v, res, key in (("EVALB F", e.get("f1"), e, "f1"),
                                  ("conformance", f.get("conformance"), f, "conformance")):
            if v is not None:
                iv = (res.get("ci95") or {}).get(key) or [None, None]
                series.setdefault(f"{k[0]} @ {name}", []).append((label, v, v, v, *iv[:2]))
    t.notes += ["The key is each sentence's clean parse: EVALB's labeled brackets (no "
                "label deleted) and Gaizauskas et al.'s recall and conformance against its "
                "unlabeled spans (flattened by the experiment's rules, if any). A failed "
                "noisy parse is the flat (PARSE-FAILED ...) tree: it matches little and "
                "crosses nothing. Replicates pooled.", CI_NOTE]
    t.notes += ["signature: " + _sig(r) for r in (next(iter(ev.values()), None),
                                                  next(iter(fl.values()), None)) if r]
    sec = Section("Brackets under noise (EVALB; flat keys, Gaizauskas et al.)", [t])
    if series:
        sec.images.append(("brackets.png", "Brackets of the clean parse kept, against error "
                           "level: one colour a parser, EVALB F solid, conformance dashed; "
                           "bars: 95% intervals over sentences",
                           against_level("Brackets kept (clean parse as key)", "%",
                                               series)))
    return sec


ERROR_BINS = (("0", 0, 0), ("1", 1, 1), ("2", 2, 2), ("3", 3, 3), ("4-6", 4, 6),
              ("7+", 7, 10**9))


def _error_bins(by_errors: dict[str, dict[str, Any]]) -> list[list[str]]:
    """Robustness F1 of the sentences with 0, 1, 2, 3, 4-6 and 7+ errors, micro-averaged
    from the counts (the JSON keeps every count)."""
    rows = []
    for label, lo, hi in ERROR_BINS:
        got = [b for n, b in by_errors.items() if lo <= int(n) <= hi]
        if not got:
            continue
        c = F1Counts()
        for b in got:
            c.add(F1Counts(**{f.name: b[f.name] for f in fields(F1Counts)}))
        rows.append([label, str(c.sentences), pct(c.precision), pct(c.recall), pct(c.f1)])
    return rows


def _speed_section(results: list[dict[str, Any]]) -> Section | None:
    rs = _by(results, "speed")
    if not rs:
        return None
    t = Table("Parser speed on the distinct sentences of the corpus (clean and noisy)",
              ["parser", "sentences", "words", "failures", "parse seconds", "words/s"],
              [[r["parser"], str(r["value"]["sentences"]), str(r["value"]["words"]),
                str(r["value"]["failures"]), f"{r['value']['parse_seconds']:.2f}",
                f"{r['value']['words_per_second'] or 0:,.0f}"] for r in rs])
    series: dict[str, Sequence[tuple[int, float]]] = {
        r["parser"]: [(int(n), d["mean"]) for n, d in
                            sorted(r["value"]["seconds_by_length"].items(),
                                   key=lambda kv: int(kv[0]))] for r in rs}
    return Section("Speed (Lin, Fig. 18.1)", [t], [("time-by-length.png",
                                                     "Mean parse time of the distinct "
                                                     "sentences of each length, one line a "
                                                     "parser (a measurement of this machine, "
                                                     "no interval)",
                                                     time_by_length(series))])


def _attack_section(results: list[dict[str, Any]]) -> Section | None:
    """``[attack]``: the worst case at each budget beside random misspellings at the same
    budget (docs/attack.md); the attacked sentences are drawn with the examples."""
    rs = _by(results, "attack")
    if not rs:
        return None

    def share(x: Any) -> str:
        return pct(x["rate"]) if isinstance(x, dict) else "n/a"

    def iv(x: Any) -> str:
        return interval({"ci95": {"x": x.get("ci95") if isinstance(x, dict) else None}},
                        "x")

    rows = []
    for r in rs:
        v = r["value"]
        rand = v.get("random") or {}
        ratio = v.get("ratio") or {}
        rci = ratio.get("ci95")
        calls = v["calls"]["per_sentence_mean"]
        rows.append([r["parser"], r["level"], f"{v['attacked']} of {v['sentences']}",
                     share(v["success"]), iv(v["success"]), share(rand.get("success")),
                     share(v["damage"]), iv(v["damage"]), share(rand.get("damage")),
                     "n/a" if ratio.get("value") is None else f"{ratio['value']:.2f}",
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


def _arcs(x: Any) -> list[tuple[int, int, str]] | None:
    if not isinstance(x, list):
        return None
    return [(int(a), int(b), str(lab)) for a, b, lab in x]


def _pairs(x: Any) -> list[tuple[int, int]] | None:
    if not isinstance(x, list):
        return None
    return [(int(i), int(j)) for i, j in x]


def _scrolled(svg: str, x: float | None) -> str:
    """A drawing in its scroll box, opened at X (the first error) when it is far right."""
    at = f" data-scroll='{max(0.0, x - 200):.0f}'" if x is not None and x > 600 else ""
    return f"<div class='drawn'{at}>{svg}</div>"


def _example_html(parser: str, ex: dict[str, Any]) -> str:
    e = html.escape
    why = f"; {e(str(ex['why']))}" if ex.get("why") else ""
    types = f"; errors {e(', '.join(map(str, ex['types'])))}" if ex.get("types") else ""
    out = [f"<h4>{e(parser)}: sentence {e(str(ex['sentence']))}, "
           f"{e(str(ex['level']))} (seed {e(str(ex['seed']))}){why}{types}</h4>"]
    clean, noisy = _arcs(ex.get("clean_arcs")), _arcs(ex.get("noisy_arcs"))
    pairs = _pairs(ex.get("alignment"))
    links = ex.get("kind") == "links"
    ctags, ntags = ex.get("clean_tags") or [], ex.get("noisy_tags") or []
    title = f"{parser}: sentence {ex['sentence']}"
    if clean is not None and noisy is not None and pairs is not None:
        svg = draw_aligned(ex["clean_words"], clean, ex["noisy_words"], noisy, pairs,
                           gold=_arcs(ex.get("gold_arcs")), undirected=links,
                           title=title + ", clean and noisy, aligned",
                           clean_tags=ctags, noisy_tags=ntags)
        moved = moved_pairs(pairs)
        marked = [i not in {p[0] for p in pairs} or any(p[0] == i and p in moved
                                                        for p in pairs)
                  for i in range(len(ex["noisy_words"]))]
        out.append(_scrolled(svg, first_marked_x(ex["noisy_words"], marked, links)))
    elif clean is not None and noisy is not None:
        gold = _arcs(ex.get("gold_arcs"))
        n = len(ex["clean_words"])
        marked = ex["misspelled"][:n]
        x = first_marked_x(ex["noisy_words"], marked, links)
        out.append("<p>clean</p>" + _scrolled(draw(
            ex["clean_words"], clean, other=noisy, gold=gold, undirected=links,
            tags=ctags, other_tags=ntags, title=f"{title}: the clean parse"), x)
            + "<p>noisy</p>" + _scrolled(draw(
            ex["noisy_words"], noisy, other=clean, gold=gold, undirected=links,
            marked=marked, tags=ntags, other_tags=ctags,
            title=f"{title}: the noisy parse"), x))
    out += ["<details><summary>as a table</summary><table class='side'><tr><th>#</th>"
            "<th>clean word</th><th>clean parse</th><th>noisy word</th><th>noisy parse</th>"
            "</tr>"]
    for i, (cw, nw, cp, np_, miss) in enumerate(_side_rows(ex), 1):
        changed = cp != np_
        out.append(f"<tr><td>{i}</td><td>{e(cw)}</td><td>{e(cp)}</td>"
                   f"<td{' class=miss' if miss else ''}>{e(nw)}</td>"
                   f"<td{' class=changed' if changed else ''}>{e(np_)}</td></tr>")
    out.append("</table></details>")
    return "\n".join(out)


def _side_rows(ex: dict[str, Any]) -> list[tuple[str, str, str, str, bool]]:
    """The example's rows side by side: word by word, or with an alignment pair by pair
    (a missing or added word beside an empty cell)."""
    pairs = _pairs(ex.get("alignment"))
    if pairs is None:
        return list(zip(ex["clean_words"], ex["noisy_words"], ex["clean"], ex["noisy"],
                        ex["misspelled"], strict=True))
    cw, nw, cp, np_ = ex["clean_words"], ex["noisy_words"], ex["clean"], ex["noisy"]
    to_noisy = {j: i for i, j in pairs}
    done: set[int] = set()
    rows: list[tuple[str, str, str, str, bool]] = []
    for j in range(len(cw)):
        if j in to_noisy:
            i = to_noisy[j]
            for k in range(len(nw)):  # added words before this one
                if k < i and k not in done and k not in {p[0] for p in pairs}:
                    rows.append(("", nw[k], "", np_[k], True))
                    done.add(k)
            rows.append((cw[j], nw[i], cp[j], np_[i], cw[j] != nw[i]))
            done.add(i)
        else:
            rows.append((cw[j], "(missing)", cp[j], "", True))
    rows += [("", nw[k], "", np_[k], True) for k in range(len(nw)) if k not in done]
    return rows


def _example_md(parser: str, ex: dict[str, Any]) -> str:
    why = f"; {_md(str(ex['why']))}" if ex.get("why") else ""
    types = f"; errors {_md(', '.join(map(str, ex['types'])))}" if ex.get("types") else ""
    lines = [f"#### {_md(parser)}: sentence {_md(str(ex['sentence']))}, {_md(str(ex['level']))}"
             f" (seed {_md(str(ex['seed']))}){why}{types}", "",
             "| # | clean word | clean parse | noisy word | noisy parse |",
             "|---:|---|---|---|---|"]
    for i, (cw, nw, cp, np_, miss) in enumerate(_side_rows(ex), 1):
        nw_s = f"**{_md(nw)}**" if miss else _md(nw)
        np_s = f"**{_md(np_)}** (changed)" if cp != np_ else _md(np_)
        lines.append(f"| {i} | {_md(cw)} | {_md(cp)} | {nw_s} | {np_s} |")
    return "\n".join(lines)


def _examples_section(results: list[dict[str, Any]]) -> Section | None:
    rs = [r for r in results if r["metric"] == "examples"]
    if not rs:
        return None
    sec = Section("Clean and noisy parses side by side")
    note = ("Each example is drawn twice, the clean parse over the clean words and the "
            "noisy parse over the noisy ones (changed words underlined in red; a tagger's "
            "tags under its words). With errors that add, drop or move words, the two "
            "drawings are joined by the alignment: grey a word kept, orange replaced, "
            "purple dashed moved, and the missing and added words marked. An arc (or tag) "
            "the other parse does not have is red; with a gold key, an arc the gold does "
            "not have is dashed. Hover over an arc for its words and label. A long "
            "sentence opens scrolled to its first error. The tables mark the changed words "
            "and the rows whose parse changed (head:relation, or links).")
    sec.html_extra.append(f"<p>{note}</p>")
    sec.md_extra.append(note)
    for r in rs:
        for ex in r["value"]:
            sec.html_extra.append(_example_html(r["parser"], ex))
            sec.md_extra.append(_example_md(r["parser"], ex))
    return sec


def _md(text: str) -> str:
    """Text for a Markdown table cell: no column break, and no HTML tag (Markdown passes
    HTML through, so a name from a store could carry a script)."""
    return str(text).replace("<", "&lt;").replace(">", "&gt;").replace("|", "\\|")


def safe_name(name: str) -> str:
    """NAME as a file name that stays in its folder: letters, digits, ``.``, ``_`` and
    ``-`` only, with a short hash of the name when anything had to change, so that two
    names never share a file."""
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip(".-")[:60] or "experiment"
    if slug == name:
        return slug
    return f"{slug}-{hashlib.sha256(name.encode()).hexdigest()[:8]}"


def _run_table(info: dict[str, Any]) -> Table:
    cfg, stats = info["config"], info["stats"] or {}
    kind = cfg.get("kind", "spelling")
    rows = [["corpus", cfg["corpus"]], ["noise levels", ", ".join(cfg["levels"]) or "none"],
            ["noise", KINDS[kind].title + (": " + ", ".join(cfg["types"])
                                           if cfg.get("types") else "")],
            ["replicates, first seed", f"{cfg['replicates']}, {cfg['seed']}"],
            ["parsers", ", ".join(f"{p['name']} ({p['spec']})" for p in cfg["parsers"])],
            ["sentences parsed in this run", _per_parser(info, "parsed")],
            ["sentences from the cache", _per_parser(info, "cached")]]
    if stats:
        rows.append(["wall time", f"{stats['wall_seconds']:.1f} s ({stats['workers']} "
                                  f"worker(s), {stats['executor']})"])
        for name, ps in stats.get("parsers", {}).items():
            hits = ps["distinct_sentences"] - ps["parsed_sentences"]
            rows.append([f"{name}: words parsed / naive",
                         f"{ps['parsed_words']:,} / {ps['naive_words']:,}"])
            rows.append([f"{name}: distinct sentences, cache hits",
                         f"{ps['distinct_sentences']:,}, {hits:,} "
                         f"({100 * hits / max(1, ps['distinct_sentences']):.1f}%)"])
            rows.append([f"{name}: parse wall time", f"{ps['wall_seconds']:.1f} s"])
    if KINDS[kind].moves_words:
        from parsebench.run.score import applicability

        rows += [[f"method {name}", what] for name, what in applicability(kind).items()]
    for e in info.get("earlier", ()):
        wall = (e["stats"] or {}).get("wall_seconds")
        rows.append([f"earlier run {e['id']}", f"{e['parsed']:,} parsed, {e['cached']:,} from "
                     f"the cache" + (f", {wall:.1f} s" if wall is not None else "")])
    return Table("Run", ["setting", "value"], rows, numeric=False)


def _per_parser(info: dict[str, Any], which: str) -> str:
    """The run's count of distinct sentences parsed (or taken from the cache), and each
    parser's share of it when the run says."""
    total = info.get(which)
    parsers = (info.get("stats") or {}).get("parsers") or {}
    parts = []
    for name, ps in parsers.items():
        if isinstance(ps, dict) and "parsed_sentences" in ps:
            n = ps["parsed_sentences"] if which == "parsed" else \
                ps["distinct_sentences"] - ps["parsed_sentences"]
            parts.append(f"{name} {n:,}")
    head = "n/a" if total is None else f"{total:,}"
    return head + (f" ({', '.join(parts)})" if len(parts) > 1 else "")


def collect(store: Store) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    out = []
    for name, run in store.experiments():
        info = store.run_info(run)
        info["earlier"] = store.earlier_runs(name, run)
        out.append((info, list(store.results(name))))
    if not out:
        raise InputError("the store has no results yet; run parsebench run first", store.path)
    return out


def _significance_section(tests: list[dict[str, Any]]) -> Section | None:
    """Which parsers differ, figure by figure and level by level: the paired bootstrap
    tests of :func:`parsebench.report.summary.pairwise_tests` (the summary's tiers come from
    them), Holm-corrected within each figure and level."""
    if not tests:
        return None
    t = Table("Which parsers differ (paired bootstrap over sentences)",
              ["figure", "level", "parser B - parser A", "difference", "95% CI", "p (Holm)",
               "significant at 0.05"], [], anchor="significance")
    for x in tests:
        p = x["p_holm"]
        t.rows.append([x["figure"], x["level"], f"{x['b']} - {x['a']}", pct(x["difference"]),
                       ci95({"ci95": {"d": x["ci95"]}}, "d"),
                       "n/a" if p is None else f"{p:.4f}",
                       "n/a" if p is None else ("yes" if x["significant"] else "no")])
    t.notes.append(f"At least {SIGNIFICANCE_SAMPLES:,} paired resamples of the sentences "
                   "(seed 1), the same for both parsers; p = (1 + #{|d* - mean d*| >= |d|}) / "
                   "(1 + N), Holm-corrected within each figure and level (the pairs of "
                   "parsers compared on it)")
    return Section("Is the difference real?", [t])


def _sections(results: list[dict[str, Any]], tests: list[dict[str, Any]]) -> list[Section]:
    makers = (_rows_section, _sentences_section, _deps_section, _where_section, _f1_section,
              _types_section, _brackets_section, _attack_section,
              lambda _: _significance_section(tests), _speed_section, _examples_section)
    return [s for s in (m(results) for m in makers) if s is not None]


LEGEND = {
    "misspelled": "share of the words misspelled at this level (measured)",
    "parse differs": "share of rows whose parse changed (Bigert et al.'s differs)",
    "95% CI": "[lo, hi] beside a figure: its 95% interval over sentences",
    "degr. lower": "lower bound of the degradation (Bigert et al., eq. 8)",
    "degr. upper": "upper bound of the degradation (eq. 11)",
    "degr. estimate": "the unsupervised estimate of the degradation (eq. 22)",
    "acc. lower": "lower bound of the noisy accuracy", "acc. upper": "its upper bound",
    "acc. estimate": "the estimated noisy accuracy",
    "real degr.": "degradation measured against the gold key",
    "real acc.": "noisy accuracy measured against the gold key",
    "within bounds": "whether the real degradation lies within the bounds",
    "calibrated degr.": "the estimate calibrated on an annotated sample",
    "95% interval": "the calibration's interval",
    "unlabeled": "share of the clean parse's arcs kept (Kakkonen)",
    "labeled": "the same with their labels",
    "failures": "sentences whose parse failed (counted as non-matches)",
    "UAS": "CoNLL 2018 unlabeled attachment F1", "LAS": "labeled attachment F1",
    "LAS 95% CI": "95% interval over sentences of LAS",
    "unlabeled P": "Lin's unlabeled precision", "unlabeled R": "his unlabeled recall",
    "labeled P": "Lin's labeled precision", "labeled R": "his labeled recall",
    "key deps": "dependencies in the key", "answer deps": "dependencies in the answer",
    "x_aab": "share of rows right in the clean parse and changed in the noisy one",
    "F1": "robustness F1 (Hashemi & Hwa): dependencies kept, error words left out",
    "aligned LAS": "LAS against the gold key of the words the alignment pairs with it",
    "type": "ERRANT's error type (M: missing, U: unnecessary, R: replaced)",
}
"""What a column holds: every table says it under itself, once a column."""


CI_HEADERS = ("95% CI", "LAS 95% CI", "95% interval")
"""Columns that hold the interval of the column to their left: shown in its cell."""


def _merged(t: Table) -> tuple[list[str], list[list[tuple[str, str]]]]:
    """T's headers and cells with each interval column folded into the figure to its
    left: (figure, interval) a cell, the interval "" where there is none."""
    keep = [i for i, h in enumerate(t.headers) if not (i and h in CI_HEADERS)]
    ci_of = {i - 1: i for i, h in enumerate(t.headers) if i and h in CI_HEADERS}
    rows = []
    for row in t.rows:
        cells = []
        for i in keep:
            ci = row[ci_of[i]] if i in ci_of and ci_of[i] < len(row) else ""
            cells.append((row[i] if i < len(row) else "", "" if ci == "n/a" else ci))
        rows.append(cells)
    return [t.headers[i] for i in keep], rows


def _table_md(t: Table, prefix: str = "") -> str:
    headers, rows = _merged(t)
    lines = ([f'<a id="{prefix}{t.anchor}"></a>', ""] if t.anchor else []) + [
        f"**{_md(t.title)}**", "", "| " + " | ".join(_md(h) for h in headers) + " |",
        "|" + "|".join("---:" if t.numeric and k else "---" for k in range(len(headers)))
        + "|"]
    lines += ["| " + " | ".join(_md(f"{c} {ci}" if ci else c) for c, ci in row) + " |"
              for row in rows]
    lines += [""] + [f"- {_md(n)}" for n in _legend(t) + t.notes]
    return "\n".join(lines)


_NUMBER = re.compile(r"^[-+]?[\d.,]+%?( ± [\d.,]+)?( \[[-\d., ]+\])?$|^\[[-\d., ]+\]$|^n/a$"
                     r"|^–$|^[\d,]+/[\d,]+ \(\d+%\)$|^[-+]?[\d.,]+ points$")


def _legend(t: Table) -> list[str]:
    """A line saying what each column holds, for the columns LEGEND knows."""
    known = [f"{h}: {LEGEND[h]}" for h in dict.fromkeys(t.headers) if h in LEGEND]
    return ["Columns: " + "; ".join(known) + "."] if known else []


def _cell_html(c: str, ci: str, numeric: bool) -> str:
    e = html.escape
    inner = f"<span class='fig'>{e(c)}</span>" + (f" <span class='ci'>{e(ci)}</span>"
                                                   if ci else "")
    return f"<td class='num'>{inner}</td>" if numeric and _NUMBER.match(c) else \
        f"<td>{inner}</td>"


def _table_html(t: Table, prefix: str = "") -> str:
    headers, rows = _merged(t)
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(_cell_html(c, ci, t.numeric) for c, ci in row) + "</tr>"
                   for row in rows)
    notes = "".join(f"<li>{html.escape(n)}</li>" for n in _legend(t) + t.notes)
    ident = f" id='{prefix}{t.anchor}'" if t.anchor else ""
    cls = "" if t.numeric else " class='settings'"
    return (f"<div class='tablewrap'{ident}><table{cls}><caption>{html.escape(t.title)}</caption>"
            f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>"
            + (f"<ul class='notes'>{notes}</ul>" if notes else ""))


STYLE = """body{font-family:system-ui,sans-serif;max-width:1180px;margin:2em auto;
padding:0 1em;color:#222}
.tablewrap{max-width:100%;overflow-x:auto}
table{border-collapse:collapse;margin:1em 0;font-size:13px}caption{text-align:left;
font-weight:bold;padding:4px 0}td,th{border:1px solid #ccc;padding:3px 7px;text-align:left}
th{background:#f3f3f3;white-space:normal;vertical-align:bottom}
td{white-space:nowrap}td.num{text-align:right;font-variant-numeric:tabular-nums}
td .ci{color:#666;font-size:12px}table.settings td{white-space:normal;max-width:900px}
ul.notes{font-size:12px;color:#555;overflow-wrap:anywhere}
td.miss{background:#ffe08a;font-weight:bold}.drawn{overflow-x:auto;max-width:100%}
td.changed{background:#f8b4b4}
figure{margin:1em 0}figcaption{font-size:13px;color:#444}img{max-width:100%;height:auto}
section.summary{border:1px solid #bbb;background:#fafafa;padding:.5em 1em;margin:1em 0}
section.summary li{margin:.4em 0}section.summary svg{display:block;margin:.2em 0}
.drawn svg text.tag{fill:#2a6f97;font-size:11px}"""


def _ranking_svg(item: dict[str, Any]) -> str:
    """A question's figure: each ranked parser's value and 95% interval on one scale,
    a shade a tier."""
    e = html.escape
    rows = item["ranking"]
    tier_of = {p: k for k, t in enumerate(item["tiers"]) for p in t}
    vals = [x for r in rows for x in [r["value"], *(r["ci95"] or [])] if x is not None]
    lo, hi = min(vals), max(vals)
    pad = (hi - lo) * 0.1 or 0.01
    lo, hi = max(0.0, lo - pad), min(1.0, hi + pad) if hi <= 1 else hi + pad
    name_w, plot_w, row_h = 150, 420, 20

    def x(v: float) -> float:
        return float(name_w + 10 + plot_w * (v - lo) / ((hi - lo) or 1.0))

    height = row_h * len(rows) + 22
    out = [f"<svg class='ranking' width='{name_w + plot_w + 80}' height='{height}' "
           "font-family='sans-serif' font-size='12' role='img' "
           f"aria-label='{e(item['figure'])} by parser'>"]
    for k, r in enumerate(rows):
        y = 12 + k * row_h
        colour = ("#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b")[
            tier_of.get(r["parser"], 0) % 5]
        out.append(f"<text x='{name_w}' y='{y + 4}' text-anchor='end'>{e(r['parser'])}</text>")
        if r["ci95"]:
            out.append(f"<line class='interval' x1='{x(r['ci95'][0]):.1f}' y1='{y}' "
                       f"x2='{x(r['ci95'][1]):.1f}' y2='{y}' stroke='{colour}' "
                       "stroke-width='2'/>")
        out.append(f"<circle cx='{x(r['value']):.1f}' cy='{y}' r='4' fill='{colour}'/>"
                   f"<text x='{name_w + plot_w + 20}' y='{y + 4}'>"
                   f"{100 * r['value']:.1f}%</text>")
    yb = height - 6
    out.append(f"<text x='{name_w + 10}' y='{yb}' fill='#777'>{100 * lo:.0f}%</text>"
               f"<text x='{name_w + 10 + plot_w}' y='{yb}' fill='#777' text-anchor='end'>"
               f"{100 * hi:.0f}%</text></svg>")
    return "".join(out)


def _summary_items(s: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The summary's claims in reading order, each with its kind."""
    items: list[tuple[str, dict[str, Any]]] = []
    if s.get("accuracy"):
        items.append(("ranked", s["accuracy"]))
    items += [("ranked", x) for x in s.get("robustness", [])]
    items += [("hurts", x) for x in s.get("hurts", [])]
    return items


def _summary_html(s: dict[str, Any], prefix: str) -> str:
    e = html.escape
    lis = []
    for kind, x in _summary_items(s):
        fig = _ranking_svg(x) if kind == "ranked" else ""
        tiers = ""
        if kind == "ranked" and x["tests"]:
            tiers = (" data-tiers='" + e(json.dumps(x["tiers"])) + "' data-method='"
                     + e(x["method"]) + "' data-level='" + e(x["level"]) + "'")
        lis.append(f"<li class='{kind}'{tiers}>{e(x['sentence'])} "
                   f"<a href='#{prefix}{e(x['link'])}'>(table)</a>{fig}</li>")
    warn = "".join(f"<li class='warning'>{e(w['sentence'])} "
                   f"<a href='#{prefix}{e(w['link'])}'>(table)</a></li>"
                   for w in s.get("warnings", []))
    if not lis and not warn:
        return ""
    return ("<section class='summary'><h3>Summary</h3><ul>" + "".join(lis) + "</ul>"
            + (f"<p><b>Warnings</b> ({len(s['warnings'])}, each once)</p><ul>{warn}</ul>"
               if warn else "") + "</section>")


def _summary_md(s: dict[str, Any], prefix: str) -> list[str]:
    lines = [f"- {_md(x['sentence'])} ([table](#{prefix}{x['link']}))"
             for _, x in _summary_items(s)]
    warn = [f"- {_md(w['sentence'])} ([table](#{prefix}{w['link']}))"
            for w in s.get("warnings", [])]
    if not lines and not warn:
        return []
    return (["### Summary", ""] + lines + [""]
            + ([f"Warnings ({len(warn)}, each once):", "", *warn, ""] if warn else []))


def _csv_rows(results: list[dict[str, Any]], experiment: str) -> list[list[str]]:
    out = []

    def walk(prefix: str, v: Any, r: dict[str, Any]) -> None:
        if isinstance(v, dict):
            for k, x in v.items():
                walk(f"{prefix}.{k}" if prefix else k, x, r)
        elif isinstance(v, (int, float)) and not isinstance(v, bool):
            out.append([experiment, r["parser"], r["metric"], r["projection"], r["level"],
                        prefix, repr(v)])

    for r in results:
        if r["metric"] != "examples":
            walk("", {k: x for k, x in r["value"].items() if k != "replicates"}, r)
    return out


DAMAGE = (sqlite3.DatabaseError, ValueError, KeyError, TypeError, AttributeError,
           IndexError)
"""What reading a damaged or crafted store raises: JSON that does not parse (a
ValueError), text that is not UTF-8, values of the wrong type or missing keys."""


def write_report(store: Store, outdir: str | Path) -> dict[str, Path]:
    """Write index.md, index.html, results.csv, results.json and plots/*.png into OUTDIR.

    Everything is built before anything is written, so a store that cannot be read
    leaves no half report (and no empty plots folder) behind; what the store holds is
    escaped everywhere it goes into HTML or Markdown.
    """
    outdir = check_folder(outdir)
    try:
        data = collect(store)
        md, page, csv_text, images, summaries = _build(data)
        json_text = json.dumps([{"run": info, "summary": s,
                                 "results": [r for r in results if r["metric"] != "browser"]}
                                for (info, results), s in zip(data, summaries, strict=True)],
                               indent=1, ensure_ascii=False) + "\n"
        for text in (md, page, csv_text, json_text):
            text.encode("utf-8")  # a lone surrogate from crafted JSON cannot be written
    except DAMAGE as exc:
        raise InputError(f"the store's results cannot be read ({type(exc).__name__}: "
                         f"{' '.join(str(exc).split())[:120]}); it is damaged, or was not "
                         "written by parsebench", store.path) from None
    outdir.mkdir(parents=True, exist_ok=True)
    if images:
        (outdir / "plots").mkdir(exist_ok=True)
    for fname, png in images:
        _write_bytes(outdir / "plots" / fname, png)
    files = {"markdown": outdir / "index.md", "html": outdir / "index.html",
             "csv": outdir / "results.csv", "json": outdir / "results.json"}
    with atomic_output(files["markdown"]) as fh:
        fh.write(md)
    with atomic_output(files["html"]) as fh:
        fh.write(page)
    with atomic_output(files["csv"]) as fh:
        fh.write(csv_text)
    with atomic_output(files["json"]) as fh:
        fh.write(json_text)
    return files


def _build(data: list[tuple[dict[str, Any], list[dict[str, Any]]]]
           ) -> tuple[str, str, str, list[tuple[str, bytes]], list[dict[str, Any]]]:
    """The Markdown, the HTML page, the CSV, the plots (file name, PNG) and the summary
    of each experiment of DATA."""
    md: list[str] = ["# parsebench report", ""]
    body: list[str] = ["<h1>parsebench report</h1>"]
    csv_rows: list[list[str]] = []
    images: list[tuple[str, bytes]] = []
    summaries: list[dict[str, Any]] = []
    browsers = 0
    for info, all_results in data:
        name = str(info["experiment"])
        prefix = anchor(name) + "--"
        # the browser's data goes into the page only, not into the tables, CSV or JSON
        results = [r for r in all_results if r["metric"] != "browser"]
        tests = pairwise_tests(results)
        summary = summarize(results, tests)
        summaries.append(summary)
        run_table = _run_table(info)
        md += [f"## {_md(name)}", "", *_summary_md(summary, prefix),
               _table_md(run_table, prefix), ""]
        body += [f"<h2 id='{prefix[:-2]}'>{html.escape(name)}</h2>",
                 _summary_html(summary, prefix), _table_html(run_table, prefix)]
        for sec in _sections(results, tests):
            md += [f"### {_md(sec.title)}", ""]
            body.append(f"<h3>{html.escape(sec.title)}</h3>")
            for t in sec.tables:
                md += [_table_md(t, prefix), ""]
                body.append(_table_html(t, prefix))
            for fname, caption, plot in sec.images:
                ident = f"{prefix}plot-{anchor(fname.removesuffix('.png'))}"
                # the whole name comes from data (experiment, parser, projection)
                fname = safe_name(f"{name}-{fname.removesuffix('.png')}") + ".png"
                images.append((fname, plot.png))
                md += [f'<a id="{ident}"></a>', "", f"![{_md(caption)}](plots/{fname})",
                       f"*{_md(caption)}*", ""]
                body.append(f"<figure id='{ident}' data-points='{plot.points}' "
                            f"data-intervals='{plot.intervals}'><img alt='"
                            f"{html.escape(caption)}' src='data:image/svg+xml;base64,"
                            f"{base64.b64encode(plot.svg).decode()}'><figcaption>"
                            f"{html.escape(caption)}</figcaption></figure>")
            md += sec.md_extra + ([""] if sec.md_extra else [])
            body += sec.html_extra
        merged = merge([(r["parser"], r["value"]) for r in all_results
                                if r["metric"] == "browser"])
        if merged is not None:
            title = "Sentence browser"
            note = ("Every sentence of every noisy version and parser: filter them, then "
                    "click a row to draw its clean and noisy parse.")
            md += [f"### {title}", "", note + " It is in index.html (it needs the page's "
                   "script).", ""]
            body += [f"<h3>{title}</h3><p>{html.escape(note)}</p>",
                     html_of(merged, browsers)]
            browsers += 1
        csv_rows += _csv_rows(results, name)
    script = f"<script>{SCRIPT}</script>"
    page = ("<!DOCTYPE html><html><head><meta charset='utf-8'><title>parsebench report</title>"
            "<meta name='viewport' content='width=device-width'>"
            f"<style>{STYLE}{BROWSER_STYLE}</style></head><body>" + "\n".join(body)
            + script + "</body></html>\n")
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["experiment", "parser", "metric", "projection", "level", "key", "value"])
    w.writerows(csv_rows)
    return "\n".join(md) + "\n", page, buf.getvalue(), images, summaries


def _write_bytes(path: Path, data: bytes) -> None:
    tmp = path.with_name("." + path.name + ".tmp")
    tmp.write_bytes(data)
    tmp.replace(path)


def summary_table(results: list[tuple[str, str, str, str, str, Any]]) -> str:
    """The end-of-run table on the terminal: the headline figure of every result."""
    lines = [f"{'parser':<16} {'metric':<10} {'projection':<12} {'level':<18} headline"]
    for parser, metric, proj, level, _sig, v in results:
        if metric == "rows":
            g = v.get("gold")
            head = (f"differs {pct(v['differs'])}  estimate {pct(v['degr_estimate'])}"
                    + (f"  real {pct(g['degr_real'])}" if g else "")
                    + (f"  calibrated {pct(v['degr_calibrated'])}"
                       if "degr_calibrated" in v else ""))
        elif metric == "sentences":
            head = f"unlabeled {pct(v['unlabeled'])}  labeled {pct(v['labeled'])}"
        elif metric == "deps":
            head = f"UAS {pct(v['uas']['f1'])}  LAS {pct(v['las']['f1'])}"
        elif metric == "f1":
            head = f"P {pct(v['precision'])}  R {pct(v['recall'])}  F1 {pct(v['f1'])}"
        elif metric == "speed":
            head = f"{v['words_per_second'] or 0:,.0f} words/s, {v['failures']} failures"
        else:
            continue
        lines.append(f"{parser:<16} {metric:<10} {proj:<12} {level:<18} {head}")
    return "\n".join(lines) + "\n"

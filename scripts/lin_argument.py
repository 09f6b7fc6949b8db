"""Build the tables of docs/lin-argument.md: Lin's argument against Parseval, measured on
Link Grammar's constituent trees of the Penn Treebank sample (``make lin-argument``).

Inputs (written by the Makefile target): the gold trees, the parser's trees, EVALB's JSON
of them (``eval brackets --json``: each sentence's matched, gold and test brackets and
crossing brackets), and the per-sentence TSV of ``eval deps --head-rules collins`` (each
sentence's UAS/LAS counts after both sides are converted by the same rules). Intervals
are 95% bootstrap intervals over sentences (2,000 resamples, seed 1), as parsebench's
own. Why a script: these figures join two methods' per-sentence results, which no single
command reports.

    python scripts/lin_argument.py EVALB.json DEPS.tsv DEPS.json TEST.mrg TEMPLATE OUTPUT
"""

from __future__ import annotations

import csv
import json
import re
import sys
from pathlib import Path
from typing import Any

import numpy as np

from parsebench.formats.brackets import read_tree_texts
from parsebench.metrics.core.resample import bootstrap_scores, interval
from parsebench.metrics.core.scores import f1_of_counts, share

SAMPLES, SEED = 2000, 1


def pct(x: float | None) -> str:
    return "n/a" if x is None or np.isnan(x) else f"{100 * x:.2f}"


def ci(iv: Any) -> str:
    return "n/a" if not iv else f"[{pct(iv[0])}, {pct(iv[1])}]"


def load(evalb: Path, deps_tsv: Path, test: Path) -> list[dict[str, float]]:
    """One row per sentence that both methods scored (EVALB's valid sentences) and that
    the parser did not fail on (its ``PARSE-FAILED`` trees are left out of both)."""
    ev = json.loads(evalb.read_text(encoding="utf-8"))["rows"]
    with deps_tsv.open(encoding="utf-8") as f:
        deps = list(csv.DictReader(f, delimiter="\t"))
    failed = [t.text.startswith("(PARSE-FAILED") for t in read_tree_texts(test)]
    if not len(ev) == len(deps) == len(failed):
        raise SystemExit(f"{len(ev)} EVALB rows, {len(deps)} dependency rows, "
                         f"{len(failed)} test trees")
    out = []
    for e, d, bad in zip(ev, deps, failed, strict=True):
        if e["status"] != 0 or bad:
            continue
        out.append({"matched": e["matched"], "gold": e["gold_brackets"],
                    "test": e["test_brackets"], "crossing": e["crossing"],
                    "words": e["length"], "uas_c": int(d["uas_correct"]),
                    "uas_g": int(d["uas_gold"]), "las_c": int(d["las_correct"])})
    return out


def corpus_table(rows: list[dict[str, float]]) -> str:
    """Parseval and Lin's scores of the same parses, each with its interval."""
    def prf(cols: tuple[str, ...]) -> np.ndarray:
        return np.array([[r[c] for c in cols] for r in rows], dtype=np.float64)

    figures = [
        ("Parseval labeled recall (EVALB)", prf(("matched", "gold")), share(0, 1)),
        ("Parseval labeled precision (EVALB)", prf(("matched", "test")), share(0, 1)),
        ("Parseval labeled F (EVALB)", prf(("matched", "gold", "test")), f1_of_counts),
        ("Lin unlabeled: UAS after conversion (collins)", prf(("uas_c", "uas_g")),
         share(0, 1)),
        ("Lin labeled: LAS after conversion (collins)", prf(("las_c", "uas_g")),
         share(0, 1)),
    ]
    lines = ["| figure | value | 95% CI |", "|---|---:|---|"]
    for name, stats, score in figures:
        draws = bootstrap_scores([stats], score, SAMPLES, SEED)[0]
        lines.append(f"| {name} | {pct(float(score(stats.sum(axis=0))))} | "
                     f"{ci(interval(draws, 0.05))} |")
    return "\n".join(lines)


def cost_table(rows: list[dict[str, float]]) -> str:
    """What a sentence with 0, 1, 2, 3 wrong heads loses in brackets."""
    lines = ["| wrong heads in the sentence | sentences | gold brackets missed | "
             "wrong test brackets | crossing brackets | missed per wrong head |",
             "|---:|---:|---:|---:|---:|---:|"]
    zero = None
    for k in (0, 1, 2, 3):
        sel = [r for r in rows if r["uas_g"] - r["uas_c"] == k]
        if not sel:
            continue
        missed = float(np.mean([r["gold"] - r["matched"] for r in sel]))
        wrong = float(np.mean([r["test"] - r["matched"] for r in sel]))
        cross = float(np.mean([r["crossing"] for r in sel]))
        if k == 0:
            zero = missed
        per = "" if k == 0 or zero is None else f"{(missed - zero) / k:.2f}"
        lines.append(f"| {k} | {len(sel)} | {missed:.2f} | {wrong:.2f} | {cross:.2f} | {per} |")
    return "\n".join(lines)


def spearman(a: np.ndarray, b: np.ndarray) -> float:
    def ranks(x: np.ndarray) -> np.ndarray:
        order = x.argsort(kind="stable")
        r = np.empty(len(x))
        r[order] = np.arange(len(x))
        for v in np.unique(x):  # ties share their mean rank
            m = x == v
            r[m] = r[m].mean()
        return r
    return float(np.corrcoef(ranks(a), ranks(b))[0, 1])


def ranking_table(rows: list[dict[str, float]]) -> str:
    """How the two methods rank sentences: rank correlation, and the pairs of sentences
    the two order the other way round."""
    ok = [r for r in rows if r["gold"] and r["uas_g"]]
    rec = np.array([r["matched"] / r["gold"] for r in ok])
    dep = np.array([r["uas_c"] / r["uas_g"] for r in ok])
    rng = np.random.default_rng(SEED)
    rhos = []
    for _ in range(500):
        i = rng.integers(0, len(ok), len(ok))
        rhos.append(spearman(rec[i], dep[i]))
    rho = spearman(rec, dep)
    i = rng.integers(0, len(ok), 20000)
    j = rng.integers(0, len(ok), 20000)
    keep = (rec[i] != rec[j]) & (dep[i] != dep[j])
    opposite = float(np.mean(np.sign(rec[i] - rec[j])[keep] != np.sign(dep[i] - dep[j])[keep]))
    perfect_dep = [r for r, d in zip(ok, dep, strict=True) if d == 1.0]
    perfect_rec = [r for r, x in zip(ok, rec, strict=True) if x == 1.0]

    def mean(xs: list[float]) -> str:
        return pct(float(np.mean(xs))) if xs else "n/a (no sentence)"

    lines = ["| | value |", "|---|---:|",
             f"| sentences scored by both | {len(ok)} |",
             f"| Spearman's rho, bracket recall against dependency recall (UAS) | "
             f"{rho:.3f} {_interval(rhos)} |",
             f"| share of sentence pairs the two methods order oppositely | "
             f"{100 * opposite:.1f}% |",
             f"| sentences with every head right (UAS 100) | {len(perfect_dep)} |",
             f"| ... of which with every gold bracket found | "
             f"{sum(r['matched'] == r['gold'] for r in perfect_dep)} |",
             f"| ... their mean bracket recall | "
             f"{mean([r['matched'] / r['gold'] for r in perfect_dep])} |",
             f"| sentences with every gold bracket found | {len(perfect_rec)} |",
             f"| ... their mean UAS | {mean([r['uas_c'] / r['uas_g'] for r in perfect_rec])} |"]
    return "\n".join(lines)


def _interval(values: list[float]) -> str:
    lo, hi = np.percentile(values, [2.5, 97.5])
    return f"[{lo:.3f}, {hi:.3f}]"


def by_tag_table(deps_json: Path) -> str:
    """Attachment by the gold word's UPOS after conversion: prepositions (PP attachment)
    and coordinators (coordination), Lin's Figure 18.2 cases, beside the rest."""
    d = json.loads(deps_json.read_text(encoding="utf-8"))
    by = d["by"]
    total = d["unlabeled"]
    lines = ["| gold UPOS | words | unlabeled recall (right head) |", "|---|---:|---:|"]
    for tag in ("ADP", "CCONJ", "NOUN", "VERB", "ADJ", "ADV", "PRON", "DET"):
        if tag in by:
            u = by[tag]["unlabeled"]
            lines.append(f"| {tag} | {u['key']} | {pct(u['recall'])} |")
    lines.append(f"| all | {total['key']} | {pct(total['recall'])} |")
    return "\n".join(lines)


def build(evalb: Path, deps_tsv: Path, deps_json: Path, test: Path, template: Path,
          out: Path) -> None:
    rows = load(evalb, deps_tsv, test)
    parts = {"corpus": corpus_table(rows), "cost": cost_table(rows),
             "ranking": ranking_table(rows), "by-tag": by_tag_table(deps_json)}
    text = re.sub(r"^<!-- table: (\S+) -->$", lambda m: parts[m.group(1)],
                  template.read_text(encoding="utf-8"), flags=re.M)
    out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    build(*(Path(a) for a in sys.argv[1:7]))

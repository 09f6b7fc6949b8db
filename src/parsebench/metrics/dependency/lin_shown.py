"""How the dependency scores are shown (Lin's precision and recall by relation, word
and category; the CoNLL 2018 metrics; MaltEval's breakdowns): the report's sections
(accuracy clean and under noise, where the errors fall, the plots asked for) and
``eval deps``'s text on the terminal."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from parsebench.metrics.dependency.conll18 import conll18_table, counts_table
from parsebench.metrics.dependency.figures import (
    Bucket,
    Confusion,
    DepsEval,
    ExactMatch,
)
from parsebench.metrics.dependency.lin import ROOT_ARC_FIELDS
from parsebench.present import percent
from parsebench.present.tables import (
    pct,
)


def _pct(x: float | None) -> str:
    return percent(x, 6)


def _pr_row(name: str, b: Bucket, extra: Sequence[str] = ()) -> list[str]:
    return [name, str(b.labeled.key), str(b.labeled.answer), pct(b.unlabeled.precision),
            pct(b.unlabeled.recall), pct(b.labeled.precision), pct(b.labeled.recall),
            *extra]

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

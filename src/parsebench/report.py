"""Text tables for the terminal: the layouts of the papers' tables, plain and diffable."""

from __future__ import annotations

from parsebench.metrics.deps import DepsResult
from parsebench.metrics.flat import FlatCounts


def _pct(x: float) -> str:
    return f"{100 * x:6.2f}"


def deps_table(result: DepsResult, gold: str, system: str, sig: str) -> str:
    t = result.total
    lines = [
        f"Dependency evaluation of {system} against {gold}",
        f"{t.words} gold words in {len(result.sentences)} sentences",
        "",
        "Lin           precision  recall      F1     key  answer  matched",
    ]
    for name, pr in (("unlabeled", t.unlabeled), ("labeled", t.labeled)):
        lines.append(f"{name:<13} {_pct(pr.precision):>9} {_pct(pr.recall):>7} {_pct(pr.f1):>7}"
                     f" {pr.key:7d} {pr.answer:7d} {pr.key_found:8d}")
    lines += ["", "CoNLL 2018    precision  recall      F1"]
    for name, c in (("UAS", t.uas), ("LAS", t.las), ("CLAS", t.clas)):
        d = c.as_dict()
        lines.append(f"{name:<13} {_pct(d['precision']):>9} {_pct(d['recall']):>7}"
                     f" {_pct(d['f1']):>7}")
    if result.by is not None:
        field = result.by_field or ""
        lines += ["", f"By {field}"]
        head = f"{field:<16}"
        if field == "category":
            head += " sentences avg.len"
        head += "    key answer  prec.  recall  l.prec l.recall"
        lines.append(head)
        items = sorted(result.by.items(), key=lambda kv: (-(kv[1].unlabeled.key
                                                            + kv[1].unlabeled.answer), kv[0]))
        for name, b in items:
            row = f"{name[:16]:<16}"
            if field == "category":
                avg = b.words / b.sentences if b.sentences else 0.0
                row += f" {b.sentences:9d} {avg:7.2f}"
            u, lab = b.unlabeled, b.labeled
            row += (f" {u.key:6d} {u.answer:6d} {_pct(u.precision)} {_pct(u.recall)}  "
                    f"{_pct(lab.precision)} {_pct(lab.recall)}")
            lines.append(row)
    lines += ["", f"signature: {sig}"]
    return "\n".join(lines) + "\n"


def flat_table(total: FlatCounts, key: str, response: str, sig: str) -> str:
    c = total
    return (
        f"Flat-key evaluation of {response} against {key}\n"
        "KeyCons  RespCons  Matched  KCV   Recall  Precision  Conformance\n"
        f"{c.key:7d} {c.response:9d} {c.matched:8d} {c.violated:4d}  {_pct(c.recall):>7}"
        f" {_pct(c.precision):>10} {_pct(c.conformance):>12}\n"
        f"\nsignature: {sig}\n"
    )

"""Build the section "How far the basic tree gets on EWT test" of docs/udeval.md
(``make udeval-study``): ELAS and EULAS of UDPipe, spacy-ud and the biaffine parser with
their basic trees copied into DEPS (the IWPT baseline), beside the gold's basic tree
copied, and what the gold's enhanced edges are that no basic tree has.

Inputs (written by the Makefile target): ``DIR/NAME.eN.json``, ``eval deps --json`` of
each system against the gold with ``--enhancements N`` (N in 0, 6, 126). The section is
filled from TEMPLATE and put between the markers of PAGE, so that the rest of the page
stays as it is written. Why a script: the table joins nine scores of four systems and a
count of the gold's edges, which no single command gives.

    python scripts/udeval_study.py DIR GOLD.conllu TEMPLATE PAGE
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from doc_template import fill, machine, pct, today, write

from parsebench.formats.conllu import read_conllu

SYSTEMS = (("gold", "the gold's basic tree copied"),
           ("udpipe", "UDPipe 1, basic tree copied"),
           ("spacy-ud", "spacy-ud, basic tree copied"),
           ("biaffine", "biaffine (SuPar), basic tree copied"))
PARSERS = tuple(name for name, _ in SYSTEMS[1:])
BEGIN = "<!-- begin: scripts/udeval_study.py writes this section -->"
END = "<!-- end: scripts/udeval_study.py -->"
KINDS = (("subtype", "the basic edge with a case-marked or other added subtype "
          "(`obl:in`, `conj:and`, `nmod:of`)"),
         ("other", "propagated over a conjunction (shared parents and dependents) and "
          "other extra edges"),
         ("xsubj", "controlled subjects (`nsubj:xsubj`)"),
         ("relcl", "external arguments of relative clauses"),
         ("ref", "`ref` (relative pronouns)"))


def edge_kinds(gold: Path) -> Counter[str]:
    """The gold's enhanced edges between words (not empty nodes, which ELAS leaves out)
    by what they are beside the word's basic edge."""
    kinds: Counter[str] = Counter()
    for s in read_conllu(gold):
        for i, deps in enumerate(s.deps):
            if deps == "_":
                continue
            for edge in deps.split("|"):
                h_text, _, rel = edge.partition(":")
                if "." in h_text:
                    continue
                h = int(h_text)
                if h == s.heads[i] and rel == s.deprels[i]:
                    kinds["basic"] += 1
                elif rel == "ref":
                    kinds["ref"] += 1
                elif ":xsubj" in rel:
                    kinds["xsubj"] += 1
                elif h == s.heads[i]:
                    kinds["subtype"] += 1
                elif h > 0 and s.deprels[h - 1].startswith("acl:relcl") \
                        and s.heads[h - 1] == i + 1:
                    kinds["relcl"] += 1
                else:
                    kinds["other"] += 1
    return kinds


def f1(scores: dict[str, Any], metric: str) -> float | None:
    value = scores[metric]
    return None if value is None else value["f1"]


def build(folder: Path, gold: Path, template: Path, page: Path) -> None:
    got = {(name, e): json.loads((folder / f"{name}.e{e}.json").read_text(encoding="utf-8"))
           for name, _ in SYSTEMS for e in (0, 6, 126)}
    rows = ["| system | UAS | LAS | ELAS | EULAS | ELAS `--enhancements 6` | "
            "ELAS `--enhancements 126` |", "|---|---|---|---|---|---|---|"]
    for name, label in SYSTEMS:
        s = got[(name, 0)]
        rows.append(f"| {label} | " + " | ".join(pct(f1(s, m)) for m in
                    ("uas", "las", "elas", "eulas")) + f" | {pct(f1(got[(name, 6)], 'elas'))}"
                    f" | {pct(f1(got[(name, 126)], 'elas'))} |")
    kinds = edge_kinds(gold)
    total = sum(kinds.values())
    edges = ["| gold enhanced edge | edges | share |", "|---|---|---|"]
    edges += [f"| {label} | {kinds[k]:,} | {pct(kinds[k] / total)}% |" for k, label in KINDS]

    def each(metric: str, e: int) -> str:
        return ", ".join(f"{p} {pct(f1(got[(p, e)], metric))}" for p in PARSERS)

    def gap(p: str) -> str:
        las, elas6 = f1(got[(p, 0)], "las"), f1(got[(p, 6)], "elas")
        return "n/a" if las is None or elas6 is None else f"{100 * (las - elas6):.2f}"

    section = fill(template.read_text(encoding="utf-8"), {
        "scores": "\n".join(rows), "gold-edges": "\n".join(edges),
        "gold_edges": f"{total:,}", "basic_share": pct(kinds["basic"] / total),
        "gold_elas": pct(f1(got[("gold", 0)], "elas")),
        "gold_elas6": pct(f1(got[("gold", 6)], "elas")),
        "gold_p6": pct(got[("gold", 6)]["elas"]["precision"]),
        "gold_r6": pct(got[("gold", 6)]["elas"]["recall"]),
        "parsers_elas": each("elas", 0), "parsers_elas6": each("elas", 6),
        "extra_share": pct(sum(kinds[k] for k in ("other", "xsubj", "relcl", "ref"))
                           / total),
        "gaps": ", ".join(f"{p} {gap(p)}" for p in PARSERS),
        "date": today(), "machine": machine()})
    text = page.read_text(encoding="utf-8")
    head, begin, rest = text.partition(BEGIN)
    _, end, tail = rest.partition(END)
    if not (begin and end):
        raise SystemExit(f"{page}: the markers {BEGIN!r} and {END!r} are missing")
    write(page, f"{head}{BEGIN}\n{section.strip()}\n{END}{tail}")


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    build(*(Path(a) for a in sys.argv[1:]))
    print(f"wrote {sys.argv[4]}")

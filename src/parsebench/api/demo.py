"""``parsebench demo``: the bundled experiment, or the papers' worked examples.

The default demo runs ``data/demo/experiment.toml``: Link Grammar (a Debian
package, installed by ``make demo``) on a short text written for this
project, misspelled at three levels, scored, stored and reported. The paper
examples (Lin's Table 18.1 and 18.5 sentences, three trees with an attachment
error) need no parser at all.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from importlib.resources import as_file, files
from pathlib import Path
from typing import Any

from parsebench.common.signature import signature
from parsebench.formats.brackets import read_tree_texts, read_trees
from parsebench.formats.conllu import read_conllu
from parsebench.formats.evalb_prm import EvalbParams
from parsebench.metrics.constituency.brackets_shown import flat_table
from parsebench.metrics.constituency.evalb_scorer import score_brackets
from parsebench.metrics.constituency.gaizauskas_records import FlatEval
from parsebench.metrics.constituency.gaizauskas_scorer import (
    flatten_tree,
    read_rules,
    score_spans,
    spans,
)
from parsebench.metrics.dependency.evaluate import DepsOptions, DepsResult, score_deps
from parsebench.metrics.dependency.figures import DepsEval
from parsebench.metrics.dependency.lin_scorer import SIGNATURE, Selection
from parsebench.metrics.dependency.lin_shown import deps_table


def run_paper_examples() -> None:
    data = files("parsebench") / "data"
    out = sys.stdout
    with as_file(data) as d:
        key, answer = d / "lin-key.conllu", d / "lin-answer.conllu"
        gold_c, ans_c = read_conllu(key), read_conllu(answer)
        out.write("== Lin: dependency-based evaluation, Tables 18.1 and 18.5 together ==\n")
        res = score_deps(gold_c, ans_c, DepsOptions(gold_path=str(key), system_path=str(answer),
                                                    per_sentence=False))
        out.write(deps_table(_scores(res, signature(method=SIGNATURE)), key.name,
                             answer.name))
        out.write("\n== Lin: selective evaluation, verb objects (obj1, obj2) ==\n")
        sel = [Selection.parse("deprel=obj1,obj2")]
        res = score_deps(gold_c[:1], ans_c[:1], DepsOptions(select=sel, per_sentence=False))
        out.write(deps_table(_scores(res, signature(method=SIGNATURE,
                                                    select="deprel=obj1,obj2")),
                             key.name, answer.name))
        out.write("\n" + lin_beside_the_paper(gold_c, ans_c))

        gold_t, test_t = d / "demo-gold.mrg", d / "demo-test.mrg"
        out.write("\n== Parseval (EVALB defaults) ==\n")
        ev = score_brackets(read_tree_texts(gold_t), read_tree_texts(test_t), EvalbParams())
        out.write(ev.report())

        out.write("\n== Flat keys: flatten the gold trees, then recall and conformance ==\n")
        rules = read_rules(d / "demo-rules.txt")
        flat_keys = [flatten_tree(t, rules) for t in read_trees(gold_t)]
        for t in flat_keys:
            out.write(f"{t}\n")
        total = None
        for k, r in zip(flat_keys, read_trees(test_t), strict=True):
            c = score_spans(spans(k), spans(r))
            if total is None:
                total = c
            else:
                total.add(c)
        assert total is not None
        out.write(flat_table(FlatEval(**vars(total.scores()),
                                      signature=signature(method="flat-conformance")),
                             "flattened demo-gold.mrg", test_t.name))


def _scores(res: DepsResult, sig: str) -> DepsEval:
    """The records ``eval deps`` prints of RES, signed SIG."""
    return DepsEval.from_dict({**res.as_dict(), "signature": sig})



def lin_beside_the_paper(key: list[Any], answer: list[Any]) -> str:
    """Lin's worked examples one sentence at a time, as his chapter prints them, beside
    his figures (the tables above score both sentences together: 60.00 and 40.00 are
    no figure of the paper)."""
    def pr(sentences: slice, select: str | None = None) -> Any:
        sel = [Selection.parse(select)] if select else []
        return score_deps(key[sentences], answer[sentences], DepsOptions(select=sel)).total

    def pct(x: float | None) -> str:
        return "n/a" if x is None else f"{100 * x:.2f}"

    t1, t5 = pr(slice(0, 1)), pr(slice(1, 2))
    obj = pr(slice(0, 1), "deprel=obj1,obj2")
    rows = [("Table 18.1, unlabeled precision = recall", pct(t1.unlabeled.precision),
             "83.3 (5 of 6)"),
            ("Table 18.1, labeled precision = recall", pct(t1.labeled.precision),
             "66.7 (4 of 6)"),
            ("Table 18.5, precision = recall", pct(t5.unlabeled.precision), "25"),
            ("section 4, objects: recall / precision",
             f"{pct(obj.unlabeled.recall)} / {pct(obj.unlabeled.precision)}", "66.7 / 100"),
            ("section 4, objects labeled: recall / precision",
             f"{pct(obj.labeled.recall)} / {pct(obj.labeled.precision)}", "33.3 / 50")]
    width = max(len(r[0]) for r in rows)
    lines = ["== Lin: each example beside the paper's figure (%) ==",
             f"{'':<{width}}  {'parsebench':>15}  paper"]
    lines += [f"{what:<{width}}  {ours:>15}  {paper}" for what, ours, paper in rows]
    return "\n".join(lines) + "\n"


@contextmanager
def bundled_experiment() -> Iterator[Path]:
    """The path of the bundled experiment file (its text lies beside it)."""
    with as_file(files("parsebench") / "data" / "demo" / "experiment.toml") as toml:
        yield toml

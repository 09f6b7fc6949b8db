"""Head-rule conversion speed: `convert` of the whole Penn Treebank sample (3,914
trees, 94,084 words) beside the time `eval brackets` takes to read and score the
same trees (gold against itself); then one constituent of 10,000 to 100,000 children
and one tree 20,000 to 100,000 levels deep, with the trace, and `eval deps
--head-rules` of the widest against itself (linear: each had been quadratic).

Run: `PYTHONPATH=src python benchmarks/bench_convert.py` (needs ../shared beside the
checkout). Prints the best of three runs of each.
"""

from __future__ import annotations

import io
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from parsebench.formats.brackets import TreeText, read_tree_texts
from parsebench.formats.conllu import write_conllu
from parsebench.formats.evalb_prm import EvalbParams
from parsebench.formats.headrules import Conversion, load_table, read_converted
from parsebench.metrics.constituency.evalb_scorer import score_brackets

SAMPLE = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "ptb-sample-nltk"


def best(f: Callable[[], None], runs: int = 3) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    files = sorted(SAMPLE.glob("*.mrg"))
    words = 0

    def convert(name: str) -> None:
        nonlocal words
        table = load_table(name)
        c = Conversion()
        out = io.StringIO()
        n = 0
        for f in files:
            sents = list(read_converted(f, table, c))
            n += sum(len(s) for s in sents)
            write_conllu(sents, out)
        words = n

    def brackets() -> None:
        texts: list[TreeText] = []
        for f in files:
            texts.extend(read_tree_texts(f))
        score_brackets(texts, texts, EvalbParams(), "gold", "gold")

    for name in ("collins", "penn2malt"):
        t = best(partial(convert, name))
        print(f"convert --head-rules {name}: {t:.2f} s, {words / t:,.0f} words/s")
    t = best(brackets)
    print(f"eval brackets (read + score the same trees against themselves): {t:.2f} s, "
          f"{words / t:,.0f} words/s")



def shapes() -> None:
    from parsebench.formats.brackets import parse_tree
    from parsebench.formats.headrules import convert_tree
    from parsebench.metrics.dependency.evaluate import score_deps

    table = load_table("collins")
    for n in (10_000, 20_000, 100_000):
        tree = parse_tree("(S " + " ".join(f"(NN w{i})" for i in range(n)) + ")")
        t = best(lambda tree=tree: convert_tree(tree, table, trace=[]), 1)
        print(f"one constituent of {n:,} children, with the trace: {t:.2f} s")
    for n in (20_000, 100_000):
        tree = parse_tree("(S " * (n - 1) + "(NP (NN w) (NN v))" + ")" * (n - 1))
        t = best(lambda tree=tree: convert_tree(tree, table, trace=[]), 1)
        print(f"a tree {n:,} levels deep, with the trace: {t:.2f} s")
    tree = parse_tree("(S " + " ".join(f"(NN w{i})" for i in range(100_000)) + ")")
    sent = convert_tree(tree, table)
    assert sent is not None
    t = best(lambda: score_deps([sent], [sent]), 1)
    print(f"eval deps of that 100,000-word sentence against itself: {t:.2f} s")


if __name__ == "__main__":
    main()
    shapes()

"""The API in a training loop (the library issue): ``pb.evaluate_deps`` on two
Treebanks already in memory, against ``conll18_ud_eval.evaluate`` on two files it has
already loaded, both in this process; EWT dev, gold against a damaged copy of itself
(about one word in six moved to its grandparent and one label in ten
changed, seeded: still a tree, which the script requires).

    CONLL18_EVAL=/path/to/conll18_ud_eval.py python benchmarks/bench_api.py [--runs 7]

Each side is timed RUNS times, interleaved; the medians and their ratio are printed.
The goal of the issue is a ratio of at most 0.25. Needs ../shared beside the checkout.
"""

from __future__ import annotations

import argparse
import copy
import importlib.util
import io
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

import parsebench as pb

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
DEV = SHARED / "data" / "ud-english-ewt" / "en_ewt-ud-dev.conllu"


def damaged(gold: pb.Treebank, seed: int = 1) -> pb.Treebank:
    rng = random.Random(seed)
    out = []
    for s in gold:
        s = copy.deepcopy(s)
        for i in range(len(s.forms)):
            h = s.heads[i]
            if rng.random() < 1 / 6 and h > 0 and s.heads[h - 1] > 0:  # grandparent: a tree
                s.heads[i] = s.heads[h - 1]
            if rng.random() < 0.1:
                s.deprels[i] = rng.choice(("nmod", "obl", "dep", "amod"))
        out.append(s)
    return pb.Treebank(out, "damaged")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    if not DEV.exists():
        sys.exit(f"needs {DEV}")
    gold = pb.Treebank.read(DEV)
    system = damaged(gold)
    ours: list[float] = []
    theirs: list[float] = []
    ref = os.environ.get("CONLL18_EVAL")
    evaluate = None
    if ref:
        spec = importlib.util.spec_from_file_location("conll18_ud_eval", ref)
        assert spec is not None and spec.loader is not None
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        g_ud = mod.load_conllu(io.StringIO(gold.to_text()))
        s_ud = mod.load_conllu(io.StringIO(system.to_text()))
        evaluate = mod.evaluate
    r = pb.evaluate_deps(gold, system)  # warm: imports, caches
    for _ in range(args.runs):
        t = time.perf_counter()
        r = pb.evaluate_deps(gold, system)
        ours.append(time.perf_counter() - t)
        if evaluate is not None:
            t = time.perf_counter()
            e = evaluate(g_ud, s_ud)
            theirs.append(time.perf_counter() - t)
    words = r.words.recall is not None and r.to_dict()["gold_words"]
    print(f"machine: {platform.machine()} {os.cpu_count()} cores, Python "
          f"{platform.python_version()}; EWT dev, {words} words")
    a = statistics.median(ours)
    print(f"pb.evaluate_deps (13 CoNLL 2018 metrics, Lin's, exact match): {a:.3f} s "
          f"(LAS {100 * r.las.f1:.2f})")
    if theirs:
        b = statistics.median(theirs)
        print(f"conll18_ud_eval.evaluate on loaded files: {b:.3f} s "
              f"(LAS {100 * e['LAS'].f1:.2f}); ratio {a / b:.2f}x (goal: at most 0.25x)")
    else:
        print("set CONLL18_EVAL to a copy of conll18_ud_eval.py for the reference")


if __name__ == "__main__":
    main()

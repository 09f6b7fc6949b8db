"""Scoring throughput: `eval deps` on EWT dev+test, `eval brackets` on a million words.

Run with `make bench` (needs ../shared beside the checkout). Optional side by
side: set CONLL18_EVAL to a copy of conll18_ud_eval.py and EVALB to an evalb
binary; they are timed on the same files in the same run.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from parsebench.formats.brackets import read_tree_texts
from parsebench.formats.conllu import Sentence, read_conllu, write_conllu
from parsebench.formats.evalb_prm import read_prm
from parsebench.metrics.constituency.evalb_scorer import ACCELERATED, EvalbResult, score_brackets
from parsebench.metrics.dependency.evaluate import score_deps

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
EWT = SHARED / "data" / "ud-english-ewt"


def corrupt(sentences: list[Sentence], rng: random.Random) -> None:
    """Re-attach 15% of the words to their grandparent (a tree stays a tree)."""
    for s in sentences:
        for i in range(len(s)):
            h = s.heads[i]
            if h > 0 and s.heads[h - 1] > 0 and rng.random() < 0.15:
                s.heads[i] = s.heads[h - 1]


def to_brackets(s: Sentence) -> str | None:
    """A bracketed tree from a projective dependency tree: one bracket per subtree."""
    n = len(s)
    kids: list[list[int]] = [[] for _ in range(n + 1)]
    for i, h in enumerate(s.heads, 1):
        if h < 0:
            return None
        kids[h].append(i)

    def build(w: int) -> tuple[str, int, int]:
        parts = []
        lo = hi = w
        items = sorted([*kids[w], w])
        for k in items:
            if k == w:
                form = s.forms[w - 1].replace("(", "-LRB-").replace(")", "-RRB-")
                parts.append(f"({s.upos[w - 1]} {form})")
            else:
                t, a, b = build(k)
                lo, hi = min(lo, a), max(hi, b)
                parts.append(t)
        if len(parts) == 1:
            return parts[0], lo, hi
        return f"({s.deprels[w - 1].split(':')[0].upper()} {' '.join(parts)})", lo, hi

    roots = kids[0]
    if len(roots) != 1:
        return None
    tree, lo, hi = build(roots[0])
    return f"(S {tree})" if hi - lo + 1 == n else None


def bench_deps(tmp: Path) -> None:
    files = [EWT / "en_ewt-ud-dev.conllu", EWT / "en_ewt-ud-test.conllu"]
    gold_text = "".join(f.read_text(encoding="utf-8") for f in files)
    gold_path = tmp / "gold.conllu"
    gold_path.write_text(gold_text, encoding="utf-8")
    system = read_conllu(gold_path)
    corrupt(system, random.Random(1))
    sys_path = tmp / "system.conllu"
    with open(sys_path, "w", encoding="utf-8") as fh:
        write_conllu(system, fh)
    words = sum(len(s) for s in system)
    best = float("inf")
    for _ in range(3):
        t = time.perf_counter()
        r = score_deps(read_conllu(gold_path), read_conllu(sys_path))
        best = min(best, time.perf_counter() - t)
    las = r.total.las.as_dict()["f1"]
    print(f"eval deps (read both files + score), EWT dev+test, {words} words: "
          f"{best:.3f} s, {words / best:,.0f} words/s (LAS {100 * las:.2f})")
    ref = os.environ.get("CONLL18_EVAL")
    if ref:
        t = time.perf_counter()
        p = subprocess.run([sys.executable, ref, str(gold_path), str(sys_path)],
                           capture_output=True, text=True, check=True)
        dt = time.perf_counter() - t
        print(f"conll18_ud_eval.py on the same files: {dt:.3f} s, {words / dt:,.0f} words/s "
              f"-> parsebench is {dt / best:.1f}x faster ({p.stdout.splitlines()[0]})")


def bench_brackets(tmp: Path) -> None:
    trees = []
    for f in ("en_ewt-ud-train.conllu", "en_ewt-ud-dev.conllu", "en_ewt-ud-test.conllu"):
        for s in read_conllu(EWT / f):
            t = to_brackets(s)
            # EVALB's fixed arrays: at most 200 words and brackets, 5000 bytes a
            # line, 100 bytes a word
            if t is not None and len(s) <= 150 and len(t.encode()) < 4500 \
                    and max(len(f.encode()) for f in s.forms) < 90:
                trees.append((t, len(s)))
    rng = random.Random(2)
    gold_lines, test_lines = [], []
    words = 0
    while words < 1_000_000:
        for t, n in trees:
            gold_lines.append(t)
            test_lines.append(t.replace("(NSUBJ ", "(OBJ ", 1) if rng.random() < 0.3 else t)
            words += n
            if words >= 1_000_000:
                break
    gold = tmp / "gold.mrg"
    test = tmp / "test.mrg"
    gold.write_text("\n".join(gold_lines) + "\n")
    test.write_text("\n".join(test_lines) + "\n")
    prm = tmp / "bench.prm"
    prm.write_text("MAX_ERROR 100000\nDELETE_LABEL PUNCT\nDELETE_LABEL_FOR_LENGTH PUNCT\n")
    params = read_prm(prm)

    def score(accelerated: bool) -> tuple[float, EvalbResult]:
        t = time.perf_counter()
        r = score_brackets(read_tree_texts(gold), read_tree_texts(test), params,
                           accelerated=accelerated)
        r.report()
        return time.perf_counter() - t, r

    best, r = min((score(True) for _ in range(3)), key=lambda x: x[0])
    f1 = 200 * r.all.matched / (r.all.gold + r.all.test)
    print(f"eval brackets (read both files + score + report), {len(gold_lines)} trees, "
          f"{words} words: {best:.3f} s, {words / best:,.0f} words/s (F {f1:.2f}; "
          f"C accelerator {'built' if ACCELERATED else 'NOT built'})")
    slow, _ = score(False)
    print(f"  pure-Python scorer (accelerated=False): {slow:.3f} s, {words / slow:,.0f} words/s")
    cli = [str(Path(sys.executable).with_name("parsebench")), "eval", "brackets",
           str(gold), str(test), "--prm", str(prm)]
    whole = min(timed(cli) for _ in range(3))
    print(f"  `parsebench eval brackets` > report, whole process: {whole:.3f} s, "
          f"{words / whole:,.0f} words/s")
    evalb = os.environ.get("EVALB")
    if evalb:
        dt = min(timed([evalb, "-p", str(prm), str(gold), str(test)]) for _ in range(3))
        print(f"EVALB (C) on the same files, whole process: {dt:.3f} s, {words / dt:,.0f} "
              f"words/s -> parsebench takes {best / dt:.2f}x EVALB's time in process, "
              f"{whole / dt:.2f}x as a command")


def timed(command: list[str]) -> float:
    t = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - t


def main() -> None:
    if not EWT.exists():
        sys.exit(f"benchmarks need {EWT}")
    with tempfile.TemporaryDirectory() as d:
        bench_deps(Path(d))
        bench_brackets(Path(d))


if __name__ == "__main__":
    main()

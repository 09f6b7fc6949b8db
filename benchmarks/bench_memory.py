"""Peak memory and time of `eval deps`, `compare`, `robustness f1` and `noise` (spelling
and grammar) as the input grows.

Each command reads its input a sentence at a time and keeps at most a few numbers a
sentence (the per-sentence statistics of its intervals), so its peak resident memory
should stay flat, or grow by those numbers only, from 1x to 20x UD English EWT train
(204,585 words; 20x is 4.1 million). Each measurement is a fresh process; its peak RSS
is the kernel's (getrusage of the finished child). The inputs are built in a temporary folder
outside the repository and removed afterwards.

    python benchmarks/bench_memory.py [--sizes 1,5,20] [--only noise] [--parsebench PATH]

eval deps is measured twice: against a parse with the same words (heads and labels
moved on every 7th word) and against one with every 10th sentence's first word split
in two (another tokenization, so the files are aligned on characters in stretches).
compare tests those two parses against each other (LAS, 1,000 resamples); robustness f1
takes the gold as the corrected sentences' parse and the first parse as the
ungrammatical one's (same words, so the default alignment is the identity).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from parsebench.formats.conllu import Sentence, iter_conllu, write_conllu

ROOT = Path(__file__).resolve().parent.parent
TRAIN = ROOT.parent / "shared" / "data" / "ud-english-ewt" / "en_ewt-ud-train.conllu"

_MEASURE = ("import resource, subprocess, sys, time\n"
            "t = time.perf_counter()\n"
            "p = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, "
            "stderr=subprocess.PIPE, text=True)\n"
            "dt = time.perf_counter() - t\n"
            "if p.returncode: sys.exit(p.stderr[-400:])\n"
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, dt)\n")


def measure(cmd: list[str]) -> tuple[float, float]:
    """Peak RSS in MB and wall seconds of CMD, run in a fresh process."""
    out = subprocess.run([sys.executable, "-c", _MEASURE, *cmd], capture_output=True,
                         text=True, check=True).stdout.split()
    return int(out[0]) / 1024, float(out[1])


def _parsed(s: Sentence, k: int) -> Sentence:
    heads = [(h + 1) % (len(s) + 1) if (i + k) % 7 == 0 else h for i, h in enumerate(s.heads)]
    deprels = ["dep" if (i + k) % 7 == 0 else d for i, d in enumerate(s.deprels)]
    return Sentence(forms=s.forms, lemmas=s.lemmas, upos=s.upos, xpos=s.xpos, feats=s.feats,
                    heads=heads, deprels=deprels, deps=s.deps, misc=s.misc,
                    comments=s.comments, multiword=s.multiword, empty_nodes=[])


def _split(s: Sentence, k: int) -> Sentence:
    """Every 10th sentence (without multiword tokens) with its first word split in two."""
    if k % 10 or s.multiword or len(s.forms[0]) < 2:
        return s
    n = len(s) + 1
    w = s.forms[0]
    heads = [0 if h == 0 else h + 1 for h in s.heads]
    return Sentence(forms=[w[:1], w[1:], *s.forms[1:]], lemmas=["_"] * n, upos=["X"] * n,
                    xpos=["_"] * n, feats=["_"] * n, heads=[2, *heads], deprels=["dep",
                                                                                 *s.deprels],
                    deps=["_"] * n, misc=["_"] * n,
                    comments=[c for c in s.comments if not c.startswith("# text")])


def build(folder: Path, copies: int) -> tuple[Path, Path, Path, int]:
    gold, parsed, split = (folder / f"{name}{copies}.conllu"
                           for name in ("gold", "parsed", "split"))
    words = 0
    with gold.open("w", encoding="utf-8") as g, parsed.open("w", encoding="utf-8") as p, \
            split.open("w", encoding="utf-8") as t:
        k = 0
        for _ in range(copies):
            for s in iter_conllu(TRAIN):
                s.empty_nodes = []  # enhanced-only nodes: not part of what is scored
                write_conllu([s], g)
                write_conllu([_parsed(s, k)], p)
                write_conllu([_split(s, k)], t)
                words += len(s)
                k += 1
    return gold, parsed, split, words


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="1,5,20")
    ap.add_argument("--only", default="", help="measure only the commands whose name holds "
                    "this text (e.g. noise)")
    ap.add_argument("--parsebench", default=str(Path(sys.executable).with_name("parsebench")))
    args = ap.parse_args()
    if not TRAIN.exists():
        sys.exit(f"needs {TRAIN}")
    pb = args.parsebench
    rows = []
    with tempfile.TemporaryDirectory(prefix="parsebench-mem-") as tmp:
        folder = Path(tmp)
        for copies in (int(x) for x in args.sizes.split(",")):
            t0 = time.perf_counter()
            gold, parsed, split, words = build(folder, copies)
            print(f"{copies}x: {words:,} words built in {time.perf_counter() - t0:.0f} s",
                  file=sys.stderr)
            for what, cmd in (
                    ("eval deps (same words)", [pb, "eval", "deps", str(gold), str(parsed),
                                                "--json"]),
                    ("eval deps (other tokens)", [pb, "eval", "deps", str(gold), str(split),
                                                  "--json"]),
                    ("compare --samples 1000", [pb, "compare", str(gold), str(parsed),
                                                str(split), "--samples", "1000", "--json"]),
                    ("robustness f1", [pb, "robustness", "f1", str(gold), str(parsed),
                                       "--json"]),
                    ("noise --rate 0.05", [pb, "noise", str(gold), "-o",
                                           str(folder / "noisy.conllu"), "--rate", "0.05"]),
                    ("noise --kind grammar --rate 0.05",
                     [pb, "noise", str(gold), "-o", str(folder / "learner.conllu"), "--kind",
                      "grammar", "--rate", "0.05"])):
                if args.only not in what:
                    continue
                mb, secs = measure(cmd)
                rows.append((what, copies, words, mb, secs))
                print(f"  {what:<26} {mb:8.0f} MB {secs:7.1f} s {words / secs:10,.0f} words/s",
                      file=sys.stderr)
            for f in folder.iterdir():
                f.unlink() if f.is_file() else shutil.rmtree(f)
    print("| command | input | words | peak RSS | time | words/s |")
    print("|---|---:|---:|---:|---:|---:|")
    for what, copies, words, mb, secs in rows:
        print(f"| {what} | {copies}x EWT train | {words:,} | {mb:,.0f} MB | {secs:.1f} s | "
              f"{words / secs:,.0f} |")


if __name__ == "__main__":
    main()

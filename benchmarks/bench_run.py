"""The Bigert protocol end to end: EWT test, 1, 2, 5, 10, 20% x 10 replicates, UDPipe.

Run: ``.venv/bin/python benchmarks/bench_run.py [N_SENTENCES] [EXECUTORS]`` from the
project root, with ../shared beside it (EXECUTORS: comma-separated of local1,
local2, dask2; default local1,local2). Each run starts from an empty store.

- words parsed vs naive: naive parses the clean text and all 50 noisy versions
  whole; the cache parses each distinct sentence once. The limit (every
  unchanged sentence reused, every changed one parsed) is printed beside it.
- overhead: wall time minus the parser's own time divided by the workers
  (model loading, noise, the store, scoring), as a share of wall time.
- speedup: wall time with 1 worker over wall time with 2.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from parsebench.common.progress import Quiet
from parsebench.parsers.executor import Executor
from parsebench.run.corpus import load_corpus
from parsebench.run.experiment import load
from parsebench.run.runner import run_experiment
from parsebench.run.versions import noise_versions
from parsebench.store import Store

SHARED = Path(__file__).resolve().parent.parent.parent / "shared"
TEST = SHARED / "data/ud-english-ewt/en_ewt-ud-test.conllu"
MODEL = SHARED / "models/en_ewt.udpipe"


def experiment(tmp: Path, limit: int | None) -> Path:
    p = tmp / "bigert.toml"
    p.write_text(f'''name = "bigert-ewt"
[corpus]
path = "{TEST}"
{f"limit = {limit}" if limit else ""}
[noise]
rates = [0.01, 0.02, 0.05, 0.10, 0.20]
replicates = 10
seed = 1
[[parsers]]
name = "udpipe"
spec = "udpipe:{MODEL}"
[metrics]
rows = ["head+deprel", "upos"]
sentences = true
deps = false
''', encoding="utf-8")
    return p


def main() -> None:
    limit = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1] != "all" else None
    which = (sys.argv[2] if len(sys.argv) > 2 else "local1,local2").split(",")
    rows = []
    with tempfile.TemporaryDirectory() as d:
        exp = load(experiment(Path(d), limit))
        with Store(Path(d) / "limit.sqlite") as st:
            corpus = load_corpus(exp.corpus, exp.limit, st)
            noise_versions(exp, corpus, st, Quiet())
        clean = corpus.sentences
        limit_words = corpus.words + sum(len(s.forms) for v in corpus.versions[1:]
                                         for s, o in zip(v.sentences, clean, strict=True)
                                         if s is not o)
        for name in which:
            kind, workers = name.rstrip("0123456789"), int(name[-1])
            with Store(Path(d) / f"{name}.sqlite") as st:
                t0 = time.perf_counter()
                out = run_experiment(exp, st, Executor(kind, workers))
                wall = time.perf_counter() - t0
                ps = out.stats["parsers"]["udpipe"]
                rows.append((name, workers, wall, ps, out.stats))
                print(f"{name}: {wall:.1f} s", file=sys.stderr)
    print(f"EWT test{f' (first {limit} sentences)' if limit else ''}, UDPipe, "
          "5 levels x 10 replicates\n")
    print("| run | wall s | parser s | words parsed | naive words | parsed/naive | "
          "noise s | scoring s | overhead s | overhead share |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    base = None
    for name, workers, wall, ps, stats in rows:
        parser_wall = ps["parse_seconds"] / workers
        overhead = wall - parser_wall
        print(f"| {name} | {wall:.1f} | {ps['parse_seconds']:.1f} | {ps['parsed_words']:,} | "
              f"{ps['naive_words']:,} | {ps['parsed_words'] / ps['naive_words']:.3f} | "
              f"{stats['noise_seconds']:.1f} | {stats['score_seconds']:.1f} | "
              f"{overhead:.1f} | {overhead / wall:.1%} |")
        if workers == 1:
            base = wall
    naive = rows[0][3]["naive_words"] if rows else 0
    print(f"\nlimit of reuse (unchanged sentences parsed once): {limit_words:,} words, "
          f"{limit_words / naive:.3f} of naive")
    if base is not None:
        for name, workers, wall, *_ in rows:
            if workers > 1:
                print(f"\nspeedup of {name} over 1 worker: {base / wall:.2f}x")


if __name__ == "__main__":
    main()

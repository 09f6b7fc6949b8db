"""The resampling behind `parsebench compare`, side by side with udapi's bootstrap.

    python benchmarks/bench_compare.py GOLD SYS1 SYS2 SYS3 [--udapi PYTHON]

Times 10,000 paired resamples of every system's per-sentence LAS statistics (the
compute only, best of 3) and the whole `parsebench compare` command. With
--udapi, the Python of an environment where udapi is installed (`pip install
udapi` there, not in parsebench's), it also runs udapi's CoNLL 2018 block for
each system (print_raw=LAS) and its bootstrap script with 1,000 resamples (each
system resampled on its own, not paired), and prints both sets of intervals.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from parsebench.metrics.core.resample import bootstrap_scores, interval
from parsebench.metrics.registry import REGISTRY, file_stats


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("gold")
    ap.add_argument("systems", nargs="+")
    ap.add_argument("--udapi", help="Python of an environment with udapi installed")
    args = ap.parse_args()
    las = REGISTRY["las"]
    stats = [file_stats(las, args.gold, s) for s in args.systems]
    best = min(_timed(lambda: bootstrap_scores(stats, las.score, 10_000, 1)) for _ in range(3))
    print(f"parsebench: 10,000 paired resamples of {len(stats)} systems x "
          f"{stats[0].shape[0]:,} sentences: {best:.2f} s of compute")
    scores = bootstrap_scores(stats, las.score, 10_000, 1)
    for path, s, b in zip(args.systems, stats, scores, strict=True):
        lo, hi = interval(b, 0.05) or (float("nan"), float("nan"))
        print(f"  {Path(path).stem:<12} LAS {100 * (las.corpus(s) or 0):.2f} "
              f"(95% {100 * lo:.2f} .. {100 * hi:.2f})")
    pb = str(Path(sys.executable).with_name("parsebench"))
    wall = _timed(lambda: subprocess.run([pb, "compare", args.gold, *args.systems],
                                         capture_output=True, check=True))
    print(f"parsebench compare, the whole command (reading, scoring, 2 paired tests): "
          f"{wall:.2f} s")
    if args.udapi:
        _udapi(args.udapi, args.gold, args.systems)


def _udapi(python: str, gold: str, systems: list[str]) -> None:
    udapy = str(Path(python).with_name("udapy"))
    script = subprocess.run([python, "-c", "import udapi.block.eval.conll18 as x; "
                             "print(x.__file__)"], capture_output=True, text=True,
                            check=True).stdout.strip()
    with tempfile.TemporaryDirectory() as tmp:
        for s in systems:
            out = Path(tmp, "results", Path(s).stem)
            out.mkdir(parents=True)
            with (out / "test").open("w") as fh:
                subprocess.run([udapy, "read.Conllu", "zone=gold", f"files={gold}",
                                "read.Conllu", "zone=pred", f"files={s}", "ignore_sent_id=1",
                                "util.ResegmentGold", "eval.Conll18", "print_results=0",
                                "print_raw=LAS"], stdout=fh, stderr=subprocess.DEVNULL,
                               check=True)
        t0 = time.perf_counter()
        p = subprocess.run([python, script, "-d", str(Path(tmp, "results")), "-r", "1000",
                            "--randseed", "1"], capture_output=True, text=True, check=True)
        print(f"udapi: 1,000 unpaired resamples of {len(systems)} systems, the whole "
              f"script: {time.perf_counter() - t0:.2f} s")
        print("\n".join("  " + ln for ln in p.stdout.splitlines() if ln.strip()))


def _timed(f: Callable[[], object]) -> float:
    t0 = time.perf_counter()
    f()
    return time.perf_counter() - t0


if __name__ == "__main__":
    main()

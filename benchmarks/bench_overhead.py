"""A run's overhead: where a run's time goes besides parsing, stage by stage.

    python benchmarks/bench_overhead.py [N_SENTENCES] [--workers W]

Runs one experiment from an empty store, in one process as ``parsebench run`` does
(EWT test, the first N sentences, default 300; UDPipe; misspellings at 5% and 20% x 3
replicates; rows, sentence robustness, dependency scores and the attack, budget 1),
and prints each stage's seconds (the run's own times: ``RunResult.times``) beside the
parse time. The goal (README, docs/speed.md): everything but the parses (the random
noise's and the attack's) under 10% of the parse time. Needs ../shared beside the
checkout.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
TEST = SHARED / "data" / "ud-english-ewt" / "en_ewt-ud-test.conllu"
MODEL = SHARED / "models" / "en_ewt.udpipe"


def main() -> None:
    import parsebench as pb

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("sentences", nargs="?", type=int, default=300)
    ap.add_argument("--workers", type=int, default=1)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        exp = Path(d) / "overhead.toml"
        exp.write_text(f'''name = "overhead"
[corpus]
path = "{TEST}"
limit = {args.sentences}
[noise]
rates = [0.05, 0.2]
replicates = 3
[[parsers]]
name = "udpipe"
spec = "udpipe:{MODEL}"
[attack]
budget = [1]
candidates = 5
queries = 20
''', encoding="utf-8")
        r = pb.run(exp, store=Path(d) / "s.sqlite", report=Path(d) / "report",
                   workers=args.workers)
    data = r.to_dict()
    wall = data["wall_seconds"]
    parsing = sum(t["seconds"] for t in data["times"]
                  if t["stage"].startswith(("parse ", "attack ")))
    print(f"EWT test, first {args.sentences} sentences, UDPipe, {args.workers} worker(s): "
          f"{wall:.1f} s from the call to the report written\n")
    print("| stage | seconds | share of the parse time |")
    print("|---|---:|---:|")
    for t in data["times"]:
        print(f"| {t['stage']} | {t['seconds']:.2f} | "
              f"{t['seconds'] / parsing:.1%} |" if parsing else "")
    rest = wall - parsing
    print(f"\nparsing (the noise's parses and the attack's): {parsing:.1f} s; everything else "
          f"{rest:.1f} s, {rest / parsing:.1%} of it (goal: under 10%)")


if __name__ == "__main__":
    main()

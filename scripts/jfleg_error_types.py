"""The default weights of ``noise --kind grammar``: the error types ERRANT finds between
JFLEG dev's sources and their first corrections.

    python scripts/jfleg_error_types.py ../shared/data/jfleg/dev [--pipeline NAME]

prints a Markdown table of every type ERRANT gives (docs/noise.md keeps it) and the
weights of the kinds parsebench makes (noise/grammar.py's DEFAULT_WEIGHTS). A word
deleted next to the same word (a repeated word) counts as U:REPEAT, not as its class.
Needs the errant extra and a spaCy English pipeline.
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

from parsebench.metrics.robustness.errant_types import DEFAULT_PIPELINE, edits_of, repeated
from parsebench.noise.grammar_types import TYPES


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", type=Path, help="JFLEG's dev folder (dev.src, dev.ref0)")
    ap.add_argument("--pipeline", default=DEFAULT_PIPELINE, help="spaCy pipeline for ERRANT")
    args = ap.parse_args()
    src = (args.folder / "dev.src").read_text(encoding="utf-8").splitlines()
    ref = (args.folder / "dev.ref0").read_text(encoding="utf-8").splitlines()
    counts: Counter[str] = Counter()
    pairs = [(s.split(), r.split()) for s, r in zip(src, ref, strict=True)]
    for (words, _), got in zip(pairs, edits_of(pairs, args.pipeline), strict=True):
        for a, b, typ, _ in got:
            counts[repeated(words, a, b, typ)] += 1
    total = sum(counts.values())
    print(f"{len(src)} sentence pairs, {total} edits\n")
    print("| ERRANT type | edits | share | made by parsebench |\n|---|---:|---:|---|")
    for typ, n in counts.most_common():
        print(f"| {typ} | {n} | {100 * n / total:.1f}% | {'yes' if typ in TYPES else ''} |")
    made = sum(counts[t] for t in TYPES)
    print(f"\nThe kinds parsebench makes cover {made} of {total} edits "
          f"({100 * made / total:.1f}%).\n")
    print("DEFAULT_WEIGHTS = {" + ", ".join(f'"{t}": {counts[t]}' for t in TYPES) + "}")


if __name__ == "__main__":
    main()

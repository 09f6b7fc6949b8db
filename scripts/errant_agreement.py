"""How ERRANT reads the errors ``noise --kind grammar`` records: the per-type table of
docs/noise.md.

    python scripts/errant_agreement.py NOISY.m2 [--pipeline NAME]

NOISY.m2 is the M2 file ``noise --kind grammar`` wrote. ERRANT is run on each noisy
sentence and its correction; a recorded edit agrees on the operation when ERRANT has an
edit with the same span and correction and the same M/U/R, and on the type when its type
is the recorded one. Needs the errant extra and a spaCy English pipeline.
"""

from __future__ import annotations

import argparse

from parsebench.metrics.core.word_alignment import read_m2_edits
from parsebench.metrics.robustness.errant_types import DEFAULT_PIPELINE, agreement


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("m2", help="an M2 file written by noise --kind grammar")
    ap.add_argument("--pipeline", default=DEFAULT_PIPELINE, help="spaCy pipeline for ERRANT")
    args = ap.parse_args()
    got = agreement(((words, edits) for words, edits in read_m2_edits(args.m2) if edits),
                    args.pipeline)
    n = sum(got.edits.values())
    op, whole = got.shares()
    print(f"{n} edits: ERRANT gives the recorded operation to {100 * op:.1f}%, the recorded "
          f"type to {100 * whole:.1f}%\n")
    print("| recorded type | edits | operation agrees | type agrees | ERRANT's other types |")
    print("|---|---:|---:|---:|---|")
    for t, k in sorted(got.edits.items()):
        others = ", ".join(f"{e} {c}" for (r, e), c in got.confusions.most_common() if r == t)
        print(f"| {t} | {k} | {100 * got.operation[t] / k:.1f}% | "
              f"{100 * got.type[t] / k:.1f}% | {others} |")


if __name__ == "__main__":
    main()

"""Train MaltParser and Yara on UD English EWT (docs/java-parsers.md): ``make java-models``.

    python scripts/train_java_parsers.py [--parser malt|yara|both] [--train F] [--dev F]
        [--malt-jar JAR] [--yara-jar JAR] [--beam 16] [--iterations 10] [--out FOLDER]

The models go to the cache folder (``$PARSEBENCH_CACHE/models``, else
``~/.cache/parsebench/models``), never into the repository; each has its settings,
training set and time written beside it as MODEL.json. Both trainers are
deterministic (no seed to set). MaltParser takes about a minute and a half on one
core; Yara, beam 16 and 10 iterations, about 45 minutes and 4.5 GB.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from pathlib import Path

from parsebench.common.errors import InputError
from parsebench.parsers.training import models_dir, train_malt, train_yara

SHARED = Path(__file__).resolve().parent.parent.parent / "shared"
EWT = SHARED / "data" / "ud-english-ewt"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--parser", choices=("malt", "yara", "both"), default="both")
    ap.add_argument("--train", default=str(EWT / "en_ewt-ud-train.conllu"))
    ap.add_argument("--dev", default=str(EWT / "en_ewt-ud-dev.conllu"))
    ap.add_argument("--malt-jar", default=str(SHARED / "tools" / "maltparser-1.9.2" /
                                              "maltparser-1.9.2.jar"))
    ap.add_argument("--yara-jar", default=str(SHARED / "tools" / "yara-parser" / "jar" /
                                              "YaraParser.jar"))
    ap.add_argument("--beam", type=int, default=16)
    ap.add_argument("--iterations", type=int, default=10)
    ap.add_argument("--out", default=None, help="folder (default: the cache folder)")
    args = ap.parse_args()
    out = Path(args.out) if args.out else models_dir()
    try:
        if args.parser in ("malt", "both"):
            done = train_malt(args.train, out / "en_ewt_malt.mco", args.malt_jar)
            print(json.dumps(asdict(done)))
        if args.parser in ("yara", "both"):
            done = train_yara(args.train, args.dev, out / f"en_ewt_yara_b{args.beam}_i"
                              f"{args.iterations}", args.yara_jar, args.beam, args.iterations)
            print(json.dumps(asdict(done)))
    except InputError as exc:
        print(f"train_java_parsers: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())

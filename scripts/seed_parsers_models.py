"""Train the seed papers' parsers for docs/seed-parsers.md: ``make seed-parsers-study``.

    python scripts/seed_parsers_models.py --out FOLDER [--ewt-limit 2000] [--iterations 5]
        [--only NAME ...] [--jobs 2]

Hashemi & Hwa's comparison trains each parser on newswire (the Penn Treebank) and
on tweets (Tweebank). Here: the first ``--ewt-limit`` sentences of UD English EWT
train, and all of Tweebank v2 train (1,639 tweets), so both sides are about the same
size; MaltParser, Yara, MSTParser (first and second order, non-projective), Mate,
TurboParser (its authors' "standard" second-order recipe) on both, TweeboParser on
Tweebank, and UDPipe 1 on Tweebank as the tagger of the tweet models (EWT's tagger is
../shared/models/en_ewt.udpipe). Every training goes through ``parsebench train``'s
cache, so a second run trains nothing; FOLDER/models.json lists each model with its
settings, time and dev score. Needs ../shared (data, tools).
"""

from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict
from pathlib import Path
from typing import Any

from parsebench.parsers.training import conllu_slice, train_cached

SHARED = Path(__file__).resolve().parent.parent.parent / "shared"
EWT = SHARED / "data" / "ud-english-ewt" / "en_ewt-ud"
TWEEBANK = SHARED / "data" / "tweebank-v2" / "en-ud-tweet"
TOOLS = SHARED / "tools"
JARS = {"malt": TOOLS / "maltparser-1.9.2" / "maltparser-1.9.2.jar",
        "yara": TOOLS / "yara-parser" / "jar" / "YaraParser.jar",
        "mst": TOOLS / "mstparser-0.4.3b" / "mstparser-0.4.3b.jar",
        "mate": TOOLS / "mate-anna-3.61" / "anna-3.61.jar"}
BINARIES = {"turbo": TOOLS / "turboparser-2.3" / "TurboParser",
            "tweebo": TOOLS / "tweeboparser" / "TBParser" / "TurboParser"}
DEV_SENTENCES = 300
"""Each dev file's first sentences, for the sidecar's check score."""


def models(ewt_limit: int, iterations: int) -> list[dict[str, Any]]:
    """(name, parser, treebank, options) of every model, fastest first."""
    got = []
    for bank, limit in (("ewt", ewt_limit), ("tweebank", None)):
        for parser, opts, suffix in (
                ("malt", {}, ".mco"), ("turbo", {"model_type": "standard"}, ""),
                ("mate", {"pos": "upos"}, ""), ("yara", {"beam": 16}, ""),
                ("mst", {"order": 1, "decode": "non-proj"}, ""),
                ("mst", {"order": 2, "decode": "non-proj"}, ""),
                ("tweebo", {"model_type": "standard"}, "")):
            if parser == "tweebo" and bank == "ewt":
                continue
            name = f"{bank}-{parser}{opts.get('order', '')}"
            if parser != "malt":
                opts = {**opts, "iterations": iterations}
            got.append({"name": name, "parser": parser, "bank": bank, "limit": limit,
                        "options": opts, "file": name.replace("-", "_") + suffix})
    got.insert(0, {"name": "tweebank-udpipe", "parser": "udpipe", "bank": "tweebank",
                   "limit": None, "file": "tweebank.udpipe",
                   "options": {"tokenizer": "none", "parser_options": "none",
                               "tagger": "iterations=10"}})
    return got


def train_one(m: dict[str, Any], out: Path) -> dict[str, Any]:
    train = f"{EWT}-train.conllu" if m["bank"] == "ewt" else f"{TWEEBANK}-train.fixed.conllu"
    dev = out / f"{m['bank']}-dev.conllu"
    opts = dict(m["options"])
    if m["parser"] in JARS:
        opts["jar"] = str(JARS[m["parser"]])
    if m["parser"] in BINARIES:
        opts["binary"] = str(BINARIES[m["parser"]])
    use_dev = m["parser"] in ("udpipe", "yara", "mst", "mate", "turbo", "tweebo")
    done, cached = train_cached(m["parser"], train, out / m["file"], limit=m["limit"],
                                dev=dev if use_dev else None, **opts)
    print(f"{m['name']}: {done.seconds} s{' (cache)' if cached else ''} {done.dev}",
          flush=True)
    return {"name": m["name"], **asdict(done), "cached": cached}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--ewt-limit", type=int, default=2000)
    ap.add_argument("--iterations", type=int, default=5)
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    conllu_slice(f"{EWT}-dev.conllu", out / "ewt-dev.conllu", DEV_SENTENCES)
    conllu_slice(f"{TWEEBANK}-dev.fixed.conllu", out / "tweebank-dev.conllu", DEV_SENTENCES)
    todo = [m for m in models(args.ewt_limit, args.iterations)
            if not args.only or m["name"] in args.only]
    with ThreadPoolExecutor(args.jobs) as pool:
        done = list(pool.map(lambda m: train_one(m, out), todo))
    listing = out / "models.json"
    old = json.loads(listing.read_text()) if listing.exists() else []
    names = {d["name"] for d in done}
    listing.write_text(json.dumps([o for o in old if o["name"] not in names] + done,
                                  indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

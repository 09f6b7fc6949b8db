"""The models of the multilingual study (docs/multilingual-study.md): UDPipe 1, MaltParser,
MSTParser and TurboParser trained on each treebank of ../shared/data whose language
takes spelling noise, with short settings that fit a small compute budget; ``make
multilingual-study``.

    python scripts/multilingual_models.py [--data ../shared/data] [--out DIR]
        [--limit N] [--iterations N] [--doc docs/training.md] [--only KEY ...]

Each model learns from the first LIMIT sentences of the treebank's train split (dev held
out for UDPipe's model selection) where ../shared has one (English EWT, Turkish IMST),
else of its dev split (its last tenth then held out). UDPipe: no tokenizer (the study
parses gold words), its tagger and parser ITERATIONS iterations each. MaltParser
(arc-eager, liblinear) learns from the same sentences and parses with the UDPipe model's
tags. The two graph-based parsers of the seed papers learn from the same sentences as
MaltParser and parse with the same tags: MSTParser first order, non-projective (UPOS as
its fine tag where the treebank has no XPOS: French), and TurboParser's "standard"
second-order recipe, GRAPH_ITERATIONS epochs each. English gets a second pair trained on
its dev split, as every other language is, beside the pair trained on ENGLISH_LIMIT
sentences of its train split: what the smaller training set changes. Each UDPipe model's
LAS on its whole test split's gold words goes to docs/training.md's table
(``train_models.write_table``); the training times are in each model's sidecar
(MODEL.json), which the doc script reads. ``--doc ''`` writes no table:
docs/noise-validity.md's French model is fr's, trained again (a copy from the cache),
and should not rewrite the page's row with "cached".
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from train_models import baseline, write_table

import parsebench as pb
from parsebench.common.progress import Lines
from parsebench.formats.conllu import read_conllu

ROOT = Path(__file__).resolve().parent.parent
MALT_JAR = ROOT.parent / "shared" / "tools" / "maltparser-1.9.2" / "maltparser-1.9.2.jar"
LIMIT = 500
ENGLISH_LIMIT = 2000
ITERATIONS = 2
GRAPH_ITERATIONS = 2
TOOLS = ROOT.parent / "shared" / "tools"
MST_JAR = TOOLS / "mstparser-0.4.3b" / "mstparser-0.4.3b.jar"
TURBO = TOOLS / "turboparser-2.3" / "TurboParser"
GRAPH = {"mst": {"order": 1, "decode": "non-proj", "jar": str(MST_JAR)},
         "turbo": {"model_type": "standard", "binary": str(TURBO)}}
"""The graph-based parsers and their settings; not for ``en_train`` (the languages are
compared on their dev-trained models)."""

# key: (folder, file prefix, trained on "train" or "dev", language of the noise)
TREEBANKS: dict[str, tuple[str, str, str, str]] = {
    "en_train": ("ud-english-ewt", "en_ewt", "train", "en"),
    "en_dev": ("ud-english-ewt", "en_ewt", "dev", "en"),
    "sv": ("ud-swedish-talbanken", "sv_talbanken", "dev", "sv"),
    "de": ("ud-german-gsd", "de_gsd", "dev", "de"),
    "fr": ("ud-french-gsd", "fr_gsd", "dev", "fr"),
    "fi": ("ud-finnish-tdt", "fi_tdt", "dev", "fi"),
    "fa": ("ud-persian-seraji", "fa_seraji", "dev", "fa"),
    "id": ("ud-indonesian-gsd", "id_gsd", "dev", "id"),
    "ga": ("ud-irish-idt", "ga_idt", "dev", "ga"),
    "ko": ("ud-korean-gsd", "ko_gsd", "dev", "ko"),
    "ru": ("ud-russian-gsd", "ru_gsd", "dev", "ru"),
    "tr": ("ud-turkish-imst", "tr_imst", "train", "tr"),
}


def has_xpos(train: Path, limit: int) -> bool:
    """Whether the first LIMIT sentences of TRAIN carry XPOS (French GSD's are all "_":
    MSTParser, whose features lean on POSTAG, then reads UPOS there, ``pos=upos``)."""
    return any(x != "_" for s in read_conllu(train)[:limit] for x in s.xpos)


def train_pair(key: str, data: Path, out: Path, limit: int, iterations: int
               ) -> list[str]:
    """Train KEY's UDPipe and MaltParser models; its docs/training.md row."""
    folder, prefix, split, _ = TREEBANKS[key]
    base = data / folder / f"{prefix}-ud-"
    train = Path(f"{base}{split}.conllu")
    dev = Path(f"{base}dev.conllu") if split == "train" else None
    test = Path(f"{base}test.conllu")
    if key == "en_train":
        limit = ENGLISH_LIMIT
    model = out / f"{key}.udpipe"
    t0 = time.perf_counter()
    r = pb.train("udpipe", train, model, dev=dev, limit=limit, tokenizer="none",
                 tagger=f"iterations={iterations}", parser_options=f"iterations={iterations}",
                 progress=Lines(sys.stderr, interval=30.0))
    wall = time.perf_counter() - t0
    m = pb.train("malt", train, out / f"{key}.mco", limit=limit, jar=str(MALT_JAR))
    if key != "en_train":
        for parser, opts in GRAPH.items():
            if parser == "mst" and not has_xpos(train, limit):
                opts = {**opts, "pos": "upos"}  # French GSD: POSTAG would be all "_"
            g = pb.train(parser, train, out / f"{key}.{parser}", limit=limit,
                         iterations=GRAPH_ITERATIONS, **opts)
            print(f"{key}: {parser} {g.seconds} s", file=sys.stderr)
    parsed = pb.parse(test, f"udpipe:{model}", batch_size=64)
    scored = model.with_suffix(".test.conllu")
    parsed.write(scored)
    las = pb.evaluate_deps(test, scored).las.f1
    print(f"{key}: udpipe {r.seconds} s, malt {m.seconds} s, test LAS "
          f"{'n/a' if las is None else f'{100 * las:.2f}'}", file=sys.stderr)
    took = "cached" if r.cached else f"{r.seconds / 60:.1f} min ({wall / 60:.1f} with loading)"
    name = folder if split != "dev" or key != "en_dev" else f"{folder} (dev-trained)"
    held = Path(r.dev["file"]).name if dev is not None else "last tenth"
    taken = len(read_conllu(train)[:limit])
    learnt = "" if taken == r.sentences else f", {r.sentences:,} learnt from"
    return [name, f"{train.name} (first {taken:,} sentences{learnt})", held,
            f"no tokenizer; tagger and parser {iterations} iterations", took,
            "n/a" if las is None else f"{100 * las:.2f}", baseline(name)]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default=str(ROOT.parent / "shared" / "data"))
    ap.add_argument("--out", default=str(ROOT / "study-output" / "multilingual" / "models"))
    ap.add_argument("--limit", type=int, default=LIMIT)
    ap.add_argument("--iterations", type=int, default=ITERATIONS)
    ap.add_argument("--doc", default=str(ROOT / "docs" / "training.md"),
                    help="the page whose table gets the rows; '' for none")
    ap.add_argument("--only", nargs="*", default=None, help="keys: " + " ".join(TREEBANKS))
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rows: dict[str, list[str]] = {}
    try:
        for key in TREEBANKS:
            if args.only and key not in args.only:
                continue
            row = train_pair(key, Path(args.data), out, args.limit, args.iterations)
            rows[row[0]] = row
            if args.doc:
                write_table(Path(args.doc), rows)
    except pb.InputError as exc:
        print(f"multilingual_models: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())

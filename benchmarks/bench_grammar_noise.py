"""Learner-like error generation (noise --kind grammar) on EWT dev+test, side by side with
nlpaug's word-level augmenters at the same rate.

Run with `.venv/bin/python benchmarks/bench_grammar_noise.py` (needs ../shared). nlpaug is
not a dependency of parsebench (`pip install nlpaug` for the comparison). Start-up
(imports, the lexicon, lemminflect's tables, nlpaug's augmenters) is timed apart;
parsebench's time is listing the sites, drawing the errors and writing each noisy
sentence with its alignment and M2 edits, all in memory. nlpaug keeps no alignment and
no error types, and its augmenters change words without regard to grammar.
"""

from __future__ import annotations

import random
import time
from pathlib import Path

from parsebench.formats.conllu import read_conllu
from parsebench.noise.grammar import corrupt, speller, zipf
from parsebench.noise.grammar_types import GrammarSettings
from parsebench.noise.inflection import inflect, lemmatize

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def main() -> None:
    ewt = SHARED / "ud-english-ewt"
    sents = [s for f in ("en_ewt-ud-dev.conllu", "en_ewt-ud-test.conllu")
             for s in read_conllu(ewt / f)]
    words = sum(len(s.forms) for s in sents)
    t = time.perf_counter()
    spell = speller("us-qwerty", None, "en", {w.lower() for s in sents for w in s.forms})
    freq = zipf("en")
    inflect("go", "VBD"), lemmatize("went", "VERB"), freq("word")  # their tables
    start = time.perf_counter() - t
    print(f"EWT dev+test: {len(sents)} sentences, {words} words; start-up {start:.2f} s")
    for settings in (GrammarSettings(rate=0.05, seed=1), GrammarSettings(per_sentence=1, seed=1)):
        best = float("inf")
        for _ in range(3):
            t = time.perf_counter()
            report, _ = corrupt(sents, settings, spell, freq)
            best = min(best, time.perf_counter() - t)
        name = f"rate {settings.rate}" if settings.rate else f"{settings.per_sentence}/sentence"
        print(f"parsebench grammar {name}: {len(sents) / best:,.0f} sentences/s "
              f"({words / best:,.0f} words/s), {report.made} errors of "
              f"{len(report.errors)} kinds, with alignment and M2 edits")
    try:
        import nlpaug.augmenter.word as naw
    except ImportError:
        print("nlpaug is not installed: pip install nlpaug for the comparison")
        return
    texts = [" ".join(s.forms) for s in sents]
    for name, make in (("RandomWordAug swap", lambda: naw.RandomWordAug(action="swap",
                                                                        aug_p=0.05)),
                       ("RandomWordAug delete", lambda: naw.RandomWordAug(action="delete",
                                                                          aug_p=0.05)),
                       ("SplitAug", lambda: naw.SplitAug(aug_p=0.05))):
        t = time.perf_counter()
        aug = make()
        start = time.perf_counter() - t
        random.seed(1)
        best = float("inf")
        for _ in range(3):
            t = time.perf_counter()
            got = [aug.augment(x) for x in texts]
            best = min(best, time.perf_counter() - t)
        changed = sum(1 for a, b in zip(texts, got, strict=True) if a != b[0])
        print(f"nlpaug {name} 5%: {len(sents) / best:,.0f} sentences/s ({words / best:,.0f} "
              f"words/s), {changed} sentences changed, no alignment; start-up {start:.2f} s")


if __name__ == "__main__":
    main()

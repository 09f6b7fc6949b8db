"""Misspelling generation speed on EWT dev+test, side by side with nlpaug's KeyboardAug.

Run with `.venv/bin/python benchmarks/bench_noise.py` (needs ../shared). nlpaug is
not a dependency of parsebench: install it in the benchmark's environment
(`pip install nlpaug`) to get the comparison; without it only parsebench runs.
Generation is timed apart from start-up and lexicon loading.
"""

from __future__ import annotations

import time
from pathlib import Path

from parsebench.formats.conllu import read_conllu
from parsebench.noise.keyboard import Keyboard
from parsebench.noise.lexicon import Lexicon
from parsebench.noise.spelling import Settings, plan

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def best_of(n: int, fn: object) -> float:
    assert callable(fn)
    best = float("inf")
    for _ in range(n):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def main() -> None:
    ewt = SHARED / "ud-english-ewt"
    sents = [s.forms for f in ("en_ewt-ud-dev.conllu", "en_ewt-ud-test.conllu")
             for s in read_conllu(ewt / f)]
    words = sum(map(len, sents))
    t = time.perf_counter()
    lex = Lexicon.load(None, "en")
    kb = Keyboard.load("us-qwerty")
    load = time.perf_counter() - t
    print(f"EWT dev+test: {len(sents)} sentences, {words} words; lexicon {lex.name} "
          f"({len(lex.words)} words) and keyboard loaded in {load:.3f} s")
    report = plan(sents, Settings(rate=0.05, seed=1), kb, lex)
    dt = best_of(5, lambda: plan(sents, Settings(rate=0.05, seed=1), kb, lex))
    in_lex = sum(1 for c in report.changes if c.new in lex)
    print(f"parsebench 5%: {words / dt:,.0f} words/s ({len(sents) / dt:,.0f} sentences/s), "
          f"{len(report.changes)} words changed, rows kept in {len(sents)}/{len(sents)} "
          f"sentences, changed words found in the lexicon: {in_lex}")
    for level in (0.01, 0.02, 0.05, 0.10, 0.20):
        dt = best_of(3, lambda lv=level: plan(sents, Settings(rate=lv, seed=1), kb, lex))
        print(f"  rate {level:.2f}: {words / dt:,.0f} words/s")
    for k in (1, 2, 3):
        dt = best_of(3, lambda k=k: plan(sents, Settings(per_sentence=k, seed=1), kb, lex))
        print(f"  {k} per sentence: {words / dt:,.0f} words/s")
    sv = [s.forms for s in read_conllu(SHARED / "ud-swedish-talbanken" /
                                       "sv_talbanken-ud-test.conllu")]
    svlex, svkb = Lexicon.load(None, "sv"), Keyboard.load("sv-qwerty")
    sv_words = sum(map(len, sv))
    print(f"Talbanken test: {len(sv)} sentences, {sv_words} words, lexicon {svlex.name}")
    for level in (0.01, 0.02, 0.05, 0.10, 0.20):
        r = plan(sv, Settings(rate=level, seed=1), svkb, svlex)
        dt = best_of(3, lambda lv=level: plan(sv, Settings(rate=lv, seed=1), svkb, svlex))
        print(f"  rate {level:.2f}: {sv_words / dt:,.0f} words/s, {len(r.changes)} changed, "
              f"{r.shortfall} short")
    for k in (1, 2, 3):
        r = plan(sv, Settings(per_sentence=k, seed=1), svkb, svlex)
        dt = best_of(3, lambda k=k: plan(sv, Settings(per_sentence=k, seed=1), svkb, svlex))
        print(f"  {k} per sentence: {sv_words / dt:,.0f} words/s, "
              f"{len(r.short_sentences)} sentences with too few eligible words")

    try:
        import nlpaug.augmenter.char as nac
    except ImportError:
        print("nlpaug is not installed here: `pip install nlpaug` for the side-by-side run")
        return
    aug = nac.KeyboardAug(aug_word_p=0.05, aug_char_max=1, aug_char_min=1)
    texts = [" ".join(s) for s in sents]
    out: list[str] = []

    def run() -> None:
        out.clear()
        out.extend(aug.augment(texts))

    dt = best_of(2, run)
    kept = sum(1 for a, b in zip(texts, out, strict=True) if len(a.split()) == len(b.split()))
    changed_words = [y for a, b in zip(texts, out, strict=True)
                     for x, y in zip(a.split(), b.split(), strict=False) if x != y]
    nonwords = sum(1 for y in changed_words if y not in lex)
    print(f"nlpaug KeyboardAug 5%: {words / dt:,.0f} words/s ({len(sents) / dt:,.0f} "
          f"sentences/s), token count kept in {kept}/{len(sents)} sentences, "
          f"{nonwords}/{len(changed_words)} changed tokens (where rows still line up) "
          f"are non-words")


if __name__ == "__main__":
    main()

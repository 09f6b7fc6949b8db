"""What a figure was made under (the text, what the parser was given), read from its
signature, and the sentence that says when figures shown together were made otherwise.

A run signs every result with its corpus's file and a hash of its bytes
(``corpus``, ``corpus-hash``) and the input condition (``input:gold-words`` or
``input:raw-text``); two parsers' figures side by side are only comparable when those
agree. ``compare`` reads files that carry no signature, so it finds the condition
from the files themselves (:func:`condition_of_counts`).
"""

from __future__ import annotations

from collections.abc import Iterable

from parsebench.common.signature import read_signature

INPUTS = {"gold-words": "the gold words", "gold-words-and-tags": "the gold words and tags",
          "raw-text": "the raw text", "own-words": "words of its own (not the gold's)"}
"""Each input condition as a sentence names it."""


def differing_conditions(figures: Iterable[tuple[str, str | None]]) -> list[str]:
    """A sentence for each corpus whose FIGURES ((parser, signature) pairs shown
    together) were made from different texts or given different inputs; [] when they
    agree (or say nothing of it: a signature of before these fields)."""
    by_corpus: dict[str, dict[str, dict[str, list[str]]]] = {}
    for parser, signature in figures:
        f = read_signature(signature)
        corpus = f.get("corpus")
        if corpus is None:
            continue
        for key in ("corpus-hash", "input"):
            if key in f:
                names = by_corpus.setdefault(corpus, {}).setdefault(key, {}) \
                    .setdefault(f[key], [])
                if parser not in names:
                    names.append(parser)
    out = []
    for corpus, keys in by_corpus.items():
        texts = keys.get("corpus-hash", {})
        if len(texts) > 1:
            out.append(f"the figures of {corpus} were made from different versions of its "
                       "text (" + "; ".join(f"hash {h}: {', '.join(p)}"
                                            for h, p in texts.items())
                       + "): they are not comparable; run the experiment again")
        given = keys.get("input", {})
        if len(given) > 1:
            out.append(f"the parsers of {corpus} were not given the same input ("
                       + "; ".join(f"{INPUTS.get(i, i)}: {', '.join(p)}"
                                   for i, p in given.items())
                       + "): their figures differ by the input as much as by the parser")
    return out


def condition_of_counts(words_exact: bool, tags_exact: bool) -> str:
    """A system file's input condition as its scores show it: ``gold-words`` when its
    words are the gold's, ``gold-words-and-tags`` when every tag is the gold's too (no
    tagger is right on every word of a treebank), ``own-words`` otherwise."""
    if not words_exact:
        return "own-words"
    return "gold-words-and-tags" if tags_exact else "gold-words"


def differing_inputs(systems: Iterable[tuple[str, str]]) -> str | None:
    """The warning of ``compare`` when SYSTEMS ((file, condition) pairs) were not given
    the same input; None when they were."""
    given: dict[str, list[str]] = {}
    for name, condition in systems:
        given.setdefault(condition, []).append(name)
    if len(given) < 2:
        return None
    return ("the systems were not given the same input ("
            + "; ".join(f"{INPUTS.get(c, c)}: {', '.join(n)}" for c, n in given.items())
            + "): their scores differ by the input as much as by the parser")

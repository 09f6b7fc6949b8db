"""ERRANT's edits and error types for any ungrammatical/corrected pair (an optional extra).

ERRANT (Bryant et al. 2017) aligns a sentence with its correction, merges the
edits linguistically and types them from the words' tags; it is what
grammatical error correction reports types with. This module is a thin
bridge: it hands ERRANT pre-tokenized words (so its edits index the same
words the parses have) and turns the edits into parsebench's alignments, so
``robustness f1 --alignment errant`` breaks JFLEG down by type, and the test
suite checks generated errors against ERRANT's reading of them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from parsebench.common.errors import InputError
from parsebench.metrics.core.word_alignment import Alignment, from_edits, m2_words

DEFAULT_PIPELINE = "en_core_web_sm"
"""The spaCy pipeline ERRANT is built for (``python -m spacy download en_core_web_sm``)."""

ErrantEdit = tuple[int, int, str, list[str]]
"""(first noisy word, end, ERRANT type, the corrected words)."""


@cache
def annotator(pipeline: str = DEFAULT_PIPELINE) -> Any:
    """ERRANT's English annotator over the spaCy PIPELINE (a package name or a folder)."""
    try:
        import errant
        import spacy
    except ImportError:
        raise InputError("ERRANT is not installed: pip install 'parsebench[errant]'") from None
    try:
        nlp = spacy.load(pipeline, disable=["ner"])
    except OSError:
        raise InputError(f"spaCy pipeline {pipeline!r} is not installed (python -m spacy "
                         f"download {pipeline}), or give --errant-pipeline") from None
    return errant.load("en", nlp)


def edits(noisy: Sequence[str], clean: Sequence[str], pipeline: str = DEFAULT_PIPELINE
          ) -> list[ErrantEdit]:
    """ERRANT's edits that turn the NOISY words into the CLEAN ones, in order."""
    return edits_of([(noisy, clean)], pipeline)[0]


BATCH = 64
"""Sentences spaCy tags and parses at once for ERRANT (``nlp.pipe``): a sentence at a
time, as ERRANT's own ``parse`` does, took three times as long."""


def edits_of(pairs: Sequence[tuple[Sequence[str], Sequence[str]]],
             pipeline: str = DEFAULT_PIPELINE) -> list[list[ErrantEdit]]:
    """:func:`edits` of each (noisy, clean) pair of PAIRS, in order, their words analysed
    by spaCy in batches; the same edits as ERRANT's ``parse`` a sentence at a time."""
    from spacy.tokens import Doc

    ann = annotator(pipeline)
    # ERRANT splits pre-tokenized text at spaces, as M2 does: a word with a space stays one
    words = (" ".join(m2_words(list(side))).split() for pair in pairs for side in pair)
    docs = list(ann.nlp.pipe((Doc(ann.nlp.vocab, w) for w in words), batch_size=BATCH))
    return [sorted((e.o_start, e.o_end, e.type, list(clean[e.c_start:e.c_end]))
                   for e in ann.annotate(docs[2 * k], docs[2 * k + 1]) if e.type != "noop")
            for k, (_, clean) in enumerate(pairs)]


def repeated(words: Sequence[str], a: int, b: int, typ: str) -> str:
    """ERRANT's TYPE of the edit [A, B) of WORDS, U:REPEAT when it deletes one word beside
    the same word (ERRANT types it by the word's class, U:NOUN...): how the default
    weights of the grammar noise count JFLEG's edits, and how the noise records one."""
    if typ.startswith("U:") and b - a == 1 and (
            (a > 0 and words[a - 1].lower() == words[a].lower())
            or (b < len(words) and words[b].lower() == words[a].lower())):
        return "U:REPEAT"
    return typ


def alignment(noisy: Sequence[str], clean: Sequence[str], pipeline: str = DEFAULT_PIPELINE
              ) -> Alignment:
    """The alignment of NOISY with CLEAN that ERRANT's typed edits give."""
    return alignments([(noisy, clean)], pipeline)[0]


REMEMBERED = 8192
"""Alignments kept (the last made): a run asks for the same pairs once a parser."""
_remembered: dict[tuple[tuple[str, ...], tuple[str, ...], str], Alignment] = {}


def alignments(pairs: Sequence[tuple[Sequence[str], Sequence[str]]],
               pipeline: str = DEFAULT_PIPELINE) -> list[Alignment]:
    """:func:`alignment` of each (noisy, clean) pair of PAIRS, those not remembered
    analysed by spaCy in batches."""
    keys = [(tuple(n), tuple(c), pipeline) for n, c in pairs]
    got = {k: _remembered[k] for k in keys if k in _remembered}
    todo = [k for k in dict.fromkeys(keys) if k not in got]
    for k, e in zip(todo, edits_of([(n, c) for n, c, _ in todo], pipeline), strict=True):
        a = from_edits(list(k[0]), e)
        a.corrected = a.source = None  # the words are the parses' own
        got[k] = _remembered[k] = a
    while len(_remembered) > REMEMBERED:
        del _remembered[next(iter(_remembered))]
    return [got[k] for k in keys]


@dataclass
class Agreement:
    """How ERRANT reads recorded edits, by recorded type: how many it finds with the same
    span and correction and the same operation (M/U/R), and with the same whole type
    (ERRANT's U: edit of a repeated word read as U:REPEAT, :func:`repeated`)."""

    edits: Counter[str] = field(default_factory=Counter)
    operation: Counter[str] = field(default_factory=Counter)
    type: Counter[str] = field(default_factory=Counter)
    confusions: Counter[tuple[str, str]] = field(default_factory=Counter)
    """(recorded, ERRANT's) where they differ; ERRANT's is "-" when it has no such edit."""

    def shares(self) -> tuple[float, float]:
        n = sum(self.edits.values())
        return sum(self.operation.values()) / n, sum(self.type.values()) / n


def agreement(pairs: Iterable[tuple[Sequence[str], Sequence[tuple[int, int, str, str]]]],
              pipeline: str = DEFAULT_PIPELINE) -> Agreement:
    """ERRANT's reading of noisy sentences whose edits are known: PAIRS of (noisy words,
    M2 edits (start, end, type, correction) that turn them into the clean sentence)."""
    out = Agreement()
    given = list(pairs)
    corrected = []
    for noisy, m2 in given:
        clean = list(noisy)
        for a, b, _, corr in sorted(m2, reverse=True):
            clean[a:b] = corr.split()
        corrected.append((noisy, clean))
    for (noisy, m2), read in zip(given, edits_of(corrected, pipeline), strict=True):
        found = {(a, b, " ".join(c)): repeated(noisy, a, b, t) for a, b, t, c in read}
        for a, b, typ, corr in m2:
            out.edits[typ] += 1
            got = found.get((a, b, corr))
            out.operation[typ] += got is not None and got[:2] == typ[:2]
            out.type[typ] += got == typ
            if got != typ:
                out.confusions[(typ, got or "-")] += 1
    return out

"""Scoring a parse whose words are not the gold's (``eval deps --align words``).

A parser that corrects spelling, normalises, tokenises again or is an LLM returns other
words than it was given; the CoNLL 2018 script (and plain ``eval deps``) refuses such a
file. Here the system's words are aligned to the gold's by a minimum edit-distance
alignment of the two word sequences, over the whole files, so that merged or split
sentences are scored and the sentence boundaries are the gold's:

- two words can be paired when their forms are close: the normalized Indel similarity
  of the lower-cased forms (rapidfuzz's ``Indel.normalized_similarity``, 1 minus the
  characters inserted and deleted over both lengths) is at least ``CLOSE`` (0.5:
  ``teh``/``the`` 0.67, ``u``/``you`` 0.5, ``a``/``the`` 0); a pair costs 1 minus its
  similarity (0 for the same form, case aside), a word left unpaired costs 1;
- the alignment minimises the total cost, exactly, between anchors: runs of at least
  ``ANCHOR`` words that a longest common subsequence of the forms pairs one to one
  (a gap of more than ``MAX_CELLS`` word pairs is aligned by that subsequence alone,
  with a warning).

A pair is a match (the same form, case aside) or a substitution; a gold word left
unpaired is a deletion, a system word an insertion (the "hallucinated" words of
LLM-parsing papers). Every metric is then counted as CoNLL 2018 counts it over aligned
words (:func:`parsebench.metrics.dependency.stretch.count_stretch`): precision over the
system's words, recall over the gold's, an arc right when the word and its head are
aligned to the gold word and its gold head. A system word counts in the gold sentence of
its aligned word (an inserted one in that of the aligned word before it). Tokens,
Sentences and Words, which CoNLL 2018 compares as character spans, have no character
spans here; they are parsebench's own figures over the aligned words, not the script's:
a system word is right (Words) when it is paired with a gold word, so Words is the
alignment's pairs over the system's and over the gold's words; a system token (a
multiword token, or a word outside one) is right when its words are aligned, in order, to
the words of a gold token; a system sentence is right when its aligned words all fall in
one gold sentence and no other system sentence has an aligned word there (the boundaries
agree: a word inserted, deleted or substituted does not move them, which Words already
counts). MultiLexNorm's
aligned scores (a-LAS, a-UAS, a-POS) are the recall of LAS, UAS and UPOS here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from parsebench.common.errors import InputError
from parsebench.formats.conllu import Sentence
from parsebench.metrics.dependency.conll18 import (
    CONLL18,
    CONLL18_NAMES,
    METRIC_NEEDS,
    absent_metrics,
    base,
    held_columns,
)
from parsebench.metrics.dependency.evaluate import DepsOptions, DepsResult
from parsebench.metrics.dependency.lin_scorer import (
    BY_FIELDS,
    CONFUSION_FIELDS,
    BucketCounts,
)
from parsebench.metrics.dependency.scheme import scheme_warning
from parsebench.metrics.dependency.stretch import SentenceCounts, count_stretch
from parsebench.metrics.dependency.tree_checks import TreeCheck
from parsebench.model.inputs import COLUMNS

CLOSE = 0.5
"""The least normalized Indel similarity of two lower-cased forms that can be paired."""
ANCHOR = 3
"""Runs of this many words paired by the longest common subsequence are kept as anchors."""
MAX_CELLS = 10_000_000
"""The largest gap (system words x gold words) aligned exactly."""


@dataclass(slots=True)
class WordAlignment:
    """The gold word of each system word (-1: inserted), and what the alignment did."""

    sys2gold: list[int]
    matched: int = 0
    substituted: int = 0
    deleted: int = 0
    inserted: int = 0
    approximate: int = 0
    """Gaps too large to align exactly (aligned by the common subsequence alone)."""

    def as_dict(self) -> dict[str, int]:
        return {"matched": self.matched, "substituted": self.substituted,
                "deleted": self.deleted, "inserted": self.inserted}


def similarity(a: str, b: str) -> float:
    """How close two forms are: the normalized Indel similarity of their lower-cased forms."""
    from rapidfuzz.distance import Indel

    return float(Indel.normalized_similarity(a.lower(), b.lower()))


def align_forms(gold: Sequence[str], system: Sequence[str]) -> WordAlignment:
    """The minimum-cost alignment of SYSTEM's words to GOLD's (see the module)."""
    from rapidfuzz.distance import Indel

    g = [w.lower() for w in gold]
    s = [w.lower() for w in system]
    out = WordAlignment([-1] * len(s))
    si = gi = 0
    for op in Indel.opcodes(s, g) if s and g else ():
        if op.tag == "equal" and op.src_end - op.src_start >= ANCHOR:
            _align_gap(s, g, si, op.src_start, gi, op.dest_start, out)
            for k in range(op.src_end - op.src_start):
                out.sys2gold[op.src_start + k] = op.dest_start + k
            si, gi = op.src_end, op.dest_end
    _align_gap(s, g, si, len(s), gi, len(g), out)
    paired = [j for j in out.sys2gold if j >= 0]
    out.matched = sum(g[j] == s[i] for i, j in enumerate(out.sys2gold) if j >= 0)
    out.substituted = len(paired) - out.matched
    out.inserted = len(s) - len(paired)
    out.deleted = len(g) - len(paired)
    return out


def _align_gap(s: list[str], g: list[str], s0: int, s1: int, g0: int, g1: int,
               out: WordAlignment) -> None:
    """Pair s[s0:s1] with g[g0:g1] at the least cost: a dynamic program over the gap that
    maximises the sum of 1 + similarity over the pairs (the same as the least cost: the
    cost is the words of both sides minus that sum)."""
    n, m = s1 - s0, g1 - g0
    if n == 0 or m == 0:
        return
    if n * m > MAX_CELLS:
        from rapidfuzz.distance import Indel

        out.approximate += 1
        for op in Indel.opcodes(s[s0:s1], g[g0:g1]):
            if op.tag == "equal":
                for k in range(op.src_end - op.src_start):
                    out.sys2gold[s0 + op.src_start + k] = g0 + op.dest_start + k
        return
    import numpy as np
    from rapidfuzz import process
    from rapidfuzz.distance import Indel

    sim = process.cdist(s[s0:s1], g[g0:g1], scorer=Indel.normalized_similarity,
                        dtype=np.float64)
    w = np.where(sim >= CLOSE, 1.0 + sim, 0.0)  # 0: cannot pair (and never chosen)
    best = np.zeros((n + 1, m + 1))
    for i in range(1, n + 1):
        row = np.maximum(best[i - 1, 1:], best[i - 1, :-1] + w[i - 1])
        best[i, 1:] = np.maximum.accumulate(row)  # leaving gold words out costs nothing
    i, j = n, m
    while i > 0 and j > 0:
        here = best[i, j]
        if w[i - 1, j - 1] > 0 and here == best[i - 1, j - 1] + w[i - 1, j - 1]:
            out.sys2gold[s0 + i - 1] = g0 + j - 1
            i -= 1
            j -= 1
        elif here == best[i - 1, j]:
            i -= 1  # the system word is inserted
        else:
            j -= 1  # the gold word is deleted


@dataclass
class AlignedResult(DepsResult):
    """``eval deps --align words``: the scores over aligned words, and the alignment."""

    alignment: dict[str, int] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        out = super().as_dict()
        out["alignment"] = dict(self.alignment)
        return out


def score_aligned(gold: Iterable[Sentence], system: Iterable[Sentence],
                  options: DepsOptions | None = None) -> AlignedResult:
    """Score SYSTEM against GOLD over words aligned by :func:`align_forms` (both read
    whole: the alignment runs over the files, not a sentence at a time). The settings
    are :func:`parsebench.metrics.dependency.evaluate.score_deps`'s; ELAS and EULAS
    (ENHANCED) are not given over aligned words."""
    options = options or DepsOptions()
    (select, by, labels, gold_path, system_path, per_sentence, punct, confusion, each,
     also_by, validity, multiple_roots_okay, counts) = (
        options.select, options.by, options.labels, options.gold_path, options.system_path,
        options.per_sentence, options.punct, options.confusion, options.each_with_rows(),
        options.also_by, options.validity, options.multiple_roots_okay, options.counts)
    for f in (by, *also_by):
        if f is not None and f not in BY_FIELDS:
            raise InputError(f"--by {f!r}: expected one of " + ", ".join(BY_FIELDS))
    if confusion is not None and confusion not in CONFUSION_FIELDS:
        raise InputError(f"--confusion {confusion!r}: expected one of "
                         + ", ".join(CONFUSION_FIELDS))
    fields = list(dict.fromkeys(f for f in (by, *also_by) if f))
    gold, system = list(gold), list(system)
    al = align_forms([w for x in gold for w in x.forms], [w for x in system for w in x.forms])
    part = count_stretch(gold, system, select, fields, labels, gold_path, system_path,
                         punct, confusion, sys2gold=al.sys2gold)
    _span_counts(gold, system, al.sys2gold, part.per_sentence)
    total = SentenceCounts()
    for c in part.per_sentence:
        total.add(c)
        if each is not None:
            each(c)
    check = TreeCheck(multiple_roots_okay)
    system_has: set[str] = set()
    gold_has: set[str] = set()
    for x in system:
        if validity is None or validity.policy != "zero":
            check.add(x)
        held_columns(x, system_has)
    if validity is not None and validity.headed:
        system_has.add("heads")
    if not any(len(x) for x in system):  # no word lacks a column: recall 0, not n/a
        system_has.update(COLUMNS)
    for x in gold:
        held_columns(x, gold_has)
    warnings = [f"{system_path}: words aligned to the gold's by edit distance (--align "
                f"words): {al.matched} matched, {al.substituted} substituted, {al.deleted} "
                f"deleted, {al.inserted} inserted"]
    if al.approximate:
        warnings.append(f"{system_path}: {al.approximate} stretch(es) of more than "
                        f"{MAX_CELLS} word pairs aligned by their common words alone")
    warnings += check.warnings(system_path)
    absent = absent_metrics(system_has, gold_has) if gold else frozenset()
    for path, has in ((gold_path, gold_has), (system_path, system_has)):
        gone = [c for c in COLUMNS if c != "heads" and c not in has]
        lost = [CONLL18_NAMES[m] for m in CONLL18 if m in absent
                and set(METRIC_NEEDS[m]) & set(gone)]
        if gold and lost:
            warnings.append(f"{path} has no {', no '.join(COLUMNS[c] for c in gone)}: "
                            f"{', '.join(lost)} n/a")
    if "heads" not in system_has and gold:
        warnings.append(f"{system_path} has no heads (a tagger's output?): every attachment "
                        "score is n/a")
    elif gold:
        scheme = scheme_warning((base(d) for x in gold for d in x.deprels if d != "_"),
                                (base(d) for x in system for d in x.deprels if d != "_"),
                                "relations", gold_path, system_path)
        if scheme:
            warnings.append(scheme)
    breakdowns: dict[str, dict[str, BucketCounts]] = {f: part.breakdowns.get(f, {}) for f in fields}
    confusions: Counter[tuple[str, str]] | None = part.confusion
    return AlignedResult(total, len(gold), part.per_sentence if per_sentence else None,
                         breakdowns.get(by) if by else None, by, warnings, absent,
                         confusions, punct, breakdowns, counts=counts,
                         alignment=al.as_dict())


def _spans(sentences: Sequence[Sentence]) -> tuple[list[tuple[int, int]],
                                                   list[tuple[int, int]]]:
    """(first word, last word) of every token and of every sentence, over the whole file."""
    tokens: list[tuple[int, int]] = []
    sents: list[tuple[int, int]] = []
    k = 0
    for x in sentences:
        mw = {a: b for a, b, _ in x.multiword}
        i = 0
        while i < len(x):
            b = mw.get(i, i)
            tokens.append((k + i, k + b))
            i = b + 1
        sents.append((k, k + len(x) - 1))
        k += len(x)
    return tokens, sents


def _span_counts(gold: Sequence[Sentence], system: Sequence[Sentence],
                 sys2gold: list[int], per_sentence: list[SentenceCounts]) -> None:
    """Tokens and Sentences over aligned words (see the module): a system span counts in
    the gold sentence of its first aligned word (of the last one before it, if none is)."""
    import bisect

    g_tokens, g_sents = _spans(gold)
    s_tokens, s_sents = _spans(system)
    starts = [a for a, _ in g_sents]
    where_gold = {span: bisect.bisect_right(starts, span[0]) - 1 for span in g_tokens}
    for k in where_gold.values():
        per_sentence[k].tokens.gold += 1
    for c in per_sentence:
        c.sentences.gold += 1
    last = 0
    for a, b in s_tokens:
        words = sys2gold[a:b + 1]
        aligned = [g for g in words if g >= 0]
        if aligned:
            last = bisect.bisect_right(starts, aligned[0]) - 1
        if not per_sentence:
            break
        per_sentence[last].tokens.system += 1
        if words and len(aligned) == len(words) \
                and words == list(range(words[0], words[-1] + 1)) \
                and (words[0], words[-1]) in where_gold:
            per_sentence[last].tokens.correct += 1
    # Sentences: the gold sentences that the aligned words of each system sentence fall
    # in (the alignment keeps the order, so the first and last aligned word bound them)
    reach: list[tuple[int, int] | None] = []
    touched = [0] * len(per_sentence)
    for a, b in s_sents:
        aligned = [g for g in sys2gold[a:b + 1] if g >= 0]
        if not aligned:
            reach.append(None)
            continue
        first = bisect.bisect_right(starts, aligned[0]) - 1
        here = sorted({bisect.bisect_right(starts, g) - 1 for g in aligned})
        for k in here:
            touched[k] += 1
        reach.append((first, here[-1]))
    last = 0
    for r in reach:
        if r is not None:
            last = r[0]
        if not per_sentence:
            break
        per_sentence[last].sentences.system += 1
        if r is not None and r[0] == r[1] and touched[r[0]] == 1:
            per_sentence[last].sentences.correct += 1

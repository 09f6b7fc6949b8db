"""Align the words of two tokenizations of the same text, as the CoNLL 2018 UD evaluation does.

Both files must spell the same characters once spaces (Unicode category Zs) are
removed. Words outside multiword tokens align when their character spans are
equal; inside a "multiword span" (the smallest stretch that contains whole
multiword tokens of both sides) words align by a longest common subsequence of
their lower-cased forms. Written here because the reference is a script, not a
library, and parsebench needs the alignment itself (for Lin's precision/recall
and breakdowns), not only the scores it prints.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from parsebench.common.errors import InputError
from parsebench.formats.conllu import Sentence

fast_text_length: Callable[[Sentence], int] | None
"""text_length in C where it was built (-1 where it leaves the count to text_length)."""


@dataclass(slots=True)
class WordSpans:
    """Character spans of every syntactic word of a file, in file order."""

    start: list[int]
    end: list[int]
    multiword: list[bool]
    forms: list[str]
    chars: str
    lines: list[int]
    """Sentence first-line number for each character position's word (for error messages)."""


def strip_spaces(form: str) -> str:
    if form.isascii() and " " not in form:
        return form
    return "".join(c for c in form if unicodedata.category(c) != "Zs")


def plain_text(forms: list[str]) -> bool:
    """Whether FORMS are ASCII without a space (they are then their own text: the only
    ASCII space separator is " ")."""
    joined = "".join(forms)
    return joined.isascii() and " " not in joined


def word_spans(sentences: Sequence[Sentence]) -> WordSpans:
    start: list[int] = []
    end: list[int] = []
    multi: list[bool] = []
    forms: list[str] = []
    pieces: list[str] = []
    lines: list[int] = []
    pos = 0
    for s in sentences:
        if not s.multiword and plain_text(s.forms):  # a word a token, each its own text
            n = len(s.forms)
            for form in s.forms:
                start.append(pos)
                pos += len(form)
                end.append(pos)
            multi += [False] * n
            forms += [f.lower() for f in s.forms]
            lines += [s.line] * n
            pieces += s.forms
            continue
        mw = {a: (b, cols[1]) for a, b, cols in s.multiword}
        i = 0
        n = len(s.forms)
        while i < n:
            if i in mw:
                b, form = mw[i]
                token = strip_spaces(form)
                for k in range(i, b + 1):
                    start.append(pos)
                    end.append(pos + len(token))
                    multi.append(True)
                    forms.append(s.forms[k].lower())
                    lines.append(s.line)
                pieces.append(token)
                pos += len(token)
                i = b + 1
            else:
                token = strip_spaces(s.forms[i])
                start.append(pos)
                end.append(pos + len(token))
                multi.append(False)
                forms.append(token.lower())
                lines.append(s.line)
                pieces.append(token)
                pos += len(token)
                i += 1
    return WordSpans(start, end, multi, forms, "".join(pieces), lines)


def same_tokenization(gold: Sequence[Sentence], system: Sequence[Sentence]) -> bool:
    """True when both files have the same words and multiword tokens: alignment is identity."""
    if len(gold) != len(system):
        return False
    for g, s in zip(gold, system, strict=True):
        if g.forms != s.forms:
            return False
        if [(a, b) for a, b, _ in g.multiword] != [(a, b) for a, b, _ in s.multiword]:
            return False
    return True


def same_rows(gold: Sequence[Sentence], system: Sequence[Sentence]) -> bool:
    """Same sentences, word counts and multiword ranges: row i of one is row i of the other."""
    return len(gold) == len(system) and all(
        len(g) == len(s) and [(a, b) for a, b, _ in g.multiword]
        == [(a, b) for a, b, _ in s.multiword] for g, s in zip(gold, system, strict=True))


def text_of(sentences: Sequence[Sentence]) -> str:
    """The sentences' text without spaces, as the alignment compares it."""
    return word_spans(sentences).chars


def by_rows(gold: Sequence[Sentence], system: Sequence[Sentence]) -> bool:
    """Row i of one file is row i of the other: the same tokenization, or the same rows
    with another text (a parse of misspelled text against the gold of the clean text).
    The same text tokenized otherwise, even into as many words, is aligned by text."""
    if same_tokenization(gold, system):
        return True
    return same_rows(gold, system) and text_of(gold) != text_of(system)


def align_words(gold: Sequence[Sentence], system: Sequence[Sentence],
                gold_path: str = "GOLD", system_path: str = "SYSTEM",
                notes: list[str] | None = None) -> list[int]:
    """For every system word (file order), the index of its gold word, or -1.

    Files with the same rows but some different forms (a parse of misspelled
    text against the gold of the clean text) are aligned row by row, with a
    note; other files must spell the same text.
    """
    if same_tokenization(gold, system):
        return list(range(sum(len(s) for s in system)))
    if by_rows(gold, system):
        if notes is not None:
            differ = sum(a != b for g, s in zip(gold, system, strict=True)
                         for a, b in zip(g.forms, s.forms, strict=True))
            notes.append(f"{system_path}: {differ} word form(s) differ from the gold's; "
                         "the files have the same rows, so words are aligned row by row")
        return list(range(sum(len(s) for s in system)))
    g, s = check_same_text(gold, system, gold_path, system_path)
    return _align(g, s)


def check_same_text(gold: Sequence[Sentence], system: Sequence[Sentence],
                    gold_path: str = "GOLD", system_path: str = "SYSTEM"
                    ) -> tuple[WordSpans, WordSpans]:
    """The words of both, which must spell the same text once spaces are dropped."""
    g = word_spans(gold)
    s = word_spans(system)
    if g.chars != s.chars:
        i = 0
        limit = min(len(g.chars), len(s.chars))
        while i < limit and g.chars[i] == s.chars[i]:
            i += 1
        gline = _line_at(g, i)
        sline = _line_at(s, i)
        if i == len(g.chars):
            raise InputError(f"the system goes on where the gold text ({gold_path}) has "
                             f"ended: system has {s.chars[i:i + 20]!r}", system_path, sline)
        where = gold_path if gline is None else f"{gold_path}:{gline}"
        if i == len(s.chars):
            raise InputError(f"the system ends where the gold text ({where}) goes on: gold "
                             f"has {g.chars[i:i + 20]!r}", system_path, sline)
        raise InputError(
            f"the text differs from the gold text ({where}): gold has "
            f"{g.chars[i:i + 20]!r}, system has {s.chars[i:i + 20]!r}", system_path, sline)
    return g, s


def text_length(s: Sentence) -> int:
    """Characters of the sentence's text without spaces, as :func:`word_spans` counts
    them: where both files end a sentence at the same count, a stretch can end. In C
    where it was built (the same count)."""
    if fast_text_length is not None:
        n = fast_text_length(s)
        if n >= 0:
            return n
    if not s.multiword:
        joined = "".join(s.forms)
        if joined.isascii():
            return len(joined) - joined.count(" ")
    mw = {a: (b, cols[1]) for a, b, cols in s.multiword}
    n = len(s.forms)
    i = total = 0
    while i < n:
        if i in mw:
            b, form = mw[i]
            total += len(strip_spaces(form))
            i = b + 1
        else:
            total += len(strip_spaces(s.forms[i]))
            i += 1
    return total


try:
    from parsebench.metrics.dependency._stretch_fast import text_length as fast_text_length
except ImportError:  # built without a C compiler
    fast_text_length = None


def _line_at(w: WordSpans, char: int) -> int | None:
    for k, e in enumerate(w.end):
        if e > char:
            return w.lines[k]
    return w.lines[-1] if w.lines else None


def _align(g: WordSpans, s: WordSpans) -> list[int]:
    sys2gold = [-1] * len(s.start)
    gi = si = 0
    ng, ns = len(g.start), len(s.start)
    while gi < ng and si < ns:
        if g.multiword[gi] or s.multiword[si]:
            before = gi, si
            gs, ss, gi, si = _multiword_span(g, s, gi, si)
            if gi > gs and si > ss:
                _lcs_align(g, s, gs, gi, ss, si, sys2gold)
            elif (gi, si) == before:  # a multiword token of no text (only spaces): its
                if g.multiword[gi] and g.start[gi] == g.end[gi]:  # words align to none
                    gi += 1
                else:
                    si += 1
        elif g.start[gi] == s.start[si] and g.end[gi] == s.end[si]:
            sys2gold[si] = gi
            gi += 1
            si += 1
        elif g.start[gi] <= s.start[si]:
            gi += 1
        else:
            si += 1
    return sys2gold


def _beyond(w: WordSpans, i: int, span_end: int) -> bool:
    if i >= len(w.start):
        return True
    if w.multiword[i]:
        return w.start[i] >= span_end
    return w.end[i] > span_end


def _extend(w: WordSpans, i: int, span_end: int) -> int:
    if w.multiword[i] and w.end[i] > span_end:
        return w.end[i]
    return span_end


def _multiword_span(g: WordSpans, s: WordSpans, gi: int, si: int) -> tuple[int, int, int, int]:
    if g.multiword[gi]:
        span_end = g.end[gi]
        if not s.multiword[si] and s.start[si] < g.start[gi]:
            si += 1
    else:
        span_end = s.end[si]
        if not g.multiword[gi] and g.start[gi] < s.start[si]:
            gi += 1
    gs, ss = gi, si
    while not _beyond(g, gi, span_end) or not _beyond(s, si, span_end):
        if gi < len(g.start) and (si >= len(s.start) or g.start[gi] <= s.start[si]):
            span_end = _extend(g, gi, span_end)
            gi += 1
        else:
            span_end = _extend(s, si, span_end)
            si += 1
    return gs, ss, gi, si


def _lcs_align(g: WordSpans, s: WordSpans, gs: int, ge: int, ss: int, se: int,
               sys2gold: list[int]) -> None:
    n, m = ge - gs, se - ss
    table = [[0] * (m + 1) for _ in range(n + 1)]
    for a in range(n - 1, -1, -1):
        row, below = table[a], table[a + 1]
        for b in range(m - 1, -1, -1):
            if g.forms[gs + a] == s.forms[ss + b]:
                row[b] = max(1 + below[b + 1], below[b], row[b + 1])
            else:
                row[b] = max(below[b], row[b + 1])
    a = b = 0
    while a < n and b < m:
        if g.forms[gs + a] == s.forms[ss + b]:
            sys2gold[ss + b] = gs + a
            a += 1
            b += 1
        elif table[a][b] == table[a + 1][b]:
            a += 1
        else:
            b += 1

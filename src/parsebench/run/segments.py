"""A transcript without sentence boundaries, parsed: the parser is given segments (the
sentences run together and cut every so many words, :class:`parsebench.noise.
transcript.Cuts`), and each segment's analysis is cut back into the sentences by word
positions, so that every method scores a sentence against its clean parse and gold
tree as usual.

A head that falls in another sentence cannot be right (a gold head never does): it
becomes no head (``NO_HEAD``), as CoNLL 2018's scorer, aligning the whole document,
would count it wrong. A sentence that a cut splits takes its words' analyses from
both segments (two roots, maybe). A segment the parser failed on fails each sentence
it holds words of, with its reason. Written here because the cut is ours.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from parsebench.common.outcomes import Analysis, Failure, Outcome
from parsebench.formats.conllu import NO_HEAD

COLUMNS = ("deprels", "upos", "xpos", "lemmas", "feats")
"""An analysis's columns of a word, carried as they are."""


def cut_back(segments: Sequence[tuple[Outcome, float]], units: Sequence[int],
             lengths: Sequence[int]) -> list[tuple[Outcome, float]]:
    """Each sentence's outcome and seconds (sentences of LENGTHS words, in order) from the
    outcomes of the SEGMENTS (of UNITS words each) the sentences were cut into; a
    segment's seconds are shared by its words."""
    if sum(units) != sum(lengths) or len(units) != len(segments):
        raise ValueError("segments and sentences of different words")
    where: list[tuple[int, int]] = [(k, i) for k, n in enumerate(units) for i in range(n)]
    firsts = [0]
    for n in units:
        firsts.append(firsts[-1] + n)
    broken = [_broken(o, n) for (o, _), n in zip(segments, units, strict=True)]
    out: list[tuple[Outcome, float]] = []
    start = 0
    for n in lengths:
        words = where[start:start + n]
        seconds = sum(segments[k][1] / units[k] for k, _ in words)
        failed = next((f for k in dict.fromkeys(k for k, _ in words)
                       if (f := broken[k]) is not None), None)
        out.append((failed or _piece(segments, firsts, words, start), seconds))
        start += n
    return out


def _broken(o: Outcome, n: int) -> Failure | None:
    """Why the outcome O of a segment of N words cannot be cut back: the parser failed
    on it, or gave other words than its N (or links or a tree, not heads)."""
    if isinstance(o, Failure):
        return o
    if (o.forms is not None and len(o.forms) != n) or o.links is not None \
            or o.tree is not None:
        return Failure(f"the parser gave {len(o.forms or [])} words for a segment of {n}: "
                       "a segment's parse is cut back by word positions")
    return None


def _piece(segments: Sequence[tuple[Outcome, float]], firsts: list[int],
           words: list[tuple[int, int]], start: int) -> Analysis:
    """The analysis of the sentence whose words, from START in the run-together text, are
    WORDS (segment, place in it): a column any of its segments gives, with ``_`` for the
    words of the others (the parser's own forms only where all give them)."""
    n = len(words)
    mine = [a for k in dict.fromkeys(k for k, _ in words)
            if isinstance(a := segments[k][0], Analysis)]
    got: dict[str, list[Any] | None] = {}
    for col in ("heads", "forms", *COLUMNS):
        given = [getattr(a, col) is not None for a in mine]
        if not any(given) or (col == "forms" and not all(given)):
            got[col] = None
            continue
        column: list[Any] = []
        for k, i in words:
            v = getattr(segments[k][0], col)
            if col != "heads":
                column.append("_" if v is None else v[i])
                continue
            h = NO_HEAD if v is None else v[i]
            g = firsts[k] + h - 1 - start  # the head's place in this sentence
            column.append(h if h <= 0 else g + 1 if 0 <= g < n else NO_HEAD)
        got[col] = column
    return Analysis(heads=got["heads"], deprels=got["deprels"], upos=got["upos"],
                    xpos=got["xpos"], lemmas=got["lemmas"], feats=got["feats"],
                    forms=got["forms"])

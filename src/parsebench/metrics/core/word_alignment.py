"""Word alignments between an ungrammatical sentence U and its correction G.

Three sources: word-level edit distance (rapidfuzz's Levenshtein over word
lists; a substitution pairs the two words 1:1, so they are not error words),
a Pharaoh file (``i-j`` pairs, 0-based, i in U and j in G, one line per
sentence pair, as fast_align and Moses write them), or an M2 error
annotation (the first annotator's edits; words outside edits align 1:1, and
inside an edit the words are aligned by edit distance too). M2 edits carry
error types, which give the breakdown by type.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import accumulate

from parsebench.common.errors import InputError, iter_lines, read_lines


@dataclass(slots=True)
class Alignment:
    pairs: list[tuple[int, int]]
    """(i in U, j in G), 0-based."""
    errors: int | None
    """How many errors (edits) the sentence has; None: count the unaligned runs."""
    types: list[str] = field(default_factory=list)
    """Error types of the edits, when the source has them."""
    corrected: list[str] | None = None
    """G's words when the source spells them out (M2)."""
    source: list[str] | None = None
    """U's words when the source spells them out (M2)."""


def edit_distance(u: list[str], g: list[str]) -> Alignment:
    """Align by word-level Levenshtein distance; each run of edits counts as one error.

    Equal-cost alignments are broken the same way whichever side comes first, so
    swapping U and G swaps precision and recall and nothing else.
    """
    if g < u:
        back = edit_distance(g, u)
        return Alignment(sorted((i, j) for j, i in back.pairs), back.errors)
    from rapidfuzz.distance import Levenshtein  # here: most commands that import this
    # module align nothing, and rapidfuzz is a hundredth of a second to import

    pairs: list[tuple[int, int]] = []
    errors = 0
    for op in Levenshtein.opcodes(u, g):
        if op.tag == "equal" or op.tag == "replace":
            pairs += [(op.src_start + k, op.dest_start + k)
                      for k in range(op.src_end - op.src_start)]
        if op.tag != "equal":
            errors += 1
    return Alignment(pairs, errors)


def m2_words(words: list[str]) -> list[str]:
    """WORDS as an M2 line can hold them: a space inside a word (UD allows some) becomes
    ``_``, since M2 separates words by spaces and has no escape."""
    return [re.sub(r"\s", "_", w) for w in words]


def _ascii_int(text: str) -> bool:
    """Digits that ``int`` reads: ``str.isdigit`` also accepts ``'²'``."""
    return text.isascii() and text.isdigit()


def _pharaoh(lines: Iterable[str], path: str) -> Iterator[Alignment]:
    for n, line in enumerate(lines, 1):
        pairs = []
        for item in line.split():
            i, dash, j = item.partition("-")
            if not dash or not _ascii_int(i) or not _ascii_int(j):
                raise InputError(f"bad alignment pair {item!r}, expected I-J", path, n)
            pairs.append((int(i), int(j)))
        yield Alignment(sorted(pairs), errors=None)


def unaligned_runs(pairs: list[tuple[int, int]], u_len: int, g_len: int) -> int:
    """Runs of unaligned words on either side: the error count of a bare alignment."""
    runs = 0
    for side, length in ((0, u_len), (1, g_len)):
        aligned = {p[side] for p in pairs}
        prev = False
        for k in range(length):
            gap = k not in aligned
            runs += gap and not prev
            prev = gap
    return runs


def read_alignments(path: str | os.PathLike[str]) -> tuple[str, list[Alignment]]:
    """An M2 file (it starts with an ``S`` line) or a Pharaoh file: (its kind, alignments)."""
    kind, aligns = iter_alignments(path)
    return kind, list(aligns)


def iter_alignments(path: str | os.PathLike[str]) -> tuple[str, Iterator[Alignment]]:
    """:func:`read_alignments` a sentence at a time: memory flat in the file's size."""
    head = next((ln for ln in iter_lines(path) if ln.strip()), "")
    if head.startswith("S "):
        return "m2", (from_edits(src, edits)
                      for src, edits in _m2_blocks(iter_lines(path), str(path)))
    return "pharaoh", _pharaoh(iter_lines(path), str(path))


def read_m2_edits(path: str | os.PathLike[str]
                  ) -> list[tuple[list[str], list[tuple[int, int, str, str]]]]:
    """Each sentence of an M2 file: its words and the first annotator's edits (start, end,
    type, the correction's words joined by spaces), in order."""
    return [(src, [(a, b, t, " ".join(r)) for a, b, t, r in edits])
            for src, edits in _m2_blocks(read_lines(path), str(path))]


def _m2_blocks(lines: Iterable[str], path: str
               ) -> Iterator[tuple[list[str], list[tuple[int, int, str, list[str]]]]]:
    """Each sentence of M2 LINES, read a line at a time: (its words, the first annotator's
    edits in order)."""
    src: list[str] | None = None
    edits: list[tuple[int, int, str, list[str]]] = []
    annotator = None
    for n, line in enumerate(lines, 1):
        if src is not None and line.startswith("A "):
            fields = line[2:].split("|||")
            if len(fields) < 6:
                raise InputError("expected 'A start end|||type|||correction|||...|||id'",
                                 path, n)
            span = fields[0].split()
            if len(span) != 2 or not all(_ascii_int(x.removeprefix("-")) for x in span):
                raise InputError(f"bad edit span {fields[0]!r}", path, n)
            a, b = int(span[0]), int(span[1])
            who = fields[5].strip()
            annotator = who if annotator is None else annotator
            if who != annotator or fields[1] in ("noop", "UNK") or a < 0:
                continue
            if not 0 <= a <= b <= len(src):
                raise InputError(f"edit span {a} {b} outside the sentence of {len(src)} words",
                                 path, n)
            repl = [] if fields[2].strip() == "-NONE-" else fields[2].split()
            edits.append((a, b, fields[1], repl))
            continue
        if src is not None:
            yield src, sorted(edits, key=lambda e: (e[0], e[1]))
            src = None
        if not line.strip():
            continue
        if not line.startswith("S "):
            raise InputError("expected an 'S ' line to start an M2 sentence", path, n)
        src, edits, annotator = line[2:].split(), [], None
    if src is not None:
        yield src, sorted(edits, key=lambda e: (e[0], e[1]))


def inside_edit(u: list[str], g: list[str]) -> list[tuple[int, int]]:
    """How the words of one edit align: a reordering pairs equal words (R:WO), a split or
    merge pairs the words that share letters (R:ORTH), anything else by edit distance."""
    low_u, low_g = [w.lower() for w in u], [w.lower() for w in g]
    if u and sorted(low_u) == sorted(low_g) and low_u != low_g:
        free = list(range(len(g)))
        pairs = []
        for i, w in enumerate(low_u):
            j = next(j for j in free if low_g[j] == w)
            free.remove(j)
            pairs.append((i, j))
        return sorted(pairs)
    if len(u) != len(g) and u and g and "".join(low_u) == "".join(low_g):
        ends_u = list(accumulate(len(w) for w in u))
        ends_g = list(accumulate(len(w) for w in g))
        return [(i, j) for i in range(len(u)) for j in range(len(g))
                if max(ends_u[i] - len(u[i]), ends_g[j] - len(g[j])) < min(ends_u[i], ends_g[j])]
    return edit_distance(u, g).pairs


def from_edits(src: list[str], edits: list[tuple[int, int, str, list[str]]]) -> Alignment:
    """The alignment of SRC with its correction by EDITS (start, end, type, words), sorted
    and not overlapping: words outside edits pair 1:1, inside by :func:`inside_edit`."""
    pairs: list[tuple[int, int]] = []
    corrected: list[str] = []
    pos = 0
    for a, b, _, repl in edits:
        for k in range(pos, a):
            pairs.append((k, len(corrected)))
            corrected.append(src[k])
        pairs += [(a + i, len(corrected) + j) for i, j in inside_edit(src[a:b], repl)]
        corrected += repl
        pos = max(pos, b)
    for k in range(pos, len(src)):
        pairs.append((k, len(corrected)))
        corrected.append(src[k])
    return Alignment(pairs, len(edits), [t for _, _, t, _ in edits], corrected, src)

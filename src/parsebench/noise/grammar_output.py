"""A learner-like noisy sentence as written: its words and CoNLL-U, the alignment with
the clean words (Pharaoh) and the M2 edits that correct it, as ERRANT and word aligners
give them for real learner text."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, TextIO

from parsebench.formats.conllu import NO_HEAD, Sentence, surface_text
from parsebench.metrics.core.word_alignment import m2_words
from parsebench.noise.grammar_types import Edit
from parsebench.noise.kind import Rebuilt

Written = tuple[Sentence, list[tuple[int, int]], list[tuple[int, int, str, str]]]
"""A noisy sentence as written, its alignment with the clean words and its M2 edits."""


def apply_edits(s: Sentence, edits: Sequence[Edit]) -> tuple[list[str], list[tuple[int, int]],
                                                             list[tuple[int, int, str, str]]]:
    """The noisy words, the alignment (noisy i, clean j) and the M2 edits (noisy start, end,
    type, clean words) that correct them, for EDITS (sorted, not overlapping)."""
    noisy: list[str] = []
    pairs: list[tuple[int, int]] = []
    m2: list[tuple[int, int, str, str]] = []
    pos = 0
    for e in sorted(edits, key=lambda e: (e.start, e.end)):
        for j in range(pos, e.start):
            pairs.append((len(noisy), j))
            noisy.append(s.forms[j])
        at = len(noisy)
        pairs += [(at + a, e.start + b) for a, b in e.links]
        noisy += e.noisy
        m2.append((at, len(noisy), e.type, " ".join(m2_words(s.forms[e.start:e.end]))))
        pos = e.end
    for j in range(pos, len(s.forms)):
        pairs.append((len(noisy), j))
        noisy.append(s.forms[j])
    return noisy, sorted(pairs), m2


def noisy_sentence(s: Sentence, edits: Sequence[Edit]) -> tuple[Sentence, list[tuple[int, int]],
                                                                list[tuple[int, int, str, str]]]:
    """The noisy sentence as CoNLL-U (its words, empty annotation), alignment and M2 edits.

    Multiword tokens keep their ranges (edits never touch their words); a
    changed or inserted word's MISC says ``Noise=TYPE``; ``# text`` is the
    words with the clean text's spacing where words are unchanged.
    """
    words, pairs, m2 = apply_edits(s, edits)
    n = len(words)
    to_clean = dict(pairs)  # a noisy word's last clean word (of two joined: the second)
    first: dict[int, int] = {}
    for i, k in pairs:
        first.setdefault(i, k)  # and its first
    changed: dict[int, str] = {}
    for a, b, typ, _ in m2:
        for k in range(a, b):
            changed[k] = typ
    misc = []
    for i in range(n):
        j = to_clean.get(i)
        keep = j is not None and first.get(i + 1) == j + 1 and \
            "SpaceAfter=No" in s.misc[j].split("|")
        parts = ["SpaceAfter=No"] if keep else []
        if i in changed:
            parts.append(f"Noise={changed[i]}")
        misc.append("|".join(parts) or "_")
    clean_to_noisy = {j: i for i, j in pairs}
    mwt = []
    for a, b, cols in s.multiword:
        na, nb = clean_to_noisy.get(a), clean_to_noisy.get(b)
        if na is not None and nb is not None and nb - na == b - a:
            tail = "|".join(x for x in cols[9].split("|") if x != "SpaceAfter=No" or
                            first.get(nb + 1) == b + 1) or "_"
            mwt.append((na, nb, [f"{na + 1}-{nb + 1}", *cols[1:9], tail]))
    comments = [c for c in s.comments if not c.startswith("# text = ")]
    comments.append("# text = " + surface_text(words, misc, mwt).strip())
    out = Sentence(forms=words, lemmas=["_"] * n, upos=["_"] * n, xpos=["_"] * n,
                   feats=["_"] * n, heads=[NO_HEAD] * n, deprels=["_"] * n, deps=["_"] * n,
                   misc=misc, comments=comments, multiword=mwt, line=s.line)
    return out, pairs, m2


def rebuild_from_edits(sentences: Sequence[Sentence], changes: Sequence[Sequence[Any]],
                       where: str, touching: bool,
                       make: Callable[[Sentence, list[Edit]], Written]) -> Rebuilt:
    """The noisy version that stored edits ([sentence, start, end, noisy words, type,
    links]) make of SENTENCES, each sentence with edits made by MAKE; a sentence without
    one is the clean one itself. Edits that do not fit (beyond a sentence, links outside
    the edit, or overlapping: touching too, unless TOUCHING, as insertions before a
    changed word do) say the store is damaged, naming WHERE (the level and seed)."""
    from parsebench.common.errors import InputError
    from parsebench.metrics.core.word_alignment import Alignment

    by: dict[int, list[Edit]] = {}
    for si, a, b, words, typ, links in changes:
        if si >= len(sentences) or b > len(sentences[si].forms) or any(
                not (0 <= x < len(words) and 0 <= y < b - a) for x, y in links) or any(
                (a < e.end and e.start < b) if touching else (a <= e.end and e.start <= b)
                for e in by.get(si, ())):
            raise InputError(f"a stored noisy version ({where}) does not fit the corpus: "
                             "the store is damaged")
        by.setdefault(si, []).append(Edit(a, b, list(words), typ,
                                          [(int(x), int(y)) for x, y in links]))
    out, aligns = [], []
    m2: list[list[tuple[int, int, str, str]]] = []
    for si, s in enumerate(sentences):
        mine = by.get(si)
        if not mine:
            out.append(s)
            aligns.append(Alignment([(k, k) for k in range(len(s.forms))], 0))
            m2.append([])
            continue
        noisy, pairs, edits_m2 = make(s, mine)
        out.append(noisy)
        aligns.append(Alignment(pairs, len(mine), [e.type for e in mine]))
        m2.append(edits_m2)
    return Rebuilt(out, aligns, m2)


def write_m2(fh: TextIO, words: Sequence[str], m2: Sequence[tuple[int, int, str, str]]) -> None:
    """One M2 block: the noisy words and the edits that correct them (annotator 0)."""
    fh.write("S " + " ".join(m2_words(list(words))) + "\n")
    if not m2:
        fh.write("A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n")
    for a, b, typ, corr in m2:
        fh.write(f"A {a} {b}|||{typ}|||{corr or '-NONE-'}|||REQUIRED|||-NONE-|||0\n")
    fh.write("\n")


def write_aligned(target: Path, noisy: Iterable[tuple[Sentence, list[tuple[int, int]],
                                                      list[tuple[int, int, str, str]]]],
                  conllu: bool) -> dict[str, str]:
    """TARGET, TARGET.m2 and TARGET.align, each atomically: the NOISY sentences (CoNLL-U
    or text), the M2 edits that correct them and their alignment to the clean words;
    the files by the names the noise command's JSON gives them."""
    from parsebench.common.errors import atomic_output
    from parsebench.noise.source import write_sentence

    m2_path = target.with_name(target.name + ".m2")
    align_path = target.with_name(target.name + ".align")
    with atomic_output(target) as out, atomic_output(m2_path) as m2, \
            atomic_output(align_path) as al:
        for sentence, pairs, m2_edits in noisy:
            write_sentence(out, sentence, conllu)
            write_m2(m2, sentence.forms, m2_edits)
            al.write(pharaoh(pairs) + "\n")
    return {"file": str(target), "m2": str(m2_path), "align": str(align_path)}


def pharaoh(pairs: Iterable[tuple[int, int]]) -> str:
    return " ".join(f"{i}-{j}" for i, j in pairs)

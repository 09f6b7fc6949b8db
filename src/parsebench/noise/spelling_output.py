"""Misspellings written into CoNLL-U: the new FORM, a ``Noise=OP|Orig=FORM`` record in
MISC and the ``# text`` comment edited in place; and the text as ``noise`` writes it,
without the clean annotation (which is not the noisy text's parse)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from parsebench.formats.conllu import NO_HEAD, Sentence
from parsebench.noise.spelling import Change, Report


def apply_to_sentence(s: Sentence, changes: Sequence[Change]) -> Sentence:
    """S with CHANGES (all of this sentence) written in: FORM, a MISC record, ``# text``.
    A copy when anything changes, so one clean corpus serves every replicate."""
    if not changes:
        return s
    s = replace(s, forms=list(s.forms), misc=list(s.misc), comments=list(s.comments))
    offsets = _token_offsets(s)
    for c in sorted(changes, key=lambda c: -c.token):
        s.forms[c.token] = c.new
        record = f"Noise={c.op}|Orig={c.orig}"
        s.misc[c.token] = record if s.misc[c.token] == "_" else s.misc[c.token] + "|" + record
        if offsets is None:
            continue
        for k, line in enumerate(s.comments):
            if line.startswith("# text = "):
                at = offsets[c.token] + len("# text = ")
                s.comments[k] = line[:at] + c.new + line[at + len(c.orig):]
    return s


def unannotated(s: Sentence) -> Sentence:
    """S as ``noise`` writes it: the words and their noise records, no annotation. The
    clean tree is not the noisy text's parse, and a file that carried it would score
    as a perfect parse wherever it is mistaken for one (:mod:`parsebench.inputs`)."""
    n = len(s.forms)
    return replace(s, lemmas=["_"] * n, upos=["_"] * n, xpos=["_"] * n, feats=["_"] * n,
                   heads=[NO_HEAD] * n, deprels=["_"] * n, deps=["_"] * n,
                   empty_nodes=[])


def apply_to_conllu(sentences: Sequence[Sentence], report: Report) -> list[Sentence]:
    """The sentences with the misspellings written in: FORM, a MISC record, ``# text``.

    Changed sentences are copies, so one clean corpus serves every replicate.
    """
    by_sentence: dict[int, list[Change]] = {}
    for c in report.changes:
        by_sentence.setdefault(c.sentence, []).append(c)
    out = list(sentences)
    for si, changes in by_sentence.items():
        out[si] = apply_to_sentence(sentences[si], changes)
    return out


def _token_offsets(s: Sentence) -> list[int] | None:
    """Character offset of every word in the ``# text`` comment, or None if they do not match."""
    text = s.comment_value("text")
    if text is None:
        return None
    in_mwt = {i for a, b, _ in s.multiword for i in range(a, b + 1)}
    out = []
    pos = 0
    for i, form in enumerate(s.forms):
        if i in in_mwt:
            out.append(-1)
            continue
        at = text.find(form, pos)
        if at < 0:
            return None
        out.append(at)
        pos = at + len(form)
    return out

"""Misspellings written into CoNLL-U: the new FORM, a ``Noise=OP|Orig=FORM`` record in
MISC and the ``# text`` comment edited in place; and the text as ``noise`` writes it,
without the clean annotation (which is not the noisy text's parse). A sentence whose
misspellings split or join words (:func:`retokenized`) gets its alignment to the clean
words and its M2 edits, as learner-like errors do (:mod:`.grammar_output`)."""

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
    as a perfect parse wherever it is mistaken for one (:mod:`parsebench.model.inputs`)."""
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


def retokenized(s: Sentence, changes: Sequence[Change]) -> tuple[
        Sentence, list[tuple[int, int]], list[tuple[int, int, str, str]]]:
    """S with CHANGES written in where some split a word (op ``split``: NEW is two words)
    or join one with the next (``merge``): the noisy sentence without annotation, its
    alignment (noisy i, clean j) and its M2 edits, typed as ERRANT types them (a change
    of spacing or case ``R:ORTH``, another misspelling ``R:SPELL``)."""
    from parsebench.noise.grammar_output import noisy_sentence
    from parsebench.noise.grammar_types import Edit

    edits = []
    for c in changes:
        if c.op == "split":
            edits.append(Edit(c.token, c.token + 1, c.new.split(" "), "R:ORTH",
                              [(0, 0), (1, 0)]))
        elif c.op == "merge":
            edits.append(Edit(c.token, c.token + 2, [c.new], "R:ORTH", [(0, 0), (0, 1)]))
        else:
            edits.append(Edit(c.token, c.token + 1, [c.new],
                              "R:ORTH" if c.op == "case" else "R:SPELL", [(0, 0)]))
    out, pairs, m2 = noisy_sentence(s, edits)
    for (a, b, _, _), c in zip(m2, sorted(changes, key=lambda c: c.token), strict=True):
        for k in range(a, b):  # the op and the clean words, as a misspelling's record
            keep = [x for x in out.misc[k].split("|") if not x.startswith("Noise=")]
            out.misc[k] = "|".join([*keep, f"Noise={c.op}", f"Orig={c.orig}"])
    return out, pairs, m2

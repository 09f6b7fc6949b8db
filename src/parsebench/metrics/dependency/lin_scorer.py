"""Lin's dependency-based evaluation (Lin 1998): his counts and selective evaluation.

Key and answer are sets of dependencies (modifier, head, label); the root word
has none, and a word without a head (a fragment) has none either. Precision is
the share of answer dependencies found in the key, recall the share of key
dependencies found in the answer, summed over the corpus (:class:`PR`).
Selective evaluation picks key dependencies by the key's values (for recall)
and answer dependencies by the answer's values (for precision), which is what
reproduces the numbers of his section 4 (:class:`Selection`); breakdowns group
them the same way (:func:`bucket_value`: his relation groups and prepositions,
and MaltEval's arc length, direction, depth and sentence length). The pass over
the files that counts them, with the CoNLL 2018 metrics, is
:func:`parsebench.metrics.dependency.evaluate.score_deps`.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from parsebench.common.errors import InputError, read_lines
from parsebench.formats.conllu import Sentence
from parsebench.metrics.core.counts import Additive, f_measure
from parsebench.metrics.dependency.conll18 import base

# Lin's Table 18.3 relation groups in UD terms; select them with deprel=@NAME.
DEPREL_GROUPS: dict[str, frozenset[str]] = {
    "subject": frozenset({"nsubj", "csubj"}),
    "complement": frozenset({"obj", "iobj", "ccomp", "xcomp"}),
    "pp-attachment": frozenset({"obl", "nmod"}),
    "relative-clause": frozenset({"acl:relcl"}),
    "conjunction": frozenset({"conj"}),
}

SIGNATURE = "lin-deps"
"""The method's name in every signature of its figures (a run's and the command's)."""
SELECT_FIELDS = ("deprel", "upos", "word")
BY_FIELDS = ("deprel", "upos", "word", "category", "group", "preposition", "arc-length",
             "direction", "depth", "sentence-length")
"""Breakdowns: ``group`` is Lin's Table 18.3 (DEPREL_GROUPS; other relations are left
out), ``preposition`` his Table 18.4: the attachment of each prepositional phrase
(an obl or nmod word with a ``case`` child tagged ADP), by that preposition. As
MaltEval groups them, and counting the root's arc: ``arc-length`` (|head -
dependent|: 1, 2, 3-6, 7+, root), ``direction`` (left: the head precedes the
dependent; right; root), ``depth`` (arcs from the word up to the artificial root:
the root word 1; 7+; "cycle" where a system's heads never reach it) and
``sentence-length`` (1-10, 11-20, 21-30, 31-40, 41+ words). Recall groups the key's
arcs by the key's values, precision the answer's by the answer's."""
ROOT_ARC_FIELDS = frozenset({"arc-length", "direction", "depth", "sentence-length"})
CONFUSION_FIELDS = ("deprel", "upos")
CONFUSION_TOP = 12
"""Labels a confusion table shows; the rest are pooled as "(other)"."""


def confusion_table(pairs: Counter[tuple[str, str]], top: int = CONFUSION_TOP
                    ) -> dict[str, Any]:
    """The TOP most frequent gold labels as rows and columns (the rest "(other)"), and
    how often each gold label got each system label on the aligned words."""
    freq: Counter[str] = Counter()
    for (g, _), n in pairs.items():
        freq[g] += n
    labels = [x for x, _ in sorted(freq.items(), key=lambda kv: (-kv[1], kv[0]))[:top]]
    shown = set(labels)
    other = len(shown) < len({x for pair in pairs for x in pair})
    names = labels + (["(other)"] if other else [])
    index = {x: i for i, x in enumerate(labels)}
    matrix = [[0] * len(names) for _ in names]
    for (g, s_), n in pairs.items():
        matrix[index.get(g, len(names) - 1)][index.get(s_, len(names) - 1)] += n
    return {"labels": names, "matrix": matrix}

_GROUP_OF = {d: g for g, ds in DEPREL_GROUPS.items() for d in ds}


@dataclass(slots=True)
class PR(Additive):
    """Lin's counts for one set of dependencies."""

    key: int = 0
    key_found: int = 0
    answer: int = 0
    answer_found: int = 0

    def count_key(self, found: bool) -> None:
        self.key += 1
        self.key_found += found

    def count_answer(self, found: bool) -> None:
        self.answer += 1
        self.answer_found += found

    @property
    def precision(self) -> float | None:
        """None (n/a) without answer dependencies: nothing to be right or wrong about."""
        return self.answer_found / self.answer if self.answer else None

    @property
    def recall(self) -> float | None:
        return self.key_found / self.key if self.key else None

    @property
    def f1(self) -> float | None:
        return f_measure(self.precision, self.recall)

    def as_dict(self) -> dict[str, float | int | None]:
        d: dict[str, float | int | None] = {
            "precision": self.precision, "recall": self.recall, "f1": self.f1,
            "key": self.key, "answer": self.answer, "matched": self.key_found,
        }
        if self.answer_found != self.key_found:
            d["answer_matched"] = self.answer_found
        return d


@dataclass(slots=True)
class BucketCounts(Additive):
    sentences: int = 0
    words: int = 0
    unlabeled: PR = field(default_factory=PR)
    labeled: PR = field(default_factory=PR)


class LabelMap:
    """Label equivalences: every label on a line of the file is equivalent to the first."""

    def __init__(self, classes: dict[str, str] | None = None) -> None:
        self.canon = classes or {}

    @classmethod
    def read(cls, path: str | os.PathLike[str]) -> LabelMap:
        canon: dict[str, str] = {}
        for n, line in enumerate(read_lines(path), 1):
            text = line.split("#", 1)[0].split()
            if not text:
                continue
            if len(text) < 2:
                raise InputError("a label mapping line needs two or more labels", path, n)
            first = canon.get(text[0], text[0])
            for label in text:
                canon[label] = first
        return cls(canon)

    def __call__(self, label: str) -> str:
        return self.canon.get(label, label)


@dataclass(frozen=True)
class Selection:
    """``FIELD=V1,V2``: deprel (full label, base label, or @group), upos, or word."""

    field: str
    values: frozenset[str]

    @classmethod
    def parse(cls, text: str) -> Selection:
        name, sep, vals = text.partition("=")
        name = name.strip().lower()
        if not sep or name not in SELECT_FIELDS or not vals.strip():
            raise InputError(f"--select {text!r}: expected FIELD=V1,V2 with FIELD one of "
                             + ", ".join(SELECT_FIELDS))
        values: set[str] = set()
        for v in (x.strip() for x in vals.split(",")):
            if not v:
                continue
            if name == "deprel" and v.startswith("@"):
                if v[1:] not in DEPREL_GROUPS:
                    raise InputError(f"--select: unknown relation group {v!r}; known: "
                                     + ", ".join("@" + g for g in DEPREL_GROUPS))
                values |= DEPREL_GROUPS[v[1:]]
            else:
                values.add(v.lower() if name == "word" else v)
        return cls(name, frozenset(values))

    def test(self, sent: Sentence, i: int) -> bool:
        if self.field == "deprel":
            d = sent.deprels[i]
            return d in self.values or base(d) in self.values
        if self.field == "upos":
            return sent.upos[i] in self.values
        return sent.forms[i].lower() in self.values


def bucket_value(by: str, sent: Sentence, i: int) -> str | None:
    """The bucket of word I's dependency, None when the breakdown leaves it out."""
    if by == "deprel":
        return sent.deprels[i]
    if by == "upos":
        return sent.upos[i]
    if by == "word":
        return sent.forms[i].lower()
    if by == "group":
        d = sent.deprels[i]
        return _GROUP_OF.get(d) or _GROUP_OF.get(base(d))
    if by == "preposition":
        if base(sent.deprels[i]) not in ("obl", "nmod"):
            return None
        return _sentence_facts(sent)[1].get(i + 1)
    if by == "sentence-length":
        low = (len(sent) - 1) // 10 * 10 + 1
        return "41+" if low > 40 else f"{low}-{low + 9}"
    h = sent.heads[i]
    if by == "arc-length":
        dist = abs(h - (i + 1))
        return "root" if h == 0 else str(dist) if dist <= 2 else "3-6" if dist <= 6 else "7+"
    if by == "direction":
        return "root" if h == 0 else "left" if h < i + 1 else "right"
    if by == "depth":
        depth = _sentence_facts(sent)[0][i]
        if depth == _FRAGMENT:
            return None  # no path to the root
        if depth == _CYCLE:
            return "cycle"
        return str(depth) if depth < 7 else "7+"
    return sent.category or "(none)"


_FRAGMENT, _CYCLE = -1, -2
_facts: list[Any] = [None, None]
"""The last sentence's facts (each breakdown asks them word by word, sentence by sentence)."""


def _sentence_facts(sent: Sentence) -> tuple[list[int], dict[int, str]]:
    """Every word's depth (the root word 1; _FRAGMENT without a path to the root, _CYCLE on
    or under a cycle), and each head's first ADP child with relation case (its
    preposition), computed once a sentence: asked word by word they made a 10,000-word
    chain quadratic."""
    if _facts[0] is sent:
        return _facts[1]  # type: ignore[no-any-return]
    heads, n = sent.heads, len(sent.heads)
    visiting = -3
    depth = [0] * n  # 0: not known yet
    for start in range(n):
        path, j = [], start
        while True:
            if depth[j] != 0:  # known, or met again on this path: a cycle
                val = _CYCLE if depth[j] == visiting else depth[j]
                break
            depth[j] = visiting
            path.append(j)
            h = heads[j]
            if h == 0:
                val = 0  # j is the root word: depth 1
                break
            if h < 0 or h > n:
                val = _FRAGMENT
                break
            j = h - 1
        for k in reversed(path):  # each word on the path one deeper than its head
            if val >= 0:
                val += 1
            depth[k] = val
    preps: dict[int, str] = {}
    for j, h in enumerate(heads):
        if h > 0 and h not in preps and base(sent.deprels[j]) == "case" and \
                sent.upos[j] == "ADP":
            preps[h] = sent.forms[j].lower()
    _facts[0], _facts[1] = sent, (depth, preps)
    return depth, preps

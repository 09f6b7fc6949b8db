"""Dependency-based evaluation against a gold key (Lin), with the CoNLL 2018 metrics.

Lin: key and answer are sets of dependencies (modifier, head, label); the root
word has none, and a word without a head (a fragment) has none either.
Precision is the share of answer dependencies found in the key, recall the
share of key dependencies found in the answer, summed over the corpus.
Selective evaluation picks key dependencies by the key's values (for recall)
and answer dependencies by the answer's values (for precision), which is what
reproduces the numbers of Lin's section 4.

The thirteen CoNLL 2018 metrics give the numbers of the shared task's script
(conll18_ud_eval.py): Tokens and Sentences on character spans of the text
without spaces, Words on the alignment, then UPOS, XPOS, UFeats (universal
features only, in any order), AllTags, Lemmas (a gold ``_`` matches anything),
UAS, LAS (relation subtypes ignored), and over content relations CLAS, MLAS
(also UPOS, UFeats and the functional children) and BLEX (also the lemma), each
as precision, recall, F1 and accuracy on the aligned words. Unlike the script,
an answer with cycles, several roots or missing heads is scored (with a
warning) rather than rejected, and a tagger's output gets its tag scores with
every attachment score n/a.
"""

from __future__ import annotations

import bisect
import functools
import os
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from parsebench.errors import InputError, read_lines
from parsebench.formats.conllu import NO_HEAD, Sentence
from parsebench.metrics.align import (
    align_words,
    by_rows,
    check_same_text,
    strip_spaces,
    text_length,
)
from parsebench.metrics.counts import Additive
from parsebench.metrics.scheme import scheme_warning

CONTENT_DEPRELS = frozenset({
    "nsubj", "obj", "iobj", "csubj", "ccomp", "xcomp", "obl", "vocative", "expl",
    "dislocated", "advcl", "advmod", "discourse", "nmod", "appos", "nummod", "acl",
    "amod", "conj", "fixed", "flat", "compound", "list", "parataxis", "orphan",
    "goeswith", "reparandum", "root", "dep",
})

# Lin's Table 18.3 relation groups in UD terms; select them with deprel=@NAME.
DEPREL_GROUPS: dict[str, frozenset[str]] = {
    "subject": frozenset({"nsubj", "csubj"}),
    "complement": frozenset({"obj", "iobj", "ccomp", "xcomp"}),
    "pp-attachment": frozenset({"obl", "nmod"}),
    "relative-clause": frozenset({"acl:relcl"}),
    "conjunction": frozenset({"conj"}),
}

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

ROOT = -1
MISSING = -2
NOT_ALIGNED = -3


_BASES: dict[str, str] = {}


def base(deprel: str) -> str:
    """The relation without its subtype (memoized: called for every word of both files)."""
    got = _BASES.get(deprel)
    if got is None:
        got = deprel.split(":", 1)[0]
        if len(_BASES) < 10_000:
            _BASES[deprel] = got
    return got


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
        p, r = self.precision, self.recall
        if p is None or r is None:
            return None
        return 2 * p * r / (p + r) if p + r else 0.0

    def as_dict(self) -> dict[str, float | int | None]:
        d: dict[str, float | int | None] = {
            "precision": self.precision, "recall": self.recall, "f1": self.f1,
            "key": self.key, "answer": self.answer, "matched": self.key_found,
        }
        if self.answer_found != self.key_found:
            d["answer_matched"] = self.answer_found
        return d


@dataclass(slots=True)
class F1Count(Additive):
    """CoNLL 2018 counts: correct, gold total, system total, aligned words."""

    correct: int = 0
    gold: int = 0
    system: int = 0
    aligned: int = 0

    def as_dict(self, on_aligned: bool = True) -> dict[str, float | None]:
        """None (n/a) where a count is zero: no words to score, not a score of 0.
        ``aligned_accuracy`` is null for the metrics not computed on aligned words."""
        return {
            "precision": self.correct / self.system if self.system else None,
            "recall": self.correct / self.gold if self.gold else None,
            "f1": 2 * self.correct / (self.gold + self.system) if self.gold and self.system
            else None,
            "aligned_accuracy": self.correct / self.aligned if on_aligned and self.aligned
            else None,
        }


CONLL18 = ("tokens", "sentences", "words", "upos", "xpos", "ufeats", "alltags", "lemmas",
           "uas", "las", "clas", "mlas", "blex")
"""The CoNLL 2018 shared task's metrics, in the order its script prints them."""
CONLL18_NAMES = dict(zip(CONLL18, ("Tokens", "Sentences", "Words", "UPOS", "XPOS", "UFeats",
                                   "AllTags", "Lemmas", "UAS", "LAS", "CLAS", "MLAS", "BLEX"),
                         strict=True))
"""Their names as the script prints them."""
SPAN_METRICS = ("tokens", "sentences", "words")
"""The ones not computed on aligned words (no aligned accuracy)."""
ATTACHMENT = ("uas", "las", "clas", "mlas", "blex")
"""The ones that need heads: n/a for a tagger's output."""
COLUMNS = {"heads": "heads", "upos": "UPOS tags", "xpos": "XPOS tags", "feats": "features",
           "lemmas": "lemmas"}
"""The annotation a metric can need, and how a warning names it."""
METRIC_NEEDS: dict[str, tuple[str, ...]] = {
    "upos": ("upos",), "xpos": ("xpos",), "ufeats": ("feats",),
    "alltags": ("upos", "xpos", "feats"), "lemmas": ("lemmas",),
    "uas": ("heads",), "las": ("heads",), "clas": ("heads",),
    "mlas": ("heads", "upos", "feats"), "blex": ("heads", "lemmas"),
    "ucm": ("heads",), "lcm": ("heads",), "unlabeled": ("heads",), "labeled": ("heads",)}
"""What each metric compares: a file with that column empty on every word (a parser
with no tagger, a gold without lemmas) cannot give the metric, which is then n/a, not
the 0 (or 100) of comparing ``_`` with ``_``."""


def absent_metrics(system_has: set[str], gold_has: set[str]) -> frozenset[str]:
    """The metrics of METRIC_NEEDS that files with these columns cannot give (heads are
    the system's only: a gold always has them)."""
    have = system_has & (gold_has | {"heads"})
    return frozenset(m for m, needs in METRIC_NEEDS.items() if not set(needs) <= have)


def _columns(sentence: Sentence, into: set[str]) -> None:
    """Add to INTO the columns SENTENCE fills on some word."""
    if "heads" not in into and any(h != NO_HEAD for h in sentence.heads):
        into.add("heads")
    for col, values in (("upos", sentence.upos), ("xpos", sentence.xpos),
                        ("feats", sentence.feats), ("lemmas", sentence.lemmas)):
        if col not in into and any(v != "_" for v in values):
            into.add(col)


FUNCTIONAL_DEPRELS = frozenset({"aux", "cop", "mark", "det", "clf", "case", "cc"})
UNIVERSAL_FEATURES = frozenset({
    "PronType", "NumType", "Poss", "Reflex", "Foreign", "Abbr", "Gender", "Animacy",
    "Number", "Case", "Definite", "Degree", "VerbForm", "Mood", "Tense", "Aspect", "Voice",
    "Evident", "Polarity", "Person", "Polite",
})


@functools.lru_cache(maxsize=4096)
def universal_feats(feats: str) -> str:
    """FEATS with only the universal features, sorted: what UFeats compares."""
    return "|".join(sorted(f for f in feats.split("|")
                           if f.split("=", 1)[0] in UNIVERSAL_FEATURES))


@dataclass(slots=True)
class SentenceCounts(Additive):
    """Sufficient statistics of one gold sentence: everything a corpus score sums."""

    unlabeled: PR = field(default_factory=PR)
    labeled: PR = field(default_factory=PR)
    tokens: F1Count = field(default_factory=F1Count)
    sentences: F1Count = field(default_factory=F1Count)
    words: F1Count = field(default_factory=F1Count)
    upos: F1Count = field(default_factory=F1Count)
    xpos: F1Count = field(default_factory=F1Count)
    ufeats: F1Count = field(default_factory=F1Count)
    alltags: F1Count = field(default_factory=F1Count)
    lemmas: F1Count = field(default_factory=F1Count)
    uas: F1Count = field(default_factory=F1Count)
    las: F1Count = field(default_factory=F1Count)
    clas: F1Count = field(default_factory=F1Count)
    mlas: F1Count = field(default_factory=F1Count)
    blex: F1Count = field(default_factory=F1Count)
    ucm: F1Count = field(default_factory=F1Count)
    """Exact match: (every gold word's head right, 1, 1) a gold sentence, so F1 is the
    share of such sentences."""
    lcm: F1Count = field(default_factory=F1Count)
    """Every head and relation (subtypes ignored) right."""
    line: int = 0
    sent_id: str | None = None
    groups: dict[tuple[str, str], PR] = field(default_factory=dict)
    """Labeled counts of this sentence's arcs in each breakdown group (breakdown, group):
    the statistics of a group's interval."""
    KEEP = ("line", "sent_id", "groups")

    def group(self, f: str, name: str) -> PR:
        got = self.groups.get((f, name))
        if got is None:
            got = self.groups[(f, name)] = PR()
        return got


@dataclass(slots=True)
class Bucket(Additive):
    sentences: int = 0
    words: int = 0
    unlabeled: PR = field(default_factory=PR)
    labeled: PR = field(default_factory=PR)


@dataclass
class DepsResult:
    total: SentenceCounts
    sentences: int
    per_sentence: list[SentenceCounts] | None
    """Each gold sentence's counts, kept only when asked for (resampling needs them)."""
    by: dict[str, Bucket] | None
    by_field: str | None
    warnings: list[str]
    absent: frozenset[str] = frozenset()
    """The metrics the files cannot give (:func:`absent_metrics`): no head at all in the
    system (a tagger's output) makes every attachment score n/a, not 0; no tag makes the
    tag metrics n/a."""
    confusion: Counter[tuple[str, str]] | None = None
    """(gold label, system label) of the aligned words, with ``--confusion``."""
    punct: bool = True
    """False with ``--no-punct``: words tagged PUNCT have no attachment scores."""
    breakdowns: dict[str, dict[str, Bucket]] = field(default_factory=dict)
    """Every breakdown counted, ``by``'s included."""
    replicates: int = 1
    """The gold was scored against R noisy versions in a row: per-sentence statistics are
    pooled over them (:func:`parsebench.metrics.resample.pool_replicates`)."""

    def group_intervals(self, breakdown: str) -> dict[str, list[float] | None]:
        """95% intervals over sentences of each group's labeled F1 (Lin's F1 of the arcs
        in the group), replicates pooled."""
        from parsebench.metrics.resample import pool_replicates, sentence_interval
        from parsebench.metrics.scores import f1_of_pr

        names = sorted({g for c in self.per_sentence or () for f, g in c.groups
                        if f == breakdown})
        out: dict[str, list[float] | None] = {}
        for g in names:
            rows = []
            for c in self.per_sentence or ():
                pr = c.groups.get((breakdown, g))
                rows.append([pr.key, pr.answer, pr.key_found, pr.answer_found] if pr
                            else [0, 0, 0, 0])
            out[g] = sentence_interval(pool_replicates(rows, self.replicates), f1_of_pr)
        return out

    @property
    def attachments(self) -> bool:
        """Whether the system has heads (the attachment scores are not n/a)."""
        return "uas" not in self.absent

    def sentence_rows(self, metric: str) -> list[list[float]]:
        """METRIC's (correct, gold, system) of each gold sentence, replicates pooled."""
        rows = [[getattr(c, metric).correct, getattr(c, metric).gold,
                 getattr(c, metric).system] for c in self.per_sentence or ()]
        from parsebench.metrics.resample import pool_replicates  # numpy: only when pooling

        return pool_replicates(rows, self.replicates)

    def intervals(self) -> dict[str, list[float] | None]:
        """95% bootstrap intervals of the CoNLL 2018 F1 scores over gold sentences."""
        from parsebench.metrics.resample import sentence_interval
        from parsebench.metrics.scores import f1_of_counts

        return {k: sentence_interval(self.sentence_rows(k), f1_of_counts)
                for k in (*CONLL18, "ucm", "lcm") if k not in self.absent}

    def as_dict(self) -> dict[str, Any]:
        """The SPEC's JSON of ``eval deps`` (without the signature)."""
        t = self.total
        out: dict[str, Any] = {k: getattr(t, k).as_dict(k not in SPAN_METRICS)
                               for k in CONLL18}
        for k in ("ucm", "lcm"):
            c = getattr(t, k)
            out[k] = {"accuracy": c.correct / c.gold if c.gold and k not in self.absent
                      else None,
                      "matched": c.correct, "sentences": c.gold}
        out.update(unlabeled=t.unlabeled.as_dict(), labeled=t.labeled.as_dict(),
                   gold_sentences=self.sentences, gold_words=t.words.gold,
                   warnings=self.warnings)
        for key in self.absent:
            if key in ("ucm", "lcm"):
                continue
            out[key].update(precision=None, recall=None, f1=None)
            if key in CONLL18:
                out[key]["aligned_accuracy"] = None
        if self.per_sentence is not None:
            out["ci95"] = self.intervals()
            if self.attachments:
                out["stats"] = {"las": self.sentence_rows("las")}
        out["punct"] = self.punct
        if self.confusion is not None:
            out["confusion"] = confusion_table(self.confusion)
        def buckets(by: dict[str, Bucket]) -> dict[str, Any]:
            return {k: {"sentences": b.sentences, "words": b.words,
                        "unlabeled": b.unlabeled.as_dict(), "labeled": b.labeled.as_dict()}
                    for k, b in sorted(by.items())}

        if self.by is not None:
            out["by"] = buckets(self.by)
        others = {f: buckets(b) for f, b in self.breakdowns.items() if f != self.by_field}
        if others:
            out["breakdowns"] = others
        return out


TSV_METRICS = (*CONLL18, "ucm", "lcm")


def sentence_tsv_header() -> str:
    """Columns of ``--per-sentence``: the sentence, then each metric's F1 (in percent, "n/a"
    without words to score) and its counts."""
    cols = ["sentence", "line", "sent_id"]
    for m in TSV_METRICS:
        cols += [m, f"{m}_correct", f"{m}_gold", f"{m}_system"]
    return "\t".join(cols) + "\n"


def sentence_tsv_row(number: int, c: SentenceCounts) -> str:
    cells = [str(number), str(c.line), (c.sent_id or "").replace("\t", " ")]
    for m in TSV_METRICS:
        f = getattr(c, m)
        den = f.gold + f.system
        cells += [f"{200 * f.correct / den:.2f}" if den else "n/a", str(f.correct),
                  str(f.gold), str(f.system)]
    return "\t".join(cells) + "\n"


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


def _bucket_value(by: str, sent: Sentence, i: int) -> str | None:
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


def _global_heads(sentences: Sequence[Sentence]) -> tuple[list[int], list[tuple[int, int]]]:
    """Global head index of every word (ROOT, MISSING) and (sentence, word) of every word."""
    heads: list[int] = []
    where: list[tuple[int, int]] = []
    offset = 0
    for k, s in enumerate(sentences):
        before = offset - 1
        heads += [ROOT if h == 0 else MISSING if h == NO_HEAD else before + h
                  for h in s.heads]
        where += [(k, i) for i in range(len(s.heads))]
        offset += len(s)
    return heads, where


class TreeCheck:
    """Counts the answer sentences that are not trees, one sentence at a time."""

    def __init__(self) -> None:
        self.fragments = self.multi_root = self.cycles = 0
        self.first: int | None = None

    def add(self, s: Sentence) -> None:
        heads = s.heads
        roots = heads.count(0)
        missing = heads.count(NO_HEAD)
        bad = False
        if missing:
            self.fragments += 1
            bad = True
        if roots != 1 and not missing:
            self.multi_root += 1
            bad = True
        if _has_cycle(heads):
            self.cycles += 1
            bad = True
        if bad and self.first is None:
            self.first = s.line

    def warnings(self, path: str) -> list[str]:
        out = []
        if self.fragments:
            out.append(f"{path}: {self.fragments} sentence(s) have words without a head "
                       "(fragments)")
        if self.multi_root:
            out.append(f"{path}: {self.multi_root} sentence(s) do not have exactly one root")
        if self.cycles:
            out.append(f"{path}: {self.cycles} sentence(s) contain a cycle")
        if out and self.first is not None:
            out.append(f"{path}:{self.first}: first such sentence")
        return out


def tree_warnings(sentences: Iterable[Sentence], path: str) -> list[str]:
    """Name the answer sentences that are not trees; they are scored all the same."""
    check = TreeCheck()
    for s in sentences:
        check.add(s)
    return check.warnings(path)


def _has_cycle(heads: list[int]) -> bool:
    """Whether following heads (1-based; 0, NO_HEAD or out of range end a path) can loop.
    By pointer doubling: after r rounds each word points 2**r steps up, 0 once past the
    top, so a word still pointing somewhere after n steps is on or under a cycle (a
    few list passes a sentence, where walking every path took a word at a time)."""
    n = len(heads)
    up = [h if 0 < h <= n else 0 for h in heads]
    steps = 1
    while any(up):
        if steps >= n:
            return True
        up = [up[h - 1] if h else 0 for h in up]
        steps *= 2
    return False


def evaluate_deps(gold: Iterable[Sentence], system: Iterable[Sentence], *,
                  select: Sequence[Selection] = (), by: str | None = None,
                  labels: Callable[[str], str] | None = None,
                  gold_path: str = "GOLD", system_path: str = "SYSTEM",
                  per_sentence: bool = True, punct: bool = True,
                  confusion: str | None = None,
                  each: Callable[[SentenceCounts], None] | None = None,
                  also_by: Sequence[str] = ()) -> DepsResult:
    """Score SYSTEM against GOLD, reading both one stretch at a time.

    The files are cut where both end a sentence at the same point of the text (each
    sentence, when they have the same words), and every stretch is aligned and
    scored on its own: the counts are those of the whole files at once, and memory
    stays flat in their size. PER_SENTENCE keeps each gold sentence's counts; EACH is
    given them as they come. Without PUNCT, words tagged PUNCT get no attachment scores.
    ALSO_BY are breakdowns counted in the same pass (``breakdowns`` of the result).
    """
    for f in (by, *also_by):
        if f is not None and f not in BY_FIELDS:
            raise InputError(f"--by {f!r}: expected one of " + ", ".join(BY_FIELDS))
    fields = list(dict.fromkeys(f for f in (by, *also_by) if f))
    if confusion is not None and confusion not in CONFUSION_FIELDS:
        raise InputError(f"--confusion {confusion!r}: expected one of "
                         + ", ".join(CONFUSION_FIELDS))
    pairs: Counter[tuple[str, str]] | None = Counter() if confusion else None
    total = SentenceCounts()
    kept: list[SentenceCounts] | None = [] if per_sentence else None
    breakdowns: dict[str, dict[str, Bucket]] = {f: {} for f in fields}
    check = TreeCheck()
    gold_labels: Counter[str] = Counter()
    system_labels: Counter[str] = Counter()
    sentences = 0
    system_has: set[str] = set()
    gold_has: set[str] = set()
    chunks = _Chunks(iter(gold), iter(system), gold_path, system_path)
    for g, s, rows in chunks:
        part = _score(g, s, select, fields, labels, gold_path, system_path, punct,
                      confusion, rows)
        sentences += len(g)
        for c in part.per_sentence or ():
            total.add(c)
            if each is not None:
                each(c)
        if pairs is not None and part.confusion is not None:
            pairs.update(part.confusion)
        if kept is not None:
            kept += part.per_sentence or ()
        for f, got in part.breakdowns.items():
            for name, b in got.items():
                breakdowns[f].setdefault(name, Bucket()).add(b)
        for x in s:
            check.add(x)
            _columns(x, system_has)
            system_labels.update(x.deprels)  # as written: based once a label, below
        for x in g:
            _columns(x, gold_has)
            gold_labels.update(x.deprels)
    warnings = chunks.notes + check.warnings(system_path)
    heads = "heads" in system_has
    absent = absent_metrics(system_has, gold_has) if sentences else frozenset()
    for path, has in ((gold_path, gold_has), (system_path, system_has)):
        gone = [c for c in COLUMNS if c != "heads" and c not in has]
        lost = [CONLL18_NAMES[m] for m in CONLL18 if m in absent
                and set(METRIC_NEEDS[m]) & set(gone)]
        if sentences and lost:
            warnings.append(f"{path} has no {', no '.join(COLUMNS[c] for c in gone)}: "
                            f"{', '.join(lost)} n/a")
    if not heads and sentences:
        warnings.append(f"{system_path} has no heads (a tagger's output?): every attachment "
                        "score is n/a")
    elif heads:
        based: list[Counter[str]] = [Counter(), Counter()]
        for into, raw in zip(based, (gold_labels, system_labels), strict=True):
            for d, n in raw.items():
                if d != "_":
                    into[base(d)] += n
        scheme = scheme_warning(based[0].elements(), based[1].elements(),
                                "relations", gold_path, system_path)
        if scheme:
            warnings.append(scheme)
    return DepsResult(total, sentences, kept, breakdowns.get(by) if by else None, by, warnings,
                      absent, pairs, punct, breakdowns)


class _Chunks:
    """Pairs of (gold, system) sentence lists that can be aligned on their own.

    While the files have the same rows sentence by sentence (the same words, or a
    parse of misspelled text against the gold of the clean text) each pair is one
    stretch, aligned row by row, as the whole files would be. Once they do not, the
    words must spell the same text, and a stretch ends where both files end a
    sentence at the same character of it (CoNLL 2018's alignment never crosses such
    a point).
    """

    def __init__(self, gold: Iterator[Sentence], system: Iterator[Sentence],
                 gold_path: str, system_path: str) -> None:
        self.gold, self.system = gold, system
        self.paths = (gold_path, system_path)
        self.notes: list[str] = []

    def __iter__(self) -> Iterator[tuple[list[Sentence], list[Sentence], bool | None]]:
        """(gold, system, whether they align row by row; None: not known yet)."""
        differ = 0
        first_differ: tuple[Sentence, Sentence] | None = None
        g_next = next(self.gold, None)
        s_next = next(self.system, None)
        while g_next is not None and s_next is not None and by_rows([g_next], [s_next]):
            d = 0 if g_next.forms == s_next.forms else \
                sum(a != b for a, b in zip(g_next.forms, s_next.forms, strict=True))
            if d and first_differ is None:
                first_differ = (g_next, s_next)
            differ += d
            yield [g_next], [s_next], True
            g_next = next(self.gold, None)
            s_next = next(self.system, None)
        if g_next is None and s_next is None:
            if differ:
                self.notes.append(f"{self.paths[1]}: {differ} word form(s) differ from the "
                                  "gold's; the files have the same rows, so words are aligned "
                                  "row by row")
            return
        if first_differ is not None:  # not the same rows after all: the text must agree
            check_same_text([first_differ[0]], [first_differ[1]], *self.paths)
        yield from self._by_text(g_next, s_next)

    def _by_text(self, g_next: Sentence | None, s_next: Sentence | None
                 ) -> Iterator[tuple[list[Sentence], list[Sentence], bool | None]]:
        g_buf: list[Sentence] = []
        s_buf: list[Sentence] = []
        g_chars = s_chars = 0
        while True:
            if g_buf and s_buf and g_chars == s_chars:
                yield g_buf, s_buf, None
                g_buf, s_buf, g_chars, s_chars = [], [], 0, 0
            take_gold = g_next is not None and (s_next is None or g_chars <= s_chars)
            if take_gold:
                assert g_next is not None
                g_buf.append(g_next)
                g_chars += text_length(g_next)
                g_next = next(self.gold, None)
            elif s_next is not None:
                s_buf.append(s_next)
                s_chars += text_length(s_next)
                s_next = next(self.system, None)
            else:
                if g_buf or s_buf:
                    yield g_buf, s_buf, None
                return


def _score(gold: Sequence[Sentence], system: Sequence[Sentence],
           select: Sequence[Selection], fields: Sequence[str],
           labels: Callable[[str], str] | None,
           gold_path: str, system_path: str, punct: bool = True,
           confusion: str | None = None, rows: bool | None = None) -> DepsResult:
    """The counts of one stretch of both files, per gold sentence. ROWS: whether they
    align row by row, when the caller knows it already."""
    canon = labels or None  # None: labels compared as written
    if rows is None:
        rows = by_rows(gold, system)
    sys2gold = list(range(sum(len(x) for x in system))) if rows else \
        align_words(gold, system, gold_path, system_path)
    g_heads, g_where = _global_heads(gold)
    s_heads, s_where = _global_heads(system)
    if rows and len(sys2gold) == len(g_heads):
        gold2sys = sys2gold  # row i is row i
    else:
        gold2sys = [-1] * len(g_heads)
        for j, gi in enumerate(sys2gold):
            if gi >= 0:
                gold2sys[gi] = j

    per_sentence = [SentenceCounts(line=s.line, sent_id=s.comment_value("sent_id"))
                    for s in gold]
    _span_counts(gold, system, per_sentence, rows)
    g_func = _functional_children(gold, g_heads)
    s_func = _functional_children(system, s_heads)
    breakdowns: dict[str, dict[str, Bucket]] = {f: {} for f in fields}
    pairs: Counter[tuple[str, str]] | None = Counter() if confusion else None
    root_arcs = any(f in ROOT_ARC_FIELDS for f in fields)

    def bucket(f: str, name: str) -> Bucket:
        got = breakdowns[f]
        b = got.get(name)
        if b is None:
            b = got[name] = Bucket()
        return b

    if "category" in breakdowns:
        for s in gold:
            b = bucket("category", s.category or "(none)")
            b.sentences += 1
            b.words += len(s)

    def functional(children: list[int], heads: list[int], where: list[tuple[int, int]],
                   sents: Sequence[Sentence], to_gold: Callable[[int], int]
                   ) -> list[tuple[int, str, str, str]]:
        out = []
        for c in children:
            k_c, i_c = where[c]
            x = sents[k_c]
            out.append((to_gold(c), base(x.deprels[i_c]), x.upos[i_c],
                        universal_feats(x.feats[i_c])))
        return out

    def sys_to_gold(j: int) -> int:
        g = sys2gold[j]
        return g if g >= 0 else NOT_ALIGNED

    # Key side: recall, the CoNLL 2018 gold totals and correct counts (kept in locals
    # a sentence at a time: this loop runs once a gold word). The system's columns are
    # read through flat lists, indexed by the system word, and labels compared as
    # written unless --labels maps them.
    def flat(column: Callable[[Sentence], list[str]]) -> list[str]:
        return column(system[0]) if len(system) == 1 else \
            [x for s in system for x in column(s)]

    s_upos_all = flat(lambda s: s.upos)
    s_xpos_all = flat(lambda s: s.xpos)
    s_feats_all = flat(lambda s: s.feats)
    s_lemmas_all = flat(lambda s: s.lemmas)
    s_deprels_all = flat(lambda s: s.deprels)
    bases_get = _BASES.get
    content_deprels = CONTENT_DEPRELS
    by_deprel = confusion == "deprel"
    gi = -1
    for k, gs in enumerate(gold):
        counts = per_sentence[k]
        n_scored = n_content = n_aligned = n_aligned_scored = n_aligned_content = 0
        c_upos = c_xpos = c_feats = c_all = c_lemma = 0
        c_uas = c_las = c_clas = c_mlas = c_blex = 0
        lin_key = lin_found = lin_labeled = 0
        g_deprels, g_upos, g_xpos, g_feats, g_lemmas = gs.deprels, gs.upos, gs.xpos, \
            gs.feats, gs.lemmas
        for i in range(len(gs)):
            gi += 1
            gh = g_heads[gi]
            g_deprel = g_deprels[i]
            g_base = bases_get(g_deprel) or base(g_deprel)
            scored = punct or g_upos[i] != "PUNCT"  # --no-punct: no attachment scores
            content = scored and g_base in content_deprels
            n_scored += scored
            n_content += content
            j = gold2sys[gi]
            head_ok = label_ok = False
            if j >= 0:
                n_aligned += 1
                n_aligned_scored += scored
                n_aligned_content += content
                upos_ok = g_upos[i] == s_upos_all[j]
                xpos_ok = g_xpos[i] == s_xpos_all[j]
                feats_ok = g_feats[i] == s_feats_all[j] or \
                    universal_feats(g_feats[i]) == universal_feats(s_feats_all[j])
                g_lemma = g_lemmas[i]
                lemma_ok = g_lemma == "_" or g_lemma == s_lemmas_all[j]
                c_upos += upos_ok
                c_xpos += xpos_ok
                c_feats += feats_ok
                c_all += upos_ok and xpos_ok and feats_ok
                c_lemma += lemma_ok
                if pairs is not None:
                    pairs[(g_deprel, s_deprels_all[j]) if by_deprel
                          else (g_upos[i], s_upos_all[j])] += 1
                if gh != MISSING:
                    sh = s_heads[j]  # the system's head as a gold word
                    if sh >= 0:
                        sh = sys2gold[sh]
                        if sh < 0:
                            sh = NOT_ALIGNED
                    if sh == gh:
                        head_ok = True
                        s_deprel = s_deprels_all[j]
                        label_ok = s_deprel == g_deprel if canon is None \
                            else canon(s_deprel) == canon(g_deprel)
                        if scored:
                            c_uas += 1
                            if (bases_get(s_deprel) or base(s_deprel)) == g_base:
                                c_las += 1
                                if content:
                                    c_clas += 1
                                    c_blex += lemma_ok
                                    if upos_ok and feats_ok:
                                        g_children = g_func.get(gi)
                                        s_children = s_func.get(j)
                                        if not g_children and not s_children:
                                            c_mlas += 1  # no functional child either side
                                        elif g_children and s_children and len(
                                                g_children) == len(s_children) and \
                                                functional(g_children, g_heads, g_where,
                                                           gold, lambda x: x) == functional(
                                                    s_children, s_heads, s_where, system,
                                                    sys_to_gold):
                                            c_mlas += 1
            # the root word and fragments have no dependency in Lin's sense; the
            # breakdowns by arc length and the like count the root's arc too, as MaltEval
            if gh == MISSING or not scored or (gh == ROOT and not root_arcs):
                continue
            if select and not all(sel.test(gs, i) for sel in select):
                continue
            labeled_ok = head_ok and label_ok
            if gh != ROOT:
                lin_key += 1
                lin_found += head_ok
                lin_labeled += labeled_ok
            for f in fields:
                if gh == ROOT and f not in ROOT_ARC_FIELDS:
                    continue
                name = _bucket_value(f, gs, i)
                if name is not None:
                    b = bucket(f, name)
                    b.unlabeled.count_key(head_ok)
                    b.labeled.count_key(labeled_ok)
                    counts.group(f, name).count_key(labeled_ok)
        counts.unlabeled.key += lin_key
        counts.unlabeled.key_found += lin_found
        counts.labeled.key += lin_key
        counts.labeled.key_found += lin_labeled
        n = len(gs)
        counts.words.gold += n
        counts.words.correct += n_aligned
        for c, right in ((counts.upos, c_upos), (counts.xpos, c_xpos),
                         (counts.ufeats, c_feats), (counts.alltags, c_all),
                         (counts.lemmas, c_lemma)):
            c.gold += n
            c.aligned += n_aligned
            c.correct += right
        for c, right in ((counts.uas, c_uas), (counts.las, c_las)):
            c.gold += n_scored
            c.aligned += n_aligned_scored
            c.correct += right
        for c, right in ((counts.clas, c_clas), (counts.mlas, c_mlas),
                         (counts.blex, c_blex)):
            c.gold += n_content
            c.aligned += n_aligned_content
            c.correct += right

    # Answer side: precision, the CoNLL 2018 system totals (Lin's answer counts summed
    # in lists a gold sentence, like the totals).
    g_sentence_of_sys = _gold_sentence_of_system_words(gold, system, sys2gold, g_where)
    n_system = [0] * len(gold)
    s_scored = [0] * len(gold)
    s_content = [0] * len(gold)
    a_answer = [0] * len(gold)
    a_found = [0] * len(gold)
    a_labeled = [0] * len(gold)
    for j, sh in enumerate(s_heads):
        k_g = g_sentence_of_sys[j]
        s_deprel = s_deprels_all[j]
        n_system[k_g] += 1
        gi = sys2gold[j]
        if not punct and (gold[g_where[gi][0]].upos[g_where[gi][1]] if gi >= 0
                          else s_upos_all[j]) == "PUNCT":
            continue
        s_scored[k_g] += 1
        s_content[k_g] += (bases_get(s_deprel) or base(s_deprel)) in content_deprels
        if sh == MISSING or (sh == ROOT and not root_arcs):
            continue
        if select or fields:
            k_s, i = s_where[j]
            ss = system[k_s]
            if select and not all(sel.test(ss, i) for sel in select):
                continue
        found = labeled_found = False
        if gi >= 0:
            gh = g_heads[gi]
            if (gh >= 0 and sh >= 0 and sys2gold[sh] == gh) or (gh == sh == ROOT):
                found = True
                kg, ig = g_where[gi]
                g_deprel = gold[kg].deprels[ig]
                labeled_found = s_deprel == g_deprel if canon is None \
                    else canon(s_deprel) == canon(g_deprel)
        labeled_found = found and labeled_found
        if sh != ROOT:
            a_answer[k_g] += 1
            a_found[k_g] += found
            a_labeled[k_g] += labeled_found
        for f in fields:
            if sh == ROOT and f not in ROOT_ARC_FIELDS:
                continue
            if f == "category":
                name = gold[g_sentence_of_sys[j]].category or "(none)"
            else:
                name = _bucket_value(f, ss, i)
            if name is not None:
                b = bucket(f, name)
                b.unlabeled.count_answer(found)
                b.labeled.count_answer(labeled_found)
                per_sentence[k_g].group(f, name).count_answer(labeled_found)

    for k, counts in enumerate(per_sentence):
        counts.unlabeled.answer += a_answer[k]
        counts.unlabeled.answer_found += a_found[k]
        counts.labeled.answer += a_answer[k]
        counts.labeled.answer_found += a_labeled[k]

    for counts, n, ns, nc in zip(per_sentence, n_system, s_scored, s_content, strict=True):
        for c in (counts.words, counts.upos, counts.xpos, counts.ufeats, counts.alltags,
                  counts.lemmas):
            c.system += n
        counts.uas.system += ns
        counts.las.system += ns
        for c in (counts.clas, counts.mlas, counts.blex):
            c.system += nc
        # exact match: every gold word aligned and attached right (where the tokens
        # differ, a system word that aligns with nothing makes some gold word unaligned)
        ucm, lcm = counts.ucm, counts.lcm
        ucm.correct += int(counts.uas.correct == counts.uas.gold)
        ucm.gold += 1
        ucm.system += 1
        lcm.correct += int(counts.las.correct == counts.las.gold)
        lcm.gold += 1
        lcm.system += 1
    return DepsResult(SentenceCounts(), len(gold), per_sentence, None, None, [],
                      confusion=pairs, breakdowns=breakdowns)


def _functional_children(sents: Sequence[Sentence], heads: list[int]) -> dict[int, list[int]]:
    """Each word's children with a functional relation (MLAS), in word order."""
    out: dict[int, list[int]] = {}
    bases_get = _BASES.get
    k = 0
    for s in sents:
        for d in s.deprels:
            if (bases_get(d) or base(d)) in FUNCTIONAL_DEPRELS:
                h = heads[k]
                if h >= 0:
                    out.setdefault(h, []).append(k)
            k += 1
    return out


def _span_counts(gold: Sequence[Sentence], system: Sequence[Sentence],
                 per_sentence: list[SentenceCounts], rows: bool) -> None:
    """CoNLL 2018's Tokens and Sentences of one stretch: spans of the text without spaces
    (a multiword token is one token), a system span right when a gold span has its start
    and end. System spans count in the gold sentence where they start. Files with the same
    rows (the same tokens, or a parse of misspelled text) match row for row."""
    def token_spans(sents: Sequence[Sentence]) -> list[tuple[int, int, int]]:
        """(start, end, sentence) of every token."""
        out = []
        pos = 0
        for k, s in enumerate(sents):
            mw = {a: b for a, b, _ in s.multiword}
            forms = {a: cols[1] for a, _, cols in s.multiword}
            i = 0
            while i < len(s.forms):
                b = mw.get(i, i)
                n = len(strip_spaces(forms.get(i, s.forms[i])))
                out.append((pos, pos + n, k))
                pos += n
                i = b + 1
        return out

    if rows:  # the same tokens and sentences, row for row
        for k, g in enumerate(gold):
            n = len(g) - sum(b - a for a, b, _ in g.multiword)
            c = per_sentence[k]
            c.tokens.correct += n
            c.tokens.gold += n
            c.tokens.system += n
            c.sentences.correct += 1
            c.sentences.gold += 1
            c.sentences.system += 1
        return
    g_tok, s_tok = token_spans(gold), token_spans(system)
    for _, _, k in g_tok:
        per_sentence[k].tokens.gold += 1
    g_sent = _sentence_spans(g_tok)
    s_sent = _sentence_spans(s_tok)
    for k in range(len(gold)):
        per_sentence[k].sentences.gold += 1
    starts = [a for a, _, _ in g_tok]
    for spans, gold_spans, name in ((s_tok, g_tok, "tokens"), (s_sent, g_sent, "sentences")):
        by_start = {a: (b, k) for a, b, k in gold_spans}
        for a, b, _ in spans:
            # the gold sentence where the span starts: the last gold token starting at or before
            k = g_tok[max(0, bisect.bisect_right(starts, a) - 1)][2] if g_tok else 0
            if not per_sentence:
                break
            got = by_start.get(a)
            counts = getattr(per_sentence[k], name)
            counts.system += 1
            if got is not None and got[0] == b:
                getattr(per_sentence[got[1]], name).correct += 1


def _sentence_spans(tokens: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    out: dict[int, tuple[int, int, int]] = {}
    for a, b, k in tokens:
        first = out.get(k)
        out[k] = (a if first is None else first[0], b, k)
    return list(out.values())


def _gold_sentence_of_system_words(gold: Sequence[Sentence], system: Sequence[Sentence],
                                   sys2gold: list[int],
                                   g_where: list[tuple[int, int]]) -> list[int]:
    """The gold sentence each system word counts in: its aligned word's, else the next one's."""
    out: list[int] = []
    last = 0
    pending = 0
    for gi in sys2gold:
        if gi >= 0:
            last = g_where[gi][0]
            out.extend([last] * pending)
            pending = 0
            out.append(last)
        else:
            pending += 1
    out.extend([last] * pending)
    return out

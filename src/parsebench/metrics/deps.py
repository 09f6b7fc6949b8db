"""Scoring dependency parses against a gold key: Lin's dependencies and the CoNLL 2018
metrics in one pass over both files, and the run's method that uses it.

The files are read a stretch at a time and their words aligned as the CoNLL 2018
script aligns them (:mod:`parsebench.metrics.align`); each gold sentence gets its
counts of every CoNLL 2018 metric (:mod:`parsebench.metrics.conll18`) and of
Lin's precision and recall, with the breakdowns asked for
(:mod:`parsebench.metrics.lin`). Unlike the script, an answer with cycles,
several roots or missing heads is scored (with a warning,
:mod:`parsebench.metrics.tree_checks`) rather than rejected, and a tagger's
output gets its tag scores with every attachment score n/a.

In a run (:data:`METHOD`), the clean text's parse is scored against the gold
with every breakdown the experiment asks for (by genre also with words per
second, Lin's Table 18.2), and each error level's parses with the breakdowns
that show where noise hurts (relation, arc length, sentence length); every
metric's and every breakdown group's counts are kept a sentence.
"""

from __future__ import annotations

import bisect
import os
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from parsebench.errors import InputError
from parsebench.formats.conllu import NO_HEAD, Sentence
from parsebench.inputs import COLUMNS
from parsebench.metrics.align import (
    align_words,
    by_rows,
    check_same_text,
    strip_spaces,
    text_length,
)
from parsebench.metrics.conll18 import (
    BASES,
    CONLL18,
    CONLL18_NAMES,
    CONTENT_DEPRELS,
    FUNCTIONAL_DEPRELS,
    METRIC_NEEDS,
    SPAN_METRICS,
    F1Count,
    absent_metrics,
    base,
    held_columns,
    universal_feats,
)
from parsebench.metrics.counts import Additive
from parsebench.metrics.lin import (
    BY_FIELDS,
    CONFUSION_FIELDS,
    PR,
    ROOT_ARC_FIELDS,
    Bucket,
    Selection,
    bucket_value,
    confusion_table,
)
from parsebench.metrics.method import Level, LevelStats, Method, Replicate, SentenceStats, Variant
from parsebench.metrics.scheme import scheme_warning
from parsebench.metrics.tree_checks import TreeCheck

ROOT = -1
MISSING = -2
NOT_ALIGNED = -3


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
    groups: dict[tuple[str, str], Bucket] = field(default_factory=dict)
    """Counts of this sentence's arcs in each breakdown group (breakdown, group): the
    keyed statistics of the breakdowns."""
    KEEP = ("line", "sent_id", "groups")

    def group(self, f: str, name: str) -> Bucket:
        got = self.groups.get((f, name))
        if got is None:
            got = self.groups[(f, name)] = Bucket()
        return got


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
                b = c.groups.get((breakdown, g))
                pr = b.labeled if b is not None else PR()
                rows.append([pr.key, pr.answer, pr.key_found, pr.answer_found])
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
            held_columns(x, system_has)
            system_labels.update(x.deprels)  # as written: based once a label, below
        for x in g:
            held_columns(x, gold_has)
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
    bases_get = BASES.get
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
                name = bucket_value(f, gs, i)
                if name is not None:
                    b = bucket(f, name)
                    b.unlabeled.count_key(head_ok)
                    b.labeled.count_key(labeled_ok)
                    sg = counts.group(f, name)
                    sg.unlabeled.count_key(head_ok)
                    sg.labeled.count_key(labeled_ok)
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
                name = bucket_value(f, ss, i)
            if name is not None:
                b = bucket(f, name)
                b.unlabeled.count_answer(found)
                b.labeled.count_answer(labeled_found)
                sg = per_sentence[k_g].group(f, name)
                sg.unlabeled.count_answer(found)
                sg.labeled.count_answer(labeled_found)

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
    bases_get = BASES.get
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


def file_stats(metric: Any, gold: str | os.PathLike[str], system: str | os.PathLike[str],
               warnings: list[str] | None = None,
               gold_sentences: Sequence[Sentence] | None = None) -> Any:
    """METRIC's statistics (a CoNLL 2018 metric, exact match, or Lin's) of SYSTEM against
    GOLD, one row a gold sentence, kept as each sentence is scored (memory flat in the
    corpus's size); what ``compare`` resamples. A system that cannot give METRIC (a
    tagger's output for an attachment score) gets rows of NaN, with the cause in
    WARNINGS; the output of ``noise`` is refused. GOLD_SENTENCES: the gold already read."""
    from array import array

    import numpy as np

    from parsebench.formats.conllu import iter_conllu
    from parsebench.inputs import Holds, na_cause, refuse_unparsed

    held = Holds(str(system))
    flat = array("d")
    if metric.name in (*CONLL18, "ucm", "lcm"):
        def row(c: SentenceCounts) -> None:
            x = getattr(c, metric.name)
            flat.extend((x.correct, x.gold, x.system))
    else:
        def row(c: SentenceCounts) -> None:
            x = getattr(c, metric.name.removeprefix("lin-"))
            flat.extend((x.key, x.answer, x.key_found, x.answer_found))
    res = evaluate_deps(iter_conllu(gold) if gold_sentences is None else gold_sentences,
                        held.counting(iter_conllu(system)),
                        gold_path=str(gold), system_path=str(system),
                        per_sentence=False, each=row)
    refuse_unparsed(held)
    if warnings is not None:
        warnings += [w for w in res.warnings if "every attachment score is n/a" not in w]
    out = np.frombuffer(flat, dtype=np.float64).reshape(-1, len(metric.columns)).copy()
    cause = na_cause(held, metric.needs, metric.name)
    if cause is not None:
        if warnings is not None:
            warnings.append(cause)
        out[:] = np.nan
    return out


WHERE_ERRORS_FALL = ("arc-length", "sentence-length")
"""Breakdowns stored with every level's scores: where does noise hurt?"""
COUNTED = (*CONLL18, "ucm", "lcm")
"""The CoNLL 2018 counts a sentence's statistics carry (correct, gold, system, aligned)."""


def sentence_stats(c: SentenceCounts) -> SentenceStats:
    """A gold sentence's statistics: each CoNLL 2018 metric's counts, Lin's unlabeled and
    labeled precision/recall counts, and each breakdown group's (``arc-length=3-6``:
    unlabeled then labeled key, key found, answer, answer found)."""
    st: SentenceStats = {}
    for k in COUNTED:
        x = getattr(c, k)
        st[k] = (x.correct, x.gold, x.system, x.aligned)
    for k in ("unlabeled", "labeled"):
        x = getattr(c, k)
        st[k] = (x.key, x.answer, x.key_found, x.answer_found)
    for (f, g), b in c.groups.items():
        u, lab = b.unlabeled, b.labeled
        st[f"{f}={g}"] = (u.key, u.answer, u.key_found, u.answer_found,
                          lab.key, lab.answer, lab.key_found, lab.answer_found)
    return st


def _pr(row: Any) -> PR:
    return PR(key=int(row[0]), answer=int(row[1]), key_found=int(row[2]),
              answer_found=int(row[3]))


def result_of(t: LevelStats, fields: list[str], by: str, facts: dict[str, Any]
              ) -> DepsResult:
    """The result of a level from its summed statistics: what ``evaluate_deps`` of the
    replicates in a row gives, with the warnings and missing columns it found."""
    total = SentenceCounts()
    for k in COUNTED:
        setattr(total, k, F1Count(*(int(x) for x in t.sums(k))))
    total.unlabeled, total.labeled = _pr(t.sums("unlabeled")), _pr(t.sums("labeled"))
    breakdowns: dict[str, dict[str, Bucket]] = {}
    for f in fields:
        got = breakdowns[f] = {}
        for g in t.names(f):
            s = t.sums(f"{f}={g}")
            got[g] = Bucket(unlabeled=_pr(s[:4]), labeled=_pr(s[4:]))
        for g, (n, words) in facts["sizes"].get(f, {}).items():
            b = got.setdefault(g, Bucket())
            b.sentences, b.words = n, words
    return DepsResult(total, facts["sentences"], None, breakdowns.get(by), by,
                      facts["warnings"], frozenset(facts["absent"]), facts.get("confusion"),
                      True, breakdowns, t.replicates)


def _variants(ctx: Any) -> list[Variant]:
    if not (ctx.exp.deps and ctx.corpus.gold and ctx.kind == "deps"):
        return []
    corpus, parsed = ctx.corpus, ctx.parsed
    clean_fields = list(dict.fromkeys(["deprel", *ctx.exp.deps_by, *WHERE_ERRORS_FALL]))
    noisy_fields = ["deprel", *WHERE_ERRORS_FALL]
    facts: dict[str, dict[str, Any]] = {}

    versions = {"clean": [corpus.versions[0]],
                **{lv.label: vs for lv, vs in ctx.levels.items()}}

    def scorer(fields: list[str], confusion: str | None, keep: bool) -> Any:
        """KEEP: every result of the clean text reads its rows; a noisy replicate's rows
        are read once, then let go."""
        done: dict[str, list[SentenceStats]] = {}

        def stats(rep: Replicate) -> Iterator[SentenceStats]:
            """A level's replicates are scored in one pass, one after the other against
            the gold repeated, so that the level's warnings (another annotation scheme,
            trees that are not) are counted over all of them once; each replicate then
            gets its own sentences' rows."""
            level = rep.label.split("/seed=")[0]
            if rep.label not in done:
                vs = versions[level]
                # the words as in the gold, so that misspellings do not upset the alignment
                sys_s = [replace(s, forms=g.forms) for v in vs for s, g in
                         zip(parsed.sentences_of(v), corpus.sentences, strict=True)]
                rows: list[SentenceStats] = []
                res = evaluate_deps([s for _ in vs for s in corpus.sentences], sys_s,
                                    by="deprel", also_by=fields, confusion=confusion,
                                    gold_path=str(corpus.path),
                                    system_path=f"{ctx.conf.name}:{level}",
                                    per_sentence=False,
                                    each=lambda c: rows.append(sentence_stats(c)))
                n = len(corpus.sentences)
                for k, v in enumerate(vs):
                    done[v.label] = rows[k * n:(k + 1) * n]
                sizes: dict[str, dict[str, tuple[int, int]]] = {}
                for name, got in res.breakdowns.items():
                    for g, b in got.items():
                        if b.sentences:
                            sizes.setdefault(name, {})[g] = (b.sentences, b.words)
                facts[level] = {"sentences": res.sentences, "warnings": res.warnings,
                                "absent": res.absent, "sizes": sizes,
                                "confusion": res.confusion}
            return iter(done[rep.label] if keep else done.pop(rep.label))
        return stats

    def figures(by: str, fields: list[str]) -> Any:
        def make(level: Level, t: LevelStats) -> dict[str, Any]:
            from parsebench.metrics.resample import sentence_interval  # NumPy: runs only
            from parsebench.metrics.scores import f1_of_counts, f1_of_pr

            scored = result_of(t, fields, "deprel", facts[level.label])
            whole = scored.as_dict()
            extra = whole.pop("breakdowns", {})
            res = dict(whole)
            if by != "deprel":
                res["by"] = extra[by]
                res.pop("confusion", None)
            else:
                absent = scored.absent
                rows = {k: [r[:3] for r in t.rows(k)] for k in COUNTED}
                res["ci95"] = {k: sentence_interval(rows[k], f1_of_counts)
                               for k in COUNTED if k not in absent}
                res["stats"] = {k: v for k, v in rows.items() if "uas" not in absent} | \
                    {k: t.rows(k) for k in ("unlabeled", "labeled")} | \
                    t.stored(WHERE_ERRORS_FALL)
                res["breakdowns"] = {f: extra[f] for f in WHERE_ERRORS_FALL}
                res["ci95"]["breakdowns"] = {f: {g: sentence_interval(
                    [r[4:] for r in t.rows(f"{f}={g}")], f1_of_pr) for g in t.names(f)}
                    for f in WHERE_ERRORS_FALL}
            if by == "category":
                secs: dict[str, float] = {}
                for s in corpus.sentences:
                    cat = s.category or "(none)"
                    secs[cat] = secs.get(cat, 0.0) + parsed.outcome(s)[1]
                for cat, b in res["by"].items():
                    b["seconds"] = secs.get(cat, 0.0)
                    b["words_per_second"] = b["words"] / secs[cat] if secs.get(cat) else None
            res.setdefault("stats", {})
            return res
        return make

    def sig(by: str) -> Any:
        return lambda level: {"method": "lin-deps", "by": by, "level": level.label}

    clean = [ctx.clean_level()]
    clean_stats = scorer(clean_fields, "deprel", keep=True)
    out = [Variant(by, clean, clean_stats, figures(by, clean_fields), sig(by))
           for by in ctx.exp.deps_by]
    if not ctx.moves_words:  # errors that move words are scored by f1's alignment
        out.append(Variant("deprel", ctx.noisy_levels(),
                           scorer(noisy_fields, None, keep=False),
                           figures("deprel", noisy_fields), sig("deprel")))
    return out


METHOD = Method("deps", "Lin; CoNLL 2018", _variants,
                "the clean text against the gold key; the noisy levels through the alignment "
                "under f1", columns={
                    **dict.fromkeys(COUNTED, ("correct", "gold", "system")),
                    **dict.fromkeys(("unlabeled", "labeled"),
                                    ("key", "answer", "key matched", "answer matched")),
                    **dict.fromkeys(WHERE_ERRORS_FALL, (
                        "sentence", "group", "unlabeled key", "unlabeled answer",
                        "unlabeled key matched", "unlabeled answer matched", "labeled key",
                        "labeled answer", "labeled key matched", "labeled answer matched"))})

"""The counts of one stretch of a gold key and a parse, a gold sentence at a time: the
kernel of :func:`parsebench.metrics.dependency.evaluate.score_deps`.

Each gold sentence gets its counts of every CoNLL 2018 metric
(:mod:`parsebench.metrics.dependency.conll18`), Tokens and Sentences from the spans of the
text, and Lin's precision and recall with the breakdowns asked for
(:mod:`parsebench.metrics.dependency.lin_scorer`), in one loop over the gold words (recall) and one
over the system words (precision); the words are aligned row by row or as the
CoNLL 2018 script aligns them (:mod:`parsebench.metrics.dependency.tokenization`).

count_stretch is the reference. In a run without selections, sentences with the
same rows are counted by the compiled kernel :func:`row_counter` gives where it was
built (the C accelerator _deps_fast, like eval brackets'), breakdowns by what the
rows say too (relation, tag, arc length, sentence length, direction); stretches
aligned by text (a parser's own tokens and sentences) by the one
:func:`stretch_counter` gives (_stretch_fast), without breakdowns; the same counts,
which the tests hold to count_stretch's.
"""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Callable, Container, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from parsebench.formats.conllu import NO_HEAD, Sentence
from parsebench.metrics.core.counts import Additive
from parsebench.metrics.dependency.conll18 import (
    BASES,
    CONTENT_DEPRELS,
    FUNCTIONAL_DEPRELS,
    F1Count,
    base,
    universal_feats,
)
from parsebench.metrics.dependency.lin_scorer import (
    PR,
    ROOT_ARC_FIELDS,
    BucketCounts,
    Selection,
    bucket_value,
)
from parsebench.metrics.dependency.tokenization import (
    align_words,
    by_rows,
    plain_text,
    strip_spaces,
)

if TYPE_CHECKING:
    from parsebench.metrics.dependency._deps_fast import RowCounter
    from parsebench.metrics.dependency._stretch_fast import StretchCounter
    from parsebench.metrics.dependency.enhanced import EnhancedCounter

_RowCounter: type[RowCounter] | None
_BREAKDOWNS: Container[str] = ()
ROW_AT: Mapping[str, int] = {}
"""Where the compiled kernel keeps each CoNLL 2018 metric's and exact match's counts
(``RowCounter.count``'s AT); empty without the accelerator."""
try:
    from parsebench.metrics.dependency._deps_fast import BREAKDOWNS as _BREAKDOWNS
    from parsebench.metrics.dependency._deps_fast import ROW_AT as ROW_AT
    from parsebench.metrics.dependency._deps_fast import RowCounter as _RowCounter
except ImportError:  # built without a C compiler: count_stretch counts every sentence
    _RowCounter = None

_StretchCounter: type[StretchCounter] | None
try:
    from parsebench.metrics.dependency._stretch_fast import StretchCounter as _StretchCounter
except ImportError:  # built without a C compiler: count_stretch counts every stretch
    _StretchCounter = None

ACCELERATED = _RowCounter is not None
"""Whether `eval deps` counts sentences with the same rows in C (same counts either way)."""
TEXT_ACCELERATED = _StretchCounter is not None
"""Whether `eval deps` counts stretches aligned by text in C (same counts either way)."""

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
    elas: F1Count = field(default_factory=F1Count)
    """The enhanced graph's edges (DEPS), labels whole
    (:mod:`parsebench.metrics.dependency.enhanced`)."""
    eulas: F1Count = field(default_factory=F1Count)
    """The same, labels' universal parts only."""
    line: int = 0
    sent_id: str | None = None
    groups: dict[tuple[str, str], BucketCounts] = field(default_factory=dict)
    """Counts of this sentence's arcs in each breakdown group (breakdown, group): the
    keyed statistics of the breakdowns."""
    KEEP = ("line", "sent_id", "groups")

    def group(self, f: str, name: str) -> BucketCounts:
        got = self.groups.get((f, name))
        if got is None:
            got = self.groups[(f, name)] = BucketCounts()
        return got


class Stretch(NamedTuple):
    """What :func:`count_stretch` counts in one stretch of both files."""

    per_sentence: list[SentenceCounts]
    """Each gold sentence's counts, in order."""
    confusion: Counter[tuple[str, str]] | None
    """(gold label, system label) of the aligned words, when a confusion table is asked for."""
    breakdowns: dict[str, dict[str, BucketCounts]]
    """Every breakdown's groups, counted over the stretch."""


def row_counter(select: Sequence[Selection], fields: Sequence[str],
                labels: Callable[[str], str] | None, punct: bool, confusion: str | None,
                pairs: Counter[tuple[str, str]] | None,
                breakdowns: dict[str, dict[str, BucketCounts]] | None = None
                ) -> RowCounter | None:
    """The compiled kernel for a run with these settings: its ``count(gold, system,
    out)`` is count_stretch of one gold and one system sentence with the same rows
    (False where it cannot say: count_stretch must then), its counts summed in C until
    ``flush(total)``; with CONFUSION it counts the pairs into PAIRS, with FIELDS their
    groups into BREAKDOWNS (field -> group, as score_deps keeps them) as it counts. None
    without the accelerator, with selections, or with a breakdown the rows do not say
    (category, word, depth...: count_stretch counts those)."""
    if _RowCounter is None or select or not all(f in _BREAKDOWNS for f in fields):
        return None
    return _RowCounter(punct, labels, confusion, pairs, fields,
                       [f in ROOT_ARC_FIELDS for f in fields], breakdowns, BucketCounts)


def stretch_counter(select: Sequence[Selection], fields: Sequence[str],
                    labels: Callable[[str], str] | None, punct: bool, confusion: str | None,
                    pairs: Counter[tuple[str, str]] | None) -> StretchCounter | None:
    """The compiled kernel of stretches aligned by text, for a run with these settings:
    its ``count(gold, system, out)`` is count_stretch of a stretch whose words are not
    row for row (None where it cannot say: count_stretch must then), returning the
    alignment ELAS and EULAS need; its counts summed in C until ``flush(total)``. None
    without the accelerator, or with selections or breakdowns."""
    if _StretchCounter is None or select or fields:
        return None
    return _StretchCounter(punct, labels, confusion, pairs)


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


def count_stretch(gold: Sequence[Sentence], system: Sequence[Sentence],
                  select: Sequence[Selection], fields: Sequence[str],
                  labels: Callable[[str], str] | None,
                  gold_path: str, system_path: str, punct: bool = True,
                  confusion: str | None = None, rows: bool | None = None,
                  sys2gold: list[int] | None = None,
                  enhanced: EnhancedCounter | None = None) -> Stretch:
    """The counts of one stretch of both files, per gold sentence. ROWS: whether they
    align row by row, when the caller knows it already. SYS2GOLD: the gold word of
    each system word (-1: none), when the caller aligned them another way (``--align
    words``); Tokens and Sentences are then the caller's to count. ENHANCED counts
    ELAS and EULAS."""
    canon = labels or None  # None: labels compared as written
    spans = sys2gold is None
    if sys2gold is not None:
        rows = False
    elif rows is None:
        rows = by_rows(gold, system)
    if sys2gold is None:
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
    if spans:
        _span_counts(gold, system, per_sentence, rows)
    g_func = _functional_children(gold, g_heads)
    s_func = _functional_children(system, s_heads)
    breakdowns: dict[str, dict[str, BucketCounts]] = {f: {} for f in fields}
    pairs: Counter[tuple[str, str]] | None = Counter() if confusion else None
    root_arcs = any(f in ROOT_ARC_FIELDS for f in fields)

    def bucket(f: str, name: str) -> BucketCounts:
        got = breakdowns[f]
        b = got.get(name)
        if b is None:
            b = got[name] = BucketCounts()
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

    if enhanced is not None:
        enhanced.stretch(gold, system, sys2gold, g_sentence_of_sys,
                         [c.elas for c in per_sentence], [c.eulas for c in per_sentence])
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
    return Stretch(per_sentence, pairs, breakdowns)


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
            if not s.multiword and plain_text(s.forms):  # a word a token, each its own text
                for form in s.forms:
                    out.append((pos, pos + len(form), k))
                    pos += len(form)
                continue
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

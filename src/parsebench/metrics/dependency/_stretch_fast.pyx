# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""eval deps on a parser's own tokenization at C speed: a stretch of gold and system
sentences that spell the same text in other tokens (or other sentence splits), their
words aligned on characters as the CoNLL 2018 script aligns them, scored without
--select or --by.

stretch.count_stretch stays the reference (with tokenization.align_words and
stretch._span_counts) and handles everything else: selections, breakdowns, texts that
differ (it names where), and stretches this module does not recognize (columns that
are not lists of one length, values that are not strings, heads that are not ints
inside their sentence). ``StretchCounter.count`` returns None for those and the
caller then calls count_stretch, so the fast path can only ever agree with it; the
tests hold the two to each other on UDPipe's raw-text parse of EWT test and on random
retokenizations. Why by hand: where a parser tokenizes the text itself, a third of
the words fall in stretches of other tokens (issue 49), and count_stretch's loops
over them were two thirds of scoring the files in memory.

The count layout is _deps_fast's (RowCounter): Lin's two PRs, then the F1Counts, a
row of NCOUNTS a gold sentence.
"""

from cpython.long cimport PyLong_AsLongAndOverflow, PyLong_CheckExact
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from cpython.object cimport Py_EQ, PyObject_RichCompareBool
from libc.string cimport memset

from parsebench.metrics.dependency.conll18 import (
    CONTENT_DEPRELS,
    FUNCTIONAL_DEPRELS,
    base,
    universal_feats,
)

cdef extern from "Python.h":
    bint PyUnicode_IS_ASCII(object)
    Py_ssize_t PyUnicode_FindChar(object, Py_UCS4, Py_ssize_t, Py_ssize_t, int) except -2

include "_count_layout.pxi"




cdef object _strip_spaces = None


cdef object stripped(object form):
    """tokenization.strip_spaces: FORM without its space separators (ASCII text without
    " " is its own; any other, tokenization's own function, imported on first use:
    tokenization imports this module)."""
    global _strip_spaces
    if PyUnicode_IS_ASCII(form) and PyUnicode_FindChar(form, 32, 0, len(<str>form), 1) < 0:
        return form
    if _strip_spaces is None:
        from parsebench.metrics.dependency.tokenization import strip_spaces
        _strip_spaces = strip_spaces
    return _strip_spaces(form)


cdef class _Side:
    """One side of a stretch as C reads it: its columns flat (global word indices), each
    word's character span (tokenization.word_spans), its tokens' spans
    (stretch._span_counts) and its heads as global word indices."""

    cdef Py_ssize_t n_words, n_tokens, n_sents
    cdef list upos, xpos, feats, lemmas, deprels
    cdef list lower_src
    """What each word's lower-cased form is made of (word_spans' forms, lowered only
    where a multiword span asks for them)."""
    cdef int* mem
    cdef int* start
    cdef int* end
    cdef int* multi
    cdef int* sent
    cdef int* heads
    cdef int* codes
    cdef int* fstarts
    cdef int* fchildren
    cdef int* tstart
    cdef int* tend
    cdef int* tsent
    cdef int* sstart
    cdef int* send
    cdef list pieces

    def __dealloc__(self):
        PyMem_Free(self.mem)

    cdef int read(self, list sentences) except -1:
        """Read SENTENCES; 0 where they are not what this module scores."""
        cdef Py_ssize_t k, i, n, w = 0, t = 0, b, a, last, offset
        cdef Py_ssize_t total = 0
        cdef long v
        cdef int overflow = 0
        self.n_sents = len(sentences)
        for s in sentences:
            forms = s.forms
            if type(forms) is not list or not forms:
                return 0
            total += len(<list>forms)
        self.n_words = total
        self.mem = <int*>PyMem_Malloc((12 * total + 3 * self.n_sents + 2) * sizeof(int))
        if not self.mem:
            raise MemoryError()
        self.start = self.mem
        self.end = self.start + total
        self.multi = self.end + total
        self.sent = self.multi + total
        self.heads = self.sent + total
        self.codes = self.heads + total
        self.fchildren = self.codes + total
        self.tstart = self.fchildren + total
        self.tend = self.tstart + total
        self.tsent = self.tend + total
        self.fstarts = self.tsent + total  # total + 1
        self.sstart = self.fstarts + total + 1
        self.send = self.sstart + self.n_sents
        self.upos, self.xpos, self.feats, self.lemmas, self.deprels = [], [], [], [], []
        self.lower_src = []
        self.pieces = []
        cdef list lower_src = self.lower_src
        cdef list pieces = self.pieces
        cdef list forms_l, heads_l
        cdef int pos = 0
        for k in range(self.n_sents):
            s = sentences[k]
            forms_l = s.forms
            n = len(forms_l)
            heads_l = s.heads
            for col in (heads_l, s.upos, s.xpos, s.feats, s.lemmas, s.deprels):
                if type(col) is not list or len(<list>col) != n:
                    return 0
            self.upos.extend(s.upos)
            self.xpos.extend(s.xpos)
            self.feats.extend(s.feats)
            self.lemmas.extend(s.lemmas)
            self.deprels.extend(s.deprels)
            offset = w
            for i in range(n):
                h = heads_l[i]
                if not PyLong_CheckExact(h):
                    return 0
                v = PyLong_AsLongAndOverflow(h, &overflow)
                if overflow or v < -1 or v > n:
                    return 0
                self.heads[offset + i] = ROOT if v == 0 else MISSING if v == -1 \
                    else <int>(offset + v - 1)
            mw = s.multiword
            if type(mw) is not list:
                return 0
            ranges = {a: (b, cols[1]) for a, b, cols in mw} if mw else None
            i = 0
            self.sstart[k] = pos
            while i < n:
                got = ranges.get(i) if ranges is not None else None
                if got is not None:
                    b = got[0]
                    if b < i or b >= n:
                        return 0
                    form = got[1]
                    if type(form) is not str:
                        return 0
                    token = stripped(form)
                    for a in range(i, b + 1):
                        self.start[w] = pos
                        self.end[w] = pos + <int>len(<str>token)
                        self.multi[w] = 1
                        self.sent[w] = <int>k
                        lower_src.append(forms_l[a])
                        w += 1
                else:
                    form = forms_l[i]
                    if type(form) is not str:
                        return 0
                    token = stripped(form)
                    self.start[w] = pos
                    self.end[w] = pos + <int>len(<str>token)
                    self.multi[w] = 0
                    self.sent[w] = <int>k
                    lower_src.append(token)
                    w += 1
                    b = i
                self.tstart[t] = pos
                pos += <int>len(<str>token)
                self.tend[t] = pos
                self.tsent[t] = <int>k
                t += 1
                pieces.append(token)
                i = b + 1
            self.send[k] = pos
        self.n_tokens = t
        for i in range(total):
            self.codes[i] = code_of(self.deprels[i])
        functional_children(self.heads, self.codes, total, self.fstarts, self.fchildren)
        return 1



cdef inline bint beyond(_Side w, Py_ssize_t i, int span_end) noexcept:
    if i >= w.n_words:
        return True
    if w.multi[i]:
        return w.start[i] >= span_end
    return w.end[i] > span_end


cdef inline int extend(_Side w, Py_ssize_t i, int span_end) noexcept:
    if w.multi[i] and w.end[i] > span_end:
        return w.end[i]
    return span_end


cdef int lcs_align(_Side g, _Side s, Py_ssize_t gs, Py_ssize_t ge, Py_ssize_t ss,
                   Py_ssize_t se, int* sys2gold) except -1:
    """tokenization._lcs_align: the words of a multiword span by a longest common
    subsequence of their lower-cased forms."""
    cdef Py_ssize_t n = ge - gs, m = se - ss, a, b, width = m + 1
    cdef int x
    g_low = [g.lower_src[gs + a].lower() for a in range(n)]
    s_low = [s.lower_src[ss + b].lower() for b in range(m)]
    cdef char* same = <char*>PyMem_Malloc(n * m + 1)
    cdef int* table = <int*>PyMem_Malloc((n + 1) * width * sizeof(int))
    if not same or not table:
        PyMem_Free(same)
        PyMem_Free(table)
        raise MemoryError()
    try:
        for a in range(n):
            for b in range(m):
                same[a * m + b] = eq(g_low[a], s_low[b])
        memset(table, 0, (n + 1) * width * sizeof(int))
        for a in range(n - 1, -1, -1):
            for b in range(m - 1, -1, -1):
                if same[a * m + b]:
                    x = 1 + table[(a + 1) * width + b + 1]
                    if table[(a + 1) * width + b] > x:
                        x = table[(a + 1) * width + b]
                    if table[a * width + b + 1] > x:
                        x = table[a * width + b + 1]
                else:
                    x = table[(a + 1) * width + b]
                    if table[a * width + b + 1] > x:
                        x = table[a * width + b + 1]
                table[a * width + b] = x
        a = b = 0
        while a < n and b < m:
            if same[a * m + b]:
                sys2gold[ss + b] = <int>(gs + a)
                a += 1
                b += 1
            elif table[a * width + b] == table[(a + 1) * width + b]:
                a += 1
            else:
                b += 1
    finally:
        PyMem_Free(same)
        PyMem_Free(table)
    return 0


cdef int align(_Side g, _Side s, int* sys2gold) except -1:
    """tokenization._align: for each system word its gold word, or -1."""
    cdef Py_ssize_t gi = 0, si = 0, ng = g.n_words, ns = s.n_words, gs, ss
    cdef int span_end
    for si in range(ns):
        sys2gold[si] = -1
    si = 0
    cdef Py_ssize_t gi0, si0
    while gi < ng and si < ns:
        if g.multi[gi] or s.multi[si]:
            gi0, si0 = gi, si
            # tokenization._multiword_span
            if g.multi[gi]:
                span_end = g.end[gi]
                if not s.multi[si] and s.start[si] < g.start[gi]:
                    si += 1
            else:
                span_end = s.end[si]
                if g.start[gi] < s.start[si]:
                    gi += 1
            gs, ss = gi, si
            while not beyond(g, gi, span_end) or not beyond(s, si, span_end):
                if gi < ng and (si >= ns or g.start[gi] <= s.start[si]):
                    span_end = extend(g, gi, span_end)
                    gi += 1
                else:
                    span_end = extend(s, si, span_end)
                    si += 1
            if gi > gs and si > ss:
                lcs_align(g, s, gs, gi, ss, si, sys2gold)
            elif gi == gi0 and si == si0:  # a multiword token of no text: none for it
                if g.multi[gi] and g.start[gi] == g.end[gi]:
                    gi += 1
                else:
                    si += 1
        elif g.start[gi] == s.start[si] and g.end[gi] == s.end[si]:
            sys2gold[si] = <int>gi
            gi += 1
            si += 1
        elif g.start[gi] <= s.start[si]:
            gi += 1
        else:
            si += 1
    return 0


cdef void span_counts(_Side g, _Side s, long long* c) noexcept:
    """stretch._span_counts of words aligned by text: a system token (sentence) is right
    where a gold one has its start and end; it counts in the gold sentence where it
    starts (that of the last gold token starting at or before it)."""
    cdef Py_ssize_t t, p = 0, q = 0, k
    cdef int a
    for t in range(g.n_tokens):
        c[g.tsent[t] * NCOUNTS + TOKENS + GOLD] += 1
    for k in range(g.n_sents):
        c[k * NCOUNTS + SENTENCES + GOLD] += 1
    # the spans come in order of their starts, so the last gold token (sentence)
    # starting at or before one is found by walking forward
    for t in range(s.n_tokens):
        a = s.tstart[t]
        while p + 1 < g.n_tokens and g.tstart[p + 1] <= a:
            p += 1
        c[g.tsent[p] * NCOUNTS + TOKENS + SYSTEM] += 1
        if g.tstart[p] == a and g.tend[p] == s.tend[t]:
            c[g.tsent[p] * NCOUNTS + TOKENS + CORRECT] += 1
    p = 0
    for k in range(s.n_sents):
        a = s.sstart[k]
        while p + 1 < g.n_tokens and g.tstart[p + 1] <= a:
            p += 1
        while q + 1 < g.n_sents and g.sstart[q + 1] <= a:
            q += 1
        c[g.tsent[p] * NCOUNTS + SENTENCES + SYSTEM] += 1
        if g.sstart[q] == a and g.send[q] == s.send[k]:
            c[q * NCOUNTS + SENTENCES + CORRECT] += 1


cdef class StretchCounter:
    """count_stretch of one stretch aligned by text, for a run without --select and
    --by; LABELS: the label map (--labels), or None; CONFUSION: "deprel" or "upos" to
    count (gold, system) pairs of the aligned words into ``pairs``."""

    cdef bint punct
    cdef object canon
    cdef int by_deprel
    cdef readonly object pairs
    cdef long long totals[NCOUNTS]

    def __cinit__(self, bint punct=True, object labels=None, object confusion=None,
                  object pairs=None):
        self.punct = punct
        self.canon = labels or None  # as count_stretch: None compares labels as written
        self.by_deprel = -1
        if confusion is not None:
            self.by_deprel = 1 if confusion == "deprel" else 0
        if confusion is not None and pairs is None:
            raise ValueError("a confusion table needs PAIRS (a Counter)")
        self.pairs = pairs
        memset(self.totals, 0, sizeof(self.totals))

    def count(self, list gold, list system, list out=None):
        """Count the stretch GOLD against SYSTEM (lists of Sentences that spell the same
        text, not row for row) into the totals and into OUT (a fresh SentenceCounts a
        gold sentence, or None); returns (the gold word of each system word or -1, the
        gold sentence each system word counts in), for ELAS and EULAS. None, counting
        nothing, where the stretch is not one this kernel scores (count_stretch must)."""
        if not gold or not system or (out is not None and len(out) != len(gold)):
            return None
        if len(CODES) > CACHE_LIMIT:  # between stretches: no id of this one is stale
            CODES.clear()
            BASE_IDS.clear()
        cdef _Side g = _Side()
        cdef _Side s = _Side()
        if not g.read(gold) or not s.read(system):
            return None
        if "".join(g.pieces) != "".join(s.pieces):
            return None  # count_stretch says where the texts differ
        cdef Py_ssize_t ng = g.n_words, ns = s.n_words, nk = g.n_sents, k, m
        cdef int* ints = <int*>PyMem_Malloc((2 * ns + ng + 1) * sizeof(int))
        cdef long long* c = <long long*>PyMem_Malloc(nk * NCOUNTS * sizeof(long long))
        if not ints or not c:
            PyMem_Free(ints)
            PyMem_Free(c)
            raise MemoryError()
        cdef int* sys2gold = ints
        cdef int* sentence_of = sys2gold + ns
        cdef int* gold2sys = sentence_of + ns
        try:
            memset(c, 0, nk * NCOUNTS * sizeof(long long))
            align(g, s, sys2gold)
            self._count(g, s, sys2gold, gold2sys, sentence_of, c)
            span_counts(g, s, c)
            for k in range(nk):
                for m in range(NCOUNTS):
                    self.totals[m] += c[k * NCOUNTS + m]
                if out is not None:
                    add_into(out[k], c + k * NCOUNTS)
            return ([sys2gold[j] for j in range(ns)],
                    [sentence_of[j] for j in range(ns)])
        finally:
            PyMem_Free(ints)
            PyMem_Free(c)

    cdef int _count(self, _Side g, _Side s, int* sys2gold, int* gold2sys, int* sentence_of,
                    long long* counts) except -1:
        """count_stretch's two loops: the key side (recall, the gold totals) and the answer
        side (precision, the system totals), then exact match."""
        cdef Py_ssize_t ng = g.n_words, ns = s.n_words, gi, j, k, kk, pending, ga, gb, sa, sb
        cdef int gh, sh, gc, gw, sw, last
        cdef bint punct = self.punct, scored, content, head_ok, label_ok, ok
        cdef bint upos_ok, xpos_ok, feats_ok, lemma_ok
        cdef long long* c
        cdef object canon = self.canon
        cdef object pairs = self.pairs
        cdef list g_upos = g.upos, g_xpos = g.xpos, g_feats = g.feats, g_lemmas = g.lemmas
        cdef list g_deprels = g.deprels, s_upos = s.upos, s_xpos = s.xpos, s_feats = s.feats
        cdef list s_lemmas = s.lemmas, s_deprels = s.deprels
        cdef long long n_scored, n_content, n_aligned, n_aligned_scored, n_aligned_content
        cdef long long c_upos, c_xpos, c_feats, c_all, c_lemma
        cdef long long c_uas, c_las, c_clas, c_mlas, c_blex, lin_key, lin_found, lin_labeled
        cdef long long n_words
        cdef Py_ssize_t m
        for gi in range(ng):
            gold2sys[gi] = -1
        for j in range(ns):
            if sys2gold[j] >= 0:
                gold2sys[sys2gold[j]] = <int>j
        # the gold sentence each system word counts in: its aligned word's, else the
        # next one's (stretch._gold_sentence_of_system_words)
        last = 0
        pending = 0
        for j in range(ns):
            gi = sys2gold[j]
            if gi >= 0:
                last = g.sent[gi]
                for kk in range(j - pending, j + 1):
                    sentence_of[kk] = last
                pending = 0
            else:
                pending += 1
        for kk in range(ns - pending, ns):
            sentence_of[kk] = last

        # Key side: recall and the gold totals, a gold sentence at a time.
        gi = 0
        for k in range(g.n_sents):
            c = counts + k * NCOUNTS
            n_scored = n_content = n_aligned = n_aligned_scored = n_aligned_content = 0
            c_upos = c_xpos = c_feats = c_all = c_lemma = 0
            c_uas = c_las = c_clas = c_mlas = c_blex = 0
            lin_key = lin_found = lin_labeled = n_words = 0
            while gi < ng and g.sent[gi] == k:
                n_words += 1
                gh = g.heads[gi]
                gc = g.codes[gi]
                g_upos_i = g_upos[gi]
                scored = punct or not eq(g_upos_i, PUNCT)
                content = scored and gc & 2
                n_scored += scored
                n_content += content
                j = gold2sys[gi]
                head_ok = label_ok = False
                if j >= 0:
                    n_aligned += 1
                    n_aligned_scored += scored
                    n_aligned_content += content
                    upos_ok = eq(g_upos_i, s_upos[j])
                    xpos_ok = eq(g_xpos[gi], s_xpos[j])
                    feats_ok = eq(g_feats[gi], s_feats[j]) or \
                        eq(universal_feats(g_feats[gi]), universal_feats(s_feats[j]))
                    g_lemma = g_lemmas[gi]
                    lemma_ok = eq(g_lemma, UNDERSCORE) or eq(g_lemma, s_lemmas[j])
                    c_upos += upos_ok
                    c_xpos += xpos_ok
                    c_feats += feats_ok
                    c_all += upos_ok and xpos_ok and feats_ok
                    c_lemma += lemma_ok
                    if self.by_deprel >= 0:
                        key = (g_deprels[gi], s_deprels[j]) if self.by_deprel \
                            else (g_upos_i, s_upos[j])
                        pairs[key] += 1
                    if gh != MISSING:
                        sh = s.heads[j]  # the system's head as a gold word
                        if sh >= 0:
                            sh = sys2gold[sh]
                            if sh < 0:
                                sh = NOT_ALIGNED
                        if sh == gh:
                            head_ok = True
                            label_ok = eq(s_deprels[j], g_deprels[gi]) if canon is None \
                                else eq(canon(s_deprels[j]), canon(g_deprels[gi]))
                            if scored:
                                c_uas += 1
                                if s.codes[j] >> 2 == gc >> 2:
                                    c_las += 1
                                    if content:
                                        c_clas += 1
                                        c_blex += lemma_ok
                                        if upos_ok and feats_ok:
                                            # the functional children: the same words
                                            # (aligned), base relations, UPOS, features
                                            ga, gb = g.fstarts[gi], g.fstarts[gi + 1]
                                            sa, sb = s.fstarts[j], s.fstarts[j + 1]
                                            ok = gb - ga == sb - sa
                                            kk = 0
                                            while ok and kk < gb - ga:
                                                gw = g.fchildren[ga + kk]
                                                sw = s.fchildren[sa + kk]
                                                ok = sys2gold[sw] == gw \
                                                    and g.codes[gw] >> 2 == s.codes[sw] >> 2 \
                                                    and eq(g_upos[gw], s_upos[sw]) \
                                                    and eq(universal_feats(g_feats[gw]),
                                                           universal_feats(s_feats[sw]))
                                                kk += 1
                                            c_mlas += ok
                # Lin's: the root word and words without a head have no dependency
                if gh >= 0 and scored:
                    lin_key += 1
                    lin_found += head_ok
                    lin_labeled += head_ok and label_ok
                gi += 1
            c[UNL + KEY] = c[LAB + KEY] = lin_key
            c[UNL + KEY_FOUND] = lin_found
            c[LAB + KEY_FOUND] = lin_labeled
            c[WORDS + CORRECT] = n_aligned
            for m in range(WORDS, LEMMAS + 1, 4):
                c[m + GOLD] = n_words
            for m in range(UPOS, LEMMAS + 1, 4):
                c[m + ALIGNED] = n_aligned
            c[UPOS + CORRECT] = c_upos
            c[XPOS + CORRECT] = c_xpos
            c[UFEATS + CORRECT] = c_feats
            c[ALLTAGS + CORRECT] = c_all
            c[LEMMAS + CORRECT] = c_lemma
            for m in range(UAS, LAS + 1, 4):
                c[m + GOLD] = n_scored
                c[m + ALIGNED] = n_aligned_scored
            c[UAS + CORRECT] = c_uas
            c[LAS + CORRECT] = c_las
            for m in range(CLAS, BLEX + 1, 4):
                c[m + GOLD] = n_content
                c[m + ALIGNED] = n_aligned_content
            c[CLAS + CORRECT] = c_clas
            c[MLAS + CORRECT] = c_mlas
            c[BLEX + CORRECT] = c_blex

        # Answer side: precision and the system totals, each system word in the gold
        # sentence sentence_of names.
        cdef bint found, labeled
        for j in range(ns):
            c = counts + sentence_of[j] * NCOUNTS
            c[WORDS + SYSTEM] += 1
            gi = sys2gold[j]
            if not punct and eq(g_upos[gi] if gi >= 0 else s_upos[j], PUNCT):
                continue
            c[UAS + SYSTEM] += 1
            if s.codes[j] & 2:
                c[CLAS + SYSTEM] += 1
            sh = s.heads[j]
            if sh < 0:  # no head, or the root: no dependency
                continue
            found = labeled = False
            if gi >= 0:
                gh = g.heads[gi]
                if gh >= 0 and sys2gold[sh] == gh:
                    found = True
                    labeled = eq(s_deprels[j], g_deprels[gi]) if canon is None \
                        else eq(canon(s_deprels[j]), canon(g_deprels[gi]))
            c[UNL + ANSWER] += 1
            c[UNL + ANSWER_FOUND] += found
            c[LAB + ANSWER_FOUND] += found and labeled
        for k in range(g.n_sents):
            c = counts + k * NCOUNTS
            c[LAB + ANSWER] = c[UNL + ANSWER]
            for m in range(UPOS, LEMMAS + 1, 4):
                c[m + SYSTEM] = c[WORDS + SYSTEM]
            c[LAS + SYSTEM] = c[UAS + SYSTEM]
            c[MLAS + SYSTEM] = c[BLEX + SYSTEM] = c[CLAS + SYSTEM]
            # exact match: every gold word aligned and attached right
            c[UCM + CORRECT] = c[UAS + CORRECT] == c[UAS + GOLD]
            c[LCM + CORRECT] = c[LAS + CORRECT] == c[LAS + GOLD]
            c[UCM + GOLD] = c[UCM + SYSTEM] = c[LCM + GOLD] = c[LCM + SYSTEM] = 1
        return 0

    def flush(self, total):
        """Add the counts of every stretch counted so far to TOTAL (a SentenceCounts),
        and start again from zero."""
        add_into(total, self.totals)
        memset(self.totals, 0, sizeof(self.totals))


def text_length(s):
    """tokenization.text_length: the characters of a Sentence's text without spaces (a
    multiword token's own form for its words); -1 where a form is not a string or a
    range is not inside the sentence (text_length then counts, or fails)."""
    return text_length_of(s)


cdef Py_ssize_t text_length_of(object s) except -2:
    forms = s.forms
    mw = s.multiword
    if type(forms) is not list or type(mw) is not list:
        return -1
    cdef list fs = forms
    cdef Py_ssize_t total = 0, i = 0, n = len(fs), b
    if not mw:
        for f in fs:
            if type(f) is not str:
                return -1
            total += len(<str>stripped(f))
        return total
    ranges = {a: (b, cols[1]) for a, b, cols in mw}
    while i < n:
        got = ranges.get(i)
        if got is not None:
            b = got[0]
            form = got[1]
            if b < i or type(form) is not str:
                return -1
            i = b + 1
        else:
            form = fs[i]
            if type(form) is not str:
                return -1
            i += 1
        total += len(<str>stripped(form))
    return total


cdef int _add_attr(object obj, str name, long long v) except -1:
    if v:
        setattr(obj, name, getattr(obj, name) + v)
    return 0


cdef object side_edges(list sentences, dict parsed, object split, int* counts,
                       int* starts, list edges, long long* skip):
    """Each word's DEPS edges of one side, as enhanced.sentence_edges reads them with
    every enhancement kept: their number in COUNTS, the edges in EDGES (None for no
    edge), each sentence's first word in STARTS, the edges to empty nodes left out
    added to SKIP; False where a value is malformed, not a string or has a head past its
    sentence (enhanced.py then says what is wrong)."""
    cdef Py_ssize_t k, i, n, w = 0
    cdef list deps
    for k in range(len(sentences)):
        s = sentences[k]
        deps = s.deps
        n = len(s.forms)
        if type(deps) is not list or len(deps) != n:
            return False
        starts[k] = <int>w
        for _, cols in s.empty_nodes:
            value = cols[8]
            if value != "_" and value != "":
                skip[0] += value.count("|") + 1
        for i in range(n):
            d = deps[i]
            if type(d) is not str:
                return False
            if len(<str>d) == 0 or eq(d, UNDERSCORE):
                counts[w] = 0
                edges.append(None)
                w += 1
                continue
            got = parsed.get(d)
            if got is None:
                got = split(d)
                if got is None:
                    return False
            if <long long>got[2] > n:
                return False
            skip[0] += <long long>got[1]
            counts[w] = <int>len(<tuple>got[0])
            edges.append(got[0] if counts[w] else None)
            w += 1
    return True


def deps_stretch(list gold, list system, list sys2gold, list sentence_of, list elas,
                 list eulas, dict parsed, object split, object matched):
    """enhanced.EnhancedCounter.stretch with every enhancement kept and empty nodes
    left out (no --enhancements, no --no-empty-nodes): each gold sentence's ELAS and
    EULAS counts added to ELAS and EULAS, the gold's and the system's edges to empty
    nodes left out returned; None, adding nothing, where a DEPS value needs a closer
    look (enhanced.py then reads the stretch). PARSED, SPLIT and MATCHED are
    enhanced's cache of split values, its split and its matching of two words' edges."""
    cdef Py_ssize_t ng = 0, ns = len(sys2gold), nk = len(gold), j, gi, k, start
    cdef long long g_skip = 0, s_skip = 0
    for x in gold:
        ng += len(x.forms)
    if len(elas) != nk or len(eulas) != nk or len(sentence_of) != ns:
        return None
    cdef int* mem = <int*>PyMem_Malloc((2 * ng + ns + nk + len(system) + 2) * sizeof(int))
    cdef long long* sums = <long long*>PyMem_Malloc((4 * nk + 1) * sizeof(long long))
    if not mem or not sums:
        PyMem_Free(mem)
        PyMem_Free(sums)
        raise MemoryError()
    cdef int* g_count = mem
    cdef int* s_count = g_count + ng
    cdef int* g_start = s_count + ns
    cdef int* s_start = g_start + nk
    cdef int* g_sent = s_start + len(system)
    cdef list g_edges = [], s_edges = []
    cdef int h, x_h
    try:
        if not side_edges(gold, parsed, split, g_count, g_start, g_edges, &g_skip) \
                or len(g_edges) != ng:
            return None
        if not side_edges(system, parsed, split, s_count, s_start, s_edges, &s_skip) \
                or len(s_edges) != ns:
            return None
        memset(sums, 0, 4 * nk * sizeof(long long))
        k = 0
        for gi in range(ng):
            while k + 1 < nk and g_start[k + 1] <= gi:
                k += 1
            g_sent[gi] = <int>k
            sums[4 * k] += g_count[gi]
        for j in range(ns):
            k = sentence_of[j]
            sums[4 * k + 1] += s_count[j]
        # the matched edges of aligned words with edges on both sides, heads as gold
        # words (enhanced.stretch's global indices)
        start = 0
        for j in range(ns):
            while start + 1 < len(system) and s_start[start + 1] <= j:
                start += 1
            gi = sys2gold[j]
            if gi < 0 or not s_count[j] or not g_count[gi]:
                continue
            k = g_sent[gi]
            g_mapped = tuple([(-1 if e[0] == 0 else g_start[k] + <int>e[0] - 1, e[1])
                              for e in <tuple>g_edges[gi]])
            s_mapped = []
            for e in <tuple>s_edges[j]:
                h = <int>e[0]
                if h == 0:
                    x_h = ROOT
                else:
                    x_h = sys2gold[s_start[start] + h - 1]
                    if x_h < 0:
                        x_h = NOT_ALIGNED
                s_mapped.append((x_h, e[1]))
            a, b = matched(g_mapped, tuple(s_mapped))
            sums[4 * k + 2] += <long long>a
            sums[4 * k + 3] += <long long>b
        for k in range(nk):
            _add_attr(elas[k], "correct", sums[4 * k + 2])
            _add_attr(eulas[k], "correct", sums[4 * k + 3])
            for obj in (elas[k], eulas[k]):
                _add_attr(obj, "gold", sums[4 * k])
                _add_attr(obj, "system", sums[4 * k + 1])
        return g_skip, s_skip
    finally:
        PyMem_Free(mem)
        PyMem_Free(sums)


cdef object rows_at_a_glance(list gold, list system):
    """evaluate._rows_at_a_glance: by_rows of a stretch where the answer is quick."""
    if len(gold) != len(system):
        return False
    if len(gold) == 1:
        g = gold[0]
        s = system[0]
        if not g.multiword and not s.multiword and g.forms == s.forms:
            return True
    return None


def text_chunks(gold, system, g_next, s_next, text_length):
    """evaluate._Chunks._by_text with the text lengths counted in C: (gold, system,
    whether they align row by row, None: not known) of every stretch, cut where both
    files end a sentence at the same character; TEXT_LENGTH counts what this module
    does not (tokenization.text_length)."""
    cdef list g_buf = [], s_buf = []
    cdef Py_ssize_t g_chars = 0, s_chars = 0, n
    while True:
        if g_buf and s_buf and g_chars == s_chars:
            yield g_buf, s_buf, rows_at_a_glance(g_buf, s_buf)
            g_buf = []
            s_buf = []
            g_chars = s_chars = 0
        if g_next is not None and (s_next is None or g_chars <= s_chars):
            g_buf.append(g_next)
            n = text_length_of(g_next)
            g_chars += n if n >= 0 else text_length(g_next)
            g_next = next(gold, None)
        elif s_next is not None:
            s_buf.append(s_next)
            n = text_length_of(s_next)
            s_chars += n if n >= 0 else text_length(s_next)
            s_next = next(system, None)
        else:
            if g_buf or s_buf:
                yield g_buf, s_buf, None
            return

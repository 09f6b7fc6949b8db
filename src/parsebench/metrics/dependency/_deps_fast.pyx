# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""eval deps' common case at C speed: a gold sentence and a system sentence with the same
rows (the same words, or a parse of misspelled text), scored without --select, and with
breakdowns (--by, a run's where-errors-fall) by relation, tag, arc length, sentence
length or direction.

stretch.count_stretch stays the reference and handles everything else: words
aligned by text, selections, breakdowns, and sentences this module does not
recognize (columns that are not lists of one length, heads that are not ints
inside the sentence). ``RowCounter.count`` returns False for those and stretch.py
then calls count_stretch, so the fast path can only ever agree with it; the
tests check that it does on perturbed treebanks and random trees. Why by hand:
the per-word loops of count_stretch were 85% of scoring a corpus in memory, and
the issue asks for a quarter of the CoNLL 2018 script's time.

A sentence's counts go to a C array: added to the run's totals (``flush``
adds them to a SentenceCounts at the end) and, when the caller keeps each
sentence's counts, to the SentenceCounts it passes. Columns are compared as
Python objects (strings compare at C speed), relations through a cache of their
base relation (an id), and whether it is a content or a functional relation.
"""

from cpython.long cimport (
    PyLong_AsLongAndOverflow,
    PyLong_AsLongLongAndOverflow,
    PyLong_CheckExact,
)
from cpython.mem cimport PyMem_Free, PyMem_Realloc
from cpython.object cimport Py_EQ, PyObject_RichCompareBool
from libc.string cimport memset

from parsebench.metrics.dependency.conll18 import (
    CONTENT_DEPRELS,
    FUNCTIONAL_DEPRELS,
    base,
    universal_feats,
)

include "_count_layout.pxi"



cdef inline bint same_feats(object a, object b) except -1:
    """UFeats' comparison: the same FEATS, or the same universal features."""
    return eq(a, b) or eq(universal_feats(a), universal_feats(b))


cdef bint column_ok(object col, Py_ssize_t n):
    return type(col) is list and len(<list>col) == n


cdef bint read_heads(list heads, int* out, Py_ssize_t n) except -1:
    """count_stretch's heads of one sentence (0-based; ROOT, MISSING); False where a head
    is not an int (bool included) from -1 (no head) to N."""
    cdef Py_ssize_t i
    cdef long v
    cdef int overflow = 0
    for i in range(n):
        h = heads[i]
        if not PyLong_CheckExact(h):
            return False
        v = PyLong_AsLongAndOverflow(h, &overflow)
        if overflow or v < -1 or v > n:
            return False
        out[i] = ROOT if v == 0 else MISSING if v == -1 else <int>(v - 1)
    return True




cdef enum:
    F_DEPREL = 0
    F_UPOS = 1
    F_ARC = 2
    F_SENTENCE = 3
    F_DIRECTION = 4

BREAKDOWNS = {"deprel": F_DEPREL, "upos": F_UPOS, "arc-length": F_ARC,
              "sentence-length": F_SENTENCE, "direction": F_DIRECTION}
"""The breakdowns this kernel counts (lin_scorer.bucket_value's, from a sentence's rows)."""
ROW_AT = {name: TOKENS + 4 * k for k, name in enumerate(F1S)}
"""Where each CoNLL 2018 metric's and exact match's counts sit in a sentence's array."""
cdef tuple ARCS = ("0", "1", "2", "3-6", "3-6", "3-6", "3-6")
cdef object ROOT_NAME = "root", LEFT = "left", RIGHT = "right", LONG_ARC = "7+"


cdef object sentence_group(Py_ssize_t n):
    """bucket_value's sentence-length group of a sentence of N words."""
    cdef Py_ssize_t low = (n - 1) // 10 * 10 + 1
    return "41+" if low > 40 else f"{low}-{low + 9}"


cdef class RowCounter:
    """count_stretch of one pair of sentences with the same rows, for a run without
    --select; LABELS: the label map (--labels), or None; CONFUSION: "deprel" or "upos"
    to count (gold, system) pairs of the aligned words into ``pairs``. FIELDS: the
    breakdowns (each in BREAKDOWNS; ROOT_ARCS[k]: whether field k counts the root's arc),
    counted into BREAKDOWNS_OUT (field -> group -> a BUCKET) and each sentence's groups
    in count_stretch's order."""

    cdef bint punct
    cdef object canon
    cdef int by_deprel
    cdef readonly object pairs
    cdef long long totals[NCOUNTS]
    cdef int* buf
    cdef Py_ssize_t cap
    cdef list fields
    cdef int kinds[5]
    cdef bint root_field[5]
    cdef int nfields
    cdef bint root_arcs
    cdef dict breakdowns
    cdef object bucket
    cdef long long* groups
    cdef Py_ssize_t groups_cap

    def __cinit__(self, bint punct=True, object labels=None, object confusion=None,
                  object pairs=None, fields=(), root_arcs=(), dict breakdowns_out=None,
                  object bucket=None):
        self.fields = list(fields)
        self.nfields = len(self.fields)
        if self.nfields > 5 or len(root_arcs) != self.nfields or (
                self.nfields and (breakdowns_out is None or bucket is None)):
            raise ValueError("fields need their root_arcs, breakdowns_out and bucket")
        cdef int k
        for k in range(self.nfields):
            self.kinds[k] = BREAKDOWNS[self.fields[k]]
            self.root_field[k] = bool(root_arcs[k])
        self.root_arcs = any(root_arcs)
        self.breakdowns = breakdowns_out
        self.bucket = bucket
        self.groups = NULL
        self.groups_cap = 0
        self.punct = punct
        self.canon = labels or None  # as count_stretch: None compares labels as written
        self.by_deprel = -1
        if confusion is not None:
            self.by_deprel = 1 if confusion == "deprel" else 0
        if confusion is not None and pairs is None:
            raise ValueError("a confusion table needs PAIRS (a Counter)")
        self.pairs = pairs
        memset(self.totals, 0, sizeof(self.totals))
        self.buf = NULL
        self.cap = 0

    def __dealloc__(self):
        PyMem_Free(self.buf)
        PyMem_Free(self.groups)

    cdef long long* reserve_groups(self, Py_ssize_t slots) except NULL:
        """Zeroed room for SLOTS groups' 8 counts (Lin's two PRs) each."""
        cdef long long* got
        if slots > self.groups_cap:
            slots = max(slots, 2 * self.groups_cap)
            got = <long long*>PyMem_Realloc(self.groups, slots * 8 * sizeof(long long))
            if not got:
                raise MemoryError()
            self.groups = got
            self.groups_cap = slots
        memset(self.groups, 0, self.groups_cap * 8 * sizeof(long long))
        return self.groups

    cdef object group_of(self, int k, list deprels, list upos, int h, Py_ssize_t i,
                         object length):
        """bucket_value of field K for word I (0-based) of a sentence, its head H
        (0-based, ROOT), its sentence-length group LENGTH."""
        cdef int kind = self.kinds[k], dist
        if kind == F_DEPREL:
            return deprels[i]
        if kind == F_UPOS:
            return upos[i]
        if kind == F_SENTENCE:
            return length
        if h == ROOT:
            return ROOT_NAME
        if kind == F_DIRECTION:
            return LEFT if h < i else RIGHT
        dist = h - <int>i if h > i else <int>i - h
        return ARCS[dist] if dist <= 6 else LONG_ARC

    cdef Py_ssize_t slot(self, list seen, list order, int k, object name) except -1:
        """The slot of group NAME of field K in this sentence, taken when new: slots in
        the order count_stretch first meets the groups."""
        cdef dict mine = seen[k]
        got = mine.get(name)
        if got is None:
            got = mine[name] = len(order)
            order.append((self.fields[k], name))
        return <Py_ssize_t>got

    cdef int count_arc(self, list seen, list order, long long* counts, list deprels,
                       list upos, int h, Py_ssize_t i, object length, int side, bint found,
                       bint labeled) except -1:
        """Word I's arc (its head H) into its group of each field: Lin's key side's
        counts (SIDE KEY: the gold's arc, found in the system's) or the answer side's
        (ANSWER: the system's, found in the gold's), unlabeled and labeled."""
        cdef int k
        cdef long long* at
        for k in range(self.nfields):
            if h == ROOT and not self.root_field[k]:
                continue
            at = counts + 8 * self.slot(seen, order, k,
                                        self.group_of(k, deprels, upos, h, i, length))
            at[UNL + side] += 1
            at[UNL + side + 1] += found  # KEY_FOUND, ANSWER_FOUND
            at[LAB + side] += 1
            at[LAB + side + 1] += labeled
        return 0

    cdef int add_groups(self, list order, const long long* counts, object out) except -1:
        """Each group's counts into the breakdowns and OUT's groups, in ORDER."""
        cdef Py_ssize_t k
        for k in range(len(order)):
            f, name = order[k]
            got = self.breakdowns[f]
            b = got.get(name)
            if b is None:
                b = got[name] = self.bucket()
            add_prs(b, counts + 8 * k)
            if out is not None:
                add_prs(out.group(f, name), counts + 8 * k)
        return 0

    cdef int* reserve(self, Py_ssize_t need) except NULL:
        cdef int* got
        if need > self.cap:
            need = max(need, 2 * self.cap)
            got = <int*>PyMem_Realloc(self.buf, need * sizeof(int))
            if not got:
                raise MemoryError()
            self.buf = got
            self.cap = need
        return self.buf

    def count(self, gold, system, out=None, rows=None, Py_ssize_t at=0):
        """Count GOLD against SYSTEM (Sentences of the same rows) into the totals and into
        OUT (a fresh SentenceCounts, or None); with ROWS (an array of doubles), append
        the sentence's (correct, gold, system) of the metric at AT (ROW_AT). False,
        counting nothing, when the pair is not one this kernel scores (count_stretch
        must then)."""
        cdef Py_ssize_t n = len(gold.forms)
        cdef Py_ssize_t i, j, k, ga, gb, sa, sb
        cdef int gh_i, sh_j, gc, sc, gw, sw
        cdef bint punct = self.punct, scored, content, head_ok, label_ok, found
        cdef bint upos_ok, xpos_ok, feats_ok, lemma_ok, ok
        cdef long long c[NCOUNTS]
        cdef long long n_scored = 0, n_content = 0
        cdef long long c_upos = 0, c_xpos = 0, c_feats = 0, c_all = 0, c_lemma = 0
        cdef long long c_uas = 0, c_las = 0, c_clas = 0, c_mlas = 0, c_blex = 0
        cdef long long lin_key = 0, lin_found = 0, lin_labeled = 0
        cdef long long s_scored = 0, s_content = 0, a_answer = 0, a_found = 0, a_labeled = 0
        cdef long long n_tok
        cdef object canon = self.canon
        cdef object pairs = self.pairs
        cdef int nf = self.nfields
        cdef list seen = None, order = None
        cdef long long* g_counts = NULL
        cdef bint labeled_found

        cdef list g_heads, g_deprels, g_upos, g_xpos, g_feats, g_lemmas
        cdef list s_heads, s_deprels, s_upos, s_xpos, s_feats, s_lemmas
        columns = (gold.heads, gold.deprels, gold.upos, gold.xpos, gold.feats, gold.lemmas,
                   system.heads, system.deprels, system.upos, system.xpos, system.feats,
                   system.lemmas, system.forms)
        for col in columns:
            if not column_ok(col, n):
                return False
        (g_heads, g_deprels, g_upos, g_xpos, g_feats, g_lemmas,
         s_heads, s_deprels, s_upos, s_xpos, s_feats, s_lemmas, _) = columns
        mw = gold.multiword
        if type(mw) is not list:
            return False
        n_tok = n
        for a, b, _ in mw:
            n_tok -= b - a

        if len(CODES) > CACHE_LIMIT:  # between sentences: no id of this one is stale
            CODES.clear()
            BASE_IDS.clear()
        cdef int* gh = self.reserve(9 * n + 2)
        cdef int* sh = gh + n
        cdef int* gcode = sh + n
        cdef int* scode = gcode + n
        cdef int* gpunct = scode + n
        cdef int* g_starts = gpunct + n
        cdef int* g_children = g_starts + n + 1
        cdef int* s_starts = g_children + n
        cdef int* s_children = s_starts + n + 1
        if not read_heads(g_heads, gh, n) or not read_heads(s_heads, sh, n):
            return False
        for i in range(n):
            gcode[i] = code_of(g_deprels[i])
            scode[i] = code_of(s_deprels[i])
            gpunct[i] = not punct and not (g_upos[i] != PUNCT)
        functional_children(gh, gcode, n, g_starts, g_children)
        functional_children(sh, scode, n, s_starts, s_children)
        if nf:
            seen = [{} for _ in range(nf)]
            order = []
            length = sentence_group(n)
            g_counts = self.reserve_groups(2 * n * nf + 1)

        # Key side: recall and the gold totals; every word is aligned with its row.
        for i in range(n):
            gh_i = gh[i]
            gc = gcode[i]
            scored = not gpunct[i]
            content = scored and gc & 2
            n_scored += scored
            n_content += content
            g_upos_i = g_upos[i]
            upos_ok = eq(g_upos_i, s_upos[i])
            xpos_ok = eq(g_xpos[i], s_xpos[i])
            feats_ok = same_feats(g_feats[i], s_feats[i])
            g_lemma = g_lemmas[i]
            lemma_ok = eq(g_lemma, UNDERSCORE) or eq(g_lemma, s_lemmas[i])
            c_upos += upos_ok
            c_xpos += xpos_ok
            c_feats += feats_ok
            c_all += upos_ok and xpos_ok and feats_ok
            c_lemma += lemma_ok
            if self.by_deprel >= 0:
                key = (g_deprels[i], s_deprels[i]) if self.by_deprel else (g_upos_i, s_upos[i])
                pairs[key] += 1
            head_ok = label_ok = False
            if gh_i != MISSING and sh[i] == gh_i:
                head_ok = True
                label_ok = eq(s_deprels[i], g_deprels[i]) if canon is None \
                    else eq(canon(s_deprels[i]), canon(g_deprels[i]))
                if scored:
                    c_uas += 1
                    if scode[i] >> 2 == gc >> 2:
                        c_las += 1
                        if content:
                            c_clas += 1
                            c_blex += lemma_ok
                            if upos_ok and feats_ok:
                                ga, gb = g_starts[i], g_starts[i + 1]
                                sa, sb = s_starts[i], s_starts[i + 1]
                                ok = gb - ga == sb - sa
                                k = 0
                                while ok and k < gb - ga:
                                    gw = g_children[ga + k]
                                    sw = s_children[sa + k]
                                    ok = gw == sw and gcode[gw] >> 2 == scode[sw] >> 2 \
                                        and eq(g_upos[gw], s_upos[sw]) \
                                        and same_feats(g_feats[gw], s_feats[sw])
                                    k += 1
                                c_mlas += ok
            # Lin's: the root word and words without a head have no dependency
            if gh_i >= 0 and scored:
                lin_key += 1
                lin_found += head_ok
                lin_labeled += head_ok and label_ok
            # the breakdowns count the root's arc where a field groups it (arc length...)
            if nf and scored and gh_i != MISSING and (gh_i != ROOT or self.root_arcs):
                self.count_arc(seen, order, g_counts, g_deprels, g_upos, gh_i, i, length, KEY,
                               head_ok, head_ok and label_ok)

        # Answer side: precision and the system totals.
        for j in range(n):
            if gpunct[j]:
                continue
            s_scored += 1
            s_content += (scode[j] & 2) != 0
            sh_j = sh[j]
            if nf and sh_j != MISSING and (sh_j != ROOT or self.root_arcs):
                found = gh[j] == sh_j  # the root too: both heads ROOT
                labeled_found = found and (
                    eq(s_deprels[j], g_deprels[j]) if canon is None
                    else eq(canon(s_deprels[j]), canon(g_deprels[j])))
                self.count_arc(seen, order, g_counts, s_deprels, s_upos, sh_j, j, length,
                               ANSWER, found, labeled_found)
            if sh_j < 0:  # no head, or the root: no dependency
                continue
            found = gh[j] == sh_j
            a_answer += 1
            a_found += found
            if found:
                a_labeled += eq(s_deprels[j], g_deprels[j]) if canon is None \
                    else eq(canon(s_deprels[j]), canon(g_deprels[j]))

        memset(c, 0, sizeof(c))
        c[UNL + KEY] = c[LAB + KEY] = lin_key
        c[UNL + KEY_FOUND] = lin_found
        c[LAB + KEY_FOUND] = lin_labeled
        c[UNL + ANSWER] = c[LAB + ANSWER] = a_answer
        c[UNL + ANSWER_FOUND] = a_found
        c[LAB + ANSWER_FOUND] = a_labeled
        c[TOKENS + CORRECT] = c[TOKENS + GOLD] = c[TOKENS + SYSTEM] = n_tok
        c[SENTENCES + CORRECT] = c[SENTENCES + GOLD] = c[SENTENCES + SYSTEM] = 1
        c[WORDS + CORRECT] = c[WORDS + GOLD] = c[WORDS + SYSTEM] = n
        for k in range(UPOS, LEMMAS + 1, 4):
            c[k + GOLD] = c[k + SYSTEM] = c[k + ALIGNED] = n
        c[UPOS + CORRECT] = c_upos
        c[XPOS + CORRECT] = c_xpos
        c[UFEATS + CORRECT] = c_feats
        c[ALLTAGS + CORRECT] = c_all
        c[LEMMAS + CORRECT] = c_lemma
        for k in range(UAS, LAS + 1, 4):
            c[k + GOLD] = c[k + ALIGNED] = n_scored
            c[k + SYSTEM] = s_scored
        c[UAS + CORRECT] = c_uas
        c[LAS + CORRECT] = c_las
        for k in range(CLAS, BLEX + 1, 4):
            c[k + GOLD] = c[k + ALIGNED] = n_content
            c[k + SYSTEM] = s_content
        c[CLAS + CORRECT] = c_clas
        c[MLAS + CORRECT] = c_mlas
        c[BLEX + CORRECT] = c_blex
        c[UCM + CORRECT] = c_uas == n_scored  # exact match: every scored head right
        c[LCM + CORRECT] = c_las == n_scored
        c[UCM + GOLD] = c[UCM + SYSTEM] = c[LCM + GOLD] = c[LCM + SYSTEM] = 1
        for k in range(NCOUNTS):
            self.totals[k] += c[k]
        if out is not None:
            add_into(out, c)
        if rows is not None:
            rows.extend((c[at + CORRECT], c[at + GOLD], c[at + SYSTEM]))
        if nf:
            self.add_groups(order, g_counts, out)
        return True

    def flush(self, total):
        """Add the counts of every sentence counted so far to TOTAL (a SentenceCounts),
        and start again from zero."""
        add_into(total, self.totals)
        memset(self.totals, 0, sizeof(self.totals))


def tree_faults(heads):
    """TreeCheck's look at one sentence's heads: 1 if some word has no head, 2 if there
    is not exactly one root (and no word without a head), 4 if the heads have a cycle;
    -1 where HEADS is not a list of ints (tree_checks.py then looks itself)."""
    if type(heads) is not list:
        return -1
    cdef list hs = heads
    cdef Py_ssize_t n = len(hs), i, roots = 0, missing = 0
    cdef long v
    cdef int overflow = 0, out = 0
    cdef int* up = <int*>PyMem_Realloc(NULL, (n + 1) * sizeof(int))
    cdef int* seen
    cdef int node, walk
    if not up:
        raise MemoryError()
    try:
        for i in range(n):
            h = hs[i]
            if not PyLong_CheckExact(h):
                return -1
            v = PyLong_AsLongAndOverflow(h, &overflow)
            if overflow:
                v = n + 1  # out of range: ends a path, as in _has_cycle
            roots += v == 0
            missing += v == -1
            up[i] = <int>(v - 1) if 0 < v <= n else -1  # 0-based head; -1 ends a path
        if missing:
            out |= 1
        elif roots != 1:
            out |= 2
        # a cycle: walk up from each word not yet seen, marking the walk with its
        # start; meeting a mark of this walk is a loop, one of an earlier walk is not
        seen = <int*>PyMem_Realloc(NULL, (n + 1) * sizeof(int))
        if not seen:
            raise MemoryError()
        try:
            for i in range(n):
                seen[i] = -1
            for i in range(n):
                if seen[i] >= 0:
                    continue
                node = <int>i
                walk = <int>i
                while node >= 0 and seen[node] < 0:
                    seen[node] = walk
                    node = up[node]
                if node >= 0 and seen[node] == walk:
                    out |= 4
                    break
        finally:
            PyMem_Free(seen)
        return out
    finally:
        PyMem_Free(up)


def head_summary(heads):
    """Validity's look at one sentence's heads: (words without a head, roots, whether a
    head is outside the sentence, whether the heads have a cycle); None where HEADS is
    not a list of ints (validity.py then looks itself)."""
    if type(heads) is not list:
        return None
    cdef list hs = heads
    cdef Py_ssize_t n = len(hs), i, roots = 0, missing = 0
    cdef long v
    cdef int overflow = 0
    cdef bint outside = False, cycle = False
    cdef int* up = <int*>PyMem_Realloc(NULL, (2 * n + 1) * sizeof(int))
    cdef int* seen = up + n
    cdef int node, walk
    if not up:
        raise MemoryError()
    try:
        for i in range(n):
            h = hs[i]
            if not PyLong_CheckExact(h):
                return None
            v = PyLong_AsLongAndOverflow(h, &overflow)
            if overflow:
                v = n + 1 if overflow > 0 else -2  # outside, either way
            roots += v == 0
            missing += v == -1
            outside |= v > n or v < -1
            up[i] = <int>(v - 1) if 0 < v <= n else -1  # 0-based head; -1 ends a path
            seen[i] = -1
        for i in range(n):  # as tree_faults: a walk up that meets its own mark loops
            if seen[i] >= 0:
                continue
            node = <int>i
            walk = <int>i
            while node >= 0 and seen[node] < 0:
                seen[node] = walk
                node = up[node]
            if node >= 0 and seen[node] == walk:
                cycle = True
                break
        return missing, roots, outside, cycle
    finally:
        PyMem_Free(up)


cdef bint digits(str text, Py_ssize_t a, Py_ssize_t b):
    """Whether TEXT[a:b] is ASCII digits, at least one."""
    cdef Py_ssize_t i
    cdef Py_UCS4 ch
    if b <= a:
        return False
    for i in range(a, b):
        ch = text[i]
        if ch < u'0' or ch > u'9':
            return False
    return True


cdef bint learn(str deps, dict edges, dict skipped, dict top) except -1:
    """enhanced._learn of one DEPS value, the common cases: False, learning nothing,
    where the value is malformed, its heads too long for C or the caches full (then
    enhanced.py learns it, or says what is wrong)."""
    cdef Py_ssize_t n = len(deps), a = 0, b, colon, dot, i
    cdef long long count = 0, skip = 0, highest = 0, h
    if len(edges) >= 100_000:
        return False
    while a <= n:
        b = deps.find("|", a)
        if b < 0:
            b = n
        colon = deps.find(":", a, b)
        if colon < 0 or colon + 1 >= b:  # no label
            return False
        dot = deps.find(".", a, colon)
        if dot >= 0:
            if not (digits(deps, a, dot) and digits(deps, dot + 1, colon)):
                return False
            skip += 1
        else:
            if not digits(deps, a, colon) or colon - a > 15:
                return False
            h = 0
            for i in range(a, colon):
                h = h * 10 + (<long long>deps[i] - 48)
            if h > highest:
                highest = h
            count += 1
        a = b + 1
    edges[deps] = count
    skipped[deps] = skip
    top[deps] = highest
    return True


cdef long long highest_head(object value) except? -1:
    """A value's highest head as C reads it: a head too large for C is past any
    sentence."""
    cdef int overflow = 0
    cdef long long v = PyLong_AsLongLongAndOverflow(value, &overflow)
    return 1LL << 62 if overflow else v


cdef long long known_edges(object value, dict edges, dict skipped, dict top) except -2:
    """VALUE's number of edges, learnt first where it is new; -1 where it cannot be
    learnt here (enhanced.py then learns it)."""
    got = edges.get(value)
    if got is None:
        if type(value) is not str or not learn(<str>value, edges, skipped, top):
            return -1
        got = edges[value]
    return <long long>got


def deps_rows(list gold, list system, Py_ssize_t gold_words, Py_ssize_t system_words,
              dict edges, dict skipped, dict top):
    """ELAS and EULAS of two sentences with the same rows, DEPS as written (enhanced.py's
    _rows_as_written): (gold edges, system edges, ELAS's and EULAS's correct edges,
    gold's and system's edges to empty nodes, the rows left to enhanced.py's _matched:
    DEPS that differ, both with edges, not one plain edge each). EDGES, SKIPPED and TOP are what is known of each DEPS value (its
    edges, its edges to empty nodes, its highest head), learnt here where a value is
    new; None where one is not learnt (enhanced.py then learns it), False where a head
    points past the sentence (enhanced.py then looks closer)."""
    cdef Py_ssize_t n = len(gold), i
    cdef long long g_n = 0, s_n = 0, same = 0, universal = 0, g_skip = 0, s_skip = 0, ge, se
    cdef int m
    cdef long long g_top = 0, s_top = 0, t
    cdef list differ = []
    if len(system) != n:
        return False
    for i in range(n):
        g = gold[i]
        s = system[i]
        ge = known_edges(g, edges, skipped, top)
        if ge < 0:
            return None
        g_skip += <long long>skipped[g]
        t = highest_head(top[g])
        if t > g_top:
            g_top = t
        g_n += ge
        if s is g or eq(s, g):
            same += ge
            s_n += ge
            s_skip += <long long>skipped[g]
            if t > s_top:
                s_top = t
            continue
        se = known_edges(s, edges, skipped, top)
        if se < 0:
            return None
        s_skip += <long long>skipped[s]
        t = highest_head(top[s])
        if t > s_top:
            s_top = t
        s_n += se
        if ge and se:
            m = one_edge_match(g, s) if ge == 1 and se == 1 else -1
            if m < 0:
                differ.append(i)
            else:
                same += m == 2
                universal += m >= 1
    if g_top > gold_words or s_top > system_words:
        return False
    return g_n, s_n, same, same + universal, g_skip, s_skip, differ


cdef int one_edge_match(str gold, str system) except -2:
    """enhanced._matched of two DEPS values of one edge each, ``HEAD:LABEL`` with no
    empty node and no path: 2 the same edge, 1 the same head and universal relation, 0
    neither; -1 for anything else (enhanced.py then matches them)."""
    cdef Py_ssize_t gc = gold.find(":"), sc = system.find(":")
    cdef Py_ssize_t gu, su
    if gc < 1 or sc < 1 or gc > 15 or sc > 15 or "|" in gold or "|" in system \
            or "." in gold[:gc] or "." in system[:sc] or ">" in gold or ">" in system:
        return -1
    if head_value(gold, gc) != head_value(system, sc):
        return 0
    if gold[gc + 1:] == system[sc + 1:]:
        return 2
    gu = gold.find(":", gc + 1)
    su = system.find(":", sc + 1)
    if gu < 0:
        gu = len(gold)
    if su < 0:
        su = len(system)
    return 1 if gold[gc + 1:gu] == system[sc + 1:su] else 0


cdef long long head_value(str text, Py_ssize_t end):
    """The number TEXT[:end] (ASCII digits: the value was learnt as a DEPS value)."""
    cdef long long v = 0
    cdef Py_ssize_t i
    for i in range(end):
        v = v * 10 + (<long long>text[i] - 48)
    return v

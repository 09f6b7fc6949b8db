# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""EVALB's common case at C speed: one sentence pair that parses and whose words agree.

evalb.py stays the reference and handles everything else: malformed trees,
length and word mismatches (with their messages and the quote fix), skipped
lines. ``Scorer.score`` returns None for those, and evalb.py then scores the
pair itself, so the fast path can only ever agree with it; the tests check
that it does on random trees and parameters. Why by hand: no library scores
brackets with EVALB's semantics, and the pure-Python scorer is 10x slower than
EVALB's C (issue 2 asks for 3x).

Works on UTF-8 bytes, as EVALB does: C's isspace() is ASCII-only, so byte and
character tokenization agree.
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc, PyMem_Realloc
from cpython.unicode cimport PyUnicode_AsUTF8AndSize
from libc.string cimport memcmp


cdef struct Span:
    const char* p
    Py_ssize_t n


cdef struct Side:
    Span* words
    Span* tags
    Span* labels
    int* starts
    int* ends
    int* stack
    int* keep
    Py_ssize_t cap
    int nwords
    int nbrackets
    int nkeep
    int length


cdef inline bint is_space(char c) noexcept nogil:
    return c == b' ' or c == b'\t' or c == b'\n' or c == b'\r' or c == b'\f' or c == b'\v'


cdef inline bint is_special(char c) noexcept nogil:
    return c == b'(' or c == b')' or is_space(c)


cdef inline bint same(Span a, Span b) noexcept nogil:
    return a.n == b.n and memcmp(a.p, b.p, a.n) == 0


cdef class _Labels:
    """A small set of strings (or of ordered pairs) as UTF-8 spans."""

    cdef list owned
    cdef Span* first
    cdef Span* second
    cdef int n

    def __cinit__(self, list firsts, list seconds):
        self.owned = [s.encode("utf-8") for s in firsts + seconds]
        self.n = len(firsts)
        self.first = <Span*>PyMem_Malloc((self.n + 1) * sizeof(Span))
        self.second = <Span*>PyMem_Malloc((self.n + 1) * sizeof(Span))
        if not self.first or not self.second:
            raise MemoryError()
        cdef int i
        cdef bytes b
        for i in range(len(self.owned)):
            b = self.owned[i]
            if i < self.n:
                self.first[i].p = b
                self.first[i].n = len(b)
            else:
                self.second[i - self.n].p = b
                self.second[i - self.n].n = len(b)

    def __dealloc__(self):
        PyMem_Free(self.first)
        PyMem_Free(self.second)

    cdef bint has(self, Span s) noexcept:
        cdef int i
        for i in range(self.n):
            if same(self.first[i], s):
                return True
        return False

    cdef bint has_pair(self, Span a, Span b) noexcept:
        cdef int i
        for i in range(self.n):
            if same(self.first[i], a) and same(self.second[i], b):
                return True
        return False


cdef void* resized(void* p, Py_ssize_t size) except NULL:
    """PyMem_Realloc that raises; P stays valid (and owned by the caller) if it fails."""
    cdef void* q = PyMem_Realloc(p, size)
    if not q:
        raise MemoryError()
    return q


cdef int grow(Side* s, Py_ssize_t need) except -1:
    """Room for NEED brackets and words (each takes at least one byte of the text)."""
    if need <= s.cap:
        return 0
    need = max(need, 2 * s.cap)
    s.words = <Span*>resized(s.words, need * sizeof(Span))
    s.tags = <Span*>resized(s.tags, need * sizeof(Span))
    s.labels = <Span*>resized(s.labels, need * sizeof(Span))
    s.starts = <int*>resized(s.starts, need * sizeof(int))
    s.ends = <int*>resized(s.ends, need * sizeof(int))
    s.stack = <int*>resized(s.stack, need * sizeof(int))
    s.keep = <int*>resized(s.keep, need * sizeof(int))
    s.cap = need
    return 0


cdef void release(Side* s) noexcept:
    PyMem_Free(s.words)
    PyMem_Free(s.tags)
    PyMem_Free(s.labels)
    PyMem_Free(s.starts)
    PyMem_Free(s.ends)
    PyMem_Free(s.stack)
    PyMem_Free(s.keep)


cdef class Scorer:
    """evalb._Rules compiled for the fast path; ``score`` is evalb.score_sentence's twin."""

    cdef _Labels delete, delete_len, deleted_brackets, eq_labels, eq_words
    cdef bint labeled
    cdef Side gold, test
    cdef int used_cap
    cdef char* used

    def __init__(self, delete, delete_len, deleted_brackets, eq_labels, eq_words, labeled):
        self.delete = _Labels(list(delete), [])
        self.delete_len = _Labels(list(delete_len), [])
        self.deleted_brackets = _Labels(list(deleted_brackets), [])
        self.eq_labels = _Labels([a for a, _ in eq_labels], [b for _, b in eq_labels])
        self.eq_words = _Labels([a for a, _ in eq_words], [b for _, b in eq_words])
        self.labeled = labeled

    def __dealloc__(self):
        release(&self.gold)
        release(&self.test)
        PyMem_Free(self.used)

    cdef bint parse(self, const char* s, Py_ssize_t n, Side* out) except -1:
        """evalb._parse: False for a malformed tree (evalb.py then says what is wrong)."""
        grow(out, n + 1)
        cdef Py_ssize_t i = 0, j, k, word_at
        cdef int depth = 0, nw = 0, nb = 0, length = 0
        cdef Span label
        cdef char c
        while i < n:
            c = s[i]
            if is_space(c):
                i += 1
            elif c == b'(':
                j = i + 1
                while j < n and not is_special(s[j]):
                    j += 1
                label.p = s + i + 1
                label.n = j - i - 1
                k = j
                while k < n and is_space(s[k]):
                    k += 1
                if k > j:
                    word_at = k
                    while k < n and not is_special(s[k]):
                        k += 1
                    if k < n and s[k] == b')':  # (TAG word): a terminal
                        if not self.delete_len.has(label):
                            length += 1
                        if not self.delete.has(label):
                            out.words[nw].p = s + word_at
                            out.words[nw].n = k - word_at
                            out.tags[nw] = label
                            nw += 1
                        i = k + 1
                        continue
                out.stack[depth] = nb
                depth += 1
                out.starts[nb] = nw
                out.ends[nb] = -1
                out.labels[nb] = label
                nb += 1
                i = j
            elif c == b')':
                if depth == 0:
                    return False
                depth -= 1
                out.ends[out.stack[depth]] = nw
                i += 1
            else:
                return False
        if depth:
            return False
        out.nwords = nw
        out.nbrackets = nb
        out.length = length
        return True

    cdef void kept_brackets(self, Side* side) noexcept:
        """evalb._kept_brackets: non-empty brackets whose label, cut at - or =, is kept."""
        cdef int k, m = 0
        cdef Py_ssize_t x
        cdef Span label
        for k in range(side.nbrackets):
            if side.starts[k] == side.ends[k]:
                continue
            label = side.labels[k]
            for x in range(label.n):
                if label.p[x] == b'-' or label.p[x] == b'=':
                    label.n = x
                    break
            side.labels[k] = label
            if not self.deleted_brackets.has(label):
                side.keep[m] = k
                m += 1
        side.nkeep = m

    def score(self, str gold_text, str test_text):
        """(length, status, matched, gold, test, crossing, words, correct_tags), or None
        where evalb.py must decide (a malformed tree, an error sentence)."""
        cdef Py_ssize_t gn, tn
        cdef const char* gs
        cdef const char* ts
        try:
            gs = PyUnicode_AsUTF8AndSize(gold_text, &gn)
            ts = PyUnicode_AsUTF8AndSize(test_text, &tn)
        except UnicodeEncodeError:  # lone surrogates: not from a file, but evalb.py copes
            return None
        cdef Side* g = &self.gold
        cdef Side* t = &self.test
        if not self.parse(gs, gn, g) or not self.parse(ts, tn, t):
            return None
        if t.nwords == 0:
            return (g.length, 2, 0, 0, 0, 0, 0, 0)
        if g.nwords != t.nwords:
            return None
        cdef int i, j, a, b, matched = 0, crossing = 0, correct = 0
        for i in range(g.nwords):
            if not same(g.words[i], t.words[i]) and \
                    not self.eq_words.has_pair(g.words[i], t.words[i]):
                return None
        self.kept_brackets(g)
        self.kept_brackets(t)
        if t.nkeep > self.used_cap:
            PyMem_Free(self.used)
            self.used = <char*>PyMem_Malloc(t.nkeep * 2)
            if not self.used:
                self.used_cap = 0
                raise MemoryError()
            self.used_cap = t.nkeep * 2
        for j in range(t.nkeep):
            self.used[j] = 0
        # Greedy multiset matching in EVALB's order: each gold bracket takes the
        # first unused test bracket with its span and an equal label.
        for i in range(g.nkeep):
            a = g.keep[i]
            for j in range(t.nkeep):
                b = t.keep[j]
                if self.used[j] or g.starts[a] != t.starts[b] or g.ends[a] != t.ends[b]:
                    continue
                if not self.labeled or same(g.labels[a], t.labels[b]) or \
                        self.eq_labels.has_pair(g.labels[a], t.labels[b]):
                    self.used[j] = 1
                    matched += 1
                    break
        cdef int s, e, gs_, ge
        cdef bint crosses, equal
        for j in range(t.nkeep):
            b = t.keep[j]
            s = t.starts[b]
            e = t.ends[b]
            crosses = equal = False
            for i in range(g.nkeep):
                a = g.keep[i]
                gs_ = g.starts[a]
                ge = g.ends[a]
                if gs_ == s and ge == e:
                    equal = True
                    break
                if (gs_ < s < ge < e) or (s < gs_ < e < ge):
                    crosses = True
            if crosses and not equal:
                crossing += 1
        for i in range(g.nwords):
            if same(g.tags[i], t.tags[i]) or self.eq_labels.has_pair(g.tags[i], t.tags[i]):
                correct += 1
        return (g.length, 0, matched, g.nkeep, t.nkeep, crossing, g.nwords, correct)

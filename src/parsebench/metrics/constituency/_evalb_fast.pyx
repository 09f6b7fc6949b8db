# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""EVALB at C speed: the common case of a sentence pair, a whole file's rows, the
report's rows as text, the totals, the rows for JSON.

evalb.py stays the reference and handles everything else: malformed trees,
length and word mismatches (with their messages and the quote fix), skipped
lines. ``Scorer.score_all`` leaves those sentences to evalb.py, which scores
them itself, so the fast path can only ever agree with it; the tests check
that it does on random trees and parameters. Why by hand: no library scores
brackets with EVALB's semantics, and the command must be faster than EVALB's
C, start-up included: a Python object a sentence (the line's str, its row, its
report line) was most of its time.

Works on UTF-8 bytes, as EVALB does: C's isspace() is ASCII-only, so byte and
character tokenization agree. ``Lines`` holds a file's bytes and where each line
is, so a line becomes a str only when evalb.py needs it.
"""

cimport cython
from cpython.mem cimport (
    PyMem_Free,
    PyMem_Malloc,
    PyMem_RawFree,
    PyMem_RawMalloc,
    PyMem_RawRealloc,
)
from cpython.unicode cimport PyUnicode_AsUTF8AndSize, PyUnicode_DecodeASCII, PyUnicode_DecodeUTF8
from libc.math cimport frexp, ldexp
from libc.stdio cimport snprintf
from libc.stdint cimport uint32_t, uint64_t
from libc.string cimport memchr, memcpy, memset


cdef enum:
    FIELDS = 8


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


cdef unsigned char KIND[256]
"""1 for C's isspace() (ASCII only), 2 for a bracket: one lookup a byte."""
KIND[<unsigned char>b' '] = KIND[<unsigned char>b'\t'] = KIND[<unsigned char>b'\n'] = 1
KIND[<unsigned char>b'\r'] = KIND[<unsigned char>b'\f'] = KIND[<unsigned char>b'\v'] = 1
KIND[<unsigned char>b'('] = KIND[<unsigned char>b')'] = 2


cdef inline bint is_space(char c) noexcept nogil:
    return KIND[<unsigned char>c] == 1


cdef inline bint is_special(char c) noexcept nogil:
    return KIND[<unsigned char>c] != 0


cdef inline bint same(Span a, Span b) noexcept nogil:
    """A byte loop: labels and words are short, and memcmp's call cost more."""
    if a.n != b.n:
        return False
    cdef Py_ssize_t i
    for i in range(a.n):
        if a.p[i] != b.p[i]:
            return False
    return True


@cython.final
cdef class _Labels:
    """A small set of strings (or of ordered pairs) as UTF-8 spans."""

    cdef list owned
    cdef Span* first
    cdef Span* second
    cdef int n
    cdef bint lead[257]
    """Whether a member starts with this byte (256: the empty string): most lookups
    end here."""

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
                self.lead[<unsigned char>b[0] if len(b) else 256] = True
            else:
                self.second[i - self.n].p = b
                self.second[i - self.n].n = len(b)

    def __dealloc__(self):
        PyMem_Free(self.first)
        PyMem_Free(self.second)

    cdef inline bint has(self, Span s) noexcept nogil:
        if not self.lead[<unsigned char>s.p[0] if s.n else 256]:
            return False
        cdef int i
        for i in range(self.n):
            if same(self.first[i], s):
                return True
        return False

    cdef inline bint has_pair(self, Span a, Span b) noexcept nogil:
        if not self.lead[<unsigned char>a.p[0] if a.n else 256]:
            return False
        cdef int i
        for i in range(self.n):
            if same(self.first[i], a) and same(self.second[i], b):
                return True
        return False


cdef void* resized(void* p, Py_ssize_t size) except NULL nogil:
    """PyMem_RawRealloc that raises; P stays valid (and owned by the caller) if it fails.
    The scorer's memory is the raw allocator's: it scores without the GIL."""
    cdef void* q = PyMem_RawRealloc(p, size)
    if not q:
        with gil:
            raise MemoryError()
    return q


cdef int grow(Side* s, Py_ssize_t need) except -1 nogil:
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


cdef void release(Side* s) noexcept nogil:
    PyMem_RawFree(s.words)
    PyMem_RawFree(s.tags)
    PyMem_RawFree(s.labels)
    PyMem_RawFree(s.starts)
    PyMem_RawFree(s.ends)
    PyMem_RawFree(s.stack)
    PyMem_RawFree(s.keep)


@cython.final
cdef class Scorer:
    """evalb._Rules compiled for the fast path; ``score`` is evalb.score_sentence's twin."""

    cdef _Labels delete, delete_len, deleted_brackets, eq_labels, eq_words
    cdef bint labeled
    cdef Side gold, test
    cdef int used_cap
    cdef char* used
    cdef uint64_t* hkey
    cdef int* hval
    cdef int hbits, bits
    """Two hash tables of spans, each 1 << bits slots (room for 1 << hbits): the test
    brackets' spans (the first of each span's chain, in order) and the gold brackets'."""

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
        PyMem_RawFree(self.used)
        PyMem_RawFree(self.hkey)
        PyMem_RawFree(self.hval)

    cdef int spans_for(self, int n) except -1 nogil:
        """Empty hash tables with room for N spans each (at most half full)."""
        cdef int bits = 4
        while (1 << bits) < 2 * n:
            bits += 1
        if bits > self.hbits:
            PyMem_RawFree(self.hkey)
            PyMem_RawFree(self.hval)
            self.hval = NULL
            self.hbits = 0
            self.hkey = <uint64_t*>PyMem_RawMalloc(2 * sizeof(uint64_t) << bits)
            self.hval = <int*>PyMem_RawMalloc(2 * sizeof(int) << bits)
            if not self.hkey or not self.hval:
                with gil:
                    raise MemoryError()
            self.hbits = bits
        self.bits = bits  # this sentence's: a long sentence once does not slow the rest
        memset(self.hkey, 0, 2 * sizeof(uint64_t) << bits)
        return 0

    cdef inline int slot(self, int table, int start, int end, bint add) noexcept nogil:
        """The slot of span (START, END) in TABLE (0 test, 1 gold), claimed when ADD;
        -1 when it is absent and not ADDed."""
        cdef uint64_t key = (<uint64_t>(start + 1) << 32) | <uint32_t>(end + 1)
        cdef int bits = self.bits, mask = (1 << bits) - 1
        cdef int at = <int>((key * 0x9E3779B97F4A7C15ULL) >> (64 - bits))
        cdef uint64_t* keys = self.hkey + (table << bits)
        while keys[at]:
            if keys[at] == key:
                return (table << bits) + at
            at = (at + 1) & mask
        if not add:
            return -1
        keys[at] = key
        self.hval[(table << bits) + at] = -1
        return (table << bits) + at

    cdef bint parse(self, const char* s, Py_ssize_t n, Side* out) except -1 nogil:
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

    cdef void kept_brackets(self, Side* side) noexcept nogil:
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


    cdef bint score_pair(self, const char* gs, Py_ssize_t gn, const char* ts, Py_ssize_t tn,
                         int* row) except -1 nogil:
        """evalb.score_sentence's counts into ROW (FIELDS), or False where evalb.py
        must decide (a malformed tree, an error sentence)."""
        cdef Side* g = &self.gold
        cdef Side* t = &self.test
        if not self.parse(gs, gn, g) or not self.parse(ts, tn, t):
            return False
        if t.nwords == 0:
            row[0] = g.length
            row[1] = 2
            row[2] = row[3] = row[4] = row[5] = row[6] = row[7] = 0
            return True
        if g.nwords != t.nwords:
            return False
        cdef int i, j, a, b, matched = 0, crossing = 0, correct = 0
        for i in range(g.nwords):
            if not same(g.words[i], t.words[i]) and \
                    not self.eq_words.has_pair(g.words[i], t.words[i]):
                return False
        self.kept_brackets(g)
        self.kept_brackets(t)
        if t.nkeep > self.used_cap:
            PyMem_RawFree(self.used)
            self.used = <char*>PyMem_RawMalloc(t.nkeep * 2)
            if not self.used:
                self.used_cap = 0
                with gil:
                    raise MemoryError()
            self.used_cap = t.nkeep * 2
        for j in range(t.nkeep):
            self.used[j] = 0
        # Greedy multiset matching in EVALB's order: each gold bracket takes the
        # first unused test bracket with its span and an equal label; a test span's
        # brackets are found by hashing, chained in order (t.stack, free after parsing)
        cdef int* chain = t.stack
        cdef int at, s, e
        self.spans_for(max(g.nkeep, t.nkeep))
        for j in range(t.nkeep - 1, -1, -1):
            b = t.keep[j]
            at = self.slot(0, t.starts[b], t.ends[b], True)
            chain[j] = self.hval[at]
            self.hval[at] = j
        for i in range(g.nkeep):
            a = g.keep[i]
            self.slot(1, g.starts[a], g.ends[a], True)
            at = self.slot(0, g.starts[a], g.ends[a], False)
            j = self.hval[at] if at >= 0 else -1
            while j >= 0:
                b = t.keep[j]
                if not self.used[j] and (not self.labeled or same(g.labels[a], t.labels[b])
                                         or self.eq_labels.has_pair(g.labels[a], t.labels[b])):
                    self.used[j] = 1
                    matched += 1
                    break
                j = chain[j]
        # Crossing: a test bracket whose span is a gold span crosses none (gold brackets
        # nest); the others cross when they cross one gold bracket
        for j in range(t.nkeep):
            b = t.keep[j]
            s = t.starts[b]
            e = t.ends[b]
            if self.slot(1, s, e, False) >= 0:
                continue
            for i in range(g.nkeep):
                a = g.keep[i]
                if (g.starts[a] < s < g.ends[a] < e) or (s < g.starts[a] < e < g.ends[a]):
                    crossing += 1
                    break
        for i in range(g.nwords):
            if same(g.tags[i], t.tags[i]) or self.eq_labels.has_pair(g.tags[i], t.tags[i]):
                correct += 1
        row[0] = g.length
        row[1] = 0
        row[2] = matched
        row[3] = g.nkeep
        row[4] = t.nkeep
        row[5] = crossing
        row[6] = g.nwords
        row[7] = correct
        return True

    def score_all(self, gold, test, int[::1] table):
        """Score the first min(len(GOLD), len(TEST)) pairs into TABLE (FIELDS ints a
        row); GOLD and TEST are Lines or lists of str. Returns the indexes left to
        evalb.py, in order."""
        cdef Py_ssize_t n = min(len(gold), len(test)), k, gn, tn
        cdef const char* gs
        cdef const char* ts
        cdef list todo = []
        cdef Lines gl = gold if isinstance(gold, Lines) else None
        cdef Lines tl = test if isinstance(test, Lines) else None
        if table.shape[0] < n * FIELDS:
            raise ValueError("table too small")
        for k in range(n):
            if gl is not None:
                gs = gl.data + gl.starts[k]
                gn = gl.ends[k] - gl.starts[k]
            elif not utf8_of(gold[k], &gs, &gn):
                todo.append(k)
                continue
            if tl is not None:
                ts = tl.data + tl.starts[k]
                tn = tl.ends[k] - tl.starts[k]
            elif not utf8_of(test[k], &ts, &tn):
                todo.append(k)
                continue
            if not self.score_pair(gs, gn, ts, tn, &table[k * FIELDS]):
                todo.append(k)
        return todo

    def score_lines(self, Lines gold, Lines test, int[::1] table, Py_ssize_t lo,
                    Py_ssize_t hi):
        """score_all of lines LO..HI-1 of two Lines, without the GIL: another Scorer
        scores other lines in another thread meanwhile. Returns the indexes left to
        evalb.py, in order."""
        if not 0 <= lo <= hi <= min(gold.n, test.n) or table.shape[0] < hi * FIELDS:
            raise ValueError("lines out of range")
        cdef char* left = <char*>PyMem_Malloc(hi - lo + 1)
        if not left:
            raise MemoryError()
        cdef Py_ssize_t k
        try:
            with nogil:
                for k in range(lo, hi):
                    left[k - lo] = not self.score_pair(
                        gold.data + gold.starts[k], gold.ends[k] - gold.starts[k],
                        test.data + test.starts[k], test.ends[k] - test.starts[k],
                        &table[k * FIELDS])
            return [k for k in range(lo, hi) if left[k - lo]]
        finally:
            PyMem_Free(left)


ROW_FIELDS = FIELDS
"""A row of the table: length, status, matched, gold, test, crossing, words, correct tags
(the sentence's id is its index + 1)."""


cdef bint utf8_of(object text, const char** p, Py_ssize_t* n) except -1:
    """TEXT's UTF-8 (False for lone surrogates: not from a file, but evalb.py copes)."""
    try:
        p[0] = PyUnicode_AsUTF8AndSize(text, n)
    except UnicodeEncodeError:
        return False
    return True


cdef Py_ssize_t utf8_end(const unsigned char* s, Py_ssize_t n) noexcept nogil:
    """Where the valid UTF-8 prefix of S ends (N when all of it is valid), by the rules
    of Python's strict decoder: no overlong forms, surrogates or code points past
    U+10FFFF."""
    cdef Py_ssize_t i = 0
    cdef unsigned char c, c1
    cdef int need
    cdef uint64_t word
    while i < n:
        c = s[i]
        if c < 0x80:
            i += 1
            while i + 8 <= n:  # ASCII eight bytes at a time
                memcpy(&word, s + i, 8)
                if word & 0x8080808080808080ULL:
                    break
                i += 8
            continue
        if 0xC2 <= c <= 0xDF:
            need = 1
        elif 0xE0 <= c <= 0xEF:
            need = 2
        elif 0xF0 <= c <= 0xF4:
            need = 3
        else:
            return i
        if i + need >= n:
            return i
        c1 = s[i + 1]
        if c1 < 0x80 or c1 > 0xBF:
            return i
        if (c == 0xE0 and c1 < 0xA0) or (c == 0xED and c1 > 0x9F) or \
                (c == 0xF0 and c1 < 0x90) or (c == 0xF4 and c1 > 0x8F):
            return i
        if need >= 2 and (s[i + 2] < 0x80 or s[i + 2] > 0xBF):
            return i
        if need == 3 and (s[i + 3] < 0x80 or s[i + 3] > 0xBF):
            return i
        i += need + 1
    return n


cdef class Lines:
    """A file's bytes as EVALB's lines (split at ``\\n``, a trailing ``\\r`` dropped, no
    line after a final ``\\n``), without a str a line: the lines read the way
    formats.brackets.read_tree_texts reads a file whose lines each start a tree.
    ``simple`` says whether the file is one: valid UTF-8 and every line empty or
    starting with ``(``; otherwise the caller reads it the general way."""

    cdef bytes owned
    cdef const char* data
    cdef Py_ssize_t* starts
    cdef Py_ssize_t* ends
    cdef Py_ssize_t n
    cdef readonly bint simple

    def __cinit__(self, bytes data):
        self.owned = data
        self.data = data
        cdef Py_ssize_t size = len(data), i, count = 0, at = 0, end
        cdef const char* s = self.data
        cdef const char* nl
        self.simple = utf8_end(<const unsigned char*>s, size) == size
        i = 0
        while i < size:  # count the lines first: one allocation
            nl = <const char*>memchr(s + i, b'\n', size - i)
            count += 1
            if nl == NULL:
                break
            i = nl - s + 1
        self.starts = <Py_ssize_t*>PyMem_Malloc((count + 1) * sizeof(Py_ssize_t))
        self.ends = <Py_ssize_t*>PyMem_Malloc((count + 1) * sizeof(Py_ssize_t))
        if not self.starts or not self.ends:
            raise MemoryError()
        i = 0
        while i < size:
            nl = <const char*>memchr(s + i, b'\n', size - i)
            end = size if nl == NULL else nl - s
            self.starts[at] = i
            if end > i and s[end - 1] == b'\r':
                self.ends[at] = end - 1
            else:
                self.ends[at] = end
            if self.ends[at] > i and s[i] != b'(':
                self.simple = False
            at += 1
            i = end + 1
        self.n = at

    def __dealloc__(self):
        PyMem_Free(self.starts)
        PyMem_Free(self.ends)

    def __len__(self):
        return self.n

    def __getitem__(self, Py_ssize_t k):
        if k < 0:
            k += self.n
        if not 0 <= k < self.n:
            raise IndexError(k)
        return PyUnicode_DecodeUTF8(self.data + self.starts[k], self.ends[k] - self.starts[k],
                                    NULL)


cdef char* put_int(char* out, long long v, int width) noexcept:
    """printf's %{width}d."""
    cdef char digits[24]
    cdef int n = 0, neg = v < 0
    cdef unsigned long long u = <unsigned long long>(-v) if neg else <unsigned long long>v
    while True:
        digits[n] = <char>(48 + u % 10)
        n += 1
        u //= 10
        if u == 0:
            break
    if neg:
        digits[n] = b'-'
        n += 1
    while width > n:
        out[0] = b' '
        out += 1
        width -= 1
    while n:
        n -= 1
        out[0] = digits[n]
        out += 1
    return out


cdef char* put_fixed2(char* out, double x) noexcept:
    """printf's (and Python's) %6.2f: X rounded to two decimals half to even from its
    exact binary value, found with integers (snprintf took as long as the rest)."""
    cdef int e
    cdef double mant
    cdef unsigned long long m, p, q, rem, half
    cdef int shift
    if not (0.0 <= x < 1e15):  # negative, huge or nan: never a count's ratio
        return out + snprintf(out, 64, b"%6.2f", x)
    mant = frexp(x, &e)
    m = <unsigned long long>ldexp(mant, 53)  # x = m * 2**(e - 53), m < 2**53
    p = m * 100  # < 2**60
    shift = 53 - e
    if shift >= 64:
        q = 0
    elif shift <= 0:
        q = p << (-shift)
    else:
        q = p >> shift
        rem = p & ((1ULL << shift) - 1)
        half = 1ULL << (shift - 1)
        if rem > half or (rem == half and q & 1):
            q += 1
    out = put_int(out, <long long>(q // 100), 3)
    out[0] = b'.'
    out[1] = <char>(48 + (q % 100) // 10)
    out[2] = <char>(48 + q % 10)
    return out + 3


cdef inline double pct(int a, int b) noexcept:
    return 100.0 * a / b if b else 0.0


def format_rows(const int[::1] table, Py_ssize_t n):
    """The report's first N rows, each with its newline: evalb.SentenceResult.row's
    format (EVALB's printf) in C."""
    cdef Py_ssize_t k, size = n * 160 + 1
    cdef char* buf = <char*>PyMem_Malloc(size)
    if not buf:
        raise MemoryError()
    cdef char* out = buf
    cdef const int* r
    try:
        for k in range(n):
            r = &table[k * FIELDS]
            # "%4d  %3d    %d  %6.2f %6.2f   %3d    %3d  %3d    %3d   %4d  %4d   %6.2f"
            out = put_int(out, k + 1, 4)
            out = put_spaces(out, 2)
            out = put_int(out, r[0], 3)
            out = put_spaces(out, 4)
            out = put_int(out, r[1], 0)
            out = put_spaces(out, 2)
            out = put_fixed2(out, pct(r[2], r[3]))
            out = put_spaces(out, 1)
            out = put_fixed2(out, pct(r[2], r[4]))
            out = put_spaces(out, 3)
            out = put_int(out, r[2], 3)
            out = put_spaces(out, 4)
            out = put_int(out, r[3], 3)
            out = put_spaces(out, 2)
            out = put_int(out, r[4], 3)
            out = put_spaces(out, 4)
            out = put_int(out, r[5], 3)
            out = put_spaces(out, 3)
            out = put_int(out, r[6], 4)
            out = put_spaces(out, 2)
            out = put_int(out, r[7], 4)
            out = put_spaces(out, 3)
            out = put_fixed2(out, pct(r[7], r[6]))
            out[0] = b'\n'
            out += 1
        return PyUnicode_DecodeASCII(buf, out - buf, NULL)
    finally:
        PyMem_Free(buf)


cdef inline char* put_spaces(char* out, int n) noexcept:
    while n:
        out[0] = b' '
        out += 1
        n -= 1
    return out


def totals(const int[::1] table, Py_ssize_t n, long long cutoff):
    """evalb.Totals.of's fields, over the first N rows and over those whose length is at
    most CUTOFF: two tuples."""
    cdef long long t[2][12]
    cdef Py_ssize_t k
    cdef int w, i
    cdef const int* r
    for w in range(2):
        for i in range(12):
            t[w][i] = 0
    for k in range(n):
        r = &table[k * FIELDS]
        for w in range(2):
            if w == 1 and r[0] > cutoff:
                break
            # sentences, errors, skips, gold, test, matched, complete, words, crossing,
            # no_crossing, two_or_less, correct_tags
            t[w][0] += 1
            if r[1] == 1:
                t[w][1] += 1
            elif r[1] != 0:
                t[w][2] += 1
            else:
                t[w][3] += r[3]
                t[w][4] += r[4]
                t[w][5] += r[2]
                t[w][6] += r[3] == r[4] and r[4] == r[2]
                t[w][7] += r[6]
                t[w][8] += r[5]
                t[w][9] += r[5] == 0
                t[w][10] += r[5] <= 2
                t[w][11] += r[7]
    return (tuple([t[0][i] for i in range(12)]), tuple([t[1][i] for i in range(12)]))


def row_dicts(const int[::1] table, Py_ssize_t n):
    """evalb.SentenceResult.as_dict of the first N rows."""
    cdef list out = []
    cdef Py_ssize_t k
    cdef const int* r
    for k in range(n):
        r = &table[k * FIELDS]
        out.append({
            "id": k + 1, "length": r[0], "status": r[1],
            "recall": r[2] / <double>r[3] if r[3] else 0.0,
            "precision": r[2] / <double>r[4] if r[4] else 0.0,
            "matched": r[2], "gold_brackets": r[3], "test_brackets": r[4],
            "crossing": r[5], "words": r[6], "correct_tags": r[7],
        })
    return out


def fixed2(double x):
    """put_fixed2 as a str (for the tests: it must equal Python's '%6.2f' % x)."""
    cdef char buf[80]
    cdef char* end = put_fixed2(buf, x)
    return PyUnicode_DecodeASCII(buf, end - buf, NULL)

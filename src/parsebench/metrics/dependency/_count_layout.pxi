# Shared by _deps_fast.pyx and _stretch_fast.pyx (each includes it): where each
# count sits in a sentence's C array, the relation codes, and the helpers both use.
# Needs PyObject_RichCompareBool, Py_EQ and memset cimported, and conll18's base,
# CONTENT_DEPRELS and FUNCTIONAL_DEPRELS imported, before the include.

# Where each count sits in a sentence's row: Lin's two PRs, then the F1Counts.
cdef enum:
    UNL = 0
    LAB = 4
    TOKENS = 8
    SENTENCES = 12
    WORDS = 16
    UPOS = 20
    XPOS = 24
    UFEATS = 28
    ALLTAGS = 32
    LEMMAS = 36
    UAS = 40
    LAS = 44
    CLAS = 48
    MLAS = 52
    BLEX = 56
    UCM = 60
    LCM = 64
    NCOUNTS = 68

cdef enum:
    KEY = 0
    KEY_FOUND = 1
    ANSWER = 2
    ANSWER_FOUND = 3

cdef enum:
    CORRECT = 0
    GOLD = 1
    SYSTEM = 2
    ALIGNED = 3

# count_stretch's head values
cdef enum:
    ROOT = -1
    MISSING = -2
    NOT_ALIGNED = -3

cdef tuple PRS = ("unlabeled", "labeled")
cdef tuple PR_FIELDS = ("key", "key_found", "answer", "answer_found")
cdef tuple F1S = ("tokens", "sentences", "words", "upos", "xpos", "ufeats", "alltags",
                  "lemmas", "uas", "las", "clas", "mlas", "blex", "ucm", "lcm")
cdef tuple F1_FIELDS = ("correct", "gold", "system", "aligned")

cdef dict CODES = {}
"""Relation -> its base relation's id << 2 | content << 1 | functional."""
cdef dict BASE_IDS = {}
cdef Py_ssize_t CACHE_LIMIT = 100_000
cdef object PUNCT = "PUNCT"
cdef object UNDERSCORE = "_"


cdef int code_of(object deprel) except -1:
    got = CODES.get(deprel)
    if got is not None:
        return <int>got
    b = base(deprel)  # count_stretch's own function: the same base for any relation
    bid = BASE_IDS.get(b)
    if bid is None:
        bid = BASE_IDS[b] = len(BASE_IDS)
    code = (<int>bid << 2) | ((b in CONTENT_DEPRELS) << 1) | (b in FUNCTIONAL_DEPRELS)
    CODES[deprel] = code
    return code


cdef inline bint eq(object a, object b) except -1:
    return PyObject_RichCompareBool(a, b, Py_EQ)


cdef int add_prs(object out, const long long* c) except -1:
    """Lin's two PRs of C (its first 8 counts) added to OUT's (a SentenceCounts or a
    breakdown's BucketCounts), field by field."""
    cdef Py_ssize_t m, f
    cdef long long v
    for m in range(2):
        obj = getattr(out, PRS[m])
        for f in range(4):
            v = c[m * 4 + f]
            if v:
                name = PR_FIELDS[f]
                setattr(obj, name, getattr(obj, name) + v)
    return 0


cdef int add_into(object out, const long long* c) except -1:
    """C's counts added to the SentenceCounts OUT, field by field."""
    cdef Py_ssize_t m, f
    cdef long long v
    add_prs(out, c)
    for m in range(15):
        obj = getattr(out, F1S[m])
        for f in range(4):
            v = c[TOKENS + m * 4 + f]
            if v:
                name = F1_FIELDS[f]
                setattr(obj, name, getattr(obj, name) + v)
    return 0


cdef void functional_children(const int* heads, const int* codes, Py_ssize_t n,
                              int* starts, int* children) noexcept:
    """Each word's children with a functional relation, in word order: those of word h
    are children[starts[h]:starts[h + 1]]."""
    cdef Py_ssize_t k
    cdef int h
    memset(starts, 0, (n + 1) * sizeof(int))
    for k in range(n):
        if codes[k] & 1 and heads[k] >= 0:
            starts[heads[k]] += 1
    for k in range(1, n):
        starts[k] += starts[k - 1]
    if n:
        starts[n] = starts[n - 1]
    for k in range(n - 1, -1, -1):  # backwards: each list ends up in word order
        if codes[k] & 1 and heads[k] >= 0:
            h = heads[k]
            starts[h] -= 1
            children[starts[h]] = <int>k

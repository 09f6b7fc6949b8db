# cython: language_level=3, boundscheck=False, wraparound=False
"""The CoNLL-U reader's common case at C speed: well-formed sentences, read from their
lines into the Sentences the pure-Python reader makes.

``formats/conllu.py``'s ``_read`` stays the reference and the only one that says
what is wrong with a file: at the first line this module does not take as it is (a
malformed line, a word id that is not the next number as written, a HEAD that is
not a number or ``_``, a FORM that is empty or starts with a space, a multiword token
that overlaps the one before, an empty node between a token's line and its first word,
a comment inside a sentence), and at a sentence end whose
heads or ranges point past the sentence, the lines of the sentence under way and
all that follow go to ``_read``, from the state it would have had there. So the
sentences, the errors and the lines they name are the reference's; the tests read
the treebanks and damaged files both ways. Why by hand: the reader's loop a line
in Python was half of ``eval deps``'s time.
"""

from itertools import chain

from cpython.list cimport PyList_Append, PyList_GET_ITEM
from cpython.unicode cimport PyUnicode_CheckExact
from cpython.object cimport PyObject
from libc.string cimport memset


cdef extern from "Python.h":
    bint Py_UNICODE_ISSPACE(Py_UCS4 ch)
    int PyUnicode_KIND(object)
    const unsigned char* PyUnicode_1BYTE_DATA(object)
    Py_ssize_t PyUnicode_GET_LENGTH(object)
    int PyUnicode_1BYTE_KIND

cdef object NEWDOC = "# newdoc"
cdef object GENRE = "# genre = "
cdef object CATEGORY = "# category = "
cdef object SENT_ID = "# sent_id = "
cdef object TAB = "\t"
cdef object UNDERSCORE = "_"

cdef dict SHARED = {}
"""One str object for each value of the annotation columns (lemma, tags, features,
relations, DEPS, MISC) of the files read whole so far, up to SHARED_LIMIT values: a
treebank in memory then holds its few thousand values in a few thousand objects, not one
a word and column, and the scorers that run over it (the API's check, the label counts,
the kernels) find them in the processor's cache, equal ones identical. A file read a
sentence at a time is not shared: its sentences go as they come, and the look-ups cost
more than they saved."""
cdef Py_ssize_t SHARED_LIMIT = 50_000


cdef inline object shared(object value):
    got = SHARED.get(value)
    if got is not None:
        return got
    if len(SHARED) < SHARED_LIMIT:
        SHARED[value] = value
    return value


cdef long number(str text):
    """TEXT's value when it is ASCII digits only (leading zeros allowed, as ``int``
    reads them), -1 when it is not, -2 when it is too long to be read here."""
    cdef Py_ssize_t n = len(text)
    cdef long v = 0
    cdef Py_UCS4 ch
    if n == 0:
        return -1
    if n > 15:
        return -2
    for ch in text:
        if ch < u'0' or ch > u'9':
            return -1
        v = v * 10 + (<long>ch - 48)
    return v


cdef object comment_value(list comments, str prefix):
    """Sentence.comment_value: the first comment starting with PREFIX, after it."""
    cdef Py_ssize_t k = len(prefix)
    for c in comments:
        if (<str>c).startswith(prefix):
            return (<str>c)[k:]
    return None


cdef object sent_id_category(object sent_id):
    """conllu._sent_id_category."""
    if sent_id and "-" in (<str>sent_id).strip("-"):
        return (<str>sent_id).split("-", 1)[0]
    return None


cdef object categorize(object s, list comments, object doc_category):
    """Set S's category as the reference's finish does; the document's category after S."""
    genre = comment_value(comments, GENRE) or comment_value(comments, CATEGORY)
    if genre is not None:
        genre = (<str>genre).strip()
        for c in comments:
            if (<str>c).startswith(NEWDOC):
                doc_category = genre
                break
    s.category = genre or doc_category or sent_id_category(comment_value(comments, SENT_ID))
    return doc_category


def read_sentences(lines, str path, sentence, reference, category_of, notes=None,
                   bint share=False):
    """The Sentences of LINES (CoNLL-U, without line ends) as ``reference(lines, path,
    start, doc_category, notes)`` reads them, which it calls where a sentence needs a
    closer look (START: the line number of the first of LINES; DOC_CATEGORY: the
    document's category so far); SENTENCE is the Sentence class, CATEGORY_OF
    conllu._category_of, NOTES None or a conllu.Leniency (told of blank lines that end
    no sentence and of a last sentence without its blank line, and asked to say so at the
    end). A HEAD written ``_`` is -1 (conllu.NO_HEAD). SHARE: equal values of the
    annotation columns are one object (SHARED), for a file read whole."""
    cdef list buf = []            # the lines of the sentence under way, from START
    cdef Py_ssize_t start = 1     # the line number of buf[0]
    cdef Py_ssize_t lineno = 0
    cdef Py_ssize_t first = 0
    cdef Py_ssize_t n = 0         # words read of the sentence under way
    cdef long v, h, a, b, top = 0, last = -1, mwfirst = -1
    cdef Py_ssize_t dash, dot
    cdef list comments = [], multiword = [], empty_nodes = []
    cdef list forms = [], lemmas = [], upos = [], xpos = [], feats = [], heads = []
    cdef list deprels = [], deps = [], misc = []
    cdef list cols
    cdef str line, wid, hc, form
    doc_category = None
    doc_at_start = None           # doc_category where the sentence under way began
    it = iter(lines)
    for obj in it:
        lineno += 1
        PyList_Append(buf, obj)
        if type(obj) is not str:
            break
        line = <str>obj
        if not line:
            if not (n or comments or multiword or empty_nodes):
                buf = []
                start = lineno + 1
                if notes is not None:
                    notes.blank(lineno)
                continue
            if not n or top > n or last >= n:
                break  # no words, or a head or range past the end: the reference says so
            s = sentence(forms, lemmas, upos, xpos, feats, heads, deprels, deps, misc,
                         comments, multiword, empty_nodes, first)
            doc_category = categorize(s, comments, doc_category)
            yield s
            comments, multiword, empty_nodes = [], [], []
            forms, lemmas, upos, xpos, feats, heads = [], [], [], [], [], []
            deprels, deps, misc = [], [], []
            n = 0
            top = 0
            last = -1
            mwfirst = -1
            buf = []
            start = lineno + 1
            doc_at_start = doc_category
            continue
        if line[0] == "#":
            if n:
                break  # a comment inside a sentence
            if not comments:
                first = lineno
            PyList_Append(comments, line)
            if line.startswith(NEWDOC):
                doc_category = category_of(line.partition("=")[2].strip())
            continue
        cols = line.split(TAB)
        if len(cols) != 10:
            break
        if not n and not comments and not multiword:
            first = lineno
        wid = cols[0]
        v = number(wid)
        if v >= 0:  # a word: the next id (01 too, as the reference), its head a number or _
            if v != n + 1:
                break
            form = cols[1]
            if not form or Py_UNICODE_ISSPACE(form[0]):
                break  # an empty FORM, or one of spaces only, which the reference refuses
            hc = cols[6]
            if hc == UNDERSCORE:
                h = -1
            else:
                h = number(hc)
                if h < 0:
                    break
                if h > top:
                    top = h
            PyList_Append(forms, cols[1])
            if share:
                PyList_Append(lemmas, shared(cols[2]))
                PyList_Append(upos, shared(cols[3]))
                PyList_Append(xpos, shared(cols[4]))
                PyList_Append(feats, shared(cols[5]))
                PyList_Append(deprels, shared(cols[7]))
                PyList_Append(deps, shared(cols[8]))
                PyList_Append(misc, shared(cols[9]))
            else:
                PyList_Append(lemmas, cols[2])
                PyList_Append(upos, cols[3])
                PyList_Append(xpos, cols[4])
                PyList_Append(feats, cols[5])
                PyList_Append(deprels, cols[7])
                PyList_Append(deps, cols[8])
                PyList_Append(misc, cols[9])
            PyList_Append(heads, h)
            n += 1
            continue
        if v == -2:
            break
        dash = wid.find("-")
        if dash >= 0:
            a = number(wid[:dash])
            b = number(wid[dash + 1:])
            if a < 0 or b < 0 or a != n + 1 or b < a or n <= last:
                break  # (n <= last: it overlaps the token before)
            form = cols[1]
            if not form or Py_UNICODE_ISSPACE(form[0]):
                break
            mwfirst = n
            if b - 1 > last:
                last = b - 1
            PyList_Append(multiword, (a - 1, b - 1, cols))
            continue
        dot = wid.find(".")
        if dot >= 0 and number(wid[:dot]) >= 0 and number(wid[dot + 1:]) >= 0 \
                and mwfirst != n:  # (not between a token's line and its first word)
            PyList_Append(empty_nodes, (n, cols))
            continue
        break
    else:
        if n and top <= n and last < n:
            s = sentence(forms, lemmas, upos, xpos, feats, heads, deprels, deps, misc,
                         comments, multiword, empty_nodes, first)
            doc_category = categorize(s, comments, doc_category)
            if notes is not None:
                notes.unended = lineno
            yield s
            if notes is not None:
                notes.done()
            return
        if not (n or comments or multiword):
            if notes is not None:
                notes.done()
            return
    # the reference reads the rest, from the start of the sentence under way
    yield from reference(chain(buf, it), path, start, doc_at_start, notes)


cdef tuple TEXT_COLUMNS = ("forms", "lemmas", "upos", "xpos", "feats", "deprels", "deps",
                           "misc")


cdef inline bint plain_value(object text) except -1:
    """Whether the str TEXT holds no tab and no line break: its bytes looked at in place
    where it is Latin-1 (nearly every value; two substring searches a value took most of
    the check), else searched."""
    cdef const unsigned char* p
    cdef Py_ssize_t i, n
    if PyUnicode_KIND(text) == PyUnicode_1BYTE_KIND:
        p = PyUnicode_1BYTE_DATA(text)
        n = PyUnicode_GET_LENGTH(text)
        for i in range(n):
            if p[i] == 9 or p[i] == 10:
                return False
        return True
    return not ("\t" in <str>text or "\n" in <str>text)


def sound_sentences(list sentences, object sentence):
    """Whether every item of SENTENCES is a SENTENCE whose text columns are lists of as
    many plain strings as it has words (at least one), none holding a tab or a line
    break, and whose heads are plain ints from -1 to the word count: what
    ``treebank.check_sentences`` asks, at C speed. False says nothing more: the Python
    check then finds and words the first problem."""
    cdef object s, col, v
    cdef list values
    cdef Py_ssize_t n, i
    cdef size_t slot
    cdef PyObject* p
    cdef long h
    cdef str text
    # values found plain, by address (the lists hold them: none goes away meanwhile): a
    # value the reader shared between words is looked at once, not once a word
    cdef PyObject* seen[1024]
    memset(seen, 0, sizeof(seen))
    for s in sentences:
        if type(s) is not sentence:
            return False
        col = s.forms
        if type(col) is not list:
            return False
        n = len(<list>col)
        if n == 0:
            return False
        for name in TEXT_COLUMNS:
            col = getattr(s, name)
            if type(col) is not list or len(<list>col) != n:
                return False
            values = <list>col
            for i in range(n):
                # borrowed: a reference taken and given back would write to every value
                p = PyList_GET_ITEM(values, i)
                slot = ((<size_t>p >> 4) ^ (<size_t>p >> 14)) & 1023
                if seen[slot] == p:
                    continue
                if not PyUnicode_CheckExact(<object>p) or not plain_value(<object>p):
                    return False
                seen[slot] = p
        col = s.heads
        if type(col) is not list or len(<list>col) != n:
            return False
        values = <list>col
        for i in range(n):
            v = values[i]
            if type(v) is not int:
                return False
            try:
                h = v
            except OverflowError:
                return False
            if h < -1 or h > n:
                return False
    return True


cdef bint sound_columns(object cols) except -1:
    """treebank._columns: a list of 10 plain strings, none holding a tab or a line break."""
    if type(cols) is not list or len(<list>cols) != 10:
        return False
    for c in <list>cols:
        if type(c) is not str or not plain_value(c):
            return False
    return True


def sound_tokens(list sentences):
    """Whether the multiword tokens and empty nodes of every item of SENTENCES (Sentences
    whose columns ``sound_sentences`` found sound) are what ``treebank._token_problem``
    asks, at C speed: ranges (first, last, 10 columns) inside the sentence, empty nodes
    (words before it, 10 columns). False says nothing more: the Python check then finds
    and words the first problem."""
    cdef Py_ssize_t n
    for s in sentences:
        mw = s.multiword
        nodes = s.empty_nodes
        if not mw and not nodes:
            continue
        if type(mw) is not list or type(nodes) is not list:
            return False
        n = len(s.forms)
        for m in <list>mw:
            if type(m) is not tuple or len(<tuple>m) != 3:
                return False
            a, b, cols = <tuple>m
            if type(a) is not int or type(b) is not int or not (0 <= a <= b < n) \
                    or not sound_columns(cols):
                return False
        for e in <list>nodes:
            if type(e) is not tuple or len(<tuple>e) != 2:
                return False
            after, cols = <tuple>e
            if type(after) is not int or not (0 <= after <= n) or not sound_columns(cols):
                return False
    return True

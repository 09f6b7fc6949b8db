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

from cpython.list cimport PyList_Append


cdef extern from "Python.h":
    bint Py_UNICODE_ISSPACE(Py_UCS4 ch)

cdef object NEWDOC = "# newdoc"
cdef object GENRE = "# genre = "
cdef object CATEGORY = "# category = "
cdef object SENT_ID = "# sent_id = "
cdef object TAB = "\t"
cdef object UNDERSCORE = "_"


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


def read_sentences(lines, str path, sentence, reference, category_of, notes=None):
    """The Sentences of LINES (CoNLL-U, without line ends) as ``reference(lines, path,
    start, doc_category, notes)`` reads them, which it calls where a sentence needs a
    closer look (START: the line number of the first of LINES; DOC_CATEGORY: the
    document's category so far); SENTENCE is the Sentence class, CATEGORY_OF
    conllu._category_of, NOTES None or a conllu.Leniency (told of blank lines that end
    no sentence and of a last sentence without its blank line, and asked to say so at the
    end). A HEAD written ``_`` is -1 (conllu.NO_HEAD)."""
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
            PyList_Append(lemmas, cols[2])
            PyList_Append(upos, cols[3])
            PyList_Append(xpos, cols[4])
            PyList_Append(feats, cols[5])
            PyList_Append(heads, h)
            PyList_Append(deprels, cols[7])
            PyList_Append(deps, cols[8])
            PyList_Append(misc, cols[9])
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


def sound_sentences(list sentences, object sentence):
    """Whether every item of SENTENCES is a SENTENCE whose text columns are lists of as
    many plain strings as it has words (at least one), none holding a tab or a line
    break, and whose heads are plain ints from -1 to the word count: what
    ``treebank.check_sentences`` asks, at C speed. False says nothing more: the Python
    check then finds and words the first problem."""
    cdef object s, col, v
    cdef list values
    cdef Py_ssize_t n, i
    cdef long h
    cdef str text
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
                v = values[i]
                if type(v) is not str:
                    return False
                text = <str>v
                if "\t" in text or "\n" in text:
                    return False
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

"""CoNLL-U reading and writing.

Hand-written rather than built on the ``conllu`` library: scoring must not be
the bottleneck, and ``conllu.parse_incr`` reads EWT dev+test (50,960 words) at
about 90,000 words/s on this machine, which alone is slower than the 84,000
words/s that ``eval deps`` has to reach for gold and system together. This
reader splits lines and keeps columns as strings (about 20x faster), and it
reports malformed input as ``FILE:LINE: what is wrong``. The test suite
checks it against the ``conllu`` library on the real treebanks. Where the C
accelerators were built, ``_conllu_fast`` reads the well-formed sentences (the
same Sentences, 1.5 to 2.5 times as fast) and hands anything else to :func:`_read`, the
reference, which says what is wrong.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TextIO

from parsebench.common.errors import InputError, iter_lines, read_lines

NO_HEAD = -1
"""HEAD written as ``_``: a word without a dependency (a fragment or a failed parse)."""


@dataclass(slots=True)
class Sentence:
    """One sentence: its comments and its syntactic words as parallel columns.

    Rows are the syntactic words (integer ids). Multiword-token ranges and
    empty nodes are kept only so that writing gives back what was read.
    """

    forms: list[str] = field(default_factory=list)
    lemmas: list[str] = field(default_factory=list)
    upos: list[str] = field(default_factory=list)
    xpos: list[str] = field(default_factory=list)
    feats: list[str] = field(default_factory=list)
    heads: list[int] = field(default_factory=list)
    deprels: list[str] = field(default_factory=list)
    deps: list[str] = field(default_factory=list)
    misc: list[str] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    multiword: list[tuple[int, int, list[str]]] = field(default_factory=list)
    """(first word index, last word index, the 10 columns), 0-based inclusive."""
    empty_nodes: list[tuple[int, list[str]]] = field(default_factory=list)
    """(number of words before the node, the 10 columns)."""
    line: int = 0
    """Line number of the sentence's first line in its file."""
    category: str | None = None
    """Document category: a ``# genre``/``# category`` comment, else the newdoc id prefix."""

    def __len__(self) -> int:
        return len(self.forms)

    @property
    def text(self) -> str:
        for c in self.comments:
            if c.startswith("# text = "):
                return c[9:]
        return " ".join(self.forms)

    def comment_value(self, key: str) -> str | None:
        prefix = f"# {key} = "
        for c in self.comments:
            if c.startswith(prefix):
                return c[len(prefix):]
        return None

    def word_columns(self, i: int) -> list[str]:
        head = self.heads[i]
        return [str(i + 1), self.forms[i], self.lemmas[i], self.upos[i], self.xpos[i],
                self.feats[i], "_" if head == NO_HEAD else str(head), self.deprels[i],
                self.deps[i], self.misc[i]]


def _category_of(doc_id: str | None) -> str | None:
    if not doc_id:
        return None
    return doc_id.split("-", 1)[0] if "-" in doc_id else doc_id


def _sent_id_category(sent_id: str | None) -> str | None:
    """EWT-style ids (``weblog-...-0001``) name their genre before the first hyphen."""
    if sent_id and "-" in sent_id.strip("-"):
        return sent_id.split("-", 1)[0]
    return None


def looks_like_conllu(path: str | os.PathLike[str], lines: Iterable[str]) -> bool:
    """A ``.conllu`` name, or a first non-comment line with 10 tab-separated columns."""
    if str(path).endswith(".conllu"):
        return True
    for ln in lines:
        if ln and not ln.startswith("#"):
            return ln.count("\t") == 9
    return False


class ConlluWarning(UserWarning):
    """What the reader reads where the official scorer (``conll18_ud_eval.py``, udtools'
    ``udeval``) refuses the file: ``FILE:LINE: what``. The command line prints it as a
    ``warning:`` line (docs/correctness.md lists these cases)."""


class Leniency:
    """The blank lines that end no sentence and a last sentence without its blank line
    in one file, said once the file is read (a warning each, with the first line)."""

    __slots__ = ("blanks", "first_blank", "path", "unended")

    def __init__(self, path: str) -> None:
        self.path = path
        self.blanks = 0
        self.first_blank = 0
        self.unended = 0

    def blank(self, line: int) -> None:
        """A blank line at LINE that ends no sentence (two in a row, or one first)."""
        if not self.blanks:
            self.first_blank = line
        self.blanks += 1

    def done(self) -> None:
        import warnings

        if self.blanks:
            warnings.warn(ConlluWarning(
                f"{self.path}:{self.first_blank}: {self.blanks} blank line(s) that end no "
                "sentence (two in a row, or one before the first sentence; the first here): "
                "skipped, where the official scorer refuses the file"), stacklevel=2)
        if self.unended:
            warnings.warn(ConlluWarning(
                f"{self.path}:{self.unended}: the file does not end with a blank line: its "
                "last sentence is read as if it did, where the official scorer refuses the "
                "file"), stacklevel=2)


def read_conllu(path: str | os.PathLike[str]) -> list[Sentence]:
    """Read a CoNLL-U file; raise InputError with the file and line on malformed input,
    warn (:class:`ConlluWarning`) of what it reads where the official scorer would not."""
    lines = read_lines(path, lone_cr_ok=False)
    return list(iter_sentences(lines, str(path), warn=True, share=True))


def iter_conllu(path: str | os.PathLike[str]) -> Iterator[Sentence]:
    """The sentences of a CoNLL-U file one at a time: memory flat in the file's size."""
    return iter_sentences(iter_lines(path, lone_cr_ok=False), str(path), warn=True)


def parse_conllu(lines: Iterable[str], path: str = "<input>",
                 warn: bool = False) -> list[Sentence]:
    return list(iter_sentences(lines, path, warn))


def blank_form(form: str) -> bool:
    """Whether FORM is empty once its spaces (Unicode Zs) are gone, as the official
    scorer reads it: a word with no text, which it refuses."""
    import unicodedata

    return all(unicodedata.category(c) == "Zs" for c in form)


def _number(text: str) -> int | None:
    """TEXT as a non-negative integer if it is written in ASCII digits (``int`` takes
    ``'²'`` for no number, but ``str.isdigit`` says it is one)."""
    return int(text) if text.isascii() and text.isdigit() else None


_IDS: list[str] = []
"""The word ids "1", "2"... as written, as many as the longest sentence read so far."""


def iter_sentences(lines: Iterable[str], path: str = "<input>",
                   warn: bool = False, share: bool = False) -> Iterator[Sentence]:
    """Sentences from CoNLL-U lines, each checked as soon as its blank line is read: by
    the compiled reader where it was built (the same Sentences and errors: it hands
    whatever is not well-formed to :func:`_read`), else by ``_read``. WARN (a file's
    lines, not a program's answer): a :class:`ConlluWarning` for extra blank lines and
    a missing last one once the lines are read. SHARE (sentences kept in memory): equal
    values of the annotation columns are one str object, where the compiled reader reads
    them (the same Sentences, in less memory and faster to score)."""
    notes = Leniency(path) if warn else None
    if _read_sentences is None:
        return _read(lines, path, notes=notes)
    return _python_generator(_read_sentences(lines, path, Sentence, _read, _category_of,
                                             notes, share))


def _python_generator(sentences: Iterator[Sentence]) -> Iterator[Sentence]:
    """SENTENCES behind a Python generator: asked again once it has ended (``yield from``
    after a ``for`` loop, as :meth:`parsebench.model.inputs.Holds.watching` does), Cython's
    generator raises StopIteration out of ``yield from`` (Cython 3.3), which a Python
    generator then turns into a RuntimeError."""
    yield from sentences


def _read(lines: Iterable[str], path: str = "<input>", start: int = 1,
          doc_category: str | None = None, notes: Leniency | None = None
          ) -> Iterator[Sentence]:
    """The reference reader: sentences from LINES, the first of them line START of PATH,
    in a document whose category so far is DOC_CATEGORY; NOTES, where given, gets the
    extra blank lines and a missing last one, and says so at the end."""
    # A sentence's parts are kept in locals, its words as rows of columns, and made a
    # Sentence (columns transposed at once) at its blank line, where the word ids and
    # heads are checked a column at a time: appending to nine lists and converting two
    # numbers word by word were most of the reading time. An error is still the first
    # in the file: the rows read so far are checked before any other is raised.
    comments: list[str] = []
    multiword: list[tuple[int, int, list[str]]] = []
    empty_nodes: list[tuple[int, list[str]]] = []
    rows: list[list[str]] = []
    row_lines: list[int] = []
    first = 0
    lineno = start - 1

    def check_rows() -> None:
        """Raise the first error of the rows read so far, as a word at a time would."""
        for k, cols in enumerate(rows):
            wid, head = cols[0], cols[6]
            number = _number(wid)
            if number is None:
                raise InputError(f"bad word id {wid!r}", path, row_lines[k])
            if number != k + 1:
                raise InputError(f"word id {wid}, expected {k + 1}", path, row_lines[k])
            if _number(head) is None and head != "_":
                raise InputError(f"HEAD {head!r} is not a number or _", path, row_lines[k])
            if not cols[1] or (cols[1][0].isspace() and blank_form(cols[1])):
                raise InputError("empty FORM" + (f" (only spaces: {cols[1]!r})" if cols[1]
                                                 else ""), path, row_lines[k])

    def finish() -> Sentence:
        nonlocal comments, multiword, empty_nodes, rows, row_lines, doc_category
        n = len(rows)
        while len(_IDS) < n:
            _IDS.append(str(len(_IDS) + 1))
        ids, forms, lemmas, upos, xpos, feats, head_col, deprels, deps, misc = zip(
            *rows, strict=True)
        if list(ids) != _IDS[:n] or "" in forms or any(f[0].isspace() for f in forms):
            check_rows()  # raises, unless ids like "01" (that int() reads as 1)
        joined = "".join(head_col)
        try:
            if not (joined.isdigit() and joined.isascii()):
                raise ValueError
            heads = list(map(int, head_col))  # an empty HEAD fails here
        except ValueError:
            check_rows()
            heads = [NO_HEAD if h == "_" else int(h) for h in head_col]
        if max(heads) > n:
            for i, h in enumerate(heads):
                if h > n:
                    raise InputError(f"HEAD {h} points outside the sentence of {n} words",
                                     path, row_lines[i])
        for _first, last, mw_cols in multiword:
            if last >= n:
                raise InputError(f"multiword token {mw_cols[0]} goes past the sentence end",
                                 path, first)
        sent = Sentence(list(forms), list(lemmas), list(upos), list(xpos), list(feats),
                        heads, list(deprels), list(deps), list(misc), comments, multiword,
                        empty_nodes, first)
        genre = sent.comment_value("genre") or sent.comment_value("category")
        if genre is not None and any(c.startswith("# newdoc") for c in comments):
            doc_category = genre.strip()
        sent.category = (genre.strip() if genre is not None else None) or doc_category \
            or _sent_id_category(sent.comment_value("sent_id"))
        comments, multiword, empty_nodes, rows, row_lines = [], [], [], [], []
        return sent

    def fail(message: str) -> InputError:
        """The error of line LINENO, or an earlier row's."""
        check_rows()
        return InputError(message, path, lineno)

    for lineno, line in enumerate(lines, start):
        if not line:
            if rows or comments or multiword or empty_nodes:
                if not rows:
                    raise InputError("sentence has no words", path, lineno)
                yield finish()
            elif notes is not None:
                notes.blank(lineno)
            continue
        if line[0] == "#":
            if not rows:
                if not comments:
                    first = lineno
                comments.append(line)
                if line.startswith("# newdoc"):
                    _, _, rest = line.partition("=")
                    doc_category = _category_of(rest.strip())
                continue
            raise fail("comment line inside a sentence")
        cols = line.split("\t")
        if len(cols) != 10:
            raise fail(f"expected 10 tab-separated columns, found {len(cols)}")
        if not rows and not comments and not multiword:
            first = lineno
        wid = cols[0]
        if wid.isdigit():  # a word (its id and head are checked at the sentence's end)
            rows.append(cols)
            row_lines.append(lineno)
        elif "-" in wid:
            a, _, b = wid.partition("-")
            first_w, last_w = _number(a), _number(b)
            if first_w is None or last_w is None or first_w != len(rows) + 1 \
                    or last_w < first_w:
                raise fail(f"bad multiword token range {wid!r}")
            if multiword and multiword[-1][1] >= len(rows):
                raise fail(f"multiword token {wid} overlaps {multiword[-1][2][0]}")
            if not cols[1] or (cols[1][0].isspace() and blank_form(cols[1])):
                raise fail("empty FORM" + (f" (only spaces: {cols[1]!r})" if cols[1]
                                           else ""))
            multiword.append((first_w - 1, last_w - 1, cols))
        elif "." in wid:
            a, _, b = wid.partition(".")
            if _number(a) is None or _number(b) is None:
                raise fail(f"bad empty node id {wid!r}")
            if multiword and multiword[-1][0] == len(rows):
                raise fail(f"empty node {wid} between multiword token {multiword[-1][2][0]} "
                           "and its first word (it goes before the token's line)")
            empty_nodes.append((len(rows), cols))
        else:
            raise fail(f"bad word id {wid!r}")
    if rows:
        if notes is not None:
            notes.unended = lineno
        yield finish()
    elif comments or multiword:
        raise InputError("sentence has no words", path, lineno)
    if notes is not None:
        notes.done()


_read_sentences: Callable[..., Iterator[Sentence]] | None
try:
    from parsebench.formats._conllu_fast import read_sentences as _read_sentences
except ImportError:  # built without a C compiler: _read reads every sentence
    _read_sentences = None

ACCELERATED = _read_sentences is not None
"""Whether CoNLL-U is read by the compiled reader (the same Sentences either way)."""


def surface_text(forms: list[str], misc: list[str],
                 multiword: list[tuple[int, int, list[str]]]) -> str:
    """The text of words FORMS as CoNLL-U writes it in ``# text``: a multiword token's
    own form in place of its words, and a space after each unless its MISC (a multiword
    token's, for its last word) says ``SpaceAfter=No``."""
    starts = {m[0]: m for m in multiword}
    text: list[str] = []
    i, n = 0, len(forms)
    while i < n:
        span = starts.get(i)
        text.append(span[2][1] if span else forms[i])
        last = span[1] if span else i
        if "SpaceAfter=No" not in (span[2][9] if span else misc[last]).split("|") \
                and last < n - 1:
            text.append(" ")
        i = last + 1
    return "".join(text)


def basic_to_deps(s: Sentence) -> Sentence:
    """S with its basic tree copied into DEPS (``HEAD:DEPREL``), the IWPT baseline that
    gives any dependency parser an enhanced graph; S's empty nodes go (the copied graph
    has none), and a word without a head or relation gets ``_``."""
    from dataclasses import replace

    deps = ["_" if h == NO_HEAD or d == "_" else f"{h}:{d}"
            for h, d in zip(s.heads, s.deprels, strict=True)]
    return replace(s, deps=deps, empty_nodes=[])


def write_conllu(sentences: Iterable[Sentence], fh: TextIO) -> None:
    """Write sentences back in CoNLL-U, with their comments, ranges and empty nodes."""
    out: list[str] = []
    for s in sentences:
        out.extend(s.comments)
        mw = {a: cols for a, _, cols in s.multiword}
        empties: dict[int, list[list[str]]] = {}
        for after, cols in s.empty_nodes:
            empties.setdefault(after, []).append(cols)
        for cols in empties.get(0, ()):
            out.append("\t".join(cols))
        for i in range(len(s.forms)):
            if i in mw:
                out.append("\t".join(mw[i]))
            out.append("\t".join(s.word_columns(i)))
            for cols in empties.get(i + 1, ()):
                out.append("\t".join(cols))
        out.append("")
    fh.write("\n".join(out) + ("\n" if out else ""))

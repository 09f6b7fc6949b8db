"""A corpus in memory: what the Python API takes wherever a command takes a file.

Wraps a list of :class:`~parsebench.formats.conllu.Sentence` (the reader every command
uses, so a Treebank scores exactly as its file does) with constructors from a file, a
CoNLL-U string, Sentence objects or the ``conllu`` library's TokenLists.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, overload

from parsebench.common.errors import InputError
from parsebench.formats.conllu import (
    NO_HEAD,
    Sentence,
    iter_sentences,
    read_conllu,
    write_conllu,
)
from parsebench.model import arguments as A


class Treebank(Sequence[Sentence]):
    """Sentences in memory, with a name that messages and reports use for their file."""

    @A.checked(sentences=A.iterable, name=A.text)
    def __init__(self, sentences: Iterable[Sentence] = (), name: str = "<treebank>") -> None:
        self._sentences = list(sentences)  # (what each API call takes is checked there,
        self.name = name  # in its argument's name: check_sentences)

    @property
    def sentences(self) -> list[Sentence]:
        return self._sentences

    @sentences.setter
    def sentences(self, value: Iterable[Sentence]) -> None:
        """Checked where it is set, so that what is not a list is refused here in one
        line, not deep inside a scorer (``tb.sentences = None``); its items are checked
        by each call that takes the treebank, and by :attr:`words`."""
        if isinstance(value, str | bytes) or not isinstance(value, Iterable):
            raise TypeError(f"sentences: expected a list of Sentences, not "
                            f"{type(value).__name__}")
        self._sentences = list(value)

    @classmethod
    @A.checked(path=A.path)
    def read(cls, path: str | os.PathLike[str]) -> Treebank:
        """A CoNLL-U file, checked as every command checks it (``FILE:LINE: ...``)."""
        return cls(read_conllu(path), str(path))

    @classmethod
    @A.checked(text=A.text, name=A.text)
    def from_text(cls, text: str, name: str = "<text>") -> Treebank:
        """CoNLL-U text (a string), e.g. a parser's answer."""
        lines = text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        return cls(iter_sentences([ln.removesuffix("\r") for ln in lines], name), name)

    @classmethod
    @A.checked(sentences=A.iterable, name=A.text)
    def from_sentences(cls, sentences: Iterable[Any], name: str = "<sentences>") -> Treebank:
        """parsebench Sentences, or any object with the ``conllu`` library's
        ``serialize()`` (its TokenList), or CoNLL-U strings, one a sentence."""
        out: list[Sentence] = []
        for k, s in enumerate(sentences):
            if isinstance(s, Sentence):
                out.append(s)
                continue
            text = s.serialize() if hasattr(s, "serialize") else s
            if not isinstance(text, str):
                raise TypeError(f"sentences: item {k + 1} is a {type(s).__name__}; expected a "
                                "Sentence, a conllu TokenList or CoNLL-U text")
            out.extend(cls.from_text(text, f"{name}[{k}]"))
        return cls(out, name)

    @A.checked(path=A.path)
    def write(self, path: str | os.PathLike[str]) -> None:
        """Write CoNLL-U; the file appears whole or not at all."""
        from parsebench.common.errors import atomic_output, check_output

        check_output(path)
        with atomic_output(path) as fh:
            write_conllu(self.sentences, fh)

    def to_text(self) -> str:
        """The CoNLL-U text that :meth:`write` writes."""
        import io

        buf = io.StringIO()
        write_conllu(self.sentences, buf)
        return buf.getvalue()

    @property
    def words(self) -> int:
        for k, x in enumerate(self.sentences):
            if not isinstance(x, Sentence):
                raise TypeError(f"sentences: item {k + 1} is of type {type(x).__name__}; "
                                "expected a Sentence (Treebank.from_sentences reads conllu "
                                "TokenLists and CoNLL-U text)")
        return sum(len(s) for s in self.sentences)

    def __len__(self) -> int:
        return len(self.sentences)

    def __iter__(self) -> Iterator[Sentence]:
        return iter(self.sentences)

    @overload
    def __getitem__(self, i: int) -> Sentence: ...
    @overload
    def __getitem__(self, i: slice) -> Treebank: ...

    def __getitem__(self, i: int | slice) -> Sentence | Treebank:
        if isinstance(i, slice):
            return Treebank(self.sentences[i], self.name)
        return self.sentences[i]

    def __eq__(self, other: object) -> bool:
        """The same sentences (a list of Sentences compares as a Treebank of them)."""
        if isinstance(other, Treebank):
            return self.sentences == other.sentences
        if isinstance(other, list):
            return self.sentences == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Treebank({self.name!r}, {len(self)} sentences, {self.words} words)"


def name_of(corpus: str | os.PathLike[str] | Treebank | Sequence[Sentence]) -> str:
    """The name messages and reports give CORPUS: its path, or the Treebank's name."""
    return corpus.name if isinstance(corpus, Treebank) else \
        "<sentences>" if isinstance(corpus, Sequence) and not isinstance(corpus, str) \
        else str(corpus)


def as_treebank(corpus: Any) -> Any:
    """CORPUS as the API reads it: a path as it is; a Treebank, or any other iterable of
    Sentences (a Noised corpus's sentences, your own), as a Treebank, its sentences
    checked as a file's are read (:func:`check_sentences`)."""
    if isinstance(corpus, str | os.PathLike):
        return corpus
    bank = corpus if isinstance(corpus, Treebank) else Treebank(corpus, "<sentences>")
    check_sentences(bank, bank.name)
    return bank


_TEXT_COLUMNS = ("forms", "lemmas", "upos", "xpos", "feats", "deprels", "deps", "misc")


def check_sentences(sentences: Iterable[object], name: str) -> None:
    """Refuse, in one line naming the sentence, what the caller's code made of Sentences
    that no CoNLL-U file can hold (the reader refuses such a file): columns of other
    lengths than the words, a HEAD outside the sentence or not a number, a value that
    is not a string or holds a tab or a line break. A Sentence is a plain object that
    can be changed after it was read, so it is looked at where the API takes it."""
    items = sentences.sentences if type(sentences) is Treebank else sentences
    if _sound_sentences is not None and type(items) is list \
            and _sound_sentences(items, Sentence):
        # the common case, its columns in C, its multiword tokens and empty nodes too
        # (else here, to say what is wrong)
        if _sound_tokens is not None and _sound_tokens(items):
            return
        for k, s in enumerate(items, 1):
            if s.multiword or s.empty_nodes:
                problem = _token_problem(s, len(s.forms))
                if problem is not None:
                    raise InputError(f"sentence {k}: {problem}", name)
        return  # else word by word, to say what is wrong
    for k, s in enumerate(sentences, 1):
        problem = _problem(s)
        if problem is not None:
            raise InputError(f"sentence {k}: {problem}", name)


_sound_sentences: Callable[[list[Any], type[Any]], bool] | None
_sound_tokens: Callable[[list[Any]], bool] | None
try:
    from parsebench.formats._conllu_fast import sound_sentences as _sound_sentences
    from parsebench.formats._conllu_fast import sound_tokens as _sound_tokens
except ImportError:  # built without a C compiler
    _sound_sentences = _sound_tokens = None


def _problem(s: object) -> str | None:
    if not isinstance(s, Sentence):
        return f"a {type(s).__name__}, not a Sentence"
    if not isinstance(s.forms, list) or not s.forms:
        return "no words"
    n = len(s.forms)
    for col in (*_TEXT_COLUMNS, "heads"):
        values = getattr(s, col)
        if not isinstance(values, list) or len(values) != n:
            got = len(values) if isinstance(values, list) else type(values).__name__
            return f"{col} has {got} values for its {n} words"
    for col in _TEXT_COLUMNS:
        for i, v in enumerate(getattr(s, col)):
            if type(v) is not str or "\t" in v or "\n" in v:
                return (f"{col} of word {i + 1} is {v!r}: a string without tabs or line "
                        "breaks")
    for i, h in enumerate(s.heads):
        if type(h) is not int or not (h == NO_HEAD or 0 <= h <= n):
            return (f"HEAD of word {i + 1} is {h!r}: a number from 0 to {n}, or {NO_HEAD} "
                    "for none")
    return _token_problem(s, n)


def _token_problem(s: Sentence, n: int) -> str | None:
    """A multiword token's range or an empty node's place that no file can hold (the
    reader refuses a range past the sentence's end)."""
    if not isinstance(s.multiword, list) or not isinstance(s.empty_nodes, list):
        return "multiword tokens and empty nodes must be lists"
    for m in s.multiword:
        if not (isinstance(m, tuple) and len(m) == 3 and type(m[0]) is type(m[1]) is int
                and 0 <= m[0] <= m[1] < n and _columns(m[2])):
            return (f"multiword token {m!r}: expected (first, last, 10 columns), words 0 "
                    f"to {n - 1}")
    for e in s.empty_nodes:
        if not (isinstance(e, tuple) and len(e) == 2 and type(e[0]) is int
                and 0 <= e[0] <= n and _columns(e[1])):
            return f"empty node {e!r}: expected (words before it, 10 columns), 0 to {n}"
    return None


def _columns(cols: object) -> bool:
    return isinstance(cols, list) and len(cols) == 10 and all(
        type(c) is str and "\t" not in c and "\n" not in c for c in cols)

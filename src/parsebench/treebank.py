"""A corpus in memory: what the Python API takes wherever a command takes a file.

Wraps a list of :class:`~parsebench.formats.conllu.Sentence` (the reader every command
uses, so a Treebank scores exactly as its file does) with constructors from a file, a
CoNLL-U string, Sentence objects or the ``conllu`` library's TokenLists.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, overload

from parsebench.formats.conllu import Sentence, iter_sentences, read_conllu, write_conllu


class Treebank(Sequence[Sentence]):
    """Sentences in memory, with a name that messages and reports use for their file."""

    def __init__(self, sentences: Iterable[Sentence] = (), name: str = "<treebank>") -> None:
        self.sentences = list(sentences)
        self.name = name

    @classmethod
    def read(cls, path: str | os.PathLike[str]) -> Treebank:
        """A CoNLL-U file, checked as every command checks it (``FILE:LINE: ...``)."""
        return cls(read_conllu(path), str(path))

    @classmethod
    def from_text(cls, text: str, name: str = "<text>") -> Treebank:
        """CoNLL-U text (a string), e.g. a parser's answer."""
        lines = text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        return cls(iter_sentences([ln.removesuffix("\r") for ln in lines], name), name)

    @classmethod
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
                raise TypeError(f"sentence {k + 1}: a Sentence, a conllu TokenList or "
                                f"CoNLL-U text, not {type(s).__name__}")
            out.extend(cls.from_text(text, f"{name}[{k}]"))
        return cls(out, name)

    def write(self, path: str | os.PathLike[str]) -> None:
        """Write CoNLL-U; the file appears whole or not at all."""
        from parsebench.errors import atomic_output, check_output

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
    Sentences (a Noised corpus's sentences, your own), as a Treebank."""
    if isinstance(corpus, str | os.PathLike | Treebank):
        return corpus
    return Treebank(corpus, "<sentences>")

"""A corpus to noise, read as often as the noise needs, a sentence at a time: a CoNLL-U
file, a text file (a sentence a line, words split on spaces), or sentences in memory.

Noise reads its input several times (to plan, then to write each replicate) and
never holds it: a file is read again each time, so memory stays flat in its size.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from itertools import islice
from pathlib import Path
from typing import TextIO, cast

from parsebench.common.errors import iter_lines
from parsebench.formats.conllu import (
    NO_HEAD,
    Sentence,
    iter_conllu,
    looks_like_conllu,
    write_conllu,
)

CorpusLike = str | os.PathLike[str] | Iterable[Sentence]
"""What noise is given: a file's path, or sentences (a treebank in memory)."""


class Source:
    """CORPUS, read again on every call. A file is CoNLL-U when its name or its first
    lines say so (as ``parse`` reads it); sentences in memory are CoNLL-U."""

    def __init__(self, corpus: CorpusLike) -> None:
        self.path: Path | None = None
        self.held: Sequence[Sentence] | None = None
        if isinstance(corpus, (str, os.PathLike)):
            self.path = Path(corpus)
            self.conllu = looks_like_conllu(self.path, islice(iter_lines(self.path), 1000))
            return
        # a one-pass iterable is kept: it cannot be read again
        held: Sequence[object] = corpus if isinstance(corpus, Sequence) else list(corpus)
        wrong = next((s for s in held if not isinstance(s, Sentence)), None)
        if wrong is not None:
            raise TypeError("corpus: expected a file's path or Sentences, not a list of "
                            f"{type(wrong).__name__}")
        from parsebench.model.treebank import check_sentences

        check_sentences(held, getattr(corpus, "name", "<sentences>"))
        self.held, self.conllu = cast("Sequence[Sentence]", held), True

    def sentences(self) -> Iterator[Sentence]:
        """The sentences of CoNLL-U (a file, or those in memory)."""
        if self.held is not None:
            return iter(self.held)
        assert self.path is not None and self.conllu
        return iter_conllu(self.path)

    def each(self) -> Iterator[Sentence]:
        """Every sentence: CoNLL-U's, or a text file's lines as sentences of their words
        (:func:`words_only`, numbered by their line; an empty line left out)."""
        if self.conllu:
            yield from self.sentences()
            return
        for k, words in enumerate(self.lines()):
            if words:
                yield words_only(words, k + 1)

    def lines(self) -> Iterator[list[str]]:
        """The words of each line of a text file (none for an empty line)."""
        assert self.path is not None and not self.conllu
        return (ln.split() for ln in iter_lines(self.path))

    def words(self) -> Iterator[tuple[Sequence[str], set[int]]]:
        """Each sentence's words and the rows inside its multiword tokens (never noised)."""
        if not self.conllu:
            return ((words, set()) for words in self.lines())
        return ((s.forms, {i for a, b, _ in s.multiword for i in range(a, b + 1)})
                for s in self.sentences())


def words_only(forms: list[str], line: int = 0) -> Sentence:
    """A sentence of FORMS and nothing else (every other column ``_``): a line of text."""
    n = len(forms)
    return Sentence(forms=forms, lemmas=["_"] * n, upos=["_"] * n, xpos=["_"] * n,
                    feats=["_"] * n, heads=[NO_HEAD] * n, deprels=["_"] * n, deps=["_"] * n,
                    misc=["_"] * n, line=line)


def write_sentence(fh: TextIO, s: Sentence, conllu: bool) -> None:
    """S as the noise writes it: CoNLL-U, or its words on one line of text."""
    if conllu:
        write_conllu([s], fh)
    else:
        fh.write(" ".join(s.forms) + "\n")

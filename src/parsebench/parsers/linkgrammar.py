"""Link Grammar (Debian ``link-grammar``, ``python3-link-grammar``): undirected labeled links.

The first linkage only (Kakkonen). When no full linkage exists the sentence is
parsed again with null links allowed (words left out of the linkage), so a
partial analysis is kept rather than a failure; ``max_parse_time`` bounds the
search and the pool's hard timeout covers the cases where it is not kept.
Link Grammar re-tokenizes (``U.S.`` becomes ``U.S`` + ``.``), so its words are
mapped back to the input words by their character offsets; links inside one
input word are dropped, links to the left wall are kept as links to word 0,
links to the right wall are dropped.
"""

from __future__ import annotations

import os
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from parsebench.errors import InputError
from parsebench.parsers.base import Adapter, Analysis, Failure, Item, Outcome


@contextmanager
def _quiet() -> Iterator[None]:
    """Silence the C library's notes (on stdout and stderr) while the dictionary loads."""
    saved = [os.dup(1), os.dup(2)]
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        yield
    finally:
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        for fd in (*saved, devnull):
            os.close(fd)


class LinkGrammar(Adapter):
    name = "linkgrammar"
    kind = "links"

    def __init__(self, arg: str | None) -> None:
        super().__init__(arg)
        os.environ.setdefault("LC_ALL", "C.UTF-8")
        try:
            import linkgrammar as lg
        except ImportError:
            raise InputError("linkgrammar: the Python bindings are missing; install Debian's "
                             "python3-link-grammar and link-grammar-dictionaries-en (make "
                             "test does)") from None
        self.lg = lg
        with _quiet():
            self.dictionary = lg.Dictionary(arg or "en")
        self.opts = lg.ParseOptions(verbosity=0, spell_guess=0, linkage_limit=100)

    def identity(self) -> dict[str, str]:
        return {"adapter": self.name, "version": self.lg.__version__,
                "dictionary": self.arg or "en"}

    @classmethod
    def spec_identity(cls, arg: str | None) -> dict[str, str] | None:
        try:
            import linkgrammar as lg
        except ImportError:
            return None
        return {"adapter": cls.name, "version": lg.__version__, "dictionary": arg or "en"}

    def _linkage(self, text: str) -> Any:
        lg = self.lg
        self.opts.max_parse_time = max(1, int(self.timeout * 0.8))
        for nulls in (0, 1):
            self.opts.min_null_count = nulls
            self.opts.max_null_count = 0 if nulls == 0 else 250
            linkages = lg.Sentence(text, self.dictionary, self.opts).parse()
            if len(linkages):
                return next(iter(linkages))
        return None

    def parse(self, batch: Sequence[Item], tokenize: bool = False) -> Iterator[Outcome]:
        clg = self.lg.Clinkgrammar
        for item in batch:
            text = " ".join(item.words)
            starts = []
            pos = 0
            for w in item.words:
                starts.append(pos)
                pos += len(w) + 1
            linkage = self._linkage(text)
            if linkage is None:
                yield Failure("no linkage")
                continue
            n = linkage.num_of_words()
            owner: list[int | None] = []
            for i in range(n):
                word = linkage.word(i)
                if word == "LEFT-WALL":
                    owner.append(0)
                elif word == "RIGHT-WALL":
                    owner.append(None)
                else:
                    c = linkage.word_char_start(i)
                    owner.append(bisect_right(starts, c))
            links = set()
            obj = linkage._obj
            for k in range(linkage.num_of_links()):
                a = owner[clg.linkage_get_link_lword(obj, k)]
                b = owner[clg.linkage_get_link_rword(obj, k)]
                if a is None or b is None or a == b:
                    continue
                links.add((min(a, b), max(a, b), clg.linkage_get_link_label(obj, k)))
            yield Analysis(links=sorted(links))

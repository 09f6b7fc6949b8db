"""Parses made elsewhere: ``precomputed:FILE`` (CoNLL-U or bracketed trees, same sentences).

Sentence i of the file answers sentence i of the input: the file must have as many
sentences as the input and the same words in each, so a file made from another text
(or a longer one, or a part of it) is refused in one line before any work, not scored.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from parsebench.common.errors import InputError
from parsebench.formats.brackets import Tree
from parsebench.model.parses import read_parses
from parsebench.parsers.base import Adapter, Analysis, Failure, Item, Outcome, file_digest


class Precomputed(Adapter):
    name = "precomputed"

    def __init__(self, arg: str | None) -> None:
        super().__init__(arg)
        if not arg:
            raise InputError("precomputed needs a file: precomputed:PARSES.conllu")
        self.parses = read_parses(arg)
        kinds = {p.kind for p in self.parses}
        self.kind = "tree" if "tree" in kinds else "links" if "links" in kinds else "deps"

    @classmethod
    def check_input(cls, arg: str | None, items: Sequence[Item]) -> None:
        if not arg:
            raise InputError("precomputed needs a file: precomputed:PARSES.conllu")
        parses = read_parses(arg)
        if len(parses) != len(items):
            n = len(parses)
            raise InputError(f"{n:,} sentence{'s' if n != 1 else ''}, but the input has "
                             f"{len(items):,}: "
                             "a precomputed file answers its input sentence for sentence",
                             arg)
        for item, p in zip(items, parses, strict=True):
            if p.forms != item.words:
                raise InputError(f"sentence {item.index + 1} has other words than the "
                                 f"input's: {_first_difference(p.forms, item.words)}",
                                 arg, p.line)

    @classmethod
    def spec_identity(cls, arg: str | None) -> dict[str, str] | None:
        return {"adapter": cls.name, "file": file_digest(arg)} if arg else None

    def parse(self, batch: Sequence[Item], tokenize: bool = False) -> Iterator[Outcome]:
        for item in batch:
            if item.index >= len(self.parses):
                yield Failure(f"{self.arg} has only {len(self.parses)} sentences")
                continue
            p = self.parses[item.index]
            if p.forms != item.words:
                raise InputError(f"sentence {item.index + 1} has other words than the input",
                                 self.arg, p.line)
            if p.failed is not None:
                yield Failure(p.failed)
            elif p.kind == "tree":
                assert isinstance(p.tree, Tree)
                yield Analysis(tree=" ".join(str(p.tree).split()))
            else:
                yield Analysis(heads=p.heads, deprels=p.deprels, upos=p.upos, xpos=p.xpos,
                               links=p.links if p.kind == "links" else None)


def _first_difference(got: Sequence[str], want: Sequence[str]) -> str:
    for i, (a, b) in enumerate(zip(got, want, strict=False)):
        if a != b:
            return f"word {i + 1} is {a!r}, the input's {b!r}"
    return f"{len(got)} words, the input's {len(want)}"

"""Parses made elsewhere: ``precomputed:FILE`` (CoNLL-U or bracketed trees, same sentences).

Sentence i of the file answers sentence i of the input; its words must be
the input's words, so a file made from another text is caught, not scored.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from parsebench.errors import InputError
from parsebench.formats.brackets import Tree
from parsebench.parsers.base import Adapter, Analysis, Failure, Item, Outcome, file_digest
from parsebench.parses import read_parses


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

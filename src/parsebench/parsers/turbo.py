"""TurboParser 2.3 (Martins et al.; C++) and TweeboParser (Kong et al. 2014, its fork
for tweets): ``turbo:MODEL,tagger=T.udpipe[,binary=TurboParser]`` and
``tweebo:MODEL,tagger=T.udpipe[,binary=TBParser/TurboParser]``.

Both are graph-based parsers with higher-order parts decoded by dual decomposition,
two of Hashemi & Hwa's eight. The binary is ``binary=`` or ``$TURBOPARSER``
(``$TWEEBOPARSER``). It is its own bridge (:mod:`parsebench.parsers.jvm`): one
process a worker loads the model and runs its ``--test`` loop on ``/dev/stdin`` and
``/dev/stdout``, which parses and writes a sentence before it reads the next, so
the parse of a sentence is what its command line gives.

TurboParser reads FORM, LEMMA, CPOSTAG, POSTAG and FEATS of CoNLL-X: the tagger's
LEMMA, UPOS, XPOS and FEATS. TweeboParser reads fourteen columns (CoNLL-X, then
Brown clusters and token selection); its authors' clusters, token selector and
tagger are not published with it, so every word is selected, the cluster columns
are ``_`` and both tag columns hold UPOS, as ``parsebench train tweebo`` trains it.
Neither forces one root: a sentence with several words attached to 0 is kept as
the parser gave it (scored under the invalid-tree policy chosen), and a word
TweeboParser leaves out of the tree (head -1) is kept with no head (``_``).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from parsebench.common.errors import InputError
from parsebench.parsers.base import Analysis, Failure
from parsebench.parsers.jvm import (
    JavaAdapter,
    JavaBridge,
    cell,
    find_program,
    read_answer,
    split_options,
)
from parsebench.parsers.tagging import UDPipeTagger


def turbo_row(i: int, form: str, lemma: str, cpos: str, pos: str, feats: str,
              head: str = "0", deprel: str = "_") -> str:
    """One word as the ten CoNLL-X columns TurboParser reads (HEAD an integer even when
    parsing)."""
    return (f"{i}\t{cell(form)}\t{cell(lemma)}\t{cell(cpos)}\t{cell(pos)}\t{cell(feats)}\t"
            f"{head}\t{cell(deprel)}\t_\t_")


def tweebo_row(i: int, form: str, lemma: str, upos: str, feats: str, head: str = "0",
               deprel: str = "_") -> str:
    """One word as TweeboParser's fourteen columns: UPOS in both tag columns, no Brown
    clusters, the word selected."""
    return turbo_row(i, form, lemma, upos, upos, feats, head, deprel) + "\t_\t_\t_\t1"


class Turbo(JavaAdapter):
    name = "turbo"
    OPTIONS = ("binary", "tagger")
    USAGE = "turbo:MODEL,tagger=TAGGER.udpipe[,binary=TurboParser]"
    JAR_ENV = "TURBOPARSER"
    WHAT = "TurboParser"
    WHERE = ("TurboParser 2.3, built from github.com/andre-martins/TurboParser; see the "
             "README")
    BRIDGE = ""
    UNATTACHED = False
    """Whether a head of -1 (a word left out of the tree) can come back."""

    @classmethod
    def program(cls, opts: dict[str, str], training: bool = False) -> str:
        return find_program(opts.get("binary"), cls.JAR_ENV, cls.WHAT, cls.WHERE, "binary",
                            training)

    def __init__(self, arg: str | None) -> None:
        super().__init__(arg)
        model, opts = split_options(self.name, arg, self.OPTIONS, self.USAGE)
        if not os.path.isfile(model):
            raise InputError(f"no such {self.WHAT} model file", model)
        binary = self.program(opts)
        self.tagger = UDPipeTagger(opts.get("tagger"), self.name)
        probe = self.row(1, ".", ".", "PUNCT", ".", "_")
        self.bridge = JavaBridge(
            self.WHAT, [binary, "--test", f"--file_model={os.path.abspath(model)}",
                        "--file_test=/dev/stdin", "--file_prediction=/dev/stdout",
                        "--logtostderr"], probe=[probe], runtime=self.WHAT)
        self.bridge.start()

    def row(self, i: int, form: str, lemma: str, upos: str, xpos: str, feats: str) -> str:
        return turbo_row(i, form, lemma, upos, xpos, feats)

    def rows(self, words: Sequence[str], tags: Any) -> list[str]:
        return [self.row(i, w, tags.lemmas[i - 1], tags.upos[i - 1], tags.xpos[i - 1],
                         tags.feats[i - 1]) for i, w in enumerate(words, 1)]

    def answer(self, lines: list[str], n: int) -> Analysis | Failure:
        """Its output rows (ID FORM LEMMA CPOSTAG POSTAG _ HEAD DEPREL): HEAD and DEPREL."""
        pairs = []
        for line in lines:
            cols = line.split("\t")
            if len(cols) < 8:
                return Failure(f"unreadable answer line {line[:80]!r}")
            pairs.append(f"{cols[6]}\t{cols[7]}")
        return read_answer(pairs, n, unattached=self.UNATTACHED)


class Tweebo(Turbo):
    name = "tweebo"
    USAGE = "tweebo:MODEL,tagger=TAGGER.udpipe[,binary=TBParser/TurboParser]"
    JAR_ENV = "TWEEBOPARSER"
    WHAT = "TweeboParser"
    WHERE = ("TweeboParser's TBParser, built from github.com/ikekonglp/TweeboParser; see "
             "the README")
    UNATTACHED = True

    def row(self, i: int, form: str, lemma: str, upos: str, xpos: str, feats: str) -> str:
        return tweebo_row(i, form, lemma, upos, feats)

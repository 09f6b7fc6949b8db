"""Mate's graph-based parser anna 3.61 (Bohnet 2010; Java): ``mate:MODEL,tagger=T.udpipe
[,pos=xpos|upos][,jar=JAR]``.

Second-order, non-projective, with a hash kernel: one of Hashemi & Hwa's eight.
The jar is ``jar=`` or ``$MATE_JAR``; one JVM a worker loads the model once, one
thread (:mod:`parsebench.parsers.jvm`, bridge ``MateServer.java``), and each
sentence goes through the loop of its ``-test`` command, so a parse is what its
command line gives with ``-cores 1``.

It reads CoNLL 2009's fourteen columns and its features use the "predicted" ones
(PLEMMA, PPOS, PFEAT): the tagger's lemma, tag and features for the words it is
given go in both the gold and predicted columns. Which tag: ``pos=``, else what
``parsebench train mate`` wrote beside the model, else XPOS (the Penn tags of the
CoNLL 2009 English data the parser was made for; ``upos`` for a treebank without
XPOS). The predicted PHEAD and PDEPREL are read back; the words stay as given.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from typing import Any

from parsebench.common.errors import InputError
from parsebench.parsers.jvm import (
    JavaAdapter,
    JavaBridge,
    bridge_command,
    cell,
    java_command,
    split_options,
)
from parsebench.parsers.tagging import UDPipeTagger
from parsebench.parsers.trained import trained_settings

USAGE = "mate:MODEL,tagger=TAGGER.udpipe[,pos=xpos|upos][,jar=anna-3.61.jar]"
JAR_ENV = "MATE_JAR"
WHERE = "Mate tools' anna-3.61.jar, built from github.com/jgrivolla/mate-tools; see " \
    "the README"


def conll09_row(i: int, form: str, lemma: str, pos: str, feats: str, head: str = "_",
                deprel: str = "_") -> str:
    """One word as CoNLL 2009's fourteen columns, each value in its gold and predicted
    column."""
    form, lemma, pos, feats = cell(form), cell(lemma), cell(pos), cell(feats)
    return (f"{i}\t{form}\t{lemma}\t{lemma}\t{pos}\t{pos}\t{feats}\t{feats}\t{head}\t_\t"
            f"{deprel}\t_\t_\t_")


def mate_pos(model: str, opts: dict[str, str]) -> str:
    """The tag column Mate reads: the spec's, else the training's, else XPOS."""
    pos = opts.get("pos") or str(trained_settings(model).get("pos", "xpos"))
    if pos not in ("xpos", "upos"):
        raise InputError(f"mate: pos is xpos or upos, not {pos!r}: {USAGE}")
    return pos


class Mate(JavaAdapter):
    name = "mate"
    OPTIONS = ("jar", "tagger", "pos")
    USAGE, JAR_ENV, WHAT, WHERE, BRIDGE = USAGE, JAR_ENV, "Mate", WHERE, "MateServer.java"

    @classmethod
    def settings(cls, model: str, opts: dict[str, str]) -> dict[str, str]:
        return {"pos": mate_pos(model, opts)}

    def __init__(self, arg: str | None) -> None:
        super().__init__(arg)
        model, opts = split_options(self.name, arg, self.OPTIONS, USAGE)
        if not os.path.isfile(model):
            raise InputError("no such Mate model file", model)
        self.pos = mate_pos(model, opts)
        jar = self.program(opts)
        java = java_command()
        self.tagger = UDPipeTagger(opts.get("tagger"), self.name)
        self.scratch = tempfile.TemporaryDirectory(prefix="parsebench-mate-")
        self.bridge = JavaBridge(
            "Mate", [*bridge_command(java, jar, self.BRIDGE), self.scratch.name,
                     "-model", os.path.abspath(model), "-cores", "1"])
        self.bridge.start()

    def rows(self, words: Sequence[str], tags: Any) -> list[str]:
        pos = tags.xpos if self.pos == "xpos" else tags.upos
        return [conll09_row(i, w, tags.lemmas[i - 1], pos[i - 1], tags.feats[i - 1])
                for i, w in enumerate(words, 1)]

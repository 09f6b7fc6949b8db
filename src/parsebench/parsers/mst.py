"""MSTParser 0.4.3b (McDonald et al.; Java): ``mst:MODEL,tagger=T.udpipe[,order=1|2]
[,decode=proj|non-proj][,pos=xpos|upos][,jar=JAR]``.

The graph-based, maximum-spanning-tree parser of Hashemi & Hwa's eight: first- or
second-order features, Eisner's projective or Chu-Liu-Edmonds' non-projective
decoding. The model file does not say which order and decoding it was trained
with and MSTParser must be told the same again: ``order=`` and ``decode=``, else
what ``parsebench train mst`` wrote beside the model (MODEL.json), else
MSTParser's own defaults (first order, projective). The jar is ``jar=`` or
``$MSTPARSER_JAR``; one JVM a worker loads the model once
(:mod:`parsebench.parsers.jvm`, bridge ``MstServer.java``), and each sentence goes
through MSTParser's own ``test`` loop, so a parse is what its command line gives.

It reads FORM, LEMMA, CPOSTAG, POSTAG and FEATS of ten-column CoNLL-X: the
tagger's LEMMA, UPOS, XPOS and FEATS for the words it is given; with ``pos=upos``
(else what the training wrote beside the model) UPOS in POSTAG too, for a treebank
without XPOS. Its reader keeps
no comments, multiword tokens or empty nodes (none reach it), and it writes
numbers as ``<num>``: only HEAD and DEPREL are read back, the words stay as given.
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

USAGE = ("mst:MODEL,tagger=TAGGER.udpipe[,order=1|2][,decode=proj|non-proj][,pos=xpos|upos]"
         "[,jar=JAR]")
JAR_ENV = "MSTPARSER_JAR"
WHERE = "MSTParser 0.4.3b, built from its authors' Java source (tag v0.4.3b of " \
    "github.com/travisbrown/mstparser); see the README"


def conllx_rows(words: Sequence[str], tags: Any, pos: str = "xpos") -> list[str]:
    """A sentence as ten-column CoNLL-X with the tagger's columns and no tree (HEAD 0,
    which MSTParser's reader needs as an integer); POS ``upos``: UPOS as POSTAG too."""
    fine = tags.xpos if pos == "xpos" else tags.upos
    return [f"{i}\t{cell(w)}\t{cell(tags.lemmas[i - 1])}\t{cell(tags.upos[i - 1])}\t"
            f"{cell(fine[i - 1])}\t{cell(tags.feats[i - 1])}\t0\t_\t_\t_"
            for i, w in enumerate(words, 1)]


def mst_settings(model: str, opts: dict[str, str]) -> dict[str, str]:
    """Order, decoding and the tag in POSTAG: the spec's, else the training's, else
    MSTParser's defaults (and XPOS)."""
    trained = trained_settings(model)
    order = opts.get("order") or str(trained.get("order", "1"))
    decode = opts.get("decode") or str(trained.get("decode", "proj"))
    pos = opts.get("pos") or str(trained.get("pos", "xpos"))
    if pos not in ("xpos", "upos"):
        raise InputError(f"mst: pos is xpos or upos, not {pos!r}: {USAGE}")
    if order not in ("1", "2"):
        raise InputError(f"mst: order is 1 or 2, not {order!r}: {USAGE}")
    if decode not in ("proj", "non-proj"):
        raise InputError(f"mst: decode is proj or non-proj, not {decode!r}: {USAGE}")
    return {"order": order, "decode": decode, "pos": pos}


class MST(JavaAdapter):
    name = "mst"
    OPTIONS = ("jar", "tagger", "order", "decode", "pos")
    USAGE, JAR_ENV, WHAT, WHERE, BRIDGE = USAGE, JAR_ENV, "MSTParser", WHERE, "MstServer.java"

    @classmethod
    def settings(cls, model: str, opts: dict[str, str]) -> dict[str, str]:
        """The settings in the parser's identity: XPOS, the default, is left out, so
        that parses stored before ``pos=`` existed keep their cache key."""
        got = mst_settings(model, opts)
        return got if got["pos"] != "xpos" else {k: v for k, v in got.items() if k != "pos"}

    def __init__(self, arg: str | None) -> None:
        super().__init__(arg)
        model, opts = split_options(self.name, arg, self.OPTIONS, USAGE)
        if not os.path.isfile(model):
            raise InputError("no such MSTParser model file", model)
        if ":" in os.path.abspath(model):  # MSTParser splits its options on colons
            raise InputError("MSTParser cannot load a model whose path holds a colon", model)
        got = mst_settings(model, opts)
        self.pos = got["pos"]
        jar = self.program(opts)
        java = java_command()
        self.tagger = UDPipeTagger(opts.get("tagger"), self.name)
        self.scratch = tempfile.TemporaryDirectory(prefix="parsebench-mst-")
        java_run, *bridge = bridge_command(java, jar, self.BRIDGE)
        # MSTParser makes an empty test*.forest in Java's temporary folder at every start,
        # left behind when the JVM is killed (a hang's timeout): in the scratch folder
        self.bridge = JavaBridge(
            "MSTParser", [java_run, f"-Djava.io.tmpdir={self.scratch.name}", *bridge,
                          os.path.abspath(model), got["order"], got["decode"],
                          self.scratch.name])
        self.bridge.start()

    def rows(self, words: Sequence[str], tags: Any) -> list[str]:
        return conllx_rows(words, tags, self.pos)

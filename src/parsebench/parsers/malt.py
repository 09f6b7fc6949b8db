"""MaltParser 1.9.2 (Nivre et al.; Java): ``malt:MODEL.mco,tagger=TAGGER.udpipe[,jar=JAR]``.

The Malt family is the transition-based parser Bigert et al. and Hashemi & Hwa
measured. The jar is ``jar=`` or ``$MALTPARSER_JAR`` (MaltParser's authors
publish it; its ``lib/`` folder beside it); one JVM loads the model and parses
every sentence of a worker (:mod:`parsebench.parsers.jvm`). MaltParser reads
part-of-speech tags: UDPipe's tagger gives them from the words the parser gets
(:mod:`parsebench.parsers.tagging`), never the gold's, and the parse keeps
them in its tag columns.

What goes in and out: the words with the tagger's LEMMA, UPOS, XPOS and FEATS as
CoNLL-U's first six columns (the input columns of MaltParser's ``conllu``
format), a sentence at a time; HEAD and DEPREL come back. Multiword tokens,
empty nodes and comments never reach it: the ``parse`` command keeps the input's
rows and fills in the words' columns. MaltParser attaches words left unattached
at the end (arc-eager leaves some on its stack) to the root with its default root
label, ``ROOT`` unless the model was trained with ``-grl root``; a root's ``ROOT``
is written as UD's ``root``. Such sentences keep several roots, as the parser
gives them (``eval deps`` counts them in a warning). Its arc-eager system gives
projective trees only.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from parsebench.common.errors import InputError
from parsebench.parsers.jvm import (
    JavaAdapter,
    JavaBridge,
    bridge_command,
    cell,
    find_jar,
    java_command,
    split_options,
)
from parsebench.parsers.tagging import UDPipeTagger

USAGE = "malt:MODEL.mco,tagger=TAGGER.udpipe[,jar=maltparser-1.9.2.jar]"
JAR_ENV = "MALTPARSER_JAR"
WHERE = "MaltParser 1.9.2 from maltparser.org; see the README"


def malt_rows(words: Sequence[str], lemmas: Sequence[str], upos: Sequence[str],
              xpos: Sequence[str], feats: Sequence[str]) -> list[str]:
    """A sentence as the input columns of MaltParser's CoNLL-U format (a form that is
    empty or holds a tab would shift the columns: it goes as ``_``)."""
    return [f"{i}\t{cell(w)}\t{cell(lemmas[i - 1])}\t{cell(upos[i - 1])}\t"
            f"{cell(xpos[i - 1])}\t{cell(feats[i - 1])}" for i, w in enumerate(words, 1)]


class Malt(JavaAdapter):
    name = "malt"
    USAGE, JAR_ENV, WHAT, WHERE, BRIDGE = USAGE, JAR_ENV, "MaltParser", WHERE, "MaltServer.java"

    def __init__(self, arg: str | None) -> None:
        super().__init__(arg)
        model, opts = split_options(self.name, arg, self.OPTIONS, USAGE)
        if not model.endswith(".mco"):
            raise InputError(f"malt needs a MaltParser model file (.mco): {USAGE}")
        if not os.path.isfile(model):
            raise InputError("no such MaltParser model file", model)
        folder, base = os.path.split(os.path.abspath(model))
        name = base[:-len(".mco")]
        if any(c.isspace() for c in name):  # MaltParser splits its options on spaces
            raise InputError("MaltParser cannot load a model whose name holds a space",
                             model)
        jar = find_jar(opts.get("jar"), JAR_ENV, "MaltParser", WHERE)
        java = java_command()
        self.tagger = UDPipeTagger(opts.get("tagger"), self.name)
        self.bridge = JavaBridge(
            "MaltParser", [*bridge_command(java, jar, "MaltServer.java"),
                           "-c", name, "-m", "parse", "-v", "error"], cwd=folder)
        self.bridge.start()

    def rows(self, words: Sequence[str], tags: Any) -> list[str]:
        return malt_rows(words, tags.lemmas, tags.upos, tags.xpos, tags.feats)

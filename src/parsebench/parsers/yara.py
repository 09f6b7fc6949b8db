"""Yara (Rasooli & Tetreault 2015; Java): ``yara:MODEL,tagger=TAGGER.udpipe[,jar=JAR]``.

One of the eight parsers of Hashemi & Hwa (2016): arc-eager with beam search and
an averaged perceptron. The jar is ``jar=`` or ``$YARA_JAR`` (its authors'
``jar/YaraParser.jar``); one JVM loads the model and parses every sentence of a
worker (:mod:`parsebench.parsers.jvm`), with the model's own beam, root position
and lower-casing, one thread: what Yara's ``parse_conll ... nt:1`` gives.

Yara reads the fourth column of its ten-column CoNLL input as the tag, so it gets
UDPipe's UPOS for the words it is given (:mod:`parsebench.parsers.tagging`; never
the gold's), and the parse keeps the tagger's tag columns. It reads no comments,
multiword-token or empty-node lines; none reach it (the ``parse`` command keeps
the input's rows). Its trees are projective (it skips non-projective trees in
training); every word with the artificial root as head gets the root relation
of its training data. The punctuation file of its training only chooses what its
own dev report leaves out.
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

USAGE = "yara:MODEL,tagger=TAGGER.udpipe[,jar=YaraParser.jar]"
JAR_ENV = "YARA_JAR"
WHERE = "jar/YaraParser.jar of github.com/yahoo/YaraParser; see the README"


def yara_rows(words: Sequence[str], tags: Sequence[str]) -> list[str]:
    """A sentence as the bridge reads it: ``FORM<TAB>TAG`` a word (Yara would skip an
    empty form, shifting the heads: it goes as ``_``)."""
    return [f"{cell(w)}\t{cell(t)}" for w, t in zip(words, tags, strict=True)]


class Yara(JavaAdapter):
    name = "yara"
    USAGE, JAR_ENV, WHAT, WHERE, BRIDGE = USAGE, JAR_ENV, "Yara", WHERE, "YaraServer.java"

    def __init__(self, arg: str | None) -> None:
        super().__init__(arg)
        model, opts = split_options(self.name, arg, self.OPTIONS, USAGE)
        if not os.path.isfile(model):
            raise InputError("no such Yara model file", model)
        jar = find_jar(opts.get("jar"), JAR_ENV, "Yara", WHERE)
        java = java_command()
        self.tagger = UDPipeTagger(opts.get("tagger"), self.name)
        self.bridge = JavaBridge(
            "Yara", [*bridge_command(java, jar, "YaraServer.java"),
                     os.path.abspath(model)])
        self.bridge.start()

    def rows(self, words: Sequence[str], tags: Any) -> list[str]:
        return yara_rows(words, tags.upos)

"""Part-of-speech tags for the parsers that read them (MaltParser, Yara): UDPipe 1's
tagger, run on the words the parser is given.

Those parsers were trained on a treebank's gold tags, but a user parsing new or
noisy text has no gold tags: the tags come from a tagger that sees the same
(noisy) words as the parser, here UDPipe's tagger from a UDPipe model file
(``tagger=MODEL.udpipe``; its parser is not run). The gold file's tag columns are
never read: an adapter only ever gets the words.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from parsebench.common.errors import InputError


@dataclass(slots=True)
class Tags:
    """A sentence's tags, a list a column, one entry a word (``_`` where none)."""

    upos: list[str]
    xpos: list[str]
    feats: list[str]
    lemmas: list[str]


class UDPipeTagger:
    def __init__(self, path: str | None, who: str) -> None:
        if not path:
            raise InputError(f"{who} needs part-of-speech tags: add ,tagger=MODEL.udpipe "
                             "to the parser spec (UDPipe's tagger gives them)")
        if not os.path.isfile(path):
            raise InputError(f"{who}: no such tagger model file", path)
        try:
            from ufal.udpipe import Model
        except ImportError:
            raise InputError(f"{who}: its tagger needs ufal.udpipe: pip install "
                             "'parsebench[udpipe]'") from None
        self.model: Any = Model.load(path)
        if self.model is None:
            raise InputError("not a UDPipe model (or unreadable)", path)

    def tag(self, words: list[str]) -> Tags:
        from ufal.udpipe import Sentence

        s = Sentence()
        for w in words:
            s.addWord(w)
        self.model.tag(s, self.model.DEFAULT)
        got = list(s.words[1:])
        return Tags([w.upostag or "_" for w in got], [w.xpostag or "_" for w in got],
                    [w.feats or "_" for w in got], [w.lemma or "_" for w in got])

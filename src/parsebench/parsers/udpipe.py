"""UDPipe 1 (``ufal.udpipe``, extra ``udpipe``): tagger and Parsito parser from a model file.

Pre-tokenized words go straight into UDPipe sentences, so rows stay 1:1; raw
text goes through the model's tokenizer, and the sentences it finds in one
input line are joined into one analysis, where they begin kept (``starts``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence

from parsebench.common.errors import InputError
from parsebench.common.installed import version
from parsebench.parsers.base import Adapter, Analysis, Failure, Item, Outcome, file_digest


class UDPipe(Adapter):
    name = "udpipe"
    kind = "deps"
    raw_text = True

    def __init__(self, arg: str | None) -> None:
        super().__init__(arg)
        if not arg:
            raise InputError("udpipe needs a model file: udpipe:MODEL.udpipe")
        if not os.path.exists(arg):  # Model.load says only that it got no model
            raise InputError("no such file", arg)
        if os.path.isdir(arg):
            raise InputError("is a directory, expected a UDPipe model file", arg)
        from ufal.udpipe import Model

        self.model = Model.load(arg)
        if self.model is None:
            raise InputError("not a UDPipe model (or unreadable)", arg)

    @classmethod
    def spec_identity(cls, arg: str | None) -> dict[str, str] | None:
        if not arg:
            return None
        return {"adapter": cls.name, "version": version("ufal.udpipe"),
                "model": file_digest(arg)}

    def _analyse(self, sentences: list[object]) -> Analysis:
        a = Analysis(heads=[], deprels=[], upos=[], xpos=[], lemmas=[], feats=[], forms=[])
        tokens: list[tuple[int, int, str]] = []
        starts: list[int] = []
        offset = 0
        for s in sentences:
            if offset:
                starts.append(offset)
            words = s.words[1:]  # type: ignore[attr-defined]
            for t in s.multiwordTokens:  # type: ignore[attr-defined]
                tokens.append((t.idFirst - 1 + offset, t.idLast - 1 + offset, t.form))
            for w in words:
                a.forms.append(w.form)  # type: ignore[union-attr]
                a.heads.append(w.head + offset if w.head else 0)  # type: ignore[union-attr]
                a.deprels.append(w.deprel)  # type: ignore[union-attr]
                a.upos.append(w.upostag)  # type: ignore[union-attr]
                a.xpos.append(w.xpostag or "_")  # type: ignore[union-attr]
                a.lemmas.append(w.lemma or "_")  # type: ignore[union-attr]
                a.feats.append(w.feats or "_")  # type: ignore[union-attr]
            offset += len(words)
        a.tokens = tokens or None
        a.starts = starts or None
        return a

    def parse(self, batch: Sequence[Item], tokenize: bool = False) -> Iterator[Outcome]:
        from ufal.udpipe import ProcessingError, Sentence

        m = self.model
        for item in batch:
            sentences = []
            if tokenize:
                tok = m.newTokenizer(m.DEFAULT)
                tok.setText(item.text)
                err = ProcessingError()
                s = Sentence()
                while tok.nextSentence(s, err):
                    sentences.append(s)
                    s = Sentence()
                if err.occurred():
                    yield Failure(f"tokenizer: {err.message}")
                    continue
            else:
                s = Sentence()
                for w in item.words:
                    s.addWord(w)
                sentences.append(s)
            for s in sentences:
                m.tag(s, m.DEFAULT)
                m.parse(s, m.DEFAULT)
            yield self._analyse(sentences) if sentences else Failure("no words")

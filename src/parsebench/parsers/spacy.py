"""spaCy with any installed pipeline (extra ``spacy``): ``spacy:PIPELINE_OR_PATH``.

Pre-tokenized words become a ``Doc`` with every word after the first marked as
not starting a sentence, so the parser keeps one sentence per input line and
one row per word. spaCy's ``ROOT`` label is written as ``root``.
"""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Iterator, Sequence
from pathlib import Path

from parsebench.common.errors import InputError
from parsebench.common.installed import version
from parsebench.parsers.base import Adapter, Analysis, Item, Outcome


class SpaCy(Adapter):
    name = "spacy"
    kind = "deps"
    raw_text = True
    streaming = False  # nlp.pipe answers a batch at once

    def __init__(self, arg: str | None) -> None:
        super().__init__(arg)
        if not arg:
            raise InputError("spacy needs a pipeline: spacy:en_core_web_sm or spacy:PATH")
        _check_pipeline(arg)
        import spacy

        try:
            self.nlp = spacy.load(arg)
        except OSError as exc:
            raise InputError(f"spaCy cannot load pipeline {arg!r}: {exc}") from None

    def identity(self) -> dict[str, str]:
        known = self.spec_identity(self.arg)
        if known is not None:
            return known
        meta = self.nlp.meta
        return {"adapter": self.name, "version": version("spacy"),
                "model": f"{meta.get('lang')}_{meta.get('name')}-{meta.get('version')}"}

    @classmethod
    def spec_identity(cls, arg: str | None) -> dict[str, str] | None:
        """From the pipeline's ``meta.json``, as ``spacy.load`` reads it (an installed
        package before a folder), without importing spaCy."""
        if not arg or arg.startswith("blank:"):
            return None
        where = None
        if arg.isidentifier():
            found = importlib.util.find_spec(arg)
            if found is not None and found.submodule_search_locations:
                where = Path(next(iter(found.submodule_search_locations)))
        if where is None:
            where = Path(arg)
        try:
            meta = json.loads((where / "meta.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not (isinstance(meta, dict)
                and all(isinstance(meta.get(k), str) and meta[k]
                        for k in ("lang", "name", "version"))):
            return None
        return {"adapter": cls.name, "version": version("spacy"),
                "model": f"{meta['lang']}_{meta['name']}-{meta['version']}"}

    def parse(self, batch: Sequence[Item], tokenize: bool = False) -> Iterator[Outcome]:
        from spacy.tokens import Doc

        if tokenize:
            docs = [self.nlp.make_doc(item.text) for item in batch]
        else:
            docs = []
            for item in batch:
                doc = Doc(self.nlp.vocab, words=item.words)
                for tok in doc[1:]:
                    tok.is_sent_start = False
                docs.append(doc)
        for doc in self.nlp.pipe(docs, batch_size=max(1, len(docs))):
            yield Analysis(
                forms=[t.text for t in doc],
                heads=[0 if t.head.i == t.i else t.head.i + 1 for t in doc],
                deprels=["root" if t.dep_ == "ROOT" else t.dep_ for t in doc],
                upos=[t.pos_ or "_" for t in doc], xpos=[t.tag_ or "_" for t in doc],
                lemmas=[t.lemma_ or "_" for t in doc], feats=[str(t.morph) or "_" for t in doc],
                starts=[s.start for s in doc.sents][1:] or None if tokenize else None)


def _check_pipeline(arg: str) -> None:
    """Refuse what ``spacy.load`` can only call "can't find model" (E050) in words that say
    what to do: a pipeline package that is not installed, or a folder that is not there."""
    if arg.startswith("blank:") or Path(arg).exists():
        return
    if _is_package_name(arg):
        if importlib.util.find_spec(arg) is None:
            raise InputError(f"spaCy pipeline {arg!r} is not installed: install it with "
                             f"`python -m spacy download {arg}`, or give spacy:PATH to a "
                             "pipeline folder")
        return
    raise InputError("no such file or folder (a spaCy pipeline folder or package name "
                     "was expected)", arg)


def _is_package_name(arg: str) -> bool:
    return all(part.isidentifier() for part in arg.split("."))


"""SuPar's dependency parsers (extra ``supar``): ``supar:MODEL.pt``.

SuPar (Zhang et al.) holds the biaffine parser of Dozat & Manning with a
character LSTM, the architecture most current parsers build on. The adapter
feeds it pre-tokenized words, one sentence per input line, and decodes a
well-formed tree (``tree=True``, maximum spanning tree): without it the parser
can output cycles, which CoNLL 2018's evaluation refuses.

The model predicts heads and relations only. Its tag columns are left ``_``,
so tag metrics of its parses are n/a, not the input's tags passed through.

A SuPar model file is a pickle: loading it runs code, so load only model files
you trust (as with an experiment file). PyTorch 2.6 and later load weights only
by default, which SuPar 1.1.4's files do not support; the adapter asks for the
full load explicitly.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterator, Sequence
from typing import Any

from parsebench.common.errors import InputError
from parsebench.common.installed import version
from parsebench.parsers.base import Adapter, Analysis, Failure, Item, Outcome, file_digest


class SuPar(Adapter):
    name = "supar"
    kind = "deps"
    raw_text = False
    streaming = False  # one forward pass answers a batch at once

    def __init__(self, arg: str | None) -> None:
        super().__init__(arg)
        if not arg:
            raise InputError("supar needs a model file: supar:MODEL.pt")
        if not os.path.isfile(arg):
            raise InputError("no such model file", arg)
        # SuPar calls torch.load without weights_only; this asks for the full pickle.
        os.environ["TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD"] = "1"
        warnings.filterwarnings("ignore", module=r"(supar|torch)(\.|$)")
        import torch

        torch.set_num_threads(1)  # the pool gives each worker one core
        from supar import Parser

        try:
            self.parser: Any = Parser.load(arg)
        except Exception as exc:  # a torch/pickle error of any kind: not a SuPar model
            raise InputError(f"not a SuPar model ({type(exc).__name__}: {exc})"[:300],
                             arg) from None
        if type(getattr(self.parser, "transform", None)).__name__ != "CoNLL":
            raise InputError(f"a SuPar {getattr(self.parser, 'NAME', 'model')!r} model, "
                             "not a dependency parser", arg)

    @classmethod
    def spec_identity(cls, arg: str | None) -> dict[str, str] | None:
        if not arg:
            return None
        return {"adapter": cls.name, "version": version("supar"),
                "torch": version("torch"), "model": file_digest(arg), "decode": "tree"}

    def _predict(self, words: list[list[str]]) -> list[Analysis]:
        data = self.parser.predict(words, lang=None, tree=True, proj=False, prob=False,
                                   verbose=False)
        out = []
        for sentence in data.sentences:
            heads = [int(h) for h in sentence.arcs]
            deprels = [str(r) for r in sentence.rels]
            out.append(Analysis(heads=heads, deprels=deprels))
        return out

    def parse(self, batch: Sequence[Item], tokenize: bool = False) -> Iterator[Outcome]:
        todo = [it.words for it in batch if it.words]
        try:
            got = self._predict(todo) if todo else []
            if len(got) != len(todo):
                raise RuntimeError(f"{len(got)} parses for {len(todo)} sentences")
        except Exception:
            got = None  # the batch failed: parse a sentence at a time, to lose only one
        answers = iter(got or [])
        for it in batch:
            if not it.words:
                yield Failure("empty sentence")
            elif got is not None:
                yield next(answers)
            else:
                try:
                    yield self._predict([it.words])[0]
                except Exception as exc:
                    yield Failure(f"error: {type(exc).__name__}: {exc}"[:300])

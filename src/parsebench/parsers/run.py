"""``parsebench parse``: read sentences, run a parser in its pool, write parses and speed.

Input is CoNLL-U (its word rows are the pre-tokenized input; its tokenization, its
sentence ids and texts and its noise records are carried over to the output, nothing
of its annotation: :func:`parsebench.model.parses.to_conllu`) or text, one sentence
a line with words separated by spaces. With ``--raw`` a parser gets each document's text
(``# newdoc``; each sentence's where the input marks none) and writes the sentences it
found in it (ids ``ID.1``, ``ID.2``... of the document's first sentence). Output is CoNLL-U
for dependency, link and tag parsers and one bracketed tree a line for constituency parsers.
A failed sentence keeps its words: in CoNLL-U it has ``_`` heads and the
comments ``# parse_status = failed`` and ``# parse_error = REASON``; as a tree
it is the flat ``(PARSE-FAILED (X w1) ...)``. Speed (words/s, and seconds per
sentence against its length) is written beside the output as OUT.speed.json.
"""

from __future__ import annotations

import json
import os
import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from parsebench.common.errors import InputError, atomic_output
from parsebench.formats.conllu import (
    Sentence,
    basic_to_deps,
    write_conllu,
)
from parsebench.model.parses import document_text, documents, labelled, to_tree, unit_sentences
from parsebench.parsers.base import Analysis, Item, Timed, adapter_class
from parsebench.parsers.pool import Pool, check_options


def items_of(sentences: Sequence[Sentence]) -> list[Item]:
    return [Item(k, s.forms, s.text) for k, s in enumerate(sentences)]


@dataclass
class ParseRun:
    sentences: list[Sentence]
    timed: list[Timed]
    kind: str
    identity: dict[str, str]
    wall: float
    restarts: int
    copy_basic: bool = False
    """Each parse's basic tree copied into DEPS (``--copy-basic-to-deps``)."""
    units: list[list[Sentence]] | None = None
    """With raw text, what each parse was of (:func:`parsebench.model.parses.documents`);
    None: a sentence each."""

    def _units(self) -> list[list[Sentence]]:
        return self.units if self.units is not None else [[s] for s in self.sentences]

    def conllu(self) -> list[Sentence]:
        """The parses as CoNLL-U sentences (dependency parsers)."""
        out = [p for u, t in zip(self._units(), self.timed, strict=True)
               for p in unit_sentences(u, t.outcome)]
        if self.units is not None:  # the parser's own sentences: a text and an id each
            out = [labelled(s, n) for n, s in enumerate(out, 1)]
        return [basic_to_deps(s) for s in out] if self.copy_basic else out

    def speed(self) -> dict[str, Any]:
        # the words written: with --raw the parser's own tokens, not the input's
        lengths = [len(t.outcome.forms) if isinstance(t.outcome, Analysis) and t.outcome.forms
                   else sum(len(s.forms) for s in u)
                   for u, t in zip(self._units(), self.timed, strict=True)]
        words = sum(lengths)
        parse_seconds = sum(t.seconds for t in self.timed)
        failures = Counter(t.outcome.reason.split(":")[0] for t in self.timed
                           if not isinstance(t.outcome, Analysis))
        by_len: dict[int, list[float]] = {}
        for n, t in zip(lengths, self.timed, strict=True):
            by_len.setdefault(n, []).append(t.seconds)
        return {"parser": self.identity, "sentences": len(self.sentences), "words": words,
                "failures": sum(failures.values()), "failure_reasons": dict(failures),
                "wall_seconds": self.wall, "parse_seconds": parse_seconds,
                "words_per_second": words / parse_seconds if parse_seconds else None,
                "wall_words_per_second": words / self.wall if self.wall else None,
                "worker_restarts": self.restarts,
                "seconds_by_length": {str(k): {"sentences": len(v),
                                               "mean": statistics.fmean(v),
                                               "max": max(v)}
                                      for k, v in sorted(by_len.items())},
                "per_sentence": [[n, round(t.seconds, 6)]
                                 for n, t in zip(lengths, self.timed, strict=True)]}


def parse_sentences(sentences: list[Sentence], spec: str, workers: int = 1,
                    timeout: float = 60.0, tokenize: bool = False, batch_size: int = 16,
                    progress: Callable[[Timed], None] | None = None) -> ParseRun:
    check_options(workers, timeout, batch_size)
    if tokenize and not adapter_class(spec)[0].raw_text:
        raise InputError(f"parser {spec!r} cannot tokenize raw text; drop --raw")
    units = documents(sentences) if tokenize else None
    items = items_of(sentences) if units is None else [
        Item(k, [w for s in u for w in s.forms], document_text(u))
        for k, u in enumerate(units)]
    cls, arg = adapter_class(spec)
    cls.check_input(arg, items)
    t0 = time.perf_counter()
    with Pool(spec, workers, timeout, batch_size, tokenize) as pool:
        timed = pool.parse(items, progress)
        return ParseRun(sentences, timed, pool.kind, pool.identity, time.perf_counter() - t0,
                        pool.restarts, units=units)


def write_run(run: ParseRun, output: str | os.PathLike[str]) -> None:
    with atomic_output(output) as fh:
        if run.kind == "tree":
            fh.write("".join(to_tree(s, t.outcome) + "\n"
                             for s, t in zip(run.sentences, run.timed, strict=True)))
        else:
            write_conllu(run.conllu(), fh)
    with atomic_output(str(output) + ".speed.json") as fh:
        fh.write(json.dumps(run.speed(), indent=1) + "\n")

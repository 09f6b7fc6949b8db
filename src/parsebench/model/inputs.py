"""One check of what an input file holds, for every command and for the runner.

Each scoring method declares what it needs of a file (heads, relations, tags,
the same words as its partner); :func:`holds` counts what a file has, and
:func:`require` refuses it in one line naming the file and what is missing, or
:func:`missing` names the cause of an n/a. The same three calls sit under
``eval``, ``compare``, ``robustness`` and ``run``, so a guarantee cannot hold
in one command and fail in the next.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TypeVar

from parsebench.common.errors import InputError
from parsebench.formats.conllu import NO_HEAD, Sentence
from parsebench.model.parses import Parse

T = TypeVar("T", Parse, Sentence)

COLUMNS = {"heads": "heads", "upos": "UPOS tags", "xpos": "XPOS tags", "feats": "features",
           "lemmas": "lemmas"}
"""The columns of a CoNLL-U file a metric can need, and how a warning names them (the
CoNLL 2018 metrics say which they need: ``metrics.dependency.conll18.METRIC_NEEDS``)."""

NEEDS = {**COLUMNS, "labels": "dependency relations", "deps": "enhanced graphs (DEPS)"}
"""What a method can need of a parse file, and how a message names it."""


@dataclass
class Holds:
    """Counts of what a parse file carries, word by word."""

    path: str
    sentences: int = 0
    words: int = 0
    heads: int = 0
    labels: int = 0
    upos: int = 0
    xpos: int = 0
    feats: int = 0
    lemmas: int = 0
    deps: int = 0
    """Words with an enhanced graph's edges (DEPS)."""
    noise: int = 0
    """Words with a ``Noise=`` record: misspelled or learner-like errors."""
    failed: int = 0
    first_line: int | None = None

    def add(self, p: Parse | Sentence) -> None:
        if self.first_line is None:
            self.first_line = p.line
        self.sentences += 1
        if isinstance(p, Parse) and p.failed is not None:
            self.failed += 1
            return
        self.words += len(p.forms)
        if isinstance(p, Parse) and p.kind != "deps":
            # links, trees and rows carry their own structure
            self.heads += len(p.forms) if p.kind in ("links", "tree", "rows") else 0
            self.labels += len(p.forms)
            self.noise += sum(p.noise)
            if p.kind == "tree":
                self.upos += len(p.forms)
                self.xpos += len(p.forms)
            return
        # list.count, not a sum over the words: this runs once a sentence of every file
        if isinstance(p, Sentence):  # a stored parse keeps no features or lemmas
            self.feats += len(p.feats) - p.feats.count("_")
            self.lemmas += len(p.lemmas) - p.lemmas.count("_")
            self.deps += len(p.deps) - p.deps.count("_")
        self.heads += len(p.heads) - p.heads.count(NO_HEAD)
        self.labels += len(p.deprels) - p.deprels.count("_")
        self.upos += len(p.upos) - p.upos.count("_")
        self.xpos += len(p.xpos) - p.xpos.count("_")
        if isinstance(p, Parse):
            self.noise += sum(p.noise)
        elif "Noise=" in "\t".join(p.misc):  # no column holds a tab
            self.noise += sum("Noise=" in m for m in p.misc)

    def counting(self, sentences: Iterable[T]) -> Iterator[T]:
        """SENTENCES (or parses), each counted as it streams by (memory stays flat)."""
        for s in sentences:
            self.add(s)
            yield s

    def watching(self, sentences: Iterable[T], needs: Sequence[str] = ()) -> Iterator[T]:
        """SENTENCES as they stream by, counted only until one carries heads, relations
        or tags and every one of NEEDS has been seen: what :func:`refuse_unparsed`
        (whether the file is the output of ``noise``) and :func:`missing` and
        :func:`na_cause` of NEEDS need, at no cost a sentence after that. The other
        counts stop there too: for all of them, count with :meth:`counting`."""
        it = iter(sentences)
        for s in it:
            self.add(s)
            yield s
            if (self.heads or self.labels or self.upos or self.xpos) and \
                    all(getattr(self, n) for n in needs):
                break
        yield from it

    @property
    def unparsed_noise(self) -> bool:
        """The output of ``parsebench noise`` before any parser saw it: noise records
        and no annotation at all (noise writes none: the clean tree is not the noisy
        text's)."""
        return self.noise > 0 and not (self.heads or self.labels or self.upos or self.xpos)


def holds(parses: Iterable[Parse | Sentence], path: str) -> Holds:
    h = Holds(str(path))
    for p in parses:
        h.add(p)
    return h


def refuse_unparsed(h: Holds) -> None:
    """Noise output given where a parse belongs: refused, whatever the method."""
    if h.unparsed_noise:
        raise InputError(f"the output of `parsebench noise` ({h.noise:,} noisy words, no "
                         "annotation), not a parse: parse it first (`parsebench parse`)",
                         h.path, h.first_line)


@contextlib.contextmanager
def kind_first(sentences: Callable[[], Iterable[Parse | Sentence]], path: str
               ) -> Iterator[None]:
    """The kind of a file before its length or its text: an InputError inside (another
    number of sentences, another text) becomes :func:`refuse_unparsed`'s when the file
    SENTENCES reads again is the output of ``noise``, whose cause it is. The file is read
    again only on that error: scoring costs nothing more."""
    try:
        yield
    except InputError as exc:
        try:
            h = holds(sentences(), path)
        except InputError:
            raise exc from None
        refuse_unparsed(h)
        raise


def missing(h: Holds, needs: Iterable[str]) -> list[str]:
    """The needs of NEEDS that H has on no word (a tagger has no heads...)."""
    return [n for n in needs if h.words and not getattr(h, n)]


def require(h: Holds, needs: Iterable[str], method: str) -> None:
    """Refuse H in one line when it cannot give METHOD's numbers at all."""
    refuse_unparsed(h)
    gone = missing(h, needs)
    if gone:
        raise InputError(f"{method} needs {' and '.join(NEEDS[n] for n in gone)}, and this "
                         "file has none (a tagger's output?)", h.path, h.first_line)


def na_cause(h: Holds, needs: Iterable[str], what: str) -> str | None:
    """The warning that says why WHAT is n/a for H, or None when H can give it."""
    gone = missing(h, needs)
    if not gone:
        return None
    return (f"{h.path} has no {' and no '.join(NEEDS[n] for n in gone)} (a tagger's "
            f"output?): {what} n/a")


def same_words(clean: Sequence[Parse], other: Sequence[Parse], clean_path: str,
               other_path: str, method: str, hint: str = "") -> None:
    """Methods that compare parses word by word need the same number of sentences and of
    words in each: a sentence with a missing or an added word is never paired row by row."""
    if len(clean) != len(other):
        raise InputError(f"{len(other)} sentences, but {clean_path} has {len(clean)}",
                         other_path)
    for a, b in zip(clean, other, strict=True):
        if len(a) != len(b):
            raise InputError(f"sentence has {len(b)} words, but the one at {clean_path}:"
                             f"{a.line} has {len(a)}; rows must correspond one to one: "
                             f"{method} compares the parses word by word{hint}", other_path, b.line)


MIN_MISSPELLED_ROWS = 5
"""Misspelled words that must all carry the gold's analysis before a file is taken
for the noisy text itself rather than a parse of it (a perfect parse of a few words
can happen; of every misspelled word in a corpus, not)."""


def check_is_parse(gold: Sequence[Parse], noisy: Sequence[Parse], gold_path: str,
                   noisy_path: str) -> None:
    """Refuse a NOISY file that is the noisy text, not a parse of it.

    ``parsebench noise`` keeps the gold's columns so that its output can be parsed
    with the words pre-tokenized; scored as if it were a parse, it gives a real
    accuracy of 100 and a negative degradation. Its mark: heads, relations and tags
    equal to the gold's on every word, the misspelled ones included.
    """
    misspelled = 0
    for g, n in zip(gold, noisy, strict=False):
        if n.failed is not None or n.kind != "deps" or g.kind != "deps" or len(g) != len(n):
            return
        if n.heads != g.heads or n.deprels != g.deprels or n.upos != g.upos \
                or n.xpos != g.xpos:
            return
        misspelled += sum(1 for a, b in zip(g.forms, n.forms, strict=True) if a != b)
    if misspelled >= MIN_MISSPELLED_ROWS:
        raise InputError(f"the same heads, relations and tags as the gold {gold_path} on "
                         f"every word, {misspelled} misspelled words included: this is the "
                         "noisy text (as `parsebench noise` writes it), not a parse of it; "
                         "parse it first (`parsebench parse`)", noisy_path)

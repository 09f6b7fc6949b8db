"""A run's corpus, its versions (the clean text and each noisy one), and one parser's
parses of them: what the noise kinds make, the parsers parse and the methods score.

Kept apart from the runner so that scoring and the noise kinds read these types
without importing the runner that drives them (data flows one way: corpus ->
versions -> parses -> scoring -> runner).
"""

from __future__ import annotations

import functools
import hashlib
import itertools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from parsebench.common.errors import InputError
from parsebench.formats.conllu import NO_HEAD, Sentence
from parsebench.metrics.core.word_alignment import Alignment
from parsebench.model.level import Level
from parsebench.model.parses import (
    Parse,
    document_text,
    documents,
    from_outcome,
    iter_input,
    misc_value,
    to_conllu,
    unit_sentences,
)
from parsebench.noise.spelling import Change
from parsebench.run.experiment import Experiment
from parsebench.store import Store, sentence_key, text_key


@dataclass
class Version:
    """The corpus at one error level and seed (level None: the clean text)."""

    level: Level | None
    seed: int
    sentences: list[Sentence]
    alignments: list[Alignment] | None = None
    """With noise that adds, drops or moves words (kind grammar): each noisy sentence's
    words aligned to the clean ones, with the ERRANT types of its errors."""
    m2: list[list[tuple[int, int, str, str]]] | None = None
    """And its M2 edits (start, end, type, the clean words), as ``noise`` writes them."""
    units: list[int] | None = None
    """With transcript segments: the words of each segment the parsers are given (the
    sentences run together and cut), whose parses are cut back into the sentences."""

    @property
    def label(self) -> str:
        return "clean" if self.level is None else f"{self.level.label}/seed={self.seed}"


@dataclass
class CorpusData:
    paths: list[Path]
    digest: str
    sentences: list[Sentence]
    gold: bool
    versions: list[Version]
    natural: list[Change] | None = None
    """With natural typos: the corrections that give back the text as written."""
    typos_kept: int = 0
    """With natural typos: those left as written (a split word, a correction of several
    words: :func:`corrected_typos`)."""

    @property
    def path(self) -> Path:
        return self.paths[0]

    @property
    def name(self) -> str:
        return " + ".join(p.name for p in self.paths)

    @property
    def words(self) -> int:
        return sum(len(s.forms) for s in self.sentences)

    @functools.cached_property
    def documents(self) -> list[list[Sentence]]:
        """The clean sentences cut into documents, as a parser of raw text gets them."""
        return documents(self.sentences)


def _digest(paths: Sequence[Path], *options: Any) -> str:
    h = hashlib.sha256()
    for p in paths:
        h.update(p.read_bytes())
    h.update(f"|{options}".encode())
    return h.hexdigest()[:24]


def corrected_typos(sents: Sequence[Sentence]) -> tuple[list[Sentence], list[Change], int]:
    """The sentences with every natural typo corrected (``CorrectForm=`` in MISC), the
    changes that write the typos back in, as a noise report would list them, and how
    many typos were left as written because their correction is not one word for one:
    a word split by the typo (``be for`` for *before*: its parts joined by ``goeswith``)
    or a correction of several words (``alot`` for *a lot*). Correcting one of those
    word for word would give a text nobody wrote (``before for``); the natural level
    changes words in place, so they stay as the writer typed them."""
    clean, changes, kept = [], [], 0
    for k, s in enumerate(sents):
        split = {s.heads[i] - 1 for i, d in enumerate(s.deprels) if d == "goeswith"}
        fixes = []
        for i, m in enumerate(s.misc):
            if "CorrectForm=" not in m:
                continue
            c = misc_value(m, "CorrectForm")
            if not c or c == s.forms[i] or c == "_":
                continue
            if i in split or " " in c:
                kept += 1
            else:
                fixes.append((i, c))
        if not fixes:
            clean.append(s)
            continue
        forms = list(s.forms)
        for i, c in fixes:
            changes.append(Change(k, i, "natural", c, s.forms[i]))
            forms[i] = c
        clean.append(replace(s, forms=forms,
                             comments=[c for c in s.comments if not c.startswith("# text")]))
    return clean, changes, kept


def read_corpus(paths: Sequence[Path], limit: int | None, gold: bool = True,
                typos_only: bool = False, natural: bool = False) -> CorpusData:
    """The corpus files read as one; with TYPOS_ONLY, just the sentences with a natural
    typo; with NATURAL, the clean text is the corrected one. Nothing is stored."""
    found: Iterator[Sentence] = (s for p in paths for s in iter_input(p))
    if typos_only:
        found = (s for s in found if any("CorrectForm=" in m for m in s.misc))
    sents = list(itertools.islice(found, limit))
    if not sents:
        raise InputError("no sentences" + (" with a CorrectForm= typo" if typos_only else ""),
                         paths[0])
    changes, kept = None, 0
    if natural:
        sents, changes, kept = corrected_typos(sents)
        if not changes:
            raise InputError("natural = true, but no word has a CorrectForm= in MISC",
                             paths[0])
    gold = gold and any(h != NO_HEAD for s in sents for h in s.heads)
    # the clean text of a natural run is the corrected one: how typos are corrected is
    # part of what the noise is drawn on (2: split typos left as written)
    digest = _digest(paths, limit, typos_only, natural and "corrected-2")
    return CorpusData(list(paths), digest, sents, gold, [Version(None, 0, sents)], changes,
                      kept)


def load_corpus(paths: Sequence[Path], limit: int | None, store: Store, gold: bool = True,
                typos_only: bool = False, natural: bool = False) -> CorpusData:
    """:func:`read_corpus`, recorded in STORE."""
    c = read_corpus(paths, limit, gold, typos_only, natural)
    store.add_corpus(c.digest, " + ".join(map(str, paths)), len(c.sentences), c.words, c.gold)
    return c


def levels_of(exp: Experiment, corpus: CorpusData) -> list[Level]:
    """The experiment's error levels; with natural typos, the natural level and an
    artificial one at the same rate of misspelled words come first."""
    if corpus.natural is None:
        return list(exp.levels)
    rate = len(corpus.natural) / corpus.words
    extra = [Level("natural", rate), Level("rate", rate)]
    return extra + [lv for lv in exp.levels if lv not in extra]


def versions_by_level(corpus: CorpusData) -> dict[Level, list[Version]]:
    out: dict[Level, list[Version]] = {}
    for v in corpus.versions:
        if v.level is not None:
            out.setdefault(v.level, []).append(v)
    return out


Input = tuple[list[str], str]
"""A unit as a parser gets it: its words, and its text (for a parser that tokenizes)."""


@dataclass
class Given:
    """What a parser is given of a run's versions, each unit with its cache key: a
    sentence's words (``keys``, by the sentence); with RAW text each document's text
    (``docs``: the version's documents, key and sentences, by the version's list of
    sentences), :func:`parsebench.model.parses.documents` cut from the corpus's clean
    sentences, so that every version is cut alike; with transcript segments
    (:attr:`Version.units`) each segment's words (``segments``: key and words, by the
    version's list)."""

    raw: bool = False
    keys: dict[int, str] = field(default_factory=dict)
    docs: dict[int, list[tuple[str, int]]] = field(default_factory=dict)
    segments: dict[int, list[tuple[str, int]]] = field(default_factory=dict)
    segmented: list[Version] = field(default_factory=list)
    """The versions given as segments."""

    def of(self, c: CorpusData, v: Version) -> Iterator[tuple[str, Input]]:
        """The units of version V of corpus C, with their keys, noted as they go. A noisy
        version shares its unchanged sentences with the clean text, not their documents."""
        if v.units is not None:
            flat = [w for s in v.sentences for w in s.forms]
            got, start = [], 0
            for n in v.units:
                words = flat[start:start + n]
                start += n
                got.append((sentence_key(words), n))
                yield got[-1][0], (words, " ".join(words))
            if id(v.sentences) not in self.segments:
                self.segmented.append(v)
            self.segments[id(v.sentences)] = got
        elif not self.raw:
            for s in v.sentences:
                k = self.keys.setdefault(id(s), sentence_key(s.forms))
                yield k, (s.forms, " ".join(s.forms))
        else:
            start, got = 0, []
            for doc in c.documents:
                unit = v.sentences[start:start + len(doc)]
                start += len(doc)
                text = document_text(unit)
                got.append((text_key(text), len(unit)))
                yield got[-1][0], ([w for s in unit for w in s.forms], text)
            self.docs[id(v.sentences)] = got


class Parsed:
    """The outcomes of one parser by unit key, turned into Parse objects on demand.

    GIVEN maps every input Sentence object (by id; they live as long as the run) to
    its cache key, computed once when the work was collected; a version given as
    transcript segments has its sentences' outcomes cut back from theirs
    (:func:`parsebench.run.segments.cut_back`)."""

    def __init__(self, kind: str, outcomes: Mapping[str, tuple[Any, float]],
                 given: Given) -> None:
        from parsebench.run.segments import cut_back

        self.kind, self.outcomes, self.given = kind, outcomes, given
        self._memo: dict[int, Parse] = {}
        self._cut: dict[int, tuple[Any, float]] = {}
        for v in given.segmented:
            units = given.segments[id(v.sentences)]
            got = cut_back([outcomes[k] for k, _ in units], [n for _, n in units],
                           [len(s.forms) for s in v.sentences])
            self._cut.update(zip(map(id, v.sentences), got, strict=True))

    def outcome(self, s: Sentence) -> tuple[Any, float]:
        got = self.given.keys.get(id(s))
        return self.outcomes[got] if got is not None else self._cut[id(s)]

    def parse_of(self, s: Sentence) -> Parse:
        got = self._memo.get(id(s))
        if got is not None:
            return got
        p = from_outcome(s, self.outcome(s)[0], self.kind)
        self._memo[id(s)] = p
        return p

    def sentences_of(self, v: Version) -> list[Sentence]:
        return [to_conllu(s, self.outcome(s)[0]) for s in v.sentences]

    def own_sentences(self, v: Version) -> list[Sentence]:
        """The parser's sentences of V as it found them in the texts it was given (raw
        text: each document's)."""
        if not self.given.raw:
            return [p for s in v.sentences for p in unit_sentences([s], self.outcome(s)[0])]
        out: list[Sentence] = []
        start = 0
        for key, n in self.given.docs[id(v.sentences)]:
            out += unit_sentences(v.sentences[start:start + n], self.outcomes[key][0])
            start += n
        return out

    def units(self, v: Version) -> list[tuple[str, int]]:
        """What the parser was given of V: (cache key, words) a sentence, or with raw
        text a document, or with transcript segments a segment."""
        if id(v.sentences) in self.given.segments:
            return self.given.segments[id(v.sentences)]
        if not self.given.raw:
            return [(self.given.keys[id(s)], len(s.forms)) for s in v.sentences]
        out, start = [], 0
        for key, n in self.given.docs[id(v.sentences)]:
            out.append((key, sum(len(s.forms) for s in v.sentences[start:start + n])))
            start += n
        return out

    def parses(self, v: Version) -> list[Parse]:
        return [self.parse_of(s) for s in v.sentences]

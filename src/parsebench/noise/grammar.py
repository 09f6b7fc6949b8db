"""Learner-like errors beyond misspellings, each recorded with its ERRANT type and alignment.

Missing, extra and wrong determiners and prepositions, agreement, verb form,
tense and noun number errors, wrong pronoun case, two adjacent words swapped,
a repeated word, case errors and words split or merged, missing and extra
punctuation, and misspellings. Sites come from the clean sentence's
annotation (UPOS, features, lemmas, heads of CoNLL-U); inflected forms come
from lemminflect (a lexicon of English inflections learnt from corpora), so
every form written exists. Every error is recorded the way ERRANT records
errors: an edit that turns the noisy tokens back into the clean ones, with
ERRANT's type name, so the M2 and Pharaoh files written are what ERRANT and word
aligners give for real learner text.

This module plans: it lists every site once, draws which become errors and realises
them a sentence at a time. The types, settings and report are in
:mod:`.grammar_types`, where each error can go and how it is written in
:mod:`.grammar_sites` (inflections from :mod:`.inflection`), and the noisy sentence,
its M2 edits and its alignment in :mod:`.grammar_output`.

Written here because no maintained library makes such errors with their
alignment and type recorded (nlpaug and CheckList keep no alignment;
GenERRate is unmaintained Java). Errors are placed so that at least one
untouched word separates any two of them in the clean sentence: ERRANT would
merge adjacent edits, and a word is never both deleted and changed.
"""

from __future__ import annotations

import math
import random
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Iterator, Sequence

from parsebench.formats.conllu import Sentence
from parsebench.noise.grammar_output import noisy_sentence
from parsebench.noise.grammar_sites import Sites, Speller
from parsebench.noise.grammar_types import TYPES, Edit, GrammarReport, GrammarSettings
from parsebench.noise.lexicon import frequencies
from parsebench.noise.spelling import POSITION, check_positions


def _rng(seed: int, sentence: int, token: int, kind: str) -> random.Random:
    return random.Random(f"{seed}/{sentence}/{token}/{kind}")


class _Draw:
    """Sites drawn one kind at a time by weight, uniformly within a kind (lazy Fisher-Yates),
    skipping those that touch or adjoin an error already placed."""

    def __init__(self, by_kind: dict[str, array[int]], weights: dict[str, float],
                 rng: random.Random) -> None:
        self.kinds = [k for k in TYPES if len(by_kind.get(k, ())) and weights.get(k, 0) > 0]
        self.by_kind, self.weights, self.rng = by_kind, weights, rng
        self.used = dict.fromkeys(self.kinds, 0)

    def __iter__(self) -> Iterator[tuple[str, int]]:
        rng = self.rng
        while self.kinds:
            total = sum(self.weights[k] for k in self.kinds)
            x = rng.random() * total
            kind = self.kinds[-1]
            for k in self.kinds:
                x -= self.weights[k]
                if x < 0:
                    kind = k
                    break
            items, i = self.by_kind[kind], self.used[kind]
            j = i + int(rng.random() * (len(items) - i))
            items[i], items[j] = items[j], items[i]
            self.used[kind] = i + 1
            if i + 1 == len(items):
                self.kinds.remove(kind)
            yield kind, items[i]


def _conflicts(taken: list[tuple[int, int]], fp: tuple[int, int]) -> bool:
    """Whether FP touches or adjoins (no untouched word between) any footprint in TAKEN."""
    return any(fp[0] <= b and a <= fp[1] for a, b in taken)


def _place(pools: dict[str, array[int]], weights: dict[str, float], k: int,
           rng: random.Random) -> list[tuple[str, int]] | None:
    """K errors among one sentence's sites POOLS (kind -> first words), or None if there
    is no room for K."""
    taken: list[tuple[int, int]] = []
    out: list[tuple[str, int]] = []
    for kind, t in _Draw(pools, weights, rng):
        fp = (t, t + Sites.span(kind))
        if not _conflicts(taken, fp):
            taken.append(fp)
            out.append((kind, t))
            if len(out) == k:
                return out
    return None


def annotated(s: Sentence) -> bool:
    """Whether S has UPOS tags, which most kinds of error need to find their sites."""
    return any(u not in ("_", "") for u in s.upos)


def _blocked(s: Sentence) -> set[int]:
    return {i for a, b, _ in s.multiword for i in range(a, b + 1)}


class Chosen:
    """The errors a plan decided, compactly: their first clean words as corpus positions,
    in order, and their kinds (an index into :data:`TYPES`) beside them."""

    def __init__(self, starts: Sequence[int], where: array[int], codes: bytes) -> None:
        self.starts, self.where, self.codes = starts, where, codes

    def __len__(self) -> int:
        return len(self.where)

    def get(self, si: int, default: Sequence[tuple[str, int]] = ()
            ) -> Sequence[tuple[str, int]]:
        """Sentence SI's errors as [(kind, clean word)], by word; DEFAULT if it has none."""
        s0 = self.starts[si]
        lo = bisect_left(self.where, s0)
        hi = bisect_left(self.where, self.starts[si + 1], lo)
        if lo == hi:
            return default
        return [(TYPES[self.codes[k]], self.where[k] - s0) for k in range(lo, hi)]


class Planner:
    """Decides and writes errors for a corpus read as a stream of CoNLL-U sentences.

    READ gives a fresh pass over the clean sentences. One pass lists the sites
    (compactly: an integer per site); the draw decides which become errors; a
    second pass realises them, so memory does not hold the corpus.
    """

    def __init__(self, read: Callable[[], Iterable[Sentence]], kinds: Sequence[str],
                 speller: Speller | None = None,
                 zipf: Callable[[str], float] | None = None) -> None:
        self.read, self.speller, self.zipf = read, speller, zipf
        self.kinds = list(kinds)
        self.unrealised = 0
        """Chosen sites that made no error (none should; each is reported as short)."""
        self.by_kind: dict[str, array[int]] = {k: array(POSITION) for k in TYPES}
        self.starts = array(POSITION)
        words = 0
        self.annotated = False
        """Whether any word has a UPOS: without one most kinds have no site."""
        for s in read():
            check_positions(words + len(s.forms))
            self.annotated = self.annotated or annotated(s)
            self.starts.append(words)
            for kind, start, _ in self.sites(s):
                self.by_kind[kind].append(words + start)
            words += len(s.forms)
        self.starts.append(words)
        self.words = words
        self.spent = False
        """Whether a plan(last=True) has shuffled the sites (no further plan then)."""

    def sites(self, s: Sentence) -> Iterator[tuple[str, int, int]]:
        return Sites(s, _blocked(s), self.speller, self.zipf).all(self.kinds)

    def plan(self, settings: GrammarSettings, last: bool = False) -> tuple[GrammarReport, Chosen]:
        """Which errors go where: sentence -> [(kind, clean word)] (``.get``), and the report.

        The draw shuffles the sites it draws from; LAST (no further plan will be asked for)
        lets it shuffle the listed sites themselves instead of a copy of them, which were
        a third of its memory on a large corpus."""
        settings.check()
        if self.spent:
            raise RuntimeError("a Planner plans no more after a plan(last=True)")
        report = GrammarReport(words=self.words)
        for kind in settings.types:
            report.sites[kind] = len(self.by_kind[kind])
        where, codes = array(POSITION), bytearray()
        code = {kind: k for k, kind in enumerate(TYPES)}
        if settings.rate is not None:
            target = math.floor(settings.rate * self.words + 0.5)
            # the words each error's footprint covers, one byte a word and one more a
            # sentence (a footprint's end can be the slot after its last word): an error
            # conflicts with those already placed where its footprint meets theirs
            taken = bytearray(self.words + len(self.starts) - 1)
            done = 0
            everywhere = {kind: self.by_kind[kind] if last else array(POSITION,
                                                                      self.by_kind[kind])
                          for kind in settings.types}
            starts = self.starts
            if target:
                for kind, g in _Draw(everywhere, settings.weights, random.Random(settings.seed)):
                    si = bisect_right(starts, g) - 1
                    a = g + si
                    b = a + Sites.span(kind) + 1
                    if taken.find(1, a, b) >= 0:
                        continue
                    taken[a:b] = b"\x01" * (b - a)
                    where.append(g)
                    codes.append(code[kind])
                    report.errors[kind] += 1
                    done += 1
                    if done == target:
                        break
            report.shortfall = target - done
            del taken, everywhere
            order = sorted(range(len(where)), key=where.__getitem__)
            where = array(POSITION, [where[k] for k in order])
            codes = bytearray(codes[k] for k in order)
        else:
            want = settings.per_sentence or 0
            lo = dict.fromkeys(settings.types, 0)
            for si in range(len(self.starts) - 1):
                end = self.starts[si + 1]
                pools: dict[str, array[int]] = {}
                for kind in settings.types:
                    sites = self.by_kind[kind]
                    hi = bisect_left(sites, end, lo[kind])
                    pools[kind] = array(POSITION,
                                        (g - self.starts[si] for g in sites[lo[kind]:hi]))
                    lo[kind] = hi
                got = _place(pools, settings.weights, want,
                             random.Random(settings.seed * 1_000_003 + si))
                if got is None:
                    report.short_sentences.append(si)
                else:
                    report.errors.update(kind for kind, _ in got)
                    for kind, t in sorted(got, key=lambda c: c[1]):
                        where.append(self.starts[si] + t)
                        codes.append(code[kind])
        if last:  # what the writing needs is in the plan: the sites go before it
            self.spent = True
            self.by_kind = {k: array(POSITION) for k in TYPES}
        return report, Chosen(self.starts, where, bytes(codes))

    def realise(self, s: Sentence, si: int, chosen: Sequence[tuple[str, int]], seed: int
                ) -> list[Edit]:
        sites = Sites(s, _blocked(s), self.speller, self.zipf)
        edits = []
        for kind, t in chosen:
            e = sites.realise(kind, t, _rng(seed, si, t, kind))
            if e is None:  # a listed site realises; should one not, it is a shortfall
                self.unrealised += 1
                continue
            edits.append(e)
        return sorted(edits, key=lambda e: e.start)


def speller(keyboard: str, lexicon: str | None, lang: str, vocabulary: set[str]) -> Speller:
    return Speller(keyboard, lexicon, lang, vocabulary)


def zipf(lang: str) -> Callable[[str], float]:
    """A word's frequency on the Zipf scale (wordfreq's), 0 for unknown words, from the
    table that is also the default lexicon of R:SPELL
    (:func:`parsebench.noise.lexicon.frequencies`)."""
    return frequencies(lang).zipf


def corrupt(sentences: Sequence[Sentence], settings: GrammarSettings,
            spell: Speller | None = None,
            frequency: Callable[[str], float] | None = None
            ) -> tuple[GrammarReport, list[tuple[Sentence, list[Edit], list[tuple[int, int]],
                                                 list[tuple[int, int, str, str]]]]]:
    """Every sentence with its errors, in memory: (noisy sentence, edits, alignment, M2
    edits) each, and the report. Sentences short of room are given back unchanged."""
    planner = Planner(lambda: iter(sentences), settings.types, spell, frequency)
    report, chosen = planner.plan(settings, last=True)
    out = []
    for k, s in enumerate(sentences):
        edits = planner.realise(s, k, chosen.get(k, ()), settings.seed)
        noisy, pairs, m2 = noisy_sentence(s, edits)
        out.append((noisy, edits, pairs, m2))
    return report, out

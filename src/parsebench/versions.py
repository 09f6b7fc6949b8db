"""Kinds of noise behind one interface, listed once in :data:`KINDS`.

A kind says how the store files its versions (``key``), plans the changes of
one level and seed (``planner``: stored as plain lists, so a killed run or an
export rebuilds the very same noisy text), rebuilds a version from them
(``rebuild``), and whether it adds, drops or moves words (``moves_words``:
then the methods that compare parses word by word do not apply, and the
others go through the version's alignment). A new kind is one class here and
one line in :data:`KINDS`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from parsebench.errors import InputError
from parsebench.formats.conllu import Sentence
from parsebench.metrics.wordalign import Alignment
from parsebench.noise import Change, Corpus, Keyboard, Lexicon, Report, Settings, apply_to_conllu
from parsebench.run.corpus import CorpusData, Version, levels_of
from parsebench.run.experiment import Experiment, Level
from parsebench.signature import signature
from parsebench.store import Store

Plan = Callable[[Level, int], tuple[list[list[Any]], dict[str, Any]]]
"""The changes of one level and seed, and a summary of them."""


class Progress(Protocol):
    """What the run reports its stages to (a progress bar, or nothing)."""

    def stage(self, name: str, total: int) -> None: ...

    def advance(self, n: int = 1) -> None: ...

    def note(self, text: str) -> None: ...


class Quiet:
    """A Progress that shows nothing."""

    def stage(self, name: str, total: int) -> None:
        pass

    def advance(self, n: int = 1) -> None:
        pass

    def note(self, text: str) -> None:
        pass


class NoiseKind(Protocol):
    name: str
    title: str
    """What the report calls it."""
    moves_words: bool

    def key(self, exp: Experiment, kb: Keyboard) -> str: ...

    def planner(self, exp: Experiment, corpus: CorpusData, kb: Keyboard) -> Plan: ...

    def rebuild(self, sentences: Sequence[Sentence], level: Level, seed: int,
                changes: Sequence[Sequence[Any]]) -> Version: ...


class Spelling:
    """Bigert et al.'s misspellings: one keyboard edit a word, non-words only."""

    name, title, moves_words = "spelling", "misspellings (one keyboard edit a word)", False

    def key(self, exp: Experiment, kb: Keyboard) -> str:
        return signature(lexicon=exp.lexicon or f"wordfreq:{exp.lang}", keyboard=kb.name,
                         weights=[f"{k}={v:g}" for k, v in exp.weights.items()],
                         min_length=exp.min_length)

    def planner(self, exp: Experiment, corpus: CorpusData, kb: Keyboard) -> Plan:
        lexicon = Lexicon.load(exp.lexicon, exp.lang)
        plan = Corpus([s.forms for s in corpus.sentences],
                      [{i for a, b, _ in s.multiword for i in range(a, b + 1)}
                       for s in corpus.sentences])

        def one(level: Level, seed: int) -> tuple[list[list[Any]], dict[str, Any]]:
            rep = plan.plan(Settings(level.rate, level.per_sentence, seed, exp.weights,
                                     exp.min_length), kb, lexicon)
            return ([[c.sentence, c.token, c.op, c.orig, c.new] for c in rep.changes],
                    {"words": rep.words, "eligible": rep.eligible,
                     "misspelled": len(rep.changes), "no_nonword": rep.no_nonword,
                     "short_sentences": len(rep.short_sentences),
                     "shortfall": rep.shortfall})
        return one

    def rebuild(self, sentences: Sequence[Sentence], level: Level, seed: int,
                changes: Sequence[Sequence[Any]]) -> Version:
        report = Report(changes=[Change(*c) for c in changes])
        return Version(level, seed, apply_to_conllu(sentences, report))


class Grammar:
    """Learner-like errors of ERRANT's types, with their alignment and M2 edits."""

    name, title, moves_words = "grammar", "learner-like errors (ERRANT's types)", True

    def key(self, exp: Experiment, kb: Keyboard) -> str:
        return signature(kind="grammar", types=list(exp.types),
                         weights=[f"{k}={v:g}" for k, v in exp.weights.items()
                                  if k in exp.types],
                         lexicon=exp.lexicon or f"wordfreq:{exp.lang}", keyboard=kb.name)

    def planner(self, exp: Experiment, corpus: CorpusData, kb: Keyboard) -> Plan:
        from parsebench.noise import grammar as g

        if not any(map(g.annotated, corpus.sentences)):
            raise InputError("[noise] kind = \"grammar\" places errors by the corpus's UPOS, "
                             "features and heads: give CoNLL-U with them (parsebench parse "
                             "can tag a text)", corpus.paths[0])
        spell = g.speller(exp.keyboard or "us-qwerty", exp.lexicon, exp.lang,
                          {w.lower() for s in corpus.sentences for w in s.forms}
                          ) if "R:SPELL" in exp.types else None
        planner = g.Planner(lambda: iter(corpus.sentences), exp.types, spell, g.zipf(exp.lang))

        def one(level: Level, seed: int) -> tuple[list[list[Any]], dict[str, Any]]:
            rep, chosen = planner.plan(g.Settings(level.rate, level.per_sentence, seed,
                                                  exp.types, exp.weights))
            edits = [[si, e.start, e.end, e.noisy, e.type, e.links]
                     for si, s in enumerate(corpus.sentences)
                     for e in planner.realise(s, si, chosen.get(si, ()), seed)]
            return edits, {"words": rep.words, "errors": rep.made,
                           "short_sentences": len(rep.short_sentences),
                           "shortfall": rep.shortfall}
        return one

    def rebuild(self, sentences: Sequence[Sentence], level: Level, seed: int,
                changes: Sequence[Sequence[Any]]) -> Version:
        return grammar_version(sentences, level, seed, changes)


KINDS: dict[str, NoiseKind] = {k.name: k for k in (Spelling(), Grammar())}
"""Every kind of noise, by its name in ``[noise] kind`` and ``noise --kind``."""


def noise_versions(exp: Experiment, corpus: CorpusData, store: Store,
                   progress: Progress | None = None, make: bool = True) -> None:
    """Add every level x replicate of CORPUS: from the store when it has them, else made
    and stored (with MAKE; without it, as ``export`` reads a store, a missing version is
    an error)."""
    progress = progress or Quiet()
    kb = Keyboard.load(exp.keyboard or "us-qwerty")
    kind = KINDS[exp.kind]
    key = kind.key(exp, kb)
    levels = levels_of(exp, corpus)
    progress.stage(f"noise {corpus.name}", len(levels) * exp.replicates)
    plan: Plan | None = None
    for level in levels:
        if level.mode == "natural":
            assert corpus.natural is not None
            corpus.versions.append(Version(level, 0, apply_to_conllu(
                corpus.sentences, Report(changes=corpus.natural))))
            progress.advance(exp.replicates)
            continue
        for seed in range(exp.seed, exp.seed + exp.replicates):
            got = store.noisy(corpus.digest, key, level.label, seed)
            if got is not None:
                changes = got[0]
            elif not make:
                raise InputError(f"the store has no noisy version {level.label} seed {seed} "
                                 f"of {corpus.name} as it is now: the file changed since the "
                                 "run, or the run did not finish", store.path)
            else:
                plan = plan or kind.planner(exp, corpus, kb)
                changes, summary = plan(level, seed)
                store.add_noisy(corpus.digest, key, level.label, seed, changes, summary)
            corpus.versions.append(kind.rebuild(corpus.sentences, level, seed, changes))
            progress.advance()


def grammar_version(sentences: Sequence[Sentence], level: Level, seed: int,
                    edits: Sequence[Sequence[Any]]) -> Version:
    """The noisy version that stored EDITS ([sentence, start, end, noisy words, type,
    links]) make of SENTENCES; a sentence without an error is the clean one itself."""
    from parsebench.noise.grammar import Edit, noisy_sentence

    by: dict[int, list[Edit]] = {}
    for si, a, b, words, typ, links in edits:
        if si >= len(sentences) or b > len(sentences[si].forms) or any(
                not (0 <= x < len(words) and 0 <= y < b - a) for x, y in links) or any(
                a <= e.end and e.start <= b for e in by.get(si, ())):
            raise InputError(f"a stored noisy version ({level.label}, seed {seed}) does not "
                             "fit the corpus: the store is damaged")
        by.setdefault(si, []).append(Edit(a, b, list(words), typ,
                                          [(int(x), int(y)) for x, y in links]))
    out, aligns = [], []
    m2: list[list[tuple[int, int, str, str]]] = []
    for si, s in enumerate(sentences):
        mine = by.get(si)
        if not mine:
            out.append(s)
            aligns.append(Alignment([(k, k) for k in range(len(s.forms))], 0))
            m2.append([])
            continue
        noisy, pairs, edits_m2 = noisy_sentence(s, mine)
        out.append(noisy)
        aligns.append(Alignment(pairs, len(mine), [e.type for e in mine]))
        m2.append(edits_m2)
    return Version(level, seed, out, aligns, m2)

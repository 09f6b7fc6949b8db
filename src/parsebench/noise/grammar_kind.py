"""The kind ``grammar``: learner-like errors of ERRANT's types (:mod:`.grammar`) for a
run's versions, with their M2 edits and alignment."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from parsebench.errors import InputError
from parsebench.formats.conllu import Sentence
from parsebench.metrics.wordalign import Alignment
from parsebench.noise.grammar import Planner, annotated, speller, zipf
from parsebench.noise.grammar_output import noisy_sentence
from parsebench.noise.grammar_types import DEFAULT_WEIGHTS, TYPES, Edit, Settings
from parsebench.noise.keyboard import Keyboard
from parsebench.noise.kind import Level, Plan, Rebuilt, RunCorpus, RunSettings
from parsebench.signature import signature


class Grammar:
    """Learner-like errors of ERRANT's types, with their alignment and M2 edits."""

    name, title, moves_words = "grammar", "learner-like errors (ERRANT's types)", True
    weights = DEFAULT_WEIGHTS
    types = TYPES

    def key(self, exp: RunSettings, kb: Keyboard) -> str:
        return signature(kind="grammar", types=list(exp.types),
                         weights=[f"{k}={v:g}" for k, v in exp.weights.items()
                                  if k in exp.types],
                         lexicon=exp.lexicon or f"wordfreq:{exp.lang}", keyboard=kb.name)

    def planner(self, exp: RunSettings, corpus: RunCorpus, kb: Keyboard) -> Plan:
        if not any(map(annotated, corpus.sentences)):
            raise InputError("[noise] kind = \"grammar\" places errors by the corpus's UPOS, "
                             "features and heads: give CoNLL-U with them (parsebench parse "
                             "can tag a text)", corpus.paths[0])
        spell = speller(exp.keyboard or "us-qwerty", exp.lexicon, exp.lang,
                        {w.lower() for s in corpus.sentences for w in s.forms}
                        ) if "R:SPELL" in exp.types else None
        planner = Planner(lambda: iter(corpus.sentences), exp.types, spell, zipf(exp.lang))
        types, weights = tuple(exp.types), dict(exp.weights)

        def one(level: Level, seed: int) -> tuple[list[list[Any]], dict[str, Any]]:
            rep, chosen = planner.plan(Settings(level.rate, level.per_sentence, seed, types,
                                                weights))
            edits = [[si, e.start, e.end, e.noisy, e.type, e.links]
                     for si, s in enumerate(corpus.sentences)
                     for e in planner.realise(s, si, chosen.get(si, ()), seed)]
            return edits, {"words": rep.words, "errors": rep.made,
                           "short_sentences": len(rep.short_sentences),
                           "shortfall": rep.shortfall}
        return one

    def rebuild(self, sentences: Sequence[Sentence], level: Level, seed: int,
                changes: Sequence[Sequence[Any]]) -> Rebuilt:
        """The noisy version that stored edits ([sentence, start, end, noisy words, type,
        links]) make of SENTENCES; a sentence without an error is the clean one itself."""
        by: dict[int, list[Edit]] = {}
        for si, a, b, words, typ, links in changes:
            if si >= len(sentences) or b > len(sentences[si].forms) or any(
                    not (0 <= x < len(words) and 0 <= y < b - a) for x, y in links) or any(
                    a <= e.end and e.start <= b for e in by.get(si, ())):
                raise InputError(f"a stored noisy version ({level.label}, seed {seed}) does "
                                 "not fit the corpus: the store is damaged")
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
        return Rebuilt(out, aligns, m2)


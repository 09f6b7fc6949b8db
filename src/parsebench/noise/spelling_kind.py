"""The kind ``spelling``: Bigert et al.'s misspellings (:mod:`.spelling`) for a run's
versions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from parsebench.formats.conllu import Sentence
from parsebench.noise.keyboard import Keyboard
from parsebench.noise.kind import Level, Plan, Rebuilt, RunCorpus, RunSettings
from parsebench.noise.lexicon import Lexicon
from parsebench.noise.spelling import OPERATIONS, Change, Corpus, Report, Settings, apply_to_conllu
from parsebench.signature import signature


class Spelling:
    """Bigert et al.'s misspellings: one keyboard edit a word, non-words only."""

    name, title, moves_words = "spelling", "misspellings (one keyboard edit a word)", False
    weights = dict.fromkeys(OPERATIONS, 1.0)
    types: tuple[str, ...] = ()

    def key(self, exp: RunSettings, kb: Keyboard) -> str:
        return signature(lexicon=exp.lexicon or f"wordfreq:{exp.lang}", keyboard=kb.name,
                         weights=[f"{k}={v:g}" for k, v in exp.weights.items()],
                         min_length=exp.min_length)

    def planner(self, exp: RunSettings, corpus: RunCorpus, kb: Keyboard) -> Plan:
        lexicon = Lexicon.load(exp.lexicon, exp.lang)
        plan = Corpus([s.forms for s in corpus.sentences],
                      [{i for a, b, _ in s.multiword for i in range(a, b + 1)}
                       for s in corpus.sentences])
        weights = dict(exp.weights)

        def one(level: Level, seed: int) -> tuple[list[list[Any]], dict[str, Any]]:
            rep = plan.plan(Settings(level.rate, level.per_sentence, seed, weights,
                                     exp.min_length), kb, lexicon)
            return ([[c.sentence, c.token, c.op, c.orig, c.new] for c in rep.changes],
                    {"words": rep.words, "eligible": rep.eligible,
                     "misspelled": len(rep.changes), "no_nonword": rep.no_nonword,
                     "short_sentences": len(rep.short_sentences),
                     "shortfall": rep.shortfall})
        return one

    def rebuild(self, sentences: Sequence[Sentence], level: Level, seed: int,
                changes: Sequence[Sequence[Any]]) -> Rebuilt:
        report = Report(changes=[Change(*c) for c in changes])
        return Rebuilt(apply_to_conllu(sentences, report))


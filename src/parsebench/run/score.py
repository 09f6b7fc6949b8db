"""What a run scores: the loop over the methods, written once for all of them.

The runner gives :func:`score` one parser's parses; every method of
:data:`METHODS` (one a paper, each in its own module under ``metrics/``) says
which variants of it apply there (:class:`parsebench.metrics.core.method.Method`),
and this loop feeds each variant its levels' replicates, pair by pair, pools
each sentence's statistics over the replicates the same way for every method,
and turns them into a result: its figures, its per-sentence statistics
(``stats``, kept by the store) and their 95% intervals (``ci95``). No method
loops over levels, replicates or sentences itself.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from parsebench.common.signature import signature
from parsebench.metrics.core.method import LevelStats, Pair, Replicate, ScoredLevel
from parsebench.metrics.registry import METHODS, typed
from parsebench.model.level import Level
from parsebench.model.parses import Parse, from_sentence
from parsebench.model.scored import Scored
from parsebench.noise.kinds import moves_words
from parsebench.run.corpus import CorpusData, Parsed, Version, versions_by_level
from parsebench.run.experiment import Experiment, ParserConf


@dataclass
class Context:
    """One parser's parses of a run's corpus, and what the methods need besides."""

    exp: Experiment
    conf: ParserConf
    parsed: Parsed
    corpus: CorpusData
    levels: dict[Level, list[Version]]
    base: dict[str, Any]
    """The settings every result's signature carries."""
    calibration: tuple[CorpusData, Parsed] | None = None
    corrected: tuple[CorpusData, Parsed] | None = None

    @property
    def kind(self) -> str:
        return self.parsed.kind

    @property
    def moves_words(self) -> bool:
        """The noise adds, drops or moves words: parses are paired through alignments."""
        return moves_words(self.exp.kind, self.exp.noise)

    @property
    def own_tokens(self) -> bool:
        """The parsers tokenize the text themselves (``tokens = "raw"``)."""
        return self.exp.tokens == "raw"

    @functools.cached_property
    def clean(self) -> list[Parse]:
        return self.parsed.parses(self.corpus.versions[0])

    @functools.cached_property
    def gold(self) -> list[Parse] | None:
        return [from_sentence(s) for s in self.corpus.sentences] if self.corpus.gold else None

    def _pairs(self, v: Version, with_gold: bool) -> list[Pair]:
        if self.own_tokens:  # a parse is a document's, in the parser's words: the methods
            return []        # that apply read the version whole (Replicate.source)
        gold = self.gold if with_gold else None
        noisy = self.parsed.parses(v)
        aligns = v.alignments
        return [Pair(c, n, None if gold is None else gold[k],
                     None if aligns is None else aligns[k])
                for k, (c, n) in enumerate(zip(self.clean, noisy, strict=True))]

    def noisy_levels(self, with_gold: bool = False) -> list[ScoredLevel]:
        """Each error level with its replicates' pairs (clean parse, noisy parse, the gold
        WITH_GOLD, the errors' alignment when the noise moves words), built when read."""
        return [ScoredLevel(level.label, level.short,
                            _Replicates(self, versions, with_gold))
                for level, versions in self.levels.items()]

    def clean_level(self) -> ScoredLevel:
        """The clean text, against the gold: one replicate."""
        v = self.corpus.versions[0]
        return ScoredLevel("clean", "clean",
                           [Replicate(v.label, self._pairs(v, True), v)])

    def calibration_levels(self) -> dict[Level, list[Version]]:
        assert self.calibration is not None
        return versions_by_level(self.calibration[0])


class _Replicates(Sequence[Replicate]):
    """A level's replicates, each built when the loop comes to it: one replicate's
    parses are in memory at a time."""

    def __init__(self, ctx: Context, versions: list[Version], with_gold: bool) -> None:
        self.ctx, self.versions, self.with_gold = ctx, versions, with_gold

    def __len__(self) -> int:
        return len(self.versions)

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        v = self.versions[i]
        return Replicate(v.label, self.ctx._pairs(v, self.with_gold), v)


OWN_TOKENS = ("not applicable: it compares parses of the same words, and a parser given "
              "raw text gives its own")


def applicability(moves: bool, tokens: str = "gold") -> dict[str, str]:
    """What each method does with noise that MOVES words or not and the parsers given
    TOKENS: the table a run's report shows."""
    return {name: OWN_TOKENS if tokens == "raw" and not m.own_tokens else
            "scored" if not moves else m.moved_words or
            "not applicable: it compares the parses word by word, and the words change"
            for name, m in METHODS.items()}


def score(ctx: Context) -> list[Scored]:
    """The results of every method the experiment asks for that fits CTX: for each of a
    method's variants and levels, each replicate's per-sentence statistics, pooled
    (:class:`parsebench.metrics.core.method.LevelStats`), then its figures and signature."""
    out: list[Scored] = []
    for m in METHODS.values():
        if (ctx.moves_words and m.moved_words is None) or (ctx.own_tokens
                                                           and not m.own_tokens):
            continue
        for var in m.variants(ctx):
            for level in var.levels:
                table = LevelStats(var.per_replicate)
                for rep in level.replicates:
                    table.add_replicate(var.stats(rep))
                value = var.figures(level, table)
                if "stats" not in value:
                    value["stats"] = table.stored()
                if not value["stats"]:
                    del value["stats"]
                sig = signature(**var.signature(level), **ctx.base)
                out.append(typed(Scored(ctx.conf.name, m.name, var.projection, level.label,
                                        sig, value)))
    return out

"""Sentence robustness scores, unlabeled and labeled (Kakkonen 2007).

A clean/noisy pair matches when the noisy parse has the same structure as the
clean one (and, labeled, the same labels). A failure on either side is a
non-match that stays in the denominator and is counted, which is how the
paper's footnote gets 72.94 = 186/255 rather than 80.17 = 186/232.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from parsebench.common.errors import InputError
from parsebench.formats.conllu import NO_HEAD
from parsebench.metrics.core.counts import Additive
from parsebench.metrics.core.method import (
    LevelStats,
    Method,
    Metric,
    RankingFigure,
    Replicate,
    RunContext,
    ScoredLevel,
    SentenceStats,
    Variant,
)
from parsebench.metrics.core.scores import share
from parsebench.metrics.core.word_alignment import Alignment, unaligned_runs
from parsebench.metrics.robustness.hashemi_hwa import check_alignment, score_pair
from parsebench.metrics.robustness.kakkonen_records import (
    SentencesCommand,
    SentencesValue,
)
from parsebench.metrics.robustness.kakkonen_shown import sentences_section, sentences_table
from parsebench.model.inputs import same_words
from parsebench.model.parses import Parse, misspelled_rows, structure
from parsebench.present import percent

SIGNATURE = "kakkonen-sentences"
"""The method's name in every signature of its figures (a run's and the command's)."""


@dataclass(slots=True)
class Tally(Additive):
    sentences: int = 0
    unlabeled: int = 0
    labeled: int = 0
    failures: int = 0

    def scores(self) -> dict[str, Any]:
        n = self.sentences
        parsed = n - self.failures
        return {"sentences": n, "failures": self.failures,
                "unlabeled": self.unlabeled / n if n else None,
                "labeled": self.labeled / n if n else None,
                "parsed_only": {"unlabeled": self.unlabeled / parsed if parsed else None,
                                "labeled": self.labeled / parsed if parsed else None},
                "matched": {"unlabeled": self.unlabeled, "labeled": self.labeled}}


@dataclass(slots=True)
class SentenceScores:
    by_errors: dict[int, Tally] = field(default_factory=dict)
    structure: bool = True
    """False when no clean parse has a structure to compare (a tagger's CoNLL-U, with
    ``_`` heads): every score is then n/a, not a perfect match of nothing."""
    labels: bool = True
    """False when the clean parses have no labels: the labeled score is n/a."""
    per_sentence: dict[int, list[int]] = field(default_factory=dict)
    """Clean sentence k -> [pairs with a misspelling, unlabeled matches, labeled
    matches], and under -k-1 the same over every pair: what the bootstrap resamples
    (the replicates of a sentence stay together)."""

    def add_pair(self, clean: Parse, noisy: Parse, index: int = 0,
                 alignment: Alignment | None = None) -> None:
        self.add_counts(index, *pair_counts(clean, noisy, alignment))

    def add_counts(self, index: int, errors: int, unlabeled: int, labeled: int,
                   failed: int) -> None:
        """Count one pair of clean sentence INDEX (:func:`pair_counts`)."""
        t = self.by_errors.setdefault(errors, Tally())
        t.sentences += 1
        t.failures += failed
        t.unlabeled += unlabeled
        t.labeled += labeled
        for key, counted in ((index, errors > 0), (-index - 1, True)):
            if counted:
                row = self.per_sentence.setdefault(key, [0, 0, 0])
                row[0] += 1
                row[1] += unlabeled
                row[2] += labeled

    def add(self, other: SentenceScores) -> None:
        for k, t in other.by_errors.items():
            self.by_errors.setdefault(k, Tally()).add(t)
        self.structure = self.structure and other.structure
        self.labels = self.labels and other.labels
        for k, row in other.per_sentence.items():
            mine = self.per_sentence.setdefault(k, [0, 0, 0])
            for i, x in enumerate(row):
                mine[i] += x

    def overall(self) -> Tally:
        """Pairs whose noisy side has a misspelling; all pairs when none has."""
        total = Tally()
        keys = [k for k in self.by_errors if k > 0] or list(self.by_errors)
        for k in keys:
            total.add(self.by_errors[k])
        return total

    def command(self, structure: Sequence[str], files: int) -> SentencesCommand:
        """``robustness sentences``'s object: the scores and the signature of a comparison
        of parses of STRUCTURE kinds against FILES noisy files."""
        from parsebench.common.signature import signature

        return SentencesCommand.from_dict({**self.as_dict(), "signature": signature(
            method=SIGNATURE, structure=list(structure), files=files)})

    def as_dict(self) -> dict[str, Any]:
        total = self.overall()
        out = self._scores(total)
        out["unchanged_sentences"] = self.by_errors[0].sentences if 0 in self.by_errors \
            and len(self.by_errors) > 1 else 0
        out["by_errors"] = {str(k): self._scores(self.by_errors[k])
                            for k in sorted(self.by_errors)}
        # only bins large enough to say something: two sentences at 8 errors gave
        # "relative drop from 1 to 8 errors: 100.0%"
        levels = sorted(k for k, t in self.by_errors.items()
                        if k > 0 and t.sentences >= MIN_BIN)
        drops: dict[str, Any] = {"unlabeled": None, "labeled": None, "from": None,
                                 "to": None, "min_sentences": MIN_BIN}
        if len(levels) > 1:
            lo, hi = self.by_errors[levels[0]].scores(), self.by_errors[levels[-1]].scores()
            drops.update({"from": levels[0], "to": levels[-1]})
            for key in ("unlabeled", "labeled"):
                if lo[key]:
                    drops[key] = relative_drop(lo[key], hi[key])
        out["relative_drop"] = drops
        out["ci95"] = self._intervals()
        if self.structure:
            out["stats"] = {"pairs": self.stats()}
        out["warnings"] = [] if self.structure and self.labels else [
            "the clean parses have no " + ("heads (a tagger's output?): the sentence "
                                           "scores are n/a" if not self.structure else
                                           "labels: the labeled score is n/a")]
        return out

    def stats(self) -> list[list[int]]:
        """The overall score's statistics per clean sentence, in sentence order:
        [pairs, unlabeled matches, labeled matches] over the pairs with a misspelling
        (every pair when none has one), as :meth:`overall` counts them."""
        with_errors = sorted((k, row) for k, row in self.per_sentence.items() if k >= 0)
        chosen = with_errors or sorted((-k - 1, row) for k, row in self.per_sentence.items()
                                       if k < 0)
        return [row for _, row in chosen]

    def _intervals(self) -> dict[str, list[float] | None]:
        """95% bootstrap intervals of the overall scores, resampling clean sentences."""
        from parsebench.metrics.core.resample import sentence_interval  # NumPy: when scoring
        rows = self.stats()
        out: dict[str, list[float] | None] = {}
        for key in ("unlabeled", "labeled"):
            usable = self.structure and (key == "unlabeled" or self.labels)
            out[key] = sentence_interval(rows, SCORES_BY_NAME[f"kakkonen-{key}"].score) \
                if usable else None
        return out

    def _scores(self, t: Tally) -> dict[str, Any]:
        out = t.scores()
        missing = [] if self.structure and self.labels else \
            ["labeled"] if self.structure else ["unlabeled", "labeled"]
        for key in missing:
            out[key] = out["parsed_only"][key] = out["matched"][key] = None
        return out


def pair_counts(clean: Parse, noisy: Parse, alignment: Alignment | None = None
                ) -> tuple[int, int, int, int]:
    """One clean/noisy pair: its errors (misspelled words, or the alignment's errors),
    whether it matched unlabeled and labeled (0/1), and whether either side failed."""
    if alignment is not None:
        return _aligned_pair(clean, noisy, alignment)
    if noisy is clean and not any(clean.noise):  # unchanged by the noise
        return (0, 0, 0, 1) if clean.failed is not None else (0, 1, 1, 0)
    errors = sum(misspelled_rows(clean, noisy)) if len(clean) == len(noisy) else \
        sum(noisy.noise)
    if clean.failed is not None or noisy.failed is not None:
        return errors, 0, 0, 1
    if len(clean) != len(noisy) or clean.kind != noisy.kind:
        return errors, 0, 0, 0
    if structure(clean, False) == structure(noisy, False):
        return errors, 1, int(structure(clean, True) == structure(noisy, True)), 0
    return errors, 0, 0, 0


def _aligned_pair(clean: Parse, noisy: Parse, a: Alignment) -> tuple[int, int, int, int]:
    """A pair whose words differ (errors that add, drop or move words): it matches when
    every dependency away from the error words is the same on both sides, the words
    paired by the alignment A (noisy to clean), which is robustness F1 of 1."""
    errors = a.errors if a.errors is not None else \
        unaligned_runs(a.pairs, len(noisy), len(clean))
    if clean.failed is not None or noisy.failed is not None:
        return errors, 0, 0, 1
    if clean.kind != noisy.kind:
        return errors, 0, 0, 0
    match = []
    for labeled in (False, True):
        c = score_pair(noisy, clean, a, labeled)
        match.append(c.shared == c.ungrammatical_deps - c.ungrammatical_error_deps
                     == c.grammatical_deps - c.grammatical_error_deps)
    return errors, int(match[0]), int(match[0] and match[1]), 0


def _empty(clean: Sequence[Parse]) -> SentenceScores:
    """Scores with no pair yet, knowing whether the clean parses have heads and labels."""
    done = [c for c in clean if c.failed is None and c.kind == "deps"]
    return SentenceScores(structure=not done or any(h != NO_HEAD for c in done
                                                    for h in c.heads),
                          labels=not done or any(d != "_" for c in done for d in c.deprels))


def _check_replicate(clean: Sequence[Parse], rep: Replicate, clean_path: str) -> None:
    noisy = [p.noisy for p in rep.pairs]
    if all(p.alignment is None for p in rep.pairs):
        same_words(clean, noisy, clean_path, rep.label, "Kakkonen's score without an alignment",
                   " (for noise that adds or drops words, give --alignment)")
        return
    for k, p in enumerate(rep.pairs):
        assert p.alignment is not None
        check_alignment(p.alignment, p.noisy, p.clean, k, rep.label, clean_path, "")


def _scores_of(empty: SentenceScores, stats: LevelStats, replicate: int | None
               ) -> SentenceScores:
    """The scores of a level's statistics (of one REPLICATE, or pooled)."""
    out = SentenceScores(structure=empty.structure, labels=empty.labels)
    for e in stats.names("errors"):
        s, u, lab, f = (int(x) for x in stats.sums(f"errors={e}", replicate))
        if s:
            out.by_errors[int(e)] = Tally(s, u, lab, f)
    if replicate is None:
        for k, row in enumerate(stats.rows("pairs")):
            if row and row[0]:
                out.per_sentence[k] = [int(x) for x in row]
        for k, row in enumerate(stats.rows("all pairs")):
            out.per_sentence[-k - 1] = [int(x) for x in row]
    return out


def _variants(ctx: RunContext) -> list[Variant]:
    """Kakkonen's sentence scores at each level, the replicates pooled."""
    if not (ctx.exp.wants("sentences") and ctx.levels):
        return []
    clean = ctx.clean
    empty = _empty(clean)
    path = str(ctx.corpus.path)

    def stats(rep: Replicate) -> Iterator[SentenceStats]:
        _check_replicate(clean, rep, path)
        for p in rep.pairs:
            errors, u, lab, failed = pair_counts(p.clean, p.noisy, p.alignment)
            row = (1, u, lab)
            yield {f"errors={errors}": (1, u, lab, failed), "all pairs": row,
                   **({"pairs": row} if errors > 0 else {})}

    def figures(level: ScoredLevel, t: LevelStats) -> dict[str, Any]:
        s = _scores_of(empty, t, None).as_dict()
        s["stats"] = {**t.stored(["all pairs", "errors"]), **s.get("stats", {})}
        s["error_level_label"] = level.short
        if t.replicates > 1:
            s["replicates"] = [{k: d[k] for k in ("unlabeled", "labeled", "sentences",
                                                  "failures", "matched")}
                               for d in (_scores_of(empty, t, r).as_dict()
                                         for r in range(t.replicates))]
        return s

    return [Variant(ctx.kind, ctx.noisy_levels(), stats, figures,
                    lambda level: {"method": SIGNATURE, "structure": ctx.kind,
                                   "level": level.label})]


_PAIRS = ("pairs", "unlabeled matches", "labeled matches")
SCORES = (
    Metric("kakkonen-unlabeled", "Kakkonen unlabeled", "run", _PAIRS, share(1, 0),
           ("sentences", "pairs"),
           headline=RankingFigure("sentences whose parse is unchanged (Kakkonen, unlabeled)",
                                  lambda v: v.unlabeled, "unlabeled", True, 3)),
    Metric("kakkonen-labeled", "Kakkonen labeled", "run", _PAIRS, share(2, 0),
           ("sentences", "pairs")),
)
SCORES_BY_NAME = {m.name: m for m in SCORES}


def _headline(v: SentencesValue) -> str:
    return (f"unlabeled {percent(v.unlabeled, spread=True)}  "
            f"labeled {percent(v.labeled, spread=True)}")


LEGEND = {
    "unlabeled": "share of noisy sentences whose parse is unchanged: every word's head as "
                 "in the clean parse (Kakkonen); not a share of arcs",
    "labeled": "share of noisy sentences whose every head and label is the clean parse's",
    "failures": "sentences whose parse failed (counted as non-matches)",
}
"""What Kakkonen's columns hold: shares of whole sentences."""

METHOD = Method("sentences", "Kakkonen", _variants,
                "scored through the alignment (a match: the same dependencies away from the "
                "error words)", scores=SCORES,
                sections=(sentences_section,), text=sentences_table,
                section_title="Kakkonen's sentence robustness", legend=LEGEND,
                anchor=lambda r: "sentences", headline=_headline, value_type=SentencesValue,
                columns={
                    "pairs": ("pairs with an error", "unlabeled matches", "labeled matches"),
                    "all pairs": ("pairs", "unlabeled matches", "labeled matches"),
                    "errors": ("sentence", "errors", "pairs", "unlabeled matches",
                               "labeled matches", "failures")})


MIN_BIN = 30
"""The fewest sentence pairs a number of errors needs for the relative drop to use it:
at 30, a share's 95% interval is at most about 17 points either side (Wilson, p = 1/2);
at 2 sentences, 0% and 100% are both within it."""


def relative_drop(low: float, high: float) -> float:
    """(s_low - s_high) / s_low: the share of the score lost from the lowest error level."""
    return (low - high) / low


def score_sentences(clean: Sequence[Parse], noisy_files: Sequence[Sequence[Parse]],
                    clean_path: str, noisy_paths: Sequence[str],
                    alignments: Sequence[Sequence[Alignment]] | None = None,
                    alignment_paths: Sequence[str] = ()) -> SentenceScores:
    """Pool every noisy file's pairs (replicates) with the clean sentence at the same position.

    ALIGNMENTS (one list a noisy file, noisy word to clean word) let noise that adds,
    drops or moves words be scored: see :func:`_aligned_pair`."""
    scores = _empty(clean)
    if alignments is not None and len(alignments) != len(noisy_files):
        raise InputError(f"{len(alignments)} alignment files for {len(noisy_files)} noisy "
                         "files: give one for each, in the same order")
    for f, (noisy, path) in enumerate(zip(noisy_files, noisy_paths, strict=True)):
        if alignments is None:
            same_words(clean, noisy, clean_path, path, "Kakkonen's score without an alignment",
                       " (for noise that adds or drops words, give --alignment)")
            for k, (c, n) in enumerate(zip(clean, noisy, strict=True)):
                scores.add_pair(c, n, k)
            continue
        aligns, a_path = alignments[f], alignment_paths[f] if alignment_paths else ""
        if not len(noisy) == len(clean) == len(aligns):
            raise InputError(f"{len(noisy)} noisy sentences, {len(clean)} clean ones and "
                             f"{len(aligns)} alignments: they must be the same sentences",
                             a_path or path)
        for k, (c, n, a) in enumerate(zip(clean, noisy, aligns, strict=True)):
            check_alignment(a, n, c, k, path, clean_path, a_path)
            scores.add_pair(c, n, k, a)
    return scores

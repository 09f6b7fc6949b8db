"""A run's noisy versions of its corpus: each level and replicate read from the store, or
made through its kind of noise (:data:`parsebench.noise.kinds.KINDS`) and stored as the
kind's plain lists of changes, so that every run and export sees the same noise."""

from __future__ import annotations

import copy

from parsebench.common.errors import InputError
from parsebench.common.progress import Progress, Quiet
from parsebench.noise.keyboard import Keyboard
from parsebench.noise.kind import Plan
from parsebench.noise.kinds import KINDS, units_of
from parsebench.noise.spelling import Report
from parsebench.noise.spelling_output import apply_to_conllu
from parsebench.run.corpus import CorpusData, Version, levels_of
from parsebench.run.experiment import Experiment
from parsebench.store import Store


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
            got = store.noisy(corpus.digest, key, level.label, seed, kind.valid_change)
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
            rebuilt = kind.rebuild(corpus.sentences, level, seed, changes)
            units = units_of(exp.kind, exp.noise, rebuilt.sentences)
            sentences = rebuilt.sentences if units is None else \
                [copy.copy(s) for s in rebuilt.sentences]  # a parse of its own, not the clean one's
            corpus.versions.append(Version(level, seed, sentences, rebuilt.alignments,
                                           rebuilt.m2, units))
            progress.advance()

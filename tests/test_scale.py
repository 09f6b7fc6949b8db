"""Memory flat in the corpus's size (issue 26): what `compare` and `robustness f1` keep a
sentence is a few numbers, resampling works in bounded batches, and the readers stream.
benchmarks/bench_memory.py measures the peak memory itself (README, Memory)."""

from __future__ import annotations

import types
from pathlib import Path

import numpy as np
import pytest
from conftest import FIXTURES
from hypothesis import given, settings
from hypothesis import strategies as st

from parsebench.common.errors import InputError
from parsebench.formats.conllu import iter_conllu
from parsebench.metrics.core import resample
from parsebench.metrics.core.scores import f1_of_counts
from parsebench.metrics.core.word_alignment import iter_alignments, read_alignments
from parsebench.metrics.dependency.evaluate import score_deps
from parsebench.metrics.registry import REGISTRY, file_stats
from parsebench.metrics.robustness.hashemi_hwa import score_corpus
from parsebench.model.parses import iter_parses, read_parses

LEARNER = FIXTURES / "learner.conllu"


def test_resampling_batches_stay_bounded_for_any_corpus_size() -> None:
    for n in (1, 10, 12_544, 250_880, 5_000_000):
        assert resample._batch(n) * n <= max(resample.CELLS, n)
        assert resample._batch(n) >= 1


@settings(max_examples=25, deadline=None)
@given(n=st.integers(1, 400), cells=st.integers(1, 5_000), seed=st.integers(0, 9))
def test_resamples_do_not_depend_on_the_batch_size(n: int, cells: int, seed: int) -> None:
    """The bound on a batch changes memory, never a number: the same seed draws the same
    resamples however they are batched."""
    stats = [np.random.default_rng(seed).integers(0, 9, size=(n, 3)).astype(float)]
    whole = resample.bootstrap_scores(stats, f1_of_counts, 300, seed)[0]
    saved = resample.CELLS
    try:
        resample.CELLS = cells
        batched = resample.bootstrap_scores(stats, f1_of_counts, 300, seed)[0]
    finally:
        resample.CELLS = saved
    assert np.array_equal(whole, batched, equal_nan=True)


def test_compare_statistics_are_the_per_sentence_counts() -> None:
    """`compare` keeps each sentence's row as it is scored (a float array), and the rows
    are those of the sentences' counts."""
    got = file_stats(REGISTRY["las"], LEARNER, LEARNER)
    assert got.dtype == np.float64 and got.flags.c_contiguous
    want = [[c.las.correct, c.las.gold, c.las.system] for c in
            score_deps(iter_conllu(LEARNER), iter_conllu(LEARNER)).per_sentence or ()]
    assert got.tolist() == want


def test_robustness_f1_reads_streams_and_counts_them(tmp_path: Path) -> None:
    """score_corpus takes iterators (the command streams its files) and gives what it
    gives on lists; a file shorter or longer than the corrected one is refused with both
    counts, whichever ends first."""
    assert isinstance(iter_parses(LEARNER), types.GeneratorType)
    whole = score_corpus(read_parses(LEARNER), read_parses(LEARNER), None, "g", "u")
    streamed = score_corpus(iter_parses(LEARNER), iter_parses(LEARNER), None, "g", "u")
    assert streamed.total == whole.total and streamed.pairs == whole.pairs
    n = len(read_parses(LEARNER))
    with pytest.raises(InputError, match=f"^u: {n - 1} sentences, but g has {n}$"):
        score_corpus(iter_parses(LEARNER), read_parses(LEARNER)[:-1], None, "g", "u")
    with pytest.raises(InputError, match=f"^u: {n} sentences, but g has {n - 1}$"):
        score_corpus(read_parses(LEARNER)[:-1], iter_parses(LEARNER), None, "g", "u")


def test_alignment_files_stream(tmp_path: Path) -> None:
    m2 = tmp_path / "a.m2"
    m2.write_text("S a b c\nA 1 2|||R:DET|||x|||REQUIRED|||-NONE-|||0\n\nS d e\n"
                  "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n", encoding="utf-8")
    kind, it = iter_alignments(m2)
    assert kind == "m2" and isinstance(it, types.GeneratorType)
    assert list(it) == read_alignments(m2)[1] and len(read_alignments(m2)[1]) == 2
    bad = tmp_path / "b.m2"
    bad.write_text("S a b\nA 0 9|||R:DET|||x|||REQUIRED|||-NONE-|||0\n", encoding="utf-8")
    with pytest.raises(InputError, match="outside the sentence"):
        list(iter_alignments(bad)[1])

"""Confidence intervals and paired significance tests over per-sentence statistics.

Every metric gives each sentence a short vector of additive counts (its
sufficient statistics) and its corpus score from their sum, so one resampling
routine serves them all, as in sacreBLEU. Resampling sentences with replacement
draws sentence numbers a batch of samples at a time and sums their statistics (in C,
``_resample_fast``; without it, as weights, how often each sentence is drawn, and one
matrix product), so 10,000 samples of a treebank's test set take a fraction of a
second; the same draws go to every system, which is what makes the bootstrap paired.

Definitions:
- percentile bootstrap: the score of each of N resampled corpora; the interval
  is their (alpha/2, 1 - alpha/2) percentiles.
- paired bootstrap (sacreBLEU's ``paired_bs``): d = score(B) - score(A); d* the
  same difference on each resample; two-sided p = (1 + #{|d* - mean(d*)| >= |d|})
  / (1 + N); the interval of the difference is the percentiles of d*.
- approximate randomization: each sentence's statistics of A and B are swapped
  with probability 1/2; p = (1 + #{|d*| >= |d|}) / (1 + N).
- Holm's step-down correction when several pairs are tested.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from parsebench.common.threads import started

Stats = npt.NDArray[np.float64]
"""Per-sentence statistics: one row a sentence, one column a count."""
ScoreFn = Callable[[Stats], npt.NDArray[np.float64]]
"""Corpus scores from summed statistics: rows of sums in, one score a row out
(NaN where the score is not defined)."""

_resample_sums: Callable[[npt.NDArray[np.int64], Stats], Stats] | None
try:
    from parsebench.metrics.core._resample_fast import resample_sums as _resample_sums
except ImportError:  # built without a C compiler: NumPy's weights, the same numbers
    _resample_sums = None

BATCH = 512
"""Resamples drawn at once: a BATCH x sentences weight matrix stays a few MB."""


CELLS = 2_000_000
"""At most this many resample x sentence cells a batch (16 MB of weights): a corpus of
many sentences is resampled in smaller batches, so memory stays flat in its size."""


def _batch(n: int) -> int:
    return max(1, min(BATCH, CELLS // max(n, 1)))


def _weights(n: int, samples: int, rng: np.random.Generator) -> Iterator[npt.NDArray[np.float64]]:
    """How often each of N sentences is drawn, for SAMPLES resamples, batch by batch."""
    done = 0
    while done < samples:
        k = min(_batch(n), samples - done)
        # draws of resample r land in cells r*n..r*n+n-1: one bincount for the batch
        # (7x faster than Generator.multinomial, same distribution)
        cells = rng.integers(0, n, size=(k, n)) + (np.arange(k) * n)[:, None]
        yield np.bincount(cells.ravel(), minlength=k * n).reshape(k, n).astype(np.float64)
        done += k


def _draws(n: int, samples: int, rng: np.random.Generator) -> Iterator[npt.NDArray[np.int64]]:
    """The sentences each of SAMPLES resamples draws (a row each), batch by batch: the
    numbers :func:`_weights` counts, from the same generator calls."""
    done = 0
    while done < samples:
        k = min(_batch(n), samples - done)
        yield rng.integers(0, n, size=(k, n))
        done += k


BESIDE = 200_000
"""Resample x sentence cells from which a batch is summed in a thread (a millisecond of
work): EWT test's 10,000 resamples are 20 batches of a million."""


def _summed_beside(draws: Iterator[npt.NDArray[np.int64]], rows: Stats,
                   sums: Callable[[npt.NDArray[np.int64], Stats], Stats]) -> Iterator[Stats]:
    """SUMS of ROWS for each batch of DRAWS, in order, each summed in a thread while
    the next batch is drawn (both without the GIL): on two cores the resampling takes
    about the longer of the two rather than both. The batches and their order are
    those of one thread, so are the numbers. A batch of fewer than BESIDE cells is
    summed here: a thread costs more than it saves (a run's thousands of corpora of
    50 sentences)."""
    pending: Callable[[], Stats] | None = None
    for drawn in draws:
        if drawn.size < BESIDE:  # summed here, after the batch pending
            if pending is not None:
                yield pending()
                pending = None
            yield sums(drawn, rows)
            continue
        job = started(sums, drawn, rows)
        if pending is not None:
            yield pending()
        pending = job
    if pending is not None:
        yield pending()


def bootstrap_scores(stats: Sequence[Stats], score: ScoreFn, samples: int, seed: int
                     ) -> list[npt.NDArray[np.float64]]:
    """The score of every system on the same SAMPLES resamples of the sentences."""
    n = _sentences(stats)
    rng = np.random.default_rng(seed)
    out: list[list[npt.NDArray[np.float64]]] = [[] for _ in stats]
    if _resample_sums is not None:  # the same resamples, summed in C
        # every system's columns side by side: each draw is read once for all of them,
        # and a column is summed in the same order as alone (the same sums)
        edges = np.cumsum([0, *(np.shape(s)[1] for s in stats)])
        rows = np.ascontiguousarray(np.hstack([np.asarray(s, dtype=np.float64)
                                               for s in stats]))
        for sums in _summed_beside(_draws(n, samples, rng), rows, _resample_sums):
            for k in range(len(stats)):
                out[k].append(score(np.ascontiguousarray(sums[:, edges[k]:edges[k + 1]])))
        return [np.concatenate(x) for x in out]
    for w in _weights(n, samples, rng):
        for k, s in enumerate(stats):
            out[k].append(score(w @ s))
    return [np.concatenate(x) for x in out]


def interval(values: npt.NDArray[np.float64], alpha: float, point: float | None = None
             ) -> tuple[float, float] | None:
    """The (alpha/2, 1 - alpha/2) percentile interval of the resamples' VALUES, around
    POINT (the figure on the whole sample) when given.

    A resample where the figure is undefined (NaN: a denominator of 0 in every sentence
    drawn) is counted, not dropped: dropping it would move the interval away from the
    values it stands for. When more than alpha/2 of the resamples are undefined, a tail
    of the interval is not known and the interval is n/a (None); so it is when POINT is
    NaN. Where the percentile interval misses POINT (a skewed figure on few sentences),
    it is stretched to it: an interval always holds its figure."""
    defined = ~np.isnan(values)
    if not len(values) or np.count_nonzero(~defined) > alpha / 2 * len(values):
        return None
    if point is not None and np.isnan(point):
        return None
    lo, hi = _percentiles(values[defined], 100 * alpha / 2, 100 * (1 - alpha / 2))
    if point is not None:
        lo, hi = min(lo, float(point)), max(hi, float(point))
    return lo, hi


def _percentiles(values: npt.NDArray[np.float64], *qs: float) -> tuple[float, ...]:
    """The QS percentiles of VALUES (not empty, no NaN), as ``np.percentile`` gives them
    (its linear method, the same float operations: the same numbers to the last bit).
    Written out because ``np.percentile`` imports ``numpy.ma`` on its first call, a
    twentieth of ``compare``'s time."""
    v = np.sort(values)
    last = len(v) - 1
    out = []
    for q in qs:
        at = (q / 100) * last
        if at >= last:
            out.append(float(v[-1]))
            continue
        below = math.floor(at)
        a, b, t = float(v[below]), float(v[below + 1]), at - below
        out.append(b - (b - a) * (1 - t) if t >= 0.5 else a + (b - a) * t)
    return tuple(out)


@dataclass(frozen=True)
class PairTest:
    delta: float | None
    """Score of the system minus score of the baseline on the whole corpus."""
    ci: tuple[float, float] | None
    p: float | None


def paired_bootstrap(base: Stats, system: Stats, score: ScoreFn, samples: int, seed: int,
                     alpha: float = 0.05,
                     scores: tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]] | None
                     = None) -> PairTest:
    """SCORES: both systems' :func:`bootstrap_scores` of the same SAMPLES and SEED when
    the caller has them already (the same resamples: the weights depend on the seed and
    the number of sentences only), so they are not drawn again."""
    a, b = scores if scores is not None else \
        bootstrap_scores([base, system], score, samples, seed)
    d = _delta(base, system, score)
    if d is None:
        return PairTest(None, None, None)
    ds = b - a
    ds = ds[~np.isnan(ds)]
    if not len(ds):
        return PairTest(d, None, None)
    p = bootstrap_p(ds, d)
    return PairTest(d, interval(ds, alpha), p)


def bootstrap_p(draws: npt.NDArray[np.float64], observed: float) -> float:
    """The paired bootstrap's two-sided p-value of an OBSERVED difference from its
    resampled DRAWS (shifted to their mean: the null's distribution)."""
    return (1 + int(np.sum(np.abs(draws - draws.mean()) >= abs(observed) - _EPS))) \
        / (1 + len(draws))


def randomization(base: Stats, system: Stats, score: ScoreFn, samples: int, seed: int,
                  alpha: float = 0.05,
                  scores: tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]] | None
                  = None) -> PairTest:
    """Approximate randomization; its interval is the paired bootstrap's (a swap test
    gives a p-value, not an interval), drawn from the same seed."""
    d = _delta(base, system, score)
    if d is None:
        return PairTest(None, None, None)
    n = _sentences([base, system])
    rng = np.random.default_rng(seed)
    diff = system - base
    sum_a, sum_b = base.sum(axis=0), system.sum(axis=0)
    hits = total = 0
    done = 0
    while done < samples:
        k = min(_batch(n), samples - done)
        swap = (rng.random((k, n)) < 0.5).astype(np.float64) @ diff
        ds = score(sum_b - swap) - score(sum_a + swap)
        ds = ds[~np.isnan(ds)]
        hits += int(np.sum(np.abs(ds) >= abs(d) - _EPS))
        total += len(ds)
        done += k
    ci = paired_bootstrap(base, system, score, samples, seed, alpha, scores).ci
    return PairTest(d, ci, (1 + hits) / (1 + total))


def holm(pvalues: Sequence[float | None]) -> list[float | None]:
    """Holm's step-down adjusted p-values (family-wise error), in the given order."""
    known = sorted((p, i) for i, p in enumerate(pvalues) if p is not None)
    m = len(known)
    out: list[float | None] = [None] * len(pvalues)
    running = 0.0
    for rank, (p, i) in enumerate(known):
        running = max(running, min(1.0, (m - rank) * p))
        out[i] = running
    return out


_EPS = 1e-12
"""Differences equal to the observed one up to rounding count as at least as large."""


def _delta(base: Stats, system: Stats, score: ScoreFn) -> float | None:
    both = score(np.stack([base.sum(axis=0), system.sum(axis=0)]))
    if np.isnan(both).any():
        return None
    return float(both[1] - both[0])


def _sentences(stats: Sequence[Stats]) -> int:
    sizes = {s.shape[0] for s in stats}
    if len(sizes) != 1:
        raise ValueError(f"systems with different numbers of sentences: {sorted(sizes)}")
    n = sizes.pop()
    if n == 0:
        raise ValueError("no sentences to resample")
    return int(n)


def pool_replicates(rows: Sequence[Sequence[float]], replicates: int) -> list[list[float]]:
    """Each sentence's statistics summed over its replicates, from ROWS laid out replicate
    after replicate (R x N rows in, N out). Every method pools this one way: the
    sentence is what an interval resamples, and its replicates go with it.

    Resampling the R x N rows as if they were independent sentences would make the
    intervals of a level with R replicates too narrow by about sqrt(R)."""
    if replicates <= 1 or not rows:
        return [list(r) for r in rows]
    arr = np.asarray(rows, dtype=np.float64)
    if arr.shape[0] % replicates:
        raise ValueError(f"{arr.shape[0]} rows are not {replicates} replicates")
    return np.sum(arr.reshape(replicates, -1, arr.shape[1]), axis=0).tolist()  # type: ignore[no-any-return]


REPORT_SAMPLES = 1000
"""Resamples behind the intervals of a run's report (the seed is fixed: 1)."""


def sentence_interval(rows: Sequence[Sequence[float]], score: ScoreFn,
                      samples: int = REPORT_SAMPLES, alpha: float = 0.05
                      ) -> list[float] | None:
    """The 1 - ALPHA percentile-bootstrap interval of SCORE over sentences, from each
    sentence's statistics ROWS, around the score of their sum (:func:`interval`); None
    without sentences, without a defined score, or where the score is undefined in too
    many resamples."""
    if not rows:
        return None
    stats = np.asarray(rows, dtype=np.float64)
    point = float(score(stats.sum(axis=0)[None, :])[0])
    got = interval(bootstrap_scores([stats], score, samples, 1)[0], alpha, point)
    return None if got is None else [got[0], got[1]]

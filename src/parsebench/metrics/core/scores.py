"""How summed per-sentence statistics become a score, for every metric alike.

Each function takes rows of summed statistics (one row a corpus or a resample)
and gives one score a row, NaN where the score is not defined (n/a stays n/a).
Kept apart from the registry so that a method's module can use them without
importing every other method.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # NumPy is imported where a score is computed, not with the registry
    import numpy as np
    import numpy.typing as npt

    from parsebench.metrics.core.resample import Stats

    Score = npt.NDArray[np.float64]


ALPHA = 0.05
"""The error rate of every interval and paired test a report shows (95%): here, beside
the scores, so that the report reads it without importing NumPy."""


def _ratio(num: Score, den: Score) -> Score:
    import numpy as np
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1), np.nan)


def f1_of_counts(s: Stats) -> Score:
    """Columns (correct, gold, system): CoNLL 2018's F1 = 2 correct / (gold + system)."""
    return _ratio(2 * s[..., 0], s[..., 1] + s[..., 2])


def f1_of_pr(s: Stats) -> Score:
    """Columns (key, answer, key matched, answer matched): Lin's F1 of precision and
    recall; 0 where both are 0 (a key and an answer with nothing in common), n/a only
    where precision or recall is (no key or no answer)."""
    return _f1(_ratio(s[..., 3], s[..., 1]), _ratio(s[..., 2], s[..., 0]))


def _f1(p: Score, r: Score) -> Score:
    """The harmonic mean of P and R: 0 where both are 0, NaN where either is NaN."""
    import numpy as np
    f = np.where(p + r > 0, 2 * p * r / np.where(p + r > 0, p + r, 1), 0.0)
    return np.where(np.isnan(p) | np.isnan(r), np.nan, f)


def flat_recall(s: Stats) -> Score:
    return _ratio(s[..., 2], s[..., 0])


def conformance(s: Stats) -> Score:
    return _ratio(s[..., 0] - s[..., 3], s[..., 0])


def share(num: int, den: int) -> Callable[[Stats], Score]:
    """Column NUM over column DEN of the summed statistics."""
    def score(s: Stats) -> Score:
        return _ratio(s[..., num], s[..., den])
    return score


def loss(num: int, den: int) -> Callable[[Stats], Score]:
    """One minus column NUM over column DEN: a degradation."""
    def score(s: Stats) -> Score:
        return 1 - _ratio(s[..., num], s[..., den])
    return score


def f1_of_shared(s: Stats) -> Score:
    """Columns (shared, precision's denominator, recall's denominator): Hashemi & Hwa."""
    return _f1(_ratio(s[..., 0], s[..., 1]), _ratio(s[..., 0], s[..., 2]))

"""Intervals of proportions of sentences: the Wilson score interval.

A share of sentences (an attack's success rate, an invariance test's failure rate, exact
match) is a binomial proportion. Its percentile-bootstrap interval has width zero when
every sentence, or none, counts (``100.0 [100.0, 100.0]`` from 20 sentences), which
claims a certainty 20 sentences cannot give. The Wilson score interval (Wilson 1927;
Brown, Cai and DasGupta 2001 recommend it over the normal approximation) is never of
width zero for n >= 1, stays within [0, 1], and is exact arithmetic, not a resample.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist

METHOD = "Wilson score"
"""How the intervals of this module are named where they are shown."""


def wilson(successes: float, n: float, alpha: float = 0.05) -> list[float] | None:
    """The 1 - ALPHA Wilson score interval of SUCCESSES in N trials; None when N is 0.

    p = k / n, z the normal quantile of 1 - alpha/2:
    (p + z²/2n ± z sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)."""
    if n <= 0:
        return None
    z = NormalDist().inv_cdf(1 - alpha / 2)
    p = successes / n
    z2n = z * z / n
    centre = (p + z2n / 2) / (1 + z2n)
    half = z * math.sqrt(p * (1 - p) / n + z2n / (4 * n)) / (1 + z2n)
    return [max(0.0, centre - half), min(1.0, centre + half)]


def sentence_share(rows: Sequence[Sequence[float]], num: int, den: int,
                   alpha: float = 0.05) -> list[float] | None:
    """The Wilson interval of the share sum(ROWS[NUM]) / sum(ROWS[DEN]), with n the
    sentences that count (DEN > 0): a sentence's replicates pooled in its row are not
    independent trials, so n is never more than the sentences."""
    rows = [r for r in rows if r[den] > 0]
    total = sum(r[den] for r in rows)
    if not rows or not total:
        return None
    return wilson(len(rows) * sum(r[num] for r in rows) / total, len(rows), alpha)

"""Calibrated degradation: learn on a small annotated sample how the real loss relates
to the parse changes, then apply it to unannotated text (Bigert et al., end of 3.3).

The paper's estimate assumes that the rows whose parse changes were right in
the clean parse as often as rows in general (Appendix A). For today's parsers
they are not: changes spread to rows that were already hard. What does carry
over from one text to another of the same kind is the net loss per changed
row, k = (x_aab - x_aba) / (1 - acr_0n): the real degradation is exactly
k (1 - acr_0n) / acr_m0, and the upper bound is that with k = 1, so k is the
ratio of the real degradation to the upper bound. It is measured on the
sample (gold, clean and noisy parses at the same error level) and applied to
the target's parse changes. The interval is a percentile bootstrap that
resamples the sentences of the sample and of the target together.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

METHOD = "ratio-to-upper-bound"
LEVEL = 0.95


@dataclass(frozen=True, slots=True)
class Calibration:
    ratio: float
    sample_sentences: int
    sample_rows: int
    ratios: tuple[float, ...]
    """Bootstrap replicates of the ratio (seeded, so reruns agree)."""


def _ratio(sentences: Sequence[tuple[int, int, int]]) -> float:
    changed = sum(s[1] for s in sentences)
    return sum(s[2] for s in sentences) / changed if changed else 0.0


def _resample(items: Sequence[tuple[int, int, int]], rng: random.Random
              ) -> list[tuple[int, int, int]]:
    return rng.choices(items, k=len(items))


def fit(sample: Sequence[tuple[int, int, int]], replicates: int = 1000,
        seed: int = 1) -> Calibration:
    """The ratio k on the sample's (rows, changed, net loss) per sentence, and its bootstrap."""
    rng = random.Random(seed)
    ratios = tuple(_ratio(_resample(sample, rng)) for _ in range(replicates))
    return Calibration(_ratio(sample), len(sample), sum(s[0] for s in sample), ratios)


def _percentiles(values: list[float]) -> list[float]:
    v = sorted(values)
    lo = v[round((1 - LEVEL) / 2 * (len(v) - 1))]
    hi = v[round((1 + LEVEL) / 2 * (len(v) - 1))]
    return [lo, hi]


def apply(cal: Calibration, target: Sequence[tuple[int, int, int]], acr: float,
          seed: int = 2) -> dict[str, Any]:
    """degr_calibrated, acc_calibrated and the calibration record for one target file."""
    record = {"method": METHOD, "ratio": cal.ratio, "sample_sentences": cal.sample_sentences,
              "sample_rows": cal.sample_rows, "level": LEVEL, "bootstrap": len(cal.ratios),
              "ratio_interval": _percentiles(list(cal.ratios))}
    rows = sum(t[0] for t in target)
    if acr <= 0 or rows == 0:  # no row right on the clean text: a degradation of it is n/a
        return {"degr_calibrated": None, "acc_calibrated": None,
                "calibration": {**record, "interval": None, "acc_interval": None}}
    differs = sum(t[1] for t in target) / rows
    degr = cal.ratio * differs / acr
    rng = random.Random(seed)
    boot = []
    for k in cal.ratios:
        t = _resample(target, rng)
        boot.append(k * sum(x[1] for x in t) / sum(x[0] for x in t) / acr)
    d_lo, d_hi = _percentiles(boot)
    return {"degr_calibrated": degr, "acc_calibrated": acr * (1 - degr),
            "calibration": {**record, "interval": [d_lo, d_hi],
                            "acc_interval": [acr * (1 - d_hi), acr * (1 - d_lo)]}}

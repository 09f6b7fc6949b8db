"""Calibrated degradation: a known ratio is recovered, and the interval covers at its rate."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from experiments import write_rows

from parsebench.metrics.robustness.calibration import apply, fit


def test_known_ratio_recovered_from_m0n_files(tmp_path: Path) -> None:
    # sample: 100 changed rows of which aab 70, aba 10 -> net loss per changed row 0.6
    sample = tmp_path / "sample"
    target = tmp_path / "target"
    sample.mkdir()
    target.mkdir()
    s = write_rows(sample, {"aaa": 700, "aab": 70, "aba": 10, "abb": 200, "abc": 20},
                   per_sentence=10)
    # target with the same net loss per changed row (aab 36, aba 3, abc 16: 33/55 = 0.6)
    t = write_rows(target, {"aaa": 1400, "aab": 36, "aba": 3, "abb": 545, "abc": 16},
                   per_sentence=20)
    p = subprocess.run([sys.executable, "-m", "parsebench.cli", "robustness", "rows",
                        str(t[1]), str(t[2]), "--gold", str(t[0]),
                        "--calibrate-gold", str(s[0]), "--calibrate-clean", str(s[1]),
                        "--calibrate-noisy", str(s[2]), "--json"],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    cal = d["calibration"]
    assert cal["method"] == "ratio-to-upper-bound" and cal["ratio"] == pytest.approx(0.6)
    assert cal["sample_sentences"] == 100 and cal["sample_rows"] == 1000
    assert d["degr_calibrated"] == pytest.approx(d["gold"]["degr_real"])
    assert d["acc_calibrated"] == pytest.approx(d["gold"]["acc_real"])
    assert cal["interval"][0] <= d["degr_calibrated"] <= cal["interval"][1]
    assert d["degr_calibrated"] == pytest.approx(0.6 * d["degr_upper"])
    text = subprocess.run([sys.executable, "-m", "parsebench.cli", "robustness", "rows",
                           str(t[1]), str(t[2]), "--gold", str(t[0]),
                           "--calibrate-gold", str(s[0]), "--calibrate-clean", str(s[1]),
                           "--calibrate-noisy", str(s[2])], capture_output=True, text=True)
    assert "calibrated" in text.stdout and "paper's est." in text.stdout
    assert "real " in text.stdout


def _simulate(rng: random.Random, sentences: int, k: float) -> list[tuple[int, int, int]]:
    """Sentences of 5-25 rows; each row changes with p 0.08; a change is a net loss with p k."""
    out = []
    for _ in range(sentences):
        rows = rng.randint(5, 25)
        changed = sum(rng.random() < 0.08 for _ in range(rows))
        loss = sum(rng.random() < k for _ in range(changed))
        out.append((rows, changed, loss))
    return out


def test_interval_covers_the_real_degradation_at_its_rate() -> None:
    rng = random.Random(7)
    trials, covered = 120, 0
    acr = 0.8
    for trial in range(trials):
        sample = _simulate(rng, 150, 0.55)
        target = _simulate(rng, 150, 0.55)
        real = sum(t[2] for t in target) / sum(t[0] for t in target) / acr
        r = apply(fit(sample, replicates=300, seed=trial), target, acr, seed=trial + 1000)
        lo, hi = r["calibration"]["interval"]
        covered += lo <= real <= hi
    # a 95% interval covers 114 of 120 on average; fewer than 106 (too narrow) or all 120
    # (too wide: 0.95^120 = 0.2%) would be wrong. Measured: 116 of 120.
    assert 106 <= covered < trials, covered


def test_calibration_is_reproducible() -> None:
    sample = _simulate(random.Random(1), 50, 0.5)
    assert fit(sample).ratios == fit(sample).ratios


def test_a_clean_accuracy_of_zero_gives_no_calibrated_degradation() -> None:
    """A degradation is relative to the rows right on the clean text: with none right
    (a parser blind to the words) it is n/a, where it divided by zero."""
    rng = random.Random(3)
    cal = fit(_simulate(rng, 40, 0.5), replicates=50, seed=1)
    r = apply(cal, _simulate(rng, 40, 0.5), 0.0)
    assert r["degr_calibrated"] is None and r["acc_calibrated"] is None
    assert r["calibration"]["interval"] is None and r["calibration"]["ratio"] == cal.ratio
    assert apply(cal, [], 0.8)["degr_calibrated"] is None  # no rows at all

"""Bootstrap intervals and paired tests: exact on the trivial cases, calibrated in simulation."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parsebench.common.threads import started
from parsebench.metrics.core.resample import (
    bootstrap_scores,
    holm,
    interval,
    paired_bootstrap,
    randomization,
)


def accuracy(sums: np.ndarray) -> np.ndarray:
    """Columns (correct, words): the share of words right; NaN without words."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return sums[..., 0] / sums[..., 1]


def sentences(rng: np.random.Generator, n: int, p: float) -> np.ndarray:
    words = rng.integers(5, 30, size=n).astype(float)
    return np.stack([rng.binomial(words.astype(int), p).astype(float), words], axis=1)


@pytest.mark.parametrize("test", [paired_bootstrap, randomization])
def test_a_system_against_itself_differs_by_nothing_with_p_one(test) -> None:
    s = sentences(np.random.default_rng(1), 200, 0.8)
    r = test(s, s.copy(), accuracy, 1000, 1)
    assert r.delta == 0 and r.p == 1 and r.ci == (0.0, 0.0)


@pytest.mark.parametrize("test", [paired_bootstrap, randomization])
def test_one_percent_of_words_made_wrong_is_significant(test) -> None:
    rng = np.random.default_rng(2)
    a = sentences(rng, 2000, 0.85)
    b = a.copy()
    right = np.repeat(np.arange(len(a)), a[:, 0].astype(int))  # one entry per right word
    hit = rng.choice(right, size=int(0.01 * a[:, 1].sum()), replace=False)
    np.subtract.at(b[:, 0], hit, 1)
    r = test(a, b, accuracy, 10_000, 1)
    assert r.delta is not None and r.delta < 0 and r.p is not None and r.p < 0.001
    assert r.ci is not None and r.ci[1] < 0


def test_same_seed_same_result_and_batches_do_not_matter() -> None:
    s = sentences(np.random.default_rng(3), 300, 0.7)
    t = sentences(np.random.default_rng(4), 300, 0.72)
    assert paired_bootstrap(s, t, accuracy, 1500, 7) == paired_bootstrap(s, t, accuracy,
                                                                         1500, 7)
    assert paired_bootstrap(s, t, accuracy, 1500, 7) != paired_bootstrap(s, t, accuracy,
                                                                         1500, 8)


def test_false_positives_and_coverage_in_simulation() -> None:
    """Two systems from the same distribution: at alpha 0.05 at most 5% of trials are
    significant (within Monte Carlo error), and the 95% interval of a score covers the
    true value in at least 93% of trials."""
    rng = np.random.default_rng(5)
    trials, n, p_true = 200, 150, 0.8
    fp_boot = fp_rand = covered = 0
    for t in range(trials):
        words = rng.integers(5, 30, size=n)
        a = np.stack([rng.binomial(words, p_true), words], axis=1).astype(float)
        b = np.stack([rng.binomial(words, p_true), words], axis=1).astype(float)
        fp_boot += paired_bootstrap(a, b, accuracy, 400, t).p <= 0.05  # type: ignore[operator]
        fp_rand += randomization(a, b, accuracy, 400, t).p <= 0.05  # type: ignore[operator]
        ci = interval(bootstrap_scores([a], accuracy, 400, t)[0], 0.05)
        assert ci is not None
        covered += ci[0] <= p_true <= ci[1]
    # 5% of 200 is 10, with a binomial standard error of 3.1: allow two of them
    assert fp_boot <= 16 and fp_rand <= 16, (fp_boot, fp_rand)
    assert covered >= 0.93 * trials, covered


def test_holm_steps_down_and_keeps_order() -> None:
    assert holm([0.01, 0.04, 0.03, None]) == [0.03, 0.06, 0.06, None]
    assert holm([0.5]) == [0.5]


def test_an_undefined_score_gives_no_number() -> None:
    empty = np.zeros((10, 2))
    r = paired_bootstrap(empty, empty, accuracy, 100, 1)
    assert r.delta is None and r.p is None and r.ci is None


def test_robustness_figures_carry_intervals_over_sentences(tmp_path: Path) -> None:
    import json
    import subprocess
    import sys

    from conftest import DATA, FIXTURES

    from parsebench.formats.conllu import read_conllu, write_conllu

    gold = tmp_path / "gold.conllu"
    with gold.open("w") as fh:
        write_conllu((read_conllu(DATA / "lin-key.conllu")
                      + read_conllu(FIXTURES / "typos.conllu")) * 5, fh)
    noisy = tmp_path / "noisy.conllu"
    subprocess.run([sys.executable, "-m", "parsebench.cli", "noise", str(gold), "-o", str(noisy),
                    "--rate", "0.3", "--lexicon", str(FIXTURES / "lexicon.txt")], check=True,
                   capture_output=True)
    # a parse of the noisy text that differs from the gold in every misspelled word's head
    sents = read_conllu(noisy)
    for s, g in zip(sents, read_conllu(gold), strict=True):  # noise writes no annotation
        s.deprels, s.upos = g.deprels, g.upos
        s.heads = [0 if i == 0 else (1 if "Noise=" in m else h)
                   for i, (h, m) in enumerate(zip(g.heads, s.misc, strict=True))]
    parsed = tmp_path / "parsed.conllu"
    with parsed.open("w") as fh:
        write_conllu(sents, fh)

    def cli(*args: str) -> dict[str, Any]:
        p = subprocess.run([sys.executable, "-m", "parsebench.cli", *args, "--json"],
                           capture_output=True, text=True)
        assert p.returncode == 0, p.stderr
        d: dict[str, Any] = json.loads(p.stdout)
        return d

    rows = cli("robustness", "rows", str(gold), str(parsed), "--gold", str(gold))
    lo, hi = rows["ci95"]["differs"]
    assert 0 <= lo <= rows["differs"] <= hi <= 1 and hi > lo
    lo, hi = rows["ci95"]["degr_real"]
    assert lo <= rows["gold"]["degr_real"] <= hi
    kak = cli("robustness", "sentences", str(gold), str(parsed))
    lo, hi = kak["ci95"]["unlabeled"]
    assert lo <= kak["unlabeled"] <= hi
    f1 = cli("robustness", "f1", str(gold), str(parsed))
    lo, hi = f1["ci95"]["f1"]
    assert lo <= f1["f1"] <= hi
    assert cli("robustness", "rows", str(gold), str(parsed), "--gold", str(gold)) == rows


def test_wilson_intervals_of_proportions_are_never_of_width_zero() -> None:
    """A share of sentences gets the Wilson score interval: 7 of 10 is [0.3968, 0.8922]
    (by hand: centre 0.6445, half-width 0.2477); all or none of n is [n / (n + z^2), 1]
    or [0, z^2 / (n + z^2)], never a point; pooled replicates count as one trial a
    sentence."""
    from parsebench.metrics.core.proportions import sentence_share, wilson

    z2 = 1.959963984540054 ** 2
    lo, hi = wilson(7, 10)  # type: ignore[misc]
    assert (round(lo, 4), round(hi, 4)) == (0.3968, 0.8922)
    assert wilson(20, 20) == pytest.approx([20 / (20 + z2), 1.0], abs=1e-12)
    assert wilson(0, 20) == pytest.approx([0.0, z2 / (20 + z2)], abs=1e-12)
    assert wilson(0, 0) is None
    for n in range(1, 60):
        for k in range(n + 1):
            a, b = wilson(k, n)  # type: ignore[misc]
            assert 0 <= a < k / n + 1e-12 and k / n - 1e-12 < b <= 1 and b - a > 0
    # 3 sentences, each parsed in 2 replicates: 4 of 6 matched, n = 3 sentences
    assert sentence_share([[2, 2, 2], [1, 2, 2], [1, 2, 2]], 0, 1) == \
        pytest.approx(wilson(2, 3), abs=1e-12)
    assert sentence_share([[0, 0, 0]], 0, 1) is None


def test_the_c_sums_resample_what_the_weights_do(monkeypatch: pytest.MonkeyPatch) -> None:
    """The C kernel sums the sentences each resample draws; NumPy's path counts the same
    draws and multiplies: the same scores, to the last bit on counts."""
    import parsebench.metrics.core.resample as resample

    if resample._resample_sums is None:
        pytest.skip("built without the C accelerator")
    rng = np.random.default_rng(3)
    stats = [rng.integers(0, 40, size=(1_300, 3)).astype(np.float64) for _ in range(3)]

    def score(x: Any) -> Any:
        return x[:, 0] / x[:, 1]

    fast = resample.bootstrap_scores(stats, score, 2_000, 7)
    monkeypatch.setattr(resample, "_resample_sums", None)
    slow = resample.bootstrap_scores(stats, score, 2_000, 7)
    assert all(np.array_equal(a, b) for a, b in zip(fast, slow, strict=True))
    assert len(fast[0]) == 2_000 and len(set(fast[0].tolist())) > 100


@settings(max_examples=300, deadline=None)
@given(st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=1, max_size=60),
       st.lists(st.floats(0, 100), min_size=1, max_size=4))
def test_percentiles_are_numpys_to_the_last_bit(values: list[float], qs: list[float]
                                                ) -> None:
    """The interval's percentiles, written out so that NumPy's masked arrays are not
    imported, are ``np.percentile``'s (linear) numbers exactly."""
    from parsebench.metrics.core.resample import _percentiles

    got = _percentiles(np.array(values), *qs)
    assert got == tuple(float(x) for x in np.percentile(values, qs))


@pytest.mark.parametrize("beside", [0, 4, 10])
def test_sums_made_beside_the_draws_come_in_order_and_raise_their_errors(
        monkeypatch: pytest.MonkeyPatch, beside: int) -> None:
    """The bootstrap's sums run in a thread beside the next draws (a big batch; a small
    one is summed where it is drawn): in the order drawn, and an error in the thread is
    raised where the sums are read."""
    import parsebench.metrics.core.resample as resample

    threads: list[int] = []
    monkeypatch.setattr(resample, "BESIDE", beside)
    monkeypatch.setattr(resample, "started", lambda f, d, r: threads.append(d.size)
                        or started(f, d, r))
    _summed_beside = resample._summed_beside
    rows = np.ones((3, 1))
    draws = [np.full((1, 2 + 2 * (k % 2)), k, dtype=np.int64) for k in range(5)]
    got = list(_summed_beside(iter(draws), rows, lambda d, r: d.astype(np.float64) + 0))
    assert [g.tolist() for g in got] == [d.tolist() for d in draws]
    assert threads == [d.size for d in draws if d.size >= beside]

    def fails(d: Any, r: Any) -> Any:
        raise MemoryError("no room")

    with pytest.raises(MemoryError, match="no room"):
        list(_summed_beside(iter(draws), rows, fails))


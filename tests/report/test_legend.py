"""What the report says a column holds comes from the column's method, and says the
truth: on a tiny case, each text's number is computed here by hand, from the words of
the text, and compared with the method's figure. A column a method describes without
a check here fails the test, so a new description comes with its proof."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import parsebench as pb
from parsebench.metrics.registry import METHODS
from parsebench.report.tables import LEGEND, legend


def _sentence(words: tuple[str, ...], heads: list[int], rels: list[str]) -> str:
    return "".join(f"{i + 1}\t{w}\t{w}\tX\t_\t_\t{h}\t{r}\t_\t_\n"
                   for i, (w, h, r) in enumerate(zip(words, heads, rels, strict=True))) + "\n"


WORDS = ("a", "b", "c")
GOLD = [([2, 0, 2], ["x", "root", "y"]), ([2, 0, 2], ["x", "root", "y"])]
CLEAN = [([2, 0, 2], ["x", "root", "y"]), ([2, 0, 1], ["x", "root", "y"])]
NOISY = [(("a", "bb", "c"), [2, 0, 2], ["x", "root", "z"]),  # a label changed
         (("aa", "b", "c"), [2, 0, 2], ["x", "root", "y"])]  # a head changed (back to gold)


def _bank(sents: list[tuple[Any, ...]]) -> pb.Treebank:
    return pb.Treebank.from_text("".join(
        _sentence(*(s if len(s) == 3 else (WORDS, *s))) for s in sents))


def _rows(which: list[tuple[Any, ...]]) -> list[list[tuple[int, str]]]:
    return [list(zip(s[-2], s[-1], strict=True)) for s in which]


def _share(xs: list[bool]) -> float:
    return sum(xs) / len(xs)


CLEAN_ROWS, NOISY_ROWS, GOLD_ROWS = _rows(CLEAN), _rows(NOISY), _rows(GOLD)
PAIRS = list(zip(CLEAN_ROWS, NOISY_ROWS, strict=True))


def kakkonen() -> dict[str, Any]:
    return pb.robustness_sentences(_bank(CLEAN), [_bank(NOISY)]).to_dict()


def bigert() -> dict[str, Any]:
    return pb.robustness_rows(_bank(CLEAN), [_bank(NOISY)], gold=_bank(GOLD)).to_dict()


def _clean_accuracy() -> float:
    return _share([c == g for cs, gs in zip(CLEAN_ROWS, GOLD_ROWS, strict=True)
                   for c, g in zip(cs, gs, strict=True)])


def _upper() -> float:
    differs = _share([c != n for cs, ns in PAIRS for c, n in zip(cs, ns, strict=True)])
    return differs / _clean_accuracy()


def _real() -> float:
    noisy = _share([n == g for ns, gs in zip(NOISY_ROWS, GOLD_ROWS, strict=True)
                    for n, g in zip(ns, gs, strict=True)])
    return 1 - noisy / _clean_accuracy()


CHECKS: dict[tuple[str, str], tuple[Callable[[], dict[str, Any]], Callable[[dict[str, Any]], Any],
                                    Any]] = {
    # Kakkonen: whole sentences, not arcs (5 of 6 arcs are kept here, 1 of 2 sentences)
    ("sentences", "unlabeled"): (kakkonen, lambda v: v["unlabeled"],
                                 _share([[h for h, _ in c] == [h for h, _ in n]
                                         for c, n in PAIRS])),
    ("sentences", "labeled"): (kakkonen, lambda v: v["labeled"],
                               _share([c == n for c, n in PAIRS])),
    ("sentences", "failures"): (kakkonen, lambda v: v["failures"], 0),
    # Bigert et al.: rows are words, a row's value the head and relation
    ("rows", "misspelled"): (bigert, lambda v: v["error_level"],
                             _share([w != x for (ws, *_), (xs, *_) in zip(
                                 [(WORDS,)] * 2, NOISY, strict=True)
                                 for w, x in zip(ws, xs, strict=True)])),
    ("rows", "parse differs"): (bigert, lambda v: v["differs"],
                                _share([c != n for cs, ns in PAIRS
                                        for c, n in zip(cs, ns, strict=True)])),
    ("rows", "degr. upper"): (bigert, lambda v: v["degr_upper"], _upper()),
    ("rows", "degr. lower"): (bigert, lambda v: v["degr_lower"], _upper() / 2),
    ("rows", "degr. estimate"): (bigert, lambda v: v["degr_estimate"], 3 * _upper() / 4),
    ("rows", "acc. lower"): (bigert, lambda v: v["acc_lower"],
                             _clean_accuracy() * (1 - _upper())),
    ("rows", "acc. upper"): (bigert, lambda v: v["acc_upper"],
                             _clean_accuracy() * (1 - _upper() / 2)),
    ("rows", "acc. estimate"): (bigert, lambda v: v["acc_estimate"],
                                _clean_accuracy() * (1 - 3 * _upper() / 4)),
    ("rows", "real acc."): (bigert, lambda v: v["gold"]["acc_real"],
                            _share([n == g for ns, gs in zip(NOISY_ROWS, GOLD_ROWS, strict=True)
                                    for n, g in zip(ns, gs, strict=True)])),
    ("rows", "real degr."): (bigert, lambda v: v["gold"]["degr_real"], _real()),
    ("rows", "within bounds"): (bigert, lambda v: v["gold"]["within_bounds"],
                                _upper() / 2 <= _real() <= _upper()),
    ("rows", "x_aab"): (bigert, lambda v: v["gold"]["cases"]["aab"],
                        _share([c == g != n for cs, ns, gs in zip(CLEAN_ROWS, NOISY_ROWS,
                                                                  GOLD_ROWS, strict=True)
                                for c, n, g in zip(cs, ns, gs, strict=True)])),
}
"""(method, column) -> (the figures of the tiny case, the column's figure in them, the
number the column's text states, computed here from the rows above)."""

NOT_HERE = {
    ("rows", "calibrated degr."): "tests/metrics/robustness/test_calibration.py checks the "
                                  "calibrated estimate",
    ("rows", "95% interval"): "tests/metrics/robustness/test_calibration.py checks the "
                              "calibration's interval",
    ("deps", "UAS"): "tests/metrics/dependency/test_conll18.py: equal to conll18_ud_eval.py",
    ("deps", "LAS"): "tests/metrics/dependency/test_conll18.py: equal to conll18_ud_eval.py",
    ("deps", "LAS 95% CI"): "tests/metrics/core/test_resample.py: intervals over sentences",
    ("deps", "unlabeled P"): "tests/metrics/dependency/test_lin.py: Lin's worked example",
    ("deps", "unlabeled R"): "tests/metrics/dependency/test_lin.py: Lin's worked example",
    ("deps", "labeled P"): "tests/metrics/dependency/test_lin.py: Lin's worked example",
    ("deps", "labeled R"): "tests/metrics/dependency/test_lin.py: Lin's worked example",
    ("deps", "key deps"): "tests/metrics/dependency/test_lin.py: Lin's worked example",
    ("deps", "answer deps"): "tests/metrics/dependency/test_lin.py: Lin's worked example",
    ("f1", "F1"): "tests/metrics/robustness/test_hashemi_hwa.py: Hashemi & Hwa's worked example",
    ("f1", "aligned LAS"): "tests/metrics/robustness/test_hashemi_hwa.py",
    ("f1", "type"): "a label (ERRANT's type), not a number",
}
"""Columns whose numbers are the paper's or the official script's, checked against
them in the tests named."""


def test_every_column_a_method_describes_is_checked() -> None:
    described = {(name, h) for name, m in METHODS.items() for h in m.legend}
    assert described - set(CHECKS) - set(NOT_HERE) == set()
    assert set(CHECKS) | set(NOT_HERE) <= described


def test_a_column_means_one_thing_in_the_whole_report() -> None:
    seen: dict[str, str] = dict(LEGEND)
    for m in METHODS.values():
        for h, text in m.legend.items():
            assert seen.setdefault(h, text) == text, f"{h!r} described twice"
    assert legend() == seen


@pytest.mark.parametrize("key", sorted(CHECKS), ids=lambda k: f"{k[0]}:{k[1]}")
def test_each_text_states_the_number_the_method_gives(key: tuple[str, str]) -> None:
    figures, get, expected = CHECKS[key]
    assert get(figures()) == pytest.approx(expected)


def test_kakkonen_is_a_share_of_sentences_not_of_arcs() -> None:
    """The report once said 'share of the clean parse's arcs kept': here 5 of 6 arcs are
    kept unlabeled, but 1 of 2 sentences."""
    v = kakkonen()
    assert v["unlabeled"] == 0.5
    assert "sentences" in METHODS["sentences"].legend["unlabeled"]

"""One formatter a kind of number: an interval is written the same way everywhere, at
the tables' two decimals or the sentences' one, and "n/a" where there is none."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from parsebench.present import interval_text, percent


@pytest.mark.parametrize(("iv", "digits", "text"), [
    ([0.1234, 0.5], 2, "[12.34, 50.00]"), ((0.1234, 0.5), 1, "[12.3, 50.0]"),
    ([0, 1], 2, "[0.00, 100.00]"), (None, 2, "n/a"), ([0.1, None], 1, "n/a"),
    ([], 2, "n/a"), ([0.1, 0.2, 0.3], 2, "n/a"), ("0.1,0.2", 2, "n/a")])
def test_an_interval_is_written_one_way(iv: object, digits: int, text: str) -> None:
    assert interval_text(iv, digits) == text


@given(st.floats(0, 1), st.floats(0, 1), st.integers(0, 4))
def test_an_interval_holds_the_figure_it_is_written_with(a: float, b: float,
                                                         digits: int) -> None:
    lo, hi = min(a, b), max(a, b)
    text = interval_text([lo, hi], digits)
    low, high = (float(x) for x in text[1:-1].split(", "))
    assert low <= high
    assert percent(lo, digits=digits) == text[1:-1].split(", ")[0]

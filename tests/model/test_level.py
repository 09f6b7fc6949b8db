"""An error level is parsed one way and shown one way: its label reads back to the same
level, it sorts clean, rates, errors a sentence, then anything else, and the tables
show it as the runs' figures name it."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from parsebench.model.level import Level, level_order, short_label


@given(st.sampled_from(["rate", "per_sentence"]),
       st.floats(min_value=0.0001, max_value=50, allow_nan=False))
def test_a_label_reads_back_to_its_level(mode: str, value: float) -> None:
    level = Level(mode, float(f"{value:g}"))
    assert Level.parse(level.label) == level == Level.of_label(level.label)


@pytest.mark.parametrize(("label", "short"), [
    ("rate=0.05", "5%"), ("rate=0.1", "10%"), ("rate=0.125", "12.5%"),
    ("rate=0.1234", "12.3%"), ("per-sentence=2", "2/sentence"), ("natural", "natural"),
    ("clean", "clean"), ("corrected", "corrected"), ("rate=x", "rate=x")])
def test_the_tables_show_a_level_one_way(label: str, short: str) -> None:
    assert short_label(label) == short


def test_levels_sort_clean_rates_errors_a_sentence_then_the_rest() -> None:
    labels = ["natural", "per-sentence=3", "rate=0.1", "corrected", "per-sentence=1",
              "rate=0.02", "clean", "rate=bad"]
    assert sorted(labels, key=level_order)[:5] == [
        "clean", "rate=0.02", "rate=0.1", "per-sentence=1", "per-sentence=3"]
    assert {level_order(x) for x in ("natural", "corrected", "rate=bad")} == {(3, 0.0)}


def test_what_names_no_level_is_refused_by_of_label() -> None:
    assert Level.parse("clean") is None
    with pytest.raises(ValueError, match="not an error level"):
        Level.of_label("corrected")

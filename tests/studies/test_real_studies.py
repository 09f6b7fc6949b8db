"""The studies of real noisy text (docs/real-noise.md), CI-sized. Each
study is in one file's list; the files spread them over the test processes."""

from __future__ import annotations

from pathlib import Path

import pytest
from study_runs import run_small

NAMES = [
    "real-ewt",
    "real-tweebank",
    "real-eslspok",
    "real-spelling-en",
    "real-kakkonen-en",
    "real-grammar-en",
    "real-jfleg",
]


@pytest.mark.parametrize("name", NAMES)
def test_study_runs_small_and_its_report_is_complete(name: str, tmp_path: Path) -> None:
    run_small(name, tmp_path)

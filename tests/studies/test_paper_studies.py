"""The seed papers' own studies (docs/study.md, docs/noise.md), CI-sized. Each
study is in one file's list; the files spread them over the test processes."""

from __future__ import annotations

from pathlib import Path

import pytest
from study_runs import run_small

NAMES = [
    "bigert-en",
    "bigert-en-unsupervised",
    "bigert-sv",
    "kakkonen-en",
    "hashemi-jfleg-dev",
    "hashemi-jfleg-test",
    "lin-en",
    "natural-typos-en",
    "grammar-types-en",
    "hashemi-jfleg-dev-errant",
]


@pytest.mark.parametrize("name", NAMES)
def test_study_runs_small_and_its_report_is_complete(name: str, tmp_path: Path) -> None:
    run_small(name, tmp_path)

"""The seed papers' own parsers beside the UD parsers (docs/java-parsers.md),
CI-sized. Each study is in one file's list; the files spread them over the test
processes."""

from __future__ import annotations

from pathlib import Path

import pytest
from study_runs import run_small

NAMES = [
    "java-bigert-en",
    "java-kakkonen-en",
    "java-hashemi-grammar-en",
    "java-hashemi-jfleg-dev",
]


@pytest.mark.parametrize("name", NAMES)
def test_study_runs_small_and_its_report_is_complete(name: str, tmp_path: Path) -> None:
    run_small(name, tmp_path)

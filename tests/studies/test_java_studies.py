"""The seed papers' own parsers beside the UD parsers (docs/java-parsers.md),
CI-sized. Each study is in one file's list; the files spread them over the test
processes."""

from __future__ import annotations

import pytest
from study_runs import check_report, run_small

NAMES = [
    "java-bigert-en",
    "java-kakkonen-en",
    "java-hashemi-grammar-en",
    "java-hashemi-jfleg-dev",
]


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    return run_small(NAMES, tmp_path_factory.mktemp("studies"))


@pytest.mark.parametrize("name", NAMES)
def test_study_runs_small_and_its_report_is_complete(name: str, reports: dict[str, str]
                                                     ) -> None:
    check_report(name, reports)

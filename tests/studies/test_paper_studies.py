"""The seed papers' own studies (docs/study.md, docs/noise.md), CI-sized. Each
study is in one file's list; the files spread them over the test processes, and the
studies of one file and size run in one command, sharing their parsers."""

from __future__ import annotations

import pytest
from study_runs import check_report, run_small

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


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    return run_small(NAMES, tmp_path_factory.mktemp("studies"))


@pytest.mark.parametrize("name", NAMES)
def test_study_runs_small_and_its_report_is_complete(name: str, reports: dict[str, str]
                                                     ) -> None:
    check_report(name, reports)

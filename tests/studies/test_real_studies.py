"""The studies of real noisy text (docs/real-noise.md), CI-sized. Each
study is in one file's list; the files spread them over the test processes, and the
studies of one file and size run in one command, sharing their parsers."""

from __future__ import annotations

import pytest
from study_runs import check_report, run_small

NAMES = [
    "real-ewt",
    "real-tweebank",
    "real-eslspok",
    "real-spelling-en",
    "real-kakkonen-en",
    "real-grammar-en",
    "real-jfleg",
]


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    return run_small(NAMES, tmp_path_factory.mktemp("studies"))


@pytest.mark.parametrize("name", NAMES)
def test_study_runs_small_and_its_report_is_complete(name: str, reports: dict[str, str]
                                                     ) -> None:
    check_report(name, reports)

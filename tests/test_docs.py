"""The examples of docs/api.md (and, with ../shared, docs/api-walk.md) run as written:
a page that says what a call returns is checked against the call."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest
from conftest import ROOT, shared_path

FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def _run(page: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # the pages' paths are the checkout's
    failed, tried = doctest.testfile(str(page), module_relative=False, optionflags=FLAGS,
                                     verbose=False, report=True)
    assert tried > 10 and failed == 0, f"{failed} of {tried} examples of {page.name} failed"


def test_api_page(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("pandas")
    pytest.importorskip("conllu")
    _run(ROOT / "docs" / "api.md", monkeypatch)


def test_api_walk_page(monkeypatch: pytest.MonkeyPatch) -> None:
    shared_path("models/en_ewt.udpipe")
    _run(ROOT / "docs" / "api-walk.md", monkeypatch)

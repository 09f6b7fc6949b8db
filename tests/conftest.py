"""Shared test helpers: where the corpora are, and how tests that need them skip."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
DATA = Path(__file__).resolve().parent.parent / "src" / "parsebench" / "data"
FIXTURES = Path(__file__).resolve().parent / "fixtures"


SLOWEST_FIRST = [
    "studies/test_paper_studies.py", "parsers/test_graph_parsers.py",
    "studies/test_java_studies.py", "parsers/test_parsers.py", "studies/test_real_studies.py",
    "noise/test_grammar.py", "parsers/test_jvm.py", "validation/test_validator.py",
    "run/test_experiment.py", "parsers/test_supar.py", "studies/test_validity_studies.py",
    "metrics/dependency/test_stretch_fast.py", "metrics/dependency/test_udeval.py",
    "store/test_store.py"]
"""The test files that take longest (their summed test time, measured), in that order:
run first, so that the suite's processes do not wait at the end for one that drew a
long file last (``--dist loadfile`` hands out files in the order they are collected)."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {name: k for k, name in enumerate(SLOWEST_FIRST)}

    def key(item: pytest.Item) -> int:
        rel = Path(str(item.path)).relative_to(ROOT / "tests").as_posix() \
            if Path(str(item.path)).is_relative_to(ROOT / "tests") else ""
        return rank.get(rel, len(rank))

    items.sort(key=key)  # stable: the others keep their order


def shared_path(rel: str) -> Path:
    """A file under ../shared; skips the test where it is absent, fails in CI."""
    p = SHARED / rel
    if not p.exists():
        msg = f"needs {p} (../shared is not beside this checkout)"
        if os.environ.get("CI") == "true":
            pytest.fail(msg)
        pytest.skip(msg)
    return p


def needs(module: str) -> None:
    """Skip when an optional parser is not installed; CI installs them all, so fail there."""
    try:
        __import__(module)
    except ImportError:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{module} is not installed in CI")
        pytest.skip(f"{module} is not installed (make test installs it)")


def needs_java() -> None:
    """Skip without a Java runtime (MaltParser, Yara); CI installs one, so fail there."""
    import shutil

    if shutil.which("java") is None:
        msg = "needs a Java runtime (scripts/system-deps.sh installs default-jre-headless)"
        if os.environ.get("CI") == "true":
            pytest.fail(msg)
        pytest.skip(msg)


_PROGRESS = re.compile(r"\[\d+:\d\d:\d\d\] ")


def calls_of(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> list[Any]:
    """The first argument of every call of OWNER.NAME from now on (the calls still run):
    tests count what was done, not the seconds it took."""
    seen: list[Any] = []
    real = getattr(owner, name)

    def counting(first: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append(first)
        return real(first, *args, **kwargs)

    monkeypatch.setattr(owner, name, counting)
    return seen


def error_lines(stderr: str) -> list[str]:
    """STDERR without the progress lines a log gets once work has run two seconds (a
    parser's model loading on a slow machine): what is left is the error itself."""
    return [ln for ln in stderr.strip().splitlines() if not _PROGRESS.match(ln)]


def error_text(stderr: str) -> str:
    """STDERR without its progress lines (:func:`error_lines`), as text."""
    return "".join(ln + "\n" for ln in error_lines(stderr))


@pytest.fixture(scope="session", autouse=True)
def _own_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The trained TnT taggers the tests make go to a folder of the session's, not the
    user's cache (the parser workers inherit the variable)."""
    saved = os.environ.get("PARSEBENCH_CACHE")
    os.environ["PARSEBENCH_CACHE"] = str(tmp_path_factory.mktemp("cache"))
    yield
    if saved is None:
        del os.environ["PARSEBENCH_CACHE"]
    else:
        os.environ["PARSEBENCH_CACHE"] = saved

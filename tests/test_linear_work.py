"""No work superlinear in a constituent's width or a tree's depth: the lines of the
package's Python run for an input and for one twice its size, counted (a count, not a
time: the same on every machine), must grow about twice, not four times.

Found by a fault campaign: ``convert`` of one constituent with 20,000 children took
67 s (each child looked at every other for a conjunction), ``eval deps --head-rules``
of one with 10,000 did not finish in 100 s, ``convert --trace`` of a tree 20,000
levels deep took 71.6 s (each constituent walked down to its words for its span).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

import parsebench
from parsebench.api.evaluation import convert, evaluate_deps

PACKAGE = str(Path(parsebench.__file__).parent)


def lines_run(fn: Callable[[], object]) -> int:
    """How many lines of the package's Python FN runs."""
    count = 0

    def local(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal count
        if event == "line":
            count += 1
        return local

    def calls(frame: FrameType, event: str, arg: Any) -> Any:
        return local if frame.f_code.co_filename.startswith(PACKAGE) else None

    sys.settrace(calls)
    try:
        fn()
    finally:
        sys.settrace(None)
    return count


def growth(make: Callable[[int], Callable[[], object]], n: int) -> float:
    """Lines run at 2N over lines run at N."""
    return lines_run(make(2 * n)) / lines_run(make(n))


def wide(path: Path, n: int) -> Path:
    """One constituent of N children (none a conjunction: nothing cuts a search short)."""
    kids = " ".join(f"(NN w{i})" for i in range(n))
    path.write_text(f"(S (NP {kids}))\n")
    return path


def deep(path: Path, n: int) -> Path:
    """A tree N levels deep."""
    path.write_text("(S " * (n - 1) + "(NP (NN w) (NN v))" + ")" * (n - 1) + "\n")
    return path


def test_convert_is_linear_in_a_constituents_width(tmp_path: Path) -> None:
    def make(n: int) -> Callable[[], object]:
        path = wide(tmp_path / f"wide{n}.mrg", n)
        return lambda: list(convert(path, "collins"))

    assert growth(make, 1000) < 2.3


def test_eval_deps_head_rules_is_linear_in_a_constituents_width(tmp_path: Path) -> None:
    def make(n: int) -> Callable[[], object]:
        path = wide(tmp_path / f"wide{n}.mrg", n)
        return lambda: evaluate_deps(path, path, head_rules="collins")

    assert growth(make, 1000) < 2.3


def test_convert_trace_is_linear_in_a_trees_depth(tmp_path: Path) -> None:
    def make(n: int) -> Callable[[], object]:
        path = deep(tmp_path / f"deep{n}.mrg", n)
        return lambda: convert(path, "collins").trace

    assert growth(make, 1000) < 2.3
    # and what took 71.6 s gives every constituent its span
    rows = convert(deep(tmp_path / "d.mrg", 20_000), "collins").trace.splitlines()
    assert len(rows) == 1 + 20_000 and all(r.split("\t")[1] == "1-2" for r in rows[1:])

"""Every public result gives a row for each of its figures: ``to_pandas()`` of a
comparison or of Bigert's rows of one file was once empty, where docs/api-walk.md
promises a row a measure."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

import parsebench as pb
from parsebench.model.results import SETTINGS, Result

DATA = Path(pb.__file__).parent / "data"


def _sentence(heads: tuple[int, ...], rels: tuple[str, ...]) -> str:
    return "".join(f"{i + 1}\tw{i}\tw{i}\tX\t_\t_\t{h}\t{r}\t_\t_\n"
                   for i, (h, r) in enumerate(zip(heads, rels, strict=True))) + "\n"


RIGHT = _sentence((2, 0, 2), ("a", "root", "b"))
WRONG = _sentence((3, 0, 2), ("a", "root", "c"))


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    out = {"gold": RIGHT * 4, "sys": RIGHT * 3 + WRONG, "sys2": RIGHT * 2 + WRONG * 2}
    paths = {}
    for name, text in out.items():
        paths[name] = tmp_path / f"{name}.conllu"
        paths[name].write_text(text)
    return paths


CALLS: dict[str, Callable[[dict[str, Path]], Result]] = {
    "evaluate_deps": lambda f: pb.evaluate_deps(f["gold"], f["sys"]),
    "compare": lambda f: pb.compare(f["gold"], [f["sys"], f["sys2"]], samples=200),
    "robustness_rows, one file": lambda f: pb.robustness_rows(f["gold"], [f["sys"]]),
    "robustness_rows, two files": lambda f: pb.robustness_rows(f["gold"],
                                                               [f["sys"], f["sys2"]]),
    "robustness_sentences": lambda f: pb.robustness_sentences(f["gold"], [f["sys"]]),
    "evaluate_brackets": lambda f: pb.evaluate_brackets(DATA / "demo-gold.mrg",
                                                        DATA / "demo-test.mrg"),
    "evaluate_flat": lambda f: pb.evaluate_flat(DATA / "demo-gold.mrg",
                                                DATA / "demo-test.mrg"),
}


@pytest.mark.parametrize("call", sorted(CALLS))
def test_every_result_has_a_row_for_each_top_level_figure(
        call: str, files: dict[str, Path]) -> None:
    pytest.importorskip("pandas")
    r = CALLS[call](files)
    df = r.to_pandas()
    assert len(df) > 0
    numbers = [k for k, v in r.to_dict().items() if isinstance(v, int | float)
               and not isinstance(v, bool) and k not in SETTINGS]
    assert set(numbers) <= set(df["figure"])


def test_a_comparison_names_each_system_and_pair(files: dict[str, Path]) -> None:
    pytest.importorskip("pandas")
    df = pb.compare(files["gold"], [files["sys"], files["sys2"]], samples=200).to_pandas()
    scores = df[df["measure"] == "score"]
    assert list(scores["system"]) == [str(files["sys"]), str(files["sys2"])]
    assert list(scores["value"]) == pytest.approx([10 / 12, 8 / 12])
    diff = df[df["measure"] == "difference"]
    assert list(diff["value"]) == pytest.approx([-2 / 12])
    assert all(lo <= v <= hi for lo, v, hi in zip(df["ci_low"], df["value"], df["ci_high"],
                                                  strict=True) if lo == lo)  # NaN: none



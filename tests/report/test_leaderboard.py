"""A benchmark's leaderboard in one command (issue 61 item 5): the macro averages and
per-treebank figures of the store, with their intervals, ranks, tiers and each one's
signature, as JSON and a static page; refused in one line where there is no benchmark."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FIXTURES, error_lines

import parsebench as pb

NAMES = ["a <b>", "b", "c"]


@pytest.fixture(scope="module")
def bench(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, pb.Result]:
    tmp = tmp_path_factory.mktemp("board")
    toml = ['name = "board"']
    for name, src in zip(NAMES, ("learner.conllu", "typos.conllu", "learner.conllu"),
                         strict=True):
        toml += ["[[corpora]]", f'name = "{name}"', 'lang = "en"',
                 f'path = "{FIXTURES / src}"']
    toml += ["[noise]", "rates = [0.2]", f'lexicon = "{FIXTURES / "lexicon.txt"}"',
             "[[parsers]]", 'name = "left"', 'spec = "baseline:left"', "[[parsers]]",
             'name = "right"', 'spec = "baseline:right"', "[metrics]", "deps = true"]
    (tmp / "b.toml").write_text("\n".join(toml) + "\n", encoding="utf-8")
    r = pb.run(tmp / "b.toml", store=tmp / "s.sqlite", report=tmp / "rep")
    return tmp, r


def test_the_leaderboard_holds_the_benchmarks_figures_and_signatures(
        bench: tuple[Path, pb.Result]) -> None:
    tmp, r = bench
    files = pb.leaderboard(tmp / "s.sqlite", tmp / "lb")
    assert [f.name for f in files] == ["leaderboard.json", "index.html"]
    board = json.loads((tmp / "lb" / "leaderboard.json").read_text(encoding="utf-8"))
    assert board["benchmark"] == "board" and board["answers"] == r.summary["answers"]
    assert [c["name"] for c in board["corpora"]] == NAMES
    assert board["warnings"] == []  # each treebank's figures of one text and one input
    macro = {(m["parser"], m["level"], m["figure"]): m for m in board["macro"]}
    for f in r.macro:  # the run's own figures, interval, rank and tier
        m = macro[(f.parser, f.level, f.figure)]
        assert (m["value"], m.get("rank"), m.get("tier")) == (f.value, f.rank, f.tier)
        assert m["ci95"] == (list(f.ci95) if f.ci95 else None)
        assert "method=macro" in m["signature"] and "corpora=3" in m["signature"]
    assert {m["rank"] for m in board["macro"] if m["figure"] == "LAS"} <= {1, 2}
    per = board["per_treebank"]
    assert len(per) == len(r.per_corpus) == 3 * 2 * 3  # corpora x parsers x figures
    for x in per:
        sig = x["signature"]
        assert f"parser:{x['parser']}" in sig and "model:" in sig and "corpus:" in sig
        assert f"level:{x['level']}" in sig
    page = (tmp / "lb" / "index.html").read_text(encoding="utf-8")
    assert "a &lt;b&gt;" in page and "<b>" not in page.replace("<body>", "")
    assert "Macro average: ranking and tiers" in page and "method=macro" in page


def test_export_writes_the_leaderboard_and_refuses_in_one_line(
        bench: tuple[Path, pb.Result], tmp_path: Path) -> None:
    tmp, _ = bench

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "parsebench.cli", "export", *args],
                              capture_output=True, text=True, stdin=subprocess.DEVNULL)

    p = cli(str(tmp / "s.sqlite"), "--leaderboard", str(tmp_path / "lb"))
    assert p.returncode == 0, p.stderr
    assert (tmp_path / "lb" / "leaderboard.json").is_file()
    for args, says in ((["--leaderboard", str(tmp_path / "x"), "-o", str(tmp_path / "y")],
                        "one of them"), ([], "one of them"),
                       (["--leaderboard", str(tmp_path / "z"), "--parser", "left"],
                        "every parser")):
        p = cli(str(tmp / "s.sqlite"), *args)
        assert p.returncode == 2 and len(error_lines(p.stderr)) == 1 and says in p.stderr
    single = tmp_path / "one.toml"
    single.write_text(f'name = "one"\n[corpus]\npath = "{FIXTURES / "typos.conllu"}"\n'
                      '[[parsers]]\nname = "left"\nspec = "baseline:left"\n'
                      '[metrics]\ndeps = true\n', encoding="utf-8")
    pb.run(single, store=tmp_path / "one.sqlite", report=tmp_path / "one")
    p = cli(str(tmp_path / "one.sqlite"), "--leaderboard", str(tmp_path / "none"))
    assert p.returncode == 2 and "no benchmark in the store" in p.stderr
    assert len(error_lines(p.stderr)) == 1 and not (tmp_path / "none").exists()

"""``run`` of several experiment files (``pb.run_all``): their parsers' workers shared,
so a model several name loads once; with one store, its report written once, after
the last; every file checked before the first runs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FIXTURES, error_text

import parsebench as pb

LEXICON = FIXTURES / "lexicon.txt"


def _exp(tmp: Path, name: str, corpus: str, seed: int) -> Path:
    toml = tmp / f"{name}.toml"
    toml.write_text(f'''name = "{name}"
[corpus]
path = "{FIXTURES / corpus}"
[noise]
rates = [0.2]
replicates = 2
seed = {seed}
lexicon = "{LEXICON}"
[[parsers]]
name = "second"
spec = "python:toy_parsers:CountedLoads"
[metrics]
deps = true
''', encoding="utf-8")
    return toml


def _figures(results: list[pb.Scored]) -> list[tuple[str, str, str | None, str]]:
    return sorted((r.parser, r.method, r.projection, repr(r.value)) for r in results
                  if r.method != "speed")


def test_several_experiments_load_a_shared_parser_once(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch
                                                       ) -> None:
    monkeypatch.syspath_prepend(str(FIXTURES))
    loads = tmp_path / "loads.txt"
    monkeypatch.setenv("PARSEBENCH_TEST_LOADS", str(loads))
    a = _exp(tmp_path, "a", "typos.conllu", 1)
    b = _exp(tmp_path, "b", "learner.conllu", 2)
    both = pb.run_all([a, b], store=tmp_path / "s.sqlite", report=tmp_path / "rep")
    assert [r.data["parsed"] > 0 for r in both] == [True, True]
    assert len(loads.read_text(encoding="utf-8").splitlines()) == 1
    # one report of both, written after the last: the first says so
    md = (tmp_path / "rep" / "index.md").read_text(encoding="utf-8")
    assert "\n## a\n" in md and "\n## b\n" in md
    assert "written after the last experiment into this store" in str(both[0])
    assert "from the start to its end" in str(both[0])
    assert "write the report" not in str(both[0])
    assert "written after" not in str(both[1])
    assert "from the start to the report written" in str(both[1])
    # each alone, into its own store: a worker started afresh, the same figures
    for exp, together in ((a, both[0]), (b, both[1])):
        alone = pb.run(exp, store=tmp_path / f"{exp.stem}.sqlite",
                       report=tmp_path / f"{exp.stem}-rep")
        assert _figures(alone.results) == _figures(together.results)
    assert len(loads.read_text(encoding="utf-8").splitlines()) == 3


def test_a_bad_file_among_several_is_refused_before_any_runs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(FIXTURES))
    monkeypatch.setenv("PARSEBENCH_TEST_LOADS", str(tmp_path / "loads.txt"))
    good = _exp(tmp_path, "good", "typos.conllu", 1)
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "bad"\n[corpus]\npath = "nowhere.conllu"\n', encoding="utf-8")
    # and with one store, one report of them all beside it
    both = pb.run_all([good, _exp(tmp_path, "other", "learner.conllu", 2)],
                      store=tmp_path / "both.sqlite")
    html = str(tmp_path / "both-report" / "index.html")
    assert {r.data["report"]["html"] for r in both} == {html}
    p = subprocess.run([sys.executable, "-m", "parsebench.cli", "run", str(good), str(bad),
                        "--store", str(tmp_path / "s.sqlite")], capture_output=True,
                       text=True, stdin=subprocess.DEVNULL)
    assert p.returncode == 2
    assert error_text(p.stderr).startswith(f"parsebench: {bad}:3: ")
    assert "Traceback" not in p.stderr
    assert not (tmp_path / "s.sqlite").exists()

"""The public Python API: every function's ``to_dict()`` is its command's ``--json``
on the same input, ``str(r)`` its text; results read as attributes; Treebanks score
as their files do; the package's names stay the functions."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import DATA, FIXTURES, ROOT

import parsebench as pb

KEY, ANSWER = DATA / "lin-key.conllu", DATA / "lin-answer.conllu"
TREES_GOLD, TREES_TEST = DATA / "demo-gold.mrg", DATA / "demo-test.mrg"
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "src"), str(FIXTURES)]))


def cli(*args: Any, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "parsebench.cli", *map(str, args)],
                          capture_output=True, text=True, env=ENV, cwd=cwd)


def cli_json(*args: Any, cwd: Path | None = None) -> Any:
    p = cli(*args, "--json", cwd=cwd)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def test_all_names_the_public_functions_and_they_resolve() -> None:
    for name in pb.__all__:
        assert callable(getattr(pb, name)), name  # functions and classes
    assert set(pb.__all__) >= {
        "Treebank", "evaluate_deps", "evaluate_brackets", "evaluate_flat", "convert",
        "compare", "noise", "robustness_rows", "robustness_sentences", "robustness_f1",
        "parse", "attack", "invariance", "run", "report", "export"}


def test_a_submodule_of_the_same_name_never_hides_the_function() -> None:
    # importing the packages that implement them binds nothing over the API's names

    for name in ("compare", "export", "noise", "report", "attack", "invariance", "run"):
        assert isinstance(getattr(pb, name), type(pb.evaluate_deps)), name
    from parsebench.metrics.compare import compare_table  # submodules still import by name

    assert callable(compare_table)


def test_no_module_of_parsebench_imports_an_api_name_as_a_module() -> None:
    """``from parsebench import report`` gives the function, not the module: inside the
    package only names are imported from submodules."""
    api = set(pb.__all__)
    bad = []
    for path in (ROOT / "src" / "parsebench").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "parsebench" \
                    and node.level == 0:
                bad += [f"{path.name}: {a.name}" for a in node.names if a.name in api]
            if isinstance(node, ast.Import):
                bad += [f"{path.name}: {a.name}" for a in node.names
                        if a.asname and a.name.split(".")[1:2] and
                        a.name.split(".")[1] in api]
    assert bad == []


def test_importing_parsebench_is_light() -> None:
    code = ("import sys, time; t = time.perf_counter(); import parsebench; "
            "print(time.perf_counter() - t); "
            "print(sorted(m for m in sys.modules if m.startswith('parsebench')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split("\n")
    # nothing but the package itself and its version
    assert out[1] == "['parsebench', 'parsebench.version']"
    assert "numpy" not in out[1]


def test_evaluate_deps_equals_the_command() -> None:
    r = pb.evaluate_deps(KEY, ANSWER, by="deprel")
    assert r.to_dict() == cli_json("eval", "deps", KEY, ANSWER, "--by", "deprel")
    assert str(r) == cli("eval", "deps", KEY, ANSWER, "--by", "deprel").stdout
    assert r.unlabeled.matched == 6 and r.unlabeled.key == 10
    assert r.las.f1 == r.to_dict()["las"]["f1"]
    assert r.signature.startswith("method:lin-deps|")


def test_evaluate_deps_in_memory_equals_the_files() -> None:
    gold, system = pb.Treebank.read(KEY), pb.Treebank.read(ANSWER)
    on_files, in_memory = pb.evaluate_deps(KEY, ANSWER), pb.evaluate_deps(gold, system)
    a, b = on_files.to_dict(), in_memory.to_dict()
    assert a.pop("warnings") == [w.replace(str(KEY), str(KEY)) for w in b.pop("warnings")]
    assert a == b


def test_evaluate_deps_options_and_per_sentence_file(tmp_path: Path) -> None:
    tsv, tsv2 = tmp_path / "a.tsv", tmp_path / "b.tsv"
    r = pb.evaluate_deps(KEY, ANSWER, select="deprel=@subject", punct=False,
                         confusion="deprel", per_sentence=tsv)
    d = cli_json("eval", "deps", KEY, ANSWER, "--select", "deprel=@subject", "--no-punct",
                 "--confusion", "deprel", "--per-sentence", tsv2)
    assert r.to_dict() == d
    assert tsv.read_text() == tsv2.read_text()


def test_evaluate_brackets_and_flat_equal_the_commands() -> None:
    r = pb.evaluate_brackets(TREES_GOLD, TREES_TEST)
    assert r.to_dict() == cli_json("eval", "brackets", TREES_GOLD, TREES_TEST)
    assert str(r) == cli("eval", "brackets", TREES_GOLD, TREES_TEST).stdout
    f = pb.evaluate_flat(TREES_GOLD, TREES_TEST, categories="NP,VP")
    assert f.to_dict() == cli_json("eval", "flat", TREES_GOLD, TREES_TEST,
                                   "--categories", "NP,VP")
    assert f.recall == f.to_dict()["recall"]  # a plain number stays a number


def test_convert_writes_what_the_command_writes(tmp_path: Path) -> None:
    c = pb.convert(TREES_GOLD, head_rules="collins")
    c.write(tmp_path / "api.conllu")
    p = cli("convert", TREES_GOLD, "-o", tmp_path / "cli.conllu", "--head-rules", "collins",
            "--trace", tmp_path / "cli.tsv")
    assert p.returncode == 0, p.stderr
    assert (tmp_path / "api.conllu").read_text() == (tmp_path / "cli.conllu").read_text()
    assert c.trace == (tmp_path / "cli.tsv").read_text()
    assert len(c) == len(pb.Treebank.read(tmp_path / "cli.conllu"))


def test_flatten_gives_the_commands_lines() -> None:
    rules = DATA / "demo-rules.txt"
    lines = pb.flatten(TREES_GOLD, rules)
    assert "".join(x + "\n" for x in lines) == cli("flatten", TREES_GOLD, "--rules",
                                                   rules).stdout


def test_compare_equals_the_command_and_takes_treebanks() -> None:
    args = dict(samples=200, seed=3)
    r = pb.compare(KEY, [ANSWER, KEY], **args)
    assert r.to_dict() == cli_json("compare", KEY, ANSWER, KEY, "--samples", 200, "--seed", 3)
    t = pb.compare(pb.Treebank.read(KEY), [pb.Treebank.read(ANSWER), pb.Treebank.read(KEY)],
                   **args).to_dict()
    d = r.to_dict()
    for s in (*t["systems"], *d["systems"]):
        s.pop("file")
    assert t == d
    assert r.systems[1]["score"] == 1.0


def test_robustness_functions_equal_the_commands() -> None:
    clean, noisy = FIXTURES / "typos.conllu", FIXTURES / "typos.conllu"
    r = pb.robustness_rows(clean, [noisy], gold=clean)
    assert r.to_dict() == cli_json("robustness", "rows", clean, noisy, "--gold", clean)
    s = pb.robustness_sentences(clean, [noisy])
    assert s.to_dict() == cli_json("robustness", "sentences", clean, noisy)
    assert str(s) == cli("robustness", "sentences", clean, noisy).stdout
    f = pb.robustness_f1(clean, noisy, labeled=True)
    assert f.to_dict() == cli_json("robustness", "f1", clean, noisy, "--labeled")
    assert f.f1 is not None and f.to_dict()["f1"] == 1.0



def test_one_path_where_a_list_is_expected_is_a_list_of_one() -> None:
    """Issue 48.6: a path given where a list of paths is expected was read letter by
    letter ("u: no such file", "/: is a directory"); it is now the list of that path, and
    anything else is a TypeError naming the parameter."""
    typos = FIXTURES / "typos.conllu"
    assert pb.compare(KEY, str(ANSWER), samples=20).to_dict() == \
        pb.compare(KEY, [ANSWER], samples=20).to_dict()
    assert pb.compare(KEY, pb.Treebank.read(ANSWER), samples=20).systems[0]["file"] == \
        str(ANSWER)
    assert pb.robustness_rows(typos, str(typos)).to_dict() == \
        pb.robustness_rows(typos, [typos]).to_dict()
    assert pb.robustness_sentences(typos, typos).to_dict() == \
        pb.robustness_sentences(typos, [typos]).to_dict()
    with pytest.raises(TypeError, match=r"^systems: item 2 is 3 \(int\); expected a path "
                       "or a Treebank$"):
        pb.compare(KEY, [ANSWER, 3])
    with pytest.raises(TypeError, match=r"^noisy: expected a path or a Treebank or a list "
                       r"of them, not 7"):
        pb.robustness_rows(typos, 7)
    with pytest.raises(pb.InputError, match=r"^noisy: an empty list"):
        pb.robustness_sentences(typos, [])
    with pytest.raises(TypeError, match=r"^alignment: expected a path or a list"):
        pb.robustness_sentences(typos, typos, alignment=5)


def test_parse_and_attack_equal_the_commands(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(FIXTURES))  # the parser's workers find the toy
    src = FIXTURES / "typos.conllu"
    spec = "python:toy_parsers:WeakWord"
    p = pb.parse(src, spec)
    p.write(tmp_path / "api.conllu")
    d = cli_json("parse", src, "-o", tmp_path / "cli.conllu", "--parser", spec)
    mine = p.to_dict()
    for x in (mine, d):  # timings differ from run to run
        for k in ("output", "speed", "wall_seconds", "parse_seconds", "words_per_second",
                  "wall_words_per_second", "seconds_by_length"):
            x.pop(k)
    assert mine == d
    assert (tmp_path / "api.conllu").read_text() == (tmp_path / "cli.conllu").read_text()
    assert p.treebank.to_text() == (tmp_path / "cli.conllu").read_text()
    a = pb.attack(src, spec, lexicon=str(FIXTURES / "lexicon.txt"), queries=20)
    a.write(tmp_path / "a.conllu")
    d = cli_json("attack", src, "-o", tmp_path / "b.conllu", "--parser", spec, "--lexicon",
                 FIXTURES / "lexicon.txt", "--queries", 20)
    mine = a.to_dict()
    assert mine.pop("output") == str(tmp_path / "a.conllu")
    d.pop("output")
    assert mine == d
    assert (tmp_path / "a.conllu").read_text() == (tmp_path / "b.conllu").read_text()


def test_result_views() -> None:
    r = pb.evaluate_deps(KEY, ANSWER)
    html = r._repr_html_()
    assert "<table>" in html and "las" in html
    rows = r.rows()
    assert {"figure": "las", "measure": "f1", "value": r.las.f1, "ci_low": None,
            "ci_high": None} in rows
    with pytest.raises(AttributeError, match="no 'lass'"):
        _ = r.lass
    pd = pytest.importorskip("pandas")
    df = r.to_pandas()
    assert isinstance(df, pd.DataFrame) and len(df) == len(rows)
    assert r.to_json() == cli("eval", "deps", KEY, ANSWER, "--json").stdout


def test_treebank_constructors_round_trip(tmp_path: Path) -> None:
    tb = pb.Treebank.read(KEY)
    again = pb.Treebank.from_text(tb.to_text())
    assert again == tb and len(again) == len(tb) and again[0].forms == tb[0].forms
    conllu = pytest.importorskip("conllu")
    lists = conllu.parse(KEY.read_text())
    assert pb.Treebank.from_sentences(lists).to_text() == tb.to_text()
    assert pb.Treebank.from_sentences(list(tb)) == tb
    tb.write(tmp_path / "x.conllu")
    assert (tmp_path / "x.conllu").read_text() == tb.to_text()
    with pytest.raises(pb.InputError, match="<text>:1: expected 10 tab-separated"):
        pb.Treebank.from_text("1\tonly\n")


def test_invariance_equals_the_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                       ) -> None:
    monkeypatch.syspath_prepend(str(FIXTURES))  # the parser's workers find the toy
    src, spec = FIXTURES / "learner.conllu", "python:toy_parsers:Casey"
    r = pb.invariance(src, [spec], seed=3)
    assert r.to_dict() == cli_json("invariance", src, "--parser", spec, "--seed", 3)
    r.write(tmp_path / "api")
    p = cli("invariance", src, "--parser", spec, "--seed", 3, "-o", tmp_path / "cli")
    assert p.returncode == 0, p.stderr
    for f in (tmp_path / "cli").iterdir():
        assert (tmp_path / "api" / f.name).read_text() == f.read_text(), f.name


def test_run_report_and_export(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(FIXTURES))  # the parser's workers find the toy
    exp = tmp_path / "exp.toml"
    exp.write_text(f'''name = "api"
[corpus]
path = "{FIXTURES / 'typos.conllu'}"
[noise]
rates = [0.2]
lexicon = "{FIXTURES / 'lexicon.txt'}"
[[parsers]]
name = "weak"
spec = "python:toy_parsers:WeakWord"
''')
    r = pb.run(exp, store=tmp_path / "s.sqlite", report=tmp_path / "r")
    assert "weak" in str(r) and str(r).endswith("results.json)\n")
    assert {x["method"] for x in r.to_dict()["results"]} >= {"rows", "sentences", "deps"}
    # the run's results are typed records; the JSON is each record's to_dict()
    assert all(isinstance(x, pb.Scored) for x in r.results)
    assert [x.to_dict() for x in r.results] == r.to_dict()["results"]
    deps = next(x for x in r.results if x.metric == "deps" and x.level == "clean")
    assert deps.figure("las", "f1") == deps.value.las.f1 is not None
    assert deps.figure("las", "nothing") is None and deps.figure("nothing") is None
    with pytest.raises(AttributeError):  # frozen: a result is never edited after scoring
        deps.parser = "other"  # type: ignore[misc]
    files = pb.report(tmp_path / "s.sqlite", tmp_path / "again")
    assert files["html"].read_bytes() == (tmp_path / "r" / "index.html").read_bytes()
    written = pb.export(tmp_path / "s.sqlite", tmp_path / "x")
    assert any(f.name == "clean.conllu" for f in written)


def test_a_runs_table_has_a_row_for_every_figure_of_every_result(tmp_path: Path) -> None:
    """Issue 59 item 16: ``RunResult.to_pandas()`` had only the run's four bookkeeping
    rows and ``Scored`` had no ``to_pandas()``; docs/api-walk.md promises a row a
    figure's measure, for every result type."""
    pytest.importorskip("pandas")
    from conftest import FIXTURES

    exp = tmp_path / "e.toml"
    exp.write_text(f'''name = "e"
[corpus]
path = "{FIXTURES / 'learner.conllu'}"
[noise]
rates = [0.2]
lexicon = "{FIXTURES / 'lexicon.txt'}"
[[parsers]]
name = "r"
spec = "baseline:right"
[metrics]
deps = true
''')
    got = pb.run(exp, store=tmp_path / "s.sqlite")
    df = got.to_pandas()
    for r in got.results:
        mine = df[(df.parser == r.parser) & (df.method == r.method) & (df.level == r.level)
                  & (df.projection == r.projection)]
        assert len(mine) == len(r.to_pandas())  # (a page, the sentence browser, has none)
        if r.method == "deps":
            assert len(mine) > 50
            las = mine[(mine.figure == "las") & (mine.measure == "f1")]
            assert las.value.tolist() == [r.figure("las", "f1")]
            assert las.ci_low.tolist() == [r.figure("ci95", "las")[0]]
    assert (df.method == "run").sum() == len(got.rows()) - sum(len(r.rows())
                                                               for r in got.results)


def test_a_treebank_refuses_what_is_not_a_sentence_where_it_is_set() -> None:
    """Issue 59 item 13b: ``Treebank([1, 2, 3]).words`` and ``g.sentences = None`` then
    ``evaluate_deps`` ended in internal errors; each is one line where it is set."""
    with pytest.raises(TypeError, match="item 1 is of type int; expected a Sentence"):
        assert pb.Treebank([1, 2, 3]).words  # type: ignore[list-item]
    g = pb.Treebank.read(DATA / "lin-key.conllu")
    with pytest.raises(TypeError, match="expected a list of Sentences, not NoneType"):
        g.sentences = None  # type: ignore[assignment]
    assert pb.evaluate_deps(g, g).to_dict()["las"]["f1"] == 1.0  # left as it was

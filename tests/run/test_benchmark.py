"""An experiment over several corpora (SPEC 5.2, issue 50): [[corpora]] tables or a
pattern over UD folders, each corpus run into the same store under its own name, the
macro average over corpora with a stratified interval and paired tests, the report's
benchmark tables, and the same results.json on a Dask cluster."""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES

import parsebench as pb
from parsebench.common.errors import InputError
from parsebench.present.tables import safe_name
from parsebench.run.benchmark import Benchmark, load_any
from parsebench.run.experiment import Experiment, load

LEXICON = FIXTURES / "lexicon.txt"


def _ud(tmp: Path) -> Path:
    """A UD-like release of two English treebanks of unequal size (4 and 15 sentences)."""
    for folder, code, src in (("UD_English-A", "en_a", "typos.conllu"),
                              ("UD_English-B", "en_b", "learner.conllu")):
        (tmp / "ud" / folder).mkdir(parents=True)
        shutil.copy(FIXTURES / src, tmp / "ud" / folder / f"{code}-ud-test.conllu")
    (tmp / "ud" / "UD_Empty").mkdir()  # no test file: passed over
    return tmp / "ud"


TAIL = f'''[noise]
rates = [0.2]
replicates = 2
lexicon = "{LEXICON}"
[[parsers]]
name = "second"
spec = "python:toy_parsers:SecondRoot"
[[parsers]]
name = "right"
spec = "baseline:right"
[metrics]
deps = true
'''


def test_corpora_tables_are_read_each_as_a_corpus(tmp_path: Path) -> None:
    toml = tmp_path / "b.toml"
    toml.write_text(f'''name = "multi"
[[corpora]]
name = "a"
path = "{FIXTURES / 'typos.conllu'}"
lang = "en"
limit = 2
[[corpora]]
name = "b"
path = "{FIXTURES / 'learner.conllu'}"
lang = "en"
{TAIL}''', encoding="utf-8")
    b = load_any(toml)
    assert isinstance(b, Benchmark)
    assert [(c, e.name, e.limit, e.lang) for c, e in b.corpora] == [
        ("a", "multi [a]", 2, "en"), ("b", "multi [b]", None, "en")]
    cfg = b.corpora[0][1].config()
    assert cfg["benchmark"] == {"name": "multi", "corpus": "a"}
    assert Experiment.from_config(cfg).config() == cfg
    b.rename("other")
    assert b.corpora[1][1].name == "other [b]"
    assert [c["experiment"] for c in b.config()["corpora"]] == ["other [a]", "other [b]"]


def test_a_benchmark_record_reads_back_key_for_key(tmp_path: Path) -> None:
    """The report reads a benchmark's stored settings as a record (its attributes, not
    keys): read back and written again, the record is the same JSON, keys in order."""
    import json

    from parsebench.run.benchmark_values import BenchmarkRecord

    toml = tmp_path / "b.toml"
    corpora = "".join(f'[[corpora]]\nname = "{n}"\npath = "{FIXTURES / f}"\nlang = "{lang}"\n'
                      for n, f, lang in (("a", "typos.conllu", "en"),
                                         ("b", "learner.conllu", "sv")))
    toml.write_text(f'name = "multi"\n{corpora}{TAIL}', encoding="utf-8")
    b = load_any(toml)
    assert isinstance(b, Benchmark)
    cfg = json.loads(json.dumps(b.config()))  # as the store gives it back
    rec = BenchmarkRecord.from_dict(cfg)
    assert json.dumps(rec.to_dict()) == json.dumps(cfg)
    assert [(c.name, c.lang, c.experiment) for c in rec.corpora] == [
        ("a", "en", "multi [a]"), ("b", "sv", "multi [b]")]
    assert [p.name for p in rec.parsers] == [p.name for p in b.corpora[0][1].parsers]
    assert list(cfg) == ["name", "corpora", "parsers", "levels", "replicates", "seed",
                         "resampling", "samples"]


def test_a_single_corpus_experiment_keeps_its_record(tmp_path: Path) -> None:
    """The one-corpus path is unchanged: no benchmark key in its record."""
    toml = tmp_path / "one.toml"
    toml.write_text(f'[corpus]\npath = "{FIXTURES / "typos.conllu"}"\n{TAIL}',
                    encoding="utf-8")
    one = load_any(toml)
    assert isinstance(one, Experiment) and "benchmark" not in one.config()
    assert one.config() == load(toml).config()


@pytest.mark.parametrize(("corpora", "message", "line"), [
    ('[[corpora]]\npath = "T"\nlang = "en"\n', "needs name", 1),
    ('[[corpora]]\nname = "a"\npath = "T"\nlang = "en"\n[[corpora]]\nname = "a"\n'
     'path = "T"\nlang = "en"\n', "two corpora named 'a'", 6),
    ('[[corpora]]\nname = "a"\npath = "T"\n', "needs lang", 2),
    ('[[corpora]]\nname = "a"\npath = "T"\nlang = "en"\n[[corpora]]\nname = "b"\n'
     'path = "T"\nlang = "en"\nlimt = 3\n', "unknown key 'limt'", 9),
    ('[[corpora]]\nname = "a/b"\npath = "T"\nlang = "en"\n', "no / \\", 2),
    ('corpora = "nowhere/UD_*"\n', "no folder with a *-ud-test.conllu", 1),
    ('corpora = 3\n', "[[corpora]] tables", 1),
    ('corpora = "nowhere/UD_*"\n[corpus]\npath = "T"\n', "not both", 1),
])
def test_a_bad_corpora_table_is_refused_at_its_line(tmp_path: Path, corpora: str,
                                                    message: str, line: int) -> None:
    toml = tmp_path / "b.toml"
    toml.write_text(corpora.replace('"T"', f'"{FIXTURES / "typos.conllu"}"') + TAIL,
                    encoding="utf-8")
    with pytest.raises(InputError) as e:
        load_any(toml)
    assert message in e.value.message and e.value.line == line


def _comparable(path: Path) -> list[dict[str, Any]]:
    """results.json without what differs between two runs of the same work: times, run
    numbers, the executor, and the speed figures."""
    out = []
    for entry in json.loads(path.read_text(encoding="utf-8")):
        run = entry["run"]
        out.append({"experiment": run["experiment"], "config": run["config"],
                    "summary": entry["summary"],
                    "results": [r for r in entry["results"] if r["metric"] != "speed"]})
    return out


def _round_trips(data: list[dict[str, Any]]) -> None:
    """Each summary of results.json is its record's JSON: read back and written again,
    key for key, and the record read back equals the one written."""
    from parsebench.report.benchmark import BenchmarkSummary
    from parsebench.report.pages import RunInfo
    from parsebench.report.summary_records import Summary
    from parsebench.run.benchmark_values import BenchmarkTests, BenchmarkValue
    from parsebench.run.page_values import PAGE_TYPES
    from parsebench.run.run_stats import BenchmarkStats, RunStats

    kinds = []
    for entry in data:
        run = RunInfo.from_dict(entry["run"])
        assert json.dumps(run.to_dict()) == json.dumps(entry["run"])
        s = entry["summary"]
        cls = BenchmarkSummary if "benchmark" in s else Summary
        assert isinstance(run.stats, BenchmarkStats if cls is BenchmarkSummary else RunStats)
        for r in entry["results"]:  # the macro averages and their tests: records too
            if r["metric"] in ("benchmark", "benchmark-tests"):
                value = PAGE_TYPES[r["metric"]](r["value"])
                assert isinstance(value, BenchmarkValue | BenchmarkTests)
                assert json.dumps(value.to_dict()) == json.dumps(r["value"])
                assert type(value).from_dict(value.to_dict()) == value
                kinds.append(r["metric"])
        record = cls.from_dict(s)
        assert record.to_dict() == s
        assert json.dumps(record.to_dict()) == json.dumps(s)  # the same key order
        assert cls.from_dict(record.to_dict()) == record
        kinds.append(cls.__name__)
        if cls is Summary:  # the parts a small run has: each one read back
            assert isinstance(record, Summary)
            assert record.accuracy and record.baseline and record.baseline.beating \
                and record.robustness and record.hurts and record.warnings \
                and record.tests and record.headline and record.noise_caveat
    assert [k for k in kinds if "Summary" in k] == ["BenchmarkSummary", "Summary", "Summary"]
    assert {"benchmark", "benchmark-tests"} <= set(kinds)
    assert any(e["run"]["earlier"] for e in data)  # a run's earlier runs, read back too


def test_a_benchmark_over_ud_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The pattern form, per-corpus results and macro averages side by side, the report's
    tables, the typed API result, and a second run that parses nothing."""
    monkeypatch.syspath_prepend(str(FIXTURES))  # the parser's workers find the toy
    _ud(tmp_path)
    toml = tmp_path / "bench.toml"
    store = tmp_path / "s.sqlite"
    # stopped after its first corpus: then run whole, that corpus is not parsed again
    toml.write_text(f'name = "bench"\ncorpora = "ud/UD_*-A"\n{TAIL}', encoding="utf-8")
    first = pb.run(toml, store=store, report=tmp_path / "rep")
    assert first.parsed > 0 and [c["corpus"] for c in first.corpora] == ["en_a"]
    toml.write_text(f'name = "bench"\ncorpora = "ud/UD_*"\n{TAIL}', encoding="utf-8")
    r = pb.run(toml, store=store, report=tmp_path / "rep")
    assert [(c["corpus"], c["parsed"] > 0) for c in r.corpora] == [("en_a", False),
                                                                   ("en_b", True)]
    # issue 59 item 21: a benchmark ends with the time block a run ends with, its stages
    # summed over the corpora, adding up to the whole
    text = str(r)
    block = text[text.index("time: "):text.index("store: ")].splitlines()
    assert "(over 2 corpora)" in block[1] and block[-1].lstrip().startswith("other")
    assert any(x.lstrip().startswith("macro averages") for x in block)
    s = r.summary
    assert [c["name"] for c in s["corpora"]] == ["en_a", "en_b"]
    assert [c["lang"] for c in s["corpora"]] == ["en", "en"]
    # each corpus's results are kept under its own name, beside the benchmark's
    with sqlite3.connect(store) as db:
        names = {x[0] for x in db.execute("SELECT DISTINCT experiment FROM results")}
    assert names == {"bench", "bench [en_a]", "bench [en_b]"}
    data = json.loads((tmp_path / "rep" / "results.json").read_text(encoding="utf-8"))
    assert [d["run"]["experiment"] for d in data] == ["bench", "bench [en_a]", "bench [en_b]"]
    assert data[0]["summary"]["per_corpus"] and data[0]["summary"]["macro"]
    _round_trips(data)
    # the macro average is the mean over corpora (a small corpus weighs as much as a large)
    for m in s["macro"]:
        if m["figure"] not in ("LAS", "LAS lost"):
            continue
        cells = [x["value"] for x in s["per_corpus"] if x["parser"] == m["parser"]
                 and x["level"] == m["level"] and x["figure"] == m["figure"]]
        assert len(cells) == 2
        assert m["value"] == pytest.approx(sum(cells) / 2)
        assert m["ci95"][0] <= m["value"] <= m["ci95"][1]
    # issue 59 item 5: and of every figure the corpora score, as CoNLL 2018's pages give
    own = {(d["run"]["experiment"], r["parser"], r["level"]): r["value"] for d in data[1:]
           for r in d["results"] if r["metric"] == "deps" and r["projection"] == "deprel"}
    every = {(m["parser"], m["level"], m["figure"]): m for m in s["macro"]}
    checked: set[str] = set()
    for figure, key in (("UAS", "uas"), ("CLAS", "clas"), ("MLAS", "mlas"),
                        ("UPOS", "upos"), ("UFeats", "ufeats"), ("UCM", "ucm")):
        for p in ("second", "right"):
            for level in ("clean", "rate=0.2"):
                cells = [own[(f"bench [{c}]", p, level)][key] for c in ("en_a", "en_b")]
                values = [x.get("f1", x.get("accuracy")) for x in cells]
                got = every[(p, level, figure)]
                if None in values:  # n/a on one corpus: n/a on average, never 0
                    assert got["value"] is None and got["ci95"] is None, (p, level, figure)
                    continue
                assert got["value"] == pytest.approx(sum(values) / 2), (p, level, figure)
                assert got["ci95"][0] <= got["value"] <= got["ci95"][1]
                checked.add(figure)
    assert {"UAS", "CLAS", "UCM"} <= checked, checked
    assert ("second", "clean", "Lemmas") not in every or \
        every[("second", "clean", "Lemmas")]["value"] is None  # the toy writes no lemmas
    clean = {m["parser"]: m for m in s["macro"] if m["level"] == "clean"
             and m["figure"] == "LAS"}
    assert clean["second"]["value"] > clean["right"]["value"] == 0.0  # right has no labels
    assert clean["second"]["rank"] == 1 and clean["second"]["tier"].startswith("a")
    assert s["tests"]["clean"][0]["figure"] == "las"
    assert s["answers"][0].startswith("Most accurate on average: second")
    # the typed result: a row a corpus x parser x figure, the macro's with corpus "macro"
    df = r.to_pandas()
    assert set(df["corpus"]) == {"en_a", "en_b", "macro"}
    per = df[df["corpus"] != "macro"]
    assert len(per) == 2 * 2 * 3  # 2 corpora x 2 parsers x (LAS, LAS at 0.2, lost)
    assert len(df[df["corpus"] == "macro"]) == len(s["macro"]) > 2 * 3
    assert {f.corpus for f in r.macro} == {"macro"} and len(r.per_corpus) == 12
    md = (tmp_path / "rep" / "index.md").read_text(encoding="utf-8")
    assert "Macro average: ranking and tiers" in md and "Degradation under noise" in md
    # issue 61 item 2: the benchmark's page holds the answers and links a page a corpus
    assert md.index("LAS by treebank and parser") < md.index("The corpora, a page each")
    assert "## bench [en_a]" not in md
    index = (tmp_path / "rep" / "index.html").read_text(encoding="utf-8")
    for corpus in ("en_a", "en_b"):
        stem = tmp_path / "rep" / "corpora" / safe_name(f"bench [{corpus}]")
        assert f"corpora/{stem.name}.html" in index and f"corpora/{stem.name}.md" in md
        page = stem.with_suffix(".md").read_text(encoding="utf-8")
        assert f"## bench [{corpus}]" in page and "](../index.md)" in page
        assert "Dependency evaluation against the gold key" in page
        html = stem.with_suffix(".html").read_text(encoding="utf-8")
        assert "href='../index.html'" in html and "data:image/svg+xml;base64," in html
        for link in re.findall(r"\]\((plots/[^)]+\.svg)\)", page):
            assert (stem.parent / link).is_file()
    assert (tmp_path / "rep" / "plots" / "bench-benchmark-degradation.png").is_file()
    # a benchmark has no parses of its own: exporting it exports its corpora
    files = pb.export(store, tmp_path / "out", experiment="bench", parser="second")
    tops = {f.relative_to(tmp_path / "out").parts[0] for f in files}
    assert sorted(t[:10] for t in tops) == ["bench-en_a", "bench-en_b"]
    # a second run resumes: nothing parsed, the same results
    before = _comparable(tmp_path / "rep" / "results.json")
    again = pb.run(toml, store=store, report=tmp_path / "rep2")
    assert again.parsed == 0
    assert _comparable(tmp_path / "rep2" / "results.json") == before


def test_a_benchmark_on_a_dask_cluster_gives_the_local_results(tmp_path: Path) -> None:
    """2 corpora x 2 parsers x 2 noise levels on a LocalCluster of 2 worker processes,
    through its scheduler's address as a cluster's would be given: the same results.json
    as the local executor (times, run numbers and speed aside). The client stays
    connected from one corpus to the next (it was closed after the first)."""
    distributed = pytest.importorskip("distributed")
    _ud(tmp_path)
    toml = tmp_path / "bench.toml"
    toml.write_text(f'''name = "bench"
corpora = "ud/UD_*"
[noise]
rates = [0.1, 0.3]
lexicon = "{LEXICON}"
[[parsers]]
name = "right"
spec = "baseline:right"
[[parsers]]
name = "random"
spec = "baseline:random-projective:3"
[metrics]
deps = true
''', encoding="utf-8")
    pb.run(toml, store=tmp_path / "local.sqlite", report=tmp_path / "local")
    with distributed.LocalCluster(processes=True, n_workers=2, threads_per_worker=1,
                                  dashboard_address=None) as cluster:
        r = pb.run(toml, store=tmp_path / "dask.sqlite", report=tmp_path / "dask",
                   executor="dask", scheduler=cluster.scheduler_address)
    assert r.macro and r.parsed > 0
    with sqlite3.connect(tmp_path / "dask.sqlite") as db:
        executors = {json.loads(x[0]).get("executor") for x in
                     db.execute("SELECT stats FROM runs")}
    assert executors == {"dask"}
    assert _comparable(tmp_path / "dask" / "results.json") == \
        _comparable(tmp_path / "local" / "results.json")


def _deps(parser: str, level: str, rows: list[list[int]]) -> Any:
    """A deps result as a run stores it: LAS and its per-sentence statistics."""
    from parsebench.model.scored import Scored

    c, g, s = (sum(r[k] for r in rows) for k in range(3))
    return Scored(parser, "deps", "deprel", level, "sig", {
        "las": {"f1": 2 * c / (g + s)}, "ci95": {"las": [0.0, 1.0]},
        "stats": {"las": rows}})


def test_the_macro_average_weighs_each_corpus_alike(tmp_path: Path) -> None:
    """A large treebank where X is better does not drown a small one where Y is: the
    macro average is the mean of the corpora's LAS (pooled, X would win), its interval
    and tests from resampling each corpus's sentences within it; the report says where
    the ranking flips and leaves the baseline aside for robustness."""
    from parsebench.report.benchmark import benchmark_tables, summarize_benchmark
    from parsebench.run.benchmark import macro
    from parsebench.store import Store

    big = {"x": [[8, 10, 10], [10, 10, 10]] * 500, "base": [[5, 10, 10]] * 1000}
    small = {"x": [[0, 10, 10], [2, 10, 10]] * 5, "base": [[9, 10, 10]] * 10}
    noisy_small = small
    noisy_big = {"x": [[6, 10, 10]] * 1000, "base": [[5, 10, 10]] * 1000}
    cfg = {"name": "b", "corpora": [
        {"name": "big", "lang": "en", "experiment": "b [big]", "corpus": "big.conllu"},
        {"name": "small", "lang": "de", "experiment": "b [small]", "corpus": "s.conllu"}],
        "parsers": [{"name": "x", "spec": "udpipe:x"}, {"name": "base",
                                                        "spec": "baseline:right"}],
        "levels": ["rate=0.1"], "replicates": 1, "seed": 1, "resampling": "stratified",
        "samples": 2000}
    with Store(tmp_path / "s.sqlite") as st:
        for name, clean, noisy in (("b [big]", big, noisy_big),
                                   ("b [small]", small, noisy_small)):
            run = st.start_run(name, {})
            st.replace_results(run, name, [
                *(_deps(p, "clean", rows) for p, rows in clean.items()),
                *(_deps(p, "rate=0.1", rows) for p, rows in noisy.items())])
        results = macro(st, cfg)
    s = summarize_benchmark(cfg, results)
    m = {(x.parser, x.level, x.figure): x for x in s.macro}
    assert m[("base", "clean", "LAS")].value == pytest.approx(0.7)
    assert m[("x", "clean", "LAS")].value == pytest.approx(0.5)
    assert m[("base", "clean", "LAS")].rank == 1
    assert m[("base", "clean", "LAS")].tier == "a" and m[("x", "clean", "LAS")].tier == "b"
    ci = m[("x", "clean", "LAS")].ci95
    assert ci is not None and ci[0] < 0.5 < ci[1]  # the small corpus's sentences vary
    assert m[("x", "rate=0.1", "LAS lost")].value == pytest.approx(0.15)
    assert s.tests["clean"][0].significant is True
    answers = " ".join(s.answers)
    assert "Most accurate on average: base" in answers
    assert "Most robust at rate=0.1: x" in answers and "baselines left aside" in answers
    assert "flips on big (x first)" in answers
    las = benchmark_tables(s)[0]
    assert las.rows[-1][:2] == ["macro average", "50.0"] and las.rows[-1][3] == "70.0"


def test_a_benchmark_without_noise_ranks_without_points_lost(tmp_path: Path) -> None:
    """The clean text only: the ranking table has no empty columns of points lost."""
    from parsebench.report.benchmark import benchmark_tables, summarize_benchmark
    from parsebench.run.benchmark import macro
    from parsebench.store import Store

    cfg = {"name": "b", "corpora": [{"name": "one", "lang": "en", "experiment": "b [one]",
                                     "corpus": "x"}],
           "parsers": [{"name": "x", "spec": "udpipe:x"}], "levels": [], "resampling": "",
           "samples": 2000}
    with Store(tmp_path / "s.sqlite") as st:
        run = st.start_run("b [one]", {})
        st.replace_results(run, "b [one]", [_deps("x", "clean", [[1, 2, 2], [2, 2, 2]])])
        s = summarize_benchmark(cfg, macro(st, cfg))
    tables = benchmark_tables(s)
    assert [t.title for t in tables] == ["LAS by treebank and parser",
                                         "Macro average: ranking and tiers"]
    # over 1 corpus the macro average is the corpus's figure with the corpus's own
    # interval ([0, 1] as _deps stores it), not a second bootstrap's (issue 59 item 5)
    assert tables[1].headers[-1] == "tier" and tables[1].rows == [
        ["clean", "1", "x", "75.0", "[0.0, 100.0]", ""]]


def test_a_pattern_names_each_corpus_training_split(tmp_path: Path) -> None:
    """What ``spec = "udpipe:train"`` trains on in the pattern form: the folder's train
    file, else its dev file, else none."""
    ud = _ud(tmp_path)
    shutil.copy(FIXTURES / "learner.conllu", ud / "UD_English-A" / "en_a-ud-dev.conllu")
    shutil.copy(FIXTURES / "learner.conllu", ud / "UD_English-A" / "en_a-ud-train.conllu")
    shutil.copy(FIXTURES / "learner.conllu", ud / "UD_English-B" / "en_b-ud-dev.conllu")
    toml = tmp_path / "bench.toml"
    toml.write_text(f'name = "bench"\ncorpora = "ud/UD_*"\n{TAIL}', encoding="utf-8")
    b = load_any(toml)
    assert isinstance(b, Benchmark)
    assert [(n, e.train.name if e.train else None) for n, e in b.corpora] == [
        ("en_a", "en_a-ud-train.conllu"), ("en_b", "en_b-ud-dev.conllu")]
    (ud / "UD_English-B" / "en_b-ud-dev.conllu").unlink()
    b = load_any(toml)
    assert isinstance(b, Benchmark) and b.corpora[1][1].train is None


def test_a_stored_macro_average_reads_as_its_record_or_is_refused() -> None:
    """A benchmark's stored values read back as records: a clean cell and a noisy one
    (with the points lost, null where not known) each as its own; a key no run writes
    is a damaged store, in one line."""
    from parsebench.model.scored import Scored
    from parsebench.run.benchmark_values import BenchmarkValue, CorpusLas, CorpusLoss
    from parsebench.run.page_values import typed_result

    value = {"macro": {"las": {"value": None, "ci95": None}},
             "corpora": {"a": {"lang": "en", "las": 0.5, "ci95": [0.4, 0.6]},
                         "b": {"lang": None, "las": None, "ci95": None, "loss": None,
                               "loss_ci95": None}}}
    got = typed_result(Scored("p", "benchmark", "deprel", "rate=0.1", "", value)).value
    assert isinstance(got, BenchmarkValue) and got.macro["las"].rank is None
    assert type(got.corpora["a"]) is CorpusLas and isinstance(got.corpora["b"], CorpusLoss)
    assert json.dumps(got.to_dict()) == json.dumps(value)
    with pytest.raises(InputError, match="benchmark of p does not read"):
        typed_result(Scored("p", "benchmark", "deprel", "clean", "", {**value, "x": 1}))


def _summary_of(tmp_path: Path, clean: dict[str, list[list[int]]],
                noisy: dict[str, list[list[int]]], specs: dict[str, str]) -> Any:
    from parsebench.report.benchmark import summarize_benchmark
    from parsebench.run.benchmark import macro
    from parsebench.store import Store

    cfg = {"name": "b", "corpora": [{"name": "one", "lang": "en", "experiment": "b [one]",
                                     "corpus": "one.conllu"}],
           "parsers": [{"name": p, "spec": spec} for p, spec in specs.items()],
           "levels": ["rate=0.1"], "replicates": 1, "seed": 1, "resampling": "stratified",
           "samples": 2000}
    with Store(tmp_path / "s.sqlite") as st:
        run = st.start_run("b [one]", {})
        st.replace_results(run, "b [one]", [
            *(_deps(p, "clean", rows) for p, rows in clean.items()),
            *(_deps(p, "rate=0.1", rows) for p, rows in noisy.items())])
        results = macro(st, cfg)
    return summarize_benchmark(cfg, results)


def test_identical_parsers_share_a_rank_and_no_line_names_a_winner(tmp_path: Path) -> None:
    """Issue 59 item 3: two parsers with identical figures got ranks 1 and 2, "most
    robust: a" named one of them, and "the ranking does not flip: a is first on every
    corpus". Equal figures share a rank; a summary line names a winner only when the
    paired tests separate it; one corpus is said as "1 corpus"."""
    same_clean = [[8, 10, 10], [6, 10, 10]] * 50
    same_noisy = [[7, 10, 10], [5, 10, 10]] * 50
    s = _summary_of(tmp_path, {"a": same_clean, "b": same_clean},
                    {"a": same_noisy, "b": same_noisy},
                    {"a": "udpipe:a", "b": "udpipe:b"})
    m = {(x.parser, x.level, x.figure): x for x in s.macro}
    assert m[("a", "clean", "LAS")].rank == m[("b", "clean", "LAS")].rank == 1
    assert m[("a", "rate=0.1", "LAS lost")].rank == m[("b", "rate=0.1", "LAS lost")].rank == 1
    answers = " ".join(s.answers)
    assert "Most accurate on average: no parser alone; the paired tests do not separate " \
        "a, b" in answers and "over 1 corpus" in answers, answers
    assert "Most robust at rate=0.1: no parser alone" in answers
    assert "does not flip" not in answers and "first on every corpus" not in answers


def test_with_only_baselines_no_line_names_the_most_robust(tmp_path: Path) -> None:
    rows = [[5, 10, 10]] * 40
    s = _summary_of(tmp_path, {"right": rows, "left": [[3, 10, 10]] * 40},
                    {"right": rows, "left": [[3, 10, 10]] * 40},
                    {"right": "baseline:right", "left": "baseline:left"})
    assert not [a for a in s.answers if "Most robust" in a], s.answers


def test_a_later_corpus_is_checked_before_any_work(tmp_path: Path) -> None:
    """Issue 59 item 9: a missing train for udpipe:train in the second [[corpora]] table
    was refused only after the first corpus was trained and parsed."""
    from parsebench.parsers.executor import Executor
    from parsebench.run.benchmark import run_benchmark
    from parsebench.store import Store

    toml = tmp_path / "b.toml"
    toml.write_text(f'''name = "multi"
[[corpora]]
name = "a"
path = "{FIXTURES / 'learner.conllu'}"
train = "{FIXTURES / 'learner.conllu'}"
lang = "en"
[[corpora]]
name = "b"
path = "{FIXTURES / 'typos.conllu'}"
lang = "en"
[noise]
rates = [0.2]
lexicon = "{LEXICON}"
[[parsers]]
name = "trained"
spec = "udpipe:train,iterations=1"
[metrics]
deps = true
''', encoding="utf-8")
    b = load_any(toml)
    assert isinstance(b, Benchmark)
    with Store(tmp_path / "s.sqlite") as st:
        with pytest.raises(InputError, match="trains on the corpus's training split"):
            run_benchmark(b, st, Executor("local", 1))
        assert st.experiments() == []  # nothing ran, nothing was trained
    assert not (tmp_path / "s.sqlite.models").exists()


def test_a_one_corpus_benchmark_macro_is_the_corpus_figure_and_interval(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 59 invariant (g): every macro figure of a one-corpus benchmark (LAS, UAS,
    CLAS, ... at every level) equals that corpus's figure with the same interval, and
    the report says "1 corpus"."""
    monkeypatch.syspath_prepend(str(FIXTURES))
    _ud(tmp_path)
    toml = tmp_path / "bench.toml"
    toml.write_text(f'name = "bench"\ncorpora = "ud/UD_*-A"\n{TAIL}', encoding="utf-8")
    r = pb.run(toml, store=tmp_path / "s.sqlite", report=tmp_path / "rep")
    data = json.loads((tmp_path / "rep" / "results.json").read_text(encoding="utf-8"))
    own = {(x["parser"], x["level"]): x["value"] for x in data[1]["results"]
           if x["metric"] == "deps" and x["projection"] == "deprel"}
    from parsebench.metrics.dependency.conll18 import CONLL18_NAMES

    key_of = {v: k for k, v in CONLL18_NAMES.items()} | {"UCM": "ucm", "LCM": "lcm"}
    figures = [m for m in r.summary["macro"] if m["figure"] != "LAS lost"]
    assert len({m["figure"] for m in figures}) >= 10
    for m in figures:
        corpus = own[(m["parser"], m["level"])]
        key = key_of[m["figure"]]
        point = corpus[key].get("f1", corpus[key].get("accuracy"))
        assert m["value"] == point, m
        assert m["ci95"] == (corpus["ci95"].get(key) if point is not None else None), m
    md = (tmp_path / "rep" / "index.md").read_text(encoding="utf-8")
    assert "Over 1 corpus: the corpus's own figures and intervals" in md


def test_a_benchmark_loads_each_parsers_model_once(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 61 item 3: the workers of a benchmark's parsers are started once and kept for
    every corpus (a model loaded once a benchmark, not once a corpus and text), and the
    results are those of a worker started afresh for each corpus; a single run still
    ends each parser's workers with its parse."""
    monkeypatch.syspath_prepend(str(FIXTURES))
    loads = tmp_path / "loads.txt"
    monkeypatch.setenv("PARSEBENCH_TEST_LOADS", str(loads))
    _ud(tmp_path)
    tail = TAIL.replace("python:toy_parsers:SecondRoot", "python:toy_parsers:CountedLoads")
    toml = tmp_path / "bench.toml"
    toml.write_text(f'name = "bench"\ncorpora = "ud/UD_*"\n{tail}', encoding="utf-8")
    r = pb.run(toml, store=tmp_path / "s.sqlite", report=tmp_path / "rep")
    assert [c["parsed"] > 0 for c in r.corpora] == [True, True]
    assert len(loads.read_text(encoding="utf-8").splitlines()) == 1
    # the same corpora one at a time: a worker started afresh for each, the same figures
    las = {(f.corpus, f.parser, f.level): f.value for f in r.per_corpus if f.figure == "LAS"}
    for corpus, folder in (("en_a", "UD_English-A"), ("en_b", "UD_English-B")):
        one = tmp_path / f"{corpus}.toml"
        one.write_text(f'name = "{corpus}"\n[corpus]\npath = "ud/{folder}/{corpus}-ud-test'
                       f'.conllu"\n{tail}', encoding="utf-8")
        alone = pb.run(one, store=tmp_path / f"{corpus}.sqlite", report=tmp_path / corpus)
        got = {(x.parser, x.level): x.value for x in alone.results
               if x.method == "deps" and x.projection == "deprel"}
        for (c, parser, level), value in las.items():
            if c == corpus and (parser, level) in got:
                assert got[(parser, level)].las.f1 == pytest.approx(value)
    assert len(loads.read_text(encoding="utf-8").splitlines()) == 3  # one a run

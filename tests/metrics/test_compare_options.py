"""``compare`` and a run's ``deps`` method take ``eval deps``'s scoring options (--align
words, --invalid, --enhancements, --no-empty-nodes, --multiple-roots-okay), and score
with them exactly what ``eval deps`` scores."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FIXTURES, shared_path

import parsebench as pb
from parsebench.common.errors import InputError
from parsebench.formats.conllu import basic_to_deps, read_conllu, write_conllu
from parsebench.metrics.dependency.lin import DepsSettings
from parsebench.metrics.dependency.settings import DepsScoring
from parsebench.run.experiment import Experiment, load

Row = tuple[str, int, str] | tuple[str, int, str, str]


def conll(*sentences: list[Row]) -> str:
    """CoNLL-U of SENTENCES: (form, head, deprel[, deps]) a word."""
    out = []
    for rows in sentences:
        for i, (form, head, rel, *deps) in enumerate(rows, 1):
            out.append(f"{i}\t{form}\t_\tX\t_\t_\t{head}\t{rel}\t{deps[0] if deps else '_'}\t_")
        out.append("")
    return "\n".join(out) + "\n"


GOLD = conll([("a", 2, "det"), ("dog", 3, "nsubj"), ("barks", 0, "root"), (".", 3, "punct")],
             [("cats", 2, "nsubj"), ("purr", 0, "root")],
             [("it", 2, "nsubj"), ("rains", 0, "root"), ("now", 2, "advmod")])
# "dog" spelt "dgo" (similar enough to stay aligned: a substitution), "." left out (it
# heads nothing), "now" mislabelled: 8 system words, all aligned, 7 with the right
# head and label
REWORDED = conll([("a", 2, "det"), ("dgo", 3, "nsubj"), ("barks", 0, "root")],
                 [("cats", 2, "nsubj"), ("purr", 0, "root")],
                 [("it", 2, "nsubj"), ("rains", 0, "root"), ("now", 2, "obj")])
# sentence 1 a cycle (a -> dog -> barks -> a, no root): under --invalid zero none of its
# 4 words is attached; sentence 3 as above
CYCLE = conll([("a", 2, "det"), ("dog", 3, "nsubj"), ("barks", 1, "dep"), (".", 3, "punct")],
              [("cats", 2, "nsubj"), ("purr", 0, "root")],
              [("it", 2, "nsubj"), ("rains", 0, "root"), ("now", 2, "obj")])
# the enhanced graph: "beds" is obl:in in the gold, obl in the system (a parser that
# gives no case information); --enhancements 6 says the gold lacks it
GRAPH_GOLD = conll([("sleep", 0, "root", "0:root"), ("in", 3, "case", "3:case"),
                    ("beds", 1, "obl", "1:obl:in")])
GRAPH_SYSTEM = conll([("sleep", 0, "root", "0:root"), ("in", 3, "case", "3:case"),
                      ("beds", 1, "obl", "1:obl")])


def files(tmp_path: Path, **texts: str) -> dict[str, Path]:
    out = {}
    for name, text in texts.items():
        out[name] = tmp_path / f"{name}.conllu"
        out[name].write_text(text, encoding="utf-8")
    return out


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "parsebench.cli", *args],
                          capture_output=True, text=True)


def test_align_words_gives_eval_deps_aligned_scores(tmp_path: Path) -> None:
    f = files(tmp_path, gold=GOLD, system=REWORDED)
    with pytest.raises(InputError, match="text differs"):  # without it: refused
        pb.compare(f["gold"], [f["gold"], f["system"]], samples=200)
    r = pb.compare(f["gold"], [f["gold"], f["system"]], samples=200, align="words")
    want = pb.evaluate_deps(f["gold"], f["system"], align="words").data
    d = r.to_dict()
    # LAS: 7 right of 8 system words and of 9 gold words
    assert want["las"]["f1"] == 2 * 7 / (8 + 9)
    assert d["systems"][1]["score"] == pytest.approx(want["las"]["f1"], abs=1e-15)
    assert d["systems"][0]["score"] == 1.0
    assert d["pairs"][0]["delta"] == pytest.approx(2 * 7 / 17 - 1, abs=1e-15)
    assert d["systems"][1]["alignment"] == want["alignment"] == {
        "matched": 7, "substituted": 1, "deleted": 1, "inserted": 0}
    assert d["align"] == "words" and "|align:words|" in d["signature"]
    uas = pb.compare(f["gold"], [f["system"]], "uas", samples=200, align="words")
    assert uas.to_dict()["systems"][0]["score"] == pytest.approx(2 * 8 / 17, abs=1e-15)


def test_invalid_zero_counts_an_invalid_sentences_words_unattached(tmp_path: Path) -> None:
    f = files(tmp_path, gold=GOLD, system=CYCLE)
    zero = pb.evaluate_deps(f["gold"], f["system"], invalid="zero").data
    # the valid sentences' right words (cats, purr; it, rains) over all 9 words
    assert zero["las"]["f1"] == 4 / 9
    r = pb.compare(f["gold"], [f["system"]], samples=200, invalid="zero").to_dict()
    assert r["systems"][0]["score"] == pytest.approx(4 / 9, abs=1e-15)
    assert r["systems"][0]["validity"] == {**zero["validity"]} == {
        "sentences": 3, "invalid": 1, "cycles": 1, "no_root": 1, "multiple_roots": 0,
        "bad_heads": 0, "policy": "zero"}
    assert r["invalid"] == "zero" and "|invalid:zero|" in r["signature"]
    assert any("none of their words counts as attached" in w for w in r["warnings"])
    # warn (the default) scores the cycle as it is: a, dog and . right too
    warn = pb.compare(f["gold"], [f["system"]], samples=200).to_dict()
    assert warn["systems"][0]["score"] == pytest.approx(7 / 9, abs=1e-15)
    assert "validity" not in warn["systems"][0] and "invalid" not in warn
    assert "invalid" not in warn["signature"]
    # the exact-match share resampled with the policy too
    ucm = pb.compare(f["gold"], [f["system"]], "ucm", samples=200, invalid="zero")
    assert ucm.to_dict()["systems"][0]["score"] == 2 / 3  # cats purr; it rains now (UAS)


def test_enhancements_change_elas_as_in_eval_deps(tmp_path: Path) -> None:
    f = files(tmp_path, gold=GRAPH_GOLD, system=GRAPH_SYSTEM)
    for code, elas in (("0", 2 / 3), ("6", 1.0)):
        want = pb.evaluate_deps(f["gold"], f["system"], enhancements=code).data["elas"]
        got = pb.compare(f["gold"], [f["system"]], "elas", samples=200,
                         enhancements=code).to_dict()
        assert want["f1"] == pytest.approx(elas, abs=1e-15)
        assert got["systems"][0]["score"] == pytest.approx(elas, abs=1e-15)
        assert ("enhancements:6" in got["signature"]) == (code == "6")
        assert got.get("enhancements") == (None if code == "0" else "6")


def test_options_that_do_not_fit_the_metric_are_refused(tmp_path: Path) -> None:
    f = files(tmp_path, gold=GRAPH_GOLD, system=GRAPH_SYSTEM)
    for metric, opts, why in (
            ("las", {"enhancements": "6"}, "--metric las does not read them"),
            ("uas", {"no_empty_nodes": True}, "--no-empty-nodes"),
            ("elas", {"align": "words"}, "ELAS is not scored over aligned words"),
            ("evalb", {"align": "words"}, "--metric evalb scores trees"),
            ("flat-recall", {"invalid": "zero"}, "--invalid: dependency scoring")):
        with pytest.raises(InputError, match=why):
            pb.compare(f["gold"], [f["system"]], metric, samples=200, **opts)
    with pytest.raises(InputError, match="--align 'chars': expected words"):
        pb.compare(f["gold"], [f["system"]], samples=200, align="chars")
    with pytest.raises(InputError, match="--enhancements '7'"):
        pb.compare(f["gold"], [f["system"]], "elas", samples=200, enhancements="7")


def test_cli(tmp_path: Path) -> None:
    f = files(tmp_path, gold=GOLD, system=CYCLE, reworded=REWORDED)
    p = cli("compare", str(f["gold"]), str(f["system"]), "--invalid", "zero", "--json",
            "--samples", "200")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["systems"][0]["score"] == pytest.approx(4 / 9, abs=1e-15)
    p = cli("compare", str(f["gold"]), str(f["system"]), "--invalid", "zero",
            "--multiple-roots-okay", "--samples", "200")
    assert f"{f['system']}: 1 of 3 sentences are not trees (--invalid zero)" in p.stdout
    assert "invalid:zero|roots:several-okay|" in p.stdout
    p = cli("compare", str(f["gold"]), str(f["reworded"]), "--align", "words",
            "--samples", "200")
    assert p.returncode == 0, p.stderr
    assert ("words aligned (--align words): 7 matched, 1 substituted, 1 deleted, "
            "0 inserted") in p.stdout
    p = cli("compare", str(f["gold"]), str(f["system"]), "--invalid", "error")
    assert p.returncode == 2 and p.stdout == "" and p.stderr.count("\n") == 1
    assert f"{f['system']}:1: not a tree" in p.stderr
    p = cli("compare", str(f["gold"]), str(f["system"]), "--metric", "las",
            "--enhancements", "6")
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and "--enhancements" in p.stderr


def test_ewt_compare_equals_eval_deps(tmp_path: Path) -> None:
    """On EWT test: the basic tree copied into DEPS (the IWPT baseline) with
    --enhancements 6, and a system with misspelt and dropped words with --align words."""
    sents = read_conllu(shared_path("data/ud-english-ewt/en_ewt-ud-test.conllu"))[:300]
    gold, copied, changed = (tmp_path / f"{n}.conllu" for n in ("gold", "copied", "changed"))
    with open(gold, "w", encoding="utf-8") as fh:
        write_conllu(sents, fh)
    with open(copied, "w", encoding="utf-8") as fh:
        write_conllu([basic_to_deps(s) for s in sents], fh)
    # every tenth sentence: its second word misspelt, and its last word (punctuation,
    # heading nothing, in most) left out
    out, n_changed = [], 0
    for k, s in enumerate(sents):
        if k % 10 == 0 and len(s) > 3 and s.upos[-1] == "PUNCT" \
                and len(s) not in s.heads and not s.multiword and not s.empty_nodes:
            n = len(s) - 1
            forms = list(s.forms[:n])
            forms[1] = forms[1] + "x"
            s = dataclasses.replace(s, forms=forms, lemmas=s.lemmas[:n], upos=s.upos[:n],
                                    xpos=s.xpos[:n], feats=s.feats[:n], heads=s.heads[:n],
                                    deprels=s.deprels[:n], deps=s.deps[:n],
                                    misc=s.misc[:n], comments=[])
            n_changed += 1
        out.append(s)
    with open(changed, "w", encoding="utf-8") as fh:
        write_conllu(out, fh)
    for code in ("0", "6"):
        want = pb.evaluate_deps(gold, copied, enhancements=code).data["elas"]["f1"]
        got = pb.compare(gold, [copied], "elas", samples=100, enhancements=code)
        assert got.to_dict()["systems"][0]["score"] == pytest.approx(want, abs=1e-12)
    six = pb.compare(gold, [copied], "elas", samples=100, enhancements="6")
    zero = pb.compare(gold, [copied], "elas", samples=100)
    assert six.to_dict()["systems"][0]["score"] > zero.to_dict()["systems"][0]["score"]
    want = pb.evaluate_deps(gold, changed, align="words").data
    got = pb.compare(gold, [gold, changed], samples=100, align="words").to_dict()
    assert got["systems"][1]["score"] == pytest.approx(want["las"]["f1"], abs=1e-12)
    assert want["alignment"]["deleted"] == want["alignment"]["substituted"] == n_changed > 10
    assert want["las"]["f1"] < 1
    assert got["systems"][1]["alignment"] == want["alignment"]


EXPERIMENT = '''name = "{name}"
[corpus]
path = "{corpus}"
[metrics]
deps = {deps}
[[parsers]]
name = "{parser}"
spec = "python:broken_parsers:{spec}"
'''


def test_deps_settings_round_trip(tmp_path: Path) -> None:
    (tmp_path / "gold.conllu").write_text(GOLD, encoding="utf-8")
    exp = tmp_path / "exp.toml"
    exp.write_text(EXPERIMENT.format(
        name="x", corpus="gold.conllu", parser="p", spec="Cycler",
        deps='{ by = ["category"], invalid = "zero", enhancements = 6, align = "words", '
             'no_empty_nodes = true, multiple_roots_okay = true }'), encoding="utf-8")
    e = load(exp)
    st = e.setting("deps")
    assert st == DepsSettings(True, ("deprel", "category"),
                              DepsScoring.of("words", "zero", "6", True, True))
    back = Experiment.from_config(json.loads(json.dumps(e.config())))
    assert back.setting("deps") == st and back.config() == e.config()
    assert e.config()["deps"] == {"by": ["deprel", "category"], "align": "words",
                                  "invalid": "zero", "enhancements": "6",
                                  "no_empty_nodes": True, "multiple_roots_okay": True}
    # a table with only a breakdown, and the old forms, keep their records
    for deps, record in (('{ by = ["category"] }', ["deprel", "category"]),
                         ("true", ["deprel"])):
        exp.write_text(EXPERIMENT.format(name="x", corpus="gold.conllu", parser="p",
                                         spec="Cycler", deps=deps), encoding="utf-8")
        assert load(exp).config()["deps"] == record
    for deps, why in (('{ invalid = "none" }', "deps: invalid = 'none': expected one of"),
                      ('{ enhancements = "9" }', "deps: enhancements = '9'"),
                      ('{ enhancements = true }', "enhancements must be digits 0-6"),
                      ('{ multiple_roots_okay = "yes" }', "must be true or false"),
                      ('{ align = "chars" }', "deps: align = 'chars': expected words"),
                      ('{ invalids = "zero" }', "deps: unknown key 'invalids'"),
                      ("3", "deps must be bool, list or a table")):
        exp.write_text(EXPERIMENT.format(name="x", corpus="gold.conllu", parser="p",
                                         spec="Cycler", deps=deps), encoding="utf-8")
        with pytest.raises(InputError, match=why) as got:
            load(exp)
        assert got.value.line == 5  # the deps line


def _run(tmp_path: Path, name: str, spec: str, deps: str) -> list[dict[str, object]]:
    sys.path.insert(0, str(FIXTURES))  # python:broken_parsers:... here and in its workers
    exp = tmp_path / f"{name}.toml"
    exp.write_text(EXPERIMENT.format(name=name, corpus=tmp_path / "gold.conllu",
                                     parser=name, spec=spec, deps=deps), encoding="utf-8")
    r = pb.run(exp, store=tmp_path / f"{name}.sqlite", report=tmp_path / f"{name}-report")
    got = [x for x in r.results if x.metric == "deps" and x.level == "clean"]
    assert got
    return [{**x.to_dict()["value"], "signature": x.signature} for x in got]


def test_a_run_scores_with_the_settings(tmp_path: Path) -> None:
    """A run's deps method with invalid = "zero" and enhancements = 6 stores what
    eval deps gives the same parses with those options; align = "words" scores a parser
    that drops words, which is refused in one line without it."""
    sents = read_conllu(shared_path("data/ud-english-ewt/en_ewt-ud-test.conllu"))[:40]
    gold = tmp_path / "gold.conllu"
    with open(gold, "w", encoding="utf-8") as fh:
        write_conllu(sents, fh)
    sys.path.insert(0, str(FIXTURES))
    parsed = tmp_path / "cycler.conllu"
    pb.parse(gold, "python:broken_parsers:Cycler", copy_basic_to_deps=True).write(parsed)
    got = _run(tmp_path, "cycles", "Cycler", '{ invalid = "zero", enhancements = "6" }')
    want = pb.evaluate_deps(gold, parsed, invalid="zero", enhancements="6").data
    warn = pb.evaluate_deps(gold, parsed).data
    assert want["validity"]["invalid"] > 0 and want["uas"]["f1"] < warn["uas"]["f1"]
    for v in got:
        for k in ("las", "uas", "elas", "eulas"):
            assert v[k] == want[k], k
        assert v["validity"] == want["validity"]
        assert "invalid:zero" in str(v["signature"]) and "enhancements:6" in str(
            v["signature"])
    # the report's results carry the zero-policy score, as the store keeps it
    stored = json.loads((tmp_path / "cycles-report" / "results.json").read_text())
    rows = [x for run in stored for x in run["results"]
            if x["metric"] == "deps" and x["level"] == "clean"]
    assert rows and all(x["value"]["las"] == want["las"] for x in rows)

    with pytest.raises(InputError, match=r'sentence 1 was parsed into \d+ words, not the '
                       r'\d+ given; .*align = "words"'):
        _run(tmp_path, "drops", "Dropper", "true")
    got = _run(tmp_path, "dropsaligned", "Dropper", '{ align = "words" }')
    dropped = tmp_path / "dropper.conllu"
    pb.parse(gold, "python:broken_parsers:Dropper").write(dropped)
    want = pb.evaluate_deps(gold, dropped, align="words").data
    assert want["alignment"]["deleted"] > 0
    for v in got:
        assert v["las"] == want["las"] and v["alignment"] == want["alignment"]

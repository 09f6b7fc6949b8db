"""The studies (issue 5): what they need beyond the runner (natural typos, Lin's
breakdowns by relation group, preposition and genre, the bounds check), and a
CI-sized run of every studies/*.toml whose report must be complete."""

from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES, ROOT, needs, needs_java, shared_path
from robust_values import rows_value

from parsebench.common.errors import InputError
from parsebench.formats.conllu import read_conllu
from parsebench.metrics.dependency.evaluate import DepsOptions, score_deps
from parsebench.metrics.robustness.bigert_scorer import RowsFigures
from parsebench.metrics.robustness.bigert_shown import _bounds_check
from parsebench.model.scored import Scored
from parsebench.parsers.executor import Executor
from parsebench.run.corpus import corrected_typos
from parsebench.run.experiment import Level, load
from parsebench.run.runner import run_experiment
from parsebench.store import Store

TYPOS = FIXTURES / "typos.conllu"
STUDIES = ROOT / "studies"


def _system() -> list[Any]:
    """The fixture's gold with two PP attachments wrong: "mat" on "dog" (nmod) and
    "Paris" on "received" (obl)."""
    gold = read_conllu(TYPOS)
    s2, s3 = gold[1], gold[2]
    s2 = replace(s2, heads=[2, 3, 0, 6, 6, 2], deprels=[*s2.deprels[:5], "nmod"])
    s3 = replace(s3, heads=[2, 0, 4, 2, 6, 2], deprels=[*s3.deprels[:5], "obl"])
    return [gold[0], s2, s3, gold[3]]


def test_lin_breakdown_by_preposition() -> None:
    gold = read_conllu(TYPOS)
    by = score_deps(gold, _system(), DepsOptions(by="preposition")).as_dict()["by"]
    # the PPs of the key: on (mat), from (Paris), in (town); "tonite" has no case child
    assert set(by) == {"on", "from", "in"}
    u = by["in"]["unlabeled"]
    assert (u["key"], u["answer"], u["matched"], u["precision"], u["recall"]) == (1, 1, 1, 1, 1)
    for p in ("on", "from"):
        u = by[p]["unlabeled"]
        assert (u["key"], u["answer"], u["matched"], u["recall"]) == (1, 1, 0, 0)


def test_lin_breakdown_by_relation_group() -> None:
    by = score_deps(read_conllu(TYPOS), _system(), DepsOptions(by="group")).as_dict()["by"]
    assert set(by) == {"subject", "complement", "pp-attachment", "conjunction"}
    assert by["subject"]["unlabeled"]["key"] == 4 and by["subject"]["unlabeled"]["recall"] == 1
    pp = by["pp-attachment"]
    # key: tonite (obl:tmod), mat, Paris, town; two attached right
    assert (pp["unlabeled"]["key"], pp["unlabeled"]["answer"]) == (4, 4)
    assert (pp["unlabeled"]["matched"], pp["unlabeled"]["precision"]) == (2, 0.5)
    assert pp["labeled"]["matched"] == 2 and by["conjunction"]["labeled"]["recall"] == 1


def test_corrected_typos_gives_the_corrections_and_the_changes_back() -> None:
    sents = read_conllu(TYPOS)
    clean, changes, kept = corrected_typos(sents)
    assert kept == 0
    assert clean[0].forms == ["I", "can't", "sleep", "tonight"]
    assert clean[2].forms[1] == "received" and clean[1] is sents[1]
    assert [(c.sentence, c.token, c.orig, c.new) for c in changes] == [
        (0, 1, "can't", "cant"), (0, 3, "tonight", "tonite"), (2, 1, "received", "recieved")]


SPLIT = """# text = months be for. alot
1	months	month	NOUN	NNS	_	0	root	_	_
2	be	before	ADV	GW	Typo=Yes	1	advmod	_	CorrectForm=before
3	for	_	X	RB	_	2	goeswith	_	SpaceAfter=No
4	.	.	PUNCT	.	_	1	punct	_	_
5	alot	a lot	ADV	RB	Typo=Yes	1	advmod	_	CorrectForm=a lot
6	kinda	kind	ADV	RB	Typo=Yes	1	advmod	_	CorrectForm=kind of

"""


def test_a_typo_that_splits_a_word_or_needs_several_is_left_as_written(
        tmp_path: Path) -> None:
    """EWT's ``be for`` (CorrectForm=before, its part joined by goeswith) was corrected
    to ``before for``, a text nobody wrote; a correction of several words cannot be one
    word either. Both stay as typed, counted, and nothing else changes."""
    p = tmp_path / "split.conllu"
    p.write_text(SPLIT, encoding="utf-8")
    sents = read_conllu(p)
    clean, changes, kept = corrected_typos(sents)
    assert kept == 3 and changes == [] and clean[0].forms == sents[0].forms


def _typos_exp(tmp: Path, extra: str = "") -> Path:
    p = tmp / "typos.toml"
    p.write_text(f'''name = "typos"
[corpus]
path = ["{TYPOS}", "{TYPOS}"]
typos_only = true
[noise]
natural = true
replicates = 2
[[parsers]]
name = "tnt"
spec = "nltk-tnt:{TYPOS}"
[metrics]
rows = ["tag"]
''' + extra, encoding="utf-8")
    return p


def test_natural_typos_level_beside_artificial_at_the_same_rate(tmp_path: Path) -> None:
    needs("nltk")
    exp = load(_typos_exp(tmp_path))
    assert exp.corpus == [TYPOS, TYPOS] and exp.typos_only and exp.natural
    with Store(tmp_path / "s.sqlite") as st:
        out = run_experiment(exp, st, Executor("local", 1))
    rows = {(r.metric, r.level): r.value.to_dict() for r in out.results if r.metric == "rows"}
    # two files read as one, the typo-free sentences dropped: 2 x (4 + 6) words, 6 typos
    rate = 6 / 20
    assert rows[("rows", "natural")]["error_level"] == pytest.approx(rate)
    artificial = rows[("rows", f"rate={rate:g}")]
    assert artificial["error_level"]["mean"] == pytest.approx(rate)
    assert len(artificial["replicates"]) == 2


def test_experiment_keys_of_the_studies_are_checked(tmp_path: Path) -> None:
    bad = _typos_exp(tmp_path, 'deps = ["genre"]\n')
    with pytest.raises(InputError, match="'genre' is not one of") as e:
        load(bad)
    assert e.value.line is not None
    (tmp_path / "x.toml").write_text(f'[corpus]\npath = "{TYPOS}"\ngold = false\n'
                                     '[noise]\nrates = [0.1]\n[[parsers]]\nname = "a"\n'
                                     'spec = "linkgrammar"\n', encoding="utf-8")
    assert load(tmp_path / "x.toml").gold is False


def test_bounds_check_counts_runs_within_bounds_and_the_error() -> None:
    def run(est: float, real: float, inside: bool) -> RowsFigures:
        return rows_value(degr_estimate=est, gold={"degr_real": real, "within_bounds": inside})

    def scored(value: RowsFigures) -> Scored:
        return Scored("p", "rows", "head", "rate=0.1", "", value)

    groups = {("p", "head"): [
        scored(replace(run(0.1, 0.1, True), replicates=[run(0.10, 0.08, True),
                                                       run(0.12, 0.16, False)])),
        scored(run(0.20, 0.21, True))]}
    t = _bounds_check(groups)
    assert t is not None
    assert t.rows == [["p", "head", "3", "2/3 (67%)", "2.33 points", "4.00 points",
                       "-1.00 points"]]
    assert _bounds_check({("p", "head"): [scored(rows_value(degr_estimate=0.1))]}) is None


# the studies, CI-sized ----------------------------------------------------------------

EXPECTED = {
    "bigert-en": ["The estimates against the real degradation", "spacy, head",
                  "udpipe, head+deprel", "tnt, tag", "real within bounds"],
    "bigert-en-unsupervised": ["link-grammar, links", "udpipe, head+deprel", "tnt, tag",
                               "below 2/3", "Kakkonen, Table 1"],
    "bigert-sv": ["udpipe-sv, head+deprel", "tnt-sv, tag", "real within bounds"],
    "kakkonen-en": ["Kakkonen, Table 1", "1/sentence", "3/sentence", "link-grammar"],
    "hashemi-jfleg-dev": ["Robustness F1 (Hashemi & Hwa)", "by the number of errors"],
    "hashemi-jfleg-test": ["Robustness F1 (Hashemi & Hwa)", "by the number of errors"],
    "lin-en": ["Table 18.2", "Table 18.3", "Table 18.4", "words/s", "pp-attachment"],
    "natural-typos-en": ["natural", "rate=0.", "real within bounds", "Kakkonen, Table 1"],
    "grammar-types-en": ["Learner-like errors by type", "R:WO", "M:DET", "aligned LAS",
                         "method rows | not applicable"],
    "hashemi-jfleg-dev-errant": ["Robustness F1 (Hashemi & Hwa)", "By ERRANT's error type",
                                 "R:SPELL"],
    # docs/real-noise.md: the three UD parsers, the biaffine one through supar:
    "real-ewt": ["Dependency evaluation against the gold key", "biaffine"],
    "real-tweebank": ["Dependency evaluation against the gold key", "biaffine", "discourse"],
    "real-eslspok": ["Dependency evaluation against the gold key", "biaffine"],
    "real-spelling-en": ["Degradation, row by row", "biaffine, head+deprel"],
    "real-kakkonen-en": ["Kakkonen, Table 1", "1/sentence", "biaffine"],
    "real-grammar-en": ["Learner-like errors by type", "biaffine"],
    "real-jfleg": ["Robustness F1 (Hashemi & Hwa)", "By ERRANT's error type", "biaffine"],
    # docs/java-parsers.md: the seed papers' own parsers beside the UD parsers
    "java-bigert-en": ["Degradation, row by row", "malt, head+deprel", "yara, head"],
    "java-kakkonen-en": ["Kakkonen, Table 1", "1/sentence", "malt", "yara"],
    "java-hashemi-grammar-en": ["Learner-like errors by type", "malt", "yara"],
    "java-hashemi-jfleg-dev": ["Robustness F1 (Hashemi & Hwa)", "malt", "yara"],
    # docs/broken-outputs.md: a useless parser looks perfectly robust
    "broken-baselines": ["Degradation, row by row", "baseline-right (baseline), head+deprel",
                         "baseline-random (baseline), head", "Kakkonen, Table 1",
                         "Best uninformed baseline"],
    # docs/noise-validity.md: natural typos beside keyboard and profile noise at their rate
    "noise-validity-keyboard": ["natural", "rate=0.", "biaffine, head+deprel", "keyboard"],
    "noise-validity-profile": ["natural", "rate=0.", "biaffine, head+deprel",
                               "learnt profile ewt-train.json"],
    # its French part: GSD test's typo sentences, a stand-in for the parser make trains
    "noise-validity-fr-keyboard": ["natural", "rate=0.", "udpipe (baseline), head+deprel",
                                   "keyboard"],
    "noise-validity-fr-profile": ["natural", "rate=0.", "udpipe (baseline), head+deprel",
                                  "learnt profile gsd-dev.json"],
}
SMALL = {"bigert-en": 80, "bigert-en-unsupervised": 20, "kakkonen-en": 20,
         "broken-baselines": 60,
         **{f"java-{n}": 30 for n in ("bigert-en", "kakkonen-en", "hashemi-grammar-en",
                                      "hashemi-jfleg-dev")},
         **{f"real-{n}": 60 for n in ("ewt", "tweebank", "eslspok", "spelling-en",
                                      "kakkonen-en", "grammar-en", "jfleg")},
         "noise-validity-keyboard": 60, "noise-validity-profile": 60}
"""Sentences for the CI-sized version, 100 unless said (Link Grammar is slow on
misspelled text); one parser worker, as the test suite runs two tests at once."""


def test_every_study_has_its_expectations() -> None:
    assert sorted(p.stem for p in STUDIES.glob("*.toml")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_study_runs_small_and_its_report_is_complete(name: str, tmp_path: Path) -> None:
    shared_path("data/ud-english-ewt/en_ewt-ud-test.conllu")  # skips in a fresh clone
    toml = STUDIES / f"{name}.toml"
    if name == "noise-validity-profile":  # its profile is learnt by make, not kept
        toml = _with_profile(toml, tmp_path)
    if name.startswith("noise-validity-fr-"):  # so are the French profile and parser
        toml = _french_stand_in(toml, tmp_path)
    load(toml)
    for spec in ("udpipe", "spacy", "nltk", "linkgrammar", "supar"):
        if spec in toml.read_text(encoding="utf-8"):
            needs({"udpipe": "ufal.udpipe"}.get(spec, spec))
    if "jar=" in toml.read_text(encoding="utf-8"):
        needs_java()  # MaltParser and Yara
    store, report = tmp_path / "s.sqlite", tmp_path / "report"
    p = subprocess.run([sys.executable, "-m", "parsebench.cli", "run",
                        str(toml), "--limit", str(SMALL.get(name, 100)),
                        "--replicates", "2", "--workers", "1", "--store", str(store),
                        "--report", str(report)], capture_output=True, text=True,
                       stdin=subprocess.DEVNULL)
    assert p.returncode == 0, p.stderr[-3000:]
    md = (report / "index.md").read_text(encoding="utf-8")
    assert f"## {name} (limit " in md and ", 2 replicates)" in md
    for needle in EXPECTED[name]:
        assert needle in md, needle
    assert "–" not in _headline_cells(md), "a headline cell of the report is empty"
    assert (report / "index.html").stat().st_size > 10_000


def _with_profile(toml: Path, tmp: Path) -> Path:
    """TOML copied into TMP, its profile learnt there from EWT train as ``make
    noise-validity-study`` learns it, its other paths made absolute."""
    from parsebench.noise.make import learn_profile

    learn_profile(shared_path("data/ud-english-ewt/en_ewt-ud-train.conllu"),
                  tmp / "ewt-train.json")
    text = toml.read_text(encoding="utf-8").replace(
        "../../shared/", f"{(STUDIES / '../../shared').resolve()}/")
    text = re.sub(r'^profile = .*$', 'profile = "ewt-train.json"', text, flags=re.M)
    out = tmp / toml.name
    out.write_text(text, encoding="utf-8")
    return out


def _french_stand_in(toml: Path, tmp: Path) -> Path:
    """A French noise-validity TOML copied into TMP, its profile learnt there from GSD
    dev as ``make noise-validity-study`` learns it, and baseline:random standing in for
    the UDPipe model make trains (about 2 minutes, too long here): what is checked is
    the study's corpus, noise and metrics, not the parser."""
    from parsebench.noise.make import learn_profile

    learn_profile(shared_path("data/ud-french-gsd/fr_gsd-ud-dev.conllu"),
                  tmp / "gsd-dev.json", lang="fr")
    text = toml.read_text(encoding="utf-8").replace(
        "../../shared/", f"{(STUDIES / '../../shared').resolve()}/")
    text = re.sub(r'^profile = .*$', 'profile = "gsd-dev.json"', text, flags=re.M)
    text = re.sub(r'^spec = "udpipe:.*$', 'spec = "baseline:random"', text, flags=re.M)
    out = tmp / toml.name
    out.write_text(text, encoding="utf-8")
    return out


def _headline_cells(md: str) -> str:
    """The first data row of every table (an empty headline means a broken study)."""
    out = []
    lines = md.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("|---") and i + 1 < len(lines):
            out.append(lines[i + 1])
    return "\n".join(out)


def test_f1_error_bins_are_micro_averaged_from_the_counts() -> None:
    from parsebench.metrics.robustness.hashemi_hwa import F1Figures
    from parsebench.metrics.robustness.hashemi_hwa_shown import _error_bins

    def counts(shared: int, u: int, ue: int, g: int, ge: int, n: int) -> F1Figures:
        # the bins are summed from the counts: the shares given here are not read
        return F1Figures(shared, u, ue, g, ge, n, 0, None, None, None)

    rows = _error_bins({"1": counts(2, 5, 3, 4, 0, 1),       # the paper's example: P 1, R 0.5
                        "4": counts(6, 10, 0, 10, 2, 2), "6": counts(3, 5, 1, 4, 0, 1),
                        "9": counts(0, 3, 0, 3, 0, 1)})
    # 4-6: shared 9, P = 9 / (15 - 1) = 64.29%, R = 9 / (14 - 2) = 75%
    assert rows == [["1", "1", "100.00", "50.00", "66.67"],
                    ["4-6", "3", "64.29", "75.00", "69.23"],
                    ["7+", "1", "0.00", "0.00", "0.00"]]


def test_study_doc_fills_the_template_from_the_report(tmp_path: Path) -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("study_doc", ROOT / "scripts" /
                                                  "study_doc.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    (tmp_path / "study").mkdir()
    (tmp_path / "study" / "index.md").write_text(
        "# parsebench report\n\n## a\n\n### Speed\n\n![x](plots/a-x.png)\n\n## b\n\nB\n",
        encoding="utf-8")
    (tmp_path / "t.md").write_text("intro\n<!-- study: a -->\nmid\n<!-- study: c -->\n",
                                   encoding="utf-8")
    missing = mod.build(tmp_path / "study", tmp_path / "t.md", tmp_path / "out.md")
    assert missing == ["c"]
    assert (tmp_path / "out.md").read_text(encoding="utf-8") == (
        "intro\n#### Speed\n\n![x](study/plots/a-x.png)\nmid\n"
        "*(study c has not been run: `make studies`)*\n")


def test_accuracy_can_be_given_per_projection(tmp_path: Path) -> None:
    body = (f'[corpus]\npath = "{TYPOS}"\n[noise]\nrates = [0.1]\n[[parsers]]\nname = "a"\n'
            'spec = "linkgrammar"\naccuracy = {{"head+deprel" = 0.8, tag = 0.95}}\n')
    (tmp_path / "x.toml").write_text(body.format(), encoding="utf-8")
    conf = load(tmp_path / "x.toml").parsers[0]
    assert conf.accuracy_for("tag") == 0.95 and conf.accuracy_for("head") is None
    (tmp_path / "x.toml").write_text(body.format().replace("tag", "tags"), encoding="utf-8")
    with pytest.raises(InputError, match="'tags' is not one of"):
        load(tmp_path / "x.toml")


def test_natural_typos_with_a_calibration_sample(tmp_path: Path) -> None:
    """The calibration sample has the artificial levels only; the natural ones go without."""
    needs("nltk")
    exp = load(_typos_exp(tmp_path, f'[calibration]\npath = "{TYPOS}"\n'))
    exp.levels = [Level("rate", 0.2)]
    with Store(tmp_path / "s.sqlite") as st:
        out = run_experiment(exp, st, Executor("local", 1))
    rows = {r.level: r.value.to_dict() for r in out.results if r.metric == "rows"}
    assert "degr_calibrated" in rows["rate=0.2"] and "degr_calibrated" not in rows["natural"]

"""The studies (issue 5): what they need beyond the runner (natural typos, Lin's
breakdowns by relation group, preposition and genre, the bounds check), and a
CI-sized run of every studies/*.toml whose report must be complete."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES, ROOT, needs
from robust_values import rows_value
from study_runs import EXPECTED, STUDIES

from parsebench.common.errors import InputError
from parsebench.formats.conllu import read_conllu
from parsebench.metrics.dependency.evaluate import DepsOptions, score_deps
from parsebench.metrics.robustness.bigert_records import RowsFigures
from parsebench.metrics.robustness.bigert_shown import _bounds_check
from parsebench.model.scored import Scored
from parsebench.parsers.executor import Executor
from parsebench.run.corpus import corrected_typos
from parsebench.run.experiment import Level, load
from parsebench.run.runner import run_experiment
from parsebench.store import Store

TYPOS = FIXTURES / "typos.conllu"


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


def test_every_study_has_its_expectations_and_is_run_once() -> None:
    assert sorted(p.stem for p in STUDIES.glob("*.toml")) == sorted(EXPECTED)
    runs = [n for f in (ROOT / "tests" / "studies").glob("test_*.py")
            for n in re.findall(r'^    "([\w-]+)",', f.read_text(encoding="utf-8"), re.M)]
    assert sorted(runs) == sorted(EXPECTED)


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

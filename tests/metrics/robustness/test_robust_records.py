"""The robustness methods' values are records (Bigert et al.'s rows, Kakkonen's
sentences, Hashemi & Hwa's robustness F1): a run's values read back from their JSON to
equal records, whose JSON is the run's byte for byte, key order included, in the corner
cases whose keys come in another order too."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from conftest import FIXTURES
from experiments import write_exp

from parsebench.formats.conllu import read_conllu
from parsebench.metrics.registry import METHODS
from parsebench.metrics.robustness.bigert_records import RowsFigures
from parsebench.metrics.robustness.bigert_scorer import RowCounts, _not_applicable, rows_figures
from parsebench.metrics.robustness.hashemi_hwa import F1Corrected, F1Levels, F1Value
from parsebench.metrics.robustness.kakkonen import SentenceScores, SentencesValue, Tally
from parsebench.model.parses import from_sentence
from parsebench.parsers.executor import Executor
from parsebench.run.experiment import load
from parsebench.run.runner import run_experiment
from parsebench.store import Store

LEARNER = FIXTURES / "learner.conllu"
PARSER = '[[parsers]]\nname = "p"\nspec = "python:toy_parsers:WeakWord"\naccuracy = 0.9\n'


def _values(tmp: Path, name: str, body: str) -> list[tuple[str, dict]]:
    exp = write_exp(tmp, f'[corpus]\npath = "{LEARNER}"\n' + body, name)
    sys.path.insert(0, str(FIXTURES))
    with Store(tmp / f"{name}.sqlite") as store:
        out = run_experiment(load(exp), store, Executor("local", 1))
    return [(r.method, r.to_dict()["value"]) for r in out.results
            if r.method in ("rows", "sentences", "f1")]


def _round_trip(method: str, value: dict) -> object:
    rec = METHODS[method].value_type.from_dict(json.loads(json.dumps(value)))
    assert json.dumps(rec.to_dict()) == json.dumps(value), method
    assert type(rec).from_dict(rec.to_dict()) == rec
    return rec


def test_a_runs_values_are_their_records_json(tmp_path: Path) -> None:
    got = _values(tmp_path, "spelling", '[noise]\nrates = [0.1]\nreplicates = 2\nseed = 3\n'
                  + PARSER + '[metrics]\ndeps = false\nrows = ["head+deprel", "head"]\n'
                  'sentences = true\n')
    got += _values(tmp_path, "one", '[noise]\nrates = [0.1]\nreplicates = 1\n' + PARSER
                   + '[metrics]\ndeps = false\nrows = ["head+deprel"]\n')
    got += _values(tmp_path, "grammar", '[noise]\nkind = "grammar"\nper_sentence = [1]\n'
                   'types = ["M:DET", "R:WO"]\n' + PARSER + '[metrics]\ndeps = false\n')
    got += _values(tmp_path, "corrected", f'corrected = "{LEARNER}"\n' + PARSER
                   + '[metrics]\ndeps = false\n')
    kinds = {type(_round_trip(m, v)) for m, v in got}
    assert kinds == {RowsFigures, SentencesValue, F1Levels, F1Corrected}
    assert all(issubclass(k, F1Value) for k in kinds if k.__name__.startswith("F1"))


def test_the_rows_of_a_projection_not_carried_keep_their_key_order() -> None:
    clean = [from_sentence(s) for s in read_conllu(LEARNER)]
    value = {**_not_applicable(clean, "xpos", "p:clean"), "error_level_label": "10%"}
    assert list(RowsFigures.from_dict(value).to_dict()) == list(value)


def test_the_rows_of_a_file_none_of_whose_rows_was_compared_keep_their_key_order() -> None:
    c = RowCounts(rows=4, misspelled=1, agree_0n=4, failed=[1, 1, 4])
    value = {**rows_figures(c, 0.9, "noisy", "clean"), "stats": {"differs": [[4, 0]]},
             "ci95": {"differs": None}, "error_level_label": "10%"}
    assert value["differs"] is None
    assert list(RowsFigures.from_dict(value).to_dict()) == list(value)


def test_sentences_without_heads_keep_their_statistics_after_the_warnings() -> None:
    s = SentenceScores(structure=False, labels=False)
    s.by_errors[1] = Tally(3, 0, 0, 0)
    value = s.as_dict()
    value["stats"] = {"all pairs": [[1, 0, 0]]}
    value["error_level_label"] = "10%"
    assert list(value)[-3:] == ["warnings", "stats", "error_level_label"]
    rec = SentencesValue.from_dict(value)
    assert json.dumps(rec.to_dict()) == json.dumps(value)


def test_the_summary_and_the_degradation_read_the_records_figures(tmp_path: Path) -> None:
    """The summary names the error types with the lowest robustness F1 from the f1
    record's types (their F1, interval and sentences), and the rows' intervals and the
    sentences they resample come from the rows record, as the stored JSON has them."""
    from parsebench.report.summary import summarize

    exp = write_exp(tmp_path, f'[corpus]\npath = "{LEARNER}"\n[noise]\nkind = "grammar"\n'
                    'per_sentence = [1]\ntypes = ["M:DET", "R:WO"]\n' + PARSER
                    + '[metrics]\ndeps = false\n', "grammar")
    sys.path.insert(0, str(FIXTURES))
    with Store(tmp_path / "g.sqlite") as store:
        results = run_experiment(load(exp), store, Executor("local", 1)).results
    f1 = next(r.value for r in results if r.method == "f1" and isinstance(r.value, F1Levels))
    hurt = next(h for h in summarize(results).hurts if h.figure == "robustness F1 by error type")
    assert hurt.types and set(hurt.types) <= set(f1.by_type)
    t = f1.by_type[hurt.types[0]]
    assert f"{hurt.types[0]} {100 * t.f1:.1f}" in hurt.sentence
    assert f"({t.sentences} sentences)" in hurt.sentence
    assert f1.f1_ci95 == f1.to_dict()["ci95"]["f1"]
    exp = write_exp(tmp_path, f'[corpus]\npath = "{LEARNER}"\n[noise]\nrates = [0.1]\n'
                    'replicates = 2\n' + PARSER + '[metrics]\ndeps = false\n', "spelling")
    with Store(tmp_path / "s.sqlite") as store:
        results = run_experiment(load(exp), store, Executor("local", 1)).results
    rows = next(r.value for r in results if r.method == "rows" and r.level != "clean")
    assert isinstance(rows, RowsFigures) and rows.stats is not None
    assert rows.differs_ci95 == rows.to_dict()["ci95"]["differs"]
    assert rows.sentences_resampled == len(rows.stats["differs"]) > 0

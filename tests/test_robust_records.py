"""The robustness methods' values are records (Bigert et al.'s rows, Kakkonen's
sentences, Hashemi & Hwa's robustness F1): a run's values read back from their JSON to
equal records, whose JSON is the run's byte for byte, key order included, in the corner
cases whose keys come in another order too."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from conftest import FIXTURES
from test_experiment import write_exp

from parsebench.formats.conllu import read_conllu
from parsebench.metrics.registry import METHODS
from parsebench.metrics.robustness.bigert import (
    RowCounts,
    RowsFigures,
    _not_applicable,
    rows_figures,
)
from parsebench.metrics.robustness.hashemi_hwa import F1Corrected, F1Levels, F1Value
from parsebench.metrics.robustness.kakkonen import SentenceScores, SentencesValue, Tally
from parsebench.parsers.executor import Executor
from parsebench.parses import from_sentence
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

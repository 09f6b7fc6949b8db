"""The one interface of a run's methods: each sentence's statistics, pooled once over the
replicates for every method, breakdowns kept as keyed statistics in the store, and every
figure re-aggregated from what the store keeps."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import FIXTURES, ROOT
from experiments import gold_file as _gold
from experiments import write_exp
from hypothesis import given, settings
from hypothesis import strategies as st

from parsebench.metrics.core.method import LevelStats
from parsebench.metrics.registry import METHODS, columns_of
from parsebench.parsers.executor import Executor
from parsebench.run.experiment import load
from parsebench.run.runner import run_experiment
from parsebench.store import Store

SRC = ROOT / "src" / "parsebench"

_sentence = st.dictionaries(
    st.sampled_from(["a", "b", "g=x", "g=y", "g=z"]),
    st.tuples(*[st.integers(0, 50)] * 3), max_size=5)


@given(st.lists(st.lists(_sentence, min_size=4, max_size=4), min_size=1, max_size=4))
@settings(max_examples=60, deadline=None)
def test_pooled_rows_and_keyed_rows_sum_to_the_totals(reps: list[list[dict]]) -> None:
    t = LevelStats()
    for rows in reps:
        t.add_replicate(rows)
    assert t.replicates == len(reps)
    stored = t.stored()
    for name in t.names():
        want = np.sum([r[name] for rows in reps for r in rows if name in r], axis=0)
        assert np.array_equal(np.sum(stored[name], axis=0), want)
        assert len(stored[name]) == 4  # one row a sentence, however many replicates
        for k in range(4):  # a sentence's rows summed over its replicates
            assert stored[name][k] == [float(sum(rows[k].get(name, (0, 0, 0))[i]
                                                 for rows in reps)) for i in range(3)]
    for key in t.names("g"):
        rows = [r[2:] for r in stored["g"] if r[1] == key]
        assert np.array_equal(np.sum(rows, axis=0), t.sums(f"g={key}"))
        assert rows == t.held(f"g={key}")
        # a key's row is stored only for the sentences that hold it
        assert all(any(f"g={key}" in rows[r[0]] for rows in reps)
                   for r in stored["g"] if r[1] == key)
    for r in range(len(reps)):  # each replicate's sums, for figures that are a mean
        for name in t.names():
            want = np.sum([x[name] for x in reps[r] if name in x] or [[0, 0, 0]], axis=0)
            assert np.array_equal(t.sums(name, r), want)


def test_scoring_has_no_function_of_its_own_for_a_method() -> None:
    """run/score.py loops over the registry: no method's name in it, no per-method code."""
    text = (SRC / "run" / "score.py").read_text(encoding="utf-8")
    defs = [n.name for n in ast.walk(ast.parse(text)) if isinstance(n, ast.FunctionDef)]
    for m in METHODS:
        assert f'"{m}"' not in text
        assert not any(m in d.split("_") for d in defs), defs
    assert "kind ==" not in text


def _run(tmp: Path, noise: str) -> dict[tuple[str, str, str], dict]:
    gold = _gold(tmp)
    cmd = f'command:"{sys.executable}" {FIXTURES / "fake_parser.py"}'
    exp = write_exp(tmp, f'''
[corpus]
path = "{gold}"
[noise]
{noise}
replicates = 2
lexicon = "{FIXTURES / 'lexicon.txt'}"
[[parsers]]
name = "chain"
spec = '{cmd}'
[metrics]
rows = ["head+deprel"]
sentences = true
deps = ["deprel", "upos"]
f1 = true
''')
    with Store(tmp / "s.sqlite") as store:
        run_experiment(load(exp), store, Executor("local", 1))
        return {(r.metric, r.projection, r.level): r.value
                for r in store.results("exp")}


def test_every_breakdown_is_keyed_statistics_that_give_its_figures(tmp_path: Path) -> None:
    res = _run(tmp_path, "per_sentence = [1]")
    level = "per-sentence=1"
    deps = res[("deps", "deprel", level)]
    # every CoNLL 2018 metric and Lin's counts are kept a sentence, not only LAS's
    for k in ("uas", "las", "clas", "upos", "unlabeled", "labeled"):
        assert len(deps["stats"][k]) == len(deps["stats"]["las"])
        assert columns_of("deps", k)
    c, g, s = np.sum(deps["stats"]["las"], axis=0)
    assert 2 * c / (g + s) == deps["las"]["f1"]
    for f in ("arc-length", "sentence-length"):
        rows = deps["stats"][f]
        assert columns_of("deps", f)[:2] == ["sentence", "group"]
        for group, fig in deps["breakdowns"][f].items():
            lab = np.sum([r[6:] for r in rows if r[1] == group], axis=0)
            assert fig["labeled"]["key"] == lab[0]
            assert fig["labeled"]["matched"] == lab[2]
    rows_r = res[("rows", "head+deprel", level)]
    spread = rows_r["stats"]["spread"]
    for d, fig in rows_r["spread"].items():
        if fig["rows"]:
            assert fig["rows"]["mean"] == sum(r[2] for r in spread if r[1] == d) / 2
    kak = res[("sentences", "deps", level)]
    for e, fig in kak["by_errors"].items():
        assert fig["sentences"] == sum(r[2] for r in kak["stats"]["errors"] if r[1] == e)


def test_learner_errors_breakdowns_by_type_are_keyed_statistics(tmp_path: Path) -> None:
    res = _run(tmp_path, 'kind = "grammar"\nper_sentence = [1]')
    f1 = res[("f1", "deps", "per-sentence=1")]
    assert f1["by_type"]
    for t, fig in f1["by_type"].items():
        held = [r for r in f1["stats"]["by_type"] if r[1] == t]
        assert fig["sentences"] == sum(r[2 + 5] for r in held)
        assert fig["shared"] == sum(r[2] for r in held)
    for op, fig in f1["by_operation"].items():
        assert fig["sentences"] == sum(r[2] for r in f1["stats"]["by_operation"] if r[1] == op)


def test_a_level_is_scored_against_the_gold_in_one_pass(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Its replicates one after the other, as before the one interface: the level's
    warnings (another scheme, trees that are not trees, with their counts) are counted
    over all of them once, not repeated with other counts once a replicate."""
    from parsebench.metrics.dependency import settings as deps_scoring

    calls: list[int] = []
    real = deps_scoring.score_deps

    def counted(gold: list, system: list, options: object = None) -> object:
        calls.append(len(gold))
        return real(gold, system, options)  # type: ignore[arg-type]

    monkeypatch.setattr(deps_scoring, "score_deps", counted)
    res = _run(tmp_path, "per_sentence = [1]")
    n = res[("deps", "deprel", "clean")]["gold_sentences"]
    assert calls == [n, 2 * n]  # the clean text, then the level's two replicates at once
    assert res[("deps", "deprel", "per-sentence=1")]["gold_sentences"] == 2 * n

"""A run's statistics are records (parsebench.run.run_stats): the runner's and the
benchmark's read back from the store to equal records whose JSON is the stored one byte
for byte, key order included; a run record of an earlier release, which lacks the keys
added since, reads back too, and the report writes it out as it was."""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

import pytest
from conftest import FIXTURES
from experiments import write_exp

from parsebench.common.errors import InputError
from parsebench.parsers.executor import Executor
from parsebench.report.pages import RunInfo, write_report
from parsebench.run.experiment import load
from parsebench.run.run_stats import BenchmarkStats, ParserStats, RunStats, TrainedStats
from parsebench.run.runner import run_experiment
from parsebench.store import Store

BODY = (f'[corpus]\npath = "{FIXTURES / "learner.conllu"}"\n[noise]\nrates = [0.1]\n'
        'replicates = 1\n[[parsers]]\nname = "p"\nspec = "python:toy_parsers:WeakWord"\n'
        'accuracy = 0.9\n[[parsers]]\nname = "q"\nspec = "python:toy_parsers:WeakWord"\n'
        'accuracy = 0.7\n[metrics]\ndeps = true\n')


def _stored(store: Path) -> list[str]:
    with sqlite3.connect(store) as db:
        return [s for (s,) in db.execute("SELECT stats FROM runs ORDER BY id")]


@pytest.fixture
def store(tmp_path: Path) -> Path:
    """A store with two runs of the same experiment (the second takes every parse from
    the cache and reuses the scores)."""
    sys.path.insert(0, str(FIXTURES))
    exp = load(write_exp(tmp_path, BODY, "small"))
    path = tmp_path / "s.sqlite"
    with Store(path) as st:
        for _ in range(2):
            out = run_experiment(exp, st, Executor("local", 1))
            assert isinstance(out.stats, RunStats)
    return path


def test_a_runs_stats_read_back_as_their_record(store: Path) -> None:
    texts = _stored(store)
    assert len(texts) == 2
    for text in texts:
        rec = RunStats.from_dict(json.loads(text))
        assert json.dumps(rec.to_dict()) == text
        assert RunStats.from_dict(rec.to_dict()) == rec
        assert list(rec.parsers) == ["p", "q"]
        assert all(isinstance(p, ParserStats) and p.trained is None
                   for p in rec.parsers.values())
    first, second = (RunStats.from_dict(json.loads(t)) for t in texts)
    assert first.parsed > 0 and first.scores_reused == []
    assert second.parsed == 0 and second.scores_reused == ["p", "q"]
    assert all(p.cache_hits == p.distinct_sentences for p in second.parsers.values())
    with Store(store) as st:
        info = RunInfo.from_dict(st.run_info(2))
    assert isinstance(info.stats, RunStats) and info.stats == second


def test_an_earlier_releases_run_record_reads_and_writes_as_it_was(store: Path,
                                                                   tmp_path: Path) -> None:
    """The keys a run wrote before scores were reused, the corpus named and the stages
    timed are absent from its record: the report reads it and results.json's ``run``
    keeps it byte for byte (without them, not with nulls)."""
    old = json.loads(_stored(store)[1])
    for k in ("scoring", "corpus", "scores_reused", "stages"):
        del old[k]
    text = json.dumps(old)
    with sqlite3.connect(store) as db:
        db.execute("UPDATE runs SET stats=? WHERE id=2", (text,))
    rec = RunStats.from_dict(old)
    assert rec.scoring is None and rec.stages is None
    assert json.dumps(rec.to_dict()) == text
    with Store(store) as st:
        files = write_report(st, tmp_path / "rep")
    run = json.loads(files["json"].read_text(encoding="utf-8"))[0]["run"]
    assert json.dumps(run["stats"]) == text
    assert [e["id"] for e in run["earlier"]] == [1]
    assert "p: distinct sentences, cache hits" in files["markdown"].read_text()


def test_a_crafted_run_record_is_refused_in_one_line(store: Path, tmp_path: Path) -> None:
    """A run record with a key no release wrote is a damaged store, not a silent gap."""
    bad = json.loads(_stored(store)[1]) | {"speed": 1}
    with sqlite3.connect(store) as db:
        db.execute("UPDATE runs SET stats=? WHERE id=2", (json.dumps(bad),))
    with Store(store) as st, pytest.raises(InputError, match="cannot be read"):
        write_report(st, tmp_path / "rep")
    assert not (tmp_path / "rep").exists()


def test_the_trained_and_benchmark_records_round_trip() -> None:
    """The shapes a small run above does not make: a parser trained here (with and
    without its own iterations) and a benchmark's run, as the runners write them."""
    for iterations in (1, None):
        t = TrainedStats("train.conllu", 40, 2.5, "ab12", iterations)
        assert list(t.to_dict()) == ["train", "sentences", "seconds", "key", "iterations"]
        ps = ParserStats("k", {"name": "udpipe"}, "deps", 10, 4, 30, 60, 0.5, 0.7, t)
        assert ParserStats.from_dict(json.loads(json.dumps(ps.to_dict()))) == ps
    b = BenchmarkStats(3.5, "local", 1, {"en_a": 1, "en_b": 2}, 12)
    text = json.dumps(b.to_dict())
    assert list(json.loads(text)) == ["wall_seconds", "executor", "workers", "runs", "parsed"]
    info = {"id": 3, "experiment": "b", "config": {}, "started": 1.0, "finished": 2.0,
            "parsed": 0, "cached": 0, "stats": json.loads(text)}
    assert RunInfo.from_dict(info).stats == b  # not an experiment's run

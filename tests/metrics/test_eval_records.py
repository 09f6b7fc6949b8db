"""The records of ``eval deps``, ``eval brackets`` and ``eval flat``: each result holds
the record its JSON is (key for key, in the command's order), a record read back from
that JSON is the same record, and the command shares its figures' records with a run's
result of the same method."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import DATA, FIXTURES

import parsebench as pb
from parsebench.common.record import Record
from parsebench.metrics.constituency.evalb_scorer import BracketsEval, EvalbTotals
from parsebench.metrics.constituency.gaizauskas_records import FlatEval, FlatScores, FlatValue
from parsebench.metrics.dependency.figures import (
    AlignmentCounts,
    Bucket,
    Confusion,
    DepsEval,
    DepsScores,
    DepsValue,
    ValidityCounts,
)
from parsebench.model.results import Result

KEY, ANSWER = DATA / "lin-key.conllu", DATA / "lin-answer.conllu"
GOLD_TREES, TEST_TREES = DATA / "demo-gold.mrg", DATA / "demo-test.mrg"
UDEVAL = FIXTURES / "udeval"


def _is_its_json(r: Result, rtype: type[Record]) -> Record:
    """R holds a record of RTYPE whose JSON is R's, and that JSON reads back to it."""
    rec = r.record
    assert isinstance(rec, rtype)
    assert json.dumps(rec.to_dict(), indent=2) + "\n" == r.to_json()  # the order too
    assert rtype.from_dict(r.to_dict()) == rec
    assert rtype.from_dict(rec.to_dict()).to_dict() == r.to_dict()
    return rec


def _other_words() -> pb.Treebank:
    sentences = list(pb.Treebank.read(ANSWER))
    first = sentences[0]
    forms = [f + "x" if i == 1 else f for i, f in enumerate(first.forms)]
    return pb.Treebank([replace(first, forms=forms), *sentences[1:]], "other.conllu")


@pytest.mark.parametrize("options", [
    {}, {"select": "deprel=obj1,obj2"}, {"by": "deprel"}, {"by": "arc-length"},
    {"by": "category"}, {"confusion": "deprel"}, {"punct": False}, {"counts": True}])
def test_eval_deps_is_its_record(options: dict[str, object]) -> None:
    r = pb.evaluate_deps(KEY, ANSWER, **options)  # type: ignore[arg-type]
    rec = _is_its_json(r, DepsEval)
    assert isinstance(rec, DepsEval)
    assert rec.signature == r.signature and rec.validity.sentences > 0
    assert (rec.by is not None) == ("by" in options)
    assert (rec.confusion is not None) == ("confusion" in options)
    assert isinstance(rec.confusion, Confusion | None)
    assert all(isinstance(b, Bucket) for b in (rec.by or {}).values())
    assert rec.las.f1 == r.las.f1 and rec.unlabeled.precision == r.unlabeled.precision


def test_eval_deps_over_aligned_words_and_enhanced_graphs() -> None:
    r = pb.evaluate_deps(pb.Treebank.read(KEY), _other_words(), align="words")
    rec = _is_its_json(r, DepsEval)
    assert isinstance(rec, DepsEval) and isinstance(rec.alignment, AlignmentCounts)
    assert rec.alignment.substituted == 1
    assert list(r.to_dict())[-3:] == ["alignment", "validity", "signature"]
    r = pb.evaluate_deps(UDEVAL / "relative-clause.conllu",
                         UDEVAL / "relative-clause-basic.conllu", enhancements="12")
    rec = _is_its_json(r, DepsEval)
    assert isinstance(rec, DepsEval) and rec.enhancements == "12" and rec.alignment is None


def test_a_taggers_output_reads_back_with_its_na() -> None:
    tags = pb.Treebank([replace(s, heads=[-1] * len(s), deprels=["_"] * len(s))
                        for s in pb.Treebank.read(KEY)], "tags.conllu")
    for counts in (False, True):
        rec = _is_its_json(pb.evaluate_deps(pb.Treebank.read(KEY), tags, counts=counts),
                           DepsEval)
        assert isinstance(rec, DepsEval) and rec.uas.f1 is None and rec.ucm.accuracy is None
        assert "n/a" in str(pb.evaluate_deps(pb.Treebank.read(KEY), tags, counts=counts))


def test_the_command_and_the_run_share_the_figures_records() -> None:
    """DepsEval and DepsValue differ only in the keys the command and the run differ in;
    FlatEval and FlatValue share FlatScores."""
    def names(t: type) -> list[str]:
        return [f.name for f in dataclasses.fields(t)]

    scores = names(DepsScores)
    assert names(DepsEval)[:len(scores)] == scores
    assert names(DepsValue)[:len(scores)] == scores
    assert names(DepsEval)[len(scores):] == ["alignment", "validity", "signature"]
    assert dataclasses.fields(DepsEval)[-2].type == dataclasses.fields(DepsValue)[
        len(scores)].type == "ValidityCounts"
    assert issubclass(FlatEval, FlatScores) and issubclass(FlatValue, FlatScores)
    assert names(FlatEval) == [*names(FlatScores), "signature"]
    assert ValidityCounts.from_dict(pb.evaluate_deps(KEY, ANSWER).to_dict()["validity"])


@pytest.mark.parametrize("prm", [None, "MAX_ERROR 2\n"])
def test_eval_brackets_is_its_record(tmp_path: Path, prm: str | None) -> None:
    if prm is None:
        r = pb.evaluate_brackets(GOLD_TREES, TEST_TREES)
    else:  # EVALB gives up: no totals, ``aborted`` last
        gold, test, p = tmp_path / "g", tmp_path / "t", tmp_path / "p.prm"
        gold.write_text("(S (A a))\n" * 6)
        test.write_text("(S (A a))\n" + "(S (A b))\n" * 5)
        p.write_text(prm)
        r = pb.evaluate_brackets(gold, test, p)
    rec = _is_its_json(r, BracketsEval)
    assert isinstance(rec, BracketsEval)
    if prm is None:
        assert isinstance(rec.all, EvalbTotals) and isinstance(rec.len40, EvalbTotals)
        assert rec.aborted is None and rec.all.bracketing_fmeasure == r.all.value
    else:
        assert rec.all is None and rec.aborted is True
        assert list(r.to_dict()) == ["cutoff_len", "rows", "messages", "signature", "aborted"]


@pytest.mark.parametrize("options", [{}, {"categories": "NP,VP", "max_depth": 2},
                                     {"categories": "NONE"}])
def test_eval_flat_is_its_record(options: dict[str, object]) -> None:
    r = pb.evaluate_flat(GOLD_TREES, TEST_TREES, **options)  # type: ignore[arg-type]
    rec = _is_its_json(r, FlatEval)
    assert isinstance(rec, FlatEval) and rec.signature == r.signature
    assert f"{rec.key_constituents:7d}" in str(r)
    if "NONE" in str(options.get("categories")):
        assert rec.recall is None and "n/a" in str(r)

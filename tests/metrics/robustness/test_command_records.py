"""The robustness commands' objects are records (``robustness rows``, ``sentences``,
``f1``): each command's JSON reads back to an equal record whose JSON is the command's
byte for byte, key order included, in the corners where a key is null rather than
absent; the terminal tables read the records."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES

import parsebench as pb
from parsebench.common.record import Record
from parsebench.formats.conllu import read_conllu, write_conllu
from parsebench.metrics.robustness.bigert_records import RowsCommand, SpreadCell
from parsebench.metrics.robustness.hashemi_hwa import F1Command
from parsebench.metrics.robustness.kakkonen import SentencesCommand


def _write(sents: list[Any], path: Path) -> Path:
    with path.open("w", encoding="utf-8") as fh:
        write_conllu(sents, fh)
    return path


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The learner fixture as gold and clean parse, two noisy parses of it (misspelled
    words, some heads and relations changed) and a tagger's output of one of them."""
    tmp = tmp_path_factory.mktemp("cmds")
    gold = _write(read_conllu(FIXTURES / "learner.conllu") * 2, tmp / "gold.conllu")
    out = {"gold": gold}
    for seed in (1, 2):
        rng = random.Random(seed)
        sents = read_conllu(gold)
        for s in sents:
            for k in range(len(s)):
                if rng.random() < 0.15 and len(s.forms[k]) > 2:
                    s.forms[k] = s.forms[k][1:]
                if rng.random() < 0.15:
                    s.heads[k] = 0 if s.heads[k] != 0 else (k + 2) % len(s) or 1
                if rng.random() < 0.05:
                    s.deprels[k] = "dep"
        out[f"noisy{seed}"] = _write(sents, tmp / f"noisy{seed}.conllu")
    tags = read_conllu(out["noisy1"])
    for s in tags:
        s.heads, s.deprels = [-1] * len(s), ["_"] * len(s)
    out["tags"] = _write(tags, tmp / "tags.conllu")
    return out


def _round_trip(cls: type[Record], r: pb.Result) -> Any:
    text = r.to_json()
    rec = cls.from_dict(json.loads(text))
    assert json.dumps(rec.to_dict(), indent=2) + "\n" == text
    assert cls.from_dict(rec.to_dict()) == rec
    return rec


def test_rows_objects_are_records(files: dict[str, Path]) -> None:
    g, n1, n2 = files["gold"], files["noisy1"], files["noisy2"]
    cases = [pb.robustness_rows(g, [n1], accuracy=0.9),
             pb.robustness_rows(g, [n1], gold=g),
             pb.robustness_rows(g, [n1, n2], gold=g),
             pb.robustness_rows(g, [n1], gold=g, calibrate_gold=g, calibrate_clean=g,
                                calibrate_noisy=[n2]),
             pb.robustness_rows(g, [n1, n2], calibrate_gold=g, calibrate_clean=g,
                                calibrate_noisy=[n2, n1]),
             pb.robustness_rows(files["tags"], [files["tags"]], accuracy=0.9,
                                project="head")]
    recs = [_round_trip(RowsCommand, r) for r in cases]
    assert recs[0].acr_given == 0.9 and recs[1].gold is not None
    assert all(isinstance(c, SpreadCell) for c in recs[2].spread.values())
    assert recs[-1].not_applicable and recs[-1].spread == {}
    assert str(cases[2]).startswith("Robustness of ")


def test_a_spread_cell_with_the_gold_and_no_change_keeps_its_null_share() -> None:
    """With the gold, a distance none of whose rows changed has a clean accuracy of the
    changed rows that is n/a: a null key, not a missing one."""
    cell = {"rows": 4, "changed": 0, "share_of_changes": 0.0, "changed_rate": 0.0,
            "changed_clean_accuracy": None, "changed_clean_correct": 0}
    assert json.dumps(SpreadCell.from_dict(cell).to_dict()) == json.dumps(cell)
    without = {k: cell[k] for k in ("rows", "changed", "share_of_changes", "changed_rate")}
    assert SpreadCell.from_dict(without).to_dict() == without


def test_sentences_objects_are_records(files: dict[str, Path]) -> None:
    g, n1, n2 = files["gold"], files["noisy1"], files["noisy2"]
    for r in (pb.robustness_sentences(g, [n1]), pb.robustness_sentences(g, [n1, n2]),
              pb.robustness_sentences(files["tags"], [files["tags"]])):
        rec = _round_trip(SentencesCommand, r)
        assert rec.signature == r.signature


def test_f1_objects_are_records(files: dict[str, Path]) -> None:
    g, n1 = files["gold"], files["noisy1"]
    plain = _round_trip(F1Command, pb.robustness_f1(g, n1))
    assert plain.accuracy is None and plain.ci95.clean_las is None
    with_gold = _round_trip(F1Command, pb.robustness_f1(g, n1, gold=g))
    assert with_gold.accuracy is not None and with_gold.ci95.noisy_las is not None
    # one side without heads: n/a, the attachment's intervals null keys beside the gold's
    na = pb.robustness_f1(g, files["tags"], gold=g)
    rec = _round_trip(F1Command, na)
    assert rec.f1 is None and rec.warnings
    assert list(na.to_dict()["ci95"]) == ["precision", "recall", "f1", "clean_uas",
                                          "clean_las", "noisy_uas", "noisy_las"]


def test_over_replicates_the_verdicts_are_the_share_of_replicates(
        files: dict[str, Path]) -> None:
    """Over replicates, whether the real degradation is within the bounds (and whether
    Appendix A's condition holds) is the share of files where it is: one file of two
    read "yes"."""
    from dataclasses import replace

    from parsebench.metrics.robustness.bigert_shown import rows_table

    g, n1, n2 = files["gold"], files["noisy1"], files["noisy2"]
    rec = RowsCommand.from_dict(pb.robustness_rows(g, [n1, n2], gold=g).to_dict())
    assert rec.gold is not None
    half = replace(rec, gold=replace(rec.gold, within_bounds=0.5, assumption=replace(
        rec.gold.assumption, condition_holds=0.0)))
    text = rows_table(half, str(g), [str(n1), str(n2)], "head+deprel")
    assert "real degradation within the bounds: 50% of replicates" in text
    assert "x_aab >= 3 x_aba + x_abc: 0% of replicates" in text
    one = pb.robustness_rows(g, [n1], gold=g)
    verdict = "yes" if one.to_dict()["gold"]["within_bounds"] else "no"
    assert f"real degradation within the bounds: {verdict}\n" in str(one)


def test_compare_objects_are_records(files: dict[str, Path]) -> None:
    """compare's object, with the scoring options' findings in each system and a
    Treebank named as itself, reads back to an equal record and prints from it."""
    from parsebench.metrics.compare import Comparison, compare_table
    from parsebench.model.treebank import Treebank

    g, n1, n2 = files["gold"], files["noisy1"], files["noisy2"]
    bank = Treebank.from_sentences(read_conllu(n2), name="my-parser")
    cases = [pb.compare(g, [n1], samples=50),
             pb.compare(g, [n1, bank, files["tags"]], samples=50, all_pairs=True),
             pb.compare(g, [n1, n2], samples=50, metric="ucm", test="randomization"),
             pb.compare(g, [n1, n2], samples=50, align="words", invalid="zero")]
    recs = [_round_trip(Comparison, r) for r in cases]
    assert recs[0].pairs == [] and recs[0].signature == cases[0].signature
    assert [s.file for s in recs[1].systems][1] == "my-parser"
    assert recs[1].systems[2].score is None and len(recs[1].pairs) == 3
    assert recs[3].align == "words" and recs[3].systems[1].validity is not None
    assert recs[3].systems[1].alignment is not None
    assert str(cases[3]) == compare_table(recs[3]) + f"\nsignature: {recs[3].signature}\n"

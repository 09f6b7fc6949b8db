"""``eval deps --invalid warn|error|zero``: what a system sentence that is not a tree gets."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import parsebench as pb
from parsebench.common.errors import InputError
from parsebench.formats.conllu import Sentence, parse_conllu
from parsebench.metrics.dependency.validity import Validity


def conll(*sentences: list[tuple[str, int | str, str]]) -> str:
    out = []
    for rows in sentences:
        for i, (form, head, rel) in enumerate(rows, 1):
            out.append(f"{i}\t{form}\t_\tX\t_\t_\t{head}\t{rel}\t_\t_")
        out.append("")
    return "\n".join(out) + "\n"


GOLD = conll([("a", 2, "det"), ("dog", 3, "nsubj"), ("barks", 0, "root")],
             [("cats", 2, "nsubj"), ("purr", 0, "root")],
             [("it", 2, "nsubj"), ("rains", 0, "root"), ("now", 2, "advmod")])
# sentence 1: a cycle (barks -> a -> dog -> barks), "a" and "dog" right; sentence 2: a
# cycle (purr <-> cats), "cats" right; sentence 3: two roots, "it" and "rains" right
SYSTEM = conll([("a", 2, "det"), ("dog", 3, "nsubj"), ("barks", 1, "dep")],
               [("cats", 2, "nsubj"), ("purr", 1, "dep")],
               [("it", 2, "nsubj"), ("rains", 0, "root"), ("now", 0, "root")])


def sents(text: str) -> list[Sentence]:
    return parse_conllu(text.splitlines())


def las(invalid: str, **kw: bool) -> dict[str, object]:
    return pb.evaluate_deps(pb.Treebank(sents(GOLD), "gold"), pb.Treebank(sents(SYSTEM), "sys"),
                            invalid=invalid, **kw).to_dict()


def test_validity_counts_each_fault() -> None:
    # barks -> a -> dog -> barks: no root and a cycle
    v = Validity()
    for s in sents(SYSTEM):
        v.check(s)
    assert v.as_dict() == {"sentences": 3, "invalid": 3, "cycles": 2, "no_root": 2,
                           "multiple_roots": 1, "bad_heads": 0, "policy": "warn"}


def test_warn_scores_invalid_trees_as_they_are() -> None:
    d = las("warn")
    # right: a, dog (sentence 1), cats (2), it, rains (3): 5 of 8 words
    assert d["uas"]["recall"] == 5 / 8
    assert d["validity"]["invalid"] == 3


def test_zero_gives_the_valid_sentences_words_over_all_words() -> None:
    d = las("zero", multiple_roots_okay=True)
    # only sentence 3 is a tree with several roots allowed: its 2 right words over 8
    assert d["uas"]["recall"] == d["las"]["recall"] == 2 / 8
    assert d["uas"]["precision"] == 2 / 8  # the zeroed words stay in the totals
    assert d["validity"] == {"sentences": 3, "invalid": 2, "cycles": 2, "no_root": 2,
                             "multiple_roots": 0, "bad_heads": 0, "policy": "zero"}
    d = las("zero")
    assert d["las"]["recall"] == 0.0  # no sentence is a tree
    assert "invalid:zero" in str(d["signature"])


def test_error_refuses_in_one_line() -> None:
    with pytest.raises(InputError, match=r"not a tree .* --invalid warn or zero"):
        las("error")
    with pytest.raises(InputError, match="--invalid 'none'"):
        las("none")


def test_head_outside_the_sentence_is_no_head() -> None:
    gold = sents(GOLD)[:1]
    bad = sents(GOLD)[:1]
    bad[0].heads = [2, 7, 0]  # 7: outside a sentence of 3 (only in memory)
    # the API refuses it in one line where it takes the Treebank, as the reader refuses
    # it in a file; the policy, given such a sentence, counts it a bad head
    with pytest.raises(InputError, match="HEAD of word 2 is 7"):
        pb.evaluate_deps(pb.Treebank(gold, "g"), pb.Treebank(bad, "s"))
    v = Validity("warn")
    v.check(bad[0])
    assert v.as_dict()["bad_heads"] == 1


def test_unparsed_sentences_are_not_judged() -> None:
    v = Validity("error")
    s = sents(conll([("a", "_", "_"), ("b", "_", "_")]))[0]
    assert v.check(s) is s and v.invalid == 0


def test_cli_invalid(tmp_path: Path) -> None:
    g, s = tmp_path / "gold.conllu", tmp_path / "sys.conllu"
    g.write_text(GOLD)
    s.write_text(SYSTEM)

    def run(*extra: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "parsebench.cli", "eval", "deps",
                               str(g), str(s), *extra], capture_output=True, text=True)

    p = run("--json", "--invalid", "zero", "--multiple-roots-okay")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["las"]["recall"] == 2 / 8
    assert "--invalid zero, the CoNLL 2018 policy" in p.stderr
    p = run()
    assert "Validity: 3 of 3 system sentences are not trees" in p.stdout
    p = run("--invalid", "error")
    assert p.returncode == 2 and p.stdout == "" and p.stderr.count("\n") == 1
    assert f"{s}:1: not a tree" in p.stderr

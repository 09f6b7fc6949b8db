"""Link Grammar's constituent trees (``linkgrammar-trees``): bracketed trees over the input
words with Penn tags from Link Grammar's own word classes, scored by Parseval and by Lin's
dependencies after head-rule conversion."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, needs, shared_path

from parsebench.formats.brackets import parse_tree, read_tree_texts, unescape_word
from parsebench.model.parses import blank
from parsebench.parsers.base import Analysis
from parsebench.parsers.linkgrammar import penn_tag
from parsebench.parsers.run import parse_sentences


@pytest.mark.parametrize(("word", "phrase", "tag"), [
    ("board.n-u", "NP", "NN"), ("years.p", "NP", "NNS"), ("Pierre.m", "NP", "NNP"),
    ("sat.v-d", "VP", "VBD"), ("running.v-g", "VP", "VBG"), ("join.v", "VP", "VB"),
    ("said.w-d", "VP", "VBD"), ("old.a", "ADJP", "JJ"), ("bigger.a-c", "ADJP", "JJR"),
    ("quickly.e", "ADVP", "RB"), ("and.j-v", "VP", "CC"), ("will.v", "VP", "MD"),
    ("as.e", "PP", "IN"), ("the", "NP", "DT"), ("with", "PP", "IN"), (",", "S", ","),
    ("[``]", "VP", "``"), ("Vinken[!<CAPITALIZED-WORDS>]", "NP", "NNP"),
    ("3.5[!<NUMBERS>]", "NP", "CD"), ("nonexecutive[!<ADJ-WORDS>].a", "NP", "JJ"),
    ("teh.#the", "NP", "DT"), ("61", "NP", "CD"), ("off", "PRT", "RP"),
    ("xqzt[?]", "VP", "VB"), ("U.S", "NP", "NN"),
])
def test_link_grammar_word_classes_become_penn_tags(word: str, phrase: str, tag: str) -> None:
    assert penn_tag(word, phrase) == tag


def _words(*sentences: str) -> list:  # type: ignore[type-arg]
    return [blank(s.split(), [f"# text = {s}"]) for s in sentences]


def test_trees_keep_every_input_word_in_order() -> None:
    """Link Grammar splits ``U.S.`` and leaves some words out of its linkage; the tree
    still has one leaf per input word, in order, brackets escaped."""
    needs("linkgrammar")
    sents = _words("The U.S. company saw the man with a telescope .",
                   "He said `` no '' ( again ) and ran off -- 3.5 % .",
                   "the cat xqzt sat on teh mat flurbly .",
                   "Pierre Vinken , 61 years old , will join the board as a nonexecutive "
                   "director Nov. 29 .")
    run = parse_sentences(sents, "linkgrammar-trees", timeout=20)
    for s, t in zip(sents, run.timed, strict=True):
        assert isinstance(t.outcome, Analysis) and t.outcome.tree, t.outcome
        tree = parse_tree(t.outcome.tree)
        assert tree.label == "TOP"
        assert [unescape_word(w) for _, w in tree.leaves()] == s.forms
    first = parse_tree(run.timed[0].outcome.tree)  # type: ignore[union-attr]
    assert "(NP (DT the) (NN man))" in str(run.timed[0].outcome.tree)  # type: ignore[union-attr]
    assert first.children


def test_link_grammar_trees_scored_by_parseval_and_by_lin(tmp_path: Path) -> None:
    """On Penn Treebank sentences: EVALB scores every tree (no error sentence), and
    ``eval deps --head-rules`` gives the same numbers as converting first."""
    needs("linkgrammar")
    gold = tmp_path / "gold.mrg"
    texts = read_tree_texts(shared_path("data/ptb-sample-nltk/wsj_0001.mrg"))
    texts += read_tree_texts(shared_path("data/ptb-sample-nltk/wsj_0003.mrg"))
    gold.write_text("\n".join(t.text for t in texts) + "\n", encoding="utf-8")
    cli = [sys.executable, "-m", "parsebench.cli"]
    words = tmp_path / "gold.conllu"
    subprocess.run([*cli, "convert", str(gold), "-o", str(words), "--head-rules", "collins"],
                   check=True, capture_output=True)
    test = tmp_path / "lg.mrg"
    subprocess.run([*cli, "parse", str(words), "-o", str(test), "--parser",
                    "linkgrammar-trees", "--timeout", "20"], check=True, capture_output=True)
    prm = ROOT / "studies" / "lin-argument.prm"  # COLLINS' deletions: -NONE- leaves out
    ev = json.loads(subprocess.run([*cli, "eval", "brackets", str(gold), str(test), "--json",
                                    "--prm", str(prm)],
                                   check=True, capture_output=True, text=True).stdout)
    summary = ev["all"]
    failed = sum(t.text.startswith("(PARSE-FAILED") for t in read_tree_texts(test))
    # a failed sentence (flat, every word tagged X: punctuation no longer deleted) is
    # EVALB's error sentence; every parsed one is scored
    assert summary["error_sentences"] == failed <= 2, (summary, failed)
    assert summary["valid_sentences"] == len(texts) - failed
    assert 0.3 <= summary["bracketing_recall"] <= 0.95, summary
    direct = json.loads(subprocess.run(
        [*cli, "eval", "deps", str(gold), str(test), "--head-rules", "collins", "--json"],
        check=True, capture_output=True, text=True).stdout)
    conv = tmp_path / "lg.conllu"
    subprocess.run([*cli, "convert", str(test), "-o", str(conv), "--head-rules", "collins"],
                   check=True, capture_output=True)
    first = json.loads(subprocess.run([*cli, "eval", "deps", str(words), str(conv), "--json"],
                                      check=True, capture_output=True, text=True).stdout)
    assert direct["uas"] == first["uas"] and direct["labeled"] == first["labeled"]
    assert 0.3 <= direct["uas"]["f1"] <= 0.95

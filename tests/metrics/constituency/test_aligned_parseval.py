"""Parseval through changed sentences and words (Jo, Park & Park 2024): jp-evalb's
tables to the digit, its alignment rules, and answers where jp-evalb stops."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from conftest import FIXTURES, shared_path
from hypothesis import given, settings
from hypothesis import strategies as st

from parsebench.formats.brackets import Tree, TreeText, parse_tree, read_trees
from parsebench.formats.evalb_prm import read_prm
from parsebench.metrics.constituency.aligned_parseval import (
    Rules,
    TreeSpans,
    align_sentences,
    align_words,
    read_sentence,
    score_aligned,
)
from parsebench.metrics.constituency.evalb_scorer import score_bracket_files

JP = FIXTURES / "jp-evalb"
AS_SETS_GAPPED = (31, 1)
"""Sentences of the Penn Treebank sample (3,914) where jp-evalb's -evalb and EVALB differ."""


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "parsebench.cli", *args],
                          capture_output=True, text=True)


def tables(report: str) -> str:
    """The report without its alignment section (jp-evalb has none)."""
    return report.split("\n\n=== Alignment")[0].rstrip("\n") + "\n"


@pytest.mark.parametrize(("flags", "expected"), [([], "proposed.txt"),
                                                 (["--legacy"], "legacy.txt")])
def test_every_row_and_summary_figure_is_jp_evalbs(flags: list[str], expected: str) -> None:
    p = run_cli("eval", "brackets", str(JP / "gold.mrg"), str(JP / "test.mrg"), "--align",
                *flags)
    assert p.returncode == 0, p.stderr
    assert tables(p.stdout) == (JP / expected).read_text()
    assert p.stdout.split("=== Alignment (gold ~ test) ===\n")[1].splitlines() == [
        "   1  gold line 1-2 ~ test line 1: did n't ~ didn't",
        "   3  gold line 4 ~ test line 3-4",
        "   5  gold line 6 ~ test line 6: 5 % ~ 5%"]


def test_the_json_has_the_counts_rows_and_what_was_aligned() -> None:
    p = run_cli("eval", "brackets", str(JP / "gold.mrg"), str(JP / "test.mrg"), "--align",
                "--json")
    got = json.loads(p.stdout)
    assert (got["all"]["matched"], got["all"]["gold_brackets"],
            got["all"]["test_brackets"]) == (22, 28, 28)
    assert got["all"]["bracketing_fmeasure"] == pytest.approx(22 / 28)
    assert [(r["gold_lines"], r["test_lines"]) for r in got["rows"]] == [
        ([1, 2], [1]), ([3], [2]), ([4], [3, 4]), ([5], [5]), ([6], [6])]
    assert got["alignment"][0]["words"] == [{"gold": ["did", "n't"], "test": ["didn't"]}]
    assert got["notes"] == []
    assert got["signature"].startswith("method:jp-evalb|mode:proposed|prm:none|")


def test_where_jp_evalb_stops_ours_scores_and_says_what_it_did() -> None:
    gold = (JP / "gold.mrg").read_text().splitlines()[:4]
    r = score_aligned([TreeText(t, n) for n, t in enumerate(gold, 1)],
                      [TreeText(t, 1) for t in
                       (JP / "test.mrg").read_text().splitlines()[:2]]
                      + [TreeText((JP / "test-empty-constituent.mrg").read_text(), 3)])
    rows = [(x.row.matched, x.row.gold, x.row.test) for x in r.groups]
    # group 3 is "A dog barked ." against itself, its empty S not scored
    assert rows == [(7, 9, 10), (6, 7, 6), (3, 3, 3)]
    assert r.notes == ["group 3: the empty constituent S after word 4 has no word to stand "
                       "on: not scored"]
    assert r.notes[0] in r.report()


def sents(*texts: str) -> list[TreeSpans]:
    return [read_sentence(parse_tree(t), n, Rules()) for n, t in enumerate(texts, 1)]


def test_a_sentence_pairs_when_close_and_the_next_pair_matches() -> None:
    gold = sents("(S (A colour) (B is) (C red))", "(S (A it) (B is))")
    near = sents("(S (A color) (B is) (C red))", "(S (A it) (B is))")
    assert [(g.test, g.gold) for g in align_sentences(near, gold, [])] == \
        [([0], [0]), ([1], [1])]
    far = sents("(S (A colr) (B iz) (C rd))", "(S (A it) (B is))")  # 3 edits in 11
    assert [(g.test, g.gold) for g in align_sentences(far, gold, [])] == \
        [([0], [0]), ([1], [1])]  # a lone mismatch, then the next pair matches


def test_the_shorter_side_takes_sentences_until_the_next_pair_matches() -> None:
    gold = sents("(S (A one) (B two))", "(S (A three))", "(S (A four))", "(S (A end))")
    test = sents("(S (A one) (B two) (C three) (D four))", "(S (A end))")
    assert [(g.test, g.gold) for g in align_sentences(test, gold, [])] == \
        [([0], [0, 1, 2]), ([1], [3])]


def test_the_rest_of_the_longer_file_joins_the_last_group_with_a_note() -> None:
    gold = sents("(S (A one))", "(S (A two))")
    test = sents("(S (A one))", "(S (A two))", "(S (A three))")
    notes: list[str] = []
    assert [(g.test, g.gold) for g in align_sentences(test, gold, notes)] == \
        [([0], [0]), ([1, 2], [1])]
    assert notes == ["test sentences from 3 on have nothing left to align to: joined to "
                     "the last group"]


def test_words_align_by_characters_left() -> None:
    test_of, gold_of, groups = align_words(["I", "didn't", "go", "."],
                                           ["I", "did", "n't", "go", "."], [], "")
    assert (test_of, gold_of) == ([0, 1, 2, 3], [0, 1, 1, 2, 3])
    # the side with more characters left after its word takes the next word
    _, _, groups = align_words(["a", "bc", "d", "e"], ["a", "b", "cd", "e"], [], "")
    assert [(g.test, g.gold) for g in groups] == [([0], [0]), ([1, 2], [1, 2]), ([3], [3])]


def test_a_constituent_is_scored_by_the_groups_of_its_first_and_last_words() -> None:
    gold = "(S (NP (PRP I)) (VP (VBD did) (RB n't) (VP (VB go))) (. .))"
    test = "(S (NP (PRP I)) (VP (VBD didn't) (VP (VB go))) (. .))"
    r = score_aligned([TreeText(gold, 1)], [TreeText(test, 1)])
    row = r.groups[0].row
    # S, NP, VP and the inner VP of both sides line up: all four match; the tags of
    # "I", "go" and "." are right, "didn't" is none of the gold's (tag, word) pairs
    assert (row.matched, row.gold, row.test, row.words, row.correct_tags) == (4, 4, 4, 5, 3)


def _reshaped(tree: Tree, rng: random.Random) -> Tree:
    """TREE with some phrases removed (their children raised) and some relabelled: the
    same words, other brackets; the root keeps its one child (jp-evalb puts a root of
    several children under a TOP, which COLLINS.prm then deletes whole)."""
    def walk(node: Tree) -> list[Tree | str]:
        kids: list[Tree | str] = []
        for c in node.children:
            if isinstance(c, str) or c.is_preterminal():
                kids.append(c)
                continue
            inner = walk(c)
            if rng.random() < 0.2 and inner:
                kids += inner
            else:
                kids.append(Tree(rng.choice(["NP", "VP", "PP", c.label]), inner))
        return kids
    return Tree(tree.label, [Tree(c.label, walk(c)) if isinstance(c, Tree) else c
                             for c in tree.children])


def test_legacy_mode_scores_as_evalb_where_sentences_and_words_match(tmp_path: Path) -> None:
    """jp-evalb's -evalb claim, on the Penn Treebank sample: with the same words,
    EVALB's counts (COLLINS.prm) and ours agree sentence by sentence, but where a tree
    has the same bracket twice (a unary NP over an NP once -NONE- is deleted: jp-evalb
    matches brackets as sets, EVALB as multisets) or a gapping index (``NP=2``: EVALB
    cuts a label at ``=`` too, jp-evalb only at ``-``)."""
    ptb = shared_path("data/ptb-sample-nltk")
    prm = read_prm(shared_path("data/evalb-sample/COLLINS.prm"))
    rng = random.Random(7)
    gold = [Tree("TOP", t.children) if not t.label else t  # ( (S ...)): a TOP, as usual
            for f in sorted(ptb.glob("wsj_*.mrg")) for t in read_trees(f)]
    (tmp_path / "gold").write_text("".join(f"{t}\n" for t in gold))
    test = [_reshaped(t, rng) for t in gold]
    (tmp_path / "test").write_text("".join(f"{t}\n" for t in test))
    evalb = score_bracket_files(tmp_path / "gold", tmp_path / "test", prm)
    ours = score_aligned(tmp_path / "gold", tmp_path / "test", prm, legacy=True)
    assert len(ours.groups) == len(evalb.rows) == len(gold) == 3914
    assert not ours.notes and not ours.shown()
    rules = Rules.of(prm, legacy=True)

    def twice(tree: Tree) -> bool:
        spans = Counter((lab.split("-")[0], a, b)
                        for lab, a, b in read_sentence(tree, 0, rules).spans)
        return any(n > 1 for n in spans.values())
    as_sets = gapped = 0
    for p, e, g, t in zip(ours.groups, evalb.rows, gold, test, strict=True):
        r = p.row
        assert (r.gold, r.test, r.crossing, r.words, r.correct_tags) == \
            (e.gold, e.test, e.crossing, e.words, e.correct_tags), p.id
        if r.matched != e.matched:
            assert r.matched < e.matched, p.id
            if any("=" in n.label for n in g.nodes()):
                gapped += 1
            else:
                assert twice(g) and twice(t), p.id
                as_sets += 1
    assert (as_sets, gapped) == AS_SETS_GAPPED


def test_legacy_needs_align() -> None:
    p = run_cli("eval", "brackets", str(JP / "gold.mrg"), str(JP / "test.mrg"), "--legacy")
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1
    assert "--align" in p.stderr


WORDS = st.lists(st.sampled_from(["a", "bb", "ccc", "dd", "e", "ff"]), min_size=1, max_size=8)


@settings(max_examples=150, deadline=None)
@given(st.lists(WORDS, min_size=1, max_size=6), st.data())
def test_any_resegmentation_and_retokenisation_scores_every_gold_bracket(
        sentences: list[list[str]], data: st.DataObject) -> None:
    """Whatever the test's sentences and words, every gold bracket is counted once, the
    figures are shares, and nothing is raised; the same trees score 100."""
    from parsebench.formats.brackets import TreeText

    def tree(ws: list[str]) -> str:
        return "(S " + " ".join(f"(NP (X {w}))" for w in ws) + ")"
    gold = [TreeText(tree(ws), n) for n, ws in enumerate(sentences, 1)]
    same = score_aligned(gold, gold)
    assert same.all.matched == same.all.gold == same.all.test == \
        len(sentences) + sum(map(len, sentences))
    words = [w for ws in sentences for w in ws]
    cuts = sorted(set(data.draw(st.lists(st.integers(1, len(words)), max_size=4))))
    glue = data.draw(st.lists(st.integers(0, len(words) - 1), max_size=3))
    merged = [w + ("x" if k in glue else "") for k, w in enumerate(words)]
    pieces = [merged[a:b] for a, b in zip([0, *cuts], [*cuts, len(words)], strict=True)
              if merged[a:b]]
    test = [TreeText(tree(ws), n) for n, ws in enumerate(pieces, 1)]
    r = score_aligned(gold, test)
    assert r.all.gold == same.all.gold
    assert sum(len(p.gold) for p in r.groups) == len(gold)
    assert sum(len(p.test) for p in r.groups) == len(test)
    assert 0 <= r.all.matched <= min(r.all.gold, r.all.test)


SPANS = st.lists(st.tuples(st.sampled_from(["A", "B"]), st.integers(0, 12),
                           st.integers(0, 12)).map(lambda x: (x[0], min(x[1:]), max(x[1:]))),
                 max_size=30)


@settings(max_examples=300, deadline=None)
@given(SPANS, SPANS)
def test_crossing_counts_as_every_pair_is_compared(test: list[tuple[str, int, int]],
                                                   gold: list[tuple[str, int, int]]) -> None:
    """jp-evalb compares every test constituent with every gold one; a group of hundreds
    of sentences makes that millions of pairs, so they are counted by positions: the
    same number."""
    from parsebench.metrics.constituency.aligned_parseval import _crossing

    pairs = sum(1 for _, a, b in test
                if any(a < c < b < d or c < a < d < b for _, c, d in gold))
    assert _crossing(test, gold) == pairs

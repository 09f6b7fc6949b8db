"""Parseval with EVALB's numbers: the sample, error/skip semantics, MAX_ERROR, multisets."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from itertools import pairwise
from pathlib import Path
from unittest import mock

import pytest
from conftest import DATA, shared_path
from hypothesis import given, settings
from hypothesis import strategies as st

from parsebench.common.errors import InputError
from parsebench.formats.brackets import TreeText, read_tree_texts, split_trees
from parsebench.formats.evalb_prm import EvalbParams, read_prm
from parsebench.metrics.constituency import evalb_scorer
from parsebench.metrics.constituency.evalb_scorer import (
    ACCELERATED,
    score_bracket_files,
    score_brackets,
)


def texts(*lines: str) -> list[TreeText]:
    return [TreeText(t, n) for n, t in enumerate(lines, 1)]


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "parsebench.cli", *args],
                          capture_output=True, text=True)


def test_evalb_sample_every_row_and_summary_figure() -> None:
    d = shared_path("data/evalb-sample")
    p = run_cli("eval", "brackets", str(d / "sample.gld"), str(d / "sample.tst"),
                "--prm", str(d / "sample.prm"))
    assert p.returncode == 0
    assert p.stdout == (d / "sample.rsl").read_text()
    assert p.stderr.splitlines() == [
        "12 : Words unmatch (is|was)", "13 : Length unmatch (4|5)",
        "16 : Length unmatch (4|5)", "17 : Length unmatch (4|6)",
        "20 : Words unmatch (this|That)"]


def test_collins_prm_deletes_punctuation_before_comparing_words() -> None:
    params = read_prm(shared_path("data/evalb-sample/COLLINS.prm"))
    gold = texts("(S (NP (DT a) (NN b)) (VP (VB c)) (. .))")
    test = texts("(S (NP (DT a) (NN b)) (VP (VB c)))")  # no final punctuation: still valid
    r = score_brackets(gold, test, params)
    row = r.rows[0]
    assert (row.status, row.length, row.words, row.matched, row.gold, row.test) == \
        (0, 4, 3, 3, 3, 3)


def test_error_and_skip_sentences_are_left_out_of_totals() -> None:
    gold = texts("(S (A a) (B b))", "(S (A a) (B b))", "(S (A a) (B b))")
    test = texts("(S (A a) (B c))", "", "(S (X a) (B b))")
    r = score_brackets(gold, test, EvalbParams())
    assert [row.status for row in r.rows] == [1, 2, 0]
    assert (r.all.sentences, r.all.errors, r.all.skips, r.all.valid) == (3, 1, 1, 1)
    assert (r.all.matched, r.all.gold, r.all.test) == (1, 1, 1)  # S only; A/B are tags
    assert r.all.correct_tags == 1 and r.all.words == 2
    assert r.messages == ["1 : Words unmatch (b|c)"]


def test_brackets_match_as_multisets() -> None:
    gold = texts("(S (X (X (A a))) (B b))")
    test = texts("(S (X (A a)) (B b))")
    r = score_brackets(gold, test, EvalbParams())
    row = r.rows[0]
    # gold has X twice over "a" (plus S); test has it once: recall 2/3, precision 2/2
    assert (row.matched, row.gold, row.test) == (2, 3, 2)


def test_crossing_counts_test_brackets() -> None:
    gold = texts("(S (X (A a) (B b)) (C c) (D d))")
    test = texts("(S (A a) (Y (B b) (C c) (D d)))")
    row = score_brackets(gold, test, EvalbParams()).rows[0]
    assert row.crossing == 1


def test_max_error_aborts_on_error_n_plus_2_without_summary(tmp_path: Path) -> None:
    gold = tmp_path / "g"
    test = tmp_path / "t"
    prm = tmp_path / "p.prm"
    gold.write_text("(S (A a))\n" * 6)
    test.write_text("(S (A a))\n" + "(S (A b))\n" * 5)
    prm.write_text("MAX_ERROR 2\n")
    p = run_cli("eval", "brackets", str(gold), str(test), "--prm", str(prm))
    assert p.returncode == 1
    assert "Summary" not in p.stdout
    # errors at sentences 2-5; the 4th error (MAX_ERROR + 2) aborts before its row
    assert len(p.stdout.splitlines()) == 3 + 4
    assert p.stderr.splitlines()[-1] == "5 : Words unmatch (a|b)"


def test_fewer_test_lines_reports_on_stderr_only(tmp_path: Path) -> None:
    gold = tmp_path / "g"
    test = tmp_path / "t"
    gold.write_text("(S (A a))\n(S (A a))\n")
    test.write_text("(S (A a))\n")
    p = run_cli("eval", "brackets", str(gold), str(test), "--json")
    assert p.returncode == 0
    assert "2 : Number of lines unmatch (too many lines in gold file)" in p.stderr
    import json
    d = json.loads(p.stdout)
    assert d["all"]["sentences"] == 1 and d["all"]["error_sentences"] == 0
    assert set(d["len40"]) >= {"sentences", "error_sentences", "skip_sentences",
                               "bracketing_recall", "bracketing_precision",
                               "bracketing_fmeasure", "complete_match", "average_crossing",
                               "no_crossing", "two_or_less_crossing", "tagging_accuracy"}
    assert "signature" in d


def test_multiline_mrg_files_are_read_tree_by_tree() -> None:
    trees = split_trees(["( (S", "  (NP (DT a))", "  (VP (VB b)))", ")", "", "((S (X x)))"], "f")
    assert [t.line for t in trees] == [1, 6]
    r = score_brackets(trees, trees, EvalbParams())
    assert r.all.valid == 2 and r.all.matched == r.all.gold


def test_bundled_demo_trees_score_as_computed_by_hand() -> None:
    r = score_brackets(read_tree_texts(DATA / "demo-gold.mrg"),
                       read_tree_texts(DATA / "demo-test.mrg"), EvalbParams())
    # sentence 1: gold S NP VP NP PP NP(care) = 6; test moves PP into the object NP,
    # whose span becomes 3-8: 5 of 6 match. Sentence 2: gold 7, test 6 (no NP over
    # "a man with a telescope"): 6 match. Sentence 3: 4 of 4.
    assert [(x.matched, x.gold, x.test) for x in r.rows] == [(5, 6, 6), (6, 7, 6), (4, 4, 4)]
    assert r.all.crossing == 0


@st.composite
def tree_text(draw: st.DrawFn, words: int = 0) -> str:
    n = words or draw(st.integers(1, 7))

    def build(lo: int, hi: int, depth: int) -> str:
        if hi - lo == 1 and draw(st.booleans()):
            return f"(T w{lo})"
        if depth > 3 or hi - lo == 1:
            return "(X " + " ".join(f"(T w{i})" for i in range(lo, hi)) + ")"
        cut = draw(st.integers(lo + 1, hi - 1)) if hi - lo > 1 else hi
        parts = [build(lo, cut, depth + 1)] + ([build(cut, hi, depth + 1)] if cut < hi else [])
        return f"({draw(st.sampled_from(['A', 'B']))} " + " ".join(parts) + ")"

    return build(0, n, 0)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_recall_and_precision_swap_with_gold_and_test(data: st.DataObject) -> None:
    g = data.draw(tree_text())
    n = g.count("(T ")
    t = data.draw(tree_text(words=n))
    params = EvalbParams()
    a = score_brackets(texts(g), texts(t), params).rows[0]
    b = score_brackets(texts(t), texts(g), params).rows[0]
    assert (a.matched, a.gold, a.test) == (b.matched, b.test, b.gold)
    same = score_brackets(texts(g), texts(g), params).rows[0]
    assert same.matched == same.gold == same.test and same.crossing == 0


LABELS = ["S", "NP", "VP", "PP", "NP-SBJ", "PP=2", "-NONE-", "", "X", ",", "''", "``", "PUNCT"]
WORDS = ["a", "b", "c", "'", '"', "/", "é", "a\u00a0b", "(", ")"]


def tree_pair(rng: random.Random) -> tuple[str, str]:
    """Two bracketings of one word sequence, as parsers and people write them:
    sometimes with other tags or words, a bracket with no words, malformed or blank."""
    n = rng.randint(1, 8)
    leaves = [(rng.choice(LABELS), rng.choice(WORDS)) for _ in range(n)]

    def bracket(lo: int, hi: int, depth: int, out: list[tuple[str, str]]) -> str:
        label = rng.choice(LABELS)
        if hi - lo == 1 and (depth > 2 or rng.random() < 0.5):
            tag, word = out[lo]
            return f"({tag})" if word in "()" else f"({tag} {word})"
        cuts = sorted({rng.randint(lo + 1, hi - 1) for _ in range(rng.randint(0, 2))}) \
            if hi - lo > 1 else []
        bounds = [lo, *cuts, hi]
        kids = [bracket(a, b, depth + 1, out) for a, b in pairwise(bounds)]
        return f"({label} {' '.join(kids)})"

    def damaged(text: str) -> str:
        damage = rng.randint(0, 11)
        if damage == 0:
            return ""
        if damage == 1:
            cut = rng.randrange(len(text))
            return text[:cut] + text[cut + 1:]
        if damage == 2:
            return text.replace(" (", "  stray (", 1)
        return text

    other = [(rng.choice(LABELS), w) if rng.random() < 0.5 else (t, w) for t, w in leaves]
    if rng.random() < 0.2:
        other[rng.randrange(n)] = ("X", rng.choice(WORDS))
    return damaged(bracket(0, n, 0, leaves)), damaged(bracket(0, n, 0, other))


@st.composite
def evalb_params(draw: st.DrawFn) -> EvalbParams:
    pick = st.lists(st.sampled_from(LABELS), max_size=3)
    pairs = st.lists(st.tuples(st.sampled_from(LABELS), st.sampled_from(LABELS)), max_size=2)
    return EvalbParams(
        max_error=draw(st.integers(0, 4)), cutoff_len=draw(st.integers(1, 6)),
        labeled=draw(st.booleans()), delete_labels=draw(pick),
        delete_labels_for_length=draw(pick), quote_labels=draw(pick), eq_labels=draw(pairs),
        eq_words=draw(st.lists(st.tuples(st.sampled_from(WORDS), st.sampled_from(WORDS)),
                               max_size=2)))


def outcome(gold: list[TreeText], test: list[TreeText], params: EvalbParams,
            accelerated: bool) -> object:
    try:
        r = score_brackets(gold, test, params, accelerated=accelerated)
    except InputError as exc:
        return str(exc)
    assert r.row_dicts() == [x.as_dict() for x in r.rows]
    return (r.row_dicts(), r.all.as_dict(), r.cut.as_dict(), r.messages, r.aborted, r.report())


@settings(max_examples=1500, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(1, 6), evalb_params())
def test_c_accelerator_gives_the_reference_scorer_s_results(
        rng: random.Random, lines: int, params: EvalbParams) -> None:
    if not ACCELERATED:
        if os.environ.get("CI") == "true":
            pytest.fail("the C accelerator of eval brackets was not built")
        pytest.skip("the C accelerator is not built (no C compiler at install time)")
    pairs = [tree_pair(rng) for _ in range(lines)]
    gold = texts(*(g for g, _ in pairs))
    test = texts(*(t for _, t in pairs))
    assert outcome(gold, test, params, True) == outcome(gold, test, params, False)
    assert outcome(gold, gold, params, True) == outcome(gold, gold, params, False)


GOLD4 = ("(S (NP (DT a) (NN b)) (VP (VB c)))\n(S (NP (DT d)) (VP (VB e) (NP (NN f))))\n"
         "(S (NP (DT g)) (VP (VB h)))\n(S (X (Y i)))\n")


def test_a_test_line_cut_short_is_an_error_sentence_and_the_rest_is_scored(
        tmp_path: Path) -> None:
    # EVALB reads one tree a line: line 2 is a parser's output cut short (its unclosed
    # brackets end at -1 and match nothing), line 3 has a ')' too many. Both are error
    # sentences with EVALB's one message; lines 1 and 4 are scored.
    gold, test = tmp_path / "g.txt", tmp_path / "t.txt"
    gold.write_text(GOLD4)
    test.write_text("(S (NP (DT a) (NN b)) (VP (VB c)))\n(S (NP (DT d)) (VP (VB e) (NP (NN f)\n"
                    "(S (NP (DT g)) (VP (VB h))))\n(S (X (Y i)))\n")
    p = run_cli("eval", "brackets", str(gold), str(test))
    assert p.returncode == 0
    assert p.stderr == ("2 : Bracketing is unbalanced (too many open bracket)\n"
                        "3 : Bracketing is unbalanced (too many open bracket)\n")
    rows = [ln.split() for ln in p.stdout.splitlines()[3:7]]
    assert [r[:3] for r in rows] == [["1", "3", "0"], ["2", "3", "1"], ["3", "2", "1"],
                                     ["4", "1", "0"]]
    assert rows[1][5:8] == ["1", "4", "4"]  # only NP(d) closes: 1 of 4 brackets match
    assert "Number of Error sentence  =      2" in p.stdout
    assert "Number of Valid sentence  =      2" in p.stdout
    for accelerated in (True, False):
        r = score_brackets(read_tree_texts(gold), read_tree_texts(test), EvalbParams(),
                           accelerated=accelerated)
        assert (r.all.errors, r.all.valid, r.all.matched, r.all.gold) == (2, 2, 5, 5)


def test_a_word_outside_brackets_stops_evalb_after_max_error(tmp_path: Path) -> None:
    # "(NP d e)": EVALB reports more than two elements, then cannot read on and repeats
    # "Reading sentence" until MAX_ERROR (10) is passed: it gives up with status 1.
    gold, test = tmp_path / "g.txt", tmp_path / "t.txt"
    gold.write_text(GOLD4)
    test.write_text(GOLD4.replace("(NP (DT d))", "(NP d e)"))
    p = run_cli("eval", "brackets", str(gold), str(test))
    assert p.returncode == 1
    assert p.stderr.splitlines() == ["2 : More than two elements in a bracket"] + \
        ["2 : Reading sentence"] * 11


def test_a_multiline_file_that_cannot_be_split_is_still_an_input_error(
        tmp_path: Path) -> None:
    test = tmp_path / "t.mrg"
    test.write_text("( (S\n  (NP (DT a))\n  (VP (VB b))\n")
    p = run_cli("eval", "brackets", str(test), str(test))
    assert p.returncode == 2
    assert p.stderr == f"parsebench: {test}:1: unbalanced brackets: tree not closed at " \
        "end of file\n"


def need_accelerator() -> None:
    if not ACCELERATED:
        if os.environ.get("CI") == "true":
            pytest.fail("the C accelerator of eval brackets was not built")
        pytest.skip("the C accelerator is not built (no C compiler at install time)")


@settings(max_examples=3000, deadline=None)
@given(st.one_of(st.floats(0, 1e6), st.builds(lambda m, g: 100.0 * m / g,
                                              st.integers(0, 5000), st.integers(1, 5000)),
                 st.sampled_from([0.125, 0.375, 12.345, 99.995, 99.994999, 100.0, 0.005])))
def test_the_report_s_numbers_are_printf_s(x: float) -> None:
    need_accelerator()
    from parsebench.metrics.constituency import _evalb_fast

    assert _evalb_fast.fixed2(x) == "%6.2f" % x  # noqa: UP031 (printf's format is the point)


def file_outcome(gold: Path, test: Path, params: EvalbParams, accelerated: bool) -> object:
    """What the command gets: a file read by the accelerator's Lines or by read_tree_texts
    (then scored in Python), or the one-line error."""
    try:
        if accelerated:
            r = score_bracket_files(gold, test, params)
        else:
            r = score_brackets(read_tree_texts(gold), read_tree_texts(test), params,
                               accelerated=False)
    except InputError as exc:
        return str(exc)
    return (r.row_dicts(), r.all.as_dict(), r.cut.as_dict(), r.messages, r.aborted, r.report())


ODD_LINES = ["", "   ", "\u00a0", "(S (A a\x00b))", "(S (A \u00e9))", "\ufeff(S (A a))",
             "( (S\n  (A a))\n)", "x", ")"]


@settings(max_examples=300, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(0, 6), evalb_params(),
       st.sampled_from(["\n", "\r\n"]), st.booleans(),
       st.lists(st.tuples(st.booleans(), st.integers(0, 6), st.sampled_from(ODD_LINES)),
                max_size=2))
def test_files_read_by_the_accelerator_score_as_read_tree_texts_reads_them(
        tmp_path_factory: pytest.TempPathFactory, rng: random.Random, lines: int,
        params: EvalbParams, end: str, last_end: bool,
        odd: list[tuple[bool, int, str]]) -> None:
    need_accelerator()
    pairs = [tree_pair(rng) for _ in range(lines)]
    sides = [[g for g, _ in pairs], [t for _, t in pairs]]
    for in_test, at, line in odd:  # blank lines, a BOM, a multi-line tree, stray text
        sides[in_test].insert(min(at, len(sides[in_test])), line)
    d = tmp_path_factory.mktemp("files")
    gold, test = d / "g.mrg", d / "t.mrg"
    for path, side in ((gold, sides[0]), (test, sides[1])):
        text = end.join(side) + (end if last_end and side else "")
        path.write_bytes(text.encode("utf-8"))
    want = file_outcome(gold, test, params, False)
    assert file_outcome(gold, test, params, True) == want
    # a big file is scored in parts in threads, each by its own Scorer: the same
    # rows, messages and abort, in order, whatever the machine's cores
    with mock.patch.object(evalb_scorer, "PART", 1), \
            mock.patch.object(evalb_scorer, "cores", lambda: 3):
        assert file_outcome(gold, test, params, True) == want


def test_a_file_that_is_not_utf8_is_the_same_error_through_the_accelerator(
        tmp_path: Path) -> None:
    gold, test = tmp_path / "g.mrg", tmp_path / "t.mrg"
    gold.write_text("(S (A a))\n(S (A b))\n")
    for bad in (b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xe0\x80\x80"):
        test.write_bytes(b"(S (A a))\n(S (A " + bad + b"))\n")
        assert file_outcome(gold, test, EvalbParams(), True) == \
            file_outcome(gold, test, EvalbParams(), False) == f"{test}:2: not valid UTF-8"

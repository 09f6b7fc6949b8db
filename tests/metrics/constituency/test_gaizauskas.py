"""Flatter keys (Gaizauskas, Hepple & Huyck): Table 1 and the flattening rules."""

from __future__ import annotations

import pytest
from conftest import shared_path

from parsebench.common.errors import InputError
from parsebench.formats.brackets import TreeText, parse_tree, read_tree_texts, read_trees
from parsebench.metrics.constituency.gaizauskas_scorer import (
    flatten_tree,
    parse_rule,
    percent_half_up,
    score_flat,
    score_spans,
    spans,
    strip_label,
)

FILES = {"Flat": "flat.mrg", "PTB": "ptb.mrg", "ALT-good": "alt_good.mrg",
         "ALT-bad": "alt_bad.mrg"}

# Key, Response, KeyCons, RespCons, Matched, KCV, Recall, Precision, Conformance
TABLE_1 = [
    ("Flat", "PTB", 5, 10, 5, 0, 100, 50, 100),
    ("Flat", "ALT-good", 5, 11, 5, 0, 100, 45, 100),
    ("Flat", "ALT-bad", 5, 11, 3, 1, 60, 27, 80),
    ("PTB", "Flat", 10, 5, 5, 0, 50, 100, 100),
    ("PTB", "ALT-good", 10, 11, 7, 2, 70, 64, 80),
    ("PTB", "ALT-bad", 10, 11, 6, 3, 60, 55, 70),
    ("ALT-good", "ALT-bad", 11, 11, 9, 1, 82, 82, 91),
    ("ALT-good", "PTB", 11, 10, 7, 3, 64, 70, 73),
]


@pytest.mark.parametrize("row", TABLE_1, ids=[f"{r[0]}-vs-{r[1]}" for r in TABLE_1])
def test_gaizauskas_table_1(row: tuple[str, str, int, int, int, int, int, int, int]) -> None:
    d = shared_path("paper-examples/gaizauskas-table1")
    key, resp = row[0], row[1]
    c, _ = score_flat(read_tree_texts(d / FILES[key]), read_tree_texts(d / FILES[resp]),
                      key, resp)
    got = (key, resp, c.key, c.response, c.matched, c.violated, percent_half_up(c.recall),
           percent_half_up(c.precision), percent_half_up(c.conformance))
    assert got == row


def test_three_rules_map_ptb_onto_flat() -> None:
    d = shared_path("paper-examples/gaizauskas-table1")
    rules = [parse_rule(r) for r in ("(VP VBP VP^)", "(VP VBN VP^)", "(NP NP^ PP)")]
    ptb = read_trees(d / "ptb.mrg")[0]
    flat = read_trees(d / "flat.mrg")[0]
    assert str(flatten_tree(ptb, rules)) == str(flat)
    assert str(flatten_tree(ptb, rules[:2])) != str(flat)  # every rule is needed


def test_np_self_recursion_example_of_section_6() -> None:
    t = parse_tree("(ROOT (NP (NP (DET the) (N dog)) (PP (P in) (NP (N town)))))")
    out = flatten_tree(t, [parse_rule("(NP NP^ PP)")])
    assert str(out) == "(ROOT (NP (DET the) (N dog) (PP (P in) (N town))))"


def test_parent_removal_forms_and_root_protection() -> None:
    t = parse_tree("(S (VP (V go) (ADVP (R now))) (X (A a) (B b)))")
    # (X^ A B) removes X in that context; ADVP is unary and goes anyway
    assert str(flatten_tree(t, [parse_rule("(X^ A B)")])) == "(S (VP (V go) (R now)) (A a) (B b))"
    # X^ removes VP everywhere, but never the root
    assert str(flatten_tree(t, [parse_rule("VP^"), parse_rule("S^")])) == \
        "(S (V go) (R now) (X (A a) (B b)))"


def test_labels_stripped_and_empty_elements_removed() -> None:
    assert strip_label("NP-SBJ-1") == "NP" and strip_label("NP=2") == "NP"
    assert strip_label("-NONE-") == "-NONE-" and strip_label("-LRB-") == "-LRB-"
    t = parse_tree("(S (NP-SBJ (-NONE- *T*)) (VP (V ran) (NP=2 (N home))))")
    assert str(flatten_tree(t, [])) == "(S (VP (V ran) (N home)))"


def test_counting_conventions() -> None:
    # one-word phrasal constituents count, preterminals do not, and a root
    # with the same span as S counts once
    t = parse_tree("( (S (NP (N a)) (VP (V b) (N c))))")
    assert spans(t) == {(0, 3), (0, 1), (1, 3)}
    # a key span violated by two response spans counts once
    c = score_spans({(0, 2)}, {(1, 3), (1, 4)})
    assert (c.violated, c.conformance) == (1, 0.0)
    assert percent_half_up(5 / 11) == 45 and percent_half_up(0.125) == 13


def test_filtering_keys_by_category_and_depth() -> None:
    key = [TreeText("(S (NP (D a) (N b)) (VP (V c) (NP (N d) (N e))))", 1)]
    resp = [TreeText("(S (NP (D a) (N b)) (VP (V c) (N d) (N e)))", 1)]
    full, _ = score_flat(key, resp, "k", "r")
    only_np, _ = score_flat(key, resp, "k", "r", labels=frozenset({"NP"}))
    shallow, _ = score_flat(key, resp, "k", "r", max_depth=1)
    assert (full.key, full.matched) == (4, 3)
    assert (only_np.key, only_np.matched) == (2, 1)
    assert (shallow.key, shallow.matched) == (3, 3)


@pytest.mark.parametrize("bad", ["(NP NP PP)", "(NP^ NP^ PP)", "NP", "(NP)", "(NP (NP^))"])
def test_bad_rules_are_rejected(bad: str) -> None:
    with pytest.raises(InputError, match=r"rules\.txt:3: bad rule"):
        parse_rule(bad, "rules.txt", 3)


def test_word_mismatch_is_an_error() -> None:
    with pytest.raises(InputError, match="r:1: the words differ"):
        score_flat([TreeText("(S (A a))", 1)], [TreeText("(S (A b))", 1)], "k", "r")

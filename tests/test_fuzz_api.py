"""The Python API on damaged inputs: every public function, given a damaged file or a
Treebank of damaged sentences, returns a Result whose text and JSON can be made, or
raises an InputError of one line; never another exception.

The files are the command-line fuzz test's seeds (``test_fuzz.py``) mutated the same
way; the sentences in memory are damaged as a caller's own code can damage them
(columns of other lengths, heads out of range, words that are not strings). Hypothesis
draws the damage; each example is bounded (a few small files, 20 resamples), and the
whole test by the number of examples.

Found by it: a Treebank whose sentences the caller's code had damaged (a column one
value short, a HEAD past the sentence's end) gave an IndexError deep in scoring; the
API now checks sentences where it takes them, as the reader checks a file.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from conftest import DATA, FIXTURES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_fuzz import SEEDS, mutate

import parsebench as pb
from parsebench.formats.conllu import Sentence, read_conllu

LEX = str(FIXTURES / "lexicon.txt")
KEY, ANSWER, TYPOS = DATA / "lin-key.conllu", DATA / "lin-answer.conllu", \
    FIXTURES / "typos.conllu"
GOLD_TREES, TEST_TREES = DATA / "demo-gold.mrg", DATA / "demo-test.mrg"

CONLLU_CALLS: dict[str, Callable[[Any], Any]] = {
    "evaluate_deps, the system": lambda x: pb.evaluate_deps(KEY, x, by="deprel"),
    "evaluate_deps, the gold": lambda x: pb.evaluate_deps(x, ANSWER, select="deprel=subj"),
    "compare": lambda x: pb.compare(KEY, [x, ANSWER], samples=20),
    "compare upos, all pairs": lambda x: pb.compare(x, [ANSWER, KEY], metric="upos",
                                                     samples=20, all_pairs=True),
    "noise": lambda x: pb.noise(x, rate=0.3, lexicon=LEX).treebank,
    "noise, grammar": lambda x: pb.noise(x, rate=0.3, kind="grammar", lexicon=LEX).treebank,
    "robustness_rows": lambda x: pb.robustness_rows(TYPOS, [x], accuracy=0.9),
    "robustness_sentences": lambda x: pb.robustness_sentences(TYPOS, [x]),
    "robustness_f1": lambda x: pb.robustness_f1(TYPOS, x),
    "parse, precomputed": lambda x: pb.parse(x, f"precomputed:{TYPOS}"),
}
TREE_CALLS: dict[str, Callable[[Any], Any]] = {
    "evaluate_brackets": lambda x: pb.evaluate_brackets(GOLD_TREES, x),
    "evaluate_flat": lambda x: pb.evaluate_flat(GOLD_TREES, x),
    "convert": lambda x: pb.convert(x, "collins"),
    "evaluate_deps, head rules": lambda x: pb.evaluate_deps(GOLD_TREES, x,
                                                            head_rules="collins"),
    "flatten": lambda x: pb.flatten(x, DATA / "demo-rules.txt"),
    "compare evalb": lambda x: pb.compare(GOLD_TREES, [TEST_TREES, x], metric="evalb",
                                          samples=20),
}


def outcome(call: Callable[[Any], Any], arg: Any) -> str | None:
    """None when CALL(ARG) gives a usable result or a one-line InputError; else what
    went wrong."""
    try:
        got = call(arg)
    except pb.InputError as exc:
        return None if "\n" not in str(exc) else f"a message of several lines: {exc}"
    except Exception as exc:  # what the test is for: no other exception
        return f"{type(exc).__name__}: {exc}"
    if isinstance(got, pb.Result):
        str(got)
        json.dumps(got.to_dict(), allow_nan=False)
    return None


def _mutated(kind: str, seed: int, twice: bool) -> bytes:
    rng = random.Random(seed)
    data = mutate(SEEDS[kind], rng)
    return mutate(data, rng) if twice else data


EXAMPLES = max(20, int(os.environ.get("PARSEBENCH_FUZZ_N", "600")) // 4)
"""Examples a test: 150 by default (a few seconds each); PARSEBENCH_FUZZ_N as for the
command-line fuzz test, to run thousands by hand."""
FAST = settings(max_examples=EXAMPLES, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])


@FAST
@given(seed=st.integers(0, 2**32), twice=st.booleans(), kind=st.sampled_from(
    ["conllu", "answer", "typos"]), call=st.sampled_from(sorted(CONLLU_CALLS)),
       in_memory=st.booleans())
def test_the_api_on_a_damaged_conllu_file(tmp_path: Path, seed: int, twice: bool,
                                          kind: str, call: str, in_memory: bool) -> None:
    data = _mutated(kind, seed, twice)
    path = tmp_path / f"damaged-{seed}.conllu"
    path.write_bytes(data)
    arg: Any = path
    if in_memory:  # a Treebank from the damaged text, when it reads
        try:
            arg = pb.Treebank.from_text(data.decode("utf-8", "replace"), "damaged")
        except pb.InputError:
            return
    problem = outcome(CONLLU_CALLS[call], arg)
    assert problem is None, f"{call} on {data[:300]!r}: {problem}"


@FAST
@given(seed=st.integers(0, 2**32), twice=st.booleans(),
       kind=st.sampled_from(["trees", "test-trees"]), call=st.sampled_from(sorted(TREE_CALLS)))
def test_the_api_on_a_damaged_tree_file(tmp_path: Path, seed: int, twice: bool, kind: str,
                                        call: str) -> None:
    data = _mutated(kind, seed, twice)
    path = tmp_path / f"damaged-{seed}.mrg"
    path.write_bytes(data)
    problem = outcome(TREE_CALLS[call], path)
    assert problem is None, f"{call} on {data[:300]!r}: {problem}"


def _damage(s: Sentence, how: str, k: int) -> Sentence:
    """S damaged in memory as a caller's code can damage it."""
    n = len(s.forms)
    i = k % n
    if how == "short column":
        return replace(s, heads=s.heads[:-1])
    if how == "long column":
        return replace(s, deprels=[*s.deprels, "dep"])
    if how == "head out of range":
        return replace(s, heads=[*s.heads[:i], n + 1 + k, *s.heads[i + 1:]])
    if how == "negative head":
        return replace(s, heads=[*s.heads[:i], -2 - k, *s.heads[i + 1:]])
    if how == "head not an int":
        return replace(s, heads=[*s.heads[:i], "1", *s.heads[i + 1:]])  # type: ignore[list-item]
    if how == "word not a string":
        return replace(s, forms=[*s.forms[:i], None, *s.forms[i + 1:]])  # type: ignore[list-item]
    if how == "empty word":
        return replace(s, forms=[*s.forms[:i], "", *s.forms[i + 1:]])
    if how == "word with a tab":
        return replace(s, forms=[*s.forms[:i], "a\tb", *s.forms[i + 1:]])
    if how == "no words":
        return replace(s, forms=[], lemmas=[], upos=[], xpos=[], feats=[], heads=[],
                       deprels=[], deps=[], misc=[])
    raise AssertionError(how)


DAMAGE = ["short column", "long column", "head out of range", "negative head",
          "head not an int", "word not a string", "empty word", "word with a tab",
          "no words"]


@FAST
@given(how=st.sampled_from(DAMAGE), which=st.integers(0, 100), at=st.integers(0, 100),
       call=st.sampled_from(sorted(CONLLU_CALLS)))
def test_the_api_on_damaged_sentences_in_memory(how: str, which: int, at: int,
                                                call: str) -> None:
    sents = read_conllu(TYPOS)
    j = which % len(sents)
    sents[j] = _damage(sents[j], how, at)
    problem = outcome(CONLLU_CALLS[call], pb.Treebank(sents, "damaged"))
    assert problem is None, f"{call} with {how} in sentence {j + 1}: {problem}"


@pytest.mark.parametrize("call", sorted(CONLLU_CALLS))
def test_the_undamaged_inputs_give_results(call: str) -> None:
    """The calls work on the seeds, so that the damage is what the tests above try."""
    got = CONLLU_CALLS[call](TYPOS if "robustness" in call or "parse" in call else KEY)
    assert got is not None


@pytest.mark.parametrize("call", sorted(TREE_CALLS))
def test_the_undamaged_trees_give_results(call: str) -> None:
    assert TREE_CALLS[call](TEST_TREES) is not None


def test_a_damaged_sentence_is_named_in_one_line() -> None:
    sents = read_conllu(TYPOS)
    sents[1] = replace(sents[1], heads=[99, *sents[1].heads[1:]])
    n = len(sents[1].forms)
    with pytest.raises(pb.InputError) as exc:
        pb.evaluate_deps(KEY, pb.Treebank(sents, "mine"))
    assert str(exc.value) == (f"mine: sentence 2: HEAD of word 1 is 99: a number from 0 "
                              f"to {n}, or -1 for none")
    sents[1] = replace(sents[1], heads=sents[1].heads[:-1], forms=sents[1].forms)
    with pytest.raises(pb.InputError, match=f"sentence 2: heads has {n - 1} values for its "
                       f"{n} words"):
        pb.noise(sents, rate=0.3, lexicon=LEX)


class _Text(str):
    """A str subclass: not a plain string, which the check wants."""


@pytest.mark.parametrize("how", [*DAMAGE, "bool head", "huge head", "str subclass",
                                 "tuple column", "newline in misc"])
def test_the_compiled_check_agrees_with_the_python_one(how: str) -> None:
    """check_sentences' C pass says sound exactly where the word-by-word check finds no
    problem (it hands everything else to that check, which words the error)."""
    from parsebench.formats.conllu import Sentence
    from parsebench.treebank import _problem, _sound_sentences

    if _sound_sentences is None:
        pytest.skip("built without the C accelerators")
    sents = read_conllu(TYPOS)
    assert _sound_sentences(sents, Sentence)
    s = sents[1]
    if how == "bool head":
        s = replace(s, heads=[True, *s.heads[1:]])
    elif how == "huge head":
        s = replace(s, heads=[2 ** 80, *s.heads[1:]])
    elif how == "str subclass":
        s = replace(s, lemmas=[_Text("x"), *s.lemmas[1:]])
    elif how == "tuple column":
        s = replace(s, upos=tuple(s.upos))  # type: ignore[arg-type]
    elif how == "newline in misc":
        s = replace(s, misc=["a\nb", *s.misc[1:]])
    else:
        s = _damage(s, how, 3)
    assert (_problem(s) is None) == _sound_sentences([sents[0], s], Sentence), how
    assert _problem(s) is not None or how == "empty word", how

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

import contextlib
import functools
import inspect
import json
import os
import random
import shutil
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from conftest import DATA, FIXTURES
from fuzzing import SEEDS, mutate
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import parsebench as pb
from parsebench.formats.conllu import Sentence, read_conllu

LEX = str(FIXTURES / "lexicon.txt")
LEARNER = FIXTURES / "learner.conllu"
PAIRS = FIXTURES / "profile_pairs.conllu"
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
    "ablation": lambda x: pb.ablation(x, "baseline:right", parts="lower,punct,segments",
                                      window=5, samples=20),
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
    from parsebench.model.treebank import _problem, _sound_sentences

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


# Every public callable with arguments of the wrong type and range (issue 48.11): each
# is called with valid arguments but one, drawn from values that are wrong for most
# parameters; the call returns, or raises an InputError (a value out of range, as the
# commands word it) or a TypeError (naming the parameter) of one line. Before, 43 of
# 181 such calls raised an internal error ("'int' object is not iterable"; IndexError;
# islice's ValueError), Treebank.read(0) read standard input and punct="no" scored
# punctuation.

@functools.cache
def _scratch() -> Path:
    """Where the calls below write (removed when the module's tests are done)."""
    return Path(tempfile.mkdtemp(prefix="parsebench-fuzz-"))


def _folder() -> Path:
    return Path(tempfile.mkdtemp(dir=_scratch()))


@pytest.fixture(scope="module", autouse=True)
def _cleaned() -> Iterator[None]:
    yield
    if _scratch.cache_info().currsize:
        shutil.rmtree(_scratch(), ignore_errors=True)
        _scratch.cache_clear()
        _tiny_run.cache_clear()


@functools.cache
def _tiny_run() -> tuple[Path, Path]:
    """A one-parser experiment on the seven typo sentences, run once: what run, report
    and export are called with."""
    where = _folder()
    exp = where / "tiny.toml"
    exp.write_text(f'name = "tiny"\n[corpus]\npath = "{TYPOS}"\n[noise]\nrates = [0.2]\n'
                   f'lexicon = "{LEX}"\n[[parsers]]\nname = "right"\n'
                   'spec = "baseline:right"\n', encoding="utf-8")
    store = where / "tiny.sqlite"
    pb.run(exp, store=store, report=where / "report")
    return exp, store


def _calls() -> dict[str, tuple[Callable[..., Any], Callable[[], dict[str, Any]]]]:
    """Each public callable and its valid arguments, by name (a Treebank's constructors
    each by its own)."""
    tree_texts = lambda: pb.Treebank.read(KEY)  # noqa: E731
    return {
        "Figure": (pb.Figure, lambda: {"name": "las", "values": {"f1": 0.5},
                                       "ci": (0.4, 0.6)}),
        "InputError": (pb.InputError, lambda: {"message": "bad", "path": "f", "line": 2}),
        "Result": (pb.Result, lambda: {"command": "x", "data": {"a": 1},
                                       "render": lambda: "", "warnings": ()}),
        "Scored": (pb.Scored, lambda: {"parser": "p", "method": "m", "projection": "x",
                                       "level": "clean", "signature": "s", "value": 1}),
        "Treebank": (pb.Treebank, lambda: {"sentences": list(tree_texts()), "name": "t"}),
        "Treebank.read": (pb.Treebank.read, lambda: {"path": KEY}),
        "Treebank.from_text": (pb.Treebank.from_text,
                               lambda: {"text": KEY.read_text(), "name": "t"}),
        "Treebank.from_sentences": (pb.Treebank.from_sentences,
                                    lambda: {"sentences": list(tree_texts()), "name": "t"}),
        "ablation": (pb.ablation, lambda: {"corpus": TYPOS, "parser": "baseline:right",
                                           "parts": "lower,punct", "samples": 20}),
        "attack": (pb.attack, lambda: {"corpus": TYPOS, "parser": "baseline:right",
                                       "queries": 2, "lexicon": LEX}),
        "compare": (pb.compare, lambda: {"gold": KEY, "systems": [ANSWER], "samples": 20}),
        "convert": (pb.convert, lambda: {"trees": GOLD_TREES, "head_rules": "collins"}),
        "evaluate_brackets": (pb.evaluate_brackets,
                              lambda: {"gold": GOLD_TREES, "test": TEST_TREES}),
        "evaluate_deps": (pb.evaluate_deps, lambda: {"gold": KEY, "system": ANSWER}),
        "evaluate_flat": (pb.evaluate_flat, lambda: {"key": GOLD_TREES,
                                                     "response": TEST_TREES}),
        "export": (pb.export, lambda: {"store": _tiny_run()[1],
                                       "out_dir": _folder()}),
        # a run of one corpus: refused in one line (no benchmark), as wrong arguments are
        "leaderboard": (pb.leaderboard, lambda: {"store": _tiny_run()[1],
                                                 "out_dir": _folder()}),
        "flatten": (pb.flatten, lambda: {"trees": GOLD_TREES,
                                         "rules": DATA / "demo-rules.txt"}),
        "invariance": (pb.invariance, lambda: {"corpus": TYPOS, "parsers": "baseline:right"}),
        "noise": (pb.noise, lambda: {"corpus": TYPOS, "rate": 0.3, "lexicon": LEX}),
        "parse": (pb.parse, lambda: {"corpus": TYPOS, "parser": "baseline:right"}),
        "learn_profile": (pb.learn_profile, lambda: {"pairs": PAIRS}),
        # no tokenizer and one iteration: a wrong value the call accepts (iterations
        # None: UDPipe's defaults) trains for seconds, not minutes
        "train": (pb.train, lambda: {"parser": "udpipe", "train": LEARNER,
                                     "output": _folder() / "m.udpipe", "iterations": 1,
                                     "tokenizer": "none"}),
        "report": (pb.report, lambda: {"store": _tiny_run()[1],
                                       "out_dir": _folder()}),
        "robustness_f1": (pb.robustness_f1, lambda: {"grammatical": TYPOS,
                                                     "ungrammatical": TYPOS}),
        "robustness_rows": (pb.robustness_rows, lambda: {"clean": TYPOS, "noisy": [TYPOS],
                                                         "accuracy": 0.9}),
        "robustness_sentences": (pb.robustness_sentences,
                                 lambda: {"clean": TYPOS, "noisy": [TYPOS]}),
        "run": (pb.run, lambda: {"experiment": _tiny_run()[0], "store": _tiny_run()[1],
                                 "report": _folder()}),
        "run_all": (pb.run_all, lambda: {"experiments": [_tiny_run()[0]],
                                         "store": _tiny_run()[1], "report": _folder()}),
        "validate": (pb.validate, lambda: {"files": KEY}),
    }


CALLS = _calls()
WRONG: list[Any] = [None, True, 0, -1, 1.5, float("nan"), "", "no", b"x", [], [7], ["x"],
                    {}, {"a": 1}, object(), (1, 2, 3)]
"""Values wrong for most parameters (a wrong one may be right for some: None where
None is allowed, 0 for a seed, "no" for a path, which then names no file)."""


def test_every_public_callable_is_fuzzed() -> None:
    names = {n for n in pb.__all__ if callable(getattr(pb, n))}
    assert names <= set(CALLS), names - set(CALLS)


def _parameters(name: str) -> list[str]:
    f = CALLS[name][0]
    return [p for p in inspect.signature(f).parameters if p not in ("self", "cls")]


@settings(max_examples=max(60, EXAMPLES * 2), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_public_callable_refuses_wrong_arguments_in_one_line(data: Any) -> None:
    name = data.draw(st.sampled_from(sorted(CALLS)), "callable")
    param = data.draw(st.sampled_from(_parameters(name)), "parameter")
    value = data.draw(st.sampled_from(WRONG), "value")
    f, base = CALLS[name]
    args = {**base(), param: value}
    try:
        with contextlib.chdir(_folder()):  # "no" as a folder is written there
            f(**args)
    except pb.InputError as exc:
        assert "\n" not in str(exc), f"{name}({param}={value!r}): {exc}"
    except (TypeError, ValueError) as exc:
        message = str(exc)
        assert "\n" not in message and message.startswith(f"{param}: "), \
            f"{name}({param}={value!r}): {type(exc).__name__}: {message}"
    except Exception as exc:  # what the test is for
        raise AssertionError(f"{name}({param}={value!r}): {type(exc).__name__}: "
                             f"{exc}") from exc


def test_the_wrong_arguments_of_issue_48_are_refused_naming_them() -> None:
    sents = read_conllu(KEY)
    sents[0].multiword = [(0, len(sents[0].forms) + 2, ["1-9", "x", *["_"] * 8])]
    cases: list[tuple[Callable[[], Any], type[Exception], str]] = [
        (lambda: pb.evaluate_deps(KEY, 123), TypeError, "system: "),
        (lambda: pb.evaluate_deps(KEY, None), TypeError, "system: "),
        (lambda: pb.Treebank.read(0), TypeError, "path: "),
        (lambda: pb.Treebank.from_text(None), TypeError, "text: "),
        (lambda: pb.parse(KEY, None), TypeError, "parser: "),
        (lambda: pb.evaluate_deps(KEY, KEY, select=["deprel=subj", 7]), TypeError,
         "select: item 2"),
        (lambda: pb.evaluate_deps(KEY, pb.Treebank(sents)), pb.InputError,
         "<treebank>: sentence 1: multiword token"),
        (lambda: pb.robustness_rows(KEY, []), pb.InputError, "noisy: an empty list"),
        (lambda: pb.run(KEY, limit=-1), pb.InputError, "--limit -1: "),
        (lambda: pb.compare(KEY, [KEY], samples=1.5), TypeError, "samples: "),
        (lambda: pb.evaluate_deps(KEY, KEY, punct="no"), TypeError, "punct: "),
        (lambda: pb.invariance(KEY, []), pb.InputError, "parsers: an empty list"),
    ]
    for call, kind, start in cases:
        with pytest.raises(kind) as exc:
            call()
        assert str(exc.value).startswith(start), str(exc.value)

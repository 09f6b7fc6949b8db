"""The C accelerator of eval deps (metrics/dependency/_deps_fast.pyx) against count_stretch, the
pure-Python kernel it stands in for: the same SentenceCounts sentence by sentence, the
same totals, and the same output of ``eval deps`` (text, --json, --per-sentence), on
EWT against damaged copies of itself, on the bundled files, and on random small trees."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from array import array
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from conftest import DATA, FIXTURES, shared_path
from hypothesis import given, settings
from hypothesis import strategies as st

import parsebench.metrics.dependency.enhanced as enhanced
import parsebench.metrics.dependency.stretch as deps_counts
import parsebench.metrics.dependency.tree_checks as tree_checks
from parsebench.formats.conllu import NO_HEAD, Sentence, read_conllu, write_conllu
from parsebench.metrics.dependency.evaluate import DepsOptions, SentenceCounts, score_deps
from parsebench.metrics.dependency.lin_scorer import BucketCounts, LabelMap
from parsebench.metrics.dependency.stretch import ACCELERATED, count_stretch, row_counter
from parsebench.metrics.dependency.tree_checks import faults


@pytest.fixture(autouse=True)
def _built() -> None:
    if not ACCELERATED:
        if os.environ.get("CI") == "true":
            pytest.fail("the C accelerator of eval deps was not built")
        pytest.skip("the C accelerator is not built (no C compiler at install time)")


LABELS = ("nsubj", "obj", "obl", "obl:tmod", "nmod", "nmod:poss", "amod", "advmod", "det",
          "case", "aux", "aux:pass", "cop", "mark", "cc", "conj", "punct", "root", "dep",
          "acl:relcl", "compound", "flat", "_")
UPOS = ("NOUN", "VERB", "ADJ", "DET", "ADP", "PUNCT", "PRON", "AUX", "_")
XPOS = ("NN", "NNS", "VB", "VBD", "JJ", "DT", "IN", ",", "_")
FEATS = ("_", "Number=Sing", "Number=Plur", "Number=Sing|Person=3", "Person=3|Number=Sing",
         "Number=Sing|Typo=Yes", "Typo=Yes", "Case=Nom|Number=Sing", "Abbr=Yes|NumForm=Digit")
LEMMAS = ("_", "be", "dog", "the", "sit", "Dog")
LABEL_MAP = LabelMap({"nsubj": "subj", "obj": "subj", "obl:tmod": "obl", "det": "case"})
BREAKDOWNS = ("deprel", "arc-length", "upos", "sentence-length", "direction")
"""Every breakdown the kernel counts, a root-arc one (arc length) before a plain one."""
SETTINGS = [dict(punct=p, labels=m, confusion=c, fields=())
            for p in (True, False) for m in (None, LABEL_MAP) for c in (None, "deprel", "upos")
            ] + [dict(punct=p, labels=m, confusion=None, fields=f) for p, m, f in (
                (True, None, BREAKDOWNS), (False, LABEL_MAP, BREAKDOWNS),
                (True, LABEL_MAP, ("deprel",)), (False, None, ("direction", "upos")))]
"""--no-punct, --labels, --confusion and breakdowns (--by, a run's where-errors-fall),
each way (the kernel counts them all)."""
FEWER = [dict(punct=p, labels=m, confusion=c, fields=f) for p, m, c, f in (
    (True, None, None, ()), (False, None, None, BREAKDOWNS),
    (True, LABEL_MAP, "deprel", ("deprel", "arc-length", "sentence-length")),
    (False, LABEL_MAP, "upos", ()))]
"""Enough of them to run on a treebank."""


def damaged(gold: list[Sentence], seed: int) -> list[Sentence]:
    """A system's output with the gold's words: heads moved (cycles and several roots
    among them), some words without a head, relations (subtypes, functional ones) and
    UPOS, XPOS, FEATS (reordered, non-universal features) and lemmas changed."""
    rng = random.Random(seed)
    out = []
    for s in gold:
        n = len(s)
        heads, deprels = list(s.heads), list(s.deprels)
        upos, xpos, feats, lemmas = list(s.upos), list(s.xpos), list(s.feats), list(s.lemmas)
        for i in range(n):
            r = rng.random()
            if r < 0.12:
                heads[i] = rng.randint(0, n)  # anywhere: cycles, roots, itself
            elif r < 0.14:
                heads[i] = NO_HEAD
            if rng.random() < 0.1:
                deprels[i] = rng.choice(LABELS)
            if rng.random() < 0.05:
                upos[i] = rng.choice(UPOS)
            if rng.random() < 0.05:
                xpos[i] = rng.choice(XPOS)
            r = rng.random()
            if r < 0.04:
                feats[i] = rng.choice(FEATS)
            elif r < 0.08 and "|" in feats[i]:  # the same features in another order
                feats[i] = "|".join(reversed(feats[i].split("|")))
            elif r < 0.1:
                feats[i] = feats[i] + "|Typo=Yes" if feats[i] != "_" else "Typo=Yes"
            if rng.random() < 0.05:
                lemmas[i] = rng.choice(LEMMAS)
        if n > 2 and rng.random() < 0.05:  # a cycle of two
            a, b = rng.sample(range(n), 2)
            heads[a], heads[b] = b + 1, a + 1
        if n > 2 and rng.random() < 0.05:  # several roots
            heads[rng.randrange(n)] = 0
        out.append(replace(s, heads=heads, deprels=deprels, upos=upos, xpos=xpos,
                           feats=feats, lemmas=lemmas))
    return out


Breakdowns = dict[str, dict[str, BucketCounts]]


def python_counts(g: Sentence, s: Sentence, punct: bool, labels: Any, confusion: str | None,
                  fields: tuple[str, ...]
                  ) -> tuple[SentenceCounts, Counter[tuple[str, str]] | None, Breakdowns]:
    part = count_stretch([g], [s], (), fields, labels, "G", "S", punct, confusion, True)
    return part.per_sentence[0], part.confusion, part.breakdowns


def compiled_counts(gold: list[Sentence], system: list[Sentence], punct: bool, labels: Any,
                    confusion: str | None, fields: tuple[str, ...]
                    ) -> tuple[list[SentenceCounts], SentenceCounts, Counter[tuple[str, str]],
                               Breakdowns]:
    pairs: Counter[tuple[str, str]] = Counter()
    breakdowns: Breakdowns = {f: {} for f in fields}
    fast = row_counter((), fields, labels, punct, confusion, pairs, breakdowns)
    assert fast is not None
    out = []
    for g, s in zip(gold, system, strict=True):
        c = SentenceCounts(line=g.line, sent_id=g.comment_value("sent_id"))
        assert fast.count(g, s, c)
        out.append(c)
    total = SentenceCounts()
    fast.flush(total)
    return out, total, pairs, breakdowns


def assert_same_counts(gold: list[Sentence], system: list[Sentence],
                       settings: list[dict[str, Any]] = SETTINGS) -> None:
    """Each sentence's counts (its breakdowns' groups in count_stretch's order), their
    sum, the confusion pairs and the breakdowns (groups in order), in each setting."""
    for kw in settings:
        got, total, pairs, breakdowns = compiled_counts(gold, system, **kw)
        want_total = SentenceCounts()
        want_pairs: Counter[tuple[str, str]] = Counter()
        want_breakdowns: Breakdowns = {f: {} for f in kw["fields"]}
        for g, s, c in zip(gold, system, got, strict=True):
            want, confusion, by = python_counts(g, s, **kw)
            assert c == want and list(c.groups) == list(want.groups), (kw, g.line)
            want_total.add(want)
            if confusion is not None:
                want_pairs.update(confusion)
            for f, groups in by.items():
                for name, b in groups.items():
                    want_breakdowns[f].setdefault(name, BucketCounts()).add(b)
        assert total == want_total, kw
        assert pairs == want_pairs, kw
        assert breakdowns == want_breakdowns, kw
        assert [list(x) for x in breakdowns.values()] == \
            [list(x) for x in want_breakdowns.values()], kw


def assert_same_results(gold: list[Sentence], system: list[Sentence],
                        settings: list[dict[str, Any]] = SETTINGS) -> None:
    """score_deps with and without the kernel, in each setting: each sentence's
    counts, the totals, the warnings and the JSON object (without the bootstrap
    intervals, which the sentences' counts decide)."""
    for k, kw in enumerate(settings):
        fields = kw["fields"]
        by = dict(by=fields[0], also_by=fields[1:]) if fields else {}
        kw = {key: v for key, v in kw.items() if key != "fields"} | by
        a = score_deps(gold, system, DepsOptions(**kw))
        b = score_deps(gold, system, DepsOptions(accelerated=False, **kw))
        assert a.per_sentence == b.per_sentence, kw
        assert [list(c.groups) for c in a.per_sentence or ()] == \
            [list(c.groups) for c in b.per_sentence or ()], kw
        assert a.total == b.total and a.warnings == b.warnings, kw
        assert json.dumps(replace(a, per_sentence=None).as_dict()) == \
            json.dumps(replace(b, per_sentence=None).as_dict()), kw
        # compare's rows, appended by the kernel itself: those of the sentences' counts
        # (a metric a setting: a column of each part of the kernel's array)
        metric = ("las", "mlas", "lcm", "tokens")[k % 4]
        rows = [array("d"), array("d")]
        for out, fast in zip(rows, (True, False), strict=True):
            score_deps(gold, system, DepsOptions(
                accelerated=fast, per_sentence=False, sentence_rows=(metric, out), **kw))
        want = [x for c in b.per_sentence or () for x in (
            getattr(c, metric).correct, getattr(c, metric).gold, getattr(c, metric).system)]
        assert rows[0] == rows[1] == array("d", want), (kw, metric)


def outputs(gold: list[Sentence], system: list[Sentence], accelerated: bool,
            monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[str]:
    """What eval deps prints (text and --json, with and without --no-punct, --by deprel)
    and writes (--per-sentence), through the API the command calls."""
    import parsebench as pb

    with monkeypatch.context() as m:
        if not accelerated:
            m.setattr(deps_counts, "_RowCounter", None)
            m.setattr(tree_checks, "_tree_faults", None)
            m.setattr(tree_checks, "_head_summary", None)
            m.setattr(enhanced, "_deps_rows", None)
        g, s = pb.Treebank(gold, "gold.conllu"), pb.Treebank(system, "system.conllu")
        labels = tmp_path / "labels.txt"
        labels.write_text("subj nsubj obj\nobl obl:tmod\n")
        out = []
        for kw in ({}, {"punct": False}, {"by": "deprel"}, {"confusion": "upos"},
                   {"labels": labels, "punct": False}):
            r = pb.evaluate_deps(g, s, per_sentence=tmp_path / "rows.tsv", **kw)
            out += [str(r), json.dumps(r.to_dict(), indent=2), (tmp_path / "rows.tsv")
                    .read_text(), "\n".join(r.warnings)]
    return out


def test_ewt_against_damaged_copies_counts_and_outputs_agree(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name, seed in (("dev", 1), ("test", 2)):
        gold = read_conllu(shared_path(f"data/ud-english-ewt/en_ewt-ud-{name}.conllu"))
        system = damaged(gold, seed)
        assert_same_counts(gold, system, FEWER)
        assert_same_results(gold, system, FEWER)
        assert outputs(gold, system, True, monkeypatch, tmp_path) == \
            outputs(gold, system, False, monkeypatch, tmp_path)


def bundled() -> list[tuple[list[Sentence], list[Sentence]]]:
    """The files of a fresh clone, each against damaged copies of itself, and Lin's key
    against its answer."""
    files = [*sorted(FIXTURES.glob("*.conllu")), DATA / "lin-key.conllu",
             DATA / "lin-answer.conllu"]
    out = []
    for f in files:
        gold = read_conllu(f)
        out += [(gold, gold)] + [(gold, damaged(gold, seed)) for seed in range(8)]
    key, answer = read_conllu(DATA / "lin-key.conllu"), read_conllu(DATA / "lin-answer.conllu")
    return [*out, (key, answer), (answer, key)]


def test_bundled_files_counts_and_outputs_agree(monkeypatch: pytest.MonkeyPatch,
                                                tmp_path: Path) -> None:
    for gold, system in bundled():
        assert_same_counts(gold, system)
        assert_same_results(gold, system)
        assert outputs(gold, system, True, monkeypatch, tmp_path) == \
            outputs(gold, system, False, monkeypatch, tmp_path)


def test_misspelled_rows_and_retokenized_files_agree(monkeypatch: pytest.MonkeyPatch,
                                                     tmp_path: Path) -> None:
    # typos.conllu against its corrected forms: the same rows, another text (row by row,
    # with a note); then a system that merges two words of one sentence: that stretch is
    # aligned by text (count_stretch), the sentences around it by the kernel
    gold = read_conllu(FIXTURES / "typos.conllu")
    fixed = [replace(s, forms=[m.split("CorrectForm=")[1] if "CorrectForm=" in m else f
                               for f, m in zip(s.forms, s.misc, strict=True)]) for s in gold]
    learner = read_conllu(FIXTURES / "learner.conllu")
    merged = [*learner]
    s = merged[1]
    merged[1] = replace(s, forms=[s.forms[0] + s.forms[1], *s.forms[2:]],
                        **{k: getattr(s, k)[1:] for k in ("lemmas", "upos", "xpos", "feats",
                                                          "deprels", "deps", "misc")},
                        heads=[max(0, h - 1) if h != NO_HEAD else h for h in s.heads[1:]])
    for g, sy in ((gold, fixed), (fixed, gold), (learner, damaged(merged, 3))):
        assert_same_results(g, sy)
        assert outputs(g, sy, True, monkeypatch, tmp_path) == \
            outputs(g, sy, False, monkeypatch, tmp_path)


PURE = ("import sys, parsebench.metrics.dependency.stretch as d,"
        " parsebench.metrics.dependency.tree_checks as t;"
        "import parsebench.metrics.dependency.enhanced as e, parsebench.formats.conllu as c;"
        "d._RowCounter = None; t._tree_faults = None; t._head_summary = None;"
        "e._deps_rows = None; c._read_sentences = None;"
        "from parsebench.cli import main; sys.argv[0] = 'parsebench'; main()")


def test_the_command_prints_the_same_with_and_without_the_kernel(tmp_path: Path) -> None:
    gold = read_conllu(FIXTURES / "learner.conllu")
    g, s = tmp_path / "gold.conllu", tmp_path / "system.conllu"
    for path, sents in ((g, gold), (s, damaged(gold, 5))):
        with path.open("w", encoding="utf-8") as fh:
            write_conllu(sents, fh)
    for extra in ([], ["--json"], ["--no-punct", "--json"], ["--by", "deprel"],
                  ["--invalid", "zero"]):
        runs = []
        for pure in (False, True):
            rows = tmp_path / f"rows-{pure}.tsv"
            start = ["-c", PURE] if pure else ["-m", "parsebench.cli"]
            p = subprocess.run([sys.executable, *start, "eval", "deps", str(g), str(s),
                                "--per-sentence", str(rows), *extra],
                               capture_output=True, text=True)
            assert p.returncode == 0, p.stderr
            runs.append((p.stdout, p.stderr, rows.read_text()))
        assert runs[0] == runs[1], extra


@st.composite
def sentence_pairs(draw: st.DrawFn) -> tuple[list[Sentence], list[Sentence]]:
    """Gold sentences of up to 8 words with any heads (trees or not), and a system with
    the same rows whose every column may differ."""
    gold, system = [], []
    for k in range(draw(st.integers(1, 3))):
        n = draw(st.integers(1, 8))

        def column(values: tuple[str, ...], n: int = n) -> list[str]:
            return draw(st.lists(st.sampled_from(values), min_size=n, max_size=n))

        def heads(n: int = n) -> list[int]:
            return draw(st.lists(st.integers(NO_HEAD, n), min_size=n, max_size=n))

        forms = [f"w{i}" for i in range(n)]
        mw = []
        if n > 2 and draw(st.booleans()):
            a = draw(st.integers(0, n - 2))
            mw = [(a, a + 1, [f"{a + 1}-{a + 2}", "ww"] + ["_"] * 8)]
        g = Sentence(forms, column(LEMMAS), column(UPOS), column(XPOS), column(FEATS),
                     heads(), column(LABELS), ["_"] * n, ["_"] * n,
                     [f"# sent_id = s{k}"], mw, [], 1 + 10 * k)
        cols: dict[str, Any] = {}
        for name, values in (("lemmas", LEMMAS), ("upos", UPOS), ("xpos", XPOS),
                             ("feats", FEATS), ("deprels", LABELS)):
            cols[name] = getattr(g, name) if draw(st.booleans()) else column(values)
        cols["heads"] = g.heads if draw(st.booleans()) else heads()
        gold.append(g)
        system.append(replace(g, comments=[], **cols))
    return gold, system


@settings(max_examples=300, deadline=None)
@given(sentence_pairs())
def test_random_small_trees_count_the_same(pair: tuple[list[Sentence], list[Sentence]]
                                           ) -> None:
    gold, system = pair
    assert_same_counts(gold, system)
    assert_same_results(gold, system)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.integers(-3, 10), max_size=10))
def test_tree_faults_in_c_are_the_python_ones(heads: list[int]) -> None:
    from parsebench.metrics.dependency._deps_fast import tree_faults

    assert tree_faults(heads) == faults(heads)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.integers(-3, 10) | st.sampled_from([2**70, -2**70, 2**40]), max_size=10))
def test_head_summary_in_c_is_the_python_one(heads: list[int],
                                             ) -> None:
    from parsebench.metrics.dependency._deps_fast import head_summary

    with pytest.MonkeyPatch.context() as m:
        m.setattr(tree_checks, "_head_summary", None)
        want = tree_checks.head_summary(heads)
    assert head_summary(heads) == want
    assert head_summary((0,)) is None and head_summary([True]) is None  # type: ignore[arg-type]


DEPS_VALUES = ("_", "0:root", "1:nsubj", "2:obj", "1:nsubj|2:nsubj:xsubj", "2:obl:in",
               "1:conj:and|3:obl", "1.1:dep", "1:dep|1.1:dep", "9:dep", "x", "1:", "3:nmod",
               "1:a|", "|1:a", "01:dep", "1.:x", ".1:x", "a:b", "\uff11:dep", "2:conj>obl:x.y",
               "12345678901234567890:dep", "0:root|0:root", "", "1:obl:on", "1:obl", "01:obl:in",
               "2:nsubj:pass", "02:nsubj")


@st.composite
def deps_pairs(draw: st.DrawFn) -> tuple[Sentence, Sentence]:
    """Two sentences with the same rows and any DEPS: edges to empty nodes, malformed
    values, heads past the sentence."""
    n = draw(st.integers(1, 5))

    def one() -> Sentence:
        deps = draw(st.lists(st.sampled_from(DEPS_VALUES), min_size=n, max_size=n))
        empty = [(1, ["1.1", "z", "_", "_", "_", "_", "_", "_",
                      draw(st.sampled_from(["_", "2:dep", "1:a|2:b"])), "_"])] \
            if draw(st.booleans()) else []
        return Sentence([f"w{i}" for i in range(n)], ["_"] * n, ["X"] * n, ["_"] * n,
                        ["_"] * n, [0] * n, ["dep"] * n, deps, ["_"] * n, [], [], empty, 1)

    return one(), one()


@settings(max_examples=400, deadline=None)
@given(deps_pairs(), st.booleans())
def test_elas_rows_in_c_are_the_python_ones(pair: tuple[Sentence, Sentence],
                                            no_empty_nodes: bool) -> None:
    """EnhancedCounter.rows with the C count of DEPS as written and without: the same
    counts, edges left out, malformed values noted, errors."""
    from parsebench.common.errors import InputError
    from parsebench.metrics.dependency.conll18 import F1Count
    from parsebench.metrics.dependency.enhanced import Enhanced, EnhancedCounter

    gold, system = pair
    got = []
    for c_kernel in (True, False):
        with pytest.MonkeyPatch.context() as m:
            if not c_kernel:
                m.setattr(enhanced, "_deps_rows", None)
            counter = EnhancedCounter(Enhanced(no_empty_nodes=no_empty_nodes), "g", "s")
            e, u = F1Count(), F1Count()
            try:
                counter.rows(gold, system, e, u)
                counter.rows(system, gold, e, u)
                got.append((e, u, counter.skipped, counter.bad))
            except InputError as exc:
                got.append(str(exc))
    assert got[0] == got[1]


def test_what_the_kernel_leaves_to_count_stretch() -> None:
    gold = read_conllu(DATA / "lin-key.conllu")
    fast = row_counter((), (), None, True, None, None)
    assert fast is not None
    g = gold[0]
    assert not fast.count(g, replace(g, heads=[*g.heads[:-1], len(g) + 1]))  # outside
    assert not fast.count(g, replace(g, heads=[*g.heads[:-1], True]))  # not an int
    assert not fast.count(g, replace(g, upos=tuple(g.upos)))  # type: ignore[arg-type]
    assert not fast.count(g, replace(g, deprels=g.deprels[:-1]))  # a column short
    total = SentenceCounts()
    fast.flush(total)
    assert total == SentenceCounts()  # nothing was counted
    from parsebench.metrics.dependency.lin_scorer import Selection

    assert row_counter([Selection.parse("upos=N")], (), None, True, None, None) is None
    assert row_counter((), ["deprel", "word"], None, True, None, None, {}) is None
    from parsebench.metrics.dependency._deps_fast import tree_faults

    assert tree_faults([1.0, 0]) == -1  # type: ignore[list-item]
    assert tree_faults((0,)) == -1  # type: ignore[arg-type]

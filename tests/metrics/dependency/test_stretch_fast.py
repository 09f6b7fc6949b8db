"""The C accelerator of stretches aligned by text (metrics/dependency/_stretch_fast.pyx)
against the pure-Python path it stands in for: count_stretch's counts of every gold
sentence and its confusion pairs, EnhancedCounter.stretch's ELAS and EULAS, text_length
and the API's check of multiword tokens; on random retokenizations of the same text
(other tokens, multiword tokens, sentence splits) and on UDPipe's parse of EWT test from
raw text, whose own tokens and sentences put a third of the words in such stretches."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

import pytest
from conftest import needs, shared_path
from hypothesis import given, settings
from hypothesis import strategies as st

import parsebench.formats.conllu as conllu
import parsebench.metrics.dependency.enhanced as enhanced
import parsebench.metrics.dependency.stretch as stretch
import parsebench.metrics.dependency.tokenization as tokenization
import parsebench.model.treebank as treebank
from parsebench.common.errors import InputError
from parsebench.formats.conllu import NO_HEAD, Sentence, read_conllu
from parsebench.metrics.dependency.enhanced import Enhanced, EnhancedCounter
from parsebench.metrics.dependency.evaluate import DepsOptions, _Chunks, score_deps
from parsebench.metrics.dependency.lin_scorer import LabelMap
from parsebench.metrics.dependency.stretch import (
    TEXT_ACCELERATED,
    SentenceCounts,
    count_stretch,
    stretch_counter,
)


@pytest.fixture(autouse=True)
def _built() -> None:
    if not TEXT_ACCELERATED:
        if os.environ.get("CI") == "true":
            pytest.fail("the C accelerator of stretches aligned by text was not built")
        pytest.skip("the C accelerator is not built (no C compiler at install time)")


LABELS = ("nsubj", "obj", "obl", "obl:tmod", "nmod:poss", "amod", "det", "case", "aux",
          "cop", "mark", "cc", "conj", "punct", "root", "dep", "_")
UPOS = ("NOUN", "VERB", "ADJ", "DET", "ADP", "PUNCT", "_")
XPOS = ("NN", "VB", "JJ", "DT", "_")
FEATS = ("_", "Number=Sing", "Number=Plur", "Number=Sing|Typo=Yes", "Typo=Yes",
         "Case=Nom|Number=Sing", "Number=Sing|Case=Nom")
LEMMAS = ("_", "be", "dog", "Dog")
LABEL_MAP = LabelMap({"nsubj": "subj", "obj": "subj", "obl:tmod": "obl", "det": "case"})
SETTINGS = [dict(punct=p, labels=m, confusion=c)
            for p, m, c in ((True, None, None), (False, None, "deprel"),
                            (True, LABEL_MAP, "upos"), (False, LABEL_MAP, None))]
"""--no-punct, --labels and --confusion (the kernel counts them all)."""
PIECES = ("a", "b", "ab", "A", "B", "é", "É", "'s", ".", "x y", "\u00a0", "c\u2009d", "Ab")
"""Word texts: ASCII, other Latin letters, and spaces that the alignment drops (a form of
spaces alone is a token without text)."""


def _deps(draw: st.DrawFn, n: int) -> str:
    """A DEPS value: none, edges to words, to an empty node, or now and then malformed."""
    kind = draw(st.integers(0, 9))
    if kind < 3:
        return "_"
    if kind == 9:
        return draw(st.sampled_from(["x", "1:", f"{n + 1}:dep"]))  # enhanced.py's to say
    edges = [f"{draw(st.integers(0, n))}:{draw(st.sampled_from(LABELS[:-1]))}"
             for _ in range(draw(st.integers(1, 2)))]
    if kind == 8:
        edges.append("1.1:nsubj")
    return "|".join(sorted(set(edges)))


def _sentence(draw: st.DrawFn, tokens: list[list[str]], line: int) -> Sentence:
    """A sentence of TOKENS (each a list of its words; several words: a multiword token
    whose form is their text run together), annotated at random."""
    forms: list[str] = []
    multiword: list[tuple[int, int, list[str]]] = []
    for words in tokens:
        if len(words) > 1:
            cols = [f"{len(forms) + 1}-{len(forms) + len(words)}", "".join(words),
                    *["_"] * 8]
            multiword.append((len(forms), len(forms) + len(words) - 1, cols))
            # a multiword token's words need not spell its text: the alignment reads
            # their lower-cased forms
            words = [w.upper() if draw(st.booleans()) else w for w in words]
        forms += words
    n = len(forms)

    def column(values: tuple[str, ...]) -> list[str]:
        return [draw(st.sampled_from(values)) for _ in range(n)]

    heads = [NO_HEAD if draw(st.integers(0, 15)) == 0 else draw(st.integers(0, n))
             for _ in range(n)]
    return Sentence(forms=forms, lemmas=column(LEMMAS), upos=column(UPOS), xpos=column(XPOS),
                    feats=column(FEATS), heads=heads, deprels=column(LABELS),
                    deps=[_deps(draw, n) for _ in range(n)], misc=["_"] * n,
                    comments=[f"# sent_id = s{line}"], multiword=multiword, line=line)


def _cut(draw: st.DrawFn, text: str) -> list[str]:
    """TEXT in pieces of one or more characters."""
    cuts = sorted(set(draw(st.lists(st.integers(1, max(1, len(text) - 1)), max_size=6))))
    cuts = [c for c in cuts if 0 < c < len(text)]
    return [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]


def _tokens_to_sentences(draw: st.DrawFn, tokens: list[list[str]], first_line: int
                         ) -> list[Sentence]:
    """TOKENS split into sentences at random."""
    out: list[Sentence] = []
    while tokens:
        k = draw(st.integers(1, len(tokens)))
        out.append(_sentence(draw, tokens[:k], first_line + 100 * len(out)))
        tokens = tokens[k:]
    return out


@st.composite
def retokenized(draw: st.DrawFn) -> tuple[list[Sentence], list[Sentence]]:
    """A gold stretch and a system stretch that spell the same text (spaces aside) in other
    tokens, words and sentences: what a parser's own tokenizer and sentence splitter give."""
    g_tokens: list[list[str]] = []
    for _ in range(draw(st.integers(1, 8))):
        pieces = draw(st.lists(st.sampled_from(PIECES), min_size=1, max_size=3))
        g_tokens.append(pieces if draw(st.integers(0, 4)) == 0 else ["".join(pieces)])
    gold = _tokens_to_sentences(draw, g_tokens, 1)
    text = "".join(tokenization.strip_spaces(w) for t in g_tokens for w in t)
    if not text:  # only spaces: nothing to cut
        return gold, [replace(s) for s in gold]
    s_tokens: list[list[str]] = []
    for piece in _cut(draw, text):
        s_tokens.append(_cut(draw, piece) if draw(st.integers(0, 4)) == 0 else [piece])
    return gold, _tokens_to_sentences(draw, s_tokens, 1001)


def _python(gold: list[Sentence], system: list[Sentence], punct: bool, labels: Any,
            confusion: str | None) -> tuple[list[dict[str, Any]], Counter[tuple[str, str]]]:
    part = count_stretch(gold, system, (), (), labels, "G", "S", punct, confusion, False)
    return [asdict(c) for c in part.per_sentence], part.confusion or Counter()


def _compiled(gold: list[Sentence], system: list[Sentence], punct: bool, labels: Any,
              confusion: str | None
              ) -> tuple[list[dict[str, Any]], Counter[tuple[str, str]], dict[str, Any]] | None:
    pairs: Counter[tuple[str, str]] = Counter()
    fast = stretch_counter((), (), labels, punct, confusion, pairs)
    assert fast is not None
    out = [SentenceCounts(line=s.line, sent_id=s.comment_value("sent_id")) for s in gold]
    if fast.count(gold, system, out) is None:
        return None
    total = SentenceCounts()
    fast.flush(total)
    return [asdict(c) for c in out], pairs, asdict(total)


def _elas(gold: list[Sentence], system: list[Sentence], compiled: bool,
          monkeypatch: pytest.MonkeyPatch) -> tuple[Any, ...]:
    """EnhancedCounter.stretch of the stretch, with the C path or without it: each gold
    sentence's ELAS and EULAS, the edges left out, the malformed values' lines; or the
    error it raises."""
    sys2gold = tokenization.align_words(gold, system)
    sentence_of = stretch._gold_sentence_of_system_words(
        gold, system, sys2gold, [(k, i) for k, s in enumerate(gold) for i in range(len(s))])
    counter = EnhancedCounter(Enhanced(), "G", "S")
    elas = [SentenceCounts().elas for _ in gold]
    eulas = [SentenceCounts().eulas for _ in gold]
    with monkeypatch.context() as m:
        if not compiled:
            m.setattr(enhanced, "_deps_stretch", None)
        try:
            counter.stretch(gold, system, sys2gold, sentence_of, elas, eulas)
        except Exception as e:
            return ("raised", type(e).__name__, str(e))
    return [asdict(c) for c in elas], [asdict(c) for c in eulas], counter.skipped, counter.bad


def _check_pair(gold: list[Sentence], system: list[Sentence]) -> None:
    for kw in SETTINGS:
        want, want_pairs = _python(gold, system, **kw)
        got = _compiled(gold, system, **kw)
        assert got is not None, "the kernel left a well-formed stretch to count_stretch"
        per_sentence, pairs, total = got
        assert per_sentence == want
        assert pairs == want_pairs
        summed = SentenceCounts()
        for c in count_stretch(gold, system, (), (), kw["labels"], "G", "S", kw["punct"],
                               kw["confusion"], False).per_sentence:
            summed.add(c)
        assert total == asdict(replace(summed, line=0, sent_id=None, groups={}))


@settings(max_examples=400, deadline=None)
@given(retokenized())
def test_random_retokenizations_count_the_same(pair: tuple[list[Sentence], list[Sentence]]
                                               ) -> None:
    gold, system = pair
    _check_pair(gold, system)
    for s in (*gold, *system):
        assert tokenization.fast_text_length is not None
        assert tokenization.fast_text_length(s) == _python_text_length(s)


@settings(max_examples=300, deadline=None)
@given(retokenized())
def test_random_retokenizations_give_the_same_elas(
        pair: tuple[list[Sentence], list[Sentence]]) -> None:
    gold, system = pair
    with pytest.MonkeyPatch.context() as mp:
        assert _elas(gold, system, True, mp) == _elas(gold, system, False, mp)


def _python_text_length(s: Sentence) -> int:
    real = tokenization.fast_text_length
    tokenization.fast_text_length = None
    try:
        return tokenization.text_length(s)
    finally:
        tokenization.fast_text_length = real


def test_what_the_kernel_leaves_to_count_stretch() -> None:
    """Texts that differ (count_stretch says where), columns of other lengths, heads
    outside the sentence: None, nothing counted."""
    g = Sentence(forms=["ab", "c"], lemmas=["_"] * 2, upos=["X"] * 2, xpos=["_"] * 2,
                 feats=["_"] * 2, heads=[0, 1], deprels=["root", "dep"], deps=["_"] * 2,
                 misc=["_"] * 2)
    s = replace(g, forms=["a", "bc"])
    fast = stretch_counter((), (), None, True, None, None)
    assert fast is not None
    assert fast.count([g], [replace(s, forms=["a", "bd"])]) is None
    assert fast.count([g], [replace(s, heads=[0, 3])]) is None
    assert fast.count([g], [replace(s, upos=["X"])]) is None
    assert fast.count([], [s]) is None
    total = SentenceCounts()
    fast.flush(total)
    assert total == SentenceCounts()
    assert fast.count([g], [s]) is not None
    assert stretch_counter([object()], (), None, True, None, None) is None  # type: ignore[list-item]
    assert stretch_counter((), ["deprel"], None, True, None, None) is None


def _udpipe_raw(tmp_path: Path) -> tuple[Path, Path]:
    needs("ufal.udpipe")
    from parsed import udpipe_raw as parse

    gold = shared_path("data/ud-english-ewt/en_ewt-ud-test.conllu")
    system = tmp_path / "raw.conllu"
    parse(shared_path("models/en_ewt.udpipe"), gold, system)
    return gold, system


def test_udpipe_raw_text_stretches_count_the_same(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Every stretch of UDPipe's raw-text parse of EWT test where the tokens differ (about
    400, a third of the words; its multiword tokens among them), each setting, and the
    ELAS and EULAS of the same stretches with a system whose DEPS is its basic tree."""
    gold_path, system_path = _udpipe_raw(tmp_path)
    gold, system = read_conllu(gold_path), read_conllu(system_path)
    stretches = [(g, s) for g, s, rows in _Chunks(iter(gold), iter(system), "G", "S")
                 if not (rows or (rows is None and tokenization.by_rows(g, s)))]
    assert len(stretches) > 300
    assert any(x.multiword for _, s in stretches for x in s)
    for g, s in stretches:
        _check_pair(g, s)
        with_deps = [conllu.basic_to_deps(x) for x in s]
        assert _elas(g, with_deps, True, monkeypatch) == \
            _elas(g, with_deps, False, monkeypatch)


def test_udpipe_raw_text_scores_the_same_without_the_accelerators(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """eval deps --json and --per-sentence, with and without every C path of this module
    (and the row kernel), on the raw-text parse and on it with DEPS copied from its tree:
    byte for byte the same; the pure-Python fallback keeps working."""
    gold, system = _udpipe_raw(tmp_path)
    with_deps = tmp_path / "raw-deps.conllu"
    with with_deps.open("w", encoding="utf-8") as fh:
        conllu.write_conllu([conllu.basic_to_deps(x) for x in read_conllu(system)], fh)
    script = ("import sys, parsebench.metrics.dependency.stretch as st, "
              "parsebench.metrics.dependency.enhanced as en, "
              "parsebench.metrics.dependency.tokenization as tk, parsebench.model.treebank as tb\n"
              "if sys.argv[1] == 'python':\n"
              "    st._StretchCounter = st._RowCounter = None; en._deps_stretch = None\n"
              "    import parsebench.metrics.dependency.evaluate as ev; ev.text_chunks = None\n"
              "    tk.fast_text_length = None; tb._sound_tokens = None\n"
              "from parsebench.cli import main\n"
              "sys.argv = ['parsebench', *sys.argv[2:]]\n"
              "main()\n")
    for sys_file in (system, with_deps):
        outs = []
        for mode in ("c", "python"):
            per = tmp_path / f"{mode}.tsv"
            p = subprocess.run([sys.executable, "-c", script, mode, "eval", "deps", str(gold),
                                str(sys_file), "--json", "--per-sentence", str(per)],
                               capture_output=True, text=True)
            assert p.returncode == 0, p.stderr
            outs.append((p.stdout, p.stderr, per.read_text(encoding="utf-8")))
        assert outs[0] == outs[1]


@settings(max_examples=150, deadline=None)
@given(retokenized())
def test_evaluate_deps_in_memory_the_same_without_the_kernel(
        pair: tuple[list[Sentence], list[Sentence]]) -> None:
    """score_deps of a retokenized text, each gold sentence's counts kept: the same
    with the kernels and with count_stretch alone (accelerated=False)."""
    gold, system = pair

    def scored(accelerated: bool) -> Any:
        try:
            r = score_deps(gold, system, DepsOptions(accelerated=accelerated))
        except InputError as e:  # a first sentence of the same rows in other text
            return str(e)
        return r.as_dict(), [asdict(c) for c in r.per_sentence or ()]

    assert scored(True) == scored(False)


def test_the_check_of_multiword_tokens_in_c_is_the_python_one() -> None:
    """treebank's check refuses the same multiword tokens and empty nodes with and without
    sound_tokens."""
    ok = Sentence(forms=["ab", "c"], lemmas=["_"] * 2, upos=["X"] * 2, xpos=["_"] * 2,
                  feats=["_"] * 2, heads=[0, 1], deprels=["root", "dep"], deps=["_"] * 2,
                  misc=["_"] * 2, multiword=[(0, 1, ["1-2", "abc", *["_"] * 8])],
                  empty_nodes=[(2, ["2.1", "x", *["_"] * 8])])
    bad = [replace(ok, multiword=[(0, 2, ok.multiword[0][2])]),
           replace(ok, multiword=[(1, 0, ok.multiword[0][2])]),
           replace(ok, multiword=[(0, 1, ["1-2", "a\tb", *["_"] * 8])]),
           replace(ok, multiword=[(0, 1, ["1-2"])]),
           replace(ok, multiword=[(True, 1, ok.multiword[0][2])]),
           replace(ok, multiword=[[0, 1, ok.multiword[0][2]]]),  # type: ignore[list-item]
           replace(ok, empty_nodes=[(3, ok.empty_nodes[0][1])]),
           replace(ok, empty_nodes=[(0, ["2.1", "x\n", *["_"] * 8])]),
           ]
    assert treebank._sound_tokens is not None
    assert treebank._sound_tokens([ok])
    for s in bad:
        assert not treebank._sound_tokens([ok, s])
        with pytest.raises(Exception) as c_error:
            treebank.check_sentences([ok, s], "X")
        real = treebank._sound_tokens
        treebank._sound_tokens = None
        try:
            with pytest.raises(Exception) as py_error:
                treebank.check_sentences([ok, s], "X")
        finally:
            treebank._sound_tokens = real
        assert str(c_error.value) == str(py_error.value)


def test_a_file_read_whole_shares_its_values(tmp_path: Path) -> None:
    """read_conllu (a treebank kept in memory) gives equal tag values as one object where
    the compiled reader reads them; a file read a sentence at a time is read as it is.
    The Sentences are the same either way."""
    if not conllu.ACCELERATED:
        pytest.skip("the compiled reader is not built")
    text = "".join(f"{i}\tw{i}\tw\tNOUN\tNN\t_\t0\troot\t0:root\t_\n" for i in (1,)) + "\n"
    path = tmp_path / "x.conllu"
    path.write_text(text * 3, encoding="utf-8")
    whole = read_conllu(path)
    streamed = list(conllu.iter_conllu(path))
    assert whole == streamed
    assert whole[0].upos[0] is whole[2].upos[0]
    assert whole[0].deps[0] is whole[1].deps[0]
    assert streamed[0].upos[0] is not streamed[2].upos[0]


HANG = '''
import sys
from parsebench.formats.conllu import Sentence
from parsebench.metrics.dependency.evaluate import DepsOptions, score_deps

def s(forms, heads, multiword=()):
    n = len(forms)
    return Sentence(forms=forms, lemmas=["_"] * n, upos=["X"] * n, xpos=["_"] * n,
                    feats=["_"] * n, heads=heads, deprels=["dep"] * n, deps=["_"] * n,
                    misc=["_"] * n, comments=[], multiword=list(multiword), empty_nodes=[],
                    line=1, category=None)

mwt = (0, 1, ["1-2", "\\xa0\\xa0"] + ["_"] * 8)
gold = [s([".x y"], [0]), s(["\\xa0", "\\xa0", "c\\u2009dA"], [0, 1, 1], [mwt])]
system = [s([".xy", "c"], [0, 1]), s(["d", "A"], [2, 0], [(0, 1, ["1-2", "dA"] + ["_"] * 8)])]
for accelerated in (True, False):
    r = score_deps(gold, system, DepsOptions(accelerated=accelerated, per_sentence=True))
    print(r.total.las, r.total.words)
'''


def test_a_multiword_token_of_no_text_ends_the_alignment() -> None:
    """Found by the test above: a multiword token whose form is only spaces (no text
    to align: the file reader refuses it, a Treebank in memory did not) made the
    alignment loop forever, in C and in Python; its words now align to none."""
    p = subprocess.run([sys.executable, "-c", HANG], capture_output=True, text=True,
                       timeout=60)
    assert p.returncode == 0, p.stderr
    c, python = p.stdout.splitlines()
    assert c == python
    assert "aligned=1" in c

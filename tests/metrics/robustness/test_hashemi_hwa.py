"""Hashemi & Hwa's robustness F1: the worked example, every alignment source (Pharaoh,
M2, edit distance), refusals at file and line, JFLEG."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import shared_path
from hypothesis import given, settings
from hypothesis import strategies as st
from sentence_pairs import cli, sent

from parsebench.common.errors import InputError
from parsebench.metrics.core.word_alignment import edit_distance, read_alignments
from parsebench.metrics.robustness.hashemi_hwa import score_corpus, score_pair
from parsebench.model.parses import Parse

# Hashemi & Hwa's worked example: U has an extra word, "about", whose three
# dependencies are error-related; two shared dependencies; P = 2/(5-3) = 1,
# R = 2/(4-0) = 0.5, F1 = 66.7%. The root attachment counts (every word has one).
G_ROOT = (["I", "talked", "to", "him"], [2, 0, 4, 2])
U_ROOT = (["I", "talked", "about", "to", "him"], [2, 0, 2, 3, 3])


# The other reading (no root attachment): U has five dependencies besides its root.
G_NOROOT = (["I", "talked", "to", "him", "today"], [2, 0, 4, 2, 2])
U_NOROOT = (["I", "talked", "about", "to", "him", "today"], [2, 0, 2, 3, 3, 2])


def _parse(forms: list[str], heads: list[int]) -> Parse:
    return Parse(forms=forms, line=1, kind="deps", heads=heads, deprels=["dep"] * len(forms),
                 upos=["X"] * len(forms), xpos=["_"] * len(forms))


def read_m2_text(text: str) -> list:
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "a.m2"
        path.write_text(text)
        kind, aligns = read_alignments(path)
        assert kind == "m2"
        return aligns


@pytest.mark.parametrize(("g", "u", "root"), [(G_ROOT, U_ROOT, True),
                                              (G_NOROOT, U_NOROOT, False)])
def test_hashemi_hwa_worked_example(g: tuple, u: tuple, root: bool) -> None:
    gp, up = _parse(*g), _parse(*u)
    c = score_pair(up, gp, edit_distance(up.forms, gp.forms), root=root)
    assert (c.ungrammatical_deps, c.ungrammatical_error_deps) == (5, 3)
    assert (c.grammatical_deps, c.grammatical_error_deps) == (4, 0)
    assert c.shared == 2
    assert (c.precision, c.recall) == (1.0, 0.5)
    assert round(100 * c.f1, 1) == 66.7


def test_hashemi_hwa_via_files_and_every_alignment_source(tmp_path: Path) -> None:
    g = tmp_path / "g.conllu"
    u = tmp_path / "u.conllu"
    g.write_text(sent(*G_ROOT))
    u.write_text(sent(*U_ROOT))
    pharaoh = tmp_path / "a.pharaoh"
    pharaoh.write_text("0-0 1-1 3-2 4-3\n")
    m2 = tmp_path / "a.m2"
    m2.write_text("S I talked about to him\nA 2 3|||UT|||-NONE-|||REQUIRED|||-NONE-|||0\n\n")
    for extra in ([], ["--alignment", str(pharaoh)], ["--alignment", str(m2)]):
        p = cli("robustness", "f1", str(g), str(u), "--json", *extra)
        assert p.returncode == 0, p.stderr
        d = json.loads(p.stdout)
        assert (d["precision"], d["recall"], d["shared"]) == (1.0, 0.5, 2)
        assert (d["ungrammatical_deps"], d["ungrammatical_error_deps"]) == (5, 3)
        assert (d["grammatical_deps"], d["grammatical_error_deps"]) == (4, 0)
        assert round(d["f1"], 4) == 0.6667
    assert d["by_type"]["UT"]["shared"] == 2 and "signature" in d


def test_m2_substitution_is_not_an_error_word() -> None:
    a, = read_m2_text("S He goed home\n"
                      "A 1 2|||R:VERB:TENSE|||went|||REQUIRED|||-NONE-|||0\n")
    assert a.source == ["He", "goed", "home"] and a.corrected == ["He", "went", "home"]
    assert a.pairs == [(0, 0), (1, 1), (2, 2)] and a.types == ["R:VERB:TENSE"]


def test_bad_pharaoh_pair_names_file_and_line(tmp_path: Path) -> None:
    p = tmp_path / "bad.pharaoh"
    p.write_text("0-0\n1:1\n")
    with pytest.raises(InputError) as e:
        read_alignments(p)
    assert str(e.value) == f"{p}:2: bad alignment pair '1:1', expected I-J"


@pytest.mark.parametrize(("text", "line", "what"), [
    ("0-0\n0-\u00b2\n", 2, "bad alignment pair"),
    ("S a b\nA \u00b2 \u00b3|||R:NOUN|||c|||REQUIRED|||-NONE-|||0\n", 2, "bad edit span"),
    ("S a b\nA -\u00b9 -\u00b9|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n", 2, "bad edit span"),
])
def test_unicode_digits_in_alignments_are_bad_input(tmp_path: Path, text: str, line: int,
                                                    what: str) -> None:
    p = tmp_path / ("a.m2" if text.startswith("S") else "a.pharaoh")
    p.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match=f"^{p}:{line}: {what}"):
        read_alignments(p)


def test_punctuation_switch_and_failed_parse() -> None:
    g = _parse(["hi", "there", "."], [0, 1, 1])
    g.upos[2] = "PUNCT"
    u = _parse(["hi", "ther", "."], [0, 1, 2])
    u.upos[2] = "PUNCT"
    a = edit_distance(u.forms, g.forms)
    with_p = score_pair(u, g, a)
    without = score_pair(u, g, a, punct=False)
    assert (with_p.shared, with_p.ungrammatical_deps) == (2, 3)
    assert (without.shared, without.ungrammatical_deps, without.f1) == (2, 2, 1.0)
    u.failed = "timeout"
    failed = score_pair(u, g, a)
    assert (failed.shared, failed.ungrammatical_deps, failed.grammatical_deps) == (0, 0, 3)
    assert failed.failures == 1 and failed.recall == 0.0


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 5), min_size=1, max_size=8), st.booleans(), st.booleans())
def test_identical_sentences_score_one(raw: list[int], punct: bool, labeled: bool) -> None:
    n = len(raw)
    p = _parse([f"w{i}" for i in range(n)], [min(h, n) for h in raw])
    c = score_corpus([p], [p], None, "g", "u", labeled=labeled, punct=punct)
    assert c.total.ungrammatical_error_deps == 0
    if c.total.shared:
        assert c.total.precision == c.total.recall == c.total.f1 == 1.0


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(["a", "b", "c", "d"]), max_size=8),
       st.lists(st.sampled_from(["a", "b", "c", "e"]), max_size=8))
def test_edit_distance_alignment_is_monotone_and_symmetric(u: list[str], g: list[str]) -> None:
    a = edit_distance(u, g)
    assert [i for i, _ in a.pairs] == sorted({i for i, _ in a.pairs})
    assert [j for _, j in a.pairs] == sorted({j for _, j in a.pairs})
    back = edit_distance(g, u)
    assert sorted((i, j) for j, i in back.pairs) == a.pairs and back.errors == a.errors
    gp = _parse(g, [0] + [1] * (len(g) - 1)) if g else _parse([], [])
    up = _parse(u, [0] + [1] * (len(u) - 1)) if u else _parse([], [])
    one, other = score_pair(up, gp, a), score_pair(gp, up, back)
    assert (one.precision, one.recall) == (other.recall, other.precision)


def test_jfleg_src_against_ref0_with_gold_shaped_stand_ins() -> None:
    """Real learner sentences aligned by edit distance; each parse is a right-branching chain.

    With chains (word i's head is i + 1) the expected counts follow from the
    alignment alone, so the whole pipeline is checked on real text.
    """
    src = shared_path("data/jfleg/dev/dev.src").read_text(encoding="utf-8").splitlines()
    ref = shared_path("data/jfleg/dev/dev.ref0").read_text(encoding="utf-8").splitlines()
    assert len(src) == len(ref) == 754

    def chain(words: list[str]) -> Parse:
        return _parse(words, [i + 2 if i + 1 < len(words) else 0 for i in range(len(words))])

    us = [chain(s.split()) for s in src]
    gs = [chain(r.split()) for r in ref]
    r = score_corpus(gs, us, None, "ref0", "src")
    same = sum(s.split() == t.split() for s, t in zip(src, ref, strict=True))
    assert r.by_errors[0].sentences == same and same > 50
    assert r.total.sentences == 754
    assert r.total.ungrammatical_deps == sum(len(s.split()) for s in src)
    assert r.total.grammatical_deps == sum(len(t.split()) for t in ref)
    assert 0.7 < r.total.precision < 1.0 and 0.7 < r.total.recall < 1.0
    assert r.by_errors[0].f1 == 1.0

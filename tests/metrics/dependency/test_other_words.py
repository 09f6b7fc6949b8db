"""``eval deps --align words``: a system whose words are not the gold's, scored over words
aligned by edit distance."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parsebench.formats.conllu import Sentence, parse_conllu
from parsebench.metrics.dependency.evaluate import score_deps
from parsebench.metrics.dependency.other_words import align_forms, score_aligned, similarity


def conll(*sentences: list[tuple[str, int | str, str]]) -> str:
    """Each sentence's rows (form, head, deprel), UPOS the form's first letter."""
    out = []
    for rows in sentences:
        for i, (form, head, rel) in enumerate(rows, 1):
            out.append(f"{i}\t{form}\t_\t{form[0].upper()}\t_\t_\t{head}\t{rel}\t_\t_")
        out.append("")
    return "\n".join(out) + "\n"


def sents(text: str) -> list[Sentence]:
    return parse_conllu(text.splitlines())


GOLD = conll(
    [("The", 2, "det"), ("cat", 3, "nsubj"), ("sat", 0, "root"), ("on", 6, "case"),
     ("the", 6, "det"), ("mat", 3, "obl"), (".", 3, "punct")],
    [("It", 3, "nsubj"), ("was", 3, "cop"), ("nice", 0, "root"), (".", 3, "punct")])
# The two sentences merged into one; "The" misspelled "Teh" (a substitution); "the", which
# heads nothing, deleted; "very" inserted; "nice", the gold's second root, attached to "sat".
SYSTEM = conll(
    [("Teh", 2, "det"), ("cat", 3, "nsubj"), ("sat", 0, "root"), ("on", 5, "case"),
     ("mat", 3, "obl"), (".", 3, "punct"), ("It", 10, "nsubj"), ("was", 10, "cop"),
     ("very", 10, "advmod"), ("nice", 3, "parataxis"), (".", 10, "punct")])


def test_alignment_counts_and_pairs() -> None:
    g = [w for s in sents(GOLD) for w in s.forms]
    s = [w for x in sents(SYSTEM) for w in x.forms]
    al = align_forms(g, s)
    assert al.as_dict() == {"matched": 9, "substituted": 1, "deleted": 1, "inserted": 1}
    assert al.sys2gold == [0, 1, 2, 3, 5, 6, 7, 8, -1, 9, 10]


def test_close_forms_by_indel_similarity() -> None:
    assert similarity("teh", "the") == pytest.approx(2 / 3)
    assert similarity("u", "you") == 0.5          # the threshold: still a substitution
    assert similarity("The", "the") == 1.0
    assert align_forms(["u"], ["you"]).sys2gold == [0]
    assert align_forms(["a"], ["the"]).as_dict() == {  # nothing in common: not a pair
        "matched": 0, "substituted": 0, "deleted": 1, "inserted": 1}


def test_scores_follow_from_the_counts() -> None:
    r = score_aligned(sents(GOLD), sents(SYSTEM))
    t = r.total
    # 11 gold words, 11 system words, 10 aligned; every aligned word but "nice" has its
    # head aligned to its gold head, with the gold's relation
    assert (t.words.correct, t.words.gold, t.words.system) == (10, 11, 11)
    assert (t.upos.correct, t.upos.gold, t.upos.system) == (10, 11, 11)
    assert (t.uas.correct, t.uas.gold, t.uas.system) == (9, 11, 11)
    assert (t.las.correct, t.las.gold, t.las.system) == (9, 11, 11)
    # content words: gold cat sat mat It nice; system also very and nice (parataxis)
    assert (t.clas.correct, t.clas.gold, t.clas.system) == (4, 5, 6)
    # the merged sentence is no gold sentence; every token is one word, aligned or not
    assert (t.sentences.correct, t.sentences.gold, t.sentences.system) == (0, 2, 1)
    assert (t.tokens.correct, t.tokens.gold, t.tokens.system) == (10, 11, 11)
    # Lin: 9 gold arcs (roots aside), 10 system arcs, 8 right
    assert (t.unlabeled.key, t.unlabeled.answer, t.unlabeled.key_found) == (9, 10, 8)
    assert (t.ucm.correct, t.ucm.gold) == (0, 2)
    d = r.as_dict()
    assert d["las"]["precision"] == d["las"]["recall"] == 9 / 11
    assert d["clas"]["precision"] == 4 / 6 and d["clas"]["recall"] == 4 / 5
    assert d["uas"]["aligned_accuracy"] == 9 / 10
    assert d["alignment"] == {"matched": 9, "substituted": 1, "deleted": 1, "inserted": 1}
    # the inserted word counts where the word before it is: in the second gold sentence
    assert [c.uas.system for c in r.per_sentence or ()] == [6, 5]


def test_split_sentence_is_scored_against_the_gold_boundaries() -> None:
    gold = sents(conll([("a", 2, "det"), ("bird", 3, "nsubj"), ("sings", 0, "root"),
                        ("loudly", 3, "advmod")]))
    split = sents(conll([("a", 2, "det"), ("bird", 0, "root")],
                        [("sings", 0, "root"), ("loudly", 1, "advmod")]))
    t = score_aligned(gold, split).total
    assert (t.uas.correct, t.uas.gold, t.uas.system) == (3, 4, 4)  # "bird" lost its head
    assert (t.sentences.correct, t.sentences.gold, t.sentences.system) == (0, 1, 2)


def test_only_forms_differ_scores_100() -> None:
    gold = sents(GOLD)
    misspelt = sents(GOLD.replace("\tcat\t", "\tcta\t").replace("\tnice\t", "\tnicee\t")
                     .replace("\tsat\t", "\tSat\t"))
    d = score_aligned(gold, misspelt).as_dict()
    for k in ("words", "upos", "uas", "las", "clas", "sentences", "tokens"):
        assert d[k]["f1"] == 1.0, k
    assert d["alignment"] == {"matched": 9, "substituted": 2, "deleted": 0, "inserted": 0}


@st.composite
def corpora(draw: st.DrawFn) -> tuple[list[Sentence], list[Sentence]]:
    """A gold of a few sentences and a system of the same words with any heads."""
    words = st.sampled_from(["a", "the", "cat", "dog", "sat", "on", ".", "x"])
    rels = st.sampled_from(["nsubj", "obj", "det", "root", "punct"])
    gold, system = [], []
    for _ in range(draw(st.integers(1, 4))):
        n = draw(st.integers(1, 7))
        forms = [draw(words) for _ in range(n)]
        g_heads = [draw(st.integers(0, n)) for _ in range(n)]
        s_heads = [draw(st.sampled_from([*range(n + 1), "_"])) for _ in range(n)]
        gold.append([(f, h, draw(rels)) for f, h in zip(forms, g_heads, strict=True)])
        system.append([(f, h, draw(rels)) for f, h in zip(forms, s_heads, strict=True)])
    return sents(conll(*gold)), sents(conll(*system))


def _scores(d: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in d.items() if k not in ("alignment", "warnings")}


@settings(max_examples=120, deadline=None)
@given(corpora())
def test_identical_words_aligned_scores_equal_the_plain_scores(
        pair: tuple[list[Sentence], list[Sentence]]) -> None:
    gold, system = pair
    plain = score_deps(gold, system)
    aligned = score_aligned(gold, system)
    assert _scores(aligned.as_dict()) == _scores(plain.as_dict())
    assert aligned.alignment["matched"] == sum(len(s) for s in gold)


def test_cli_align_words(tmp_path: Path) -> None:
    g, s = tmp_path / "gold.conllu", tmp_path / "sys.conllu"
    g.write_text(GOLD)
    s.write_text(SYSTEM)

    def run(*extra: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "parsebench.cli", "eval", "deps",
                               str(g), str(s), *extra], capture_output=True, text=True)

    plain = run("--json")
    assert plain.returncode == 2 and plain.stdout == ""
    assert plain.stderr.count("\n") == 1 and "differs from the gold text" in plain.stderr
    p = run("--align", "words", "--json")
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    assert d["las"]["f1"] == 9 / 11
    assert d["alignment"] == {"matched": 9, "substituted": 1, "deleted": 1, "inserted": 1}
    assert "align:words" in d["signature"]
    assert p.stderr.count("--align words") == 1  # one warning line
    bad = run("--align", "chars")
    assert bad.returncode == 2 and "--align 'chars'" in bad.stderr


def test_api_align_words() -> None:
    import parsebench as pb

    r = pb.evaluate_deps(pb.Treebank(sents(GOLD), "g"), pb.Treebank(sents(SYSTEM), "s"),
                         align="words")
    assert r.to_dict()["uas"]["recall"] == 9 / 11
    assert r.to_dict()["alignment"]["inserted"] == 1


# The same text tokenized otherwise at the ends of sentences: "etc." split into "etc"
# and ".", "Mr" for "Mr.". Every sentence boundary is the gold's.
RETOKENIZED_GOLD = conll(
    [("apples", 0, "root"), (",", 3, "punct"), ("pears", 1, "conj"), ("etc.", 1, "conj")],
    [("Mr.", 2, "nsubj"), ("Smith", 3, "flat"), ("left", 0, "root")])
RETOKENIZED = conll(
    [("apples", 0, "root"), (",", 3, "punct"), ("pears", 1, "conj"), ("etc", 1, "conj"),
     (".", 1, "punct")],
    [("Mr", 2, "nsubj"), ("Smith", 3, "flat"), ("left", 0, "root")])


def test_sentences_are_boundaries_not_words() -> None:
    """A sentence whose last word is inserted or whose first is substituted still has the
    gold's boundaries: Sentences is 100 here, as the script's character spans give; the
    odd words are Words' to count."""
    d = score_aligned(sents(RETOKENIZED_GOLD), sents(RETOKENIZED)).as_dict()
    assert d["sentences"]["f1"] == 1.0
    assert (d["words"]["precision"], d["words"]["recall"]) == (7 / 8, 1.0)
    plain = score_deps(sents(RETOKENIZED_GOLD), sents(RETOKENIZED)).as_dict()
    assert plain["sentences"]["f1"] == 1.0


def test_sentences_split_or_merged_across_deleted_words() -> None:
    gold = sents(conll([("a", 0, "root"), ("b", 1, "dep")], [("c", 0, "root")],
                       [("d", 0, "root"), ("e", 1, "dep")]))
    # "b" deleted, the first two sentences merged; "x" inserted as a sentence of its own
    system = sents(conll([("a", 0, "root"), ("c", 1, "dep")], [("x", 0, "root")],
                         [("d", 0, "root"), ("e", 1, "dep")]))
    t = score_aligned(gold, system).total
    assert (t.sentences.correct, t.sentences.gold, t.sentences.system) == (1, 3, 3)


def test_the_aligned_table_is_not_titled_as_the_scripts(tmp_path: Path) -> None:
    g, s = tmp_path / "gold.conllu", tmp_path / "sys.conllu"
    g.write_text(RETOKENIZED_GOLD)
    s.write_text(RETOKENIZED)
    for extra in ((), ("--counts",)):
        p = subprocess.run([sys.executable, "-m", "parsebench.cli", "eval", "deps", str(g),
                            str(s), "--align", "words", *extra], capture_output=True,
                           text=True)
        assert p.returncode == 0, p.stderr
        assert "the table of" not in p.stdout
        assert "over words aligned by edit distance (parsebench's, not" in p.stdout
        assert "Sentences: sentences whose" in p.stdout
    plain = subprocess.run([sys.executable, "-m", "parsebench.cli", "eval", "deps", str(g),
                            str(s)], capture_output=True, text=True)
    assert "CoNLL 2018 (the table of conll18_ud_eval.py -v)" in plain.stdout

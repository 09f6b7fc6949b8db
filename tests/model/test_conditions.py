"""What figures were made under, read from their signatures, and the sentences that say
when figures shown together were not made alike (issue 61 item 4)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from parsebench.common.signature import read_signature
from parsebench.model.conditions import (
    condition_of_counts,
    differing_conditions,
    differing_inputs,
)

SIG = "method:deps|corpus:ewt.conllu|corpus-hash:{h}|input:{i}|parser:{p}|version:0.1.0"


def test_a_signature_reads_as_its_fields() -> None:
    assert read_signature("corpus:a.conllu|corpus-hash:abc|input:raw-text|model:none") == {
        "corpus": "a.conllu", "corpus-hash": "abc", "input": "raw-text", "model": "none"}
    assert read_signature("path:C:/x|level:clean") == {"path": "C:/x", "level": "clean"}
    assert read_signature(None) == {} and read_signature("") == {}


def test_figures_made_alike_say_nothing() -> None:
    same = [(p, SIG.format(h="abc", i="gold-words", p=p)) for p in ("udpipe", "spacy")]
    assert differing_conditions(same) == []
    assert differing_conditions([("x", "method:deps|version:0.1.0")]) == []  # unsigned


def test_another_text_or_input_is_said_with_the_parsers_it_concerns() -> None:
    figs = [("udpipe", SIG.format(h="abc", i="gold-words", p="udpipe")),
            ("udpipe", SIG.format(h="abc", i="gold-words", p="udpipe")),
            ("spacy", SIG.format(h="def", i="raw-text", p="spacy"))]
    text, given_ = differing_conditions(figs)
    assert text == ("the figures of ewt.conllu were made from different versions of its "
                    "text (hash abc: udpipe; hash def: spacy): they are not comparable; "
                    "run the experiment again")
    assert given_ == ("the parsers of ewt.conllu were not given the same input (the gold "
                      "words: udpipe; the raw text: spacy): their figures differ by the "
                      "input as much as by the parser")


def test_a_files_condition_is_what_its_scores_show() -> None:
    assert condition_of_counts(True, False) == "gold-words"
    assert condition_of_counts(True, True) == "gold-words-and-tags"
    assert condition_of_counts(False, True) == "own-words"
    assert differing_inputs([("a", "gold-words"), ("b", "gold-words")]) is None
    assert differing_inputs([("a", "gold-words"), ("b", "own-words")]) == (
        "the systems were not given the same input (the gold words: a; words of its own "
        "(not the gold's): b): their scores differ by the input as much as by the parser")


@given(st.lists(st.tuples(st.sampled_from("abc"), st.sampled_from(["h1", "h2"]),
                          st.sampled_from(["gold-words", "raw-text"])), max_size=8))
def test_a_warning_exactly_when_the_conditions_differ(
        figs: list[tuple[str, str, str]]) -> None:
    out = differing_conditions((p, SIG.format(h=h, i=i, p=p)) for p, h, i in figs)
    texts = {h for _, h, _ in figs}
    inputs = {i for _, _, i in figs}
    assert len(out) == (len(texts) > 1) + (len(inputs) > 1)
    assert differing_conditions(reversed([(p, SIG.format(h=h, i=i, p=p))
                                          for p, h, i in figs])).__len__() == len(out)

"""The CoNLL-U reader: agrees with the conllu library, round-trips, rejects bad input clearly."""

from __future__ import annotations

import io
import os
import warnings
from collections.abc import Iterator
from pathlib import Path

import conllu
import pytest
from conftest import shared_path
from hypothesis import given, settings
from hypothesis import strategies as st

import parsebench.formats.conllu as conllu_module
from parsebench.common.errors import InputError, iter_lines
from parsebench.formats.conllu import (
    NO_HEAD,
    iter_conllu,
    parse_conllu,
    read_conllu,
    write_conllu,
)


@pytest.mark.parametrize("rel", ["data/ud-english-ewt/en_ewt-ud-test.conllu",
                                 "data/ud-swedish-talbanken/sv_talbanken-ud-dev.conllu"])
def test_reader_agrees_with_the_conllu_library(rel: str) -> None:
    path = shared_path(rel)
    ours = read_conllu(path)
    with open(path, encoding="utf-8") as fh:
        theirs = conllu.parse(fh.read())
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs, strict=True):
        words = [t for t in b if isinstance(t["id"], int)]
        assert a.forms == [t["form"] for t in words]
        assert a.heads == [t["head"] if t["head"] is not None else NO_HEAD for t in words]
        assert a.deprels == [t["deprel"] for t in words]
        assert a.upos == [t["upos"] for t in words]
        assert len(a.multiword) == sum(1 for t in b if isinstance(t["id"], tuple)
                                       and t["id"][1] == "-")


def test_round_trip_is_byte_identical() -> None:
    path = shared_path("data/ud-english-ewt/en_ewt-ud-dev.conllu")
    text = path.read_text(encoding="utf-8")
    out = io.StringIO()
    write_conllu(read_conllu(path), out)
    assert out.getvalue() == text


@pytest.mark.parametrize(("text", "line", "what"), [
    ("1\ta\t_\t_\t_\t_\t0\troot\t_\n", 1, "10 tab-separated"),
    ("1\ta\t_\t_\t_\t_\t0\troot\t_\t_\n3\tb\t_\t_\t_\t_\t1\tx\t_\t_\n", 2, "word id 3"),
    ("1\ta\t_\t_\t_\t_\tX\troot\t_\t_\n", 1, "HEAD 'X'"),
    ("1\ta\t_\t_\t_\t_\t0\troot\t_\t_\n2\tb\t_\t_\t_\t_\t7\tx\t_\t_\n", 2, "outside"),
    ("1\ta\t_\t_\t_\t_\t0\troot\t_\t_\n# late\n", 2, "comment line inside"),
    # digits that str.isdigit accepts and int() does not: an ID, a HEAD, ranges, empty nodes
    ("\u00b2\ta\t_\t_\t_\t_\t0\troot\t_\t_\n", 1, "bad word id"),
    ("1\ta\t_\t_\t_\t_\t\u00b9\troot\t_\t_\n", 1, "HEAD '\u00b9'"),
    ("1-\u00b2\tab\t_\t_\t_\t_\t_\t_\t_\t_\n1\ta\t_\t_\t_\t_\t0\troot\t_\t_\n", 1,
     "multiword token range"),
    ("1\ta\t_\t_\t_\t_\t0\troot\t_\t_\n1.\u00b9\tb\t_\t_\t_\t_\t_\t_\t_\t_\n", 2,
     "empty node"),
    ("1-2\tab\t_\t_\t_\t_\t_\t_\t_\t_\n1\ta\t_\t_\t_\t_\t0\troot\t_\t_\n", 1,
     "past the sentence end"),
])
def test_malformed_input_names_file_and_line(text: str, line: int, what: str) -> None:
    with pytest.raises(InputError) as e:
        parse_conllu(text.splitlines(), "bad.conllu")
    assert str(e.value).startswith(f"bad.conllu:{line}: ")
    assert what in str(e.value)


def test_categories_from_genre_comments_and_newdoc_ids() -> None:
    text = ("# newdoc id = email-enronsent01\n# sent_id = x\n1\ta\t_\t_\t_\t_\t0\troot\t_\t_\n\n"
            "# sent_id = y\n1\tb\t_\t_\t_\t_\t0\troot\t_\t_\n\n"
            "# genre = fiction\n1\tc\t_\t_\t_\t_\t0\troot\t_\t_\n\n")
    assert [s.category for s in parse_conllu(text.splitlines())] == \
        ["email", "email", "fiction"]


def test_streaming_reader_gives_the_same_sentences_and_errors(tmp_path: Path) -> None:
    text = ("# sent_id = a-1\n1\ta\t_\t_\t_\t_\t0\troot\t_\t_\r\n\n"
            "1\tb\t_\t_\t_\t_\t0\troot\t_\t_\n\n")
    f = tmp_path / "x.conllu"
    f.write_bytes(text.encode())
    assert list(iter_conllu(f)) == read_conllu(f)
    f.write_bytes(text.encode() + b"1\t\xff\t_\t_\t_\t_\t0\troot\t_\t_\n")
    with pytest.raises(InputError, match=r"x.conllu:6: not valid UTF-8"):
        list(iter_conllu(f))


# The compiled reader (formats/_conllu_fast.pyx) against the reference, conllu._read:
# the same Sentences, the same errors at the same lines.

def _compiled() -> None:
    if not conllu_module.ACCELERATED:
        if os.environ.get("CI") == "true":
            pytest.fail("the compiled CoNLL-U reader was not built")
        pytest.skip("the compiled CoNLL-U reader is not built (no C compiler at install time)")


def _both(lines: list[str]) -> tuple[object, object]:
    """What each reader makes of LINES: its sentences, or its error's text, and the
    warnings it gives of what it reads where the official scorer would not."""
    out: list[object] = []
    for read in (lambda it: conllu_module.iter_sentences(it, "x.conllu", warn=True),
                 lambda it: conllu_module._read(it, "x.conllu",
                                                notes=conllu_module.Leniency("x.conllu"))):
        with warnings.catch_warnings(record=True) as said:
            warnings.simplefilter("always")
            try:
                got: object = list(read(iter(lines)))
            except InputError as e:
                got = str(e)
        out.append((got, [str(w.message) for w in said]))
    return out[0], out[1]


@pytest.mark.parametrize("rel", ["data/ud-english-ewt/en_ewt-ud-dev.conllu",
                                 "data/ud-english-ewt/en_ewt-ud-test.conllu",
                                 "data/ud-swedish-talbanken/sv_talbanken-ud-dev.conllu",
                                 "data/tweebank-v2/en-ud-tweet-dev.fixed.conllu"])
def test_compiled_reader_gives_the_references_sentences(rel: str,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """...and reads a well-formed treebank without handing a sentence to the reference."""
    _compiled()
    path = shared_path(rel)
    reference = list(conllu_module._read(iter_lines(path), str(path)))

    def refused(*args: object) -> None:
        raise AssertionError("handed to the reference")

    monkeypatch.setattr(conllu_module, "_read", refused)
    assert list(iter_conllu(path)) == reference


GOOD = ["# newdoc id = email-x", "# sent_id = email-x-1", "# text = ab c",
        "1-2\tab\t_\t_\t_\t_\t_\t_\t_\t_", "1\ta\ta\tX\tX\t_\t3\tnsubj\t3:nsubj\t_",
        "2\tb\tb\tX\tX\t_\t1\tflat\t1:flat\t_", "2.1\tz\t_\t_\t_\t_\t_\t_\t1:dep\t_",
        "3\tc\tc\tX\tX\t_\t0\troot\t0:root\tSpaceAfter=No", "",
        "# genre = news", "1\td\t_\t_\t_\t_\t_\t_\t_\t_", ""]


@pytest.mark.parametrize("lines", [
    GOOD,
    GOOD[:-1],  # no blank line at the end
    ["", "", *GOOD, "", ""],  # blank lines between sentences
    ["1\ta\t_\t_\t_\t_\t0\troot\t_\t_", "01\tb\t_\t_\t_\t_\t1\tx\t_\t_", ""],  # id 01: read
    ["1\ta\t_\t_\t_\t_\t00\troot\t_\t_", "2\tb\t_\t_\t_\t_\t01\tx\t_\t_", ""],  # heads 00, 01
    ["0.1\tz\t_\t_\t_\t_\t_\t_\t_\t_", "# late but before the words",
     "1\ta\t_\t_\t_\t_\t0\troot\t_\t_", ""],
    ["0.1\tz\t_\t_\t_\t_\t_\t_\t_\t_", ""],  # empty nodes only, at the end: nothing
    ["0.1\tz\t_\t_\t_\t_\t_\t_\t_\t_"],
    ["1\ta\t_\t_\t_\t_\t0\troot\t_\t_", "2\tb\t_\t_\t_\t_\t3\tx\t_\t_", ""],  # outside
    ["1-3\tab\t_\t_\t_\t_\t_\t_\t_\t_", "1\ta\t_\t_\t_\t_\t0\troot\t_\t_",
     "2\tb\t_\t_\t_\t_\t1\tx\t_\t_", ""],  # a range past the end
    ["# only a comment", ""], ["# only a comment"], ["1-2\tab\t_\t_\t_\t_\t_\t_\t_\t_"],
    ["1\ta\t_\t_\t_\t_\t0\troot\t_\t_", "# late", ""],
    ["1\ta\t_\t_\t_\t_\t0\troot\t_", ""], ["1\ta\t_\t_\t_\t_\t\troot\t_\t_", ""],
    ["1\ta\t_\t_\t_\t_\t0\troot\t_\t_", "3\tb\t_\t_\t_\t_\t1\tx\t_\t_", ""],
    ["1\ta\t_\t_\t_\t_\t1234567890123456789\troot\t_\t_", ""],
    ["0000000000000000001\ta\t_\t_\t_\t_\t0\troot\t_\t_", ""],
    ["1-0000000000000000002\tab\t_\t_\t_\t_\t_\t_\t_\t_", "1\ta\t_\t_\t_\t_\t0\troot\t_\t_",
     "2\tb\t_\t_\t_\t_\t1\tx\t_\t_", ""],
    [*GOOD[:8], "x\tc\tc\tX\tX\t_\t0\troot\t0:root\t_", ""],
    ["1\ta\t_\t_\t_\t_\t0\troot\t_\t_", "1.2.3\tz\t_\t_\t_\t_\t_\t_\t_\t_", ""],
    ["1\ta\t_\t_\t_\t_\t0\troot\t_\t_", "2-1\tz\t_\t_\t_\t_\t_\t_\t_\t_", ""],
    ["\u00b2\ta\t_\t_\t_\t_\t0\troot\t_\t_", ""],
    ["1\ta\t_\t_\t_\t_\t\u00b9\troot\t_\t_", ""],
    # what the official scorer refuses: empty FORMs, overlapping tokens, an empty node
    # between a token's line and its first word (refused); blank lines that end no
    # sentence, no blank line at the end (read, with a warning)
    ["1\t\t_\t_\t_\t_\t0\troot\t_\t_", ""], ["1\t \t_\t_\t_\t_\t0\troot\t_\t_", ""],
    ["1\t\u3000\t_\t_\t_\t_\t0\troot\t_\t_", ""],
    ["1\t a\t_\t_\t_\t_\t0\troot\t_\t_", "2\t\u00a0\t_\t_\t_\t_\t1\tx\t_\t_", ""],
    ["1\t\x85\t_\t_\t_\t_\t0\troot\t_\t_", ""],  # NEL is no Zs: read, as the scorer
    ["1-2\t\t_\t_\t_\t_\t_\t_\t_\t_", "1\ta\t_\t_\t_\t_\t0\troot\t_\t_",
     "2\tb\t_\t_\t_\t_\t1\tx\t_\t_", ""],
    ["1-2\tab\t_\t_\t_\t_\t_\t_\t_\t_", "1\ta\t_\t_\t_\t_\t0\troot\t_\t_",
     "2-3\tbc\t_\t_\t_\t_\t_\t_\t_\t_", "2\tb\t_\t_\t_\t_\t1\tx\t_\t_",
     "3\tc\t_\t_\t_\t_\t1\tx\t_\t_", ""],
    ["1-2\tab\t_\t_\t_\t_\t_\t_\t_\t_", "1-2\tab\t_\t_\t_\t_\t_\t_\t_\t_",
     "1\ta\t_\t_\t_\t_\t0\troot\t_\t_", "2\tb\t_\t_\t_\t_\t1\tx\t_\t_", ""],
    ["1\ta\t_\t_\t_\t_\t0\troot\t_\t_", "2-3\tbc\t_\t_\t_\t_\t_\t_\t_\t_",
     "1.1\tz\t_\t_\t_\t_\t_\t_\t_\t_", "2\tb\t_\t_\t_\t_\t1\tx\t_\t_",
     "3\tc\t_\t_\t_\t_\t1\tx\t_\t_", ""],
    ["1\ta\t_\t_\t_\t_\t0\troot\t_\t_", "2-3\tbc\t_\t_\t_\t_\t_\t_\t_\t_",
     "2\tb\t_\t_\t_\t_\t1\tx\t_\t_", "2.1\tz\t_\t_\t_\t_\t_\t_\t_\t_",
     "3\tc\t_\t_\t_\t_\t1\tx\t_\t_", ""],  # inside the token, after its first word: read
    ["", *GOOD, "", *GOOD[:-1]],
])
def test_compiled_reader_agrees_on_odd_and_malformed_input(lines: list[str]) -> None:
    _compiled()
    fast, reference = _both(lines)
    assert fast == reference


_LINE = st.sampled_from([
    "", "# sent_id = a-1", "# newdoc id = weblog-x", "# genre = fiction", "# category = ",
    "1\ta\ta\tX\tX\t_\t0\troot\t0:root\t_", "2\tb\tb\tX\tX\tA=1\t1\tdep\t1:dep\t_",
    "3\tc\t_\t_\t_\t_\t_\t_\t_\t_", "2\tb\t_\t_\t_\t_\t5\tdep\t_\t_",
    "1-2\tab\t_\t_\t_\t_\t_\t_\t_\t_", "2-3\tbc\t_\t_\t_\t_\t_\t_\t_\t_",
    "1.1\tz\t_\t_\t_\t_\t_\t_\t_\t_", "02\tb\t_\t_\t_\t_\t1\tx\t_\t_",
    "1\ta\t_", "x\ty", "1\ta\t_\t_\t_\t_\tq\troot\t_\t_",
    "2\t \t_\t_\t_\t_\t1\tx\t_\t_", "1-3\tabc\t_\t_\t_\t_\t_\t_\t_\t_",
    "2\t b\t_\t_\t_\t_\t1\tx\t_\t_"])


@settings(max_examples=400, deadline=None)
@given(st.lists(_LINE, max_size=14))
def test_compiled_reader_agrees_on_random_lines(lines: list[str]) -> None:
    _compiled()
    fast, reference = _both(lines)
    assert fast == reference


def test_without_the_compiled_reader_the_reference_reads(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    monkeypatch.setattr(conllu_module, "_read_sentences", None)
    assert parse_conllu(GOOD) == list(conllu_module._read(GOOD))
    assert [s.category for s in parse_conllu(GOOD)] == ["email", "news"]


def test_the_reader_asked_again_after_its_end_ends_again() -> None:
    """``yield from`` the reader after a ``for`` loop has emptied it (the check that a
    file is no noise output does so) raised StopIteration out of Cython's generator: an
    empty system file gave a traceback."""
    from parsebench.formats.conllu import iter_sentences

    def watching(lines: list[str]) -> Iterator[object]:
        it = iter_sentences(iter(lines), "x")
        yield from it
        yield from it  # (ended: nothing more, no error)

    def again(lines: list[str]) -> list[object]:
        return list(watching(lines))

    assert again([]) == []
    assert len(again(["1\ta\ta\tX\tX\t_\t0\troot\t_\t_", ""])) == 1

"""The CoNLL-U reader: agrees with the conllu library, round-trips, rejects bad input clearly."""

from __future__ import annotations

import io
from pathlib import Path

import conllu
import pytest
from conftest import shared_path

from parsebench.errors import InputError
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

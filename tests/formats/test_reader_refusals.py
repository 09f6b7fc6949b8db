"""The CoNLL-U reader refuses what the official scorer (udtools' ``udeval`` 0.2.9, the
CoNLL 2018 script's successor) refuses: each damaged file below is given to udeval and
to parsebench's readers and ``eval deps``. Where udeval refuses it, parsebench refuses
it in one line naming FILE:LINE, or, where it deliberately reads more
(docs/correctness.md), reads it with a warning naming FILE:LINE."""

from __future__ import annotations

import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
import udeval_ref

import parsebench as pb
from parsebench.common.errors import InputError
from parsebench.formats.conllu import iter_conllu, read_conllu
from parsebench.model.parses import read_parses


def w(i: int | str, form: str = "x", head: int | str = 0, rel: str = "root",
      deps: str = "_") -> str:
    return f"{i}\t{form}\t{form}\tX\t_\t_\t{head}\t{rel}\t{deps}\t_"


def mwt(span: str, form: str = "xy") -> str:
    return f"{span}\t{form}\t_\t_\t_\t_\t_\t_\t_\t_"


def node(i: str) -> str:
    return f"{i}\tE\tE\tX\t_\t_\t_\t_\t_\t_"


GOOD = ["# sent_id = 1", "# text = ab c", mwt("1-2", "ab"), w(1, "a", 3, "dep"),
        w(2, "b", 3, "dep"), w(3, "c")]
END = "\n\n"

# name: (text, what parsebench does where udeval refuses: "refuse" or "warn")
CASES: dict[str, tuple[str, str]] = {
    "overlap-shift": ("\n".join([mwt("1-2", "ab"), w(1, "a", 3, "dep"), mwt("2-3", "bc"),
                                 w(2, "b", 3, "dep"), w(3, "c")]) + END, "refuse"),
    "overlap-nested": ("\n".join([mwt("1-3", "abc"), w(1, "a", 3, "dep"), mwt("2-3", "bc"),
                                  w(2, "b", 3, "dep"), w(3, "c")]) + END, "refuse"),
    "overlap-repeated": ("\n".join([mwt("1-2", "ab"), mwt("1-2", "ab"), w(1, "a", 3, "dep"),
                                    w(2, "b", 3, "dep"), w(3, "c")]) + END, "refuse"),
    "empty-form": ("\n".join([w(1, "a", 2, "dep"), w(2, "")]) + END, "refuse"),
    "space-form": ("\n".join([w(1, "a", 2, "dep"), w(2, " ")]) + END, "refuse"),
    "nbsp-form": ("\n".join([w(1, "a", 2, "dep"), w(2, "\u00a0")]) + END, "refuse"),
    "empty-token-form": ("\n".join([mwt("1-2", ""), w(1, "a", 2, "dep"), w(2, "b")]) + END,
                         "refuse"),
    "double-blank": ("\n".join(GOOD) + "\n\n\n" + "\n".join(GOOD) + END, "warn"),
    "double-blank-at-end": ("\n".join(GOOD) + "\n\n\n", "warn"),
    "blank-first": ("\n" + "\n".join(GOOD) + END, "warn"),
    "no-final-blank": ("\n".join(GOOD) + "\n", "warn"),
    "no-final-newline": ("\n".join(GOOD), "warn"),
    "comments-without-words": ("# a\n\n" + "\n".join(GOOD) + END, "refuse"),
    "cycle": ("\n".join([w(1, "a", 2, "dep"), w(2, "b", 1, "dep")]) + END, "warn"),
    "two-roots": ("\n".join([w(1, "a"), w(2, "b")]) + END, "warn"),
    "head-underscore": ("\n".join([w(1, "a"), w(2, "b", "_", "dep")]) + END, "warn"),
    "no-head-at-all": ("\n".join([w(1, "a", "_", "dep"), w(2, "b", "_", "dep")]) + END,
                       "warn"),
    "head-negative": ("\n".join([w(1, "a"), w(2, "b", -1, "dep")]) + END, "refuse"),
    "head-outside": ("\n".join([w(1, "a"), w(2, "b", 5, "dep")]) + END, "refuse"),
    "id-gap": ("\n".join([w(1, "a"), w(3, "b", 1, "dep")]) + END, "refuse"),
    "id-letter": ("\n".join([w("a", "a"), w(2, "b", 1, "dep")]) + END, "refuse"),
    "nine-columns": (w(1, "a").rsplit("\t", 1)[0] + END, "refuse"),
    "token-past-end": ("\n".join([mwt("1-3", "abc"), w(1, "a"), w(2, "b", 1, "dep")]) + END,
                       "refuse"),
    "token-bad-range": ("\n".join([mwt("1-x", "ab"), w(1, "a"), w(2, "b", 1, "dep")]) + END,
                        "refuse"),
    "comment-inside": ("\n".join([w(1, "a"), "# x", w(2, "b", 1, "dep")]) + END, "refuse"),
    "spaces-line": ("\n".join(GOOD) + "\n   \n" + w(1) + END, "refuse"),
    "lone-cr": ("\n".join(GOOD).replace("\tc\tc", "\tc\rd\tc") + END, "refuse"),
    "bom": ("\ufeff" + "\n".join(GOOD) + END, "refuse"),
    "deps-not-pairs": ("\n".join([w(1, "a", deps="0:root"), w(2, "b", 1, "dep", "x")]) + END,
                       "warn"),
    "deps-head-word": ("\n".join([w(1, "a", deps="0:root"),
                                  w(2, "b", 1, "dep", "z:dep")]) + END, "warn"),
    "deps-head-outside": ("\n".join([w(1, "a", deps="0:root"),
                                     w(2, "b", 1, "dep", "7:dep")]) + END, "refuse"),
}


SCORED = {"cycle", "two-roots", "head-underscore", "no-head-at-all", "deps-not-pairs",
          "deps-head-word", "deps-head-outside"}
"""What the scoring judges, not the reader: the basic tree, and the enhanced graph
(which only ELAS and EULAS read)."""


def said(path: Path, read: object) -> tuple[str | None, list[str]]:
    """READ(PATH)'s error (None if it read the file) and the warnings it gave."""
    assert callable(read)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            got = read(path)
            error = None
        except InputError as e:
            error = str(e)
            got = None
    messages = [str(x.message) for x in caught]
    if got is not None and hasattr(got, "warnings"):
        messages += list(got.warnings)
    return error, messages


@pytest.mark.parametrize("name", sorted(CASES))
def test_what_the_official_scorer_refuses(name: str, tmp_path: Path) -> None:
    text, expected = CASES[name]
    f = tmp_path / f"{name}.conllu"
    f.write_bytes(text.encode("utf-8"))
    theirs = udeval_ref.run(f, f)
    assert theirs.returncode != 0, f"udeval reads {name}"
    where = re.compile(re.escape(str(f)) + r":\d+: ")
    readers = {"read_conllu": read_conllu, "iter_conllu": lambda p: list(iter_conllu(p)),
               "read_parses": read_parses,
               "eval deps": lambda p: pb.evaluate_deps(p, p)}
    for label, read in readers.items():
        if name in SCORED and label != "eval deps":
            continue
        error, messages = said(f, read)
        if expected == "refuse":
            assert error is not None and where.match(error), (label, error)
            assert "\n" not in error
        else:
            assert error is None, (label, error)
            if name == "no-head-at-all":  # no line to name: the whole file has none
                assert any(f"{f} has no heads" in m for m in messages), messages
            else:
                assert any(where.search(m) for m in messages), (label, messages)


@pytest.mark.parametrize("name", ["overlap-shift", "double-blank"])
def test_the_command_line_says_it_in_one_line(name: str, tmp_path: Path) -> None:
    text, expected = CASES[name]
    f = tmp_path / f"{name}.conllu"
    f.write_bytes(text.encode("utf-8"))
    got = subprocess.run([sys.executable, "-m", "parsebench.cli", "eval", "deps", str(f),
                          str(f)], capture_output=True, text=True, check=False)
    if expected == "refuse":
        assert got.returncode == 2
        assert got.stderr == f"parsebench: {f}:3: multiword token 2-3 overlaps 1-2\n"
    else:
        assert got.returncode == 0
        assert f"warning: {f}:8: 1 blank line(s) that end no sentence" in got.stderr

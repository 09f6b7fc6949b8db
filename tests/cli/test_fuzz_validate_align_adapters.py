"""Fuzz of the readers and commands added last: ``validate`` on damaged CoNLL-U,
``eval deps --align words`` on pairs of files whose words, sentences, multiword tokens
and empty nodes differ, and the new adapters' input (a parser spec for ``malt:``,
``yara:``, ``baseline:`` and ``openai:``, an LLM's answer, the random baselines' trees).

Each test is bounded by its number of examples (``PARSEBENCH_FUZZ_N`` as for
``test_fuzz.py``: raise it to run thousands by hand) and takes a few seconds.

Found by it: ``validate`` called a line of spaces (or U+0085) a blank line, a warning,
where the reader refuses the file (now the reader's error at that line), and printed a
DEPS head as it stood (a finding could break over lines; now escaped); a parser spec
holding a line break gave an error of several lines (now refused in one, the spec
escaped); the LLM answer reader split a row at a word holding U+2028 or another
character Python's ``splitlines`` takes for a line end (rows now split on ``\\n`` only,
as every reader of parsebench splits them); aligned scoring of a system without words
gave every attachment score n/a, "a tagger's output?", where recall is 0.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer.main
from conftest import DATA, FIXTURES, error_lines, error_text
from fuzzing import SEEDS, mutate, run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from parsed import is_projective

import parsebench as pb
from parsebench.cli import app
from parsebench.common.errors import InputError
from parsebench.formats.conllu import NO_HEAD, parse_conllu, read_conllu
from parsebench.metrics.dependency.other_words import (
    CLOSE,
    align_forms,
    score_aligned,
    similarity,
)
from parsebench.parsers.base import Analysis, Item, make_adapter, spec_identity
from parsebench.parsers.openai_chat import _outcome, read_answer

EXAMPLES = max(20, int(os.environ.get("PARSEBENCH_FUZZ_N", "600")) // 4)
"""Examples of a test: 150 by default, fewer where one is slow, so that each takes a few
seconds; PARSEBENCH_FUZZ_N as for the command-line fuzz test, to run thousands by hand."""


def bounded(share: float) -> settings:
    """SHARE of EXAMPLES, no deadline (a loaded machine is slow, not wrong)."""
    return settings(max_examples=max(10, int(EXAMPLES * share)), deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


FAST = bounded(1)
QUICK = bounded(2)


def one_line(exc: InputError) -> bool:
    return len(str(exc).splitlines()) == 1


@pytest.fixture
def cli(monkeypatch: pytest.MonkeyPatch) -> Any:
    """``test_fuzz.run`` (the console script in this process), with the command built
    once: typer builds it again on every call, 0.4 s, which would leave a fuzz test
    time for a few dozen runs only."""
    built = typer.main.get_command(app)
    original = typer.main.get_command
    monkeypatch.setattr(typer.main, "get_command",
                        lambda t: built if t is app else original(t))
    return run


# --- validate -----------------------------------------------------------------------------

VALIDATE_SEEDS: dict[str, bytes] = {
    "conllu": SEEDS["conllu"], "answer": SEEDS["answer"], "typos": SEEDS["typos"],
    "multiword and empty nodes": (FIXTURES / "udeval" / "empty-node-in-multiword.conllu")
    .read_bytes() + b"\n" + (FIXTURES / "udeval" / "relative-clause.conllu").read_bytes(),
}


BREAKS = ["\u2028", "\x85", "\x0c", "\x0b", "\x1c", "\r", "\u200b", "\ufeff"]


def damaged(kind: str, seed: int, twice: bool) -> bytes:
    """A seed mutated as ``test_fuzz.py`` mutates it, now and then with characters that
    some readers take for a line end (Python's ``splitlines``) put in anywhere."""
    rng = random.Random(seed)
    data = mutate(VALIDATE_SEEDS[kind], rng)
    if twice:
        data = mutate(data, rng)
    if rng.random() < 0.3:
        at = rng.randrange(len(data) + 1)
        data = data[:at] + rng.choice(BREAKS).encode() + data[at:]
    return data


def _lines_in(data: bytes) -> int:
    return data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)


@FAST
@given(seed=st.integers(0, 2**32), twice=st.booleans(),
       kind=st.sampled_from(sorted(VALIDATE_SEEDS)))
def test_validate_on_a_damaged_file(tmp_path: Path, cli: Any, seed: int, twice: bool,
                                    kind: str) -> None:
    """Exit 0 or 1, never a traceback; every finding names FILE:LINE of a line the file
    has; exit 1 exactly when a finding is an error; the text lists the JSON's findings."""
    data = damaged(kind, seed, twice)
    path = tmp_path / "damaged.conllu"
    path.write_bytes(data)
    code, out, err = cli(["validate", str(path), "--json"])
    assert code in (0, 1) and "Traceback" not in err, (code, err, data[:300])
    got = json.loads(out)
    lines = _lines_in(data)
    for f in got["findings"]:
        assert f["file"] == str(path)
        assert isinstance(f["line"], int) and 1 <= f["line"] <= max(lines, 1), (f, data[:300])
    assert code == (1 if any(f["severity"] == "error" for f in got["findings"]) else 0)
    assert got["valid"] == (code == 0)
    code, text, err = cli(["validate", str(path)])
    assert code == (0 if got["valid"] else 1), err
    shown = [ln for ln in text.splitlines() if ln.startswith(f"{path}:")]
    assert shown == [f"{path}:{f['line']}: {f['severity']} [{f['source']}] {f['kind']}: "
                     f"{f['message']}" for f in got["findings"]]


@FAST
@given(seed=st.integers(0, 2**32), twice=st.booleans(),
       kind=st.sampled_from(sorted(VALIDATE_SEEDS)))
def test_validate_agrees_with_the_reader(tmp_path: Path, seed: int, twice: bool,
                                         kind: str) -> None:
    """What the reader refuses, validate finds as an error, in the reader's sentence or
    before it (so a file validate calls valid, the reader reads): at the reader's line
    or before, unless, as udvalidate, an earlier failing check of that sentence left the
    rest of it unchecked."""
    data = damaged(kind, seed, twice)
    path = tmp_path / "damaged.conllu"
    path.write_bytes(data)
    r = pb.validate(path)
    errors = [f for f in r.findings if f.severity == "error"]
    try:
        read_conllu(path)
    except InputError as exc:
        assert errors, f"the reader refuses ({exc}), validate finds no error: {data[:300]!r}"
        if exc.line is not None:  # the reader stops at the first, found by then
            lines = data.decode("utf-8", "replace").split("\n")
            end = next((k for k in range(exc.line, len(lines) + 1)
                        if not lines[k - 1] or lines[k - 1].isspace()), len(lines))
            assert min(f.line or 0 for f in errors) <= end, (str(exc),
                                                             [str(f) for f in errors])


def _level_ok(value: str) -> bool:
    try:
        return int(value) in range(1, 6)
    except ValueError:
        return False


@pytest.mark.parametrize("blank", [" ", "\u0085", "\t" * 9])
def test_a_line_of_spaces_is_an_error_as_the_reader_says(tmp_path: Path, blank: str) -> None:
    f = tmp_path / "spaces.conllu"
    f.write_text(f"1\ta\t_\tX\t_\t_\t0\troot\t_\t_\n{blank}\n"
                 "1\tb\t_\tX\t_\t_\t0\troot\t_\t_\n\n", encoding="utf-8")
    with pytest.raises(InputError) as exc:
        read_conllu(f)
    r = pb.validate(f)  # as udvalidate: an error, the line then read as a blank one
    errors = [(x.line, x.kind) for x in r.findings if x.severity == "error"]
    assert not r.valid and errors == [(2, "pseudo-empty-line")] and exc.value.line == 2


def test_a_finding_is_one_line_whatever_the_file_holds(tmp_path: Path) -> None:
    f = tmp_path / "deps.conllu"
    f.write_text("1\ta\t_\tX\t_\t_\t0\troot\t1.\u2028:dep\t_\n\n", encoding="utf-8")
    found = pb.validate(f, level=2).findings  # and invalid-whitespace: U+2028 is a space
    (finding,) = [x for x in found if x.kind == "unknown-ehead"]
    assert all(len(str(x).splitlines()) == 1 for x in found)
    assert str(finding).splitlines() == [f"{f}:1: error [parsebench] unknown-ehead: DEPS head "
                                         "'1.\\u2028' is no node of the sentence"]


OPTIONS = st.one_of(
    st.tuples(st.just("--level"), st.one_of(st.integers(-3, 9).map(str), st.text(max_size=4))
              .filter(lambda v: not _level_ok(v) or int(v) == 1)),  # udvalidate's levels
    st.tuples(st.just("--lang"), st.text("abcdefghijklmnopqrstuvwxyz_", max_size=6)),
    st.tuples(st.sampled_from(["--json", "--no-such-option", "-x"]), st.just("")))


@FAST
@given(files=st.lists(st.sampled_from(["missing", "folder", "good"]), max_size=3),
       extra=st.lists(OPTIONS, max_size=2))
def test_validate_usage_errors_exit_2_in_one_line(tmp_path: Path, cli: Any, files: list[str],
                                                  extra: list[tuple[str, str]]) -> None:
    """A missing file, a folder, no file at all, a bad option or level: exit 2 and one
    line ``parsebench: ...``; good files with good options: exit 0."""
    good = tmp_path / "good.conllu"
    good.write_bytes(SEEDS["typos"])
    (tmp_path / "folder").mkdir(exist_ok=True)
    argv = ["validate", *(str(tmp_path / (f + ".conllu" if f == "good" else f))
                          for f in files)]
    for opt, value in extra:
        argv += [opt, value] if opt in ("--level", "--lang") else [opt]
    code, _, err = cli(argv)
    levels = [v for o, v in extra if o == "--level"]  # the last one given counts
    bad = not files or any(f != "good" for f in files) or any(
        o in ("--no-such-option", "-x") for o, _ in extra) or (levels and not _level_ok(
            levels[-1]))
    assert "Traceback" not in err
    if bad:
        assert code == 2 and len(error_lines(err)) == 1 \
            and error_text(err).startswith("parsebench: "), \
            (argv, code, err)
    else:
        assert code == 0, (argv, err)


# --- eval deps --align words --------------------------------------------------------------

# Forms no two of which can be paired (their similarity is 0), so that an alignment of
# words that differ only in spelling has one best answer.
POOL = [c * 4 for c in "abcdefghijklmnopqrstuvwxyz"] + \
    [c * 4 for c in "αβγδεζηθικλμνξοπρτυφχψω"] + [chr(0x4E00 + k) * 3 for k in range(30)]
RELS = ["nsubj", "obj", "det", "root", "punct", "case"]
FREE = ["a", "the", "cat", "dog", "sat", "on", ".", "x", "ab", "ba", "abc", "Tha", "é", "ǅ"]


@st.composite
def words(draw: st.DrawFn, forms: st.SearchStrategy[str]) -> list[dict[str, Any]]:
    """A flat list of words: form, UPOS, head (an index in the list, -1 the root), DEPREL;
    heads in the same stretch of up to 8 words, as a sentence of them would have."""
    n = draw(st.integers(1, 40))
    out: list[dict[str, Any]] = []
    for k in range(n):
        start = k - k % 8
        head = draw(st.sampled_from([-1, *range(start, min(start + 8, n))]))
        out.append({"form": draw(forms), "upos": draw(st.sampled_from(["X", "NOUN", "VERB"])),
                    "head": head if head != k else -1, "rel": draw(st.sampled_from(RELS))})
    return out


def conllu(ws: list[dict[str, Any]], cuts: list[int], multiword: list[int],
           empty: list[int]) -> str:
    """WS as CoNLL-U cut into sentences at CUTS; a multiword token over word K and the next
    and an empty node after word K of a sentence, for K in MULTIWORD and EMPTY (where the
    sentence is long enough); a head outside its sentence becomes the root."""
    bounds = sorted({0, len(ws), *(c for c in cuts if 0 < c < len(ws))})
    out = []
    for s, (a, b) in enumerate(itertools.pairwise(bounds)):
        n = b - a
        for i in range(n):
            w = ws[a + i]
            if multiword and multiword[s % len(multiword)] % n == i and i + 1 < n:
                out.append(f"{i + 1}-{i + 2}\t{w['form']}{ws[a + i + 1]['form']}"
                           + "\t_" * 8)
            h = w["head"]
            head = h - a + 1 if a <= h < b else 0
            out.append(f"{i + 1}\t{w['form']}\t_\t{w['upos']}\t_\t_\t{head}\t"
                       f"{'root' if head == 0 else w['rel']}\t_\t_")
            if empty and empty[s % len(empty)] % n == i:
                out.append(f"{i + 1}.1\t{w['form']}\t_\tX\t_\t_\t_\t_\t{i + 1}:dep\t_")
        out.append("")
    return "\n".join(out) + "\n"


def misspelt(form: str, how: int) -> str:
    """FORM misspelt one way (a letter changed, added or dropped, or its case)."""
    if how == 0:
        return form[:1] + "#" + form[2:]
    if how == 1:
        return form + "#"
    if how == 2:  # (not a one-letter word's: an empty FORM is refused, as udeval does)
        return form[1:] or form + "#"
    return form.upper() if form.upper().lower() == form else form + "#"


@st.composite
def edited(draw: st.DrawFn, gold: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """GOLD's words edited as a system's can be: misspelt, deleted, inserted, other
    heads; the heads of the words kept follow them."""
    kept: list[dict[str, Any]] = []
    where: dict[int, int] = {}
    for k, w in enumerate(gold):
        op = draw(st.sampled_from(["keep", "keep", "misspell", "delete", "insert"]))
        if op == "delete":
            continue
        if op == "insert":
            kept.append({"form": draw(st.sampled_from(FREE)), "upos": "X", "head": None,
                         "rel": "dep"})
        where[k] = len(kept)
        form = misspelt(w["form"], draw(st.integers(0, 3))) if op == "misspell" \
            else w["form"]
        kept.append({**w, "form": form, "old_head": w["head"]})
    for w in kept:
        old = w.pop("old_head", None)
        w["head"] = where.get(old, -1) if old is not None else -1
        if draw(st.integers(0, 9)) == 0:
            w["head"] = draw(st.integers(-1, len(kept) - 1))
    for k, w in enumerate(kept):
        if w["head"] == k:
            w["head"] = -1
    return kept


def _cuts(draw: st.DrawFn, n: int) -> list[int]:
    return draw(st.lists(st.integers(1, max(1, n - 1)), max_size=6))


@st.composite
def pairs(draw: st.DrawFn) -> tuple[str, str]:
    """A gold and a system as CoNLL-U: other words, sentence splits, multiword tokens and
    empty nodes."""
    forms = st.one_of(st.sampled_from(FREE), st.sampled_from(POOL),
                      st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zs", "Zl",
                                                                  "Zp")),
                              min_size=1, max_size=5))
    gold = draw(words(forms))
    system = draw(edited(gold))
    g = conllu(gold, [k for k in range(8, len(gold), 8)],
               draw(st.lists(st.integers(0, 9), max_size=3)),
               draw(st.lists(st.integers(0, 9), max_size=3)))
    s = conllu(system, _cuts(draw, len(system)),
               draw(st.lists(st.integers(0, 9), max_size=3)),
               draw(st.lists(st.integers(0, 9), max_size=3))) if system else ""
    return g, s


def _rates(d: dict[str, Any]) -> Iterator[tuple[str, float]]:
    for metric, v in d.items():
        if isinstance(v, dict):
            for k in ("precision", "recall", "f1", "aligned_accuracy", "accuracy"):
                if v.get(k) is not None:
                    yield f"{metric}.{k}", v[k]


@bounded(0.5)
@given(pair=pairs(), options=st.sampled_from([[], ["--by", "deprel"], ["--confusion", "upos"],
                                              ["--no-punct", "--by", "sentence-length"]]))
def test_aligned_scoring_of_random_pairs(tmp_path: Path, cli: Any, pair: tuple[str, str],
                                         options: list[str]) -> None:
    """No traceback; every rate in [0, 1] (0-100 as printed); the alignment's counts add
    up to the words of either side."""
    g, s = tmp_path / "gold.conllu", tmp_path / "system.conllu"
    g.write_text(pair[0], encoding="utf-8")
    s.write_text(pair[1], encoding="utf-8")
    code, out, err = cli(["eval", "deps", str(g), str(s), "--align", "words", "--json",
                          *options])
    assert "Traceback" not in err
    assert code == 0, (err, pair)
    d = json.loads(out)
    if not pair[1]:  # no system words at all: every gold word is missed
        assert d["uas"]["recall"] == d["words"]["recall"] == 0 and d["uas"]["precision"] \
            is None
    for name, rate in _rates(d):
        assert 0 <= rate <= 1, (name, rate)
    al = d["alignment"]
    gold_words = sum(len(x) for x in parse_conllu(pair[0].splitlines()))
    system_words = sum(len(x) for x in parse_conllu(pair[1].splitlines()))
    assert al["matched"] + al["substituted"] + al["deleted"] == gold_words
    assert al["matched"] + al["substituted"] + al["inserted"] == system_words
    code, text, err = cli(["eval", "deps", str(g), str(s), "--align", "words", *options])
    assert code == 0 and "Traceback" not in err, err
    table = [ln for ln in text.splitlines() if re.match(r"(UAS|LAS|Words|UPOS) +\|", ln)]
    assert len(table) == 4, text
    for ln in table:  # as printed: 0 to 100, or n/a
        for cell in ln.split("|")[1:]:
            assert cell.strip() in ("", "n/a") or 0 <= float(cell) <= 100, ln


def test_an_empty_system_misses_every_word() -> None:
    """Aligned scoring of a system without words: recall 0 (every gold word deleted),
    precision n/a; not n/a everywhere as for a tagger's output without heads."""
    gold = parse_conllu(["1\ta\t_\tX\t_\t_\t0\troot\t_\t_", ""])
    r = score_aligned(gold, [])
    d = r.as_dict()
    for k in ("words", "upos", "uas", "las"):
        assert d[k]["recall"] == 0 and d[k]["precision"] is None, k
    assert not [w for w in r.warnings if "no heads" in w]


@QUICK
@given(gold=st.lists(st.text(max_size=6), max_size=30), system=st.lists(st.text(max_size=6),
                                                                        max_size=30))
def test_alignment_is_monotone_and_pairs_only_close_words(gold: list[str],
                                                          system: list[str]) -> None:
    al = align_forms(gold, system)
    paired = [(i, j) for i, j in enumerate(al.sys2gold) if j >= 0]
    assert all(0 <= j < len(gold) for _, j in paired)
    assert [j for _, j in paired] == sorted({j for _, j in paired})  # in order, one to one
    assert all(similarity(system[i], gold[j]) >= CLOSE for i, j in paired)
    assert al.matched == sum(system[i].lower() == gold[j].lower() for i, j in paired)
    assert al.matched + al.substituted + al.deleted == len(gold)
    assert al.matched + al.substituted + al.inserted == len(system)
    same = align_forms(gold, gold)
    assert same.sys2gold == list(range(len(gold))) and same.matched == len(gold)


@bounded(0.5)
@given(data=st.data())
def test_a_system_equal_but_for_its_words_scores_100(data: st.DataObject) -> None:
    """The gold's trees, sentences, multiword tokens and empty nodes with words misspelt
    (letters changed, added, dropped, case) score 100 UAS and LAS over aligned words."""
    gold = data.draw(words(st.just("")))
    for w, form in zip(gold, data.draw(st.permutations(POOL)), strict=False):
        w["form"] = form  # no two alike
    spelt = [{**w, "form": misspelt(w["form"], data.draw(st.integers(0, 4)))
              if data.draw(st.booleans()) else w["form"]} for w in gold]
    cuts = [k for k in range(8, len(gold), 8)]
    mw = data.draw(st.lists(st.integers(0, 9), max_size=3))
    empty = data.draw(st.lists(st.integers(0, 9), max_size=3))
    g = parse_conllu(conllu(gold, cuts, mw, empty).splitlines())
    s = parse_conllu(conllu(spelt, cuts, mw, empty).splitlines())
    d = score_aligned(g, s).as_dict()
    for k in ("uas", "las", "words", "upos", "sentences", "tokens"):
        assert d[k]["precision"] == d[k]["recall"] == d[k]["f1"] == 1.0, (k, d[k])
    changed = sum(a["form"].lower() != b["form"].lower() for a, b in zip(gold, spelt,
                                                                         strict=True))
    assert d["alignment"] == {"matched": len(gold) - changed, "substituted": changed,
                              "deleted": 0, "inserted": 0}


# --- the adapters' input ------------------------------------------------------------------

SPEC_PARTS = [",jar=", ",tagger=", ",Jar=", ",beam=", ":", "::", ",", "=", ".mco", "random",
              "random-projective", "left", "right", "7", "-1", "٣", " ", "\t", "\n", "\r",
              "\u2028", "\x85", "\x00", "\udcff", "é", "/", "..", "~", "${HOME}"]


@pytest.fixture(scope="module")
def model_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """An existing model, jar and tagger file, none of them real, so that a spec can get
    past the checks of a path's existence (and no Java starts: the tagger fails first)."""
    d = tmp_path_factory.mktemp("models")
    files = {"model": d / "m.mco", "jar": d / "fake.jar", "tagger": d / "t.udpipe"}
    for f in files.values():
        f.write_bytes(b"not a model\n")
    return {k: str(v) for k, v in files.items()}


@st.composite
def specs(draw: st.DrawFn, files: dict[str, str]) -> str:
    head = draw(st.sampled_from(["malt:", "yara:", "baseline:", "openai:", "malt", "yara",
                                 "baseline", " malt:", "baseline:random:",
                                 "baseline:random-projective:", f"malt:{files['model']}",
                                 f"yara:{files['model']}"]))
    parts = draw(st.lists(st.one_of(st.sampled_from(SPEC_PARTS), st.text(max_size=4),
                                    st.sampled_from(list(files.values()))), max_size=6))
    return head + "".join(parts)


@FAST
@given(data=st.data())
def test_a_parser_spec_is_refused_in_one_line(monkeypatch: pytest.MonkeyPatch,
                                              model_files: dict[str, str],
                                              data: st.DataObject) -> None:
    """Any spec of the Java parsers, the baselines and the LLM adapter gives an adapter or
    an InputError of one line; its identity is known or None, never an exception."""
    for env in ("MALTPARSER_JAR", "YARA_JAR"):
        monkeypatch.delenv(env, raising=False)
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")  # never asked here
    spec = data.draw(specs(model_files))
    spec_identity(spec)
    try:
        adapter = make_adapter(spec)
    except InputError as exc:
        assert one_line(exc), (spec, str(exc))
        return
    assert adapter.name in ("baseline", "openai"), spec  # the Java ones need a real jar
    assert isinstance(adapter.identity(), dict)


def test_a_spec_with_a_line_break_is_refused_naming_it() -> None:
    with pytest.raises(InputError) as exc:
        make_adapter("baseline:\nrandom")
    assert str(exc.value) == "parser spec 'baseline:\\nrandom' holds a line break"
    with pytest.raises(InputError, match="holds a line break"):
        make_adapter("malt:m.mco\u2028,jar=x")
    assert spec_identity("openai:a\nb") is None


PROSE = ["Here is the parse:", "Sure! The CoNLL-U annotation follows.", "```conllu", "```",
         "```", "", "Note: word 3 is the root.", "I hope this helps.", "# text = x",
         "ID\tFORM\tLEMMA\tUPOS", "**Answer**", "- 1 item", "1.", "1-2", "1.1\tx"]
CELL = st.text(st.characters(blacklist_characters="\t\n\r"), max_size=8)


@st.composite
def answers(draw: st.DrawFn) -> str:
    lines = []
    for _ in range(draw(st.integers(0, 12))):
        kind = draw(st.integers(0, 3))
        if kind == 0:
            lines.append(draw(st.sampled_from(PROSE)))
        elif kind == 1:
            lines.append(draw(st.text(max_size=40)))
        else:
            cols = [draw(st.one_of(st.integers(-2, 12).map(str), st.sampled_from(
                ["1-2", "2.1", "٣", "_", "", "0", "1e3", "01"]))),
                    *draw(st.lists(st.one_of(CELL, st.integers(-1, 12).map(str)),
                                   max_size=11))]
            lines.append(draw(st.sampled_from(["\t", " ", "  ", " \t"])).join(cols))
    return draw(st.sampled_from(["\n", "\r\n"])).join(lines)


@FAST
@given(text=st.one_of(st.text(), answers()))
def test_an_llm_answer_is_read_or_refused(text: str) -> None:
    """Any text: an analysis whose columns are as long as each other, every head a row of
    it, the root or none; or None (no row). Any JSON the endpoint gives: an outcome."""
    got = read_answer(text)
    if got is not None:
        n = len(got.forms or [])
        assert n > 0
        for col in (got.lemmas, got.upos, got.xpos, got.feats, got.heads, got.deprels):
            assert col is not None and len(col) == n
        assert all(h == NO_HEAD or 0 <= h <= n for h in got.heads or [])
        assert all(c and "\t" not in c and "\n" not in c for c in got.forms or [])
    out = _outcome({"choices": [{"message": {"content": text}}]})
    assert out == got or (got is None and not isinstance(out, Analysis))


JSONISH = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=20),
                       lambda inner: st.lists(inner, max_size=3)
                       | st.dictionaries(st.sampled_from(["choices", "message", "content",
                                                          "refusal", "role", "x"]),
                                         inner, max_size=4), max_leaves=12)


@FAST
@given(answer=JSONISH)
def test_any_endpoint_json_gives_an_outcome(answer: Any) -> None:
    _outcome(answer)
    _outcome({"choices": [answer]})
    _outcome({"choices": [{"message": answer}]})


WORD = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\t\n\r"),
               min_size=1, max_size=8).filter(lambda w: w.strip() == w)


@FAST
@given(data=st.data(), n=st.integers(1, 15))
def test_a_well_formed_answer_round_trips(data: st.DataObject, n: int) -> None:
    """Rows of ten columns, the words any text (Unicode line separators too), inside prose
    and a code fence: read back as written."""
    forms = data.draw(st.lists(WORD, min_size=n, max_size=n))
    lemmas = data.draw(st.lists(WORD, min_size=n, max_size=n))
    rels = data.draw(st.lists(st.sampled_from(["nsubj", "obj", "root", "acl:relcl"]),
                              min_size=n, max_size=n))
    heads = data.draw(st.lists(st.integers(0, n), min_size=n, max_size=n))
    rows = [f"{i}\t{forms[i - 1]}\t{lemmas[i - 1]}\tNOUN\t_\tNumber=Sing\t{heads[i - 1]}\t"
            f"{rels[i - 1]}\t_\t_" for i in range(1, n + 1)]
    text = "\n".join([data.draw(st.sampled_from(PROSE[:3])), "```conllu", *rows, "```",
                      data.draw(st.sampled_from(PROSE[6:8]))])
    got = read_answer(text)
    assert got is not None
    assert (got.forms, got.lemmas, got.heads, got.deprels) == (forms, lemmas, heads, rels)
    assert got.upos == ["NOUN"] * n and got.feats == ["Number=Sing"] * n


def test_a_word_holding_a_line_separator_stays_one_row() -> None:
    got = read_answer("1\ta\u2028b\t_\tX\t_\t_\t0\troot\t_\t_\n2\tc\x85d\t_\tX\t_\t_\t1\tdep\t_\t_")
    assert got is not None and got.forms == ["a\u2028b", "c\x85d"] and got.heads == [0, 1]


def _tree_faults(heads: list[int]) -> str | None:
    n = len(heads)
    if sum(h == 0 for h in heads) != 1:
        return "not one root"
    if any(not 0 <= h <= n or h == d for d, h in enumerate(heads, 1)):
        return "a head out of range or a word its own head"
    for d in range(1, n + 1):
        seen = 0
        while d != 0:
            d = heads[d - 1]
            seen += 1
            if seen > n:
                return "a cycle"
    return None


@FAST
@given(kind=st.sampled_from(["random", "random-projective"]), seed=st.integers(0, 10**6),
       ws=st.lists(st.sampled_from(FREE), min_size=1, max_size=60))
def test_random_baselines_are_trees_and_deterministic(kind: str, seed: int,
                                                      ws: list[str]) -> None:
    """One root, no cycle, heads in range; projective for random-projective; the same
    seed and words the same tree, alone or in a batch in any order."""
    items = [Item(0, ws, ""), Item(1, ws[::-1], ""), Item(2, ws[:1], "")]
    got = [x.heads for x in make_adapter(f"baseline:{kind}:{seed}").parse(items)
           if isinstance(x, Analysis)]
    assert len(got) == 3
    for heads in got:
        assert heads is not None and _tree_faults(heads) is None, heads
        if kind == "random-projective":
            assert is_projective(heads), heads
    again = [x.heads for x in make_adapter(f"baseline:{kind}:{seed}").parse(items[::-1])
             if isinstance(x, Analysis)][::-1]
    assert again == got
    alone = next(iter(make_adapter(f"baseline:{kind}:{seed}").parse([items[0]])))
    assert isinstance(alone, Analysis) and alone.heads == got[0]


def test_the_fuzzed_seeds_validate() -> None:
    """The seeds are valid, so that the damage is what the validate tests try."""
    for kind, data in VALIDATE_SEEDS.items():
        assert data, kind
    assert pb.validate(DATA / "lin-key.conllu").valid
    assert pb.validate(FIXTURES / "typos.conllu").valid

"""A run over a transcript without sentence boundaries (issue 62 item 4): the parser is
given segments, and their analyses are cut back into the sentences. A worked example
of the cut with its exact heads; the cut of a gold tree keeps every arc inside a
segment (hypothesis); a whole run scores what CoNLL 2018-style scoring of the whole
document (``eval deps --align words``) scores, with a baseline in a fresh clone and
with UDPipe on EWT."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FIXTURES
from hypothesis import given, settings
from hypothesis import strategies as st
from parsed import udpipe_on_ewt

import parsebench as pb
from parsebench.common.errors import InputError
from parsebench.common.outcomes import Analysis, Failure
from parsebench.formats.conllu import NO_HEAD, Sentence, read_conllu
from parsebench.noise.transcript import resegmented, segment_lengths
from parsebench.run.segments import cut_back

LEARNER = FIXTURES / "learner.conllu"


def test_a_worked_example_of_the_cut() -> None:
    # sentences of 3 and 4 words cut into segments of 2 and 5 words
    seg1 = Analysis(heads=[2, 0], deprels=["nsubj", "root"], upos=["PRON", "VERB"])
    seg2 = Analysis(heads=[0, 1, 4, 1, 4], deprels=["obj", "root", "det", "conj", "x"],
                    upos=["NOUN", "VERB", "DET", "NOUN", "ADJ"])
    got = cut_back([(seg1, 0.2), (seg2, 1.0)], [2, 5], [3, 4])
    first, second = (o for o, _ in got)
    assert isinstance(first, Analysis) and isinstance(second, Analysis)
    # the third word is the second segment's root: 0 stays 0 (the root is the root)
    assert first.heads == [2, 0, 0] and first.deprels == ["nsubj", "root", "obj"]
    # the second sentence's words point to its first word (outside: no head) or inside
    assert second.heads == [NO_HEAD, 3, NO_HEAD, 3]
    assert second.upos == ["VERB", "DET", "NOUN", "ADJ"] and first.xpos is None
    # a segment's seconds are shared by its words
    assert [round(s, 6) for _, s in got] == [0.4, 0.8]
    # a failed segment fails each sentence it holds words of, with its reason
    got = cut_back([(seg1, 0.2), (Failure("timeout"), 1.0)], [2, 5], [1, 1, 5])
    assert [type(o).__name__ for o, _ in got] == ["Analysis", "Analysis", "Failure"]
    assert got[2][0] == Failure("timeout")
    # a parser that gives other words than the segment's cannot be cut by positions
    odd = Analysis(heads=[0], forms=["Gone"])
    (bad, _), = cut_back([(odd, 0.1)], [2], [2])
    assert isinstance(bad, Failure) and "1 words for a segment of 2" in bad.reason
    with pytest.raises(ValueError):
        cut_back([(seg1, 0.1)], [2], [3])


@st.composite
def trees(draw: st.DrawFn) -> Sentence:
    n = draw(st.integers(1, 8))
    order = draw(st.permutations(range(n)))
    heads = [0] * n
    for k, i in enumerate(order[1:], 1):  # each attached to one placed before it
        heads[i] = order[draw(st.integers(0, k - 1))] + 1
    return Sentence(forms=[f"w{i}" for i in range(n)], lemmas=["_"] * n, upos=["X"] * n,
                    xpos=["_"] * n, feats=["_"] * n, heads=heads,
                    deprels=["root" if h == 0 else "dep" for h in heads], deps=["_"] * n,
                    misc=["_"] * n, comments=[], multiword=[], line=1)


@settings(max_examples=150, deadline=None)
@given(st.lists(trees(), min_size=1, max_size=6), st.integers(2, 12))
def test_the_gold_cut_into_segments_and_back_keeps_every_arc_inside_one(
        sents: list[Sentence], window: int) -> None:
    segs = list(resegmented(sents, window))
    units = segment_lengths(sents, window)
    assert units == [len(s.forms) for s in segs]
    got = cut_back([(Analysis(heads=s.heads, deprels=s.deprels), 1.0) for s in segs],
                   units, [len(s.forms) for s in sents])
    start = 0
    bounds = [0]
    for n in units:
        bounds.append(bounds[-1] + n)
    for s, (o, _) in zip(sents, got, strict=True):
        assert isinstance(o, Analysis) and o.heads is not None
        for i, (h, gold) in enumerate(zip(o.heads, s.heads, strict=True)):
            assert h == NO_HEAD or 0 <= h <= len(s.forms)
            seg = next(k for k in range(len(units)) if bounds[k] <= start + i < bounds[k + 1])
            if gold > 0 and bounds[seg] <= start + gold - 1 < bounds[seg + 1]:
                assert h == gold  # an arc inside a segment is the gold's
        start += len(s.forms)


def _toml(tmp: Path, corpus: Path, parser: str, parts: str, extra: str = "") -> Path:
    toml = tmp / "t.toml"
    toml.write_text(f'[corpus]\npath = "{corpus}"\n{extra}[noise]\nkind = "transcript"\n'
                    f'parts = [{parts}]\nwindow = 7\nrates = [0.1]\n'
                    f'[[parsers]]\nname = "p"\nspec = "{parser}"\n', encoding="utf-8")
    return toml


def _cli(*args: object) -> None:
    p = subprocess.run([sys.executable, "-m", "parsebench.cli", *map(str, args)],
                       capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert p.returncode == 0, p.stderr


def _document_scored(tmp: Path, corpus: Path, parser: str) -> tuple[int, int]:
    """UAS and LAS words of the noise command's segments, parsed, scored against the gold
    over the whole document (``eval deps --align words``)."""
    _cli("noise", corpus, "-o", tmp / "seg.conllu", "--kind", "transcript", "--parts",
         "segments", "--window", "7")
    _cli("parse", tmp / "seg.conllu", "--parser", parser, "-o", tmp / "parsed.conllu")
    r = pb.evaluate_deps(corpus, tmp / "parsed.conllu", align="words")
    return r.uas.correct, r.las.correct


def _run_attachment(tmp: Path, toml: Path) -> dict[str, int]:
    got = pb.run(toml, store=tmp / "s.sqlite", report=tmp / "r")
    (f1,) = [r.value for r in got.results if r.method == "f1"]
    return {k: getattr(f1.accuracy, k) for k in ("uas_correct", "las_correct", "words")}


def test_a_run_scores_segments_as_the_whole_document_is_scored(tmp_path: Path) -> None:
    toml = _toml(tmp_path, LEARNER, "baseline:right", '"segments"')
    got = _run_attachment(tmp_path, toml)
    assert (got["uas_correct"], got["las_correct"]) == \
        _document_scored(tmp_path, LEARNER, "baseline:right") == (64, 5)
    assert got["words"] == 191
    text = (tmp_path / "r" / "index.md").read_text(encoding="utf-8")
    assert "segments (cut every 7 words)" in text
    # stored: export rebuilds the segments and writes each sentence's parse cut back
    files = pb.export(tmp_path / "s.sqlite", tmp_path / "x")
    noisy = [f for f in files if f.name.startswith("rate") and f.suffix == ".conllu"]
    exported = read_conllu(noisy[0])
    assert len(exported) == 15 and sum(s.heads.count(NO_HEAD) for s in exported) == 13
    # with the other parts, the words change too: still scored through the alignment,
    # the same words as without segments, other attachments
    parts = '"lower", "punct", "fillers"'
    got = {}
    for seg in ("", ', "segments"'):
        (tmp_path / "s.sqlite").unlink()
        toml = _toml(tmp_path, LEARNER, "baseline:right", parts + seg).read_text()
        toml_path = tmp_path / "t.toml"
        toml_path.write_text(toml if seg else toml.replace("window = 7\n", ""))
        got[seg] = _run_attachment(tmp_path, toml_path)
    assert got[""]["words"] == got[', "segments"']["words"] == 191 - 18  # the marks gone
    assert got[""]["uas_correct"] != got[', "segments"']["uas_correct"]


def test_segments_want_a_dependency_parser_and_a_window_of_two(tmp_path: Path) -> None:
    pytest.importorskip("nltk")
    (tmp_path / "in.txt").write_text("Maria walked her dog .\nThe dog ran to the river .\n")
    toml = _toml(tmp_path, tmp_path / "in.txt", "nltk-earley:english.cfg", '"segments"')
    with pytest.raises(InputError, match="gives tree analyses; a transcript's segments"):
        pb.run(toml, store=tmp_path / "s.sqlite", report=tmp_path / "r")
    toml.write_text(toml.read_text().replace("window = 7", "window = 1"))
    with pytest.raises(InputError, match="window: 2 words or more") as e:
        pb.run(toml, store=tmp_path / "s.sqlite", report=tmp_path / "r")
    assert e.value.line == 6


def test_udpipe_on_ewt_segments_scored_as_the_whole_document(tmp_path: Path) -> None:
    corpus, model = udpipe_on_ewt(tmp_path, 60)
    toml = _toml(tmp_path, corpus, f"udpipe:{model}", '"segments"')
    got = _run_attachment(tmp_path, toml)
    uas, las = _document_scored(tmp_path, corpus, f"udpipe:{model}")
    assert (got["uas_correct"], got["las_correct"]) == (uas, las)
    clean = json.loads((tmp_path / "r" / "results.json").read_text())[0]["results"]
    (deps,) = [r["value"] for r in clean if r["metric"] == "deps" and r["level"] == "clean"]
    # cut every seven words, a parser loses attachments it had with the boundaries
    assert las / got["words"] < deps["las"]["f1"] - 0.05


@pytest.mark.parametrize("window", [-3, 1, "x", 2.5])
def test_a_damaged_window_in_a_stored_run_is_one_line(tmp_path: Path, window: object
                                                       ) -> None:
    import contextlib
    import sqlite3

    toml = _toml(tmp_path, LEARNER, "baseline:right", '"segments"')
    pb.run(toml, store=tmp_path / "s.sqlite", report=tmp_path / "r")
    with contextlib.closing(sqlite3.connect(tmp_path / "s.sqlite")) as db:
        config = json.loads(db.execute("SELECT config FROM runs").fetchone()[0])
        assert config["window"] == 7
        config["window"] = window
        db.execute("UPDATE runs SET config=?", (json.dumps(config),))
        db.commit()
    with pytest.raises(InputError, match="damaged"):
        pb.export(tmp_path / "s.sqlite", tmp_path / "x")

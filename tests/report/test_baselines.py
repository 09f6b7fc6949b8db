"""The report names the best uninformed baseline and marks every parser that does not beat
it (below it, or not separated from it by the report's own Holm-corrected paired test);
its headline table shows each parser's LAS at every level with its interval, the points
lost, the letters of the paired tests and that mark; a baseline's row in a robustness
table says it is a baseline."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES, needs, shared_path

from parsebench.metrics.registry import typed
from parsebench.model.scored import Scored
from parsebench.present.tables import Table
from parsebench.report.headline import headline, headline_table
from parsebench.report.summary import BASELINE_HINT, against_baseline, pairwise_tests, summarize
from parsebench.report.summary_records import FigureTest, Summary
from parsebench.report.tables import md_cell, table_html, table_md

# the marking rule, on the tests the report computes ---------------------------------


def _test(a: str, b: str, diff: float, significant: bool | None,
          p: float | None = 0.5) -> FigureTest:
    return FigureTest("LAS", "las", "deprel", "clean", a, b, diff, (diff - 0.01, diff + 0.01),
                      p, significant, 2000)


def test_a_parser_beats_the_baseline_only_above_it_and_separated() -> None:
    def beats(mine: float | None, tests: list[FigureTest]) -> bool:
        return against_baseline("p", mine, "base", 0.5, tests).beats

    assert beats(0.7, [_test("base", "p", 0.2, True, 0.001)])
    assert beats(0.7, [_test("p", "base", -0.2, True, 0.001)])  # either order of the pair
    assert not beats(0.5, [_test("base", "p", 0.0, False, 1.0)])  # equal
    assert not beats(0.52, [_test("base", "p", 0.02, False, 0.3)])  # not separated
    assert not beats(0.3, [_test("base", "p", -0.2, True, 0.001)])  # separated, below
    assert not beats(0.7, [])  # no test
    assert not beats(0.7, [_test("base", "p", 0.2, None, None)])  # a test without p
    assert not beats(None, [_test("base", "p", 0.2, True, 0.001)])  # no LAS
    assert not beats(0.7, [replace(_test("base", "p", 0.2, True), level="rate=0.1")])
    got = against_baseline("p", 0.52, "base", 0.5, [_test("p", "base", -0.02, False, 0.3)])
    assert got.difference == pytest.approx(0.02) and got.ci95 == pytest.approx(
        (0.01, 0.03))
    assert got.why == ("scores above it by 2.0 points [1.0, 3.0], but the paired test "
                       "does not separate them, p = 0.300")


N = 40  # sentences of 10 words


def _deps(parser: str, level: str, correct: list[int]) -> Scored:
    """A dependency result whose sentence I has CORRECT[I] of 10 words right (LAS)."""
    las = sum(correct) / (10 * N)
    return typed(Scored(parser, "deps", "deprel", level, "",
                        {"las": {"f1": las}, "ci95": {"las": [las - 0.01, las + 0.01]},
                         "stats": {"las": [[c, 10, 10] for c in correct]}}))


def _constructed() -> list[Scored]:
    half = [5] * N
    return [_deps("far", "clean", [9] * N), _deps("far", "rate=0.1", [8] * N),
            _deps("same", "clean", half), _deps("near", "clean", [6] + [5] * (N - 1)),
            _deps("below", "clean", [4] * N), _deps("chain", "clean", half),
            _deps("chain", "rate=0.1", half), _deps("left", "clean", [1] * N)]


def test_the_summary_marks_the_parsers_that_do_not_beat_the_best_baseline() -> None:
    rs = _constructed()
    tests = pairwise_tests(rs)
    baselines = {"chain": "baseline:right", "left": "baseline:left"}
    s = summarize(rs, tests, baselines)
    b = s.baseline
    assert b is not None
    assert (b.baseline, b.spec, b.value) == ("chain", "baseline:right", 0.5)
    assert [(v.parser, v.why.split(" (")[0].split(" by")[0]) for v in b.not_beating] == [
        ("same", "scores the same"), ("near", "scores above it"), ("below", "scores below it")]
    assert [v.parser for v in b.beating] == ["far"]
    near = b.not_beating[1]
    assert near.difference == pytest.approx(1 / (10 * N))
    assert "the paired test does not separate them" in near.why
    assert b.sentence.startswith(
        "Best uninformed baseline: chain (baseline:right), LAS on clean text 50.0% "
        "[49.0, 51.0]; a parser must beat it. Not beating it (below it, or not separated "
        "from it by the paired test, Holm-corrected, p < 0.05): same scores the same "
        "(50.0%); near scores above it by 0.2 points")
    assert "; below scores below it (40.0%, p = " in b.sentence
    assert " Beating it: far by 40.0 points [" in b.sentence
    # the headline: the best baseline's row, not the other baseline's; the mark
    h = headline(rs, tests, baselines, "chain", {"same", "near", "below"})
    assert h is not None
    assert [(r.parser, r.baseline, r.beats_baseline) for r in h.rows] == [
        ("far", False, True), ("near", False, False), ("same", False, False),
        ("chain", True, None), ("below", False, False)]
    far, chain = h.rows[0].cells, h.rows[3].cells
    assert far[1].loss == pytest.approx(0.1) and far[1].loss_ci95 == pytest.approx(
        (0.1, 0.1))  # every sentence loses one word of ten
    assert chain[1].loss == 0.0 and chain[1].loss_ci95 == (0.0, 0.0)
    md = table_md(headline_table(h))
    assert "| far | 90.0 a [89.0, 91.0] | 80.0 a [79.0, 81.0] | 10.0 [10.0, 10.0] |" in md
    assert "| chain (best baseline) | 50.0 b [49.0, 51.0] | 50.0 b [49.0, 51.0] | " \
        "0.0 [0.0, 0.0] |" in md
    # a parser without a noisy level: n/a, never 0
    assert "| below † | 40.0 c [39.0, 41.0] | n/a | n/a |" in md
    assert "- †: does not beat the best baseline (chain) on clean LAS" in md


def test_a_run_without_a_baseline_says_how_to_add_one_and_marks_nothing() -> None:
    rs = [x for x in _constructed() if x.parser in ("far", "same")]
    s = summarize(rs, pairwise_tests(rs))
    assert s.baseline is not None and s.baseline.sentence == BASELINE_HINT
    assert 'spec = "baseline:right"' in BASELINE_HINT
    h = headline(rs, s.tests, {}, None, set())
    assert h is not None and all(r.beats_baseline is None for r in h.rows)
    assert "†" not in table_md(headline_table(h))
    assert summarize([], []).baseline is None  # no dependency scores: no line


def test_a_summary_without_a_headline_writes_no_noise_caveat() -> None:
    # results.json: a run without dependency scores has "headline": null and no caveat;
    # with a headline, the caveat's key is there, null where nothing is measured
    s = summarize([], [])
    assert list(s.to_dict()) == ["accuracy", "baseline", "robustness", "hurts", "warnings",
                                 "tests", "headline"]
    assert s.to_dict()["headline"] is None and Summary.from_dict(s.to_dict()) == s
    rs = _constructed()
    h = headline(rs, [], {}, None, set())
    assert h is not None
    with_head = replace(s, headline=h).to_dict()
    assert list(with_head)[-2:] == ["headline", "noise_caveat"]
    assert with_head["noise_caveat"] is None
    # a clean cell has no points lost; a noisy one says n/a as null
    cells = with_head["headline"]["rows"][0]["cells"]
    assert "loss" not in cells[0] and list(cells[1])[-2:] == ["loss", "loss_ci95"]
    below = next(r for r in with_head["headline"]["rows"] if r["parser"] == "below")
    assert below["cells"][1]["loss"] is None and below["cells"][1]["loss_ci95"] is None


def test_letters_fold_into_their_figure_and_are_escaped() -> None:
    t = Table("t", ["parser", "LAS", "95% CI", "letters", "lost", "95% CI"],
              [["<b>x</b>", "80.0", "[79.0, 81.0]", "ab", "1.0", "n/a"]])
    assert "| \\<b&gt;x\\</b&gt; | 80.0 ab [79.0, 81.0] | 1.0 |" in table_md(t).replace(
        "&lt;", "\\<")
    got = table_html(t)
    assert "<th>parser</th><th>LAS</th><th>lost</th>" in got and "<b>x" not in got
    assert ("<td class='num'><span class='fig'>80.0</span> <span class='mark'>ab</span> "
            "<span class='ci'>[79.0, 81.0]</span></td>") in got


# a real run --------------------------------------------------------------------------


def _gold_las(sentences: list[Any], head_of: Any) -> float:
    """LAS of a chain labeled root/dep: a word is right when its gold head is the chain's
    and its gold relation (without subtype) the chain's label."""
    right = words = 0
    for s in sentences:
        n = len(s.heads)
        for i, (h, rel) in enumerate(zip(s.heads, s.deprels, strict=True)):
            mine = head_of(i, n)
            right += h == mine and rel.split(":")[0] == ("root" if mine == 0 else "dep")
            words += 1
    return right / words


def test_a_run_names_the_best_baseline_and_marks_who_does_not_beat_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    needs("ufal.udpipe")
    corpus = shared_path("data/ud-english-ewt/en_ewt-ud-test.conllu")
    model = shared_path("models/en_ewt.udpipe")
    monkeypatch.syspath_prepend(str(FIXTURES))  # python:toy_parsers:... here and in workers
    import parsebench as pb
    from parsebench.formats.conllu import read_conllu

    # blind (a toy parser that reads only the number of words) answers exactly what
    # baseline:left answers: the same LAS, so it does not beat the best baseline
    toml = tmp_path / "b.toml"
    toml.write_text(f'''name = "b"
[corpus]
path = "{corpus}"
limit = 20
[noise]
rates = [0.1]
replicates = 1
[[parsers]]
name = "udpipe"
spec = "udpipe:{model}"
[[parsers]]
name = "right"
spec = "baseline:right"
[[parsers]]
name = "left"
spec = "baseline:left"
[[parsers]]
name = "blind"
spec = "python:toy_parsers:FormBlind"
[metrics]
deps = true
sentences = true
rows = false
''', encoding="utf-8")
    pb.run(toml, store=tmp_path / "s.sqlite", report=tmp_path / "rep")
    gold = read_conllu(corpus)[:20]
    left = _gold_las(gold, lambda i, n: i)
    right = _gold_las(gold, lambda i, n: i + 2 if i + 1 < n else 0)
    assert left > right  # EWT's first word is the root more often than its last
    data = json.loads((tmp_path / "rep" / "results.json").read_text(encoding="utf-8"))[0]
    b = data["summary"]["baseline"]
    assert (b["baseline"], b["spec"]) == ("left", "baseline:left")
    assert b["value"] == pytest.approx(left, abs=1e-12)
    assert [v["parser"] for v in b["beating"]] == ["udpipe"]
    assert [v["parser"] for v in b["not_beating"]] == ["blind"]
    assert b["not_beating"][0]["why"] == f"scores the same ({100 * left:.1f}%)"
    # the headline: udpipe, then the best baseline and blind (marked), tied in the run's
    # order; not the other baseline; every number with its interval
    h = data["summary"]["headline"]
    assert [(r["parser"], r["beats_baseline"]) for r in h["rows"]] == [
        ("udpipe", True), ("left", None), ("blind", False)]
    assert all(c["ci95"] for r in h["rows"] for c in r["cells"])
    clean, noisy = h["rows"][0]["cells"]
    assert noisy["loss"] == pytest.approx(clean["value"] - noisy["value"])
    assert noisy["loss_ci95"][0] <= noisy["loss"] <= noisy["loss_ci95"][1]
    assert clean["letters"] == "a" and h["rows"][1]["cells"][0]["letters"] == "b"
    md = (tmp_path / "rep" / "index.md").read_text(encoding="utf-8")
    html = (tmp_path / "rep" / "index.html").read_text(encoding="utf-8")
    summary_md = md[md.index("### Summary"):md.index("**Run**")]
    assert "**Headline: LAS at each level, and the points lost**" in summary_md
    assert "left's own worst level" not in summary_md
    assert "udpipe's own worst level" in summary_md
    assert "| left (best baseline) |" in summary_md and "| blind † |" in summary_md
    assert "| udpipe | " in summary_md
    assert md_cell(b["sentence"]) in summary_md
    summary_html = html[html.index("<section class='summary'>"):html.index("</section>")]
    assert "id='b--headline'" in summary_html and "Best uninformed baseline" in summary_html
    # Kakkonen's robustness table: the baselines' rows say so, with the note
    assert "| left (baseline) |" in md and "| right (baseline) |" in md
    # the robustness sentence leads with a real parser; the baselines follow, marked
    # (blind, a toy that ignores the words, ties with them: it is no baseline by its spec)
    assert "): blind has the highest " in md
    assert "right (baseline) 100.0%" in md and "left (baseline) 100.0%" in md


def test_letters_follow_the_figure_even_where_a_baseline_leads_and_is_shown_last() -> None:
    """Issue 59 item 2: in a figure where lower is better, a baseline ahead of a parser
    (shown last, as baselines are) got letter b and the parser a, where the legend says a
    is the best group and the benchmark's table gave the opposite."""
    from parsebench.report.summary import RankedScore, _ranked

    rs = [_deps("udpipe", "clean", [5] * N), _deps("right", "clean", [1] * N)]
    tests = pairwise_tests(rs)
    lower = RankedScore("las", "deps", "points lost", lambda v: v.las.f1, "las", False,
                        lambda r: "x")
    got = _ranked(lower, rs, "clean", "Robustness", tests, "x", {"right": "baseline:right"})
    assert got is not None
    assert [e.parser for e in got.ranking] == ["udpipe", "right"]  # the baseline shown last
    assert got.letters == {"right": "a", "udpipe": "b"}
    assert "udpipe b, right (baseline) a" in got.sentence, got.sentence

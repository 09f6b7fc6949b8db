"""What a reader of the report sees: one colour a parser in every plot and in the
summary (tiers written, not coloured), the warnings one line a cause after the results,
Markdown that shows Link Grammar's labels as they are, and plain words where the
commands printed a Python dict or a cut name."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

from conftest import DATA
from robust_values import rows_value

from parsebench.api.parsing import failures
from parsebench.model.scored import Scored
from parsebench.present.plots import BoundedPoint
from parsebench.probes.invariance import EDITS, summary_table
from parsebench.report.colours import PALETTE, for_parsers
from parsebench.report.examples import _example_md
from parsebench.report.plots import (
    against_level,
    bounded,
    by_group,
    relation_bars,
    time_by_length,
)
from parsebench.report.summary import _warnings
from parsebench.report.summary_page import ranking_html
from parsebench.report.summary_records import Entry, Ranked
from parsebench.report.tables import md_cell
from parsebench.run.page_values import Example


def test_a_parser_keeps_its_colour_whatever_else_a_plot_holds() -> None:
    """b is the page's second parser: orange in every plot, also where it is drawn alone
    (matplotlib's cycle gave the first series of each plot blue)."""
    pts = [("5%", 0.9, 0.88, 0.92), ("10%", 0.8, 0.78, 0.83)]
    with for_parsers(["a", "b"]):
        svgs = [against_level("t", "%", {"b @ unlabeled": pts}).svg,
                by_group("t", "%", ["1", "2"], {"b @ clean": {"1": (0.9, 0.8, 0.95)}}).svg,
                bounded("t", {"b": [BoundedPoint(0.05, 0.1, 0.3, 0.2)]}, "x", "y").svg,
                relation_bars("t", {"b": {"nsubj": 0.9}}).svg,
                time_by_length({"b": [(3, 0.01), (5, 0.02)]}).svg,
                # and both, b first: the colours follow the page, not the series' order
                against_level("t", "%", {"b @ x": pts, "a @ x": pts}).svg]
    for svg in svgs[:-1]:
        text = svg.decode()
        assert PALETTE[1] in text and PALETTE[0] not in text
    assert PALETTE[0] in svgs[-1].decode() and PALETTE[1] in svgs[-1].decode()


def test_the_summary_draws_each_parser_in_its_colour_and_writes_its_letters() -> None:
    item = Ranked("LAS", "las", "clean", "deprel", True,
                  [Entry("b", 0.9, (0.88, 0.92)), Entry("a", 0.8, (0.78, 0.82)),
                   Entry("c", 0.79, None)], [], [["b"], ["a", "c"]],
                  {"b": "a", "a": "b", "c": "b"}, 3, "", "x")
    with for_parsers(["a", "b", "c"]):
        page = ranking_html(item)
    rows = page.split("<div class='rk'")[1:]
    assert [r.split("'")[1] for r in rows[:3]] == ["b", "a", "c"]
    for row, colour, letters in zip(rows, (PALETTE[1], PALETTE[0], PALETTE[2]),
                                    ("a", "b", "b"), strict=False):
        assert f"background:{colour}" in row
        assert f"<span class='letters'>{letters}</span>" in row
        assert not any(p in row for p in PALETTE if p != colour)
    # one group (nothing separated) or no test: no letters written
    one = replace(item, groups=[["b", "a", "c"]], letters=dict.fromkeys("abc", "a"))
    assert "<span class='letters'></span>" in ranking_html(one)
    assert "<span class='letters'>a</span>" not in ranking_html(replace(item, tests=0))


def _lemmas(parser: str, level: str) -> Scored:
    return Scored(parser, "deps", "deprel", level, "",
                  {"warnings": [f"{parser}:{level} has no lemmas: Lemmas, BLEX n/a"],
                   "error_level_label": "clean" if level == "clean" else "10%"})


def test_warnings_are_one_line_a_cause_with_its_parsers_and_levels() -> None:
    rs = [_lemmas(p, lv) for p in ("udpipe", "spacy") for lv in ("clean", "rate=0.1")]
    rs.append(Scored("udpipe", "rows", "head+deprel", "rate=0.1", "",
                     rows_value(warnings=["the clean parse agrees with the gold on no row"],
                                error_level_label="10%")))
    got = _warnings(rs)
    assert [w.sentence for w in got] == [
        "the parse has no lemmas: Lemmas, BLEX n/a (accuracy against the gold key; "
        "udpipe, spacy; clean, 10%)",
        "the clean parse agrees with the gold on no row (Bigert et al.'s degradation: "
        "head+deprel; udpipe; 10%)"]


def test_compare_las_says_nothing_of_lemmas(tmp_path: Path) -> None:
    key = (DATA / "lin-key.conllu").read_text()
    gold = tmp_path / "gold.conllu"
    gold.write_text("\n".join("\t".join([*c[:2], c[1].lower(), *c[3:]])
                              if (c := line.split("\t")) and len(c) == 10 else line
                              for line in key.split("\n")))
    system = DATA / "lin-answer.conllu"  # no lemmas

    def warnings(metric: str) -> list[str]:
        p = subprocess.run([sys.executable, "-m", "parsebench.cli", "compare", str(gold),
                            str(system), str(system), "--metric", metric, "--samples",
                            "100", "-q"], capture_output=True, text=True)
        assert p.returncode == 0, p.stderr
        return [x for x in p.stderr.splitlines() if x.startswith("warning:")]

    assert not any("lemmas" in w for w in warnings("las"))
    assert any("no lemmas" in w for w in warnings("blex"))


def test_markdown_shows_link_grammar_labels_as_they_are() -> None:
    assert md_cell("2:PHc,10:Ds**x") == "2:PHc,10:Ds\\*\\*x"
    assert md_cell("en_ewt udpipe `x` _y_") == "en_ewt udpipe \\`x\\` \\_y\\_"
    assert md_cell("a|b <i>") == "a\\|b &lt;i&gt;"
    ex = Example(1, "10%", "rate=0.1", 1, "changed most", "links", ["a", "b"], ["a", "bb"],
                 [False, True], ["2:Ds*", "0:root"], ["2:Ds**x", ""], None, None, None, None,
                 None, None)
    md = _example_md("lg", ex)
    assert "****" not in md
    assert "| 1 | a | 2:Ds\\* | a | **2:Ds\\*\\*x** (changed) |" in md
    assert "| 2 | b | 0:root | **bb** | (changed) |" in md


def test_failures_in_words_not_a_dict() -> None:
    assert failures(0, {}) == "0 failures"
    assert failures(1, {"timeout after 20 s": 1}) == "1 failure (timeout after 20 s)"
    assert failures(3, {"timeout after 20 s": 2, "crashed": 1}) == \
        "3 failures (timeout after 20 s: 2, crashed: 1)"


def test_invariance_names_each_parser_whole() -> None:
    spec = "udpipe:/work/shared/models/en_ewt.udpipe"
    per = {k: {"tested": 1, "failure_rate": 0.0, "ci95": None, "failures": [],
               "changed_words": {"rate": 0.0}} for k in EDITS}
    lines = summary_table({"parsers": {spec: per}}).splitlines()
    assert all(x.startswith(spec + " ") for x in lines[3:3 + len(EDITS)])

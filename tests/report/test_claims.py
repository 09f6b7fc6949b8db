"""Issue 59's invariants: what the report *says* must follow from its numbers, checked
on runs of every shape that went wrong (one parser or several, identical parsers,
baselines only, one corpus or two, keyboard noise, profile noise or none; a run costs
3 s, so four of them, not a generated hundred) and on fuzzed experiment files, so that
the next wrong sentence fails here, not in a user's hands.

(a) a sentence that names a best parser implies the paired tests separate it;
(b) letters follow the figure's direction (a the best group), and the sentence gives
    the letters the record holds;
(c) the Run table names the noise that made the versions (profile, keyboard, none);
(d) every result's figure has a row in ``to_pandas()``;
(e) no absolute path in a report that the user did not write;
(f) every refusal of an experiment file names FILE:LINE (a fuzzed file).
(g) is in test_benchmark.py (a one-corpus benchmark's macro figures).
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import parsebench as pb

PARSERS = {"second": "python:toy_parsers:SecondRoot", "twin": "python:toy_parsers:SecondRoot",
           "right": "baseline:right", "left": "baseline:left"}
"""twin is second again: two parsers with identical figures."""


def _folder() -> Path:
    """A fresh folder with the fixtures copied in, so every path the run is given is
    relative (what the user wrote) and nothing absolute may leak into the report."""
    d = Path(tempfile.mkdtemp(prefix="claims-"))
    for name in ("learner.conllu", "typos.conllu", "lexicon.txt"):
        shutil.copy(FIXTURES / name, d / name)
    return d


def _experiment(d: Path, parsers: list[str], two: bool, noise: str) -> Path:
    corpus = ('[[corpora]]\nname = "a"\nlang = "en"\npath = "learner.conllu"\nlimit = 8\n'
              '[[corpora]]\nname = "b"\nlang = "en"\npath = "typos.conllu"\nlimit = 8\n'
              if two else '[corpus]\npath = "learner.conllu"\nlimit = 8\n')
    if noise == "profile":
        pb.learn_profile(FIXTURES / "profile_pairs.conllu", d / "typos.json")
        noise_table = '[noise]\nrates = [0.2]\nprofile = "typos.json"\nlexicon = "lexicon.txt"\n'
    elif noise == "keyboard":
        noise_table = '[noise]\nrates = [0.2]\nlexicon = "lexicon.txt"\n'
    else:
        noise_table = ""
    body = "".join(f'[[parsers]]\nname = "{p}"\nspec = "{PARSERS[p]}"\n' for p in parsers)
    f = d / "exp.toml"
    f.write_text(f'name = "claims"\n{corpus}{noise_table}{body}[metrics]\ndeps = true\n',
                 encoding="utf-8")
    return f


def _separated(letters: dict[str, str], who: str, others: list[str]) -> bool:
    return all(not set(letters.get(who, "")) & set(letters.get(o, "")) for o in others)


def _check_ranked(r: dict[str, Any]) -> None:
    """(a) and (b) on one ranking of a run's summary."""
    entries = [e for e in r["ranking"] if e["value"] is not None]
    letters = r["letters"]
    named = (" has the highest " in r["sentence"] or " has the lowest " in r["sentence"]) \
        and "no parser alone" not in r["sentence"]
    if named:  # (a)
        leader = r.get("leader")
        assert leader is not None, r["sentence"]
        rivals = [e["parser"] for e in entries if e["parser"] != leader
                  and bool(e.get("baseline")) == bool(
                      next(x for x in entries if x["parser"] == leader).get("baseline"))]
        assert rivals and _separated(letters, leader, rivals), r
        assert f"{leader} has the " in r["sentence"] or f"{leader} (baseline) has the " \
            in r["sentence"]
    if not letters or not r["tests"]:
        return
    # (b) along the figure (best first), each parser's first letter never goes back
    sign = -1 if r["higher_is_better"] else 1
    order = sorted(entries, key=lambda e: sign * e["value"])
    firsts = [letters[e["parser"]][:1] for e in order if letters.get(e["parser"])]
    assert firsts == sorted(firsts), (r["sentence"], letters)
    for e in entries if len(entries) > 1 else []:  # the sentence gives the letters
        shown = e["parser"] + (" (baseline)" if e.get("baseline") else "")
        if letters.get(e["parser"]):
            assert f"{shown} {letters[e['parser']]}" in r["sentence"], r["sentence"]


def _headline_letters(md: str) -> dict[str, str]:
    """The letters of the LAS clean column of the report's headline table (one corpus)."""
    import re

    got = {}
    lines = md.split("**Headline: LAS", 1)[1].split("\n\n", 2)[1].splitlines()[2:]
    for line in lines:
        cells = [c.strip() for c in line.strip("|").split("|")]
        name = re.sub(r"( \((best )?baseline\)| [\u2020\u2021*]+)+$", "", cells[0])
        m = re.match(r"[\d.]+ ([a-z]+) \[", cells[1])
        if m:
            got[name] = m.group(1)
    return got


def _check_benchmark(s: dict[str, Any]) -> None:
    """(a) on a benchmark's answers: a named best parser is in a tier of its own."""
    for a in s["answers"]:
        for lead in ("Most accurate on average: ", "Most robust at "):
            if not a.startswith(lead) or "no parser alone" in a:
                continue
            who = a.split(": ", 1)[1].split(",", 1)[0]
            level = "clean" if lead.startswith("Most accurate") else \
                a[len(lead):].split(":", 1)[0]
            figure = "LAS" if level == "clean" else "LAS lost"
            tiers = {m["parser"]: m.get("tier") or "" for m in s["macro"]
                     if m["figure"] == figure and (level == "clean" or m["level"] != "clean")
                     and m["value"] is not None}
            # accuracy ranks the baselines too; robustness leaves them aside
            others = [p for p in tiers if p != who and (
                level == "clean" or p not in s["baselines"])]
            assert _separated(tiers, who, others), (a, tiers)


def _check_rows(result: Any) -> None:
    """(d) every figure of every result has a row."""
    rows = result.rows()
    if rows and "method" not in rows[0]:  # a benchmark's: a row a corpus x figure
        have_macro = {(r["parser"], r["level"], r["figure"]) for r in rows
                      if r["corpus"] == "macro"}
        for m in result.summary["macro"]:
            assert (m["parser"], m["level"], m["figure"]) in have_macro, m
        return
    have = {(r["parser"], r["method"], r["projection"], r["level"],
             r["figure"].split(".", 1)[0]) for r in rows}
    for s in result.results:
        v = s.to_dict()["value"]
        if not isinstance(v, dict):
            continue
        for k, x in v.items():
            numeric = isinstance(x, int | float) and not isinstance(x, bool)
            figure = isinstance(x, dict) and k != "ci95" and any(
                isinstance(y, int | float) and not isinstance(y, bool) for y in x.values())
            if k != "stats" and (numeric or figure):
                key = (s.parser, s.method, s.projection, s.level, k)
                assert key in have, key


@pytest.mark.parametrize(("parsers", "two", "noise"), [
    (["second", "twin", "right"], False, "keyboard"),  # identical parsers and a baseline
    (["right", "left"], True, "profile"),              # baselines only, two corpora
    (["second", "left"], True, "keyboard"),
    (["second"], False, "none")])
def test_what_the_report_says_follows_from_its_numbers(
        monkeypatch: pytest.MonkeyPatch, parsers: list[str], two: bool, noise: str) -> None:
    monkeypatch.syspath_prepend(str(FIXTURES))
    d = _folder()
    try:
        monkeypatch.chdir(d)
        exp = _experiment(d, parsers, two, noise)
        r = pb.run(Path("exp.toml"), store=Path("s.sqlite"), report=Path("rep"))
        data = json.loads((d / "rep" / "results.json").read_text(encoding="utf-8"))
        for entry in data:
            s = entry["summary"]
            if "benchmark" in s:
                _check_benchmark(s)
                continue
            for ranked in [s.get("accuracy"), *(s.get("robustness") or [])]:
                if ranked:
                    _check_ranked(ranked)
            acc = s.get("accuracy")
            if not two and acc and acc["tests"]:  # (b) the headline table's letters
                md_letters = _headline_letters(
                    (d / "rep" / "index.md").read_text(encoding="utf-8"))
                assert md_letters and all(acc["letters"][p] == x
                                          for p, x in md_letters.items()), \
                    (md_letters, acc["letters"])
        _check_rows(r)
        # a benchmark's corpora have a page each (issue 61): what the report says is on
        # its pages together
        pages = [d / "rep" / "index", *sorted(p.with_suffix("") for p in
                                              (d / "rep" / "corpora").glob("*.md"))]
        md = "".join(p.with_suffix(".md").read_text(encoding="utf-8") for p in pages)
        html = "".join(p.with_suffix(".html").read_text(encoding="utf-8") for p in pages)
        # (c) the Run table names the noise that made the versions
        if noise == "profile":
            assert "typos.json" in md and "one keyboard edit a word" not in md
        elif noise == "keyboard":
            assert "one keyboard edit a word" in md
        # (e) nothing absolute that the user did not write
        for text in (md, html):
            assert str(d) not in text and str(FIXTURES) not in text, exp
            assert str(Path.home()) + "/" not in text
    finally:
        shutil.rmtree(d, ignore_errors=True)


BASE = '''name = "fuzzed"
[corpus]
path = "learner.conllu"
limit = 5
[noise]
rates = [0.2]
replicates = 1
seed = 1
lexicon = "lexicon.txt"
min_length = 2
[[parsers]]
name = "r"
spec = "baseline:right"
timeout = 30
[metrics]
deps = true
rows = ["head"]
[report]
examples = 2
'''
WRONG = ['-1', '0', '"nope"', '[]', '{}', 'true', '1e400', '""', '"../../../etc/passwd"',
         '[1, "x"]', '"\\u0000"', '99999999999999999999']


@settings(max_examples=20, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(line=st.sampled_from([i for i, x in enumerate(BASE.splitlines()) if " = " in x
                             and not x.startswith("name = \"fuzzed\"")]),
       wrong=st.sampled_from(WRONG))
def test_every_refusal_of_an_experiment_file_names_its_line(
        monkeypatch: pytest.MonkeyPatch, line: int, wrong: str) -> None:
    """(f): a value of the wrong kind at any key is refused at that key's line, or the
    run goes through; never a refusal without FILE:LINE, never a traceback."""
    d = _folder()
    try:
        monkeypatch.chdir(d)
        lines = BASE.splitlines()
        key = lines[line].split(" = ", 1)[0]
        lines[line] = f"{key} = {wrong}"
        (d / "f.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
        try:
            pb.run(Path("f.toml"), store=Path("s.sqlite"), report=Path("rep"))
        except pb.InputError as e:
            assert e.line is not None and Path(str(e.path)).name == "f.toml", \
                (lines[line], str(e))
    finally:
        shutil.rmtree(d, ignore_errors=True)

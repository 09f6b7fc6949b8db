"""The report as a person sees it, in Debian's Chromium at 1,280 px (issue 29): the
demo's and a multi-parser run's with spelling and grammar noise. Nothing wider than the
window, every plot with its intervals, the summary's letter groups as the pairwise tests in
results.json say, a grammar example drawn over both word sequences with their alignment,
no console error. Screenshots of each section go to test-artifacts/report-*/."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from browsers import OVERFLOW
from browsers import driver as _driver
from conftest import ROOT, needs, shared_path
from experiments import write_exp

from parsebench.formats.conllu import read_conllu, write_conllu

ARTIFACTS = ROOT / "test-artifacts"


def _cli(*args: str) -> None:
    p = subprocess.run([sys.executable, "-m", "parsebench.cli", *args], capture_output=True,
                       text=True, stdin=subprocess.DEVNULL)
    assert p.returncode == 0, p.stderr


def _check_page(d: Any, page: Path, name: str) -> dict[str, Any]:
    from selenium.webdriver.common.by import By

    d.set_window_size(1280, 1000)
    d.get(page.as_uri())
    width, client, wide = d.execute_script(OVERFLOW)
    assert width <= client and not wide, (width, client, wide)
    # and no table needs its scroll box: each fits the window whole
    assert not d.execute_script("return [...document.querySelectorAll('.tablewrap')]"
                                ".filter(w => w.scrollWidth > w.clientWidth + 1).length")
    figures = d.find_elements(By.CSS_SELECTOR, "figure[data-points]")
    missing: list[str] = []
    for f in figures:
        points, intervals = int(f.get_attribute("data-points")), int(
            f.get_attribute("data-intervals"))
        src = f.find_element(By.TAG_NAME, "img").get_attribute("src")
        assert src.startswith("data:image/svg+xml;base64,")
        if points:  # a plot of figures over sentences: each point with its interval
            import base64
            svg = base64.b64decode(src.split(",", 1)[1]).decode()
            if intervals != points or 'id="interval-' not in svg:
                missing.append(str(f.get_attribute("id")))
    out = ARTIFACTS / f"report-{name}"
    out.mkdir(parents=True, exist_ok=True)
    for k, h in enumerate(d.find_elements(By.CSS_SELECTOR, "h2, h3")):
        d.execute_script("arguments[0].scrollIntoView()", h)
        assert d.save_screenshot(str(out / f"{k:02d}.png"))
    assert not [e for e in d.get_log("browser") if e["level"] == "SEVERE"]
    return {"figures": len(figures), "missing": missing, "with_points": sum(
        int(f.get_attribute("data-points")) > 0 for f in figures)}


def _no_interval_missing(got: dict[str, Any]) -> None:
    """Every plot of figures over sentences has its intervals, the arc-length and
    sentence-length plots included (per-sentence statistics a group)."""
    assert not got["missing"], got["missing"]


def _letters_agree(d: Any, results: Path) -> int:
    """Each summary's letter groups on the page against the tests of results.json: two
    parsers share a group exactly when no test separates them."""
    from selenium.webdriver.common.by import By

    data = json.loads(results.read_text(encoding="utf-8"))
    sections = d.find_elements(By.CSS_SELECTOR, "section.summary")
    assert len(sections) == len(data)
    checked = 0
    for run, section in zip(data, sections, strict=True):
        for li in section.find_elements(By.CSS_SELECTOR, "li[data-groups]"):
            groups = json.loads(li.get_attribute("data-groups"))
            tests = [t for t in run["summary"]["tests"]
                     if t["method"] == li.get_attribute("data-method")
                     and t["level"] == li.get_attribute("data-level")]

            def sig(a: str, b: str, tests: list[dict[str, Any]] = tests) -> bool:
                got = [t["significant"] for t in tests if {t["a"], t["b"]} == {a, b}]
                return bool(got and got[0])

            for group in groups:
                assert not any(sig(a, b) for a in group for b in group if a < b)
            parsers = sorted({p for g in groups for p in g})
            for a in parsers:
                for b in parsers:
                    if a < b and not sig(a, b):
                        assert any(a in g and b in g for g in groups)
            checked += 1
    return checked


def test_demo_report_reads_at_1280_px(tmp_path: Path) -> None:
    needs("linkgrammar")
    _cli("demo", "-o", str(tmp_path / "d"))
    d = _driver()
    try:
        got = _check_page(d, tmp_path / "d" / "report" / "index.html", "demo")
        assert got["with_points"] >= 2
        assert d.find_elements("css selector", "section.summary li")
        assert not got["missing"]
    finally:
        d.quit()


def test_multi_parser_spelling_and_grammar_report(tmp_path: Path) -> None:
    needs("ufal.udpipe")
    ewt = shared_path("data/ud-english-ewt/en_ewt-ud-test.conllu")
    train = shared_path("data/ud-english-ewt/en_ewt-ud-train.conllu")
    model = shared_path("models/en_ewt.udpipe")
    corpus, small_train = tmp_path / "corpus.conllu", tmp_path / "train.conllu"
    with corpus.open("w", encoding="utf-8") as fh:
        write_conllu(read_conllu(ewt)[:30], fh)
    with small_train.open("w", encoding="utf-8") as fh:  # TnT trains in seconds on this
        write_conllu(read_conllu(train)[:2000], fh)
    parsers = f'''
[[parsers]]
name = "udpipe"
spec = "udpipe:{model}"
[[parsers]]
name = "tnt"
spec = "nltk-tnt:{small_train}"
'''
    spell = write_exp(tmp_path, f'''
[corpus]
path = "{corpus}"
[noise]
rates = [0.05, 0.1]
replicates = 2
{parsers}
[metrics]
rows = ["head+deprel", "tag"]
deps = true
[report]
examples = [1]
''', "spell")
    grammar = write_exp(tmp_path, f'''
[corpus]
path = "{corpus}"
[noise]
kind = "grammar"
per_sentence = [1, 2]
replicates = 2
{parsers}
[metrics]
deps = true
[report]
changed_most = 2
''', "grammar")
    store = tmp_path / "s.sqlite"
    _cli("run", str(spell), "--store", str(store))
    _cli("run", str(grammar), "--store", str(store))
    _cli("report", str(store), "-o", str(tmp_path / "rep"))
    from selenium.webdriver.common.by import By

    d = _driver()
    try:
        got = _check_page(d, tmp_path / "rep" / "index.html", "multi")
        assert got["with_points"] >= 4
        # the two levels of spelling noise rank udpipe and TnT by their tag rows
        assert _letters_agree(d, tmp_path / "rep" / "results.json") >= 2
        # a grammar example: both word sequences drawn, and the alignment between them
        aligned = d.find_elements(By.CSS_SELECTOR, "svg.aligned")
        assert aligned
        for svg in aligned:
            parts = svg.find_elements(By.CSS_SELECTOR, "svg.parse")
            assert len(parts) == 2
            assert all(p.find_elements(By.CSS_SELECTOR, "text.word") for p in parts)
            assert svg.find_elements(By.CSS_SELECTOR, "line.align")
            assert svg.find_elements(By.CSS_SELECTOR,
                                     "text.missing, text.added, line.moved, line.replaced")
        # a tagger's example shows its tags
        assert d.find_elements(By.CSS_SELECTOR, "svg.parse text.tag")
        _no_interval_missing(got)
    finally:
        d.quit()

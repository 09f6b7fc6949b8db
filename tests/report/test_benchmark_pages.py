"""A benchmark's report in a browser (issue 61 item 2): the benchmark's page opens in
Chromium in seconds and stays the size of its answers, every corpus it links opens,
and each corpus page shows its sketched plots with their points, fitting the window."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from browsers import OVERFLOW, driver
from conftest import FIXTURES

import parsebench as pb

CORPORA = 12


def _benchmark(tmp: Path) -> Path:
    """CORPORA corpora (the learner fixture each), two baselines, one noise level."""
    toml = ['name = "many"']
    for k in range(CORPORA):
        toml += ["[[corpora]]", f'name = "c{k} <b>&"', 'lang = "en"',
                 f'path = "{FIXTURES / "learner.conllu"}"']
    toml += ["[noise]", "rates = [0.2]", f'lexicon = "{FIXTURES / "lexicon.txt"}"',
             "[[parsers]]", 'name = "right"', 'spec = "baseline:right"', "[[parsers]]",
             'name = "left"', 'spec = "baseline:left"', "[metrics]", "deps = true",
             "sentences = true"]
    path = tmp / "many.toml"
    path.write_text("\n".join(toml) + "\n", encoding="utf-8")
    pb.run(path, store=tmp / "s.sqlite", report=tmp / "rep")
    return tmp / "rep"


def test_the_benchmark_page_opens_quickly_and_links_every_corpus(tmp_path: Path) -> None:
    rep = _benchmark(tmp_path)
    index = rep / "index.html"
    pages = sorted((rep / "corpora").glob("*.html"))
    assert len(pages) == CORPORA
    # the benchmark's page holds no corpus's section: it grows by a link a corpus
    assert index.stat().st_size < 200_000
    d = driver()
    try:
        t = time.perf_counter()
        d.get(index.as_uri())
        opened = time.perf_counter() - t
        links = d.execute_script(
            "return [...document.querySelectorAll('#benchmark-corpora ~ div a')]"
            ".map(a => [a.textContent, a.href])")
        assert len(links) == CORPORA and opened < 10, opened
        assert {text for text, _ in links} == {f"c{k} <b>&" for k in range(CORPORA)}
        for _, href in links[:3]:
            d.get(href)
            figures = d.execute_script(
                "return [...document.querySelectorAll('figure')].map(f => "
                "[f.dataset.points, f.querySelector('img').naturalWidth])")
            assert figures and all(int(p) > 0 and w > 0 for p, w in figures), figures
            width, window, wide = d.execute_script(OVERFLOW)
            assert width <= window + 1, wide
            assert d.execute_script("return document.querySelector("
                                    "\"a[href='../index.html']\") !== null")
    finally:
        d.quit()


@pytest.mark.parametrize("name", ["../../escape", "/abs/path", "c<script>"])
def test_a_corpus_name_never_becomes_a_path_outside_the_report(tmp_path: Path,
                                                               name: str) -> None:
    from parsebench.report.corpus_pages import FOLDER, corpus_page

    page = corpus_page(f"bench [{name}]", ["## x"], ["<h2>x</h2>"], [],
                       lambda title, body: "".join(body))
    target = (tmp_path / FOLDER / (page.stem + ".html")).resolve()
    assert target.parent == (tmp_path / FOLDER).resolve()
    assert "/" not in page.stem and "<" not in page.stem

"""The report's sentence browser in a real browser: Debian's Chromium driven by selenium
through chromium-driver (nothing downloaded at run time). Screenshots are kept in
test-artifacts/."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from browsers import driver
from conftest import ROOT
from experiments import write_exp
from parsed import udpipe_on_ewt

from parsebench.formats.conllu import read_conllu

ARTIFACTS = ROOT / "test-artifacts"


def _run_and_export(tmp: Path, sentences: int, noise: str) -> None:
    """UDPipe on the first SENTENCES of EWT test with NOISE (the [noise] table): the
    report in TMP/rep, the parses exported to TMP/x."""
    corpus, model = udpipe_on_ewt(tmp, sentences)
    exp = write_exp(tmp, f'''
[corpus]
path = "{corpus}"
[noise]
{noise}
[[parsers]]
name = "udpipe"
spec = "udpipe:{model}"
''')
    store = tmp / "s.sqlite"
    p = subprocess.run([sys.executable, "-m", "parsebench.cli", "run", str(exp), "--store",
                        str(store), "--report", str(tmp / "rep")], capture_output=True,
                       text=True, stdin=subprocess.DEVNULL)
    assert p.returncode == 0, p.stderr
    assert subprocess.run([sys.executable, "-m", "parsebench.cli", "export", str(store), "-o",
                           str(tmp / "x")], capture_output=True).returncode == 0


def test_filter_pick_and_draw_in_chromium(tmp_path: Path) -> None:
    # what the filters must find, counted from the exported files, not from the page's data
    _run_and_export(tmp_path, 60, "rates = [0.05, 0.1]\nreplicates = 2")
    files = tmp_path / "x" / "exp" / "udpipe"
    clean = read_conllu(files / "clean.conllu")
    changed_at_10 = 0
    for seed in (1, 2):
        noisy = read_conllu(files / f"rate-0.1_seed-{seed}.conllu")
        changed_at_10 += sum((c.heads, c.deprels) != (n.heads, n.deprels)
                             for c, n in zip(clean, noisy, strict=True))
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    d = driver()
    try:
        d.get((tmp_path / "rep" / "index.html").as_uri())
        b = d.find_element(By.CSS_SELECTOR, ".browser")
        assert b.find_element(By.CSS_SELECTOR, ".count").text == \
            f"{60 * 4} of {60 * 4} parses shown"
        Select(b.find_element(By.NAME, "level")).select_by_value("10%")
        Select(b.find_element(By.NAME, "status")).select_by_value("changed")
        assert b.find_element(By.CSS_SELECTOR, ".count").text == \
            f"{changed_at_10} of 240 parses shown"
        rows = b.find_elements(By.CSS_SELECTOR, "tbody tr")
        assert len(rows) == min(50, changed_at_10) and changed_at_10 > 0
        assert all(r.find_elements(By.TAG_NAME, "td")[2].text == "10%" for r in rows)
        first = rows[0]
        k = int(first.find_elements(By.TAG_NAME, "td")[0].text)
        first.click()
        svgs = b.find_elements(By.CSS_SELECTOR, ".picked svg")
        assert len(svgs) == 2
        for svg in svgs:  # a dependency tree: one arc a word, the root's included
            words = svg.find_elements(By.CSS_SELECTOR, "text.word")
            assert len(words) == len(clean[k - 1]) == len(svg.find_elements(By.CSS_SELECTOR,
                                                                            "g.arc"))
        # the noisy drawing marks its misspelled words, and a changed parse a changed arc
        assert svgs[1].find_elements(By.CSS_SELECTOR, "text.miss")
        assert svgs[1].find_elements(By.CSS_SELECTOR, "g.arc.changed")
        ARTIFACTS.mkdir(exist_ok=True)
        assert d.save_screenshot(str(ARTIFACTS / "browser-picked.png"))  # (in view)
        # a word search: sentences with "the" among the shown ones
        word = b.find_element(By.NAME, "word")
        word.send_keys("the")
        shown = int(b.find_element(By.CSS_SELECTOR, ".count").text.split()[0])
        assert 0 < shown <= changed_at_10
        d.execute_script("arguments[0].scrollIntoView()", b)
        assert d.save_screenshot(str(ARTIFACTS / "browser-filtered.png"))
        assert not [e for e in d.get_log("browser") if e["level"] == "SEVERE"]
    finally:
        d.quit()


def test_grammar_runs_are_browsed_and_filtered_by_error_type(tmp_path: Path) -> None:
    """Learner-like errors move words: the browser lists those sentences too, draws both
    parses over their own words with the alignment between them, and filters by error
    type (the counts checked against the exported M2 files, not the page's data)."""
    _run_and_export(tmp_path, 40, 'kind = "grammar"\nper_sentence = [1]\nreplicates = 1\n'
                    "seed = 3")
    from parsebench.metrics.core.word_alignment import read_m2_edits

    m2 = next((tmp_path / "x" / "exp").rglob("*.m2"))
    blocks = read_m2_edits(m2)
    by_type: dict[str, int] = {}
    for _, edits in blocks:
        for t in {e[2] for e in edits}:
            by_type[t] = by_type.get(t, 0) + 1
    assert by_type and len(blocks) == 40
    kind, count = max(by_type.items(), key=lambda x: x[1])
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    d = driver()
    try:
        d.get((tmp_path / "rep" / "index.html").as_uri())
        b = d.find_element(By.CSS_SELECTOR, ".browser")
        assert b.find_element(By.CSS_SELECTOR, ".count").text == "40 of 40 parses shown"
        etype = Select(b.find_element(By.NAME, "etype"))
        assert {o.get_attribute("value") for o in etype.options} == {"", *by_type}
        etype.select_by_value(kind)
        assert b.find_element(By.CSS_SELECTOR, ".count").text == \
            f"{count} of 40 parses shown"
        rows = b.find_elements(By.CSS_SELECTOR, "tbody tr")
        assert len(rows) == count
        assert all(kind in r.find_elements(By.TAG_NAME, "td")[4].text.split() for r in rows)
        k = int(rows[0].find_elements(By.TAG_NAME, "td")[0].text)
        rows[0].click()
        words, edits = blocks[k - 1]  # the noisy words, and the edits back to the clean
        aligned = b.find_element(By.CSS_SELECTOR, ".picked svg.alignment")
        texts = [t.text for t in aligned.find_elements(By.CSS_SELECTOR, "text.word")]
        assert texts[:len(words)] == words  # the noisy words above the clean ones
        assert aligned.find_elements(By.CSS_SELECTOR, "line.pair")
        drawn = b.find_elements(By.CSS_SELECTOR, ".picked svg.parse")
        assert len(drawn) == 2
        noisy_words = [t.text for t in drawn[1].find_elements(By.CSS_SELECTOR, "text.word")]
        assert noisy_words == words
        # the error's words are marked: in the noisy drawing (a replaced, added or moved
        # word), or in the clean one (a missing word)
        assert any(svg.find_elements(By.CSS_SELECTOR, "text.miss") for svg in drawn), edits
        widest = d.execute_script(
            "return Math.max(...[...document.querySelectorAll('body *')]"
            ".filter(e => !e.closest('.drawn')).map(e => e.getBoundingClientRect().right))")
        assert widest <= 1300, widest
        ARTIFACTS.mkdir(exist_ok=True)
        d.execute_script("arguments[0].scrollIntoView()",
                         b.find_element(By.CSS_SELECTOR, ".picked"))
        assert d.save_screenshot(str(ARTIFACTS / "browser-grammar.png"))
        assert not [e for e in d.get_log("browser") if e["level"] == "SEVERE"]
    finally:
        d.quit()

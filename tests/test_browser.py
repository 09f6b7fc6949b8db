"""The report's sentence browser in a real browser: Debian's Chromium driven by selenium
through chromium-driver (nothing downloaded at run time). Screenshots are kept in
test-artifacts/."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, needs
from test_experiment import write_exp
from test_export import udpipe_on_ewt

from parsebench.formats.conllu import read_conllu

ARTIFACTS = ROOT / "test-artifacts"


def _driver():  # type: ignore[no-untyped-def]
    needs("selenium")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if not chromium or not driver:
        import os
        if os.environ.get("CI") == "true":
            pytest.fail("chromium and chromium-driver are missing (scripts/system-deps.sh "
                        "installs them)")
        pytest.skip("needs Debian's chromium and chromium-driver")
    opts = webdriver.ChromeOptions()
    opts.binary_location = chromium
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              "--window-size=1300,1500"):
        opts.add_argument(a)
    return webdriver.Chrome(service=Service(driver), options=opts)


def test_filter_pick_and_draw_in_chromium(tmp_path: Path) -> None:
    corpus, model = udpipe_on_ewt(tmp_path, 60)
    exp = write_exp(tmp_path, f'''
[corpus]
path = "{corpus}"
[noise]
rates = [0.05, 0.1]
replicates = 2
[[parsers]]
name = "udpipe"
spec = "udpipe:{model}"
''')
    store = tmp_path / "s.sqlite"
    p = subprocess.run([sys.executable, "-m", "parsebench.cli", "run", str(exp), "--store",
                        str(store), "--report", str(tmp_path / "rep")], capture_output=True,
                       text=True, stdin=subprocess.DEVNULL)
    assert p.returncode == 0, p.stderr
    # what the filters must find, counted from the exported files, not from the page's data
    assert subprocess.run([sys.executable, "-m", "parsebench.cli", "export", str(store), "-o",
                           str(tmp_path / "x")], capture_output=True).returncode == 0
    files = tmp_path / "x" / "exp" / "udpipe"
    clean = read_conllu(files / "clean.conllu")
    changed_at_10 = 0
    for seed in (1, 2):
        noisy = read_conllu(files / f"rate-0.1_seed-{seed}.conllu")
        changed_at_10 += sum((c.heads, c.deprels) != (n.heads, n.deprels)
                             for c, n in zip(clean, noisy, strict=True))
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    d = _driver()
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
        # a word search: sentences with "the" among the shown ones
        word = b.find_element(By.NAME, "word")
        word.send_keys("the")
        shown = int(b.find_element(By.CSS_SELECTOR, ".count").text.split()[0])
        assert 0 < shown <= changed_at_10
        ARTIFACTS.mkdir(exist_ok=True)
        d.execute_script("arguments[0].scrollIntoView()", b)
        assert d.save_screenshot(str(ARTIFACTS / "browser-filtered.png"))
        d.execute_script("arguments[0].scrollIntoView()",
                         b.find_element(By.CSS_SELECTOR, ".picked"))
        assert d.save_screenshot(str(ARTIFACTS / "browser-picked.png"))
        assert not [e for e in d.get_log("browser") if e["level"] == "SEVERE"]
    finally:
        d.quit()

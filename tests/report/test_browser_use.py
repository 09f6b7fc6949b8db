"""The sentence browser as a person uses it, in Debian's Chromium (issue 42): a click on a
row opens its drawing under the row and brings it into view, a second click closes it,
Enter does what a click does, the parses that changed come first, every column sorts;
and the report fits a phone's 390 px with no horizontal scrolling outside the drawings,
each parser in one colour across the plots. A toy parser, so no model is needed."""

from __future__ import annotations

import base64
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from browsers import OVERFLOW
from browsers import driver as _driver
from conftest import FIXTURES, ROOT

from parsebench.report.colours import PALETTE
from parsebench.run.examples import changed_most

ENV_PATH = [str(ROOT / "src"), str(FIXTURES)]
WORDS = ["the", "dog", "cat", "park", "house", "garden", "river", "street", "morning",
         "evening", "friend", "teacher", "doctor", "window", "table", "letter"]


def test_changed_most_is_a_share_of_the_sentence_with_a_length_cap() -> None:
    # (sentence, words, arcs changed): shares 30/40 (over the cap), 5/10, 6/20, 4/8
    assert changed_most([(1, 40, 30), (2, 10, 5), (3, 20, 6), (4, 8, 4)]) == [2, 4, 3, 1]
    assert changed_most([(7, 31, 31), (5, 30, 3)]) == [5, 7]


def _corpus(path: Path, n: int) -> None:
    """N sentences with "saw" in them (the toy parser's weak word): misspelling it
    changes the whole parse, misspelling another word nothing."""
    out = []
    for k in range(n):
        forms = ["I", "saw", *(WORDS[(k + j) % len(WORDS)] for j in range(2 + k % 9))]
        out += [f"# sent_id = s{k + 1}", f"# text = {' '.join(forms)}"]
        out += [f"{i}\t{w}\t_\tX\t_\t_\t{0 if i == 2 else 2}\t{'root' if i == 2 else 'dep'}"
                "\t_\t_" for i, w in enumerate(forms, 1)]
        out.append("")
    path.write_text("\n".join(out) + "\n", encoding="utf-8")


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    import os

    tmp = tmp_path_factory.mktemp("browse")
    _corpus(tmp / "c.conllu", 60)
    exp = tmp / "exp.toml"
    exp.write_text(f'''name = "browse"
[corpus]
path = "{tmp / 'c.conllu'}"
[noise]
rates = [0.1, 0.3]
replicates = 2
lexicon = "{FIXTURES / 'lexicon.txt'}"
[[parsers]]
name = "weak"
spec = "python:toy_parsers:WeakWord"
[[parsers]]
name = "blind"
spec = "python:toy_parsers:FormBlind"
''')
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(ENV_PATH))
    p = subprocess.run([sys.executable, "-m", "parsebench.cli", "run", str(exp), "--store",
                        str(tmp / "s.sqlite"), "--report", str(tmp / "rep"), "-q"],
                       capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL)
    assert p.returncode == 0, p.stderr
    return tmp / "rep" / "index.html"


def _cells(b: Any, col: int) -> list[str]:
    from selenium.webdriver.common.by import By

    return [r.find_elements(By.TAG_NAME, "td")[col].text
            for r in b.find_elements(By.CSS_SELECTOR, "tbody tr.row")]


def _in_view(d: Any, e: Any) -> bool:
    return bool(d.execute_script("const r = arguments[0].getBoundingClientRect();"
                                 "return r.top >= 0 && r.top < innerHeight;", e))


def test_a_click_opens_the_drawing_under_the_row_in_view(report: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    d = _driver()
    try:
        d.set_window_size(1300, 900)
        d.get(report.as_uri())
        b = d.find_element(By.CSS_SELECTOR, ".browser")
        # changed parses first: the status column runs changed, then unchanged
        status = _cells(b, 6)
        assert status[0] == "changed" and "unchanged" in status
        rank = {"changed": 0, "failed": 1, "unchanged": 2}
        assert [rank[s] for s in status] == sorted(rank[s] for s in status)
        th = b.find_element(By.CSS_SELECTOR, "th[data-sort=status]")
        assert th.get_attribute("aria-sort") == "ascending"
        # a row near the bottom of the page of rows, the page scrolled to the table's top
        d.execute_script("arguments[0].scrollIntoView()", b.find_element(By.TAG_NAME, "table"))
        rows = b.find_elements(By.CSS_SELECTOR, "tbody tr.row")
        row = rows[30]
        k = row.find_elements(By.TAG_NAME, "td")[0].text
        d.execute_script("arguments[0].click()", row)
        detail = row.find_element(By.XPATH, "following-sibling::tr[1]")
        assert "detail" in detail.get_attribute("class")
        assert row.get_attribute("aria-expanded") == "true"
        assert len(detail.find_elements(By.CSS_SELECTOR, ".picked svg.parse")) == 2
        assert f"sentence {k}," in detail.find_element(By.TAG_NAME, "h4").text
        assert _in_view(d, detail)
        d.execute_script("arguments[0].click()", row)  # closed again
        assert not b.find_elements(By.CSS_SELECTOR, "tr.detail")
        assert row.get_attribute("aria-expanded") == "false"
        # the keyboard: rows are in the tab order, Enter opens
        assert row.get_attribute("tabindex") == "0"
        rows[3].send_keys(Keys.ENTER)
        assert b.find_elements(By.CSS_SELECTOR, "tr.detail .picked svg.parse")
        assert d.switch_to.active_element == rows[3]
        # sorting: changed arcs, the most first, then the fewest; the number, in order
        changed = b.find_element(By.CSS_SELECTOR, "th[data-sort=changed] button")
        changed.click()
        got = [int(x) for x in _cells(b, 5) if x != "n/a"]
        assert got == sorted(got, reverse=True) and got[0] > got[-1]
        assert b.find_element(By.CSS_SELECTOR, "th[data-sort=changed]").get_attribute(
            "aria-sort") == "descending"
        changed.click()
        got = [int(x) for x in _cells(b, 5) if x != "n/a"]
        assert got == sorted(got)
        b.find_element(By.CSS_SELECTOR, "th[data-sort=k] button").click()
        got = [int(x) for x in _cells(b, 0)]
        assert got == sorted(got) and got[0] == 1
        b.find_element(By.CSS_SELECTOR, "th[data-sort=parser] button").click()
        parsers = _cells(b, 1)
        assert parsers == sorted(parsers) and parsers[0] == "blind"
        assert not [e for e in d.get_log("browser") if e["level"] == "SEVERE"]
    finally:
        d.quit()


ENTRY = re.compile(r'<g id="(line2d|patch)_\d+">\s*<path[^>]*?style="([^"]*)"'
                   r'(?:(?!<g id="(?:text|line2d|patch)_).)*?<g id="text_\d+">\s*<text[^>]*>'
                   r'([^<]+)</text>', re.S)


def _legend_colours(svg: str) -> dict[str, str]:
    """Each parser's colour in a plot, read from its legend: an entry's line (or bar)
    and the text beside it, whose first word is the parser."""
    legend = svg[svg.find('<g id="legend_1">'):]
    out: dict[str, str] = {}
    for kind, style, label in ENTRY.findall(legend):
        m = re.search(r"(?:stroke|fill): (#[0-9a-f]{6})" if kind == "line2d" else
                      r"fill: (#[0-9a-f]{6})", style)
        if m:
            out[label.split()[0].rstrip(":")] = m.group(1)
    return out


def test_the_report_reads_on_a_phone_each_parser_in_one_colour(report: Path) -> None:
    from selenium.webdriver.common.by import By

    d = _driver()
    try:
        d.set_window_size(390, 844)
        d.get(report.as_uri())
        width, client, wide = d.execute_script(OVERFLOW)
        assert client <= 390 and width <= client and not wide, (width, client, wide)
        # the plots are SVG that scale to the screen
        imgs = d.find_elements(By.CSS_SELECTOR, "figure img")
        assert imgs
        for img in imgs:
            assert img.get_attribute("src").startswith("data:image/svg+xml;base64,")
            assert img.size["width"] <= client
        # one colour a parser across every plot and the summary
        seen: dict[str, set[str]] = {}
        for img in imgs:
            svg = base64.b64decode(img.get_attribute("src").split(",", 1)[1]).decode()
            for parser, colour in _legend_colours(svg).items():
                seen.setdefault(parser, set()).add(colour)
        for e in d.find_elements(By.CSS_SELECTOR, ".ranking .rk[data-parser] .who i"):
            parser = e.find_element(By.XPATH, "..").text.strip()
            rgb = e.value_of_css_property("background-color")
            seen.setdefault(parser, set()).add(_hex(rgb))
        assert seen == {"weak": {PALETTE[0]}, "blind": {PALETTE[1]}}, seen
        # the browser: its table fits (the replicate and error columns left out), and a
        # drawing opens within the screen
        b = d.find_element(By.CSS_SELECTOR, ".browser")
        wrap = b.find_element(By.CSS_SELECTOR, ".rowswrap")
        assert d.execute_script("return arguments[0].scrollWidth <= arguments[0].clientWidth",
                                wrap)
        d.execute_script("arguments[0].scrollIntoView()", wrap)
        assert d.save_screenshot(str(ROOT / "test-artifacts" / "browser-390.png"))
        row = b.find_elements(By.CSS_SELECTOR, "tbody tr.row")[0]
        d.execute_script("arguments[0].click()", row)
        picked = b.find_element(By.CSS_SELECTOR, ".picked")
        assert picked.size["width"] <= client
        width, client, wide = d.execute_script(OVERFLOW)
        assert width <= client and not wide, (width, client, wide)
        assert not [e for e in d.get_log("browser") if e["level"] == "SEVERE"]
    finally:
        d.quit()


def _hex(rgb: str) -> str:
    r, g, b = (int(x) for x in re.findall(r"\d+", rgb)[:3])
    return f"#{r:02x}{g:02x}{b:02x}"

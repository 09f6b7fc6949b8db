"""The report in Debian's Chromium at a phone's 390 px and at 1,280 px (issue 48): the
headline table shows every column without a sideways scroll, its caption whole; an
example's "as a table" opened keeps the page within the screen; the plots' text stays
readable; and a sentence opened in the browser, scrolled to its first misspelling,
cuts no word at its left edge. A toy parser, so no model is needed."""

from __future__ import annotations

import base64
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from browsers import driver as _driver
from conftest import FIXTURES, ROOT

WORDS = ["What", "the", "dog", "cat", "park", "house", "garden", "river", "street",
         "morning", "evening", "friend", "teacher", "doctor", "window", "table", "letter"]


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Sentences of 30 to 45 words, wider than the browser's drawing box at 1,280 px,
    each opening with "What" and with "saw" (the toy parser's weak word)."""
    tmp = tmp_path_factory.mktemp("phone")
    out = []
    for k in range(24):
        forms = ["What", "I", "saw", *(WORDS[(k * 7 + j) % len(WORDS)]
                                       for j in range(27 + k % 16))]
        out += [f"# sent_id = s{k + 1}", f"# text = {' '.join(forms)}"]
        out += [f"{i}\t{w}\t_\tX\t_\t_\t{0 if i == 3 else 3}\t{'root' if i == 3 else 'dep'}"
                "\t_\t_" for i, w in enumerate(forms, 1)]
        out.append("")
    # a long name without a space: the Run table must wrap it (issue 59 item 22)
    corpus = tmp / "a_corpus_whose_file_name_is_long_and_holds_no_space_anywhere.conllu"
    corpus.write_text("\n".join(out) + "\n", encoding="utf-8")
    exp = tmp / "exp.toml"
    exp.write_text(f'''name = "phone"
[corpus]
path = "{corpus}"
[noise]
rates = [0.05, 0.1]
lexicon = "{FIXTURES / 'lexicon.txt'}"
[[parsers]]
name = "weak"
spec = "python:toy_parsers:WeakWord"
[[parsers]]
name = "right"
spec = "baseline:right"
[report]
examples = [1, 2]
''')
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "src"), str(FIXTURES)]))
    p = subprocess.run([sys.executable, "-m", "parsebench.cli", "run", str(exp), "--store",
                        str(tmp / "s.sqlite"), "--report", str(tmp / "rep"), "-q"],
                       capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL)
    assert p.returncode == 0, p.stderr
    return tmp / "rep" / "index.html"


def _smallest_text(d: Any) -> float:
    """The smallest text of any plot as drawn on the page, in CSS pixels: its size in
    the SVG's units times the image's width over the SVG's."""
    smallest = 99.0
    for img in d.find_elements("css selector", "figure img"):
        svg = base64.b64decode(img.get_attribute("src").split(",", 1)[1]).decode()
        m = re.search(r'viewBox="0 0 ([\d.]+) ', svg)
        assert m is not None
        sizes = [float(x) for x in re.findall(r"font-size: ([\d.]+)px", svg)]
        if sizes:
            smallest = min(smallest, min(sizes) * img.size["width"] / float(m.group(1)))
    return smallest


def test_the_report_reads_at_390_px(report: Path) -> None:
    d = _driver()
    try:
        d.set_window_size(390, 844)
        d.get(report.as_uri())
        client = d.execute_script("return document.documentElement.clientWidth")
        # the headline table: every cell and the caption within the screen, no scroll
        wrap = d.find_element("css selector", "[id$=headline]")
        got = d.execute_script("""const w = arguments[0], W = arguments[1];
          const cut = [...w.querySelectorAll('td, caption')].filter(
            e => e.getBoundingClientRect().right > W + 1 || e.scrollWidth > e.clientWidth + 1);
          return [w.scrollWidth - w.clientWidth, cut.map(e => e.textContent.slice(0, 30)),
                  w.querySelectorAll('td').length]""", wrap, client)
        assert got[0] <= 1 and not got[1] and got[2] >= 12, got
        # the Run table's long paths and specs wrap, as the data tables' cells do
        # (issue 59 item 22: cut at the right edge)
        over = d.execute_script("""return [...document.querySelectorAll('table.settings')]
          .map(t => t.closest('.tablewrap') || t.parentElement)
          .map(w => w.scrollWidth - w.clientWidth)""")
        assert over and max(over) <= 1, over
        # every "as a table" opened: the page no wider than the screen
        for det in d.find_elements("css selector", "details"):
            d.execute_script("arguments[0].open = true", det)
        assert d.find_elements("css selector", "details table.side")
        width = d.execute_script("return document.documentElement.scrollWidth")
        assert width <= client, (width, client)
        # the plots' text, scaled to the screen, still readable
        smallest = _smallest_text(d)
        assert smallest >= 7.0, smallest
        (ROOT / "test-artifacts").mkdir(exist_ok=True)
        assert d.save_screenshot(str(ROOT / "test-artifacts" / "report-390.png"))
    finally:
        d.quit()


CUT = """const out = [];
for (const box of document.querySelectorAll('.picked .drawn')) {
  const s = box.scrollLeft;
  for (const t of box.querySelectorAll('text.word')) {
    const b = t.getBBox();
    if (b.x < s - 0.5 && b.x + b.width > s + 0.5) out.push(t.textContent + ' at ' + s);
  }
}
return [out, [...document.querySelectorAll('.picked .drawn')].map(b => b.scrollLeft)];"""


def test_a_sentence_opened_at_1280_px_cuts_no_word(report: Path) -> None:
    d = _driver()
    try:
        d.set_window_size(1280, 1000)
        d.get(report.as_uri())
        rows = d.find_elements("css selector", ".browser tbody tr.row")
        scrolled, cut = 0, []
        for row in rows[:20]:
            d.execute_script("arguments[0].click()", row)
            words, lefts = d.execute_script(CUT)
            cut += words
            scrolled += any(x > 0 for x in lefts)
            d.execute_script("arguments[0].click()", row)
        assert scrolled, "no drawing opened scrolled: the test tests nothing"
        assert not cut, cut
    finally:
        d.quit()

"""The report's sentence browser: every sentence of a run, filtered and drawn in the page.

The run stores, per parser, the clean words once, each noisy version's
misspelled words (or, for noise that moves words, each changed sentence's noisy
words, alignment and error types, filterable by type), the clean parse's arcs
and a noisy parse's arcs only where they differ from the clean ones
(:func:`parsebench.run.examples.browser_data`). The page carries that as JSON and a
small script (no library, no network) that filters the (parser, version,
sentence) triples as the user asks, shows one page of them at a time, and draws
the picked sentence's clean and noisy parse as :mod:`parsebench.report.draw` does.
Every text from the data goes into the page through ``textContent``, never as
markup.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from parsebench.common.record import plain
from parsebench.run.page_values import BrowserData

PAGE = 50
"""Rows a page of the browser shows."""

COLUMNS = (("k", "#"), ("parser", "parser"), ("level", "level"), ("replicate", "replicate"),
           ("errors", "errors"), ("changed", "changed arcs"), ("status", "parse"),
           ("text", "noisy text"))
"""The browser's columns (the script's sort key, the header); a click on a header
sorts by it, and the parses that changed come first until then."""


def merge(parsers: list[tuple[str, BrowserData]]) -> dict[str, Any] | None:
    """One experiment's browser data, the JSON the page's script reads: the parsers'
    parses over the shared words and noise (the same corpus and versions for all); None
    when there is nothing to browse."""
    usable = [(n, d) for n, d in parsers if isinstance(d, BrowserData) and d.versions]
    if not usable:
        return None
    first = usable[0][1]
    return {"parsers": [n for n, _ in usable], "kinds": [d.kind for _, d in usable],
            "labels": [d.labels for _, d in usable], "versions": plain(first.versions),
            "words": first.words, "noise": first.noise, "gold": first.gold,
            "clean": [d.clean for _, d in usable], "noisy": [d.noisy for _, d in usable]}


def html_of(data: dict[str, Any], key: int) -> str:
    """The browser's markup and data for one experiment (KEY keeps two apart)."""
    blob = json.dumps(data, ensure_ascii=True, separators=(",", ":"))
    # no "<" at all in the data, as a JSON escape: nothing in it can end or confuse its
    # script element
    blob = blob.replace("<", "\\u003c")
    return (f"<div class='browser' id='pb-browser-{key}' data-page='{PAGE}'>"
            "<div class='filters'>"
            "<label>parser <select name='parser'></select></label> "
            "<label>level <select name='level'></select></label> "
            "<label>replicate <select name='replicate'></select></label> "
            "<label>parse <select name='status'><option value=''>any</option>"
            "<option value='changed'>changed</option><option value='unchanged'>unchanged"
            "</option><option value='failed'>failed</option></select></label> "
            "<label>errors <select name='errors'><option value=''>any</option>"
            "<option>0</option><option>1</option><option>2</option><option>3+</option>"
            "</select></label> <label>error type <select name='etype'></select></label> "
            "<label>word <input name='word' type='search' size='12'>"
            "</label></div>"
            "<p class='count'></p><div class='rowswrap'><table class='rows'><thead><tr>"
            + "".join(f"<th data-sort='{k}' aria-sort='none'><button type='button'>{h}"
                      "</button></th>" for k, h in COLUMNS)
            + "</tr></thead><tbody></tbody></table></div>"
            "<p class='pager'><button name='prev'>previous</button> <span></span> "
            "<button name='next'>next</button></p>"
            f"<script type='application/json' class='pb-data'>{blob}</script></div>")


SCRIPT = (Path(__file__).resolve().parent.parent / "data" / "browser.js").read_text(
    encoding="utf-8")
"""The browser's program, once a page."""


STYLE = """.browser .filters label{margin-right:.8em;font-size:13px;display:inline-block}
.browser .rowswrap{max-width:100%;overflow-x:auto}
.browser table.rows td.text{white-space:normal;text-align:left;min-width:12em}
.browser mark{background:#ffe08a}
.browser tr.row{cursor:pointer}.browser tr.row:hover,.browser tr.row:focus{background:#eef}
.browser tr.row[aria-expanded=true]{background:#dde}
.browser tr.detail>td{background:#fcfcff;white-space:normal;padding:.3em .5em}
.browser th button{font:inherit;font-weight:bold;background:none;border:0;padding:0;
cursor:pointer;text-align:left;white-space:normal}
.browser th[aria-sort=ascending] button::after{content:" \\25B2"}
.browser th[aria-sort=descending] button::after{content:" \\25BC"}
@media (max-width:600px){.browser table.rows td:nth-child(4),.browser table.rows
th:nth-child(4),.browser table.rows td:nth-child(5),.browser table.rows th:nth-child(5)
{display:none}.browser table.rows td.text{min-width:6em}.browser table.rows{font-size:12px}
.browser table.rows td,.browser table.rows th{padding:2px 4px}}"""

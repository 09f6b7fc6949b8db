"""A run's summary as the page shows it, in Markdown and HTML: the answers first, each
ranking with its letters and its link to the table it comes from, then the warnings
(:mod:`parsebench.report.summary` makes them; this module writes them)."""

from __future__ import annotations

import html
import json

from parsebench.report.colours import colour_of
from parsebench.report.headline import headline_table
from parsebench.report.summary_records import Ranked, Summary
from parsebench.report.tables import md_cell, table_html, table_md


def ranking_html(item: Ranked) -> str:
    """A question's figure: each ranked parser's value and 95% interval on one scale, in
    the parser's colour (the plots' colour), its letters (the compact letter display of
    the paired tests: parsers that share one are not separated) beside it; laid out in
    percentages, so that it narrows with a phone's screen and its text stays readable."""
    e = html.escape
    rows = item.ranking
    names = item.letters if item.tests and len(item.groups) > 1 else {}
    vals = [x for r in rows for x in [r.value, *(r.ci95 or [])] if x is not None]
    lo, hi = min(vals), max(vals)
    pad = (hi - lo) * 0.1 or 0.01
    lo, hi = max(0.0, lo - pad), min(1.0, hi + pad) if hi <= 1 else hi + pad

    def x(v: float) -> float:
        return float(100 * (v - lo) / ((hi - lo) or 1.0))

    out = [f"<div class='ranking' role='img' aria-label='{e(item.figure)} by parser, "
           "with 95% intervals'>"]
    for r in rows:
        assert r.value is not None  # a ranking holds the parsers with a figure
        colour = colour_of(r.parser)
        letters = names.get(r.parser, "")
        iv = ""
        if r.ci95:
            a, b = x(r.ci95[0]), x(r.ci95[1])
            iv = (f"<b class='iv' style='left:{a:.1f}%;width:{max(b - a, 0.3):.1f}%;"
                  f"background:{colour}'></b>")
        out.append(f"<div class='rk' data-parser='{e(r.parser)}'><span class='who'>"
                   f"<i style='background:{colour}'></i>{e(r.parser)}</span>"
                   f"<span class='scale'>{iv}<b class='pt' style='left:{x(r.value):.1f}%;"
                   f"background:{colour}'></b></span><span class='val'>"
                   f"{100 * r.value:.1f}%</span><span class='letters'>"
                   f"{e(letters)}</span></div>")
    out.append(f"<div class='rk axis'><span></span><span class='scale'><span>{100 * lo:.0f}%"
               f"</span><span>{100 * hi:.0f}%</span></span></div></div>")
    return "".join(out)

def summary_html(s: Summary, prefix: str) -> str:
    e = html.escape
    lis = []
    for kind, x in s.claims():
        fig = groups = ""
        if isinstance(x, Ranked):
            fig = ranking_html(x)
            if x.tests:
                groups = (" data-groups='" + e(json.dumps(x.groups)) + "' data-method='"
                          + e(x.method) + "' data-level='" + e(x.level) + "'")
        lis.append(f"<li class='{kind}'{groups}>{e(x.sentence)} "
                   f"<a href='#{prefix}{e(x.link)}'>(table)</a>{fig}</li>")
    n = len(s.warnings)
    if n:
        lis.append(f"<li class='to-warnings'><a href='#{prefix}warnings'>{_warned(n)}</a>"
                   " after the results</li>")
    if not lis:
        return ""
    head = table_html(headline_table(s.headline), prefix) if s.headline else ""
    if s.noise_caveat:
        head += f"<p class='caveat'>{html.escape(s.noise_caveat)}</p>"
    return ("<section class='summary'><h3>Summary</h3>" + head + "<ul>" + "".join(lis)
            + "</ul></section>")

def _warned(n: int) -> str:
    return f"{n} warning{'s' if n > 1 else ''}, one a cause,"

def warnings_html(s: Summary, prefix: str) -> str:
    """The warnings, one a cause with the parsers and levels it covers, after the
    results they qualify."""
    e = html.escape
    warn = "".join(f"<li class='warning'>{e(w.sentence)} "
                   f"<a href='#{prefix}{e(w.link)}'>(table)</a></li>"
                   for w in s.warnings)
    return (f"<h3 id='{prefix}warnings'>Warnings</h3><ul class='warnings'>{warn}</ul>"
            if warn else "")

def summary_md(s: Summary, prefix: str) -> list[str]:
    lines = [f"- {md_cell(x.sentence)} ([table](#{prefix}{x.link}))"
             for _, x in s.claims()]
    n = len(s.warnings)
    if n:
        lines.append(f"- [{_warned(n)}](#{prefix}warnings) after the results")
    head = [table_md(headline_table(s.headline), prefix), ""] if s.headline else []
    if s.noise_caveat:
        head += [md_cell(s.noise_caveat), ""]
    return ["### Summary", "", *head, *lines, ""] if lines else []

def warnings_md(s: Summary, prefix: str) -> list[str]:
    warn = [f"- {md_cell(w.sentence)} ([table](#{prefix}{w.link}))"
            for w in s.warnings]
    return [f'<a id="{prefix}warnings"></a>', "", "### Warnings", "", *warn, ""] \
        if warn else []

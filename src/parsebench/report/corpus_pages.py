"""A benchmark's corpora, a page each: the benchmark's page holds the answers (the
treebanks x parsers table, the macro averages, their ranking, the language picture)
and links to one page per corpus, which holds what a run's report shows of one
corpus: its summary, every method's tables, its plots (sketched as small SVG,
:mod:`parsebench.report.sketch`) and its sentence browser.

So the benchmark's page stays the size of its answers whatever the number of
corpora (forty corpora made a page of 13 MB when each corpus's section was in it),
and a corpus's page is opened only when asked for. The pages go to ``corpora/``
beside index.html, named by the corpus's experiment (a name from data: made safe,
:func:`parsebench.present.tables.safe_name`).
"""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from parsebench.present.tables import safe_name
from parsebench.report.benchmark import is_benchmark
from parsebench.report.tables import md_cell
from parsebench.run.benchmark_values import BenchmarkRecord

FOLDER = "corpora"
"""Where the corpora's pages go, beside index.html."""


@dataclass
class CorpusPage:
    """One corpus's page: its file name (without extension), Markdown, HTML and plots."""

    stem: str
    md: str
    html: str
    images: list[tuple[str, bytes]] = field(default_factory=list)


def corpus_pages(data: list[Any]) -> dict[str, str]:
    """The experiments of DATA (run records) that are a benchmark's corpora, each with its
    corpus's name: they get a page of their own."""
    out: dict[str, str] = {}
    for info in data:
        if is_benchmark(info.config):
            for c in BenchmarkRecord.from_dict(info.config).corpora:
                out[c.experiment] = c.name
    return out


def corpus_page(name: str, md: list[str], body: list[str], images: list[tuple[str, bytes]],
                shell: Callable[[str, list[str]], str]) -> CorpusPage:
    """Experiment NAME's part of a report (MD, BODY, IMAGES) as a page of its own,
    linking back to the benchmark's page; SHELL makes the HTML document of a body."""
    back_md = ["[the benchmark's page](../index.md)", ""]
    back = "<p><a href='../index.html'>the benchmark's page</a></p>"
    return CorpusPage(safe_name(name), "\n".join(["# parsebench report", "", *back_md, *md])
                      + "\n", shell(f"parsebench report: {name}", [back, *body]), images)


def links_section(links: list[tuple[str, str]]) -> tuple[list[str], str]:
    """The section that links the corpora's pages (experiment, corpus), as Markdown
    lines and HTML."""
    title = "The corpora, a page each"
    note = ("Each corpus's page holds its summary, every method's tables, its plots and "
            "its sentence browser.")
    md = [f"### {title}", "", note, "", "| corpus | page |", "|---|---|"]
    rows = []
    for name, corpus in links:
        stem = f"{FOLDER}/{safe_name(name)}"
        md.append(f"| {md_cell(corpus)} | [{stem}.md]({stem}.md) |")
        rows.append(f"<tr><td>{html.escape(corpus)}</td><td><a href='{stem}.html'>"
                    f"{html.escape(corpus)}</a></td></tr>")
    page = (f"<h3 id='benchmark-corpora'>{html.escape(title)}</h3><p>{html.escape(note)}"
            "</p><div class='tablewrap'><table><thead><tr><th>corpus</th><th>page</th>"
            "</tr></thead><tbody>" + "".join(rows) + "</tbody></table></div>")
    return [*md, ""], page

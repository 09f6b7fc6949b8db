"""How a report writes its tables: each :class:`~parsebench.present.tables.Table` is
built once (by a paper's section) and written twice, as Markdown (:func:`table_md`) and
as HTML (:func:`table_html`), so both show the same numbers, with the legend of its
columns under it. Also the cell and file-name formats every part of the report
shares."""

from __future__ import annotations

import functools
import html
import re

from parsebench.present.tables import Table

_EMPHASIS = re.compile(r"[\\*`]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])")


def md_cell(text: str) -> str:
    """Text for a Markdown table cell: no column break, no HTML tag (Markdown passes
    HTML through, so a name from a store could carry a script), and no emphasis or code
    (Link Grammar's labels hold asterisks: ``Ds**x``); an underscore inside a word
    (``en_ewt``) is no emphasis and is left as it is."""
    text = _EMPHASIS.sub(lambda m: "\\" + m.group(0), str(text))
    return text.replace("<", "&lt;").replace(">", "&gt;").replace("|", "\\|")


LEGEND = {"95% CI": "[lo, hi] beside a figure: its 95% interval over sentences"}
"""What a column that no method owns holds; a method's columns are its own
(:attr:`parsebench.metrics.core.method.Method.legend`)."""


@functools.cache
def legend() -> dict[str, str]:
    """What each column of the report holds: every table says it under itself, once a
    column."""
    from parsebench.metrics.registry import METHODS

    out = dict(LEGEND)
    for m in METHODS.values():
        out.update(m.legend)
    return out



CI_HEADERS = ("95% CI", "LAS 95% CI", "95% interval")
"""Columns that hold the interval of the column to their left: shown in its cell."""

MARK_HEADERS = ("letters",)
"""Columns that hold a mark of the figure to their left (beyond its interval): the
compact letter display's letters, shown after the figure, before its interval."""


def _merged(t: Table) -> tuple[list[str], list[list[tuple[str, str, str]]]]:
    """T's headers and cells with each interval column, and each mark column, folded into
    the figure to their left: (figure, interval, mark) a cell, "" where there is none; a
    cell is written figure, mark, interval."""
    owner: dict[int, int] = {}  # a folded column -> the figure column it belongs to
    for i, h in enumerate(t.headers):
        if i and (h in CI_HEADERS or h in MARK_HEADERS):
            owner[i] = owner.get(i - 1, i - 1)
    keep = [i for i in range(len(t.headers)) if i not in owner]
    rows = []
    for row in t.rows:
        cells = []
        for i in keep:
            ci = mark = ""
            for j, o in owner.items():
                if o == i and j < len(row):
                    if t.headers[j] in CI_HEADERS:
                        ci = "" if row[j] == "n/a" else row[j]
                    else:
                        mark = row[j]
            cells.append((row[i] if i < len(row) else "", ci, mark))
        rows.append(cells)
    return [t.headers[i] for i in keep], rows


def table_md(t: Table, prefix: str = "") -> str:
    headers, rows = _merged(t)
    lines = ([f'<a id="{prefix}{t.anchor}"></a>', ""] if t.anchor else []) + [
        f"**{md_cell(t.title)}**", "", "| " + " | ".join(md_cell(h) for h in headers) + " |",
        "|" + "|".join("---:" if t.numeric and k else "---" for k in range(len(headers)))
        + "|"]
    lines += ["| " + " | ".join(md_cell(" ".join(x for x in (c, mark, ci) if x))
                                for c, ci, mark in row) + " |" for row in rows]
    lines += [""] + [f"- {md_cell(n)}" for n in _legend(t) + t.notes]
    return "\n".join(lines)


_NUMBER = re.compile(r"^[-+]?[\d.,]+%?( ± [\d.,]+)?( \[[-\d., ]+\])?$|^\[[-\d., ]+\]$|^n/a$"
                     r"|^–$|^[\d,]+/[\d,]+ \(\d+%\)$|^[-+]?[\d.,]+ points$")


def _legend(t: Table) -> list[str]:
    """A line saying what each column holds, for the columns LEGEND knows."""
    texts = legend()
    known = [f"{h}: {texts[h]}" for h in dict.fromkeys(t.headers) if h in texts]
    return ["Columns: " + "; ".join(known) + "."] if known else []


def _cell_html(c: str, ci: str, mark: str, numeric: bool, label: str = "") -> str:
    """A cell; LABEL, its column's header, is what a phone shows beside it (a stacked
    table is laid out there a card a row)."""
    e = html.escape
    inner = f"<span class='fig'>{e(c)}</span>" + (f" <span class='mark'>{e(mark)}</span>"
                                                  if mark else "") \
        + (f" <span class='ci'>{e(ci)}</span>" if ci else "")
    at = f" data-label='{e(label)}'" if label else ""
    return f"<td class='num'{at}>{inner}</td>" if numeric and _NUMBER.match(c) else \
        f"<td{at}>{inner}</td>"


def table_html(t: Table, prefix: str = "") -> str:
    headers, rows = _merged(t)
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    labels = headers if t.stacked else [""] * len(headers)
    body = "".join("<tr>" + "".join(_cell_html(c, ci, mark, t.numeric, h)
                                    for (c, ci, mark), h in zip(row, labels, strict=False))
                   + "</tr>" for row in rows)
    notes = "".join(f"<li>{html.escape(n)}</li>" for n in _legend(t) + t.notes)
    ident = f" id='{prefix}{t.anchor}'" if t.anchor else ""
    cls = " class='settings'" if not t.numeric else " class='stacked'" if t.stacked else ""
    return (f"<div class='tablewrap'{ident}><table{cls}><caption>{html.escape(t.title)}</caption>"
            f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>"
            + (f"<ul class='notes'>{notes}</ul>" if notes else ""))

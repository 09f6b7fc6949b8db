"""The report's examples: a sentence's clean and noisy parse drawn one above the other
(:mod:`parsebench.report.draw`), joined by the alignment where the noise adds, drops or
moves words, and side by side as a table."""

from __future__ import annotations

import html
from typing import Any

from parsebench.model.scored import Scored
from parsebench.present.tables import Section
from parsebench.report.draw import draw, draw_aligned, first_marked_x, moved_pairs
from parsebench.report.tables import md_cell
from parsebench.run.page_values import Example


def _arcs(x: Any) -> list[tuple[int, int, str]] | None:
    if not isinstance(x, list):
        return None
    return [(int(a), int(b), str(lab)) for a, b, lab in x]


def _pairs(x: Any) -> list[tuple[int, int]] | None:
    if not isinstance(x, list):
        return None
    return [(int(i), int(j)) for i, j in x]


def _scrolled(svg: str, x: float | None) -> str:
    """A drawing in its scroll box, opened at X (the first error) when it is far right."""
    at = f" data-scroll='{max(0.0, x - 200):.0f}'" if x is not None and x > 600 else ""
    return f"<div class='drawn'{at}>{svg}</div>"


def _example_html(parser: str, ex: Example) -> str:
    e = html.escape
    why = f"; {e(str(ex.why))}" if ex.why else ""
    types = f"; errors {e(', '.join(map(str, ex.types)))}" if ex.types else ""
    out = [f"<h4>{e(parser)}: sentence {e(str(ex.sentence))}, "
           f"{e(str(ex.level))} (seed {e(str(ex.seed))}){why}{types}</h4>"]
    clean, noisy = _arcs(ex.clean_arcs), _arcs(ex.noisy_arcs)
    pairs = _pairs(ex.alignment)
    links = ex.kind == "links"
    ctags, ntags = ex.clean_tags or [], ex.noisy_tags or []
    title = f"{parser}: sentence {ex.sentence}"
    if clean is not None and noisy is not None and pairs is not None:
        svg = draw_aligned(ex.clean_words, clean, ex.noisy_words, noisy, pairs,
                           gold=_arcs(ex.gold_arcs), undirected=links,
                           title=title + ", clean and noisy, aligned",
                           clean_tags=ctags, noisy_tags=ntags)
        moved = moved_pairs(pairs)
        marked = [i not in {p[0] for p in pairs} or any(p[0] == i and p in moved
                                                        for p in pairs)
                  for i in range(len(ex.noisy_words))]
        out.append(_scrolled(svg, first_marked_x(ex.noisy_words, marked, links)))
    elif clean is not None and noisy is not None:
        gold = _arcs(ex.gold_arcs)
        n = len(ex.clean_words)
        marked = ex.misspelled[:n]
        x = first_marked_x(ex.noisy_words, marked, links)
        out.append("<p>clean</p>" + _scrolled(draw(
            ex.clean_words, clean, other=noisy, gold=gold, undirected=links,
            tags=ctags, other_tags=ntags, title=f"{title}: the clean parse"), x)
            + "<p>noisy</p>" + _scrolled(draw(
            ex.noisy_words, noisy, other=clean, gold=gold, undirected=links,
            marked=marked, tags=ntags, other_tags=ctags,
            title=f"{title}: the noisy parse"), x))
    # in a scroll box, as every table: opened, it widened a phone's page to 465 px
    out += ["<details><summary>as a table</summary><div class='tablewrap'>"
            "<table class='side'><tr><th>#</th>"
            "<th>clean word</th><th>clean parse</th><th>noisy word</th><th>noisy parse</th>"
            "</tr>"]
    for i, (cw, nw, cp, np_, miss) in enumerate(_side_rows(ex), 1):
        changed = cp != np_
        out.append(f"<tr><td>{i}</td><td>{e(cw)}</td><td>{e(cp)}</td>"
                   f"<td{' class=miss' if miss else ''}>{e(nw)}</td>"
                   f"<td{' class=changed' if changed else ''}>{e(np_)}</td></tr>")
    out.append("</table></div></details>")
    return "\n".join(out)


def _side_rows(ex: Example) -> list[tuple[str, str, str, str, bool]]:
    """The example's rows side by side: word by word, or with an alignment pair by pair
    (a missing or added word beside an empty cell)."""
    pairs = _pairs(ex.alignment)
    if pairs is None:
        return list(zip(ex.clean_words, ex.noisy_words, ex.clean, ex.noisy,
                        ex.misspelled, strict=True))
    cw, nw, cp, np_ = ex.clean_words, ex.noisy_words, ex.clean, ex.noisy
    to_noisy = {j: i for i, j in pairs}
    done: set[int] = set()
    rows: list[tuple[str, str, str, str, bool]] = []
    for j in range(len(cw)):
        if j in to_noisy:
            i = to_noisy[j]
            for k in range(len(nw)):  # added words before this one
                if k < i and k not in done and k not in {p[0] for p in pairs}:
                    rows.append(("", nw[k], "", np_[k], True))
                    done.add(k)
            rows.append((cw[j], nw[i], cp[j], np_[i], cw[j] != nw[i]))
            done.add(i)
        else:
            rows.append((cw[j], "(missing)", cp[j], "", True))
    rows += [("", nw[k], "", np_[k], True) for k in range(len(nw)) if k not in done]
    return rows


def _bold(text: str) -> str:
    """TEXT in bold, escaped; nothing for no text (``****`` would show as is)."""
    return f"**{md_cell(text)}**" if text else ""


def _example_md(parser: str, ex: Example) -> str:
    why = f"; {md_cell(str(ex.why))}" if ex.why else ""
    types = f"; errors {md_cell(', '.join(map(str, ex.types)))}" if ex.types else ""
    lines = [f"#### {md_cell(parser)}: sentence {md_cell(str(ex.sentence))}, "
             f"{md_cell(str(ex.level))} (seed {md_cell(str(ex.seed))}){why}{types}", "",
             "| # | clean word | clean parse | noisy word | noisy parse |",
             "|---:|---|---|---|---|"]
    for i, (cw, nw, cp, np_, miss) in enumerate(_side_rows(ex), 1):
        nw_s = _bold(nw) if miss else md_cell(nw)
        np_s = f"{_bold(np_)} (changed)" if cp != np_ and np_ else \
            "(changed)" if cp != np_ else md_cell(np_)
        lines.append(f"| {i} | {md_cell(cw)} | {md_cell(cp)} | {nw_s} | {np_s} |")
    return "\n".join(lines)


def examples_section(results: list[Scored]) -> Section | None:
    rs = [r for r in results if r.method == "examples"]
    if not rs:
        return None
    sec = Section("Clean and noisy parses side by side")
    note = ("Each example is drawn twice, the clean parse over the clean words and the "
            "noisy parse over the noisy ones (changed words underlined in red; a tagger's "
            "tags under its words). With errors that add, drop or move words, the two "
            "drawings are joined by the alignment: grey a word kept, orange replaced, "
            "purple dashed moved, and the missing and added words marked. An arc (or tag) "
            "the other parse does not have is red; with a gold key, an arc the gold does "
            "not have is dashed. Hover over an arc for its words and label. A long "
            "sentence opens scrolled to its first error. The tables mark the changed words "
            "and the rows whose parse changed (head:relation, or links).")
    sec.html_extra.append(f"<p>{note}</p>")
    sec.md_extra.append(note)
    for r in rs:
        for ex in r.value:
            assert isinstance(ex, Example), "an example read without its record"
            sec.html_extra.append(_example_html(r.parser, ex))
            sec.md_extra.append(_example_md(r.parser, ex))
    return sec

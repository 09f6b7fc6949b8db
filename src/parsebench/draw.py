"""Parses drawn as SVG: dependency arcs (or Link Grammar's undirected links) over the words.

The layout is displaCy's: words on a line, each arc a rounded bracket above
them whose height grows with its length, an arrowhead at the dependent, the
label on top; the root gets an arrow from above. An arc that the other parse
of the same sentence does not have is drawn in another colour (and listed in
its title), an arc that the gold does not have is dashed, and misspelled words
are marked. Written by hand because the one library that draws such trees
(spaCy's displaCy) needs spaCy Doc objects and would make spaCy a dependency
of the report; this is a page of string formatting, everything escaped.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

Arc = tuple[int, int, str]
"""(dependent, head, label), words numbered from 1; head 0 is the root. For links:
(left word, right word, label), word 0 the left wall."""

SAME, CHANGED = "#445", "#d62728"
WORD_GAP = 14
CHAR = 7.2
LEVEL = 22


def _x_positions(words: Sequence[str], wall: bool) -> list[float]:
    """The centre of each word (index 0 the wall, or unused) and the drawing's width."""
    xs = [20.0]
    x = 20.0 + (CHAR * 6 + WORD_GAP if wall else 0)
    for w in words:
        width = max(CHAR * len(w), 28.0)
        xs.append(x + width / 2)
        x += width + WORD_GAP
    xs.append(x + 10)
    return xs


def draw(words: Sequence[str], arcs: Sequence[Arc], *, other: Sequence[Arc] | None = None,
         gold: Sequence[Arc] | None = None, marked: Sequence[bool] = (),
         undirected: bool = False, title: str = "") -> str:
    """An SVG of ARCS over WORDS. Arcs missing from OTHER are coloured, arcs missing from
    GOLD dashed, MARKED words (misspelled) underlined in red."""
    e = html.escape
    xs = _x_positions(words, undirected)
    width = xs[-1]
    others = set(other) if other is not None else None
    golds = set(gold) if gold is not None else None
    spans = sorted({abs(a - b) for a, b, _ in arcs if b != 0 or undirected})
    level = {d: k + 1 for k, d in enumerate(spans)}
    step = max(8.0, min(LEVEL, 200 / max(1, len(spans))))  # long sentences stay low
    top = step * (len(spans) + 1) + 24
    base_y = top + 8
    height = base_y + 40
    out = [f"<svg xmlns='http://www.w3.org/2000/svg' class='parse' width='{width:.0f}' "
           f"height='{height:.0f}' viewBox='0 0 {width:.0f} {height:.0f}' role='img' "
           f"aria-label='{e(title)}' font-family='sans-serif' font-size='12'>",
           f"<title>{e(title)}</title>"]
    if undirected:
        out.append(f"<text x='{xs[0]:.1f}' y='{base_y + 16:.0f}' fill='#888'>WALL</text>")
    for i, w in enumerate(words, 1):
        miss = i - 1 < len(marked) and marked[i - 1]
        style = " class='word miss' fill='#d62728' text-decoration='underline'" if miss \
            else " class='word'"
        out.append(f"<text{style} x='{xs[i]:.1f}' y='{base_y + 16:.0f}' "
                   f"text-anchor='middle'>{e(w)}</text>")
    for a, b, label in arcs:
        changed = others is not None and (a, b, label) not in others
        wrong = golds is not None and (a, b, label) not in golds
        colour = CHANGED if changed else SAME
        dash = " stroke-dasharray='4 3'" if wrong else ""
        cls = "arc" + (" changed" if changed else "") + (" wrong" if wrong else "")
        tip = f"{label}: {words[a - 1] if a else 'WALL'} - " \
              f"{words[b - 1] if b else ('WALL' if undirected else 'ROOT')}" \
              + (" (not in the other parse)" if changed else "") \
              + (" (not in the gold)" if wrong else "")
        if b == 0 and not undirected:  # the root: an arrow from above
            x = xs[a]
            out.append(f"<g class='{cls}'><title>{e(tip)}</title>"
                       f"<line x1='{x:.1f}' y1='8' x2='{x:.1f}' y2='{base_y:.0f}' "
                       f"stroke='{colour}' stroke-width='1.5'{dash}/>"
                       f"<path d='M{x - 4:.1f},{base_y - 7:.0f} L{x:.1f},{base_y:.0f} "
                       f"L{x + 4:.1f},{base_y - 7:.0f}' fill='{colour}'/>"
                       f"<text x='{x + 4:.1f}' y='16' fill='{colour}'>{e(label)}</text></g>")
            continue
        xa = xs[a] if a or not undirected else xs[0]
        # each end a little inside the arc, so that arcs meeting at a word stay apart
        x1, x2 = min(xa, xs[b]) + 4, max(xa, xs[b]) - 4
        y = base_y - step * level[abs(a - b)]
        r = min(8.0, (x2 - x1) / 2)
        out.append(f"<g class='{cls}'><title>{e(tip)}</title>"
                   f"<path d='M{x1:.1f},{base_y:.0f} L{x1:.1f},{y + r:.1f} "
                   f"Q{x1:.1f},{y:.1f} {x1 + r:.1f},{y:.1f} L{x2 - r:.1f},{y:.1f} "
                   f"Q{x2:.1f},{y:.1f} {x2:.1f},{y + r:.1f} L{x2:.1f},{base_y:.0f}' "
                   f"fill='none' stroke='{colour}' stroke-width='1.5'{dash}/>")
        if not undirected:
            xd = x1 if a < b else x2
            out.append(f"<path d='M{xd - 4:.1f},{base_y - 7:.0f} L{xd:.1f},{base_y:.0f} "
                       f"L{xd + 4:.1f},{base_y - 7:.0f}' fill='{colour}'/>")
        out.append(f"<text x='{(x1 + x2) / 2:.1f}' y='{y - 3:.1f}' text-anchor='middle' "
                   f"fill='{colour}'>{e(label)}</text></g>")
    out.append("</svg>")
    return "".join(out)


def arcs_of(heads: Sequence[int], deprels: Sequence[str]) -> list[Arc]:
    """A dependency parse's arcs; a word without a head (``-1``) has none."""
    return [(i, h, d) for i, (h, d) in enumerate(zip(heads, deprels, strict=True), 1)
            if h >= 0]

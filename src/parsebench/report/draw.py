"""Parses drawn as SVG: dependency arcs (or Link Grammar's undirected links) over the words.

The layout is displaCy's: words on a line, each arc a rounded bracket above
them whose height grows with its length, an arrowhead at the dependent, the
label on top; the root gets an arrow from above. An arc that the other parse
of the same sentence does not have is drawn in another colour (and listed in
its title), an arc that the gold does not have is dashed, and misspelled words
are marked. A sentence in a right-to-left script (Persian, Arabic, Hebrew: most of
its letters so by Unicode's bidirectional class) is laid out right to left, its first
word on the right, as a reader of it reads. Written by hand because the one library
that draws such trees (spaCy's displaCy) needs spaCy Doc objects and would make spaCy a
dependency of the report; this is a page of string formatting, everything escaped.
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


def right_to_left(words: Sequence[str]) -> bool:
    """Whether WORDS are in a right-to-left script: more of their letters are of the
    R or AL bidirectional class than of L."""
    import unicodedata

    rtl = ltr = 0
    for w in words:
        for ch in w:
            kind = unicodedata.bidirectional(ch)
            rtl += kind in ("R", "AL")
            ltr += kind == "L"
    return rtl > ltr


def _x_positions(words: Sequence[str], wall: bool) -> list[float]:
    """The centre of each word (index 0 the wall, or unused) and the drawing's width;
    mirrored for a right-to-left sentence (its first word on the right)."""
    xs = [20.0]
    x = 20.0 + (CHAR * 6 + WORD_GAP if wall else 0)
    for w in words:
        width = max(CHAR * len(w), 28.0)
        xs.append(x + width / 2)
        x += width + WORD_GAP
    xs.append(x + 10)
    if right_to_left(words):
        total = xs[-1]
        xs = [total - v for v in xs[:-1]] + [total]
    return xs


def _underline(x: float, word: str, y: float) -> str:
    """A red line under WORD centred at X, below the descenders (text-decoration's
    underline runs through the dots under Arabic letters)."""
    half = max(CHAR * len(word), 28.0) / 2 - 2
    return (f"<line class='underline' x1='{x - half:.1f}' y1='{y:.0f}' x2='{x + half:.1f}' "
            f"y2='{y:.0f}' stroke='#d62728' stroke-width='1.2'/>")


def draw(words: Sequence[str], arcs: Sequence[Arc], *, other: Sequence[Arc] | None = None,
         gold: Sequence[Arc] | None = None, marked: Sequence[bool] = (),
         undirected: bool = False, title: str = "", tags: Sequence[str] = (),
         other_tags: Sequence[str | None] = ()) -> str:
    """An SVG of ARCS over WORDS. Arcs missing from OTHER are coloured, arcs missing from
    GOLD dashed, MARKED words (misspelled) underlined in red; TAGS under the words (a
    tagger's output), those that differ from OTHER_TAGS in red."""
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
        style = " class='word miss' fill='#d62728'" if miss else " class='word'"
        out.append(f"<text{style} x='{xs[i]:.1f}' y='{base_y + 16:.0f}' "
                   f"text-anchor='middle'>{e(w)}</text>")
        if miss:
            out.append(_underline(xs[i], w, base_y + 21))
        if i - 1 < len(tags):
            was = other_tags[i - 1] if i - 1 < len(other_tags) else tags[i - 1]
            cls = "tag changed" if was != tags[i - 1] else "tag"
            fill = CHANGED if was != tags[i - 1] else "#2a6f97"
            out.append(f"<text class='{cls}' x='{xs[i]:.1f}' y='{base_y + 32:.0f}' "
                       f"fill='{fill}' font-size='11' text-anchor='middle'>"
                       f"{e(tags[i - 1])}</text>")
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
            xd = x1 if xa < xs[b] else x2  # the dependent's end (mirrored in RTL)
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


def first_marked_x(words: Sequence[str], marked: Sequence[bool], wall: bool = False
                   ) -> float | None:
    """Where the first marked word of a drawing stands (to open it scrolled there)."""
    xs = _x_positions(words, wall)
    return next((xs[i + 1] for i, m in enumerate(marked) if m), None)


def moved_pairs(pairs: Sequence[tuple[int, int]]) -> set[tuple[int, int]]:
    """The aligned pairs that cross another pair: words whose order changed."""
    return {p for p in pairs for q in pairs if (q[0] - p[0]) * (q[1] - p[1]) < 0}


def draw_aligned(clean_words: Sequence[str], clean_arcs: Sequence[Arc],
                 noisy_words: Sequence[str], noisy_arcs: Sequence[Arc],
                 pairs: Sequence[tuple[int, int]], *, gold: Sequence[Arc] | None = None,
                 undirected: bool = False, title: str = "", clean_tags: Sequence[str] = (),
                 noisy_tags: Sequence[str] = ()) -> str:
    """Two parses of sentences with different words (learner-like errors): the clean
    parse over its words on top, the noisy parse over its own below, and between them
    the alignment (PAIRS: 0-based noisy word, clean word): a line a pair, grey where the
    word is the same, orange where it was replaced, purple and dashed where it moved;
    a clean word without a partner is marked missing, a noisy one added. An arc of one
    parse that the other does not have, through the alignment, is red."""
    e = html.escape
    to_clean = {i + 1: j + 1 for i, j in pairs}
    to_noisy = {j + 1: i + 1 for i, j in pairs}

    def mapped(arcs: Sequence[Arc], m: dict[int, int]) -> list[Arc]:
        return [(m[a], 0 if b == 0 else m[b], lab) for a, b, lab in arcs
                if a in m and (b == 0 or b in m)]

    moved = moved_pairs(list(pairs))
    aligned_clean = {j for _, j in pairs}
    aligned_noisy = {i for i, _ in pairs}
    clean_marked = [j not in aligned_clean for j in range(len(clean_words))]
    noisy_marked = [i not in aligned_noisy or (i, j) in moved
                    or noisy_words[i] != clean_words[j]
                    for i, j in [(i, to_clean.get(i + 1, 0) - 1)
                                 for i in range(len(noisy_words))]]
    top = draw(clean_words, clean_arcs, other=mapped(noisy_arcs, to_clean), gold=gold,
               undirected=undirected, marked=clean_marked, tags=clean_tags,
               other_tags=[noisy_tags[to_noisy[j] - 1] if j in to_noisy
                           and to_noisy[j] - 1 < len(noisy_tags) else None
                           for j in range(1, len(clean_words) + 1)] if noisy_tags else (),
               title=title + " (clean)")
    bottom = draw(noisy_words, noisy_arcs, other=mapped(clean_arcs, to_noisy),
                  undirected=undirected, marked=noisy_marked, tags=noisy_tags,
                  other_tags=[clean_tags[to_clean[i] - 1] if i in to_clean
                              and to_clean[i] - 1 < len(clean_tags) else None
                              for i in range(1, len(noisy_words) + 1)] if clean_tags
                  else (), title=title + " (noisy)")

    def size(svg: str) -> tuple[float, float]:
        w = float(svg.split("width='", 1)[1].split("'", 1)[0])
        h = float(svg.split("height='", 1)[1].split("'", 1)[0])
        return w, h

    (w1, h1), (w2, h2) = size(top), size(bottom)
    strip = 46.0
    xc, xn = _x_positions(clean_words, undirected), _x_positions(noisy_words, undirected)
    y0, y1 = h1 - 4, h1 + strip + 6
    out = [f"<svg xmlns='http://www.w3.org/2000/svg' class='aligned' "
           f"width='{max(w1, w2):.0f}' height='{h1 + strip + h2:.0f}' role='img' "
           f"aria-label='{e(title)}' font-family='sans-serif' font-size='11'>",
           f"<title>{e(title)}</title>", top.replace("<svg ", "<svg x='0' y='0' ", 1)]
    for i, j in sorted(pairs):
        same = noisy_words[i] == clean_words[j]
        cls = "align moved" if (i, j) in moved else "align" if same else "align replaced"
        colour = "#9467bd" if (i, j) in moved else "#bbb" if same else "#ff7f0e"
        dash = " stroke-dasharray='5 3'" if (i, j) in moved else ""
        out.append(f"<line class='{cls}' x1='{xc[j + 1]:.1f}' y1='{y0:.0f}' "
                   f"x2='{xn[i + 1]:.1f}' y2='{y1:.0f}' stroke='{colour}' "
                   f"stroke-width='1.5'{dash}><title>{e(clean_words[j])} - "
                   f"{e(noisy_words[i])}</title></line>")
    for j, w in enumerate(clean_words):
        if j not in aligned_clean:
            out.append(f"<text class='missing' x='{xc[j + 1]:.1f}' y='{y0 + 16:.0f}' "
                       f"text-anchor='middle' fill='#d62728'>missing<title>{e(w)}: not in "
                       "the noisy sentence</title></text>")
    for i, w in enumerate(noisy_words):
        if i not in aligned_noisy:
            out.append(f"<text class='added' x='{xn[i + 1]:.1f}' y='{y1 - 6:.0f}' "
                       f"text-anchor='middle' fill='#d62728'>added<title>{e(w)}: not in "
                       "the clean sentence</title></text>")
    out.append(bottom.replace("<svg ", f"<svg x='0' y='{h1 + strip:.0f}' ", 1))
    out.append("</svg>")
    return "".join(out)

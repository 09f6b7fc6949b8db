"""Drawn parses and the browser's data: one arc a word, colours and dashes where the
parses differ, and nothing from the data ever read as markup."""

from __future__ import annotations

import dataclasses
import json
import re
from xml.etree import ElementTree

from parsebench.report.browser import html_of, merge
from parsebench.report.draw import arcs_of, draw
from parsebench.run.page_values import BrowserData

WORDS = ["The", "dgo", "barks", "<b>&"]
CLEAN = [(1, 2, "det"), (2, 3, "nsubj"), (3, 0, "root"), (4, 3, "punct")]
NOISY = [(1, 2, "det"), (2, 3, "obj"), (3, 0, "root"), (4, 3, "punct")]


def test_one_arc_a_word_and_the_differences_marked() -> None:
    svg = draw(WORDS, NOISY, other=CLEAN, gold=CLEAN, marked=[False, True, False, False],
               title="noisy <parse>")
    root = ElementTree.fromstring(svg)  # well-formed XML: the word "<b>&" is escaped
    ns = {"s": "http://www.w3.org/2000/svg"}
    arcs = root.findall("s:g", ns)
    assert len(arcs) == len(WORDS)
    changed = [g for g in arcs if "changed" in g.get("class", "")]
    assert len(changed) == 1 and "wrong" in changed[0].get("class", "")
    assert changed[0].find("s:title", ns).text == "obj: dgo - barks (not in the other " \
        "parse) (not in the gold)"
    words = [t for t in root.iter("{http://www.w3.org/2000/svg}text")
             if "word" in t.get("class", "")]
    assert [w.text for w in words] == WORDS
    assert [("miss" in w.get("class", "")) for w in words] == [False, True, False, False]


def test_links_are_undirected_with_the_wall() -> None:
    svg = draw(["a", "b"], [(0, 2, "Xp"), (1, 2, "Ss")], undirected=True)
    root = ElementTree.fromstring(svg)
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "WALL" in texts and "Xp" in texts
    assert svg.count("<path") == 2  # the two arcs, no arrowheads


def test_arcs_of_skips_words_without_a_head() -> None:
    assert arcs_of([2, 0, -1], ["det", "root", "_"]) == [(1, 2, "det"), (2, 0, "root")]


def test_browser_data_cannot_close_its_script() -> None:
    one = {"kind": "deps", "versions": [{"level": "5%", "seed": 1}], "labels": ["x"],
           "words": [["</script><script>alert(1)</script>", "<!--"]],
           "noise": [[[0, "</SCRIPT>"]]], "clean": [[[1, 0, 0], [2, 1, 0]]],
           "noisy": [[0]], "gold": None}
    data = merge([("p</script>", BrowserData.from_dict(one))])
    assert data is not None and data["parsers"] == ["p</script>"]
    page = html_of(data, 0)
    blob = re.search(r"<script type='application/json' class='pb-data'>(.*)</script></div>$",
                     page, re.S)
    assert blob is not None
    inner = blob.group(1)
    assert "<" not in inner
    assert json.loads(inner) == data  # what JSON.parse reads too
    assert merge([("p", dataclasses.replace(BrowserData.from_dict(one), versions=[]))]) is None


def test_a_right_to_left_sentence_is_drawn_right_to_left() -> None:
    """Issue 59 item 7: a Persian parse was drawn left to right, and the underline of a
    changed word ran through the dots of its letters. Its first word now stands on the
    right, the arrowheads still at the dependents, and a changed word is underlined by
    a line below the text, not text-decoration."""
    import re

    from parsebench.report.draw import draw, right_to_left

    words = ["این", "کتاب", "خوب", "است"]  # this book good is
    arcs = [(1, 2, "det"), (2, 3, "nsubj"), (3, 0, "root"), (4, 3, "cop")]
    assert right_to_left(words) and not right_to_left(["This", "book"])
    assert not right_to_left(["A", "1", "کتاب", "book"])
    svg = draw(words, arcs, marked=[False, True, False, False])
    xs = [float(x) for x in re.findall(r"<text class='word[^']*'[^>]* x='([\d.]+)'", svg)]
    assert len(xs) == 4 and xs == sorted(xs, reverse=True)  # first word rightmost
    assert "text-decoration" not in svg
    line = re.search(r"<line class='underline' x1='([\d.]+)' y1='(\d+)' x2='([\d.]+)'", svg)
    assert line and float(line[1]) < xs[1] < float(line[3])  # under the changed word
    word_y = int(re.findall(r"<text class='word[^']*' x='[\d.]+' y='(\d+)'", svg)[1])
    assert int(line[2]) >= word_y + 5  # below the descenders, not through the letters
    # the det arc's arrowhead is at its dependent (word 1, on the right of word 2)
    det = svg[svg.index("det: "):]
    tip = float(re.findall(r"L([\d.]+),\d+ L[\d.]+,\d+' fill", det)[0])
    assert abs(tip - xs[0]) < abs(tip - xs[1]), (tip, xs)
    # an English sentence is laid out as before
    en = draw(["This", "book"], [(1, 2, "det"), (2, 0, "root")])
    ex = [float(x) for x in re.findall(r"<text class='word[^']*'[^>]* x='([\d.]+)'", en)]
    assert ex == sorted(ex)

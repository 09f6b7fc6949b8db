"""The sketched plots of a benchmark's corpus pages: every drawing a section asks for is
a well-formed SVG of a few kilobytes, drawn in about a millisecond, with its points and
interval bars counted as the drawn plots count them, and every name from data escaped."""

from __future__ import annotations

import time
import xml.etree.ElementTree as ET

import pytest

from parsebench.present import plots as asked
from parsebench.present.plots import BoundedPoint
from parsebench.report.sketch import SKETCHES, sketch

EVIL = "<script>alert(1)</script> & 'x'"


def _requests() -> list[asked.Drawing]:
    series = {f"{EVIL} @ unlabeled": [("2%", 0.9, 0.88, 0.92, 0.85, 0.95),
                                      ("5%", 0.8, 0.8, 0.8, None, None)],
              "udpipe @ labeled": [("2%", 0.7, 0.7, 0.7), ("5%", 0.6, 0.6, 0.6)]}
    groups = {f"{EVIL} @ clean": {"1": (0.9, 0.85, 0.95), "2": (0.8, None, None)},
              "udpipe @ rate=0.05": {"1": (0.7, 0.6, 0.8)}}
    points = {EVIL: [BoundedPoint(0.02, 0.01, 0.05, 0.03, [0.02, 0.04], 0.02),
                     BoundedPoint(0.05, 0.03, 0.1, 0.06, None, None)]}
    return [asked.against_level("t", "y (%)", series),
            asked.by_group("t", "F1 (%)", ["1", "2", "3"], groups),
            asked.bounded("t", points, "x (%)", "y (%)"),
            asked.relation_bars("t", {EVIL: {"nsubj": 0.9, "obj": 0.5}}),
            asked.heatmap(EVIL, ["nsubj", EVIL], [[3, 1], [0, 2]]),
            asked.time_by_length({EVIL: [(3, 0.002), (10, 0.004)]})]


def test_every_drawing_has_a_sketch() -> None:
    assert {r.kind for r in _requests()} == set(SKETCHES)


@pytest.mark.parametrize("request_", _requests(), ids=lambda r: r.kind)
def test_a_sketch_is_well_formed_escaped_small_and_quick(request_: asked.Drawing) -> None:
    t = time.perf_counter()
    plot = sketch(request_)
    took = time.perf_counter() - t
    root = ET.fromstring(plot.svg)  # well-formed: every name escaped
    assert root.tag.endswith("svg") and plot.png == b""
    assert b"<script" not in plot.svg and "alert(1)" in plot.svg.decode()
    assert len(plot.svg) < 20_000 and took < 0.5


def test_points_and_interval_bars_are_counted() -> None:
    against, by, degr = (sketch(r) for r in _requests()[:3])
    assert (against.points, against.intervals) == (4, 1)
    assert (by.points, by.intervals) == (3, 2)
    assert (degr.points, degr.intervals) == (2, 1)

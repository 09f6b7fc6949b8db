"""Gaizauskas et al.'s flat key in a run, one object: each noisy parse against the
clean parse made a flat key, its recall and conformance, its report section. Apart
from :mod:`parsebench.metrics.flat` so that ``eval flat`` starts without NumPy."""

from __future__ import annotations

from parsebench.metrics import flat
from parsebench.metrics.method import Metric
from parsebench.metrics.pairs import as_method
from parsebench.metrics.scores import conformance, flat_recall

_COLUMNS = ("key", "response", "matched", "violated")
SCORES = (
    Metric("flat-recall", "Gaizauskas et al.'s recall against a flat key", "trees", _COLUMNS,
           flat_recall, ("flat", "flat"), file_stats=flat.file_stats),
    Metric("flat-conformance", "Gaizauskas et al.'s conformance to a flat key", "trees",
           _COLUMNS, conformance, ("flat", "flat"), file_stats=flat.file_stats),
)

METHOD = as_method(flat.CLEAN_KEY, SCORES,
                   sections=("parsebench.report.sections:brackets_section",),
                   section_title="brackets under noise", anchor=lambda r: "brackets")

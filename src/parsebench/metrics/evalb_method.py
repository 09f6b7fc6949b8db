"""EVALB in a run, one object: each noisy parse's brackets against the clean parse's
(Bigert et al.'s idea in brackets, no gold trees needed), its score, its report
section. Apart from :mod:`parsebench.metrics.evalb` so that ``eval brackets`` starts
without NumPy."""

from __future__ import annotations

from parsebench.metrics import evalb
from parsebench.metrics.method import Metric
from parsebench.metrics.pairs import as_method
from parsebench.metrics.scores import f1_of_counts

SCORES = (Metric("evalb", "EVALB bracketing F-measure (valid sentences)", "trees",
                 ("matched", "gold", "test", "unscored"), f1_of_counts, ("evalb", "evalb"),
                 file_stats=evalb.file_stats),)

METHOD = as_method(evalb.CLEAN_KEY, SCORES,
                   sections=("parsebench.report.sections:brackets_section",),
                   section_title="brackets under noise", anchor=lambda r: "brackets")

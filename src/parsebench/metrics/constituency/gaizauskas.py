"""Gaizauskas et al.'s flat key in a run, one object: each noisy parse against the
clean parse made a flat key, its recall and conformance, its report section. Apart
from :mod:`parsebench.metrics.constituency.gaizauskas_scorer` so that ``eval flat`` starts
without NumPy."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from parsebench.metrics.constituency import gaizauskas_scorer as flat
from parsebench.metrics.constituency.brackets_shown import brackets_section, flat_table
from parsebench.metrics.constituency.gaizauskas_records import FlatValue
from parsebench.metrics.core.method import Metric
from parsebench.metrics.core.pairs import as_method
from parsebench.metrics.core.scores import conformance, flat_recall

_COLUMNS = ("key", "response", "matched", "violated")
SCORES = (
    Metric("flat-recall", "Gaizauskas et al.'s recall against a flat key", "trees", _COLUMNS,
           flat_recall, ("flat", "flat"), file_stats=flat.file_stats),
    Metric("flat-conformance", "Gaizauskas et al.'s conformance to a flat key", "trees",
           _COLUMNS, conformance, ("flat", "flat"), file_stats=flat.file_stats),
)

@dataclass(frozen=True)
class FlatSettings:
    """``flat = true``, ``false``, or a file of flattening rules (relative to the
    experiment file) that make each clean parse a flatter key (none: its own spans)."""

    on: bool = True
    rules: Path | None = None


def _settings(value: Any, where: Any) -> FlatSettings:
    if isinstance(value, bool):
        return FlatSettings(value)
    if not isinstance(value, str):
        raise where.fail(f"flat must be bool or str, not {value!r}")
    rules = where.path(value)
    flat.read_rules(rules)  # bad rules fail before any parsing, with their line
    return FlatSettings(True, rules)


METHOD = as_method(flat.CLEAN_KEY, SCORES, settings=_settings, default=FlatSettings(),
                   record=lambda st: str(st.rules) if st.rules else st.on,
                   restore=lambda v: FlatSettings(True, Path(v)) if isinstance(v, str)
                   else FlatSettings(bool(v)),
                   sections=(brackets_section,), text=flat_table,
                   section_title="brackets under noise", anchor=lambda r: "brackets",
                   value_type=FlatValue)

"""What a report section *is*, apart from how it is written: tables of cells, notes and
anchors, and the plots it asks for. A paper's module builds its sections from these
(its ``section``), so a paper owns how its numbers look; the report writes them as
Markdown and HTML (:mod:`parsebench.report.tables`) and draws the plots asked for
(:mod:`parsebench.report.plots`). Nothing here imports the report or matplotlib."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import Any

from parsebench.model.level import level_order, short_label
from parsebench.model.scored import Scored
from parsebench.present import percent
from parsebench.present.plots import Drawing


@dataclass
class Table:
    title: str
    headers: list[str]
    rows: list[list[str]]
    notes: list[str] = field(default_factory=list)
    anchor: str = ""
    """The id a summary's claim links to."""
    numeric: bool = True
    """Right-align the cells that hold numbers (not in a table of settings)."""
    stacked: bool = False
    """In HTML, each interval under its figure rather than beside it: a table with many
    columns of figures stays narrow."""


@dataclass
class Section:
    title: str
    tables: list[Table] = field(default_factory=list)
    images: list[tuple[str, str, Drawing]] = field(default_factory=list)
    """(file name, caption, the plot asked for); its anchor is ``plot-`` and the file
    name. The report draws it when it writes the page."""
    html_extra: list[str] = field(default_factory=list)
    md_extra: list[str] = field(default_factory=list)


CI_NOTE = ("95% CI: percentile bootstrap over sentences (1,000 resamples, the replicates of "
           "a sentence together); a share of sentences (exact match, an attack's success) "
           "has the Wilson score interval, with n the sentences; it measures the sample of "
           "sentences, the ± the noise")


def level_free_signature(r: Scored) -> str:
    """A result's signature without its level, for a table that has one row a level."""
    return re.sub(r"level:[^|]*\|", "", r.signature)


def results_of(results: list[Scored], metric: str) -> list[Scored]:
    """METRIC's results, by parser, projection and level (clean first): a section's rows."""
    return sorted((r for r in results if r.method == metric),
                  key=lambda r: (r.parser, r.projection, level_order(r.level)))


def level_label(r: Scored) -> str:
    """A result's level as the tables show it: 10%, 2/sentence."""
    v = r.value
    got = v.get("error_level_label") if isinstance(v, dict) else \
        getattr(v, "error_level_label", None)
    return str(got) if got else short_label(str(r.level))


def pct(x: Any, digits: int = 2) -> str:
    """A figure with ± std for replicates; "n/a" where the method cannot give a number."""
    return percent(x, digits=digits, spread=True)


def safe_name(name: str) -> str:
    """NAME as a file name that stays in its folder: letters, digits, ``.``, ``_`` and
    ``-`` only, with a short hash of the name when anything had to change, so that two
    names never share a file."""
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip(".-")[:60] or "experiment"
    if slug == name:
        return slug
    return f"{slug}-{hashlib.sha256(name.encode()).hexdigest()[:8]}"

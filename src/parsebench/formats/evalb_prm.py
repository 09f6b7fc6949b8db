"""EVALB's parameter file (``-p``, a ``.prm``): its settings and how EVALB reads them.

Keys are read as EVALB reads them: a line of fewer than three characters or one that
starts with ``#`` is skipped, numbers as C's ``atoi`` reads them, an unknown key or an
empty value a warning, not an error. :mod:`parsebench.metrics.constituency.evalb_scorer`
scores with the settings.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from parsebench.common.errors import read_lines


@dataclass
class EvalbParams:
    """The settings of an EVALB parameter file (defaults are EVALB's without -p)."""

    max_error: int = 10
    cutoff_len: int = 40
    labeled: bool = True
    delete_labels: list[str] = field(default_factory=list)
    delete_labels_for_length: list[str] = field(default_factory=list)
    quote_labels: list[str] = field(default_factory=list)
    eq_labels: list[tuple[str, str]] = field(default_factory=list)
    eq_words: list[tuple[str, str]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def _atoi(text: str) -> int:
    m = re.match(r"\s*([+-]?\d+)", text)
    return int(m.group(1)) if m else 0


def read_prm(path: str | os.PathLike[str]) -> EvalbParams:
    """Read a parameter file the way EVALB does (unknown keys are warnings, not errors)."""
    params = EvalbParams()
    for n, raw in enumerate(read_lines(path), 1):
        line = raw[:1] + raw[1:].rstrip()
        if line.startswith("#") or len(line) < 3:
            continue
        m = re.match(r"(\S*)\s*(.*)$", line, re.S)
        assert m is not None
        key, value = m.group(1), m.group(2)
        if not value:
            params.warnings.append(f"Empty value in parameter file ({n})")
        if key == "DEBUG":
            continue
        if key == "MAX_ERROR":
            params.max_error = _atoi(value)
        elif key == "CUTOFF_LEN":
            params.cutoff_len = _atoi(value)
        elif key == "LABELED":
            params.labeled = _atoi(value) != 0
        elif key == "DELETE_LABEL":
            params.delete_labels.append(value)
        elif key == "DELETE_LABEL_FOR_LENGTH":
            params.delete_labels_for_length.append(value)
        elif key == "QUOTE_LABEL":
            params.quote_labels.append(value)
        elif key in ("EQ_LABEL", "EQ_WORD"):
            parts = value.split()
            if len(parts) != 2:
                params.warnings.append(f"{key} requires two values")
                continue
            (params.eq_labels if key == "EQ_LABEL" else params.eq_words).append(
                (parts[0], parts[1]))
        else:
            params.warnings.append(f"Unknown keyword ({line}) in parameter file")
    return params

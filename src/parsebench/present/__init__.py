"""How a figure is written, in one place for the terminal, Markdown, HTML and CSV.

Fractions become percentages; a figure a method cannot give is "n/a" (never 0
or 100); replicate summaries ({mean, std, min, max}) show their mean, and
``± std`` where the table has room for the spread; a 95% interval over
sentences is ``[lo, hi]`` in percent.
"""

from __future__ import annotations

import re
from typing import Any


def value(x: Any) -> float | None:
    """A figure, or the mean of a replicate summary (its JSON, or its record)."""
    if isinstance(x, dict):
        return x.get("mean")
    if x is None or isinstance(x, int | float):
        return None if x is None else float(x)
    return float(x.mean)


def p_value(p: float | None, digits: int = 3) -> str:
    """A p-value as the report prints it: ``< 0.001`` below what DIGITS show (never
    ``0.000``, which would claim p is zero), ``n/a`` when there is none."""
    if p is None:
        return "n/a"
    floor = 10.0 ** -digits
    return f"< {floor:.{digits}f}" if p < floor else f"{p:.{digits}f}"


def percent(x: Any, width: int = 0, digits: int = 2, spread: bool = False) -> str:
    """X (a fraction or a replicate summary) as a percentage right-aligned in WIDTH;
    with SPREAD, a summary shows ``mean ± std``."""
    v = value(x)
    if v is None:
        return f"{'n/a':>{width}}"
    std = x.get("std") if isinstance(x, dict) else getattr(x, "std", None)
    if spread and std is not None:
        return f"{100 * v:.{digits}f} ± {100 * std:.{digits}f}"
    return f"{100 * v:{width}.{digits}f}"


def ci95(result: Any, key: str) -> str:
    """The 95% interval over sentences stored with a result (``ci95``), as text in percent
    (:func:`parsebench.metrics.core.resample.interval` computes one)."""
    iv = (result.get("ci95") or {}).get(key) if isinstance(result, dict) else None
    return interval_text(iv)


def interval_text(iv: Any, digits: int = 2) -> str:
    """A 95% interval ([low, high], fractions) as text in percent, to DIGITS decimals
    (the tables' 2; the summaries' sentences and the commands' short tables 1); n/a
    where there is none. Every interval parsebench writes is written here."""
    if not isinstance(iv, list | tuple) or len(iv) != 2 or None in iv:
        return "n/a"
    return f"[{100 * float(iv[0]):.{digits}f}, {100 * float(iv[1]):.{digits}f}]"


def anchor(*parts: str) -> str:
    """An HTML id from PARTS: letters, digits and ``-`` only (the report's tables, and
    the methods' links to them)."""
    return re.sub(r"[^A-Za-z0-9]+", "-", "-".join(parts)).strip("-").lower() or "x"


def percent_text(x: Any) -> str:
    """A fraction in a sentence: ``12.3%``, or "n/a"."""
    v = value(x)
    return "n/a" if v is None else f"{100 * v:.1f}%"


def interval_after(iv: Any) -> str:
    """An interval after its figure in a sentence: " [lo, hi]" (1 decimal), or nothing."""
    got = interval_text(iv, 1)
    return "" if got == "n/a" else " " + got

"""The range of every numeric setting, for options and experiment files alike.

One table, so that ``--timeout 1e9`` (an OverflowError deep in the worker pool),
``timeout = nan`` in a TOML file or ``--samples 2e9`` (hours of resampling) are
refused in one line before any work starts, the same way in every command. NaN
is outside every range.
"""

from __future__ import annotations

from parsebench.common.errors import InputError

LIMITS: dict[str, tuple[float, float, str]] = {
    "timeout": (0.001, 1e6, "seconds a sentence may take"),
    "workers": (1, 256, "parser processes"),
    "batch_size": (1, 100_000, "sentences a batch"),
    "samples": (1, 1_000_000, "resamples"),
    "replicates": (1, 10_000, "noisy versions a level"),
    "per_sentence": (1, 10_000, "errors a sentence"),
    "seed": (0, 2**63 - 1, "a seed"),
    "limit": (1, 10**9, "sentences"),
    "budget": (1, 1_000, "misspelled words a sentence"),
    "candidates": (1, 1_000, "edits tried a word"),
    "queries": (1, 1_000_000, "parser calls a sentence"),
    "window": (2, 1_000_000, "words a segment"),
}


def problem(name: str, value: float) -> str | None:
    """What is wrong with VALUE for the setting NAME, or None when it is in range."""
    lo, hi, what = LIMITS[name]
    try:
        ok = lo <= value <= hi
    except TypeError:
        ok = False
    if ok:
        return None
    return f"{value!r}: give {what} from {lo:g} to {hi:g}"


def check(name: str, value: float, option: str | None = None) -> None:
    """Refuse VALUE for the command-line option (``--timeout`` for ``timeout``)."""
    got = problem(name, value)
    if got is not None:
        raise InputError(f"{option or '--' + name.replace('_', '-')} {got}")

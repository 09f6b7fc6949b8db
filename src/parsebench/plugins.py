"""The entry points through which other packages add methods, noise kinds and parsers,
read once a process: each read scans every installed distribution's metadata (tens of
milliseconds with a parser stack installed), and a run asks for three groups."""

from __future__ import annotations

from functools import cache
from typing import Any


@cache
def _all() -> Any:
    from importlib.metadata import entry_points

    return entry_points()


def entry_points(group: str) -> Any:
    """The entry points of GROUP (``importlib.metadata.EntryPoints``)."""
    return _all().select(group=group)

"""Signatures: the settings that produced a number, printed next to it (as sacreBLEU does)."""

from __future__ import annotations

from parsebench.version import __version__


def signature(**settings: object) -> str:
    """``key:value|key:value|version:x`` in the order given, ``None`` shown as ``none``."""
    parts = []
    for key, value in settings.items():
        if isinstance(value, bool):
            text = "yes" if value else "no"
        elif value is None:
            text = "none"
        elif isinstance(value, (list, tuple)):
            text = ",".join(str(v) for v in value) or "none"
        else:
            text = str(value)
        parts.append(f"{key.replace('_', '-')}:{text}")
    parts.append(f"version:{__version__}")
    return "|".join(parts)

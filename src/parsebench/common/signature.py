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


def read_signature(signature: str | None) -> dict[str, str]:
    """The ``key:value`` fields of a SIGNATURE that :func:`signature` wrote (a value
    keeps any later colon); {} for None."""
    out: dict[str, str] = {}
    for part in (signature or "").split("|"):
        key, sep, value = part.partition(":")
        if sep:
            out.setdefault(key, value)
    return out

"""Keyboard layouts: which keys are next to which, for the misspellings' edits.

A layout is rows of keys as typed (a built-in one under ``data/keyboards/``, or a
file of the same form); a key's neighbours are the keys around it on the rows
above, beside and below, as a finger slips.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

from parsebench.errors import InputError, read_lines

KEYBOARDS = {"en": "us-qwerty", "sv": "sv-qwerty"}
"""The default layout of a language."""


@dataclass(frozen=True)
class Keyboard:
    name: str
    neighbours: dict[str, str]

    @classmethod
    def load(cls, name: str) -> Keyboard:
        path = Path(name)
        if not path.is_file():
            res = files("parsebench") / "data" / "keyboards" / f"{name}.txt"
            if not res.is_file():
                raise InputError(f"unknown keyboard layout {name!r}; built in: "
                                 + ", ".join(available_keyboards()))
            text = res.read_text(encoding="utf-8").splitlines()
        else:
            text = read_lines(path)
        rows = [ln.strip() for ln in text if ln.strip() and not ln.startswith("#")]
        near: dict[str, set[str]] = {}
        for r, row in enumerate(rows):
            for c, key in enumerate(row):
                cand = [(r, c - 1), (r, c + 1), (r - 1, c), (r - 1, c + 1),
                        (r + 1, c - 1), (r + 1, c)]
                near[key] = {rows[rr][cc] for rr, cc in cand
                             if 0 <= rr < len(rows) and 0 <= cc < len(rows[rr])}
        return cls(path.stem if path.is_file() else name,
                   {k: "".join(sorted(v)) for k, v in near.items()})


def available_keyboards() -> list[str]:
    d = files("parsebench") / "data" / "keyboards"
    return sorted(p.name[:-4] for p in d.iterdir() if p.name.endswith(".txt"))

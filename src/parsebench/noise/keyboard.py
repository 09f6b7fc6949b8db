"""Keyboard layouts: which keys are next to which, for the misspellings' edits.

A layout is rows of keys as typed (a built-in one under ``data/keyboards/``, or a
file of the same form); a key's neighbours are the keys around it on the rows
above, beside and below, as a finger slips. Each row sits half a key to the right
of the row above, so key c of a row touches keys c and c+1 above it.

The file: a line a row of keys, top to bottom, each key one character, ``·`` a key
that types no letter (kept for the geometry: the number row of a layout with letters
on it). A second column gives the row's shifted keys (``·`` none); without it a
key's shifted character is its upper case. A slip keeps the level: a shifted key's
neighbours are the neighbouring keys shifted, as the finger slips with Shift held.
Lines starting with ``@``:

* ``@compose BASE CHARS``: CHARS are typed on BASE's key with a dead key or AltGr
  (French ê, Irish á): their neighbours are BASE's and BASE itself (the accent left
  out), at the same level;
* ``@include NAME``: another built-in layout's rows as a layer of their own (the
  Latin letters a Russian or Korean typist switches to on the same keys);
* ``@join U+200C``: a character that joins a word's letters without being one (the
  Persian zero-width non-joiner): a word may hold it, an edit never touches it;
* ``@script hangul``: words are typed as jamo and recomposed into syllables
  (:mod:`parsebench.noise.hangul`).

A layout of rows alone (``us-qwerty``, ``sv-qwerty``) is read as it always was: a
character's neighbours are those of its lower case, in that case.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib.resources import files
from itertools import pairwise
from pathlib import Path

from parsebench.common.errors import InputError, read_lines
from parsebench.noise.languages import KEYBOARDS

__all__ = ["KEYBOARDS", "Keyboard", "available_keyboards"]

NO_KEY = "·"
"""A key that types no letter."""


class _Cased(dict[str, str]):
    """A rows-only layout's neighbours of any character: those of its lower case, each
    in the character's case (upper if it is upper), as the edits always made them."""

    def __init__(self, plain: Mapping[str, str]) -> None:
        super().__init__()
        self.plain = plain

    def __missing__(self, ch: str) -> str:
        up = ch.isupper()
        got = self[ch] = "".join(nb.upper() if up else nb
                                 for nb in self.plain.get(ch.lower(), ""))
        return got


class _Fixed(dict[str, str]):
    """A layout's neighbours of the characters it types; none for any other character
    (a letter not on the layout is deleted or swapped, never slipped from)."""

    def __missing__(self, ch: str) -> str:
        return ""


@dataclass(frozen=True)
class Keyboard:
    name: str
    neighbours: dict[str, str]
    """Each key's neighbouring keys, as their unshifted characters."""
    near: Mapping[str, str] = field(default_factory=dict)
    """Every character typed -> the characters a slip types instead, at its level."""
    joiners: frozenset[str] = frozenset()
    script: str | None = None

    def __post_init__(self) -> None:
        if not self.near:
            object.__setattr__(self, "near", _Cased(self.neighbours))

    @property
    def plain(self) -> bool:
        """Whether a word is edited as the characters it is written with (every layout
        but those of Hangul and of joined letters)."""
        return self.script is None and not self.joiners

    def typed(self, word: str) -> str:
        """WORD as the keys typed for it, one character a key."""
        if self.script == "hangul":
            from parsebench.noise.hangul import keys

            return keys(word)
        return word

    def shown(self, typed: str) -> str | None:
        """The word the keys TYPED make, or None when they make no word: a Hangul letter
        outside a syllable, a joiner at an end of the word or beside another."""
        if self.script == "hangul":
            from parsebench.noise.hangul import compose

            return compose(typed)
        j = self.joiners
        if j and (not typed or typed[0] in j or typed[-1] in j
                  or any(a in j and b in j for a, b in pairwise(typed))):
            return None
        return typed

    @property
    def eligible(self) -> Callable[[str], bool]:
        """Whether a word may be misspelled: letters only (and joiners between them)."""
        if not self.joiners:
            return str.isalpha
        j = self.joiners

        def ok(word: str) -> bool:
            return bool(word) and word[0] not in j and word[-1] not in j and \
                all(c.isalpha() or c in j for c in word)
        return ok

    @classmethod
    def load(cls, name: str) -> Keyboard:
        path = Path(name)
        if path.is_file():
            return _parse(read_lines(path), path.stem, str(path))
        return _parse(_builtin(name), name, None)


def _builtin(name: str) -> list[str]:
    res = files("parsebench") / "data" / "keyboards" / f"{name}.txt"
    if not res.is_file():
        raise InputError(f"unknown keyboard layout {name!r}; built in: "
                         + ", ".join(available_keyboards()))
    return res.read_text(encoding="utf-8").splitlines()


def _parse(text: list[str], name: str, path: str | None) -> Keyboard:
    layers: list[list[tuple[str, str | None]]] = [[]]
    composed: list[tuple[str, str, int]] = []
    joiners: set[str] = set()
    script: str | None = None
    rows_only = True
    todo = [(line, n) for n, line in enumerate(text, 1)]
    while todo:
        raw, n = todo.pop(0)
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split()
        if line.startswith("@"):
            rows_only = False
            what, args = parts[0], parts[1:]
            if what == "@compose" and len(args) == 2:
                composed.append((args[0], args[1], n))
            elif what == "@include" and len(args) == 1:
                layers.append([])
                todo = [(x, n) for x in _builtin(args[0])] + todo
            elif what == "@join" and len(args) == 1 and args[0].upper().startswith("U+"):
                try:
                    joiners.add(chr(int(args[0][2:], 16)))
                except ValueError:
                    raise InputError(f"@join {args[0]}: expected U+HEX", path, n) from None
            elif what == "@script" and args == ["hangul"]:
                script = "hangul"
            else:
                raise InputError(f"{line[:60]!r}: expected @compose BASE CHARS, @include "
                                 "NAME, @join U+HEX or @script hangul", path, n)
            continue
        if len(parts) > 2 or (len(parts) == 2 and len(parts[1]) != len(parts[0])):
            raise InputError("a row is its keys, then optionally its shifted keys (as many)",
                             path, n)
        if len(parts) == 2:
            rows_only = False
        layers[-1].append((parts[0], parts[1] if len(parts) == 2 else None))
    if rows_only:  # the layouts of before: neighbours by lower case
        return Keyboard(name, _plain_neighbours([r for r, _ in layers[0]]))
    near = _Fixed()
    seen: set[str] = set()
    plain: dict[str, str] = {}
    for rows in layers:
        keys = [[(r[c], s[c] if s else _shifted(r[c])) for c in range(len(r))] for r, s in rows]
        for level in (0, 1):
            for ri, row in enumerate(keys):
                for ci, key in enumerate(row):
                    ch = key[level]
                    if ch == NO_KEY or ch in seen:
                        continue
                    around = {keys[rr][cc][level] for rr, cc in _around(keys, ri, ci)}
                    around.discard(NO_KEY)
                    around.discard(ch)
                    seen.add(ch)
                    near[ch] = "".join(sorted(around))
                    if level == 0:
                        plain[ch] = "".join(sorted(
                            k[0] for rr, cc in _around(keys, ri, ci)
                            for k in [keys[rr][cc]] if k[0] != NO_KEY))
    for base, chars, n in composed:
        if base not in seen:
            raise InputError(f"@compose {base}: {base!r} is not a key of the layout", path, n)
        for ch in chars:
            near.setdefault(ch, "".join(sorted(set(near[base]) | {base})))
            up, base_up = _shifted(ch), _shifted(base)
            if up != NO_KEY and base_up in near:
                near.setdefault(up, "".join(sorted(set(near[base_up]) | {base_up})))
    return Keyboard(name, plain, near, frozenset(joiners), script)


def _shifted(ch: str) -> str:
    up = ch.upper()
    return up if len(up) == 1 and up != ch else NO_KEY


def _around(rows: list[list[tuple[str, str]]], r: int, c: int) -> list[tuple[int, int]]:
    cand = [(r, c - 1), (r, c + 1), (r - 1, c), (r - 1, c + 1), (r + 1, c - 1), (r + 1, c)]
    return [(rr, cc) for rr, cc in cand if 0 <= rr < len(rows) and 0 <= cc < len(rows[rr])]


def _plain_neighbours(rows: list[str]) -> dict[str, str]:
    near: dict[str, set[str]] = {}
    for r, row in enumerate(rows):
        for c, key in enumerate(row):
            cand = [(r, c - 1), (r, c + 1), (r - 1, c), (r - 1, c + 1),
                    (r + 1, c - 1), (r + 1, c)]
            near[key] = {rows[rr][cc] for rr, cc in cand
                         if 0 <= rr < len(rows) and 0 <= cc < len(rows[rr])}
    return {k: "".join(sorted(v)) for k, v in near.items()}


def available_keyboards() -> list[str]:
    d = files("parsebench") / "data" / "keyboards"
    return sorted(p.name[:-4] for p in d.iterdir() if p.name.endswith(".txt"))

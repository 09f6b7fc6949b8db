"""One additive type for every method's counts.

A sentence's sufficient statistics and a corpus's sums are the same object: counts
that add field by field (nested counts add recursively), so summing, pooling
replicates and breaking down by a key are one operation for every method
(sacreBLEU's and SuPar's shape). Fields named in ``KEEP`` (a sentence's line) are
labels, not counts, and are left alone. Written here because the dataclasses of
the standard library give no addition.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any, ClassVar, Self


class Additive:
    """Mixin for dataclasses of counts: ``a.add(b)``, ``a + b`` and ``as_dict()``."""

    __slots__ = ()
    KEEP: ClassVar[tuple[str, ...]] = ()
    """Fields that are not counts."""
    DERIVED: ClassVar[tuple[str, ...]] = ()
    """Properties (scores from the counts) that ``as_dict`` adds after the counts."""
    _names: ClassVar[dict[type, tuple[str, ...]]] = {}

    @classmethod
    def _counts(cls) -> tuple[str, ...]:
        names = Additive._names.get(cls)
        if names is None:
            names = Additive._names[cls] = tuple(
                f.name for f in fields(cls)  # type: ignore[arg-type]
                if f.name not in cls.KEEP)
        return names

    def add(self, other: Self) -> None:
        """Add OTHER's counts to these, field by field (nested counts recursively)."""
        adder = _ADDERS.get(type(self))
        if adder is None:
            adder = _ADDERS[type(self)] = _make_adder(self._counts(), self)
        adder(self, other)

    def __add__(self, other: Self) -> Self:
        out = self.__class__()
        out.add(self)
        out.add(other)
        return out

    def as_dict(self) -> dict[str, Any]:
        """The counts, then the scores derived from them (None where not defined)."""
        out: dict[str, Any] = {}
        for name in self._counts():
            v = getattr(self, name)
            out[name] = v.as_dict() if isinstance(v, Additive) else v
        for name in self.DERIVED:
            out[name] = getattr(self, name)
        return out


def f_measure(precision: float | None, recall: float | None) -> float | None:
    """Their harmonic mean (0 when both are 0); None (n/a) when either is."""
    if precision is None or recall is None:
        return None
    total = precision + recall
    return 2 * precision * recall / total if total else 0.0


_ADDERS: dict[type, Any] = {}
"""Each class's ``add``, written out field by field once: the loop over field names
with getattr and setattr took a fifth of ``compare``'s scoring."""


def _make_adder(names: tuple[str, ...], example: Any = None) -> Any:
    """The ``add`` of a class with these counts. Nested counts whose own counts are all
    numbers in EXAMPLE (an instance) are added inline, behind a check of their type:
    a call a nested field took half of summing a corpus's sentences."""
    lines = ["def add(self, other):"]
    space: dict[str, Any] = {"Additive": Additive}
    for name in names:
        mine = getattr(example, name, None)
        inner = mine._counts() if isinstance(mine, Additive) else None
        lines.append(f"    mine = self.{name}")
        if inner and all(type(getattr(mine, x)) in (int, float) for x in inner):
            space[f"T_{name}"] = type(mine)
            lines += [f"    if type(mine) is T_{name}:",
                      f"        theirs = other.{name}"]
            lines += [f"        mine.{x} = mine.{x} + theirs.{x}" for x in inner]
            lines.append("    elif isinstance(mine, Additive):")
        else:
            lines.append("    if isinstance(mine, Additive):")
        lines += [f"        mine.add(other.{name})",
                  "    else:",
                  f"        self.{name} = mine + other.{name}"]
    if not names:
        lines.append("    pass")
    exec("\n".join(lines), space)  # the field names of our own dataclasses
    return space["add"]

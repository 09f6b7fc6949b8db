"""Typed results that are also their JSON: frozen dataclasses whose ``to_dict()`` is the
object a command prints or a store keeps, key for key and in the same order, and whose
``from_dict()`` reads it back, so the report reads attributes (a misspelled figure is
an error where it is written) while every output stays byte for byte what it was.

Written here rather than taken from a library: ``dataclasses.asdict`` cannot rename a
field (Bigert's ``lambda`` is a keyword), leave out a key a result does not have, or
read a record back; pydantic and cattrs could, but would be a heavy core dependency
for these few lines, and neither keeps the key order of an existing JSON contract
without the same per-field declarations.

A field's ``metadata`` may hold ``key`` (its JSON name, when that is no identifier) and
``omit`` (True: the key is left out when the value is None, for a figure only some
results have).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from functools import cache
from typing import Any, ClassVar, Self, Union


def key(name: str, omit: bool = False) -> dict[str, Any]:
    """A field's metadata: its JSON key NAME (and whether it is left out when None)."""
    return {"key": name, "omit": omit}


Interval = tuple[float, float]
"""A 95% interval, its low and high end (fractions), as a record keeps it."""


OMIT: dict[str, Any] = {"omit": True}
"""A field's metadata: its key is left out of the JSON when the value is None."""


class Record:
    """Mixin of a frozen dataclass that is one JSON object of a result."""

    __dataclass_fields__: ClassVar[dict[str, Any]]

    def to_dict(self) -> dict[str, Any]:
        """The JSON object, keys in the fields' order."""
        out: dict[str, Any] = {}
        for name, jkey, omit in _layout(typing.cast(type, type(self))):
            v = getattr(self, name)
            if type(v) in _ATOMS:
                if v is None and omit:
                    continue
                out[jkey] = v
            else:
                out[jkey] = plain(v)
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """The record of a JSON object (its own output read back); a key it does not
        know is an error, so that a record never silently drops a figure."""
        if not isinstance(data, Mapping):
            raise TypeError(f"{cls.__name__}: expected an object, got {type(data).__name__}")
        fields = _fields(typing.cast(type, cls))
        known = {k for k, _, _ in fields}
        extra = [k for k in data if k not in known]
        if extra:
            raise TypeError(f"{cls.__name__} has no field for {', '.join(map(repr, extra))}")
        kwargs = {}
        for jkey, name, hint in fields:
            if jkey in data:
                kwargs[name] = _read(hint, data[jkey])
        return cls(**kwargs)


_ATOMS = frozenset({str, int, float, bool, type(None)})
"""Types a value is kept as it is (checked by ``type()``: a results' rows are millions
of numbers, and an isinstance check against ``Mapping`` costs ten times as much)."""


@cache
def _layout(cls: type) -> tuple[tuple[str, str, bool], ...]:
    """Each field's name, JSON key and whether None leaves it out, once a class."""
    return tuple((f.name, f.metadata.get("key", f.name), bool(f.metadata.get("omit")))
                 for f in dataclasses.fields(cls))


def plain(v: Any) -> Any:
    """V as JSON holds it: records as objects, tuples as lists."""
    t = type(v)
    if t in _ATOMS:
        return v
    if t is list or t is tuple:
        return [x if type(x) in _ATOMS else plain(x) for x in v]
    if t is dict:
        return {k: x if type(x) in _ATOMS else plain(x) for k, x in v.items()}
    if isinstance(v, Record):
        return v.to_dict()
    if isinstance(v, Mapping):
        return {k: plain(x) for k, x in v.items()}
    if isinstance(v, list | tuple):
        return [plain(x) for x in v]
    return v


@cache
def _fields(cls: type) -> list[tuple[str, str, Any]]:
    hints = typing.get_type_hints(cls)
    return [(f.metadata.get("key", f.name), f.name, hints[f.name])
            for f in dataclasses.fields(cls)]


def _read(hint: Any, v: Any) -> Any:
    """V (plain JSON) as HINT says: records, tuples and containers of them rebuilt."""
    if v is None:
        return None
    origin = typing.get_origin(hint)
    if origin in (Union, types.UnionType):
        options = [a for a in typing.get_args(hint) if a is not type(None)]
        records = [a for a in options if _is_record(a)]
        if isinstance(v, Mapping) and records:
            # a record where the value is an object: the first that reads it (records
            # whose JSON objects differ in their keys), else the last one's error
            for a in records[:-1]:
                try:
                    return _read(a, v)
                except TypeError:
                    pass
            return _read(records[-1], v)
        return _read(options[0], v) if len(options) == 1 else v
    if _is_record(hint):
        return hint.from_dict(v)
    if origin is tuple and isinstance(v, list):
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(v) if args[0] in _AS_READ else tuple(_read(args[0], x) for x in v)
        return tuple(_read(a, x) for a, x in zip(args, v, strict=False))
    if origin is list and isinstance(v, list):
        (arg,) = typing.get_args(hint) or (Any,)
        return list(v) if arg in _AS_READ else [_read(arg, x) for x in v]
    if origin in (dict, Mapping) and isinstance(v, Mapping):
        args = typing.get_args(hint)
        arg = args[1] if len(args) == 2 else Any
        return dict(v) if arg in _AS_READ else {k: _read(arg, x) for k, x in v.items()}
    return v


_AS_READ = frozenset({Any, float, int, str, bool})
"""Hints a JSON value is read as, as it is: a container of them is copied whole, not
read an item at a time (a run's stored rows are hundreds of thousands of numbers)."""


def _is_record(hint: Any) -> bool:
    return isinstance(hint, type) and issubclass(hint, Record)

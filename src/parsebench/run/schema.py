"""A settings file's schema: the tables and keys of a TOML file, each a :class:`Field`
that says how it is read (checked, refused in one line with the file and the line of
its key) and how it is kept in a run's flat record, both ways.

An experiment's settings are declared once, as a list of fields
(:data:`parsebench.run.experiment.FIELDS`); reading the file (:func:`read`), writing
the record (:func:`record`) and reading the record back (:func:`restore`) are all
derived from that list, so a setting cannot be read one way and kept another.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from parsebench.common.errors import InputError, read_lines
from parsebench.common.limits import LIMITS, problem

Record = dict[str, Any]
"""A run's flat record of its settings (JSON)."""


@dataclass(frozen=True)
class TomlTable:
    """A TOML table: what it is when the file leaves it out, and its known keys."""

    name: str
    absent: str | None = None
    """None: read as empty; "skip": its fields keep their defaults (read not at all);
    any other text: the file must have it, and this is the error."""
    keys: frozenset[str] | None = None
    """Its known keys, when not the keys of its fields (a table read whole)."""


@dataclass(frozen=True)
class Field:
    """One setting: its attribute, its TOML table and key, how it is read, and how it
    is kept in the flat record and read back from it."""

    name: str
    """Its attribute on the object the schema builds."""
    table: str
    """Its TOML table ("" the top level)."""
    key: str | None
    """Its key there; None: it reads its table whole."""
    read: Callable[[At], Any]
    """Its value from the file (checked), or its default when the key is absent."""
    record: Callable[[Any, dict[str, Any]], Record] | None = None
    """(its value, every value) -> its entries in the record ({} to leave it out);
    None: it is not recorded (and :func:`restore` leaves it at its default)."""
    restore: Callable[[Record], Any] | None = None
    """The record -> its value (the inverse of :attr:`record`)."""
    also: tuple[str, ...] = ()
    """Other keys of its table it reads (the error levels: rates and per_sentence)."""


def kept(key: str, default: Any = None, to: Callable[[Any], Any] = lambda v: v,
         back: Callable[[Any], Any] = lambda v: v) -> dict[str, Any]:
    """A field kept under KEY, converted TO the record and BACK from it (DEFAULT when
    the record has no KEY): ``Field(..., **kept("limit"))``."""
    missing = object()

    def rec(v: Any, _: dict[str, Any]) -> Record:
        return {key: to(v)}

    def res(c: Record) -> Any:
        got = c.get(key, missing)
        return default if got is missing else back(got)

    return {"record": rec, "restore": res}


def _line_of(lines: list[str], table: str, key: str) -> int | None:
    """The line where KEY is set inside TABLE ("" = top level, where a table header counts)."""
    header = re.compile(r"^\s*\[\[?\s*([A-Za-z0-9_.-]+)\s*\]\]?")
    setting = re.compile(rf"^\s*{re.escape(key)}\s*=")
    current = ""
    for n, line in enumerate(lines, 1):
        m = header.match(line)
        if m:
            current = m.group(1)
            if table == "" and current == key:
                return n
        elif current == table and setting.match(line):
            return n
    return None


class Reader:
    """A parsed file and its lines: reads values of a type and refuses the wrong ones
    at the line of their key."""

    def __init__(self, path: Path, lines: list[str], tables: dict[str, set[str]]) -> None:
        self.path, self.lines, self.tables = path, lines, tables

    def fail(self, msg: str, table: str = "", key: str = "") -> InputError:
        return InputError(msg, self.path, _line_of(self.lines, table, key) if key else None)

    def check_keys(self, d: dict[str, Any], table: str) -> None:
        for k in d:
            if k not in self.tables[table]:
                where = f"[{table}]" if table else "the top level"
                raise self.fail(f"unknown key {k!r} in {where}; known: "
                                + ", ".join(sorted(self.tables[table])), table, k)

    def get(self, d: dict[str, Any], table: str, key: str, kind: type | tuple[type, ...],
            default: Any = None) -> Any:
        if key not in d:
            return default
        v = d[key]
        if isinstance(v, bool) and kind in (int, float, (int, float)):
            raise self.fail(f"{key} must be a number, not {v!r}", table, key)
        if not isinstance(v, kind):
            names = kind.__name__ if isinstance(kind, type) else " or ".join(
                k.__name__ for k in kind)
            raise self.fail(f"{key} must be {names}, not {v!r}", table, key)
        return v

    def path_of(self, d: dict[str, Any], table: str, key: str, required: bool) -> Path | None:
        got = self.paths_of(d, table, key, required, many=False)
        return got[0] if got else None

    def paths_of(self, d: dict[str, Any], table: str, key: str, required: bool,
                 many: bool = True) -> list[Path] | None:
        """KEY's file (or, with MANY, list of files) resolved from the file's folder."""
        v = self.get(d, table, key, (str, list) if many else str)
        if v is None:
            if required:
                raise self.fail(f"[{table}] needs {key} = \"FILE\"", "", table)
            return None
        names = v if isinstance(v, list) else [v]
        if not names or not all(isinstance(x, str) for x in names):
            raise self.fail(f"{key} must be a file name or a list of them", table, key)
        out = []
        for x in names:
            p = Path(x) if Path(x).is_absolute() else (self.path.parent / x)
            try:
                found = p.is_file()
            except (OSError, ValueError):  # a name too long for the system, a NUL
                found = False
            if not found:
                raise self.fail(f"{key} = {x[:80]!r}: no such file", table, key)
            out.append(p)
        return out


@dataclass(frozen=True)
class At:
    """Where a field is read: its table's values, its key, and the fields read before it
    (``got``), for a check that depends on them."""

    reader: Reader
    values: dict[str, Any]
    table: str
    key: str
    got: dict[str, Any]

    def of(self, key: str) -> At:
        """Another key of the same table."""
        return At(self.reader, self.values, self.table, key, self.got)

    def fail(self, message: str) -> InputError:
        return self.reader.fail(message, self.table, self.key)

    def get(self, kind: type | tuple[type, ...], default: Any = None) -> Any:
        return self.reader.get(self.values, self.table, self.key, kind, default)

    def path(self, value: str) -> Path:
        """The file the key names, from the file's folder (a method's settings reader's
        :class:`parsebench.metrics.core.method.Where`)."""
        got = self.reader.path_of(self.values, self.table, self.key, True)
        assert got is not None
        return got

    def paths(self, required: bool, many: bool = True) -> list[Path] | None:
        return self.reader.paths_of(self.values, self.table, self.key, required, many)

    def positive(self) -> int | None:
        """A count of 1 or more (within its limit, :data:`parsebench.common.limits.LIMITS`)."""
        v = self.get(int)
        if v is not None and v < 1:
            raise self.fail(f"{self.key} must be 1 or more")
        if v is not None and self.key in LIMITS and (bad := problem(self.key, v)) is not None:
            raise self.fail(f"{self.key} {bad}")
        return None if v is None else int(v)


def known_keys(tables: Sequence[TomlTable], fields: Sequence[Field]) -> dict[str, set[str]]:
    """Each table's known keys: its fields' keys (the top level's: its fields' and the
    tables')."""
    out = {t.name: set(t.keys) if t.keys is not None else
           {k for f in fields if f.table == t.name for k in (f.key, *f.also) if k}
           for t in tables}
    out[""] |= {t.name for t in tables if t.name and any(f.table == t.name for f in fields)}
    return out


def parse(path: Path) -> tuple[list[str], dict[str, Any]]:
    """PATH's lines and its TOML, refused in one line with the line of the mistake."""
    lines = read_lines(path)
    try:
        return lines, tomllib.loads("\n".join(lines))
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"\(at line (\d+), column \d+\)", str(exc))
        msg = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(exc))
        raise InputError(f"not valid TOML: {msg}", path, int(m.group(1)) if m else None
                         ) from None


def read(r: Reader, data: dict[str, Any], tables: Sequence[TomlTable],
         fields: Sequence[Field]) -> dict[str, Any]:
    """Every field's value from a parsed file, read in the order of FIELDS (each table
    checked for unknown keys when its first field is read)."""
    by_name = {t.name: t for t in tables}
    opened: dict[str, dict[str, Any] | None] = {"": data}
    r.check_keys(data, "")
    got: dict[str, Any] = {}
    for f in fields:
        if f.table not in opened:
            t = by_name[f.table]
            values = r.get(data, "", t.name, dict, None if t.absent else {})
            if values is None and t.absent != "skip":
                raise r.fail(str(t.absent))
            if values is not None:
                r.check_keys(values, t.name)
            opened[f.table] = values
        values = opened[f.table]
        if values is not None:
            got[f.name] = f.read(At(r, values, f.table, f.key or f.table, got))
    return got


def record(fields: Sequence[Field], values: dict[str, Any]) -> Record:
    """The flat record of VALUES (an object's fields by name)."""
    out: Record = {}
    for f in fields:
        if f.record is not None:
            out.update(f.record(values[f.name], values))
    return out


def restore(fields: Sequence[Field], config: Record) -> dict[str, Any]:
    """The values of the recorded fields, from a record :func:`record` wrote."""
    return {f.name: f.restore(config) for f in fields if f.restore is not None}

"""What the Python API returns: a result that is the command's JSON object, its text,
and attributes for its figures.

One class for every command's result, because the commands' JSON objects are the
contract (SPEC.md) and a result must never drift from them: ``r.to_dict()`` *is*
the object that ``--json`` prints, ``str(r)`` *is* the text the command prints, and
the attributes (``r.las.f1``, ``r.las.ci``) read the same object. Written here, not
taken from a library, because no library of the field returns results of this shape
(sacreBLEU's ``BLEUScore`` is the model: a score object with a ``format()``).
"""

from __future__ import annotations

import copy
import html
import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from parsebench.common.record import Record

CI_KEYS = ("ci95", "ci")
"""Where a command's JSON keeps its figures' intervals, by figure name."""


@dataclass(frozen=True)
class Figure:
    """One figure of a result (``las``, ``unlabeled``...): its values by name
    (``precision``, ``recall``, ``f1``, ``accuracy``, counts) and its interval, where
    the command gives one. A value the method cannot give is None (printed n/a)."""

    name: str
    values: Mapping[str, Any]
    ci: tuple[float, float] | None = None

    def __post_init__(self) -> None:
        from parsebench.model import arguments as A
        A.check_fields(name=(self.name, A.text), values=(self.values, A.mapping),
                       ci=(self.ci, A.optional(A.interval)))

    def __getattr__(self, key: str) -> Any:
        try:
            return self.values[key]
        except KeyError:
            raise AttributeError(f"{self.name} has no {key!r}; it has "
                                 + ", ".join(self.values)) from None

    def __dir__(self) -> list[str]:
        return [*super().__dir__(), *self.values]

    @property
    def value(self) -> float | None:
        """The headline: F1 (EVALB's bracketing F-measure), else accuracy, else the rate."""
        k = _headline(self.values)
        v = self.values[k] if k is not None else None
        return None if v is None else float(v)


HEADLINES = ("f1", "bracketing_fmeasure", "accuracy", "rate", "value")
"""The measure a figure is read by, the first of these it has."""


def _headline(values: Mapping[str, Any]) -> str | None:
    return next((k for k in HEADLINES if k in values), None)


SETTINGS = ("samples", "seed", "alpha")
"""Numbers of a command's object that are its settings, not figures: no rows."""


def _is_number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def _is_figure(v: Any) -> bool:
    """A mapping whose values are numbers or None (a figure), not a nested table."""
    return isinstance(v, Mapping) and bool(v) and all(
        x is None or _is_number(x) for x in v.values())


def _nested_rows(name: str, table: Mapping[str, Any], depth: int = 0
                 ) -> list[dict[str, Any]]:
    """The numbers of a nested TABLE (Bigert's ``gold``, a breakdown ``by``), a row
    each: figure NAME (``gold``, ``gold.cases``, ``by.nsubj``), measure the key; a word
    beside them (a policy, a flag) is no measure, and lists are not figures."""
    out = []
    for k, x in table.items():
        if _is_number(x):
            out.append({"figure": name, "measure": str(k), "value": x,
                        "ci_low": None, "ci_high": None})
        elif isinstance(x, Mapping) and depth < 3 and str(k) != "ci95":
            out += _nested_rows(f"{name}.{k}", x, depth + 1)
    return out


class Later(Mapping[str, Any]):
    """A command's JSON object made from its record when it is first read. ``eval
    brackets`` prints EVALB's report, which never reads it, and a million words' object
    is a dict a sentence (0.04 s of the command's 0.26 s)."""

    __slots__ = ("_data", "_make", "_record")

    def __init__(self, make: Callable[[], Record]) -> None:
        self._make = make
        self._record: Record | None = None
        self._data: dict[str, Any] | None = None

    @property
    def record(self) -> Record:
        if self._record is None:
            self._record = self._make()
        return self._record

    @property
    def data(self) -> dict[str, Any]:
        if self._data is None:
            self._data = self.record.to_dict()
        return self._data

    def __getitem__(self, key: str) -> Any:
        return self.data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.data)

    def __len__(self) -> int:
        return len(self.data)


@dataclass(frozen=True)
class Result:
    """A command's result. ``to_dict()`` equals the command's ``--json`` object (its
    signature included); ``str(r)`` is the command's text; ``r.NAME`` is a
    :class:`Figure` where NAME is a figure of the object, else the object's value."""

    command: str
    """The command that gives the same result (``eval deps``...)."""
    data: Mapping[str, Any] = field(repr=False)
    render: Callable[[], str] = field(repr=False, compare=False, default=lambda: "")
    warnings: tuple[str, ...] = field(default=(), repr=False)
    """What the command prints as ``warning:`` lines on standard error."""
    made: Record | None = field(default=None, repr=False, compare=False, kw_only=True)
    """The typed object DATA is the JSON of, where the command has one (else
    :attr:`record` reads it from DATA when that is :class:`Later`)."""

    def __post_init__(self) -> None:
        from parsebench.model import arguments as A
        A.check_fields(command=(self.command, A.text), data=(self.data, A.mapping),
                       render=(self.render, A.function), warnings=(self.warnings, A.lines))

    @property
    def record(self) -> Record | None:
        """The typed object DATA is the JSON of (``eval deps``: a
        :class:`~parsebench.metrics.dependency.figures.DepsEval`), where the command has
        one: its text is made from it."""
        return self.data.record if isinstance(self.data, Later) else self.made

    def to_dict(self) -> dict[str, Any]:
        """The command's ``--json`` object (a copy: the result stays as it was)."""
        return copy.deepcopy(dict(self.data))

    def to_json(self) -> str:
        """The command's ``--json`` output, byte for byte."""
        data = self.data.data if isinstance(self.data, Later) else self.data
        return json.dumps(data, indent=2, allow_nan=False) + "\n"

    @property
    def signature(self) -> str:
        """What made the figures (method, options, version), as the command prints it."""
        return str(self.data.get("signature", ""))

    def __str__(self) -> str:
        return self.render()

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or name in ("data", "render", "command", "warnings",
                                            "made"):
            raise AttributeError(name)
        try:
            v = self.data[name]
        except KeyError:
            raise AttributeError(f"{self.command} has no {name!r}; it has "
                                 + ", ".join(self.data)) from None
        if _is_figure(v):
            return Figure(name, dict(v), self._interval(name))
        return copy.deepcopy(v)

    def __dir__(self) -> list[str]:
        return [*super().__dir__(), *self.data]

    def _interval(self, name: str) -> tuple[float, float] | None:
        for key in CI_KEYS:
            got = self.data.get(key)
            if isinstance(got, Mapping) and isinstance(got.get(name), list | tuple) \
                    and len(got[name]) == 2:
                return (float(got[name][0]), float(got[name][1]))
        return None

    def figures(self) -> Iterator[Figure]:
        """Every figure at the top of the result, in the command's order."""
        for name, v in self.data.items():
            if _is_figure(v):
                yield Figure(name, dict(v), self._interval(name))

    def rows(self) -> list[dict[str, Any]]:
        """One row a figure's value: figure, measure, value, and the interval's bounds
        beside the figure's headline measure. A figure that is one number (Bigert's
        ``differs`` of one file) is a row with measure ``value``; a nested table's
        numbers are rows too (:func:`_nested_rows`); a comparison's systems and pairs
        are rows with a ``system`` column."""
        out = []
        for name, v in self.data.items():
            if _is_number(v) and name not in SETTINGS:
                lo, hi = self._interval(name) or (None, None)
                out.append({"figure": name, "measure": "value", "value": v,
                            "ci_low": lo, "ci_high": hi})
            elif _is_figure(v):
                f = Figure(name, dict(v), self._interval(name))
                head = _headline(f.values)
                for k, x in f.values.items():
                    lo, hi = f.ci if f.ci is not None and k == head else (None, None)
                    out.append({"figure": f.name, "measure": k, "value": x,
                                "ci_low": lo, "ci_high": hi})
            elif isinstance(v, Mapping) and name != "ci95":
                out += _nested_rows(name, v)
        return out + self._compared()

    def _compared(self) -> list[dict[str, Any]]:
        """``compare``'s rows: each system's score, each pair's difference."""
        systems = self.data.get("systems")
        if not isinstance(systems, list):
            return []
        metric = str(self.data.get("metric", "score"))
        files = [str(s.get("file")) for s in systems]
        out = [{"system": s.get("file"), "figure": metric, "measure": "score",
                "value": s.get("score"), "ci_low": (s.get("ci") or [None, None])[0],
                "ci_high": (s.get("ci") or [None, None])[1]} for s in systems]
        for p in self.data.get("pairs") or []:
            a, b = p.get("baseline"), p.get("system")
            ci = p.get("ci") or [None, None]
            out.append({"system": f"{files[b]} - {files[a]}", "figure": metric,
                        "measure": "difference", "value": p.get("delta"),
                        "ci_low": ci[0], "ci_high": ci[1]})
        return out

    def to_pandas(self) -> Any:
        """A DataFrame, one row a figure's value (pandas, an optional extra); a
        comparison's rows name their system first."""
        rows = self.rows()
        lead = ["system"] if any("system" in r for r in rows) else []
        return dataframe(rows, [*lead, "figure", "measure", "value", "ci_low", "ci_high"])

    def _repr_html_(self) -> str:
        """A notebook's view: the figures as a table (every string escaped)."""
        def cell(v: Any) -> str:
            if v is None:
                return "n/a"
            if isinstance(v, float):
                return f"{100 * v:.2f}" if 0 <= v <= 1 else f"{v:.4g}"
            return html.escape(str(v))

        head = "".join(f"<th>{html.escape(h)}</th>" for h in
                       ("figure", "measure", "value", "95% interval"))
        body = []
        for r in self.rows():
            ci = "" if r["ci_low"] is None else f"[{cell(r['ci_low'])}, {cell(r['ci_high'])}]"
            body.append(f"<tr><td>{html.escape(r['figure'])}</td>"
                        f"<td>{html.escape(r['measure'])}</td><td>{cell(r['value'])}</td>"
                        f"<td>{ci}</td></tr>")
        return (f"<div><b>{html.escape(self.command)}</b>"
                f"<table><tr>{head}</tr>{''.join(body)}</table>"
                f"<small>{html.escape(self.signature)}</small></div>")


def dataframe(rows: list[dict[str, Any]], columns: list[str] | None = None) -> Any:
    """ROWS as a pandas DataFrame; pandas is an optional extra, named when missing."""
    try:
        import pandas as pd
    except ImportError:  # pragma: no cover - the message is the point
        raise ImportError("to_pandas needs pandas: pip install 'parsebench[pandas]'") \
            from None
    return pd.DataFrame(rows, columns=columns)


def result(command: str, data: Mapping[str, Any] | Record | Callable[[], Record],
           render: Callable[[], str] | None = None,
           warnings: list[str] | tuple[str, ...] = ()) -> Result:
    """A result of COMMAND with its JSON object DATA (or the record whose ``to_dict()``
    it is, or what makes that record when it is first read) and its text RENDER."""
    if isinstance(data, Record):
        return Result(command, data.to_dict(), render or (lambda: ""), tuple(warnings),
                      made=data)
    if callable(data):
        return Result(command, Later(data), render or (lambda: ""), tuple(warnings))
    return Result(command, data, render or (lambda: ""), tuple(warnings))

"""One result of a run, as the scoring makes it, the store keeps it and the report
reads it: a frozen record rather than a tuple read by position or a dict read by key,
so that a misspelled field is an error where it is written, not a blank in a report."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Scored:
    """The figures of one method (or one of the report's pages: ``speed``,
    ``examples``, ``browser``, the attack's) for one parser, projection and level."""

    parser: str
    method: str
    """The method's name (``metrics.registry.METHODS``), or the page's kind."""
    projection: str
    level: str
    signature: str
    value: Any
    """The figures: the method's record (``Method.value_type``), whose ``to_dict()`` is
    the object ``--json`` writes, or that object itself for a method without one (with
    ``stats``, the per-sentence statistics, where the method keeps them); a page's
    content."""

    def __post_init__(self) -> None:
        from parsebench.model import arguments as A
        A.check_fields(**{k: (getattr(self, k), A.text) for k in (
            "parser", "method", "projection", "level", "signature")})

    @property
    def metric(self) -> str:
        """:attr:`method` under its name in earlier releases (a method is a paper's
        procedure; a figure, one number it gives)."""
        return self.method

    def figure(self, *path: str) -> Any:
        """The figure at PATH inside :attr:`value` (``r.figure("las", "f1")``), or None
        where the method did not give it."""
        from parsebench.common.record import plain

        v = plain(self.value)
        for k in path:
            if not isinstance(v, dict) or k not in v:
                return None
            v = v[k]
        return v

    def rows(self) -> list[dict[str, Any]]:
        """One row a figure's measure (figure, measure, value, the interval's bounds
        beside its headline measure), as every command's result gives them, each with
        this result's parser, method, projection and level."""
        from parsebench.common.record import plain
        from parsebench.model.results import Result

        v = plain(self.value)
        data = {k: x for k, x in v.items() if k != "stats"} if isinstance(v, dict) \
            else {"value": v}
        head = {"parser": self.parser, "method": self.method, "projection": self.projection,
                "level": self.level}
        return [{**head, **r} for r in Result(self.method, data, lambda: "").rows()]

    def to_pandas(self) -> Any:
        """:meth:`rows` as a DataFrame (pandas, an optional extra)."""
        from parsebench.model.results import dataframe

        return dataframe(self.rows(), list(ROW_COLUMNS))

    def to_dict(self) -> dict[str, Any]:
        """The record as the run's JSON writes it."""
        from parsebench.common.record import plain

        return {"parser": self.parser, "method": self.method,
                "projection": self.projection, "level": self.level,
                "signature": self.signature, "value": plain(self.value)}


ROW_COLUMNS = ("parser", "method", "projection", "level", "figure", "measure", "value",
               "ci_low", "ci_high")
"""The columns of a result's rows (:meth:`Scored.rows`)."""

"""Text tables for the terminal: the layouts of the papers' tables, plain and diffable."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from parsebench.model.scored import Scored
from parsebench.present import percent, value

if TYPE_CHECKING:  # eval deps does not import the flat or robustness metrics

    pass


def _pct(x: float | None) -> str:
    return percent(x, 6)




_v = value


def _p(x: Any, width: int = 5, digits: int = 2) -> str:
    return percent(x, width, digits)




def times_table(stages: list[list[Any]], wall: float, to: str = "the report written"
                ) -> str:
    """Where a run's time went: the whole, from its start TO its report written (or its
    end, the report left to a later run), then each stage ([name, seconds, remark]), the
    stages adding up to the whole."""
    from parsebench.common.progress import duration

    width = max(len(str(s[0])) for s in stages)
    lines = [f"time: {duration(wall)} from the start to {to}"]
    lines += [f"  {name:<{width}} {duration(secs):>10}" + (f"  ({remark})" if remark else "")
              for name, secs, remark in stages]
    return "\n".join(lines) + "\n"


def summary_table(results: list[Scored]) -> str:
    """The end-of-run table on the terminal: the headline of every result whose method
    has one (:attr:`parsebench.metrics.core.method.Method.headline`), and parse speed."""
    from parsebench.metrics.registry import METHODS
    from parsebench.run.page_values import typed_result

    lines = [f"{'parser':<16} {'metric':<10} {'projection':<12} {'level':<18} headline"]
    for r in results:
        parser, metric, proj, level, v = r.parser, r.method, r.projection, r.level, r.value
        m = METHODS.get(metric)
        if m is not None and m.headline is not None:
            head = m.headline(typed_result(r).value)  # a reused result is read as stored
        elif metric == "speed":
            v = typed_result(r).value  # a SpeedValue, a reused one too
            head = f"{v.words_per_second or 0:,.0f} words/s, {v.failures} failures"
        else:
            continue
        lines.append(f"{parser:<16} {metric:<10} {proj:<12} {level:<18} {head}")
    return "\n".join(lines) + "\n"

"""Every method, listed once; everything else about methods is derived from this list.

A paper's method is one object (:class:`parsebench.metrics.core.method.Method`), the
``METHOD`` of the paper's module: Bigert et al.'s rows (``robustness.bigert``),
Kakkonen (``robustness.kakkonen``), Lin's and CoNLL 2018's scores against a gold key
(``dependency.lin``), Hashemi & Hwa (``robustness.hashemi_hwa``), EVALB and the flat
key (``constituency.evalb``, ``constituency.gaizauskas``). Methods of other packages
join through the entry-point group ``parsebench.methods`` (each names a Method). From
:data:`METHODS` come the scores (:data:`REGISTRY`, what ``compare`` offers and what a
report resamples), the experiment's ``[metrics]`` keys, the report's sections and the
summary's links: adding a method is its module and one line here (or an entry point).
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from parsebench.common.errors import InputError
from parsebench.model.scored import Scored

if TYPE_CHECKING:
    from parsebench.metrics.core.method import Method, Metric
    from parsebench.metrics.dependency.settings import DepsScoring

ENTRY_POINT_GROUP = "parsebench.methods"
"""Where another package lists its methods (``name = "module:METHOD"``)."""

FAMILIES = ("robustness.bigert", "robustness.kakkonen", "dependency.lin",
            "robustness.hashemi_hwa", "constituency.evalb", "constituency.gaizauskas")
"""The module of each paper's method under ``parsebench.metrics``, in the order reports
show them. They are imported when first asked for: a command that scores one family
(``compare`` of LAS) does not import the others, a tenth of its time."""

FIRST_ASKED = "dependency.lin"
"""The family looked in first for a score by name: what ``compare`` is asked for most."""

METHODS: dict[str, Method]
"""Every method a run can score, by its key in ``[metrics]`` and its results' name."""

REGISTRY: dict[str, Metric]
"""Every score, by name: a method's figures that intervals and paired tests resample."""

COMPARABLE: list[str]
"""The metrics ``compare`` offers: a system against a gold (those stored by a run too,
EVALB and the flat keys, there score a noisy parse against the clean one)."""


def _method(family: str) -> Method:
    return importlib.import_module("parsebench.metrics." + family).METHOD  # type: ignore[no-any-return]


def _plugins() -> list[Method]:
    from parsebench.common.installed import entry_points
    from parsebench.metrics.core.method import Method

    out = []
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        m = ep.load()
        if not isinstance(m, Method):
            raise TypeError(f"entry point {ep.name} = {ep.value} is not a parsebench Method")
        out.append(m)
    return out


_MADE = ("METHODS", "REGISTRY", "COMPARABLE")


@functools.cache
def _every() -> tuple[dict[str, Method], dict[str, Metric], list[str]]:
    methods = {m.name: m for m in (*map(_method, FAMILIES), *_plugins())}
    registry = {s.name: s for m in methods.values() for s in m.scores}
    return methods, registry, [n for n, m in registry.items() if m.reads in ("deps", "trees")]


def __getattr__(name: str) -> Any:
    """METHODS, REGISTRY and COMPARABLE, made from every family when first read."""
    if name not in _MADE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return _every()[_MADE.index(name)]


def comparable(name: str) -> Metric | None:
    """The score NAME if ``compare`` offers it, else None; a score of
    :data:`FIRST_ASKED` is found without importing the other families."""
    first = next((s for s in _method(FIRST_ASKED).scores if s.name == name), None)
    if first is not None and first.reads in ("deps", "trees"):
        return first
    _, registry, offered = _every()
    return registry[name] if name in offered else None


def typed(r: Scored) -> Scored:
    """R with its value as its method's record, where the method has one (a result
    read from the store or a run's JSON is plain JSON). A value that does not read as
    its record (a damaged or crafted store) is refused in one line, never a traceback
    or a blank."""
    m = _every()[0].get(r.method)
    if m is None or m.value_type is None or isinstance(r.value, m.value_type):
        return r
    try:
        if not isinstance(r.value, dict):
            raise TypeError(f"expected an object, got {type(r.value).__name__}")
        return dataclasses.replace(r, value=m.value_type.from_dict(r.value))
    except (TypeError, ValueError, KeyError, AttributeError) as e:
        raise InputError(f"the {r.method} result of {r.parser} at {r.level} does not read "
                         f"as its figures ({e}); the store is damaged or from another "
                         "version: run the experiment again") from None


def file_stats(metric: Metric, gold: str | os.PathLike[str],
               system: str | os.PathLike[str], warnings: list[str] | None = None,
               gold_sentences: Sequence[Any] | None = None,
               scoring: DepsScoring | None = None,
               facts: dict[str, Any] | None = None) -> Any:
    """METRIC's statistics of SYSTEM against GOLD, one row per gold sentence; what the
    scorer warns about (another annotation scheme, no heads) goes to WARNINGS. A system
    that cannot give METRIC (a tagger's output for an attachment score) gets rows of
    NaN: its score, intervals and tests are n/a, never 0. The output of ``noise`` is
    refused (:mod:`parsebench.model.inputs`). GOLD_SENTENCES: the gold's sentences when the
    caller has read them already (``compare`` reads the gold once for every system).
    SCORING: a dependency metric's settings (``--align``, ``--invalid``...; refused in
    one line where they make no sense for METRIC); FACTS gets what scoring with them
    found (validity, alignment counts) and, for a dependency metric, the input the
    system was given as its scores show it (``input``)."""
    assert metric.file_stats is not None, f"{metric.name} is a run's metric"
    if scoring is None or scoring.is_default:  # what every file_stats takes
        if metric.reads == "deps":  # and what a dependency metric found of the input
            return metric.file_stats(metric, gold, system, warnings, gold_sentences,
                                     facts=facts)
        return metric.file_stats(metric, gold, system, warnings, gold_sentences)
    why = scoring.refusal(metric.name, metric.reads)
    if why is not None:
        raise InputError(why)
    return metric.file_stats(metric, gold, system, warnings, gold_sentences,
                             scoring=scoring, facts=facts)


def columns_of(result: str, name: str) -> list[str]:
    """The names of the columns of a run's stored statistics NAME of RESULT (a method's
    key): a keyed breakdown's rows start with the sentence and the key; [] when no
    method names them."""
    methods, registry, _ = _every()
    m = methods.get(result)
    if m is not None and name in m.columns:
        return list(m.columns[name])
    return next((list(x.columns) for x in registry.values() if x.stored == (result, name)),
                [])

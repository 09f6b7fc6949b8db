"""Every method a run scores, listed once, and the names of their statistics' columns.

A paper's method lives in its own module (``rows`` Bigert et al., ``sentences``
Kakkonen, ``deps_method`` Lin's and CoNLL 2018's scores against a gold key (``deps``,
``lin``, ``conll18``), ``robust_f1`` Hashemi & Hwa,
``evalb`` and ``flat`` through the pair interface of ``pairs``); the scores
computed from its summed statistics (and what ``compare`` offers) are the
metrics of :data:`parsebench.metrics.base.REGISTRY`. Scoring, the store and the
export loop over these two lists; adding a method is its module and its line here.
"""

from __future__ import annotations

from parsebench.metrics import robust_f1, rows, sentences
from parsebench.metrics.base import PAIRED, REGISTRY, as_method
from parsebench.metrics.deps_method import METHOD as DEPS_METHOD
from parsebench.metrics.method import Method

METHODS: dict[str, Method] = {m.name: m for m in (
    rows.METHOD, sentences.METHOD, DEPS_METHOD, robust_f1.METHOD,
    *(as_method(pm) for pm in PAIRED))}
"""Every method a run can score, by its key in ``[metrics]`` and its results' name."""


def columns_of(result: str, name: str) -> list[str]:
    """The names of the columns of a run's stored statistics NAME of RESULT (a method's
    key): a keyed breakdown's rows start with the sentence and the key; [] when no
    method names them."""
    m = METHODS.get(result)
    if m is not None and name in m.columns:
        return list(m.columns[name])
    return next((list(x.columns) for x in REGISTRY.values() if x.stored == (result, name)),
                [])

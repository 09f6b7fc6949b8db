"""The public API's argument checks: a value of the wrong type is refused where the call
is made, in one line that names the parameter (a TypeError or a ValueError), instead
of being read as something else: one path where a list of paths is expected was read
letter by letter (``compare(G, "udpipe.conllu")`` said "u: no such file").
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from typing import Any


def _kind(value: Any) -> str:
    return f"{value!r} ({type(value).__name__})" if len(repr(value)) <= 40 \
        else type(value).__name__


def _wrong(name: str, expected: str, value: Any) -> TypeError:
    return TypeError(f"{name}: expected {expected}, not {_kind(value)}")


def _is_corpus(value: Any) -> bool:
    from parsebench.treebank import Treebank

    return isinstance(value, str | os.PathLike | Treebank)


def _listed(name: str, value: Any, one: Callable[[Any], bool], what: str,
            empty: bool = False) -> list[Any]:
    """VALUE, one item or an iterable of them, as a list; a string is one item, never
    its letters."""
    if one(value):
        return [value]
    if isinstance(value, str | bytes | Mapping) or not isinstance(value, Iterable):
        raise _wrong(name, f"{what} or a list of them", value)
    items = list(value)
    if not items and not empty:
        raise ValueError(f"{name}: an empty list; expected {what}, or several")
    for k, x in enumerate(items, 1):
        if not one(x):
            raise TypeError(f"{name}: item {k} is {_kind(x)}; expected {what}")
    return items


def corpora(name: str, value: Any) -> list[Any]:
    """One corpus (a path or a Treebank) or a list of them, as a list of at least one."""
    from parsebench.formats.conllu import Sentence

    if isinstance(value, list | tuple) and value and all(isinstance(s, Sentence)
                                                         for s in value):
        return [value]  # one corpus given as its Sentences
    return _listed(name, value, _is_corpus, "a path or a Treebank")


def paths(name: str, value: Any) -> list[Any]:
    """One path or a list of them, as a list of at least one."""
    return _listed(name, value, lambda x: isinstance(x, str | os.PathLike), "a path")

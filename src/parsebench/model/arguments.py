"""The public API's argument checks: a value of the wrong type or range is refused where
the call is made, in one line that names the parameter (a TypeError for a wrong type;
an InputError, as for a bad file, for a value out of range, so that a command passing
its option on says it in one line with status 2), instead of surfacing as an internal
error deep inside (``'int' object is not iterable``), being read as something else
(``Treebank.read(0)`` reading standard input; one path read letter by letter as a list
of paths, ``compare(G, "udpipe.conllu")`` saying "u: no such file") or passing silently
(``punct="no"`` scoring punctuation).

Each API function says, with :func:`checked`, the rule of every one of its parameters;
a rule takes the parameter's name and value and gives the value the function gets
(one path where a list of paths is expected becomes a list of one) or raises. What a
rule cannot know (whether a file exists, what it holds) stays the function's to check,
with an InputError; so do ranges the function checked already in its command's words.
"""

from __future__ import annotations

import functools
import inspect
import numbers
import operator
import os
import sys
from collections.abc import Callable, Iterable, Mapping
from typing import Any, ParamSpec, TypeVar

from parsebench.common.errors import InputError

P = ParamSpec("P")
R = TypeVar("R")
Check = Callable[[str, Any], Any]
"""A parameter's check: (name, value) -> the value the function gets; raises if wrong."""


def checked(**rules: Check) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """A decorator: each argument given is checked by its parameter's rule before the
    call (defaults are not: they are the function's own). Every parameter needs a rule,
    so that none is forgotten; that is asserted when the function is decorated."""

    def wrap(f: Callable[P, R]) -> Callable[P, R]:
        sig = inspect.signature(f)
        params = set(sig.parameters) - {"self", "cls"}
        assert params == set(rules), (f.__qualname__, params ^ set(rules))

        @functools.wraps(f)
        def call(*args: P.args, **kwargs: P.kwargs) -> R:
            try:
                bound = sig.bind(*args, **kwargs)
            except TypeError as exc:  # a missing or unknown parameter, said by Python
                raise TypeError(f"{f.__name__}(): {exc}") from None
            for name, value in bound.arguments.items():
                if name in rules:
                    bound.arguments[name] = rules[name](name, value)
            return f(*bound.args, **bound.kwargs)

        return call

    return wrap


def check_fields(**fields: tuple[Any, Check]) -> None:
    """Each value by its rule, where no decorator can stand (a dataclass's fields,
    checked in its ``__post_init__``)."""
    for name, (value, rule) in fields.items():
        rule(name, value)


def _kind(value: Any) -> str:
    return f"{value!r} ({type(value).__name__})" if len(repr(value)) <= 40 \
        else type(value).__name__


def _wrong(name: str, expected: str, value: Any) -> TypeError:
    return TypeError(f"{name}: expected {expected}, not {_kind(value)}")


def optional(rule: Check) -> Check:
    """RULE, or None."""

    def check(name: str, value: Any) -> Any:
        return None if value is None else rule(name, value)

    return check


def anything(name: str, value: Any) -> Any:
    """Any value (a value the function only stores, e.g. a result's own figures)."""
    return value


def flag(name: str, value: Any) -> bool:
    """True or False: ``punct="no"`` is truthy, and would score punctuation."""
    if not isinstance(value, bool):
        raise _wrong(name, "True or False", value)
    return value


def text(name: str, value: Any) -> str:
    if not isinstance(value, str):
        raise _wrong(name, "a string", value)
    return value


def path(name: str, value: Any) -> Any:
    """A file's path (a string or a path object): not a number (``open(0)`` would read
    standard input), not bytes, not empty."""
    if not isinstance(value, str | os.PathLike) or isinstance(value, bytes):
        raise _wrong(name, "a path", value)
    if not os.fspath(value):  # Path("") is the current folder: a report written there
        raise InputError(f"{name}: an empty path")
    return value


def _is_corpus(value: Any) -> bool:
    # a Treebank exists only once its module is loaded; not imported from here, since
    # the module is checked by this one
    treebank = sys.modules.get("parsebench.model.treebank")
    return isinstance(value, str | os.PathLike) or (
        treebank is not None and isinstance(value, treebank.Treebank))


def corpus(name: str, value: Any) -> Any:
    """A path, a Treebank, or Sentences (as :func:`parsebench.model.treebank.as_treebank`
    takes them; the sentences themselves are checked there)."""
    if _is_corpus(value):
        return value
    if isinstance(value, str | bytes | Mapping) or not isinstance(value, Iterable):
        raise _wrong(name, "a path or a Treebank", value)
    return value


def iterable(name: str, value: Any) -> Any:
    """Items to go through: a list, a tuple, a generator... (not a string's letters)."""
    if isinstance(value, str | bytes | Mapping) or not isinstance(value, Iterable):
        raise _wrong(name, "a list (or another iterable)", value)
    return value


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
        raise InputError(f"{name}: an empty list; expected {what}, or several")
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


def texts(name: str, value: Any) -> list[str]:
    """One string or a list of them, as a list of at least one."""
    return _listed(name, value, lambda x: isinstance(x, str), "a string")


def strings(name: str, value: Any) -> Any:
    """One string, or a list of strings (possibly empty), as given."""
    if isinstance(value, str):
        return value
    _listed(name, value, lambda x: isinstance(x, str), "a string", empty=True)
    return value


def integer(low: int | None = None) -> Check:
    """An integer (not a bool, not 1.5), LOW or more."""

    def check(name: str, value: Any) -> int:
        try:
            if isinstance(value, bool):
                raise TypeError
            got = operator.index(value)
        except TypeError:
            raise _wrong(name, "an integer", value) from None
        if low is not None and got < low:
            raise InputError(f"{name}: {got}: expected an integer of {low} or more")
        return got

    return check


def number(name: str, value: Any) -> Any:
    """A number (not a bool); its range is the function's to check, in its words."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise _wrong(name, "a number", value)
    return value


def limited(name: str, value: Any) -> Any:
    """A number of the kind and range :data:`parsebench.common.limits.LIMITS` gives the setting
    of this name, refused in the commands' words (``--samples 0: give resamples from 1
    to 1e+06``)."""
    from parsebench.common.limits import check

    if name == "timeout":
        number(name, value)
    else:  # a count or a seed
        integer()(name, value)
    check(name, value)
    return value


def one_of(*rules: Check, expected: str) -> Check:
    """A value one of RULES takes (the first that does), EXPECTED naming them all."""

    def check(name: str, value: Any) -> Any:
        for rule in rules:
            try:
                return rule(name, value)
            except (TypeError, InputError):
                continue
        raise _wrong(name, expected, value)

    return check


def mapping(name: str, value: Any) -> Any:
    if not isinstance(value, Mapping):
        raise _wrong(name, "a mapping", value)
    return value


def progress(name: str, value: Any) -> Any:
    """None, or an object told each stage and step (``stage(name, total)``,
    ``advance()``), as :class:`parsebench.common.progress.Progress` is."""
    if value is not None and not (callable(getattr(value, "stage", None))
                                  and callable(getattr(value, "advance", None))):
        raise _wrong(name, "a Progress (with stage() and advance()) or None", value)
    return value


ENHANCEMENTS = one_of(text, integer(0), expected="a string or an integer (udeval's digits)")
WEIGHTS = one_of(text, mapping, expected="a string (sub=2,ins=1) or a mapping")


def _tree_texts(name: str, value: Any) -> Any:
    """Trees in memory: a list of :class:`parsebench.formats.brackets.TreeText`."""
    from parsebench.formats.brackets import TreeText

    if isinstance(value, list | tuple) and all(isinstance(x, TreeText) for x in value):
        return value
    raise _wrong(name, "a path or a list of TreeText", value)


TREES = one_of(path, _tree_texts, expected="a path or a list of TreeText")


def function(name: str, value: Any) -> Any:
    if not callable(value):
        raise _wrong(name, "a function", value)
    return value


def lines(name: str, value: Any) -> Any:
    """A tuple of strings (a result's warnings)."""
    if not isinstance(value, tuple) or not all(isinstance(x, str) for x in value):
        raise _wrong(name, "a tuple of strings", value)
    return value


def interval(name: str, value: Any) -> Any:
    """Two numbers, low and high (None where one cannot be given)."""
    if not (isinstance(value, tuple | list) and len(value) == 2 and all(
            x is None or (isinstance(x, numbers.Real) and not isinstance(x, bool))
            for x in value)):
        raise _wrong(name, "an interval (low, high)", value)
    return value

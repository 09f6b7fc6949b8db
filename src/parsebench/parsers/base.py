"""The adapter interface every parser sits behind, and the registry of adapters.

An adapter turns a batch of sentences (pre-tokenized words, or raw text) into
one outcome per sentence, in order: an :class:`Analysis` or a
:class:`Failure` with its reason. Adapters run inside worker processes
(:mod:`parsebench.parsers.pool`), so they may load big models and may crash or
hang; the pool isolates that. Third-party adapters register under the entry
point group ``parsebench.parsers`` (name -> class), or are named directly as
``python:MODULE:CLASS``.
"""

from __future__ import annotations

import hashlib
import importlib
import os
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence

from parsebench.common.errors import InputError
from parsebench.common.installed import entry_points
from parsebench.common.outcomes import Analysis, Failure, Item, Outcome, Timed

__all__ = ["Adapter", "Analysis", "Failure", "Item", "Outcome", "Timed", "adapter_class",
           "make_adapter", "spec_identity", "split_spec"]

ENTRY_POINT_GROUP = "parsebench.parsers"


class Adapter(ABC):
    """A parser. Subclasses set ``name`` and ``kind`` and implement ``parse``."""

    name = "adapter"
    kind = "deps"
    """What the analyses hold: deps, links, tree or tags."""
    streaming = True
    """True when ``parse`` yields each sentence as soon as it is done (the pool
    then times each sentence); False when it answers a batch at once."""
    raw_text = False
    """True when the adapter can tokenize raw text itself."""
    timeout = 60.0
    """Seconds one sentence may take; set by the pool."""

    def __init__(self, arg: str | None) -> None:
        self.arg = arg

    @abstractmethod
    def parse(self, batch: Sequence[Item], tokenize: bool = False) -> Iterator[Outcome]:
        """One outcome per item, in order."""

    def needs_reload(self) -> bool:
        """True when what the adapter runs has died with a sentence and must be started
        again (a Java parser's JVM): the pool then gives the reload its start-up time,
        not the next sentence's timeout."""
        return False

    def reload(self) -> None:
        """Start again what :meth:`needs_reload` found dead; a failure here is left for
        the next sentence to report."""
        return None

    @classmethod
    def check_input(cls, arg: str | None, items: Sequence[Item]) -> None:
        """Refuse, before any worker starts, an input this parser cannot answer (parses
        read from a file made from another text); by default every input is answerable."""
        return

    def identity(self) -> dict[str, str]:
        """What decides the output: adapter, versions, model checksum, options. By default
        what :meth:`spec_identity` gives, so an adapter that knows its identity from the
        spec alone writes that once."""
        got = type(self).spec_identity(self.arg)
        return got if got is not None else {"adapter": self.name, "arg": self.arg or ""}

    @classmethod
    def spec_identity(cls, arg: str | None) -> dict[str, str] | None:
        """The identity as the spec alone gives it, without loading a model: a run whose
        parses are all in the store then starts no worker. None when only a loaded
        adapter knows it (then a worker is started to ask). An adapter that overrides
        ``identity`` overrides this too, so that both give the same."""
        if cls.identity is Adapter.identity:
            return {"adapter": cls.name, "arg": arg or ""}
        return None


def file_digest(path: str | os.PathLike[str]) -> str:
    """SHA-256 of a model or grammar file, so a changed file is a different parser."""
    h = hashlib.sha256()
    try:
        with open(path, "rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                h.update(block)
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror}", path) from None
    return h.hexdigest()[:16]


BUILTIN = {
    "udpipe": "parsebench.parsers.udpipe:UDPipe",
    "spacy": "parsebench.parsers.spacy:SpaCy",
    "linkgrammar": "parsebench.parsers.linkgrammar:LinkGrammar",
    "linkgrammar-trees": "parsebench.parsers.linkgrammar:LinkGrammarTrees",
    "nltk-tnt": "parsebench.parsers.nltk:TnTTagger",
    "nltk-earley": "parsebench.parsers.nltk:Earley",
    "command": "parsebench.parsers.command:Command",
    "command-text": "parsebench.parsers.command:CommandText",
    "precomputed": "parsebench.parsers.precomputed:Precomputed",
    "supar": "parsebench.parsers.supar:SuPar",
    "baseline": "parsebench.parsers.baseline:Baseline",
    "openai": "parsebench.parsers.openai_chat:OpenAIChat",
    "malt": "parsebench.parsers.malt:Malt",
    "yara": "parsebench.parsers.yara:Yara",
    "mst": "parsebench.parsers.mst:MST",
    "mate": "parsebench.parsers.mate:Mate",
    "turbo": "parsebench.parsers.turbo:Turbo",
    "tweebo": "parsebench.parsers.turbo:Tweebo",
}


def split_spec(spec: str) -> tuple[str, str | None]:
    name, colon, arg = spec.partition(":")
    if name == "python":
        return spec, None
    return name.strip(), (arg if colon else None)


def _load(target: str, spec: str) -> type[Adapter]:
    module, _, cls = target.rpartition(":")
    try:
        obj = getattr(importlib.import_module(module), cls)
    except ImportError as exc:
        raise InputError(f"parser {spec!r} needs a module that is not installed "
                         f"({exc.name}); see the README for its extra") from None
    except AttributeError:
        raise InputError(f"parser {spec!r}: {module} has no {cls}") from None
    if not (isinstance(obj, type) and issubclass(obj, Adapter)):
        raise InputError(f"parser {spec!r}: {target} is not a parsebench Adapter")
    return obj


def adapter_class(spec: str) -> tuple[type[Adapter], str | None]:
    """The class and argument a parser SPEC names (``udpipe:MODEL``, ``python:MOD:CLS``)."""
    if spec.splitlines() != [spec] and spec:  # its errors would print on several lines
        raise InputError(f"parser spec {spec!r} holds a line break")
    name, arg = split_spec(spec)
    if name.startswith("python:"):
        rest = name[len("python:"):]
        target, _, arg_part = rest.partition("=")
        module, colon, cls = target.rpartition(":")
        if not (colon and all(p.isidentifier() for p in module.split("."))
                and cls.isidentifier()):
            # import_module would raise ValueError or TypeError on "", "os" or ".x"
            raise InputError(f"parser {spec!r}: expected python:MODULE:CLASS, e.g. "
                             "python:mypackage.parsers:MyParser")
        return _load(target, spec), arg_part or None
    if name in BUILTIN:
        return _load(BUILTIN[name], spec), arg
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if ep.name == name:
            return _load(ep.value, spec), arg
    known = sorted(set(BUILTIN) | {ep.name for ep in entry_points(group=ENTRY_POINT_GROUP)})
    raise InputError(f"unknown parser {name!r}; known: {', '.join(known)}, python:MODULE:CLASS")


def spec_identity(spec: str) -> dict[str, str] | None:
    """The identity of the parser SPEC names, computed here, without a worker; None when
    it cannot be known so (an adapter that does not say, or a spec the worker will refuse
    with its own message)."""
    try:
        cls, arg = adapter_class(spec)
        return cls.spec_identity(arg)
    except (InputError, ImportError, OSError, ValueError):
        return None


def make_adapter(spec: str) -> Adapter:
    cls, arg = adapter_class(spec)
    return cls(arg)

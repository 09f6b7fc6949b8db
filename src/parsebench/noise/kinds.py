"""Every kind of noise, listed once: a run's ``[noise] kind``, ``noise --kind`` and the
report all read this list (what a kind is: :mod:`parsebench.noise.kind`). Kinds of
other packages join through the entry-point group ``parsebench.noise_kinds`` (each
names a kind object), as parsers and methods do."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from parsebench.formats.conllu import Sentence
from parsebench.noise.grammar_kind import Grammar
from parsebench.noise.kind import NoiseKind
from parsebench.noise.ocr_kind import Ocr
from parsebench.noise.spelling_kind import Spelling
from parsebench.noise.transcript_kind import Transcript

ENTRY_POINT_GROUP = "parsebench.noise_kinds"


def _plugins() -> list[NoiseKind]:
    from parsebench.common.installed import entry_points

    out: list[NoiseKind] = [ep.load() for ep in entry_points(group=ENTRY_POINT_GROUP)]
    return out


_BUILT_IN: list[NoiseKind] = [Spelling(), Grammar(), Transcript(), Ocr()]
KINDS: dict[str, NoiseKind] = {k.name: k for k in (*_BUILT_IN, *_plugins())}
"""Every kind of noise, by its name in ``[noise] kind`` and ``noise --kind``."""
DEFAULT_KIND = "spelling"


def moves_words(kind: str, settings: Any) -> bool:
    """Whether noise of KIND with its SETTINGS adds, drops or moves words: the kind's
    ``moves(settings)`` where it has one (spelling's tokenization), else its
    ``moves_words``."""
    k = KINDS[kind]
    decide = getattr(k, "moves", None)
    return bool(decide(settings)) if decide is not None else bool(k.moves_words)


def units_of(kind: str, settings: Any, sentences: Sequence[Sentence]) -> list[int] | None:
    """What the parsers are given of a version of SENTENCES made by noise of KIND with its
    SETTINGS: None, a sentence at a time; else the words of each unit the sentences are
    run together and cut into (transcript segments), from the kind's
    ``units(settings, sentences)`` where it has one."""
    cut = getattr(KINDS[kind], "units", None)
    return None if cut is None else cut(settings, sentences)


def described(kind: str, settings: Any) -> str:
    """What the report's Run table calls noise of KIND with its SETTINGS: the kind's
    ``describe(settings)`` where it has one (grammar names its error types), else its
    ``title``."""
    k = KINDS[kind]
    describe = getattr(k, "describe", None)
    return str(describe(settings)) if describe is not None else k.title


OWN_KEYS: dict[str, None] = dict.fromkeys(k for kind in KINDS.values() for k in kind.options)
"""Every kind's own ``[noise]`` keys (in order, each once)."""

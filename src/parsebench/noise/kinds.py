"""Every kind of noise, listed once: a run's ``[noise] kind``, ``noise --kind`` and the
report all read this list (what a kind is: :mod:`parsebench.noise.kind`). Kinds of
other packages join through the entry-point group ``parsebench.noise_kinds`` (each
names a kind object), as parsers and methods do."""

from __future__ import annotations

from typing import Any

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


def described(kind: str, settings: Any) -> str:
    """What the report's Run table calls noise of KIND with its SETTINGS: the kind's
    ``describe(settings)`` where it has one (grammar names its error types), else its
    ``title``."""
    k = KINDS[kind]
    describe = getattr(k, "describe", None)
    return str(describe(settings)) if describe is not None else k.title


OWN_KEYS: dict[str, None] = dict.fromkeys(k for kind in KINDS.values() for k in kind.options)
"""Every kind's own ``[noise]`` keys (in order, each once)."""

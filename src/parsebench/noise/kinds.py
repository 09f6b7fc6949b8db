"""Every kind of noise, listed once: a run's ``[noise] kind``, ``noise --kind`` and the
report all read this list (what a kind is: :mod:`parsebench.noise.kind`)."""

from __future__ import annotations

from parsebench.noise.grammar_kind import Grammar
from parsebench.noise.kind import NoiseKind
from parsebench.noise.spelling_kind import Spelling

KINDS: dict[str, NoiseKind] = {k.name: k for k in (Spelling(), Grammar())}
"""Every kind of noise, by its name in ``[noise] kind`` and ``noise --kind``."""

"""The interface of a run's methods that score each noisy parse against the clean parse
of the same sentence (EVALB's and the flat key's clean-key scores; a new method of this
shape is a module that defines one and a line in ``metrics.base.PAIRED``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from parsebench.analysis import Parse

if TYPE_CHECKING:  # annotations only: eval deps, brackets and flat start without NumPy
    import numpy as np
    import numpy.typing as npt


@dataclass(frozen=True)
class PairMethod:
    """A run's method that scores each noisy parse against the clean parse of the same
    sentence: the interface a new method of this shape implements in its own module,
    then lists in :data:`PAIRED` (scoring loops over levels, replicates and sentences,
    pools and resamples for it; see docs/architecture.md)."""

    name: str
    """Its key in ``[metrics]`` and the name of its results."""
    paper: str
    reads: str
    """The kind of parse it needs (``tree``, ``deps``, ``links``)."""
    columns: tuple[str, ...]
    prepare: Callable[[Any], Callable[[Parse, Parse], Sequence[float]]]
    """The experiment's settings -> the statistics of one (clean, noisy) pair."""
    figures: Callable[[npt.NDArray[np.float64]], dict[str, Any]]
    """The figures of a level from its summed statistics (None where not defined)."""
    intervals: tuple[tuple[str, str], ...]
    """(figure, the REGISTRY metric whose score is that figure): its 95% interval."""
    signature: Callable[[Any, str], dict[str, Any]]
    """The experiment and a level's label -> the settings a result's signature shows."""


"""What long work reports its progress to: the command's bars, a notebook's own, or
nothing. The library never prints; it calls ``stage``, ``advance`` and ``note``."""

from __future__ import annotations

from typing import Protocol


class Progress(Protocol):
    def stage(self, name: str, total: int | None) -> None:
        """A new stage of TOTAL steps (None: unknown)."""

    def advance(self, n: int = 1) -> None:
        """N more steps of the current stage done."""

    def note(self, text: str) -> None:
        """A line for the person watching (a stage skipped, a parser restarted)."""


class Quiet:
    """Progress that shows nothing (the API's default)."""

    def stage(self, name: str, total: int | None) -> None:
        pass

    def advance(self, n: int = 1) -> None:
        pass

    def note(self, text: str) -> None:
        pass


def quiet() -> Progress:
    return Quiet()

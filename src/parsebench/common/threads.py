"""Work begun in a thread and waited for later, its error raised in the waiting thread:
compiled kernels that run without the GIL (the bootstrap's sums beside its draws,
EVALB's rows in two halves: two cores at once) and a run's noisy versions made while
the first parser loads. A bare thread: ``concurrent.futures`` imports ``logging``, a
hundredth of ``compare``'s time, for one thread we wait on."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def started(f: Callable[..., T], *args: object) -> Callable[[], T]:
    """F(*ARGS) begun in a thread; the call returned waits for its value or raises its
    error."""
    out: list[T] = []
    failed: list[BaseException] = []

    def run() -> None:
        try:
            out.append(f(*args))
        except BaseException as e:  # handed to the waiting thread as it is
            failed.append(e)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()

    def wait() -> T:
        thread.join()
        if failed:
            raise failed[0]
        return out[0]
    return wait


def cores() -> int:
    """The cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1

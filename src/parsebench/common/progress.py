"""What long work reports its progress to: the command's bars, plain lines for a log
(:class:`Lines`), a notebook's own, or nothing. The library never prints on its own;
it calls ``stage``, ``advance`` and ``note``."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Protocol, TextIO


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


def _clock(seconds: float) -> str:
    s = int(seconds)
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"


def duration(seconds: float) -> str:
    """A time a person reads: 42 s, 6 min 2 s, 1 h 12 min."""
    s = round(seconds)
    if seconds < 10:
        return f"{seconds:.1f} s"
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60} s" if s % 60 else f"{s // 60} min"
    return f"{s // 3600} h {s // 60 % 60} min"


def _rate(n: float, seconds: float) -> str:
    r = n / seconds if seconds > 0 else 0.0
    return f"{r:.1f}/s" if r < 10 else f"{r:,.0f}/s"


class Lines:
    """Progress as plain lines on STREAM, for a log, a CI job or a cluster's output file
    where bars are not drawn: once a stage has run FIRST seconds, a line saying what it
    is and how much it has to do, then one every INTERVAL seconds (how far, the rate,
    the time left) and one when it ends, each after the time since the start. Work done
    within FIRST seconds prints nothing (a quick command stays quiet, and its error
    stays one line). A stage has one count, the TOTAL it was given, from its first line
    to its last (the first says "started, TOTAL to do" even when it is written once
    some are done), and one clock, from its ``stage`` call to the next stage's (or the
    end). With TICK (seconds), a thread writes the lines
    on time while the work is between steps (a model loading, a report being drawn),
    so that a working run is told from a hung one."""

    def __init__(self, stream: TextIO, interval: float = 10.0, first: float = 2.0,
                 clock: Callable[[], float] = time.monotonic, tick: float = 0.0) -> None:
        self.stream, self.interval, self.first, self.clock = stream, interval, first, clock
        self.t0 = clock()
        self.name: str | None = None
        self.total: int | None = None
        self.done = 0
        self.shown = False
        self.start = self.last = self.t0
        self.lock = threading.RLock()
        self.stop = threading.Event()
        self.ticker: threading.Thread | None = None
        if tick > 0:
            self.ticker = threading.Thread(target=self._ticks, args=(tick,), daemon=True)
            self.ticker.start()

    def _ticks(self, tick: float) -> None:
        while not self.stop.wait(tick):
            with self.lock:
                self._due()

    def __enter__(self) -> Lines:
        return self

    def __exit__(self, kind: object, *exc: object) -> None:
        self.stop.set()
        if self.ticker is not None:
            self.ticker.join()
        if kind is None:  # (an error ends the work: no stage "done")
            self.close()

    def _write(self, text: str) -> None:
        self.stream.write(f"[{_clock(self.clock() - self.t0)}] {text}\n")
        self.stream.flush()

    def stage(self, name: str, total: int | None) -> None:
        with self.lock:
            self.close()
            self.name, self.total, self.done, self.shown = name, total, 0, False
            self.start = self.last = self.clock()
            if self.first <= 0:
                self._show()

    def _show(self) -> None:
        """The stage's first line, once it has run long enough to be worth one."""
        if not self.shown and self.name is not None and self.total != 0:
            self.shown = True
            self.last = self.clock()
            todo = "" if self.total is None or self.total == 1 else \
                f", {self.total:,} to do"
            self._write(f"{self.name}: started{todo}")

    def advance(self, n: int = 1) -> None:
        with self.lock:
            self.done += n
            self._due()

    def _due(self) -> None:
        """The line that is due now, if any."""
        if self.name is None:
            return
        now = self.clock()
        if not self.shown:
            if now - self.start >= self.first:
                self._show()
        elif now - self.last >= self.interval and self.done != self.total:
            self.last = now  # (a finished stage says so when it ends)
            self._write(f"{self.name}: {self._far(now)}")

    def _far(self, now: float) -> str:
        spent = now - self.start
        if self.total == 1 or (self.total is None and not self.done):
            # one step, or steps no one counts (a trainer's own run): the time so far,
            # not "0 done, 0.0/s"
            return f"{duration(spent)} so far"
        if self.total is None:
            return f"{self.done:,} done, {_rate(self.done, spent)}"
        pct = 100 * self.done / self.total if self.total else 100.0
        left = spent * (self.total - self.done) / self.done if self.done else None
        return (f"{self.done:,}/{self.total:,} ({pct:.0f}%), {_rate(self.done, spent)}"
                + (f", about {duration(left)} left" if left is not None else ""))

    def note(self, text: str) -> None:
        with self.lock:
            if self.name is not None and self.clock() - self.start >= self.first:
                self._show()
            self._write(text)

    def close(self) -> None:
        """The current stage's last line (its count, time and rate), if it was long."""
        with self.lock:
            if self.name is not None and self.total != 0:
                spent = self.clock() - self.start
                if self.shown or spent >= self.first:
                    if self.total == 1 or (self.total is None and not self.done):
                        # one step, or none counted: no count, no rate
                        self._write(f"{self.name}: done in {duration(spent)}")
                    else:
                        count = f"{self.done:,}" if self.total is None else \
                            f"{self.done:,}/{self.total:,}"
                        rate = f" ({_rate(self.done, spent)})" if self.done else ""
                        self._write(f"{self.name}: {count} done in {duration(spent)}{rate}")
            self.name = None

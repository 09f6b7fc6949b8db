"""Long-lived worker processes that run an adapter, with a hard per-sentence timeout.

Why by hand: the parsers are C libraries and external programs that can hang
or crash the interpreter, so each worker is a fresh ``python -m`` process of
its own (in its own session, so a parser's child processes die with it; no
fork of a threaded parent, no re-import of the caller's main module), and the parent
watches a deadline per sentence. concurrent.futures cannot kill a hung task,
and a crashed worker breaks a whole ProcessPoolExecutor. A timeout or crash
costs the sentence being parsed: it is recorded as a failure, the worker is
restarted, and the rest of its batch goes on. An adapter that answers a batch
at once (``streaming = False``) gets the timeout times the batch size; if that
passes, or the worker dies, the batch is retried sentence by sentence so the
culprit is found.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any

from parsebench.common.errors import InputError
from parsebench.parsers.base import Adapter, Failure, Item, Timed, make_adapter

LOAD_TIMEOUT = 900.0
"""Seconds a worker may take to load its model (or train, for TnT)."""


def _worker(spec: str, timeout: float, tokenize: bool, conn: _Duplex) -> None:
    try:
        adapter = make_adapter(spec)
        adapter.timeout = timeout
    except InputError as exc:
        conn.send(("fatal", exc.message, exc.path, exc.line))
        return
    except Exception as exc:  # a parser's own start-up failure, reported, not raised
        conn.send(("fatal", f"parser {spec!r} failed to start: {type(exc).__name__}: {exc}",
                   None, None))
        return
    conn.send(("ready", adapter.identity(), adapter.kind, adapter.streaming))
    while True:
        try:
            items = conn.recv()
        except EOFError:  # the parent is gone (killed, or a Dask worker shut down)
            return
        if items is None:
            return
        todo = list(items)
        while todo:
            t0 = time.perf_counter()
            done: list[tuple[int, Any, float]] = []
            try:
                for outcome in adapter.parse(todo, tokenize):
                    t1 = time.perf_counter()
                    done.append((todo[len(done)].index, outcome, t1 - t0))
                    t0 = t1
                    if adapter.streaming:
                        conn.send(("result", *done[-1]))
                        if adapter.needs_reload():
                            _reload(adapter, conn)
                            t0 = time.perf_counter()
                failed = None
            except InputError as exc:
                conn.send(("fatal", exc.message, exc.path, exc.line))
                return
            except Exception as exc:  # the parser failed on this sentence: go on
                failed = (todo[len(done)].index,
                          Failure(f"error: {type(exc).__name__}: {exc}"[:300]),
                          time.perf_counter() - t0)
            if not adapter.streaming:
                # a batch answered at once: share its time out by sentence length
                total = sum(d[2] for d in done)
                words = sum(len(it.words) for it in todo[:len(done)]) or 1
                for it, (index, outcome, _) in zip(todo, done, strict=False):
                    conn.send(("result", index, outcome, total * len(it.words) / words))
            if failed is not None:
                conn.send(("result", *failed))
                todo = todo[len(done) + 1:]
            else:
                todo = []
            if adapter.needs_reload():
                _reload(adapter, conn)


def _reload(adapter: Adapter, conn: _Duplex) -> None:
    """Start the adapter's dead part again between sentences, telling the pool, which
    gives it the load timeout rather than the next sentence's."""
    conn.send(("loading",))
    adapter.reload()
    conn.send(("loaded",))


SCRATCH = "PARSEBENCH_WORKER_SCRATCH"
"""The environment variable that names a worker's temporary folder, made by its pool."""


def _remove_scratch() -> None:
    """The worker's temporary folder removed, as its pool removes it: here for a
    worker whose pool is gone (a killed ``parsebench``, a Dask worker shut down)."""
    folder = os.environ.get(SCRATCH)
    if folder:
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    """Worker entry point: ``python -m parsebench.parsers.pool SPEC TIMEOUT TOKENIZE``.

    The protocol runs over the original standard input and output; file
    descriptor 1 is pointed at standard error first, so that a parser library
    printing to stdout cannot corrupt it.
    """
    _watch_parent()
    proto_out = os.dup(1)
    os.dup2(2, 1)
    conn = Connection(os.dup(0), readable=True, writable=False)
    out = Connection(proto_out, readable=False, writable=True)
    try:
        _worker(sys.argv[1], float(sys.argv[2]), sys.argv[3] == "1", _Duplex(conn, out))
    finally:  # also when the pool is gone mid-answer (a broken pipe)
        # as multiprocessing ends its children: the exit handlers (temporary folders...)
        # run, the interpreter's teardown of the parser's objects does not (spaCy's took
        # 0.4-0.9 s a worker, which the run waited for)
        atexit._run_exitfuncs()
        _remove_scratch()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


def _watch_parent() -> None:
    """Kill this worker's process group (itself, a ``command:`` parser and what that
    started) as soon as the parent is gone, even while a parser hangs: a killed
    ``parsebench`` leaves no orphans. A thread, since the main thread may be stuck
    inside a parser's C code."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.2)
        _remove_scratch()
        os.killpg(os.getpgid(0), signal.SIGKILL)

    threading.Thread(target=watch, daemon=True, name="parent-watch").start()


def worker_path() -> list[str]:
    """The import path a worker gets: this process's, without the current folder.

    ``python -m`` (and ``-c``) put the folder the user is in first on the path, so a
    ``contextlib.py`` or ``ufal.py`` lying there would run inside every worker. The
    worker starts with ``-P``, and the folder is left out here unless the user put it
    in PYTHONPATH.
    """
    user = {os.path.abspath(p) for p in os.environ.get("PYTHONPATH", "").split(os.pathsep)
            if p}
    cwd = os.getcwd()
    return [p for p in sys.path
            if p and (os.path.abspath(p) != cwd or os.path.abspath(p) in user)]


class _Duplex:
    """Two one-way connections (stdin, stdout) used as one."""

    def __init__(self, rd: Connection, wr: Connection) -> None:
        self.rd, self.wr = rd, wr

    def send(self, obj: object) -> None:
        self.wr.send(obj)

    def recv(self) -> Any:
        return self.rd.recv()


@dataclass
class _Worker:
    proc: subprocess.Popen[bytes]
    conn: Connection
    out: Connection
    scratch: str
    """The worker's temporary folder (its TMPDIR): removed by the pool when the worker
    ends, killed or not, so a parser killed mid-sentence leaves nothing in /tmp."""
    pending: list[Item] = field(default_factory=list)
    deadline: float = 0.0


def check_options(workers: int, timeout: float, batch_size: int) -> None:
    """A NaN or infinite timeout would let a hung parser run for ever (NaN compares false
    with every deadline): refuse it, and counts below 1, before a worker starts."""
    from parsebench.common.limits import check

    check("timeout", timeout)
    check("workers", workers)
    check("batch_size", batch_size)


class Pool:
    """N workers of one parser SPEC; ``parse`` returns one timed outcome per item, in order."""

    def __init__(self, spec: str, workers: int = 1, timeout: float = 60.0,
                 batch_size: int = 16, tokenize: bool = False) -> None:
        check_options(workers, timeout, batch_size)
        self.spec, self.timeout, self.batch_size, self.tokenize = spec, timeout, batch_size, \
            tokenize
        self.workers: list[_Worker] = []
        self.identity: dict[str, str] = {}
        self.kind = "deps"
        self.streaming = True
        self.restarts = 0
        # all workers load their model at once; then each is waited for
        spawned = [self._spawn() for _ in range(workers)]
        try:
            for one in spawned:
                self.workers.append(self._ready(*one))
        except BaseException:
            for proc, _, _, scratch in spawned:
                self._kill(proc, scratch)
            raise

    def _spawn(self) -> tuple[subprocess.Popen[bytes], Connection, Connection, str]:
        scratch = tempfile.mkdtemp(prefix="parsebench-worker-")
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(worker_path()), TMPDIR=scratch,
                   **{SCRATCH: scratch})
        try:
            proc = subprocess.Popen(
                [sys.executable, "-P", "-m", "parsebench.parsers.pool", self.spec,
                 str(self.timeout), "1" if self.tokenize else "0"],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env,
                start_new_session=True)
        except BaseException:
            shutil.rmtree(scratch, ignore_errors=True)
            raise
        assert proc.stdin is not None and proc.stdout is not None
        conn = Connection(os.dup(proc.stdout.fileno()), readable=True, writable=False)
        out = Connection(os.dup(proc.stdin.fileno()), readable=False, writable=True)
        proc.stdin.close()
        proc.stdout.close()
        return proc, conn, out, scratch

    def _start(self) -> _Worker:
        return self._ready(*self._spawn())

    def _ready(self, proc: subprocess.Popen[bytes], conn: Connection, out: Connection,
               scratch: str) -> _Worker:
        if not conn.poll(LOAD_TIMEOUT):
            self._kill(proc, scratch)
            raise InputError(f"parser {self.spec!r} did not start within {LOAD_TIMEOUT:.0f} s")
        try:
            msg = conn.recv()
        except EOFError:
            proc.wait(5)
            shutil.rmtree(scratch, ignore_errors=True)
            raise InputError(f"parser {self.spec!r} crashed while starting (exit code "
                             f"{proc.returncode})") from None
        if msg[0] == "fatal":
            self._kill(proc, scratch)
            raise InputError(msg[1], msg[2], msg[3])
        _, self.identity, self.kind, self.streaming = msg
        return _Worker(proc, conn, out, scratch)

    @staticmethod
    def _kill(proc: subprocess.Popen[bytes], scratch: str) -> None:
        """The worker PROC and its children gone, then its folder SCRATCH."""
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            proc.kill()
        proc.wait(5)
        shutil.rmtree(scratch, ignore_errors=True)

    def _restart(self, w: _Worker) -> None:
        self._kill(w.proc, w.scratch)
        w.conn.close()
        w.out.close()
        fresh = self._start()
        w.proc, w.conn, w.out, w.scratch = fresh.proc, fresh.conn, fresh.out, fresh.scratch
        self.restarts += 1

    def _send(self, w: _Worker, batch: list[Item]) -> None:
        w.pending = list(batch)
        w.out.send(batch)
        self._arm(w)

    def _arm(self, w: _Worker) -> None:
        n = 1 if self.streaming else len(w.pending)
        w.deadline = time.monotonic() + self.timeout * n

    def parse(self, items: Sequence[Item],
              progress: Callable[[Timed], None] | None = None) -> list[Timed]:
        queue: deque[list[Item]] = deque(
            list(items[k:k + self.batch_size]) for k in range(0, len(items), self.batch_size))
        results: dict[int, Timed] = {}

        def record(t: Timed) -> None:
            results[t.index] = t
            if progress is not None:
                progress(t)

        while queue or any(w.pending for w in self.workers):
            for w in self.workers:
                if not w.pending and queue:
                    self._send(w, queue.popleft())
            busy = [w for w in self.workers if w.pending]
            now = time.monotonic()
            ready = wait([w.conn for w in busy],
                         timeout=max(0.0, min(w.deadline for w in busy) - now))
            for w in busy:
                if w.conn in ready:
                    try:
                        msg = w.conn.recv()
                    except EOFError:
                        code = w.proc.wait(5)
                        pending = w.pending
                        w.pending = []
                        self._restart(w)
                        if len(pending) == 1 or self.streaming:
                            record(Timed(pending[0].index,
                                         Failure(f"crash (exit code {code})"), 0.0))
                            if pending[1:]:
                                queue.appendleft(pending[1:])
                        else:  # a batch answered at once: which sentence? one at a time
                            queue.extendleft([it] for it in reversed(pending))
                        continue
                    if msg[0] == "fatal":
                        self.close()
                        raise InputError(msg[1], msg[2], msg[3])
                    if msg[0] == "loading":  # restarting its parser: the load timeout
                        w.deadline = time.monotonic() + LOAD_TIMEOUT
                        continue
                    if msg[0] == "loaded":
                        if w.pending:
                            self._arm(w)
                        continue
                    _, index, outcome, seconds = msg
                    record(Timed(index, outcome, seconds))
                    w.pending = [it for it in w.pending if it.index != index]
                    if w.pending:
                        self._arm(w)
                elif time.monotonic() >= w.deadline:
                    pending = w.pending
                    w.pending = []
                    self._restart(w)
                    if len(pending) == 1 or self.streaming:
                        record(Timed(pending[0].index,
                                     Failure(f"timeout after {self.timeout:g} s"),
                                     self.timeout))
                        pending = pending[1:]
                        if pending:
                            queue.appendleft(pending)
                    else:
                        queue.extendleft([it] for it in reversed(pending))
        return [results[it.index] for it in items]

    def close(self) -> None:
        for w in self.workers:
            with contextlib.suppress(BrokenPipeError, OSError):
                w.out.send(None)
        for w in self.workers:
            try:
                w.proc.wait(2)
            except subprocess.TimeoutExpired:
                self._kill(w.proc, w.scratch)
            shutil.rmtree(w.scratch, ignore_errors=True)
            w.conn.close()
            w.out.close()
        self.workers = []

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


if __name__ == "__main__":
    main()

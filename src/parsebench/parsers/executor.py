"""Where parsing runs: local worker processes, or Dask distributed.

One interface for both: open a session for a parser, learn its identity and
kind, then hand it sentences and get each result back through a callback as
soon as it is done (so the caller can store it at once). Local sessions are a
:class:`~parsebench.parsers.pool.Pool` of N processes. Dask sessions submit
chunks of sentences as tasks; on every Dask worker one pool process runs the
parser, started on first use and kept for the worker's life, so the hang and
crash isolation is the same as locally and a model loads once per worker.
"""

from __future__ import annotations

import contextlib
import importlib.util
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from parsebench.common.errors import InputError
from parsebench.parsers.base import Item, Timed
from parsebench.parsers.pool import Pool

EXECUTORS = ("local", "dask")


class Session:
    identity: dict[str, str]
    kind: str

    def parse(self, items: Sequence[Item], on_result: Callable[[Timed], None]) -> None:
        raise NotImplementedError


class _LocalSession(Session):
    def __init__(self, pool: Pool) -> None:
        self.pool = pool
        self.identity, self.kind = pool.identity, pool.kind

    def parse(self, items: Sequence[Item], on_result: Callable[[Timed], None]) -> None:
        self.pool.parse(items, on_result)


_POOLS: dict[tuple[str, float, int, bool], Pool] = {}


def _worker_pool(spec: str, timeout: float, batch_size: int, tokenize: bool) -> Pool:
    key = (spec, timeout, batch_size, tokenize)
    if key not in _POOLS:
        _POOLS[key] = Pool(spec, 1, timeout, batch_size, tokenize)
    return _POOLS[key]


def _dask_identity(spec: str, timeout: float, batch_size: int, tokenize: bool
                   ) -> tuple[dict[str, str], str]:
    pool = _worker_pool(spec, timeout, batch_size, tokenize)
    return pool.identity, pool.kind


def _dask_parse(spec: str, timeout: float, batch_size: int, tokenize: bool,
                items: list[Item]) -> list[Timed]:
    return _worker_pool(spec, timeout, batch_size, tokenize).parse(items)


class _DaskSession(Session):
    def __init__(self, client: Any, spec: str, timeout: float, batch_size: int,
                 tokenize: bool) -> None:
        self.client, self.args = client, (spec, timeout, batch_size, tokenize)
        self.identity, self.kind = client.submit(_dask_identity, *self.args,
                                                 pure=False).result()
        self.chunk = max(1, batch_size * 2)

    def parse(self, items: Sequence[Item], on_result: Callable[[Timed], None]) -> None:
        from distributed import as_completed

        futures = [self.client.submit(_dask_parse, *self.args, list(items[k:k + self.chunk]),
                                      pure=False)
                   for k in range(0, len(items), self.chunk)]
        for fut in as_completed(futures):
            for t in fut.result():
                on_result(t)


class Executor:
    """``local`` (N processes here) or ``dask`` (a scheduler ADDRESS, or a LocalCluster)."""

    def __init__(self, kind: str = "local", workers: int = 1,
                 scheduler: str | None = None) -> None:
        if kind not in EXECUTORS:
            raise InputError(f"--executor {kind}: expected one of " + ", ".join(EXECUTORS))
        if workers < 1:
            raise InputError(f"--workers {workers}: must be 1 or more")
        if scheduler and kind != "dask":
            raise InputError("--scheduler needs --executor dask")
        if kind == "dask" and importlib.util.find_spec("distributed") is None:
            raise InputError("--executor dask needs Dask distributed: pip install "
                             "'parsebench[dask]'")
        if kind == "dask" and not scheduler:  # refused before the run, not at its cluster
            shadows = shadowing_modules(Path.cwd())
            if shadows:
                raise InputError(
                    f"--executor dask: this folder has {', '.join(shadows[:5])}, which "
                    "Dask's worker processes would import in place of Python's own "
                    "modules; run from another folder (local workers are not affected)")
        self.kind, self.workers, self.scheduler = kind, workers, scheduler
        self._stack = contextlib.ExitStack()
        self.client: Any = None
        self._depth = 0
        self._pools: dict[tuple[str, float, int, bool], Pool] = {}

    def __enter__(self) -> Executor:
        """Entered again within itself (a benchmark's runs, one a corpus), it keeps its
        cluster and connection, and its local workers with their models loaded, until
        the outermost ``with`` ends: a parser's model loads once a benchmark, not once a
        corpus (the benchmark holds every parser's workers meanwhile; a single run
        starts and ends each parser's in turn, holding one at a time)."""
        self._depth += 1
        return self

    def _connect(self) -> None:
        """Dask: connect (or start a local cluster) when the first parser has work, so
        that a run whose parses are all cached starts nothing."""
        if self.kind == "dask" and self.client is None:
            try:
                from distributed import Client, LocalCluster
            except ImportError:
                raise InputError("--executor dask needs Dask distributed: pip install "
                                 "'parsebench[dask]'") from None
            if self.scheduler:
                try:
                    self.client = self._stack.enter_context(Client(self.scheduler, timeout=30))
                except OSError as exc:
                    raise InputError(f"--scheduler {self.scheduler}: cannot connect "
                                     f"({exc})") from None
            else:
                cluster = self._stack.enter_context(LocalCluster(
                    n_workers=self.workers, threads_per_worker=1, processes=True,
                    dashboard_address=None))
                self.client = self._stack.enter_context(Client(cluster))

    def __exit__(self, *exc: object) -> None:
        self._depth -= 1
        if self._depth <= 0:
            self._depth = 0
            self._stack.close()
            self.client = None
            self._pools.clear()

    @contextlib.contextmanager
    def session(self, spec: str, timeout: float = 60.0, batch_size: int = 16,
                tokenize: bool = False) -> Iterator[Session]:
        """Workers of SPEC; with TOKENIZE, each item's text is what it parses (the parser
        tokenizes it itself)."""
        self._connect()
        if self.client is not None:
            yield _DaskSession(self.client, spec, timeout, batch_size, tokenize)
            return
        if self._depth < 2:  # not within a benchmark: the workers end with the session
            with Pool(spec, self.workers, timeout, batch_size, tokenize) as pool:
                yield _LocalSession(pool)
            return
        key = (spec, timeout, batch_size, tokenize)
        if key not in self._pools:
            self._pools[key] = self._stack.enter_context(
                Pool(spec, self.workers, timeout, batch_size, tokenize))
        yield _LocalSession(self._pools[key])


def shadowing_modules(folder: Path) -> list[str]:
    """Files and packages of FOLDER named as a module of Python's standard library: Dask's
    worker processes put the folder they start in first on their import path (the
    local workers do not), so a re.py there would run in them in place of ``re``."""
    import sys

    found = []
    try:
        entries = sorted(folder.iterdir())
    except OSError:
        return []
    for p in entries:
        name = p.stem if p.suffix == ".py" else p.name if (p / "__init__.py").is_file() \
            else None
        if name is not None and name in sys.stdlib_module_names:
            found.append(p.name)
    return found

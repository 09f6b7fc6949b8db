"""A grid that survives a cluster (issue 61 item 3): a Dask worker killed in the middle
of a benchmark costs nothing but time. Its parsing tasks go to the workers left (and to
the one its nanny starts again), and the benchmark ends with the results of a run that
lost no worker."""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES

import parsebench as pb


def _comparable(path: Path) -> Any:
    """results.json without what a run's machine and clock decide."""
    def strip(x: Any) -> Any:
        if isinstance(x, dict):
            return {k: strip(v) for k, v in x.items() if k not in (
                "run", "started", "finished", "stats", "wall_seconds", "parse_seconds",
                "words_per_second", "seconds_by_length", "executor", "earlier", "store")}
        if isinstance(x, list):
            return [strip(v) for v in x if not (isinstance(v, dict) and
                                                v.get("metric") == "speed")]
        return x
    return strip(json.loads(path.read_text(encoding="utf-8")))


def test_a_killed_worker_costs_time_not_results(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    distributed = pytest.importorskip("distributed")
    monkeypatch.syspath_prepend(str(FIXTURES))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        [str(FIXTURES), os.environ.get("PYTHONPATH", "")]))  # the workers find the toy
    toml = tmp_path / "bench.toml"
    corpora = "".join(f'[[corpora]]\nname = "c{k}"\nlang = "en"\n'
                      f'path = "{FIXTURES / "learner.conllu"}"\n' for k in range(3))
    toml.write_text(f'name = "bench"\n{corpora}[noise]\nrates = [0.2, 0.4]\n'
                    f'lexicon = "{FIXTURES / "lexicon.txt"}"\n[[parsers]]\nname = "slow"\n'
                    'spec = "python:toy_parsers:Slow"\nbatch_size = 4\n'
                    '[metrics]\ndeps = true\n', encoding="utf-8")
    pb.run(toml, store=tmp_path / "local.sqlite", report=tmp_path / "local")
    with distributed.LocalCluster(processes=True, n_workers=2, threads_per_worker=1,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        pids = list(client.run(os.getpid).values())
        killed: list[int] = []

        def kill_one() -> None:  # once the parsing is under way
            time.sleep(1.0)
            os.kill(pids[0], signal.SIGKILL)
            killed.append(pids[0])

        threading.Thread(target=kill_one, daemon=True).start()
        t = time.perf_counter()
        r = pb.run(toml, store=tmp_path / "dask.sqlite", report=tmp_path / "dask",
                   executor="dask", scheduler=cluster.scheduler_address)
        took = time.perf_counter() - t
    assert killed and took > 1.5, "the worker was killed after the run ended"
    assert r.parsed > 0
    assert _comparable(tmp_path / "dask" / "results.json") == \
        _comparable(tmp_path / "local" / "results.json")

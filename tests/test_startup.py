"""``parsebench --help`` imports what every command needs and nothing more: no metric,
no NumPy (start-up is measured in benchmarks/bench_speed.py; here modules are counted)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from parsebench import cli, parses
from parsebench.metrics import lin

SRC = Path(__file__).resolve().parent.parent / "src"


def imported(*args: str) -> set[str]:
    env = dict(os.environ, PYTHONPATH=str(SRC))
    p = subprocess.run([sys.executable, "-X", "importtime", "-m", "parsebench.cli", *args],
                       capture_output=True, text=True, env=env, check=True)
    return {line.split("|")[-1].strip() for line in p.stderr.splitlines()
            if line.startswith("import time:") and "|" in line}


def test_help_imports_no_metric_and_no_numpy() -> None:
    mods = imported("--help")
    assert "parsebench.errors" in mods  # (the cli itself runs as __main__)
    assert not {m for m in mods if m.startswith(("numpy", "parsebench.metrics",
                                                 "parsebench.parses", "parsebench.run.runner",
                                                 "parsebench.store"))}


def test_the_help_names_the_fields_the_code_has() -> None:
    assert cli.BY_FIELDS == lin.BY_FIELDS
    assert cli.PROJECTIONS == parses.PROJECTIONS

"""``parsebench --help`` imports what every command needs and nothing more: no metric,
no NumPy (start-up is measured in benchmarks/bench_speed.py; here modules are counted)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import FIXTURES, ROOT

from parsebench import cli
from parsebench.metrics.dependency import lin_scorer as lin
from parsebench.model import parses

SRC = ROOT / "src"


def imported(*args: str) -> set[str]:
    env = dict(os.environ, PYTHONPATH=str(SRC))
    p = subprocess.run([sys.executable, "-X", "importtime", "-m", "parsebench.cli", *args],
                       capture_output=True, text=True, env=env, check=True)
    return {line.split("|")[-1].strip() for line in p.stderr.splitlines()
            if line.startswith("import time:") and "|" in line}


def test_help_imports_no_metric_and_no_numpy() -> None:
    mods = imported("--help")
    assert "parsebench.common.errors" in mods  # (the cli itself runs as __main__)
    assert not {m for m in mods if m.startswith(("numpy", "parsebench.metrics",
                                                 "parsebench.model.parses", "parsebench.run.runner",
                                                 "parsebench.store"))}


def test_the_help_names_the_fields_the_code_has() -> None:
    assert cli.BY_FIELDS == lin.BY_FIELDS
    assert cli.PROJECTIONS == parses.PROJECTIONS


def _front_door(args: list[str], columns: str, imports: bool = False
                ) -> subprocess.CompletedProcess[str]:
    """The console script as installed (parsebench.console:main) with ARGS."""
    code = ("import sys; from parsebench.console import main; sys.argv[1:] = "
            f"{args!r}; main()" + ("; print(sorted(sys.modules))" if imports else ""))
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=dict(os.environ, COLUMNS=columns))


def test_the_quick_help_is_the_command_lines_own() -> None:
    """``parsebench --help`` is answered without typer from the text the command line
    writes at 80 columns (click wraps at 80 on any wider terminal); a narrower one, and
    anything else, goes to the command line."""
    full = subprocess.run([sys.executable, "-m", "parsebench.cli", "--help"],
                          capture_output=True, text=True, env=dict(os.environ, COLUMNS="120"))
    quick = _front_door(["--help"], "120", imports=True)
    assert quick.stdout.startswith(full.stdout), \
        "the help changed: run parsebench.console.write_help_text()"
    assert "typer" not in quick.stdout[len(full.stdout):]
    narrow = subprocess.run([sys.executable, "-m", "parsebench.cli", "--help"],
                            capture_output=True, text=True, env=dict(os.environ, COLUMNS="60"))
    assert _front_door(["--help"], "60").stdout == narrow.stdout != full.stdout
    assert _front_door(["eval", "--help"], "120").stdout.startswith("Usage: parsebench eval")


def test_a_profiled_command_keeps_the_teardown_its_profiler_writes_in(tmp_path: Path) -> None:
    """The console script ends without the interpreter's teardown (60-100 ms of a cached
    re-run), but not under a profiler or coverage, which write their data then; its
    output is flushed either way."""
    env = dict(os.environ, PYTHONPATH=str(SRC))
    conllu = FIXTURES / "typos.conllu"
    out = tmp_path / "profile.out"
    for pre in ([], ["-m", "cProfile", "-o", str(out)]):
        p = subprocess.run([sys.executable, *pre, "-m", "parsebench.cli", "eval", "deps",
                            str(conllu), str(conllu)], capture_output=True, text=True,
                           env=env)
        assert p.returncode == 0 and "LAS" in p.stdout, p.stderr
    assert out.stat().st_size > 0

"""udtools' ``udeval`` (GPL) as an external program for the tests: where it is, and its
tables read back. It is never imported: it runs in its own virtualenv (``make test``
makes ``.venv-ref`` beside ``.venv``), or from UDEVAL, or from PATH."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
METRICS = ("Tokens", "Sentences", "Words", "UPOS", "XPOS", "UFeats", "AllTags", "Lemmas",
           "UAS", "LAS", "CLAS", "MLAS", "BLEX", "ELAS", "EULAS")


def udeval() -> str:
    """The udeval program; skips the test where it is absent (fails in CI, which
    installs it)."""
    for cand in (os.environ.get("UDEVAL"), str(ROOT / ".venv-ref" / "bin" / "udeval"),
                 shutil.which("udeval")):
        if cand and Path(cand).exists():
            return cand
    msg = "needs udtools' udeval (make test installs it into .venv-ref; or set UDEVAL)"
    if os.environ.get("CI") == "true":
        pytest.fail(msg)
    pytest.skip(msg)


def udvalidate(required: bool = True) -> str | None:
    """The udvalidate program (UDVALIDATE, beside udeval, or on PATH); where it is
    absent: None, or a skip (a failure in CI) where REQUIRED."""
    cands = [os.environ.get("UDVALIDATE"), shutil.which("udvalidate")]
    for ev in (os.environ.get("UDEVAL"), str(ROOT / ".venv-ref" / "bin" / "udeval")):
        if ev:
            cands.insert(1, str(Path(ev).with_name("udvalidate")))
    for cand in cands:
        if cand and Path(cand).exists():
            return cand
    if not required:
        return None
    msg = "needs udtools' udvalidate (make test installs it into .venv-ref; or set UDVALIDATE)"
    if os.environ.get("CI") == "true":
        pytest.fail(msg)
    pytest.skip(msg)


def run(gold: Path, system: Path, *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([udeval(), str(gold), str(system), *options],
                          capture_output=True, text=True, timeout=600, check=False)


def table(gold: Path, system: Path, *options: str) -> dict[str, list[str]]:
    """udeval's table (``-v`` or ``--counts``): each metric's cells as printed."""
    got = run(gold, system, *options)
    assert got.returncode == 0, got.stderr[-2000:]
    out = {}
    for line in got.stdout.splitlines():
        name, _, rest = line.partition("|")
        if name.strip() in METRICS:
            out[name.strip()] = [c.strip() for c in rest.split("|")]
    return out


def error(gold: Path, system: Path, *options: str) -> str:
    """The last line udeval writes when it refuses the files."""
    got = run(gold, system, *options)
    assert got.returncode != 0, got.stdout
    return got.stderr.strip().splitlines()[-1]

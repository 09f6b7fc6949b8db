"""Parser workers: nothing from the user's folder runs in them, nothing outlives
parsebench, and a command that writes without end costs its batch, not the memory."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from conftest import DATA, error_lines, error_text

from parsebench.parsers.base import Failure, Item
from parsebench.parsers.command import Command


def cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "parsebench.cli", *args],
                          capture_output=True, text=True, cwd=cwd)


def test_modules_in_the_current_folder_never_run_in_a_worker(tmp_path: Path) -> None:
    marker = tmp_path / "imported"
    for name in ("contextlib", "ufal", "json"):
        (tmp_path / f"{name}.py").write_text(
            f"open({str(marker)!r}, 'a').write({name!r} + '\\n')\n"
            "raise ImportError('a stray module')\n")
    key = DATA / "lin-key.conllu"
    out = tmp_path / "out.conllu"
    # python -m puts the folder it runs in first on the path of the main process too; the
    # command-line entry point must not hand it on to the workers
    p = subprocess.run([sys.executable, "-P", "-m", "parsebench.cli", "parse", str(key),
                        "-o", str(out), "--parser", f"precomputed:{key}"],
                       capture_output=True, text=True, cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert not marker.exists(), marker.read_text()
    # the console script, as users run it
    script = Path(sys.executable).with_name("parsebench")
    p = subprocess.run([str(script), "parse", str(key), "-o", str(out), "--parser",
                        f"precomputed:{key}"], capture_output=True, text=True, cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert not marker.exists(), marker.read_text()


def _tree(marker: str) -> list[int]:
    """Processes whose command line holds MARKER."""
    found = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                if marker in (d / "cmdline").read_bytes().decode(errors="replace"):
                    found.append(int(d.name))
            except OSError:
                continue
    return found


def test_killing_parsebench_leaves_no_worker_and_no_parser(tmp_path: Path) -> None:
    marker = f"hang-{os.getpid()}-{time.time_ns()}"
    script = tmp_path / "hang.py"
    script.write_text("import subprocess, sys, time\n"
                      f"subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)',"
                      f" {marker!r}])\n"
                      "sys.stdin.read(); time.sleep(600)\n")
    text = tmp_path / "in.txt"
    text.write_text("a b c\n")
    main = subprocess.Popen([sys.executable, "-m", "parsebench.cli", "parse", str(text), "-o",
                             str(tmp_path / "out.conllu"), "--parser",
                             f"command-text:{sys.executable} {script} {marker}"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 30
    while len(_tree(marker)) < 3 and time.time() < deadline:  # worker, parser, its child
        time.sleep(0.1)
    assert len(_tree(marker)) >= 2, "the parser never started"
    main.send_signal(signal.SIGKILL)
    main.wait()
    deadline = time.time() + 5
    while _tree(marker) and time.time() < deadline:
        time.sleep(0.1)
    left = _tree(marker)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, f"{len(left)} processes outlived parsebench"


def test_a_command_writing_without_end_fails_its_batch_in_bounded_memory(
        tmp_path: Path, monkeypatch: object) -> None:
    import parsebench.parsers.command as command

    monkeypatch.setattr(command, "MAX_OUTPUT", 8 * 2**20)  # type: ignore[attr-defined]
    script = tmp_path / "yes.py"
    script.write_text("import sys\nsys.stdin.read()\nwhile True:\n"
                      "    sys.stdout.write('x' * 65536)\n")
    c = Command(f"{sys.executable} {script}")
    t0 = time.perf_counter()
    out = list(c.parse([Item(0, ["a", "b"], "a b")]))
    assert time.perf_counter() - t0 < 20
    assert isinstance(out[0], Failure) and out[0].reason == "output too large (over 8 MB)"


def test_bad_pool_options_are_refused_before_parsing(tmp_path: Path) -> None:
    key = str(DATA / "lin-key.conllu")
    out = tmp_path / "o.conllu"
    for opt, value in (("--batch-size", "0"), ("--batch-size", "-1"), ("--timeout", "nan"),
                       ("--timeout", "inf"), ("--timeout", "0"), ("--timeout", "-3"),
                       ("--workers", "0")):
        p = cli("parse", key, "-o", str(out), "--parser", f"precomputed:{key}", opt, value)
        assert p.returncode == 2, (opt, value, p.stderr)
        assert error_text(p.stderr).startswith(f"parsebench: {opt} ")
        assert len(error_lines(p.stderr)) == 1
        assert not out.exists()


def test_parse_json(tmp_path: Path) -> None:
    key = str(DATA / "lin-key.conllu")
    out = tmp_path / "o.conllu"
    p = cli("parse", key, "-o", str(out), "--parser", f"precomputed:{key}", "--json")
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    assert d["output"] == str(out) and d["sentences"] == 2 and d["failures"] == 0
    assert d["signature"].startswith("method:parse|")

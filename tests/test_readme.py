"""The README is a first screen: short, its links alive, and its commands and Python
lines true (run here on the bundled files in place of the reader's own)."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from conftest import DATA, ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_readme_is_short_and_its_links_lead_somewhere() -> None:
    assert len(README.splitlines()) <= 250
    links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README)
    assert links
    for link in links:
        assert (ROOT / link).exists(), link
    # the two make targets it names exist
    make = (ROOT / "Makefile").read_text(encoding="utf-8")
    for target in ("demo", "test"):
        assert re.search(rf"^{target}:", make, re.M), target


def test_score_your_own_parse_runs_as_written(monkeypatch: pytest.MonkeyPatch) -> None:
    section = README.split("## Score your own parse", 1)[1].split("\n## ", 1)[0]
    files = {"gold.conllu": DATA / "lin-key.conllu", "mine.conllu": DATA / "lin-answer.conllu",
             "theirs.conllu": DATA / "lin-key.conllu"}

    def real(text: str) -> str:
        for name, path in files.items():
            text = text.replace(name, str(path))
        return text

    commands = [line.split("#")[0].split() for line in section.splitlines()
                if line.startswith("    parsebench ")]
    assert len(commands) == 2
    for args in commands:
        p = subprocess.run([sys.executable, "-m", "parsebench.cli",
                            *(real(a) for a in args[1:])], capture_output=True, text=True)
        assert p.returncode == 0, p.stderr
    code = section.split("```python", 1)[1].split("```", 1)[0]
    assert len(code.strip().splitlines()) <= 5
    exec(compile(real(code), "README", "exec"), {})

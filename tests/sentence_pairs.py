"""Clean and noisy parse files of a few sentences, written for the robustness tests:
Kakkonen's and Hashemi & Hwa's (tests/metrics/robustness/)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "parsebench.cli", *args],
                          capture_output=True, text=True)


def sent(forms: list[str], heads: list[int], rels: list[str] | None = None,
         failed: bool = False) -> str:
    rels = rels or ["dep"] * len(forms)
    head = "# parse_status = failed\n# parse_error = timeout\n" if failed else ""
    return head + "".join(
        f"{i + 1}\t{f}\t_\tX\t_\t_\t{'_' if failed else h}\t{'_' if failed else r}\t_\t_\n"
        for i, (f, h, r) in enumerate(zip(forms, heads, rels, strict=True))) + "\n"


CLEAN = (["the", "cat", "sat", "on", "mats"], [2, 3, 0, 5, 3],
         ["det", "nsubj", "root", "case", "obl"])


def pair(errors: int, outcome: str) -> tuple[str, str]:
    """A clean/noisy pair with ERRORS misspelled words and the given outcome."""
    forms, heads, rels = CLEAN
    noisy = [f + "x" if i < errors else f for i, f in enumerate(forms)]
    if outcome == "labeled":
        return sent(forms, heads, rels), sent(noisy, heads, rels)
    if outcome == "unlabeled":
        return sent(forms, heads, rels), sent(noisy, heads, ["dep"] * 5)
    if outcome == "failed":
        return sent(forms, heads, rels), sent(noisy, heads, rels, failed=True)
    return sent(forms, heads, rels), sent(noisy, [0, 1, 2, 3, 4], rels)


def build(tmp: Path, spec: list[tuple[int, str, int]]) -> tuple[Path, Path]:
    c, n = [], []
    for errors, outcome, count in spec:
        for _ in range(count):
            a, b = pair(errors, outcome)
            c.append(a)
            n.append(b)
    pc, pn = tmp / "clean.conllu", tmp / "noisy.conllu"
    pc.write_text("".join(c))
    pn.write_text("".join(n))
    return pc, pn

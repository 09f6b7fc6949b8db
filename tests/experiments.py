"""Experiment files and parse files the tests write: a TOML experiment, a gold key,
Bigert's rows."""

from __future__ import annotations

from pathlib import Path

from conftest import DATA, FIXTURES

from parsebench.formats.conllu import read_conllu, write_conllu


def write_exp(tmp: Path, body: str, name: str = "exp") -> Path:
    p = tmp / f"{name}.toml"
    p.write_text(f'name = "{name}"\n' + body, encoding="utf-8")
    return p


def gold_file(tmp: Path, times: int = 2) -> Path:
    path = tmp / "gold.conllu"
    with path.open("w", encoding="utf-8") as fh:
        write_conllu((read_conllu(DATA / "lin-key.conllu")
                      + read_conllu(FIXTURES / "typos.conllu")) * times, fh)
    return path


PATTERN = {"aaa": "AAA", "aab": "AAB", "aba": "ABA", "abb": "ABB", "abc": "ABC"}


def write_rows(tmp: Path, counts: dict[str, int], per_sentence: int = 0) -> tuple[Path, ...]:
    """m, 0, n row files whose rows fall into the five cases with the given counts."""
    cols: list[list[str]] = [[], [], []]
    k = 0
    for case, n in counts.items():
        for _ in range(n):
            for f in range(3):
                cols[f].append(f"w{k}\t{PATTERN[case][f]}{k % 7}")
                if per_sentence and (k + 1) % per_sentence == 0:
                    cols[f].append("")
            k += 1
    paths = []
    for name, lines in zip("m0n", cols, strict=True):
        p = tmp / f"{name}.rows"
        p.write_text("\n".join(lines) + "\n")
        paths.append(p)
    return tuple(paths)

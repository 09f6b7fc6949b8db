"""The command line: JSON contract, one-line errors with exit status 2, no half-written output."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from conftest import DATA


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "parsebench.cli", *args],
                          capture_output=True, text=True)


def test_eval_deps_json_contract() -> None:
    p = cli("eval", "deps", str(DATA / "lin-key.conllu"), str(DATA / "lin-answer.conllu"),
            "--json", "--by", "deprel")
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    for k in ("uas", "las", "clas"):
        assert set(d[k]) == {"precision", "recall", "f1"}
    for k in ("unlabeled", "labeled"):
        assert {"precision", "recall", "f1", "key", "answer", "matched"} <= set(d[k])
    assert d["unlabeled"]["matched"] == 6 and d["unlabeled"]["key"] == 10
    assert d["signature"].startswith("method:lin-deps|") and "version:" in d["signature"]
    assert "subj" in d["by"]


def test_eval_flat_json_contract() -> None:
    gold = str(DATA / "demo-gold.mrg")
    p = cli("eval", "flat", gold, gold, "--json")
    d = json.loads(p.stdout)
    assert d["recall"] == d["precision"] == d["conformance"] == 1.0
    assert {"key_constituents", "response_constituents", "matched", "violated"} <= set(d)


def test_bad_input_is_one_line_with_file_line_and_status_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.conllu"
    bad.write_text("1\tx\t_\t_\t_\t_\t0\troot\t_\t_\n2\ty\t_\t_\n")
    p = cli("eval", "deps", str(bad), str(bad))
    assert p.returncode == 2
    assert p.stderr.strip() == f"parsebench: {bad}:2: expected 10 tab-separated columns, found 4"
    assert p.stdout == ""
    p = cli("eval", "deps", str(tmp_path / "missing.conllu"), str(bad))
    assert p.returncode == 2 and "no such file" in p.stderr and "Traceback" not in p.stderr
    p = cli("eval", "deps", str(DATA / "lin-key.conllu"), str(DATA / "lin-key.conllu"),
            "--select", "lemma=x")
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1


def test_unbalanced_trees_are_an_error(tmp_path: Path) -> None:
    # a multi-line tree never closed; one tree a line, it would be an EVALB error sentence
    t = tmp_path / "t.mrg"
    t.write_text("(S (A a))\n(S\n  (A a)\n")
    p = cli("eval", "brackets", str(t), str(t))
    assert p.returncode == 2
    assert f"{t}:2: unbalanced brackets" in p.stderr


def test_flatten_writes_nothing_on_bad_rules(tmp_path: Path) -> None:
    rules = tmp_path / "rules.txt"
    rules.write_text("(NP NP^ PP)\n(VP V VP)\n")
    out = tmp_path / "out.mrg"
    p = cli("flatten", str(DATA / "demo-gold.mrg"), "--rules", str(rules), "-o", str(out))
    assert p.returncode == 2 and f"{rules}:2: bad rule" in p.stderr
    assert not out.exists() and list(tmp_path.iterdir()) == [rules]
    rules.write_text("(NP NP^ PP)\n")
    p = cli("flatten", str(DATA / "demo-gold.mrg"), "--rules", str(rules), "-o", str(out))
    assert p.returncode == 0
    lines = out.read_text().splitlines()
    assert len(lines) == 3 and "(NP (DT a) (NN man) (PP" in lines[1]


def test_demo_prints_all_tables() -> None:
    p = cli("demo", "--paper-examples")
    assert p.returncode == 0, p.stderr
    for title in ("Lin: dependency-based", "selective evaluation", "Parseval", "Flat keys"):
        assert title in p.stdout
    assert "unlabeled         60.00   60.00" in p.stdout

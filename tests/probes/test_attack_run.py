"""``[attack]`` in an experiment file: `run` attacks each dependency parser at each budget,
as `parsebench attack` does, stores the results and draws the attacked sentences."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from conftest import FIXTURES, ROOT
from probe_data import LEX, corpus

from parsebench.formats.conllu import write_conllu
from parsebench.store import Store


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "src"), str(FIXTURES)]))
    return subprocess.run([sys.executable, "-m", "parsebench.cli", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, stdin=subprocess.DEVNULL)


def _setup(tmp: Path, attack: str) -> Path:
    with (tmp / "in.conllu").open("w") as fh:
        write_conllu(corpus(), fh)
    (tmp / "lex.txt").write_text("\n".join(sorted(LEX.words)) + "\n")
    exp = tmp / "exp.toml"
    exp.write_text(f'''name = "atk"
[corpus]
path = "in.conllu"
gold = false
[noise]
per_sentence = [1]
replicates = 1
lexicon = "{tmp / 'lex.txt'}"
[[parsers]]
name = "weak"
spec = "python:toy_parsers:WeakWord"
[metrics]
sentences = false
deps = false
[attack]
{attack}
''')
    return exp


def test_run_attacks_each_parser_as_the_attack_command_does(tmp_path: Path) -> None:
    exp = _setup(tmp_path, "budget = [1, 2]\nqueries = 20")
    p = _cli("run", str(exp), "--store", "s.sqlite", "--report", "rep", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    store = Store(tmp_path / "s.sqlite")
    stored = {r.level: r.value for r in store.results("atk") if r.metric == "attack"}
    assert set(stored) == {"K=1", "K=2"}
    for k in (1, 2):
        q = _cli("attack", "in.conllu", "--parser", "python:toy_parsers:WeakWord", "--budget",
                 str(k), "--queries", "20", "--lexicon", str(tmp_path / "lex.txt"), "-o",
                 f"k{k}.conllu", "--json", cwd=tmp_path)
        assert q.returncode == 0, q.stderr
        alone = json.loads(q.stdout)
        got = stored[f"K={k}"]
        for key in ("success", "damage", "random", "ratio", "picked", "per_sentence",
                    "attacked", "calls"):
            assert got[key] == alone[key], key
    assert stored["K=1"]["success"]["rate"] == 1.0  # the toy parser's weak word, found
    md = (tmp_path / "rep" / "index.md").read_text()
    assert "Worst-case misspellings (attack)" in md and "| weak | K=1 | 5 of 5 |" in md
    assert "attack, K=1:" in md  # an attacked sentence, drawn with the examples
    html = (tmp_path / "rep" / "index.html").read_text()
    assert html.count("attack, K=2:") >= 1 and "<svg" in html
    parses = store.count_parses()
    store.close()
    again = _cli("run", str(exp), "--store", "s.sqlite", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    store = Store(tmp_path / "s.sqlite")
    assert store.count_parses() == parses  # every parse of the attack came from the store
    store.close()


def test_bad_attack_settings_are_refused_in_one_line(tmp_path: Path) -> None:
    for body, key in (("budget = [1]\nqueries = 1", "queries"), ("budget = [0]", "budget"),
                      ("budget = 'x'", "budget"), ("candidates = 0", "candidates"),
                      ("beam = 2", "beam")):
        exp = _setup(tmp_path, body)
        p = _cli("run", str(exp), "--store", "s.sqlite", cwd=tmp_path)
        assert p.returncode == 2, (body, p.stderr)
        lines = p.stderr.strip().splitlines()
        assert len(lines) == 1 and "exp.toml:" in lines[0] and key in lines[0], (body, lines)
        assert not (tmp_path / "s.sqlite").exists()

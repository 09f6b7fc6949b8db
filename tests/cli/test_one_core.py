"""Guarantees that hold in every command: each case was a defect in one command while
another kept it (issue: one core under every command)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
from conftest import FIXTURES, error_text, needs
from experiments import gold_file, write_exp

from parsebench.formats.brackets import Tree, parse_tree, split_trees
from parsebench.formats.conllu import read_conllu, write_conllu
from parsebench.metrics.core.resample import pool_replicates
from parsebench.parsers.executor import Executor
from parsebench.run.experiment import load
from parsebench.run.runner import run_experiment
from parsebench.store import Store


def run_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "parsebench.cli", *args],
                          capture_output=True, text=True, cwd=cwd)


def test_pool_replicates_sums_each_sentence_over_its_replicates() -> None:
    rows = [[1, 2], [3, 4], [10, 20], [30, 40], [100, 200], [300, 400]]
    assert pool_replicates(rows, 3) == [[111, 222], [333, 444]]
    assert pool_replicates(rows, 1) == rows


def test_dependency_statistics_at_a_noisy_level_have_one_row_a_sentence(
        tmp_path: Path) -> None:
    """They concatenated the replicates (45 rows for 15 sentences x 3 replicates), where
    rows and sentences pooled them: intervals too narrow and not comparable."""
    gold = gold_file(tmp_path)
    n = len(read_conllu(gold))
    cmd = f'command:"{sys.executable}" {FIXTURES / "fake_parser.py"}'
    exp = write_exp(tmp_path, f'''
[corpus]
path = "{gold}"
[noise]
per_sentence = [1]
replicates = 3
lexicon = "{FIXTURES / 'lexicon.txt'}"
[[parsers]]
name = "chain"
spec = '{cmd}'
[metrics]
rows = ["head+deprel"]
sentences = true
deps = true
''')
    with Store(tmp_path / "s.sqlite") as st:
        run_experiment(load(exp), st, Executor("local", 1))
        res = {(r.metric, r.level): r.value for r in st.results("exp")}
    level = "per-sentence=1"
    deps = res[("deps", level)]
    las = np.asarray(deps["stats"]["las"])
    assert las.shape == (n, 3)
    # each sentence's gold words, three times over: the replicates summed
    assert las[:, 1].tolist() == [3 * len(s) for s in read_conllu(gold)]
    assert len(res[("sentences", level)]["stats"]["pairs"]) <= n
    assert len(res[("rows", level)]["stats"]["differs"]) == n


def test_a_tree_written_escapes_brackets_in_words() -> None:
    """nltk-earley wrote `(X ()` and `(X ))`: read back, 37 rows for 39 words."""
    t = Tree("S", [Tree("X", ["("]), Tree("Y", ["a"]), Tree("X", [")"]), Tree("Z", [":)"])])
    text = str(t)
    assert text == "(S (X -LRB-) (Y a) (X -RRB-) (Z :-RRB-))"
    back = parse_tree(text)
    assert len(back.words()) == 4
    from parsebench.model.parses import from_tree

    assert from_tree(back, 1).forms == ["(", "a", ")", ":)"]


def test_earley_parses_of_brackets_read_back_word_for_word(tmp_path: Path) -> None:
    needs("nltk")
    (tmp_path / "g.cfg").write_text("S -> X Y X\nX -> '(' | ')'\nY -> 'a'\n")
    (tmp_path / "in.txt").write_text("( a )\n")
    p = run_cli("parse", str(tmp_path / "in.txt"), "-o", str(tmp_path / "out.mrg"),
                "--parser", f"nltk-earley:{tmp_path / 'g.cfg'}")
    assert p.returncode == 0, p.stderr
    assert (tmp_path / "out.mrg").read_text().strip() == "(S (X -LRB-) (Y a) (X -RRB-))"


def test_an_unbalanced_line_in_a_tree_a_line_file_is_one_error_sentence() -> None:
    """EVALB reads one tree a line; parsebench read on into the next lines and stopped
    the file with 'tree not closed at end of file'."""
    lines = ["(S (A a) (B b))", " (S (A a) (B b)", "(S (A a) (B b))"]
    assert [t.text for t in split_trees(lines, "t")] == lines


def test_eval_brackets_on_conllu_says_it_is_not_bracketed_trees(tmp_path: Path) -> None:
    gold = gold_file(tmp_path, 1)
    p = run_cli("eval", "brackets", str(gold), str(gold))
    assert p.returncode == 2
    assert error_text(p.stderr).startswith(f"parsebench: {gold}:1: not bracketed trees")


def test_a_system_longer_than_the_gold_is_reported_at_its_line(tmp_path: Path) -> None:
    gold = gold_file(tmp_path, 1)
    longer = tmp_path / "longer.conllu"
    sents = read_conllu(gold)
    with longer.open("w", encoding="utf-8") as fh:
        write_conllu(sents + sents[:1], fh)
    p = run_cli("eval", "deps", str(gold), str(longer))
    assert p.returncode == 2
    line = read_conllu(longer)[-1].line
    assert "None" not in p.stderr
    assert error_text(p.stderr).startswith(
        f"parsebench: {longer}:{line}: the system goes on where the gold text")


def test_export_of_an_unknown_parser_writes_nothing(tmp_path: Path) -> None:
    gold = gold_file(tmp_path, 1)
    cmd = f'command:"{sys.executable}" {FIXTURES / "fake_parser.py"}'
    exp = write_exp(tmp_path, f'''
[corpus]
path = "{gold}"
[noise]
per_sentence = [1]
lexicon = "{FIXTURES / 'lexicon.txt'}"
[[parsers]]
name = "chain"
spec = '{cmd}'
''')
    with Store(tmp_path / "s.sqlite") as st:
        run_experiment(load(exp), st, Executor("local", 1))
    out = tmp_path / "out"
    p = run_cli("export", str(tmp_path / "s.sqlite"), "-o", str(out), "--parser", "nope")
    assert p.returncode == 2 and "no parser 'nope'" in p.stderr
    assert not out.exists() or not any(out.rglob("*"))


def test_noise_of_an_empty_file_says_na_not_zero_percent(tmp_path: Path) -> None:
    (tmp_path / "empty.txt").write_text("")
    p = run_cli("noise", str(tmp_path / "empty.txt"), "-o", str(tmp_path / "o.txt"),
                "--rate", "0.1", "--lexicon", str(FIXTURES / "lexicon.txt"))
    assert p.returncode == 0, p.stderr
    assert "n/a of all 0 words" in p.stderr and "0.00%" not in p.stderr


def test_parse_raw_reports_the_words_it_wrote(tmp_path: Path) -> None:
    needs("ufal.udpipe")
    from conftest import shared_path

    model = shared_path("models/en_ewt.udpipe")
    (tmp_path / "in.txt").write_text("I don't know what ENA's plans are.\n")
    out = tmp_path / "out.conllu"
    p = run_cli("parse", str(tmp_path / "in.txt"), "-o", str(out), "--parser",
                f"udpipe:{model}", "--raw", "--json")
    assert p.returncode == 0, p.stderr
    written = sum(len(s) for s in read_conllu(out))
    assert json.loads(p.stdout)["words"] == written != 7


def test_every_numeric_setting_has_a_range_refused_in_one_line(tmp_path: Path) -> None:
    """--timeout 1e9 and timeout = 1e308 ended in an OverflowError, timeout = nan was
    reported as '--timeout nan' without its file and line, --samples 2e9 ran on."""
    gold = gold_file(tmp_path, 1)
    out = tmp_path / "o.conllu"
    cmd = f'command:{sys.executable} {FIXTURES / "fake_parser.py"}'
    for args, said in (
            (["parse", str(gold), "-o", str(out), "--parser", cmd, "--timeout", "1e9"],
             "--timeout 1000000000.0: give seconds"),
            (["parse", str(gold), "-o", str(out), "--parser", cmd, "--timeout", "1e-9"],
             "--timeout 1e-09: give seconds"),
            (["parse", str(gold), "-o", str(out), "--parser", cmd, "--workers", "100000"],
             "--workers 100000"),
            (["compare", str(gold), str(gold), "--samples", "2000000000"], "--samples"),
            (["noise", str(gold), "-o", str(out), "--rate", "0.1", "--replicates", "99999"],
             "--replicates 99999"),
            (["noise", str(gold), "-o", str(out), "--per-sentence", "0"], "--per-sentence 0")):
        p = run_cli(*args)
        assert p.returncode == 2 and p.stderr.count("\n") == 1 and said in p.stderr, p.stderr
        assert not out.exists()
    for value in ("nan", "1e308", "inf", "-1"):
        exp = write_exp(tmp_path, f'''
[corpus]
path = "{gold}"
[[parsers]]
name = "chain"
spec = '{cmd}'
timeout = {value}
''')
        p = run_cli("run", str(exp))
        assert p.returncode == 2 and "Traceback" not in p.stderr
        assert error_text(p.stderr).startswith(f"parsebench: {exp}:8: timeout "), p.stderr


def test_dask_workers_are_not_started_from_a_folder_that_shadows_the_standard_library(
        tmp_path: Path) -> None:
    """Dask's workers imported re.py, signal.py and contextlib.py of the current folder,
    then the nanny failed with a traceback; local workers start without that folder."""
    from parsebench.parsers.executor import shadowing_modules

    (tmp_path / "re.py").write_text("raise SystemExit('shadowed')\n")
    (tmp_path / "signal.py").write_text("")
    (tmp_path / "mine.py").write_text("")
    assert shadowing_modules(tmp_path) == ["re.py", "signal.py"]
    gold = gold_file(tmp_path, 1)
    cmd = f'command:"{sys.executable}" {FIXTURES / "fake_parser.py"}'
    exp = write_exp(tmp_path, f'''
[corpus]
path = "{gold}"
[[parsers]]
name = "chain"
spec = '{cmd}'
''')
    script = Path(sys.executable).parent / "parsebench"  # as a user runs it: not -m
    p = subprocess.run([str(script), "run", str(exp), "--executor", "dask"],
                       capture_output=True, text=True, cwd=tmp_path)
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert error_text(p.stderr).startswith("parsebench: --executor dask: this folder has re.py, "
                                           "signal.py")
    assert not (tmp_path / "exp.sqlite").exists()

"""The command line: JSON contract, one-line errors with exit status 2, no half-written output."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from conftest import DATA, FIXTURES, error_lines, error_text


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "parsebench.cli", *args],
                          capture_output=True, text=True)


def test_eval_deps_json_contract() -> None:
    p = cli("eval", "deps", str(DATA / "lin-key.conllu"), str(DATA / "lin-answer.conllu"),
            "--json", "--by", "deprel")
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    for k in ("tokens", "sentences", "words", "upos", "xpos", "ufeats", "alltags", "lemmas",
              "uas", "las", "clas", "mlas", "blex"):
        # the shares and, since the JSON checks its shares, the counts they are made of
        assert set(d[k]) == {"precision", "recall", "f1", "aligned_accuracy", "correct",
                             "gold", "system", "aligned"}
    assert d["words"]["aligned_accuracy"] is None and d["uas"]["aligned_accuracy"] is not None
    for k in ("unlabeled", "labeled"):
        assert {"precision", "recall", "f1", "key", "answer", "matched"} <= set(d[k])
    assert d["unlabeled"]["matched"] == 6 and d["unlabeled"]["key"] == 10
    assert d["signature"].startswith("method:lin-deps|") and "version:" in d["signature"]
    assert "subj" in d["by"]
    # the signature says what the JSON says (it said punct:none where punct was true)
    assert d["punct"] is True and "|punct:yes|" in d["signature"]
    p = cli("eval", "deps", str(DATA / "lin-key.conllu"), str(DATA / "lin-answer.conllu"),
            "--json", "--no-punct")
    d = json.loads(p.stdout)
    assert d["punct"] is False and "|punct:no|" in d["signature"]


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
    assert p.returncode == 2 and len(error_lines(p.stderr)) == 1


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
    # and each of Lin's examples beside the figure his chapter prints
    beside = p.stdout.split("beside the paper's figure (%) ==\n", 1)[1].splitlines()
    assert [" ".join(line.split()) for line in beside[1:6]] == [
        "Table 18.1, unlabeled precision = recall 83.33 83.3 (5 of 6)",
        "Table 18.1, labeled precision = recall 66.67 66.7 (4 of 6)",
        "Table 18.5, precision = recall 25.00 25",
        "section 4, objects: recall / precision 66.67 / 100.00 66.7 / 100",
        "section 4, objects labeled: recall / precision 33.33 / 50.00 33.3 / 50"]


COMMANDS = [["eval", "deps"], ["eval", "brackets"], ["eval", "flat"], ["flatten"], ["noise"],
            ["parse"], ["robustness", "rows"], ["robustness", "sentences"],
            ["robustness", "f1"], ["run"], ["report"], ["compare"]]


def test_usage_errors_are_one_line_with_status_2() -> None:
    for args, message in (
            (["eval", "deps"], "Missing argument 'gold'."),
            (["eval", "deps", "a", "b", "--bogus"], "No such option: --bogus"),
            (["noise", "x", "-o", "y", "--rate", "abc"], "Invalid value for '--rate'"),
            (["nosuch"], "No such command 'nosuch'.")):
        p = cli(*args)
        assert p.returncode == 2, (args, p.stderr)
        assert p.stdout == "" and len(error_lines(p.stderr)) == 1, (args, p.stderr)
        assert error_text(p.stderr).startswith("parsebench: " + message), p.stderr
        assert "╭" not in p.stderr and "Traceback" not in p.stderr


def test_help_reads_as_plain_text() -> None:
    for args in [[], *COMMANDS]:
        p = cli(*args, "--help")
        assert p.returncode == 0, (args, p.stderr)
        assert "Usage: parsebench" in p.stdout
        for bad in ("<bool>", "<path>", "<str>", "{", "╭", "│"):
            assert bad not in p.stdout, (args, bad, p.stdout)
    assert cli().stdout.startswith("Usage: parsebench [OPTIONS] COMMAND")


def test_an_output_that_cannot_be_a_file_is_a_clear_error(tmp_path: Path) -> None:
    gold, rules = str(DATA / "demo-gold.mrg"), str(DATA / "demo-rules.txt")
    afile = tmp_path / "afile"
    afile.write_text("x")
    for out, says in ((str(tmp_path), "is a directory"), (".", "is a directory"),
                      ("", "is a directory"), (str(afile / "x.mrg"), "does not exist")):
        for args in (["flatten", gold, "--rules", rules, "-o", out],
                     ["parse", str(DATA / "lin-key.conllu"), "-o", out, "--parser",
                      f"precomputed:{DATA / 'lin-key.conllu'}"]):
            p = cli(*args)
            assert p.returncode == 2, (args, p.stderr)
            assert says in p.stderr and len(error_lines(p.stderr)) == 1, p.stderr
    assert sorted(x.name for x in tmp_path.iterdir()) == ["afile"]


def test_a_closed_pipe_is_not_a_traceback(tmp_path: Path) -> None:
    big = tmp_path / "big.mrg"
    big.write_text("(S (NP (DT a)) (VP (VB b)))\n" * 20000)
    p = subprocess.run(f"{sys.executable} -m parsebench.cli eval brackets {big} {big} | head -1",
                       shell=True, capture_output=True, text=True)
    assert p.stdout.startswith("  Sent.") and p.stderr == ""


def test_noise_json(tmp_path: Path) -> None:
    out = tmp_path / "n.conllu"
    p = cli("noise", str(DATA / "lin-key.conllu"), "-o", str(out), "--rate", "0.2",
            "--replicates", "2", "--lexicon", str(FIXTURES /
                                                  "lexicon.txt"), "--json")
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    assert [f["seed"] for f in d["files"]] == [1, 2]
    assert all(f["words"] == 12 and f["misspelled"] == 2 for f in d["files"])
    assert "weights:sub=1,ins=1,del=1,trans=1" in d["signature"]


def test_trees_nested_100000_levels_deep(tmp_path: Path) -> None:
    d = 100_000
    deep = tmp_path / "deep.mrg"
    deep.write_text("(S " * d + "(NN w)" + ")" * d + "\n(S (NN a) (VB b))\n")
    rules = tmp_path / "rules.txt"
    rules.write_text("(S S^)\n")
    p = cli("robustness", "rows", str(deep), str(deep), "--accuracy", "0.9", "--json")
    assert p.returncode == 0, p.stderr[-500:]
    assert json.loads(p.stdout)["differs"] == 0
    p = cli("robustness", "sentences", str(deep), str(deep), "--json")
    assert p.returncode == 0 and json.loads(p.stdout)["unlabeled"] == 1.0
    p = cli("flatten", str(deep), "--rules", str(rules))
    assert p.returncode == 0 and p.stdout == "(S (NN w))\n(S (NN a) (VB b))\n"
    p = cli("eval", "flat", str(deep), str(deep), "--json")
    assert p.returncode == 0 and json.loads(p.stdout)["recall"] == 1.0


def test_outputs_are_checked_before_the_work(tmp_path: Path) -> None:
    """The permission bits say yes to root even in /proc: `run exp.toml --report /proc/x`
    ran the whole experiment, then exited 2 with "/proc/x: No such file or directory".
    Every output is now tried (a file or a folder made and removed) before the work."""
    key = DATA / "lin-key.conllu"
    exp = tmp_path / "exp.toml"
    exp.write_text(f'name = "t"\n[corpus]\npath = "{key}"\n[noise]\nrates = []\n'
                   f'[[parsers]]\nname = "a"\nspec = "precomputed:{key}"\n'
                   "[metrics]\ndeps = true\n", encoding="utf-8")
    store = tmp_path / "t.sqlite"
    unwritable = "/proc/parsebench-no-such-folder/x"  # /proc takes no new file, even from root
    p = cli("run", str(exp), "--store", str(store), "--report", unwritable)
    assert p.returncode == 2 and len(error_lines(p.stderr)) == 1, p.stderr
    assert error_text(p.stderr).startswith(f"parsebench: {unwritable}:"), p.stderr
    assert not store.exists()  # the run never started
    # a parser that leaves a mark when it runs: it never does
    mark = tmp_path / "parsed"
    parser = f"command:sh -c 'touch {mark}; {sys.executable} {FIXTURES / 'fake_parser.py'}'"
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    for out in ("/proc/x.conllu", str(pipe)):
        p = cli("parse", str(key), "-o", out, "--parser", parser)
        assert p.returncode == 2 and len(error_lines(p.stderr)) == 1, p.stderr
        assert error_text(p.stderr).startswith(f"parsebench: {out}: "), p.stderr
        assert not mark.exists()
    assert "is not a regular file" in p.stderr and pipe.is_fifo()
    p = cli("parse", str(key), "-o", str(tmp_path / "ok.conllu"), "--parser", parser)
    assert p.returncode == 0 and mark.exists(), p.stderr  # the mark works
    for args in (("eval", "deps", str(key), str(key), "--per-sentence", "/proc/x.tsv"),
                 ("convert", str(DATA / "demo-gold.mrg"), "-o", "/proc/x.conllu",
                  "--head-rules", "collins"),
                 ("report", str(store), "-o", "/proc/x"),
                 ("noise", str(key), "-o", "/proc/x.conllu", "--rate", "0.1")):
        p = cli(*args)
        assert p.returncode == 2 and len(error_lines(p.stderr)) == 1, (args, p.stderr)
        assert "/proc/x" in p.stderr or "no such store" in p.stderr, (args, p.stderr)
    assert sorted(x.name for x in tmp_path.iterdir()) == ["exp.toml", "ok.conllu",
                                                          "ok.conllu.speed.json", "parsed",
                                                          "pipe"]


def _command_paths() -> list[list[str]]:
    from typing import Any

    from parsebench.cli import _app

    def name(c: Any) -> str:
        return str(c.name or c.callback.__name__.lower().replace("_", "-"))

    paths = [[name(c)] for c in _app.app.registered_commands]
    for g in _app.app.registered_groups:
        sub: Any = g.typer_instance
        paths += [[str(g.name), name(c)] for c in sub.registered_commands]
    return paths


def test_a_command_made_alone_helps_and_fails_as_in_the_whole_application(
        capsys: object, monkeypatch: object) -> None:
    """main() makes only the command it runs (typer's reading of every command's
    signature cost every run 0.06 s): its help and usage errors are the same."""
    import pytest

    from parsebench.cli import _app

    paths = _command_paths()
    assert ["eval", "deps"] in paths and ["run"] in paths and len(paths) > 10
    assert _app._just(["eval", "deps", "a", "b"]) is not _app.app
    assert _app._just(["eval", "--help"]) is _app.app  # a group's help lists its commands

    def outcome(args: list[str], whole: bool) -> tuple[object, str, str]:
        with pytest.MonkeyPatch.context() as mp:
            if whole:
                mp.setattr(_app, "_just", lambda argv: _app.app)
            try:
                _app.main(args)
                code: object = None
            except SystemExit as e:
                code = e.code
        out = capsys.readouterr()  # type: ignore[attr-defined]
        return code, out.out, out.err

    for path in paths:
        for extra in (["--help"], ["--no-such-option"]):
            alone = outcome([*path, *extra], whole=False)
            assert alone == outcome([*path, *extra], whole=True), path
            assert alone[1] or alone[2]
    for args in (["eval", "dpes"], ["nosuch"], ["--version"], ["eval"]):
        assert outcome(args, whole=False) == outcome(args, whole=True)

"""The SuPar adapter (biaffine parser with character features) on real text."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from conftest import FIXTURES, error_lines, needs, shared_path

from parsebench.formats.conllu import Sentence, read_conllu
from parsebench.model.parses import blank
from parsebench.parsers.base import Analysis, Failure
from parsebench.parsers.run import parse_sentences

MODEL = "models/en_ewt_biaffine/en_ewt_biaffine.pt"
EWT_TEST = "data/ud-english-ewt/en_ewt-ud-test.conllu"


def _words(*sentences: str) -> list[Sentence]:
    return [blank(s.split(), [f"# text = {s}"]) for s in sentences]


def test_biaffine_parser_scores_its_readme_row_on_ewt_test(tmp_path: Path) -> None:
    """../shared/models/README.md: EWT test, gold tokens, UAS 88.10, LAS 85.04, CLAS 80.67
    (conll18_ud_eval.py); it predicts no tags, so tag metrics are n/a, not 0."""
    needs("supar")
    model = shared_path(MODEL)
    gold = shared_path(EWT_TEST)
    out = tmp_path / "biaffine.conllu"
    subprocess.run([sys.executable, "-m", "parsebench.cli", "parse", str(gold), "-o",
                    str(out), "--parser", f"supar:{model}", "--batch-size", "64"],
                   check=True, capture_output=True, text=True)
    speed = json.loads(Path(f"{out}.speed.json").read_text())
    assert speed["failures"] == 0 and speed["parser"]["adapter"] == "supar"
    assert speed["parser"]["model"] and speed["parser"]["decode"] == "tree"
    p = subprocess.run([sys.executable, "-m", "parsebench.cli", "eval", "deps", str(gold),
                        str(out), "--json"], check=True, capture_output=True, text=True)
    d = json.loads(p.stdout)
    for key, stated in (("uas", 88.10), ("las", 85.04), ("clas", 80.67)):
        assert abs(100 * d[key]["f1"] - stated) <= 0.1, (key, d[key]["f1"])
    for key in ("upos", "xpos", "ufeats", "alltags", "lemmas", "mlas", "blex"):
        assert d[key]["f1"] is None, key
    assert any("has no UPOS tags" in w and "UPOS, XPOS" in w for w in d["warnings"])
    got = read_conllu(out)
    want = read_conllu(gold)
    assert [s.comment_value("sent_id") for s in got] == [s.comment_value("sent_id")
                                                         for s in want]
    # a well-formed tree a sentence: one root, no cycle
    for s in got:
        assert s.heads.count(0) == 1
        for i in range(1, len(s) + 1):
            seen, h = set(), i
            while h and h not in seen:
                seen.add(h)
                h = s.heads[h - 1]
            assert h == 0, (s.comment_value("sent_id"), i)


def test_a_crash_hang_or_error_in_the_model_costs_one_sentence() -> None:
    needs("supar")
    spec = f"python:faulty_supar:FaultySuPar={shared_path(MODEL)}"
    sys.path.insert(0, str(FIXTURES))
    try:
        sents = _words("The cat sat .", "CRASH now", "Dogs bark .", "HANG", "RAISE it",
                       "Birds sing loudly .", "It works .")
        # a batch's deadline is the timeout times its size: the HANG batch waits 9 s,
        # then HANG alone 3 s (a short sentence takes SuPar milliseconds)
        run = parse_sentences(sents, spec, timeout=3, batch_size=3)
    finally:
        sys.path.remove(str(FIXTURES))
    reasons = [t.outcome.reason if isinstance(t.outcome, Failure) else "ok" for t in run.timed]
    assert reasons == ["ok", "crash (exit code 9)", "ok", "timeout after 3 s",
                       "error: RuntimeError: bad sentence", "ok", "ok"]
    ok = run.timed[5].outcome
    assert isinstance(ok, Analysis) and ok.heads is not None and len(ok.heads) == 4
    assert ok.upos is None  # no tagger: its tags are not invented


def test_a_file_that_is_not_a_supar_model_is_refused_in_one_line(tmp_path: Path) -> None:
    needs("supar")
    bad = tmp_path / "bad.pt"
    bad.write_bytes(b"not a model")
    src = tmp_path / "in.txt"
    src.write_text("a b\n")
    p = subprocess.run([sys.executable, "-m", "parsebench.cli", "parse", str(src), "-o",
                        str(tmp_path / "o.conllu"), "--parser", f"supar:{bad}"],
                       capture_output=True, text=True)
    assert p.returncode == 2, p.stderr
    lines = error_lines(p.stderr)
    assert len(lines) == 1 and f"{bad}: not a SuPar model" in lines[0], p.stderr
    assert not (tmp_path / "o.conllu").exists()

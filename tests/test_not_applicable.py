"""Numbers a parse cannot give are n/a, never a perfect score; a file that is not a parse
is refused rather than scored."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import DATA, FIXTURES, needs

from parsebench.formats.conllu import read_conllu, write_conllu


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "parsebench.cli", *args],
                          capture_output=True, text=True)


@pytest.fixture()
def gold(tmp_path: Path) -> Path:
    """A small annotated corpus: Lin's key and the typo fixture, four times over."""
    sents = (read_conllu(DATA / "lin-key.conllu") + read_conllu(FIXTURES / "typos.conllu")) * 4
    path = tmp_path / "gold.conllu"
    with path.open("w", encoding="utf-8") as fh:
        write_conllu(sents, fh)
    return path


def _strip(src: Path, dst: Path, heads: bool = True, labels: bool = True) -> Path:
    """SRC as a tagger (no heads, no relations) or an unlabeled parser would write it."""
    sents = read_conllu(src)
    for s in sents:
        if heads:
            s.heads = [-1] * len(s)
        if labels:
            s.deprels = ["_"] * len(s)
    with dst.open("w", encoding="utf-8") as fh:
        write_conllu(sents, fh)
    return dst


def _noisy(gold: Path, tmp: Path) -> Path:
    out = tmp / "noisy.conllu"
    p = run_cli("noise", str(gold), "-o", str(out), "--rate", "0.3",
                "--lexicon", str(FIXTURES / "lexicon.txt"))
    assert p.returncode == 0, p.stderr
    return out


def test_kakkonen_scores_of_a_taggers_output_are_not_applicable(gold: Path,
                                                                tmp_path: Path) -> None:
    noisy = _noisy(gold, tmp_path)
    clean_t = _strip(gold, tmp_path / "clean-tags.conllu")
    noisy_t = _strip(noisy, tmp_path / "noisy-tags.conllu")
    p = run_cli("robustness", "sentences", str(clean_t), str(noisy_t), "--json")
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    assert d["unlabeled"] is None and d["labeled"] is None
    assert all(v["unlabeled"] is None and v["labeled"] is None
               for v in d["by_errors"].values())
    assert "n/a" in p.stderr and "heads" in p.stderr
    text = run_cli("robustness", "sentences", str(clean_t), str(noisy_t)).stdout
    assert "n/a" in text and "100.00" not in text
    # heads but no labels: the unlabeled score stands, the labeled one is n/a
    clean_u = _strip(gold, tmp_path / "clean-u.conllu", heads=False)
    noisy_u = _strip(noisy, tmp_path / "noisy-u.conllu", heads=False)
    d = json.loads(run_cli("robustness", "sentences", str(clean_u), str(noisy_u),
                           "--json").stdout)
    assert d["unlabeled"] == 1.0 and d["labeled"] is None  # noise keeps the heads


def test_rows_of_a_taggers_output_default_to_tags_and_heads_are_not_applicable(
        gold: Path, tmp_path: Path) -> None:
    noisy = _noisy(gold, tmp_path)
    clean_t = _strip(gold, tmp_path / "clean-tags.conllu")
    noisy_t = _strip(noisy, tmp_path / "noisy-tags.conllu")
    d = json.loads(run_cli("robustness", "rows", str(clean_t), str(noisy_t), "--accuracy",
                           "0.9", "--json").stdout)
    assert d["signature"].count("projection:upos") == 1
    assert d["differs"] == 0  # the fake tagger kept every tag: no row differs
    p = run_cli("robustness", "rows", str(clean_t), str(noisy_t), "--accuracy", "0.9",
                "--project", "head+deprel", "--json")
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    assert d["differs"] is None and d["degr_estimate"] is None and d["acc_estimate"] is None
    assert "n/a" in p.stderr
    text = run_cli("robustness", "rows", str(clean_t), str(noisy_t), "--accuracy", "0.9",
                   "--project", "head+deprel").stdout
    assert "n/a" in text


def test_robustness_f1_without_dependencies_is_not_applicable(gold: Path,
                                                              tmp_path: Path) -> None:
    noisy = _noisy(gold, tmp_path)
    p = run_cli("robustness", "f1", str(_strip(gold, tmp_path / "g.conllu")),
                str(_strip(noisy, tmp_path / "u.conllu")), "--exclude-root", "--json")
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    assert (d["precision"], d["recall"], d["f1"]) == (None, None, None)


def test_the_noisy_text_itself_is_refused_as_a_parse_and_a_parse_of_it_is_scored(
        gold: Path, tmp_path: Path) -> None:
    needs("nltk")
    noisy = _noisy(gold, tmp_path)
    clean_p, noisy_p = tmp_path / "clean.parsed.conllu", tmp_path / "noisy.parsed.conllu"
    for src, dst in ((gold, clean_p), (noisy, noisy_p)):
        p = run_cli("parse", str(src), "-o", str(dst), "--parser", f"nltk-tnt:{gold}")
        assert p.returncode == 0, p.stderr
    # the output of `noise` carries the gold's columns: scoring it gave "real accuracy
    # 100, real degradation -26"
    p = run_cli("robustness", "rows", str(clean_p), str(noisy), "--gold", str(gold),
                "--project", "upos")
    assert p.returncode == 2
    assert p.stdout == ""
    assert p.stderr.startswith(f"parsebench: {noisy}: ") and "not a parse" in p.stderr
    assert len(p.stderr.splitlines()) == 1
    p = run_cli("robustness", "rows", str(clean_p), str(noisy_p), "--gold", str(gold),
                "--project", "upos", "--json")
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    assert 0 < d["gold"]["acc_real"] < 1 and 0 < d["error_level"] < 1
    # eval deps gives the tagger its UPOS accuracy on the misspelled text (rows aligned
    # row by row), the same figure as rows' real accuracy, and calls its attachment
    # scores n/a rather than 0.00
    p = run_cli("eval", "deps", str(gold), str(noisy_p), "--json")
    assert p.returncode == 0, p.stderr
    e = json.loads(p.stdout)
    assert e["upos"]["aligned_accuracy"] == pytest.approx(d["gold"]["acc_real"])
    assert 0.5 < e["upos"]["f1"] < 1 and e["las"]["f1"] is None and e["mlas"]["f1"] is None
    text = run_cli("eval", "deps", str(gold), str(noisy_p)).stdout
    assert "LAS        |       n/a |       n/a |       n/a |       n/a" in text

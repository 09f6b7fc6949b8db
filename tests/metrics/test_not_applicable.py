"""Numbers a parse cannot give are n/a, never a perfect score; a file that is not a parse
is refused rather than scored."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import DATA, FIXTURES, error_lines, error_text, needs

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


def _noise(gold: Path, tmp: Path) -> Path:
    """The output of `noise`: misspelled words, their records, no annotation."""
    out = tmp / "noise-output.conllu"
    p = run_cli("noise", str(gold), "-o", str(out), "--rate", "0.3",
                "--lexicon", str(FIXTURES / "lexicon.txt"))
    assert p.returncode == 0, p.stderr
    return out


def _noisy(gold: Path, tmp: Path) -> Path:
    """A parse of the noisy text by a parser that misspellings never upset: the noisy
    words with the gold's annotation."""
    noisy = read_conllu(_noise(gold, tmp))
    for n, g in zip(noisy, read_conllu(gold), strict=True):
        n.lemmas, n.upos, n.xpos, n.feats = g.lemmas, g.upos, g.xpos, g.feats
        n.heads, n.deprels, n.deps = g.heads, g.deprels, g.deps
    out = tmp / "noisy.conllu"
    with out.open("w", encoding="utf-8") as fh:
        write_conllu(noisy, fh)
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
    noisy = _noise(gold, tmp_path)
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
    assert error_text(p.stderr).startswith(f"parsebench: {noisy}:") and "not a parse" in p.stderr
    assert len(error_lines(p.stderr)) == 1
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


def test_the_output_of_noise_is_refused_by_every_command_that_reads_a_parse(
        gold: Path, tmp_path: Path) -> None:
    """It scored LAS 100 in eval deps, +20.58 significant in compare, 'parse differs
    20.77' in rows and 32.68 in sentences; only rows --gold refused it."""
    raw = _noise(gold, tmp_path)
    per = tmp_path / "per.tsv"
    for args in (("eval", "deps", str(gold), str(raw), "--per-sentence", str(per)),
                 ("compare", str(gold), str(gold), str(raw), "--samples", "50"),
                 ("robustness", "rows", str(gold), str(raw), "--accuracy", "0.9"),
                 ("robustness", "sentences", str(gold), str(raw)),
                 ("robustness", "f1", str(gold), str(raw))):
        p = run_cli(*args)
        assert p.returncode == 2, (args, p.stdout, p.stderr)
        assert p.stdout == ""
        assert len(error_lines(p.stderr)) == 1
        assert error_text(p.stderr).startswith(
            f"parsebench: {raw}:1: the output of `parsebench noise`")
        assert not per.exists()
    # the noise output carries no annotation: the clean tree is not the noisy text's
    assert all(set(s.heads) == {-1} and set(s.upos) == {"_"} for s in read_conllu(raw))


def test_the_kind_of_a_file_is_checked_before_its_length(gold: Path, tmp_path: Path) -> None:
    """Noise output of another length than the gold was told "the text differs" (or the
    sentence counts): "parse it first" showed only when the counts matched."""
    raw = _noise(gold, tmp_path)
    part = tmp_path / "part.conllu"
    with part.open("w", encoding="utf-8") as fh:
        write_conllu(read_conllu(gold)[:5], fh)
    for args in (("eval", "deps", str(part), str(raw)),
                 ("compare", str(part), str(part), str(raw), "--samples", "50"),
                 ("robustness", "rows", str(part), str(raw), "--accuracy", "0.9"),
                 ("robustness", "sentences", str(part), str(raw)),
                 ("robustness", "f1", str(part), str(raw))):
        p = run_cli(*args)
        assert p.returncode == 2, (args, p.stdout, p.stderr)
        assert len(error_lines(p.stderr)) == 1, (args, p.stderr)
        assert error_text(p.stderr).startswith(
            f"parsebench: {raw}:1: the output of `parsebench noise`"), \
            (args, p.stderr)
    # a parse of another length is still told its length
    p = run_cli("eval", "deps", str(part), str(gold))
    assert p.returncode == 2 and "the system goes on where the gold text" in p.stderr


def test_compare_gives_a_taggers_attachment_score_as_na_not_zero(gold: Path,
                                                                 tmp_path: Path) -> None:
    """compare printed LAS 0.00 and a delta of -79.42, significant, for a tagger."""
    tags = _strip(gold, tmp_path / "tags.conllu")
    p = run_cli("compare", str(gold), str(gold), str(tags), "--samples", "100", "--json")
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    assert d["systems"][0]["score"] == 1.0
    assert d["systems"][1]["score"] is None and d["systems"][1]["ci"] is None
    pair = d["pairs"][0]
    assert pair["delta"] is None and pair["p"] is None and pair["significant"] is None
    assert "tags.conllu has no heads" in p.stderr and "las n/a" in p.stderr
    text = run_cli("compare", str(gold), str(gold), str(tags), "--samples", "100").stdout
    row = next(ln for ln in text.splitlines() if ln.startswith(str(tags)))
    assert row.split()[1:] == ["n/a", "n/a"]
    assert "-100.00" not in text
    # a tag metric stays a number
    d = json.loads(run_cli("compare", str(gold), str(tags), "--metric", "upos",
                           "--samples", "100", "--json").stdout)
    assert d["systems"][0]["score"] == 1.0


def test_robustness_f1_with_one_side_without_heads_is_na_with_its_cause(
        gold: Path, tmp_path: Path) -> None:
    """recall 0.00 and no warning, when only the ungrammatical parse had no heads."""
    noisy = _noisy(gold, tmp_path)
    p = run_cli("robustness", "f1", str(gold), str(_strip(noisy, tmp_path / "u.conllu")),
                "--json")
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    assert (d["precision"], d["recall"], d["f1"]) == (None, None, None)
    assert "u.conllu has no heads" in p.stderr and "robustness F1 n/a" in p.stderr


def test_sentences_never_pairs_sentences_of_different_lengths_word_by_word(
        gold: Path, tmp_path: Path) -> None:
    """Grammar noise, parsed, given without --alignment: 570 sentences were paired word
    by word, those with a missing word counted as error-free."""
    sents = read_conllu(gold)
    shorter = read_conllu(gold)
    shorter[2].forms, shorter[2].heads = shorter[2].forms[:-1], [
        min(h, len(shorter[2].forms) - 1) for h in shorter[2].heads[:-1]]
    for col in ("lemmas", "upos", "xpos", "feats", "deprels", "deps", "misc"):
        setattr(shorter[2], col, getattr(shorter[2], col)[:-1])
    out = tmp_path / "short.conllu"
    with out.open("w", encoding="utf-8") as fh:
        write_conllu(shorter, fh)
    p = run_cli("robustness", "sentences", str(gold), str(out))
    assert p.returncode == 2 and p.stdout == ""
    assert f"{out}:{shorter[2].line}:" in p.stderr and "--alignment" in p.stderr
    assert f"has {len(sents[2])}" in p.stderr

"""Kakkonen's sentence robustness scores, unlabeled and labeled: his Table 1 row and
footnote, relative drops, structures of links and trees, refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import error_text
from sentence_pairs import build, cli, pair

from parsebench.metrics.robustness.kakkonen import relative_drop, score_sentences
from parsebench.model.parses import read_parses


def test_kakkonen_cc_row_and_footnote(tmp_path: Path) -> None:
    # C&C, Table 1: 255 / 94 / 94 sentences with 1 / 2 / 3 misspellings. Level 1:
    # 23 failures, 186 unlabeled matches of which 155 labeled (footnote: 186/255 =
    # 72.94 and 155/255 = 60.78, against 80.17 and 66.81 without the failures).
    # Levels 2 and 3: 59 and 38 unlabeled, 32 and 14 labeled.
    spec = [(1, "labeled", 155), (1, "unlabeled", 31), (1, "failed", 23), (1, "none", 46),
            (2, "labeled", 32), (2, "unlabeled", 27), (2, "none", 35),
            (3, "labeled", 14), (3, "unlabeled", 24), (3, "none", 56)]
    clean, noisy = build(tmp_path, spec)
    r = score_sentences(read_parses(clean), [read_parses(noisy)], str(clean),
                        [str(noisy)]).as_dict()
    one = r["by_errors"]["1"]
    assert (one["sentences"], one["failures"]) == (255, 23)
    assert round(100 * one["unlabeled"], 2) == 72.94
    assert round(100 * one["labeled"], 2) == 60.78
    assert round(100 * one["parsed_only"]["unlabeled"], 2) == 80.17
    assert round(100 * one["parsed_only"]["labeled"], 2) == 66.81
    assert [round(100 * r["by_errors"][k]["unlabeled"], 2) for k in "23"] == [62.77, 40.43]
    assert [round(100 * r["by_errors"][k]["labeled"], 2) for k in "23"] == [34.04, 14.89]
    assert (r["sentences"], r["failures"]) == (443, 23)
    assert round(100 * r["unlabeled"], 2) == 63.88 and round(100 * r["labeled"], 2) == 45.37
    assert round(100 * r["relative_drop"]["unlabeled"], 1) == 44.6
    assert round(100 * r["relative_drop"]["labeled"], 1) == 75.5

    p = cli("robustness", "sentences", str(clean), str(noisy), "--json")
    d = json.loads(p.stdout)
    assert {"sentences", "failures", "unlabeled", "labeled", "by_errors", "signature"} <= set(d)
    assert set(d["by_errors"]["2"]) >= {"sentences", "unlabeled", "labeled"}
    text = cli("robustness", "sentences", str(clean), str(noisy)).stdout
    assert "63.88" in text and "72.94" in text and "44.6%" in text


@pytest.mark.parametrize(("parser", "levels", "drop"), [
    # Kakkonen Table 1 and the drops of his Results section, unlabeled then labeled
    ("C&C", (72.94, 40.43), 44.6), ("StatCCG", (72.55, 30.85), 57.5),
    ("SP", (70.98, 25.53), 64.0), ("LG", (40.39, 8.51), 78.9),
    ("C&C", (60.78, 14.89), 75.5), ("LG", (21.96, 3.19), 85.5),
    ("SP", (29.41, 1.06), 96.4),
    # The paper prints 65.5 for StatCCG labeled; (58.82 - 20.21) / 58.82 is 65.64.
    ("StatCCG", (58.82, 20.21), 65.6),
])
def test_kakkonen_relative_drops(parser: str, levels: tuple[float, float], drop: float) -> None:
    assert round(100 * relative_drop(*levels), 1) == drop


def test_link_and_tree_structures(tmp_path: Path) -> None:
    links = tmp_path / "l.conllu"
    links_n = tmp_path / "ln.conllu"
    row = "{}\t{}\t_\t_\t_\t_\t_\t_\t_\tLinks={}\n"
    links.write_text(row.format(1, "a", "2:Wd") + row.format(2, "b", "1:Wd,3:Ss")
                     + row.format(3, "c", "2:Ss") + "\n")
    # same pairs, one label changed: unlabeled match, labeled non-match
    links_n.write_text(row.format(1, "ax", "2:Wd") + row.format(2, "b", "1:Wd,3:S")
                       + row.format(3, "c", "2:S") + "\n")
    r = score_sentences(read_parses(links), [read_parses(links_n)], "l", ["ln"]).as_dict()
    assert (r["unlabeled"], r["labeled"]) == (1.0, 0.0)
    trees = tmp_path / "t.mrg"
    trees_n = tmp_path / "tn.mrg"
    trees.write_text("(S (NP (DT a) (NN b)) (VP (VB c)))\n(S (NP (DT a)) (VP (VB c)))\n")
    trees_n.write_text("(S (NP (DT ax) (NN b)) (NP (VB c)))\n(S (NP (DT ax) (VB c)))\n")
    r = score_sentences(read_parses(trees), [read_parses(trees_n)], "t", ["tn"]).as_dict()
    assert r["by_errors"]["1"]["sentences"] == 2
    assert (r["unlabeled"], r["labeled"]) == (0.5, 0.0)


def test_different_sentence_counts_are_an_error(tmp_path: Path) -> None:
    clean, noisy = build(tmp_path, [(1, "labeled", 2)])
    noisy.write_text(pair(1, "labeled")[1])
    p = cli("robustness", "sentences", str(clean), str(noisy))
    assert p.returncode == 2
    assert error_text(p.stderr).startswith(f"parsebench: {noisy}: 1 sentences")


def test_sentences_identical_files_score_one(tmp_path: Path) -> None:
    clean, _ = build(tmp_path, [(0, "labeled", 3)])
    r = score_sentences(read_parses(clean), [read_parses(clean)], "c", ["c"]).as_dict()
    assert (r["unlabeled"], r["labeled"], r["sentences"]) == (1.0, 1.0, 3)


def test_the_relative_drop_skips_bins_too_small_to_say_anything(tmp_path: Path) -> None:
    """Two sentences with 4 errors, both failing, made "relative drop from 1 to 4
    errors: 100.0%": the drop runs between the fewest and most errors with at least
    MIN_BIN (30) pairs, and the text names no JSON field."""
    from parsebench.metrics.robustness.kakkonen import MIN_BIN

    assert MIN_BIN == 30
    spec = [(0, "labeled", 5), (1, "labeled", 30), (1, "none", 10), (2, "labeled", 20),
            (2, "none", 20), (4, "none", 2)]
    clean, noisy = build(tmp_path, spec)
    d = json.loads(cli("robustness", "sentences", str(clean), str(noisy), "--json").stdout)
    drop = d["relative_drop"]
    assert (drop["from"], drop["to"], drop["min_sentences"]) == (1, 2, 30)
    assert drop["unlabeled"] == pytest.approx(relative_drop(30 / 40, 20 / 40))
    text = cli("robustness", "sentences", str(clean), str(noisy)).stdout
    assert "relative drop from 1 to 2 errors: unlabeled 33.3%, labeled 33.3% (the fewest " \
        "and most errors with 30 pairs or more)" in text
    assert "to 4 errors" not in text and "by_errors" not in text
    assert "5 pairs without an error are left out of the overall score (their own: " \
        "unlabeled 100.0%, labeled 100.0%)" in text
    # one bin large enough: no drop at all
    clean, noisy = build(tmp_path, [(1, "labeled", 30), (3, "none", 29)])
    d = json.loads(cli("robustness", "sentences", str(clean), str(noisy), "--json").stdout)
    assert d["relative_drop"]["unlabeled"] is None and d["relative_drop"]["from"] is None
    text = cli("robustness", "sentences", str(clean), str(noisy)).stdout
    assert "relative drop: n/a (fewer than two numbers of errors with 30 pairs or more)" \
        in text

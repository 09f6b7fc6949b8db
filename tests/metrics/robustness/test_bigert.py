"""Bigert et al.: the formulas, Table 1 through files, Tables 3-12 recomputed, and invariants."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import FIXTURES, shared_path
from experiments import write_rows
from hypothesis import given, settings
from hypothesis import strategies as st

from parsebench.common.errors import InputError
from parsebench.formats.brackets import parse_tree
from parsebench.metrics.robustness.bigert_equations import deviations, estimates, warnings_for
from parsebench.metrics.robustness.bigert_scorer import (
    RowCounts,
    aggregate,
    count_rows,
    rows_figures,
)
from parsebench.model.parses import bracket_strings, read_parses

CASES = ("aaa", "aab", "aba", "abb", "abc")
def figures(paths: tuple[Path, ...], accuracy: float | None = None) -> dict:
    m, z, n = (read_parses(p) for p in paths)
    counts = count_rows(z, n, m, "tag", (str(paths[1]), str(paths[2]), str(paths[0])))
    return rows_figures(counts, accuracy)


@pytest.mark.parametrize("column", [
    # Table 1, GTA parser: x at 5% and at 10% errors, as counts per 100,000 rows
    {"aaa": 84900, "aab": 4010, "aba": 317, "abb": 10000, "abc": 772},
    {"aaa": 81100, "aab": 7800, "aba": 635, "abb": 9080, "abc": 1400},
])
def test_table1_frequencies_give_the_identities_exactly(tmp_path: Path,
                                                        column: dict[str, int]) -> None:
    total = sum(column.values())
    x = {k: Fraction(v, total) for k, v in column.items()}
    acr_m0 = x["aaa"] + x["aab"]  # eq. 2
    acr_mn = x["aaa"] + x["aba"]  # eq. 3
    acr_0n = x["aaa"] + x["abb"]  # eq. 4
    degr = 1 - acr_mn / acr_m0  # eq. 5
    e = estimates(acr_0n, acr_m0)
    d = deviations(x, acr_m0)
    assert e["degr_upper"] == degr + d["epsilon"]  # eqs. 7-8
    assert e["degr_lower"] + d["delta"] == degr  # eqs. 10-11
    assert degr + d["gamma"] == e["degr_estimate"]  # eqs. 14-15
    assert e["degr_estimate"] == (e["degr_lower"] + e["degr_upper"]) / 2  # eq. 13
    assert acr_mn + d["lambda"] == e["acc_estimate"]  # eqs. 21-22
    assert e["acc_lower"] <= acr_mn <= e["acc_upper"]  # eq. 12 through 18-19

    # the same through files: the case frequencies, and the figures as floats
    r = figures(write_rows(tmp_path, column, per_sentence=17))
    assert r["rows"] == total
    assert r["gold"]["cases"] == {k: v / total for k, v in column.items()}
    assert r["acr"] == pytest.approx(float(acr_m0), abs=1e-15)
    assert r["gold"]["degr_real"] == pytest.approx(float(degr), abs=1e-15)
    for k in ("degr_lower", "degr_upper", "degr_estimate", "acc_lower", "acc_upper",
              "acc_estimate"):
        assert r[k] == pytest.approx(float(e[k]), abs=1e-15)
    for k in ("epsilon", "delta", "gamma", "lambda"):
        assert r["gold"][k] == pytest.approx(float(d[k]), abs=1e-15)
    assert r["gold"]["within_bounds"] is True
    assert r["gold"]["assumption"]["condition_holds"] is True
    # the printed column: Table 1's frequencies to three significant figures
    printed = [0.849, 0.0401, 0.00317, 0.100, 0.00772] if column["aaa"] == 84900 else \
        [0.811, 0.078, 0.00635, 0.0908, 0.0140]
    for k, p in zip(CASES, printed, strict=True):
        assert float(f"{r['gold']['cases'][k]:.3g}") == pytest.approx(p, rel=2e-3)


# Tables 3-12: level, parse differs, degr lower, upper, (estimate), acc lower, upper,
# (estimate) [, real degradation, real accuracy]; all in per cent, as printed.
TABLES: dict[int, tuple[str, list[str]]] = {
    3: ("89", ["1 1.2 0.7 1.3 1.0 88 88 88", "2 2.4 1.3 2.6 2.0 87 88 87",
               "5 5.7 3.2 6.4 4.8 83 86 85", "10 11 6.2 12 9.4 78 83 81",
               "20 21 12 24 18 68 78 73"]),
    4: ("82", ["1 0.9 0.5 1.1 0.8 81 82 82", "2 1.7 1.1 2.1 1.6 81 81 81",
               "5 4.3 2.6 5.3 4.0 78 80 79", "10 8.6 5.2 10 7.8 74 78 76",
               "20 17 10 20 15 66 74 72"]),
    5: ("79", ["1 1.8 1.2 2.4 1.8 77 78 77", "2 3.7 2.3 4.7 3.5 75 77 76",
               "5 8.9 5.7 11 8.5 70 74 72", "10 17 11 22 16 61 70 66",
               "20 31 20 39 29 48 63 55"]),
    6: ("90", ["1 0.8 0.5 0.9 0.7 89 90 89", "2 1.7 0.9 1.8 1.4 88 89 89",
               "5 4.1 2.3 4.5 3.4 86 88 87", "10 8.2 4.5 9.1 6.8 82 86 84",
               "20 16 9.1 18 14 74 82 78"]),
    7: ("90", ["1 2.1 1.2 2.3 1.7 88 89 88", "2 4.2 2.3 4.6 3.5 86 88 87",
               "5 10 5.5 11 8.3 80 85 83", "10 19 11 21 16 71 81 76",
               "20 34 19 37 28 56 73 65"]),
    8: ("96", ["1 0.7 0.4 0.7 0.6 95 96 95", "2 1.4 0.7 1.5 1.1 95 95 95",
               "5 3.6 1.9 3.7 2.8 92 94 93", "10 7.2 3.7 7.5 5.6 89 92 91",
               "20 14 7.5 15 11 82 89 85"]),
    9: ("89", ["1 1.2 0.7 1.4 1.0 88 88 88 0.9 88", "2 2.3 1.3 2.6 1.9 87 88 87 1.8 87",
               "5 5.1 2.9 5.7 4.3 84 86 85 4.2 85", "10 9.9 5.5 11 8.3 79 84 81 8.1 82",
               "20 19 10 21 16 70 80 75 16 75"]),
    10: ("82", ["1 0.7 0.4 0.8 0.6 82 82 82 0.6 82", "2 1.7 1.0 2.0 1.5 81 82 81 1.4 81",
                "5 4.0 2.5 4.9 3.7 78 80 79 3.2 80", "10 8.3 5.0 10 7.6 74 78 76 6.6 77",
                "20 16 9.6 19 14 67 74 71 13 72"]),
    11: ("79", ["1 1.8 1.1 2.3 1.7 77 78 77 1.3 78", "2 3.4 2.2 4.3 3.2 75 77 76 2.4 77",
                "5 8.7 5.5 11 8.3 70 74 72 6.1 74", "10 16 11 21 16 62 70 66 12 69",
                "20 30 19 38 29 48 64 56 23 60"]),
    12: ("96", ["1 1.1 0.6 1.1 0.9 95 95 95 0.9 95", "2 1.9 1.0 2.0 1.5 94 95 94 1.6 94",
                "5 3.9 2.0 4.1 3.1 92 94 93 3.6 92", "10 7.3 3.8 7.6 5.7 88 92 90 6.7 89",
                "20 14 7.4 15 11 82 89 85 13 83"]),
}


def _interval(text: str) -> tuple[float, float]:
    """The values that print as TEXT: half a unit of its last digit either side."""
    digits = len(text.partition(".")[2])
    half = 0.5 * 10 ** -digits
    return float(text) - half, float(text) + half


def _range(f, *intervals: tuple[float, float]) -> tuple[float, float]:
    values = [f(*corner) for corner in itertools.product(*intervals)]
    return min(values), max(values)


# The one printed cell no rounding of its inputs explains: Table 4 at 20% prints an
# estimated accuracy of 72 where 82 - 3/4 x 17 = 69.25 (69.7 from its own printed
# estimate of 15%); its neighbours on the row (66 - 74) agree with the formulas.
PAPER_SLIPS = {(4, "20", "acc_estimate")}

FORMULAS = {
    # d: parse differs %, a: accuracy % (every formula is monotone in both)
    "lower": lambda d, a: 100 * d / a / 2,
    "upper": lambda d, a: 100 * d / a,
    "estimate": lambda d, a: 75 * d / a,
    "acc_lower": lambda d, a: a - d,
    "acc_upper": lambda d, a: a - d / 2,
    "acc_estimate": lambda d, a: a - 3 * d / 4,
}


@pytest.mark.parametrize("table", sorted(TABLES))
def test_tables_3_to_12_recomputed_from_parse_differs(table: int) -> None:
    acr, rows = TABLES[table]
    checked = 0
    for row in rows:
        cells = row.split()
        level, differs = cells[0], cells[1]
        names = ["lower", "upper", "estimate", "acc_lower", "acc_upper", "acc_estimate"]
        for name, printed in zip(names, cells[2:8], strict=True):
            lo, hi = _range(FORMULAS[name], _interval(differs), _interval(acr))
            plo, phi = _interval(printed)
            ok = lo <= phi and plo <= hi
            if (table, level, name) in PAPER_SLIPS:
                assert not ok
                continue
            assert ok, f"Table {table} {level}%: {name} {printed} but formula {lo:.3f}..{hi:.3f}"
            checked += 1
        if len(cells) == 10:  # Tables 9-12: the real values lie within the printed bounds
            real_d, real_a = float(cells[8]), float(cells[9])
            assert float(cells[2]) <= real_d <= float(cells[3])
            assert float(cells[5]) <= real_a <= float(cells[6])
    assert checked == 30 - sum(t == table for t, _, _ in PAPER_SLIPS)


def test_estimate_functions_on_table9_first_row() -> None:
    e = estimates(1 - 0.012, 0.89)
    assert e["degr_upper"] == pytest.approx(0.012 / 0.89)
    assert e["degr_lower"] == pytest.approx(0.006 / 0.89)
    assert e["degr_estimate"] == pytest.approx(0.009 / 0.89)
    assert e["acc_lower"] == pytest.approx(0.89 - 0.012)
    assert e["acc_upper"] == pytest.approx(0.89 - 0.006)


def test_appendix_a_warnings() -> None:
    assert any("not guaranteed" in w for w in warnings_for(0.6))
    assert any("overstate" in w for w in warnings_for(0.7))
    assert any("understate" in w for w in warnings_for(0.9))
    assert warnings_for(0.8) == []


counts_strategy = st.fixed_dictionaries({k: st.integers(0, 40) for k in CASES}).filter(
    lambda c: c["aaa"] + c["aab"] > 0)


@settings(max_examples=200, deadline=None)
@given(counts_strategy)
def test_real_degradation_within_bounds_when_the_condition_holds(c: dict[str, int]) -> None:
    total = sum(c.values())
    x = {k: Fraction(v, total) for k, v in c.items()}
    acr_m0 = x["aaa"] + x["aab"]
    degr = 1 - (x["aaa"] + x["aba"]) / acr_m0
    e = estimates(x["aaa"] + x["abb"], acr_m0)
    assert degr <= e["degr_upper"]  # the upper bound always holds
    if c["aab"] >= 3 * c["aba"] + c["abc"]:
        assert e["degr_lower"] <= degr
    d = deviations(x, acr_m0)
    assert e["degr_upper"] - degr == d["epsilon"]
    assert degr - e["degr_lower"] == d["delta"]


@settings(max_examples=50, deadline=None)
@given(st.lists(st.lists(st.sampled_from("abc"), min_size=1, max_size=6), min_size=1,
                max_size=5))
def test_identical_files_give_no_change(sentences: list[list[str]]) -> None:
    from parsebench.model.parses import Parse

    parses = [Parse(forms=[f"w{i}" for i in range(len(s))], line=1, kind="rows", rows=s,
                    noise=[False] * len(s)) for s in sentences]
    c = count_rows(parses, parses, parses, "tag", ("a", "b", "c"))
    r = rows_figures(c, None)
    assert r["acr_0n"] == 1.0 and r["differs"] == 0.0
    assert r["degr_upper"] == 0.0 and r["gold"]["degr_real"] == 0.0
    assert r["acc_estimate"] == r["acr"] == r["gold"]["acc_real"]


def test_spread_counts_changes_by_distance_to_the_misspelling(tmp_path: Path) -> None:
    def conllu(forms: list[str], heads: list[int]) -> str:
        return "".join(f"{i + 1}\t{f}\t_\tX\t_\t_\t{h}\tdep\t_\t_\n"
                       for i, (f, h) in enumerate(zip(forms, heads, strict=True))) + "\n"

    clean = tmp_path / "0.conllu"
    noisy = tmp_path / "n.conllu"
    clean.write_text(conllu(list("abcdef"), [0, 1, 2, 3, 4, 5]) + conllu(["x"], [0]))
    # "b" misspelled; rows b (distance 0) and d (distance 2) change, f (distance 4) too
    noisy.write_text(conllu(["a", "bb", "c", "d", "e", "f"], [0, 3, 2, 2, 4, 1])
                     + conllu(["x"], [0]))
    c = count_rows(read_parses(clean), read_parses(noisy), None, "head", ("0", "n", "m"))
    assert c.misspelled == 1
    assert c.spread == {"0": [1, 1, 0], "1": [2, 0, 0], "2": [1, 1, 0], "3+": [2, 1, 0],
                        "none": [1, 0, 0]}
    r = rows_figures(c, 0.9)
    assert r["spread"]["3+"]["share_of_changes"] == pytest.approx(1 / 3)
    assert r["error_level"] == pytest.approx(1 / 7)


def test_bracket_strings_are_the_conll2005_parse_column() -> None:
    t = parse_tree("( (S (NP (DT The) (NN cat)) (VP (VBD sat) (PP (IN on) (NP (PRP it)))) "
                   "(. .)) )")
    assert bracket_strings(t) == ["(S(NP*", "*)", "(VP*", "(PP*", "(NP*)))", "*)"]


def test_replicates_aggregate_mean_std_min_max() -> None:
    objs = [{"differs": 0.1, "warnings": ["a"], "gold": {"within_bounds": True}},
            {"differs": 0.3, "warnings": ["a", "b"], "gold": {"within_bounds": False}}]
    a = aggregate(objs)
    assert a["differs"]["mean"] == pytest.approx(0.2)
    assert a["differs"]["std"] == pytest.approx(0.1414213562373095)
    assert (a["differs"]["min"], a["differs"]["max"]) == (0.1, 0.3)
    assert a["warnings"] == ["a", "b"]
    assert a["gold"]["within_bounds"] == 0.5


def test_mismatched_rows_name_the_file_and_line(tmp_path: Path) -> None:
    a = tmp_path / "a.conllu"
    b = tmp_path / "b.conllu"
    a.write_text("1\tx\t_\tX\t_\t_\t0\troot\t_\t_\n\n1\ty\t_\tX\t_\t_\t0\troot\t_\t_\n\n")
    b.write_text("1\tx\t_\tX\t_\t_\t0\troot\t_\t_\n\n1\ty\t_\tX\t_\t_\t0\troot\t_\t_\n"
                 "2\tz\t_\tX\t_\t_\t1\tdep\t_\t_\n\n")
    with pytest.raises(InputError) as e:
        count_rows(read_parses(a), read_parses(b), None, "head", (str(a), str(b), ""))
    assert str(e.value).startswith(f"{b}:3: sentence has 2 words")


def test_cli_rows_replicates_json(tmp_path: Path) -> None:
    import subprocess
    import sys

    paths = write_rows(tmp_path, {"aaa": 80, "aab": 6, "aba": 1, "abb": 10, "abc": 3})
    other = write_rows(tmp_path / "", {"aaa": 80, "aab": 6, "aba": 1, "abb": 10, "abc": 3})
    p = subprocess.run([sys.executable, "-m", "parsebench.cli", "robustness", "rows",
                        str(paths[1]), str(paths[2]), str(other[2]), "--gold", str(paths[0]),
                        "--json"], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    for k in ("rows", "acr", "acr_0n", "differs", "degr_lower", "degr_upper", "degr_estimate",
              "acc_lower", "acc_upper", "acc_estimate"):
        assert set(d[k]) == {"mean", "std", "min", "max"}, k
    assert d["differs"]["mean"] == pytest.approx(0.10) and d["differs"]["std"] == 0.0
    assert set(d["gold"]) >= {"acr_m0", "acr_mn", "degr_real", "acc_real", "cases",
                              "within_bounds"}
    assert set(d["gold"]["cases"]) == set(CASES)
    assert len(d["replicates"]) == 2
    # the settings a signature names are written once (bigert.signature_fields) for the
    # command and a run: their order is the printed one
    assert d["signature"].startswith("method:bigert-rows|projection:tag|acr:gold|"
                                     "replicates:2|calibration:none|version:")
    text = subprocess.run([sys.executable, "-m", "parsebench.cli", "robustness", "rows",
                           str(paths[1]), str(paths[2]), "--accuracy", "0.86"],
                          capture_output=True, text=True)
    assert "Err lev  Parse differs" in text.stdout
    assert " 10.00 " in text.stdout  # parse differs 10%


def test_ewt_gold_against_a_relabelled_copy(tmp_path: Path) -> None:
    """Real treebank rows: change every nsubj label in the 'noisy' copy, count by hand."""
    gold = shared_path("data/ud-english-ewt/en_ewt-ud-test.conllu")
    lines = gold.read_text(encoding="utf-8").split("\n")
    changed = 0
    for k, line in enumerate(lines):
        cols = line.split("\t")
        if len(cols) == 10 and cols[0].isdigit() and cols[7] == "nsubj":
            cols[7] = "obj"
            lines[k] = "\t".join(cols)
            changed += 1
    noisy = tmp_path / "n.conllu"
    noisy.write_text("\n".join(lines), encoding="utf-8")
    g = read_parses(gold)
    c = count_rows(g, read_parses(noisy), g, "head+deprel", (str(gold), str(noisy), str(gold)))
    rows = sum(len(s) for s in g)
    assert c.rows == rows and c.rows - c.agree_0n == changed
    assert c.cases["aab"] == changed and c.cases["aaa"] == rows - changed
    r = rows_figures(c, None)
    assert r["gold"]["degr_real"] == pytest.approx(changed / rows)
    assert r["degr_upper"] == pytest.approx(changed / rows)  # acr = 1: upper bound is exact


def test_unchanged_sentences_shared_with_the_clean_parse_count_as_compared_ones() -> None:
    """The runner passes the clean Parse object itself for a sentence the noise left alone;
    rows and sentence scores must be what comparing a copy gives."""
    import dataclasses

    from conftest import DATA

    from parsebench.metrics.robustness.kakkonen import score_sentences

    gold = read_parses(DATA / "lin-key.conllu")
    clean = read_parses(DATA / "lin-answer.conllu")
    shared = list(clean)
    copied = [dataclasses.replace(p, heads=list(p.heads)) for p in clean]
    changed = dataclasses.replace(clean[0], heads=[0] * len(clean[0].heads),
                                  noise=[True] + [False] * (len(clean[0]) - 1))
    shared[0] = copied[0] = changed
    for proj in ("head+deprel", "upos"):
        a = count_rows(clean, shared, gold, proj, ("c", "n", "g"), {})
        b = count_rows(clean, copied, gold, proj, ("c", "n", "g"))
        assert a == b
        assert (a.cases["aab"] + a.cases["abc"] > 0) == (proj == "head+deprel")
    a_s = score_sentences(clean, [shared], "c", ["n"]).as_dict()
    b_s = score_sentences(clean, [copied], "c", ["n"]).as_dict()
    assert a_s == b_s and a_s["by_errors"]["0"]["sentences"] == len(clean) - 1


def test_bounds_are_capped_where_more_rows_change_than_the_clean_parse_gets_right() -> None:
    """Clean accuracy 1/3, 2 of 3 rows changed: eq. 6 gives an upper bound of 2 and eq. 18
    a noisy accuracy of -1/3; reported, they are 1 and 0, with a warning."""
    c = RowCounts(rows=3, agree_0n=1)
    r = rows_figures(c, 1 / 3)
    assert r["degr_upper"] == 1 and r["degr_estimate"] == 1 and r["acc_lower"] == 0
    assert r["degr_lower"] == 1 and r["acc_estimate"] == 0
    assert any("capped" in w for w in r["warnings"])


def _failed_conllu(path: Path, n: int) -> None:
    """N sentences the parser failed on, as `parsebench parse` writes them."""
    path.write_text("".join(f"# sent_id = s{k}\n# parse_status = failed\n"
                            f"# parse_error = timeout\n1\tw{k}\t_\t_\t_\t_\t_\t_\t_\t_\n"
                            f"2\tx\t_\t_\t_\t_\t_\t_\t_\t_\n\n" for k in range(n)),
                    encoding="utf-8")


def test_rows_of_parses_that_all_failed_are_na_with_the_failures_named(tmp_path: Path
                                                                        ) -> None:
    import subprocess
    import sys

    clean, noisy = tmp_path / "clean.conllu", tmp_path / "noisy.conllu"
    _failed_conllu(clean, 3)
    _failed_conllu(noisy, 3)
    r = rows_figures(count_rows(read_parses(clean), read_parses(noisy), None, "head",
                                (str(clean), str(noisy), "")), 0.8, str(noisy), str(clean))
    assert r["differs"] is None and r["degr_estimate"] is None  # n/a, not 0
    assert r["warnings"] == [f"every sentence failed on one side (3 sentences in {clean} "
                             f"and 3 sentences in {noisy}): no row was compared, so parse "
                             "differs and the estimates are n/a"]
    p = subprocess.run([sys.executable, "-m", "parsebench.cli", "robustness", "rows",
                        str(clean), str(noisy), "--accuracy", "0.8"],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    row = next(ln for ln in p.stdout.splitlines() if ln.lstrip().startswith("n/a")
               or ln.lstrip()[:1].isdigit())
    assert row.split()[1] == "n/a", p.stdout  # the parse differs column
    assert "every sentence failed" in p.stdout + p.stderr
    # some failed: the figure stays, and the warning names them
    _failed_conllu(noisy, 1)
    with noisy.open("a", encoding="utf-8") as f:
        f.write("1\tw1\t_\tX\t_\t_\t0\troot\t_\t_\n2\tx\t_\tX\t_\t_\t1\tdep\t_\t_\n\n"
                "1\tw2\t_\tX\t_\t_\t0\troot\t_\t_\n2\tx\t_\tX\t_\t_\t1\tdep\t_\t_\n\n")
    r = rows_figures(count_rows(read_parses(clean), read_parses(noisy), None, "head",
                                (str(clean), str(noisy), "")), 0.8, str(noisy), str(clean))
    assert r["differs"] is None  # the clean parse failed everywhere: nothing compared


def test_a_run_whose_parser_always_fails_gives_no_parse_differs(tmp_path: Path) -> None:
    import subprocess
    import sys

    from experiments import write_exp

    fixture = FIXTURES / "typos.conllu"
    exp = write_exp(tmp_path, f'''
[corpus]
path = "{fixture}"
limit = 3
[noise]
rates = [0.2]
replicates = 2
seed = 3
[[parsers]]
name = "dead"
spec = "command:sh -c 'exit 3'"
[metrics]
deps = true
rows = true
''')
    p = subprocess.run([sys.executable, "-m", "parsebench.cli", "run", str(exp), "--store",
                        str(tmp_path / "s.sqlite")], capture_output=True, text=True,
                       stdin=subprocess.DEVNULL)
    assert p.returncode == 0, p.stderr
    line = next(ln for ln in p.stdout.splitlines() if ln.split()[:2] == ["dead", "rows"])
    assert "differs n/a" in line and "every sentence failed on one side" in line, line


def test_clean_accuracy_says_why_it_is_not_las(tmp_path: Path) -> None:
    # clean accuracy 79.23% against LAS 79.42 with no word on why: the rows compare the
    # whole relation (nsubj:pass), LAS only its universal part (nsubj)
    import subprocess
    import sys

    def conllu(rel: str, form: str = "cats") -> str:
        return (f"1\t{form}\t_\tX\t_\t_\t2\t{rel}\t_\t_\n2\twere\t_\tX\t_\t_\t0\troot\t_\t_\n"
                "3\tseen\t_\tX\t_\t_\t2\tdep\t_\t_\n\n")

    gold, clean, noisy = (tmp_path / f"{n}.conllu" for n in ("g", "c", "n"))
    gold.write_text(conllu("nsubj:pass") * 2, encoding="utf-8")
    clean.write_text(conllu("nsubj") + conllu("nsubj:pass"), encoding="utf-8")
    noisy.write_text(conllu("nsubj", "cuts") + conllu("nsubj:pass"), encoding="utf-8")
    p = subprocess.run([sys.executable, "-m", "parsebench.cli", "robustness", "rows",
                        str(clean), str(noisy), "--gold", str(gold)],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    head = p.stdout.splitlines()[1:3]
    assert head[0].endswith("clean accuracy 83.33% (from the gold)")  # LAS: 100%
    assert head[1] == ("(rows compare whole relations, subtypes included as in nsubj:pass; "
                       "LAS compares only the universal part, so it can be higher)")

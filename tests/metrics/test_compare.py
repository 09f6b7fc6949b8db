"""parsebench compare: intervals and paired tests through the real command."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import DATA, error_text, shared_path

from parsebench.formats.conllu import read_conllu, write_conllu


def compare(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "parsebench.cli", "compare", *args],
                          capture_output=True, text=True)


def _worse(gold: Path, out: Path, share: float, seed: int) -> Path:
    """GOLD with the head of a random SHARE of its words moved: a system that much worse."""
    sents = read_conllu(gold)
    rng = random.Random(seed)
    words = [(k, i) for k, s in enumerate(sents) for i in range(len(s))]
    for k, i in rng.sample(words, round(share * len(words))):
        s = sents[k]
        s.heads[i] = (s.heads[i] + 1) % (len(s) + 1) if len(s) > 1 else s.heads[i]
    with out.open("w", encoding="utf-8") as fh:
        write_conllu(sents, fh)
    return out


def test_a_system_against_itself(tmp_path: Path) -> None:
    key, answer = DATA / "lin-key.conllu", DATA / "lin-answer.conllu"
    p = compare(str(key), str(answer), str(answer), "--json", "--samples", "500")
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    assert d["pairs"][0]["delta"] == 0 and d["pairs"][0]["p"] == 1
    assert d["pairs"][0]["significant"] is False and d["correction"] is None
    assert "contain a cycle" in p.stderr  # the scorer's warnings reach the user
    # the bundled Lin example: LAS as CoNLL 2018 computes it, 6 of 12 words
    assert d["systems"][0]["score"] == pytest.approx(6 / 12)
    lo, hi = d["systems"][0]["ci"]
    assert 0 <= lo <= 6 / 12 <= hi <= 1
    assert "signature" in d and set(d) >= {"metric", "test", "samples", "seed", "systems",
                                           "pairs"}


@pytest.mark.parametrize("test", ["bootstrap", "randomization"])
def test_one_percent_worse_on_ewt_is_significant_and_holm_is_said(tmp_path: Path,
                                                                  test: str) -> None:
    gold = shared_path("data/ud-english-ewt/en_ewt-ud-test.conllu")
    worse = _worse(gold, tmp_path / "worse.conllu", 0.01, 1)
    much = _worse(gold, tmp_path / "much.conllu", 0.05, 2)
    p = compare(str(gold), str(gold), str(worse), str(much), "--test", test, "--json")
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    assert d["systems"][0]["score"] == 1.0
    for pair, share in zip(d["pairs"], (0.01, 0.05), strict=True):
        assert pair["delta"] == pytest.approx(-share, abs=0.002)
        assert pair["p"] < 0.001 and pair["significant"] is True
        assert pair["ci"][1] < 0
    assert d["correction"] == "holm"
    text = compare(str(gold), str(gold), str(worse), str(much), "--test", test,
                   "--samples", "1000").stdout
    assert "Holm-corrected for 2 comparisons" in text and "(baseline)" in text


def test_same_seed_same_output_and_all_pairs(tmp_path: Path) -> None:
    key, answer = DATA / "lin-key.conllu", DATA / "lin-answer.conllu"
    args = (str(key), str(answer), str(key), "--samples", "300", "--json")
    assert compare(*args).stdout == compare(*args).stdout
    d = json.loads(compare(*args, "--all-pairs", "--metric", "lin-labeled").stdout)
    assert [(p["baseline"], p["system"]) for p in d["pairs"]] == [(0, 1)]
    d = json.loads(compare(str(key), str(answer), str(key), str(answer), "--samples", "300",
                           "--json", "--all-pairs").stdout)
    assert [(p["baseline"], p["system"]) for p in d["pairs"]] == [(0, 1), (0, 2), (1, 2)]


def test_trees_metrics_and_bad_input(tmp_path: Path) -> None:
    gold, test = DATA / "demo-gold.mrg", DATA / "demo-test.mrg"
    d = json.loads(compare(str(gold), str(gold), str(test), "--metric", "evalb",
                           "--samples", "300", "--json").stdout)
    # EVALB on the bundled trees: 15 of 17 gold brackets, 15 of 16 test brackets
    assert d["systems"][1]["score"] == pytest.approx(2 * 15 / (17 + 16))
    p = compare(str(gold), str(test), "--metric", "nope")
    assert p.returncode == 2 and error_text(p.stderr).startswith("parsebench: --metric 'nope'")
    short = tmp_path / "short.mrg"
    short.write_text(test.read_text().splitlines()[0] + "\n")
    p = compare(str(gold), str(test), str(short), "--metric", "flat-recall")
    assert p.returncode == 2 and "parsebench: " in p.stderr


def test_a_run_with_two_parsers_says_which_differ(tmp_path: Path) -> None:
    pytest.importorskip("nltk")
    from conftest import FIXTURES

    exp = tmp_path / "two.toml"
    exp.write_text(f'''name = "two"
[corpus]
path = "{FIXTURES / 'typos.conllu'}"
[noise]
rates = [0.2, 0.4]
replicates = 2
lexicon = "{FIXTURES / 'lexicon.txt'}"
[[parsers]]
name = "tnt-lin"
spec = "nltk-tnt:{DATA / 'lin-key.conllu'}"
[[parsers]]
name = "tnt-typos"
spec = "nltk-tnt:{FIXTURES / 'typos.conllu'}"
[metrics]
rows = ["upos"]
''')
    p = subprocess.run([sys.executable, "-m", "parsebench.cli", "run", str(exp), "--store",
                        str(tmp_path / "s.sqlite"), "--report", str(tmp_path / "rep")],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    md = (tmp_path / "rep" / "index.md").read_text()
    assert "Which parsers differ" in md
    rows = [ln for ln in md.splitlines() if ln.startswith("| parse differs (upos)")]
    assert len(rows) == 2  # one pair of parsers at each of the two levels
    assert all("tnt-typos - tnt-lin" in r for r in rows)
    # with the gold, the real degradation is tested too: 2 figures x 2 levels
    assert len([ln for ln in md.splitlines() if ln.startswith("| real degradation")]) == 2
    assert "Holm-corrected within each figure and level" in md
    # the report is computed again from the store alone, with the same tests
    p = subprocess.run([sys.executable, "-m", "parsebench.cli", "report",
                        str(tmp_path / "s.sqlite"), "-o", str(tmp_path / "again")],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert (tmp_path / "again" / "index.md").read_text() == md


def test_an_exact_match_share_has_a_wilson_interval() -> None:
    """UCM is a share of sentences: 2 of 2 matched gets [2 / (2 + z^2), 1] (Wilson score),
    not the bootstrap's [1, 1]; the text names the interval."""
    key, answer = DATA / "lin-key.conllu", DATA / "lin-answer.conllu"
    p = compare(str(key), str(key), str(answer), "--metric", "ucm", "--json")
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    z2 = 1.959963984540054 ** 2
    assert [s["interval"] for s in d["systems"]] == ["Wilson score"] * 2
    assert d["systems"][0]["ci"] == pytest.approx([2 / (2 + z2), 1.0], abs=1e-12)
    assert d["systems"][1]["ci"] == pytest.approx([0.0, z2 / (2 + z2)], abs=1e-12)
    p = compare(str(key), str(key), "--metric", "ucm")
    assert "(Wilson score for the systems' scores)" in p.stdout


def test_systems_given_other_inputs_are_said_to_be(tmp_path: Path) -> None:
    """A system on the gold's words, one that copied the gold's tags too and one that
    split a word of its own: each system's input in the JSON, and one warning."""
    key = DATA / "lin-key.conllu"
    sents = read_conllu(key)
    tagged = tmp_path / "tagged.conllu"
    with tagged.open("w", encoding="utf-8") as fh:
        write_conllu(sents, fh)
    words = tmp_path / "words.conllu"
    for s in sents:
        s.upos[:] = ["X"] * len(s)
    with words.open("w", encoding="utf-8") as fh:
        write_conllu(sents, fh)
    p = compare(str(key), str(tagged), str(words), "--json", "--samples", "200")
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    assert [s["input"] for s in d["systems"]] == ["gold-words-and-tags", "gold-words"]
    assert any(w.startswith("the systems were not given the same input (the gold words "
                            "and tags: ") for w in d["warnings"])
    same = compare(str(key), str(tagged), str(tagged), "--json", "--samples", "200")
    assert not any("same input" in w for w in json.loads(same.stdout)["warnings"])


def test_a_system_with_words_of_its_own_is_said_to_have_them(tmp_path: Path) -> None:
    gold = tmp_path / "gold.conllu"
    gold.write_text("# text = I don't know\n1\tI\tI\tPRON\t_\t_\t4\tnsubj\t_\t_\n"
                    "2\tdo\tdo\tAUX\t_\t_\t4\taux\t_\tSpaceAfter=No\n"
                    "3\tn't\tnot\tPART\t_\t_\t4\tadvmod\t_\t_\n"
                    "4\tknow\tknow\tVERB\t_\t_\t0\troot\t_\t_\n\n", encoding="utf-8")
    own = tmp_path / "own.conllu"
    own.write_text("# text = I don't know\n1\tI\tI\tPRON\t_\t_\t3\tnsubj\t_\t_\n"
                   "2\tdon't\tdo\tAUX\t_\t_\t3\taux\t_\t_\n"
                   "3\tknow\tknow\tVERB\t_\t_\t0\troot\t_\t_\n\n", encoding="utf-8")
    p = compare(str(gold), str(gold), str(own), "--json", "--samples", "100")
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    assert [s["input"] for s in d["systems"]] == ["gold-words-and-tags", "own-words"]
    assert "words of its own (not the gold's): " in " ".join(d["warnings"])

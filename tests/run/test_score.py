"""The runner's loop over the methods: each one applies where it fits, and EVALB's
brackets and the flat keys score a constituency parser's noisy parses against its clean
ones, with per-sentence statistics, intervals and the report's tests between parsers."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import needs
from experiments import write_exp

from parsebench.common.errors import InputError
from parsebench.formats.brackets import parse_tree
from parsebench.metrics.constituency.gaizauskas_scorer import spans
from parsebench.parsers.executor import Executor
from parsebench.report.pages import write_report
from parsebench.run.experiment import METRICS_KEYS, load
from parsebench.run.runner import run_experiment
from parsebench.run.score import METHODS
from parsebench.store import Store

SENTENCES = """The old man walked to the station .
Maria walked her dog .
The children played in the park .
Anna read a book in the library .
The teacher sent a letter to her friend .
The dog ran to the river .
"""


def _brackets(tree: str) -> int:
    """Phrasal brackets as EVALB counts them (no deleted labels: every non-preterminal)."""
    t = parse_tree(tree)
    return sum(1 for n in t.nodes() if n.is_phrasal())


def test_every_method_has_its_metrics_key() -> None:
    assert set(METHODS) == METRICS_KEYS


def test_evalb_and_flat_keys_in_a_run_of_a_constituency_parser(tmp_path: Path) -> None:
    needs("nltk")
    (tmp_path / "in.txt").write_text(SENTENCES)
    exp = load(write_exp(tmp_path, '''
[corpus]
path = "in.txt"
[noise]
per_sentence = [1]
replicates = 2
seed = 5
[[parsers]]
name = "earley"
spec = "nltk-earley:english.cfg"
[[parsers]]
name = "earley-again"
spec = "nltk-earley:english.cfg"
timeout = 30
'''))
    with Store(tmp_path / "s.sqlite") as st:
        out = run_experiment(exp, st, Executor("local", 1))
    res = {(r.parser, r.metric): r.value.to_dict() for r in out.results
           if r.metric in ("evalb", "flat")}
    assert set(res) == {(p, m) for p in ("earley", "earley-again") for m in ("evalb", "flat")}
    ev, fl = res[("earley", "evalb")], res[("earley", "flat")]
    assert ev == res[("earley-again", "evalb")]
    # every sentence has one misspelling, which the grammar's closed lexicon does not know
    # unless it is a real word: the noisy parse fails and is scored as the flat tree
    # (PARSE-FAILED ...), whose one bracket matches nothing of the clean S
    rows = ev["stats"]["evalb"]
    assert len(rows) == 6 and ev["sentences"] == 6 and ev["replicates"] == 2
    from parsebench.model.parses import read_input
    from parsebench.parsers.run import parse_sentences

    clean = parse_sentences(read_input(tmp_path / "in.txt"), "nltk-earley:english.cfg")
    trees = [t.outcome.tree for t in clean.timed]  # type: ignore[union-attr]
    assert all(trees)
    for row, tree in zip(rows, trees, strict=True):
        b = _brackets(tree)
        # summed over 2 replicates: the key's brackets twice; a failed noisy parse adds 1
        # test bracket and no match, a parse of a real-word error adds its own
        assert row[1] == 2 * b
        assert 0 <= row[0] <= min(row[1], row[2])
    m, g, t = (sum(r[k] for r in rows) for k in range(3))
    assert ev["matched"] == m and ev["key_brackets"] == g and ev["noisy_brackets"] == t
    assert ev["f1"] == pytest.approx(2 * m / (g + t))
    lo, hi = ev["ci95"]["f1"]
    assert lo <= ev["f1"] <= hi
    # the flat key: the clean parse's spans; a flat failed tree crosses none of them
    frows = fl["stats"]["flat"]
    for row, tree in zip(frows, trees, strict=True):
        assert row[0] == 2 * len(spans(parse_tree(tree)))
        assert row[3] <= row[0]
    assert fl["recall"] == pytest.approx(sum(r[2] for r in frows) / sum(r[0] for r in frows))
    assert fl["conformance"] == pytest.approx(
        1 - sum(r[3] for r in frows) / sum(r[0] for r in frows))
    # the report tests the two parsers on these figures too (identical: p = 1)
    with Store(tmp_path / "s.sqlite") as st:
        paths = write_report(st, tmp_path / "rep")
    md = paths["markdown"].read_text()
    assert "EVALB" in md and "flat key" in md
    assert "| EVALB bracketing F-measure (valid sentences) | per-sentence=1 | " \
           "earley-again - earley | 0.00 [0.00, 0.00] | 1.0000 | no |" in md


def test_metrics_can_be_switched_off_and_rules_are_checked(tmp_path: Path) -> None:
    (tmp_path / "in.txt").write_text(SENTENCES)
    body = '''
[corpus]
path = "in.txt"
[noise]
per_sentence = [1]
[[parsers]]
name = "earley"
spec = "nltk-earley:english.cfg"
[metrics]
evalb = false
flat = "rules.txt"
'''
    (tmp_path / "rules.txt").write_text("(S NP^ VP)\n(NP broken\n")
    with pytest.raises(InputError, match=r"rules.txt:2: bad rule"):
        load(write_exp(tmp_path, body))
    (tmp_path / "rules.txt").write_text("NOM^\n")
    exp = load(write_exp(tmp_path, body))
    assert not exp.wants("evalb") and exp.setting("flat").rules == tmp_path / "rules.txt"

"""The uninformed baselines (``baseline:left|right|random|random-projective``)."""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys
from collections import Counter
from math import comb
from pathlib import Path

import pytest
from conftest import shared_path
from parsed import is_projective

from parsebench.common.errors import InputError
from parsebench.formats.conllu import read_conllu
from parsebench.metrics.dependency.tree_checks import faults
from parsebench.parsers.base import Item, make_adapter, spec_identity
from parsebench.parsers.baseline import (
    left_chain,
    projective_trees,
    random_projective_tree,
    random_tree,
    right_chain,
)


def all_trees(n: int) -> list[tuple[int, ...]]:
    return [t for t in itertools.product(range(n + 1), repeat=n)
            if all(h != d for d, h in enumerate(t, 1)) and faults(list(t)) == 0]


def test_chains() -> None:
    assert left_chain(4) == [0, 1, 2, 3]
    assert right_chain(4) == [2, 3, 4, 0]
    assert left_chain(1) == right_chain(1) == [0]


@pytest.mark.parametrize("n", range(1, 9))
def test_projective_counts_are_the_known_sequence(n: int) -> None:
    # projective trees with one root word: binomial(3n-2, n-1)/n (OEIS A006013)
    assert projective_trees(n) == comb(3 * n - 2, n - 1) // n


def test_counts_match_enumeration() -> None:
    trees = all_trees(4)
    assert len(trees) == 4 ** 3  # rooted labeled trees: n^(n-1)
    assert sum(is_projective(list(t)) for t in trees) == projective_trees(4) == 30


@pytest.mark.parametrize(("draw", "projective"), [(random_tree, False),
                                                  (random_projective_tree, True)])
def test_samplers_are_uniform_trees(draw: object, projective: bool) -> None:
    n = 4
    support = [t for t in all_trees(n) if is_projective(list(t)) or not projective]
    rng = random.Random(5)
    draws = 200 * len(support)
    got = Counter(tuple(draw(n, rng)) for _ in range(draws))  # type: ignore[operator]
    assert set(got) == set(support)  # only trees of the kind, every one of them
    # each tree 200 times expected: 5 standard deviations either side
    assert all(130 < c < 270 for c in got.values()), sorted(got.values())


def test_long_sentences_are_trees() -> None:
    rng = random.Random(1)
    for n in (1, 2, 50, 180):
        for draw in (random_tree, random_projective_tree):
            heads = draw(n, rng)
            assert len(heads) == n and faults(heads) == 0
        assert is_projective(random_projective_tree(n, rng))


def test_adapter_is_deterministic_and_labels_root_and_dep() -> None:
    words = ["the", "cat", "sat", "on", "the", "mat"]
    a = make_adapter("baseline:random:7")
    batch = [Item(0, words, ""), Item(1, words[:3], "")]
    first = list(a.parse(batch))
    again = list(make_adapter("baseline:random:7").parse(batch[::-1]))[::-1]
    assert first == again  # the same words, the same tree, in any order
    assert first[0].heads is not None and first[0].deprels is not None
    assert first[0].deprels == ["root" if h == 0 else "dep" for h in first[0].heads]
    many = [Item(k, words[k:], "") for k in range(3)]
    seeds = [[x.heads for x in make_adapter(f"baseline:random:{seed}").parse(many)]  # type: ignore[attr-defined]
             for seed in (7, 8)]
    assert seeds[0] != seeds[1]  # another seed, other trees
    assert spec_identity("baseline:random:7") == {
        "adapter": "baseline", "baseline": "random", "seed": "7", "sampler": "prufer-1"}
    assert spec_identity("baseline:left") == {"adapter": "baseline", "baseline": "left"}


@pytest.mark.parametrize("spec", ["baseline:", "baseline:middle", "baseline:left:3",
                                  "baseline:random:x"])
def test_bad_specs_are_refused(spec: str) -> None:
    with pytest.raises(InputError, match="baseline"):
        make_adapter(spec)


def test_chains_on_ewt_test_score_the_share_of_adjacent_heads(tmp_path: Path) -> None:
    gold = shared_path("data/ud-english-ewt/en_ewt-ud-test.conllu")
    sentences = read_conllu(gold)
    words = sum(len(s) for s in sentences)
    # the previous word's position is i (0-based), the root's 0 for the first word; the
    # next word's is i + 2, the root for the last
    previous = sum(h == i for s in sentences for i, h in enumerate(s.heads))
    following = sum(h == (i + 2 if i + 1 < len(s) else 0)
                    for s in sentences for i, h in enumerate(s.heads))
    for spec, share in (("baseline:left", previous / words),
                        ("baseline:right", following / words)):
        out = tmp_path / "out.conllu"
        p = subprocess.run([sys.executable, "-m", "parsebench.cli", "parse", str(gold),
                            "--parser", spec, "-o", str(out)], capture_output=True, text=True)
        assert p.returncode == 0, p.stderr
        e = subprocess.run([sys.executable, "-m", "parsebench.cli", "eval", "deps",
                            str(gold), str(out), "--json"], capture_output=True, text=True)
        assert e.returncode == 0, e.stderr
        d = json.loads(e.stdout)
        assert d["uas"]["recall"] == share
        assert d["validity"]["invalid"] == 0


def test_a_chain_is_perfectly_robust_in_a_run(tmp_path: Path) -> None:
    """A run takes baselines like any parser; the right chain never changes its parse."""
    from conftest import FIXTURES

    import parsebench as pb

    toml = tmp_path / "baselines.toml"
    toml.write_text(f'''name = "baselines"
[corpus]
path = "{FIXTURES / 'typos.conllu'}"
[noise]
rates = [0.2]
replicates = 2
lexicon = "{FIXTURES / 'lexicon.txt'}"
[[parsers]]
name = "right"
spec = "baseline:right"
[[parsers]]
name = "random"
spec = "baseline:random-projective:3"
[metrics]
rows = ["head"]
sentences = true
deps = true
''', encoding="utf-8")
    r = pb.run(toml, store=tmp_path / "s.sqlite")
    got = {(x.parser, x.metric, x.level): x.to_dict()["value"] for x in r.results}
    rows = got[("right", "rows", "rate=0.2")]
    assert rows["differs"]["mean"] == 0.0 and rows["gold"]["degr_real"]["mean"] == 0.0
    assert got[("right", "sentences", "rate=0.2")]["unlabeled"] == 1.0
    assert got[("random", "rows", "rate=0.2")]["differs"]["mean"] > 0.0  # drawn by words
    clean = got[("right", "deps", "clean")]
    assert 0.0 < clean["uas"]["f1"] < 1.0


def test_the_summary_reads_robustness_beside_accuracy() -> None:
    from parsebench.report.summary import _beside_accuracy

    text = _beside_accuracy("right", {"right": 0.0, "udpipe": 0.8, "spacy": None})
    assert text == (" right is the most robust but less accurate on clean text (LAS) than "
                    "udpipe: read robustness beside accuracy (a parser that always returns a "
                    "right-branching chain never changes its parse).")
    assert _beside_accuracy("udpipe", {"right": 0.0, "udpipe": 0.8}) == ""
    assert _beside_accuracy("x", {}) == ""

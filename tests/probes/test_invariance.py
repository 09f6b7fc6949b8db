"""parsebench invariance: edits whose correct parse is the same tree."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FIXTURES, ROOT, needs, shared_path
from probe_data import conllu, counting, tagged_corpus

from parsebench.common.errors import InputError
from parsebench.formats.conllu import Sentence, parse_conllu, read_conllu
from parsebench.parsers.cached import CachedParser
from parsebench.probes.invariance import _key, check, edited, frame, make_edits

sys.path.insert(0, str(FIXTURES))
import toy_parsers


def test_edits_keep_number_and_degree_and_never_use_1() -> None:
    e = make_edits(tagged_corpus(), seed=1)
    as_tuples = {k: [(x.sentence, x.token, x.orig, x.new) for x in v] for k, v in e.items()}
    # one Sing proper noun for the other; the only Plur one has no partner
    assert as_tuples["propn"] == [(0, 0, "John", "Paris"), (1, 0, "Paris", "John")]
    # "1" is never a site nor a substitute; 7 and 12 (each after the verb, before the
    # adjective) swap; 42, the root, has no number in its frame to swap with
    assert as_tuples["num"] == [(0, 2, "7", "12"), (1, 2, "12", "7")]
    # positive adjectives swap; the only comparative has no partner
    assert as_tuples["adj"] == [(0, 3, "happy", "old"), (1, 3, "old", "happy")]
    # the first letter's case, both ways; "42" is no word
    assert as_tuples["case"] == [(0, 0, "John", "john"), (1, 0, "Paris", "paris"),
                                 (2, 0, "the", "The")]
    out = edited(tagged_corpus(), e["adj"])
    assert out[0].forms[3] == "old" and out[0].misc[3] == "Invariance=adj|Orig=happy"
    assert out[0].text == "John saw 7 old dogs ."


def test_failure_rates_of_toy_parsers() -> None:
    s = tagged_corpus()
    e = make_edits(s, seed=1)
    blind = check(s, e, counting(toy_parsers.form_blind))
    assert {k: (v["tested"], v["failed"], v["failure_rate"]) for k, v in blind.items()} == {
        "propn": (2, 0, 0.0), "num": (2, 0, 0.0), "case": (3, 0, 0.0), "adj": (2, 0, 0.0)}
    # none of 3 failed: the Wilson interval [0, z^2 / (n + z^2)], not [0.0, 0.0]
    z2 = 1.959963984540054 ** 2
    assert blind["case"]["ci95"] == pytest.approx([0.0, z2 / (3 + z2)], abs=1e-12)
    casey = check(s, e, counting(toy_parsers.casey))
    assert casey["case"]["failed"] == 3 and casey["case"]["failure_rate"] == 1.0
    assert casey["propn"]["failure_rate"] == 0.0 and casey["adj"]["failure_rate"] == 0.0
    # every untouched word of every case-edited sentence changes: 5 + 4 + 5 words
    assert casey["case"]["changed_words"]["changed"] == 14
    assert casey["case"]["changed_words"]["rate"] == 1.0
    f = casey["case"]["failures"][0]
    assert (f["sent_id"], f["orig"], f["new"]) == ("t1", "John", "john")
    assert f["changed_words"][0] == {"token": 2, "form": "saw", "clean": "1:dep",
                                     "edited": "6:dep"}
    # the weak-word parser's weak word is never edited: it passes every test
    weak = check(s, e, counting(toy_parsers.weak_word))
    assert all(v["failed"] == 0 for v in weak.values())


def test_untagged_corpus_is_refused() -> None:
    s = tagged_corpus()
    for x in s:
        x.upos = ["_"] * len(x.forms)
    with pytest.raises(InputError, match="no UPOS"):
        make_edits(s, 1)


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "src"), str(FIXTURES)]))
    return subprocess.run([sys.executable, "-m", "parsebench.cli", *args], cwd=cwd, env=env,
                          capture_output=True, text=True)


def test_cli_two_parsers_folder_and_text(tmp_path: Path) -> None:
    (tmp_path / "in.conllu").write_text(conllu())
    p = _cli("invariance", "in.conllu", "--parser", "python:toy_parsers:FormBlind",
             "--parser", "python:toy_parsers:Casey", "-o", "inv", "--json", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    r = json.loads(p.stdout)
    assert r["edits"] == {"propn": 2, "num": 2, "case": 3, "adj": 2}
    assert r["parsers"]["python:toy_parsers:Casey"]["case"]["failure_rate"] == 1.0
    assert r["parsers"]["python:toy_parsers:FormBlind"]["case"]["failure_rate"] == 0.0
    assert sorted(x.name for x in (tmp_path / "inv").iterdir()) == [
        "adj.conllu", "case.conllu", "failures.txt", "invariance.json", "num.conllu",
        "propn.conllu"]
    assert read_conllu(tmp_path / "inv" / "case.conllu")[2].forms[0] == "The"
    p = _cli("invariance", "in.conllu", "--parser", "python:toy_parsers:Casey", cwd=tmp_path)
    assert "python:toy_parsers:Casey, case: 3 failing sentences" in p.stdout
    assert "t1: John -> john (word 1): saw 1:dep->6:dep" in p.stdout


def test_udpipe_on_ewt_sentences() -> None:
    needs("ufal.udpipe")
    from parsebench.parsers.cached import pool_parser
    from parsebench.parsers.pool import Pool

    gold = read_conllu(shared_path("data/ud-english-ewt/en_ewt-ud-test.conllu"))[:100]
    model = shared_path("models/en_ewt.udpipe")
    e = make_edits(gold, 1)
    assert {k: len(v) for k, v in e.items()} == {"propn": 39, "num": 4, "case": 85, "adj": 45}
    with Pool(f"udpipe:{model}", 1, 60.0, 16) as pool:
        r = check(gold, e, CachedParser(pool_parser(pool)))
    for kind, v in r.items():
        assert v["tested"] == len(e[kind])
        assert v["failure_rate"] is not None and 0.0 <= v["failure_rate"] <= 1.0
        assert v["failed"] == len(v["failures"])


def _tree(text: str) -> Sentence:
    """A parsed sentence from 'form upos xpos feats head deprel' words, ';' between."""
    rows = [w.split() for w in text.split(";")]
    lines = [f"{i}\t{f}\t_\t{u}\t{x}\t{ft}\t{h}\t{r}\t_\t_"
             for i, (f, u, x, ft, h, r) in enumerate(rows, 1)]
    return parse_conllu([*lines, ""])[0]


FRAMED = [
    # "a few days": few's frame has the determiner a and a plural head; "long" is only
    # attested with a singular one, so the old rule's "a long days" is not made
    "We PRON PRP _ 2 nsubj; waited VERB VBD _ 0 root; a DET DT _ 5 det; "
    "few ADJ JJ Degree=Pos 5 amod; days NOUN NNS Number=Plur 2 obl:unmarked; . PUNCT . _ 2 punct",
    "It PRON PRP _ 5 nsubj; was AUX VBD _ 5 cop; a DET DT _ 5 det; "
    "long ADJ JJ Degree=Pos 5 amod; day NOUN NN Number=Sing 0 root; . PUNCT . _ 5 punct",
    "It PRON PRP _ 5 nsubj; was AUX VBD _ 5 cop; a DET DT _ 5 det; "
    "short ADJ JJ Degree=Pos 5 amod; day NOUN NN Number=Sing 0 root; . PUNCT . _ 5 punct",
    # "fond of cats": fond has its obl; "much" never has one here
    "She PRON PRP _ 3 nsubj; is AUX VBZ _ 3 cop; fond ADJ JJ Degree=Pos 0 root; "
    "of ADP IN _ 5 case; cats NOUN NNS Number=Plur 3 obl; . PUNCT . _ 3 punct",
    "I PRON PRP _ 2 nsubj; ate VERB VBD _ 0 root; much ADJ JJ Degree=Pos 4 amod; "
    "food NOUN NN Number=Sing 2 obj; . PUNCT . _ 2 punct",
]


def test_a_substitute_fills_the_frame_of_the_word_it_replaces() -> None:
    """Same class and degree admitted "few -> long" and "fond -> much", whose correct trees
    differ: a substitute must be attested in the word's frame (tag, relation, head,
    dependents, the head's determiners and numerals beyond it)."""
    sents = [_tree(t) for t in FRAMED]
    for seed in range(1, 30):
        adj = {(e.orig, e.new): e.frame for e in make_edits(sents, seed)["adj"]}
        assert set(adj) == {("long", "short"), ("short", "long")}, adj
        assert adj[("long", "short")] == ("JJ Degree=Pos, amod of a NOUN (Number=Sing) to "
                                          "its right; no dependents; beyond it: det 'a'")
    no_heads = [_tree(t) for t in FRAMED]
    for x in no_heads:
        x.heads = [-1] * len(x.forms)
    with pytest.raises(InputError, match="no heads"):
        make_edits(no_heads, 1)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_edit_on_ewt_is_attested_in_its_frame(seed: int) -> None:
    """On 400 EWT dev sentences: each substitute occurs in the tagged_corpus in exactly the frame
    of the word it replaces, and the edit names that frame."""
    from parsebench.probes.invariance import _children, describe

    sents = read_conllu(shared_path("data/ud-english-ewt/en_ewt-ud-dev.conllu"))[:400]
    names = {"propn": "Number", "adj": "Degree"}
    attested: set[tuple[str, str, object]] = set()
    for s in sents:
        kids = _children(s)
        assert kids is not None
        for i in range(len(s.forms)):
            for kind in ("propn", "num", "adj"):
                key = _key(s, i, kind)
                if key is not None:
                    k = key if key == "-" else f"{names[kind]}={key}"
                    attested.add((kind, s.forms[i], frame(s, i, k, kids)))
    edits = make_edits(sents, seed)
    assert sum(len(edits[k]) for k in ("propn", "num", "adj")) > 100
    for kind in ("propn", "num", "adj"):
        for e in edits[kind]:
            s = sents[e.sentence]
            key = _key(s, e.token, kind)
            assert key is not None
            k = key if key == "-" else f"{names[kind]}={key}"
            f = frame(s, e.token, k, _children(s))  # type: ignore[arg-type]
            assert (kind, e.new, f) in attested and e.frame == describe(f)

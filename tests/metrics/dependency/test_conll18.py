"""The thirteen CoNLL 2018 metrics, checked by hand on a small pair of files that
exercises every one of them, and on UDPipe's output for EWT test against the numbers
conll18_ud_eval.py -v prints for it (run beside parsebench, outside the repository)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import needs, shared_path
from parsed import udpipe_raw

from parsebench.formats.conllu import iter_conllu, parse_conllu
from parsebench.metrics.dependency.conll18 import CONLL18, conll18_table
from parsebench.metrics.dependency.evaluate import DepsOptions, score_deps
from parsebench.metrics.dependency.figures import DepsValue

GOLD = """# text = Don't stop.
1-2\tDon't\t_\t_\t_\t_\t_\t_\t_\t_
1\tDo\tdo\tAUX\tVBP\tMood=Ind|Tense=Pres|VerbForm=Fin\t3\taux\t_\t_
2\tn't\tnot\tPART\tRB\tPolarity=Neg\t3\tadvmod\t_\t_
3\tstop\tstop\tVERB\tVB\tVerbForm=Inf\t0\troot\t_\t_
4\t.\t.\tPUNCT\t.\t_\t3\tpunct\t_\t_

# text = The dog barks.
1\tThe\tthe\tDET\tDT\tDefinite=Def|PronType=Art\t2\tdet\t_\t_
2\tdog\tdog\tNOUN\tNN\tNumber=Sing\t3\tnsubj\t_\t_
3\tbarks\tbark\tVERB\tVBZ\tNumber=Sing|Person=3\t0\troot\t_\t_
4\t.\t_\tPUNCT\t.\t_\t3\tpunct\t_\t_

"""
# One sentence where the gold has two; "Don't" as two tokens; features of "Do" in another
# order (the same), "Foo=Bar" a language-specific feature (ignored); XPOS of "Do", the
# features of "The" and "barks", the lemmas of "n't" and "barks" and the head of
# "barks" wrong; the lemma of the last "." is right whatever it is (the gold has "_").
SYSTEM = """1\tDo\tdo\tAUX\tVB\tTense=Pres|Mood=Ind|VerbForm=Fin\t3\taux\t_\t_
2\tn't\tn't\tPART\tRB\tPolarity=Neg\t3\tadvmod\t_\t_
3\tstop\tstop\tVERB\tVB\tVerbForm=Inf\t0\troot\t_\t_
4\t.\t.\tPUNCT\t.\t_\t3\tpunct\t_\t_
5\tThe\tthe\tDET\tDT\tDefinite=Ind|PronType=Art|Foo=Bar\t6\tdet\t_\t_
6\tdog\tdog\tNOUN\tNN\tNumber=Sing|Foo=Bar\t7\tnsubj\t_\t_
7\tbarks\tbarks\tVERB\tVBZ\tNumber=Plur|Person=3\t3\tparataxis\t_\t_
8\t.\tPERIOD\tPUNCT\t.\t_\t7\tpunct\t_\t_

"""

# (correct, gold, system, aligned) worked out by hand
EXPECTED = {
    "tokens": (6, 7, 8, 0),      # all but "Don't", which the system splits
    "sentences": (0, 2, 1, 0),   # the system's one sentence spans both
    "words": (8, 8, 8, 0),       # "Do n't" align inside the multiword span
    "upos": (8, 8, 8, 8),
    "xpos": (7, 8, 8, 8),        # Do
    "ufeats": (6, 8, 8, 8),      # The, barks
    "alltags": (5, 8, 8, 8),     # Do, The, barks
    "lemmas": (6, 8, 8, 8),      # n't, barks
    "uas": (7, 8, 8, 8),         # barks
    "las": (7, 8, 8, 8),
    "clas": (3, 4, 4, 4),        # content: n't, stop, dog, barks
    "mlas": (2, 4, 4, 4),        # dog's functional child "The" has other features
    "blex": (2, 4, 4, 4),        # n't has another lemma
}


def _counts(gold: str, system: str) -> dict[str, tuple[int, int, int, int]]:
    r = score_deps(parse_conllu(gold.splitlines(), "g"), parse_conllu(system.splitlines(),
                                                                      "s"))
    return {k: (getattr(r.total, k).correct, getattr(r.total, k).gold,
                getattr(r.total, k).system, getattr(r.total, k).aligned) for k in CONLL18}


def test_every_metric_by_hand() -> None:
    assert _counts(GOLD, SYSTEM) == EXPECTED


def test_the_scripts_table_and_json() -> None:
    r = score_deps(parse_conllu(GOLD.splitlines(), "g"), parse_conllu(SYSTEM.splitlines(),
                                                                      "s"))
    d = r.as_dict()
    # each share with the counts it is made of (6 of the system's 8 tokens, of the gold's 7)
    assert d["tokens"] == {"precision": 0.75, "recall": 6 / 7, "f1": 0.8,
                           "aligned_accuracy": None, "correct": 6, "gold": 7, "system": 8,
                           "aligned": None}
    assert {k: d["mlas"][k] for k in ("precision", "recall", "f1", "aligned_accuracy")} == \
        {"precision": 0.5, "recall": 0.5, "f1": 0.5, "aligned_accuracy": 0.5}
    assert d["mlas"]["correct"] / d["mlas"]["system"] == 0.5
    assert {k: d["sentences"][k] for k in ("precision", "recall", "f1")} == {
        "precision": 0.0, "recall": 0.0, "f1": 0.0}  # none right: 0, not n/a
    assert d["sentences"]["correct"] == 0 and d["sentences"]["gold"] == 2
    table = conll18_table(DepsValue.from_dict(d))
    assert table[2] == "Tokens     |     75.00 |     85.71 |     80.00 |"
    assert table[-2] == "MLAS       |     50.00 |     50.00 |     50.00 |     50.00"


def test_per_sentence_counts_sum_to_the_corpus() -> None:
    r = score_deps(parse_conllu(GOLD.splitlines(), "g"), parse_conllu(SYSTEM.splitlines(),
                                                                      "s"))
    assert r.per_sentence is not None and len(r.per_sentence) == 2
    one, two = r.per_sentence
    # the system's tokens count in the gold sentence where they start
    assert (one.tokens.correct, one.tokens.gold, one.tokens.system) == (2, 3, 4)
    assert (two.tokens.correct, two.tokens.gold, two.tokens.system) == (4, 4, 4)
    assert (one.sentences.system, two.sentences.system) == (1, 0)


def test_a_taggers_output_gets_its_tag_scores() -> None:
    tags = "\n".join("\t".join([*c[:6], "_", "_", "_", "_"]) if len(c := line.split("\t"))
                     == 10 and c[0].isdigit() else line for line in GOLD.splitlines())
    r = score_deps(parse_conllu(GOLD.splitlines(), "g"), parse_conllu(tags.splitlines(),
                                                                      "t"))
    d = r.as_dict()
    for k in ("upos", "xpos", "ufeats", "alltags", "lemmas", "words", "tokens", "sentences"):
        assert d[k]["f1"] == 1.0, k
    for k in ("uas", "las", "clas", "mlas", "blex"):  # n/a, and no count of it either
        assert d[k] == {"precision": None, "recall": None, "f1": None,
                        "aligned_accuracy": None, "correct": None, "gold": None,
                        "system": None, "aligned": None}, k


# What conll18_ud_eval.py -v prints for UDPipe 1 (../shared/models/en_ewt.udpipe) on EWT
# test, from the gold tokens and from the raw text (UDPipe's own tokenizer and sentence
# splitter on paragraphs of five sentences), run beside parsebench. The model has no
# lemmatizer: the script's Lemmas (0.06, the words whose gold lemma is ``_`` too) and BLEX
# (0.00) compare ``_`` with ``_``; parsebench prints n/a there, and says why.
SCRIPT_GOLD_TOKENS = {"upos": "94.64", "las": "79.42", "mlas": "68.87"}
SCRIPT_RAW = """Tokens     |     98.99 |     99.10 |     99.04 |
Sentences  |     79.32 |     65.38 |     71.68 |
Words      |     98.79 |     98.84 |     98.82 |
UPOS       |     93.48 |     93.52 |     93.50 |     94.62
XPOS       |     92.57 |     92.62 |     92.60 |     93.70
UFeats     |     93.88 |     93.93 |     93.90 |     95.02
AllTags    |     90.96 |     91.01 |     90.99 |     92.07
Lemmas     |      0.06 |      0.06 |      0.06 |      0.06
UAS        |     77.97 |     78.01 |     77.99 |     78.92
LAS        |     74.80 |     74.84 |     74.82 |     75.72
CLAS       |     69.23 |     68.69 |     68.96 |     69.61
MLAS       |     64.73 |     64.23 |     64.47 |     65.08
BLEX       |      0.00 |      0.00 |      0.00 |      0.00"""


def test_udpipe_from_raw_text_as_the_script_scores_it(tmp_path: Path) -> None:
    needs("ufal.udpipe")
    gold = shared_path("data/ud-english-ewt/en_ewt-ud-test.conllu")
    system = tmp_path / "raw.conllu"
    udpipe_raw(shared_path("models/en_ewt.udpipe"), gold, system)
    p = subprocess.run([sys.executable, "-m", "parsebench.cli", "eval", "deps", str(gold),
                        str(system)], capture_output=True, text=True, check=True)
    lines = p.stdout.splitlines()
    start = lines.index("Metric     | Precision |    Recall |  F1 Score | AligndAcc")
    na = f"{'n/a':>10} |{'n/a':>10} |{'n/a':>10} |{'n/a':>10}"
    want = [line if not line.startswith(("Lemmas", "BLEX")) else line[:12] + na
            for line in SCRIPT_RAW.splitlines()]
    assert lines[start + 2:start + 15] == want
    assert f"{system} has no lemmas: Lemmas, BLEX n/a" in p.stderr
    d = json.loads(subprocess.run(
        [sys.executable, "-m", "parsebench.cli", "eval", "deps", str(gold), str(system),
         "--json"], capture_output=True, text=True, check=True).stdout)
    assert set(CONLL18) <= set(d)
    assert d["sentences"]["aligned_accuracy"] is None
    assert d["las"]["f1"] == pytest.approx(0.7482, abs=5e-5)


def test_raw_text_keeps_the_parsers_multiword_tokens(tmp_path: Path) -> None:
    """UDPipe splits "ENA's" into the words "Ena" and "'s": without the token line their
    text is not the gold's, and the sentence could not be scored."""
    needs("ufal.udpipe")
    src = tmp_path / "in.txt"
    src.write_text("Per the memo, ENA's storage account will be reduced .\n")
    out = tmp_path / "out.conllu"
    p = subprocess.run([sys.executable, "-m", "parsebench.cli", "parse", str(src), "-o",
                        str(out), "--parser", f"udpipe:{shared_path('models/en_ewt.udpipe')}",
                        "--raw"], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    rows = [line.split("\t") for line in out.read_text().splitlines() if "\t" in line]
    mwt = [r for r in rows if "-" in r[0]]
    assert [r[1] for r in mwt] == ["ENA's"]
    first, last = (int(x) for x in mwt[0][0].split("-"))
    assert [r[1] for r in rows if r[0] in (str(first), str(last))] == ["Ena", "'s"]
    gold = tmp_path / "gold.conllu"
    gold.write_text(out.read_text().replace("\tEna\t", "\tENA\t"))
    d = score_deps(iter_conllu(gold), iter_conllu(out)).as_dict()
    assert d["tokens"]["f1"] == 1.0 and d["words"]["f1"] == 1.0


def test_udpipe_on_gold_tokens(tmp_path: Path) -> None:
    needs("ufal.udpipe")
    gold = shared_path("data/ud-english-ewt/en_ewt-ud-test.conllu")
    out = tmp_path / "p.conllu"
    subprocess.run([sys.executable, "-m", "parsebench.cli", "parse", str(gold), "-o", str(out),
                    "--parser", f"udpipe:{shared_path('models/en_ewt.udpipe')}"],
                   check=True, capture_output=True)
    r = score_deps(iter_conllu(gold), iter_conllu(out)).as_dict()
    for k in ("tokens", "sentences", "words"):
        assert r[k]["f1"] == 1.0
    for k, v in SCRIPT_GOLD_TOKENS.items():
        assert f"{100 * r[k]['f1']:.2f}" == v, k


# The gold's tokens, with one error: the second "." attached to "dog" instead of "barks"
SAME_TOKENS = GOLD.replace("4\t.\t_\tPUNCT\t.\t_\t3\tpunct", "4\t.\t_\tPUNCT\t.\t_\t2\tpunct")


def _by(by: str, system: str = SAME_TOKENS, **kw: object) -> dict[str, tuple[int, ...]]:
    r = score_deps(parse_conllu(GOLD.splitlines(), "g"),
                   parse_conllu(system.splitlines(), "s"), DepsOptions(by=by, **kw))
    assert r.by is not None
    return {k: (b.unlabeled.key, b.unlabeled.key_found, b.unlabeled.answer,
                b.unlabeled.answer_found) for k, b in r.by.items()}


def test_maltevals_breakdowns_by_hand() -> None:
    # (key arcs, found, answer arcs, right), the root's arc counted as MaltEval does
    assert _by("arc-length") == {"1": (5, 4, 4, 4), "2": (1, 1, 2, 1), "root": (2, 2, 2, 2)}
    assert _by("direction") == {"right": (4, 4, 4, 4), "left": (2, 1, 2, 1),
                                "root": (2, 2, 2, 2)}
    assert _by("depth") == {"1": (2, 2, 2, 2), "2": (5, 4, 4, 4), "3": (1, 1, 2, 1)}
    assert _by("sentence-length") == {"1-10": (8, 7, 8, 7)}


def test_exact_match_punctuation_and_confusion() -> None:
    def run(**kw: object) -> dict[str, object]:
        return score_deps(parse_conllu(GOLD.splitlines(), "g"),
                          parse_conllu(SAME_TOKENS.splitlines(), "s"),
                          DepsOptions(**kw)).as_dict()

    d = run()
    assert d["ucm"] == {"accuracy": 0.5, "matched": 1, "sentences": 2} == d["lcm"]
    assert d["uas"]["f1"] == 7 / 8
    d = run(punct=False)  # the wrong "." no longer counts
    assert d["uas"]["f1"] == 1.0 and d["uas"]["aligned_accuracy"] == 1.0
    assert d["ucm"]["accuracy"] == 1.0 and d["upos"]["f1"] == 1.0  # tags keep every word
    assert d["unlabeled"]["key"] == 4  # Lin: no root, no punctuation
    d = run(confusion="upos")
    labels = d["confusion"]["labels"]
    assert labels == ["PUNCT", "VERB", "AUX", "DET", "NOUN", "PART"]  # by frequency, name
    assert d["confusion"]["matrix"][0][0] == 2
    assert sum(map(sum, d["confusion"]["matrix"])) == 8
    from collections import Counter

    from parsebench.metrics.dependency.lin_scorer import confusion_table
    pooled = confusion_table(Counter({("a", "a"): 5, ("a", "b"): 1, ("b", "c"): 2,
                                      ("c", "a"): 1}), top=1)
    assert pooled == {"labels": ["a", "(other)"], "matrix": [[5, 1], [1, 2]]}


def test_cli_per_sentence_tsv_and_new_breakdowns(tmp_path: Path) -> None:
    (tmp_path / "g.conllu").write_text(GOLD, encoding="utf-8")
    (tmp_path / "s.conllu").write_text(SAME_TOKENS, encoding="utf-8")
    tsv = tmp_path / "per.tsv"
    p = subprocess.run([sys.executable, "-m", "parsebench.cli", "eval", "deps",
                        str(tmp_path / "g.conllu"), str(tmp_path / "s.conllu"), "--by",
                        "arc-length", "--confusion", "deprel", "--per-sentence", str(tsv)],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert "Exact match: UCM 50.00% (1), LCM 50.00% (1) of 2 sentences" in p.stdout
    # every ratio beside its counts: key, answer, key arcs in the answer, answer arcs in key
    assert "2                     1      2      1      1  50.00 100.00  66.67" in p.stdout
    rows = [line.split("\t") for line in tsv.read_text().splitlines()]
    head = rows[0]
    assert len(rows) == 3 and head[:4] == ["sentence", "line", "sent_id", "tokens"]
    two = dict(zip(head, rows[2], strict=True))
    assert (two["uas"], two["uas_correct"], two["uas_gold"], two["ucm"]) == \
        ("75.00", "3", "4", "0.00")
    # a system with no lemmas and no features: their metrics are n/a in every row (not
    # the 0 or 100 of comparing _ with _), their counts kept, as in the table and the JSON
    bare = "\n".join(
        "\t".join(c if k not in (2, 5) else "_" for k, c in enumerate(line.split("\t")))
        if "\t" in line else line for line in SAME_TOKENS.splitlines()) + "\n"
    (tmp_path / "bare.conllu").write_text(bare, encoding="utf-8")
    p = subprocess.run([sys.executable, "-m", "parsebench.cli", "eval", "deps",
                        str(tmp_path / "g.conllu"), str(tmp_path / "bare.conllu"),
                        "--per-sentence", str(tsv), "--json"], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    rows = [dict(zip(head, line.split("\t"), strict=True))
            for line in tsv.read_text().splitlines()[1:]]
    for m in ("ufeats", "alltags", "lemmas", "mlas", "blex"):
        assert d[m]["f1"] is None and all(r[m] == "n/a" for r in rows), m
    assert [r["uas"] for r in rows] == ["100.00", "75.00"]
    assert rows[0]["lemmas_gold"] == "4"
    assert "has no features, no lemmas: UFeats, AllTags, Lemmas, MLAS, BLEX n/a" in p.stderr
    bad = subprocess.run([sys.executable, "-m", "parsebench.cli", "eval", "deps",
                          str(tmp_path / "g.conllu"), str(tmp_path / "s.conllu"),
                          "--confusion", "lemma"], capture_output=True, text=True)
    assert bad.returncode == 2 and "--confusion 'lemma'" in bad.stderr


def test_breakdowns_in_one_pass_equal_one_at_a_time() -> None:
    for system in (SYSTEM, SAME_TOKENS):
        together = score_deps(parse_conllu(GOLD.splitlines(), "g"),
                              parse_conllu(system.splitlines(), "s"),
                              DepsOptions(by="deprel",
                                          also_by=["arc-length", "depth", "upos"])).as_dict()
        for f in ("arc-length", "depth", "upos"):
            alone = score_deps(parse_conllu(GOLD.splitlines(), "g"),
                               parse_conllu(system.splitlines(), "s"),
                               DepsOptions(by=f)).as_dict()
            assert together["breakdowns"][f] == alone["by"]
        # Lin's totals do not take the root arcs that the MaltEval breakdowns count
        assert together["unlabeled"] == score_deps(
            parse_conllu(GOLD.splitlines(), "g"),
            parse_conllu(system.splitlines(), "s")).as_dict()["unlabeled"]


def test_text_length_and_spans_of_plain_and_other_text() -> None:
    """The ASCII shortcut of text_length and word_spans counts what the general path
    counts: spaces inside forms dropped, a no-break space (Zs) too, multiword tokens by
    their own form."""
    from parsebench.metrics.dependency.tokenization import text_length, word_spans

    rows = ["1\tNew York\t_\tPROPN\t_\t_\t0\troot\t_\t_",
            "2\tcafé\u00a0x\t_\tNOUN\t_\t_\t1\tdep\t_\t_",
            "3-4\tdon't\t_\t_\t_\t_\t_\t_\t_\t_", "3\tdo\t_\tAUX\t_\t_\t1\tdep\t_\t_",
            "4\tn't\t_\tPART\t_\t_\t1\tdep\t_\t_", ""]
    plain = ["1\tNew\t_\tPROPN\t_\t_\t0\troot\t_\t_", "2\tYork\t_\tPROPN\t_\t_\t1\tdep\t_\t_", ""]
    for text in (rows, plain):
        (s,) = parse_conllu(text)
        spans = word_spans([s])
        assert text_length(s) == len(spans.chars)
    (s,) = parse_conllu(rows)
    assert word_spans([s]).chars == "NewYorkcaféxdon't"
    (s,) = parse_conllu(plain)
    assert word_spans([s]).chars == "NewYork" and word_spans([s]).end == [3, 7]

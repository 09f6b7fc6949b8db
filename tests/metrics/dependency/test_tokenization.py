"""A run whose parsers get each sentence's text (``[corpus] tokens = "raw"``) and tokenize
it themselves: their words are scored against the gold's by character alignment, as
``eval deps`` scores the same output (the official scorer's way), at every noise level;
the methods that compare parses of the same words say they do not apply."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from conftest import FIXTURES, ROOT, shared_path

import parsebench as pb

LEARNER = FIXTURES / "learner.conllu"


def _experiment(tmp: Path, corpus: Path, spec: str, extra: str = "", limit: str = ""
                ) -> Path:
    exp = tmp / "exp.toml"
    exp.write_text(f'''name = "raw"
[corpus]
path = "{corpus}"
tokens = "raw"
{limit}
[noise]
rates = [0.2]
replicates = 2
lexicon = "{FIXTURES / 'lexicon.txt'}"
{extra}
[[parsers]]
name = "p"
spec = "{spec}"
[metrics]
deps = true
rows = ["head+deprel"]
sentences = true
''')
    return exp


def _env() -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "src"), str(FIXTURES)]))


def test_a_parser_that_tokenizes_is_scored_by_character_alignment(tmp_path: Path) -> None:
    sys.path.insert(0, str(FIXTURES))
    spec = "python:toy_parsers:GluedPunct"
    exp = _experiment(tmp_path, LEARNER, spec)
    got = pb.run(exp, store=tmp_path / "s.sqlite", report=tmp_path / "r")
    deps = {r.level: r.value.to_dict() for r in got.results if r.method == "deps"
            and r.projection == "deprel"}
    assert set(deps) == {"clean", "rate=0.2"}
    assert not [r for r in got.results if r.method in ("rows", "sentences", "examples")]
    # the same numbers as eval deps of the parser's own output, written by parse --raw
    written = tmp_path / "raw.conllu"
    pb.parse(LEARNER, parser=spec, raw=True).write(written)
    assert len(pb.Treebank.read(written)[0]) == 12  # "day ." glued: 12 words, not 13
    direct = pb.evaluate_deps(LEARNER, written).to_dict()
    for m in ("tokens", "words", "uas", "las"):
        assert deps["clean"][m]["f1"] == direct[m]["f1"], m
    assert deps["clean"]["words"]["f1"] < 1  # the glued marks are missed words
    md = (tmp_path / "r" / "index.md").read_text()
    assert "raw: each parser tokenized each document's text itself" in md
    # issue 59 item 8: it was given documents, and the Run table says so
    assert "| documents parsed in this run |" in md and "sentences parsed in this" not in md
    assert ": distinct documents, cache hits |" in md
    assert "method rows | not applicable: it compares parses of the same words" in md
    results = json.loads((tmp_path / "r" / "results.json").read_text())
    assert '"tokens": "raw"' in json.dumps(results)
    # the parses are cached by text, apart from the same parser's of gold words
    again = pb.run(exp, store=tmp_path / "s.sqlite", report=tmp_path / "r")
    assert again.parsed == 0
    exp.write_text(exp.read_text().replace('tokens = "raw"\n', ""))
    gold = pb.run(exp, store=tmp_path / "s.sqlite", report=tmp_path / "g")
    assert gold.parsed > 0
    words = {r.level: r.value.to_dict() for r in gold.results if r.method == "deps"
             and r.projection == "deprel"}
    assert words["clean"]["words"]["f1"] == 1.0
    # issue 61 item 4: every figure's signature says what the parser was given and
    # which bytes were read, so the raw-text and gold-word figures never read alike
    raw = next(r.signature for r in got.results if r.method == "deps")
    given = next(r.signature for r in gold.results if r.method == "deps")
    assert "|input:raw-text|" in raw and "|input:gold-words|" in given
    hashes = {x.split("corpus-hash:")[1].split("|")[0] for x in (raw, given)}
    assert len(hashes) == 1 and len(hashes.pop()) == 12  # the same bytes read
    other = tmp_path / "other" / LEARNER.name  # the same file name, other bytes
    other.parent.mkdir()
    other.write_text(LEARNER.read_text().replace("\tday\t", "\tdays\t", 1))
    exp.write_text(exp.read_text().replace(str(LEARNER), str(other)))
    moved = pb.run(exp, store=tmp_path / "s2.sqlite", report=tmp_path / "o")
    third = next(r.signature for r in moved.results if r.method == "deps")
    assert third.split("corpus-hash:")[1][:12] != given.split("corpus-hash:")[1][:12]
    assert f"corpus:{LEARNER.name}|" in third and f"corpus:{LEARNER.name}|" in given


def test_what_raw_tokens_refuse(tmp_path: Path) -> None:
    cases = [
        (_experiment(tmp_path, LEARNER, "python:toy_parsers:GluedPunct")
         .read_text().replace('tokens = "raw"', 'tokens = "words"'),
         'tokens: "gold" (the parser gets the gold words) or "raw"', 4),
        (_experiment(tmp_path, LEARNER, "python:toy_parsers:GluedPunct",
                     'kind = "grammar"').read_text().replace("rates = [0.2]",
                                                             "per_sentence = [1]"),
         'kind = "grammar" adds, drops or moves words', 10),
        (_experiment(tmp_path, LEARNER, "python:toy_parsers:WeakWord").read_text(),
         "parser p (python:toy_parsers:WeakWord) cannot tokenize raw text", None),
    ]
    for text, message, line in cases:
        exp = tmp_path / "bad.toml"
        exp.write_text(text)
        p = subprocess.run([sys.executable, "-m", "parsebench.cli", "run", str(exp),
                            "--store", str(tmp_path / "b.sqlite")], capture_output=True,
                           text=True, env=_env(), cwd=tmp_path, stdin=subprocess.DEVNULL)
        assert p.returncode == 2 and message in p.stderr, p.stderr
        assert len([ln for ln in p.stderr.splitlines() if ln.strip()]) == 1, p.stderr
        if line is not None:
            assert f"{exp}:{line}:" in p.stderr, p.stderr


def test_udpipe_from_raw_text_as_eval_deps_scores_it(tmp_path: Path) -> None:
    model = shared_path("models/en_ewt.udpipe")
    test = shared_path("data/ud-english-ewt/en_ewt-ud-test.conllu")
    spec = f"udpipe:{model}"
    exp = _experiment(tmp_path, test, spec, limit="limit = 120")
    exp.write_text(exp.read_text().replace(f'lexicon = "{FIXTURES / "lexicon.txt"}"\n', ""))
    got = pb.run(exp, store=tmp_path / "s.sqlite", report=tmp_path / "r")
    deps = {r.level: r.value.to_dict() for r in got.results if r.method == "deps"
            and r.projection == "deprel"}
    gold = pb.Treebank(list(pb.Treebank.read(test))[:120], "ewt-120")
    written = tmp_path / "raw.conllu"
    pb.parse(gold, parser=spec, raw=True).write(written)
    direct = pb.evaluate_deps(gold, written).to_dict()
    for m in ("tokens", "sentences", "words", "upos", "uas", "las"):
        assert deps["clean"][m]["f1"] == direct[m]["f1"], m
    assert direct["words"]["f1"] < 1  # UDPipe's tokenizer splits some words otherwise
    # EWT marks documents: UDPipe segments each document's text itself, not always
    # where the gold does
    assert 0.5 < direct["sentences"]["f1"] < 1
    # misspellings cost it words as well as attachments
    assert deps["rate=0.2"]["las"]["f1"] < deps["clean"]["las"]["f1"]


TWO = """# sent_id = a
# text = I came. She left.
1	I	I	PRON	_	_	2	nsubj	_	_
2	came	come	VERB	_	_	0	root	_	SpaceAfter=No
3	.	.	PUNCT	_	_	2	punct	_	_
4	She	she	PRON	_	_	5	nsubj	_	_
5	left	leave	VERB	_	_	2	parataxis	_	SpaceAfter=No
6	.	.	PUNCT	_	_	2	punct	_	_

# sent_id = b
# text = We stayed.
1	We	we	PRON	_	_	2	nsubj	_	_
2	stayed	stay	VERB	_	_	0	root	_	SpaceAfter=No
3	.	.	PUNCT	_	_	2	punct	_	_

"""


def test_the_sentences_a_parser_finds_in_raw_text_are_scored(tmp_path: Path) -> None:
    """A parser given a gold sentence's text may find two sentences in it (UDPipe's
    tokenizer does); its own segmentation is what the CoNLL 2018 Sentences row scores,
    in a run as in ``eval deps`` of ``parse --raw``'s output, which writes the pieces
    (ids a.1, a.2, heads inside each)."""
    sys.path.insert(0, str(FIXTURES))
    corpus = tmp_path / "two.conllu"
    corpus.write_text(TWO, encoding="utf-8")
    spec = "python:toy_parsers:SplitAtStop"
    written = tmp_path / "raw.conllu"
    pb.parse(corpus, parser=spec, raw=True).write(written)
    pieces = list(pb.Treebank.read(written))
    assert [s.forms for s in pieces] == [["I", "came."], ["She", "left."], ["We", "stayed."]]
    assert [s.heads for s in pieces] == [[0, 1], [0, 1], [0, 1]]
    assert "# sent_id = a.2" in pieces[1].comments
    direct = pb.evaluate_deps(corpus, written).to_dict()
    # gold sentences [I came. She left.] [We stayed.]; system: three, one matches
    assert direct["sentences"]["precision"] == 1 / 3 and direct["sentences"]["recall"] == 0.5
    exp = _experiment(tmp_path, corpus, spec)
    got = pb.run(exp, store=tmp_path / "s.sqlite", report=tmp_path / "r")
    deps = {r.level: r.value.to_dict() for r in got.results if r.method == "deps"
            and r.projection == "deprel"}
    for m in ("sentences", "words", "las"):
        assert deps["clean"][m]["f1"] == direct[m]["f1"], m


def test_a_document_is_given_whole_and_a_missed_boundary_is_scored(tmp_path: Path) -> None:
    """Where the corpus marks documents (``# newdoc``), a parser of raw text gets each
    document's text and finds its sentences itself, as in the CoNLL 2018 shared task: a
    parser that never splits joins the document's two gold sentences into one, which
    the Sentences row counts (recall 0 of 2), in a run as in eval deps of parse --raw."""
    sys.path.insert(0, str(FIXTURES))
    doc = TWO.replace("# sent_id = a\n# text = I came. She left.\n", "# newdoc id = d1\n"
                      "# sent_id = a\n# text = I came. She left.\n")
    corpus = tmp_path / "doc.conllu"
    corpus.write_text(doc, encoding="utf-8")
    spec = "python:toy_parsers:GluedPunct"
    written = tmp_path / "raw.conllu"
    pb.parse(corpus, parser=spec, raw=True).write(written)
    assert [s.forms for s in pb.Treebank.read(written)] == [
        ["I", "came.", "She", "left.", "We", "stayed."]]
    direct = pb.evaluate_deps(corpus, written).to_dict()
    assert direct["sentences"]["recall"] == 0 and direct["words"]["f1"] < 1
    exp = _experiment(tmp_path, corpus, spec)
    got = pb.run(exp, store=tmp_path / "s.sqlite", report=tmp_path / "r")
    deps = {r.level: r.value.to_dict() for r in got.results if r.method == "deps"
            and r.projection == "deprel"}
    for m in ("sentences", "words", "las"):
        assert deps["clean"][m]["f1"] == direct[m]["f1"], m
    assert got.parsed == 3  # one document a version: clean and the two replicates


def test_parse_raw_output_has_a_text_and_an_id_per_sentence_and_validates(
        tmp_path: Path) -> None:
    """Issue 59 item 20: ``parse --raw`` wrote no ``# text`` (nor ``# sent_id``) for the
    sentences a parser finds, so its output failed ``validate --level 2``."""
    sys.path.insert(0, str(FIXTURES))
    written = tmp_path / "raw.conllu"
    pb.parse(LEARNER, parser="python:toy_parsers:GluedPunct", raw=True).write(written)
    sents = pb.Treebank.read(written)
    for s in sents:
        keys = [c.split("=", 1)[0].strip() for c in s.comments]
        assert keys.count("# sent_id") == 1 and keys.count("# text") == 1, s.comments
    ids = [s.comment_value("sent_id") for s in sents]
    assert len(set(ids)) == len(ids)
    found = pb.validate(written, level=2).to_dict()["counts"]
    assert not [k for k in found if k.startswith("missing-")], found  # (the toy's own
    # glued words and labels are its faults: text-form-mismatch, unknown-udeprel)


def test_export_of_a_raw_text_run_writes_the_sentences_each_parser_found(
        tmp_path: Path) -> None:
    """Issue 59 item 15: export refused a tokens = "raw" run's store ("430 sentences ...
    are not in the store's parse cache"); it writes each version as the parser found its
    sentences, the same as parse --raw of that text."""
    sys.path.insert(0, str(FIXTURES))
    spec = "python:toy_parsers:GluedPunct"
    exp = _experiment(tmp_path, LEARNER, spec)
    pb.run(exp, store=tmp_path / "s.sqlite")
    out = tmp_path / "export"
    got = pb.export(tmp_path / "s.sqlite", out)
    names = sorted(p.name for p in got if p.suffix == ".conllu")
    assert names == ["clean.conllu", "rate-0.2_seed-1.conllu", "rate-0.2_seed-2.conllu"]
    clean = next(p for p in got if p.name == "clean.conllu")
    direct = tmp_path / "direct.conllu"
    pb.parse(LEARNER, parser=spec, raw=True).write(direct)
    assert [s.forms for s in pb.Treebank.read(clean)] == \
        [s.forms for s in pb.Treebank.read(direct)]
    assert [s.heads for s in pb.Treebank.read(clean)] == \
        [s.heads for s in pb.Treebank.read(direct)]

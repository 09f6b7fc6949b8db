"""MSTParser, Mate, TurboParser and TweeboParser (the graph-based parsers of Hashemi &
Hwa's eight) behind their adapters: trained here on slices of EWT train and Tweebank
train, parsing as their own command lines do, one program a worker, faults costing
one sentence, several roots and unattached words kept, and a missing tool said in
one line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from conftest import FIXTURES, error_lines, needs, needs_java, shared_path

from parsebench.formats.conllu import NO_HEAD, read_conllu
from parsebench.metrics.dependency.evaluate import score_deps
from parsebench.model.parses import blank
from parsebench.parsers.base import Analysis, Failure
from parsebench.parsers.graph_training import (
    dev_score,
    train_mate,
    train_mst,
    train_turbo,
    write_rows,
)
from parsebench.parsers.jvm import read_answer
from parsebench.parsers.mate import conll09_row
from parsebench.parsers.mst import conllx_rows, mst_settings
from parsebench.parsers.run import parse_sentences
from parsebench.parsers.training import conllu_slice
from parsebench.parsers.turbo import Turbo, tweebo_row

TOOLS = {"mst": "tools/mstparser-0.4.3b/mstparser-0.4.3b.jar",
         "mate": "tools/mate-anna-3.61/anna-3.61.jar",
         "turbo": "tools/turboparser-2.3/TurboParser",
         "tweebo": "tools/tweeboparser/TBParser/TurboParser"}
TAGGER = "models/en_ewt.udpipe"
EWT_TRAIN = "data/ud-english-ewt/en_ewt-ud-train.conllu"
EWT_DEV = "data/ud-english-ewt/en_ewt-ud-dev.conllu"
TWEEBANK_TRAIN = "data/tweebank-v2/en-ud-tweet-train.fixed.conllu"
DEV_SENTENCES = 70
"""EWT dev's first 70 sentences: multiword tokens, and an empty node in the 59th."""


def cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "parsebench.cli", *args], capture_output=True,
                          text=True, env=env)


# --- conversions, without the parsers --------------------------------------------------

TAGS = SimpleNamespace(lemmas=["hi", "_"], upos=["INTJ", "PUNCT"], xpos=["UH", ""],
                       feats=["_", "_"])


def test_rows_sent_to_each_parser_keep_its_columns() -> None:
    assert conllx_rows(["Hi", "a\tb"], TAGS) == [
        "1\tHi\thi\tINTJ\tUH\t_\t0\t_\t_\t_", "2\ta b\t_\tPUNCT\t_\t_\t0\t_\t_\t_"]
    assert conll09_row(1, "Hi", "hi", "UH", "_") == \
        "1\tHi\thi\thi\tUH\tUH\t_\t_\t_\t_\t_\t_\t_\t_"
    assert conll09_row(2, "x", "", "NN", "A=B", "1", "obj").split("\t")[8:12] == \
        ["1", "_", "obj", "_"]
    assert tweebo_row(3, "@me", "@me", "PROPN", "_").split("\t") == \
        ["3", "@me", "@me", "PROPN", "PROPN", "_", "0", "_", "_", "_", "_", "_", "_", "1"]


def test_write_rows_keeps_word_lines_through_the_row_function(tmp_path: Path) -> None:
    src = tmp_path / "in.conllu"
    src.write_text("# sent_id = 1\n1-2\tdon't\t_\t_\t_\t_\t_\t_\t_\t_\n"
                   "1\tdo\tdo\tAUX\tVBP\t_\t0\troot\t_\t_\n2\tn't\tnot\tPART\tRB\t_\t1\tadvmod\t_\t_\n"
                   "2.1\tx\tx\tX\tX\t_\t_\t_\t1:dep\t_\n\n1\tgo\tgo\tVERB\tVB\t_\t0\troot\t_\t_\n")
    assert write_rows(src, tmp_path / "o", lambda c: c[1], limit=None) == 2
    assert (tmp_path / "o").read_text() == "do\nn't\n\ngo\n\n"
    assert write_rows(src, tmp_path / "one", lambda c: c[1], limit=1) == 1


def test_dev_score_counts_heads_and_universal_relations(tmp_path: Path) -> None:
    gold, parsed = tmp_path / "g", tmp_path / "p"
    gold.write_text("1\ta\t_\t_\t_\t_\t2\tnsubj:pass\t_\t_\n2\tb\t_\t_\t_\t_\t0\troot\t_\t_\n\n"
                    "1\tc\t_\t_\t_\t_\t0\troot\t_\t_\n\n")
    parsed.write_text("1\ta\t_\t_\t_\t_\t2\tnsubj\n2\tb\t_\t_\t_\t_\t0\tdep\n\n"
                      "1\tc\t_\t_\t_\t_\t1\troot\n\n")
    assert dev_score(gold, parsed, 6, 7) == {"words": 3, "uas": 66.67, "las": 33.33,
                                             "tags": "gold"}


def test_answers_keep_several_roots_and_tweebos_unattached_words() -> None:
    got = read_answer(["0\troot", "0\troot", "-1\tdep"], 3, unattached=True)
    assert isinstance(got, Analysis) and got.heads == [0, 0, NO_HEAD]
    out = read_answer(["-1\tdep"], 1)
    assert isinstance(out, Failure) and out.reason == "head -1 out of range for 1 words"
    turbo = Turbo.__new__(Turbo)
    parsed = turbo.answer(["1\tThe\t_\tDET\tDT\t_\t2\tdet", "2\tcat\t_\tNOUN\tNN\t_\t0\troot"],
                          2)
    assert isinstance(parsed, Analysis) and parsed.heads == [2, 0]
    assert parsed.deprels == ["det", "root"]
    bad = turbo.answer(["1\tThe"], 1)
    assert isinstance(bad, Failure) and bad.reason.startswith("unreadable answer line")


def test_mst_order_and_decoding_come_from_the_spec_else_the_training(tmp_path: Path) -> None:
    from parsebench.common.errors import InputError

    model = tmp_path / "m"
    assert mst_settings(str(model), {}) == {"order": "1", "decode": "proj", "pos": "xpos"}
    (tmp_path / "m.json").write_text(json.dumps({"settings": {"order": 2,
                                                              "decode": "non-proj",
                                                              "pos": "upos"}}))
    assert mst_settings(str(model), {}) == {"order": "2", "decode": "non-proj",
                                            "pos": "upos"}
    assert mst_settings(str(model), {"order": "1"})["order"] == "1"
    assert mst_settings(str(model), {"pos": "xpos"})["pos"] == "xpos"
    with pytest.raises(InputError, match="order is 1 or 2"):
        mst_settings(str(model), {"order": "3"})
    with pytest.raises(InputError, match="pos is xpos or upos"):
        mst_settings(str(model), {"pos": "feats"})


def test_mst_with_pos_upos_reads_upos_as_its_fine_tag() -> None:
    """For a treebank without XPOS (French GSD's is all ``_``), ``pos=upos`` gives
    MSTParser UPOS in POSTAG too, the same at training and at parse time; XPOS stays the
    default, so models trained before keep their columns."""
    from parsebench.parsers.graph_training import _mst_row

    assert conllx_rows(["Hi", "a\tb"], TAGS, "upos") == [
        "1\tHi\thi\tINTJ\tINTJ\t_\t0\t_\t_\t_", "2\ta b\t_\tPUNCT\tPUNCT\t_\t0\t_\t_\t_"]
    gold = ["1", "Le", "le", "DET", "_", "Gender=Masc", "2", "det", "_", "_"]
    assert _mst_row("upos")(gold).split("\t")[3:8] == ["DET", "DET", "Gender=Masc", "2",
                                                       "det"]
    assert _mst_row()(gold).split("\t")[3:5] == ["DET", "_"]


def test_a_parser_that_is_its_own_bridge_is_ready_when_it_answers_the_probe(
        tmp_path: Path) -> None:
    """A stand-in for TurboParser (no ready line): it answers the probe, then a sentence,
    then dies on the next, and the death costs that sentence."""
    from parsebench.parsers.jvm import JavaBridge

    prog = tmp_path / "turbo.py"
    prog.write_text(
        "import sys\nrows = []\n"
        "for line in sys.stdin:\n"
        "    if line.strip():\n"
        "        rows.append(line); continue\n"
        "    if any('BOOM' in r for r in rows): sys.stderr.write('Check failed: x\\n'); "
        "sys.exit(134)\n"
        "    print(''.join(f'{i}\\t0\\troot\\n' for i in range(len(rows))), flush=True)\n"
        "    rows = []\n")
    bridge = JavaBridge("Stand-in", [sys.executable, str(prog)], probe=["x"],
                        runtime="TurboParser")
    bridge.start()
    assert bridge.ask(["a", "b"]) == ["0\t0\troot", "1\t0\troot"]
    died = bridge.ask(["BOOM"])
    assert died == "TurboParser exited (exit code 134): Check failed: x", died
    assert bridge.ask(["c"]) == ["0\t0\troot"]  # started again, probe answered
    dead = JavaBridge("Stand-in", [sys.executable, "-c", "import sys; sys.exit(3)"],
                      probe=["x"], runtime="TurboParser")
    from parsebench.common.errors import InputError
    with pytest.raises(InputError, match="TurboParser exited while starting"):
        dead.start()


def test_a_missing_binary_or_jar_is_one_line_naming_it(tmp_path: Path) -> None:
    import os

    model = tmp_path / "m"
    model.write_bytes(b"x")
    src = tmp_path / "in.txt"
    src.write_text("a b\n")
    env = {k: v for k, v in os.environ.items()
           if k not in ("TURBOPARSER", "TWEEBOPARSER", "MSTPARSER_JAR", "MATE_JAR")}
    for spec, line in (
            (f"turbo:{model},tagger=t.udpipe", "TurboParser not found: set TURBOPARSER="
             "PATH/TO/BINARY or add ,binary=PATH to the parser spec (TurboParser 2.3, built "
             "from github.com/andre-martins/TurboParser; see the README)"),
            (f"mst:{model},tagger=t.udpipe", "MSTParser jar not found: set MSTPARSER_JAR="
             "PATH/TO/JAR or add ,jar=PATH to the parser spec (MSTParser 0.4.3b, built from "
             "its authors' Java source (tag v0.4.3b of github.com/travisbrown/mstparser); "
             "see the README)")):
        p = cli("parse", str(src), "-o", str(tmp_path / "o.conllu"), "--parser", spec, env=env)
        assert p.returncode == 2
        assert error_lines(p.stderr) == [f"parsebench: {line}"], p.stderr
        assert not (tmp_path / "o.conllu").exists()


# --- trained here, parsing through the adapter and through their own command lines ------

@pytest.fixture(scope="module")
def slice_models(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Each parser trained on a slice (seconds each): first-order MSTParser on 30 EWT
    sentences, Mate on 50 (one iteration), TurboParser's first-order model on 300,
    TweeboParser's on 300 tweets. What the tests check is the adapter against the
    parser's own command line, which a small model checks as well as a large one."""
    needs_java()
    folder = tmp_path_factory.mktemp("models")
    train = shared_path(EWT_TRAIN)
    tools = {k: str(shared_path(v)) for k, v in TOOLS.items()}
    mst = train_mst(train, None, folder / "mst30", tools["mst"], order=1, decode="non-proj",
                    iterations=2, limit=30, heap="2g")
    mate = train_mate(train, None, folder / "mate50", tools["mate"], iterations=1,
                      pos="xpos", limit=50, heap="3g")
    turbo = train_turbo(train, None, folder / "turbo300", tools["turbo"], model_type="basic",
                        iterations=3, limit=300)
    tweebo = train_turbo(shared_path(TWEEBANK_TRAIN), None, folder / "tweebo300",
                         tools["tweebo"], model_type="basic", iterations=3, limit=300,
                         tweebo=True)
    assert (mst.sentences, mate.sentences, turbo.sentences, tweebo.sentences) == \
        (30, 50, 300, 300)
    assert json.loads((folder / "mst30.json").read_text())["settings"]["decode"] == "non-proj"
    return {"mst": mst.model, "mate": mate.model, "turbo": turbo.model, "tweebo": tweebo.model}


def _spec(parser: str, model: str) -> str:
    needs("ufal.udpipe")
    key = "binary" if parser in ("turbo", "tweebo") else "jar"
    return f"{parser}:{model},tagger={shared_path(TAGGER)},{key}={shared_path(TOOLS[parser])}"


def _tree(path: Path, head: int, rel: int) -> list[tuple[list[int], list[str]]]:
    out, heads, rels = [], [], []
    for line in [*path.read_text(encoding="utf-8").split("\n"), ""]:
        cols = line.split("\t")
        if len(cols) > rel and cols[0].isdigit():
            heads.append(int(cols[head]) if cols[head].lstrip("-").isdigit() else NO_HEAD)
            rels.append(cols[rel])
        elif not line.strip() and heads:
            out.append((heads, rels))
            heads, rels = [], []
    return out


def _own_command_line(parser: str, model: str, parsed: Path, tmp: Path
                      ) -> list[tuple[list[int], list[str]]]:
    """The parser's own command line on the words and tags the adapter gave it (the tag
    columns of the adapter's output are the tagger's)."""
    from parsebench.parsers.graph_training import _mate_row, _mst_row, _turbo_row, _tweebo_row

    row = {"mst": _mst_row(), "mate": _mate_row("xpos"), "turbo": _turbo_row,
           "tweebo": _tweebo_row}[parser]
    words = tmp / "tagged.conll"
    tagged = tmp / "tagged.conllu"
    with open(tagged, "w", encoding="utf-8") as out:
        for line in parsed.read_text(encoding="utf-8").split("\n"):
            cols = line.split("\t")
            if len(cols) == 10 and cols[0].isdigit():
                cols[6:8] = ["0", "_"]
                line = "\t".join(cols)
            out.write(line + "\n")
    write_rows(tagged, words, row)
    got = tmp / "own.conll"
    tool = str(shared_path(TOOLS[parser]))
    if parser == "mst":
        argv = ["java", "-jar", tool, "test", f"model-name:{model}", f"test-file:{words}",
                f"output-file:{got}", "order:1", "decode-type:non-proj"]
    elif parser == "mate":
        argv = ["java", "-jar", tool, "-model", model, "-test", str(words), "-out", str(got),
                "-cores", "1"]
    else:
        argv = [tool, "--test", f"--file_model={model}", f"--file_test={words}",
                f"--file_prediction={got}", "--logtostderr"]
    subprocess.run(argv, check=True, capture_output=True, cwd=tmp)
    return _tree(got, 9, 11) if parser == "mate" else _tree(got, 6, 7)


@pytest.mark.parametrize("parser", ["mst", "mate", "turbo", "tweebo"])
def test_trained_on_a_slice_it_parses_dev_as_its_own_command_line_does(
        parser: str, slice_models: dict[str, str], tmp_path: Path) -> None:
    model = slice_models[parser]
    dev = tmp_path / "dev.conllu"
    conllu_slice(shared_path(EWT_DEV), dev, DEV_SENTENCES)
    out = tmp_path / "parsed.conllu"
    p = cli("parse", str(dev), "-o", str(out), "--parser", _spec(parser, model))
    assert p.returncode == 0, p.stderr
    speed = json.loads(Path(f"{out}.speed.json").read_text())
    assert speed["failures"] == 0 and speed["worker_restarts"] == 0
    assert speed["parser"]["adapter"] == parser and speed["parser"]["tagger"].startswith("udpipe")

    def skeleton(path: Path) -> list[str]:  # comments, multiword tokens, words as given
        return [line if not line.split("\t")[0].isdigit() else line.split("\t")[1]
                for line in path.read_text(encoding="utf-8").split("\n")
                if "." not in line.split("\t")[0] or "\t" not in line]
    assert skeleton(out) == skeleton(dev)  # MSTParser's <num> never reaches the output
    got, gold = read_conllu(out), read_conllu(dev)
    assert [len(s) for s in got] == [len(s) for s in gold]
    own = _own_command_line(parser, model, out, tmp_path)
    assert [h for h, _ in own] == [s.heads for s in got]
    assert [r for _, r in own] == [s.deprels for s in got]
    assert score_deps(gold, got).total.uas.as_dict()["f1"] > 0.3


@pytest.mark.parametrize("parser", ["mst", "turbo"])
def test_a_killed_parser_a_hang_or_a_crash_costs_one_sentence(
        parser: str, slice_models: dict[str, str]) -> None:
    spec = _spec(parser, slice_models[parser])
    cls = "FaultyMST" if parser == "mst" else "FaultyTurbo"
    sents = [blank(s.split(), [f"# text = {s}"]) for s in (
        "The cat sat .", "KILLJAVA now", "Dogs bark .", "HANG", "Birds sing loudly .",
        "CRASH it", "It works .")]
    forests = set(Path("/tmp").glob("test*.forest"))  # MSTParser's, in Java's default
    sys.path.insert(0, str(FIXTURES))
    try:
        run = parse_sentences(sents, f"python:faulty_graph:{cls}={spec.partition(':')[2]}",
                              timeout=5, batch_size=4)
    finally:
        sys.path.remove(str(FIXTURES))
    # its JVMs killed (KILLJAVA, the hang's timeout) left no file in /tmp
    assert set(Path("/tmp").glob("test*.forest")) <= forests
    reasons = [t.outcome.reason if isinstance(t.outcome, Failure) else "ok" for t in run.timed]
    runtime = "Java" if parser == "mst" else "TurboParser"
    assert [reasons[i] for i in (0, 2, 4, 6)] == ["ok"] * 4, reasons
    assert reasons[1].startswith(f"{runtime} exited (exit code -9)"), reasons[1]
    assert reasons[3] == "timeout after 5 s" and reasons[5] == "crash (exit code 9)"
    assert run.restarts == 2


def test_train_on_the_command_line_writes_settings_and_dev_score_and_caches(
        tmp_path: Path) -> None:
    train = tmp_path / "train.conllu"
    conllu_slice(shared_path(TWEEBANK_TRAIN), train, 150)
    dev = tmp_path / "dev.conllu"
    conllu_slice(shared_path(EWT_DEV), dev, 40)
    env = {**__import__("os").environ, "PARSEBENCH_CACHE": str(tmp_path / "cache")}
    args = ("train", "tweebo", str(train), "-o", str(tmp_path / "m" / "tw"), "--dev",
            str(dev), "--model-type", "basic", "--iterations", "2", "--binary",
            str(shared_path(TOOLS["tweebo"])), "--json", "-q")
    p = cli(*args, env=env)
    assert p.returncode == 0, p.stderr
    got = json.loads(p.stdout)
    assert got["cached"] is False and got["sentences"] == 150
    side = json.loads((tmp_path / "m" / "tw.json").read_text())
    assert side["settings"]["model_type"] == "basic" and side["settings"]["iterations"] == 2
    assert side["dev"]["tags"] == "gold" and 20 < side["dev"]["uas"] < 90
    again = cli(*args, env=env)
    assert again.returncode == 0 and json.loads(again.stdout)["cached"] is True
    bad = cli("train", "mst", str(train), "-o", str(tmp_path / "x"), "--order", "3", "--jar",
              str(shared_path(TOOLS["mst"])), env=env)
    assert bad.returncode == 2
    assert error_lines(bad.stderr) == [
        "parsebench: MSTParser: order 1 or 2 and decode proj or non-proj, not 3 and "
        "non-proj"], bad.stderr


def test_the_shared_mate_model_parses_ewt_with_xpos(tmp_path: Path) -> None:
    """../shared/models/en_ewt_mate (2,000 sentences, XPOS): on 150 sentences of EWT test
    with UDPipe's tags, LAS within reach of its card's 79.75 with gold tags."""
    test = tmp_path / "test.conllu"
    conllu_slice(shared_path("data/ud-english-ewt/en_ewt-ud-test.conllu"), test, 150)
    out = tmp_path / "out.conllu"
    model = shared_path("models/en_ewt_mate/en_ewt_mate_2k.model")
    p = cli("parse", str(test), "-o", str(out), "--parser", _spec("mate", str(model)))
    assert p.returncode == 0, p.stderr
    las = 100 * score_deps(read_conllu(test), read_conllu(out)).total.las.as_dict()["f1"]
    assert 65 < las < 85, las




def test_a_run_trains_turbo_on_its_corpus_and_says_so(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """``spec = "turbo:train,tagger=..."``: TurboParser trained on the corpus's training
    split before it parses, its options passed on; the Run table names TurboParser, not
    UDPipe. A spec without a tagger is refused before any work."""
    import parsebench as pb

    monkeypatch.setenv("PARSEBENCH_CACHE", str(tmp_path / "cache"))
    train = tmp_path / "train.conllu"
    conllu_slice(shared_path(EWT_TRAIN), train, 200)
    test = tmp_path / "test.conllu"
    conllu_slice(shared_path(EWT_DEV), test, 30)
    needs("ufal.udpipe")
    spec = (f"turbo:train,tagger={shared_path(TAGGER)},model_type=basic,iterations=2,"
            f"binary={shared_path(TOOLS['turbo'])}")
    exp = tmp_path / "exp.toml"
    exp.write_text(f'''name = "trained"
[corpus]
path = "{test}"
train = "{train}"
[noise]
rates = [0.1]
[[parsers]]
name = "turbo-here"
spec = "{spec}"
[metrics]
deps = true
''')
    got = pb.run(exp, store=tmp_path / "s.sqlite", report=tmp_path / "r")
    las = {r.level: r.figure("las", "f1") for r in got.results if r.method == "deps"
           and r.projection == "deprel"}
    assert set(las) == {"clean", "rate=0.1"} and (las["clean"] or 0) > 0.3
    md = (tmp_path / "r" / "index.md").read_text()
    assert "turbo-here: trained here | TurboParser on" in md and "200 sentences, 2 " \
        "iteration(s);" in md, md
    side = json.loads(next((tmp_path / "cache" / "models").glob("turbo-*/model.json"))
                      .read_text())
    assert side["settings"]["model_type"] == "basic"
    bad = tmp_path / "bad.toml"
    bad.write_text(exp.read_text().replace(f"tagger={shared_path(TAGGER)},", ""))
    with pytest.raises(pb.InputError, match="turbo needs part-of-speech tags"):
        pb.run(bad, store=tmp_path / "b.sqlite")


def test_train_without_the_program_says_how_train_is_given_it(tmp_path: Path) -> None:
    """Issue 59 item 11: ``train malt`` without a jar said "add ,jar=PATH to the parser
    spec", where ``train`` takes ``--jar``."""
    import os

    train = tmp_path / "t.conllu"
    train.write_text("1\ta\t_\tX\t_\t_\t0\troot\t_\t_\n\n")
    env = {k: v for k, v in os.environ.items()
           if k not in ("MALTPARSER_JAR", "TURBOPARSER", "MATE_JAR")}
    env["PARSEBENCH_CACHE"] = str(tmp_path / "cache")
    for parser, line in (
            ("malt", "MaltParser jar not found: set MALTPARSER_JAR=PATH/TO/JAR or give train "
             "--jar PATH (MaltParser 1.9.2 from maltparser.org; see the README)"),
            ("turbo", "TurboParser not found: set TURBOPARSER=PATH/TO/BINARY or give train "
             "--binary PATH (TurboParser 2.3, built from github.com/andre-martins/TurboParser;"
             " see the README)")):
        p = cli("train", parser, str(train), "-o", str(tmp_path / "m.mco"), env=env)
        assert p.returncode == 2 and error_lines(p.stderr) == [f"parsebench: {line}"], p.stderr
    p = cli("train", "mate", str(train), "-o", str(tmp_path / "m"), "--jar",
            str(tmp_path / "none.jar"), env=env)
    assert error_lines(p.stderr) == [f"parsebench: Mate jar not found at {tmp_path}/none.jar "
                                     "(from --jar; Mate tools' anna-3.61.jar, built from "
                                     "github.com/jgrivolla/mate-tools; see the README)"]


def test_a_spec_that_trains_is_refused_at_its_line(tmp_path: Path) -> None:
    """Issue 59 item 10: ``spec = "malt:train"`` (no tagger) and ``spec =
    "udpipe:train:x"`` were refused without the experiment file's line."""
    from conftest import FIXTURES

    import parsebench as pb

    for spec, message in (("malt:train", "malt needs part-of-speech tags"),
                          ("udpipe:train:x", "a parser trained here is udpipe:train")):
        exp = tmp_path / "e.toml"
        exp.write_text(f'''name = "e"
[corpus]
path = "{FIXTURES / 'learner.conllu'}"
train = "{FIXTURES / 'learner.conllu'}"
[[parsers]]
name = "p"
spec = "{spec}"
[metrics]
deps = true
''')
        with pytest.raises(pb.InputError, match=message) as e:
            pb.run(exp, store=tmp_path / "s.sqlite")
        assert e.value.line == 7 and str(e.value).startswith(f"{exp}:7: "), str(e.value)

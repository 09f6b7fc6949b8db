"""MaltParser and Yara (Java) behind their adapters: trained here on a slice of EWT train,
parsing EWT dev as their own command lines do, a JVM a worker, faults costing one
sentence, and a missing Java or jar said in one line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FIXTURES, error_lines, needs, needs_java, shared_path

from parsebench.common.errors import InputError
from parsebench.formats.conllu import Sentence, read_conllu
from parsebench.metrics.dependency.evaluate import score_deps
from parsebench.model.parses import blank
from parsebench.parsers.base import Analysis, Failure
from parsebench.parsers.jvm import bridge_command, read_answer, split_options
from parsebench.parsers.malt import malt_rows
from parsebench.parsers.run import parse_sentences
from parsebench.parsers.training import conllu_slice, conllx_words, train_malt, train_yara
from parsebench.parsers.yara import yara_rows

MALT_JAR = "tools/maltparser-1.9.2/maltparser-1.9.2.jar"
YARA_JAR = "tools/yara-parser/jar/YaraParser.jar"
TAGGER = "models/en_ewt.udpipe"
EWT_TRAIN = "data/ud-english-ewt/en_ewt-ud-train.conllu"
EWT_DEV = "data/ud-english-ewt/en_ewt-ud-dev.conllu"
EWT_TEST = "data/ud-english-ewt/en_ewt-ud-test.conllu"
DEV_SENTENCES = 70
"""EWT dev's first 70 sentences: multiword tokens, and an empty node in the 59th."""


def cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "parsebench.cli", *args], capture_output=True,
                          text=True, env=env)


def test_a_bridge_is_compiled_once_and_the_launcher_stands_in_without_javac(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bridge's classes are compiled into the cache folder at the first start and
    reused after (the source launcher compiled them at every start); a Java without
    ``javac`` beside it (a JRE) runs the source as before."""
    needs_java()
    import shutil

    monkeypatch.setenv("PARSEBENCH_CACHE", str(tmp_path / "cache"))
    java = os.path.realpath(shutil.which("java") or "java")
    jar = str(shared_path(MALT_JAR))
    first = bridge_command(java, jar, "MaltServer.java")
    assert first[-1] == "MaltServer" and first[:2] == [java, "-cp"]
    classes = Path(first[2].split(os.pathsep)[1])
    assert (classes / "MaltServer.class").is_file()
    stamp = (classes / "MaltServer.class").stat().st_mtime_ns
    assert bridge_command(java, jar, "MaltServer.java") == first
    assert (classes / "MaltServer.class").stat().st_mtime_ns == stamp
    assert [p.name for p in classes.parent.iterdir()] == [classes.name]  # no leftovers
    lone = tmp_path / "jre" / "java"
    lone.parent.mkdir()
    lone.symlink_to(java)
    launcher = bridge_command(str(lone), jar, "MaltServer.java")
    assert launcher[-1].endswith("MaltServer.java") and launcher[2] == jar


# --- conversions, without Java ---------------------------------------------------------

def test_spec_options_are_split_and_unknown_keys_refused() -> None:
    assert split_options("malt", "a,b.mco,tagger=t.udpipe,jar=x.jar", ("jar", "tagger"),
                         "u") == ("a,b.mco", {"tagger": "t.udpipe", "jar": "x.jar"})
    assert split_options("yara", "m", ("jar", "tagger"), "u") == ("m", {})
    with pytest.raises(InputError, match="unknown option 'beam'"):
        split_options("yara", "m,beam=4", ("jar", "tagger"), "u")
    with pytest.raises(InputError, match="needs a model"):
        split_options("yara", "", ("jar", "tagger"), "u")


def test_rows_sent_to_the_parsers_keep_their_columns() -> None:
    assert malt_rows(["Hi", "a\tb", " "], ["_"] * 3, ["INTJ", "X", "PUNCT"],
                     ["UH", "", "."], ["_", "_", "_"]) == [
        "1\tHi\t_\tINTJ\tUH\t_", "2\ta b\t_\tX\t_\t_", "3\t_\t_\tPUNCT\t.\t_"]
    assert yara_rows(["Hi", ""], ["INTJ", "PUNCT"]) == ["Hi\tINTJ", "_\tPUNCT"]


def test_answers_are_read_with_maltparsers_root_label_as_uds() -> None:
    got = read_answer(["2\tnsubj", "0\tROOT", "2\tROOT"], 3)
    assert isinstance(got, Analysis)
    assert got.heads == [2, 0, 2] and got.deprels == ["nsubj", "root", "ROOT"]
    wrong = read_answer(["0\troot"], 2)
    assert isinstance(wrong, Failure) and wrong.reason == "wrong token count: 1 words out for 2"
    out = read_answer(["3\tdep"], 1)
    assert isinstance(out, Failure) and out.reason == "head 3 out of range for 1 words"


def test_conllx_words_keeps_word_lines_only(tmp_path: Path) -> None:
    src = tmp_path / "in.conllu"
    src.write_text("# sent_id = 1\n1-2\tdon't\t_\t_\t_\t_\t_\t_\t_\t_\n"
                   "1\tdo\tdo\tAUX\tVBP\t_\t0\troot\t_\t_\n2\tn't\tnot\tPART\tRB\t_\t1\tadvmod\t_\t_\n"
                   "2.1\tx\tx\tX\tX\t_\t_\t_\t1:dep\t_\n\n# sent_id = 2\n"
                   "1\tgo\tgo\tVERB\tVB\t_\t0\troot\t_\t_\n\n")
    assert conllx_words(src, tmp_path / "out.conll") == 2
    assert (tmp_path / "out.conll").read_text() == (
        "1\tdo\tdo\tAUX\tVBP\t_\t0\troot\t_\t_\n2\tn't\tnot\tPART\tRB\t_\t1\tadvmod\t_\t_\n\n"
        "1\tgo\tgo\tVERB\tVB\t_\t0\troot\t_\t_\n\n")
    assert conllx_words(src, tmp_path / "one.conll", limit=1) == 1
    assert conllu_slice(src, tmp_path / "one.conllu", 1) == 1
    assert (tmp_path / "one.conllu").read_text().count("sent_id") == 1


def test_the_bridge_protocol_a_death_and_a_failed_restart_cost_a_sentence_each(
        tmp_path: Path) -> None:
    """JavaBridge over a stand-in program (no Java needed): it answers one sentence,
    dies on the next, and refuses to start again; each costs only its sentence."""
    from parsebench.parsers.jvm import JavaBridge

    prog = tmp_path / "bridge.py"
    prog.write_text(
        "import os, sys\n"
        "marker = sys.argv[1]\n"
        "if os.path.exists(marker):\n"
        "    print('fatal\\tmodel gone', flush=True); sys.exit(1)\n"
        "open(marker, 'w').close()\n"
        "print('ready', flush=True)\n"
        "rows = []\n"
        "for line in sys.stdin:\n"
        "    if line.strip():\n"
        "        rows.append(line); continue\n"
        "    if any('BOOM' in r for r in rows): sys.stderr.write('Error: boom\\n'); sys.exit(3)\n"
        "    print(''.join(f'{i}\\tdep\\n' for i in range(len(rows))), flush=True)\n"
        "    rows = []\n")
    bridge = JavaBridge("Stand-in", [sys.executable, str(prog), str(tmp_path / "started")])
    bridge.start()
    assert bridge.ask(["a", "b"]) == ["0\tdep", "1\tdep"]
    died = bridge.ask(["BOOM"])
    assert isinstance(died, str) and died.startswith("Java exited (exit code 3)"), died
    assert bridge.ask(["c"]) == "Java did not start again: Stand-in: model gone"
    with pytest.raises(InputError, match="Stand-in: model gone"):
        bridge.start()


def test_a_missing_jar_or_java_is_one_line_naming_it(tmp_path: Path) -> None:
    model = tmp_path / "m.mco"
    model.write_bytes(b"x")
    src = tmp_path / "in.txt"
    src.write_text("a b\n")
    env = {k: v for k, v in os.environ.items() if k not in ("MALTPARSER_JAR", "YARA_JAR")}
    p = cli("parse", str(src), "-o", str(tmp_path / "o.conllu"), "--parser",
            f"malt:{model},tagger=t.udpipe", env=env)
    assert p.returncode == 2
    assert error_lines(p.stderr) == [
        "parsebench: MaltParser jar not found: set MALTPARSER_JAR=PATH/TO/JAR or add ,jar=PATH to "
        "the parser spec (MaltParser 1.9.2 from maltparser.org; see the README)"], p.stderr
    jar = tmp_path / "fake.jar"
    jar.write_bytes(b"x")
    bare = dict(env, PATH=str(tmp_path / "nothing"))
    bare.pop("JAVA_HOME", None)
    p = cli("parse", str(src), "-o", str(tmp_path / "o.conllu"), "--parser",
            f"yara:{model},jar={jar},tagger={shared_path(TAGGER)}", env=bare)
    assert p.returncode == 2, p.stderr
    lines = error_lines(p.stderr)
    assert len(lines) == 1 and "Java is missing (no java on PATH)" in lines[0], p.stderr
    assert "default-jre-headless" in lines[0]
    assert not (tmp_path / "o.conllu").exists()


# --- trained here, parsing through the adapter and through their own command lines ------

@pytest.fixture(scope="module")
def slice_models(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Both parsers trained on a slice of EWT train (seconds each)."""
    needs_java()
    folder = tmp_path_factory.mktemp("models")
    train = shared_path(EWT_TRAIN)
    malt = train_malt(train, folder / "malt200.mco", str(shared_path(MALT_JAR)), limit=200)
    yara = train_yara(train, None, folder / "yara150", str(shared_path(YARA_JAR)), beam=2,
                      iterations=1, limit=150, heap="1g")
    assert malt.sentences == 200 and yara.sentences == 150
    assert json.loads((folder / "malt200.mco.json").read_text())["settings"]["root_label"] \
        == "root"
    return {"malt": malt.model, "yara": yara.model}


def _spec(parser: str, model: str) -> str:
    needs("ufal.udpipe")
    jar = shared_path(MALT_JAR if parser == "malt" else YARA_JAR)
    return f"{parser}:{model},tagger={shared_path(TAGGER)},jar={jar}"


def _own_command_line(parser: str, model: str, parsed: Path, tmp: Path) -> list[Sentence]:
    """The parser's own command line on the words and tags the adapter gave it."""
    words = tmp / "tagged.conllu"
    with open(words, "w", encoding="utf-8") as out:
        for line in parsed.read_text(encoding="utf-8").split("\n"):
            cols = line.split("\t")
            if len(cols) == 10 and cols[0].isdigit():
                cols[6:8] = ["0", "_"] if parser == "yara" else ["_", "_"]
                line = "\t".join(cols)
            if not (parser == "yara" and line and not (len(cols) == 10 and cols[0].isdigit())):
                out.write(line + "\n")
    got = tmp / "own.conll"
    if parser == "malt":
        folder, name = os.path.split(model)
        argv = ["java", "-jar", str(shared_path(MALT_JAR)), "-c", name[:-4], "-w", folder,
                "-i", str(words), "-if", "conllu", "-o", str(got), "-of", "conllu",
                "-m", "parse"]
    else:
        argv = ["java", "-jar", str(shared_path(YARA_JAR)), "parse_conll", "-input",
                str(words), "-out", str(got), "-model", model, "nt:1"]
    subprocess.run(argv, check=True, capture_output=True, cwd=tmp)
    sentences: list[Sentence] = []
    rows: list[list[str]] = []
    for line in [*got.read_text(encoding="utf-8").split("\n"), ""]:
        cols = line.split("\t")
        if len(cols) >= 8 and cols[0].isdigit():
            rows.append(cols)
        elif not line.strip() and rows:
            s = blank([r[1] for r in rows], [])
            s.heads = [int(r[6]) for r in rows]
            s.deprels = [r[7] for r in rows]
            sentences.append(s)
            rows = []
    return sentences


def _is_tree(heads: list[int]) -> bool:
    """Every word reaches the artificial root, no cycle (several roots allowed: both parsers
    attach words left on their stack to it)."""
    for i in range(1, len(heads) + 1):
        seen, h = set(), i
        while h and h not in seen:
            if not 0 <= heads[h - 1] <= len(heads):
                return False
            seen.add(h)
            h = heads[h - 1]
        if h:
            return False
    return True


@pytest.mark.parametrize("parser", ["malt", "yara"])
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
    # rows 1:1: comments, multiword-token lines and words, all where they were; the
    # gold's empty nodes are the parser's to predict, so the output has none
    def skeleton(path: Path) -> list[str]:
        return [line if not line.split("\t")[0].isdigit() else line.split("\t")[1]
                for line in path.read_text(encoding="utf-8").split("\n")
                if "." not in line.split("\t")[0] or "\t" not in line]
    assert skeleton(out) == skeleton(dev)
    assert not any("." in line.split("\t")[0] for line in out.read_text().split("\n")
                   if "\t" in line)
    ids = [line.split("\t")[0] for line in dev.read_text().split("\n") if "\t" in line]
    assert any("-" in i for i in ids) and any("." in i for i in ids)  # both kinds there
    got, gold = read_conllu(out), read_conllu(dev)
    assert [len(s) for s in got] == [len(s) for s in gold]
    assert all(_is_tree(s.heads) for s in got)
    # the tags are the tagger's, not the gold's
    assert sum(a != b for g, o in zip(gold, got, strict=True)
               for a, b in zip(g.upos, o.upos, strict=True)) > 0
    assert score_deps(gold, got).total.upos.as_dict()["f1"] > 0.9
    own = _own_command_line(parser, model, out, tmp_path)
    assert [s.forms for s in own] == [s.forms for s in got]
    assert [s.heads for s in own] == [s.heads for s in got]
    assert [s.deprels for s in own] == [s.deprels for s in got]
    assert score_deps(gold, got).total.uas.as_dict()["f1"] > 0.4  # 200 sentences' worth


@pytest.mark.parametrize("parser", ["malt", "yara"])
def test_a_killed_jvm_a_hang_or_a_crash_costs_one_sentence(
        parser: str, slice_models: dict[str, str]) -> None:
    spec = _spec(parser, slice_models[parser])
    cls = "FaultyMalt" if parser == "malt" else "FaultyYara"
    sents = [blank(s.split(), [f"# text = {s}"]) for s in (
        "The cat sat .", "KILLJAVA now", "Dogs bark .", "HANG", "Birds sing loudly .",
        "CRASH it", "It works .")]
    sys.path.insert(0, str(FIXTURES))
    try:
        # a new JVM and its model load under the pool's load timeout, between
        # sentences, so no sentence's 5 s includes them, however busy the machine
        run = parse_sentences(sents, f"python:faulty_java:{cls}={spec.partition(':')[2]}",
                              timeout=5, batch_size=4)
    finally:
        sys.path.remove(str(FIXTURES))
    reasons = [t.outcome.reason if isinstance(t.outcome, Failure) else "ok" for t in run.timed]
    assert reasons[0] == "ok" and reasons[2] == "ok" and reasons[4] == "ok"
    assert reasons[6] == "ok"
    assert reasons[1].startswith("Java exited (exit code -9)"), reasons[1]
    assert reasons[3] == "timeout after 5 s" and reasons[5] == "crash (exit code 9)"
    assert run.restarts == 2
    ok = run.timed[4].outcome
    assert isinstance(ok, Analysis) and ok.heads is not None and len(ok.heads) == 4


# --- the models of ../shared/models, trained on all of EWT train -----------------------

@pytest.mark.parametrize(("parser", "model", "las"), [
    ("malt", "models/en_ewt_malt/en_ewt_malt.mco", 78.72),
    ("yara", "models/en_ewt_yara/en_ewt_yara_iter10", 82.26)])
def test_the_ewt_models_score_near_their_card_on_ewt_test(
        parser: str, model: str, las: float, tmp_path: Path) -> None:
    """../shared/models: LAS on all of EWT test with UDPipe's tags; 300 sentences here,
    so within 4 points."""
    needs_java()
    test = tmp_path / "test.conllu"
    conllu_slice(shared_path(EWT_TEST), test, 300)
    out = tmp_path / "out.conllu"
    p = cli("parse", str(test), "-o", str(out), "--parser", _spec(parser, str(
        shared_path(model))))
    assert p.returncode == 0, p.stderr
    r = score_deps(read_conllu(test), read_conllu(out)).total
    assert abs(100 * r.las.as_dict()["f1"] - las) <= 4, r.las.as_dict()


def test_an_experiment_resolves_the_files_of_a_specs_options(tmp_path: Path) -> None:
    from parsebench.run.experiment import resolve_spec

    (tmp_path / "m.mco").write_bytes(b"x")
    (tmp_path / "t.udpipe").write_bytes(b"x")
    got = resolve_spec("malt:m.mco,tagger=t.udpipe,jar=/abs/x.jar", tmp_path)
    assert got == (f"malt:{tmp_path.resolve() / 'm.mco'},tagger="
                   f"{tmp_path.resolve() / 't.udpipe'},jar=/abs/x.jar")
    assert resolve_spec("udpipe:m.mco", tmp_path) == f"udpipe:{tmp_path.resolve() / 'm.mco'}"
    assert resolve_spec("spacy:en_core_web_sm", tmp_path) == "spacy:en_core_web_sm"

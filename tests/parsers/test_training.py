"""``parsebench train`` and ``pb.train``: UDPipe 1 trained (tiny: one iteration) on the
bundled fixture and on a slice of Turkish IMST, its model parsing through ``parse``;
the same training twice runs once (the cache); bad input is one line with FILE:LINE."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FIXTURES, ROOT, error_lines, needs, shared_path

import parsebench as pb
from parsebench.formats.conllu import read_conllu
from parsebench.parsers import udpipe_training
from parsebench.parsers.training import conllu_slice
from parsebench.parsers.udpipe_training import _heldout_scores, udpipe_settings

SRC = ROOT / "src"
IMST = "data/ud-turkish-imst/tr_imst-ud-{}.conllu"


def cli(*args: str, cache: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(SRC), PARSEBENCH_CACHE=str(cache))
    return subprocess.run([sys.executable, "-m", "parsebench.cli", *args],
                          capture_output=True, text=True, env=env)


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[str]:
    """The real UDPipe trainer, its calls counted; the cache in TMP_PATH."""
    monkeypatch.setenv("PARSEBENCH_CACHE", str(tmp_path / "cache"))
    calls: list[str] = []
    real = udpipe_training.train_udpipe

    def train_udpipe(*args: object, **kwargs: object) -> object:
        calls.append(str(args[0]))
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(udpipe_training, "train_udpipe", train_udpipe)
    return calls


def test_udpipe_trains_on_the_fixture_once_and_parses(counted: list[str],
                                                      tmp_path: Path) -> None:
    """A fresh clone trains a tiny UDPipe model; the second call finds it in the cache."""
    needs("ufal.udpipe")
    import io

    from parsebench.common.progress import Lines

    train = FIXTURES / "learner.conllu"
    shown = io.StringIO()
    first = pb.train("udpipe", train, tmp_path / "a.udpipe", iterations=1,
                     progress=Lines(shown, interval=0.0))
    # issue 59 item 21: each stage names what it trains on (a benchmark trains a corpus)
    assert "training tokenizer on learner.conllu" in shown.getvalue(), shown.getvalue()
    second = pb.train("udpipe", train, tmp_path / "b.udpipe", iterations=1)
    assert counted == [str(train)]
    assert (first.cached, second.cached) == (False, True)
    assert (tmp_path / "a.udpipe").read_bytes() == (tmp_path / "b.udpipe").read_bytes()
    side = json.loads((tmp_path / "b.udpipe.json").read_text())
    assert side["settings"]["parser"] == "iterations=1"
    assert side["settings"]["tokenizer"] == "epochs=1"
    assert side["sentences"] == 14 and side["dev"]["sentences"] == 1  # its last tenth
    assert side["key"] == first.key and side["model"] == str(tmp_path / "b.udpipe")
    parsed = pb.parse(train, f"udpipe:{tmp_path / 'b.udpipe'}")
    assert len(parsed.treebank) == 15 and pb.validate(_write(parsed, tmp_path)).valid


def _write(parsed: object, tmp_path: Path) -> Path:
    out = tmp_path / "parsed.conllu"
    parsed.write(out)  # type: ignore[attr-defined]
    return out


def test_udpipe_on_turkish_imst_end_to_end(tmp_path: Path) -> None:
    """40 sentences of IMST train, one iteration, through the command; its model parses
    IMST test through ``parse --parser udpipe:MODEL`` into valid trees."""
    needs("ufal.udpipe")
    train, dev, test = (shared_path(IMST.format(s)) for s in ("train", "dev", "test"))
    small_dev, small_test = tmp_path / "dev.conllu", tmp_path / "test.conllu"
    conllu_slice(dev, small_dev, 10)
    conllu_slice(test, small_test, 60)
    model = tmp_path / "tr.udpipe"
    p = cli("train", "udpipe", str(train), "--dev", str(small_dev), "--limit", "40",
            "--iterations", "1", "-o", str(model), "--json", cache=tmp_path / "cache")
    assert p.returncode == 0, p.stderr
    got = json.loads(p.stdout)
    assert got["sentences"] == 40 and got["cached"] is False
    assert got["dev"]["file"] == str(small_dev) and got["dev"]["parser_by_iteration"]
    out = tmp_path / "parsed.conllu"
    p = cli("parse", str(small_test), "--parser", f"udpipe:{model}", "-o", str(out), "-q",
            cache=tmp_path / "cache")
    assert p.returncode == 0, p.stderr
    assert len(read_conllu(out)) == 60 and pb.validate(out).valid
    r = pb.evaluate_deps(small_test, out)
    assert r.las.f1 is not None and r.las.f1 > 0


def test_bad_input_is_one_line_with_its_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.conllu"
    bad.write_text("# text = a b\n1\ta\t_\tX\t_\t_\t0\troot\t_\t_\n\n"
                   "# text = c d\n1\tc\t_\tX\t_\t_\t0\troot\t_\t_\n"
                   "2\td\t_\tX\t_\t_\t_\t_\t_\t_\n\n")
    out = tmp_path / "m.udpipe"
    p = cli("train", "udpipe", str(bad), "-o", str(out), cache=tmp_path / "cache")
    assert p.returncode == 2
    assert error_lines(p.stderr) == [f"parsebench: {bad}:4: word 2 of the sentence here has "
                                     "no HEAD or DEPREL: training needs gold trees"]
    assert not out.exists() and not (tmp_path / "m.udpipe.json").exists()
    p = cli("train", "nosuch", str(bad), "-o", str(out), cache=tmp_path / "cache")
    assert (p.returncode, error_lines(p.stderr)) == (
        2, ["parsebench: cannot train 'nosuch': one of udpipe, malt, yara, mst, mate, turbo, "
            "tweebo"])
    p = cli("train", "udpipe", str(tmp_path / "none.conllu"), "-o", str(out),
            cache=tmp_path / "cache")
    assert (p.returncode, len(error_lines(p.stderr))) == (2, 1)
    assert "none.conllu" in p.stderr


def test_udpipe_options_iterations_and_their_own() -> None:
    s = udpipe_settings(2, tagger="iterations=5;models=2", parser="structured_interval=0")
    assert (s["tokenizer"], s["tagger"], s["parser"]) == (
        "epochs=2", "iterations=5;models=2", "structured_interval=0;iterations=2")
    assert udpipe_settings()["parser"] == ""  # UDPipe's own defaults
    with pytest.raises(pb.InputError, match="name=value"):
        udpipe_settings(parser="iterations")
    with pytest.raises(pb.InputError, match="at least 1"):
        udpipe_settings(0)


def test_udpipe_tokenizer_none_is_accepted_and_trains_for_given_words(
        tmp_path: Path) -> None:
    """``none`` is UDPipe's own word for no tokenizer (a model for gold words): the option
    check let only name=value through, so the cheapest training was refused."""
    needs("ufal.udpipe")
    s = udpipe_settings(2, tokenizer="none")
    assert (s["tokenizer"], s["tagger"], s["parser"]) == ("none", "iterations=2",
                                                          "iterations=2")
    model = tmp_path / "words.udpipe"
    p = cli("train", "udpipe", str(FIXTURES / "learner.conllu"), "-o", str(model),
            "--udpipe-tokenizer", "none", "--iterations", "1", "--json",
            cache=tmp_path / "cache")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["settings"]["tokenizer"] == "none"
    parsed = pb.parse(FIXTURES / "learner.conllu", f"udpipe:{model}")
    assert len(parsed.treebank) == 15


def test_a_killed_training_leaves_no_scratch_folder(tmp_path: Path) -> None:
    """A training killed by SIGTERM removes its scratch folder in the cache; one killed
    outright (a folder of a process no longer alive) is removed by the next training."""
    needs("ufal.udpipe")
    import signal
    import time

    train = shared_path(IMST.format("train"))
    cache = tmp_path / "cache"
    env = dict(os.environ, PYTHONPATH=str(SRC), PARSEBENCH_CACHE=str(cache))
    proc = subprocess.Popen([sys.executable, "-m", "parsebench.cli", "train", "udpipe",
                             str(train), "--limit", "600", "--iterations", "20", "-q",
                             "-o", str(tmp_path / "m.udpipe")], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while not list(cache.glob("models/*/.training-*/train.conllu")):
        assert proc.poll() is None and time.monotonic() < deadline, "no training started"
        time.sleep(0.2)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode != 0 and "Traceback" not in err
    assert not list(cache.glob("models/*/.training-*"))
    assert not (tmp_path / "m.udpipe").exists()
    left = cache / "models" / "udpipe-old" / ".training-99999999-abc"  # (no such process)
    left.mkdir(parents=True)
    (left / "train.conllu").write_text("x")
    mine = cache / "models" / "udpipe-old" / f".training-{os.getpid()}-abc"  # (alive)
    mine.mkdir()
    from parsebench.parsers.trained import scratch_folder

    with scratch_folder(left.parent) as tmp:
        assert tmp.is_dir() and not left.exists() and mine.exists()
    assert not tmp.exists()


def test_the_heldout_scores_are_read_from_udpipes_log() -> None:
    log = ["Training tokenizer with the following options: tokenize_url=1",
           "Epoch 1, logprob: -3.2612e+04, training acc: 97.86%, heldout tokens: "
           "100.00%P/100.00%R/100.00%, sentences: 88.89%P/80.00%R/84.21%",
           "Training tagger model 1.",
           "Iteration 1: done, accuracy 64.88%, heldout accuracy 76.92%t/76.92%l/76.92%b",
           "Parser transition options: system=projective, oracle=dynamic",
           "Iteration 1: training logprob -2.1659e+03, heldout UAS 61.00%, LAS 46.15%",
           "Iteration 2: training logprob -1.9e+03, heldout UAS 62.00%, LAS 47.00%",
           "Using early stopping -- choosing network from iteration 2"]
    assert _heldout_scores(log) == {
        "tokenizer_by_epoch": [{"epoch": 1, "sentences_f1": 84.21}],
        "tagger_by_iteration": [{"iteration": 1, "tag_accuracy": 76.92}],
        "parser_by_iteration": [{"iteration": 1, "uas": 61.0, "las": 46.15},
                                {"iteration": 2, "uas": 62.0, "las": 47.0}],
        "parser_kept_iteration": 2}


def test_a_run_trains_udpipe_on_its_corpus(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """``spec = "udpipe:train"``: trained on the corpus's training split before it parses,
    once (the same data and settings again come from the cache); the Run table says what
    trained it. A corpus without a training split, or a wrong option, is refused before
    any parsing."""
    needs("ufal.udpipe")
    monkeypatch.setenv("PARSEBENCH_CACHE", str(tmp_path / "cache"))
    exp = tmp_path / "exp.toml"
    exp.write_text(f'''name = "trained"
[corpus]
path = "{FIXTURES / 'learner.conllu'}"
train = "{FIXTURES / 'learner.conllu'}"
[noise]
rates = [0.2]
lexicon = "{FIXTURES / 'lexicon.txt'}"
[[parsers]]
name = "udpipe-here"
spec = "udpipe:train,iterations=1"
[metrics]
deps = true
''')
    got = pb.run(exp, store=tmp_path / "s.sqlite", report=tmp_path / "r")
    las = {r.level: r.figure("las", "f1") for r in got.results if r.method == "deps"
           and r.projection == "deprel"}
    assert set(las) == {"clean", "rate=0.2"} and las["clean"] is not None
    md = (tmp_path / "r" / "index.md").read_text()
    assert "udpipe-here: trained here | UDPipe 1 on" in md and "1 iteration(s)" in md
    models = list((tmp_path / "cache" / "models").glob("udpipe-*/model.udpipe"))
    assert len(models) == 1
    stamp = models[0].stat().st_mtime_ns
    again = pb.run(exp, store=tmp_path / "s.sqlite", report=tmp_path / "r")
    assert again.parsed == 0 and models[0].stat().st_mtime_ns == stamp
    for old, new, message in (
            (f'train = "{FIXTURES / "learner.conllu"}"\n', "",
             "trains on the corpus's training split: give [corpus] train"),
            ("iterations=1", "iterations=x", "iterations=N (N >= 1), not 'iterations=x'")):
        bad = tmp_path / "bad.toml"
        bad.write_text(exp.read_text().replace(old, new))
        with pytest.raises(pb.InputError) as e:
            pb.run(bad, store=tmp_path / "b.sqlite")
        assert message in str(e.value)


def test_an_empty_or_invalid_treebank_is_refused_before_any_trainer_runs(
        tmp_path: Path) -> None:
    """Issue 59, 13b: ``train malt`` and ``train yara`` took an empty treebank (rc 0, "0
    sentences"); a cycle or a sentence without a root reached the trainer."""
    from parsebench.common.errors import InputError
    from parsebench.formats.conllu import read_conllu
    from parsebench.parsers.trained import check_trees

    empty = tmp_path / "empty.conllu"
    empty.write_text("")
    p = cli("train", "malt", str(empty), "-o", str(tmp_path / "m.mco"), "--jar", "x.jar",
            cache=tmp_path / "cache")
    assert p.returncode == 2
    assert error_lines(p.stderr) == [f"parsebench: {empty}: no sentences to train on (the "
                                     "treebank is empty)"], p.stderr
    with pytest.raises(InputError, match="no sentences to train on"):
        check_trees([], empty)
    for heads, message in (("0 3 2", "make a cycle"),
                           ("2 3 1", "no root"), ("0 2 2", "make a cycle")):
        bad = tmp_path / "bad.conllu"
        bad.write_text("# sent_id = 1\n" + "".join(
            f"{i}\tw\t_\tX\t_\t_\t{h}\tdep\t_\t_\n" for i, h in enumerate(heads.split(), 1))
            + "\n")
        with pytest.raises(InputError, match=message) as e:
            check_trees(read_conllu(bad), bad)
        assert e.value.line == 1

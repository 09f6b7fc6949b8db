"""Training UDPipe 1 (tokenizer, tagger and parser) on a CoNLL-U treebank through
``ufal.udpipe``'s trainer: the system of the CoNLL 2018 shared task's baseline.

Settings: UDPipe 1.2's own defaults (its ``run=1``, the values its authors found best
on UD 1.2: tokenizer 100 epochs, one tagger model of 20 iterations, Parsito's
projective system with the dynamic oracle and the search-based oracle every 8
steps, 10 iterations), the parser learning from the tagger's tags, not the gold.
The shared task's baseline models had their hyperparameters searched treebank by
treebank; these are the defaults, the same for every treebank. ``iterations``
shortens all three (tokenizer epochs, tagger and parser iterations) for a quick
model; the option strings (UDPipe's ``name=value;...``) set anything else, and win
over ``iterations``. Every setting is written in the model's sidecar JSON.

Model selection: UDPipe keeps the iteration best on the held-out sentences (its
early stopping): DEV where given, else the last tenth of TRAIN's sentences, which
are then left out of the training (the case of a treebank trained on its dev).

Deterministic: UDPipe's trainers draw from generators with fixed seeds and train on
one thread, and it has no seed option; the same treebank and settings give the same
model, byte for byte.

The training runs in a child process: UDPipe writes its progress on the process's
standard error, which the parent reads line by line for the progress bars and the
held-out scores, and a crash of the C++ code costs the training, not the caller.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from parsebench.common.errors import InputError
from parsebench.common.progress import Progress, quiet

if TYPE_CHECKING:
    from parsebench.parsers.trained import Trained

METHOD = "morphodita_parsito"
HELDOUT_FRACTION = 0.1
"""The part of TRAIN held out for model selection when no dev file is given."""

_EPOCH = re.compile(r"^Epoch (\d+),.*?heldout tokens: .*?([\d.]+)%R.*sentences: .*?"
                    r"([\d.]+)%P/([\d.]+)%R/([\d.]+)%")
_TAGGER = re.compile(r"^Iteration (\d+): done, accuracy ([\d.]+)%(?:, heldout accuracy "
                     r"([\d.]+)%t)?")
_PARSER = re.compile(r"^Iteration (\d+): training logprob [^,\s]+(?:, heldout UAS ([\d.]+)%, "
                     r"LAS ([\d.]+)%)?")


def _option(opts: str, name: str) -> str | None:
    """NAME's value in a UDPipe option string, None if absent."""
    for part in opts.split(";"):
        key, _, value = part.partition("=")
        if key.strip() == name:
            return value.strip()
    return None


def _with(opts: str, name: str, value: int | None) -> str:
    """OPTS with NAME=VALUE added, unless VALUE is None, OPTS sets NAME itself or OPTS
    is ``none`` (no such component)."""
    if opts.strip() == "none":
        return "none"
    if value is None or _option(opts, name) is not None:
        return opts
    return f"{opts};{name}={value}" if opts else f"{name}={value}"


def udpipe_settings(iterations: int | None = None, tokenizer: str = "", tagger: str = "",
                    parser: str = "") -> dict[str, Any]:
    """The option strings UDPipe is given, and the totals the progress counts."""
    if iterations is not None and iterations < 1:
        raise InputError(f"iterations must be at least 1, not {iterations}")
    for what, opts in (("tokenizer", tokenizer), ("tagger", tagger), ("parser", parser)):
        if opts.strip() == "none":
            continue  # UDPipe's own word for no such component (a model for given words)
        if any(c in opts for c in "\n\t") or any(
                p.strip() and "=" not in p for p in opts.split(";")):
            raise InputError(f"UDPipe {what} options are name=value;name=value..., "
                             f"not {opts!r}")
    tokenizer = _with(tokenizer, "epochs", iterations)
    tagger = _with(tagger, "iterations", iterations)
    parser = _with(parser, "iterations", iterations)
    return {"method": METHOD, "tokenizer": tokenizer, "tagger": tagger, "parser": parser}


def _total(opts: str, name: str, default: int) -> int | None:
    if opts == "none":
        return None
    got = _option(opts, name)
    return int(got) if got is not None and got.isdigit() else default


def train_udpipe(train: str | os.PathLike[str], dev: str | os.PathLike[str] | None,
                 model: str | os.PathLike[str], *, limit: int | None = None,
                 iterations: int | None = None, tokenizer: str = "", tagger: str = "",
                 parser: str = "", progress: Progress | None = None) -> Trained:
    """UDPipe 1 on TRAIN (CoNLL-U, at most LIMIT sentences), DEV (or TRAIN's last
    tenth) held out for model selection, written as MODEL with MODEL.json."""
    from parsebench.common.installed import version
    from parsebench.formats.conllu import read_conllu, write_conllu
    from parsebench.parsers.trained import Trained, check_trees, scratch_folder

    progress = progress or quiet()
    model = Path(model).resolve()
    model.parent.mkdir(parents=True, exist_ok=True)
    settings = udpipe_settings(iterations, tokenizer, tagger, parser)
    sentences = read_conllu(train)
    if limit is not None:
        sentences = sentences[:limit]
    check_trees(sentences, train)
    if dev is not None:
        heldout = read_conllu(dev)
        check_trees(heldout, dev)
        held = {"file": str(dev), "sentences": len(heldout)}
    else:
        k = int(len(sentences) * HELDOUT_FRACTION)
        sentences, heldout = sentences[:len(sentences) - k], sentences[len(sentences) - k:]
        held = {"file": f"{train} (its last {k} sentences, left out of the training)",
                "sentences": k}
    if not sentences:
        raise InputError("no sentence to train on", train)
    settings["ufal.udpipe"] = version("ufal.udpipe")
    with scratch_folder(model.parent) as tmp:
        t = Path(tmp)
        with open(t / "train.conllu", "w", encoding="utf-8") as fh:
            write_conllu(sentences, fh)
        with open(t / "heldout.conllu", "w", encoding="utf-8") as fh:
            write_conllu(heldout, fh)
        t0 = time.perf_counter()
        log = _run_child(t, settings, progress, Path(train).name)
        seconds = time.perf_counter() - t0
        os.replace(t / "model.udpipe", model)
    held.update(_heldout_scores(log))
    done = Trained("udpipe", str(model), str(train), len(sentences), settings,
                   round(seconds, 1), held)
    done.write()
    return done


def _run_child(folder: Path, settings: dict[str, Any], progress: Progress,
               source: str) -> list[str]:
    """Train in a child process, its standard error read as it comes for the progress
    (each stage naming SOURCE, the file trained on: a benchmark trains one a corpus);
    the log's lines."""
    stages = {"tokenizer": _total(settings["tokenizer"], "epochs", 100),
              "tagger": _total(settings["tagger"], "iterations", 20),
              "parser": _total(settings["parser"], "iterations", 10)}
    argv = [sys.executable, "-m", "parsebench.parsers.udpipe_training", str(folder),
            settings["tokenizer"], settings["tagger"], settings["parser"]]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        p for p in (str(Path(__file__).resolve().parents[2]), os.environ.get("PYTHONPATH"))
        if p))
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True, errors="replace", env=env)
    assert proc.stderr is not None
    log: list[str] = []
    stage = None
    try:
        for raw in proc.stderr:
            line = raw.rstrip("\n")
            log.append(line)
            now = ("tokenizer" if line.startswith("Training tokenizer") else
                   "tagger" if line.startswith("Training tagger model") else
                   "parser" if line.startswith("Parser transition options") else None)
            if now is not None and now != stage:
                stage = now
                progress.stage(f"training {now} on {source}", stages[now])
            elif stage is not None and (
                    (stage == "tokenizer" and line.startswith("Epoch ")) or
                    (stage != "tokenizer" and line.startswith("Iteration "))):
                progress.advance()
    except BaseException:
        proc.kill()
        proc.wait()
        raise
    code = proc.wait()
    if code != 0 or not (folder / "model.udpipe").is_file():
        last = next((x for x in reversed(log) if x.strip()), "")
        raise InputError(f"UDPipe training failed (exit code {code}): {last[:300]}")
    return log


def _heldout_scores(log: list[str]) -> dict[str, Any]:
    """What UDPipe reported on the held-out sentences, iteration by iteration."""
    tok, tag, dep = [], [], []
    stage = None
    for line in log:
        if line.startswith("Training tokenizer"):
            stage = "tokenizer"
        elif line.startswith("Training tagger model"):
            stage = "tagger"
        elif line.startswith("Parser transition options"):
            stage = "parser"
        if stage == "tokenizer" and (m := _EPOCH.match(line)):
            tok.append({"epoch": int(m[1]), "sentences_f1": float(m[5])})
        elif stage == "tagger" and (m := _TAGGER.match(line)) and m[3]:
            tag.append({"iteration": int(m[1]), "tag_accuracy": float(m[3])})
        elif stage == "parser" and (m := _PARSER.match(line)) and m[3]:
            dep.append({"iteration": int(m[1]), "uas": float(m[2]), "las": float(m[3])})
    kept = [int(x) for line in log if line.startswith("Using early stopping")
            for x in re.findall(r"iteration (\d+)", line)]
    return {"tokenizer_by_epoch": tok, "tagger_by_iteration": tag,
            "parser_by_iteration": dep, "parser_kept_iteration": kept[-1] if kept else None}


def _child(folder: str, tokenizer: str, tagger: str, parser: str) -> int:
    """The child: read FOLDER's train.conllu and heldout.conllu, write model.udpipe."""
    from ufal.udpipe import InputFormat, ProcessingError, Sentence, Sentences, Trainer

    def read(path: Path) -> Any:
        fmt = InputFormat.newConlluInputFormat()
        fmt.setText(path.read_text(encoding="utf-8"))
        out, err, s = Sentences(), ProcessingError(), Sentence()
        while fmt.nextSentence(s, err):
            out.push_back(s)
            s = Sentence()
        if err.occurred():
            raise SystemExit(f"{path.name}: {err.message}")
        return out

    base = Path(folder)
    err = ProcessingError()
    data = Trainer.train(METHOD, read(base / "train.conllu"), read(base / "heldout.conllu"),
                         tokenizer or Trainer.DEFAULT, tagger or Trainer.DEFAULT,
                         parser or Trainer.DEFAULT, err)
    if err.occurred():
        sys.stderr.write(f"{err.message}\n")
        return 1
    raw = data if isinstance(data, bytes) else data.encode("utf-8", "surrogateescape")
    (base / "model.udpipe.tmp").write_bytes(raw)
    os.replace(base / "model.udpipe.tmp", base / "model.udpipe")
    return 0


if __name__ == "__main__":
    sys.exit(_child(*sys.argv[1:5]))

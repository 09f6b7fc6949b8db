"""Training MaltParser and Yara on a CoNLL-U treebank, a repeatable step with its
settings written down, the models kept in a cache folder outside the repository.

Both trainers are deterministic: MaltParser's liblinear draws from a fixed seed,
and Yara's one random choice (``random`` oracle selection) is left off and it
trains on one thread, so the same treebank and settings give the same parses; no
seed is needed. Both learn from the treebank's gold tags (UPOS and FORM are the
features they use); at parse time the adapters give them a tagger's tags.

- MaltParser: arc-eager (``nivreeager``), liblinear, its default feature model
  for CoNLL-U, root label ``root`` (UD's, not its default ``ROOT``); the dev file
  is not used (MaltParser has no model selection).
- Yara: beam and iterations chosen by the caller, one model an iteration
  (``MODEL_iterN``); the dev file gives Yara's own per-iteration report, the
  iteration kept is the last unless ``best`` (chosen by dev LAS from that report)
  is asked for. The treebank goes in as ten-column CoNLL-X (Yara reads no
  comments, multiword-token or empty-node lines), punctuation for its report is
  UPOS ``PUNCT``; it skips non-projective training trees.

The folder: ``$PARSEBENCH_CACHE/models``, else ``$XDG_CACHE_HOME/parsebench/models``,
else ``~/.cache/parsebench/models``.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from parsebench.errors import InputError, iter_lines
from parsebench.installed import cache_folder
from parsebench.parsers.jvm import java_command


def models_dir() -> Path:
    return cache_folder("models")


@dataclass
class Trained:
    """What a training run made and how: written beside the model as NAME.json."""

    parser: str
    model: str
    train: str
    sentences: int
    settings: dict[str, Any]
    seconds: float
    dev: dict[str, Any] = field(default_factory=dict)

    def write(self) -> Path:
        out = Path(self.model).with_name(Path(self.model).name + ".json")
        out.write_text(json.dumps(asdict(self), indent=1) + "\n")
        return out


def conllx_words(src: str | os.PathLike[str], dst: str | os.PathLike[str],
                 limit: int | None = None) -> int:
    """SRC's word lines (first column an integer) as ten-column CoNLL-X, sentences apart,
    at most LIMIT sentences; the count written."""
    n, in_sentence = 0, False
    with open(dst, "w", encoding="utf-8") as out:
        for line in iter_lines(src):
            if not line.strip():
                if in_sentence:
                    out.write("\n")
                    n += 1
                    in_sentence = False
                    if limit is not None and n >= limit:
                        break
                continue
            cols = line.split("\t")
            if len(cols) == 10 and cols[0].isdigit():
                out.write(line + "\n")
                in_sentence = True
        if in_sentence:
            out.write("\n")
            n += 1
    return n


def conllu_slice(src: str | os.PathLike[str], dst: str | os.PathLike[str],
                 limit: int) -> int:
    """SRC's first LIMIT sentences, as they are (comments, multiword tokens)."""
    n, in_sentence = 0, False
    with open(dst, "w", encoding="utf-8") as out:
        for line in iter_lines(src):
            if n >= limit:
                break
            out.write(line + "\n")
            if line.strip():
                in_sentence = True
            elif in_sentence:
                n += 1
                in_sentence = False
    return n + in_sentence


def _run(argv: list[str], cwd: str | os.PathLike[str], what: str) -> str:
    p = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, errors="replace")
    if p.returncode != 0:
        last = (p.stderr.strip().splitlines() or p.stdout.strip().splitlines() or [""])[-1]
        raise InputError(f"{what} failed (exit code {p.returncode}): {last[:300]}")
    return p.stdout + p.stderr


def train_malt(train: str | os.PathLike[str], model: str | os.PathLike[str], jar: str,
               limit: int | None = None) -> Trained:
    """MaltParser arc-eager + liblinear on TRAIN (CoNLL-U), written as MODEL (.mco)."""
    model = Path(model).resolve()
    if model.suffix != ".mco" or any(c.isspace() for c in model.stem):
        raise InputError("a MaltParser model is a NAME.mco without spaces", str(model))
    model.parent.mkdir(parents=True, exist_ok=True)
    settings = {"algorithm": "nivreeager", "learner": "liblinear", "root_label": "root",
                "format": "conllu", "jar": jar}
    with tempfile.TemporaryDirectory(dir=model.parent) as tmp:
        src = Path(tmp) / "train.conllu"
        n = conllu_slice(train, src, limit if limit is not None else 2**62)
        t0 = time.perf_counter()
        _run([java_command(), "-jar", jar, "-c", model.stem, "-i", str(src), "-if", "conllu",
              "-m", "learn", "-a", "nivreeager", "-l", "liblinear", "-grl", "root",
              "-v", "error"], tmp, "MaltParser training")
        seconds = time.perf_counter() - t0
        os.replace(Path(tmp) / model.name, model)
    done = Trained("malt", str(model), str(train), n, settings, round(seconds, 1))
    done.write()
    return done


_DEV = re.compile(r"Labeled accuracy:\s*([\d.]+).*?Unlabeled accuracy:\s*([\d.]+)", re.S)


def train_yara(train: str | os.PathLike[str], dev: str | os.PathLike[str] | None,
               model: str | os.PathLike[str], jar: str, beam: int, iterations: int,
               limit: int | None = None, heap: str = "6g", best: bool = False) -> Trained:
    """Yara on TRAIN (CoNLL-U) with BEAM and ITERATIONS, one thread; the model of the
    last iteration (or of the best by dev LAS) written as MODEL."""
    model = Path(model).resolve()
    model.parent.mkdir(parents=True, exist_ok=True)
    settings = {"beam": beam, "iterations": iterations, "threads": 1, "features": "extended",
                "oracle": "dynamic", "update": "max violation", "punctuation": "PUNCT",
                "heap": heap, "jar": jar, "kept": "best dev LAS" if best else "last"}
    with tempfile.TemporaryDirectory(dir=model.parent) as tmp:
        t = Path(tmp)
        n = conllx_words(train, t / "train.conll", limit)
        argv = [java_command(), f"-Xmx{heap}", "-jar", jar, "train",
                "-train-file", str(t / "train.conll"), "-model", str(t / "m"),
                "-punc", str(t / "punc"), f"iter:{iterations}", f"beam:{beam}", "nt:1"]
        (t / "punc").write_text("PUNCT\n")
        if dev is not None:
            conllx_words(dev, t / "dev.conll")
            argv[argv.index("-model"):argv.index("-model")] = ["-dev", str(t / "dev.conll")]
        t0 = time.perf_counter()
        log = _run(argv, tmp, "Yara training")
        seconds = time.perf_counter() - t0
        scores = [(float(las), float(uas)) for las, uas in _DEV.findall(log)]
        keep = iterations
        if best and scores:
            keep = 1 + max(range(len(scores)), key=lambda k: scores[k][0])
        if not (t / f"m_iter{keep}").is_file():
            raise InputError(f"Yara training wrote no model for iteration {keep}")
        os.replace(t / f"m_iter{keep}", model)
    dev_report = {"file": str(dev), "las_uas_by_iteration": scores, "kept_iteration": keep} \
        if dev is not None else {}
    done = Trained("yara", str(model), str(train), n, settings, round(seconds, 1), dev_report)
    done.write()
    return done

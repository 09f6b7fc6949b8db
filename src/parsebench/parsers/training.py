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

UDPipe 1 is trained by :mod:`parsebench.parsers.udpipe_training`, MSTParser, Mate,
TurboParser and TweeboParser by :mod:`parsebench.parsers.graph_training`.

:func:`train_cached` trains any of the three into the cache folder, under a key made
of the treebank's checksum (and the dev file's) and the settings, and copies the model
to where it is asked for: a second run with the same treebank and settings trains
nothing. The folder: ``$PARSEBENCH_CACHE/models``, else
``$XDG_CACHE_HOME/parsebench/models``, else ``~/.cache/parsebench/models``.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import time
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from parsebench.common.errors import InputError, iter_lines
from parsebench.common.installed import cache_folder
from parsebench.parsers.jvm import find_jar, java_command
from parsebench.parsers.trained import (
    Trained,
    check_trees,
    run_trainer,
    scratch_folder,
    write_rows,
)

if TYPE_CHECKING:

    from parsebench.common.progress import Progress

PARSERS = ("udpipe", "malt", "yara", "mst", "mate", "turbo", "tweebo")
"""The parsers ``train`` trains."""


def models_dir() -> Path:
    return cache_folder("models")


def conllx_words(src: str | os.PathLike[str], dst: str | os.PathLike[str],
                 limit: int | None = None) -> int:
    """SRC's word lines (first column an integer) as ten-column CoNLL-X, sentences apart,
    at most LIMIT sentences; the count written."""
    return write_rows(src, dst, "\t".join, limit)


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


def train_malt(train: str | os.PathLike[str], model: str | os.PathLike[str], jar: str,
               limit: int | None = None) -> Trained:
    """MaltParser arc-eager + liblinear on TRAIN (CoNLL-U), written as MODEL (.mco)."""
    model = Path(model).resolve()
    if model.suffix != ".mco" or any(c.isspace() for c in model.stem):
        raise InputError("a MaltParser model is a NAME.mco without spaces", str(model))
    model.parent.mkdir(parents=True, exist_ok=True)
    settings = {"algorithm": "nivreeager", "learner": "liblinear", "root_label": "root",
                "format": "conllu", "jar": jar}
    with scratch_folder(model.parent) as tmp:
        src = Path(tmp) / "train.conllu"
        n = conllu_slice(train, src, limit if limit is not None else 2**62)
        t0 = time.perf_counter()
        run_trainer([java_command(), "-jar", jar, "-c", model.stem, "-i", str(src), "-if", "conllu",
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
    with scratch_folder(model.parent) as tmp:
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
        log = run_trainer(argv, tmp, "Yara training")
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


def treebank_digest(path: str | os.PathLike[str]) -> str:
    """The SHA-256 of a whole treebank file."""
    from parsebench.common.errors import read_bytes

    return hashlib.sha256(read_bytes(path)).hexdigest()


_SUFFIX = {"udpipe": ".udpipe", "malt": ".mco"}


def train_cached(parser: str, train: str | os.PathLike[str], output: str | os.PathLike[str],
                 *, dev: str | os.PathLike[str] | None = None, limit: int | None = None,
                 progress: Progress | None = None, **options: Any) -> tuple[Trained, bool]:
    """PARSER (one of :data:`PARSERS`) trained on TRAIN, written as OUTPUT (with
    OUTPUT.json); trained in the cache folder only when no model there has the same key
    (TRAIN's and DEV's checksums, LIMIT, the settings). The sidecar, and whether it came
    from the cache. OPTIONS: udpipe's iterations, tokenizer, tagger, parser_options;
    malt's jar; yara's jar, beam, iterations, best; mst's jar, order, decode, iterations,
    pos;
    mate's jar, iterations, pos; turbo's and tweebo's binary, model_type, iterations."""
    from parsebench.common.progress import quiet

    if parser not in PARSERS:
        raise InputError(f"cannot train {parser!r}: one of {', '.join(PARSERS)}")
    if limit is not None and limit < 1:
        raise InputError(f"the limit must be at least 1 sentence, not {limit}")
    from parsebench.common.errors import check_output

    progress = progress or quiet()
    if parser != "udpipe":  # (UDPipe's trainer checks its treebank and dev file itself)
        from parsebench.formats.conllu import iter_conllu

        check_trees(list(iter_conllu(train))[:limit], train)  # before the program is sought
    output = Path(output)
    if not output.is_dir():  # a model's folder is made for it, as a training's cache is
        try:
            output.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise InputError(f"cannot make the model's folder: {exc.strerror}",
                             output.parent) from None
    check_output(output)
    settings = _key_settings(parser, output, options)
    key = hashlib.sha256(json.dumps(
        {"parser": parser, "train": treebank_digest(train),
         "dev": treebank_digest(dev) if dev is not None else None,
         "limit": limit, "settings": settings}, sort_keys=True).encode()).hexdigest()[:20]
    folder = models_dir() / f"{parser}-{key}"
    cached = folder / (output.name if parser == "malt" else "model" + _SUFFIX.get(parser, ""))
    hit = _cached(cached, key)
    if hit is None:
        folder.mkdir(parents=True, exist_ok=True)
        hit = _train(parser, train, dev, cached, limit, progress, options)
        hit.key = key
        hit.write()
        fresh = True
    else:
        progress.note(f"{parser}: the model trained {hit.seconds} s on these data and "
                      f"settings is in the cache ({cached}); not training again")
        fresh = False
    tmp = output.with_name(f".{output.name}.part")
    shutil.copyfile(cached, tmp)
    os.replace(tmp, output)
    done = Trained(**{**asdict(hit), "model": str(output.resolve())})
    done.write()
    return done, not fresh


def _key_settings(parser: str, output: Path, options: dict[str, Any]) -> dict[str, Any]:
    """What, besides the data, makes the model: the settings the key is made of."""
    from parsebench.parsers.base import file_digest

    if parser == "udpipe":
        from parsebench.common.installed import version
        from parsebench.parsers.udpipe_training import udpipe_settings

        return {**udpipe_settings(options.get("iterations"), options.get("tokenizer", ""),
                                  options.get("tagger", ""), options.get("parser_options", "")),
                "ufal.udpipe": version("ufal.udpipe")}
    if parser in GRAPH:
        return _graph_settings(parser, options)
    if parser == "malt":
        from parsebench.parsers import malt as java
    else:
        from parsebench.parsers import yara as java  # type: ignore[no-redef]
    name = "MaltParser" if parser == "malt" else "Yara"
    jar = find_jar(options.get("jar"), java.JAR_ENV, name, java.WHERE, training=True)
    options["jar"] = jar  # (the path the trainer is given)
    got: dict[str, Any] = {"jar": file_digest(jar)}
    if parser == "malt":
        if output.suffix != ".mco" or any(c.isspace() for c in output.stem):
            raise InputError("a MaltParser model is a NAME.mco without spaces", output)
        got["name"] = output.name  # (MaltParser finds its files inside by the name)
    else:
        got.update(beam=options.get("beam", 16), iterations=options.get("iterations") or 10,
                   best=bool(options.get("best", False)))
    return got


GRAPH = ("mst", "mate", "turbo", "tweebo")
"""The graph-based parsers, trained by :mod:`parsebench.parsers.graph_training`."""


def _graph_settings(parser: str, options: dict[str, Any]) -> dict[str, Any]:
    """The program's checksum and the settings of a graph-based parser's training, with
    their defaults filled in OPTIONS (the authors' recipes)."""
    from parsebench.parsers.base import adapter_class, file_digest
    from parsebench.parsers.jvm import JavaAdapter

    cls = adapter_class(parser)[0]
    assert issubclass(cls, JavaAdapter)
    key = "binary" if parser in ("turbo", "tweebo") else "jar"
    options[key] = program = cls.program({key: options[key]} if options.get(key) else {},
                                         training=True)
    options["iterations"] = options.get("iterations") or 10
    got: dict[str, Any] = {key: file_digest(program), "iterations": options["iterations"]}
    if parser == "mst":
        options["order"] = int(options.get("order") or 1)
        options["decode"] = options.get("decode") or "non-proj"
        got.update(order=options["order"], decode=options["decode"])
        options["pos"] = options.get("pos") or "xpos"
        if options["pos"] != "xpos":  # (keys of models trained before pos= stay valid)
            got["pos"] = options["pos"]
    elif parser == "mate":
        options["pos"] = options.get("pos") or "xpos"
        got["pos"] = options["pos"]
    else:
        options["model_type"] = options.get("model_type") or "standard"
        got["model_type"] = options["model_type"]
    return got


def _cached(model: Path, key: str) -> Trained | None:
    """The cache's model under KEY, if it is whole (its sidecar written last says so)."""
    try:
        got = json.loads(model.with_name(model.name + ".json").read_text(encoding="utf-8"))
        if got.get("key") == key and model.is_file():
            return Trained(**got)
    except (OSError, ValueError, TypeError):
        pass
    return None


def _train(parser: str, train: str | os.PathLike[str], dev: str | os.PathLike[str] | None,
           model: Path, limit: int | None, progress: Progress,
           options: dict[str, Any]) -> Trained:
    if parser == "udpipe":
        from parsebench.parsers.udpipe_training import train_udpipe

        return train_udpipe(train, dev, model, limit=limit, progress=progress,
                            iterations=options.get("iterations"),
                            tokenizer=options.get("tokenizer", ""),
                            tagger=options.get("tagger", ""),
                            parser=options.get("parser_options", ""))
    progress.stage(f"training {parser} on {Path(train).name}", None)
    if parser in GRAPH:
        from parsebench.parsers import graph_training as g

        its = int(options["iterations"])
        if parser == "mst":
            return g.train_mst(train, dev, model, options["jar"], order=options["order"],
                               decode=options["decode"], iterations=its, limit=limit,
                               pos=options["pos"])
        if parser == "mate":
            return g.train_mate(train, dev, model, options["jar"], iterations=its,
                                pos=options["pos"], limit=limit)
        return g.train_turbo(train, dev, model, options["binary"],
                             model_type=options["model_type"], iterations=its, limit=limit,
                             tweebo=parser == "tweebo")
    if parser == "malt":
        return train_malt(train, model, str(options["jar"]), limit)
    return train_yara(train, dev, model, str(options["jar"]), beam=options.get("beam", 16),
                      iterations=options.get("iterations") or 10, limit=limit,
                      best=bool(options.get("best", False)))

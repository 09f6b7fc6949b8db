"""A run's parser specs checked before any work, and the parsers a run trains itself
(``spec = "NAME:train,..."``): kept apart from the runner, which only calls
:func:`check_before_work` and :func:`trained_conf`. A refusal names the experiment
file's line of the setting or spec that caused it."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from parsebench.common.errors import InputError
from parsebench.noise.keyboard import Keyboard
from parsebench.run.experiment import Experiment, ParserConf
from parsebench.run.run_stats import TrainedStats
from parsebench.store import Store

TRAIN = "udpipe:train"
"""The spec of a UDPipe 1 trained on each corpus's training split (``[corpus] train``),
``udpipe:train,iterations=N`` with fewer tokenizer epochs and tagger and parser
iterations than UDPipe's own (100, 20, 10). The other parsers ``train`` trains take
the same form with their spec's options: ``mst:train,tagger=T.udpipe[,order=2]
[,decode=proj][,pos=upos][,iterations=N][,jar=JAR]``, ``mate:train,tagger=...[,pos=upos]``,
``turbo:train,tagger=...[,model_type=basic][,binary=B]``, ``tweebo:train,...``,
``malt:train,tagger=...``, ``yara:train,tagger=...[,beam=N]``."""

TRAINING_OPTIONS = {"iterations": "iterations", "order": "order", "decode": "decode",
                    "pos": "pos", "model_type": "model_type", "beam": "beam"}
"""A ``NAME:train`` spec's options that choose the training (the rest, ``tagger``,
``jar`` and ``binary``, go on to the trained parser's spec too)."""


def key_line(exp: Experiment, key: str) -> tuple[Path, int | None]:
    """The experiment file and the line that sets KEY (``key = ...``), if one does."""
    try:
        lines = exp.source.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return exp.source, None
    return exp.source, next((k for k, text in enumerate(lines, 1)
                             if text.split("=", 1)[0].strip() == key), None)


def where(exp: Experiment, conf: ParserConf) -> tuple[Path, int | None]:
    """The experiment file and the line of CONF's spec in it, for a refusal of the spec
    (the first line that holds the spec as written; None where none does)."""
    try:
        lines = exp.source.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return exp.source, None
    quoted = (f'"{conf.shown}"', f"'{conf.shown}'")
    line = next((k for k, text in enumerate(lines, 1)
                 if text.lstrip().startswith("spec") and any(q in text for q in quoted)), None)
    return exp.source, line


def training(conf: ParserConf, exp: Experiment) -> tuple[bool, dict[str, str]]:
    """Whether CONF trains on the corpus (``NAME:train[,...]``, checked: the parser is one
    ``train`` trains and the corpus names its training split), and its options."""
    from parsebench.parsers.training import PARSERS

    name, _, arg = conf.spec.partition(":")
    first, *options = arg.split(",")
    if name in PARSERS and first.startswith("train") and first != "train" \
            and not Path(first).exists():  # (udpipe:train:x, udpipe:training)
        raise InputError(f"parser {conf.name}: {conf.spec!r}: a parser trained here is "
                         f"{name}:train, its options after commas ({name}:train,"
                         "iterations=N)", *where(exp, conf))
    if first != "train" or name not in PARSERS:
        return False, {}
    got: dict[str, str] = {}
    known = ("iterations",) if name == "udpipe" else (*TRAINING_OPTIONS, "tagger", "jar",
                                                      "binary")
    for o in options:
        key, eq, value = o.partition("=")
        numeric = key in ("iterations", "order", "beam")
        if key not in known or not eq or (numeric and (not value.isdigit() or int(value) < 1)):
            usage = (f"{TRAIN}[,iterations=N] takes iterations=N (N >= 1)" if name == "udpipe"
                     else f"{name}:train takes {', '.join(k + '=' for k in known)}")
            raise InputError(f"parser {conf.name}: {conf.spec!r}: {usage}, not {o!r}",
                             *where(exp, conf))
        got[key] = value
    if name != "udpipe" and not got.get("tagger"):
        raise InputError(f"parser {conf.name}: {conf.spec!r}: {name} needs part-of-speech "
                         "tags: add ,tagger=MODEL.udpipe", *where(exp, conf))
    if exp.train is None:
        raise InputError(f"parser {conf.name}: {conf.spec!r} trains on the corpus's "
                         "training split: give [corpus] train = \"FILE\" (its train file, "
                         "or dev where there is none)", *where(exp, conf))
    return True, got


def trained_conf(conf: ParserConf, exp: Experiment, store: Store, stages: Any
             ) -> tuple[ParserConf, TrainedStats | None]:
    """CONF, or for a ``NAME:train`` spec (STAGES: the runner's, whose ``begin`` names
    the training and whose ``progress`` shows it) the same parser with the model trained on the
    corpus's training split (from the cache folder when the same data and settings
    trained it: :func:`parsebench.parsers.training.train_cached`) and what trained it."""
    train, options = training(conf, exp)
    if not train or exp.train is None:
        return conf, None
    from parsebench.parsers.training import train_cached

    name = conf.spec.partition(":")[0]
    stages.begin(f"train {conf.name} on {exp.train}", None)
    folder = Path(store.path).with_name(Path(store.path).name + ".models")
    folder.mkdir(exist_ok=True)
    suffix = {"udpipe": ".udpipe", "malt": ".mco"}.get(name, ".model")
    out = folder / f"{conf.name}-{Path(exp.corpus[0]).stem}{suffix}"
    iterations = int(options["iterations"]) if "iterations" in options else None
    chosen: dict[str, Any] = {TRAINING_OPTIONS[k]: int(v) if k in ("order", "beam") else v
                              for k, v in options.items() if k in TRAINING_OPTIONS}
    chosen["iterations"] = iterations
    if name != "udpipe":
        chosen.update({k: v for k, v in options.items() if k in ("jar", "binary")})
    done, _ = train_cached(name, exp.train, out, progress=stages.progress, **chosen)
    passed = "".join(f",{k}={v}" for k, v in options.items() if k in ("tagger", "jar",
                                                                      "binary"))
    return replace(conf, spec=f"{name}:{out}{passed}"), TrainedStats(
        str(exp.train), done.sentences, done.seconds, done.key, iterations,
        None if name == "udpipe" else name)


def check_before_work(exp: Experiment) -> None:
    """What an experiment's settings can be refused for without reading its corpus: a
    bad keyboard layout, a parser that trains without what it trains on, raw tokens for
    a parser that cannot tokenize. A benchmark checks every corpus's before any work."""
    try:
        Keyboard.load(exp.keyboard or "us-qwerty")
        if exp.levels:
            from parsebench.noise.languages import lexicon_for
            from parsebench.noise.lexicon import wordfreq_list

            spec = exp.lexicon or lexicon_for(exp.lang)
            if spec.startswith("wordfreq"):  # (a word list's file is read with the noise)
                wordfreq_list(spec.split(":", 1)[1] if ":" in spec else exp.lang)
    except InputError as exc:  # said at the line of the setting that chose it
        key = "keyboard" if "keyboard" in exc.message else \
            "lexicon" if exp.lexicon else "lang"
        raise InputError(exc.message, *key_line(exp, key)) from None
    for conf in exp.parsers:  # a spec that trains fails here, not after others parsed
        training(conf, exp)
    if exp.tokens == "raw":
        from parsebench.parsers.base import adapter_class

        for conf in exp.parsers:
            if not adapter_class(conf.spec)[0].raw_text:
                raise InputError(f"parser {conf.name} ({conf.shown}) cannot tokenize raw "
                                 "text: tokens = \"raw\" needs parsers that do (udpipe, "
                                 "spacy)", *where(exp, conf))



"""``train``: the field's parsers that train here (UDPipe 1, MaltParser, Yara, and the
graph-based MSTParser, Mate, TurboParser and TweeboParser) trained on a treebank's
train split, as a Python call; the models are kept in the cache folder
by the treebank's checksum and the settings, so the same call twice trains once."""

from __future__ import annotations

import os
from dataclasses import asdict
from typing import Any

from parsebench.common.progress import Progress
from parsebench.common.signature import signature
from parsebench.model import arguments as A
from parsebench.model.results import Result

PathLike = str | os.PathLike[str]


@A.checked(parser=A.text, train=A.path, output=A.path, dev=A.optional(A.path),
           limit=A.optional(A.integer(1)), iterations=A.optional(A.integer(1)),
           beam=A.integer(1), best=A.flag, jar=A.optional(A.text), tokenizer=A.text,
           tagger=A.text, parser_options=A.text, order=A.optional(A.integer(1)),
           decode=A.optional(A.text), pos=A.optional(A.text), model_type=A.optional(A.text),
           binary=A.optional(A.text), progress=A.progress)
def train(parser: str, train: PathLike, output: PathLike, *, dev: PathLike | None = None,
          limit: int | None = None, iterations: int | None = None, beam: int = 16,
          best: bool = False, jar: str | None = None, tokenizer: str = "", tagger: str = "",
          parser_options: str = "", order: int | None = None, decode: str | None = None,
          pos: str | None = None, model_type: str | None = None, binary: str | None = None,
          progress: Progress | None = None) -> Result:
    """PARSER (``udpipe``, ``malt``, ``yara``, ``mst``, ``mate``, ``turbo`` or ``tweebo``)
    trained on TRAIN (CoNLL-U, its first
    LIMIT sentences), written as OUTPUT with its settings in OUTPUT.json. DEV is held out
    for model selection where the parser has it (UDPipe: else TRAIN's last tenth; Yara:
    its per-iteration report, the best iteration kept with BEST; MaltParser has none).
    ITERATIONS: UDPipe's tokenizer epochs, tagger and parser iterations (default its
    own: 100, 20, 10), the training epochs of the others (10); TOKENIZER, TAGGER,
    PARSER_OPTIONS: UDPipe's option strings (``name=value;...``); BEAM: Yara's; ORDER (1
    or 2) and DECODE (``proj``, ``non-proj``): MSTParser's; POS (``xpos``, ``upos``):
    the tag Mate reads, and MSTParser as its fine tag (``upos`` for a treebank without
    XPOS); MODEL_TYPE (``basic``, ``standard``, ``full``): TurboParser's
    and TweeboParser's; JAR: a Java parser's; BINARY: TurboParser's or TweeboParser's.
    A graph-based parser with DEV parses it once trained: its UAS and LAS with gold tags
    go into the sidecar."""
    from parsebench.parsers.training import train_cached

    options: dict[str, Any] = {"iterations": iterations}
    if parser == "udpipe":
        options.update(tokenizer=tokenizer, tagger=tagger, parser_options=parser_options)
    else:
        options.update(jar=jar, beam=beam, best=best, order=order, decode=decode, pos=pos,
                       model_type=model_type, binary=binary)
    done, cached = train_cached(parser, train, output, dev=dev, limit=limit,
                                progress=progress, **options)
    data: dict[str, Any] = {**asdict(done), "cached": cached,
                            "sidecar": f"{done.model}.json",
                            "signature": signature(method="train", parser=parser,
                                                   key=done.key)}

    def text() -> str:
        how = "from the cache" if cached else f"trained in {done.seconds} s"
        return (f"{parser}: {done.model} ({done.sentences} sentences of {done.train}, "
                f"{how}; settings in {done.model}.json)\n")

    return Result("train", data, text)

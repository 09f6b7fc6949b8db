"""``train``: UDPipe 1, MaltParser, Yara, MSTParser, Mate, TurboParser or TweeboParser
trained on a treebank, cached by its checksum."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from parsebench.cli._app import JsonOpt, QuietOpt, _emit_json, _progress, app


@app.command("train")
def train_cmd(
    parser: Annotated[str, typer.Argument(
        help="udpipe, malt, yara, mst, mate, turbo or tweebo.")],
    train: Annotated[Path, typer.Argument(help="The treebank's train split (CoNLL-U).")],
    output: Annotated[Path, typer.Option("-o", "--output", help="The model (malt: "
                                         "NAME.mco); its settings go to OUTPUT.json.")],
    dev: Annotated[Path | None, typer.Option(
        "--dev", help="Held out for model selection (udpipe: else TRAIN's last tenth; "
        "yara: its report, and --best; mst, mate, turbo, tweebo: parsed once trained, "
        "the score in the sidecar; malt has none).")] = None,
    limit: Annotated[int | None, typer.Option("--limit", help="Train on TRAIN's first "
                                              "N sentences.")] = None,
    iterations: Annotated[int | None, typer.Option(
        "--iterations", help="udpipe: tokenizer epochs, tagger and parser iterations "
        "(default 100, 20, 10); the others: iterations (default 10).")] = None,
    beam: Annotated[int, typer.Option("--beam", help="yara's beam.")] = 16,
    best: Annotated[bool, typer.Option("--best", help="yara: keep the iteration best "
                                       "on --dev, not the last.")] = False,
    jar: Annotated[str | None, typer.Option("--jar", help="malt, yara, mst, mate: the "
                                            "parser's jar.")] = None,
    binary: Annotated[str | None, typer.Option("--binary", help="turbo, tweebo: the "
                                               "parser's binary.")] = None,
    order: Annotated[int | None, typer.Option("--order", help="mst: 1 or 2 (default "
                                              "1).")] = None,
    decode: Annotated[str | None, typer.Option("--decode", help="mst: proj or non-proj "
                                               "(default non-proj).")] = None,
    pos: Annotated[str | None, typer.Option("--pos", help="mate, mst: the tag it reads as "
                                            "the fine one, xpos or upos (default xpos; "
                                            "upos for a treebank without XPOS).")] = None,
    model_type: Annotated[str | None, typer.Option(
        "--model-type", help="turbo, tweebo: basic, standard or full (default "
        "standard).")] = None,
    tokenizer: Annotated[str, typer.Option("--udpipe-tokenizer", help="UDPipe's "
                                           "tokenizer options (name=value;...), or none "
                                           "(a model for given words).")] = "",
    tagger: Annotated[str, typer.Option("--udpipe-tagger", help="UDPipe's tagger "
                                        "options.")] = "",
    parser_options: Annotated[str, typer.Option("--udpipe-parser", help="UDPipe's "
                                                "parser options.")] = "",
    as_json: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Train UDPipe 1, MaltParser, Yara, MSTParser, Mate, TurboParser or TweeboParser on
    a treebank; kept in the cache folder by the
    treebank's checksum and the settings, so the same training twice runs once."""
    import signal
    import sys

    from parsebench.api.training import train as train_model

    # A kill (SIGTERM) ends the training as Ctrl-C does: the trainer's child process is
    # stopped and its scratch folder in the cache removed, not left behind.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(128 + signal.SIGTERM))
    with _progress(quiet, transient=True) as bars:
        r = train_model(parser, train, output, dev=dev, limit=limit, iterations=iterations,
                        beam=beam, best=best, jar=jar, tokenizer=tokenizer, tagger=tagger,
                        parser_options=parser_options, order=order, decode=decode, pos=pos,
                        model_type=model_type, binary=binary, progress=bars)
    if as_json:
        _emit_json(r.to_dict())
    typer.echo(str(r).rstrip("\n"), err=True)

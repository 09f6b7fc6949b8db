"""``parse``: a real parser in worker processes."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from parsebench.cli._app import (
    BatchOpt,
    JsonOpt,
    QuietOpt,
    TimeoutOpt,
    WorkersOpt,
    _emit_json,
    _progress,
    app,
)


@app.command("parse")
def parse_cmd(
    source: Annotated[Path, typer.Argument(help="CoNLL-U (its words are the pre-tokenized "
                                                "input) or text, one sentence a line.")],
    output: Annotated[Path, typer.Option("-o", "--output", help="CoNLL-U, or one tree a line "
                                         "for constituency parsers.")],
    parser: Annotated[str, typer.Option(
        "--parser", help="udpipe:MODEL, spacy:PIPELINE, supar:MODEL.pt, linkgrammar, "
        "nltk-tnt:TRAIN.conllu, nltk-earley:GRAMMAR.cfg, command:\"CMD\", "
        "command-text:\"CMD\", precomputed:FILE, baseline:left|right|random|"
        "random-projective, python:MODULE:CLASS.")],
    timeout: TimeoutOpt = 60.0,
    workers: WorkersOpt = 1,
    raw: Annotated[bool, typer.Option("--raw", help="Let the parser tokenize the text "
                                      "itself (rows no longer 1:1).")] = False,
    batch_size: BatchOpt = 16,
    copy_basic_to_deps: Annotated[bool, typer.Option(
        "--copy-basic-to-deps", help="Copy each parse's basic tree into DEPS (the IWPT "
        "baseline: ELAS and EULAS for any dependency parser).")] = False,
    as_json: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Parse with a real parser in worker processes; failures are recorded, never fatal."""
    from parsebench.api.parsing import parse
    from parsebench.common.errors import check_output
    from parsebench.parsers.pool import check_options

    check_options(workers, timeout, batch_size)
    check_output(output)
    with _progress(quiet, transient=True) as bars:
        r = parse(source, parser, workers=workers, timeout=timeout, raw=raw,
                  batch_size=batch_size, progress=bars,
                  copy_basic_to_deps=copy_basic_to_deps)
    r.write(output)
    if as_json:
        _emit_json(r.to_dict())
    typer.echo(str(r), err=True)

"""``parse``: a real parser in worker processes."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from parsebench.cli._app import BatchOpt, JsonOpt, TimeoutOpt, WorkersOpt, _Bars, _emit_json, app
from parsebench.signature import signature


@app.command("parse")
def parse_cmd(
    source: Annotated[Path, typer.Argument(help="CoNLL-U (its words are the pre-tokenized "
                                                "input) or text, one sentence a line.")],
    output: Annotated[Path, typer.Option("-o", "--output", help="CoNLL-U, or one tree a line "
                                         "for constituency parsers.")],
    parser: Annotated[str, typer.Option(
        "--parser", help="udpipe:MODEL, spacy:PIPELINE, supar:MODEL.pt, linkgrammar, "
        "nltk-tnt:TRAIN.conllu, nltk-earley:GRAMMAR.cfg, command:\"CMD\", "
        "command-text:\"CMD\", precomputed:FILE, python:MODULE:CLASS.")],
    timeout: TimeoutOpt = 60.0,
    workers: WorkersOpt = 1,
    raw: Annotated[bool, typer.Option("--raw", help="Let the parser tokenize the text "
                                      "itself (rows no longer 1:1).")] = False,
    batch_size: BatchOpt = 16,
    as_json: JsonOpt = False,
) -> None:
    """Parse with a real parser in worker processes; failures are recorded, never fatal."""
    from parsebench.errors import check_output
    from parsebench.parsers.pool import check_options
    from parsebench.parsers.run import parse_sentences, read_input, write_run

    check_options(workers, timeout, batch_size)
    check_output(output)
    sentences = read_input(source)
    with _Bars(transient=True) as bars:
        bars.stage("parsing", len(sentences))
        run = parse_sentences(sentences, parser, workers, timeout, raw, batch_size,
                              progress=lambda _t: bars.advance())
    write_run(run, output)
    sp = run.speed()
    if as_json:
        _emit_json({"output": str(output), "speed": f"{output}.speed.json",
                    **{k: v for k, v in sp.items() if k != "per_sentence"},
                    "signature": signature(method="parse", parser=parser, raw=raw,
                                           timeout=timeout, workers=workers)})
    typer.echo(f"{output}: {sp['sentences']} sentences, {sp['words']} words, "
               f"{sp['failures']} failures {sp['failure_reasons'] or ''}, "
               f"{sp['words_per_second'] or 0:,.0f} words/s per worker, "
               f"{sp['wall_words_per_second'] or 0:,.0f} words/s in all ({workers} worker(s), "
               f"{sp['wall_seconds']:.1f} s with start-up); speed in {output}.speed.json",
               err=True)



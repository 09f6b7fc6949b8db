"""``attack`` and ``invariance``: the worst case and the edits that must not matter."""

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
    _progress,
    _show,
    app,
)
from parsebench.common.errors import check_output

ParserOpt = Annotated[str, typer.Option(
    "--parser", help="A dependency parser, as for parse --parser (udpipe:MODEL, "
    "spacy:PIPELINE, command:\"CMD\", python:MODULE:CLASS, ...).")]


@app.command("attack")
def attack_cmd(
    source: Annotated[Path, typer.Argument(help="CoNLL-U (its words are the input) or text, "
                                                "one sentence a line.")],
    output: Annotated[Path, typer.Option("-o", "--output", help="The attacked corpus, "
                                         "CoNLL-U with the misspellings recorded as noise "
                                         "records them.")],
    parser: ParserOpt,
    budget: Annotated[int, typer.Option("--budget", help="Words misspelled a sentence "
                                        "(K).")] = 1,
    candidates: Annotated[int, typer.Option("--candidates", help="Non-word edits tried a "
                                            "word (a seeded sample).")] = 5,
    queries: Annotated[int, typer.Option("--queries", help="Parses a sentence may ask for, "
                                         "its clean parse included.")] = 50,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the search order, the edits "
                                      "and the random baseline.")] = 1,
    lang: Annotated[str, typer.Option("--lang", help="Language of the default lexicon and "
                                      "keyboard.")] = "en",
    lexicon: Annotated[str | None, typer.Option(
        "--lexicon", help="wordfreq:LANG (default), a word list file, or a hunspell .dic.")
    ] = None,
    keyboard: Annotated[str | None, typer.Option(
        "--keyboard", help="us-qwerty, sv-qwerty, or a layout file (default: by --lang).")
    ] = None,
    min_length: Annotated[int, typer.Option("--min-length", help="Shortest word that may be "
                                            "misspelled.")] = 2,
    no_random: Annotated[bool, typer.Option("--no-random", help="Skip the random "
                                            "baseline.")] = False,
    workers: WorkersOpt = 1,
    timeout: TimeoutOpt = 60.0,
    batch_size: BatchOpt = 16,
    as_json: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Worst-case misspellings: for each sentence, the K non-word misspellings (as noise
    makes them) that change the parser's own parse of the other words most."""
    from parsebench.api.parsing import attack
    from parsebench.parsers.pool import check_options
    from parsebench.probes.attack import AttackSettings

    AttackSettings(budget, candidates, queries, seed, min_length).check()
    check_options(workers, timeout, batch_size)
    check_output(output)
    with _progress(quiet, transient=True) as bars:
        r = attack(source, parser, budget=budget, candidates=candidates, queries=queries,
                   seed=seed, lang=lang, lexicon=lexicon, keyboard=keyboard,
                   min_length=min_length, random_baseline=not no_random, workers=workers,
                   timeout=timeout, batch_size=batch_size, progress=bars)
    r.write(output)
    _show(r, as_json)


@app.command("invariance")
def invariance_cmd(
    source: Annotated[Path, typer.Argument(help="A tagged CoNLL-U (UPOS, and FEATS for "
                                                "number and degree).")],
    parsers: Annotated[list[str], typer.Option(
        "--parser", help="A dependency parser, as for parse --parser; repeat for several.")],
    output: Annotated[Path | None, typer.Option(
        "-o", "--output", help="Folder for the edited corpora (KIND.conllu), "
        "invariance.json and failures.txt (every failing sentence).")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the sites and "
                                      "substitutes.")] = 1,
    workers: WorkersOpt = 1,
    timeout: TimeoutOpt = 60.0,
    batch_size: BatchOpt = 16,
    as_json: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Invariance tests: edits whose correct parse is the same tree (a proper noun, a
    number or an adjective swapped for another, the first word's case changed); how
    often the parse of the other words changes, per edit type and parser."""
    from parsebench.api.parsing import invariance
    from parsebench.common.errors import check_folder
    from parsebench.parsers.pool import check_options

    check_options(workers, timeout, batch_size)
    if output is not None:
        check_folder(output)
    with _progress(quiet, transient=True) as bars:
        r = invariance(source, parsers, seed=seed, workers=workers, timeout=timeout,
                       batch_size=batch_size, progress=bars)
    if output is not None:
        r.write(output)
    _show(r, as_json)

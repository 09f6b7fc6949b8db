"""``attack`` and ``invariance``: the worst case and the edits that must not matter."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from parsebench.cli._app import BatchOpt, JsonOpt, TimeoutOpt, WorkersOpt, _emit_json, app
from parsebench.errors import atomic_output, check_output
from parsebench.signature import signature

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
) -> None:
    """Worst-case misspellings: for each sentence, the K non-word misspellings (as noise
    makes them) that change the parser's own parse of the other words most."""
    from parsebench import attack as atk
    from parsebench.formats.conllu import write_conllu
    from parsebench.noise import KEYBOARDS, Keyboard, Lexicon
    from parsebench.parsers.pool import Pool, check_options
    from parsebench.parsers.run import read_input

    opts = atk.Options(budget, candidates, queries, seed, min_length)
    opts.check()
    check_options(workers, timeout, batch_size)
    check_output(output)
    sentences = read_input(source)
    kb = Keyboard.load(keyboard or KEYBOARDS.get(lang, "us-qwerty"))
    lex = Lexicon.load(lexicon, lang)
    with Pool(parser, workers, timeout, batch_size) as pool:
        cached = atk.CachedParser(atk.pool_parser(pool))
        noisy, r = atk.attack(sentences, cached, opts, kb, lex, baseline=not no_random)
        identity = pool.identity
    with atomic_output(output) as fh:
        write_conllu(noisy, fh)
    r.update(output=str(output), parser=identity, signature=signature(
        method="attack", parser=parser, budget=budget, candidates=candidates,
        queries=queries, seed=seed, lexicon=lex.name, keyboard=kb.name,
        min_length=min_length, projection="head+deprel"))
    if as_json:
        _emit_json(r)
    else:
        sys.stdout.write(atk.summary_table(r, parser) + f"signature: {r['signature']}\n")


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
) -> None:
    """Invariance tests: edits whose correct parse is the same tree (a proper noun, a
    number or an adjective swapped for another, the first word's case changed); how
    often the parse of the other words changes, per edit type and parser."""
    import json

    from parsebench import attack as atk
    from parsebench import invariance as inv
    from parsebench.errors import check_folder
    from parsebench.formats.conllu import read_conllu, write_conllu
    from parsebench.parsers.pool import Pool, check_options

    check_options(workers, timeout, batch_size)
    folder = check_folder(output) if output is not None else None
    sentences = read_conllu(source)
    edits = inv.make_edits(sentences, seed)
    r: dict[str, Any] = {"sentences": len(sentences), "seed": seed,
                         "edits": {k: len(v) for k, v in edits.items()}, "parsers": {},
                         "identity": {}}
    for spec in parsers:
        with Pool(spec, workers, timeout, batch_size) as pool:
            r["parsers"][spec] = inv.check(sentences, edits,
                                           atk.CachedParser(atk.pool_parser(pool)))
            r["identity"][spec] = pool.identity
    r["signature"] = signature(method="invariance", parsers=parsers, seed=seed,
                               edits=",".join(inv.EDITS), projection="head+deprel")
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
        for kind, got in edits.items():
            with atomic_output(folder / f"{kind}.conllu") as fh:
                write_conllu(inv.edited(sentences, got), fh)
        with atomic_output(folder / "invariance.json") as fh:
            fh.write(json.dumps(r, indent=1, ensure_ascii=False) + "\n")
        with atomic_output(folder / "failures.txt") as fh:
            fh.write(inv.summary_table(r, shown=None))
    if as_json:
        _emit_json(r)
    else:
        sys.stdout.write(inv.summary_table(r) + f"signature: {r['signature']}\n")



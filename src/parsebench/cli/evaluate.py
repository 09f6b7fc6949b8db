"""``eval deps``, ``eval brackets``, ``eval flat``, ``convert`` and ``flatten``: scores
against a gold key, and the conversions that make keys."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from parsebench.cli._app import (
    BY_FIELDS,
    AlignOpt,
    EnhancementsOpt,
    InvalidOpt,
    JsonOpt,
    MultipleRootsOpt,
    NoEmptyNodesOpt,
    _show,
    _warn,
    app,
    eval_app,
)
from parsebench.common.errors import atomic_output, check_output


@eval_app.command("deps")
def eval_deps(
    gold: Annotated[Path, typer.Argument(help="Gold CoNLL-U file (the key).")],
    system: Annotated[Path, typer.Argument(help="System CoNLL-U file (the answer).")],
    select: Annotated[list[str] | None, typer.Option(
        "--select", help="FIELD=V1,V2 with FIELD deprel (label, base label or @group), upos "
        "or word; key values for recall, answer values for precision; repeat to AND.")] = None,
    by: Annotated[str | None, typer.Option(
        "--by", help="Break down by " + "|".join(BY_FIELDS) + ".")] = None,
    labels: Annotated[Path | None, typer.Option(
        "--labels", help="Label equivalences: labels on one line are equivalent.")] = None,
    punct: Annotated[bool, typer.Option(
        "--punct/--no-punct", help="Score the attachment of words tagged PUNCT (CoNLL 2018 "
        "does; CoNLL-X and MaltEval leave them out).")] = True,
    confusion: Annotated[str | None, typer.Option(
        "--confusion", help="Gold-by-system table of deprel|upos on the aligned words.")] = None,
    per_sentence: Annotated[Path | None, typer.Option(
        "--per-sentence", help="Write each gold sentence's counts and scores as TSV.")] = None,
    head_rules: Annotated[str | None, typer.Option(
        "--head-rules", help="Either file may be bracketed trees, converted first with "
        "this head table: collins, penn2malt or a table file (Lin's procedure).")] = None,
    align: AlignOpt = None,
    invalid: InvalidOpt = "warn",
    enhancements: EnhancementsOpt = "0",
    no_empty_nodes: NoEmptyNodesOpt = False,
    multiple_roots_okay: MultipleRootsOpt = False,
    counts: Annotated[bool, typer.Option(
        "--counts", help="udeval's table of correct/gold/predicted/aligned counts instead "
        "of scores (the JSON always has the counts).")] = False,
    as_json: JsonOpt = False,
) -> None:
    """The CoNLL 2018 metrics, ELAS and EULAS (udeval's), exact match, and Lin's
    dependency precision/recall."""
    from parsebench.api.evaluation import evaluate_deps

    r = evaluate_deps(gold, system, select=select, by=by, labels=labels, punct=punct,
                      confusion=confusion, per_sentence=per_sentence, head_rules=head_rules,
                      align=align, invalid=invalid, enhancements=enhancements,
                      no_empty_nodes=no_empty_nodes,
                      multiple_roots_okay=multiple_roots_okay, counts=counts)
    _show(r, as_json)


@app.command("convert")
def convert_cmd(
    trees: Annotated[list[Path], typer.Argument(
        help="Bracketed trees: one a line, or the Treebank's several lines a tree.")],
    output: Annotated[Path, typer.Option("-o", "--output", help="CoNLL-U file to write.")],
    head_rules: Annotated[str, typer.Option(
        "--head-rules", help="Head table: collins, penn2malt or a table file.")],
    trace: Annotated[Path | None, typer.Option(
        "--trace", help="Write, for every constituent, the rule that chose its head (TSV).")
    ] = None,
) -> None:
    """Constituency trees to dependencies by head rules (CoNLL-U)."""
    from parsebench.api.evaluation import convert
    from parsebench.formats.headrules import load_table

    load_table(head_rules)  # a bad table is the first error, before the outputs
    check_output(output)
    if trace is not None:
        check_output(trace)
    r = convert(trees, head_rules)
    r.write(output)
    if trace is not None:
        with atomic_output(trace) as fh:
            fh.write(r.trace)
    _warn(r.warnings)


@eval_app.command("brackets")
def eval_brackets(
    gold: Annotated[Path, typer.Argument(help="Gold trees, one per line or multi-line .mrg.")],
    test: Annotated[Path, typer.Argument(help="Test trees.")],
    prm: Annotated[Path | None, typer.Option("--prm", help="EVALB parameter file.")] = None,
    align: Annotated[bool, typer.Option(
        "--align", help="Align sentences and words first, as jp-evalb does (Jo, Park & "
        "Park 2024): for a test whose segmentation or words differ from the gold's.")
    ] = False,
    legacy: Annotated[bool, typer.Option(
        "--legacy", help="With --align: jp-evalb's -evalb mode, EVALB's COLLINS.prm rules "
        "(or --prm's).")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Parseval, with EVALB's numbers and report (messages on standard error, as EVALB),
    or through aligned sentences and words (--align)."""
    from parsebench.api.evaluation import evaluate_brackets

    r = evaluate_brackets(gold, test, prm, align=align, legacy=legacy)
    for w in r.warnings:
        typer.echo(w, err=True)
    # to_json, not _emit_json(to_dict()): the same text without copying a row a sentence
    sys.stdout.write(r.to_json() if as_json else str(r))
    record = r.record  # its messages and whether EVALB gave up, without its JSON rows
    for m in getattr(record, "messages", None) or []:
        typer.echo(m, err=True)
    if getattr(record, "aborted", None):
        raise typer.Exit(1)


@eval_app.command("flat")
def eval_flat(
    key: Annotated[Path, typer.Argument(help="Key trees (e.g. flattened with `flatten`).")],
    response: Annotated[Path, typer.Argument(help="Parser output trees.")],
    categories: Annotated[str | None, typer.Option(
        "--categories", help="Keep only key constituents with these labels (comma-separated).")
    ] = None,
    max_depth: Annotated[int | None, typer.Option(
        "--max-depth", help="Keep only key constituents this deep or less (root = 0).")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Recall, precision and conformance of unlabeled constituents against a flat key."""
    from parsebench.api.evaluation import evaluate_flat

    _show(evaluate_flat(key, response, categories, max_depth), as_json)


@app.command("flatten")
def flatten_cmd(
    trees: Annotated[Path, typer.Argument(help="Bracketed trees to flatten.")],
    rules: Annotated[Path, typer.Option("--rules", help="Flattening rules, one per line.")],
    output: Annotated[Path | None, typer.Option("-o", "--output",
                                                help="Output file (default: stdout).")] = None,
) -> None:
    """Make flatter keys from treebank trees with flattening rules (one tree per line out)."""
    from parsebench.api.evaluation import flatten

    text = "".join(line + "\n" for line in flatten(trees, rules))
    if output is None:
        sys.stdout.write(text)
    else:
        with atomic_output(output) as fh:
            fh.write(text)

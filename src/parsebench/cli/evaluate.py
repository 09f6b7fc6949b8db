"""``eval deps``, ``eval brackets``, ``eval flat``, ``convert`` and ``flatten``: scores
against a gold key, and the conversions that make keys."""

from __future__ import annotations

import contextlib
import itertools
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from parsebench.cli._app import BY_FIELDS, JsonOpt, _emit_json, _warn, app, eval_app
from parsebench.errors import InputError, atomic_output, check_output
from parsebench.signature import signature

if TYPE_CHECKING:
    from parsebench.formats.conllu import Sentence
    from parsebench.formats.headrules import Conversion, HeadTable



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
    as_json: JsonOpt = False,
) -> None:
    """The CoNLL 2018 metrics, exact match, and Lin's dependency precision/recall."""
    import tempfile

    from parsebench.inputs import Holds, refuse_unparsed
    from parsebench.metrics.conll18 import TSV_METRICS, sentence_tsv_header, sentence_tsv_row
    from parsebench.metrics.deps import SentenceCounts, evaluate_deps
    from parsebench.metrics.lin import LabelMap, Selection
    from parsebench.report import deps_table

    selections = [Selection.parse(s) for s in select or []]
    label_map = LabelMap.read(labels) if labels else None
    table: HeadTable | None = None
    conversion: Conversion | None = None
    if head_rules is not None or not all(str(p).endswith(".conllu") for p in (gold, system)):
        # bracketed trees possible: only then the head tables (CoNLL-U is read as is)
        from parsebench.formats.headrules import Conversion, load_table

        table = load_table(head_rules) if head_rules is not None else None
        conversion = Conversion()
    if per_sentence is not None:
        check_output(per_sentence)
    # both files are read a sentence at a time: memory stays flat in their size
    with contextlib.ExitStack() as stack:
        each = None
        if per_sentence is not None:
            tsv = stack.enter_context(atomic_output(per_sentence))
            # rows wait in a file until the end, when the metrics the files cannot give
            # (no tags, no lemmas: known after the last sentence) are written n/a
            rows = stack.enter_context(tempfile.TemporaryFile("w+", encoding="utf-8"))
            number = itertools.count(1)

            def each(c: SentenceCounts) -> None:
                rows.write(sentence_tsv_row(next(number), c))

        held = Holds(str(system))
        result = evaluate_deps(_dep_sentences(gold, table, conversion),
                               held.counting(_dep_sentences(system, table, conversion)),
                               select=selections,
                               by=by, labels=label_map, gold_path=str(gold),
                               system_path=str(system), per_sentence=False, punct=punct,
                               confusion=confusion, each=each)
        refuse_unparsed(held)  # before the per-sentence file is kept
        if per_sentence is not None:
            header = sentence_tsv_header()
            tsv.write(header)
            names = header.rstrip("\n").split("\t")
            gone = [names.index(m) for m in TSV_METRICS if m in result.absent]
            rows.seek(0)
            for line in rows:
                cells = line.rstrip("\n").split("\t")
                for i in gone:
                    cells[i] = "n/a"
                tsv.write("\t".join(cells) + "\n")
    sig = signature(method="lin-deps",
                    select=[f"{x.field}={','.join(sorted(x.values))}" for x in selections],
                    labels=labels.name if labels else None, by=by,
                    punct=None if punct else "excluded",
                    **({"head_rules": table.name} if table is not None else {}))
    _warn((conversion.warnings() if conversion is not None else []) + result.warnings)
    if as_json:
        out = {**result.as_dict(), "signature": sig}
        _emit_json(out)
    else:
        sys.stdout.write(deps_table(result, str(gold), str(system), sig))


def _dep_sentences(path: Path, table: HeadTable | None, conversion: Conversion | None
                   ) -> Iterator[Sentence]:
    """A CoNLL-U file a sentence at a time, or bracketed trees converted by TABLE."""
    from parsebench.formats.conllu import iter_conllu

    if conversion is None or str(path).endswith(".conllu"):  # what looks_like_trees says
        return iter_conllu(path)
    from parsebench.formats.headrules import looks_like_trees, read_converted

    if not looks_like_trees(path):
        return iter_conllu(path)
    if table is None:
        raise InputError("bracketed trees: give --head-rules (collins, penn2malt or a "
                         "table file) to convert them to dependencies", path)
    return read_converted(path, table, conversion)


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
    from parsebench.formats.conllu import write_conllu
    from parsebench.formats.headrules import TRACE_HEADER, Conversion, load_table, read_converted

    table = load_table(head_rules)
    check_output(output)
    if trace is not None:
        check_output(trace)
    conversion = Conversion()
    with contextlib.ExitStack() as stack:
        out = stack.enter_context(atomic_output(output))
        tr = stack.enter_context(atomic_output(trace)) if trace is not None else None
        if tr is not None:
            tr.write(TRACE_HEADER)
        for path in trees:
            write_conllu(read_converted(path, table, conversion, tr), out)
    _warn(conversion.warnings())


@eval_app.command("brackets")
def eval_brackets(
    gold: Annotated[Path, typer.Argument(help="Gold trees, one per line or multi-line .mrg.")],
    test: Annotated[Path, typer.Argument(help="Test trees.")],
    prm: Annotated[Path | None, typer.Option("--prm", help="EVALB parameter file.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Parseval, with EVALB's numbers and report (messages on standard error, as EVALB)."""
    from parsebench.formats.brackets import read_tree_texts
    from parsebench.metrics.evalb import EvalbParams, evaluate_brackets, read_prm

    params = read_prm(prm) if prm else EvalbParams()
    for w in params.warnings:
        typer.echo(w, err=True)
    result = evaluate_brackets(read_tree_texts(gold), read_tree_texts(test), params,
                               str(gold), str(test))
    sig = signature(method="evalb", prm=prm.name if prm else None,
                    labeled=params.labeled, cutoff=params.cutoff_len)
    if as_json:
        out: dict[str, Any] = {
            "all": result.all.as_dict(), "len40": result.cut.as_dict(),
            "cutoff_len": params.cutoff_len,
            "rows": [r.as_dict() for r in result.rows],
            "messages": result.messages, "signature": sig,
        }
        if result.aborted:
            out["aborted"] = True
            del out["all"], out["len40"]
        _emit_json(out)
    else:
        sys.stdout.write(result.report())
    for m in result.messages:
        typer.echo(m, err=True)
    if result.aborted:
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
    from parsebench.formats.brackets import read_tree_texts
    from parsebench.metrics.flat import evaluate_flat
    from parsebench.report import flat_table

    labels = frozenset(c.strip() for c in categories.split(",") if c.strip()) \
        if categories else None
    total, _ = evaluate_flat(read_tree_texts(key), read_tree_texts(response), str(key),
                             str(response), labels, max_depth)
    sig = signature(method="flat-conformance",
                    categories=sorted(labels) if labels else None, max_depth=max_depth)
    if as_json:
        _emit_json({**total.as_dict(), "signature": sig})
    else:
        sys.stdout.write(flat_table(total, str(key), str(response), sig))


@app.command("flatten")
def flatten_cmd(
    trees: Annotated[Path, typer.Argument(help="Bracketed trees to flatten.")],
    rules: Annotated[Path, typer.Option("--rules", help="Flattening rules, one per line.")],
    output: Annotated[Path | None, typer.Option("-o", "--output",
                                                help="Output file (default: stdout).")] = None,
) -> None:
    """Make flatter keys from treebank trees with flattening rules (one tree per line out)."""
    from parsebench.formats.brackets import read_trees
    from parsebench.metrics.flat import flatten, read_rules

    rule_list = read_rules(rules)
    flat = [str(flatten(t, rule_list)) for t in read_trees(trees)]
    text = "".join(line + "\n" for line in flat)
    if output is None:
        sys.stdout.write(text)
    else:
        with atomic_output(output) as fh:
            fh.write(text)



"""The ``parsebench`` command: a thin shell over the Python API."""

from __future__ import annotations

import contextlib
import itertools
import os
import sys
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from parsebench import __version__
from parsebench.errors import InputError, atomic_output, check_output
from parsebench.signature import signature

if TYPE_CHECKING:
    from parsebench.formats.conllu import Sentence
    from parsebench.formats.headrules import Conversion, HeadTable


def _plain_help() -> None:
    """Help in click's words: ``GOLD``, ``--gold PATH``, not typer's ``{gold}`` and
    ``<path>`` (typer 0.2x). Guarded, so another typer version keeps its own look."""
    core = typer.core
    argument, option = getattr(core, "TyperArgument", None), getattr(core, "TyperOption", None)

    def bare(self: Any, ctx: Any, _orig: Any) -> str:
        label = str(_orig(self, ctx)).strip("<>")
        return label.removeprefix("list[").removesuffix("]").upper()

    if argument is not None and hasattr(argument, "_usage_display_name"):
        def usage(self: Any) -> str:
            name = str(self.metavar or self.name).upper()
            name = name if self.required else f"[{name}]"
            return name + ("..." if self.nargs != 1 else "")

        argument._usage_display_name = usage
        argument._rich_display_name = usage
        argument.display_type_rich = lambda self, ctx: None
    if option is not None and hasattr(option, "display_type"):
        orig = option.display_type
        option.display_type = lambda self, ctx: bare(self, ctx, orig)


def _light_coercion() -> None:
    """typer (0.2x) converts every parameter through a pydantic TypeAdapter, and importing
    pydantic and building the adapters took 0.09 s of the 0.47 s of ``eval deps``. Strings,
    paths, flags and lists of them (what arrives from the command line) are converted
    here as those adapters do; any other type or value still goes to typer's own
    conversion. Guarded, so another typer version keeps its own."""
    import dataclasses

    try:
        from typer import _coercion, core
        from typer._param_types import coerce_cli_path
    except ImportError:
        return
    build: Any = getattr(_coercion, "build_runtime_param", None)
    runtime: Any = getattr(_coercion, "RuntimeParam", None)
    if build is None or runtime is None or getattr(core, "build_runtime_param", None) \
            is not build or not dataclasses.is_dataclass(runtime):
        return

    typer_own: Any = build

    def leaf(annotation: Any, info: Any) -> Any:
        """The converter of one command-line string, None when typer must do it. A path
        that fails typer's checks (unreadable...) is converted again by typer, whose
        message names it as written."""
        if getattr(info, "parser", None) is not None:
            return None
        if annotation is str:
            return str
        if annotation is Path and getattr(info, "path_type", None) is None:
            return lambda value, param, ctx: coerce_cli_path(
                Path(value), info, path_type=Path, param=param, ctx=ctx)
        return None

    @dataclasses.dataclass(frozen=True)
    class Light(runtime):  # type: ignore[misc]
        descriptor: Any = None
        convert: Any = None
        many: bool = False

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            if self.convert is not None:
                if self.convert is str:
                    if self.many and isinstance(value, (list, tuple)) \
                            and all(isinstance(v, str) for v in value):
                        return [str(v) for v in value]
                    if not self.many and isinstance(value, str):
                        return value
                elif self.many and isinstance(value, (list, tuple)) \
                        and all(isinstance(v, str) for v in value):
                    try:
                        return [self.convert(v, param, ctx) for v in value]
                    except Exception:  # typer's own words for the error, below
                        pass
                elif not self.many and isinstance(value, str):
                    try:
                        return self.convert(value, param, ctx)
                    except Exception:  # typer's own words for the error, below
                        pass
            elif isinstance(value, bool):
                return value
            return typer_own(self.descriptor)._coerce_value(value, param=param, ctx=ctx)

    def light(descriptor: Any) -> Any:
        annotation, info = descriptor.annotation, descriptor.parameter_info
        if descriptor.file_annotation is None:
            many = getattr(annotation, "__origin__", None) is list
            args: tuple[Any, ...] = getattr(annotation, "__args__", ()) if many \
                else (annotation,)
            convert = leaf(args[0], info) if len(args) == 1 else None
            if convert is not None or (annotation is bool and not many):
                made: Any = Light
                return made(parameter_info=info, annotation=annotation,
                            descriptor=descriptor, convert=convert, many=many)
        return typer_own(descriptor)

    setattr(core, "build_runtime_param", light)  # noqa: B010


_plain_help()
_light_coercion()
# Plain click formatting (no rich boxes) for help and errors: main() prints usage
# errors itself, as one line like every other error.
app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  rich_markup_mode=None,
                  help="Measure how accurate parsers are and how well they hold up on noisy input.")
eval_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None,
                       help="Score parser output against a gold standard.")
app.add_typer(eval_app, name="eval")

# Named in the help; the same as metrics.lin.BY_FIELDS and analysis.PROJECTIONS (a test
# says so), written out so that the help imports no metric (start-up in 0.1 s).
BY_FIELDS = ("deprel", "upos", "word", "category", "group", "preposition", "arc-length",
             "direction", "depth", "sentence-length")
PROJECTIONS = ("head+deprel", "head", "deprel", "upos", "xpos", "links", "brackets", "tag")

JsonOpt = Annotated[bool, typer.Option("--json", help="One JSON object on stdout.")]
WorkersOpt = Annotated[int, typer.Option("--workers", help="Parser processes.")]
TimeoutOpt = Annotated[float, typer.Option("--timeout", help="Seconds one sentence may take; "
                                           "then it is a failure.")]
BatchOpt = Annotated[int, typer.Option("--batch-size", help="Sentences per batch.")]


def _emit_json(obj: dict[str, Any]) -> None:
    import json  # (not at start-up: most commands print text)

    sys.stdout.write(json.dumps(obj, indent=2, allow_nan=False) + "\n")


def _warn(lines: list[str]) -> None:
    for w in lines:
        typer.echo(f"warning: {w}", err=True)


@app.callback(invoke_without_command=True)
def _root(version: Annotated[bool, typer.Option("--version", help="Print the version.")] = False
          ) -> None:
    if version:
        typer.echo(f"parsebench {__version__}")
        raise typer.Exit()


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


def _replicate_path(out: Path, seed: int, replicates: int) -> Path:
    if replicates == 1:
        return out
    return out.with_name(f"{out.stem}.seed{seed}{out.suffix}")


@app.command("noise")
def noise_cmd(
    source: Annotated[Path, typer.Argument(help="CoNLL-U, or text with one sentence a line "
                                                "and tokens separated by spaces.")],
    output: Annotated[Path, typer.Option("-o", "--output", help="Output file; with several "
                                         "replicates, .seedS is put before the extension.")],
    rate: Annotated[float | None, typer.Option(
        "--rate", help="Misspell round(R x words) words, chosen uniformly among eligible "
        "ones.")] = None,
    per_sentence: Annotated[int | None, typer.Option(
        "--per-sentence", help="Misspell exactly K words in every sentence that has K "
        "eligible words.")] = None,
    seed: Annotated[int, typer.Option("--seed", help="First seed.")] = 1,
    replicates: Annotated[int, typer.Option("--replicates", help="Files from seeds "
                                            "S..S+N-1.")] = 1,
    lang: Annotated[str, typer.Option("--lang", help="Language of the default lexicon and "
                                      "keyboard.")] = "en",
    lexicon: Annotated[str | None, typer.Option(
        "--lexicon", help="wordfreq:LANG (default), a word list file, or a hunspell .dic."
    )] = None,
    keyboard: Annotated[str | None, typer.Option(
        "--keyboard", help="us-qwerty, sv-qwerty, or a layout file (default: by --lang).")
    ] = None,
    weights: Annotated[str | None, typer.Option(
        "--weights", help="Operation weights, e.g. sub=2,ins=1,del=1,trans=1; with --kind "
        "grammar type weights over the defaults, e.g. R:WO=2,M:DET=1.")] = None,
    min_length: Annotated[int, typer.Option("--min-length", help="Shortest word that may be "
                                            "misspelled.")] = 2,
    drop_short: Annotated[bool, typer.Option(
        "--drop-short", help="With --per-sentence, leave out sentences with too few "
        "eligible words.")] = False,
    kind: Annotated[str, typer.Option(
        "--kind", help="spelling: one keyboard misspelling a word (Bigert et al.); grammar: "
        "learner-like errors of ERRANT's types, written with OUT.m2 and OUT.align.")
    ] = "spelling",
    types: Annotated[str | None, typer.Option(
        "--types", help="With --kind grammar: the error types to make, e.g. M:DET,R:WO "
        "(default: all).")] = None,
    tagger: Annotated[str | None, typer.Option(
        "--tagger", help="With --kind grammar and a text input: the parser (as for parse "
        "--parser) whose UPOS, features and heads say where errors can go.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Make noisy text, seeded and recorded: misspellings, or learner-like errors with their
    ERRANT types (OUT.m2) and alignment (OUT.align)."""
    import json

    if kind not in ("spelling", "grammar"):
        raise InputError(f"--kind {kind!r}: spelling or grammar")
    if kind == "grammar":
        _noise_grammar(source, output, rate, per_sentence, seed, replicates, lang, lexicon,
                       keyboard, weights, drop_short, types, tagger, as_json)
        return
    if types is not None or tagger is not None:
        raise InputError("--types and --tagger go with --kind grammar")
    import time
    from itertools import islice

    from parsebench.errors import check_output, iter_lines
    from parsebench.formats.conllu import iter_conllu, looks_like_conllu, write_conllu
    from parsebench.limits import check
    from parsebench.noise import (
        KEYBOARDS,
        Change,
        Keyboard,
        Lexicon,
        Settings,
        StreamedCorpus,
        apply_to_sentence,
        parse_weights,
        unannotated,
    )

    check("replicates", replicates)
    check("seed", seed)
    check_output(output)
    w = parse_weights(weights)
    Settings(rate, per_sentence, seed, w, min_length).check()
    kb = Keyboard.load(keyboard or KEYBOARDS.get(lang, "us-qwerty"))
    # The input is read a sentence at a time, several times over, and never held whole:
    # memory stays flat in its size (see noise.StreamedCorpus).
    conllu = looks_like_conllu(source, islice(iter_lines(source), 1000))

    def sentences() -> Any:
        if conllu:
            return ((x.forms, {i for a, b, _ in x.multiword for i in range(a, b + 1)})
                    for x in iter_conllu(source))
        return ((ln.split(), set()) for ln in iter_lines(source))

    corpus = StreamedCorpus(sentences, min_length)
    t0 = time.perf_counter()
    lex = Lexicon.load(lexicon, lang)
    t_lex = time.perf_counter() - t0
    files: list[dict[str, Any]] = []
    for s in range(seed, seed + replicates):
        target = _replicate_path(output, s, replicates)
        t1 = time.perf_counter()
        report = corpus.plan(Settings(rate, per_sentence, s, w, min_length), kb, lex)
        dt = time.perf_counter() - t1
        short = set(report.short_sentences) if drop_short else set()
        by_sentence: dict[int, list[Change]] = {}
        for c in report.changes:
            by_sentence.setdefault(c.sentence, []).append(c)
        with atomic_output(target) as fh:
            if conllu:
                for k, x in enumerate(iter_conllu(source)):
                    if k not in short:
                        write_conllu([unannotated(apply_to_sentence(
                            x, by_sentence.get(k, ())))], fh)
            else:
                for k, (toks, _) in enumerate(sentences()):
                    if k not in short:
                        for c in by_sentence.get(k, ()):
                            toks[c.token] = c.new
                        fh.write(" ".join(toks) + "\n")
        if not conllu:
            side = {"settings": {"rate": rate, "per_sentence": per_sentence, "seed": s,
                                 "lexicon": lex.name, "keyboard": kb.name, "weights": w,
                                 "min_length": min_length, "dropped_short": drop_short},
                    "changes": [{"line": c.sentence + 1, "token": c.token + 1, "op": c.op,
                                 "orig": c.orig, "new": c.new} for c in report.changes]}
            with atomic_output(target.with_name(target.name + ".noise.json")) as fh:
                fh.write(json.dumps(side, ensure_ascii=False, indent=1) + "\n")
        files.append({"file": str(target), "seed": s, "words": report.words,
                      "eligible": report.eligible, "misspelled": len(report.changes),
                      "skipped_no_nonword": report.no_nonword,
                      "short_sentences": len(report.short_sentences),
                      "shortfall": report.shortfall})
        typer.echo(f"{target} (seed {s}): " + report.summary().replace("\n", "\n  "), err=True)
        typer.echo(f"  generation {dt:.3f} s ({report.words / dt:,.0f} words/s); lexicon "
                   f"{lex.name} loaded once in {t_lex:.3f} s", err=True)
    if as_json:
        _emit_json({"files": files, "signature": signature(
            method="noise", rate=rate, per_sentence=per_sentence, seed=seed,
            replicates=replicates, lexicon=lex.name, keyboard=kb.name,
            weights=",".join(f"{k}={v:g}" for k, v in w.items()),
            min_length=min_length, drop_short=drop_short)})


def _noise_grammar(source: Path, output: Path, rate: float | None, per_sentence: int | None,
                   seed: int, replicates: int, lang: str, lexicon: str | None,
                   keyboard: str | None, weights: str | None, drop_short: bool,
                   types: str | None, tagger: str | None, as_json: bool) -> None:
    """``noise --kind grammar``: the errors, then OUT, OUT.m2 and OUT.align per replicate."""
    import time
    from itertools import islice

    from parsebench.errors import check_output, iter_lines
    from parsebench.formats.conllu import iter_conllu, looks_like_conllu, write_conllu
    from parsebench.limits import check
    from parsebench.noise import KEYBOARDS
    from parsebench.noise import grammar as g

    check("replicates", replicates)
    check("seed", seed)
    if lang != "en":
        raise InputError(f"--kind grammar makes English errors only, not --lang {lang}")
    check_output(output)
    settings = g.Settings(rate, per_sentence, seed, g.parse_types(types),
                          g.parse_weights(weights))
    settings.check()
    conllu = looks_like_conllu(source, islice(iter_lines(source), 1000))
    tagged: list[Sentence] | None = None
    if not conllu:
        if tagger is None:
            raise InputError("a text input needs --tagger (a parser giving UPOS, features "
                             "and heads), or give CoNLL-U", source)
        from parsebench.parsers.run import parse_sentences, read_input, to_conllu

        plain = read_input(source)
        with _Bars(transient=True) as bars:
            bars.stage("tagging", len(plain))
            run = parse_sentences(plain, tagger, progress=lambda _t: bars.advance())
        tagged = [to_conllu(s, t, run.kind) for s, t in zip(plain, run.timed, strict=True)]
    elif tagger is not None:
        raise InputError("--tagger is for text input; a CoNLL-U input's own annotation is used")

    def read() -> Any:
        return iter(tagged) if tagged is not None else iter_conllu(source)

    spell = None
    if "R:SPELL" in settings.types:
        spell = g.speller(keyboard or KEYBOARDS.get(lang, "us-qwerty"), lexicon, lang,
                          {w.lower() for s in read() for w in s.forms})
    with _Bars(transient=True) as bars:

        def listed() -> Any:
            for x in read():
                bars.advance()
                yield x

        t0 = time.perf_counter()
        bars.stage("listing error sites", None)
        planner = g.Planner(listed, settings.types, spell, g.zipf(lang))
        t_sites = time.perf_counter() - t0
        if not planner.annotated:
            raise InputError("no word has a UPOS: --kind grammar places errors by the "
                             "annotation (give --tagger with the words as text)", source)
        files: list[dict[str, Any]] = []
        for s in range(seed, seed + replicates):
            target = _replicate_path(output, s, replicates)
            st = g.Settings(rate, per_sentence, s, settings.types, settings.weights)
            report, chosen = planner.plan(st, last=s == seed + replicates - 1)
            short = set(report.short_sentences) if drop_short else set()
            recorded: Counter[str] = Counter()
            unrealised = planner.unrealised
            bars.stage(f"writing seed {s}", len(planner.starts) - 1)
            with atomic_output(target) as out, \
                    atomic_output(target.with_name(target.name + ".m2")) as m2, \
                    atomic_output(target.with_name(target.name + ".align")) as al:
                for k, x in enumerate(read()):
                    bars.advance()
                    if k in short:
                        continue
                    edits = planner.realise(x, k, chosen.get(k, ()), s)
                    noisy, pairs, m2_edits = g.noisy_sentence(x, edits)
                    recorded.update(e.type for e in edits)
                    if conllu:
                        write_conllu([noisy], out)
                    else:
                        out.write(" ".join(noisy.forms) + "\n")
                    g.write_m2(m2, noisy.forms, m2_edits)
                    al.write(g.pharaoh(pairs) + "\n")
            if planner.unrealised > unrealised:  # reported as short, never a crash
                report.shortfall += planner.unrealised - unrealised
                report.errors = recorded
            files.append({"file": str(target), "m2": f"{target}.m2", "align": f"{target}.align",
                          "seed": s, "words": report.words, "errors": report.made,
                          "by_type": dict(sorted(recorded.items())),
                          "sites": dict(report.sites), "short_sentences":
                          len(report.short_sentences), "shortfall": report.shortfall})
            typer.echo(f"{target} (seed {s}): " + report.summary().replace("\n", "\n  "),
                       err=True)
    typer.echo(f"  sites listed in {t_sites:.2f} s ({planner.words / t_sites:,.0f} words/s)",
               err=True)
    if as_json:
        _emit_json({"files": files, "signature": signature(
            method="noise-grammar", rate=rate, per_sentence=per_sentence, seed=seed,
            replicates=replicates, types=",".join(settings.types),
            weights=",".join(f"{k}={v:g}" for k, v in settings.weights.items()
                             if k in settings.types), drop_short=drop_short)})


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


robustness_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None,
                             help="How much parses change when the input gets noisy.")
app.add_typer(robustness_app, name="robustness")


def _parses(path: Path, needs: tuple[str, ...] = (), method: str = "") -> list[Any]:
    """A parse file read whole, through the one input check: the output of ``noise``
    is refused, and so is a file without what METHOD NEEDS."""
    from parsebench.analysis import read_parses
    from parsebench.inputs import holds, require

    parses = read_parses(path)
    require(holds(parses, str(path)), needs, method)
    return parses


@robustness_app.command("rows")
def robustness_rows(
    clean: Annotated[Path, typer.Argument(help="Parse of the clean text (0).")],
    noisy: Annotated[list[Path], typer.Argument(help="Parses of the noisy text (n); several "
                                                "files are replicates.")],
    gold: Annotated[Path | None, typer.Option("--gold", help="Gold analysis (m): real "
                                              "degradation, the five cases.")] = None,
    accuracy: Annotated[float | None, typer.Option(
        "--accuracy", help="Clean-text accuracy acr in [0, 1] (default: from --gold).")] = None,
    projection: Annotated[str | None, typer.Option(
        "--project", help="Parse string of a row: " + "|".join(PROJECTIONS)
        + " (default: head+deprel, links, brackets or the row file's string).")] = None,
    cal_gold: Annotated[Path | None, typer.Option(
        "--calibrate-gold", help="Calibration sample: its gold (e.g. a dev set).")] = None,
    cal_clean: Annotated[Path | None, typer.Option(
        "--calibrate-clean", help="Calibration sample: the parse of its clean text.")] = None,
    cal_noisy: Annotated[list[Path] | None, typer.Option(
        "--calibrate-noisy", help="Calibration sample: a parse of its noisy text at the same "
        "error level (repeat for replicates).")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Bigert et al.'s degradation bounds and estimates, row by row, with and without gold.

    With a calibration sample (--calibrate-gold/-clean/-noisy) it also gives a
    calibrated degradation learnt on the sample, with a bootstrap interval.
    """
    from parsebench.analysis import default_projection, read_parses
    from parsebench.metrics import calibration
    from parsebench.metrics.rows import calibration_sample, rows_report
    from parsebench.report import rows_table

    if accuracy is not None and not 0 < accuracy <= 1:
        raise InputError(f"--accuracy {accuracy}: expected a fraction in (0, 1], e.g. 0.89")
    if projection is not None and projection not in PROJECTIONS:
        raise InputError(f"--project {projection}: expected one of " + ", ".join(PROJECTIONS))
    c = _parses(clean)
    m = read_parses(gold) if gold else None
    proj = projection or default_projection(c)
    cal = None
    if cal_gold or cal_clean or cal_noisy:
        if not (cal_gold and cal_clean and cal_noisy):
            raise InputError("calibration needs --calibrate-gold, --calibrate-clean and "
                             "--calibrate-noisy")
        cal = calibration_sample(read_parses(cal_gold), read_parses(cal_clean),
                                 [(str(p), read_parses(p)) for p in cal_noisy], proj,
                                 str(cal_clean), str(cal_gold))
    out = rows_report(c, [(str(p), _parses(p)) for p in noisy], m, accuracy, proj,
                      str(clean), str(gold), cal)
    out["acr_given"] = accuracy
    out["signature"] = signature(method="bigert-rows", projection=proj,
                                 acr=accuracy if accuracy is not None else "gold" if gold
                                 else None, replicates=len(noisy),
                                 calibration=None if cal is None else
                                 f"{calibration.METHOD}:{cal[0].sample_sentences}")
    _warn(out["warnings"])
    if as_json:
        _emit_json(out)
    else:
        sys.stdout.write(rows_table(out, str(clean), [str(p) for p in noisy], proj))


@robustness_app.command("sentences")
def robustness_sentences(
    clean: Annotated[Path, typer.Argument(help="Parse of the clean sentences.")],
    noisy: Annotated[list[Path], typer.Argument(help="Parses of the noisy sentences; several "
                                                "files are pooled.")],
    alignment: Annotated[list[Path] | None, typer.Option(
        "--alignment", help="For noise that adds, drops or moves words: the M2 or Pharaoh "
        "file of each noisy file (noise --kind grammar writes them), in the same order.")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Kakkonen's unlabeled and labeled sentence robustness scores, by number of errors."""
    from parsebench.metrics.sentences import score_sentences
    from parsebench.metrics.wordalign import read_alignments
    from parsebench.report import sentences_table

    c = _parses(clean)
    scores = score_sentences(c, [_parses(p) for p in noisy], str(clean),
                             [str(p) for p in noisy],
                             [read_alignments(a)[1] for a in alignment] if alignment else None,
                             [str(a) for a in alignment or ()])
    out = scores.as_dict()
    kinds = sorted({p.kind for p in c})
    out["signature"] = signature(method="kakkonen-sentences", structure=kinds,
                                 files=len(noisy))
    _warn(out["warnings"])
    if as_json:
        _emit_json(out)
    else:
        sys.stdout.write(sentences_table(out, str(clean), [str(p) for p in noisy]))


@robustness_app.command("f1")
def robustness_f1(
    grammatical: Annotated[Path, typer.Argument(help="Parses (CoNLL-U) of the corrected "
                                                "sentences G.")],
    ungrammatical: Annotated[Path, typer.Argument(help="Parses (CoNLL-U) of the ungrammatical "
                                                  "sentences U, same order.")],
    alignment: Annotated[str | None, typer.Option(
        "--alignment", help="Pharaoh file (i-j, 0-based, U to G), M2 file (its error types "
        "give a breakdown), or 'errant' (ERRANT aligns and types each pair; the errant "
        "extra); default: word-level edit distance.")] = None,
    errant_pipeline: Annotated[str, typer.Option(
        "--errant-pipeline", help="With --alignment errant: the spaCy pipeline ERRANT "
        "tags with.")] = "en_core_web_sm",
    punct: Annotated[bool, typer.Option("--punct/--no-punct", help="Count arcs whose "
                                        "dependent is punctuation.")] = True,
    labeled: Annotated[bool, typer.Option("--labeled", help="Shared arcs need the same "
                                          "label.")] = False,
    exclude_root: Annotated[bool, typer.Option("--exclude-root", help="Do not count the "
                                               "root attachment as a dependency.")] = False,
    gold: Annotated[Path | None, typer.Option(
        "--gold", help="Gold key (CoNLL-U) of the corrected sentences: both parses' "
        "attachment accuracy against it, the ungrammatical one through the alignment."
    )] = None,
    as_json: JsonOpt = False,
) -> None:
    """Hashemi & Hwa's robustness F1, error-related dependencies excluded."""
    from parsebench.analysis import iter_parses
    from parsebench.inputs import Holds, na_cause, refuse_unparsed
    from parsebench.metrics.robust_f1 import score_corpus
    from parsebench.metrics.wordalign import iter_alignments
    from parsebench.report import f1_table

    # the files are read a pair at a time (memory flat in their size), each counted as it
    # streams by for the one input check
    held = {path: Holds(str(path)) for path in (grammatical, ungrammatical)}
    g: Iterable[Any] = held[grammatical].counting(iter_parses(grammatical))
    u: Iterable[Any] = held[ungrammatical].counting(iter_parses(ungrammatical))
    aligns: Any
    if alignment == "errant":  # ERRANT aligns whole lists of pairs
        g, u = list(g), list(u)
        source, aligns = "errant", _errant_alignments(u, g, errant_pipeline)
    elif alignment is not None:
        source, aligns = iter_alignments(alignment)
    else:
        source, aligns = "edit-distance", None
    result = score_corpus(g, u, aligns, str(grammatical), str(ungrammatical),
                          str(alignment or ""), labeled, punct, not exclude_root,
                          iter_parses(gold) if gold else None, str(gold or ""))
    for h in held.values():
        refuse_unparsed(h)
    # both parses need dependencies: with one side's missing, recall would read 0
    causes = [c for c in (na_cause(h, ("heads",), "robustness F1") for h in held.values())
              if c]
    out = result.total.as_dict()
    out["ci95"] = result.intervals()
    if causes:
        out.update(precision=None, recall=None, f1=None, warnings=causes)
        out["ci95"] = dict.fromkeys(out["ci95"])
        result.by_errors, result.by_type = {}, {}
        _warn(causes)
    if result.accuracy:
        out["accuracy"] = {k: v.as_dict() for k, v in result.accuracy.items()}
        out["accuracy"]["by_type"] = {k: v.as_dict()
                                      for k, v in sorted(result.accuracy_by_type.items())}
    if result.by_errors:
        out["by_errors"] = {str(k): v.as_dict() for k, v in sorted(result.by_errors.items())}
    if result.by_type:
        out["by_type"] = result.by_type_dict()
    out["signature"] = signature(method="hashemi-hwa-f1", alignment=source, labeled=labeled,
                                 punct=punct, root=not exclude_root,
                                 **({"errant": _errant_version(errant_pipeline)}
                                    if source == "errant" else {}))
    if as_json:
        _emit_json(out)
    else:
        sys.stdout.write(f1_table(out, str(grammatical), str(ungrammatical)))


def _errant_alignments(u: list[Any], g: list[Any], pipeline: str) -> list[Any]:
    """ERRANT's alignment of every ungrammatical/corrected pair, with progress."""
    from parsebench.metrics.errant_types import alignment, annotator

    if len(u) != len(g):
        return []  # score_corpus says which file is short
    annotator(pipeline)
    out = []
    with _Bars(transient=True) as bars:
        bars.stage("ERRANT", len(u))
        for a, b in zip(u, g, strict=True):
            out.append(alignment(a.forms, b.forms, pipeline))
            bars.advance()
    return out


def _errant_version(pipeline: str) -> str:
    from importlib.metadata import version

    return f"{version('errant')}+{pipeline}"


class _Bars:
    """Rich progress bars on standard error, one per stage (quiet when not a terminal)."""

    def __init__(self, transient: bool = False) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeRemainingColumn,
        )

        self.console = Console(stderr=True)
        self.bar = Progress(TextColumn("{task.description:<24}"), BarColumn(),
                            MofNCompleteColumn(), TimeRemainingColumn(), console=self.console,
                            transient=transient, disable=not sys.stderr.isatty())
        self.task: Any = None

    def __enter__(self) -> _Bars:
        self.bar.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self.bar.__exit__(None, None, None)

    def stage(self, name: str, total: int | None) -> None:
        if self.task is not None:
            self.bar.update(self.task, completed=self.bar.tasks[self.task].total)
        self.task = self.bar.add_task(name, total=total)

    def advance(self, n: int = 1) -> None:
        self.bar.advance(self.task, n)

    def note(self, text: str) -> None:
        self.console.print(text, highlight=False)


@app.command("run")
def run_cmd(
    experiment: Annotated[Path, typer.Argument(help="Experiment file (TOML).")],
    workers: Annotated[int, typer.Option("--workers", help="Parser processes (local), or "
                                         "Dask workers of a LocalCluster.")] = 1,
    store: Annotated[Path | None, typer.Option(
        "--store", help="SQLite store (default: NAME.sqlite beside the experiment file).")
    ] = None,
    report: Annotated[Path | None, typer.Option(
        "--report", help="Report folder (default: NAME-report beside the store).")] = None,
    executor: Annotated[str, typer.Option("--executor", help="local or dask.")] = "local",
    scheduler: Annotated[str | None, typer.Option(
        "--scheduler", help="Dask scheduler ADDRESS (default with --executor dask: a "
        "LocalCluster of --workers processes).")] = None,
    limit: Annotated[int | None, typer.Option(
        "--limit", min=1, help="A small version: at most N sentences.")] = None,
    replicates: Annotated[int | None, typer.Option(
        "--replicates", min=1, help="A small version: R replicates a level.")] = None,
) -> None:
    """Noise, parse, score, store and report one experiment; a re-run resumes."""
    _run_and_report(experiment, store, report, executor, workers, scheduler, limit,
                    replicates)


def _run_and_report(experiment: Path, store: Path | None, report: Path | None,
                    executor: str, workers: int, scheduler: str | None,
                    limit: int | None = None, replicates: int | None = None) -> None:
    """``run`` and ``demo``: run, write the report, print the summary and where things are.

    LIMIT and REPLICATES make a small version of the experiment, stored under its own
    name so that it never replaces the full run's results."""
    from parsebench.errors import check_folder, check_output
    from parsebench.experiment import load
    from parsebench.parsers.executor import Executor
    from parsebench.publish import safe_name, summary_table, write_report
    from parsebench.runner import run_experiment
    from parsebench.store import Store

    exp = load(experiment)
    store_path = store or experiment.with_name(safe_name(exp.name) + ".sqlite")
    report_dir = report or store_path.with_name(safe_name(exp.name) + "-report")
    # both checked before the run, which may take hours
    if not store_path.exists():
        check_output(store_path)
    elif store_path.is_dir():
        raise InputError("is a directory; give a file name for the store", store_path)
    check_folder(report_dir)
    if limit is not None or replicates is not None:
        exp.limit = min(limit, exp.limit or limit) if limit is not None else exp.limit
        exp.replicates = replicates or exp.replicates
        exp.name += f" (limit {exp.limit}, {exp.replicates} replicates)"
    ex = Executor(executor, workers, scheduler)
    new_store = not store_path.exists()
    try:
        with Store(store_path) as st, _Bars() as bars:
            st.lock_for_run()
            outcome = run_experiment(exp, st, ex, bars)
            files = write_report(st, report_dir)
            info = st.run_info(outcome.run_id)
            _warn(st.warnings)
    except BaseException:
        if new_store:
            _drop_if_empty(store_path)
        raise
    sys.stdout.write(summary_table(outcome.results))
    from parsebench.versions import KINDS

    if KINDS[exp.kind].moves_words:
        from parsebench.scoring import applicability

        skipped = [k for k, v in applicability(exp.kind).items() if v.startswith("not ")]
        sys.stdout.write(f"\nnoise of kind {exp.kind}: {', '.join(skipped)} do not apply (the "
                         "words change); the others score through the errors' alignment\n")
    sys.stdout.write(f"\nrun {outcome.run_id}: {info['parsed']} sentences parsed, "
                     f"{info['cached']} from the cache; {outcome.stats['wall_seconds']:.1f} s\n"
                     f"store: {store_path}\nreport: {files['html']} (and "
                     f"{files['markdown'].name}, {files['csv'].name}, {files['json'].name})\n")


def _drop_if_empty(store_path: Path) -> None:
    """A run that failed before any parse was stored leaves no new store behind; one
    that stored parses keeps them, so that running again resumes."""
    import sqlite3

    try:
        with contextlib.closing(sqlite3.connect(store_path)) as db:
            parsed = db.execute("SELECT count(*) FROM parses").fetchone()[0]
    except sqlite3.Error:
        parsed = 0
    if not parsed:
        for suffix in ("", "-wal", "-shm"):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(str(store_path) + suffix)


@app.command("report")
def report_cmd(
    store: Annotated[Path, typer.Argument(help="SQLite store written by parsebench run.")],
    output: Annotated[Path, typer.Option("-o", "--output", help="Report folder.")],
) -> None:
    """Markdown, one self-contained HTML page, plots, CSV and JSON from a store."""
    from parsebench.publish import write_report
    from parsebench.store import open_existing

    with open_existing(store) as st:
        files = write_report(st, output)
    typer.echo(f"report: {files['html']}", err=True)


@app.command("export")
def export_cmd(
    store: Annotated[Path, typer.Argument(help="SQLite store written by parsebench run.")],
    output: Annotated[Path, typer.Option("-o", "--output", help="Folder for the files.")],
    parser: Annotated[str | None, typer.Option("--parser", help="Only this parser.")] = None,
    experiment: Annotated[str | None, typer.Option(
        "--experiment", help="Only this experiment.")] = None,
) -> None:
    """The clean and every noisy parse as CoNLL-U (trees: one a line), one file a parser,
    level and replicate, and the per-sentence scores as CSV."""
    from parsebench.export import export
    from parsebench.store import open_existing

    with open_existing(store) as st:
        files = export(st, output, parser, experiment)
    typer.echo(f"{len(files)} files under {output}", err=True)


@app.command("demo")
def demo(
    output: Annotated[Path, typer.Option("-o", "--output", help="Folder for the store and "
                                         "the report.")] = Path("demo-output"),
    workers: Annotated[int, typer.Option("--workers", help="Parser processes.")] = 2,
    paper_examples: Annotated[bool, typer.Option(
        "--paper-examples", help="Instead: score the papers' bundled worked examples.")] = False,
) -> None:
    """Run the bundled experiment (Link Grammar on a bundled text) and write its report."""
    from parsebench.demo import bundled_experiment, run_paper_examples

    if paper_examples:
        run_paper_examples()
        return
    output.mkdir(parents=True, exist_ok=True)
    with bundled_experiment() as toml:
        _run_and_report(toml, output / "demo.sqlite", output / "report", "local", workers, None)


@app.command("compare")
def compare_cmd(
    gold: Annotated[Path, typer.Argument(help="Gold file (CoNLL-U, or trees for evalb and "
                                         "flat-*).")],
    systems: Annotated[list[Path], typer.Argument(help="System files; the first is the "
                                                  "baseline.")],
    metric: Annotated[str, typer.Option("--metric", help="las, uas, clas, lin-labeled, "
                                        "lin-unlabeled, evalb, flat-recall or "
                                        "flat-conformance.")] = "las",
    test: Annotated[str, typer.Option("--test", help="bootstrap or randomization.")
                    ] = "bootstrap",
    samples: Annotated[int, typer.Option("--samples", help="Resamples.")] = 10_000,
    seed: Annotated[int, typer.Option("--seed", help="Seed: same seed, same output.")] = 1,
    alpha: Annotated[float, typer.Option("--alpha", help="Significance level; intervals are "
                                         "1 - alpha.")] = 0.05,
    all_pairs: Annotated[bool, typer.Option("--all-pairs", help="Test every pair, not only "
                                            "each system against the first.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Scores with bootstrap intervals, and paired significance tests between systems."""
    from parsebench.compare import compare, compare_table

    r = compare(gold, systems, metric, test, samples, seed, alpha, all_pairs)
    r["signature"] = signature(method="compare", metric=metric, test=test, samples=samples,
                               seed=seed, alpha=alpha, correction=r["correction"])
    _warn(r["warnings"])
    if as_json:
        _emit_json(r)
    else:
        sys.stdout.write(compare_table(r) + f"\nsignature: {r['signature']}\n")


def _click_errors() -> tuple[type[Exception], ...]:
    """Click's exception base, as typer carries it (typer 0.2x vendors its own click)."""
    import click

    vendored = [c for c in type.mro(typer.BadParameter) if c.__name__ == "ClickException"]
    return (click.ClickException, *vendored)


def _sqlite_errors() -> type[Exception]:
    """SQLite's error base, imported only when an exception is being matched."""
    import sqlite3

    return sqlite3.DatabaseError


def main(argv: list[str] | None = None) -> None:
    """The console script: every error is one line ``parsebench: ...`` with exit status 2
    (bad input and usage errors alike), no traceback for a closed pipe or Ctrl-C."""
    try:
        code = app(args=argv, prog_name="parsebench", standalone_mode=False)
    except InputError as exc:
        _fail(str(exc))
    except _click_errors() as exc:
        ctx = getattr(exc, "ctx", None)
        if type(exc).__name__ == "NoArgsIsHelpError" and ctx is not None:
            sys.stdout.write(ctx.get_help() + "\n")  # a group named without its command
            sys.exit(0)
        hint = f" (see '{ctx.command_path} --help')" if ctx is not None else ""
        message = exc.format_message() if hasattr(exc, "format_message") else str(exc)
        _fail(" ".join(message.split()) + hint)
    except KeyboardInterrupt:
        typer.echo("parsebench: interrupted", err=True)
        sys.exit(130)
    except BrokenPipeError:
        # the reader went away (| head): say nothing, and keep Python from complaining
        # again when it flushes stdout at exit
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        sys.exit(1)
    except _sqlite_errors() as exc:  # a store damaged past what its checks catch
        from parsebench.store import one_line

        _fail(f"the store is damaged and cannot be read (SQLite: {one_line(exc)}); restore "
              "it or start a new one")
    except OSError as exc:  # a path the system refuses (too long, a loop, a device...)
        where = f"{exc.filename}: " if exc.filename else ""
        _fail(f"{where}{exc.strerror or exc}")
    except Exception as exc:
        if type(exc).__name__ == "Abort":  # click's Ctrl-C at a prompt
            sys.exit(130)
        raise
    sys.exit(code if isinstance(code, int) else 0)


def _fail(message: str) -> None:
    typer.echo(f"parsebench: {message}", err=True)
    sys.exit(2)


if __name__ == "__main__":
    main()

"""The application, its shared options, progress bars and the one-line error handling
that every command of the package shares."""

from __future__ import annotations

import contextlib
import os
import sys
import warnings
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from parsebench.common.errors import InputError
from parsebench.version import __version__

if TYPE_CHECKING:
    from parsebench.model.results import Result


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
    here as those adapters do, whole numbers in their bounds and plain decimals (``0.05``,
    ``1e-3``), each also as ``X | None``; any other type or
    value (and every value these refuse, for typer's words) still goes to typer's own
    conversion. Guarded, so another typer version keeps its own."""
    import dataclasses
    import re
    import types
    import typing

    decimal_text = re.compile(r"-?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")

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
        if annotation is int and not getattr(info, "clamp", False):
            lo, hi = getattr(info, "min", None), getattr(info, "max", None)

            def whole(value: str, param: Any, ctx: Any) -> int:
                if not value.lstrip("-").isdigit() or not value.isascii():
                    raise ValueError(value)  # typer's own words for it
                n = int(value)
                if (lo is not None and n < lo) or (hi is not None and n > hi):
                    raise ValueError(value)
                return n
            return whole
        if annotation is float:
            return decimal
        return None

    def decimal(value: str, param: Any, ctx: Any) -> float:
        if not decimal_text.fullmatch(value):
            raise ValueError(value)  # (inf, 1_0, " 1"...): typer's conversion and words
        return float(value)

    @dataclasses.dataclass(frozen=True)
    class Light(runtime):  # type: ignore[misc]
        descriptor: Any = None
        convert: Any = None
        many: bool = False

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            if value is None or isinstance(value, bool) or (not self.many and (
                    (type(value) is int and self.convert not in (None, decimal))
                    or (type(value) is float and self.convert is decimal))):
                return value  # (a default: None, a flag's, an int or float option's)
            if self.convert is str:
                if self.many and isinstance(value, (list, tuple)) \
                        and all(isinstance(v, str) for v in value):
                    return [str(v) for v in value]
                if not self.many and isinstance(value, str):
                    return value
            elif self.convert is not None:
                try:
                    if self.many and isinstance(value, (list, tuple)) \
                            and all(isinstance(v, str) for v in value):
                        return [self.convert(v, param, ctx) for v in value]
                    if not self.many and isinstance(value, str):
                        return self.convert(value, param, ctx)
                except Exception:  # typer's own words for the error, below
                    pass
            return typer_own(self.descriptor)._coerce_value(value, param=param, ctx=ctx)

    def light(descriptor: Any) -> Any:
        annotation, info = descriptor.annotation, descriptor.parameter_info
        if descriptor.file_annotation is None:
            given = typing.get_args(annotation)  # X of an option "X | None"
            base = next(a for a in given if a is not type(None)) \
                if typing.get_origin(annotation) in (typing.Union, types.UnionType) \
                and len(given) == 2 and type(None) in given else annotation
            many = getattr(base, "__origin__", None) is list
            args: tuple[Any, ...] = getattr(base, "__args__", ()) if many else (base,)
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

# Named in the help; the same as metrics.dependency.lin.BY_FIELDS and parses.PROJECTIONS (a test
# says so), written out so that the help imports no metric (start-up in 0.1 s).
BY_FIELDS = ("deprel", "upos", "word", "category", "group", "preposition", "arc-length",
             "direction", "depth", "sentence-length")
PROJECTIONS = ("head+deprel", "head", "deprel", "upos", "xpos", "links", "brackets", "tag")

JsonOpt = Annotated[bool, typer.Option("--json", help="One JSON object on stdout.")]
WorkersOpt = Annotated[int, typer.Option("--workers", help="Parser processes.")]
TimeoutOpt = Annotated[float, typer.Option("--timeout", help="Seconds one sentence may take; "
                                           "then it is a failure.")]
BatchOpt = Annotated[int, typer.Option("--batch-size", help="Sentences per batch.")]
# how a dependency parse is scored, the same in eval deps and compare
AlignOpt = Annotated[str | None, typer.Option(
    "--align", help="words: score a system whose words differ from the gold's (a "
    "corrector, a normaliser, an LLM) over words aligned by edit distance.")]
InvalidOpt = Annotated[str, typer.Option(
    "--invalid", help="A sentence that is not a tree: warn (scored as it is), zero "
    "(no word attached: CoNLL 2018's policy) or error.")]
EnhancementsOpt = Annotated[str, typer.Option(
    "--enhancements", help="ELAS/EULAS: the enhancements the gold lacks, digits as "
    "udeval takes them: 0 all present, 1 gapping, 2 shared parents, 3 shared "
    "dependents, 4 control, 5 external arguments of relative clauses, 6 case "
    "information; 12 = 1 and 2.")]
NoEmptyNodesOpt = Annotated[bool, typer.Option(
    "--no-empty-nodes", help="The empty nodes were collapsed: one left is an error "
    "(without it they are left out of ELAS/EULAS, as udeval).")]
MultipleRootsOpt = Annotated[bool, typer.Option(
    "--multiple-roots-okay", help="A sentence with several roots is a valid tree "
    "(no warning; as udeval's option).")]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="No progress on standard "
                                        "error (bars on a terminal, else a line every "
                                        "10 s).")]


def _emit_json(obj: dict[str, Any]) -> None:
    import json  # (not at start-up: most commands print text)

    sys.stdout.write(json.dumps(obj, indent=2, allow_nan=False) + "\n")


def _warn(lines: Iterable[str]) -> None:
    for w in lines:
        typer.echo(f"warning: {w}", err=True)


def _show(r: Result, as_json: bool) -> None:
    """A result as most commands print it: its warnings, then its JSON or its text."""
    _warn(r.warnings)
    if as_json:
        _emit_json(r.to_dict())
    else:
        sys.stdout.write(str(r))


@app.callback(invoke_without_command=True)
def _root(version: Annotated[bool, typer.Option("--version", help="Print the version.")] = False
          ) -> None:
    if version:
        typer.echo(f"parsebench {__version__}")
        raise typer.Exit()



def _progress(quiet: bool = False, transient: bool = False) -> Any:
    """The command's progress, a context: rich bars on a terminal, plain lines on
    standard error otherwise (a log, CI, a cluster job; every
    $PARSEBENCH_PROGRESS_SECONDS, 10 by default), nothing with --quiet."""
    from parsebench.common.progress import Lines, Quiet

    if quiet:
        return contextlib.nullcontext(Quiet())
    if sys.stderr.isatty():
        return _Bars(transient)
    every = float(os.environ.get("PARSEBENCH_PROGRESS_SECONDS") or 10.0)
    return Lines(sys.stderr, interval=every, first=min(2.0, every), tick=0.5)


class _Bars:
    """Rich progress bars on standard error, one per stage, its total the one it was
    given."""

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
                            transient=transient)
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


def _click_errors() -> tuple[type[Exception], ...]:
    """Click's exception base, as typer carries it (typer 0.2x vendors its own click)."""
    import click

    vendored = [c for c in type.mro(typer.BadParameter) if c.__name__ == "ClickException"]
    return (click.ClickException, *vendored)


def _sqlite_errors() -> type[Exception]:
    """SQLite's error base, imported only when an exception is being matched."""
    import sqlite3

    return sqlite3.DatabaseError


def _just(argv: list[str]) -> typer.Typer:
    """The application with only the command ARGV names (``eval deps``, ``run``), else
    all of it. typer makes every command's click command before it runs one, reading
    each command's signature and evaluating its annotations: 0.06 s of every run, for
    eighteen commands where one is run. A command's help, usage and errors do not name
    its siblings, so they are the same; anything else (no command, an option first, a
    name that is no command, a group without its command) gets the whole application."""
    import copy

    def name_of(c: Any) -> str | None:
        return c.name or (c.callback.__name__.lower().replace("_", "-") if c.callback
                          else None)

    if not argv or argv[0].startswith("-"):
        return app
    for c in app.registered_commands:
        if name_of(c) == argv[0]:
            only = copy.copy(app)
            only.registered_commands, only.registered_groups = [c], []
            return only
    for g in app.registered_groups:
        sub = g.typer_instance
        if g.name != argv[0] or sub is None or len(argv) < 2 or argv[1].startswith("-"):
            continue
        for c in sub.registered_commands:
            if name_of(c) == argv[1]:
                inner = copy.copy(sub)
                inner.registered_commands, inner.registered_groups = [c], []
                group = copy.copy(g)
                group.typer_instance = inner
                only = copy.copy(app)
                only.registered_commands, only.registered_groups = [], [group]
                return only
    return app


def main(argv: list[str] | None = None, own_process: bool = False) -> None:
    """The console script: every error is one line ``parsebench: ...`` with exit status 2
    (bad input and usage errors alike), no traceback for a closed pipe or Ctrl-C.
    OWN_PROCESS (the console script, ``python -m parsebench.cli``): the process ends
    with the command, without the interpreter's teardown."""
    warnings.showwarning = _show_warning
    _deferred.clear()
    try:
        command = _just(sys.argv[1:] if argv is None else argv)
        code = command(args=argv, prog_name="parsebench", standalone_mode=False)
        for line in _deferred:  # the reader's warnings, once the command has gone through
            typer.echo(line, err=True)
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
    code = code if isinstance(code, int) else 0
    if own_process and sys.gettrace() is None and sys.getprofile() is None:
        _leave(code)  # (a profiler or coverage writes its data at the teardown)
    sys.exit(code)


_python_showwarning = warnings.showwarning
_deferred: list[str] = []
"""The reader's warnings of this command, said when it ends well: a command that fails
says one line, its error, not the warnings of the file it then refused."""


def _show_warning(message: Warning | str, category: type[Warning], filename: str,
                  lineno: int, file: Any = None, line: str | None = None) -> None:
    """What the CoNLL-U reader reads where the official scorer refuses the file
    (formats.conllu.ConlluWarning, named so the reader is not imported at start-up) as
    a ``warning:`` line like the commands' own; any other warning as Python shows it."""
    if category.__name__ == "ConlluWarning":
        _deferred.append(f"warning: {message}")
    else:
        _python_showwarning(message, category, filename, lineno, file, line)


def _leave(code: int) -> None:
    """End the process without the interpreter's teardown: by now every store, file,
    worker and pool is closed, and what teardown would still do that matters is to flush
    standard output and error. Freeing a run's modules and objects one by one took 60-100
    ms, a tenth of a cached re-run."""
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:
        code = 1
    os._exit(code)


def _fail(message: str) -> None:
    typer.echo(f"parsebench: {message}", err=True)
    sys.exit(2)


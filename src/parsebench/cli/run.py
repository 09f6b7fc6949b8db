"""``run``, ``demo``, ``report`` and ``export``: an experiment from its file to its report."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from parsebench.cli._app import QuietOpt, _progress, _warn, app


@app.command("run")
def run_cmd(
    experiments: Annotated[list[Path], typer.Argument(
        help="Experiment files (TOML); several share their parsers' models, loaded once.")],
    workers: Annotated[int, typer.Option("--workers", help="Parser processes (local), or "
                                         "Dask workers of a LocalCluster.")] = 1,
    store: Annotated[Path | None, typer.Option(
        "--store", help="SQLite store (default: NAME.sqlite beside the experiment file); "
        "with several experiments, all go into it and its report is written after the "
        "last.")
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
    quiet: QuietOpt = False,
) -> None:
    """Noise, parse, score, store and report experiments; a re-run resumes."""
    _run_and_report(experiments, store, report, executor, workers, scheduler, limit,
                    replicates, quiet)


def _run_and_report(experiments: list[Path], store: Path | None, report: Path | None,
                    executor: str, workers: int, scheduler: str | None,
                    limit: int | None = None, replicates: int | None = None,
                    quiet: bool = False) -> None:
    """``run`` and ``demo``: run, write the report, print the summary and where things are."""
    from parsebench.api.experiments import run_all

    with _progress(quiet) as bars:
        done = run_all(experiments, store=store, report=report, executor=executor,
                       workers=workers, scheduler=scheduler, limit=limit,
                       replicates=replicates, progress=bars)
        for r in done:
            _warn(r.warnings)
    sys.stdout.write("\n".join(map(str, done)))


@app.command("report")
def report_cmd(
    store: Annotated[Path, typer.Argument(help="SQLite store written by parsebench run.")],
    output: Annotated[Path, typer.Option("-o", "--output", help="Report folder.")],
    quiet: QuietOpt = False,
) -> None:
    """Markdown, one self-contained HTML page, plots, CSV and JSON from a store."""
    from parsebench.api.experiments import report

    with _progress(quiet, transient=True) as bars:
        files = report(store, output, progress=bars)
    typer.echo(f"report: {files['html']}", err=True)


@app.command("export")
def export_cmd(
    store: Annotated[Path, typer.Argument(help="SQLite store written by parsebench run.")],
    output: Annotated[Path | None, typer.Option(
        "-o", "--output", help="Folder for the files.")] = None,
    parser: Annotated[str | None, typer.Option("--parser", help="Only this parser.")] = None,
    experiment: Annotated[str | None, typer.Option(
        "--experiment", help="Only this experiment.")] = None,
    leaderboard: Annotated[Path | None, typer.Option(
        "--leaderboard", help="Instead: the benchmark's leaderboard into this folder "
        "(index.html and leaderboard.json: macro and per-treebank figures with "
        "intervals, tiers and signatures).")] = None,
) -> None:
    """The clean and every noisy parse as CoNLL-U (trees: one a line), one file a parser,
    level and replicate, and the per-sentence scores as CSV; or a benchmark's
    leaderboard."""
    from parsebench.common.errors import InputError

    if (output is None) == (leaderboard is None):
        raise InputError("give -o FOLDER (the parses) or --leaderboard FOLDER, one of them")
    if leaderboard is not None:
        from parsebench.api.experiments import leaderboard as board

        if parser is not None:
            raise InputError("--parser: a leaderboard ranks every parser")
        files = board(store, leaderboard, experiment)
        typer.echo(f"leaderboard: {files[-1]} (and {files[0].name})", err=True)
        return
    from parsebench.api.experiments import export

    assert output is not None
    files = export(store, output, parser, experiment)
    typer.echo(f"{len(files)} files under {output}", err=True)


@app.command("demo")
def demo(
    output: Annotated[Path, typer.Option("-o", "--output", help="Folder for the store and "
                                         "the report.")] = Path("demo-output"),
    workers: Annotated[int, typer.Option("--workers", help="Parser processes.")] = 2,
    paper_examples: Annotated[bool, typer.Option(
        "--paper-examples", help="Instead: score the papers' bundled worked examples.")] = False,
    quiet: QuietOpt = False,
) -> None:
    """Run the bundled experiment (Link Grammar on a bundled text) and write its report."""
    from parsebench.api.demo import bundled_experiment, run_paper_examples

    if paper_examples:
        run_paper_examples()
        return
    output.mkdir(parents=True, exist_ok=True)
    with bundled_experiment() as toml:
        _run_and_report([toml], output / "demo.sqlite", output / "report", "local", workers,
                        None, quiet=quiet)



"""``run``, ``demo``, ``report`` and ``export``: an experiment from its file to its report."""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from parsebench.cli._app import _Bars, _warn, app
from parsebench.errors import InputError


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



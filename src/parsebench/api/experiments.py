"""An experiment from its file to its report, as Python calls: ``run`` (noise, parse,
score and store, resumable; ``run_all``, several sharing their parsers), ``report``
(the pages, plots, CSV and JSON of a store) and ``export`` (the parses and per-sentence
scores as files)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from parsebench.common.errors import InputError
from parsebench.common.progress import Progress, quiet
from parsebench.model import arguments as A
from parsebench.model.results import Result
from parsebench.model.scored import Scored

if TYPE_CHECKING:  # the report is imported when a benchmark is run, not before
    from parsebench.report.benchmark import CorpusFigure

PathLike = str | os.PathLike[str]


@dataclass(frozen=True)
class RunResult(Result):
    """``run``'s result: ``str(r)`` is what the command prints at the end; ``.results``
    every figure the run holds (:class:`parsebench.model.scored.Scored`: ``r.parser``,
    ``r.method``, ``r.level``, ``r.value``...); ``.store`` and ``.report`` where they
    are."""

    results: list[Scored] = field(default_factory=list, repr=False)

    def rows(self) -> list[dict[str, Any]]:
        """One row a figure's measure of every result (:meth:`Scored.rows`), then the
        run's own figures (sentences parsed, seconds) with no parser."""
        own = [{"parser": None, "method": "run", "projection": None, "level": None, **r}
               for r in super().rows()]
        return [r for s in self.results for r in s.rows()] + own

    def to_pandas(self) -> Any:
        from parsebench.model.results import dataframe
        from parsebench.model.scored import ROW_COLUMNS

        return dataframe(self.rows(), list(ROW_COLUMNS))


@A.checked(experiment=A.path, store=A.optional(A.path), report=A.optional(A.path),
           executor=A.text, workers=A.limited, scheduler=A.optional(A.text),
           limit=A.optional(A.limited), replicates=A.optional(A.limited), progress=A.progress)
def run(experiment: PathLike, *, store: PathLike | None = None,
        report: PathLike | None = None, executor: str = "local", workers: int = 1,
        scheduler: str | None = None, limit: int | None = None,
        replicates: int | None = None, progress: Progress | None = None) -> RunResult:
    """Noise, parse, score, store and report the EXPERIMENT file (TOML); a re-run
    resumes, reusing every stored parse and score. STORE defaults to NAME.sqlite beside
    the file, REPORT to NAME-report beside the store. LIMIT and REPLICATES make a small
    version, stored under its own name so that it never replaces the full run.
    ``wall_seconds`` is the whole call's time, the report's writing included, and
    ``times`` where it went, a stage a line."""
    return run_all(experiment, store=store, report=report, executor=executor,
                   workers=workers, scheduler=scheduler, limit=limit,
                   replicates=replicates, progress=progress)[0]


@A.checked(experiments=A.paths, store=A.optional(A.path), report=A.optional(A.path),
           executor=A.text, workers=A.limited, scheduler=A.optional(A.text),
           limit=A.optional(A.limited), replicates=A.optional(A.limited), progress=A.progress)
def run_all(experiments: PathLike | Sequence[PathLike], *, store: PathLike | None = None,
            report: PathLike | None = None, executor: str = "local", workers: int = 1,
            scheduler: str | None = None, limit: int | None = None,
            replicates: int | None = None, progress: Progress | None = None
            ) -> list[RunResult]:
    """``run`` of each of the EXPERIMENTS files in turn, their parser workers shared: a
    parser that several name (the same spec, timeout and batch size) loads its model
    once, not once an experiment. Every file is read and checked before the first
    runs. With STORE, all go into it (a parse one made is reused by the next from the
    store) and its REPORT (default: STORE's name with ``-report``), of them all, is
    written once, after the last; without, each goes into its own store and report, as
    ``run`` puts them."""
    import time

    from parsebench.parsers.executor import Executor

    t0 = time.perf_counter()  # before the imports, which take a second or two
    files = cast("list[PathLike]", experiments)  # the argument check made it a list
    if store is not None and report is None and len(files) > 1:  # one report of them all
        report = Path(store).with_name(Path(store).stem + "-report")
    planned = [_planned(Path(p), store, report, limit, replicates) for p in files]
    ex = Executor(executor, workers, scheduler)
    out = []
    # several: the workers kept from one experiment to the next; one: a run ends each
    # parser's workers when it is done with them, holding one parser's at a time
    with ex if len(planned) > 1 else contextlib.nullcontext(ex):
        for i, (exp, store_path, report_dir) in enumerate(planned):
            out.append(_run_one(exp, store_path, report_dir, ex, progress, t0,
                                store is None or i == len(planned) - 1))
            t0 = time.perf_counter()
    return out


def _planned(path: Path, store: PathLike | None, report: PathLike | None,
             limit: int | None, replicates: int | None) -> tuple[Any, Path, Path]:
    """The experiment of PATH (made small by LIMIT and REPLICATES), its store and its
    report folder, checked: each is refused before any run, which may take hours."""
    from parsebench.common.errors import check_folder, check_output
    from parsebench.present.tables import safe_name
    from parsebench.run.benchmark import Benchmark, load_any

    exp = load_any(path)
    store_path = Path(store) if store is not None else \
        path.with_name(safe_name(exp.name) + ".sqlite")
    report_dir = Path(report) if report is not None else \
        store_path.with_name(safe_name(exp.name) + "-report")
    if not store_path.exists():
        check_output(store_path)
    elif store_path.is_dir():
        raise InputError("is a directory; give a file name for the store", store_path)
    check_folder(report_dir)
    if limit is not None or replicates is not None:
        for one in [e for _, e in exp.corpora] if isinstance(exp, Benchmark) else [exp]:
            one.limit = min(limit, one.limit or limit) if limit is not None else one.limit
            one.replicates = replicates or one.replicates
        first = exp.corpora[0][1] if isinstance(exp, Benchmark) else exp
        suffix = f" (limit {first.limit}, {first.replicates} replicates)"
        if isinstance(exp, Benchmark):
            exp.rename(exp.name + suffix)
        else:
            exp.name += suffix
    return exp, store_path, report_dir


def _run_one(exp: Any, store_path: Path, report_dir: Path, ex: Any,
             progress: Progress | None, t0: float, write_report: bool) -> RunResult:
    """``run`` of the experiment EXP into STORE_PATH with the executor EX, its time
    counted from T0; without WRITE_REPORT, the report is left to a later run into the
    same store."""
    import time

    from parsebench.noise.kinds import moves_words
    from parsebench.report.terminal import summary_table, times_table
    from parsebench.run.benchmark import Benchmark
    from parsebench.run.runner import run_experiment
    from parsebench.run.score import applicability

    new_store = not store_path.exists()
    if isinstance(exp, Benchmark):
        return _run_benchmark(exp, store_path, report_dir, ex, new_store, progress, t0,
                              write_report)
    outcome, files, info, warnings, tr = _run_and_report(
        lambda st: run_experiment(exp, st, ex, progress), store_path, report_dir,
        new_store, progress, write_report)
    end = time.perf_counter()
    wall = end - t0
    # to the end, as the progress lines time the stage: it ends when the run does
    stages = _closed([*(outcome.stats.stages or [])], end - tr if write_report else None,
                     wall, "opening the store")
    text = summary_table(outcome.results)
    if exp.tokens == "raw":
        skipped = [k for k, v in applicability(moves_words(exp.kind, exp.noise), "raw").items()
                   if v.startswith("not ")]
        text += (f"\ntokens = \"raw\": {', '.join(skipped)} do not apply (they compare "
                 "parses of the same words); deps scores by character alignment\n")
    elif moves_words(exp.kind, exp.noise):
        skipped = [k for k, v in applicability(True).items() if v.startswith("not ")]
        text += (f"\nnoise of kind {exp.kind}: {', '.join(skipped)} do not apply (the "
                 "words change); the others score through the errors' alignment\n")
    text += (f"\nrun {outcome.run_id}: {info['parsed']} sentences parsed, "
             f"{info['cached']} from the cache\n"
             + times_table(stages, wall, "the report written" if write_report else "its end")
             + f"store: {store_path}\n" + _where(files, write_report))
    data = {"experiment": exp.name, "run": outcome.run_id, "store": str(store_path),
            "report": {k: str(v) for k, v in files.items()},
            "parsed": info["parsed"], "cached": info["cached"],
            "wall_seconds": wall,
            "times": [{"stage": n, "seconds": s, "remark": r} for n, s, r in stages],
            "results": [r.to_dict() for r in outcome.results]}
    return RunResult("run", data, lambda: text, tuple(warnings), outcome.results)


@dataclass(frozen=True)
class BenchmarkResult(RunResult):
    """``run``'s result for an experiment over several corpora: ``.per_corpus`` and
    ``.macro`` (:class:`CorpusFigure`), ``.tests`` (each level's paired tests on the
    macro average), and ``to_pandas()``, a row a corpus x parser x figure (the macro
    average's rows with corpus ``macro``)."""

    per_corpus: list[CorpusFigure] = field(default_factory=list, repr=False)
    macro: list[CorpusFigure] = field(default_factory=list, repr=False)

    def rows(self) -> list[dict[str, Any]]:
        out = []
        for f in [*self.per_corpus, *self.macro]:
            lo, hi = f.ci95 or (None, None)
            out.append({"corpus": f.corpus, "lang": f.lang, "parser": f.parser,
                        "figure": f.figure, "level": f.level, "value": f.value,
                        "ci_low": lo, "ci_high": hi, "rank": f.rank, "tier": f.tier or ""})
        return out

    def to_pandas(self) -> Any:
        from parsebench.model.results import dataframe

        return dataframe(self.rows(), ["corpus", "lang", "parser", "figure", "level",
                                       "value", "ci_low", "ci_high", "rank", "tier"])


def _run_and_report(work: Any, store_path: Path, report_dir: Path, new_store: bool,
                    progress: Progress | None, write: bool = True
                    ) -> tuple[Any, Any, Any, list[str], float]:
    """WORK (a run or a benchmark, given the locked store) then the report (unless not
    to WRITE it: then its files are those a later run writes): its outcome, the
    report's files, the run's record, the store's warnings and when the report began.
    A store this call made is removed again when the work fails before it holds
    anything."""
    import time

    from parsebench.report.pages import report_files, write_report
    from parsebench.store import Store

    try:
        with Store(store_path) as st:
            st.lock_for_run()
            outcome = work(st)
            began = time.perf_counter()
            if write:
                bar = progress or quiet()
                bar.stage("write the report", 1)
                files = write_report(st, report_dir)
                bar.advance()
            else:
                files = report_files(report_dir)
            info = st.run_info(outcome.run_id)
            warnings = list(st.warnings)
    except BaseException:
        if new_store:
            _drop_if_empty(store_path)
        raise
    return outcome, files, info, warnings, began


def _run_benchmark(bench: Any, store_path: Path, report_dir: Path, ex: Any,
                   new_store: bool, progress: Progress | None, t0: float,
                   write_report: bool) -> BenchmarkResult:
    """``run`` of a benchmark: each corpus's run, then the macro averages, the report."""
    import time

    from parsebench.report.benchmark import CorpusFigure, benchmark_text, summarize_benchmark
    from parsebench.report.terminal import times_table
    from parsebench.run.benchmark import run_benchmark

    outcome, files, info, warnings, tr = _run_and_report(
        lambda st: run_benchmark(bench, st, ex, progress), store_path, report_dir,
        new_store, progress, write_report)
    end = time.perf_counter()
    s = summarize_benchmark(info["config"], outcome.results)
    macro = [CorpusFigure("macro", None, x.parser, x.level, x.figure, x.value, x.ci95,
                          x.rank, x.tier) for x in s.macro]
    wall = end - t0
    text = (benchmark_text(s) + f"\n{len(bench.corpora)} corpora, "
            f"{outcome.stats.parsed:,} sentences parsed in this run\n"
            + times_table(_benchmark_stages(outcome, end - tr, wall), wall)
            + f"store: {store_path}\n" + _where(files, write_report))
    data = {"experiment": bench.name, "run": outcome.run_id, "store": str(store_path),
            "report": {k: str(v) for k, v in files.items()},
            "corpora": [{"corpus": c, "run": r, "parsed": st.parsed}
                        for c, r, st in outcome.runs],
            "parsed": outcome.stats.parsed,
            "wall_seconds": wall, "summary": s.to_dict(),
            "results": [r.to_dict() for r in outcome.results]}
    return BenchmarkResult("run", data, lambda: text, tuple(warnings), outcome.results,
                           s.per_corpus, macro)


def _where(files: dict[str, Path], written: bool) -> str:
    """The line that says where the report is (or will be, after the last experiment
    into the same store)."""
    return (f"report: {files['html']} (and {files['markdown'].name}, {files['csv'].name}, "
            f"{files['json'].name})" + ("" if written else ", written after the last "
                                        "experiment into this store") + "\n")


def _benchmark_stages(outcome: Any, report: float, wall: float) -> list[list[Any]]:
    """Where a benchmark's time went: each stage summed over the corpora (as a run's
    time block names them), the macro averages, the report, and the rest."""
    summed: dict[str, float] = {}
    for _, _, st in outcome.runs:
        for name, secs, _ in st.stages or []:
            summed[name] = summed.get(name, 0.0) + float(secs)
    n = len(outcome.runs)
    stages: list[list[Any]] = [[name, secs, f"over {n} corpora" if n != 1 else ""]
                               for name, secs in summed.items()]
    runs = sum(st.wall_seconds for _, _, st in outcome.runs)
    stages.append(["macro averages", max(outcome.stats.wall_seconds - runs, 0.0),
                   "every figure's average, interval and paired tests"])
    return _closed(stages, report, wall, "opening the store, each corpus's bookkeeping")


def _closed(stages: list[list[Any]], report: float | None, wall: float, rest: str
            ) -> list[list[Any]]:
    """STAGES with the report's writing (unless it was left to a later run: None) and the
    rest of WALL (REST: what it holds), so that the time block adds up to the whole, a
    run's and a benchmark's alike."""
    if report is not None:
        stages = [*stages, ["write the report", report, ""]]
    other = wall - sum(x[1] for x in stages)
    return [*stages, ["other", max(other, 0.0), f"the imports, reading the experiment, {rest}"]]


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


@A.checked(store=A.path, out_dir=A.path, progress=A.progress)
def report(store: PathLike, out_dir: PathLike, progress: Progress | None = None
           ) -> dict[str, Path]:
    """Markdown, one self-contained HTML page, plots, CSV and JSON from a STORE written
    by ``run``, into OUT_DIR; the files written, by kind (html, markdown, csv, json)."""
    from parsebench.report.pages import write_report
    from parsebench.store import open_existing

    with open_existing(Path(store)) as st:  # (a store that is not one: no work begun)
        bar = progress or quiet()
        bar.stage("write the report", 1)
        files = write_report(st, Path(out_dir))
        bar.advance()
        return files


@A.checked(store=A.path, out_dir=A.path, experiment=A.optional(A.text))
def leaderboard(store: PathLike, out_dir: PathLike, experiment: str | None = None
                ) -> list[Path]:
    """A benchmark's leaderboard (``export --leaderboard``): OUT_DIR/index.html, a static
    page, and OUT_DIR/leaderboard.json, the macro and per-treebank figures with their
    intervals, tiers from the paired tests and each figure's signature; the files
    written. EXPERIMENT: the benchmark, where the store holds several."""
    from parsebench.report.leaderboard import write_leaderboard
    from parsebench.store import open_existing

    with open_existing(Path(store)) as st:
        return write_leaderboard(st, Path(out_dir), experiment)


@A.checked(store=A.path, out_dir=A.path, parser=A.optional(A.text),
           experiment=A.optional(A.text))
def export(store: PathLike, out_dir: PathLike, parser: str | None = None,
           experiment: str | None = None) -> list[Path]:
    """The clean and every noisy parse as CoNLL-U (trees: one a line), one file a
    parser, level and replicate, and the per-sentence scores as CSV, under
    OUT_DIR/EXPERIMENT/; the files written."""
    from parsebench.report.export import export as write
    from parsebench.store import open_existing

    with open_existing(Path(store)) as st:
        return write(st, Path(out_dir), parser, experiment)

"""``parsebench report``: the store's results as Markdown, one HTML page, CSV and JSON.

Every table is built once as a :class:`~parsebench.report.tables.Table` and rendered
twice (Markdown, HTML), so both show the same numbers; the sections come from
:mod:`parsebench.report.sections`. Each experiment opens on its summary
(:mod:`parsebench.report.summary`): the answers, each linked to the table or plot it
comes from. The HTML page is self-contained: plots are embedded as SVG, the
style is inline; the only script is the sentence browser's.
"""

from __future__ import annotations

import base64
import csv
import html
import json
import shutil
import sqlite3
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TextIO

from parsebench.common.errors import InputError, atomic_output, check_folder
from parsebench.common.record import OMIT, Record, plain
from parsebench.model.scored import Scored
from parsebench.noise.kinds import KINDS, described, moves_words
from parsebench.present import anchor
from parsebench.present.plots import Drawing
from parsebench.present.tables import Table, safe_name
from parsebench.report.benchmark import BenchmarkSummary, is_benchmark
from parsebench.report.browser import SCRIPT, html_of, merge
from parsebench.report.browser import STYLE as BROWSER_STYLE
from parsebench.report.colours import for_parsers
from parsebench.report.corpus_pages import (
    FOLDER,
    CorpusPage,
    corpus_page,
    corpus_pages,
    links_section,
)
from parsebench.report.headline import headline, noise_caveat
from parsebench.report.headline_records import Headline
from parsebench.report.plots import draw, drawings, kept
from parsebench.report.sections import sections
from parsebench.report.sketch import sketch
from parsebench.report.summary import baselines_of, pairwise_tests, summarize
from parsebench.report.summary_page import summary_html, summary_md, warnings_html, warnings_md
from parsebench.report.summary_records import FigureTest, Summary
from parsebench.report.tables import md_cell, table_html, table_md
from parsebench.run.benchmark_values import BenchmarkRecord
from parsebench.run.experiment import Experiment, ParserConf
from parsebench.run.page_values import typed_result
from parsebench.run.run_stats import BenchmarkStats, RunStats
from parsebench.store import Store


@dataclass(frozen=True)
class RunInfo(Record):
    """The record of the run that wrote an experiment's results (:meth:`Store.run_info`),
    as results.json's ``run`` writes it: with the noise's operations and the earlier
    runs of the experiment where the report adds them. Its ``config`` is the run's
    stored settings, read by key; its ``stats`` what the run measured (an experiment's
    or a benchmark's: :mod:`parsebench.run.run_stats`)."""

    id: int
    experiment: str
    config: dict[str, Any]
    started: Any
    finished: Any
    parsed: int | None
    cached: int | None
    stats: RunStats | BenchmarkStats | None
    operations: list[list[str]] | None = field(default=None, metadata=OMIT)
    earlier: list[RunInfo] | None = field(default=None, metadata=OMIT)


TRAINED_NAMES = {"udpipe": "UDPipe 1", "malt": "MaltParser", "yara": "Yara",
                 "mst": "MSTParser", "mate": "Mate", "turbo": "TurboParser",
                 "tweebo": "TweeboParser"}
"""The parsers ``spec = "NAME:train"`` trains, as the Run table names them."""

def _levels_text(labels: list[str]) -> str:
    return ", ".join(labels) or "none"


def _parsers_text(parsers: list[ParserConf]) -> str:
    return ", ".join(f"{p.name} ({p.shown})" for p in parsers)


def _run_table(info: RunInfo, exp: Experiment) -> Table:
    """The Run table of an experiment's part: its settings (EXP, restored from the run's
    record) and what the run measured."""
    stats = info.stats
    unit = "documents" if exp.tokens == "raw" else "sentences"
    rows = [["corpus", " + ".join(map(str, exp.corpus))],
            ["noise levels", _levels_text([lv.label for lv in exp.levels])],
            ["noise", described(exp.kind, exp.noise) if exp.levels or exp.natural
             else "none: the clean text only"],
            ["replicates, first seed", f"{exp.replicates}, {exp.seed}"],
            ["parsers", _parsers_text(exp.parsers)],
            # a raw-text run gives each parser a document at a time, not a sentence
            [f"{unit} parsed in this run", _per_parser(info, "parsed")],
            [f"{unit} from the cache", _per_parser(info, "cached")]]
    if stats is not None:
        rows.append(["wall time", f"{stats.wall_seconds:.1f} s ({stats.workers} "
                                  f"worker(s), {stats.executor})"])
    if isinstance(stats, RunStats):
        for name, ps in stats.parsers.items():
            hits = ps.cache_hits
            rows.append([f"{name}: words parsed / naive",
                         f"{ps.parsed_words:,} / {ps.naive_words:,}"])
            rows.append([f"{name}: distinct {unit}, cache hits",
                         f"{ps.distinct_sentences:,}, {hits:,} "
                         f"({100 * hits / max(1, ps.distinct_sentences):.1f}%)"])
            rows.append([f"{name}: parse wall time", f"{ps.wall_seconds:.1f} s"])
            if (t := ps.trained) is not None:
                what = TRAINED_NAMES.get(t.parser or "udpipe", t.parser)
                rows.append([f"{name}: trained here", f"{what} on {t.train} "
                             f"({t.sentences:,} sentences" + (
                                 f", {t.iterations} iteration(s)"
                                 + (" a stage" if t.parser is None else "")
                                 if t.iterations else ", the parser's own iterations")
                             + f"; {t.seconds} s, or from the cache)"])
    rows += info.operations or []
    tokens = exp.tokens
    if tokens == "raw":
        rows.append(["tokens", "raw: each parser tokenized each document's text itself "
                     "and found its sentences (# newdoc; each sentence's text alone "
                     "where the corpus marks no document); its words and sentences are "
                     "scored against the gold's by character alignment, as the CoNLL "
                     "2018 scorer does"])
    moves = moves_words(exp.kind, exp.noise)
    if moves or tokens == "raw":
        from parsebench.run.score import applicability

        rows += [[f"method {name}", what]
                 for name, what in applicability(moves, tokens).items()]
    for e in info.earlier or ():
        wall = None if e.stats is None else e.stats.wall_seconds
        rows.append([f"earlier run {e.id}", f"{e.parsed:,} parsed, {e.cached:,} from "
                     f"the cache" + (f", {wall:.1f} s" if wall is not None else "")])
    return Table("Run", ["setting", "value"], rows, numeric=False)


def _per_parser(info: RunInfo, which: str) -> str:
    """The run's count of distinct sentences parsed (or taken from the cache), and each
    parser's share of it when the run says."""
    total = info.parsed if which == "parsed" else info.cached
    parsers = info.stats.parsers if isinstance(info.stats, RunStats) else {}
    parts = [f"{name} {ps.parsed_sentences if which == 'parsed' else ps.cache_hits:,}"
             for name, ps in parsers.items()]
    head = "n/a" if total is None else f"{total:,}"
    return head + (f" ({', '.join(parts)})" if len(parts) > 1 else "")


def _operations(store: Store, info: RunInfo) -> list[list[str]]:
    """The Run table's rows on the noise its kind gives (the misspellings' operations,
    asked and realised at each level), from the noisy versions stored."""
    from parsebench.model.level import level_order
    from parsebench.noise.keyboard import Keyboard

    digest = info.stats.corpus if isinstance(info.stats, RunStats) else None
    if not isinstance(digest, str):
        return []
    try:
        exp = Experiment.from_config(info.config)
        kind = KINDS[exp.kind]
        key = kind.key(exp, Keyboard.load(exp.keyboard or "us-qwerty"))
    except (InputError, OSError, TypeError, ValueError):
        return []  # a record this parsebench cannot read back: no rows rather than wrong ones
    seeds = range(exp.seed, exp.seed + exp.replicates)
    levels = {lv.label for lv in exp.levels}
    changes: dict[str, list[Any]] = {}
    for level, seed, made in store.noisy_changes(digest, key):
        if level in levels and seed in seeds:
            changes.setdefault(level, []).extend(made)
    return kind.rows(exp.noise, {k: changes[k] for k in sorted(changes, key=level_order)})


def collect(store: Store) -> list[RunInfo]:
    """The record of each experiment with results (the run that wrote them), a
    benchmark's first; each experiment's results are read when its part of the report is
    built (:func:`_build_page`), one experiment at a time, so that the report's memory
    does not grow with a benchmark's corpora beyond the text it writes."""
    out = []
    for name, run in store.experiments():
        info = RunInfo.from_dict(store.run_info(run))
        out.append(replace(info, operations=_operations(store, info),
                           earlier=[RunInfo.from_dict(e)
                                    for e in store.earlier_runs(name, run)]))
    # a benchmark's macro averages first, then each corpus's (and any other) experiment
    out.sort(key=lambda x: not is_benchmark(x.config))
    if not out:
        raise InputError("the store has no results yet; run parsebench run first", store.path)
    return out


STYLE = """body{font-family:system-ui,sans-serif;max-width:1180px;margin:2em auto;
padding:0 1em;color:#222}
.tablewrap{max-width:100%;overflow-x:auto}
table{border-collapse:collapse;margin:1em 0;font-size:13px}caption{text-align:left;
font-weight:bold;padding:4px 0}td,th{border:1px solid #ccc;padding:3px 7px;text-align:left}
th{background:#f3f3f3;white-space:normal;vertical-align:bottom}
td{white-space:nowrap}td.num{text-align:right;font-variant-numeric:tabular-nums}
td .ci{color:#666;font-size:12px}td .mark{color:#2a6f97;font-weight:bold}
table.stacked td .ci{display:block}
table.settings td{white-space:normal;max-width:900px;overflow-wrap:anywhere}
ul.notes{font-size:12px;color:#555;overflow-wrap:anywhere}ul.warnings{overflow-wrap:anywhere}
td.miss{background:#ffe08a;font-weight:bold}.drawn{overflow-x:auto;max-width:100%}
td.changed{background:#f8b4b4}
figure{margin:1em 0}figcaption{font-size:13px;color:#444}img{max-width:100%;height:auto}
section.summary{border:1px solid #bbb;background:#fafafa;padding:.5em 1em;margin:1em 0}
section.summary li{margin:.4em 0}
.ranking{max-width:650px;margin:.3em 0;font-size:12px}
.rk{display:grid;grid-template-columns:minmax(4em,150px) minmax(60px,1fr) 3.6em 3.2em;
gap:0 8px;align-items:center;min-height:20px}
.rk .who{text-align:right;overflow-wrap:anywhere}
.rk .who i{display:inline-block;width:9px;height:9px;border-radius:2px;margin-right:4px}
.rk .scale{position:relative;height:16px}.rk b{position:absolute}
.rk b.iv{top:7px;height:2px}.rk b.pt{top:4px;width:8px;height:8px;border-radius:50%;
margin-left:-4px}.rk .val{text-align:right;font-variant-numeric:tabular-nums}
.rk .letters{color:#555}.rk.axis .scale{display:flex;justify-content:space-between;
color:#777;height:auto}
.drawn svg text.tag{fill:#2a6f97;font-size:11px}
@media (max-width:600px){table.stacked,table.stacked caption,table.stacked tbody,
table.stacked tr,table.stacked td{display:block}table.stacked thead{display:none}
table.stacked tr{border:1px solid #ccc;margin:0 0 .5em}table.stacked td{border:0;
border-top:1px solid #eee;white-space:normal;overflow:hidden}
table.stacked td:first-child{background:#f3f3f3;font-weight:bold;border-top:0}
table.stacked td[data-label]:not(:first-child)::before{content:attr(data-label);
float:left;margin-right:1em;font-weight:bold;color:#444}}"""


def _csv_rows(results: list[Scored], experiment: str) -> list[list[str]]:
    out = []

    def walk(prefix: str, v: Any, r: Scored) -> None:
        if isinstance(v, dict):
            for k, x in v.items():
                walk(f"{prefix}.{k}" if prefix else k, x, r)
        elif isinstance(v, (int, float)) and not isinstance(v, bool):
            out.append([experiment, r.parser, r.method, r.projection, r.level,
                        prefix, repr(v)])

    for r in results:
        if r.method != "examples":
            walk("", {k: x for k, x in plain(r.value).items() if k != "replicates"}, r)
    return out


DAMAGE = (sqlite3.DatabaseError, ValueError, KeyError, TypeError, AttributeError,
          IndexError)
"""What reading a damaged or crafted store raises: JSON that does not parse (a
ValueError), text that is not UTF-8, values of the wrong type or missing keys."""


def _record(r: Scored) -> dict[str, Any]:
    """R as results.json writes it (its fields by name): its value's JSON, the statistics
    last, as the store gives them back (a record puts them where the run does)."""
    value = plain(r.value)
    if isinstance(value, dict) and "stats" in value:
        value["stats"] = value.pop("stats")
    return {"parser": r.parser, "metric": r.method, "projection": r.projection,
            "level": r.level, "signature": r.signature, "value": value}


def _run_json(info: RunInfo, results: list[Scored], summary: Record) -> str:
    """One run's part of results.json: its settings and summary, then a result a line.
    Python's JSON encoder is in C only without indentation: indented, this took 0.6 s of
    a cached re-run's 1.5 s and tripled the file."""
    def line(x: Any) -> str:
        return json.dumps(x, ensure_ascii=False)

    records = ",\n".join(line(_record(r)) for r in results if r.method != "browser")
    return (f'{{"run": {line(info.to_dict())},\n "summary": {line(summary.to_dict())},\n'
            f' "results": [\n{records}\n]}}')


DRAWINGS = ".drawings"
"""The report folder's plots as drawn, kept to be reused (:class:`plots.Drawings`)."""


def report_files(outdir: Path) -> dict[str, Path]:
    """The files of a report in OUTDIR, by kind: what :func:`write_report` returns."""
    return {"markdown": outdir / "index.md", "html": outdir / "index.html",
            "csv": outdir / "results.csv", "json": outdir / "results.json"}


def write_report(store: Store, outdir: str | Path) -> dict[str, Path]:
    """Write index.md, index.html, results.csv, results.json and plots/*.png into OUTDIR.

    What grows with the store (results.csv, results.json, a benchmark's corpus pages) is
    written as it is built, into a folder beside OUTDIR, and moved into place only when
    all is built: memory holds one experiment at a time however many a benchmark has,
    and a store that cannot be read leaves no half report (and no empty plots folder)
    behind; what the store holds is escaped everywhere it goes into HTML or Markdown.
    """
    outdir = check_folder(outdir)
    stage = _stage(outdir)
    try:
        try:
            data = collect(store)
            with drawings(outdir / DRAWINGS) as drawn:
                md, page, images = _build(store, data, stage)
            for text in (md, page):
                text.encode("utf-8")  # a lone surrogate from crafted JSON cannot be written
        except DAMAGE as exc:
            raise InputError(f"the store's results cannot be read ({type(exc).__name__}: "
                             f"{' '.join(str(exc).split())[:120]}); it is damaged, or was "
                             "not written by parsebench", store.path) from None
        outdir.mkdir(parents=True, exist_ok=True)
        if images:
            (outdir / "plots").mkdir(exist_ok=True)
        for fname, png in images:
            _write_bytes(outdir / "plots" / fname, png)
        files = report_files(outdir)
        for kind, text in (("markdown", md), ("html", page)):
            with atomic_output(files[kind]) as fh:
                fh.write(text)
        for built in sorted(stage.rglob("*"), key=lambda x: len(x.parts)):
            target = outdir / built.relative_to(stage)
            if built.is_dir():
                target.mkdir(exist_ok=True)
            else:
                shutil.move(built, target)
        drawn.save(outdir / DRAWINGS)
    finally:
        shutil.rmtree(stage, ignore_errors=True)
    return files


def _stage(outdir: Path) -> Path:
    """A new folder for the report's growing files: beside OUTDIR (a move into it is a
    rename), else in the temporary folder."""
    try:
        return Path(tempfile.mkdtemp(prefix=f".{outdir.name}.", dir=outdir.parent))
    except OSError:
        return Path(tempfile.mkdtemp(prefix="parsebench-report-"))


Built = tuple[str, str, list[tuple[str, bytes]]]
"""The Markdown, the HTML page and the plots (file name, PNG); results.csv,
results.json and a benchmark's corpus pages are written into the staging folder."""


def _write_page(folder: Path, p: CorpusPage) -> None:
    """A corpus's page into FOLDER, each file whole or not at all."""
    (folder / "plots").mkdir(parents=True, exist_ok=True)
    for fname, data in p.images:
        _write_bytes(folder / "plots" / fname, data)
    for ext, text in ((".md", p.md), (".html", p.html)):
        with atomic_output(folder / (p.stem + ext)) as fh:
            fh.write(text)


def _build(store: Store, data: list[RunInfo], stage: Path) -> Built:
    """The report of each experiment of DATA (their records), each parser in one colour
    throughout (in the order the parsers first appear in the store's results); what
    grows with the store written into STAGE as it comes."""
    parsers = [p for info in data for p in store.parsers_of(info.experiment)]
    with for_parsers(dict.fromkeys(parsers)), \
            (stage / "results.csv").open("w", encoding="utf-8", newline="") as csv_fh, \
            (stage / "results.json").open("w", encoding="utf-8") as json_fh:
        return _build_page(store, data, stage, csv_fh, json_fh)


def _build_page(store: Store, data: list[RunInfo], stage: Path, csv_fh: TextIO,
                json_fh: TextIO) -> Built:
    md: list[str] = ["# parsebench report", ""]
    body: list[str] = ["<h1>parsebench report</h1>"]
    w = csv.writer(csv_fh, lineterminator="\n")
    w.writerow(["experiment", "parser", "metric", "projection", "level", "key", "value"])
    images: list[tuple[str, bytes]] = []
    json_fh.write("[\n")
    runs = 0

    def run_json(text: str) -> None:
        nonlocal runs
        json_fh.write((",\n" if runs else "") + text)
        runs += 1

    browsers = 0
    corpora = corpus_pages(data)
    links: list[tuple[str, str]] = []
    for info in data:
        name = info.experiment
        prefix = anchor(name) + "--"
        try:
            all_results = [typed_result(r) for r in store.results(name)]
        except InputError as e:  # a value that does not read: the store is the file
            raise InputError(e.message, e.path or store.path) from None
        if is_benchmark(info.config):
            bmd, bhtml, bsummary, bimages = _benchmark_section(info, all_results, prefix)
            md += bmd
            body += bhtml
            images += bimages
            run_json(_run_json(info, all_results, bsummary))
            w.writerows(_csv_rows(all_results, name))
            continue
        part = _experiment(store, info, all_results, prefix,
                           browsers if name not in corpora else 0,
                           sketch if name in corpora else draw)
        w.writerows(_csv_rows(part.results, name))
        run_json(_run_json(info, part.results, part.summary))
        if name in corpora:  # a benchmark's corpus: a page of its own, linked, written
            _write_page(stage / FOLDER, corpus_page(name, part.md, part.body, part.images,
                                                    _shell))
            links.append((name, corpora[name]))
        else:
            md += part.md
            body += part.body
            images += part.images
            browsers += part.browsers
        del all_results, part  # one experiment's results in memory at a time
    if links:
        lmd, lhtml = links_section(links)
        md += lmd
        body.append(lhtml)
    json_fh.write("\n]\n")
    return "\n".join(md) + "\n", _shell("parsebench report", body), images


@dataclass
class _Part:
    """One experiment's part of a page: its Markdown and HTML, its plots' files, its
    summary and results, and the sentence browsers it holds."""

    md: list[str]
    body: list[str]
    images: list[tuple[str, bytes]]
    summary: Summary
    results: list[Scored]
    browsers: int


def _experiment(store: Store, info: RunInfo, all_results: list[Scored], prefix: str,
                browsers: int, draw_plot: Callable[[Drawing], Any]) -> _Part:
    """The part of the page of experiment INFO (its results ALL_RESULTS): its summary,
    settings, every method's sections with the plots they ask for drawn by DRAW_PLOT,
    its warnings and sentence browser (the page's BROWSERS-th)."""
    name = info.experiment
    md: list[str] = []
    body: list[str] = []
    images: list[tuple[str, bytes]] = []
    extension = ".png" if draw_plot is draw else ".svg"
    # the browser's data goes into the page only, not into the tables, CSV or JSON
    results = [r for r in all_results if r.method != "browser"]
    # what the results are: the resampling is kept by it
    digest = store.results_digest(name)
    tests = [FigureTest.from_dict(t) for t in kept(
        ("pairwise tests", digest), lambda rs: plain(pairwise_tests(rs)), results)]
    try:
        exp = Experiment.from_config(info.config)
    except InputError as e:  # a kind of noise this parsebench does not have
        raise InputError(e.message, e.path or store.path) from None
    baselines = baselines_of(exp.parsers)
    summary = summarize(results, tests, baselines)
    base = summary.baseline
    best = None if base is None else base.baseline
    below = set() if base is None else {v.parser for v in base.not_beating}
    head = kept(("headline", digest, baselines, best, sorted(below)),
                lambda *a: plain(headline(*a)), results, tests, baselines, best, below)
    if head:
        summary = replace(summary, headline=Headline.from_dict(head),
                          noise_caveat=noise_caveat(info.config))
    run_table = _run_table(info, exp)
    md += [f"## {md_cell(name)}", "", *summary_md(summary, prefix),
           table_md(run_table, prefix), ""]
    body += [f"<h2 id='{prefix[:-2]}'>{html.escape(name)}</h2>",
             summary_html(summary, prefix), table_html(run_table, prefix)]
    for sec in sections(results, tests, baselines):
        md += [f"### {md_cell(sec.title)}", ""]
        body.append(f"<h3>{html.escape(sec.title)}</h3>")
        for t in sec.tables:
            md += [table_md(t, prefix), ""]
            body.append(table_html(t, prefix))
        for fname, caption, request in sec.images:
            lines, figure, image = _figure(name, prefix, fname, caption,
                                           draw_plot(request), True, extension)
            md += lines
            body.append(figure)
            images.append(image)
        md += sec.md_extra + ([""] if sec.md_extra else [])
        body += sec.html_extra
    md += warnings_md(summary, prefix)
    body.append(warnings_html(summary, prefix))
    merged = merge([(r.parser, r.value) for r in all_results
                    if r.method == "browser"])
    if merged is not None:
        title = "Sentence browser"
        note = ("Every sentence of every noisy version and parser: filter them, then "
                "click a row to draw its clean and noisy parse.")
        md += [f"### {title}", "", note + " It is in index.html (it needs the page's "
               "script).", ""]
        body += [f"<h3>{title}</h3><p>{html.escape(note)}</p>",
                 html_of(merged, browsers)]
    return _Part(md, body, images, summary, results, 1 if merged is not None else 0)


def _shell(title: str, body: list[str]) -> str:
    """The HTML document of a page: its style, BODY, the sentence browser's script."""
    return ("<!DOCTYPE html><html><head><meta charset='utf-8'><title>"
            f"{html.escape(title)}</title><meta name='viewport' content='width=device-width'>"
            f"<style>{STYLE}{BROWSER_STYLE}</style></head><body>" + "\n".join(body)
            + f"<script>{SCRIPT}</script></body></html>\n")


def _benchmark_section(info: RunInfo, results: list[Scored], prefix: str
                       ) -> tuple[list[str], list[str], BenchmarkSummary,
                                  list[tuple[str, bytes]]]:
    """A benchmark's Markdown, HTML, summary and plot (:mod:`parsebench.report.benchmark`)."""
    from parsebench.report.benchmark import (
        benchmark_picture,
        benchmark_tables,
        summarize_benchmark,
    )

    s = summarize_benchmark(info.config, results)
    name = info.experiment
    md = [f"## {md_cell(name)}", "", "### Summary", "",
          *(f"- {md_cell(a)}" for a in s.answers), ""]
    body = [f"<h2 id='{prefix[:-2]}'>{html.escape(name)}</h2><section class='summary'>"
            "<h3>Summary</h3><ul>" + "".join(f"<li>{html.escape(a)}</li>"
                                             for a in s.answers) + "</ul></section>"]
    rec = BenchmarkRecord.from_dict(info.config)
    samples = f"{rec.samples:,}" if rec.samples is not None else "n/a"
    run = Table("Benchmark", ["setting", "value"], [
        ["corpora", ", ".join(f"{c.name} ({c.lang}): {c.corpus}" for c in rec.corpora)],
        ["parsers", _parsers_text(rec.parsers)], ["noise levels", _levels_text(rec.levels)],
        ["replicates, first seed", f"{rec.replicates}, {rec.seed}"],
        ["macro average's resampling", f"{rec.resampling} ({samples} resamples)"]],
        numeric=False)
    tables = benchmark_tables(s)
    for t in tables:
        md += [table_md(t, prefix), ""]
        body.append(table_html(t, prefix))
    images = []
    picture = benchmark_picture(s)
    if picture is not None:
        lines, figure, image = _figure(name, prefix, *picture, False)
        md += lines
        body.append(figure)
        images.append(image)
    md += [table_md(run, prefix), ""]
    body.append(table_html(run, prefix))
    return md, body, s, images


def _figure(name: str, prefix: str, fname: str, caption: str, plot: Any, intervals: bool,
            extension: str = ".png") -> tuple[list[str], str, tuple[str, bytes]]:
    """A plot as the page shows it: its Markdown lines, its HTML ``<figure>`` (the SVG
    inline; with INTERVALS, the count of interval bars the browser test checks) and its
    file (EXTENSION .png: its PNG; .svg, a sketch: its SVG), named from the experiment
    NAME (the whole name comes from data: experiment, parser, projection)."""
    ident = f"{prefix}plot-{anchor(fname.removesuffix('.png'))}"
    fname = safe_name(f"{name}-{fname.removesuffix('.png')}") + extension
    lines = [f'<a id="{ident}"></a>', "", f"![{md_cell(caption)}](plots/{fname})",
             f"*{md_cell(caption)}*", ""]
    bars = f" data-intervals='{plot.intervals}'" if intervals else ""
    figure = (f"<figure id='{ident}' data-points='{plot.points}'{bars}><img alt='"
              f"{html.escape(caption)}' src='data:image/svg+xml;base64,"
              f"{base64.b64encode(plot.svg).decode()}'><figcaption>"
              f"{html.escape(caption)}</figcaption></figure>")
    return lines, figure, (fname, plot.png if extension == ".png" else plot.svg)


def _write_bytes(path: Path, data: bytes) -> None:
    tmp = path.with_name("." + path.name + ".tmp")
    tmp.write_bytes(data)
    tmp.replace(path)

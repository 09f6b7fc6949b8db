"""A benchmark's leaderboard, the table the shared tasks publish, from any benchmark's
store (``parsebench export STORE --leaderboard DIR``): a static page and a JSON file of
the macro averages (with their intervals, ranks and tiers from the paired tests) and
the per-treebank figures (with theirs), each figure beside its signature, so that a
reader of the table knows what every number was made of (the treebank's file and
size, the parser and its model's hash, the noise) and two tables made otherwise are
not compared unawares.

Everything comes from the store, through the benchmark's summary
(:func:`parsebench.report.benchmark.summarize_benchmark`) that its report shows.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

from parsebench.common.errors import InputError, atomic_output, check_folder
from parsebench.model.conditions import differing_conditions
from parsebench.present.tables import Table
from parsebench.report.benchmark import (
    BenchmarkSummary,
    benchmark_tables,
    is_benchmark,
    summarize_benchmark,
)
from parsebench.report.pages import DAMAGE, STYLE, collect
from parsebench.report.tables import table_html
from parsebench.run.page_values import typed_result
from parsebench.store import Store


def _benchmark(store: Store, experiment: str | None) -> Any:
    """The run record of the store's benchmark (EXPERIMENT, or the only one)."""
    found = [info for info in collect(store) if is_benchmark(info.config)]
    if experiment is not None:
        found = [info for info in found if info.experiment == experiment]
    if not found:
        raise InputError("no benchmark in the store" + (f" named {experiment!r}" if
                         experiment else "") + ": a leaderboard ranks parsers over the "
                         "corpora of a [[corpora]] experiment", store.path)
    if len(found) > 1:
        raise InputError("several benchmarks in the store ("
                         + ", ".join(repr(i.experiment) for i in found)
                         + "): name one with --experiment", store.path)
    return found[0]


def leaderboard(store: Store, experiment: str | None = None
                ) -> tuple[dict[str, Any], BenchmarkSummary]:
    """The leaderboard's content (JSON: the macro averages and per-treebank figures of the
    store's benchmark, each with its interval and signature, the paired tests, the
    answers and the warnings where a treebank's figures were not made alike) and the
    benchmark's summary it comes from."""
    info = _benchmark(store, experiment)
    results = [typed_result(r) for r in store.results(info.experiment)]
    s = summarize_benchmark(info.config, results)
    macro_sig = {(r.parser, r.level): r.signature for r in results if r.method == "benchmark"}
    corpus_sig: dict[tuple[str, str, str], str] = {}
    for c in s.corpora:
        for r in store.results(c.experiment):
            if r.method == "deps" and r.projection == "deprel":
                corpus_sig[(c.name, r.parser, r.level)] = r.signature
    return {
        "benchmark": s.benchmark,
        "corpora": [c.to_dict() for c in s.corpora],
        "parsers": s.parsers, "levels": s.levels, "baselines": s.baselines,
        "resampling": s.resampling,
        "macro": [{**m.to_dict(), "signature": macro_sig.get((m.parser, m.level))}
                  for m in s.macro],
        "per_treebank": [{**x.to_dict(), "signature": corpus_sig.get(
            (x.corpus, x.parser, x.level))} for x in s.per_corpus],
        "tests": {level: [t.to_dict() for t in ts] for level, ts in s.tests.items()},
        "answers": s.answers,
        "warnings": differing_conditions((parser, sig) for (_, parser, _), sig
                                         in corpus_sig.items())}, s


def _page(board: dict[str, Any], tables: list[Table]) -> str:
    """The static page: the answers, the ranking and the treebanks' table, and the
    signature of every figure."""
    macro = sorted({m["signature"] or "n/a" for m in board["macro"]})
    made = sorted({(x["corpus"], x["parser"], x["signature"] or "n/a")
                   for x in board["per_treebank"] if x["level"] == "clean"})
    sigs = Table("Each treebank's LAS (clean text): what it was made of",
                 ["treebank", "parser", "signature"], [list(r) for r in made],
                 notes=["The macro averages: " + "; ".join(macro),
                        "The figures, intervals, tiers and signatures: leaderboard.json."],
                 numeric=False)
    body = [f"<h1>{html.escape(board['benchmark'])}: leaderboard</h1>",
            "<ul>" + "".join(f"<li>{html.escape(a)}</li>" for a in board["answers"])
            + "</ul>", *(f"<p class='warning'>warning: {html.escape(w)}</p>"
                         for w in board["warnings"]),
            *(table_html(t) for t in [*tables, sigs])]
    return ("<!DOCTYPE html><html><head><meta charset='utf-8'><title>"
            f"{html.escape(board['benchmark'])}: leaderboard</title><meta name='viewport' "
            f"content='width=device-width'><style>{STYLE}</style></head><body>"
            + "\n".join(body) + "</body></html>\n")


def write_leaderboard(store: Store, out_dir: str | Path, experiment: str | None = None
                      ) -> list[Path]:
    """index.html and leaderboard.json of the store's benchmark into OUT_DIR; the files
    written (each whole or not at all, after everything is read)."""
    out = check_folder(out_dir)
    try:
        board, s = leaderboard(store, experiment)
        page = _page(board, benchmark_tables(s))
    except DAMAGE as exc:
        raise InputError(f"the store's results cannot be read ({type(exc).__name__}); it "
                         "is damaged, or was not written by parsebench", store.path) from None
    out.mkdir(parents=True, exist_ok=True)
    files = [out / "leaderboard.json", out / "index.html"]
    for path, text in zip(files, (json.dumps(board, indent=2) + "\n", page), strict=True):
        with atomic_output(path) as fh:
            fh.write(text)
    return files

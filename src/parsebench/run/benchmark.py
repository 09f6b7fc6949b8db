"""An experiment over several corpora (SPEC 5.2): ``[[corpora]]`` tables, or a pattern
over the folders of a UD release (``corpora = "ud-treebanks/UD_*"``).

Each corpus is run as an experiment of its own into the same store (its results kept
under ``NAME [CORPUS]``, so a single-corpus experiment's keys never change), one after
the other, so that memory holds one corpus at a time and a killed benchmark resumes
as a killed run does: the corpora done keep their parses and scores. Then the
benchmark layer averages each parser's LAS over the corpora (the macro average, as
the CoNLL 2018 shared task ranks) with a 95% interval from a stratified bootstrap
(sentences resampled within each corpus, so a large treebank does not drown the
others), and tests each pair of parsers on it with the same resamples (Holm across
the pairs at each level).
"""

from __future__ import annotations

import glob
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from parsebench.common.progress import Progress
from parsebench.model.scored import Scored
from parsebench.parsers.executor import Executor
from parsebench.run import schema
from parsebench.run.benchmark_values import (
    BenchmarkCorpus,
    BenchmarkRecord,
    BenchmarkTests,
    BenchmarkValue,
    CorpusLas,
    CorpusLoss,
    MacroAverage,
    MacroTest,
)
from parsebench.run.experiment import (
    MAX_NAME,
    TABLES,
    Experiment,
    _name,
    read_experiment,
)
from parsebench.run.run_stats import BenchmarkStats, RunStats
from parsebench.run.schema import At, Reader
from parsebench.store import Store

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Array = npt.NDArray[np.float64]

SAMPLES = 2000
"""Stratified resamples of the macro average (each corpus's sentences resampled)."""

RESAMPLING = ("stratified bootstrap: each corpus's sentences resampled with replacement "
              "within the corpus (a noisy level's replicates pooled per sentence), the "
              "same resamples for every parser; the macro average is the mean over the "
              "corpora of each corpus's figure")
"""What the macro average's intervals and tests resample (in the record and the docs)."""

UD_TEST = "*-ud-test.conllu"


@dataclass
class Benchmark:
    """The corpora of an experiment over several, each an :class:`Experiment` of one
    corpus with the file's other tables."""

    name: str
    source: Path
    corpora: list[tuple[str, Experiment]] = field(default_factory=list)
    """(the corpus's name, its experiment), in the file's order."""

    def __post_init__(self) -> None:
        self.rename(self.name)

    def rename(self, name: str) -> None:
        """Name the benchmark NAME, and each corpus's experiment ``NAME [CORPUS]``."""
        self.name = name
        for cname, exp in self.corpora:
            exp.name, exp.benchmark = f"{name} [{cname}]", (name, cname)

    def record(self) -> BenchmarkRecord:
        """The benchmark's record: its corpora (each with the experiment its results are
        kept under), parsers and levels, and the resampling of the macro average."""
        first = self.corpora[0][1]
        return BenchmarkRecord(
            self.name, [BenchmarkCorpus(c, e.name, e.lang, " + ".join(map(str, e.corpus)))
                        for c, e in self.corpora],
            list(first.parsers), [lv.label for lv in first.levels], first.replicates,
            first.seed, RESAMPLING, SAMPLES)

    def config(self) -> dict[str, Any]:
        """:meth:`record` as the store keeps it (JSON)."""
        return self.record().to_dict()


def load_any(path: str | Path) -> Experiment | Benchmark:
    """The experiment file at PATH: one corpus (``[corpus]``), or several
    (``[[corpora]]`` or a ``corpora`` pattern)."""
    path = Path(path)
    lines, data = schema.parse(path)
    if "corpora" not in data:
        return read_experiment(path, lines, data)
    r = Reader(path, lines, TABLES)
    if "corpus" in data:
        raise r.fail("give [[corpora]] tables (or a corpora pattern) or one [corpus] "
                     "table, not both", "", "corpora")
    name = _name(At(r, data, "", "name", {}))
    spec = data["corpora"]
    rest = {k: v for k, v in data.items() if k != "corpora"}
    if isinstance(spec, str):
        entries: list[tuple[dict[str, Any], int | None]] = [
            (e, None) for e in _pattern(path, r, spec)]
    elif isinstance(spec, list) and spec and all(isinstance(e, dict) for e in spec):
        entries = [(e, i) for i, e in enumerate(spec)]
    else:
        raise r.fail("corpora: [[corpora]] tables, each with name, path and lang, or a "
                     "pattern over folders such as \"ud-treebanks/UD_*\"", "", "corpora")
    noise = data.get("noise")
    corpora: list[tuple[str, Experiment]] = []
    for entry, i in entries:
        sub_lines = lines if i is None else _as_corpus(lines, i)
        sr = Reader(path, sub_lines, TABLES)
        cname = entry.get("name")
        if not isinstance(cname, str) or not cname:
            raise sr.fail("every [[corpora]] table needs name = \"NAME\"", "", "corpus")
        if len(cname) > MAX_NAME or any(c in cname for c in "/\\[]") \
                or not cname.isprintable():
            raise sr.fail(f"name {cname[:40]!r}: at most {MAX_NAME} printable characters, "
                          "no / \\ [ or ]", "corpus", "name")
        if any(c == cname for c, _ in corpora):
            raise sr.fail(f"two corpora named {cname!r}", "corpus", "name")
        if "lang" not in entry and not (isinstance(noise, dict) and "lang" in noise):
            raise sr.fail(f"[[corpora]] {cname!r} needs lang = \"LANG\" (its noise's "
                          "keyboard and lexicon)", "corpus", "name")
        corpus = {k: v for k, v in entry.items() if k != "name"}
        corpora.append((cname, read_experiment(path, sub_lines, {**rest, "corpus": corpus})))
    return Benchmark(name, path, corpora)


_HEADER = re.compile(r"^\s*\[\[\s*corpora\s*\]\]")


def _as_corpus(lines: list[str], index: int) -> list[str]:
    """LINES with the INDEX-th ``[[corpora]]`` header read as ``[corpus]``: a mistake
    in that table is then reported at its line by the reader of ``[corpus]``."""
    out, seen = [], -1
    for line in lines:
        if _HEADER.match(line):
            seen += 1
            if seen == index:
                line = "[corpus]"
        out.append(line)
    return out


def _pattern(path: Path, r: Reader, pattern: str) -> list[dict[str, Any]]:
    """The corpora of a pattern over UD folders: the ``*-ud-test.conllu`` of each
    (folders without one are passed over), named by the file (``de_gsd``), its language
    the file name's code before ``_``, its training split the folder's train file, else
    its dev file (what ``spec = "udpipe:train"`` trains on)."""
    folders = sorted(Path(p) for p in glob.glob(str(path.parent / pattern))
                     if Path(p).is_dir())
    out = []
    for folder in folders:
        tests = sorted(folder.glob(UD_TEST))
        if tests:
            code = tests[0].name.removesuffix(UD_TEST[1:])
            one = {"name": code, "path": str(tests[0]), "lang": code.split("_")[0]}
            for split in ("train", "dev"):
                if (folder / f"{code}-ud-{split}.conllu").is_file():
                    one["train"] = str(folder / f"{code}-ud-{split}.conllu")
                    break
            out.append(one)
    if not out:
        raise r.fail(f"corpora = {pattern[:80]!r}: no folder with a {UD_TEST} file", "",
                     "corpora")
    return out


@dataclass
class BenchmarkOutcome:
    run_id: int
    runs: list[tuple[str, int, RunStats]]
    """Each corpus's name, run and run statistics."""
    results: list[Scored]
    """The benchmark's results (:func:`macro`): a ``benchmark`` figure a parser and
    level, and the paired tests of each level."""
    stats: BenchmarkStats


def run_benchmark(bench: Benchmark, store: Store, executor: Executor,
                  progress: Progress | None = None) -> BenchmarkOutcome:
    """Run each corpus of BENCH into STORE (as ``parsebench run`` runs one), then its
    macro averages. Only one corpus's results are held at a time."""
    import time

    from parsebench.run.runner import run_experiment
    from parsebench.run.training_specs import check_before_work

    t0 = time.perf_counter()
    for _, exp in bench.corpora:  # a later corpus's fault stops the run before any work
        check_before_work(exp)
    runs = []
    with executor:  # one cluster (or pool of connections) for every corpus
        for cname, exp in bench.corpora:
            out = run_experiment(exp, store, executor, progress)
            runs.append((cname, out.run_id, out.stats))
            del out
    run_id = store.start_run(bench.name, bench.config())
    results = macro(store, bench.config())
    store.replace_results(run_id, bench.name, results)
    stats = BenchmarkStats(time.perf_counter() - t0, executor.kind, executor.workers,
                           {c: r for c, r, _ in runs}, sum(s.parsed for *_, s in runs))
    store.finish_run(run_id, stats.to_dict())
    return BenchmarkOutcome(run_id, runs, results, stats)


def _las_of(store: Store, experiment: str) -> dict[tuple[str, str], Scored]:
    """EXPERIMENT's LAS results (the deps method's deprel projection), by parser and
    level."""
    return {(r.parser, r.level): r for r in store.results(experiment)
            if r.method == "deps" and r.projection == "deprel" and isinstance(r.value, dict)}


FIGURES = ("las", "uas", "clas", "mlas", "blex", "upos", "xpos", "ufeats", "alltags",
           "lemmas", "ucm", "lcm", "tokens", "sentences", "words", "elas", "eulas")
"""The figures a corpus's dependency scores store per sentence (correct, gold, system
counts; LAS first), each macro-averaged as the CoNLL 2018 results pages do. LAS alone
gets ranks, paired tests and the points lost under noise."""


def _point(value: dict[str, Any], figure: str) -> float | None:
    """A corpus's stored FIGURE (F1, or a share of sentences for UCM and LCM); None
    where the corpus's scorer gave n/a (no lemmas in the parse: Lemmas, BLEX)."""
    from parsebench.present import value as number

    got = value.get(figure) or {}
    return number(got.get("f1", got.get("accuracy")))


def _f1_columns(sums: Array) -> Array:
    """CoNLL 2018's F1 of each (correct, gold, system) triple of the last axis."""
    from parsebench.metrics.core.scores import f1_of_counts

    return f1_of_counts(sums.reshape(*sums.shape[:-1], -1, 3))


def macro(store: Store, cfg: dict[str, Any]) -> list[Scored]:
    """Each parser's figures on every corpus of the benchmark CFG and their macro
    averages over them (:data:`FIGURES`), at each level, side by side; at a noisy level
    also the LAS points lost from the clean text. The intervals and paired tests
    resample each corpus's sentences within the corpus (:data:`RESAMPLING`); a figure
    missing on one corpus makes its macro average n/a. Over one corpus the macro average
    is the corpus's figure with the corpus's own interval, not a second bootstrap's."""
    import numpy as np

    from parsebench.metrics.core.resample import (
        bootstrap_p,
        bootstrap_scores,
        holm,
        interval,
    )
    from parsebench.metrics.core.scores import ALPHA
    from parsebench.model.level import level_order

    names = [str(c["name"]) for c in cfg["corpora"]]
    one = len(names) == 1
    per: dict[tuple[str, str], dict[str, CorpusLas]] = {}  # (parser, level) -> corpus -> cell
    sums: dict[tuple[str, str, str], Array] = {}      # (parser, level, figure|loss)
    counts: dict[tuple[str, str, str], int] = {}
    points: dict[tuple[str, str, str], list[float | None]] = {}
    own_ci: dict[tuple[str, str, str], list[float] | None] = {}  # one corpus's intervals
    for k, c in enumerate(cfg["corpora"]):
        got = _las_of(store, str(c["experiment"]))
        levels = sorted({lv for _, lv in got}, key=level_order)
        parsers = list(dict.fromkeys(p for p, _ in got))
        clean: dict[str, Array] = {}
        for level in levels:
            have = [p for p in parsers if (p, level) in got and
                    (got[(p, level)].value.get("stats") or {}).get("las")]
            stats = [got[(p, level)].value["stats"] for p in have]
            figs = [f for f in FIGURES if all(f in st for st in stats)]
            rows = [np.hstack([np.asarray(st[f], dtype=float)[:, :3] for f in figs])
                    for st in stats]
            if len({len(x) for x in rows}) > 1:
                have, rows = [], []
            # the same seed and sentences for every level: the same resamples, paired
            scores = bootstrap_scores(rows, _f1_columns, SAMPLES, k + 1) if rows else []
            drawn = {p: {f: d[:, i] for i, f in enumerate(figs)}
                     for p, d in zip(have, scores, strict=True)}
            for p in parsers:
                r = got.get((p, level))
                v = {} if r is None else r.value
                for f in FIGURES:
                    points.setdefault((p, level, f), []).append(_point(v, f))
                    own_ci[(p, level, f)] = (v.get("ci95") or {}).get(f)
                    if f in drawn.get(p, {}):
                        _add(sums, counts, (p, level, f), drawn[p][f])
                las = None if r is None else _point(v, "las")
                ci = None if r is None else (v.get("ci95") or {}).get("las")
                if level == "clean":
                    if p in drawn:
                        clean[p] = drawn[p]["las"]
                    cell = CorpusLas(c.get("lang"), las, ci)
                else:
                    was = per.get((p, "clean"), {}).get(c["name"])
                    before = None if was is None else was.las
                    loss = None if las is None or before is None else before - las
                    loss_ci = None
                    if p in drawn and p in clean:
                        lost = clean[p] - drawn[p]["las"]
                        _add(sums, counts, (p, level, "loss"), lost)
                        iv = None if loss is None else interval(lost, ALPHA, loss)
                        loss_ci = None if iv is None else list(iv)
                    cell = CorpusLoss(c.get("lang"), las, ci, loss, loss_ci)
                per.setdefault((p, level), {})[c["name"]] = cell
    out: list[Scored] = []
    by_level: dict[str, list[str]] = {}
    for p, level in per:
        by_level.setdefault(level, []).append(p)
    sig = (f"method=macro|figures={'+'.join(FIGURES)}|corpora={len(names)}|"
           f"resampling=stratified-bootstrap|samples={SAMPLES}")
    for level in sorted(by_level, key=level_order):
        parsers = by_level[level]
        figures: dict[str, dict[str, MacroAverage]] = {}
        for p in parsers:
            cells = per[(p, level)]
            fig: dict[str, MacroAverage] = {}
            whats = ("las", "loss") if level != "clean" else ("las",)
            for what in (*whats, *FIGURES[1:]):
                pts = [_figure_of(cells.get(n), what) for n in names] if what in whats \
                    else points.get((p, level, what), [])
                whole = counts.get((p, level, what)) == len(names) and len(pts) == len(names) \
                    and None not in pts
                if what not in whats and not counts.get((p, level, what)) and \
                        all(x is None for x in pts):
                    continue  # a figure no corpus of this benchmark scores (ELAS)
                point = float(np.mean([float(x) for x in pts if x is not None])) \
                    if whole else None
                ci = None
                if point is not None and one and what != "loss":
                    ci = own_ci.get((p, level, what))
                elif point is not None:
                    iv = interval(sums[(p, level, what)] / len(names), ALPHA, point)
                    ci = None if iv is None else list(iv)
                fig[what] = MacroAverage(point, ci)
            figures[p] = fig
        tests: list[MacroTest] = []
        for what, better in (("las", 1.0), ("loss", -1.0)):
            known = {p: v for p in parsers if what in figures[p] and
                     (v := figures[p][what].value) is not None}
            pairs = [(a, b) for i, a in enumerate(known) for b in list(known)[i + 1:]]
            family = []
            for a, b in pairs:
                d = known[b] - known[a]
                ds = (sums[(b, level, what)] - sums[(a, level, what)]) / len(names)
                ds = ds[~np.isnan(ds)]
                pv = bootstrap_p(ds, d) if len(ds) else None
                iv = interval(ds, ALPHA) if len(ds) else None
                family.append((a, b, d, iv, pv))
            for (a, b, d, iv, _), ph in zip(family, holm([f[4] for f in family]), strict=True):
                tests.append(MacroTest(what, a, b, d, None if iv is None else list(iv), ph,
                                       None if ph is None else ph < ALPHA))
            order = sorted(known, key=lambda p: -better * known[p])
            tiers = _tiers(order, [t for t in tests if t.figure == what])
            for p in order:  # equal figures share a rank (1, 1, 3), not 1 and 2
                rank = 1 + sum(better * known[q] > better * known[p] for q in order)
                figures[p][what] = replace(figures[p][what], rank=rank, tier=tiers.get(p, ""))
        for p in parsers:
            out.append(Scored(p, "benchmark", "deprel", level, sig,
                              BenchmarkValue(figures[p], per[(p, level)])))
        out.append(Scored("", "benchmark-tests", "deprel", level, sig, BenchmarkTests(tests)))
    return out


def _figure_of(cell: CorpusLas | None, what: str) -> float | None:
    """The LAS (``las``) or the LAS lost (``loss``) of a corpus's CELL; None where the
    corpus has no such figure."""
    if cell is None:
        return None
    if what == "las":
        return cell.las
    return cell.loss if isinstance(cell, CorpusLoss) else None


def _add(sums: dict[tuple[str, str, str], Array], counts: dict[tuple[str, str, str], int],
         key: tuple[str, str, str], arr: Array) -> None:
    """Add one corpus's resampled figure ARR to the running sum of KEY: memory holds a
    sum a parser, level and figure, whatever the number of corpora."""
    sums[key] = sums[key] + arr if key in sums else arr.copy()
    counts[key] = counts.get(key, 0) + 1


def _tiers(order: list[str], tests: list[MacroTest]) -> dict[str, str]:
    """The compact letters of ORDER (best first) from the Holm-corrected TESTS: parsers
    that share a letter are not separated (the summary's letters)."""
    from parsebench.metrics.core.letters import letter_names, letters

    if len(order) < 2 or not tests:
        return {}
    return letter_names(order, letters(order, tests))


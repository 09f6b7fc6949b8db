"""``parsebench export``: a run's parses and per-sentence scores out of the store.

The store keeps each noisy version as its list of changes and each parse once
per distinct sentence, so the files are rebuilt: the corpus is read again from
the path the run recorded (and must be the same bytes: its checksum is in the
store), the stored changes are applied to it, and every sentence gets the
parse the run cached for it. Nothing is parsed and nothing is written to the
store. One file a parser, level and replicate: CoNLL-U (trees: one a line),
with the noise records in MISC as ``noise`` writes them; and ``scores.csv``
with every result's per-sentence statistics.
"""

from __future__ import annotations

import csv
import io
import os
import shutil
import tempfile
from pathlib import Path

from parsebench.common.errors import InputError, atomic_output, check_folder
from parsebench.formats.conllu import write_conllu
from parsebench.model.parses import to_tree
from parsebench.model.scored import Scored
from parsebench.present.tables import safe_name
from parsebench.report.pages import DAMAGE
from parsebench.run.corpus import Given, Parsed, Version, read_corpus
from parsebench.run.experiment import Experiment
from parsebench.run.versions import noise_versions
from parsebench.store import Store


def _label(v: Version) -> str:
    """A version's file name (without its extension)."""
    if v.level is None:
        return "clean"
    return "natural" if v.level.mode == "natural" else \
        f"{v.level.label.replace('=', '-')}_seed-{v.seed}"


def _write_version(parsed: Parsed, v: Version, path: Path) -> None:
    with atomic_output(path) as fh:
        if parsed.kind == "tree":
            fh.write("".join(to_tree(s, parsed.outcome(s)[0]) + "\n"
                             for s in v.sentences))
        elif parsed.given.raw:  # raw text: the sentences the parser found
            write_conllu(parsed.own_sentences(v), fh)
        else:
            write_conllu(parsed.sentences_of(v), fh)


def _write_edits(v: Version, path: Path) -> list[Path]:
    """PATH.m2 and PATH.align beside a learner-like noisy version's parses, as ``noise
    --kind grammar`` writes them, so that ``robustness f1`` can score them again."""
    from parsebench.noise.grammar_output import pharaoh, write_m2

    assert v.alignments is not None and v.m2 is not None
    m2, al = path.with_name(path.name + ".m2"), path.with_name(path.name + ".align")
    with atomic_output(m2) as fh:
        for s, edits in zip(v.sentences, v.m2, strict=True):
            write_m2(fh, s.forms, edits)
    with atomic_output(al) as fh:
        fh.write("".join(pharaoh(a.pairs) + "\n" for a in v.alignments))
    return [m2, al]


def scores_csv(experiment: str, results: list[Scored]) -> str:
    """Every stored per-sentence statistic: one row a result and sentence (replicates of
    a sentence summed, as the intervals resample them), its columns named; a breakdown's
    keyed rows as the statistic ``BREAKDOWN=KEY`` of their sentence."""
    from parsebench.metrics.registry import columns_of

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["experiment", "parser", "metric", "projection", "level", "statistic",
                "sentence", "column", "value"])
    for r in results:
        st = r.value.get("stats") if isinstance(r.value, dict) else \
            getattr(r.value, "stats", None)
        if not isinstance(st, dict):
            continue
        for key, rows in sorted(st.items()):
            names = columns_of(r.method, key)
            keyed = names[:1] == ["sentence"]
            for k, row in enumerate(rows, 1):
                stat, cells, cols = key, row, names
                if keyed:
                    k, stat, cells, cols = int(row[0]) + 1, f"{key}={row[1]}", row[2:], \
                        names[2:]
                for j, x in enumerate(cells):
                    w.writerow([experiment, r.parser, r.method, r.projection,
                                r.level, stat, k, cols[j] if j < len(cols) else j,
                                f"{x:g}"])
    return buf.getvalue()


def export(store: Store, outdir: str | Path, parser: str | None = None,
           experiment: str | None = None) -> list[Path]:
    """Write the parses and scores of every experiment in STORE (or the one named) under
    OUTDIR/EXPERIMENT/; return the files written. They are written into a scratch folder
    in OUTDIR and moved into place only when every experiment is written: a damaged
    corpus or run met late leaves nothing half-written (each EXPERIMENT folder is
    replaced whole)."""
    out = Path(outdir)
    check_folder(out)
    out.mkdir(parents=True, exist_ok=True)
    stage = Path(tempfile.mkdtemp(prefix=".export-", dir=out))
    try:
        written = _export(store, stage, parser, experiment)
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise
    for part in sorted(stage.iterdir()):
        target = out / part.name
        if target.is_dir() and not target.is_symlink():
            shutil.rmtree(target)
        elif target.exists() or target.is_symlink():
            target.unlink()
        os.replace(part, target)
    stage.rmdir()
    return [out / p.relative_to(stage) for p in written]


def _export(store: Store, out: Path, parser: str | None, experiment: str | None
            ) -> list[Path]:
    """:func:`export` into the scratch folder OUT."""
    runs = [(n, r) for n, r in store.experiments() if experiment in (None, n)]
    if not runs:
        raise InputError(f"no experiment {experiment!r} with results" if experiment else
                         "the store has no results yet; run parsebench run first", store.path)
    written: list[Path] = []
    infos, names = {}, set()
    for name, run in runs:
        try:  # everything from the store is read before anything is written
            infos[name] = info = store.run_info(run)
            names |= set((info.get("stats") or {}).get("parsers") or {})
        except DAMAGE as exc:
            raise InputError(f"the store's record of run {run} cannot be read "
                             f"({type(exc).__name__}); it is damaged, or was not written by "
                             "parsebench", store.path) from None
    # a benchmark keeps no parses of its own: its corpora's experiments are exported
    # (each under its own name), the one named or all of them
    from parsebench.report.benchmark import is_benchmark

    wanted = {str(c.get("experiment")) for n, _ in runs if is_benchmark(infos[n]["config"])
              for c in infos[n]["config"]["corpora"] if isinstance(c, dict)}
    runs = [(n, r) for n, r in store.experiments()
            if not is_benchmark(infos.get(n, {}).get("config") or {})
            and (n in infos or n in wanted)]
    for name, run in runs:
        if name not in infos:
            try:
                infos[name] = store.run_info(run)
            except DAMAGE as exc:
                raise InputError(f"the store's record of run {run} cannot be read "
                                 f"({type(exc).__name__}); it is damaged, or was not "
                                 "written by parsebench", store.path) from None
            names |= set((infos[name].get("stats") or {}).get("parsers") or {})
    if parser is not None and parser not in names:
        raise InputError(f"no parser {parser!r} in the store's runs", store.path)
    for name, run in runs:
        try:
            info = infos[name]
            exp = Experiment.from_config(info["config"])
            stats = {k: (str(v["parser_key"]), str(v["kind"]))
                     for k, v in ((info.get("stats") or {}).get("parsers") or {}).items()}
            results = [r for r in store.results(name) if parser in (None, r.parser)]
            scores = scores_csv(name, results)
            scores.encode("utf-8")  # a lone surrogate from crafted JSON cannot be written
        except DAMAGE as exc:
            raise InputError(f"the store's record of run {run} cannot be read "
                             f"({type(exc).__name__}); it is damaged, or was not written by "
                             "parsebench", store.path) from None
        corpus = read_corpus(exp.corpus, exp.limit, exp.gold, exp.typos_only, exp.natural)
        noise_versions(exp, corpus, store, make=False)
        folder = out / safe_name(name)
        versions = [(_label(v), v) for v in corpus.versions]
        if exp.corrected is not None:  # its parses too, so robustness f1 can be scored again
            versions.append(("corrected", read_corpus(exp.corrected, exp.limit).versions[0]))
        given = Given(exp.tokens == "raw")  # what the parsers were given, by its key
        wanted = {k for _, v in versions for k, _ in given.of(corpus, v)}
        for conf in exp.parsers:
            if parser not in (None, conf.name) or conf.name not in stats:
                continue
            key, kind = stats[conf.name]
            outcomes = store.parse_cache(key)
            outcomes.load(wanted)
            missing = wanted - set(outcomes)
            if missing:
                raise InputError(f"{len(missing)} {'document' if given.raw else 'sentence'}(s) "
                                 f"of {conf.name}'s run are not in the store's parse cache",
                                 store.path)
            parsed = Parsed(kind, outcomes, given)
            ext = ".mrg" if kind == "tree" else ".conllu"
            for label, v in versions:
                path = folder / safe_name(conf.name) / (safe_name(label) + ext)
                path.parent.mkdir(parents=True, exist_ok=True)
                _write_version(parsed, v, path)
                written.append(path)
                if v.alignments is not None and v.m2 is not None:
                    written += _write_edits(v, path)
        folder.mkdir(parents=True, exist_ok=True)
        with atomic_output(folder / "scores.csv") as fh:
            fh.write(scores)
        written.append(folder / "scores.csv")
    return written

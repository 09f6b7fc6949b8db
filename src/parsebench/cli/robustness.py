"""``robustness rows``, ``sentences`` and ``f1``: Bigert et al., Kakkonen, Hashemi & Hwa."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Annotated, Any

import typer

from parsebench.cli._app import PROJECTIONS, JsonOpt, _Bars, _emit_json, _warn, app
from parsebench.errors import InputError
from parsebench.signature import signature

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



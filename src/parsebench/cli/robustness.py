"""``robustness rows``, ``sentences`` and ``f1``: Bigert et al., Kakkonen, Hashemi & Hwa."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from parsebench.cli._app import PROJECTIONS, JsonOpt, QuietOpt, _progress, _show, app

robustness_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None,
                             help="How much parses change when the input gets noisy.")
app.add_typer(robustness_app, name="robustness")


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
    from parsebench.api.robustness import robustness_rows

    _show(robustness_rows(clean, noisy, gold=gold, accuracy=accuracy, project=projection,
                          calibrate_gold=cal_gold, calibrate_clean=cal_clean,
                          calibrate_noisy=cal_noisy), as_json)


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
    from parsebench.api.robustness import robustness_sentences

    _show(robustness_sentences(clean, noisy, alignment=alignment), as_json)


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
    quiet: QuietOpt = False,
) -> None:
    """Hashemi & Hwa's robustness F1, error-related dependencies excluded."""
    from parsebench.api.robustness import robustness_f1

    with _progress(quiet, transient=True) as bars:
        r = robustness_f1(grammatical, ungrammatical, alignment=alignment,
                          errant_pipeline=errant_pipeline, punct=punct, labeled=labeled,
                          exclude_root=exclude_root, gold=gold, progress=bars)
    _show(r, as_json)

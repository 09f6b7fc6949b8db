"""``compare``: intervals and paired significance tests between systems."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from parsebench.cli._app import (
    AlignOpt,
    EnhancementsOpt,
    InvalidOpt,
    JsonOpt,
    MultipleRootsOpt,
    NoEmptyNodesOpt,
    QuietOpt,
    _progress,
    _show,
    app,
)


@app.command("compare")
def compare_cmd(
    gold: Annotated[Path, typer.Argument(help="Gold file (CoNLL-U, or trees for evalb and "
                                         "flat-*).")],
    systems: Annotated[list[Path], typer.Argument(help="System files; the first is the "
                                                  "baseline.")],
    metric: Annotated[str, typer.Option("--metric", help="las, uas, clas, lin-labeled, "
                                        "lin-unlabeled, evalb, flat-recall or "
                                        "flat-conformance.")] = "las",
    test: Annotated[str, typer.Option("--test", help="bootstrap or randomization.")
                    ] = "bootstrap",
    samples: Annotated[int, typer.Option("--samples", help="Resamples.")] = 10_000,
    seed: Annotated[int, typer.Option("--seed", help="Seed: same seed, same output.")] = 1,
    alpha: Annotated[float, typer.Option("--alpha", help="Significance level; intervals are "
                                         "1 - alpha.")] = 0.05,
    all_pairs: Annotated[bool, typer.Option("--all-pairs", help="Test every pair, not only "
                                            "each system against the first.")] = False,
    align: AlignOpt = None,
    invalid: InvalidOpt = "warn",
    enhancements: EnhancementsOpt = "0",
    no_empty_nodes: NoEmptyNodesOpt = False,
    multiple_roots_okay: MultipleRootsOpt = False,
    as_json: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Scores with bootstrap intervals, and paired significance tests between systems."""
    from parsebench.api.comparison import compare

    with _progress(quiet, transient=True) as bars:
        r = compare(gold, systems, metric, test, samples, seed, alpha, all_pairs,
                    progress=bars, align=align, invalid=invalid, enhancements=enhancements,
                    no_empty_nodes=no_empty_nodes, multiple_roots_okay=multiple_roots_okay)
    _show(r, as_json)

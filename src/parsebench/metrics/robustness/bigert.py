"""Bigert et al.'s rows in a run, one object: projection by projection, each level's
replicates compared with the clean parse (and the gold), their figures a mean over the
replicates; its settings (the projections), report section and end-of-run line; and the
same figures for ``robustness rows`` (:func:`command`). The counting itself is
:mod:`parsebench.metrics.robustness.bigert_scorer`."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from parsebench.metrics.core.method import (
    LevelStats,
    Method,
    Replicate,
    RunContext,
    ScoredLevel,
    SentenceStats,
    Variant,
)
from parsebench.metrics.robustness.bigert_records import RowsCommand, RowsFigures
from parsebench.metrics.robustness.bigert_scorer import (
    ALL_FAILED,
    SCORES,
    _not_applicable,
    _scheme,
    calibration_sample,
    counts_of,
    intervals,
    report_of,
    rows_report,
    sentence_stats,
    signature_fields,
)
from parsebench.metrics.robustness.bigert_shown import rows_section, rows_table
from parsebench.model.inputs import check_is_parse
from parsebench.model.parses import Parse, carries
from parsebench.present import anchor, percent


def _variants(ctx: RunContext) -> list[Variant]:
    """Bigert et al.'s rows, projection by projection: each level's replicates compared
    with the clean parse (and the gold), their figures a mean over the replicates."""
    from parsebench.model.parses import default_projection, from_sentence

    if not (ctx.exp.setting("rows") and ctx.levels):
        return []
    out: list[Variant] = []
    clean, gold, conf = ctx.clean, ctx.gold, ctx.conf
    path = str(ctx.corpus.path)
    clean_path = f"{conf.name}:clean"
    projections = [default_projection(clean) if p == "default" else p
                   for p in ctx.exp.setting("rows")]
    cal_gold = None if ctx.calibration is None else \
        [from_sentence(s) for s in ctx.calibration[0].sentences]
    c_levels = {} if ctx.calibration is None else ctx.calibration_levels()
    for proj in dict.fromkeys(projections):
        if not _fits(proj, ctx.kind):
            continue
        use_gold = gold if proj in GOLD_PROJECTIONS else None
        acc = conf.accuracy_for(proj)
        cals: dict[str, tuple[Any, float]] = {}
        # the natural-typo levels exist in the corpus only, not in the calibration sample
        if ctx.calibration is not None and proj in GOLD_PROJECTIONS:
            cc, cp = ctx.calibration
            assert cal_gold is not None
            for level, versions in c_levels.items():
                cals[level.label] = calibration_sample(
                    cal_gold, cp.parses(cc.versions[0]),
                    [(v.label, cp.parses(v)) for v in versions], proj, str(cc.path),
                    str(cc.path))
        out.append(_variant(ctx, proj, use_gold, acc, cals, clean_path, path))
    return out


def _variant(ctx: RunContext, proj: str, gold: Sequence[Parse] | None, acc: float | None,
             cals: dict[str, tuple[Any, float]], clean_path: str, path: str) -> Variant:
    clean = ctx.clean
    cache: dict[Any, Any] = {}
    applies = carries(clean, proj)
    scheme = None if gold is None or not applies else \
        _scheme(clean, gold, proj, clean_path, path)

    def stats(rep: Replicate) -> Iterator[SentenceStats]:
        if not applies:
            return iter(())
        parses = [p.noisy for p in rep.pairs]
        if gold is not None:
            check_is_parse(gold, parses, path, rep.label)
        return sentence_stats(clean, parses, gold, proj, (clean_path, rep.label, path), cache)

    def figures(level: ScoredLevel, t: LevelStats) -> dict[str, Any]:
        if not applies:
            value = _not_applicable(clean, proj, clean_path)
        else:
            counts = [(r.label, counts_of(t.totals[k], t.kept[k]["calibration"],
                                          gold is not None))
                      for k, r in enumerate(level.replicates)]
            value = report_of(counts, acc, cals.get(level.label), scheme, clean_path)
            value["stats"] = t.stored(["differs", "degr_real", "spread"])
            value["ci95"] = intervals(value["stats"], value)
        value["error_level_label"] = level.short
        return value

    def sig(level: ScoredLevel) -> dict[str, Any]:
        cal = cals.get(level.label)
        return signature_fields(proj, acc, bool(gold), None if cal is None
                                else cal[0].sample_sentences, level=level.label)

    return Variant(proj, ctx.noisy_levels(), stats, figures, sig,
                   per_replicate=frozenset({"calibration"}))


def score_rows(clean: Sequence[Parse], noisy: Sequence[tuple[str, Sequence[Parse]]],
               gold: Sequence[Parse] | None, accuracy: float | None, projection: str,
               clean_path: str, gold_path: str,
               calibration: tuple[Any, float] | None = None) -> RowsCommand:
    """``robustness rows``'s object: the figures of the clean parse against the NOISY
    (path, parses) replicates, as a run's level gives them, with the clean accuracy given
    and the signature."""
    from parsebench.common.signature import signature

    out = rows_report(clean, noisy, gold, accuracy, projection, clean_path, gold_path,
                      calibration)
    return RowsCommand.from_dict({**out, "acr_given": accuracy, "signature": signature(
        **signature_fields(projection, accuracy, gold is not None,
                           None if calibration is None else calibration[0].sample_sentences,
                           replicates=len(noisy)))})


GOLD_PROJECTIONS = ("head+deprel", "head", "deprel", "upos", "xpos", "tag")
"""Projections a CoNLL-U gold file can give (links and brackets it cannot)."""


def _fits(projection: str, kind: str) -> bool:
    if kind == "links":
        return projection == "links"
    if kind == "tree":
        return projection in ("brackets", "upos", "xpos", "tag")
    if kind == "tags":
        return projection in ("upos", "xpos", "tag")
    return projection not in ("links", "brackets")


def _settings(value: Any, where: Any) -> list[str]:
    """``rows = true`` (the parser's default projection), ``false``, or a list of
    projections."""
    from parsebench.model.parses import PROJECTIONS

    if value is True:
        return ["default"]
    if value is False:
        return []
    if not isinstance(value, list):
        raise where.fail(f"rows must be list or bool, not {value!r}")
    for proj in value:
        if proj not in PROJECTIONS:
            raise where.fail(f"rows: {proj!r} is not one of " + ", ".join(PROJECTIONS))
    return list(value)


def _pct(x: Any) -> str:
    return percent(x, spread=True)


def _headline(v: RowsFigures) -> str:
    g = v.gold
    if v.differs is None and any(w.startswith(ALL_FAILED) for w in v.warnings):
        return f"differs n/a  estimate n/a  ({ALL_FAILED}: no row compared)"
    return (f"differs {_pct(v.differs)}  estimate {_pct(v.degr_estimate)}"
            + (f"  real {_pct(g.degr_real)}" if g else "")
            + (f"  calibrated {_pct(v.degr_calibrated)}" if v.degr_calibrated is not None else ""))


LEGEND = {
    "misspelled": "share of the words misspelled at this level (measured)",
    "parse differs": "share of rows whose parse changed (Bigert et al.'s differs)",
    "degr. lower": "lower bound of the degradation, half the upper (Bigert et al., eq. 9)",
    "degr. upper": "upper bound of the degradation, (1 - acr_0n) / acr (eq. 6)",
    "degr. estimate": "the unsupervised estimate of the degradation, 3/4 of the upper "
                      "bound (eq. 16)",
    "acc. lower": "lower bound of the noisy accuracy, acr (1 - degr. upper) (eq. 18)",
    "acc. upper": "its upper bound, acr (1 - degr. lower) (eq. 19)",
    "acc. estimate": "the estimated noisy accuracy, acr (1 - degr. estimate) (eq. 20)",
    "real degr.": "degradation measured against the gold key",
    "real acc.": "noisy accuracy measured against the gold key",
    "within bounds": "whether the real degradation lies within the bounds",
    "calibrated degr.": "the estimate calibrated on an annotated sample",
    "95% interval": "the calibration's interval",
    "x_aab": "share of rows right in the clean parse and changed in the noisy one",
}
"""What the columns of Bigert et al.'s tables hold: shares of rows (words)."""

METHOD = Method("rows", "Bigert et al.", _variants, scores=SCORES,
                sections=(rows_section,), text=rows_table, by_projection=True,
                section_title="Bigert et al.'s degradation", legend=LEGEND,
                anchor=lambda r: anchor("rows", r.parser, r.projection),
                headline=_headline, settings=_settings, default=[], value_type=RowsFigures,
                columns={
    "differs": ("rows", "changed rows"),
    "degr_real": ("rows right in the clean parse", "rows right in the noisy parse"),
    "spread": ("sentence", "distance to a misspelling", "rows", "changed rows",
               "changed rows right in the clean parse")})

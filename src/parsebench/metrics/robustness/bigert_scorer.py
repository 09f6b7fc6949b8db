"""Unsupervised degradation estimates, row by row (Bigert et al. 2005).

Files: m = gold (optional), 0 = parse of the clean text, n = parse of the text
with misspellings, all with the same rows. The work here is counting the five cases
of Table 1 and where the changes happen relative to the misspellings; the paper's
formulas (eqs. 6-22) that turn the counts into bounds are
:mod:`parsebench.metrics.robustness.bigert_equations`.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from parsebench.common.errors import InputError
from parsebench.metrics.core.method import (
    Metric,
    RankingFigure,
    SentenceStats,
)
from parsebench.metrics.core.scores import loss, share
from parsebench.metrics.dependency.scheme import scheme_warning
from parsebench.metrics.robustness.bigert_equations import (
    capped,
    deviations,
    estimates,
    warnings_for,
)
from parsebench.metrics.robustness.bigert_records import _NA
from parsebench.model.inputs import check_is_parse, same_words
from parsebench.model.parses import Parse, carries, misspelled_rows, project

DISTANCES = ("0", "1", "2", "3+", "none")
"""Row's distance in words to the nearest misspelling of its sentence; none: no misspelling."""


_METHOD = "Bigert et al.'s row-by-row comparison"
SIGNATURE = "bigert-rows"
"""The method's name in every signature of its figures (a run's and the command's)."""


def signature_fields(projection: str, accuracy: float | None, gold: bool,
                     calibration_sentences: int | None, *, level: str | None = None,
                     replicates: int | None = None) -> dict[str, Any]:
    """What a signature of the rows' figures says of their settings, a run's (with its
    LEVEL) and the command's (with its number of REPLICATES) alike, in the order they
    are printed: the projection, where the accuracy came from (given, the gold's, or
    none: then the bounds alone), and the calibration sample, if any."""
    from parsebench.metrics.robustness.calibration import METHOD as CALIBRATION

    return {"method": SIGNATURE, "projection": projection,
            **({"level": level} if level is not None else {}),
            "acr": accuracy if accuracy is not None else "gold" if gold else None,
            **({"replicates": replicates} if replicates is not None else {}),
            "calibration": None if calibration_sentences is None
            else f"{CALIBRATION}:{calibration_sentences}"}


@dataclass(slots=True)
class RowCounts:
    """Sufficient statistics of one clean/noisy pair (and gold): counts, not ratios."""

    rows: int = 0
    misspelled: int = 0
    agree_0n: int = 0
    cases: dict[str, int] = field(default_factory=lambda: dict.fromkeys(
        ("aaa", "aab", "aba", "abb", "abc"), 0))
    spread: dict[str, list[int]] = field(default_factory=lambda: {d: [0, 0, 0]
                                                                  for d in DISTANCES})
    """distance -> [rows, changed rows, changed rows that were right in the clean parse]."""
    has_gold: bool = False
    per_sentence: list[tuple[int, int, int]] = field(default_factory=list)
    """(rows, changed rows, net loss x_aab - x_aba in rows) of every sentence, for the
    bootstrap of the calibration."""
    per_sentence_gold: list[tuple[int, int]] = field(default_factory=list)
    """(rows right in the clean parse, rows right in the noisy one) of every sentence,
    with gold: the statistics of the real degradation's interval."""
    failed: list[int] = field(default_factory=lambda: [0, 0, 0])
    """[sentences failed in the clean parse, in the noisy one, rows of a sentence that
    failed on either side]: a failed row reads the same in both parses, so rows that all
    failed would make "parse differs" 0 when nothing was compared."""


def _bucket(d: int | None) -> str:
    if d is None:
        return "none"
    return str(d) if d < 3 else "3+"


def _distances(flags: list[bool]) -> list[int | None]:
    """Distance of every position to the nearest True, None when there is none."""
    n = len(flags)
    out: list[int | None] = [None] * n
    last = None
    for i in range(n):
        if flags[i]:
            last = i
        if last is not None:
            out[i] = i - last
    last = None
    for i in range(n - 1, -1, -1):
        if flags[i]:
            last = i
        if last is not None:
            d = out[i]
            out[i] = last - i if d is None else min(d, last - i)
    return out


def _flatten(parses: Sequence[Parse]) -> list[Parse]:
    merged = Parse(forms=[], line=parses[0].line if parses else 1, kind="rows")
    for p in parses:
        merged.forms += p.forms
        merged.noise += p.noise
    return [merged]


CASES = ("aaa", "aab", "aba", "abb", "abc")


def count_rows(clean: Sequence[Parse], noisy: Sequence[Parse], gold: Sequence[Parse] | None,
               projection: str, paths: tuple[str, str, str],
               cache: dict[Any, Any] | None = None) -> RowCounts:
    """Compare the rows of 0 and n (and m): the five cases and where the changes are
    (:func:`sentence_stats`, summed)."""
    out = RowCounts(has_gold=gold is not None)
    for st in sentence_stats(clean, noisy, gold, projection, paths, cache):
        r = st["rows"]
        out.rows += int(r[0])
        out.misspelled += int(r[1])
        out.agree_0n += int(r[2])
        for case, x in zip(CASES, r[3:], strict=True):
            out.cases[case] += int(x)
        for d in DISTANCES:
            got = st.get(f"spread={d}")
            if got is not None:
                cell = out.spread[d]
                for i in range(3):
                    cell[i] += int(got[i])
        out.per_sentence.append(tuple(int(x) for x in st["calibration"]))  # type: ignore[arg-type]
        if "degr_real" in st:
            right = st["degr_real"]
            out.per_sentence_gold.append((int(right[0]), int(right[1])))
        out.failed = [a + int(b) for a, b in zip(out.failed, st["failed"], strict=True)]
    return out


def counts_of(total: Mapping[str, Sequence[float]], calibration: Sequence[Sequence[float]],
              has_gold: bool) -> RowCounts:
    """The counts of one noisy file from its statistics summed over its sentences (TOTAL)
    and each sentence's CALIBRATION row: :func:`count_rows` of a run's replicate."""
    r = total.get("rows", [0] * 8)
    out = RowCounts(rows=int(r[0]), misspelled=int(r[1]), agree_0n=int(r[2]),
                    has_gold=has_gold)
    for case, x in zip(CASES, r[3:], strict=True):
        out.cases[case] = int(x)
    for d in DISTANCES:
        out.spread[d] = [int(x) for x in total.get(f"spread={d}", (0, 0, 0))]
    out.per_sentence = [(int(a), int(b), int(c)) for a, b, c in calibration]
    out.failed = [int(x) for x in total.get("failed", (0, 0, 0))]
    return out


def sentence_stats(clean: Sequence[Parse], noisy: Sequence[Parse],
                   gold: Sequence[Parse] | None, projection: str, paths: tuple[str, str, str],
                   cache: dict[Any, Any] | None = None) -> Iterator[SentenceStats]:
    """Each sentence's statistics of the rows of 0 and n (and m): ``rows`` (rows,
    misspelled, 0 and n agree, the five cases of Table 1), ``spread=D`` (rows at
    distance D from a misspelling, those that changed, those of them right in the clean
    parse), ``differs`` (rows, changed), ``calibration`` (rows, changed, net loss x_aab -
    x_aba), ``failed`` (failed in the clean parse, in the noisy one, rows of a failed
    sentence) and with gold ``degr_real`` (rows right in the clean parse, in the noisy one).

    A row file without sentence breaks is compared as one long sequence with
    the others, as AutoEval did. A noisy sentence that is the clean Parse
    object itself (unchanged by the noise) agrees on every row without being
    compared. CACHE keeps projected rows by parse object across calls (for
    the replicates of one clean parse); its parses must outlive it.
    """
    memo = {} if cache is None else cache

    def proj(p: Parse, path: str) -> list[str]:
        key = (id(p), projection)
        got = memo.get(key)
        if got is None:
            got = memo[key] = project(p, projection, path)
        return got

    files = [clean, noisy] + ([gold] if gold is not None else [])
    clean_path, noisy_path, gold_path = paths
    if any(p.kind == "rows" for f in files for p in f) and \
            len({len(f) for f in files}) > 1:
        strings = [[s for p in f for s in project(p, projection, path)]
                   for f, path in zip(files, paths, strict=False)]
        sizes = {len(s) for s in strings}
        if len(sizes) > 1:
            raise InputError(f"{len(strings[1])} rows, but {clean_path} has "
                             f"{len(strings[0])}; rows must correspond one to one", noisy_path)
        c, n = _flatten(clean), _flatten(noisy)
        row_strings = [strings]
        pairs = [(c[0], n[0])]
    else:
        same_words(clean, noisy, clean_path, noisy_path, _METHOD)
        if gold is not None:
            same_words(clean, gold, clean_path, gold_path, _METHOD)
        row_strings = [[proj(c, clean_path), proj(n, noisy_path)]
                       + ([] if gold is None else [proj(gold[k], gold_path)])
                       for k, (c, n) in enumerate(zip(clean, noisy, strict=True))]
        pairs = list(zip(clean, noisy, strict=True))
    for (c_parse, n_parse), strs in zip(pairs, row_strings, strict=True):
        zero, nth = strs[0], strs[1]
        m = strs[2] if gold is not None else None
        size = len(zero)
        c_failed, n_failed = c_parse.failed is not None, n_parse.failed is not None
        failed = (int(c_failed), int(n_failed), size if c_failed or n_failed else 0)
        if n_parse is c_parse and not any(c_parse.noise):
            # unchanged: every row agrees, none is misspelled
            st: SentenceStats = {"differs": (size, 0), "calibration": (size, 0, 0),
                                 "spread=none": (size, 0, 0), "failed": failed}
            if m is None:
                st["rows"] = (size, 0, size, 0, 0, 0, 0, 0)
            else:
                key = (id(c_parse), projection, "right")
                right = memo.get(key)
                if right is None:
                    right = memo[key] = sum(a == b for a, b in zip(zero, m, strict=True))
                st["rows"] = (size, 0, size, right, 0, 0, size - right, 0)
                st["degr_real"] = (right, right)
            yield st
            continue
        flags = misspelled_rows(c_parse, n_parse)
        dists = _distances(flags)
        agree = 0
        cases = [0, 0, 0, 0, 0]
        spread: dict[str, list[int]] = {}
        for i, (a0, an) in enumerate(zip(zero, nth, strict=True)):
            same = a0 == an
            agree += same
            b = _bucket(dists[i])
            cell = spread.get(b)
            if cell is None:
                cell = spread[b] = [0, 0, 0]
            cell[0] += 1
            if not same:
                cell[1] += 1
            if m is None:
                continue
            gm = m[i]
            if a0 == gm:
                cases[0 if same else 1] += 1
                if not same:
                    cell[2] += 1
            elif an == gm:
                cases[2] += 1
            else:
                cases[3 if same else 4] += 1
        st = {"rows": (size, sum(flags), agree, *cases), "differs": (size, size - agree),
              "calibration": (size, size - agree, cases[1] - cases[2]), "failed": failed}
        for b, cell in spread.items():
            st[f"spread={b}"] = cell
        if m is not None:
            st["degr_real"] = (cases[0] + cases[1], cases[0] + cases[2])
        yield st


ALL_FAILED = "every sentence failed on one side"
"""How the warning of a file none of whose rows was compared begins."""


def failures_warning(c: RowCounts, clean_path: str, noisy_path: str) -> str | None:
    """The sentences that failed, by parse, or None when none did."""
    fc, fn, rows = c.failed
    if not rows:
        return None
    named = " and ".join(f"{k} sentence{'s' if k != 1 else ''} in {p}"
                         for k, p in ((fc, clean_path), (fn, noisy_path)) if k)
    if rows >= c.rows:
        return (f"{ALL_FAILED} ({named}): no row was compared, "
                "so parse differs and the estimates are n/a")
    return (f"{named} failed: their {rows} of {c.rows} rows read as failed, the same in "
            "both parses when both failed")


def rows_figures(c: RowCounts, accuracy: float | None, noisy_path: str = "",
                 clean_path: str = "CLEAN") -> dict[str, Any]:
    """The figures of one noisy file, in the SPEC's JSON names (fractions in [0, 1])."""
    if c.rows == 0:
        raise InputError("no rows to compare", noisy_path)
    if c.failed[2] >= c.rows:  # nothing compared: n/a, never 0
        na = _not_applicable_counts(c)
        na["acr"] = accuracy
        na["warnings"] = [failures_warning(c, clean_path, noisy_path)]
        return na
    acr_0n = c.agree_0n / c.rows
    acr_m0 = (c.cases["aaa"] + c.cases["aab"]) / c.rows if c.has_gold else None
    acr = accuracy if accuracy is not None else acr_m0
    out: dict[str, Any] = {"rows": c.rows, "error_level": c.misspelled / c.rows,
                           "acr_0n": acr_0n, "differs": 1 - acr_0n, "acr": acr}
    changed = c.rows - c.agree_0n
    out.update(misspelled=c.misspelled, changed=changed)  # the shares' counts
    spread: dict[str, dict[str, float | None]] = {
        d: {"rows": v[0], "changed": v[1],
            "share_of_changes": v[1] / changed if changed else 0.0,
            "changed_rate": v[1] / v[0] if v[0] else 0.0}
        for d, v in c.spread.items()}
    out["spread"] = spread
    warnings: list[str] = []
    if acr is None or acr <= 0:  # 0: the gold branch below says why
        if acr is None:
            warnings.append("no clean accuracy: give --accuracy or --gold for the bounds")
        out.update(dict.fromkeys(("degr_lower", "degr_upper", "degr_estimate", "acc_lower",
                                  "acc_upper", "acc_estimate")))
    else:
        out.update({k: float(v) for k, v in capped(estimates(acr_0n, acr)).items()})
        warnings += warnings_for(acr)
        if 1 - acr_0n > acr:
            warnings.append(f"{1 - acr_0n:.1%} of the rows changed, more than the clean "
                            f"parse gets right ({acr:.1%}): eq. 6's upper bound is above 1, "
                            "so the bounds are capped at a degradation of 1 and say little")
    if c.has_gold and acr_m0:
        x = {k: v / c.rows for k, v in c.cases.items()}
        acr_mn = (c.cases["aaa"] + c.cases["aba"]) / c.rows
        degr_real = 1 - acr_mn / acr_m0
        gold: dict[str, Any] = {"acr_m0": acr_m0, "acr_mn": acr_mn, "degr_real": degr_real,
                                "acc_real": acr_mn, "cases": x, "case_rows": dict(c.cases)}
        gold.update({k: float(v) for k, v in deviations(x, acr_m0).items()})
        lower, upper = out["degr_lower"], out["degr_upper"]
        gold["within_bounds"] = bool(lower is not None and lower - 1e-12 <= degr_real
                                     <= upper + 1e-12)
        condition = x["aab"] >= 3 * x["aba"] + x["abc"]
        share: float | None = x["aab"] / (1 - acr_0n) if acr_0n < 1 else None
        right = sum(v[2] for v in c.spread.values())
        gold["assumption"] = {
            "aab_share_of_changes": share, "acr": acr_m0,
            "condition_holds": condition,
            "changed_rows_clean_accuracy": right / changed if changed else None,
            "changed_rows_clean_correct": right,
        }
        for d, v in c.spread.items():
            spread[d]["changed_clean_accuracy"] = v[2] / v[1] if v[1] else None
            spread[d]["changed_clean_correct"] = v[2]
        if not condition:
            warnings.append("x_aab < 3 x_aba + x_abc on this file: the bounds are not "
                            "guaranteed for this parser and projection")
        elif share is not None and share < 0.8 * acr_m0:
            warnings.append(f"the rows that change were right in the clean parse "
                            f"{share:.1%} of the time, against {acr_m0:.1%} overall: the "
                            "assumption of Appendix A fails, so the estimate is biased")
        if accuracy is not None and abs(accuracy - acr_m0) > 0.005:
            warnings.append(f"--accuracy {accuracy:.4f} differs from the gold accuracy "
                            f"{acr_m0:.4f}; the bounds use --accuracy")
        out["gold"] = gold
    elif c.has_gold:
        warnings.append("the clean parse agrees with the gold on no row: no bounds")
    failed = failures_warning(c, clean_path, noisy_path)
    out["warnings"] = warnings + ([failed] if failed else [])
    return out


def _not_applicable_counts(c: RowCounts) -> dict[str, Any]:
    """The figures of a file none of whose rows was compared: all n/a (None)."""
    out: dict[str, Any] = dict.fromkeys(_NA)
    out.update(rows=c.rows, error_level=c.misspelled / c.rows, misspelled=c.misspelled,
               spread={})
    return out


def _summary(values: list[float]) -> dict[str, float]:
    return {"mean": statistics.fmean(values),
            "std": statistics.stdev(values) if len(values) > 1 else 0.0,
            "min": min(values), "max": max(values)}


def aggregate(objs: list[dict[str, Any]]) -> dict[str, Any]:
    """Replicates: every number becomes {mean, std, min, max} (sample std, 0 for one file)."""
    first = objs[0]
    out: dict[str, Any] = {}
    for k, v in first.items():
        vals = [o[k] for o in objs]
        if isinstance(v, dict):
            out[k] = aggregate(vals)
        elif isinstance(v, bool):
            out[k] = sum(vals) / len(vals)
        elif isinstance(v, (int, float)) and all(isinstance(x, (int, float)) for x in vals):
            out[k] = _summary([float(x) for x in vals])
        elif k == "warnings":
            seen: list[str] = []
            for o in vals:
                seen += [w for w in o if w not in seen]
            out[k] = seen
        else:
            out[k] = v if all(x == v for x in vals) else None
    return out


def rows_report(clean: Sequence[Parse], noisy: Sequence[tuple[str, Sequence[Parse]]],
                gold: Sequence[Parse] | None, accuracy: float | None, projection: str,
                clean_path: str = "CLEAN", gold_path: str = "GOLD",
                calibration: tuple[Any, float] | None = None,
                cache: dict[Any, Any] | None = None) -> dict[str, Any]:
    """The rows result of one clean parse against NOISY (path, parses) replicates.

    CALIBRATION is a fitted :class:`~parsebench.metrics.robustness.calibration.Calibration`
    with the sample's clean accuracy, used when neither ACCURACY nor GOLD gives one.
    One replicate gives its figures; several give {mean, std, min, max} and
    ``replicates``.
    """
    cache = {} if cache is None else cache
    if not carries(clean, projection):
        return _not_applicable(clean, projection, clean_path)
    scheme = None if gold is None else _scheme(clean, gold, projection, clean_path, gold_path)
    counts = []
    for path, parses in noisy:
        if gold is not None:
            check_is_parse(gold, parses, gold_path, path)
        counts.append((path, count_rows(clean, parses, gold, projection,
                                        (clean_path, path, gold_path), cache)))
    out = report_of(counts, accuracy, calibration, scheme, clean_path)
    out["stats"] = _stats([c for _, c in counts])
    out["ci95"] = intervals(out["stats"], out)
    return out


def report_of(counts: Sequence[tuple[str, RowCounts]], accuracy: float | None,
              calibration: tuple[Any, float] | None, scheme: str | None,
              clean_path: str = "CLEAN") -> dict[str, Any]:
    """The figures of a level from each replicate's (path, counts): one replicate's
    figures, or of several {mean, std, min, max} and ``replicates``."""
    from parsebench.metrics.robustness import calibration as cal_mod

    objs = []
    for path, c in counts:
        fig = rows_figures(c, accuracy, path, clean_path)
        if calibration is not None and fig["differs"] is not None:
            cal, cal_acr = calibration
            acr = fig["acr"] if fig["acr"] is not None else cal_acr
            fig.update(cal_mod.apply(cal, c.per_sentence, acr))
            if fig["acr"] is None:
                fig["warnings"].append(f"no clean accuracy given: the calibration uses the "
                                       f"sample's clean accuracy {acr:.4f}")
        if scheme:
            fig["warnings"].append(scheme)
        objs.append(fig)
    return objs[0] if len(objs) == 1 else {**aggregate(objs), "replicates": objs}


def intervals(stats: Mapping[str, Sequence[Sequence[float]]],
              figures: Mapping[str, Any] | None = None) -> dict[str, list[float] | None]:
    """95% intervals over sentences of parse differs and the real degradation; none
    (n/a) for a figure that is n/a in FIGURES (no row compared)."""
    from parsebench.metrics.core.resample import sentence_interval  # NumPy: when scoring
    metric = {"differs": "bigert-differs", "degr_real": "bigert-real-degradation"}
    na = figures is not None and figures.get("differs") is None
    return {k: None if na else sentence_interval(stats[k], SCORES_BY_NAME[m].score)
            for k, m in metric.items() if k in stats}


SCORES = (
    Metric("bigert-differs", "parse differs", "run", ("rows", "changed rows"), share(1, 0),
           ("rows", "differs"),
           headline=RankingFigure("parse differs (Bigert et al.)", lambda v: v.differs,
                                  "differs", False, 4,
                                  " Parse differs is the share of the {proj} rows whose "
                                  "parse changed, right or wrong: not a loss of accuracy.",
                                  " of the {proj} rows")),
    Metric("bigert-real-degradation", "real degradation", "run",
           ("rows right in the clean parse", "rows right in the noisy parse"), loss(1, 0),
           ("rows", "degr_real"),
           headline=RankingFigure("real degradation (Bigert et al.)",
                                  lambda v: v.gold and v.gold.degr_real, "degr_real",
                                  False, 2,
                                  " Real degradation is relative, not points of LAS: the "
                                  "share of the {proj} rows right on clean text that the "
                                  "noise makes wrong (1 - noisy/clean row accuracy).",
                                  " of the {proj} rows")),
)
SCORES_BY_NAME = {m.name: m for m in SCORES}


def _stats(counts: Sequence[RowCounts]) -> dict[str, list[list[int]]]:
    """Per sentence, summed over the replicates (a sentence's replicates are resampled
    together): [rows, changed rows] for parse differs, and with gold [rows right in the
    clean parse, rows right in the noisy one] for the real degradation. The intervals
    (beside the replicate spread, which measures the noise, they measure the sample of
    sentences) and the tests between parsers are computed from them."""
    out = {"differs": [[sum(c.per_sentence[k][j] for c in counts) for j in (0, 1)]
                       for k in range(len(counts[0].per_sentence))]}
    if counts[0].has_gold and counts[0].per_sentence_gold:
        out["degr_real"] = [[sum(c.per_sentence_gold[k][j] for c in counts) for j in (0, 1)]
                            for k in range(len(counts[0].per_sentence_gold))]
    return out


def _scheme(clean: Sequence[Parse], gold: Sequence[Parse], projection: str,
            clean_path: str, gold_path: str) -> str | None:
    """A warning when the clean parse's labels (or tags) are another scheme than the gold's."""
    column, what = {"head+deprel": ("deprels", "relations"), "head": ("deprels", "relations"),
                    "deprel": ("deprels", "relations"), "upos": ("upos", "tags"),
                    "tag": ("upos", "tags"), "xpos": ("xpos", "tags")}.get(projection,
                                                                           ("", ""))
    if not column:
        return None
    deps = [(c, g) for c, g in zip(clean, gold, strict=False)
            if c.kind == "deps" and g.kind == "deps" and c.failed is None]
    return scheme_warning((x for _, g in deps for x in getattr(g, column)),
                          (x for c, _ in deps for x in getattr(c, column)), what,
                          gold_path, clean_path)


def _not_applicable(clean: Sequence[Parse], projection: str, clean_path: str
                    ) -> dict[str, Any]:
    """The figures of a projection the clean parse does not carry: all n/a (None)."""
    out: dict[str, Any] = dict.fromkeys(("error_level", *_NA))
    out.update(rows=sum(len(p) for p in clean), spread={}, not_applicable=True,
               warnings=[f"{clean_path} carries no {projection} (every value is _): its "
                         f"rows figures are n/a"])
    return out


def calibration_sample(gold: Sequence[Parse], clean: Sequence[Parse],
                       noisy: Sequence[tuple[str, Sequence[Parse]]], projection: str,
                       clean_path: str = "CALIBRATION-CLEAN",
                       gold_path: str = "CALIBRATION-GOLD") -> tuple[Any, float]:
    """Fit the calibration on an annotated sample; also return its clean accuracy."""
    from parsebench.metrics.robustness import calibration as cal_mod

    sample: list[tuple[int, int, int]] = []
    agree = total = 0
    cache: dict[Any, Any] = {}
    for path, parses in noisy:
        sc = count_rows(clean, parses, gold, projection, (clean_path, path, gold_path), cache)
        sample += sc.per_sentence
        agree += sc.cases["aaa"] + sc.cases["aab"]
        total += sc.rows
    if not total:
        raise InputError("the calibration sample has no rows", clean_path)
    return cal_mod.fit(sample), agree / total

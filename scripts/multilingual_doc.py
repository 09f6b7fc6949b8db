"""Build the tables of docs/multilingual-study.md from the store the multilingual study
writes (``make multilingual-study``): per language and parser, the clean LAS, the LAS
lost at each rate of misspelled words and per 1% of them, and Bigert et al.'s
unsupervised estimate of the degradation against the real one.

The study is one experiment a language (``multilingual-LANG``: a parser is one spec for
all corpora of a benchmark, and each language has its own models). Every interval is a
95% bootstrap interval over the sentences (2,000 resamples, seed 1) from the per-sentence
statistics in the store, a noisy level's replicates pooled per sentence, all levels and
parsers of a language resampled together (paired). LAS lost per 1% of misspelled words
is the least-squares slope through the origin of the points lost against the rate of
misspelled words actually drawn (in %, over the three levels): one figure a parser,
resampled as a whole. Bigert's estimate (3/4 of the upper bound of eq. 6) and its bounds
are the means over the replicates of the head+deprel rows; the real degradation is the
relative LAS loss the gold gives (its interval from the run). Why a script and not the
report: the figures cross experiments (one a language).

    python scripts/multilingual_doc.py STORE TEMPLATE OUTPUT MODELS
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from doc_template import fill, machine, write

from parsebench.metrics.core.resample import bootstrap_scores, interval
from parsebench.metrics.registry import REGISTRY
from parsebench.store import Store

SAMPLES = 2000
SEED = 1
PREFIX = "multilingual-"
# parser family: (its name in the page, its model file's suffix)
FAMILIES: dict[str, tuple[str, str]] = {
    "udpipe": ("UDPipe", ".udpipe"), "malt": ("MaltParser", ".mco"),
    "mst": ("MSTParser", ".mst"), "turbo": ("TurboParser", ".turbo")}
# language: (name, treebank, morphology (a coarse label), script)
LANGUAGES: dict[str, tuple[str, str, str, str]] = {
    "en": ("English", "EWT", "analytic", "Latin"),
    "sv": ("Swedish", "Talbanken", "fusional", "Latin"),
    "de": ("German", "GSD", "fusional", "Latin"),
    "fr": ("French", "GSD", "fusional", "Latin"),
    "ru": ("Russian", "GSD", "fusional", "Cyrillic"),
    "ga": ("Irish", "IDT", "fusional", "Latin"),
    "fi": ("Finnish", "TDT", "agglutinative", "Latin"),
    "tr": ("Turkish", "IMST", "agglutinative", "Latin"),
    "ko": ("Korean", "GSD", "agglutinative", "Hangul"),
    "id": ("Indonesian", "GSD", "analytic", "Latin"),
    "fa": ("Persian", "Seraji", "analytic", "Arabic"),
}


def num(x: float | None, digits: int = 2, sign: bool = False) -> str:
    if x is None or not np.isfinite(x):
        return "n/a"
    return f"{x:+.{digits}f}" if sign else f"{x:.{digits}f}"


def span(iv: Any, digits: int = 2, sign: bool = False) -> str:
    if not iv or iv[0] is None or not all(np.isfinite(iv)):
        return "n/a"
    return f"[{num(iv[0], digits, sign)}, {num(iv[1], digits, sign)}]"


@dataclass
class Level:
    """One noisy level of one parser: the rate of misspelled words drawn, the LAS points
    lost (and resamples), Bigert's figures."""

    label: str
    rate: float
    lost: float
    lost_draws: np.ndarray
    real: float | None
    real_ci: Any
    estimate: float | None
    lower: float | None
    upper: float | None
    within: float | None
    replicates: int

    def inside_bounds(self) -> str:
        """How many replicates' real degradation is inside their bounds."""
        if self.within is None:
            return "n/a"
        return f"{round(self.within * self.replicates)}/{self.replicates}"

    def estimate_in_real_ci(self) -> str:
        iv = self.real_ci
        if self.estimate is None or not iv or iv[0] is None:
            return "n/a"
        return "yes" if iv[0] <= self.estimate <= iv[1] else "no"


@dataclass
class Model:
    """One parser of one language."""

    lang: str
    parser: str
    las: float
    las_ci: Any
    sentences: int
    words: int
    levels: list[Level]
    slope: float
    slope_draws: np.ndarray

    @property
    def slope_ci(self) -> tuple[float, float] | None:
        return interval(self.slope_draws, 0.05, self.slope)

    @property
    def key(self) -> str:
        """The model's file name stem (scripts/multilingual_models.py's key)."""
        _, _, suffix = self.parser.partition("-")
        return f"{self.lang}_{suffix}" if suffix else self.lang

    @property
    def family(self) -> str:
        return self.parser.split("-")[0]

    @property
    def compared(self) -> bool:
        """Dev-trained: the model compared across languages (English's ``-dev``)."""
        return self.parser in (self.family, f"{self.family}-dev")

    @property
    def model_file(self) -> str:
        return self.key + FAMILIES.get(self.family, ("", ""))[1]


def slope(rates: list[float], lost: list[Any]) -> Any:
    """Least squares through the origin: points lost per 1% of misspelled words."""
    x = np.array(rates) * 100
    return sum(xi * li for xi, li in zip(x, lost, strict=True)) * 100 / float(x @ x)


def _level_order(label: str) -> float:
    return float(label.split("=", 1)[1]) if "=" in label else 0.0


def models_of(store: Store, experiment: str) -> list[Model]:
    lang = experiment[len(PREFIX):]
    res: dict[tuple[str, str, str, str], Any] = {}
    for r in store.results(experiment):
        res[(r.parser, r.metric, r.projection, r.level)] = r.value
    parsers = [p for p in store.parsers_of(experiment)
               if (p, "deps", "deprel", "clean") in res]
    levels = sorted({lvl for (_, m, _, lvl) in res if m == "deps" and lvl != "clean"},
                    key=_level_order)
    score = REGISTRY["las"].score
    stats = [np.array(res[(p, "deps", "deprel", lvl)]["stats"]["las"], dtype=np.float64)
             for p in parsers for lvl in ["clean", *levels]]
    draws = bootstrap_scores(stats, score, SAMPLES, SEED)
    points = [float(score(s.sum(axis=0))) for s in stats]
    out = []
    k = len(levels) + 1
    for i, p in enumerate(parsers):
        clean = res[(p, "deps", "deprel", "clean")]
        pts, drs = points[i * k:(i + 1) * k], draws[i * k:(i + 1) * k]
        lv = []
        for j, lvl in enumerate(levels, start=1):
            rows = res.get((p, "rows", "head+deprel", lvl)) or {}
            gold = rows.get("gold") or {}

            def mean(d: Any) -> float | None:
                """A figure's mean over the replicates (a share, for within_bounds)."""
                if isinstance(d, dict):
                    return d.get("mean")
                return float(d) if isinstance(d, int | float) else None

            lv.append(Level(
                rows.get("error_level_label", lvl), mean(rows.get("error_level"))
                or _level_order(lvl), pts[0] - pts[j], drs[0] - drs[j],
                mean(gold.get("degr_real")), (rows.get("ci95") or {}).get("degr_real"),
                mean(rows.get("degr_estimate")), mean(rows.get("degr_lower")),
                mean(rows.get("degr_upper")), mean(gold.get("within_bounds")),
                len(rows.get("replicates") or [])))
        rates = [x.rate for x in lv]
        out.append(Model(lang, p, pts[0], clean["ci95"]["las"],
                         int(clean["gold_sentences"]), int(clean["gold_words"]), lv,
                         float(slope(rates, [x.lost for x in lv])),
                         np.asarray(slope(rates, [x.lost_draws for x in lv]))))
    return out


def sidecar(models: Path, name: str) -> dict[str, Any]:
    try:
        got = json.loads((models / f"{name}.json").read_text(encoding="utf-8"))
        return got if isinstance(got, dict) else {}
    except (OSError, ValueError):
        return {}


def trained_on(models: Path, m: Model) -> str:
    """The split and the sentences the model learnt from (its own sidecar: UDPipe
    holds out a tenth that MaltParser, MSTParser and TurboParser learn from)."""
    side = sidecar(models, m.model_file)
    if not side:
        return "n/a"
    split = "train" if "train" in Path(side["train"]).name else "dev"
    return f"{split}, {side['sentences']:,} sentences"


def loss_table(ms: list[Model], models: Path) -> str:
    head = ms[0].levels if ms else []
    rows = ["| language | morphology | script | parser | trained on | test sentences "
            "(words) | LAS clean | " + " | ".join(f"LAS lost at {x.label}" for x in head)
            + " | LAS lost per 1% misspelled |",
            "|---|---|---|---|---|---|---|" + "---|" * len(head) + "---|"]
    for m in ms:
        name, tb, morph, script = LANGUAGES.get(m.lang, (m.lang, "?", "n/a", "n/a"))
        rows.append(
            f"| {name} ({tb}) | {morph} | {script} | {m.parser} | {trained_on(models, m)} | "
            f"{m.sentences:,} ({m.words:,}) | {num(100 * m.las)} "
            f"{span([100 * x for x in m.las_ci] if m.las_ci else None)} | "
            + " | ".join(f"{num(100 * x.lost)} "
                         f"{span(_scaled(interval(x.lost_draws, 0.05, x.lost)))}"
                         for x in m.levels)
            + f" | {num(m.slope)} {span(m.slope_ci)} |")
    return "\n".join(rows)


def _scaled(iv: Any) -> Any:
    return None if iv is None else [100 * iv[0], 100 * iv[1]]


def _real(x: Level) -> str:
    """The real degradation and its interval; n/a alone where the figure is."""
    if x.real is None:
        return "n/a"
    return f"{num(100 * x.real)} {span(_scaled(x.real_ci))}"


def _bounds(x: Level) -> Any:
    return None if x.lower is None or x.upper is None else [100 * x.lower, 100 * x.upper]


def bigert_table(ms: list[Model]) -> str:
    rows = ["| language | parser | misspelled | real degradation (%) | Bigert's estimate (%) "
            "| bounds (%) | real inside the bounds (replicates) | estimate inside the real's "
            "interval |", "|---|---|---|---|---|---|---|---|"]
    for m in ms:
        name = LANGUAGES.get(m.lang, (m.lang,))[0]
        for x in m.levels:
            rows.append(
                f"| {name} | {m.parser} | {x.label} | "
                f"{_real(x)} | {num(None if x.estimate is None else 100 * x.estimate)} | "
                f"{span(_bounds(x))} | {x.inside_bounds()} | {x.estimate_in_real_ci()} |")
    return "\n".join(rows)


def group_table(ms: list[Model], column: int) -> str:
    """The mean slope of the languages of each morphology (COLUMN 2) or script (3), per
    parser family, with the smallest and largest."""
    what = "morphology" if column == 2 else "script"
    rows = [f"| {what} | parser | languages | mean LAS lost per 1% | range |",
            "|---|---|---|---|---|"]
    for fam in FAMILIES:
        groups: dict[str, list[Model]] = {}
        for m in ms:
            if m.family == fam and m.compared:
                groups.setdefault(LANGUAGES.get(m.lang, ("",) * 4)[column], []).append(m)
        for g, got in sorted(groups.items()):
            s = [m.slope for m in got]
            rows.append(f"| {g} | {fam} | {', '.join(LANGUAGES[m.lang][0] for m in got)} | "
                        f"{num(float(np.mean(s)))} | {num(min(s))} to {num(max(s))} |")
    return "\n".join(rows)


def compared_grid(ms: list[Model]) -> tuple[list[str], list[str], dict[tuple[str, str], Model]]:
    """The languages that have every parser family's dev-trained model, the families,
    and the models by (language, family)."""
    grid = {(m.lang, m.family): m for m in ms if m.compared}
    fams = [f for f in FAMILIES if any(k[1] == f for k in grid)]
    langs = [lang for lang in LANGUAGES if all((lang, f) in grid for f in fams)]
    return langs, fams, grid


def shares(x: np.ndarray) -> np.ndarray:
    """The two-way additive decomposition of X (languages x parsers, with any leading
    axes of resamples): the shares of its sum of squares that the language means, the
    parser means and the rest (their interaction) explain, on the last axis."""
    g = x.mean(axis=(-2, -1), keepdims=True)
    row = x.mean(axis=-1, keepdims=True)
    col = x.mean(axis=-2, keepdims=True)
    n_l, n_p = x.shape[-2], x.shape[-1]
    ss_l = n_p * ((row - g) ** 2).sum(axis=(-2, -1))
    ss_p = n_l * ((col - g) ** 2).sum(axis=(-2, -1))
    ss_r = ((x - row - col + g) ** 2).sum(axis=(-2, -1))
    total = ss_l + ss_p + ss_r
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.stack([ss_l, ss_p, ss_r], axis=-1) / total[..., None]


def language_or_parser(ms: list[Model]) -> dict[str, str]:
    """Is the loss the language's or the parser's? The slopes of the dev-trained models
    as a languages x parsers grid: the share of their variation the language explains,
    the parser, and the rest, each with its bootstrap interval (each language's resampled
    slopes, the parsers of a language paired), in LAS points and relative to the clean
    LAS; and how alike the parsers rank the languages (Spearman's rho, each pair)."""
    langs, fams, grid = compared_grid(ms)
    out: dict[str, str] = {"grid_languages": str(len(langs)), "grid_parsers": str(len(fams)),
                           "grid_parser_names": ", ".join(FAMILIES[f][0] for f in fams)}
    if len(langs) < 2 or len(fams) < 2:
        return out
    point = np.array([[grid[(la, f)].slope for f in fams] for la in langs])
    draws = np.stack([np.stack([grid[(la, f)].slope_draws for f in fams], axis=-1)
                      for la in langs], axis=-2)
    las = np.array([[grid[(la, f)].las for f in fams] for la in langs])
    for what, pt, dr in (("", point, draws), ("rel_", point / (100 * las),
                                              draws / (100 * las))):
        got, many = shares(pt), shares(dr)
        for i, part in enumerate(("lang", "parser", "rest")):
            iv = interval(100 * many[:, i], 0.05, 100 * got[i])
            out[f"{what}share_{part}"] = f"{num(100 * got[i], 0)}% {span(iv, 0)}"
    rhos = []
    rows = ["| parsers | Spearman's rho of the languages' losses per 1% |", "|---|---|"]
    for i, a in enumerate(fams):
        for b in fams[i + 1:]:
            r = spearman(list(point[:, fams.index(a)]), list(point[:, fams.index(b)]))
            rhos.append(r)
            rows.append(f"| {FAMILIES[a][0]}, {FAMILIES[b][0]} | {num(r)} |")
    out["rho_table"] = "\n".join(rows)
    got_rhos = [r for r in rhos if r is not None]
    out["rho_min"] = num(min(got_rhos)) if got_rhos else "n/a"
    out["rho_max"] = num(max(got_rhos)) if got_rhos else "n/a"
    head = ("| language | " + " | ".join(f"{FAMILIES[f][0]}" for f in fams)
            + " | mean | spread (max - min) |")
    rows = [head, "|---|" + "---|" * len(fams) + "---|---|"]
    for la, line in zip(langs, point, strict=True):
        cells = " | ".join(f"{num(grid[(la, f)].slope)} {span(grid[(la, f)].slope_ci)}"
                           for f in fams)
        rows.append(f"| {LANGUAGES[la][0]} | {cells} | {num(float(line.mean()))} | "
                    f"{num(float(line.max() - line.min()))} |")
    col = point.mean(axis=0)
    rows.append("| mean | " + " | ".join(num(float(c)) for c in col) + " | "
                f"{num(float(point.mean()))} | {num(float(col.max() - col.min()))} |")
    out["grid"] = "\n".join(rows)
    spreads = point.max(axis=1) - point.min(axis=1)
    lang_means = point.mean(axis=1)
    out["grid_lang_range"] = f"{num(float(lang_means.min()))} to {num(float(lang_means.max()))}"
    out["grid_parser_range"] = f"{num(float(col.min()))} to {num(float(col.max()))}"
    out["grid_spread_median"] = num(float(np.median(spreads)))
    return out


def spearman(a: list[float], b: list[float]) -> float | None:
    if len(a) < 3:
        return None
    ra, rb = (np.argsort(np.argsort(x)).astype(float) for x in (a, b))
    if ra.std() == 0 or rb.std() == 0:
        return None
    return float(np.corrcoef(ra, rb)[0, 1])


def summary(ms: list[Model], models: Path, store: Store) -> dict[str, str]:
    out: dict[str, str] = {"machine": machine()}
    levels = [x for m in ms for x in m.levels if x.within is not None]
    out["bigert_cells"] = str(len(levels))
    out["bigert_all_inside"] = str(sum(x.within == 1 for x in levels))
    out["bigert_none_inside"] = str(sum(x.within == 0 for x in levels))
    out["bigert_est_in_ci"] = str(sum(x.estimate_in_real_ci() == "yes" for x in levels))
    ratios = [x.estimate / x.real for x in levels if x.estimate is not None and x.real]
    out["bigert_ratio_median"] = num(float(np.median(ratios))) if ratios else "n/a"
    out["bigert_ratio_min"] = num(min(ratios)) if ratios else "n/a"
    out["bigert_ratio_max"] = num(max(ratios)) if ratios else "n/a"
    over = [(x.estimate, x.real) for x in levels if x.estimate is not None
            and x.real is not None]
    out["bigert_over"] = str(sum(e > r for e, r in over))
    for fam in FAMILIES:
        own = [m for m in ms if m.family == fam and m.compared]
        s = [m.slope for m in own]
        out[f"{fam}_languages"] = str(len(own))
        out[f"{fam}_slope_min"] = num(min(s)) if s else "n/a"
        out[f"{fam}_slope_max"] = num(max(s)) if s else "n/a"
        low = min(own, key=lambda m: m.slope) if own else None
        high = max(own, key=lambda m: m.slope) if own else None
        out[f"{fam}_slope_min_lang"] = LANGUAGES[low.lang][0] if low else "n/a"
        out[f"{fam}_slope_max_lang"] = LANGUAGES[high.lang][0] if high else "n/a"
        r = spearman([m.las for m in own], [m.slope for m in own])
        out[f"{fam}_rho_las_slope"] = num(r)
        rel = [m.slope / (100 * m.las) for m in own if m.las]
        out[f"{fam}_rel_min"] = num(100 * min(rel)) if rel else "n/a"
        out[f"{fam}_rel_max"] = num(100 * max(rel)) if rel else "n/a"
        sep = 0
        for a in own:
            for b in own:
                ia, ib = a.slope_ci, b.slope_ci
                sep += bool(a.lang < b.lang and ia and ib and (ia[1] < ib[0] or ib[1] < ia[0]))
        out[f"{fam}_separated_pairs"] = str(sep)
        out[f"{fam}_pairs"] = str(len(own) * (len(own) - 1) // 2)
    # English: the parser trained on train against the same one trained on dev (paired)
    en = {m.parser: m for m in ms if m.lang == "en"}
    for fam in ("udpipe", "malt"):
        tr, dv = en.get(f"{fam}-train"), en.get(f"{fam}-dev")
        if tr is None or dv is None:
            out[f"en_{fam}_diff"] = out[f"en_{fam}_las_diff"] = "n/a"
            continue
        d = dv.slope_draws - tr.slope_draws
        out[f"en_{fam}_diff"] = f"{num(dv.slope - tr.slope, sign=True)} " \
            f"{span(interval(d, 0.05, dv.slope - tr.slope), sign=True)}"
        out[f"en_{fam}_las_diff"] = num(100 * (dv.las - tr.las), sign=True)
    # time: the trainings (from the models' sidecars) and the runs (from the store)
    train_s = 0.0
    n_models = 0
    per_family: dict[str, list[float]] = {}
    for key in sorted({m.key for m in ms}):  # every model trained for the language
        for fam, (_, suffix) in FAMILIES.items():
            side = sidecar(models, key + suffix)
            if side:
                train_s += float(side.get("seconds") or 0)
                n_models += 1
                if not key.endswith("_train"):
                    per_family.setdefault(fam, []).append(float(side.get("seconds") or 0))
    for fam, secs in per_family.items():
        out[f"{fam}_train_s"] = f"{min(secs):.0f} to {max(secs):.0f}"
    spans = []
    for exp, run in store.experiments():
        if exp.startswith(PREFIX):
            info = store.run_info(run)
            if info.get("finished") is not None:
                spans.append(info["finished"] - info["started"])
    out["train_minutes"] = num(train_s / 60, 1)
    out["trained_models"] = str(n_models)
    out["run_minutes"] = num(sum(spans) / 60, 1) if spans else "n/a"
    out["total_minutes"] = num((train_s + sum(spans)) / 60, 1) if spans else "n/a"
    out["languages"] = str(len({m.lang for m in ms}))
    out["compared_parsers"] = str(len({m.family for m in ms if m.compared}))
    return out


def build(store_path: Path, template: Path, output: Path, models: Path) -> None:
    store = Store(store_path)
    exps = [e for e, _ in store.experiments() if e.startswith(PREFIX)]
    if not exps:
        raise SystemExit(f"{store_path}: no results of the multilingual study "
                         "(multilingual-LANG); run it first (make multilingual-study)")
    order = list(LANGUAGES)
    exps.sort(key=lambda e: order.index(e[len(PREFIX):]) if e[len(PREFIX):] in order
              else len(order))
    ms = [m for e in exps for m in models_of(store, e)]
    parts = {"loss": loss_table(ms, models), "bigert": bigert_table(ms),
             "morphology": group_table(ms, 2), "script": group_table(ms, 3),
             **summary(ms, models, store), **language_or_parser(ms)}
    write(output, fill(template.read_text(encoding="utf-8"), parts))


if __name__ == "__main__":
    if len(sys.argv) != 5:
        raise SystemExit(__doc__)
    build(Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3]), Path(sys.argv[4]))

"""Build the tables of docs/real-noise.md from the store the real-noise studies write
(``make real-noise-study``): accuracy on EWT, Tweebank v2 and ESLSpok test, the drop from
EWT to each noisy treebank, the robustness figures on artificial noise, and whether the
rankings agree.

Every interval comes from the per-sentence statistics the store keeps, with the bootstrap
parsebench's own intervals use (2,000 resamples of sentences, seed 1). A parser's drop
from EWT to a treebank resamples the two treebanks' sentences independently (they share
no sentence); a difference between two parsers resamples each corpus once for both
(paired), so it is the interval of a paired test. Why a script and not a report section:
these figures cross experiments (a drop needs two corpora), which the report, an
experiment at a time, does not.

    python scripts/real_noise_doc.py STORE TEMPLATE OUTPUT
"""

from __future__ import annotations

import itertools
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from parsebench.metrics.core.resample import bootstrap_scores, interval
from parsebench.metrics.registry import REGISTRY
from parsebench.store import Store

SAMPLES = 2000
SEED = 1
PARSERS = ("udpipe", "spacy-ud", "biaffine")
TREEBANKS = (("real-ewt", "EWT test"), ("real-tweebank", "Tweebank v2 test"),
             ("real-eslspok", "ESLSpok test"))
ScoreFn = Callable[[np.ndarray], Any]


def pct(x: float | None, sign: bool = False) -> str:
    if x is None or np.isnan(x):
        return "n/a"
    return f"{100 * x:+.2f}" if sign else f"{100 * x:.2f}"


def ci(iv: Any, sign: bool = False) -> str:
    if not iv or iv[0] is None:
        return "n/a"
    return f"[{pct(iv[0], sign)}, {pct(iv[1], sign)}]"


class Study:
    """The results of the real-noise experiments, by (experiment, parser, metric, level)."""

    def __init__(self, store: Path) -> None:
        self.results: dict[tuple[str, str, str, str, str], Any] = {}
        s = Store(store)
        for exp, _ in s.experiments():
            for r in s.results(exp):
                self.results[(exp, r.parser, r.metric, r.projection,
                              r.level)] = r.value

    def value(self, exp: str, parser: str, metric: str, level: str,
              projection: str | None = None) -> Any:
        for (e, p, m, proj, lvl), v in self.results.items():
            if (e, p, m, lvl) == (exp, parser, metric, level) and projection in (None, proj):
                return v
        raise KeyError((exp, parser, metric, level))

    def stats(self, exp: str, parser: str, metric: str, level: str, name: str
              ) -> np.ndarray:
        return np.array(self.value(exp, parser, metric, level)["stats"][name],
                        dtype=np.float64)


def boot(stats: list[np.ndarray], score: ScoreFn, seed: int = SEED) -> list[np.ndarray]:
    return bootstrap_scores(stats, score, SAMPLES, seed)


def point(stats: np.ndarray, score: ScoreFn) -> float:
    return float(score(stats.sum(axis=0)))


def p_value(draws: np.ndarray, observed: float) -> float | None:
    """Two-sided bootstrap p of a difference (as parsebench's paired test computes it)."""
    ok = draws[~np.isnan(draws)]
    if not len(ok):
        return None
    return (1 + int(np.sum(np.abs(ok - ok.mean()) >= abs(observed) - 1e-12))) / (1 + len(ok))


def accuracy_table(st: Study) -> str:
    keys = ("uas", "las", "clas", "upos")
    rows = ["| treebank | parser | " + " | ".join(k.upper() for k in keys) + " |",
            "|---|---|" + "---|" * len(keys)]
    for exp, name in TREEBANKS:
        for p in PARSERS:
            v = st.value(exp, p, "deps", "clean", "deprel")
            rows.append(f"| {name} | {p} | " + " | ".join(
                f"{pct(v[k]['f1'])} {ci(v['ci95'].get(k))}" if v[k]["f1"] is not None
                else "n/a" for k in keys) + " |")
    return "\n".join(rows)


def las(st: Study, exp: str, level: str = "clean") -> list[np.ndarray]:
    return [st.stats(exp, p, "deps", level, "las") for p in PARSERS]


def drops(st: Study) -> tuple[str, dict[str, dict[str, float]]]:
    """Each parser's LAS drop from EWT to each treebank, with intervals, and the paired
    differences between parsers' drops."""
    f1 = REGISTRY["las"].score
    ewt = las(st, "real-ewt")
    ewt_draws = boot(ewt, f1)
    out: dict[str, dict[str, float]] = {}
    rows = ["| from EWT to | parser | LAS drop | 95% CI |", "|---|---|---:|---|"]
    pairs = ["| from EWT to | parsers (a - b) | drop a - drop b | 95% CI | p |",
             "|---|---|---:|---|---:|"]
    for exp, name in TREEBANKS[1:]:
        other = las(st, exp)
        draws = boot(other, f1, SEED + 1)
        d = {p: point(e, f1) - point(o, f1) for p, e, o in zip(PARSERS, ewt, other,
                                                               strict=True)}
        dd = {p: ewt_draws[k] - draws[k] for k, p in enumerate(PARSERS)}
        out[name] = d
        for p in PARSERS:
            rows.append(f"| {name} | {p} | {pct(d[p])} | {ci(interval(dd[p], 0.05))} |")
        for a, b in itertools.combinations(PARSERS, 2):
            obs = d[a] - d[b]
            diff = dd[a] - dd[b]
            pairs.append(f"| {name} | {a} - {b} | {pct(obs, True)} | "
                         f"{ci(interval(diff, 0.05), True)} | {p_value(diff, obs):.3f} |")
    return "\n".join(rows) + "\n\n" + "\n".join(pairs), out


MEASURES: list[tuple[str, str, str, str, str, str, bool]] = [
    # (label, experiment, result, level, statistics, metric, higher is more robust)
    ("real degradation, head+deprel rows, 5% misspelled", "real-spelling-en", "rows",
     "rate=0.05", "degr_real", "bigert-real-degradation", False),
    ("real degradation, head+deprel rows, 20% misspelled", "real-spelling-en", "rows",
     "rate=0.2", "degr_real", "bigert-real-degradation", False),
    ("Kakkonen labeled, 1 misspelling a sentence", "real-kakkonen-en", "sentences",
     "per-sentence=1", "pairs", "kakkonen-labeled", True),
    ("robustness F1, 1 learner-like error a sentence", "real-grammar-en", "f1",
     "per-sentence=1", "f1", "hashemi-hwa-f1", True),
    ("robustness F1, JFLEG dev against its correction", "real-jfleg", "f1", "corrected",
     "f1", "hashemi-hwa-f1", True),
]


def _level(st: Study, exp: str, result: str, want: str) -> str:
    levels = sorted({lvl for (e, _, m, _, lvl) in st.results if e == exp and m == result})
    for lvl in levels:
        if lvl == want or lvl.replace("0.20", "0.2") == want:
            return lvl
    if len(levels) == 1:
        return levels[0]
    raise KeyError((exp, result, want, levels))


def artificial(st: Study) -> tuple[str, dict[str, dict[str, float]]]:
    rows = ["| measure | " + " | ".join(PARSERS) + " |", "|---|" + "---|" * len(PARSERS)]
    pairs = ["| measure | parsers (a - b) | a - b | 95% CI | p |", "|---|---|---:|---|---:|"]
    out: dict[str, dict[str, float]] = {}
    for label, exp, result, want, name, metric, _ in MEASURES:
        lvl = _level(st, exp, result, want)
        score = REGISTRY[metric].score
        stats = [st.stats(exp, p, result, lvl, name) for p in PARSERS]
        draws = boot(stats, score)
        vals = {p: point(s, score) for p, s in zip(PARSERS, stats, strict=True)}
        out[label] = vals
        rows.append(f"| {label} | " + " | ".join(
            f"{pct(vals[p])} {ci(interval(draws[k], 0.05))}" for k, p in enumerate(PARSERS))
            + " |")
        for (i, a), (j, b) in itertools.combinations(enumerate(PARSERS), 2):
            obs = vals[a] - vals[b]
            diff = draws[i] - draws[j]
            pv = p_value(diff, obs)
            pairs.append(f"| {label} | {a} - {b} | {pct(obs, True)} | "
                         f"{ci(interval(diff, 0.05), True)} | "
                         f"{'n/a' if pv is None else f'{pv:.3f}'} |")
    # the same misspellings scored against the gold: LAS lost, paired on the sentences
    f1 = REGISTRY["las"].score
    clean = las(st, "real-spelling-en")
    for want in ("rate=0.05", "rate=0.2"):
        lvl = _level(st, "real-spelling-en", "deps", want)
        noisy = las(st, "real-spelling-en", lvl)
        label = f"LAS lost against the gold, {want.split('=')[1]} misspelled"
        draws_c, draws_n = boot(clean, f1), boot(noisy, f1)
        vals = {p: point(c, f1) - point(n, f1)
                for p, c, n in zip(PARSERS, clean, noisy, strict=True)}
        out[label] = vals
        rows.append(f"| {label} | " + " | ".join(
            f"{pct(vals[p])} {ci(interval(draws_c[k] - draws_n[k], 0.05))}"
            for k, p in enumerate(PARSERS)) + " |")
    return "\n".join(rows) + "\n\n" + "\n".join(pairs), out


def ranking(values: dict[str, float], higher_better: bool) -> list[str]:
    return sorted(PARSERS, key=lambda p: -values[p] if higher_better else values[p])


def kendall(a: list[str], b: list[str]) -> float:
    ra = {p: i for i, p in enumerate(a)}
    rb = {p: i for i, p in enumerate(b)}
    s = 0
    for x, y in itertools.combinations(PARSERS, 2):
        s += 1 if (ra[x] - ra[y]) * (rb[x] - rb[y]) > 0 else -1
    return s / 3


def rankings(real: dict[str, dict[str, float]], art: dict[str, dict[str, float]]) -> str:
    higher = {m[0]: m[6] for m in MEASURES}
    rows = ["| artificial measure | most to least robust | " + " | ".join(
        f"tau with the drop to {t}" for t in real) + " |",
        "|---|---|" + "---:|" * len(real)]
    real_rank = {t: ranking(d, False) for t, d in real.items()}
    for label, vals in art.items():
        r = ranking(vals, higher.get(label, False))
        rows.append(f"| {label} | {' > '.join(r)} | " + " | ".join(
            f"{kendall(r, rr):+.2f}" for rr in real_rank.values()) + " |")
    for t, rr in real_rank.items():
        rows.append(f"| *(real) LAS drop from EWT to {t}* | {' > '.join(rr)} | " + " | ".join(
            f"{kendall(rr, x):+.2f}" for x in real_rank.values()) + " |")
    return "\n".join(rows)


def _recall(b: dict[str, Any]) -> float | None:
    return b["labeled"]["matched"] / b["labeled"]["key"] if b["labeled"]["key"] else None


def relations(st: Study, top: int = 10) -> str:
    """The gold relations of Tweebank whose arcs account for most of the drop: each one's
    arcs in Tweebank, each parser's labeled recall there (and on EWT), and the arcs lost
    beyond what the parser's EWT recall of the relation would lose, averaged over parsers."""
    tw = {p: st.value("real-tweebank", p, "deps", "clean", "deprel")["by"] for p in PARSERS}
    ewt = {p: st.value("real-ewt", p, "deps", "clean", "deprel")["by"] for p in PARSERS}
    excess: dict[str, float] = {}
    for p in PARSERS:
        for g, b in tw[p].items():
            r_tw = _recall(b)
            if r_tw is None:
                continue
            r_ewt = _recall(ewt[p][g]) if g in ewt[p] else None
            base = 1.0 if r_ewt is None else r_ewt
            excess[g] = excess.get(g, 0.0) + b["labeled"]["key"] * (base - r_tw) / len(PARSERS)
    names = sorted(excess, key=lambda g: -excess[g])[:top]
    rows = ["| relation | Tweebank arcs | " + " | ".join(
        f"{p}: Tweebank (EWT)" for p in PARSERS) + " | arcs lost beyond EWT's rate |",
        "|---|---:|" + "---|" * len(PARSERS) + "---:|"]
    for g in names:
        cells = []
        for p in PARSERS:
            r_ewt = _recall(ewt[p][g]) if g in ewt[p] else None
            cells.append(f"{pct(_recall(tw[p][g]))} ({pct(r_ewt)})")
        rows.append(f"| {g} | {tw[PARSERS[0]][g]['labeled']['key']} | " + " | ".join(cells)
                    + f" | {excess[g]:.0f} |")
    return "\n".join(rows)


def upos(st: Study, top: int = 6) -> str:
    """Tweebank's labeled recall by the gold word's UPOS: where usernames, hashtags and
    URLs (X, SYM) and retweet markers sit."""
    tw = {p: st.value("real-tweebank", p, "deps", "clean", "upos")["by"] for p in PARSERS}
    lost = {g: sum(b["labeled"]["key"] - b["labeled"]["matched"] for b in
                   (tw[p][g] for p in PARSERS)) / len(PARSERS) for g in tw[PARSERS[0]]}
    rows = ["| gold UPOS | Tweebank arcs | " + " | ".join(PARSERS) + " | arcs lost |",
            "|---|---:|" + "---:|" * len(PARSERS) + "---:|"]
    for g in sorted(lost, key=lambda g: -lost[g])[:top]:
        rows.append(f"| {g} | {tw[PARSERS[0]][g]['labeled']['key']} | " + " | ".join(
            pct(_recall(tw[p][g])) for p in PARSERS) + f" | {lost[g]:.0f} |")
    return "\n".join(rows)


SCHEME = frozenset({"discourse", "vocative", "list", "parataxis", "punct", "dep"})
"""Relations where Tweebank's conventions for usernames, hashtags, URLs, emoticons and
retweet markers (and its one tree a tweet, several roots joined by parataxis) differ from
EWT's: arcs a parser trained on EWT gets wrong by scheme, not by error."""


def shared_scheme(st: Study) -> str:
    """Labeled recall over the arcs of the relations outside SCHEME, on both treebanks:
    the drop that is left once the scheme's differences are set aside."""
    rows = ["| parser | EWT | Tweebank v2 | drop | drop with every arc |",
            "|---|---:|---:|---:|---:|"]
    for p in PARSERS:
        got = []
        for exp in ("real-ewt", "real-tweebank"):
            by = st.value(exp, p, "deps", "clean", "deprel")["by"]
            key = sum(b["labeled"]["key"] for g, b in by.items() if g.split(":")[0] not in SCHEME)
            hit = sum(b["labeled"]["matched"] for g, b in by.items()
                      if g.split(":")[0] not in SCHEME)
            got.append(hit / key if key else None)
        whole = [st.value(e, p, "deps", "clean", "deprel")["labeled"]["recall"]
                 for e in ("real-ewt", "real-tweebank")]
        rows.append(f"| {p} | {pct(got[0])} | {pct(got[1])} | "
                    f"{pct(got[0] - got[1]) if None not in got else 'n/a'} | "
                    f"{pct(whole[0] - whole[1])} |")
    return "\n".join(rows)


def build(store: Path, template: Path, output: Path) -> None:
    st = Study(store)
    drop_text, real = drops(st)
    art_text, art = artificial(st)
    parts = {
        "accuracy": accuracy_table(st),
        "drops": drop_text,
        "artificial": art_text,
        "rankings": rankings(real, art),
        "tweebank-relations": relations(st),
        "tweebank-upos": upos(st),
        "shared-scheme": shared_scheme(st),
    }
    text = re.sub(r"^<!-- table: (\S+) -->$", lambda m: parts[m.group(1)],
                  template.read_text(encoding="utf-8"), flags=re.M)
    output.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    build(Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3]))

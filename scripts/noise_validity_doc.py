"""Build the tables of docs/noise-validity.md from the store the noise-validity studies
write (``make noise-validity-study``): on the sentences with natural typos, each parser's
harm under the typos as written, under the keyboard model's misspellings and under the
noise profile's, at the natural typos' own rate, and whether the artificial noise
predicts the natural harm.

A run holds one ``[noise]``, so the two kinds of noise are two experiments into one
store (``noise-validity-keyboard`` and ``noise-validity-profile``), each with the
natural level beside its artificial one; the natural parses are the same in both (one
store, one parse a sentence), and the script takes them from the keyboard experiment.
Every interval is a 95% bootstrap interval over the sentences (2,000 resamples, seed 1)
from the per-sentence statistics in the store; the natural, keyboard and profile figures
of a parser are resampled together (the same sentences), so a ratio or a difference
between them is paired. Why a script and not a report section: the figures cross two
experiments, which the report, an experiment at a time, does not. The French pair
(``noise-validity-fr-keyboard`` and ``noise-validity-fr-profile``, placeholders fr_...)
fills the page when the template has its tables (``<!-- table: fr-harm -->``).

    python scripts/noise_validity_doc.py STORE TEMPLATE OUTPUT [KEY:TRAIN:EVAL,EVAL...]

Each KEY:TRAIN:EVAL,... (placeholders KEY_...) counts the natural typos of the EVAL
files, the sentences and words holding them, and how many a parser trained on TRAIN
could have met there: as a word form of TRAIN, and as a marked typo of TRAIN.
"""

from __future__ import annotations

import datetime
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from doc_template import fill, machine, pct, write

from parsebench.metrics.core.resample import bootstrap_scores, interval
from parsebench.metrics.registry import REGISTRY
from parsebench.store import Store

SAMPLES = 2000
SEED = 1
KEYBOARD, PROFILE = "noise-validity-keyboard", "noise-validity-profile"
FIGURES = (("head+deprel", "head+deprel degradation"), ("head", "head degradation"),
           ("tag", "tag degradation"), ("las", "LAS points lost"))
ScoreFn = Callable[[np.ndarray], Any]


def ci(iv: Any, sign: bool = False) -> str:
    if not iv or iv[0] is None:
        return "n/a"
    return f"[{pct(iv[0], sign)}, {pct(iv[1], sign)}]"


def cell(x: float, iv: Any, sign: bool = False) -> str:
    """A figure in % and its interval; n/a alone where the figure is."""
    return "n/a" if not np.isfinite(x) else f"{pct(x, sign)} {ci(iv, sign)}"


def ratio(x: float | None) -> str:
    return "n/a" if x is None or not np.isfinite(x) else f"{x:.2f}"


def ratio_ci(iv: Any) -> str:
    if not iv or iv[0] is None or not all(np.isfinite(iv)):
        return "n/a"
    return f"[{iv[0]:.2f}, {iv[1]:.2f}]"


def ratio_cell(x: float, iv: Any) -> str:
    """A ratio and its interval; n/a alone where the ratio is."""
    return "n/a" if not np.isfinite(x) else f"{ratio(x)} {ratio_ci(iv)}"


@dataclass
class Harm:
    """One parser's figure under the three kinds of noise: the points and the
    resampled values (None where the parser cannot give the figure)."""

    point: dict[str, float]
    draws: dict[str, np.ndarray]

    def iv(self, kind: str) -> tuple[float, float] | None:
        return interval(self.draws[kind], 0.05, self.point[kind])

    def ratio(self, kind: str) -> tuple[float, tuple[float, float] | None]:
        """KIND's harm over the natural typos' harm, and its paired interval. A ratio to
        no harm or to a gain (natural harm <= 0) is n/a; so is its interval when the
        natural harm's interval reaches 0 (the resampled ratios then run off to both
        infinities, and their percentiles mean nothing)."""
        nat = self.point["natural"]
        if not nat > 0:
            return float("nan"), None
        with np.errstate(divide="ignore", invalid="ignore"):
            draws = self.draws[kind] / self.draws["natural"]
        draws[~np.isfinite(draws)] = np.nan
        point = self.point[kind] / nat
        nat_iv = self.iv("natural")
        if nat_iv is None or not nat_iv[0] > 0:
            return point, None
        return point, interval(draws, 0.05, point)

    def diff(self, kind: str, base: str = "natural"
             ) -> tuple[float, tuple[float, float] | None]:
        """KIND's harm minus BASE's, and its paired interval."""
        point = self.point[kind] - self.point[base]
        return point, interval(self.draws[kind] - self.draws[base], 0.05, point)


class Pair:
    """The results of a keyboard experiment and its profile twin, by parser."""

    def __init__(self, store: Store, keyboard: str, profile: str) -> None:
        self.runs = {k: store.run_info(run) for k, run in store.experiments()
                     if k in (keyboard, profile)}
        self.results: dict[tuple[str, str, str, str, str], Any] = {}
        for kind, exp in (("keyboard", keyboard), ("profile", profile)):
            for r in store.results(exp):
                self.results[(kind, r.parser, r.metric, r.projection, r.level)] = r.value
        self.parsers = store.parsers_of(keyboard)
        self.keyboard, self.profile = keyboard, profile

    def _get(self, kind: str, parser: str, metric: str, projection: str, level: str
             ) -> Any:
        """The result at LEVEL ('natural', 'clean' or 'artificial': the other one)."""
        for (k, p, m, proj, lvl), v in self.results.items():
            if (k, p, m, proj) != (kind, parser, metric, projection):
                continue
            if lvl == level or (level == "artificial" and lvl not in ("natural", "clean")):
                return v
        return None

    def harm(self, parser: str, figure: str) -> Harm | None:
        if figure == "las":
            score = REGISTRY["las"].score
            got = [self._get("keyboard", parser, "deps", "deprel", "clean"),
                   self._get("keyboard", parser, "deps", "deprel", "natural"),
                   self._get("keyboard", parser, "deps", "deprel", "artificial"),
                   self._get("profile", parser, "deps", "deprel", "artificial")]
            name = "las"
        else:
            score = REGISTRY["bigert-real-degradation"].score
            got = [self._get("keyboard", parser, "rows", figure, "natural"),
                   self._get("keyboard", parser, "rows", figure, "artificial"),
                   self._get("profile", parser, "rows", figure, "artificial")]
            name = "degr_real"
        if any(v is None or name not in v.get("stats", {}) for v in got):
            return None
        stats = [np.array(v["stats"][name], dtype=np.float64) for v in got]
        if len({len(s) for s in stats}) != 1:
            raise SystemExit(f"{self.keyboard} and {self.profile} hold different sentences "
                             f"({parser}, {figure}): not the same corpus")
        draws = bootstrap_scores(stats, score, SAMPLES, SEED)
        points = [float(score(s.sum(axis=0))) for s in stats]
        if figure == "las":  # points lost from the clean text
            points = [points[0] - x for x in points[1:]]
            draws = [draws[0] - d for d in draws[1:]]
        kinds = ("natural", "keyboard", "profile")
        return Harm(dict(zip(kinds, points, strict=True)), dict(zip(kinds, draws, strict=True)))

    def changed(self, parser: str) -> tuple[int, int] | None:
        """How many sentences PARSER gets more, and fewer, words right (head and label)
        as written than as corrected: what the natural LAS figure rests on."""
        got = [self._get("keyboard", parser, "deps", "deprel", lvl)
               for lvl in ("clean", "natural")]
        if any(v is None or "las" not in v.get("stats", {}) for v in got):
            return None
        clean, nat = (np.array(v["stats"]["las"], dtype=np.float64)[:, 0] for v in got)
        return int(np.sum(nat > clean)), int(np.sum(nat < clean))

    def corpus(self) -> dict[str, str]:
        """The sentences, words and typos of the natural level, and the replicates."""
        p = self.parsers[0]
        nat = self._get("keyboard", p, "rows", "head", "natural") or \
            self._get("keyboard", p, "rows", "head+deprel", "natural")
        art = self._get("keyboard", p, "rows", "head", "artificial") or {}
        if nat is None:
            return dict.fromkeys(("sentences", "words", "typos", "rate", "replicates"), "n/a")
        words = int(nat["rows"])
        reps = len(art.get("replicates") or [])
        return {"sentences": f"{len(nat['stats']['degr_real']):,}", "words": f"{words:,}",
                "typos": f"{round(nat['error_level'] * words):,}",
                "rate": pct(nat["error_level"]),
                "replicates": str(reps) if reps else "n/a"}

    def clean_las(self, parser: str) -> str:
        """PARSER's LAS on the corrected sentences."""
        v = self._get("keyboard", parser, "deps", "deprel", "clean")
        f1 = (v or {}).get("las", {}).get("f1")
        return pct(f1)

    def training(self, parser: str) -> dict[str, str]:
        """The sentences and seconds of PARSER's model's training, from the sidecar
        (MODEL.json) that parsebench train writes beside it; n/a for a model without."""
        specs = [p["spec"] for p in self.runs.get(self.keyboard, {}).get("config", {})
                 .get("parsers", []) if p.get("name") == parser]
        side = None
        if specs and ":" in specs[0]:
            model = specs[0].split(":", 1)[1].split(",", 1)[0]
            try:
                side = json.loads(Path(f"{model}.json").read_text(encoding="utf-8"))
            except (OSError, ValueError):
                side = None
        if not isinstance(side, dict):
            return {"train_sentences": "n/a", "train_seconds": "n/a"}
        return {"train_sentences": f"{side['sentences']:,}",
                "train_seconds": f"{side['seconds']:.0f}"}

    def seconds(self) -> str:
        """The two runs' time in seconds (for runs too short for minutes)."""
        spans = [r["finished"] - r["started"] for r in self.runs.values()
                 if r.get("finished") is not None]
        return f"{sum(spans):.0f}" if len(spans) == 2 else "n/a"

    def minutes(self) -> str:
        """The two runs' time from start to end, as the store recorded it."""
        spans = [r["finished"] - r["started"] for r in self.runs.values()
                 if r.get("finished") is not None]
        return f"{sum(spans) / 60:.1f}" if len(spans) == 2 else "n/a"

    def date(self) -> str:
        """The day the runs ended."""
        ends = [r["finished"] for r in self.runs.values() if r.get("finished") is not None]
        if not ends:
            return "n/a"
        d = datetime.datetime.fromtimestamp(max(ends))
        return f"{d.day} {d:%B %Y}"

    def parsed(self) -> str:
        return (f"{sum(r['parsed'] for r in self.runs.values()):,} sentences parsed, "
                f"{sum(r['cached'] for r in self.runs.values()):,} from the store")

    def profile_counts(self) -> dict[str, str]:
        """The profile's size, read from the file the profile run names (n/a if gone)."""
        path = self.runs.get(self.profile, {}).get("config", {}).get("profile")
        try:
            prof = json.loads(Path(path).read_text(encoding="utf-8")) if path else None
        except (OSError, ValueError):
            prof = None
        if not isinstance(prof, dict):
            return dict.fromkeys(("profile_errors", "profile_words", "profile_rate",
                                  "profile_real"), "n/a")
        return {"profile_errors": f"{prof['errors']:,}", "profile_words": f"{prof['words']:,}",
                "profile_rate": pct(prof["errors"] / prof["words"]),
                "profile_real": f"{prof['real_words']:,}"}


def harm_table(pair: Pair, harms: dict[tuple[str, str], Harm | None]) -> str:
    rows = ["| parser | figure | natural typos | keyboard model | learnt profile |",
            "|---|---|---|---|---|"]
    for p in pair.parsers:
        for fig, title in FIGURES:
            h = harms[(p, fig)]
            if h is None:
                rows.append(f"| {p} | {title} | n/a | n/a | n/a |")
                continue
            rows.append(f"| {p} | {title} | " + " | ".join(
                cell(h.point[k], h.iv(k)) for k in ("natural", "keyboard", "profile"))
                + " |")
    return "\n".join(rows)


def inside(h: Harm, kind: str) -> str:
    iv = h.iv("natural")
    if iv is None:
        return "n/a"
    return "yes" if iv[0] <= h.point[kind] <= iv[1] else "no"


def prediction_table(pair: Pair, harms: dict[tuple[str, str], Harm | None]) -> str:
    rows = ["| parser | figure | keyboard / natural | profile / natural | "
            "profile - natural | profile - keyboard | profile in natural's interval | "
            "keyboard in natural's interval |",
            "|---|---|---|---|---|---|---|---|"]
    for p in pair.parsers:
        for fig, title in FIGURES:
            h = harms[(p, fig)]
            if h is None:
                rows.append(f"| {p} | {title} | n/a | n/a | n/a | n/a | n/a | n/a |")
                continue
            kr, kiv = h.ratio("keyboard")
            pr, piv = h.ratio("profile")
            d, div = h.diff("profile")
            pk, pkiv = h.diff("profile", "keyboard")
            rows.append(f"| {p} | {title} | {ratio_cell(kr, kiv)} | {ratio_cell(pr, piv)} | "
                        f"{cell(d, div, True)} | {cell(pk, pkiv, True)} | "
                        f"{inside(h, 'profile')} | {inside(h, 'keyboard')} |")
    return "\n".join(rows)


def summary(pair: Pair, harms: dict[tuple[str, str], Harm | None], key: str
            ) -> dict[str, str]:
    """The figures the page's text cites: the range of each ratio over the parsers and
    figures, how many of the figures the profile's harm falls inside the natural
    interval of, and how many paired differences exclude 0 (above it, below it)."""
    known = [h for h in harms.values() if h is not None]
    out: dict[str, str] = {}
    for kind in ("keyboard", "profile"):
        rs = [h.ratio(kind)[0] for h in known]
        rs = [r for r in rs if np.isfinite(r)]
        out[f"{key}_{kind}_ratio_min"] = ratio(min(rs)) if rs else "n/a"
        out[f"{key}_{kind}_ratio_max"] = ratio(max(rs)) if rs else "n/a"
        out[f"{key}_{kind}_inside"] = str(sum(inside(h, kind) == "yes" for h in known))
        above = below = 0
        for h in known:
            iv = h.diff(kind)[1]
            above += iv is not None and iv[0] > 0
            below += iv is not None and iv[1] < 0
        out[f"{key}_{kind}_above"] = str(above)
        out[f"{key}_{kind}_below"] = str(below)
    out[f"{key}_figures"] = str(len(known))
    # the profile against the keyboard model: lower in how many figures, and in how many
    # the paired difference's interval excludes 0
    pk = [h.diff("profile", "keyboard") for h in known]
    out[f"{key}_profile_lower"] = str(sum(d < 0 for d, _ in pk))
    out[f"{key}_profile_keyboard_resolved"] = str(
        sum(iv is not None and (iv[0] > 0 or iv[1] < 0) for _, iv in pk))
    return out


@dataclass
class Typos:
    """The CorrectForm= typos of a CoNLL-U file: their forms (lowercased), the sentences
    holding one and those sentences' words, every word form of the file, and how many
    typos split a word (the typo's word heads goeswith pieces: its CorrectForm is the
    whole word, and a corrected text that replaces the typo's form keeps the pieces) and
    how many are grammatical slips (MISC also corrects a feature: CorrectNumber=...)."""

    typos: list[str]
    sentences: int
    words: int
    forms: set[str]
    split: int = 0
    grammar: int = 0


def typo_forms(path: Path) -> Typos:
    out = Typos([], 0, 0, set())
    here: list[str] = []
    typos: dict[str, str] = {}  # the typos' word ids -> their forms
    pieces: set[str] = set()  # the heads of goeswith words

    def end() -> None:
        if typos:
            out.typos.extend(typos.values())
            out.sentences += 1
            out.words += len(here)
            out.split += len(pieces & typos.keys())
        here.clear()
        typos.clear()
        pieces.clear()

    with path.open(encoding="utf-8") as fh:
        for line in fh:
            cols = line.rstrip("\n").split("\t")
            if not line.strip():
                end()
            if len(cols) != 10 or not cols[0].isdigit():
                continue
            here.append(cols[1])
            out.forms.add(cols[1].lower())
            misc = cols[9].split("|")
            if any(m.startswith("CorrectForm=") for m in misc):
                typos[cols[0]] = cols[1].lower()
                out.grammar += any(m.startswith("Correct") and not
                                   m.startswith("CorrectForm=") for m in misc)
            if cols[7] == "goeswith":
                pieces.add(cols[6])
    end()
    return out


def seen(key: str, train: Path, evals: list[Path]) -> dict[str, str]:
    """The EVAL files' natural typos, and how many of them a parser trained on TRAIN met
    there: as a word form, and as a marked typo."""
    tr = typo_forms(train)
    ev = [typo_forms(e) for e in evals]
    typos = [t for e in ev for t in e.typos]
    as_typo = set(tr.typos)
    n = len(typos)
    words = sum(e.words for e in ev)
    word = sum(t in tr.forms for t in typos)
    typo = sum(t in as_typo for t in typos)
    return {f"{key}_seen_typos": f"{n:,}", f"{key}_seen_train": train.name,
            f"{key}_seen_sentences": f"{sum(e.sentences for e in ev):,}",
            f"{key}_seen_words": f"{words:,}",
            f"{key}_seen_split": f"{sum(e.split for e in ev):,}",
            f"{key}_seen_grammar": f"{sum(e.grammar for e in ev):,}",
            f"{key}_seen_rate": pct(n / words if words else None),
            f"{key}_train_typos": f"{len(tr.typos):,}",
            f"{key}_train_sentences": f"{tr.sentences:,}",
            f"{key}_train_split": f"{tr.split:,}",
            f"{key}_seen_word": f"{word:,}", f"{key}_seen_word_pct": pct(word / n if n else None),
            f"{key}_seen_typo": f"{typo:,}", f"{key}_seen_typo_pct": pct(typo / n if n else None)}


# The pairs of experiments the page can hold: the key of its placeholders, the keyboard
# experiment, its profile twin. English is always there; French when the template has
# its tables.
PAIRS = (("en", KEYBOARD, PROFILE),
         ("fr", "noise-validity-fr-keyboard", "noise-validity-fr-profile"))


def width(iv: tuple[float, float] | None) -> float:
    return iv[1] - iv[0] if iv is not None else float("nan")


def pair_parts(store: Store, key: str, keyboard: str, profile: str) -> dict[str, str]:
    """The tables and placeholders of one language's pair of experiments."""
    parts: dict[str, str] = {}
    pair = Pair(store, keyboard, profile)
    harms = {(p, f): pair.harm(p, f) for p in pair.parsers for f, _ in FIGURES}
    parts[f"{key}-harm"] = harm_table(pair, harms)
    parts[f"{key}-prediction"] = prediction_table(pair, harms)
    parts.update({f"{key}_{k}": v for k, v in {**pair.corpus(), **pair.profile_counts()}
                  .items()})
    parts[f"{key}_minutes"] = pair.minutes()
    parts[f"{key}_seconds"] = pair.seconds()
    parts[f"{key}_parsed"] = pair.parsed()
    parts[f"{key}_date"] = pair.date()
    parts.update(summary(pair, harms, key))
    widths: list[float] = []
    pk_widths: list[float] = []
    for p in pair.parsers:
        for fig, _ in FIGURES:
            h = harms[(p, fig)]
            name = f"{key}_{p}_{fig}"
            for kind in ("natural", "keyboard", "profile"):
                parts[f"{name}_{kind}"] = pct(h.point[kind]) if h else "n/a"
                parts[f"{name}_{kind}_ci"] = ci(h.iv(kind)) if h else "n/a"
            for kind in ("keyboard", "profile"):
                parts[f"{name}_{kind}_ratio"] = ratio(h.ratio(kind)[0]) if h else "n/a"
                parts[f"{name}_{kind}_diff"] = cell(*h.diff(kind), True) if h else "n/a"
            parts[f"{name}_profile_keyboard_diff"] = \
                cell(*h.diff("profile", "keyboard"), True) if h else "n/a"
            if h is not None and np.isfinite(w := width(h.iv("natural"))):
                widths.append(w)
            if h is not None and np.isfinite(w := width(h.diff("profile", "keyboard")[1])):
                pk_widths.append(w)
        parts[f"{key}_{p}_clean_las"] = pair.clean_las(p)
        parts.update({f"{key}_{p}_{k}": v for k, v in pair.training(p).items()})
        moved = pair.changed(p)
        parts[f"{key}_{p}_better"] = str(moved[0]) if moved else "n/a"
        parts[f"{key}_{p}_worse"] = str(moved[1]) if moved else "n/a"
    # how wide the natural harm's intervals and the profile - keyboard differences' are,
    # in points, over the parsers and figures
    for name, ws in (("natural", widths), ("profile_keyboard", pk_widths)):
        parts[f"{key}_{name}_width_min"] = pct(min(ws)) if ws else "n/a"
        parts[f"{key}_{name}_width_max"] = pct(max(ws)) if ws else "n/a"
    return parts


def build(store_path: Path, template: Path, output: Path, seen_args: list[str] | None = None
          ) -> None:
    store = Store(store_path)
    names = {name for name, _ in store.experiments()}
    text = template.read_text(encoding="utf-8")
    parts: dict[str, str] = {"machine": machine()}
    for key, keyboard, profile in PAIRS:
        if key != "en" and f"<!-- table: {key}-harm -->" not in text:
            continue
        if keyboard not in names or profile not in names:
            raise SystemExit(f"{store_path}: no results of {keyboard} and {profile}; "
                             "run them first (make noise-validity-study)")
        parts.update(pair_parts(store, key, keyboard, profile))
    for arg in seen_args or []:
        key, train, evals = arg.split(":", 2)
        parts.update(seen(key, Path(train), [Path(e) for e in evals.split(",")]))
    write(output, fill(text, parts))


if __name__ == "__main__":
    if len(sys.argv) < 4:
        raise SystemExit(__doc__)
    build(Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3]), sys.argv[4:])

"""Which calibration model transfers from one text to another? (issue 8, docs/calibration.md)

Run: ``.venv/bin/python benchmarks/calibration_models.py`` from the project
root, with ../shared beside it (about 6 minutes on 2 cores: it parses EWT dev
and test and Talbanken dev at 1-20% misspellings, 3 replicates, as
bench_calibration.py does). Each model learns on a sample (gold, clean and
noisy parses at one level) and predicts the real degradation of a target from
the target's parses alone; the tables give |predicted - real| in points, mean
over the replicates, for three kinds of sample/target pairs:

- EWT dev -> EWT test (the pair issue 8 names);
- the 20 ordered pairs of EWT's five genres (dev and test pooled);
- Talbanken dev, first half -> second half.

Models (all use the sample's clean accuracy for the target, which has no gold):

- ratio: net loss per changed row, k = (x_aab - x_aba) / (1 - acr_0n): what
  parsebench ships (ratio to the upper bound);
- per-misspelling: net loss per misspelled word (ignores the target's changes);
- stratified: k per (distance to the misspelling, the row's relation in the
  clean parse, how many of the other 14 noisy versions changed the row),
  shrunk towards k with a prior of 20 rows;
- two-source: net loss of a sentence = a x misspelled words + b x changed rows,
  least squares over the sample's sentences.

Last, the shipped model with a sample drawn from the target text itself: a
random 10% of EWT test's sentences, the rest as the target, 20 splits.
"""

from __future__ import annotations

import itertools
import random
import statistics
from collections import defaultdict
from collections.abc import Callable, Sequence

from bench_calibration import LEVELS, REPLICATES, SHARED, noisy_versions, parse

from parsebench.formats.conllu import Sentence, read_conllu
from parsebench.metrics.robustness import calibration
from parsebench.metrics.robustness.bigert_scorer import _bucket, _distances
from parsebench.model.parses import from_sentence, misspelled_rows, project

Row = tuple[int, str, bool, bool, bool, str, bool, int]
"""(sentence, distance bucket, right in clean, right in noisy, changed, relation in the clean
parse, misspelled, how many of the other noisy versions changed the row)."""
Version = tuple[float, int]
PROJECTIONS = ("head+deprel", "upos")
Rows = list[tuple[Row, int]]
"""Rows with the replicate they come from."""


def records(gold_s: list[Sentence], spec: str, lang: str, first: int = 0
            ) -> dict[str, dict[Version, list[Row]]]:
    """Per projection and noisy version, a record per row; sentences numbered from FIRST."""
    clean_s = parse(gold_s, spec)
    noisy = {key: parse(v, spec, clean_s) for key, v in noisy_versions(gold_s, lang).items()}
    gold = [from_sentence(x) for x in gold_s]
    clean = [from_sentence(x) for x in clean_s]
    rel = [project(c, "deprel") for c in clean]
    out = {}
    for proj in PROJECTIONS:
        gp = [project(g, proj) for g in gold]
        cp = [project(c, proj) for c in clean]
        raw = {}
        for key, noisy_s in noisy.items():
            rows = []
            for k, n_s in enumerate(noisy_s):
                n = from_sentence(n_s)
                flags = misspelled_rows(clean[k], n)
                dist = _distances(flags)
                np_ = project(n, proj)
                rows += [(first + k, _bucket(dist[i]), cp[k][i] == gp[k][i],
                          np_[i] == gp[k][i], cp[k][i] != np_[i], rel[k][i], flags[i])
                         for i in range(len(cp[k]))]
            raw[key] = rows
        changes = [sum(col) for col in zip(*([r[4] for r in v] for v in raw.values()),
                                           strict=True)]
        out[proj] = {key: [(*r, changes[i] - r[4]) for i, r in enumerate(rows)]
                     for key, rows in raw.items()}
    return out


def ratio(sample: Rows, target: Rows, acr: float) -> float:
    changed = [r for r, _ in sample if r[4]]
    k = sum(r[2] - r[3] for r in changed) / len(changed)
    return k * sum(r[4] for r, _ in target) / len(target) / acr


def per_misspelling(sample: Rows, target: Rows, acr: float) -> float:
    loss = sum(r[2] - r[3] for r, _ in sample if r[4])
    per = loss / sum(r[6] for r, _ in sample)
    return per * sum(r[6] for r, _ in target) / len(target) / acr


def _cell(r: Row) -> tuple[str, str, int]:
    c = r[7]
    return r[1], r[5], 0 if c == 0 else 1 if c <= 2 else 2 if c <= 5 else 3


def stratified(sample: Rows, target: Rows, acr: float, prior: float = 20) -> float:
    changed = [r for r, _ in sample if r[4]]
    k = sum(r[2] - r[3] for r in changed) / len(changed)
    cells: dict[tuple[str, str, int], list[int]] = defaultdict(lambda: [0, 0])
    for r in changed:
        cell = cells[_cell(r)]
        cell[0] += r[2] - r[3]
        cell[1] += 1
    shrunk = {key: (a + prior * k) / (n + prior) for key, (a, n) in cells.items()}
    loss = sum(shrunk.get(_cell(r), k) for r, _ in target if r[4])
    return loss / len(target) / acr


def two_source(sample: Rows, target: Rows, acr: float) -> float:
    per: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0, 0])
    for r, seed in sample:  # misspelled, changed, net loss of each sentence and replicate
        s = per[(r[0], seed)]
        s[0] += r[6]
        s[1] += r[4]
        s[2] += (r[2] - r[3]) if r[4] else 0
    mm = sum(m * m for m, _, _ in per.values())
    md = sum(m * d for m, d, _ in per.values())
    dd = sum(d * d for _, d, _ in per.values())
    ml = sum(m * v for m, _, v in per.values())
    dl = sum(d * v for _, d, v in per.values())
    det = mm * dd - md * md
    a, b = (ml * dd - md * dl) / det, (mm * dl - md * ml) / det
    return (a * sum(r[6] for r, _ in target) + b * sum(r[4] for r, _ in target)) \
        / len(target) / acr


MODELS: dict[str, Callable[[Rows, Rows, float], float]] = {
    "ratio": ratio, "per-misspelling": per_misspelling, "stratified": stratified,
    "two-source": two_source}


def evaluate(pairs: Sequence[tuple[set[int], set[int]]], versions: dict[Version, list[Row]]
             ) -> dict[str, list[list[float]]]:
    """Model -> level -> |predicted - real| of every pair, in points."""
    errors: dict[str, list[list[float]]] = {m: [[] for _ in LEVELS] for m in MODELS}
    for src, dst in pairs:
        for li, rate in enumerate(LEVELS):
            sample = [(r, seed) for seed in range(1, REPLICATES + 1)
                      for r in versions[(rate, seed)] if r[0] in src]
            acr = statistics.fmean(r[2] for r, seed in sample if seed == 1)
            targets = [[(r, seed) for r in versions[(rate, seed)] if r[0] in dst]
                       for seed in range(1, REPLICATES + 1)]
            for name, model in MODELS.items():
                got = []
                for target in targets:
                    right = sum(r[2] for r, _ in target)
                    real = sum(r[2] - r[3] for r, _ in target if r[4]) / right
                    got.append(model(sample, target, acr) - real)
                errors[name][li].append(100 * abs(statistics.fmean(got)))
    return errors


def table(title: str, errors: dict[str, list[list[float]]]) -> None:
    print(f"\n#### {title}\n")
    many = len(errors["ratio"][0]) > 1
    print(f"| model | {' | '.join(f'{100 * r:g}%' for r in LEVELS)} | better than ratio |")
    print("|---|" + "---:|" * (len(LEVELS) + 1))
    for name, per_level in errors.items():
        cells = [f"{statistics.fmean(v):.2f}" + (f" ({max(v):.2f})" if many else "")
                 for v in per_level]
        wins = sum(a < b for v, w in zip(per_level, errors["ratio"], strict=True)
                   for a, b in zip(v, w, strict=True))
        total = sum(len(v) for v in per_level)
        print(f"| {name} | {' | '.join(cells)} | "
              f"{'-' if name == 'ratio' else f'{wins}/{total}'} |", flush=True)
    print("\n|predicted - real|, points" + (": mean over the pairs (worst)" if many else ""))


def same_text(versions: dict[Version, list[Row]], sentences: range, share: float,
              splits: int = 20) -> None:
    """The shipped calibration (parsebench.metrics.robustness.calibration) with a random SHARE of a
    text's own sentences as the sample and the rest as the target."""
    errors: list[list[float]] = [[] for _ in LEVELS]
    covered = [0] * len(LEVELS)
    for split in range(splits):
        chosen = set(random.Random(split).sample(sentences, round(share * len(sentences))))
        for li, rate in enumerate(LEVELS):
            per = []
            for seed in range(1, REPLICATES + 1):
                sums: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
                for r in versions[(rate, seed)]:
                    if r[0] in sentences:
                        x = sums[r[0]]
                        x[0] += 1
                        x[1] += r[4]
                        x[2] += (r[2] - r[3]) if r[4] else 0
                        x[3] += r[2]
                per.append(sums)
            sample = [(x[0], x[1], x[2]) for sums in per for k, x in sums.items() if k in chosen]
            acr = sum(x[3] for k, x in per[0].items() if k in chosen) \
                / sum(x[0] for k, x in per[0].items() if k in chosen)
            cal = calibration.fit(sample, replicates=200)
            got = []
            for sums in per:
                rest = [x for k, x in sums.items() if k not in chosen]
                real = sum(x[2] for x in rest) / sum(x[3] for x in rest)
                out = calibration.apply(cal, [(x[0], x[1], x[2]) for x in rest], acr)
                got.append(out["degr_calibrated"] - real)
                lo, hi = out["calibration"]["interval"]
                covered[li] += lo <= real <= hi
            errors[li].append(100 * abs(statistics.fmean(got)))
    print(f"\n#### EWT test: a random {share:.0%} of its sentences -> the rest "
          f"({splits} splits, ratio)\n")
    print(f"| | {' | '.join(f'{100 * r:g}%' for r in LEVELS)} |")
    print("|---|" + "---:|" * len(LEVELS))
    print("| mean (worst) abs(calibrated - real) | "
          + " | ".join(f"{statistics.fmean(v):.2f} ({max(v):.2f})" for v in errors) + " |")
    print("| 95% interval covers the real value | "
          + " | ".join(f"{c}/{splits * REPLICATES}" for c in covered) + " |", flush=True)


def merge(a: dict[Version, list[Row]], b: dict[Version, list[Row]]) -> dict[Version, list[Row]]:
    return {key: a[key] + b[key] for key in a}


def main() -> None:
    en = SHARED / "data/ud-english-ewt"
    dev = read_conllu(en / "en_ewt-ud-dev.conllu")
    test = read_conllu(en / "en_ewt-ud-test.conllu")
    sv = read_conllu(SHARED / "data/ud-swedish-talbanken/sv_talbanken-ud-dev.conllu")
    genres: dict[str | None, set[int]] = defaultdict(set)
    for k, s in enumerate(dev + test):
        genres[s.category].add(k)
    en_spec = f"udpipe:{SHARED / 'models/en_ewt.udpipe'}"
    sv_spec = f"udpipe:{SHARED / 'models/sv_talbanken-testsplit.udpipe'}"
    half = len(sv) // 2
    en_parts = [records(dev, en_spec, "en"), records(test, en_spec, "en", len(dev))]
    sv_parts = [records(sv[:half], sv_spec, "sv"), records(sv[half:], sv_spec, "sv", half)]
    for proj in PROJECTIONS:
        print(f"\n### {proj}")
        # noised file by file, as bench_calibration.py does, so its ratio row is that table's
        versions = merge(en_parts[0][proj], en_parts[1][proj])
        table("EWT dev -> test",
              evaluate([(set(range(len(dev))), set(range(len(dev), len(dev) + len(test))))],
                       versions))
        table("EWT, the 20 ordered pairs of genres (dev and test pooled)",
              evaluate(list(itertools.permutations(genres.values(), 2)), versions))
        same_text(versions, range(len(dev), len(dev) + len(test)), 0.1)
        table("Talbanken dev, first half -> second half",
              evaluate([(set(range(half)), set(range(half, len(sv))))],
                       merge(sv_parts[0][proj], sv_parts[1][proj])))

if __name__ == "__main__":
    main()

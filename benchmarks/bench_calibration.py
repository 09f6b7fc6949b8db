"""Does the calibrated degradation hold? Calibrate on one annotated set, check on another.

Run: ``.venv/bin/python benchmarks/bench_calibration.py [en|sv]`` from the
project root, with ../shared beside it. English: UDPipe (en_ewt.udpipe),
calibrated on EWT dev, evaluated on EWT test as if it had no gold, then
compared with test's real degradation; the clean accuracy used for test is
the one measured on dev, as a user without test's gold would have it. Swedish: the Talbanken model,
calibrated on the first half of dev and evaluated on the second (the model
was trained on test). Misspellings at 1, 2, 5, 10, 20% x 3 replicates; rows
projected as head+deprel and as UPOS. Noisy sentences identical to the clean
ones are not parsed again (UDPipe is deterministic), as the runner's cache does.
The printed Markdown tables are the ones in docs/calibration.md.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

from parsebench.formats.conllu import Sentence, read_conllu
from parsebench.metrics.robustness import calibration
from parsebench.metrics.robustness.bigert_scorer import count_rows, rows_figures
from parsebench.model.parses import from_sentence, project, to_conllu
from parsebench.noise.keyboard import KEYBOARDS, Keyboard
from parsebench.noise.lexicon import Lexicon
from parsebench.noise.spelling import Corpus, Settings
from parsebench.noise.spelling_output import apply_to_conllu
from parsebench.parsers.run import parse_sentences

SHARED = Path(__file__).resolve().parent.parent.parent / "shared"
LEVELS = (0.01, 0.02, 0.05, 0.10, 0.20)
REPLICATES = 3


def parse(sentences: list[Sentence], spec: str, clean: list[Sentence] | None = None
          ) -> list[Sentence]:
    """Parse; with CLEAN (its parse), only the sentences whose words changed.

    An unchanged sentence has no misspelling record either, so its clean parse
    is its noisy parse as it stands.
    """
    todo = [k for k, s in enumerate(sentences)
            if clean is None or s.forms != clean[k].forms]
    run = parse_sentences([sentences[k] for k in todo], spec, workers=2)
    out = list(clean) if clean is not None else list(sentences)
    for k, s, t in zip(todo, run.sentences, run.timed, strict=True):
        out[k] = to_conllu(s, t.outcome)
    return out


def noisy_versions(gold: list[Sentence], lang: str) -> dict[tuple[float, int], list[Sentence]]:
    corpus = Corpus([s.forms for s in gold],
                    [{i for a, b, _ in s.multiword for i in range(a, b + 1)} for s in gold])
    kb = Keyboard.load(KEYBOARDS[lang])
    lex = Lexicon.load(None, lang)
    out = {}
    for rate in LEVELS:
        for seed in range(1, REPLICATES + 1):
            report = corpus.plan(Settings(rate=rate, seed=seed), kb, lex)
            out[(rate, seed)] = apply_to_conllu(gold, report)
    return out


def main() -> None:
    lang = sys.argv[1] if len(sys.argv) > 1 else "en"
    if lang == "en":
        spec = f"udpipe:{SHARED / 'models/en_ewt.udpipe'}"
        sample = read_conllu(SHARED / "data/ud-english-ewt/en_ewt-ud-dev.conllu")
        target = read_conllu(SHARED / "data/ud-english-ewt/en_ewt-ud-test.conllu")
    else:
        spec = f"udpipe:{SHARED / 'models/sv_talbanken-testsplit.udpipe'}"
        dev = read_conllu(SHARED / "data/ud-swedish-talbanken/sv_talbanken-ud-dev.conllu")
        sample, target = dev[:len(dev) // 2], dev[len(dev) // 2:]
    sets = {}
    for name, gold in (("sample", sample), ("target", target)):
        clean = parse(gold, spec)
        noisy = {key: parse(v, spec, clean) for key, v in noisy_versions(gold, lang).items()}
        sets[name] = ([from_sentence(x) for x in gold], [from_sentence(x) for x in clean],
                      {k: [from_sentence(x) for x in v] for k, v in noisy.items()})
        print(f"{name}: {len(gold)} sentences, {sum(len(s) for s in gold)} words parsed",
              file=sys.stderr)
    for proj in ("head+deprel", "upos"):
        print(f"\n### {lang}, {proj}\n")
        print("| level | parse differs | bounds (paper's estimate) | calibrated [95% interval] "
              "| real | paper - real | calibrated - real | within interval |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|")
        worst = 0.0
        sg, sc, sn = sets["sample"]
        tg, tc, tn = sets["target"]
        sample_acr = sum(a == b for g, c0 in zip(sg, sc, strict=True)
                         for a, b in zip(project(g, proj), project(c0, proj), strict=True)) \
            / sum(len(g) for g in sg)
        for rate in LEVELS:
            per: list[tuple[int, int, int]] = []
            for seed in range(1, REPLICATES + 1):
                per += count_rows(sc, sn[(rate, seed)], sg, proj, ("", "", "")).per_sentence
            cal = calibration.fit(per)
            rows = []
            for seed in range(1, REPLICATES + 1):
                c = count_rows(tc, tn[(rate, seed)], tg, proj, ("", "", ""))
                fig = rows_figures(c, None)
                # as if the target had no gold: the clean accuracy is the sample's
                fig.update(calibration.apply(cal, c.per_sentence, sample_acr))
                rows.append(fig)

            def mean(f, rows=rows):  # type: ignore[no-untyped-def]
                return statistics.fmean(f(r) for r in rows)

            real = mean(lambda r: r["gold"]["degr_real"])
            cal_d = mean(lambda r: r["degr_calibrated"])
            est = mean(lambda r: r["degr_estimate"])
            inside = sum(r["calibration"]["interval"][0] <= r["gold"]["degr_real"]
                         <= r["calibration"]["interval"][1] for r in rows)
            worst = max(worst, abs(cal_d - real))
            print(f"| {100 * rate:g}% | {100 * mean(lambda r: r['differs']):.2f} "
                  f"| {100 * mean(lambda r: r['degr_lower']):.2f} - "
                  f"{100 * mean(lambda r: r['degr_upper']):.2f} ({100 * est:.2f}) "
                  f"| {100 * cal_d:.2f} "
                  f"[{100 * mean(lambda r: r['calibration']['interval'][0]):.2f} - "
                  f"{100 * mean(lambda r: r['calibration']['interval'][1]):.2f}] "
                  f"| {100 * real:.2f} | {100 * (est - real):+.2f} | {100 * (cal_d - real):+.2f} "
                  f"| {inside}/{REPLICATES} |", flush=True)
        print(f"\nlargest |calibrated - real|: {100 * worst:.2f} points")


if __name__ == "__main__":
    main()

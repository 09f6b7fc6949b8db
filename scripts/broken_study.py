"""Build docs/broken-outputs.md (``make broken-study``): the uninformed baselines beside
real parsers on three treebanks, the baselines under misspellings, and a spelling
corrector put before the parser.

Every step is a parsebench command run here (``parse``, ``compare``, ``run``, ``noise``,
``eval deps --align words``) into OUT (outside the repository); a file already there is
reused, so delete OUT to measure again. The corrector is symspellpy (``pip install
'.[study]'``) with its bundled English frequency dictionary, word by word, so the rows
stay one to one. Intervals are 95% percentile bootstrap intervals over sentences (2,000
resamples, seed 1): ``compare``'s, the run's, and for the corrector's gain parsebench's
paired bootstrap over the per-sentence counts of ``eval deps --per-sentence``. Why a
script: the page crosses commands and a program that is no parser.

    python scripts/broken_study.py OUT TEMPLATE PAGE
"""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
from doc_template import fill, machine, pct, today, write

from parsebench.formats.conllu import Sentence, read_conllu, write_conllu
from parsebench.metrics.core.resample import bootstrap_scores, interval, paired_bootstrap
from parsebench.metrics.core.scores import f1_of_counts
from parsebench.store import Store

SAMPLES, SEED = 2000, 1
SHARED = Path("../shared")
MODELS = SHARED / "models"
TREEBANKS = (("ewt", "EWT test", SHARED / "data/ud-english-ewt/en_ewt-ud-test.conllu"),
             ("tweebank", "Tweebank v2 test",
              SHARED / "data/tweebank-v2/en-ud-tweet-test.fixed.conllu"),
             ("eslspok", "ESLSpok test",
              SHARED / "data/ud-english-eslspok/en_eslspok-ud-test.conllu"))
BASELINES = tuple(f"baseline-{k}" for k in ("left", "right", "random", "random-projective"))
PARSERS = {"udpipe": f"udpipe:{MODELS}/en_ewt.udpipe",
           "spacy-ud": f"spacy:{MODELS}/en_ewt_spacy",
           "biaffine": f"supar:{MODELS}/en_ewt_biaffine/en_ewt_biaffine.pt"}
SYSTEMS = {**{b: b.replace("-", ":", 1) for b in BASELINES}, **PARSERS}
EXPERIMENT = Path("studies/broken-baselines.toml")
RATES = ("0.05", "0.20")
CLI = Path(sys.executable).parent / "parsebench"


def run(*args: str | Path, out: Path | None = None) -> str:
    """One parsebench command; its standard output, also written to OUT when given. Its
    warnings (the baselines' one label, the gold's empty nodes) are known and the page
    says them: they are shown only when the command fails."""
    print("parsebench", *args, file=sys.stderr, flush=True)
    got = subprocess.run([str(CLI), *map(str, args)], text=True, capture_output=True)
    if got.returncode:
        sys.exit(f"broken_study: parsebench {' '.join(map(str, args))} failed:\n{got.stderr}")
    if out is not None:
        write(out, got.stdout)
    return got.stdout


def parse(source: Path, spec: str, output: Path) -> Path:
    if not output.exists():
        output.parent.mkdir(parents=True, exist_ok=True)
        run("parse", source, "-o", output, "--parser", spec, "--workers", "1",
            "--batch-size", "64", "-q")
    return output


def ci(iv: Any, sign: bool = False) -> str:
    return "n/a" if not iv or iv[0] is None else f"[{pct(iv[0], sign)}, {pct(iv[1], sign)}]"


# --- the baselines beside the parsers ------------------------------------------------

def compare(gold: Path, files: dict[str, Path], metric: str, out: Path) -> dict[str, Any]:
    if not out.exists():
        run("compare", gold, *files.values(), "--metric", metric, "--all-pairs",
            "--samples", str(SAMPLES), "--seed", str(SEED), "--json", "-q", out=out)
    return json.loads(out.read_text(encoding="utf-8"))


def accuracy(out: Path) -> tuple[str, dict[str, str]]:
    """UAS and LAS of every system on each treebank, and the paired test of each parser
    against the best baseline (by the same metric)."""
    rows = ["| treebank | system | UAS | 95% CI | LAS | 95% CI |",
            "|---|---|---:|---|---:|---|"]
    tests = ["| treebank | metric | best baseline | parser | parser - baseline | 95% CI | "
             "p (Holm) |",
             "|---|---|---|---|---:|---|---:|"]
    facts: dict[str, str] = {}
    margins: list[tuple[float, str, float]] = []
    for key, name, gold in TREEBANKS:
        files = {s: parse(gold, spec, out / key / f"{s}.conllu") for s, spec in SYSTEMS.items()}
        got = {m: compare(gold, files, m, out / key / f"compare-{m}.json") for m in ("uas", "las")}
        names = list(files)
        for i, s in enumerate(names):
            u, las = got["uas"]["systems"][i], got["las"]["systems"][i]
            rows.append(f"| {name} | {s} | {pct(u['score'])} | {ci(u['ci'])} | "
                        f"{pct(las['score'])} | {ci(las['ci'])} |")
        for m, res in got.items():
            scores = [x["score"] for x in res["systems"]]
            best = max(range(len(BASELINES)), key=lambda i: scores[i])
            facts[f"{key}_best_{m}"] = f"{names[best]} {pct(scores[best])}"
            for p in range(len(BASELINES), len(names)):
                pair = next(x for x in res["pairs"] if {x["baseline"], x["system"]} == {best, p})
                sign = 1 if pair["system"] == p else -1
                iv = pair["ci"] and sorted(sign * v for v in pair["ci"])
                margins.append((sign * pair["delta"], f"{names[p]} on {name}, {m.upper()}",
                                pair["p"]))
                tests.append(f"| {name} | {m.upper()} | {names[best]} | {names[p]} | "
                             f"{pct(sign * pair['delta'], True)} | {ci(iv, True)} | "
                             f"{pair['p']:.4f} |")
        sentences = got["las"]["sentences"]
        facts[f"{key}_sentences"] = f"{sentences:,}"
    low = min(margins)
    facts["min_margin"] = f"{pct(low[0])} points ({low[1]})"
    facts["max_p"] = f"{max(m[2] for m in margins):.4f}"
    return "\n".join(rows) + "\n\n" + "\n".join(tests), facts


# --- the baselines under misspellings ---------------------------------------------------

def robustness(out: Path) -> tuple[str, dict[str, str]]:
    """Bigert's and Kakkonen's figures of the baselines and UDPipe, with accuracy."""
    store = out / "baselines.sqlite"
    if not store.exists():
        run("run", EXPERIMENT, "--workers", "1", "--store", store,
            "--report", out / "baselines-report")
    results: dict[tuple[str, str, str, str], Any] = {}
    s = Store(store)
    for exp, _ in s.experiments():
        for r in s.results(exp):
            results[(r.parser, r.metric, r.projection, r.level)] = r.value
    parsers = list(dict.fromkeys(k[0] for k in results))  # the experiment's order
    facts: dict[str, str] = {}
    rows = ["| parser | misspelled words | UAS | 95% CI | LAS | parse differs (Bigert, "
            "head+deprel) | real degradation | 95% CI | Kakkonen unlabeled | Kakkonen labeled "
            "| 95% CI |", "|---|---|---:|---|---:|---:|---:|---|---:|---:|---|"]
    for p in parsers:
        for level in ("clean", *(f"rate={float(r):g}" for r in RATES)):
            deps = results[(p, "deps", "deprel", level)]
            las = (f"{pct(deps['uas']['f1'])} | {ci(deps['ci95'].get('uas'))} | "
                   f"{pct(deps['las']['f1'])}")
            tag = f"{p}_{level.removeprefix('rate=')}"
            facts[f"{tag}_uas"], facts[f"{tag}_las"] = (pct(deps["uas"]["f1"]),
                                                        pct(deps["las"]["f1"]))
            if level == "clean":
                rows.append(f"| {p} | 0% | {las} | | | | | | |")
                continue
            bigert = results[(p, "rows", "head+deprel", level)]
            kak = results[(p, "sentences", "deps", level)]
            facts.update({f"{tag}_differs": pct(bigert["differs"]["mean"]),
                          f"{tag}_degr": pct(bigert["gold"]["degr_real"]["mean"]),
                          f"{tag}_kakkonen": pct(kak["labeled"])})
            rows.append(
                f"| {p} | {bigert['error_level_label']} | {las} | "
                f"{pct(bigert['differs']['mean'])} | "
                f"{pct(bigert['gold']['degr_real']['mean'])} | "
                f"{ci(bigert['ci95'].get('degr_real'))} | {pct(kak['unlabeled'])} | "
                f"{pct(kak['labeled'])} | {ci(kak['ci95'].get('labeled'))} |")
    return "\n".join(rows), facts


# --- correct, then parse -----------------------------------------------------------

class Corrector:
    """symspellpy's top suggestion within two edits for each alphabetic word of two
    letters or more that its dictionary lacks; other words stay as they are."""

    def __init__(self) -> None:
        try:
            from importlib.resources import files

            from symspellpy import SymSpell, Verbosity
        except ImportError:
            sys.exit("broken_study: the corrector needs symspellpy: pip install '.[study]'")
        self.verbosity = Verbosity.TOP
        self.sym = SymSpell(max_dictionary_edit_distance=2, prefix_length=7)
        dictionary = files("symspellpy") / "frequency_dictionary_en_82_765.txt"
        if not self.sym.load_dictionary(str(dictionary), term_index=0, count_index=1):
            sys.exit(f"broken_study: cannot read {dictionary}")
        self.seen: dict[str, str] = {}

    def word(self, w: str) -> str:
        if len(w) < 2 or not w.isalpha():
            return w
        if w not in self.seen:
            got = self.sym.lookup(w, self.verbosity, max_edit_distance=2, transfer_casing=True)
            self.seen[w] = got[0].term if got and got[0].distance > 0 else w
        return self.seen[w]

    def sentence(self, s: Sentence) -> Sentence:
        return replace(s, forms=[self.word(w) for w in s.forms])


def misc_orig(misc: str) -> str | None:
    for part in misc.split("|"):
        if part.startswith("Orig="):
            return part[5:]
    return None


def correct(corrector: Corrector, noisy: Path, output: Path, gold: Path) -> Counter[str]:
    """Write the corrected file; count what the corrector did to misspelled words (their
    MISC records the original, read only here, never by the corrector) and to others."""
    sents = read_conllu(noisy)
    fixed = [corrector.sentence(s) for s in sents]
    if not output.exists():
        with output.open("w", encoding="utf-8") as fh:
            write_conllu(fixed, fh)
    counts: Counter[str] = Counter()
    for g, n, c in zip(read_conllu(gold), sents, fixed, strict=True):
        for orig, was, now, misc, upos in zip(g.forms, n.forms, c.forms, n.misc, g.upos,
                                              strict=True):
            if misc_orig(misc) is not None or was != orig:
                counts["misspelled"] += 1
                counts["restored" if now == orig else "kept" if now == was else "wrong"] += 1
            else:
                counts["clean"] += 1
                counts["clean_changed"] += now != was
                counts["clean_changed_propn"] += now != was and upos == "PROPN"
    return counts


def per_sentence(tsv: Path) -> np.ndarray:
    with tsv.open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    return np.array([[int(r["las_correct"]), int(r["las_gold"]), int(r["las_system"])]
                     for r in rows], dtype=np.float64)


def score(gold: Path, system: Path) -> tuple[dict[str, Any], np.ndarray]:
    js, tsv = system.with_suffix(".json"), system.with_suffix(".tsv")
    if not js.exists():
        run("eval", "deps", gold, system, "--align", "words", "--per-sentence", tsv,
            "--json", out=js)
    return json.loads(js.read_text(encoding="utf-8")), per_sentence(tsv)


def corrected(out: Path) -> tuple[str, str, dict[str, str]]:
    gold = TREEBANKS[0][2]
    folder = out / "correct"
    folder.mkdir(parents=True, exist_ok=True)
    corrector = Corrector()
    inputs = {"0": gold}
    for r in RATES:
        noisy = folder / f"misspelled-{r}.conllu"
        if not noisy.exists():
            run("noise", gold, "-o", noisy, "--rate", r, "--seed", str(SEED), "-q")
        inputs[r] = noisy
    quality = ["| level | misspelled words | restored | left as they are | "
               "changed to another word | other words changed |",
               "|---|---:|---:|---:|---:|---:|"]
    texts: dict[str, dict[str, Path]] = {}
    facts: dict[str, str] = {}
    for r, src in inputs.items():
        fixed = folder / f"corrected-{r}.conllu"
        c = correct(corrector, src, fixed, gold)
        texts[r] = {"misspelled": src, "corrected": fixed}
        m = c["misspelled"]
        if m:
            facts[f"restored_{r}"] = pct(c["restored"] / m)
        facts[f"clean_changed_{r}"] = pct(c["clean_changed"] / c["clean"])
        if c["clean_changed"]:
            facts[f"propn_{r}"] = pct(c["clean_changed_propn"] / c["clean_changed"])
        quality.append(f"| {float(r):.0%} | {m:,} | "
                       + " | ".join(pct(c[k] / m) if m else "n/a"
                                    for k in ("restored", "kept", "wrong"))
                       + f" | {pct(c['clean_changed'] / c['clean'])} |")
    rows = ["| parser | misspelled words | LAS as misspelled | LAS corrected first | "
            "corrected - misspelled | 95% CI | p | share of the loss recovered | 95% CI |",
            "|---|---:|---:|---:|---:|---|---:|---:|---|"]
    for p, spec in PARSERS.items():
        clean_js, clean = score(gold, parse(gold, spec, folder / f"{p}-misspelled-0.conllu"))
        for r, pair in texts.items():
            got = {k: score(gold, parse(src, spec, folder / f"{p}-{k}-{r}.conllu"))
                   for k, src in pair.items()}
            (mjs, ms), (cjs, cs) = got["misspelled"], got["corrected"]
            test = paired_bootstrap(ms, cs, f1_of_counts, SAMPLES, SEED)
            a, b, c0 = bootstrap_scores([ms, cs, clean], f1_of_counts, SAMPLES, SEED)
            lost = c0 - a
            share = np.where(np.abs(lost) > 1e-12, (b - a) / np.where(lost == 0, 1, lost),
                             np.nan)
            c_las, m_las, n_las = (clean_js["las"]["f1"], mjs["las"]["f1"], cjs["las"]["f1"])
            point = (n_las - m_las) / (c_las - m_las) if r != "0" and c_las != m_las else None
            rows.append(f"| {p} | {float(r):.0%} | {pct(m_las)} | {pct(n_las)} | "
                        f"{pct(test.delta, True)} | {ci(test.ci, True)} | "
                        f"{'n/a' if test.p is None else f'{test.p:.4f}'} | "
                        f"{pct(point)} | {ci(interval(share, 0.05) if point else None)} |")
            facts.update({f"{p}_{r}_gain": pct(test.delta, True),
                          f"{p}_{r}_share": pct(point),
                          f"{p}_{r}_misspelled": pct(m_las), f"{p}_{r}_corrected": pct(n_las),
                          f"{p}_{r}_gain_ci": ci(test.ci, True),
                          f"{p}_{r}_unaligned": f"{cjs['alignment']['deleted']:,}"})
    return "\n".join(quality), "\n".join(rows), facts


def build(out: Path, template: Path, page: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    acc, facts = accuracy(out)
    rob, more = robustness(out)
    quality, gains, most = corrected(out)
    parts = {"accuracy": acc, "robustness": rob, "corrector": quality, "corrected": gains,
             **facts, **more, **most, "date": today(), "machine": machine()}
    write(page, fill(template.read_text(encoding="utf-8"), parts))


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    build(*(Path(a) for a in sys.argv[1:]))
    print(f"wrote {sys.argv[3]}")

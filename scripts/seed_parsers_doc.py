"""Build docs/seed-parsers.md (``make seed-parsers-study``): the write-up
(docs/seed-parsers.in.md) with each ``<!-- study: NAME -->`` replaced by that
experiment's section of the report, ``<!-- seed: training -->`` by the models'
table (their sidecars), ``<!-- seed: summary -->`` by accuracy beside robustness F1
with punctuation counted and not (the paper's choice marked), and ``<!-- seed:
questions -->`` by the paper's three questions answered from those figures, a
winner named only where the paired tests separate it.

    python scripts/seed_parsers_doc.py STORE REPORT_DIR TEMPLATE OUTPUT MODELS_JSON
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

import parsebench as pb
from parsebench.common.errors import InputError

sys.path.insert(0, str(Path(__file__).resolve().parent))
from study_doc import build

BANKS = {"ewt": "EWT train, first 2,000", "tw": "Tweebank v2 train (1,639)"}


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{100 * x:.2f}"


def experiments(report_dir: Path) -> dict[str, dict[str, Any]]:
    return {e["run"]["experiment"]: e
            for e in json.loads((report_dir / "results.json").read_text(encoding="utf-8"))}


def accuracy(exp: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Parser -> its UAS and LAS (with intervals) on the clean text."""
    out = {}
    for r in exp["results"]:
        if r["metric"] == "deps" and r["level"] == "clean" and r["projection"] == "deprel":
            v = r["value"]
            out[r["parser"]] = {k: v[k]["f1"] for k in ("uas", "las")} | {
                f"{k}_ci": v["ci95"][k] for k in ("uas", "las")}
    return out


def robustness(exp: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {r["parser"]: {"f1": r["value"]["f1"], "f1_ci": r["value"]["ci95"]["f1"]}
            for r in exp["results"] if r["metric"] == "f1"}


def separated(exp: dict[str, Any], method: str) -> dict[frozenset[str], dict[str, Any]]:
    """The paired tests of the figure METHOD gives (``las``, ``hashemi-hwa-f1``), by the
    pair of parsers."""
    return {frozenset((t["a"], t["b"])): t for t in exp["summary"]["tests"]
            if t["method"] == method}


def _verdict(t: dict[str, Any] | None) -> str:
    """What a pair's paired test says: never "not separated" where none was made."""
    if not t:
        return "no paired test"
    return "separated" if t.get("significant") else "not separated"


def no_punct_f1(store: Path, parsers: list[str]) -> dict[str, float]:
    """Each parser's robustness F1 on JFLEG with punctuation left out, from its parses
    exported from the store (the same parses the run scored)."""
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        pb.export(store, tmp, experiment="seed-jfleg")
        folder = Path(tmp) / "seed-jfleg"
        for name in parsers:
            sub = next(d for d in folder.iterdir() if d.is_dir() and d.name.startswith(name))
            r = pb.robustness_f1(sub / "corrected.conllu", sub / "clean.conllu", punct=False)
            out[name] = r.to_dict()["f1"]
    return out


def training_table(models: list[dict[str, Any]]) -> str:
    rows = ["| model | parser | trained on | sentences | settings | seconds | dev UAS / LAS "
            "(gold tags) |", "|---|---|---|---:|---|---:|---|"]
    for m in models:
        s = m["settings"]
        shown = ", ".join(f"{k} {s[k]}" for k in ("order", "decode", "model_type", "pos",
                                                  "beam", "iterations", "tagger")
                          if k in s and s[k] not in (None, ""))
        dev = m.get("dev") or {}
        score = f"{dev['uas']:.2f} / {dev['las']:.2f}" if "uas" in dev else \
            "n/a (a tagger)" if m["parser"] == "udpipe" else "n/a (no model selection)"
        shown = shown or "the authors' defaults"
        rows.append(f"| {m['name']} | {m['parser']} | {Path(m['train']).name} | "
                    f"{m['sentences']:,} | {shown} | "
                    f"{m['seconds']:.0f} | {score} |")
    total = sum(m["seconds"] for m in models if not m.get("cached"))
    return "\n".join(rows) + (
        f"\n\nTraining times are wall-clock on the 2-core machine with two trainings at "
        f"a time (upper bounds); {total / 60:.0f} minutes in all for the models trained "
        "in this run of the script. The dev score is each model's own command line on the "
        "first 300 sentences of its treebank's dev split with gold tags: a check that it "
        "learnt, higher than what the comparison measures with a tagger's tags.")


def summary(acc_ewt: dict[str, Any], acc_tw: dict[str, Any], f1: dict[str, Any],
            f1_np: dict[str, float]) -> str:
    rows = ["| parser | trained on | in-domain UAS | in-domain LAS | EWT test LAS | "
            "Tweebank test LAS | JFLEG F1, punct. counted | JFLEG F1, punct. ignored |",
            "|---|---|---:|---:|---:|---:|---:|---:|"]
    for name in f1:
        bank = name.rsplit("-", 1)[1]
        home = acc_ewt if bank == "ewt" else acc_tw
        a = home.get(name, {})
        counted, ignored = _pct(f1[name]["f1"]), _pct(f1_np.get(name))
        if bank == "ewt":
            counted += " *"
        else:
            ignored += " *"
        trained = "all of EWT train (a reference)" if name.startswith("biaffine") \
            else BANKS[bank]
        rows.append(f"| {name} | {trained} | {_pct(a.get('uas'))} | {_pct(a.get('las'))} | "
                    f"{_pct(acc_ewt.get(name, {}).get('las'))} | "
                    f"{_pct(acc_tw.get(name, {}).get('las'))} | {counted} | {ignored} |")
    return "\n".join(rows) + ("\n\nIn-domain: EWT test for the EWT models, Tweebank test "
                              "for the tweet models. * the paper's choice for that row.")


def _ranks(values: list[float]) -> list[float]:
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def spearman(x: list[float], y: list[float]) -> float | None:
    """Spearman's rank correlation (average ranks for ties); None under three points."""
    if len(x) < 3:
        return None
    rx, ry = _ranks(x), _ranks(y)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    vx = sum((a - mx) ** 2 for a in rx) ** 0.5
    vy = sum((b - my) ** 2 for b in ry) ** 0.5
    return None if vx == 0 or vy == 0 else cov / (vx * vy)


def _best(scores: dict[str, float], tests: dict[frozenset[str], dict[str, Any]]) -> str:
    """The first parser by SCORES, and which parsers the paired tests do not separate
    from it."""
    top = max(scores, key=lambda k: scores[k])
    tied = [p for p in scores if p != top
            and _verdict(tests.get(frozenset((top, p)))) != "separated"]
    if not tied:
        return (f"{top} ({_pct(scores[top])}), separated from every other parser by the "
                "paired tests (Holm-corrected)")
    return (f"{top} ({_pct(scores[top])}) is first, but the paired tests (Holm-corrected) "
            f"do not separate it from {', '.join(sorted(tied))}")


def questions(acc_ewt: dict[str, Any], acc_tw: dict[str, Any], f1: dict[str, Any],
              tests: dict[frozenset[str], dict[str, Any]],
              acc_tests: dict[str, dict[frozenset[str], dict[str, Any]]]) -> str:
    like = {n: f1[n]["f1"] for n in f1 if not n.startswith("biaffine")}
    ewt = {n: v for n, v in like.items() if n.endswith("-ewt")}
    tw = {n: v for n, v in like.items() if n.endswith("-tw")}
    lines = ["### The paper's questions, for these parsers", "",
             "**Which parsers are most robust on learner English?** Robustness F1 on "
             "JFLEG, punctuation counted (the same for every row, so that rows compare): "
             f"of the EWT models, {_best(ewt, tests)}; of the tweet models, "
             f"{_best(tw, tests)}."]
    both = sorted(n[:-4] for n in ewt if f"{n[:-4]}-tw" in tw)
    parts = []
    for p in both:
        a, b = f"{p}-ewt", f"{p}-tw"
        sig = _verdict(tests.get(frozenset((a, b))))
        tw_acc = acc_tw.get(b, {}).get("las"), acc_tw.get(a, {}).get("las")
        las_t = acc_tests["seed-tweebank"].get(frozenset((a, b)))
        gain = "n/a" if None in tw_acc else f"{100 * (tw_acc[0] - tw_acc[1]):+.2f}"
        parts.append(f"{p} {100 * (tw[b] - ewt[a]):+.2f} F1 ({sig}), {gain} LAS on "
                     f"Tweebank test ({_verdict(las_t)})")
    gained = sum(tw[f"{p}-tw"] > ewt[f"{p}-ewt"] for p in both)
    lines += ["", "**Does training on tweets help?** The tweet model against the EWT model of "
              f"the same parser, on JFLEG (F1, punctuation counted) and on Tweebank test "
              f"(LAS): {'; '.join(parts)}. On JFLEG the tweet model is ahead for {gained} "
              f"of {len(both)} parsers."]
    corr = []
    for label, group, acc in (("EWT", ewt, acc_ewt), ("tweet", tw, acc_tw)):
        names = [n for n in group if n in acc]
        rho = spearman([acc[n]["uas"] for n in names], [group[n] for n in names])
        by_acc = sorted(names, key=lambda n: -acc[n]["uas"])
        by_f1 = sorted(names, key=lambda n: -group[n])
        corr.append(f"the {label} models by in-domain UAS {' > '.join(by_acc)}, by "
                    f"robustness F1 {' > '.join(by_f1)} (Spearman's rho "
                    f"{'n/a' if rho is None else f'{rho:+.2f}'}, {len(names)} parsers)")
    said = "; ".join(corr)
    lines += ["", "**Do accuracy and robustness rank the parsers alike?** "
              + said[0].upper() + said[1:] + ". With six or seven parsers and intervals of "
              "a few points, a rank correlation is a description, not a test."]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    store, report_dir, template, output, models_json = (Path(a) for a in argv)
    models = json.loads(models_json.read_text(encoding="utf-8"))
    exps = experiments(report_dir)
    tmp = output.with_name("." + output.name + ".part")
    missing = build(report_dir, template, tmp)
    if missing:
        tmp.unlink()
        sys.exit(f"seed_parsers_doc: no results for {', '.join(missing)}")
    acc_ewt, acc_tw = accuracy(exps["seed-ewt"]), accuracy(exps["seed-tweebank"])
    f1 = robustness(exps["seed-jfleg"])
    try:
        f1_np = no_punct_f1(store, list(f1))
    except InputError as exc:
        sys.exit(f"seed_parsers_doc: {exc}")
    tests = separated(exps["seed-jfleg"], "hashemi-hwa-f1")
    acc_tests = {k: separated(exps[k], "las") for k in ("seed-ewt", "seed-tweebank")}
    text = tmp.read_text(encoding="utf-8")
    text = text.replace("<!-- seed: training -->", training_table(models))
    text = text.replace("<!-- seed: summary -->", summary(acc_ewt, acc_tw, f1, f1_np))
    text = text.replace("<!-- seed: questions -->",
                        questions(acc_ewt, acc_tw, f1, tests, acc_tests))
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(output)
    print(f"wrote {output}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

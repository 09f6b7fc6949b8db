"""The attack and invariance study of docs/attack.md: runs the commands (unless their JSON
is there already) and prints the tables.

    python scripts/attack_study.py OUTDIR [--limit 200]

Needs ../shared (EWT test, the UDPipe model and the spaCy pipeline).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

SHARED = Path(__file__).resolve().parent.parent.parent / "shared"
PARSERS = {"udpipe": f"udpipe:{SHARED / 'models/en_ewt.udpipe'}",
           "spacy-ud": f"spacy:{SHARED / 'models/en_ewt_spacy'}",
           "biaffine": f"supar:{SHARED / 'models/en_ewt_biaffine/en_ewt_biaffine.pt'}",
           # the seed papers' own parsers (docs/java-parsers.md), UDPipe's tags
           "malt": f"malt:{SHARED / 'models/en_ewt_malt/en_ewt_malt.mco'},tagger="
                   f"{SHARED / 'models/en_ewt.udpipe'},jar="
                   f"{SHARED / 'tools/maltparser-1.9.2/maltparser-1.9.2.jar'}",
           "yara": f"yara:{SHARED / 'models/en_ewt_yara/en_ewt_yara_iter10'},tagger="
                   f"{SHARED / 'models/en_ewt.udpipe'},jar="
                   f"{SHARED / 'tools/yara-parser/jar/YaraParser.jar'}"}
BUDGETS = (1, 2)


def cli(*args: str) -> str:
    got = subprocess.run([sys.executable, "-m", "parsebench.cli", *args], check=True,
                         capture_output=True, text=True)
    return got.stdout


def pct(x: float | None, ci: list[float] | None = None) -> str:
    if x is None:
        return "n/a"
    return f"{100 * x:.1f}" + ("" if ci is None else f" [{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out", type=Path)
    ap.add_argument("--limit", type=int, default=200)
    ap.add_argument("--parsers", default=",".join(PARSERS), help="names, comma-separated")
    a = ap.parse_args()
    chosen = {n: PARSERS[n] for n in a.parsers.split(",")}
    a.out.mkdir(parents=True, exist_ok=True)
    corpus = a.out / f"ewt-test-{a.limit}.conllu"
    if not corpus.exists():
        lines = (SHARED / "data/ud-english-ewt/en_ewt-ud-test.conllu").read_text().split("\n\n")
        corpus.write_text("\n\n".join(lines[:a.limit]) + "\n\n")
    results: dict[tuple[str, int], dict[str, Any]] = {}
    for name, spec in chosen.items():
        for k in BUDGETS:
            js = a.out / f"attack-{name}-k{k}.json"
            if not js.exists():
                js.write_text(cli("attack", str(corpus), "--parser", spec, "--budget", str(k),
                                  "-o", str(a.out / f"attack-{name}-k{k}.conllu"), "--json"))
            results[name, k] = json.loads(js.read_text())
    inv_js = a.out / f"invariance-{'-'.join(chosen)}.json"
    if not inv_js.exists():
        inv_js.write_text(cli("invariance", str(corpus), *[x for s in chosen.values()
                                                           for x in ("--parser", s)],
                              "-o", str(a.out / f"invariance-{'-'.join(chosen)}"), "--json"))
    inv = json.loads(inv_js.read_text())
    print("| parser | K | attacked | success % (attack) | success % (random) | damage % "
          "(attack) | damage % (random) | ratio | calls a sentence |")
    print("|---|---|---|---|---|---|---|---|---|")
    for (name, k), r in results.items():
        ratio = r["ratio"]
        rc = ratio["ci95"]
        rt = "n/a" if ratio["value"] is None else f"{ratio['value']:.2f}" + (
            "" if rc is None else f" [{rc[0]:.2f}, {rc[1]:.2f}]")
        print(f"| {name} | {k} | {r['attacked']} | "
              f"{pct(r['success']['rate'], r['success']['ci95'])} | "
              f"{pct(r['random']['success']['rate'], r['random']['success']['ci95'])} | "
              f"{pct(r['damage']['rate'], r['damage']['ci95'])} | "
              f"{pct(r['random']['damage']['rate'], r['random']['damage']['ci95'])} | "
              f"{rt} | {r['calls']['per_sentence_mean']:.1f} |")
    print()
    print("| parser | K | attack picks (UPOS) | random picks (UPOS) | dependents (attack / "
          "random) |")
    print("|---|---|---|---|---|")
    for (name, k), r in results.items():
        p = r["picked"]

        def top(d: dict[str, int], n: int = 5) -> str:
            total = sum(d.values())
            return ", ".join(f"{u} {100 * c / total:.0f}%" for u, c in list(d.items())[:n])

        print(f"| {name} | {k} | {top(p['attack']['by_upos'])} | "
              f"{top(p['random']['by_upos'])} | {p['attack']['mean_dependents']:.2f} / "
              f"{p['random']['mean_dependents']:.2f} |")
    print()
    print("| parser | edit | tested | failure % [95% interval] | words changed % |")
    print("|---|---|---|---|---|")
    for spec, per in inv["parsers"].items():
        name = next(n for n, s in PARSERS.items() if s == spec)
        for kind, x in per.items():
            print(f"| {name} | {kind} | {x['tested']} | {pct(x['failure_rate'], x['ci95'])} | "
                  f"{pct(x['changed_words']['rate'])} |")


if __name__ == "__main__":
    main()

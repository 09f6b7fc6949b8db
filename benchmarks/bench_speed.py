"""Where users wait (issue 28): each line of the table against its reference, whole
processes, in one run, the median of several runs interleaved with the reference's.

    python benchmarks/bench_speed.py [--runs 5]
        [--only cached,compare,deps,raw,udeval,brackets,help]

The references are found through the environment, and skipped with a message when
absent:

- ``UDAPI_PYTHON``: the Python of an environment where udapi is installed
  (``pip install udapi`` there); its ``eval/conll18.py -r 1000`` on two systems'
  precomputed LAS is the reference of ``compare GOLD A B C --samples 10000``.
- ``CONLL18_EVAL``: a copy of ``conll18_ud_eval.py`` (CoNLL 2018 shared task), run
  with ``-v`` (all metrics) against ``eval deps`` (all thirteen and Lin's).
- ``UDEVAL``: udtools' ``udeval`` (``make test`` installs it into ``.venv-ref``), run
  with ``-v`` (all fifteen metrics) against ``eval deps`` with ELAS and EULAS, on a
  system whose enhanced graph is its basic tree copied. ``raw``: ``udeval GOLD SYSTEM``
  against ``eval deps GOLD SYSTEM`` on UDPipe's parse of EWT test from raw text (its
  own tokens and sentences; needs ufal.udpipe and ../shared/models/en_ewt.udpipe) and
  on the damaged copy of the gold, whole processes (CPU and wall) and in memory
  (``pb.evaluate_deps`` against udeval's ``evaluate`` on files it has loaded, run by
  the Python beside ``UDEVAL``).

Run with the modules' bytecode cached, as a user has it (not under
``PYTHONDONTWRITEBYTECODE``, which makes every run compile parsebench's modules).
- ``EVALB``: an ``evalb`` binary (built with ``gcc -O2``) against ``eval brackets``
  on a million words (the PTB sample of ../shared, repeated).

The cached re-run is measured against the experiment's own first run: UDPipe (when
../shared/models/en_ewt.udpipe is there) and TnT trained on EWT train, 300
sentences of EWT test. Needs ../shared beside the checkout.
"""

from __future__ import annotations

import argparse
import glob
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
EWT = SHARED / "data" / "ud-english-ewt"
PTB = SHARED / "data" / "ptb-sample-nltk"
COLLINS = SHARED / "data" / "evalb-sample" / "COLLINS.prm"
UDPIPE = SHARED / "models" / "en_ewt.udpipe"
PB = [sys.executable, "-m", "parsebench.cli"]


def timed(command: list[str], cwd: Path | None = None) -> float:
    t = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True,
                   cwd=cwd)
    return time.perf_counter() - t


def side_by_side(runs: int, ours: Callable[[], float], ref: Callable[[], float] | None
                 ) -> tuple[float, float | None]:
    """Medians of RUNS runs of each, interleaved (the machine is shared)."""
    a, b = [], []
    for _ in range(runs):
        a.append(ours())
        if ref is not None:
            b.append(ref())
    return statistics.median(a), statistics.median(b) if b else None


def line(what: str, ours: float, ref_name: str, ref: float | None, goal: str) -> None:
    if ref is None:
        print(f"{what}: {ours:.2f} s ({ref_name}: not run, see the docstring)")
    else:
        print(f"{what}: {ours:.2f} s; {ref_name}: {ref:.2f} s -> {ours / ref:.2f}x "
              f"(goal {goal})")


def bench_cached(tmp: Path, runs: int) -> None:
    specs = ([f"udpipe:{UDPIPE}"] if UDPIPE.exists() else []) \
        + [f"nltk-tnt:{EWT / 'en_ewt-ud-train.conllu'}"]
    exp = tmp / "cached.toml"
    parsers = "".join(f'[[parsers]]\nname = "p{k}"\nspec = "{s}"\n'
                      for k, s in enumerate(specs))
    exp.write_text(f'''name = "cached"
[corpus]
path = "{EWT / 'en_ewt-ud-test.conllu'}"
limit = 300
[noise]
rates = [0.05, 0.1]
replicates = 2
{parsers}''', encoding="utf-8")
    store = tmp / "cached.sqlite"
    first = timed([*PB, "run", str(exp), "--store", str(store), "--report", str(tmp / "r0")])
    again, _ = side_by_side(runs, lambda: timed(
        [*PB, "run", str(exp), "--store", str(store), "--report", str(tmp / "r1")]), None)
    print(f"a fully cached re-run ({' + '.join(s.split(':')[0] for s in specs)}, 300 "
          f"sentences, 2 levels x 2 replicates): {again:.2f} s; its first run: {first:.2f} s "
          f"-> {again / first:.2f}x (goal: at most 1 s)")


def corrupt(gold: Path, out: Path, seed: int) -> None:
    """The gold with 15% of the words re-attached to their grandparent and 10% of the
    relations renamed: a system's output with the gold's words."""
    from parsebench.formats.conllu import read_conllu, write_conllu

    rng = random.Random(seed)
    sentences = read_conllu(gold)
    for s in sentences:
        for i in range(len(s)):
            h = s.heads[i]
            if h > 0 and s.heads[h - 1] > 0 and rng.random() < 0.15:
                s.heads[i] = s.heads[h - 1]
            if rng.random() < 0.1:
                s.deprels[i] = "dep"
    with out.open("w", encoding="utf-8") as fh:
        write_conllu(sentences, fh)


def bench_compare(tmp: Path, runs: int) -> None:
    gold = EWT / "en_ewt-ud-test.conllu"
    systems = [tmp / f"sys{k}.conllu" for k in (1, 2, 3)]
    for k, s in enumerate(systems, 1):
        corrupt(gold, s, k)
    ours = [*PB, "compare", str(gold), *map(str, systems), "--samples", "10000"]
    ref = None
    udapi = os.environ.get("UDAPI_PYTHON")
    if udapi:
        udapy = str(Path(udapi).with_name("udapy"))
        script = subprocess.run([udapi, "-c", "import udapi.block.eval.conll18 as x; "
                                 "print(x.__file__)"], capture_output=True, text=True,
                                check=True).stdout.strip()
        for s in systems[:2]:  # precomputed, untimed, as udapi's documentation does it
            out = tmp / "results" / s.stem
            out.mkdir(parents=True)
            with (out / "test").open("w") as fh:
                subprocess.run([udapy, "read.Conllu", "zone=gold", f"files={gold}",
                                "read.Conllu", "zone=pred", f"files={s}", "ignore_sent_id=1",
                                "util.ResegmentGold", "eval.Conll18", "print_results=0",
                                "print_raw=LAS"], stdout=fh, stderr=subprocess.DEVNULL,
                               check=True)
        ref_cmd = [udapi, script, "-d", str(tmp / "results"), "-r", "1000", "--randseed", "1"]
        ref = lambda: timed(ref_cmd)  # noqa: E731
    a, b = side_by_side(runs, lambda: timed(ours), ref)
    line("compare GOLD A B C --samples 10000 (EWT test)", a,
         "udapi eval/conll18.py -r 1000 on two systems", b, "at most 0.3x")


def bench_deps(tmp: Path, runs: int) -> None:
    gold = EWT / "en_ewt-ud-test.conllu"
    system = tmp / "deps-sys.conllu"
    corrupt(gold, system, 7)
    script = os.environ.get("CONLL18_EVAL")
    ref_cmd = [sys.executable, script, "-v", str(gold), str(system)] if script else None
    a, b = side_by_side(runs, lambda: timed([*PB, "eval", "deps", str(gold), str(system)]),
                        (lambda: timed(ref_cmd)) if ref_cmd else None)
    line("eval deps, EWT test, all 13 metrics", a, "conll18_ud_eval.py -v", b, "at most 0.25x")


def udpipe_raw(out: Path) -> bool:
    """UDPipe 1 tokenizing, splitting and parsing EWT test's raw text itself (paragraphs
    of five sentences), as in the CoNLL 2018 shared task; False without UDPipe."""
    try:
        from ufal.udpipe import Model, Pipeline, ProcessingError  # type: ignore[import-untyped]
    except ImportError:
        return False
    if not UDPIPE.exists():
        return False
    texts = [line[9:].rstrip("\n") for line in
             (EWT / "en_ewt-ud-test.conllu").open(encoding="utf-8")
             if line.startswith("# text = ")]
    raw = "\n\n".join(" ".join(texts[i:i + 5]) for i in range(0, len(texts), 5))
    model = Model.load(str(UDPIPE))  # kept: the pipeline holds no reference to it
    err = ProcessingError()
    got = Pipeline(model, "tokenize", Pipeline.DEFAULT, Pipeline.DEFAULT,
                   "conllu").process(raw, err)
    if err.occurred():
        return False
    out.write_text(got, encoding="utf-8")
    return True


IN_PROCESS = """
import statistics, sys, time
which, gold, system, reps = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
if which == "ours":
    import parsebench as pb
    g, s = pb.Treebank.read(gold), pb.Treebank.read(system)
    run = lambda: pb.evaluate_deps(g, s)
else:
    from udtools.udeval import evaluate, load_conllu_file
    g, s = load_conllu_file(gold), load_conllu_file(system)
    run = lambda: evaluate(g, s)
run()  # warm: imports, caches
times = []
for _ in range(reps):
    t = time.process_time()
    run()
    times.append(time.process_time() - t)
print(statistics.median(times))
"""
"""The CPU time of one evaluation of files already in memory: ``pb.evaluate_deps`` on two
Treebanks, or udtools' ``evaluate`` on two files its ``load_conllu_file`` has loaded."""


def cpu_timed(command: list[str]) -> tuple[float, float, str]:
    """The CPU time (user + system) and the wall time of COMMAND, and what it printed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, wall, out)


def bench_deps_raw(tmp: Path, runs: int) -> None:
    """eval deps on a parser's own tokenization (words aligned on characters in about 400
    stretches, issue 49) and on the damaged copy of the gold (gold tokens), against
    udtools' ``udeval`` on the same files: whole processes (CPU and wall) and the
    evaluation of files in memory (CPU), runs interleaved."""
    gold = EWT / "en_ewt-ud-test.conllu"
    raw = tmp / "udpipe-raw.conllu"
    damaged = tmp / "deps-sys.conllu"
    corrupt(gold, damaged, 7)
    systems = [("gold tokens (damaged copy)", damaged)]
    if udpipe_raw(raw):
        systems.insert(0, ("UDPipe from raw text (its own tokens and sentences)", raw))
    else:
        print(f"eval deps, UDPipe from raw text: not run (needs ufal.udpipe and {UDPIPE})")
    prog = os.environ.get("UDEVAL")
    if not prog:
        print("eval deps against udeval: not run (set UDEVAL, see the docstring)")
        return
    ref_python = str(Path(prog).with_name("python"))
    for name, system in systems:
        ours: list[tuple[float, float]] = []
        theirs: list[tuple[float, float]] = []
        ours_api: list[float] = []
        theirs_api: list[float] = []
        for _ in range(runs):
            ours.append(cpu_timed([*PB, "eval", "deps", str(gold), str(system)])[:2])
            theirs.append(cpu_timed([prog, str(gold), str(system)])[:2])
            ours_api.append(float(cpu_timed([sys.executable, "-c", IN_PROCESS, "ours",
                                             str(gold), str(system), "7"])[2]))
            theirs_api.append(float(cpu_timed([ref_python, "-c", IN_PROCESS, "udeval",
                                               str(gold), str(system), "7"])[2]))
        med = statistics.median
        a_cpu, a_wall = med(x for x, _ in ours), med(x for _, x in ours)
        b_cpu, b_wall = med(x for x, _ in theirs), med(x for _, x in theirs)
        a_api, b_api = med(ours_api), med(theirs_api)
        print(f"eval deps, EWT test, {name}: {a_cpu:.2f} s CPU, {a_wall:.2f} s wall; udeval: "
              f"{b_cpu:.2f} s CPU, {b_wall:.2f} s wall -> {a_cpu / b_cpu:.2f}x CPU, "
              f"{a_wall / b_wall:.2f}x wall (goal at most 0.2x); in memory: "
              f"{a_api * 1000:.0f} ms against {b_api * 1000:.0f} ms -> {a_api / b_api:.2f}x "
              "(goal at most 0.1x)")
    print(f"load average: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")


def bench_udeval(tmp: Path, runs: int) -> None:
    from parsebench.formats.conllu import basic_to_deps, read_conllu, write_conllu

    gold = EWT / "en_ewt-ud-test.conllu"
    system = tmp / "deps-sys.conllu"
    corrupt(gold, system, 7)
    copied = tmp / "deps-copied.conllu"
    with copied.open("w", encoding="utf-8") as fh:
        write_conllu([basic_to_deps(s) for s in read_conllu(system)], fh)
    prog = os.environ.get("UDEVAL")
    ref_cmd = [prog, "-v", str(gold), str(copied)] if prog else None
    a, b = side_by_side(runs, lambda: timed([*PB, "eval", "deps", str(gold), str(copied)]),
                        (lambda: timed(ref_cmd)) if ref_cmd else None)
    line("eval deps, EWT test, all 15 metrics (ELAS, EULAS)", a, "udeval -v", b,
         "at most 0.25x")


def bench_brackets(tmp: Path, runs: int) -> None:
    from parsebench.formats.brackets import read_tree_texts

    trees = [" ".join(t.text.split()) for f in sorted(glob.glob(str(PTB / "wsj_*.mrg")))
             for t in read_tree_texts(f)]
    sizes = [len(re.findall(r"\([^\s()]+ [^\s()]+\)", t)) for t in trees]
    rng = random.Random(2)
    gold, test = [], []
    words = 0
    while words < 1_000_000:
        for t, n in zip(trees, sizes, strict=True):
            gold.append(t)
            test.append(t.replace("(NP ", "(VP ", 1) if rng.random() < 0.3 else t)
            words += n
            if words >= 1_000_000:
                break
    g, t = tmp / "gold.mrg", tmp / "test.mrg"
    g.write_text("\n".join(gold) + "\n")
    t.write_text("\n".join(test) + "\n")
    prm = tmp / "collins.prm"
    prm.write_text(re.sub(r"(?m)^MAX_ERROR.*$", "MAX_ERROR 100000", COLLINS.read_text()))
    evalb = os.environ.get("EVALB")
    ref_cmd = [evalb, "-p", str(prm), str(g), str(t)] if evalb else None
    a, b = side_by_side(
        runs, lambda: timed([*PB, "eval", "brackets", str(g), str(t), "--prm", str(prm)]),
        (lambda: timed(ref_cmd)) if ref_cmd else None)
    line(f"eval brackets, {words:,} words (PTB sample x {len(gold) // len(trees)})", a,
         "EVALB", b, "at most 0.5x")


def bench_help(runs: int) -> None:
    script = str(Path(sys.executable).with_name("parsebench"))  # the console script
    a, _ = side_by_side(runs, lambda: timed([script, "--help"]), None)
    print(f"start-up, parsebench --help: {a:.3f} s (goal: under 0.15 s)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--only", default="cached,compare,deps,raw,udeval,brackets,help")
    args = ap.parse_args()
    if not EWT.exists():
        sys.exit(f"benchmarks need {EWT}")
    only = set(args.only.split(","))
    print(f"medians of {args.runs} runs, each interleaved with its reference's")
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        if "help" in only:
            bench_help(args.runs)
        if "compare" in only:
            bench_compare(tmp, args.runs)
        if "deps" in only:
            bench_deps(tmp, args.runs)
        if "raw" in only:
            bench_deps_raw(tmp, args.runs)
        if "udeval" in only:
            bench_udeval(tmp, args.runs)
        if "brackets" in only:
            bench_brackets(tmp, args.runs)
        if "cached" in only:
            bench_cached(tmp, args.runs)


if __name__ == "__main__":
    main()

"""UDPipe 1 trained on each treebank of ../shared/data, its test LAS in docs/training.md:
``make train-models``.

    python scripts/train_models.py [--data ../shared/data] [--only NAME ...]
        [--iterations N] [--out study-output/models] [--doc docs/training.md]

A treebank is a folder with a ``*test*.conllu``; the model learns from its
``*train*.conllu`` with ``*dev*.conllu`` held out, else from its dev, whose last tenth
is then held out (``pb.train``). UDPipe's default settings unless --iterations
(shorter, for a try). The model parses the test split's gold words, scored by
``pb.evaluate_deps``; the row of each treebank trained replaces its row in the doc's
table (the rows between its ``<!-- table -->`` markers), the others stay.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import parsebench as pb
from parsebench.common.progress import Lines
from parsebench.formats.conllu import read_conllu

ROOT = Path(__file__).resolve().parent.parent
BEGIN, END = "<!-- table -->", "<!-- /table -->"
HEAD = ["treebank", "trained on", "held out", "settings", "training", "test LAS",
        "CoNLL 2018 baseline LAS, gold words (raw text)"]

# The CoNLL 2018 shared task's baseline, UDPipe 1.2 trained on UD 2.2, as published with
# its models (Straka 2018, "UDPipe baseline models for CoNLL 2018 Shared Task",
# http://hdl.handle.net/11234/1-2859, README "Baseline model performance"): LAS on the
# treebank's *dev* split, given gold words and sentences, and given raw text. Russian GSD
# was not in the shared task; Chinese GSD was, in traditional characters (GSDSimp is its
# conversion to simplified ones).
BASELINE = {
    "ud-chinese-gsdsimp": (69.3, 57.4), "ud-english-ewt": (81.0, 77.6),
    "ud-finnish-tdt": (78.0, 76.4), "ud-french-gsd": (87.1, 85.8),
    "ud-german-gsd": (76.3, 75.5), "ud-indonesian-gsd": (74.5, 74.4),
    "ud-irish-idt": (68.0, 68.0), "ud-japanese-gsd": (91.9, 75.5),
    "ud-korean-gsd": (57.8, 57.2), "ud-persian-seraji": (80.3, 79.8),
    "ud-swedish-talbanken": (75.9, 75.4), "ud-turkish-imst": (56.8, 54.9),
}


def baseline(name: str) -> str:
    """The baseline's LAS cell of a row named NAME (a treebank folder, perhaps with a
    note after it)."""
    las = BASELINE.get(name.split(" ")[0])
    if las is None:
        return "n/a: not in the shared task"
    return f"{las[0]:.1f} ({las[1]:.1f})"


def splits(folder: Path) -> tuple[Path, Path | None, Path] | None:
    """(train, dev held out or None, test) of a treebank folder, None if it is none."""
    def one(word: str) -> Path | None:
        got = sorted(folder.glob(f"*{word}*.conllu"))
        return got[0] if got else None

    train, dev, test = one("train"), one("dev"), one("test")
    if test is None or (train is None and dev is None):
        return None
    return (train, dev, test) if train is not None else (dev, None, test)  # type: ignore[return-value]


def row(name: str, train: Path, dev: Path | None, test: Path, model: Path,
        iterations: int | None) -> list[str]:
    t0 = time.perf_counter()
    progress = Lines(sys.stderr, interval=30.0)
    r = pb.train("udpipe", train, model, dev=dev, iterations=iterations, progress=progress)
    wall = time.perf_counter() - t0
    parsed = pb.parse(test, f"udpipe:{model}", batch_size=64)
    out = model.with_suffix(".test.conllu")
    parsed.write(out)
    las = pb.evaluate_deps(test, out).las.f1
    held = r.dev["file"] if dev is not None else "last tenth"
    took = "cached" if r.cached else f"{r.seconds / 60:.0f} min ({wall / 60:.0f} with loading)"
    settings = "UDPipe defaults" if iterations is None else f"{iterations} iteration(s)"
    return [name, f"{train.name} ({r.sentences} sentences)",
            Path(held).name if dev is not None else held, settings, took,
            "n/a" if las is None else f"{100 * las:.2f}", baseline(name)]


def write_table(doc: Path, rows: dict[str, list[str]]) -> None:
    text = doc.read_text(encoding="utf-8")
    before, _, rest = text.partition(BEGIN)
    old, _, after = rest.partition(END)
    kept: dict[str, list[str]] = {}
    for line in old.strip().splitlines()[2:]:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells and cells[0]:
            kept[cells[0]] = cells
    kept.update(rows)
    for cells in kept.values():  # the baseline's cell is this script's, never the page's
        cells[len(HEAD) - 1:] = [baseline(cells[0])]
    lines = ["| " + " | ".join(HEAD) + " |", "|" + "---|" * len(HEAD)]
    lines += ["| " + " | ".join(kept[k]) + " |" for k in sorted(kept)]
    doc.write_text(before + BEGIN + "\n" + "\n".join(lines) + "\n" + END + after,
                   encoding="utf-8")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default=str(ROOT.parent / "shared" / "data"))
    ap.add_argument("--only", nargs="*", default=None, help="treebank folder names")
    ap.add_argument("--iterations", type=int, default=None)
    ap.add_argument("--out", default=str(ROOT / "study-output" / "models"))
    ap.add_argument("--doc", default=str(ROOT / "docs" / "training.md"))
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rows: dict[str, list[str]] = {}
    try:
        for folder in sorted(Path(args.data).iterdir()):
            got = splits(folder) if folder.is_dir() else None
            if got is None or (args.only and folder.name not in args.only):
                continue
            train, dev, test = got
            read_conllu(test)  # (a broken test split stops the run before its training)
            print(f"{folder.name}: training on {train.name}", file=sys.stderr)
            rows[folder.name] = row(folder.name, train, dev, test,
                                    out / f"{folder.name}.udpipe", args.iterations)
            write_table(Path(args.doc), rows)
    except pb.InputError as exc:
        print(f"train_models: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())

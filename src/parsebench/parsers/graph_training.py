"""Training the graph-based parsers of Hashemi & Hwa's eight on a CoNLL-U treebank:
MSTParser, Mate's anna, TurboParser and TweeboParser, each by its own command line with
its authors' recipe, the settings (and a dev score) written beside the model.

Each learns from the treebank's gold columns, converted to what its reader takes (by the
same row functions its adapter sends at parse time, so training and parsing see the same
columns): MSTParser and TurboParser ten-column CoNLL-X (LEMMA, UPOS, XPOS, FEATS;
MSTParser with ``pos=upos`` UPOS in place of XPOS), Mate CoNLL 2009 (the tag of ``pos``,
XPOS by default, in its gold and predicted columns), TweeboParser fourteen columns with
UPOS in both tag columns and every word selected. Multiword tokens, empty nodes and
comments are left out. With a dev file, the model parses it by the same command line
(gold tags) and its UAS and LAS go into the sidecar: a check that the model learnt, not
a score to report (the tags at parse time are a tagger's).

The trainers are single-threaded and deterministic (MSTParser's MIRA, TurboParser's
online learning and Mate with ``cores=1`` visit the sentences in order), so the same
treebank and settings give the same model.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from parsebench.common.errors import InputError
from parsebench.parsers.jvm import java_command
from parsebench.parsers.trained import Row, Trained, run_trainer, scratch_folder, write_rows


def _mst_row(pos: str = "xpos") -> Row:
    from parsebench.parsers.jvm import cell

    def row(c: list[str]) -> str:
        tags = c[1:6] if pos == "xpos" else [*c[1:4], c[3], c[5]]  # UPOS as POSTAG too
        return "\t".join([c[0], *(cell(v) for v in tags), c[6], cell(c[7]), "_", "_"])
    return row


def _turbo_row(c: list[str]) -> str:
    from parsebench.parsers.turbo import turbo_row

    return turbo_row(int(c[0]), c[1], c[2], c[3], c[4], c[5], c[6], c[7])


def _tweebo_row(c: list[str]) -> str:
    from parsebench.parsers.turbo import tweebo_row

    return tweebo_row(int(c[0]), c[1], c[2], c[3], c[5], c[6], c[7])


def _mate_row(pos: str) -> Row:
    from parsebench.parsers.mate import conll09_row

    def row(c: list[str]) -> str:
        return conll09_row(int(c[0]), c[1], c[2], c[4] if pos == "xpos" else c[3], c[5],
                           c[6], c[7])
    return row


def dev_score(gold: Path, parsed: Path, head_col: int, rel_col: int) -> dict[str, Any]:
    """UAS and LAS (universal relation, punctuation included) of PARSED against GOLD, two
    files of the same word rows; HEAD_COL and REL_COL: where PARSED holds its tree."""
    def rows(path: Path) -> list[list[str]]:
        return [line.split("\t") for line in path.read_text(encoding="utf-8").split("\n")
                if line.strip()]

    g, p = rows(gold), rows(parsed)
    if len(g) != len(p) or not g:
        return {"error": f"{len(p)} words parsed for {len(g)}"}
    heads = sum(a[6] == b[head_col] for a, b in zip(g, p, strict=True))
    labels = sum(a[6] == b[head_col] and a[7].split(":")[0] == b[rel_col].split(":")[0]
                 for a, b in zip(g, p, strict=True))
    return {"words": len(g), "uas": round(100 * heads / len(g), 2),
            "las": round(100 * labels / len(g), 2), "tags": "gold"}


def train_mst(train: str | os.PathLike[str], dev: str | os.PathLike[str] | None,
              model: str | os.PathLike[str], jar: str, *, order: int = 1,
              decode: str = "non-proj", iterations: int = 10, limit: int | None = None,
              heap: str = "8g", pos: str = "xpos") -> Trained:
    """MSTParser (labelled, ORDER 1 or 2, DECODE proj or non-proj, ITERATIONS of MIRA);
    POS ``upos`` puts UPOS in POSTAG too, for a treebank without XPOS (MSTParser's
    features lean on POSTAG: French GSD's, all ``_``, left it a third of its LAS)."""
    if order not in (1, 2) or decode not in ("proj", "non-proj"):
        raise InputError(f"MSTParser: order 1 or 2 and decode proj or non-proj, not "
                         f"{order} and {decode}")
    if pos not in ("xpos", "upos"):
        raise InputError(f"MSTParser: pos is xpos or upos, not {pos!r}")
    model = Path(model).resolve()
    if ":" in str(model):
        raise InputError("MSTParser cannot write a model whose path holds a colon", model)
    settings = {"order": order, "decode": decode, "iterations": iterations,
                "training_k": 1, "loss": "punc", "heap": heap, "jar": jar, "pos": pos}
    with scratch_folder(model.parent) as tmp:
        n = write_rows(train, tmp / "train.conll", _mst_row(pos), limit)
        t0 = time.perf_counter()
        java = [java_command(), f"-Xmx{heap}", f"-Djava.io.tmpdir={tmp}", "-jar", jar]
        run_trainer([*java, "train", f"train-file:{tmp / 'train.conll'}",
                     f"model-name:{tmp / 'm'}", f"order:{order}", f"decode-type:{decode}",
                     f"iters:{iterations}"], tmp, "MSTParser training")
        seconds = time.perf_counter() - t0
        scores = {}
        if dev is not None:
            write_rows(dev, tmp / "dev.conll", _mst_row(pos))
            run_trainer([*java, "test", f"model-name:{tmp / 'm'}",
                         f"test-file:{tmp / 'dev.conll'}", f"output-file:{tmp / 'out.conll'}",
                         f"order:{order}", f"decode-type:{decode}"], tmp, "MSTParser on dev")
            scores = {"file": str(dev), **dev_score(tmp / "dev.conll", tmp / "out.conll", 6, 7)}
        os.replace(tmp / "m", model)
    done = Trained("mst", str(model), str(train), n, settings, round(seconds, 1), scores)
    done.write()
    return done


def train_mate(train: str | os.PathLike[str], dev: str | os.PathLike[str] | None,
               model: str | os.PathLike[str], jar: str, *, iterations: int = 10,
               pos: str = "xpos", cores: int = 1, limit: int | None = None,
               heap: str = "6g") -> Trained:
    """Mate's anna (second order, non-projective, ITERATIONS of its passive-aggressive
    training) with the tag column POS."""
    if pos not in ("xpos", "upos"):
        raise InputError(f"Mate: pos is xpos or upos, not {pos!r}")
    model = Path(model).resolve()
    settings = {"iterations": iterations, "pos": pos, "cores": cores, "decode": "non-proj",
                "heap": heap, "jar": jar}
    row = _mate_row(pos)
    with scratch_folder(model.parent) as tmp:
        n = write_rows(train, tmp / "train.conll09", row, limit)
        t0 = time.perf_counter()
        java = [java_command(), f"-Xmx{heap}", "-jar", jar]
        run_trainer([*java, "-train", str(tmp / "train.conll09"), "-model", str(tmp / "m"),
                     "-i", str(iterations), "-cores", str(cores)], tmp, "Mate training")
        seconds = time.perf_counter() - t0
        scores = {}
        if dev is not None:
            write_rows(dev, tmp / "dev.conll09", row)
            run_trainer([*java, "-model", str(tmp / "m"), "-test", str(tmp / "dev.conll09"),
                         "-out", str(tmp / "out.conll09"), "-cores", str(cores)], tmp,
                        "Mate on dev")
            gold = tmp / "dev.conllx"
            write_rows(dev, gold, _mst_row())
            scores = {"file": str(dev), **dev_score(gold, tmp / "out.conll09", 9, 11)}
        os.replace(tmp / "m", model)
    done = Trained("mate", str(model), str(train), n, settings, round(seconds, 1), scores)
    done.write()
    return done


TURBO_RECIPE = ["--labeled=true", "--train_algorithm=svm_mira",
                "--train_regularization_constant=0.001", "--large_feature_set=true",
                "--form_case_sensitive=false", "--form_cutoff=0", "--lemma_cutoff=0",
                "--prune_basic=true", "--pruner_posterior_threshold=0.0001",
                "--pruner_max_heads=10", "--pruner_train_algorithm=crf_mira",
                "--pruner_train_regularization_constant=1e12"]
"""The authors' recipe (TurboParser's scripts/train_test_parser.sh) besides the model
type and the epochs."""


def train_turbo(train: str | os.PathLike[str], dev: str | os.PathLike[str] | None,
                model: str | os.PathLike[str], binary: str, *, model_type: str = "standard",
                iterations: int = 10, limit: int | None = None, tweebo: bool = False
                ) -> Trained:
    """TurboParser (or TWEEBO: TweeboParser) with its authors' recipe: MODEL_TYPE basic
    (first order), standard (siblings and grandparents) or full (third order),
    ITERATIONS epochs for the parser and for its pruner."""
    if model_type not in ("basic", "standard", "full"):
        raise InputError(f"TurboParser: model type basic, standard or full, not "
                         f"{model_type!r}")
    parser, what = ("tweebo", "TweeboParser") if tweebo else ("turbo", "TurboParser")
    model = Path(model).resolve()
    recipe = list(TURBO_RECIPE)
    pruned = model_type != "basic"
    if not pruned:
        recipe = [a for a in recipe if "prune" not in a] + ["--prune_basic=false"]
    else:
        recipe.append(f"--pruner_train_epochs={iterations}")
    settings = {"model_type": model_type, "iterations": iterations, "recipe": recipe,
                "binary": binary}
    row = _tweebo_row if tweebo else _turbo_row
    with scratch_folder(model.parent) as tmp:
        n = write_rows(train, tmp / "train.conll", row, limit)
        t0 = time.perf_counter()
        run_trainer([binary, "--train", f"--file_train={tmp / 'train.conll'}",
                     f"--file_model={tmp / 'm'}", f"--model_type={model_type}", *recipe,
                     f"--train_epochs={iterations}", "--logtostderr"], tmp,
                    f"{what} training")
        seconds = time.perf_counter() - t0
        scores = {}
        if dev is not None:
            write_rows(dev, tmp / "dev.conll", row)
            run_trainer([binary, "--test", f"--file_model={tmp / 'm'}",
                         f"--file_test={tmp / 'dev.conll'}",
                         f"--file_prediction={tmp / 'out.conll'}", "--logtostderr"], tmp,
                        f"{what} on dev")
            scores = {"file": str(dev), **dev_score(tmp / "dev.conll", tmp / "out.conll", 6, 7)}
        os.replace(tmp / "m", model)
    done = Trained(parser, str(model), str(train), n, settings, round(seconds, 1), scores)
    done.write()
    return done

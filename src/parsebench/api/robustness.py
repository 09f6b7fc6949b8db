"""How much parses change when the input gets noisy, as Python calls: Bigert et al.'s
rows (``robustness rows``), Kakkonen's sentence scores (``robustness sentences``) and
Hashemi & Hwa's robustness F1 (``robustness f1``).

Parse files are paths (CoNLL-U, bracketed trees, Link Grammar links or row files, as
the commands read them) or, for dependency parses, Treebanks.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from typing import Any

from parsebench.common.errors import InputError
from parsebench.common.progress import Progress, quiet
from parsebench.model import arguments as A
from parsebench.model.results import Result, result
from parsebench.model.treebank import Treebank, as_treebank, name_of

PathLike = str | os.PathLike[str]


def _parses(corpus: PathLike | Treebank, needs: tuple[str, ...] = (), method: str = ""
            ) -> list[Any]:
    """A parse file read whole (or a Treebank's parses), through the one input check:
    the output of ``noise`` is refused, and so is a file without what METHOD NEEDS."""
    from parsebench.model.inputs import holds, require

    parses: list[Any] = _read(corpus)
    require(holds(parses, name_of(corpus)), needs, method)
    return parses


def _read(corpus: PathLike | Treebank | None) -> Any:
    from parsebench.model.parses import from_sentence, read_parses

    if corpus is None:
        return None
    corpus = as_treebank(corpus)
    if isinstance(corpus, Treebank):
        return [from_sentence(s, corpus.name) for s in corpus]
    return read_parses(corpus)


@A.checked(clean=A.corpus, noisy=A.corpora, gold=A.optional(A.corpus),
           accuracy=A.optional(A.number), project=A.optional(A.text),
           calibrate_gold=A.optional(A.corpus), calibrate_clean=A.optional(A.corpus),
           calibrate_noisy=A.optional(A.corpora))
def robustness_rows(clean: PathLike | Treebank,
                    noisy: PathLike | Treebank | Sequence[PathLike | Treebank], *,
                    gold: PathLike | Treebank | None = None, accuracy: float | None = None,
                    project: str | None = None,
                    calibrate_gold: PathLike | Treebank | None = None,
                    calibrate_clean: PathLike | Treebank | None = None,
                    calibrate_noisy: PathLike | Treebank | Sequence[PathLike | Treebank]
                    | None = None) -> Result:
    """Bigert et al.'s degradation bounds and estimates, row by row, with and without
    gold (``robustness rows``); several NOISY parses are replicates. With a calibration
    sample, a calibrated degradation with a bootstrap interval. NOISY and CALIBRATE_NOISY:
    one path or Treebank, or a list of them."""
    from parsebench.metrics.robustness.bigert import METHOD, score_rows
    from parsebench.metrics.robustness.bigert_scorer import calibration_sample
    from parsebench.model.parses import PROJECTIONS, default_projection

    if accuracy is not None and not 0 < accuracy <= 1:
        raise InputError(f"--accuracy {accuracy}: expected a fraction in (0, 1], e.g. 0.89")
    if project is not None and project not in PROJECTIONS:
        raise InputError(f"--project {project}: expected one of " + ", ".join(PROJECTIONS))
    noisy = A.corpora("noisy", noisy)  # lists (as checked), for the types
    if calibrate_noisy is not None:
        calibrate_noisy = A.corpora("calibrate_noisy", calibrate_noisy)
    clean, noisy = as_treebank(clean), [as_treebank(p) for p in noisy]
    c = _parses(clean)
    m = _read(gold)
    proj = project or default_projection(c)
    cal = None
    if calibrate_gold or calibrate_clean or calibrate_noisy:
        if not (calibrate_gold and calibrate_clean and calibrate_noisy):
            raise InputError("calibration needs --calibrate-gold, --calibrate-clean and "
                             "--calibrate-noisy")
        cal = calibration_sample(_read(calibrate_gold), _read(calibrate_clean),
                                 [(name_of(p), _read(p)) for p in calibrate_noisy], proj,
                                 name_of(calibrate_clean), name_of(calibrate_gold))
    names = [name_of(p) for p in noisy]
    rec = score_rows(c, [(name_of(p), _parses(p)) for p in noisy], m, accuracy, proj,
                     name_of(clean), name_of(gold) if gold is not None else "None", cal)
    return result("robustness rows", rec.to_dict(),
                  lambda: METHOD.text(rec, name_of(clean), names, proj), rec.warnings)


@A.checked(clean=A.corpus, noisy=A.corpora, alignment=A.optional(A.paths))
def robustness_sentences(clean: PathLike | Treebank,
                         noisy: PathLike | Treebank | Sequence[PathLike | Treebank], *,
                         alignment: PathLike | Sequence[PathLike] | None = None) -> Result:
    """Kakkonen's unlabeled and labeled sentence robustness scores, by number of errors
    (``robustness sentences``); several NOISY parses are pooled. ALIGNMENT: for noise
    that adds, drops or moves words, the M2 or Pharaoh file of each noisy parse. Each of
    NOISY and ALIGNMENT: one, or a list."""
    from parsebench.metrics.core.word_alignment import read_alignments
    from parsebench.metrics.robustness.kakkonen import METHOD, score_sentences

    noisy = A.corpora("noisy", noisy)  # lists (as checked), for the types
    if alignment is not None:
        alignment = A.paths("alignment", alignment)
    clean, noisy = as_treebank(clean), [as_treebank(p) for p in noisy]
    c = _parses(clean)
    names = [name_of(p) for p in noisy]
    scores = score_sentences(c, [_parses(p) for p in noisy], name_of(clean), names,
                             [read_alignments(a)[1] for a in alignment] if alignment else None,
                             [str(a) for a in alignment or ()])
    rec = scores.command(sorted({p.kind for p in c}), len(noisy))
    return result("robustness sentences", rec.to_dict(),
                  lambda: METHOD.text(rec, name_of(clean), names), rec.warnings)


@A.checked(grammatical=A.corpus, ungrammatical=A.corpus, alignment=A.optional(A.path),
           errant_pipeline=A.text, punct=A.flag, labeled=A.flag, exclude_root=A.flag,
           gold=A.optional(A.corpus), progress=A.progress)
def robustness_f1(grammatical: PathLike | Treebank, ungrammatical: PathLike | Treebank, *,
                  alignment: str | None = None, errant_pipeline: str = "en_core_web_sm",
                  punct: bool = True, labeled: bool = False, exclude_root: bool = False,
                  gold: PathLike | Treebank | None = None,
                  progress: Progress | None = None) -> Result:
    """Hashemi & Hwa's robustness F1 of the UNGRAMMATICAL sentences' parses against their
    corrections' (``robustness f1``), error-related dependencies excluded. ALIGNMENT: a
    Pharaoh or M2 file, "errant", or None for word-level edit distance."""
    from parsebench.metrics.core.word_alignment import iter_alignments
    from parsebench.metrics.robustness.hashemi_hwa import METHOD, score_corpus
    from parsebench.model.inputs import Holds, kind_first, na_cause, refuse_unparsed
    from parsebench.model.parses import from_sentence, iter_parses

    def parses(x: PathLike | Treebank) -> Iterable[Any]:
        x = as_treebank(x)
        if isinstance(x, Treebank):
            return (from_sentence(s, x.name) for s in x)
        return iter_parses(x)

    grammatical, ungrammatical = as_treebank(grammatical), as_treebank(ungrammatical)
    # the files are read a pair at a time (memory flat in their size), each counted as it
    # streams by for the one input check
    held = [Holds(name_of(x)) for x in (grammatical, ungrammatical)]
    g: Iterable[Any] = held[0].counting(parses(grammatical))
    u: Iterable[Any] = held[1].counting(parses(ungrammatical))
    aligns: Any
    # the kind of each file before its length: noise output is told to be parsed first
    with kind_first(lambda: parses(grammatical), name_of(grammatical)), \
            kind_first(lambda: parses(ungrammatical), name_of(ungrammatical)):
        if alignment == "errant":  # ERRANT aligns whole lists of pairs
            g, u = list(g), list(u)
            source, aligns = "errant", _errant_alignments(u, g, errant_pipeline,
                                                          progress or quiet())
        elif alignment is not None:
            source, aligns = iter_alignments(alignment)
        else:
            source, aligns = "edit-distance", None
        got = score_corpus(g, u, aligns, name_of(grammatical), name_of(ungrammatical),
                           str(alignment or ""), labeled, punct, not exclude_root,
                           parses(gold) if gold is not None else None,
                           name_of(gold) if gold is not None else "")
    for h in held:
        refuse_unparsed(h)
    # both parses need dependencies: with one side's missing, recall would read 0
    causes = [c for c in (na_cause(h, ("heads",), "robustness F1") for h in held) if c]
    errant = _errant_version(errant_pipeline) if source == "errant" else None
    rec = got.command(source, labeled, punct, not exclude_root, errant, causes)
    g_name, u_name = name_of(grammatical), name_of(ungrammatical)
    return result("robustness f1", rec.to_dict(), lambda: METHOD.text(rec, g_name, u_name),
                  causes)


def _errant_alignments(u: list[Any], g: list[Any], pipeline: str, progress: Progress
                       ) -> list[Any]:
    """ERRANT's alignment of every ungrammatical/corrected pair, with progress."""
    from parsebench.metrics.robustness.errant_types import BATCH, alignments, annotator

    if len(u) != len(g):
        return []  # score_corpus says which file is short
    annotator(pipeline)
    out = []
    progress.stage("ERRANT", len(u))
    for k in range(0, len(u), BATCH):
        pairs = zip(u[k:k + BATCH], g[k:k + BATCH], strict=True)
        out += alignments([(a.forms, b.forms) for a, b in pairs], pipeline)
        progress.advance(len(out) - k)
    return out


def _errant_version(pipeline: str) -> str:
    from parsebench.common.installed import version

    return f"{version('errant')}+{pipeline}"

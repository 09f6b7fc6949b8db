"""Each transcript part's share of the harm (``parsebench ablation``): an ablation.

A transcript changes a text in several ways at once (no capitals, no punctuation,
numbers spelled out, fillers, repeated words); its LAS drop alone does not say which
hurts. Here the corpus is made with each part alone and with all of them, each
version parsed and scored against its carried gold tree, and each part's harm is the
clean LAS minus that version's, with a paired bootstrap over sentences (every version
resampled with the same sentences, a sentence's replicates together); its share is its
harm over the sum of the parts' harms, and the interaction what all the parts together
cost beyond that sum (negative: the parts' harms overlap, as removing punctuation and
lowercasing hit the same sentences). A version without sentence boundaries
(``segments``) is parsed a segment at a time and its parses cut back into the
sentences (:mod:`parsebench.run.segments`, as a run does), so it is scored sentence
by sentence too.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from parsebench.common.errors import InputError
from parsebench.common.progress import Progress, Quiet
from parsebench.common.record import Record
from parsebench.formats.conllu import Sentence
from parsebench.model import arguments as A
from parsebench.model.results import Result, result
from parsebench.model.treebank import Treebank, as_treebank, name_of

PathLike = str | os.PathLike[str]


@dataclass(frozen=True)
class PartHarm(Record):
    """One version: its LAS, its harm (clean LAS minus its LAS) with the paired
    bootstrap's interval and p-value, and its share of the parts' summed harm."""

    part: str
    las: float | None
    harm: float | None = None
    ci95: list[float] | None = None
    p: float | None = None
    share: float | None = None


@dataclass(frozen=True)
class Ablation(Record):
    """``ablation --json``: the clean LAS, each part alone and all together, the
    interaction (all's harm minus the parts' summed harm) and how it was measured."""

    corpus: str
    parser: str
    sentences: int
    replicates: int
    clean_las: float | None
    parts: list[PartHarm] = field(default_factory=list)
    all: PartHarm | None = None
    interaction: float | None = None
    interaction_ci95: list[float] | None = None
    samples: int = 1000
    signature: str = ""


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{100 * x:.2f}"


def render(a: Ablation) -> str:
    """The command's table: a row a part, then all of them and the interaction."""
    head = (f"Each transcript part's harm to {a.parser} on {a.corpus} ({a.sentences:,} "
            f"sentences, {a.replicates} replicate(s))\nLAS (%); harm = clean LAS minus the "
            "version's, with a 95% paired bootstrap interval over sentences")
    rows = [["clean", _pct(a.clean_las), "", "", "", ""]]
    for h in [*a.parts, *([a.all] if a.all else [])]:
        ci = "n/a" if h.ci95 is None else f"{100 * h.ci95[0]:.2f} to {100 * h.ci95[1]:.2f}"
        rows.append([h.part, _pct(h.las), _pct(h.harm), ci,
                     "n/a" if h.p is None else f"{h.p:.4f}",
                     "" if h is a.all else "n/a" if h.share is None
                     else f"{100 * h.share:.1f}%"])
    table = [["version", "LAS", "harm", "harm 95% CI", "p", "share"], *rows]
    widths = [max(len(r[k]) for r in table) for k in range(6)]
    lines = [head, ""] + ["  ".join(c.ljust(w) if k == 0 else c.rjust(w)
                                    for k, (c, w) in enumerate(zip(r, widths, strict=True)))
                          .rstrip() for r in table]
    if a.interaction is not None:
        ci = "" if a.interaction_ci95 is None else \
            f" (95% CI {100 * a.interaction_ci95[0]:.2f} to {100 * a.interaction_ci95[1]:.2f})"
        lines.append(f"\ninteraction (all's harm minus the parts' summed harm): "
                     f"{100 * a.interaction:.2f}{ci}")
    return "\n".join(lines) + "\n"


def _version(corpus: Path, parts: list[str], tmp: Path, options: dict[str, Any]
             ) -> list[Path]:
    """The files of the version with PARTS, a replicate each (one when nothing is
    drawn: the fixed parts give every seed the same text), each sentence with its
    carried tree (``segments`` is made when parsed: :func:`_parsed_stats`)."""
    from parsebench.noise.make import noise
    from parsebench.noise.transcript import DRAWN

    words = [p for p in parts if p != "segments"]
    if not words:
        return [corpus]
    own = dict(options)
    if not any(p in DRAWN for p in parts):
        own.update(rate=None, per_sentence=None, replicates=1)
    files = noise(corpus, kind="transcript", parts=words, progress=Quiet(),
                  **own).write(tmp / ("+".join(parts) + ".conllu"))
    return [f for f in files if f.suffix == ".conllu"]


def _parsed_stats(files: list[tuple[Path, int]], parser: str, parse: dict[str, Any],
                  tmp: Path, bar: Progress) -> list[Any]:
    """LAS statistics of each file, a row a sentence, all parsed in one call: the
    parser's model loads once, not once a version (a neural parser's load is seconds).
    A file with a WINDOW (else 0) is given as segments of that many words, its parses
    cut back into its sentences. The parses are written in TMP (never beside the
    user's corpus)."""
    import numpy as np

    from parsebench.api.parsing import parse as parse_corpus
    from parsebench.common.outcomes import Analysis
    from parsebench.formats.conllu import read_conllu, write_conllu
    from parsebench.metrics.registry import REGISTRY, file_stats
    from parsebench.model.parses import to_conllu
    from parsebench.noise.transcript import resegmented, segment_lengths
    from parsebench.run.segments import cut_back

    corpora = [read_conllu(f) for f, _ in files]
    given = [list(resegmented(c, window)) if window else c
             for c, (_, window) in zip(corpora, files, strict=True)]
    bar.stage(f"parsing {len(files)} versions", None)
    parsed = parse_corpus(Treebank([s for c in given for s in c], "<versions>"), parser,
                          **parse).treebank
    out, start = [], 0
    versions = zip(files, corpora, given, strict=True)
    for k, ((f, window), sentences, units) in enumerate(versions):
        mine: Sequence[Sentence] = parsed[start:start + len(units)]
        start += len(units)
        if window:
            cut = cut_back([(Analysis(heads=s.heads, deprels=s.deprels, upos=s.upos,
                                      xpos=s.xpos, lemmas=s.lemmas, feats=s.feats), 0.0)
                            for s in mine], segment_lengths(sentences, window),
                           [len(s.forms) for s in sentences])
            mine = [to_conllu(s, o) for s, (o, _) in zip(sentences, cut, strict=True)]
        own = tmp / f"parsed-{k}.conllu"
        with own.open("w", encoding="utf-8") as fh:
            write_conllu(mine, fh)
        out.append(np.asarray(file_stats(REGISTRY["las"], f, own), dtype=np.float64))
    return out


@A.checked(corpus=A.corpus, parser=A.text, parts=A.optional(A.strings),
           rate=A.optional(A.number), per_sentence=A.optional(A.limited), seed=A.limited,
           replicates=A.limited, lang=A.text, fillers=A.optional(A.strings),
           window=A.optional(A.limited), workers=A.limited, timeout=A.number,
           samples=A.limited, progress=A.progress)
def ablation(corpus: PathLike | Treebank | Sequence[Sentence], parser: str, *,
             parts: str | Sequence[str] | None = None, rate: float | None = None,
             per_sentence: int | None = None, seed: int = 1, replicates: int = 1,
             lang: str = "en", fillers: str | Sequence[str] | None = None,
             window: int | None = None, workers: int = 1,
             timeout: float = 60.0, samples: int = 1000,
             progress: Progress | None = None) -> Result:
    """Each transcript part's share of PARSER's LAS drop on CORPUS (CoNLL-U with gold
    trees, a Treebank or Sentences): the corpus transcribed with each of PARTS alone
    (default: all but segments and speech) and with all of them, each parsed and scored
    against its carried tree (``parsebench ablation``). RATE or PER_SENTENCE, SEED,
    REPLICATES, LANG, FILLERS and WINDOW are ``noise --kind transcript``'s; WORKERS and
    TIMEOUT ``parse``'s; SAMPLES the bootstrap's resamples (seed 1)."""

    from parsebench.common.signature import signature
    from parsebench.formats.conllu import iter_conllu
    from parsebench.metrics.core.resample import bootstrap_scores, interval, paired_bootstrap
    from parsebench.metrics.registry import REGISTRY
    from parsebench.noise.transcript import DRAWN, parse_parts, settings_for

    chosen = list(parse_parts(parts))
    if "speech" in chosen:
        raise InputError("--parts: speech is a round trip of its own (noise --kind "
                         "transcript --parts speech); ablate the others")
    size = settings_for(("segments",) if "segments" in chosen else (), None, lang,
                        window).window
    if len(chosen) < 2:
        raise InputError("--parts: an ablation needs two parts or more")
    fixed_only = not any(p in DRAWN for p in chosen)
    options = {"rate": rate, "per_sentence": per_sentence, "seed": seed,
               "replicates": replicates, "lang": lang, "fillers": fillers}
    bar = progress or Quiet()
    parse: dict[str, Any] = {"workers": workers, "timeout": timeout}
    las = REGISTRY["las"]
    with tempfile.TemporaryDirectory(prefix="parsebench-ablation-") as d:
        tmp = Path(d)
        if isinstance(corpus, str | os.PathLike):
            gold = Path(corpus)
        else:  # a Treebank or a list of Sentences, checked as a file is read
            gold = tmp / "gold.conllu"
            as_treebank(corpus).write(gold)
        if next(iter(iter_conllu(gold)), None) is None:  # before any parse
            raise InputError("no sentences to score", name_of(corpus))
        ablated = [[p] for p in chosen] + [chosen]
        made = [_version(gold, part, tmp, options) for part in ablated]
        stats = _parsed_stats([(gold, 0), *((f, size if "segments" in part else 0)
                                            for part, files in zip(ablated, made, strict=True)
                                            for f in files)], parser, parse, tmp, bar)
    clean, rest = stats[0], iter(stats[1:])
    versions = [(part, sum(next(rest) for _ in files))  # a sentence's replicates summed
                for part, files in zip(ablated, made, strict=True)]
    point = [las.corpus(clean)] + [las.corpus(v) for _, v in versions]
    resampled = bootstrap_scores([clean, *(v for _, v in versions)], las.score,
                                 samples, 1)
    harms = [None if p is None or point[0] is None else point[0] - p for p in point[1:]]
    singles = harms[:-1]
    total = sum(h for h in singles if h is not None) if None not in singles else None
    out = []
    for k, ((part, v), h) in enumerate(zip(versions, harms, strict=True)):
        test = paired_bootstrap(v, clean, las.score, samples, 1,
                                scores=(resampled[k + 1], resampled[0]))
        out.append(PartHarm(part[0] if len(part) == 1 else "all", point[k + 1], h,
                            None if test.ci is None else list(test.ci), test.p,
                            None if h is None or not total or len(part) > 1
                            else h / total))
    inter = None if harms[-1] is None or total is None else harms[-1] - total
    inter_ci = None
    if inter is not None:
        draws = (resampled[0] - resampled[-1]) - sum(resampled[0] - r
                                                     for r in resampled[1:-1])
        got_ci = interval(draws, 0.05, inter)
        inter_ci = None if got_ci is None else list(got_ci)
    sig = signature(method="ablation", kind="transcript", parts=chosen, window=size or None,
                    rate=None if fixed_only else rate,
                    per_sentence=None if fixed_only else per_sentence, seed=seed,
                    replicates=1 if fixed_only else replicates, lang=lang,
                    samples=samples)
    record = Ablation(os.path.basename(name_of(corpus)), parser, int(clean.shape[0]),
                      1 if fixed_only else replicates, point[0], out[:-1], out[-1],
                      inter, inter_ci, samples, sig)
    return result("ablation", record, lambda: render(record))

"""Robustness F1 of ungrammatical sentences against their corrections (Hashemi & Hwa 2016).

Words of U (ungrammatical) or G (grammatical) that the alignment leaves
unpaired are error words; a dependency touching one is error-related and is
left out of both denominators. A dependency of U is shared when both of its
words align into G and G has the same dependency between the aligned words.
By default the root attachment counts as a dependency (every word has one),
as in the authors' code; a failed parse has no dependencies, so it costs
recall (or precision) instead of disappearing from the corpus.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from parsebench.common.errors import InputError
from parsebench.formats.conllu import NO_HEAD
from parsebench.metrics.core.counts import Additive
from parsebench.metrics.core.method import (
    LevelStats,
    Method,
    Metric,
    Pair,
    RankingFigure,
    Replicate,
    RunContext,
    ScoredLevel,
    SentenceStats,
    Variant,
)
from parsebench.metrics.core.scores import f1_of_shared, share
from parsebench.metrics.core.word_alignment import (
    Alignment,
    edit_distance,
    m2_words,
    unaligned_runs,
)
from parsebench.metrics.robustness.hashemi_hwa_records import (
    ATTACHMENT_INTERVALS as ATTACHMENT_INTERVALS,
)
from parsebench.metrics.robustness.hashemi_hwa_records import (
    AttachmentFigures as AttachmentFigures,
)
from parsebench.metrics.robustness.hashemi_hwa_records import (
    CommandAttachment as CommandAttachment,
)
from parsebench.metrics.robustness.hashemi_hwa_records import (
    CommandIntervals as CommandIntervals,
)
from parsebench.metrics.robustness.hashemi_hwa_records import (
    F1Command as F1Command,
)
from parsebench.metrics.robustness.hashemi_hwa_records import (
    F1Corrected as F1Corrected,
)
from parsebench.metrics.robustness.hashemi_hwa_records import (
    F1Counts as F1Counts,
)
from parsebench.metrics.robustness.hashemi_hwa_records import (
    F1Figures as F1Figures,
)
from parsebench.metrics.robustness.hashemi_hwa_records import (
    F1Intervals as F1Intervals,
)
from parsebench.metrics.robustness.hashemi_hwa_records import (
    F1Levels as F1Levels,
)
from parsebench.metrics.robustness.hashemi_hwa_records import (
    F1Value as F1Value,
)
from parsebench.metrics.robustness.hashemi_hwa_records import (
    GroupIntervals as GroupIntervals,
)
from parsebench.metrics.robustness.hashemi_hwa_records import (
    LasFigure as LasFigure,
)
from parsebench.metrics.robustness.hashemi_hwa_records import (
    OperationFigures as OperationFigures,
)
from parsebench.metrics.robustness.hashemi_hwa_records import (
    TypeFigures as TypeFigures,
)
from parsebench.metrics.robustness.hashemi_hwa_shown import (
    f1_section,
    f1_table,
    hurts,
    types_section,
)
from parsebench.model.parses import Parse, arcs
from parsebench.present import percent

SIGNATURE = "hashemi-hwa-f1"
"""The method's name in every signature of its figures (a run's and the command's)
and its score's name."""


def score_pair(u: Parse, g: Parse, alignment: Alignment, labeled: bool = False,
               punct: bool = True, root: bool = True) -> F1Counts:
    """The counts of one (U, G) pair; word indices in the alignment are 0-based."""
    u_arcs = arcs(u, labeled, punct, root)
    g_arcs = arcs(g, labeled, punct, root)
    to_g: dict[int, set[int]] = {0: {0}}
    aligned_g = {0}
    for i, j in alignment.pairs:
        to_g.setdefault(i + 1, set()).add(j + 1)
        aligned_g.add(j + 1)
    u_err = sum(1 for d, h, _ in u_arcs if d not in to_g or h not in to_g)
    g_err = sum(1 for d, h, _ in g_arcs if d not in aligned_g or h not in aligned_g)
    g_set = set(g_arcs)
    shared = sum(1 for d, h, lab in u_arcs if d in to_g and h in to_g and any(
        (dg, hg, lab) in g_set for dg in to_g[d] for hg in to_g[h]))
    return F1Counts(shared, len(u_arcs), u_err, len(g_arcs), g_err, 1,
                    int(u.failed is not None or g.failed is not None))


@dataclass(slots=True)
class Attachment(Additive):
    """Attachment accuracy against a gold key through an alignment: of the gold words with
    a word of the parse aligned to them, how many get the gold head (mapped through the
    alignment) and the gold label too (universal part, as CoNLL 2018's LAS)."""

    words: int = 0
    heads: int = 0
    labels: int = 0

    def as_dict(self) -> dict[str, Any]:
        n = self.words
        return {"uas": self.heads / n if n else None, "las": self.labels / n if n else None,
                "words": n, "uas_correct": self.heads, "las_correct": self.labels}


def attachment(parse: Parse, gold: Parse, alignment: Alignment | None,
               punct: bool = True) -> Attachment:
    """PARSE's attachment accuracy against GOLD, their words paired by ALIGNMENT (parse
    word i, gold word j, 0-based; None: the same words). Gold words no parse word is
    aligned to (the error words) are left out; a head that is an error word is wrong."""
    pairs = [(k, k) for k in range(len(gold))] if alignment is None else alignment.pairs
    to_gold: dict[int, set[int]] = {0: {0}}
    first: dict[int, int] = {}
    for a, b in pairs:
        to_gold.setdefault(a + 1, set()).add(b + 1)
        first.setdefault(b, a)
    out = Attachment()
    for j, gh in enumerate(gold.heads):
        if gh == NO_HEAD or j not in first:
            continue
        i = first[j]
        if not punct and (gold.upos[j] == "PUNCT" or gold.deprels[j].split(":")[0] == "punct"):
            continue
        out.words += 1
        if parse.failed is not None or parse.kind != "deps":
            continue
        if gh in to_gold.get(parse.heads[i], ()):
            out.heads += 1
            out.labels += parse.deprels[i].split(":")[0] == gold.deprels[j].split(":")[0]
    return out


@dataclass(slots=True)
class F1Result:
    total: F1Counts
    by_errors: dict[int, F1Counts] = field(default_factory=dict)
    by_type: dict[str, F1Counts] = field(default_factory=dict)
    pairs: list[tuple[int, int, int]] = field(default_factory=list)
    """(shared, precision's denominator, recall's denominator) of every sentence pair."""
    accuracy: dict[str, Attachment] = field(default_factory=dict)
    """With a gold key: the corrected ("clean") and ungrammatical ("noisy") parses'
    attachment against it, the noisy one through the alignment."""
    accuracy_by_type: dict[str, Attachment] = field(default_factory=dict)
    accuracy_rows: list[tuple[int, int, int, int, int, int]] = field(default_factory=list)
    """Per sentence pair: clean words, heads, labels, noisy words, heads, labels."""
    types: list[tuple[str, ...]] = field(default_factory=list)
    """Per sentence pair: the error types of its alignment (none from edit distance)."""

    def add(self, st: SentenceStats) -> None:
        """Count one pair from its statistics (:func:`pair_stats`)."""
        c = F1Counts(*(int(x) for x in st["counts"]))
        self.total.add(c)
        self.pairs.append(tuple(int(x) for x in st["f1"]))  # type: ignore[arg-type]
        types: list[str] = []
        for name in st:
            group, _, value = name.partition("=")
            if group == "by_errors":
                self.by_errors.setdefault(int(value), F1Counts()).add(c)
            elif group == "by_type":
                types.append(value)
                self.by_type.setdefault(value, F1Counts()).add(c)
        self.types.append(tuple(types))
        if "aligned" in st:
            clean = Attachment(*(int(x) for x in st["clean accuracy"]))
            noisy = Attachment(*(int(x) for x in st["aligned"]))
            self.accuracy.setdefault("clean", Attachment()).add(clean)
            self.accuracy.setdefault("noisy", Attachment()).add(noisy)
            for t in types:
                self.accuracy_by_type.setdefault(t, Attachment()).add(noisy)
            self.accuracy_rows.append((clean.words, clean.heads, clean.labels,
                                       noisy.words, noisy.heads, noisy.labels))

    def _rows_by_key(self) -> dict[str, tuple[list[tuple[int, int, int]],
                                              list[tuple[int, int, int]]]]:
        """The F1 rows and the noisy attachment rows of the pairs with an error of each
        type, and of each operation (M, U, R)."""
        out: dict[str, tuple[list[tuple[int, int, int]], list[tuple[int, int, int]]]] = {}
        for k, ts in enumerate(self.types):
            for key in {*ts, *(t[0] for t in ts)}:
                f1_rows, acc_rows = out.setdefault(key, ([], []))
                f1_rows.append(self.pairs[k])
                if self.accuracy_rows:
                    acc_rows.append(self.accuracy_rows[k][3:])
        return out

    def by_type_dict(self) -> dict[str, dict[str, Any]]:
        """Each error type's counts, its attachment (with a gold key) and 95% intervals
        over the pairs that hold it."""
        out = {}
        rows = self._rows_by_key()
        for t, c in sorted(self.by_type.items()):
            out[t] = {**c.as_dict(), "ci95": _group_intervals(*rows[t])}
            if t in self.accuracy_by_type:
                out[t]["accuracy"] = self.accuracy_by_type[t].as_dict()
        return out

    def intervals(self) -> dict[str, list[float] | None]:
        """95% bootstrap intervals over sentence pairs."""
        from parsebench.metrics.core.resample import sentence_interval  # NumPy: when scoring
        out = {"precision": sentence_interval(self.pairs, share(0, 1)),
               "recall": sentence_interval(self.pairs, share(0, 2)),
               "f1": sentence_interval(self.pairs, SCORES_BY_NAME[SIGNATURE].score)}
        if self.accuracy_rows:
            for side, at in (("clean", 0), ("noisy", 3)):
                out[f"{side}_uas"] = sentence_interval(self.accuracy_rows, share(at + 1, at))
                out[f"{side}_las"] = sentence_interval(self.accuracy_rows, share(at + 2, at))
        return out

    def command(self, alignment: str, labeled: bool, punct: bool, root: bool,
                errant: str | None = None, causes: Sequence[str] = ()) -> F1Command:
        """``robustness f1``'s object: the figures, their intervals and breakdowns, the
        attachment against a gold key, and the signature of the settings (ALIGNMENT: its
        source; ERRANT: its version and pipeline when it aligned); every figure n/a
        (None) where CAUSES say why."""
        from parsebench.common.signature import signature

        out = self.total.as_dict()
        out["ci95"] = self.intervals()
        by_errors, by_type = self.by_errors, self.by_type
        if causes:
            out.update(precision=None, recall=None, f1=None, warnings=list(causes))
            out["ci95"] = dict.fromkeys(out["ci95"])
            by_errors, by_type = {}, {}
        if self.accuracy:
            out["accuracy"] = {k: v.as_dict() for k, v in self.accuracy.items()}
            out["accuracy"]["by_type"] = {k: v.as_dict()
                                          for k, v in sorted(self.accuracy_by_type.items())}
        if by_errors:
            out["by_errors"] = {str(k): v.as_dict() for k, v in sorted(by_errors.items())}
        if by_type:
            out["by_type"] = self.by_type_dict()
        out["signature"] = signature(method=SIGNATURE, alignment=alignment, labeled=labeled,
                                     punct=punct, root=root,
                                     **({"errant": errant} if errant else {}))
        return F1Command.from_dict(out)


def _array(rows: Sequence[Sequence[int]]) -> Any:
    import numpy as np
    return np.asarray(rows, dtype=np.float64).reshape(-1, 3)


def _group_intervals(f1_rows: Sequence[Sequence[int]], acc_rows: Sequence[Sequence[int]]
                     ) -> dict[str, list[float] | None]:
    from parsebench.metrics.core.resample import sentence_interval  # NumPy: when scoring
    return {"f1": sentence_interval(f1_rows, SCORES_BY_NAME[SIGNATURE].score),
            "aligned_las": sentence_interval(acc_rows, SCORES_BY_NAME["aligned-las"].score)
            if acc_rows else None}


def check_alignment(a: Alignment, u: Parse, g: Parse, k: int, u_path: str, g_path: str,
                    a_path: str) -> None:
    """That alignment A (of sentence pair K) fits U and G, and an M2's words are theirs."""
    if a.source is not None and a.source != m2_words(u.forms):
        raise InputError(f"sentence pair {k + 1}: the M2 sentence does not have the words "
                         f"of the ungrammatical sentence at {u_path}:{u.line}",
                         a_path or u_path)
    if a.corrected is not None and a.corrected != m2_words(g.forms):
        raise InputError(f"sentence pair {k + 1}: the M2 correction does not give the "
                         f"words of the grammatical sentence at {g_path}:{g.line}",
                         a_path or u_path)
    for i, j in a.pairs:
        if i >= len(u) or j >= len(g):
            raise InputError(f"sentence pair {k + 1}: alignment pair {i}-{j} is outside "
                             f"the sentences ({len(u)} and {len(g)} words)", a_path, k + 1)


def score_corpus(grammatical: Iterable[Parse], ungrammatical: Iterable[Parse],
                 alignments: Iterable[Alignment] | None, g_path: str, u_path: str,
                 a_path: str = "", labeled: bool = False, punct: bool = True,
                 root: bool = True, gold: Iterable[Parse] | None = None,
                 gold_path: str = "") -> F1Result:
    """Robustness F1 of every pair; with GOLD (a key of the corrected sentences), also both
    parses' attachment accuracy against it. The inputs are read a pair at a time (memory
    holds a few numbers a pair, not the parses); a file with another number of sentences
    than GRAMMATICAL is refused, with both counts, once one of them ends."""
    result = F1Result(F1Counts())
    if gold is not None:
        result.accuracy = {"clean": Attachment(), "noisy": Attachment()}
    g_iter = iter(grammatical)
    others: list[tuple[Iterator[Any] | None, str, str, str]] = [
        (iter(ungrammatical), u_path, "sentences", ""),
        (None if alignments is None else iter(alignments), a_path, "sentence pairs",
         " sentences"),
        (None if gold is None else iter(gold), gold_path, "sentences", "")]
    k = -1
    for k, g in enumerate(g_iter):
        got: list[Any] = [None if it is None else next(it, _END) for it, _, _, _ in others]
        for item, (_, path, what, unit) in zip(got, others, strict=True):
            if item is _END:
                raise InputError(f"{k} {what}, but {g_path} has "
                                 f"{k + 1 + sum(1 for _ in g_iter)}{unit}", path)
        u: Parse = got[0]
        a: Alignment | None = got[1]
        key: Parse | None = got[2]
        if a is None:
            a = edit_distance(u.forms, g.forms)
        check_alignment(a, u, g, k, u_path, g_path, a_path)
        if key is not None and key.forms != g.forms:
            raise InputError(f"sentence {k + 1} does not have the words of {g_path}:"
                             f"{g.line}", gold_path, key.line)
        result.add(pair_stats(Pair(g, u, key, a), labeled, punct, root))
    for it, path, what, unit in others:  # a file going on after the corrected one ended
        extra = 0 if it is None else sum(1 for _ in it)
        if extra:
            raise InputError(f"{k + 1 + extra} {what}, but {g_path} has {k + 1}{unit}", path)
    return result


_END: Any = object()
"""What a stream gives once it has ended."""


_F1_FIELDS = ("shared", "ungrammatical_deps", "ungrammatical_error_deps", "grammatical_deps",
              "grammatical_error_deps", "sentences", "failures")


def pair_stats(pair: Pair, labeled: bool = False, punct: bool = True, root: bool = True
               ) -> SentenceStats:
    """One (ungrammatical, grammatical) pair's statistics: ``counts`` (:class:`F1Counts`),
    ``f1`` (shared, precision's and recall's denominators), keyed by its number of
    errors, its error types and their operations (M, U, R); with a gold key of the
    grammatical sentence, both parses' attachment (``clean accuracy``, ``aligned``)."""
    u, g = pair.noisy, pair.clean
    a = pair.alignment if pair.alignment is not None else edit_distance(u.forms, g.forms)
    c = score_pair(u, g, a, labeled, punct, root)
    counts = tuple(getattr(c, f) for f in _F1_FIELDS)
    f1 = (c.shared, c.ungrammatical_deps - c.ungrammatical_error_deps,
          c.grammatical_deps - c.grammatical_error_deps)
    errors = a.errors if a.errors is not None else unaligned_runs(a.pairs, len(u), len(g))
    types = sorted(set(a.types))
    st: SentenceStats = {"counts": counts, "f1": f1, f"by_errors={errors}": counts}
    noisy: tuple[int, ...] = ()
    if pair.gold is not None:
        clean_a, noisy_a = attachment(g, pair.gold, None, punct), attachment(u, pair.gold, a,
                                                                             punct)
        noisy = (noisy_a.words, noisy_a.heads, noisy_a.labels)
        st["clean accuracy"] = (clean_a.words, clean_a.heads, clean_a.labels)
        st["aligned"] = noisy
    for t in types:
        st[f"by_type={t}"] = (*counts, *f1, *noisy)
    for op in sorted({t[0] for t in types}):
        st[f"by_operation={op}"] = (1, *f1, *noisy)
    return st


def _ci(stats: LevelStats, group: str, key: str, at: int, gold: bool
        ) -> dict[str, list[float] | None]:
    """The intervals of one group of a breakdown, over the sentences that hold it."""
    from parsebench.metrics.core.resample import sentence_interval  # NumPy: when scoring
    rows = stats.held(f"{group}={key}")
    return {"f1": sentence_interval([r[at:at + 3] for r in rows],
                                    SCORES_BY_NAME[SIGNATURE].score),
            "aligned_las": sentence_interval([r[at + 3:] for r in rows],
                                             SCORES_BY_NAME["aligned-las"].score)
            if gold else None}


def level_figures(stats: LevelStats, gold: bool) -> dict[str, Any]:
    """Robustness F1 of a level from its statistics, with its breakdowns by error type
    and operation (their intervals over the sentences that hold them) and, with a gold
    key, the attachment through the alignment."""
    def counts(name: str) -> F1Counts:
        return F1Counts(*(int(x) for x in stats.sums(name)[:7]))

    out: dict[str, Any] = counts("counts").as_dict()
    by_type: dict[str, Any] = {}
    for t in stats.names("by_type"):
        s = stats.sums(f"by_type={t}")
        by_type[t] = {**F1Counts(*(int(x) for x in s[:7])).as_dict(),
                      "ci95": _ci(stats, "by_type", t, 7, gold)}
        if gold:
            by_type[t]["accuracy"] = Attachment(*(int(x) for x in s[10:])).as_dict()
    by_op: dict[str, Any] = {}
    for op in "MUR":
        if op in stats.names("by_operation"):
            s = stats.sums(f"by_operation={op}")
            by_op[op] = {"sentences": int(s[0]),
                         "f1": SCORES_BY_NAME[SIGNATURE].corpus(s[None, 1:4]),
                         "accuracy": {"las": SCORES_BY_NAME["aligned-las"].corpus(s[None, 4:])
                                      if gold else None},
                         "ci95": _ci(stats, "by_operation", op, 1, gold)}
    return {**out, "replicates": stats.replicates, "by_type": by_type, "by_operation": by_op}


def _variants(ctx: RunContext) -> list[Variant]:
    """Hashemi & Hwa's robustness F1: of the text against its corrected version, and of
    each level of learner-like errors against the clean text through the errors'
    alignment (with the attachment against the gold key through it, by error type)."""
    if not (ctx.exp.wants("f1") and ctx.kind == "deps"):
        return []
    out = []
    if ctx.corrected is not None:
        out.append(_corrected(ctx))
    if ctx.moves_words and ctx.levels:
        out.append(_levels(ctx))
    return out


def _check(rep: Replicate, clean_path: str) -> None:
    for k, p in enumerate(rep.pairs):
        if p.alignment is not None:
            check_alignment(p.alignment, p.noisy, p.clean, k, rep.label, clean_path, "")


def _levels(ctx: RunContext) -> Variant:
    path = str(ctx.corpus.path)
    gold = ctx.gold is not None

    def stats(rep: Replicate) -> Iterator[SentenceStats]:
        _check(rep, path)
        return (pair_stats(p) for p in rep.pairs)

    def figures(level: ScoredLevel, t: LevelStats) -> dict[str, Any]:
        from parsebench.metrics.core.resample import sentence_interval  # NumPy: when scoring
        value = level_figures(t, gold)
        by_type, by_op = value.pop("by_type"), value.pop("by_operation")
        value.update(error_level_label=level.short, by_type=by_type, by_operation=by_op)
        value["stats"] = t.stored(["f1", "by_errors", "by_type", "by_operation"])
        value["ci95"] = {"f1": sentence_interval(value["stats"]["f1"],
                                                 SCORES_BY_NAME[SIGNATURE].score)}
        if gold:
            value["accuracy"] = Attachment(*(int(x) for x in t.sums("aligned"))).as_dict()
            value["stats"]["aligned"] = t.rows("aligned")
            for k in ("uas", "las"):
                value["ci95"][f"aligned_{k}"] = sentence_interval(
                    value["stats"]["aligned"], SCORES_BY_NAME[f"aligned-{k}"].score)
        return value

    return Variant("deps", ctx.noisy_levels(with_gold=True), stats, figures,
                   lambda level: {"method": SIGNATURE, "alignment": "noise",
                                  "labeled": False, "punct": True, "root": True,
                                  "level": level.label})


def _corrected(ctx: RunContext) -> Variant:
    """The text's parse (ungrammatical) against its corrected version's (grammatical)."""
    assert ctx.corrected is not None, "asked only of a run with a corrected text"
    corr, corr_parsed = ctx.corrected
    g = corr_parsed.parses(corr.versions[0])
    aligns: list[Alignment] | None = None
    if ctx.exp.alignment == "errant":
        from parsebench.metrics.robustness.errant_types import alignments

        aligns = alignments([(u.forms, c.forms) for u, c in zip(ctx.clean, g, strict=True)],
                            ctx.exp.errant_pipeline)
    if len(g) != len(ctx.clean):
        raise InputError(f"{len(ctx.clean)} sentences, but {corr.path} has {len(g)}",
                         ctx.corpus.path)
    pairs = [Pair(c, u, None, None if aligns is None else aligns[k])
             for k, (u, c) in enumerate(zip(ctx.clean, g, strict=True))]
    level = ScoredLevel("corrected", "corrected", [Replicate(str(ctx.corpus.path), pairs)])

    def stats(rep: Replicate) -> Iterator[SentenceStats]:
        _check(rep, str(corr.path))
        return (pair_stats(p) for p in rep.pairs)

    def figures(level: ScoredLevel, t: LevelStats) -> dict[str, Any]:
        from parsebench.metrics.core.resample import sentence_interval  # NumPy: when scoring
        value = level_figures(t, False)
        by_type = value.pop("by_type")
        value.pop("by_operation")
        value.pop("replicates")
        rows = t.rows("f1")
        value["ci95"] = {"precision": sentence_interval(rows, share(0, 1)),
                         "recall": sentence_interval(rows, share(0, 2)),
                         "f1": sentence_interval(rows, SCORES_BY_NAME[SIGNATURE].score)}
        value["stats"] = t.stored(["f1", "by_errors", "by_type"])
        value["by_errors"] = {
            str(k): F1Counts(*(int(x) for x in t.sums(f"by_errors={k}"))).as_dict()
            for k in sorted(int(e) for e in t.names("by_errors"))}
        if aligns is not None:
            value["by_type"] = by_type
        return value

    return Variant("deps", [level], stats, figures,
                   lambda level: {"method": SIGNATURE,
                                  "alignment": ctx.exp.alignment if aligns is None
                                  else f"errant:{ctx.exp.errant_pipeline}",
                                  "labeled": False, "punct": True, "root": True})


_ALIGNED = ("gold words aligned", "heads right", "heads and labels right")
SCORES = (
    Metric(SIGNATURE, "robustness F1", "run",
           ("shared", "ungrammatical deps", "grammatical deps"), f1_of_shared, ("f1", "f1"),
           headline=RankingFigure("robustness F1 (Hashemi & Hwa)", lambda v: v.f1, "f1",
                                  True, 1)),
    Metric("aligned-uas", "UAS through the errors' alignment", "run", _ALIGNED, share(1, 0),
           ("f1", "aligned")),
    Metric("aligned-las", "LAS through the errors' alignment", "run", _ALIGNED, share(2, 0),
           ("f1", "aligned")),
)
SCORES_BY_NAME = {m.name: m for m in SCORES}


def _pct(x: Any) -> str:
    return percent(x, spread=True)


def _headline(v: F1Value) -> str:
    return f"P {_pct(v.precision)}  R {_pct(v.recall)}  F1 {_pct(v.f1)}"


LEGEND = {
    "F1": "robustness F1 (Hashemi & Hwa): dependencies kept, error words left out",
    "aligned LAS": "LAS against the gold key of the words the alignment pairs with it",
    "type": "ERRANT's error type (M: missing, U: unnecessary, R: replaced)",
}
"""What the columns of Hashemi & Hwa's tables hold."""

METHOD = Method("f1", "Hashemi & Hwa", _variants,
                "scored through the alignment, by error type, with the attachment against the "
                "gold key", scores=SCORES,
                sections=(f1_section, types_section), text=f1_table, hurts=hurts,
                section_title="robustness F1", anchor=lambda r: "types", legend=LEGEND,
                headline=_headline, value_type=F1Value, columns={
                    "f1": ("shared", "ungrammatical deps", "grammatical deps"),
                    "aligned": ("gold words aligned", "heads right", "heads and labels right"),
                    "by_errors": ("sentence", "errors", *_F1_FIELDS),
                    "by_type": ("sentence", "type", *_F1_FIELDS, "shared",
                                "ungrammatical deps", "grammatical deps", "gold words aligned",
                                "heads right", "heads and labels right"),
                    "by_operation": ("sentence", "operation", "pairs", "shared",
                                     "ungrammatical deps", "grammatical deps",
                                     "gold words aligned", "heads right",
                                     "heads and labels right")})

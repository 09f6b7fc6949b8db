"""The run's method of Lin's and CoNLL 2018's scores against a gold key.

In a run (:data:`METHOD`), the clean text's parse is scored against the gold
with every breakdown the experiment asks for (by genre also with words per
second, Lin's Table 18.2), and each error level's parses with the breakdowns
that show where noise hurts (relation, arc length, sentence length); every
metric's and every breakdown group's counts are kept a sentence. The scoring
itself is :func:`parsebench.metrics.dependency.evaluate.score_deps`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from parsebench.common.errors import InputError
from parsebench.formats.conllu import basic_to_deps
from parsebench.metrics.core.method import (
    LevelStats,
    Method,
    Metric,
    RankingFigure,
    Replicate,
    RunContext,
    ScoredLevel,
    SentenceStats,
    Variant,
)
from parsebench.metrics.core.scores import f1_of_counts, f1_of_pr
from parsebench.metrics.dependency.conll18 import (
    CONLL18,
    CONLL18_NAMES,
    ENHANCED,
    ENHANCED_NAMES,
    METRIC_NEEDS,
    F1Count,
)
from parsebench.metrics.dependency.evaluate import DepsOptions, DepsResult, SentenceCounts
from parsebench.metrics.dependency.figures import DepsValue
from parsebench.metrics.dependency.lin_scorer import PR, BucketCounts
from parsebench.metrics.dependency.lin_scorer import SIGNATURE as LIN
from parsebench.metrics.dependency.lin_shown import (
    deps_section,
    deps_table,
    hurts,
    where_section,
)
from parsebench.metrics.dependency.other_words import AlignedResult
from parsebench.metrics.dependency.settings import KEYS, DepsScoring, file_stats
from parsebench.present import percent

WHERE_ERRORS_FALL = ("arc-length", "sentence-length")
"""Breakdowns stored with every level's scores: where does noise hurt?"""
COUNTED = (*CONLL18, "ucm", "lcm")
"""The CoNLL 2018 counts a sentence's statistics carry (correct, gold, system, aligned)."""
GRAPHS = ENHANCED
"""ELAS's and EULAS's counts, carried where the gold has enhanced graphs."""


def stats_of_counts(c: SentenceCounts) -> SentenceStats:
    """A gold sentence's statistics: each CoNLL 2018 metric's counts, Lin's unlabeled and
    labeled precision/recall counts, and each breakdown group's (``arc-length=3-6``:
    unlabeled then labeled key, key found, answer, answer found)."""
    st: SentenceStats = {}
    for k in COUNTED:
        x = getattr(c, k)
        st[k] = (x.correct, x.gold, x.system, x.aligned)
    for k in GRAPHS:  # only where there is a graph: no new statistics for other golds
        x = getattr(c, k)
        if x.gold or x.system:
            st[k] = (x.correct, x.gold, x.system, x.aligned)
    for k in ("unlabeled", "labeled"):
        x = getattr(c, k)
        st[k] = (x.key, x.answer, x.key_found, x.answer_found)
    for (f, g), b in c.groups.items():
        u, lab = b.unlabeled, b.labeled
        st[f"{f}={g}"] = (u.key, u.answer, u.key_found, u.answer_found,
                          lab.key, lab.answer, lab.key_found, lab.answer_found)
    return st


def _pr(row: Any) -> PR:
    return PR(key=int(row[0]), answer=int(row[1]), key_found=int(row[2]),
              answer_found=int(row[3]))


def result_of(t: LevelStats, fields: list[str], by: str, facts: dict[str, Any]
              ) -> DepsResult:
    """The result of a level from its summed statistics: what ``score_deps`` of the
    replicates in a row gives, with the warnings and missing columns it found."""
    total = SentenceCounts()
    for k in COUNTED:
        setattr(total, k, F1Count(*(int(x) for x in t.sums(k))))
    for k in GRAPHS:
        if k in t.widths:
            setattr(total, k, F1Count(*(int(x) for x in t.sums(k))))
    total.unlabeled, total.labeled = _pr(t.sums("unlabeled")), _pr(t.sums("labeled"))
    breakdowns: dict[str, dict[str, BucketCounts]] = {}
    for f in fields:
        got = breakdowns[f] = {}
        for g in t.names(f):
            s = t.sums(f"{f}={g}")
            got[g] = BucketCounts(unlabeled=_pr(s[:4]), labeled=_pr(s[4:]))
        for g, (n, words) in facts["sizes"].get(f, {}).items():
            b = got.setdefault(g, BucketCounts())
            b.sentences, b.words = n, words
    return DepsResult(total, facts["sentences"], None, breakdowns.get(by), by,
                      facts["warnings"], frozenset(facts["absent"]), facts.get("confusion"),
                      True, breakdowns, t.replicates)


def _system_sentences(ctx: RunContext, v: Any, scoring: DepsScoring, where: str) -> list[Any]:
    """The parser's sentences of version V as scored against the gold: a parse of the
    words it was given has the gold's words (misspellings then do not upset the
    alignment); one of other words (an LLM's, a normaliser's) keeps its own, for
    ``align = "words"`` to align, and is refused in one line without it."""
    if ctx.exp.tokens == "raw":  # its own words and sentences: aligned to the gold's by
        return list(ctx.parsed.own_sentences(v))  # characters
    out = []
    for k, (s, given, g) in enumerate(zip(ctx.parsed.sentences_of(v), v.sentences,
                                          ctx.corpus.sentences, strict=True)):
        if s.forms == given.forms or (len(s) == len(g) and not scoring.align):
            out.append(replace(s, forms=g.forms))
        elif scoring.align:
            out.append(s)
        else:
            raise InputError(f"{where}: sentence {k + 1} was parsed into {len(s)} words, "
                             f"not the {len(given)} given; score such a parser with "
                             'deps = { align = "words" } in [metrics]', ctx.exp.source)
    return out


def _variants(ctx: RunContext) -> list[Variant]:
    breakdowns = ctx.exp.setting("deps").by
    scoring: DepsScoring = ctx.exp.setting("deps").scoring
    if not (ctx.exp.wants("deps") and ctx.corpus.gold and ctx.kind == "deps"):
        return []
    corpus, parsed = ctx.corpus, ctx.parsed
    clean_fields = list(dict.fromkeys(["deprel", *breakdowns, *WHERE_ERRORS_FALL]))
    noisy_fields = ["deprel", *WHERE_ERRORS_FALL]
    facts: dict[str, dict[str, Any]] = {}

    graphs = any(d != "_" for s in corpus.sentences for d in s.deps)
    versions = {"clean": [corpus.versions[0]],
                **{lv.label: vs for lv, vs in ctx.levels.items()}}

    def scorer(fields: list[str], confusion: str | None, keep: bool) -> Any:
        """KEEP: every result of the clean text reads its rows; a noisy replicate's rows
        are read once, then let go."""
        done: dict[str, list[SentenceStats]] = {}

        def stats(rep: Replicate) -> Iterator[SentenceStats]:
            """A level's replicates are scored in one pass, one after the other against
            the gold repeated, so that the level's warnings (another annotation scheme,
            trees that are not) are counted over all of them once; each replicate then
            gets its own sentences' rows."""
            level = rep.label.split("/seed=")[0]
            if rep.label not in done:
                vs = versions[level]
                where = f"{ctx.conf.name}:{level}"
                # where the gold has enhanced graphs, a parse's is its basic tree copied
                # (the IWPT baseline: parsers give none)
                sys_s = [s for v in vs for s in _system_sentences(ctx, v, scoring, where)]
                if graphs:
                    sys_s = [basic_to_deps(s) for s in sys_s]
                rows: list[SentenceStats] = []
                validity = scoring.validity(where)
                # a parser's own words are aligned by characters to the text it was given:
                # the gold's tree over the version's words (misspelled as the parser saw them)
                gold_s = [s for v in vs for s in v.sentences] if ctx.exp.tokens == "raw" \
                    else [s for _ in vs for s in corpus.sentences]
                res = scoring.score(gold_s, sys_s, validity, DepsOptions(
                    by="deprel", also_by=fields, confusion=confusion,
                    gold_path=str(corpus.path), system_path=where, per_sentence=False,
                    each=lambda c: rows.append(stats_of_counts(c))))
                n = len(corpus.sentences)
                for k, v in enumerate(vs):
                    done[v.label] = rows[k * n:(k + 1) * n]
                sizes: dict[str, dict[str, tuple[int, int]]] = {}
                for name, got in res.breakdowns.items():
                    for g, b in got.items():
                        if b.sentences:
                            sizes.setdefault(name, {})[g] = (b.sentences, b.words)
                facts[level] = {"sentences": res.sentences,
                                "warnings": res.warnings + validity.warnings(),
                                "absent": res.absent, "sizes": sizes,
                                "confusion": res.confusion,
                                "validity": validity.as_dict(),
                                **({"alignment": res.alignment}
                                   if isinstance(res, AlignedResult) else {})}
            return iter(done[rep.label] if keep else done.pop(rep.label))
        return stats

    def figures(by: str, fields: list[str]) -> Any:
        def make(level: ScoredLevel, t: LevelStats) -> dict[str, Any]:
            from parsebench.metrics.core.proportions import sentence_share
            from parsebench.metrics.core.resample import sentence_interval  # NumPy: runs only

            found = facts[level.label]
            scored = result_of(t, fields, "deprel", found)
            whole = scored.as_dict()
            whole["validity"] = found["validity"]
            if "alignment" in found:
                whole["alignment"] = found["alignment"]
            extra = whole.pop("breakdowns", {})
            res = dict(whole)
            if by != "deprel":
                res["by"] = extra[by]
                res.pop("confusion", None)
            else:
                absent = scored.absent
                counted = (*COUNTED, *(k for k in GRAPHS if k in t.widths))
                rows = {k: [r[:3] for r in t.rows(k)] for k in counted}
                res["ci95"] = {k: sentence_share(rows[k], 0, 1) if k in ("ucm", "lcm")
                               else sentence_interval(rows[k], f1_of_counts)
                               for k in counted if k not in absent}
                res["stats"] = {k: v for k, v in rows.items() if "uas" not in absent} | \
                    {k: t.rows(k) for k in ("unlabeled", "labeled")} | \
                    t.stored(WHERE_ERRORS_FALL)
                res["breakdowns"] = {f: extra[f] for f in WHERE_ERRORS_FALL}
                # a group's F1 is a figure of the sentences that hold the group:
                # resampled among them (others would make resamples without it)
                res["ci95"]["breakdowns"] = {f: {g: sentence_interval(
                    [r[4:] for r in t.held(f"{f}={g}")], f1_of_pr) for g in t.names(f)}
                    for f in WHERE_ERRORS_FALL}
            if by == "category":
                secs: dict[str, float] = {}
                for s in corpus.sentences:
                    cat = s.category or "(none)"
                    secs[cat] = secs.get(cat, 0.0) + parsed.outcome(s)[1]
                for cat, b in res["by"].items():
                    b["seconds"] = secs.get(cat, 0.0)
                    b["words_per_second"] = b["words"] / secs[cat] if secs.get(cat) else None
            res.setdefault("stats", {})
            return res
        return make

    def sig(by: str) -> Any:
        return lambda level: {"method": LIN, "by": by, "level": level.label,
                              **scoring.signature()}

    clean = [ctx.clean_level()]
    clean_stats = scorer(clean_fields, "deprel", keep=True)
    out = [Variant(by, clean, clean_stats, figures(by, clean_fields), sig(by))
           for by in breakdowns]
    if not ctx.moves_words:  # errors that move words are scored by f1's alignment
        out.append(Variant("deprel", ctx.noisy_levels(),
                           scorer(noisy_fields, None, keep=False),
                           figures("deprel", noisy_fields), sig("deprel")))
    return out


_HEADS = ("heads",)
_COUNTS = ("correct", "gold", "system")
_PR = ("key", "answer", "key_matched", "answer_matched")
SCORES = (
    *(Metric(k, f"CoNLL 2018 {name} (F1)", "deps", _COUNTS, f1_of_counts,
             ("deps", "las") if k == "las" else None, METRIC_NEEDS.get(k, ()), file_stats,
             RankingFigure("LAS", lambda v: v.las.f1, "las", True, 0)
             if k == "las" else None)
      for k, name in CONLL18_NAMES.items()),
    Metric("ucm", "unlabeled exact match (share of sentences)", "deps", _COUNTS,
           f1_of_counts, needs=_HEADS, file_stats=file_stats),
    Metric("lcm", "labeled exact match (share of sentences)", "deps", _COUNTS, f1_of_counts,
           needs=_HEADS, file_stats=file_stats),
    *(Metric(k, f"IWPT {name} (F1; udeval's)", "deps", _COUNTS, f1_of_counts,
             needs=METRIC_NEEDS[k], file_stats=file_stats)
      for k, name in ENHANCED_NAMES.items()),
    Metric("lin-unlabeled", "Lin's unlabeled dependency F1", "deps", _PR, f1_of_pr,
           needs=_HEADS, file_stats=file_stats),
    Metric("lin-labeled", "Lin's labeled dependency F1", "deps", _PR, f1_of_pr, needs=_HEADS,
           file_stats=file_stats),
)
"""CoNLL 2018's thirteen metrics, exact match, the enhanced graphs' ELAS and EULAS and
Lin's F1: what ``compare`` offers of a dependency parse against a gold key (LAS also
stored by a run)."""


@dataclass(frozen=True)
class DepsSettings:
    """``deps = true``, ``false``, the breakdowns of the clean text's scores (by
    relation always; the noisy levels are broken down by relation only), or a table of
    them (``by``) and of ``eval deps``'s scoring options (:data:`SCORING_KEYS`)."""

    on: bool = True
    by: tuple[str, ...] = ("deprel",)
    scoring: DepsScoring = field(default_factory=DepsScoring)


SCORING_KEYS = KEYS
"""The scoring options a ``deps`` table takes, named as the API names them."""


def _by(value: Any, where: Any) -> tuple[str, ...]:
    from parsebench.metrics.dependency.lin_scorer import BY_FIELDS

    if not isinstance(value, list):
        raise where.fail(f"deps: by must be a list, not {value!r}")
    for by in value:
        if by not in BY_FIELDS:
            raise where.fail(f"deps: {by!r} is not one of " + ", ".join(BY_FIELDS))
    return tuple(dict.fromkeys(["deprel", *value]))


def _settings(value: Any, where: Any) -> DepsSettings:
    if isinstance(value, bool):
        return DepsSettings(value)
    if isinstance(value, list):
        return DepsSettings(True, _by(value, where))
    if not isinstance(value, dict):
        raise where.fail(f"deps must be bool, list or a table, not {value!r}")
    for k in value:
        if k != "by" and k not in SCORING_KEYS:
            raise where.fail(f"deps: unknown key {k!r}; known: by, " + ", ".join(SCORING_KEYS))
    for k in ("align", "invalid"):
        if k in value and not isinstance(value[k], str):
            raise where.fail(f"deps: {k} must be a string, not {value[k]!r}")
    for k in ("no_empty_nodes", "multiple_roots_okay"):
        if k in value and not isinstance(value[k], bool):
            raise where.fail(f"deps: {k} must be true or false, not {value[k]!r}")
    e = value.get("enhancements")
    if e is not None and (isinstance(e, bool) or not isinstance(e, str | int)):
        raise where.fail(f'deps: enhancements must be digits 0-6 ("12" or 12), not {e!r}')
    try:
        scoring = DepsScoring.of(**{k: value[k] for k in SCORING_KEYS if k in value})
    except InputError as exc:
        raise where.fail("deps: " + exc.message.removeprefix("--").replace(" ", " = ", 1)
                         ) from None
    return DepsSettings(True, _by(value.get("by", []), where), scoring)


def _record(st: DepsSettings) -> Any:
    """As a run's record keeps the settings: false, the breakdowns, or with scoring
    options not at their default a table of both."""
    if not st.on:
        return False
    if st.scoring.is_default:
        return list(st.by)
    return {"by": list(st.by), **st.scoring.record()}


def _restore(value: Any) -> DepsSettings:
    if isinstance(value, dict):
        return DepsSettings(True, tuple(value["by"]), DepsScoring.of(
            **{k: value[k] for k in SCORING_KEYS if k in value}))
    return DepsSettings(True, tuple(value)) if value else DepsSettings(False)


def _headline(v: DepsValue) -> str:
    return f"UAS {percent(v.uas.f1, spread=True)}  LAS {percent(v.las.f1, spread=True)}"


LEGEND = {
    "UAS": "CoNLL 2018 unlabeled attachment F1", "LAS": "labeled attachment F1",
    "LAS 95% CI": "95% interval over sentences of LAS",
    "unlabeled P": "Lin's unlabeled precision", "unlabeled R": "his unlabeled recall",
    "labeled P": "Lin's labeled precision", "labeled R": "his labeled recall",
    "key deps": "dependencies in the key", "answer deps": "dependencies in the answer",
}
"""What the columns of the accuracy tables hold."""

METHOD = Method("deps", "Lin; CoNLL 2018", _variants,
                "the clean text against the gold key; the noisy levels through the alignment "
                "under f1", own_tokens=True, scores=SCORES,
                sections=(deps_section, where_section), text=deps_table,
                projection="deprel", hurts=hurts,
                section_title="accuracy against the gold key", legend=LEGEND,
                anchor=lambda r: "deps-accuracy", headline=_headline, value_type=DepsValue,
                settings=_settings,
                default=DepsSettings(),
                record=_record, restore=_restore,
                columns={
                    **dict.fromkeys((*COUNTED, *GRAPHS), ("correct", "gold", "system")),
                    **dict.fromkeys(("unlabeled", "labeled"),
                                    ("key", "answer", "key matched", "answer matched")),
                    **dict.fromkeys(WHERE_ERRORS_FALL, (
                        "sentence", "group", "unlabeled key", "unlabeled answer",
                        "unlabeled key matched", "unlabeled answer matched", "labeled key",
                        "labeled answer", "labeled key matched", "labeled answer matched"))})

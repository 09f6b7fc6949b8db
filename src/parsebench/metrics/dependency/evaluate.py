"""Scoring dependency parses against a gold key: Lin's dependencies and the CoNLL 2018
metrics in one pass over both files.

The files are read a stretch at a time and their words aligned as the CoNLL 2018
script aligns them (:mod:`parsebench.metrics.dependency.tokenization`); each gold sentence gets its
counts of every CoNLL 2018 metric (:mod:`parsebench.metrics.dependency.conll18`) and of
Lin's precision and recall, with the breakdowns asked for
(:mod:`parsebench.metrics.dependency.lin_scorer`). Unlike the script, an answer with cycles,
several roots or missing heads is scored (with a warning,
:mod:`parsebench.metrics.dependency.tree_checks`) rather than rejected, and a tagger's
output gets its tag scores with every attachment score n/a. Each stretch is
counted by :func:`parsebench.metrics.dependency.stretch.count_stretch`, a sentence with
the same rows on both sides by its compiled twin where that was built
(:func:`parsebench.metrics.dependency.stretch.row_counter`); the run's method that uses
this pass is :mod:`parsebench.metrics.dependency.lin`.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from parsebench.common.errors import InputError
from parsebench.formats.conllu import NO_HEAD, Sentence
from parsebench.metrics.dependency.conll18 import (
    CONLL18,
    CONLL18_NAMES,
    ENHANCED,
    ENHANCED_NAMES,
    HELD_COLUMNS,
    METRIC_NEEDS,
    SPAN_METRICS,
    absent_metrics,
    base,
    held_columns,
)
from parsebench.metrics.dependency.enhanced import Enhanced, EnhancedCounter
from parsebench.metrics.dependency.lin_scorer import (
    BY_FIELDS,
    CONFUSION_FIELDS,
    PR,
    BucketCounts,
    Selection,
    confusion_table,
)
from parsebench.metrics.dependency.scheme import scheme_warning
from parsebench.metrics.dependency.stretch import (
    ROW_AT,
    count_stretch,
    row_counter,
    stretch_counter,
)
from parsebench.metrics.dependency.stretch import SentenceCounts as SentenceCounts
from parsebench.metrics.dependency.tokenization import (
    by_rows,
    check_same_text,
    fast_text_length,
    text_length,
    text_of,
)
from parsebench.metrics.dependency.tree_checks import TreeCheck
from parsebench.metrics.dependency.validity import Validity
from parsebench.model.inputs import COLUMNS

if TYPE_CHECKING:
    from array import array

    from parsebench.metrics.dependency._stretch_fast import StretchCounter

text_chunks: Callable[..., Iterator[tuple[list[Sentence], list[Sentence], bool | None]]] | None
try:
    from parsebench.metrics.dependency._stretch_fast import text_chunks
except ImportError:  # built without a C compiler: _Chunks cuts the stretches itself
    text_chunks = None


@dataclass
class DepsResult:
    total: SentenceCounts
    sentences: int
    per_sentence: list[SentenceCounts] | None
    """Each gold sentence's counts, kept only when asked for (resampling needs them)."""
    by: dict[str, BucketCounts] | None
    by_field: str | None
    warnings: list[str]
    absent: frozenset[str] = frozenset()
    """The metrics the files cannot give (:func:`absent_metrics`): no head at all in the
    system (a tagger's output) makes every attachment score n/a, not 0; no tag makes the
    tag metrics n/a."""
    confusion: Counter[tuple[str, str]] | None = None
    """(gold label, system label) of the aligned words, with ``--confusion``."""
    punct: bool = True
    """False with ``--no-punct``: words tagged PUNCT have no attachment scores."""
    breakdowns: dict[str, dict[str, BucketCounts]] = field(default_factory=dict)
    """Every breakdown counted, ``by``'s included."""
    replicates: int = 1
    """The gold was scored against R noisy versions in a row: per-sentence statistics are
    pooled over them (:func:`parsebench.metrics.core.resample.pool_replicates`)."""
    failed: int = 0
    """System sentences the parser failed on: scored, every attachment in them wrong."""
    enhanced: Enhanced = field(default_factory=Enhanced)
    """How ELAS and EULAS read the enhanced graphs (udeval's options)."""
    graphs: bool = False
    """Whether either file has an enhanced graph (the tables then show ELAS and EULAS)."""
    counts: bool = False
    """``--counts``: udeval's table of counts as the text (the JSON always has them)."""

    def group_intervals(self, breakdown: str) -> dict[str, list[float] | None]:
        """95% intervals over sentences of each group's labeled F1 (Lin's F1 of the arcs
        in the group), replicates pooled."""
        from parsebench.metrics.core.resample import pool_replicates, sentence_interval
        from parsebench.metrics.core.scores import f1_of_pr

        names = sorted({g for c in self.per_sentence or () for f, g in c.groups
                        if f == breakdown})
        out: dict[str, list[float] | None] = {}
        for g in names:
            rows = []
            for c in self.per_sentence or ():
                b = c.groups.get((breakdown, g))
                pr = b.labeled if b is not None else PR()
                rows.append([pr.key, pr.answer, pr.key_found, pr.answer_found])
            # a group's F1 is a figure of the sentences that hold the group: resampled
            # among them (others would make resamples without it, its F1 undefined)
            held = [r for r in pool_replicates(rows, self.replicates) if r[0] or r[1]]
            out[g] = sentence_interval(held, f1_of_pr)
        return out

    @property
    def attachments(self) -> bool:
        """Whether the system has heads (the attachment scores are not n/a)."""
        return "uas" not in self.absent

    def sentence_rows(self, metric: str) -> list[list[float]]:
        """METRIC's (correct, gold, system) of each gold sentence, replicates pooled."""
        rows = [[getattr(c, metric).correct, getattr(c, metric).gold,
                 getattr(c, metric).system] for c in self.per_sentence or ()]
        from parsebench.metrics.core.resample import pool_replicates  # numpy: only when pooling

        return pool_replicates(rows, self.replicates)

    def intervals(self) -> dict[str, list[float] | None]:
        """95% bootstrap intervals of the CoNLL 2018 F1 scores over gold sentences; the
        exact-match shares of sentences (UCM, LCM) get a Wilson score interval."""
        from parsebench.metrics.core.proportions import sentence_share
        from parsebench.metrics.core.resample import sentence_interval
        from parsebench.metrics.core.scores import f1_of_counts

        return {k: sentence_share(self.sentence_rows(k), 0, 1) if k in ("ucm", "lcm") else
                sentence_interval(self.sentence_rows(k), f1_of_counts)
                for k in (*CONLL18, "ucm", "lcm", *ENHANCED) if k not in self.absent}

    def as_dict(self) -> dict[str, Any]:
        """The SPEC's JSON of ``eval deps`` (without the signature)."""
        t = self.total
        out: dict[str, Any] = {k: getattr(t, k).as_dict(k not in SPAN_METRICS)
                               for k in CONLL18}
        for k in ENHANCED:  # udeval prints no aligned accuracy for them
            out[k] = getattr(t, k).as_dict(False)
        for k in ("ucm", "lcm"):
            c = getattr(t, k)
            out[k] = {"accuracy": c.correct / c.gold if c.gold and k not in self.absent
                      else None,
                      "matched": c.correct, "sentences": c.gold}
        out.update(unlabeled=t.unlabeled.as_dict(), labeled=t.labeled.as_dict(),
                   gold_sentences=self.sentences, gold_words=t.words.gold,
                   failed=self.failed, warnings=self.warnings)
        for key in self.absent:
            if key in ("ucm", "lcm"):
                continue
            out[key].update(precision=None, recall=None, f1=None)
            if key in CONLL18 or key in ENHANCED:
                out[key]["aligned_accuracy"] = None
        for k in (*CONLL18, *ENHANCED):  # each share's counts, so a reader can check it
            c = getattr(t, k)
            if k in self.absent and not self.counts:
                # n/a: a file without the column has no count of it either (--counts
                # gives udeval's counts whatever they are)
                out[k].update(correct=None, gold=None, system=None, aligned=None)
                continue
            out[k].update(correct=c.correct, gold=c.gold, system=c.system,
                          aligned=c.aligned if k not in SPAN_METRICS and k not in ENHANCED
                          else None)
        if self.per_sentence is not None:
            out["ci95"] = self.intervals()
            if self.attachments:
                out["stats"] = {"las": self.sentence_rows("las")}
        out["punct"] = self.punct
        out["enhancements"] = self.enhanced.code
        if self.confusion is not None:
            out["confusion"] = confusion_table(self.confusion)
        def buckets(by: dict[str, BucketCounts]) -> dict[str, Any]:
            return {k: {"sentences": b.sentences, "words": b.words,
                        "unlabeled": b.unlabeled.as_dict(), "labeled": b.labeled.as_dict()}
                    for k, b in sorted(by.items())}

        if self.by is not None:
            out["by"] = buckets(self.by)
        others = {f: buckets(b) for f, b in self.breakdowns.items() if f != self.by_field}
        if others:
            out["breakdowns"] = others
        return out



@dataclass(frozen=True)
class DepsOptions:
    """How a dependency parse is scored against its gold key, one record for
    :func:`score_deps` and :func:`~parsebench.metrics.dependency.other_words.score_aligned`
    (the same words, or words aligned by edit distance)."""

    select: Sequence[Selection] = ()
    """Lin's selective evaluation: only the dependencies these select."""
    by: str | None = None
    """The breakdown's field (``deprel``, ``arc-length``...)."""
    labels: Callable[[str], str] | None = None
    """Label equivalences: a label -> the label it counts as."""
    gold_path: str = "GOLD"
    system_path: str = "SYSTEM"
    per_sentence: bool = True
    """Keep each gold sentence's counts."""
    punct: bool = True
    """Without it, words tagged PUNCT get no attachment scores."""
    confusion: str | None = None
    """The field of a gold-by-system confusion table (``deprel``, ``upos``)."""
    each: Callable[[SentenceCounts], None] | None = None
    """Given each gold sentence's counts as they come."""
    also_by: Sequence[str] = ()
    """Breakdowns counted in the same pass (the result's ``breakdowns``)."""
    accelerated: bool = True
    """False: every stretch counted by count_stretch, the reference (same words only)."""
    validity: Validity | None = None
    """The policy the system's sentences went through on their way here."""
    enhanced: Enhanced | None = None
    """How ELAS and EULAS read the DEPS column."""
    multiple_roots_okay: bool = False
    """No warning for a sentence with several roots (udeval's option)."""
    counts: bool = False
    """udeval's table of counts as the text."""
    sentence_rows: tuple[str, array[float]] | None = None
    """(METRIC, ROWS): each gold sentence's (correct, gold, system) of METRIC (a CoNLL
    2018 metric or exact match) appended to ROWS as it is counted: ``compare``'s
    statistics, without a SentenceCounts a sentence where the compiled kernel counts."""

    def each_with_rows(self) -> Callable[[SentenceCounts], None] | None:
        """EACH, after SENTENCE_ROWS' row is appended: what a sentence's counts are
        given to where they are made."""
        if self.sentence_rows is None:
            return self.each
        metric, rows = self.sentence_rows
        given = self.each

        def each(c: SentenceCounts) -> None:
            x = getattr(c, metric)
            rows.extend((x.correct, x.gold, x.system))
            if given is not None:
                given(c)
        return each


def score_deps(gold: Iterable[Sentence], system: Iterable[Sentence],
               options: DepsOptions | None = None) -> DepsResult:
    """Score SYSTEM against GOLD, reading both one stretch at a time.

    The files are cut where both end a sentence at the same point of the text (each
    sentence, when they have the same words), and every stretch is aligned and
    scored on its own: the counts are those of the whole files at once, and memory
    stays flat in their size. PER_SENTENCE keeps each gold sentence's counts; EACH is
    given them as they come. Without PUNCT, words tagged PUNCT get no attachment scores.
    ALSO_BY are breakdowns counted in the same pass (``breakdowns`` of the result).
    ``accelerated=False`` counts every stretch with count_stretch, the reference, where
    the compiled kernel would count the sentences with the same rows.
    VALIDITY is the policy the system's sentences went through on their way here
    (:mod:`parsebench.metrics.dependency.validity`): under ``zero`` it, not the tree check, says
    which are not trees, and a system whose heads it took away still had heads.
    ENHANCED: how ELAS and EULAS read the DEPS column (udeval's ``--enhancements`` and
    ``--no-empty-nodes``); MULTIPLE_ROOTS_OKAY: no warning for a sentence with several
    roots (udeval's option; without it udeval refuses the file, parsebench warns).
    """
    options = options or DepsOptions()
    (select, by, labels, gold_path, system_path, per_sentence, punct, confusion, each,
     also_by, accelerated, validity, enhanced, multiple_roots_okay, counts) = (
        options.select, options.by, options.labels, options.gold_path, options.system_path,
        options.per_sentence, options.punct, options.confusion, options.each,
        options.also_by, options.accelerated, options.validity, options.enhanced,
        options.multiple_roots_okay, options.counts)
    for f in (by, *also_by):
        if f is not None and f not in BY_FIELDS:
            raise InputError(f"--by {f!r}: expected one of " + ", ".join(BY_FIELDS))
    fields = list(dict.fromkeys(f for f in (by, *also_by) if f))
    if confusion is not None and confusion not in CONFUSION_FIELDS:
        raise InputError(f"--confusion {confusion!r}: expected one of "
                         + ", ".join(CONFUSION_FIELDS))
    pairs: Counter[tuple[str, str]] | None = Counter() if confusion else None
    total = SentenceCounts()
    kept: list[SentenceCounts] | None = [] if per_sentence else None
    breakdowns: dict[str, dict[str, BucketCounts]] = {f: {} for f in fields}
    check = TreeCheck(multiple_roots_okay)
    opts = enhanced if enhanced is not None else Enhanced()
    graphs = EnhancedCounter(opts, gold_path, system_path)
    gold_labels: Counter[str] = Counter()
    system_labels: Counter[str] = Counter()
    gold_pending: list[str] = []
    system_pending: list[str] = []
    sentences = 0
    headless = [0, 0]
    """Gold words without a HEAD in sentences that have heads, and the first one's line."""
    system_has: set[str] = set()
    gold_has: set[str] = set()
    chunks = _Chunks(iter(gold), iter(system), gold_path, system_path)
    check_trees = validity is None or validity.policy != "zero"
    fast = row_counter(select, fields, labels, punct, confusion, pairs, breakdowns) \
        if accelerated else None
    text = stretch_counter(select, fields, labels, punct, confusion, pairs) if accelerated \
        else None
    direct, at = None, 0  # the rows asked for, where the kernel appends them itself
    if options.sentence_rows is not None and each is None and kept is None and \
            fast is not None and options.sentence_rows[0] in ROW_AT:
        direct, at = options.sentence_rows[1], ROW_AT[options.sentence_rows[0]]
    each = options.each_with_rows()
    keep = (kept is not None or each is not None) and direct is None
    for g, s, rows in chunks:
        sentences += len(g)
        if rows is None and (fast is not None or text is not None):
            rows = by_rows(g, s)  # what count_stretch would find
        c, counted = None, False
        if fast is not None and rows and len(g) == len(s) == 1:
            c = SentenceCounts(line=g[0].line, sent_id=g[0].comment_value("sent_id")) \
                if keep else None
            counted = fast.count(g[0], s[0], c, direct, at)
        if text is not None and rows is False and _by_text(text, g, s, graphs, total, kept,
                                                           each):
            pass  # counted, ELAS and EULAS too
        elif counted:
            if not opts.read:  # no graphs read: ELAS and EULAS count nothing
                pass
            elif c is not None:
                graphs.rows(g[0], s[0], c.elas, c.eulas)
                total.elas.add(c.elas)
                total.eulas.add(c.eulas)
            else:
                graphs.rows(g[0], s[0], total.elas, total.eulas)
            if c is not None:
                if each is not None:
                    each(c)
                if kept is not None:
                    kept.append(c)
        else:
            part = count_stretch(g, s, select, fields, labels, gold_path, system_path,
                                 punct, confusion, rows, enhanced=graphs)
            for c in part.per_sentence:
                total.add(c)
                if each is not None:
                    each(c)
            if pairs is not None and part.confusion is not None:
                pairs.update(part.confusion)
            if kept is not None:
                kept += part.per_sentence
            for f, got in part.breakdowns.items():
                for name, b in got.items():
                    breakdowns[f].setdefault(name, BucketCounts()).add(b)
        for x in s:
            if check_trees:
                check.add(x)
            if len(system_has) < HELD_COLUMNS:
                held_columns(x, system_has)
            system_pending += x.deprels  # as written: based once a label, below
        for x in g:
            if len(gold_has) < HELD_COLUMNS:
                held_columns(x, gold_has)
            gold_pending += x.deprels
            if (loose := x.heads.count(NO_HEAD)) and loose < len(x.heads):
                headless[0] += loose
                headless[1] = headless[1] or x.line
        # labels counted a few thousand at a time (memory stays flat): Counter.update
        # on each sentence cost as much as the compiled kernel's count of it
        if len(gold_pending) + len(system_pending) > 4096:
            gold_labels.update(gold_pending)
            system_labels.update(system_pending)
            gold_pending, system_pending = [], []
    gold_labels.update(gold_pending)
    system_labels.update(system_pending)
    if fast is not None:
        fast.flush(total)
    if text is not None:
        text.flush(total)
    warnings = chunks.notes + check.warnings(system_path) + graphs.warnings()
    if headless[0]:  # the official scorer refuses such a gold file; scored, but said
        warnings.append(f"{gold_path}:{headless[1]}: {headless[0]} gold word(s) have no HEAD "
                        "(_) in sentences that have heads: no parser can attach them, so "
                        "they count against every attachment score")
    # a failed parse is a parse without heads: its attachments count wrong; a sentence
    # the validity policy judged had heads to judge
    if check.failed or (validity is not None and validity.headed):
        system_has.add("heads")
    heads = "heads" in system_has
    absent = absent_metrics(system_has, gold_has) if sentences else frozenset()
    for path, has in ((gold_path, gold_has), (system_path, system_has)):
        gone = [c for c in COLUMNS if c != "heads" and c not in has]
        lost = [CONLL18_NAMES[m] for m in CONLL18 if m in absent
                and set(METRIC_NEEDS[m]) & set(gone)]
        if sentences and lost:
            warnings.append(f"{path} has no {', no '.join(COLUMNS[c] for c in gone)}: "
                            f"{', '.join(lost)} n/a")
    if sentences and opts.read and ("deps" in gold_has) != ("deps" in system_has):
        path = system_path if "deps" in gold_has else gold_path
        warnings.append(f"{path} has no enhanced graph (DEPS is _ on every word): "
                        f"{', '.join(ENHANCED_NAMES.values())} n/a")
    if not heads and sentences:
        warnings.append(f"{system_path} has no heads (a tagger's output?): every attachment "
                        "score is n/a")
    elif heads:
        based: list[Counter[str]] = [Counter(), Counter()]
        for into, raw in zip(based, (gold_labels, system_labels), strict=True):
            for d, n in raw.items():
                if d != "_":
                    into[base(d)] += n
        scheme = scheme_warning(based[0].elements(), based[1].elements(),
                                "relations", gold_path, system_path)
        if scheme:
            warnings.append(scheme)
    return DepsResult(total, sentences, kept, breakdowns.get(by) if by else None, by, warnings,
                      absent, pairs, punct, breakdowns, failed=check.failed, enhanced=opts,
                      graphs="deps" in gold_has or "deps" in system_has, counts=counts)


def _by_text(text: StretchCounter, gold: list[Sentence], system: list[Sentence],
             graphs: EnhancedCounter, total: SentenceCounts,
             kept: list[SentenceCounts] | None,
             each: Callable[[SentenceCounts], None] | None) -> bool:
    """Count a stretch aligned by text with the compiled kernel, ELAS and EULAS with it
    (the kernel's totals go to TOTAL at its flush); False, counting nothing, where the
    kernel leaves it to count_stretch."""
    out = [SentenceCounts(line=x.line, sent_id=x.comment_value("sent_id")) for x in gold] \
        if kept is not None or each is not None else None
    got = text.count(gold, system, out)
    if got is None:
        return False
    sys2gold, sentence_of = got
    if out is None:
        graphs.stretch(gold, system, sys2gold, sentence_of, [total.elas] * len(gold),
                       [total.eulas] * len(gold))
        return True
    graphs.stretch(gold, system, sys2gold, sentence_of, [c.elas for c in out],
                   [c.eulas for c in out])
    for c in out:
        total.elas.add(c.elas)
        total.eulas.add(c.eulas)
        if each is not None:
            each(c)
    if kept is not None:
        kept += out
    return True


def _rows_at_a_glance(gold: list[Sentence], system: list[Sentence]) -> bool | None:
    """by_rows of a stretch where the answer is quick (None: by_rows must say): one
    sentence each with the same words and no multiword token aligns row by row (the
    same tokenization); another number of sentences on each side does not."""
    if len(gold) != len(system):
        return False
    if len(gold) == 1:
        g, s = gold[0], system[0]
        if g.forms == s.forms and not g.multiword and not s.multiword:
            return True
    return None


class _Chunks:
    """Pairs of (gold, system) sentence lists that can be aligned on their own.

    While the files have the same rows sentence by sentence (the same words, or a
    parse of misspelled text against the gold of the clean text) each pair is one
    stretch, aligned row by row, as the whole files would be. Once they do not, the
    words must spell the same text, and a stretch ends where both files end a
    sentence at the same character of it (CoNLL 2018's alignment never crosses such
    a point).
    """

    def __init__(self, gold: Iterator[Sentence], system: Iterator[Sentence],
                 gold_path: str, system_path: str) -> None:
        self.gold, self.system = gold, system
        self.paths = (gold_path, system_path)
        self.notes: list[str] = []

    def __iter__(self) -> Iterator[tuple[list[Sentence], list[Sentence], bool | None]]:
        """(gold, system, whether they align row by row; None: not known yet)."""
        differ = 0
        first_differ: tuple[Sentence, Sentence] | None = None
        g_next = next(self.gold, None)
        s_next = next(self.system, None)
        while g_next is not None and s_next is not None:
            if g_next.forms == s_next.forms and g_next.multiword == s_next.multiword:
                d = 0  # the same words and tokens, so the same text: by_rows at a glance
            elif by_rows([g_next], [s_next]) and not self._cut_elsewhere(g_next, s_next):
                d = 0 if g_next.forms == s_next.forms else \
                    sum(a != b for a, b in zip(g_next.forms, s_next.forms, strict=True))
            else:
                break
            if d and first_differ is None:
                first_differ = (g_next, s_next)
            differ += d
            yield [g_next], [s_next], True
            g_next = next(self.gold, None)
            s_next = next(self.system, None)
        if g_next is None and s_next is None:
            if differ:
                self.notes.append(f"{self.paths[1]}: {differ} word form(s) differ from the "
                                  "gold's; the files have the same rows, so words are aligned "
                                  "row by row")
            return
        if first_differ is not None:  # not the same rows after all: the text must agree
            check_same_text([first_differ[0]], [first_differ[1]], *self.paths)
        yield from self._by_text(g_next, s_next)

    def _cut_elsewhere(self, g: Sentence, s: Sentence) -> bool:
        """Whether G and S, as many words with another text, are one text cut into
        sentences at other points (a parser of raw text that joined two sentences, the
        words by chance as many): the longer's text begins with the shorter's, and what
        it has beyond it begins the other file's next sentence. Then the files are
        aligned by their text, not row by row as a misspelled text's parse would be."""
        tg, ts = text_of([g]), text_of([s])
        if len(tg) == len(ts) or not (ts.startswith(tg) or tg.startswith(ts)):
            return False
        if len(ts) > len(tg):
            nxt = next(self.gold, None)
            if nxt is not None:
                self.gold = itertools.chain([nxt], self.gold)
            rest = ts[len(tg):]
        else:
            nxt = next(self.system, None)
            if nxt is not None:
                self.system = itertools.chain([nxt], self.system)
            rest = tg[len(ts):]
        if nxt is None:
            return False
        t = text_of([nxt])
        return rest.startswith(t) or t.startswith(rest)

    def _by_text(self, g_next: Sentence | None, s_next: Sentence | None
                 ) -> Iterator[tuple[list[Sentence], list[Sentence], bool | None]]:
        if text_chunks is not None:  # the same loop in C
            yield from text_chunks(self.gold, self.system, g_next, s_next, text_length)
            return
        g_buf: list[Sentence] = []
        s_buf: list[Sentence] = []
        g_chars = s_chars = 0
        length = fast_text_length  # C's count where built (-1: text_length counts)
        while True:
            if g_buf and s_buf and g_chars == s_chars:
                yield g_buf, s_buf, _rows_at_a_glance(g_buf, s_buf)
                g_buf, s_buf, g_chars, s_chars = [], [], 0, 0
            take_gold = g_next is not None and (s_next is None or g_chars <= s_chars)
            if take_gold:
                assert g_next is not None
                g_buf.append(g_next)
                n = length(g_next) if length is not None else -1
                g_chars += n if n >= 0 else text_length(g_next)
                g_next = next(self.gold, None)
            elif s_next is not None:
                s_buf.append(s_next)
                n = length(s_next) if length is not None else -1
                s_chars += n if n >= 0 else text_length(s_next)
                s_next = next(self.system, None)
            else:
                if g_buf or s_buf:
                    yield g_buf, s_buf, None
                return

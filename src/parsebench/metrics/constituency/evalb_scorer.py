"""Parseval bracket scoring with EVALB's exact semantics (Sekine & Collins, 2006 revision).

Reimplemented rather than wrapped: EVALB is a C program people build by hand,
and parsebench needs its per-sentence counts as data (for JSON, breakdowns and
the experiment store). Every rule below is EVALB's, including the surprising
ones: deleted labels are removed before words are compared; a length or word
mismatch makes the sentence an error (status 1) left out of all totals; an
empty test line is a skip (status 2); brackets are matched greedily as
multisets; crossing counts test brackets that cross at least one gold bracket;
the length cutoff uses the gold length with only DELETE_LABEL_FOR_LENGTH words
removed; the (MAX_ERROR+2)-th error aborts without a summary. Output formats
are EVALB's printf formats, so the report can be diffed against EVALB's.

The common case (a well-formed pair whose words agree) is scored by the C
accelerator _evalb_fast when it was built (`pip install` compiles it where a C
compiler exists), which also reads a file of one tree a line without a str a
line and writes the report's rows, the totals and the rows for JSON from the
table of counts; this module stays the reference and handles every other case.
"""

from __future__ import annotations

import os
import re
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import pairwise

from parsebench.common.errors import read_bytes
from parsebench.common.threads import cores, started
from parsebench.formats.brackets import TreeText, read_tree_texts
from parsebench.formats.evalb_prm import EvalbParams
from parsebench.metrics.constituency.evalb_records import (
    BracketsEval as BracketsEval,
)
from parsebench.metrics.constituency.evalb_records import (
    EvalbTotals as EvalbTotals,
)
from parsebench.metrics.constituency.evalb_records import RowsWhenRead

try:
    from parsebench.metrics.constituency import _evalb_fast as _fast
except ImportError:  # built without a C compiler: the pure-Python scorer only
    _fast = None  # type: ignore[assignment]

ACCELERATED = _fast is not None
"""Whether `eval brackets` runs its common case in C (same numbers either way)."""


def _pairs(pairs: list[tuple[str, str]]) -> frozenset[tuple[str, str]]:
    return frozenset(pairs) | frozenset((y, x) for x, y in pairs)


@dataclass(frozen=True)
class _Rules:
    """EvalbParams as sets, built once per run: the per-sentence loops only look up."""

    delete: frozenset[str]
    delete_len: frozenset[str]
    quote: frozenset[str]
    deleted_brackets: frozenset[str]
    """DELETE_LABEL and their EQ_LABEL partners (EVALB compares with label_comp)."""
    eq_labels: frozenset[tuple[str, str]]
    eq_words: frozenset[tuple[str, str]]
    labeled: bool

    @classmethod
    def of(cls, p: EvalbParams) -> _Rules:
        deleted = set(p.delete_labels)
        for x, y in p.eq_labels:
            if x in p.delete_labels:
                deleted.add(y)
            if y in p.delete_labels:
                deleted.add(x)
        return cls(frozenset(p.delete_labels), frozenset(p.delete_labels_for_length),
                   frozenset(p.quote_labels), frozenset(deleted), _pairs(p.eq_labels),
                   _pairs(p.eq_words), p.labeled)


# C's isspace(), not Unicode's: a no-break space is part of a word for EVALB.
# Groups: label, the space after it (non-empty only for a terminal), word, ")", stray word.
_TOKEN = re.compile(r"\(([^ \t\n\r\f\v()]*)(?:([ \t\n\r\f\v]+)([^ \t\n\r\f\v()]*)\))?"
                    r"|(\))|([^ \t\n\r\f\v()]+)")


@dataclass(slots=True)
class _Quote:
    word: str
    label: str
    index: int
    bracket: int
    ends: list[int]


@dataclass(slots=True)
class _Parsed:
    words: list[str]
    tags: list[str]
    starts: list[int]
    ends: list[int]
    labels: list[str]
    length: int
    quotes: list[_Quote]
    errors: list[str]
    """EVALB's messages on reading the line (brackets that do not balance, a bracket
    with more than two elements): an error sentence, not an error of the file."""
    stuck: bool


_UNBALANCED = "Bracketing is unbalanced (too many open bracket)"
"""EVALB's one message for both kinds (its check for a ')' too many never fires: the
stack counter goes below zero and the sentence ends with a non-empty stack)."""
_SPACE = " \t\n\r\f\v"


def _parse(text: str, rules: _Rules) -> _Parsed:
    """One line as EVALB's read_line sees it, with the errors it reports on the way.

    A word outside a (TAG word) bracket stops EVALB's reader for good: it reports
    "Reading sentence" until MAX_ERROR is passed and gives up (``stuck``)."""
    words: list[str] = []
    tags: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    labels: list[str] = []
    quotes: list[_Quote] = []
    stack: list[int] = []
    errors: list[str] = []
    length = 0
    delete, delete_len, quote_labels = rules.delete, rules.delete_len, rules.quote
    stuck = stray_close = False
    for m in _TOKEN.finditer(text):
        label, space, word, close, stray = m.groups()
        if close:
            if not stack:  # EVALB reads before its stack array here; the ')' is dropped
                stray_close = True
                continue
            ends[stack.pop()] = len(words)
        elif space is not None:
            if label not in delete_len:
                length += 1
            if quote_labels and label in quote_labels and word in ("'", '"', "/"):
                quotes.append(_Quote(word, label, len(words), len(starts), list(stack)))
            if label in delete:
                continue
            words.append(word)
            tags.append(label)
        elif stray:
            stuck = True
            break
        else:
            if _more_than_two(text, m.end()):
                errors.append("More than two elements in a bracket")
            stack.append(len(starts))
            starts.append(len(words))
            ends.append(-1)
            labels.append(label)
    if (stack or stray_close) and not stuck:  # unclosed brackets keep the end -1
        errors.append(_UNBALANCED)
    return _Parsed(words, tags, starts, ends, labels, length, quotes, errors, stuck)


def _more_than_two(text: str, at: int) -> bool:
    """After ``(LABEL``, EVALB reads a word when a space follows; unless a ``)`` or a
    ``(`` comes next, the bracket has "more than two elements". The line is taken to
    end with its newline, as EVALB's buffer does."""
    n = len(text)
    if at < n and text[at] not in _SPACE:
        return False
    while at < n and text[at] in _SPACE:
        at += 1
    while at < n and text[at] not in _SPACE and text[at] not in "()":
        at += 1
    return at >= n or text[at] != "("


def _reinsert(p: _Parsed, q: _Quote) -> None:
    p.words.insert(q.index, q.word)
    p.tags.insert(q.index, q.label)
    for k in range(q.bracket, len(p.starts)):
        p.starts[k] += 1
        p.ends[k] += 1
    for k in q.ends:
        p.ends[k] += 1


def _fix_quote(gold: _Parsed, test: _Parsed, rules: _Rules) -> None:
    """EVALB's fix_quote: put back deleted quote terminals that the other side kept."""
    deleted = rules.delete
    for qt in test.quotes:
        index = qt.index
        for j, qg in enumerate(gold.quotes):
            if qg.index != index or qg.label == qt.label:
                continue
            if qg.label in deleted and qt.label not in deleted:
                _reinsert(gold, qg)
                for k in range(j, len(gold.quotes)):
                    gold.quotes[k].index += 1
            elif qt.label in deleted and qg.label not in deleted:
                _reinsert(test, qt)
                i = test.quotes.index(qt)
                for k in range(i, len(test.quotes)):
                    test.quotes[k].index += 1


_ROW = "%4d  %3d    %d  %6.2f %6.2f   %3d    %3d  %3d    %3d   %4d  %4d   %6.2f"


@dataclass(slots=True)
class SentenceResult:
    """One row of EVALB's report."""

    id: int
    length: int
    status: int
    matched: int = 0
    gold: int = 0
    test: int = 0
    crossing: int = 0
    words: int = 0
    correct_tags: int = 0

    def row(self) -> str:
        # %-formatting: twice as fast as an f-string here, and a report has a row per tree
        return _ROW % (
            self.id, self.length, self.status,
            100.0 * self.matched / self.gold if self.gold else 0.0,
            100.0 * self.matched / self.test if self.test else 0.0,
            self.matched, self.gold, self.test, self.crossing, self.words, self.correct_tags,
            100.0 * self.correct_tags / self.words if self.words else 0.0)

    def as_dict(self) -> dict[str, int | float]:
        return {
            "id": self.id, "length": self.length, "status": self.status,
            "recall": self.matched / self.gold if self.gold else 0.0,
            "precision": self.matched / self.test if self.test else 0.0,
            "matched": self.matched, "gold_brackets": self.gold, "test_brackets": self.test,
            "crossing": self.crossing, "words": self.words, "correct_tags": self.correct_tags,
        }


FIELDS = ("length", "status", "matched", "gold", "test", "crossing", "words",
          "correct_tags")
"""A row of a result's table: SentenceResult's fields after ``id`` (its index + 1)."""
_N = len(FIELDS)


def _table(n: int) -> array[int]:
    return array("i", [0]) * (_N * n)


def _put(table: array[int], k: int, r: SentenceResult) -> None:
    table[_N * k:_N * k + _N] = array("i", (r.length, r.status, r.matched, r.gold, r.test,
                                            r.crossing, r.words, r.correct_tags))


def _kept_brackets(p: _Parsed, deleted: frozenset[str]) -> list[int]:
    """Indexes of the brackets EVALB scores; labels lose their -/= extensions in place."""
    keep = []
    labels = p.labels
    for k, (s, e) in enumerate(zip(p.starts, p.ends, strict=True)):
        if s == e:
            continue
        label = labels[k].split("-", 1)[0].split("=", 1)[0]
        labels[k] = label
        if label not in deleted:
            keep.append(k)
    return keep


def score_sentence(gold: _Parsed, test: _Parsed, sid: int, rules: _Rules,
                   error: Callable[[str], None]) -> SentenceResult:
    if not test.words:
        return SentenceResult(sid, gold.length, 2)
    if len(gold.words) != len(test.words):
        if rules.quote:
            _fix_quote(gold, test, rules)
        if len(gold.words) != len(test.words):
            error(f"Length unmatch ({len(gold.words)}|{len(test.words)})")
            return SentenceResult(sid, gold.length, 1)
    eq_words = rules.eq_words
    for a, b in zip(gold.words, test.words, strict=True):
        if a != b and (a, b) not in eq_words:
            error(f"Words unmatch ({a}|{b})")
            return SentenceResult(sid, gold.length, 1)
    gk = _kept_brackets(gold, rules.deleted_brackets)
    tk = _kept_brackets(test, rules.deleted_brackets)
    # Greedy multiset matching in EVALB's order: each gold bracket takes the first
    # unmatched test bracket with the same span and an equal label.
    by_span: dict[tuple[int, int], list[int]] = {}
    for j in tk:
        by_span.setdefault((test.starts[j], test.ends[j]), []).append(j)
    used: set[int] = set()
    matched = 0
    labeled = rules.labeled
    eq_labels = rules.eq_labels
    for i in gk:
        cands = by_span.get((gold.starts[i], gold.ends[i]))
        if not cands:
            continue
        for j in cands:
            if j in used:
                continue
            a, b = gold.labels[i], test.labels[j]
            if not labeled or a == b or (a, b) in eq_labels:
                used.add(j)
                matched += 1
                break
    # Crossing: a test bracket whose span equals a gold span cannot cross any gold
    # bracket (gold brackets nest), so only the others are checked.
    gold_spans = {(gold.starts[i], gold.ends[i]) for i in gk}
    crossing = 0
    for j in tk:
        s, e = test.starts[j], test.ends[j]
        if (s, e) in gold_spans:
            continue
        for gs, ge in gold_spans:
            if (gs < s < ge < e) or (s < gs < e < ge):
                crossing += 1
                break
    correct = sum(1 for a, b in zip(gold.tags, test.tags, strict=True)
                  if a == b or (a, b) in eq_labels)
    return SentenceResult(sid, gold.length, 0, matched, len(gk), len(tk), crossing,
                          len(gold.words), correct)


@dataclass
class Totals:
    sentences: int = 0
    errors: int = 0
    skips: int = 0
    gold: int = 0
    test: int = 0
    matched: int = 0
    complete: int = 0
    words: int = 0
    crossing: int = 0
    no_crossing: int = 0
    two_or_less: int = 0
    correct_tags: int = 0

    @classmethod
    def of(cls, rows: Sequence[SentenceResult]) -> Totals:
        """EVALB's totals: error and skip sentences count only as sentences."""
        valid = [r for r in rows if r.status == 0]
        errors = sum(1 for r in rows if r.status == 1)
        crossings = [r.crossing for r in valid]
        return cls(
            sentences=len(rows), errors=errors, skips=len(rows) - errors - len(valid),
            gold=sum(r.gold for r in valid), test=sum(r.test for r in valid),
            matched=sum(r.matched for r in valid),
            complete=sum(1 for r in valid if r.gold == r.test == r.matched),
            words=sum(r.words for r in valid), crossing=sum(crossings),
            no_crossing=crossings.count(0),
            two_or_less=sum(1 for c in crossings if c <= 2),
            correct_tags=sum(r.correct_tags for r in valid))

    @property
    def valid(self) -> int:
        return self.sentences - self.errors - self.skips

    def line(self, matched: str = " {:6d}") -> str:
        """The report's line of totals under the rows; MATCHED formats the matched
        brackets (jp-evalb writes ``"  {:5d}"``)."""
        out = ""
        if self.gold > 0 and self.test > 0:
            out = (f"                {100.0 * self.matched / self.gold:6.2f} "
                   f"{100.0 * self.matched / self.test:6.2f}" + matched.format(self.matched)
                   + f" {self.gold:5d} {self.test:5d}  {self.crossing:5d}")
        acc = 100.0 * self.correct_tags / self.words if self.words > 0 else 0.0
        return out + f"  {self.words:5d} {self.correct_tags:5d}   {acc:6.2f}"

    def summary_lines(self, nan: str = "  -nan") -> list[str]:
        """EVALB's summary of these totals; NAN is how an F-measure of no brackets
        prints (glibc's printf writes -nan, Python's format ``nan``)."""
        n = self.valid
        r = 100.0 * self.matched / self.gold if self.gold > 0 else 0.0
        p = 100.0 * self.matched / self.test if self.test > 0 else 0.0
        f = 2 * p * r / (p + r) if p + r else float("nan")
        return [
            f"Number of sentence        = {self.sentences:6d}",
            f"Number of Error sentence  = {self.errors:6d}",
            f"Number of Skip  sentence  = {self.skips:6d}",
            f"Number of Valid sentence  = {n:6d}",
            f"Bracketing Recall         = {r:6.2f}",
            f"Bracketing Precision      = {p:6.2f}",
            f"Bracketing FMeasure       = {nan if f != f else f'{f:6.2f}'}",
            f"Complete match            = {100.0 * self.complete / n if n > 0 else 0.0:6.2f}",
            f"Average crossing          = {1.0 * self.crossing / n if n > 0 else 0.0:6.2f}",
            f"No crossing               = {100.0 * self.no_crossing / n if n > 0 else 0.0:6.2f}",
            f"2 or less crossing        = {100.0 * self.two_or_less / n if n > 0 else 0.0:6.2f}",
            f"Tagging accuracy          = "
            f"{100.0 * self.correct_tags / self.words if self.words > 0 else 0.0:6.2f}",
        ]

    def scores(self) -> EvalbTotals:
        """The totals as ``eval brackets --json`` gives them: shares of 0 where EVALB
        prints 0.00, the F-measure None where it prints nan."""
        n = self.valid
        r = self.matched / self.gold if self.gold else 0.0
        p = self.matched / self.test if self.test else 0.0
        return EvalbTotals(
            sentences=self.sentences, error_sentences=self.errors,
            skip_sentences=self.skips, valid_sentences=n,
            bracketing_recall=r, bracketing_precision=p,
            bracketing_fmeasure=2 * p * r / (p + r) if p + r else None,
            complete_match=self.complete / n if n else 0.0,
            average_crossing=self.crossing / n if n else 0.0,
            no_crossing=self.no_crossing / n if n else 0.0,
            two_or_less_crossing=self.two_or_less / n if n else 0.0,
            tagging_accuracy=self.correct_tags / self.words if self.words else 0.0,
            matched=self.matched, gold_brackets=self.gold, test_brackets=self.test,
            words=self.words, correct_tags=self.correct_tags, crossing=self.crossing,
            complete_matches=self.complete, no_crossing_sentences=self.no_crossing,
            two_or_less_crossing_sentences=self.two_or_less)

    def as_dict(self) -> dict[str, float | int | None]:
        return self.scores().to_dict()


HEADER = (
    "  Sent.                        Matched  Bracket   Cross        Correct Tag\n"
    " ID  Len.  Stat. Recal  Prec.  Bracket gold test Bracket Words  Tags Accracy\n"
    "============================================================================"
)
RULE = "=" * 76


class EvalbAbort(Exception):
    """More errors than MAX_ERROR allows: EVALB stops without a summary."""


@dataclass
class EvalbResult:
    """EVALB's outcome: a table of counts, a row a scored sentence (the rows before an
    abort), with their totals; the rows as objects, text or dicts when asked for."""

    table: array[int]
    """FIELDS of each row, in one array: a million-word file's rows as objects were a
    fifth of the command's time."""
    size: int
    """How many rows: the table may be longer (rows scored after an abort)."""
    all: Totals
    cut: Totals
    params: EvalbParams
    messages: list[str]
    """EVALB's standard-error lines (``LINE : message``)."""
    aborted: bool = False
    accelerated: bool = True

    @cached_property
    def rows(self) -> list[SentenceResult]:
        t = self.table
        return [SentenceResult(k + 1, *t[_N * k:_N * k + _N]) for k in range(self.size)]

    def row_dicts(self) -> list[dict[str, int | float]]:
        """Each row's as_dict (the command's JSON ``rows``)."""
        if self.accelerated and _fast is not None:
            return _fast.row_dicts(self.table, self.size)
        return [r.as_dict() for r in self.rows]

    def command(self, prm: str | None = None) -> BracketsEval:
        """``eval brackets``'s object, signed with the parameter file's name PRM: the
        totals absent when EVALB gave up."""
        from parsebench.common.signature import signature

        p = self.params
        sig = signature(method="evalb", prm=prm, labeled=p.labeled, cutoff=p.cutoff_len)
        return BracketsEval(None if self.aborted else self.all.scores(),
                            None if self.aborted else self.cut.scores(), p.cutoff_len,
                            RowsWhenRead(self.row_dicts), self.messages, sig, self.aborted or None)

    def report(self) -> str:
        if self.accelerated and _fast is not None:
            rows = _fast.format_rows(self.table, self.size)
        else:
            rows = "".join([r.row() + "\n" for r in self.rows])
        if self.aborted:
            return HEADER + "\n" + rows
        lines = [RULE, self.all.line(), "=== Summary ===", "", "-- All --"]
        lines += self.all.summary_lines()
        lines.append("")
        lines.append(f"-- len<={self.params.cutoff_len} --")
        lines += self.cut.summary_lines()
        return HEADER + "\n" + rows + "\n".join(lines) + "\n"


def _read(text: str, rules: _Rules, error: Callable[[str], None]) -> _Parsed:
    p = _parse(text, rules)
    for message in p.errors:
        error(message)
    while p.stuck:  # EVALB's reader loops on the word until MAX_ERROR ends the run
        error("Reading sentence")
    return p


Texts = Sequence[str]
"""One tree's text a sentence: a list of str, or _evalb_fast.Lines (a file's lines)."""


def score_brackets(gold: Sequence[TreeText], test: Sequence[TreeText], params: EvalbParams,
                   gold_path: str = "GOLD", test_path: str = "TEST",
                   accelerated: bool = True) -> EvalbResult:
    """Score TEST against GOLD tree by tree; ``accelerated=False`` uses only this module."""
    return _evaluate([t.text for t in gold], [t.text for t in test], params, accelerated)


def score_bracket_files(gold_path: str | os.PathLike[str], test_path: str | os.PathLike[str],
                        params: EvalbParams | None = None,
                        accelerated: bool = True) -> EvalbResult:
    """score_brackets of two files; a file of one tree a line is read by the C
    accelerator without a str a line (the same lines as read_tree_texts')."""
    fast = accelerated and _fast is not None
    return _evaluate(_tree_texts(gold_path, fast), _tree_texts(test_path, fast),
                     params or EvalbParams(), accelerated)


def _tree_texts(path: str | os.PathLike[str], fast: bool) -> Texts:
    if fast and _fast is not None:
        lines = _fast.Lines(read_bytes(path))
        if lines.simple:
            return lines
    return [t.text for t in read_tree_texts(path)]


PART = 5_000
"""Trees a thread scores at least: a million words (39,000 trees), not a small file."""


def _fast_rows(gold: Texts, test: Texts, table: array[int], rules: _Rules) -> list[int]:
    """The C scorer's rows of GOLD and TEST into TABLE; the indexes it leaves to this
    module, in order. Files of lines are scored in parts in threads (a Scorer each)."""
    assert _fast is not None
    compiled = (rules.delete, rules.delete_len, rules.deleted_brackets, rules.eq_labels,
                rules.eq_words, rules.labeled)
    n = min(len(gold), len(test))
    parts = min(cores(), n // PART)
    if parts < 2 or not (isinstance(gold, _fast.Lines) and isinstance(test, _fast.Lines)):
        return _fast.Scorer(*compiled).score_all(gold, test, table)
    spans = list(pairwise(n * k // parts for k in range(parts + 1)))
    jobs = [started(_fast.Scorer(*compiled).score_lines, gold, test, table, *span)
            for span in spans[1:]]
    todo: list[int] = _fast.Scorer(*compiled).score_lines(gold, test, table, *spans[0])
    for job in jobs:
        todo += job()
    return todo


def _evaluate(gold: Texts, test: Texts, params: EvalbParams, accelerated: bool) -> EvalbResult:
    messages: list[str] = []
    error_count = 0
    current = 0
    rules = _Rules.of(params)
    fast = accelerated and _fast is not None
    n = min(len(gold), len(test))
    table = _table(n)
    size = n

    def error(message: str) -> None:
        nonlocal error_count
        messages.append(f"{current} : {message}")
        error_count += 1
        if error_count - 1 > params.max_error:
            raise EvalbAbort(message)

    if fast and _fast is not None:
        todo: Sequence[int] = _fast_rows(gold, test, table, rules)
    else:
        todo = range(n)
    try:
        for k in todo:  # in order: the messages and an abort come as EVALB's do
            current = k + 1
            gp = _read(gold[k], rules, error)
            tp = _read(test[k], rules, error)
            r = score_sentence(gp, tp, current, rules, error)
            if r.status == 0 and (gp.errors or tp.errors):
                r.status = 1  # EVALB scores the row, but as an error sentence
            _put(table, k, r)
        current = n + 1
        if len(gold) > n:
            _read(gold[n], rules, error)
            error("Number of lines unmatch (too many lines in gold file)")
        elif len(test) > n:
            error("Number of lines unmatch (too many lines in test file)")
    except EvalbAbort:
        aborted = True
        size = current - 1
    else:
        aborted = False
    if fast and _fast is not None:
        every, cut = _fast.totals(table, size, params.cutoff_len)
        return EvalbResult(table, size, Totals(*every), Totals(*cut), params, messages,
                           aborted, True)
    result = EvalbResult(table, size, Totals(), Totals(), params, messages, aborted, False)
    rows = result.rows
    result.all = Totals.of(rows)
    result.cut = Totals.of([r for r in rows if r.length <= params.cutoff_len])
    return result

"""Parseval through changed sentences and words (Jo, Park & Park 2024, "A Novel
Alignment-based Approach for PARSEVAL Measures", Computational Linguistics 50(3)):
``eval brackets --align``.

EVALB needs the test to have the gold's sentences and words; a parser fed raw text
(its own segmentation and tokenisation, or OCR's and a transcript's words) has
neither. The paper's program, jp-evalb, first aligns sentences (a pair matches when its
characters are the same, or within an edit ratio of 0.15 and the next pair matches
too; otherwise the side whose last sentence is shorter takes one more until the next
pair matches), merges each group into one tree, aligns words the same way inside
(the side with more characters left takes one more word), and scores each
constituent by the word groups its first and last words fall in. Its defaults count
every word and bracket (no label deleted, tags by (tag, word) counts); ``--legacy`` is
its ``-evalb`` mode, EVALB's COLLINS.prm rules, which reproduces EVALB's figures where
sentences and words match. Written here because jp-evalb is a script with no library
(and needs NLTK); it gives the same table and summary, to the digit, as jp-evalb's
current version on its published cases.

jp-evalb stops with a Python error on some inputs: an edit ratio against an empty
sentence, one side's sentences or words running out before the other's, an empty
constituent at the end of a sentence. There this module goes on and says what it did
(:attr:`AlignedParseval.notes`): the rest of the longer side joins the last group, an
empty constituent that has no word to stand on is not scored. Two answers of jp-evalb
are not kept: when the test has more sentences than the gold, jp-evalb can leave
sentences of both files out without a word (here every sentence is aligned); its
built-in COLLINS rules count deleted ``-NONE-`` in a sentence's length (here, as in
EVALB, they do not). Kept, as jp-evalb has them: brackets match as sets, labels are
cut at ``-`` only (docs/commands.md gives what that costs against EVALB).
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rapidfuzz.distance import Levenshtein

from parsebench.formats.brackets import CLOSE, OPEN, Tree, TreeText, parse_tree, read_tree_texts
from parsebench.formats.evalb_prm import EvalbParams
from parsebench.metrics.constituency.evalb_records import AlignedBracketsEval
from parsebench.metrics.constituency.evalb_scorer import HEADER, RULE, SentenceResult, Totals

CUTOFF = 40
"""jp-evalb's second summary is of sentences of at most 40 words, whatever the
parameter file says."""

SIMILAR = 0.15
"""Largest edit distance, as a share of the gold sentence's characters, at which two
sentences still pair when the next pair matches."""

_TOKEN_FORMS = {"''": '"', "`": "'", "``": '"', "ca": "can", "wo": "will", "n't": "not"}
"""Spellings of the Treebank's tokenisation that jp-evalb reads as the plain word when
comparing sentences."""

_COLLINS = ("TOP", "-NONE-", ",", ":", "``", "''", ".")


@dataclass(frozen=True)
class Rules:
    """What a tree loses before it is scored (a parameter file's settings, as jp-evalb
    reads them)."""

    delete: frozenset[str] = frozenset()
    length_exempt: frozenset[str] = frozenset({"-NONE-"})
    quote: frozenset[str] = frozenset()
    eq_labels: tuple[tuple[str, ...], ...] = ()
    legacy: bool = False
    """jp-evalb's ``-evalb``: a sentence whose tag counts differ is an error, tags are
    compared position by position, EQ_LABEL applies."""

    @classmethod
    def of(cls, params: EvalbParams | None, legacy: bool) -> Rules:
        if params is None:
            if not legacy:
                return cls()
            return cls(frozenset(_COLLINS), eq_labels=(("ADVP", "PRT"),), legacy=True)
        return cls(frozenset(params.delete_labels),
                   frozenset(params.delete_labels_for_length or ["-NONE-"]),
                   frozenset(params.quote_labels), tuple(params.eq_labels), legacy)


@dataclass
class TreeSpans:
    """One tree as the alignment and the scoring see it."""

    line: int
    text: str
    """Every word of the tree as read, lowercased, joined by spaces."""
    words: list[str]
    """The words left after the rules' deletions."""
    tags: list[tuple[str, str]]
    spans: list[tuple[str, int, int]]
    """(label, first word, one past the last word) of every node above a preterminal."""
    deleted: int
    """Nodes deleted that count in the sentence's length."""


def _deleted(node: Tree, rules: Rules) -> bool:
    if node.label in rules.delete:
        return True
    first = node.children[0] if node.children else None
    return node.label in rules.quote and first in ("'", '"', "/")


def _preterminal(node: Tree) -> bool:
    return len(node.children) == 1 and isinstance(node.children[0], str)


def read_sentence(tree: Tree, line: int, rules: Rules) -> TreeSpans:
    """TREE after the rules, walked without recursion (a broken parser's tree can nest
    deeper than Python's stack). A root with several children is put under a ``TOP``
    first, as jp-evalb does: that root can then be deleted like any node."""
    text = " ".join(tree.words()).lower()
    if len(tree.children) > 1:
        tree = Tree("TOP", [tree])
    words: list[str] = []
    tags: list[tuple[str, str]] = []
    spans: list[tuple[str, int, int]] = []
    deleted = 0
    open_: list[list[int]] = []  # per open node: [start, kept children, above preterminal]
    nodes: list[Tree] = []
    skip = 0
    for kind, node, word in tree.events():
        if skip:
            skip += 1 if kind == OPEN else -1 if kind == CLOSE else 0
            continue
        if kind == OPEN:
            if nodes and not _preterminal(nodes[-1]) and _deleted(node, rules):
                skip = 1
                deleted += node.label not in rules.length_exempt
                continue
            if open_:
                open_[-1][1] += 1
            open_.append([len(words), 0, 0])
            nodes.append(node)
        elif kind == CLOSE:
            start, kept, high = open_.pop()
            nodes.pop()
            if high:
                spans.append((node.label, start, len(words)))
            if kept and open_:
                open_[-1][2] = 1
        else:
            open_[-1][1] += 1
            words.append(word)
            if not (node.label in rules.delete and _preterminal(node)):  # a root's
                tags.append((node.label, word))
    return TreeSpans(line, text, words, tags, spans, deleted)


def read_sentences(trees: str | os.PathLike[str] | Sequence[TreeText], rules: Rules,
                   path: str = "<input>") -> list[TreeSpans]:
    """Every non-blank tree of a file (or of tree texts), as :class:`TreeSpans`."""
    texts = read_tree_texts(trees) if isinstance(trees, str | os.PathLike) else trees
    name = str(trees) if isinstance(trees, str | os.PathLike) else path
    return [read_sentence(parse_tree(t.text, name, t.line), t.line, rules)
            for t in texts if t.text.strip()]


@dataclass
class Group:
    """Aligned units: indices of test units and of gold units (sentences or words)."""

    test: list[int] = field(default_factory=list)
    gold: list[int] = field(default_factory=list)


class _SentenceMatch:
    """jp-evalb's test of whether test sentence i and gold sentence j start a match:
    the same characters (Treebank spellings read plainly), or close enough while the
    next pair matches; remembered, so a long run of near-matches costs one edit
    distance a pair."""

    def __init__(self, test: list[TreeSpans], gold: list[TreeSpans]) -> None:
        self.a = ["".join(_TOKEN_FORMS.get(t, t) for t in s.text.split(" ")) for s in test]
        self.b = ["".join(_TOKEN_FORMS.get(t, t) for t in s.text.split(" ")) for s in gold]
        self.memo: dict[tuple[int, int], bool] = {}

    def __call__(self, i: int, j: int) -> bool:
        path: list[tuple[int, int]] = []
        while True:
            if (i, j) in self.memo:
                got = self.memo[i, j]
                break
            if i >= len(self.a) or j >= len(self.b):
                got = i >= len(self.a) and j >= len(self.b)
                break
            x, y = self.a[i], self.b[j]
            if x == y:
                got = True
                break
            if not y or Levenshtein.distance(x, y) / len(y) > SIMILAR:
                got = False
                break
            path.append((i, j))
            i, j = i + 1, j + 1
        for p in path:
            self.memo[p] = got
        self.memo[i, j] = got
        return got


def align_sentences(test: list[TreeSpans], gold: list[TreeSpans],
                    notes: list[str]) -> list[Group]:
    """jp-evalb's sentence alignment: groups of test and gold sentences, in order."""
    same = _SentenceMatch(test, gold)
    na, nb = len(test), len(gold)
    groups: list[Group] = []
    i = j = 0
    while i < na and j < nb:
        if same(i, j):
            groups.append(Group([i], [j]))
            i, j = i + 1, j + 1
            continue
        g = Group([i], [j])
        while not same(i + 1, j + 1):  # (past both ends is a match: never both here)
            if len(test[i].text) == len(gold[j].text):
                break
            if (len(test[i].text) > len(gold[j].text) and j + 1 < nb) or i + 1 >= na:
                j += 1
                g.gold.append(j)
            else:
                i += 1
                g.test.append(i)
        groups.append(g)
        i, j = i + 1, j + 1
    if i < na or j < nb:
        rest_test, rest_gold = list(range(i, na)), list(range(j, nb))
        if groups:
            groups[-1].test += rest_test
            groups[-1].gold += rest_gold
        else:
            groups.append(Group(rest_test, rest_gold))
        side = "test" if rest_test else "gold"
        first = (rest_test or rest_gold)[0] + 1
        notes.append(f"{side} sentences from {first} on have nothing left to align to: "
                     "joined to the last group")
    return groups


def _group_of(n: int, groups: list[Group], test: bool) -> list[int]:
    of = [0] * n
    for k, g in enumerate(groups):
        for x in (g.test if test else g.gold):
            of[x] = k
    return of


def align_words(a: list[str], b: list[str], notes: list[str],
                where: str) -> tuple[list[int], list[int], list[Group]]:
    """jp-evalb's word alignment of test words A and gold words B: words equal but for
    case pair; otherwise the side with more characters left after its current word
    takes one more, until the next words are equal. Returns the group of each word on
    each side and the groups."""
    na, nb = len(a), len(b)
    a, b = [w.lower() for w in a], [w.lower() for w in b]  # compared but for case
    if not na or not nb:  # each word of the other side is a group of its own
        return list(range(na)), list(range(nb)), \
            [Group([x], []) for x in range(na)] + [Group([], [x]) for x in range(nb)]
    left = [0] * (na + 1)
    for k in range(na - 1, -1, -1):
        left[k] = left[k + 1] + len(a[k])
    right = [0] * (nb + 1)
    for k in range(nb - 1, -1, -1):
        right[k] = right[k + 1] + len(b[k])
    groups: list[Group] = []
    i = j = 0
    while i < na and j < nb:
        g = Group([i], [j])
        groups.append(g)
        if a[i] != b[j] and (i + 1 < na or j + 1 < nb):
            stuck = False
            while True:
                if i + 1 >= na or j + 1 >= nb:  # one side's last word: the other's rest
                    stuck = bool(g.test[1:] or g.gold[1:])
                    g.test += range(i + 1, na)
                    g.gold += range(j + 1, nb)
                    i, j = na - 1, nb - 1
                    break
                if a[i + 1] == b[j + 1]:
                    break
                if left[i + 1] > right[j + 1]:
                    i += 1
                    g.test.append(i)
                elif left[i + 1] < right[j + 1]:
                    j += 1
                    g.gold.append(j)
                else:
                    break
            if stuck:
                notes.append(f"{where}: the words from test word {g.test[0] + 1} and gold "
                             f"word {g.gold[0] + 1} to the end are one group (jp-evalb "
                             "stops there)")
        i, j = i + 1, j + 1
    if groups and (i < na or j < nb):  # the rest of the longer side joins the last group
        groups[-1].test += range(i, na)
        groups[-1].gold += range(j, nb)
    return _group_of(na, groups, True), _group_of(nb, groups, False), groups


def constituents(spans: list[tuple[str, int, int]], group_of: list[int], is_test: bool,
                 where: str, notes: list[str]) -> list[tuple[str, int, int]]:
    """Each span as (label without function tags, first word's group, last word's group
    + 1), as jp-evalb scores it; a constituent with no words takes the groups Python's
    indexing gives jp-evalb's program (its answer), or is left out where that program
    stops."""
    out = []
    n = len(group_of)
    for label, start, end in spans:
        if label == "TOP":
            continue
        if "-" in label:
            label = label.split("-")[0]
        if not label or (is_test and label == "S1"):
            continue
        if not (-n <= end - 1 < n and start < n):
            notes.append(f"{where}: the empty constituent {label} after word {start} "
                         "has no word to stand on: not scored")
            continue
        out.append((label, group_of[start], group_of[end - 1] + 1))
    return out


def _matched(test: list[tuple[str, int, int]], gold: list[tuple[str, int, int]],
             rules: Rules) -> int:
    """Constituents in both (as sets, as jp-evalb counts), plus pairs of the others
    with the same span whose labels EQ_LABEL makes equal."""
    t, g = set(test), set(gold)
    matched = len(t & g)
    if rules.legacy or rules.eq_labels:
        by_span: dict[tuple[int, int], list[str]] = {}
        for label, a, b in g - t:
            by_span.setdefault((a, b), []).append(label)
        for label, a, b in t - g:
            for other in by_span.get((a, b), ()):
                matched += sum(1 for eq in rules.eq_labels if {label, other} <= set(eq))
    return matched


def _crossing(test: list[tuple[str, int, int]], gold: list[tuple[str, int, int]]) -> int:
    """Test constituents that cross a gold one (one starts strictly inside the other
    and ends strictly outside it), each counted once: from the farthest end of the gold
    constituents starting at each position and the nearest start of those ending there,
    so that a group of many sentences costs its spans' widths, not test x gold."""
    if not test or not gold:
        return 0
    n = max(max(b for _, _, b in test), max(b for _, _, b in gold)) + 1
    far_end = [-1] * n  # by start
    near_start = [n] * n  # by end
    for _, a, b in gold:
        far_end[a] = max(far_end[a], b)
        near_start[b] = min(near_start[b], a)
    return sum(1 for _, a, b in test
               if any(far_end[p] > b or near_start[p] < a for p in range(a + 1, b)))


def _correct_tags(test: list[tuple[str, str]], gold: list[tuple[str, str]],
                  rules: Rules) -> int:
    """Tags right: position by position in ``-evalb`` mode, else (tag, word) pairs in
    common, counted (words need not line up)."""
    if rules.legacy:
        return sum(1 for x, y in zip(test, gold, strict=False) if x == y)
    have = Counter(gold)
    return sum(min(n, have[t]) for t, n in Counter(test).items())


@dataclass
class ScoredGroup:
    """One aligned group of sentences, scored."""

    id: int
    test: list[int]
    gold: list[int]
    words: list[tuple[list[str], list[str]]]
    """The word groups that are not one word the same on both sides: (test, gold)."""
    row: SentenceResult
    within_cutoff: bool


def _joined(sents: list[TreeSpans]) -> tuple[list[str], list[tuple[str, str]],
                                             list[tuple[str, int, int]]]:
    words: list[str] = []
    tags: list[tuple[str, str]] = []
    spans: list[tuple[str, int, int]] = []
    for s in sents:
        spans += [(lab, a + len(words), b + len(words)) for lab, a, b in s.spans]
        words += s.words
        tags += s.tags
    return words, tags, spans


def score_group(k: int, group: Group, test: list[TreeSpans], gold: list[TreeSpans],
                rules: Rules, notes: list[str]) -> ScoredGroup:
    """Group K (from 0) of sentences, its words aligned and its brackets scored."""
    tw, tt, ts = _joined([test[i] for i in group.test])
    gw, gt, gs = _joined([gold[j] for j in group.gold])
    where = f"group {k + 1}"
    test_of, gold_of, wgroups = align_words(tw, gw, notes, where)
    tc = constituents(ts, test_of, True, where, notes)
    gc = constituents(gs, gold_of, False, where, notes)
    deleted = gold[k].deleted if k < len(gold) else 0
    length = len(gw) + deleted
    changed = [([tw[i] for i in g.test], [gw[j] for j in g.gold]) for g in wgroups
               if len(g.test) != 1 or len(g.gold) != 1 or tw[g.test[0]] != gw[g.gold[0]]]
    if rules.legacy and len(tt) != len(gt):
        return ScoredGroup(k + 1, group.test, group.gold, changed,
                           SentenceResult(k + 1, length, 1), length <= CUTOFF)
    row = SentenceResult(k + 1, length, 0, _matched(tc, gc, rules), len(gc), len(tc),
                         _crossing(tc, gc), len(gt), _correct_tags(tt, gt, rules))
    gold_groups = sum(1 for g in wgroups if g.gold)
    return ScoredGroup(k + 1, group.test, group.gold, changed, row,
                       gold_groups + deleted <= CUTOFF)


@dataclass
class AlignedParseval:
    """The groups scored, their totals (all, and those within jp-evalb's cutoff), what the
    alignment had to decide where jp-evalb stops, and the trees' lines."""

    groups: list[ScoredGroup]
    all: Totals
    cut: Totals
    notes: list[str]
    test_lines: list[int]
    gold_lines: list[int]

    def rows(self) -> list[str]:
        return [_ROW.format(r.id, r.length, r.status,
                            100 * r.matched / r.gold if r.gold else 0.0,
                            100 * r.matched / r.test if r.test else 0.0,
                            r.matched, r.gold, r.test, r.crossing, r.words, r.correct_tags,
                            100 * r.correct_tags / r.words if r.words else 0.0)
                for r in (p.row for p in self.groups)]

    def shown(self) -> list[ScoredGroup]:
        """The groups that are not one sentence each side with the same words."""
        return [p for p in self.groups
                if len(p.test) != 1 or len(p.gold) != 1 or p.words]

    def aligned(self) -> list[str]:
        """A line for each pair :meth:`shown` gives: its trees' lines and its changed
        words (gold ~ test)."""
        out = []
        for p in self.shown():
            where = (f"{p.id:4d}  gold line {_lines(p.gold, self.gold_lines)} ~ "
                     f"test line {_lines(p.test, self.test_lines)}")
            if p.words and all(not t for t, _ in p.words):
                words = "the test has no words"
            elif p.words and all(not g for _, g in p.words):
                words = "the gold has no words"
            else:
                words = "; ".join(f"{' '.join(g)} ~ {' '.join(t)}" for t, g in p.words)
            out.append(where + (": " + words if words else ""))
        return out

    def record(self, signature: str) -> AlignedBracketsEval:
        """``eval brackets --align``'s JSON object."""
        lines = {p.id: {"gold_lines": [self.gold_lines[k] for k in p.gold],
                        "test_lines": [self.test_lines[k] for k in p.test]}
                 for p in self.groups}
        rows: list[dict[str, Any]] = [{**p.row.as_dict(), **lines[p.id]}
                                      for p in self.groups]
        shown = [{"id": p.id, **lines[p.id],
                  "words": [{"gold": g, "test": t} for t, g in p.words]}
                 for p in self.shown()]
        return AlignedBracketsEval(self.all.scores(), self.cut.scores(), CUTOFF, rows,
                                   shown, self.notes, signature)

    def report(self) -> str:
        lines = [HEADER, *self.rows(), RULE, self.all.line("  {:5d}"), "=== Summary ===", "",
                 "-- All --", *self.all.summary_lines("   nan"), "",
                 f"-- len<={CUTOFF} --", *self.cut.summary_lines("   nan")]
        shown = self.aligned()
        if shown or self.notes:
            lines += ["", "=== Alignment (gold ~ test) ===", *shown, *self.notes]
        return "\n".join(lines) + "\n"


_ROW = "{:>4} {:>4} {:>4} {:>7.2f} {:>6.2f} {:>5} {:>6} {:>4} {:>6} {:>6} {:>5} {:>8.2f}"


def _lines(ks: list[int], lines: list[int]) -> str:
    got = [lines[k] for k in ks]
    if not got:
        return "-"
    return str(got[0]) if len(got) == 1 else f"{got[0]}-{got[-1]}"




def score_aligned(gold: str | os.PathLike[str] | Sequence[TreeText],
                  test: str | os.PathLike[str] | Sequence[TreeText],
                  params: EvalbParams | None = None, legacy: bool = False) -> AlignedParseval:
    """Parseval of TEST's trees against GOLD's through aligned sentences and words
    (``eval brackets --align``); PARAMS a parameter file's settings (default: none
    deleted, or EVALB's COLLINS.prm when LEGACY, jp-evalb's ``-evalb``)."""
    rules = Rules.of(params, legacy)
    g = read_sentences(gold, rules, "gold")
    t = read_sentences(test, rules, "test")
    notes: list[str] = []
    groups = [score_group(k, grp, t, g, rules, notes)
              for k, grp in enumerate(align_sentences(t, g, notes))]
    rows = [p.row for p in groups]
    cut = [p.row for p in groups if p.within_cutoff]
    return AlignedParseval(groups, Totals.of(rows), Totals.of(cut), notes,
                           [s.line for s in t], [s.line for s in g])

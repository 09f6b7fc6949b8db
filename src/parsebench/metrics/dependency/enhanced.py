"""ELAS and EULAS: the enhanced graphs (the DEPS column) of the IWPT 2020/2021 shared
tasks, as the official UD scorer (udtools' ``udeval``) scores them.

Every word's DEPS is a set of edges ``HEAD:LABEL`` (a label may be a path
``conj:en>obl:voor`` where empty nodes were collapsed). An edge of a system word
is right when the word is aligned to a gold word that has an edge with the same
label and a head aligned to the system's head (both 0 for the root). ELAS compares
whole labels; EULAS their universal parts (``obl:in`` is ``obl``). Precision is
over the system's edges, recall over the gold's, F1 as CoNLL 2018's.

``--enhancements`` says which enhancements a gold treebank lacks, so a system is
not punished for them: 1 gapping (a path becomes the word's basic relation), 2
shared parents in coordination (a word with a ``conj`` edge keeps only that), 3
shared dependents in coordination (an edge dropped where the same label goes to
the basic head), 4 control (an ``nsubj`` edge from an ``xcomp`` dropped), 5
external arguments of relative clauses (``ref`` becomes the basic relation, the
edge from an ``acl`` that depends on the word is dropped), 6 case information
(``obl:in`` becomes ``obl`` for obl, nmod, conj and advcl, except the universal
subtypes pass, relcl and xsubj); applied in that order, to both files.

Empty nodes are left out, with the edges to and from them (``udeval`` does the
same unless ``--no-empty-nodes`` says they were collapsed, when one is an error).

Where this differs from ``udeval``, on purpose (``docs/udeval.md``): an edge
matches at most one edge of the other side (``udeval`` counts every pair, so a
word with ``nsubj`` and ``nsubj:xsubj`` scores 2 of 1 in EULAS, over 100%);
enhancement 3 compares with the basic head as a number (``udeval`` compares a
word with a string, and so never drops an edge); enhancement 5 compares the
``acl``'s head with the word's own id (``udeval`` with the id minus one); and the
basic relation that enhancements 1 and 5 put in for a root word is ``0:root``
(``udeval`` puts in a head it can never match).
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from parsebench.common.errors import InputError
from parsebench.formats.conllu import NO_HEAD, Sentence
from parsebench.metrics.dependency.conll18 import F1Count, base

ENHANCEMENTS = {
    1: "no gapping",
    2: "no shared parents in coordination",
    3: "no shared dependents in coordination",
    4: "no control",
    5: "no external arguments of relative clauses",
    6: "no case information",
}
"""What each digit of ``--enhancements`` says the gold lacks (0: it has them all)."""

CASE_DEPRELS = frozenset({"obl", "nmod", "conj", "advcl"})
UNIVERSAL_EXTENSIONS = frozenset({"pass", "relcl", "xsubj"})

ROOT = -1
NOT_ALIGNED = -3
NO_GOLD_HEAD = -4
NO_SYSTEM_HEAD = -5
"""A relation put in from a basic tree without a head (``_``): it matches nothing."""

Edge = tuple[int, str]
"""(head: 0 for the root, else the 1-based word; label or path as written)."""


@dataclass(frozen=True, slots=True)
class Enhanced:
    """How the DEPS column is read: udeval's ``--enhancements`` and ``--no-empty-nodes``."""

    off: frozenset[int] = frozenset()
    """The enhancements (1-6) the gold lacks: left out of both files."""
    no_empty_nodes: bool = False
    """The empty nodes were collapsed: one left in a file is an error."""
    read: bool = True
    """False: ELAS and EULAS are not wanted (``compare`` of another metric), so the DEPS
    column is not read: a third of the scoring's time, and its warnings."""

    @classmethod
    def of(cls, enhancements: str | int | None = None,
           no_empty_nodes: bool = False) -> Enhanced:
        """From ``--enhancements`` as udeval writes it: digits 0-6, e.g. ``12``."""
        text = "0" if enhancements is None else str(enhancements).strip()
        if not text or not text.isascii() or not text.isdigit() or set(text) - set("0123456"):
            raise InputError(f"--enhancements {enhancements!r}: expected digits 0-6 "
                             "(0: the gold has every enhancement; 12: no gapping and no "
                             "shared parents)")
        return cls(frozenset(int(c) for c in text if c != "0"), no_empty_nodes)

    @property
    def code(self) -> str:
        """As ``--enhancements`` takes it: ``0``, or the digits in order (``12``)."""
        return "".join(str(d) for d in sorted(self.off)) or "0"


Split = tuple[tuple[Edge, ...], int, int]
_PARSED: dict[str, Split] = {}
"""DEPS values already split (a few thousand distinct ones in a treebank)."""
_NONE: Split = ((), 0, 0)


def _split(deps: str) -> Split | None:
    """DEPS as edges, the number of edges to empty nodes left out and the highest head;
    None if malformed."""
    got = _PARSED.get(deps)
    if got is not None:
        return got
    edges: list[Edge] = []
    skipped = 0
    for item in deps.split("|"):
        head, sep, label = item.partition(":")
        if not sep or not label:
            return None
        if "." in head:
            a, _, b = head.partition(".")
            if not (a.isascii() and a.isdigit() and b.isascii() and b.isdigit()):
                return None
            skipped += 1
            continue
        if not (head.isascii() and head.isdigit()):
            return None
        edges.append((int(head), label))
    got = (tuple(edges), skipped, max((h for h, _ in edges), default=0))
    if len(_PARSED) < 100_000:
        _PARSED[deps] = got
    return got


_EDGES: dict[str, int] = {"_": 0, "": 0}
_SKIP: dict[str, int] = {"_": 0, "": 0}
_TOP: dict[str, int] = {"_": 0, "": 0}
"""Of each DEPS value split: its edges, its edges to empty nodes, its highest head
(read a sentence at a time by ``map``, without a Python call a word)."""


def _learn(deps: str) -> bool:
    """Put DEPS in _EDGES, _SKIP and _TOP; False if it is malformed."""
    got = _split(deps)
    if got is None:
        return False
    if len(_EDGES) < 100_000:
        _EDGES[deps], _SKIP[deps], _TOP[deps] = len(got[0]), got[1], got[2]
        return True
    return False


_deps_rows: Callable[..., tuple[int, int, int, int, int, int, list[int]] | bool | None] | None
try:
    from parsebench.metrics.dependency._deps_fast import deps_rows as _deps_rows
except ImportError:  # built without a C compiler: _rows_as_written counts in Python
    _deps_rows = None

_deps_stretch: Callable[..., tuple[int, int] | None] | None
try:
    from parsebench.metrics.dependency._stretch_fast import deps_stretch as _deps_stretch
except ImportError:  # built without a C compiler: stretch counts in Python
    _deps_stretch = None


def word_line(s: Sentence, i: int) -> int:
    """The line of word I of S in its file (comments, ranges and empty nodes before it)."""
    return s.line + len(s.comments) + i + sum(a <= i for a, _, _ in s.multiword) \
        + sum(after <= i for after, _ in s.empty_nodes)


def empty_node_line(s: Sentence, k: int) -> int:
    """The line of S's K-th empty node."""
    after = s.empty_nodes[k][0]
    return s.line + len(s.comments) + after + sum(a < after for a, _, _ in s.multiword) \
        + sum(x < after for x, _ in s.empty_nodes) + sum(
            x == after for x, _ in s.empty_nodes[:k])


def sentence_edges(s: Sentence, opts: Enhanced, path: str, missing: int = NO_GOLD_HEAD,
                   bad: list[int] | None = None) -> tuple[list[tuple[Edge, ...]], int]:
    """Each word's enhanced edges, the enhancements OPTS leaves out applied, and the
    number of edges to or from empty nodes left out. A basic relation put in for a
    word without a basic head (``_``) gets the head MISSING, which matches nothing.
    A DEPS value that is not HEAD:LABEL pairs is refused, or, given BAD, noted there by
    its line and read as no edge: a treebank that keeps other things in the column
    (Tweebank v2 has MISC there) is still scored, its ELAS and EULAS warned of."""
    if opts.no_empty_nodes and s.empty_nodes:
        cols = s.empty_nodes[0][1]
        raise InputError(f"empty node {cols[0]} (--no-empty-nodes: the empty nodes must "
                         "be collapsed first)", path, empty_node_line(s, 0))
    n = len(s)
    out: list[tuple[Edge, ...]] = []
    skipped = 0
    for _, cols in s.empty_nodes:
        if cols[8] not in ("_", ""):
            skipped += cols[8].count("|") + 1
    for i, d in enumerate(s.deps):
        if d == "_" or not d:
            out.append(())
            continue
        got = _split(d)
        if got is None and bad is not None:
            bad.append(word_line(s, i))
            out.append(())
            continue
        if got is None:
            raise InputError(f"DEPS {d!r} is not HEAD:LABEL separated by |", path,
                             word_line(s, i))
        edges, gone, _ = got
        if gone:
            if opts.no_empty_nodes:
                raise InputError(f"DEPS {d!r} names an empty node (--no-empty-nodes: the "
                                 "empty nodes must be collapsed first)", path,
                                 word_line(s, i))
            skipped += gone
        for h, _ in edges:
            if h > n:
                raise InputError(f"DEPS head {h} points outside the sentence of {n} words",
                                 path, word_line(s, i))
        out.append(edges)
    if opts.off:
        out = [_leave_out(s, i, list(e), opts.off, missing) for i, e in enumerate(out)]
    return out, skipped


def _leave_out(s: Sentence, i: int, edges: list[Edge], off: frozenset[int], missing: int
               ) -> tuple[Edge, ...]:
    """Word I's edges without the enhancements OFF, in udeval's order."""
    basic_head = s.heads[i]
    basic = (missing if basic_head == NO_HEAD else basic_head, base(s.deprels[i]))

    def relation_of(h: int) -> str | None:
        """The basic relation (universal part) of word H, None for the root."""
        return base(s.deprels[h - 1]) if h > 0 else None

    if 1 in off:  # a path through a collapsed empty node becomes the basic relation
        kept: list[Edge] = []
        for e in edges:
            if ">" in e[1]:
                kept.append(basic)
            elif e not in kept:
                kept.append(e)
        edges = kept
    if 2 in off:  # a conjunct keeps its conj edge only (the last, as udeval)
        for e in list(edges):
            if ">" not in e[1] and e[1].startswith("conj"):
                edges = [e]
    if 3 in off:  # the same label to the basic head and elsewhere: only the basic head's
        edges = [(h, lab) for h, lab in edges
                 if not any(lab2 == lab and h2 == basic_head and h != h2
                            for h2, lab2 in edges)]
    if 4 in off:  # no subject of a controlled verb
        edges = [(h, lab) for h, lab in edges
                 if not (relation_of(h) == "xcomp"
                         and any(p.startswith("nsubj") for p in lab.split(">")))]
    if 5 in off:  # ref becomes the basic relation; the relative clause's edge goes
        kept = []
        for h, lab in edges:
            if lab.split(">", 1)[0] == "ref":
                kept.append(basic)
            elif not ((relation_of(h) or "").startswith("acl") and s.heads[h - 1] == i + 1):
                kept.append((h, lab))
        edges = kept
    if 6 in off:
        edges = [(h, ">".join(_no_case(p) for p in lab.split(">"))) for h, lab in edges]
    return tuple(edges)


def _no_case(step: str) -> str:
    parts = step.split(":")
    if parts[0] in CASE_DEPRELS and len(parts) == 2 and parts[1] not in UNIVERSAL_EXTENSIONS:
        return parts[0]
    return step


_UNIVERSAL: dict[str, str] = {}


def universal(label: str) -> str:
    """A label or path with every step's subtype dropped (what EULAS compares)."""
    got = _UNIVERSAL.get(label)
    if got is None:
        got = ">".join(p.split(":", 1)[0] for p in label.split(">")) if ">" in label \
            else label.split(":", 1)[0]
        if len(_UNIVERSAL) < 10_000:
            _UNIVERSAL[label] = got
    return got


def _matched(gold: Sequence[Edge], system: Sequence[Edge]) -> tuple[int, int]:
    """(ELAS, EULAS) correct edges of one aligned pair: each edge matches at most one
    (a multiset intersection; greedy is exact where matching is equality)."""
    if gold == system:
        return len(gold), len(gold)
    if not gold or not system:
        return 0, 0
    if len(system) == 1 or len(gold) == 1:  # most words: one edge on one side
        one, many = (system[0], gold) if len(system) == 1 else (gold[0], system)
        if one in many:
            return 1, 1
        h, u = one[0], universal(one[1])
        for h2, lab in many:
            if h2 == h and universal(lab) == u:
                return 0, 1
        return 0, 0
    return _common(gold, system), _common([(h, universal(lab)) for h, lab in gold],
                                          [(h, universal(lab)) for h, lab in system])


def _common(a: Sequence[Edge], b: Sequence[Edge]) -> int:
    left = list(b)
    n = 0
    for e in a:
        if e in left:
            left.remove(e)
            n += 1
    return n


@dataclass
class EnhancedCounter:
    """ELAS and EULAS counts of one pass over both files, a stretch at a time."""

    opts: Enhanced
    gold_path: str
    system_path: str
    skipped: list[int] = field(default_factory=lambda: [0, 0])
    """Edges to or from empty nodes left out: gold's, system's."""
    bad: tuple[list[int], list[int]] = field(default_factory=lambda: ([], []))
    """The lines of DEPS values that are not HEAD:LABEL pairs: gold's, system's."""

    def rows(self, gold: Sentence, system: Sentence, elas: F1Count, eulas: F1Count) -> None:
        """Add the counts of a gold and a system sentence with the same rows (word i is
        word i) to ELAS and EULAS."""
        if not self.opts.read or (not self.opts.off
                                  and self._rows_as_written(gold, system, elas, eulas)):
            return
        g_edges, g_skip = sentence_edges(gold, self.opts, self.gold_path, bad=self.bad[0])
        s_edges, s_skip = sentence_edges(system, self.opts, self.system_path, NO_SYSTEM_HEAD,
                                         self.bad[1])
        self.skipped[0] += g_skip
        self.skipped[1] += s_skip
        g_n = s_n = c_l = c_u = 0
        for ge, se in zip(g_edges, s_edges, strict=True):
            g_n += len(ge)
            s_n += len(se)
            if ge and se:
                a, b = _matched(ge, se)
                c_l += a
                c_u += b
        for c, right in ((elas, c_l), (eulas, c_u)):
            c.correct += right
            c.gold += g_n
            c.system += s_n

    def _rows_as_written(self, gold: Sentence, system: Sentence, elas: F1Count,
                         eulas: F1Count) -> bool:
        """:meth:`rows` without enhancements left out, in a few passes over the DEPS
        values as written (the equal ones match whole; a loop a word took a third of
        eval deps's time); False where a value needs a closer look (malformed, a head
        past the sentence, an empty node with --no-empty-nodes): sentence_edges then
        says what is wrong."""
        gd, sd = gold.deps, system.deps
        if _deps_rows is not None:
            got = _deps_rows(gd, sd, len(gold), len(system), _EDGES, _SKIP, _TOP)
            if got is None:  # values not seen before
                for d in (*gd, *sd):
                    if d not in _EDGES and not _learn(d):
                        return False
                got = _deps_rows(gd, sd, len(gold), len(system), _EDGES, _SKIP, _TOP)
            if not isinstance(got, tuple):
                return False
            g_n, s_n, c_l, c_u, g_skip, s_skip, differ = got
            if self.opts.no_empty_nodes and (g_skip or s_skip or gold.empty_nodes
                                             or system.empty_nodes):
                return False
            for i in differ:
                x, y = _matched((_split(gd[i]) or _NONE)[0], (_split(sd[i]) or _NONE)[0])
                c_l += x
                c_u += y
            self._add(gold, system, g_skip, s_skip, g_n, s_n, c_l, c_u, elas, eulas)
            return True
        known = _EDGES.__contains__
        if not (all(map(known, gd)) and all(map(known, sd))):
            for d in (*gd, *sd):
                if d not in _EDGES and not _learn(d):
                    return False
        g_n_list = list(map(_EDGES.__getitem__, gd))
        s_n_list = list(map(_EDGES.__getitem__, sd))
        if max(map(_TOP.__getitem__, gd)) > len(gold) or \
                max(map(_TOP.__getitem__, sd)) > len(system):
            return False
        g_skip = sum(map(_SKIP.__getitem__, gd))
        s_skip = sum(map(_SKIP.__getitem__, sd))
        if self.opts.no_empty_nodes and (g_skip or s_skip or gold.empty_nodes
                                         or system.empty_nodes):
            return False
        g_n, s_n = sum(g_n_list), sum(s_n_list)
        same = list(map(operator.eq, gd, sd))
        c_l = c_u = sum(itertools.compress(g_n_list, same))
        if c_l != g_n or g_n != s_n:
            for i in itertools.compress(range(len(gd)), map(operator.not_, same)):
                if g_n_list[i] and s_n_list[i]:
                    x, y = _matched((_split(gd[i]) or _NONE)[0], (_split(sd[i]) or _NONE)[0])
                    c_l += x
                    c_u += y
        self._add(gold, system, g_skip, s_skip, g_n, s_n, c_l, c_u, elas, eulas)
        return True

    def _add(self, gold: Sentence, system: Sentence, g_skip: int, s_skip: int, g_n: int,
             s_n: int, c_l: int, c_u: int, elas: F1Count, eulas: F1Count) -> None:
        """The counts of _rows_as_written added: edges left out, ELAS's and EULAS's."""
        for s, k in ((gold, 0), (system, 1)):
            for _, cols in s.empty_nodes:
                if cols[8] not in ("_", ""):
                    self.skipped[k] += cols[8].count("|") + 1
        self.skipped[0] += g_skip
        self.skipped[1] += s_skip
        for c, right in ((elas, c_l), (eulas, c_u)):
            c.correct += right
            c.gold += g_n
            c.system += s_n

    def stretch(self, gold: Sequence[Sentence], system: Sequence[Sentence],
                sys2gold: list[int], sentence_of_system: list[int],
                elas: list[F1Count], eulas: list[F1Count]) -> None:
        """Add the counts of a stretch aligned by SYS2GOLD (system word -> gold word, -1:
        none; global indices) to each gold sentence's ELAS and EULAS; a system word's
        edges count in the gold sentence SENTENCE_OF_SYSTEM names."""
        if not self.opts.read:
            return
        if _deps_stretch is not None and not self.opts.off and not self.opts.no_empty_nodes:
            got = _deps_stretch(list(gold), list(system), sys2gold, sentence_of_system, elas,
                                eulas, _PARSED, _split, _matched)
            if got is not None:
                self.skipped[0] += got[0]
                self.skipped[1] += got[1]
                return
        g_all: list[tuple[Edge, ...]] = []
        for k, s in enumerate(gold):
            edges, skip = sentence_edges(s, self.opts, self.gold_path, bad=self.bad[0])
            self.skipped[0] += skip
            off = len(g_all) - 1
            for e in edges:
                g_all.append(tuple((ROOT if h == 0 else h if h < 0 else off + h, lab)
                                   for h, lab in e))
                elas[k].gold += len(e)
                eulas[k].gold += len(e)
        gold2sys = [-1] * len(g_all)
        for j, gi in enumerate(sys2gold):
            if gi >= 0:
                gold2sys[gi] = j
        s_all: list[tuple[Edge, ...]] = []
        for s in system:
            edges, skip = sentence_edges(s, self.opts, self.system_path, NO_SYSTEM_HEAD,
                                         self.bad[1])
            self.skipped[1] += skip
            off = len(s_all) - 1
            for e in edges:
                mapped = []
                for h, lab in e:
                    if h == 0:
                        g = ROOT
                    elif h < 0:
                        g = h
                    else:
                        g = sys2gold[off + h]
                        if g < 0:
                            g = NOT_ALIGNED
                    mapped.append((g, lab))
                k = sentence_of_system[len(s_all)]
                elas[k].system += len(e)
                eulas[k].system += len(e)
                s_all.append(tuple(mapped))
        bounds = [k for k, s in enumerate(gold) for _ in range(len(s))]
        for gi, j in enumerate(gold2sys):
            if j >= 0 and g_all[gi] and s_all[j]:
                a, b = _matched(g_all[gi], s_all[j])
                elas[bounds[gi]].correct += a
                eulas[bounds[gi]].correct += b

    def warnings(self) -> list[str]:
        out = []
        for path, n in zip((self.gold_path, self.system_path), self.skipped, strict=True):
            if n:
                out.append(f"{path}: {n} enhanced edge(s) to or from empty nodes are not "
                           "scored by ELAS and EULAS (as udeval; collapse the empty nodes "
                           "first to score them)")
        for path, lines in zip((self.gold_path, self.system_path), self.bad, strict=True):
            if lines:
                out.append(f"{path}:{lines[0]}: {len(lines)} DEPS value(s) are not "
                           "HEAD:LABEL pairs (first here); read as no enhanced edge, so "
                           "ELAS and EULAS count them missing")
        return out

"""Constituency trees to dependencies by head rules (Lin's procedure).

Lin (1995, 1998) scores a parser of any formalism by turning both the key and the
answer into dependency trees: in every constituent one child is the head, and the
lexical head of every other child depends on the lexical head of the head child.
The head child is chosen by a head table (Magerman's, Collins', Yamada and
Matsumoto's). This module holds the tables, the table-file reader, and the
conversion to CoNLL-U sentences; ``docs/convert.md`` documents the table format,
the DEPREL labels and the UPOS mapping.

Before the rules run, ``-NONE-`` elements are removed with the constituents they
leave empty, and a label's function tags and indices (``NP-SBJ-1``, ``NP=2``) are
stripped for the rule look-up; the tags still decide the DEPREL (``SBJ`` gives
``subj``, ``TMP`` gives ``mod``...). A label the table has no rule for takes the
table's default (the leftmost or rightmost child) and is counted, never an error.

A parser's failed parse, the flat ``(PARSE-FAILED (X w1) ...)`` that ``parse`` writes, is
no constituent: it converts to a sentence without heads marked ``# parse_status =
failed``, as ``parse`` writes a failed dependency parse, so a scorer counts it as a
failure rather than scoring the default heads of an unknown label.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Literal, TextIO

from parsebench.common.errors import InputError, read_lines
from parsebench.formats.brackets import (
    FAILED_TREE,
    OPEN,
    WORD,
    Tree,
    parse_tree,
    read_tree_texts,
)
from parsebench.formats.conllu import NO_HEAD, Sentence

Direction = Literal["left", "right", "leftdis", "rightdis"]
DIRECTIONS: tuple[Direction, ...] = ("left", "right", "leftdis", "rightdis")
BUILTIN_TABLES = ("collins", "penn2malt")

NONE_TAG = "-NONE-"
ROOT_LABELS = frozenset({"", "ROOT", "TOP", "S1", "VROOT"})
"""Labels of an outer bracket that is no constituent (``( (S ...) )``)."""

PUNCT_TAGS = frozenset({",", ".", ":", "``", "''", "-LRB-", "-RRB-", "HYPH", "NFP", "#"})
"""Penn Treebank tags of punctuation: their words get the DEPREL ``punct``."""

UPOS_OF_XPOS: dict[str, str] = {
    "NN": "NOUN", "NNS": "NOUN", "NNP": "PROPN", "NNPS": "PROPN",
    "VB": "VERB", "VBD": "VERB", "VBG": "VERB", "VBN": "VERB", "VBP": "VERB",
    "VBZ": "VERB", "MD": "AUX", "JJ": "ADJ", "JJR": "ADJ", "JJS": "ADJ",
    "RB": "ADV", "RBR": "ADV", "RBS": "ADV", "WRB": "ADV", "IN": "ADP", "RP": "ADP",
    "TO": "PART", "POS": "PART", "DT": "DET", "PDT": "DET", "WDT": "DET",
    "PRP": "PRON", "PRP$": "PRON", "WP": "PRON", "WP$": "PRON", "EX": "PRON",
    "CD": "NUM", "CC": "CCONJ", "UH": "INTJ", "SYM": "SYM", "$": "SYM",
    "FW": "X", "LS": "X", "ADD": "X", "AFX": "ADJ", "GW": "X", "XX": "X",
}
"""Penn Treebank tag -> Universal POS, as the UD English treebanks map them (EWT's
conversion); punctuation tags give PUNCT, any other tag X."""

ADVERBIAL_TAGS = frozenset({"ADV", "VOC", "BNF", "DIR", "EXT", "LOC", "MNR", "PRP", "TMP"})
COMPLEMENT_TAGS = frozenset({"PRD", "CLR", "DTV", "PUT"})
CLAUSES = frozenset({"S", "SQ", "SINV", "SBARQ"})
CLAUSAL_COMPLEMENTS = frozenset({"S", "SBAR", "SQ", "SBARQ", "SINV", "VP"})
SPEC_TAGS = frozenset({"DT", "PDT", "WDT", "PRP$", "WP$"})
DEPRELS = ("root", "punct", "subj", "obj", "comp", "spec", "cc", "conj", "mod")


def upos_of(xpos: str) -> str:
    if xpos in PUNCT_TAGS:
        return "PUNCT"
    return UPOS_OF_XPOS.get(xpos, "X")


def split_label(label: str) -> tuple[str, frozenset[str]]:
    """``NP-SBJ-1`` -> (``NP``, {``SBJ``}); ``NP=2`` -> (``NP``, {}); ``-LRB-``,
    ``-NONE-`` stay whole."""
    if len(label) > 1 and label.startswith("-") and label.endswith("-"):
        return label, frozenset()
    cut = len(label)
    for i in range(1, len(label)):
        if label[i] in "-=":
            cut = i
            break
    base, rest = label[:cut], label[cut:]
    tags = [t for t in rest.replace("=", "-").split("-") if t and not t.isdigit()]
    return base, frozenset(tags)


# ---------------------------------------------------------------- tables


@dataclass(frozen=True, slots=True)
class Search:
    """One line of a table: a direction and the categories it looks for."""

    direction: Direction
    categories: tuple[str, ...]
    line: int = 0

    def describe(self) -> str:
        return " ".join((self.direction, *self.categories))


@dataclass
class HeadTable:
    name: str
    rules: dict[str, list[Search]] = field(default_factory=dict)
    default: Literal["left", "right"] = "left"
    np_rule: bool = False
    """Collins' special rule for NP (and NX) instead of the table's lines."""
    coordination: bool = False
    """Collins' coordination rule: a head right after a CC moves to the conjunct before it."""
    skip_punct: bool = False
    """Punctuation children never head a constituent that has another child."""

    def head_child(self, base: str, labels: Sequence[str]) -> tuple[int, str, bool]:
        """(index of the head child, which rule chose it, whether the label had no rule).
        LABELS are the children's labels, stripped of function tags."""
        if self.skip_punct:
            keep = [i for i, x in enumerate(labels) if x not in PUNCT_TAGS]
            if keep and len(keep) < len(labels):
                h, why, known = self.head_child(base, [labels[i] for i in keep])
                return keep[h], why + " (punctuation skipped)", known
        if self.np_rule and base in ("NP", "NX"):
            h, why = collins_np(labels)
            known = True
        elif base in self.rules:
            h, why = _search(self.rules[base], labels)
            known = True
        else:
            h = 0 if self.default == "left" else len(labels) - 1
            why = f"default {self.default} (no rule for {base or 'an unlabeled node'})"
            known = False
        if self.coordination and h >= 2 and labels[h - 1] == "CC":
            why += f"; coordination: child {h + 1} follows CC, child {h - 1} heads"
            h -= 2
        return h, why, known


def _search(lines: Sequence[Search], labels: Sequence[str]) -> tuple[int, str]:
    n = len(labels)
    for s in lines:
        order = range(n) if s.direction in ("left", "leftdis") else range(n - 1, -1, -1)
        if not s.categories:
            i = order[0]
            return i, f"{s.describe()}: {'first' if i == 0 else 'last'} child"
        if s.direction in ("left", "right"):
            for cat in s.categories:
                for i in order:
                    if labels[i] == cat:
                        return i, f"{s.describe()}: found {cat}"
        else:
            wanted = set(s.categories)
            for i in order:
                if labels[i] in wanted:
                    return i, f"{s.describe()}: found {labels[i]}"
    first = lines[0].direction
    i = 0 if first in ("left", "leftdis") else n - 1
    return i, f"{lines[0].describe()}: none found, {'first' if i == 0 else 'last'} child"


_NOUNS = frozenset({"NN", "NNP", "NNPS", "NNS", "NX", "POS", "JJR"})


def collins_np(labels: Sequence[str]) -> tuple[int, str]:
    """Collins (1999, Appendix A) for NPs: the last child if it is POS; else from the
    right the first NN NNP NNPS NNS NX POS JJR; else from the left the first NP; else
    from the right the first $ ADJP PRN; then CD; then JJ JJS RB QP; else the last
    child."""
    n = len(labels)
    if labels[-1] == "POS":
        return n - 1, "NP rule: last child is POS"
    steps: list[tuple[str, frozenset[str], bool]] = [
        ("NN NNP NNPS NNS NX POS JJR", _NOUNS, True),
        ("NP", frozenset({"NP"}), False),
        ("$ ADJP PRN", frozenset({"$", "ADJP", "PRN"}), True),
        ("CD", frozenset({"CD"}), True),
        ("JJ JJS RB QP", frozenset({"JJ", "JJS", "RB", "QP"}), True),
    ]
    for text, cats, from_right in steps:
        order = range(n - 1, -1, -1) if from_right else range(n)
        for i in order:
            if labels[i] in cats:
                side = "right" if from_right else "left"
                return i, f"NP rule: from the {side}, first of {text}: {labels[i]}"
    return n - 1, "NP rule: none found, last child"


def parse_table(lines: Iterable[str], path: str, name: str) -> HeadTable:
    """A table from its file's lines (format in docs/convert.md)."""
    table = HeadTable(name)
    for n, raw in enumerate(lines, 1):
        text = raw.split("#", 1)[0].strip() if not raw.lstrip().startswith("#") else ""
        if not text:
            continue
        parts = text.split()
        if parts[0].startswith("%"):
            key, args = parts[0][1:], parts[1:]
            if key == "default" and len(args) == 1 and args[0] in ("left", "right"):
                table.default = "left" if args[0] == "left" else "right"
            elif key == "np" and args in (["collins"], ["table"]):
                table.np_rule = args[0] == "collins"
            elif key == "coordination" and args in (["collins"], ["none"]):
                table.coordination = args[0] == "collins"
            elif key == "punctuation" and args in (["skip"], ["keep"]):
                table.skip_punct = args[0] == "skip"
            else:
                raise InputError(f"bad option {text!r}: expected %default left|right, "
                                 "%np collins|table, %coordination collins|none or "
                                 "%punctuation skip|keep", path, n)
            continue
        if len(parts) < 2 or parts[1] not in DIRECTIONS:
            raise InputError(f"bad rule {text!r}: expected LABEL DIRECTION CATEGORY..., "
                             f"DIRECTION one of {', '.join(DIRECTIONS)}", path, n)
        direction: Direction = parts[1]
        table.rules.setdefault(parts[0], []).append(Search(direction, tuple(parts[2:]), n))
    return table


def load_table(spec: str | os.PathLike[str]) -> HeadTable:
    """A built-in table by name (``collins``, ``penn2malt``) or a table file."""
    if str(spec) in BUILTIN_TABLES:
        res = resources.files("parsebench") / "data" / "headrules" / f"{spec}.txt"
        return parse_table(res.read_text(encoding="utf-8").splitlines(), str(spec), str(spec))
    path = Path(spec)
    if not path.exists():
        raise InputError(f"no such file, and no built-in head table of this name "
                         f"(built in: {', '.join(BUILTIN_TABLES)})", path)
    return parse_table(read_lines(path), str(path), path.name)


# ---------------------------------------------------------------- conversion


@dataclass(slots=True)
class _Node:
    label: str
    base: str
    tags: frozenset[str]
    children: list[_Node]
    word: int = -1
    """The word's index for a preterminal, -1 for a phrase."""
    head: int = -1
    """The lexical head's word index."""
    flat: bool = False
    """Several words under one tag: the last one heads."""
    first: int = -1
    last: int = -1
    """The span's first and last word (for the trace)."""


@dataclass
class Conversion:
    """What converting many trees found: unknown labels and how often they occurred."""

    unknown: Counter[str] = field(default_factory=Counter)
    sentences: int = 0
    failed: Counter[str] = field(default_factory=Counter)
    """Failed parses (PARSE-FAILED trees) a file."""

    def warnings(self, but: str | None = None) -> list[str]:
        """What to tell the user; the failures of file BUT are left to its scorer."""
        out = [f"{path}: {n} failed parse{'s' if n != 1 else ''} ({FAILED_TREE} trees): "
               "written without heads, marked '# parse_status = failed'"
               for path, n in self.failed.items() if path != but]
        if not self.unknown:
            return out
        labels = ", ".join(f"{k or '(unlabeled)'} {v}" for k, v in
                           sorted(self.unknown.items(), key=lambda kv: (-kv[1], kv[0])))
        total = sum(self.unknown.values())
        return [*out, f"{total} constituent{'s' if total != 1 else ''} had a label the "
                f"head table has no rule for and took the default head: {labels}"]


def _build(tree: Tree, forms: list[str], tags: list[str], path: str, line: int
           ) -> _Node | None:
    """The tree without -NONE- elements and the constituents they leave empty, its
    words numbered; None when nothing is left. Without recursion: a broken parser's
    tree nested 100,000 levels deep converts like any other."""
    stack: list[list[_Node]] = []
    result: _Node | None = None
    for kind, node, word in tree.events():
        if kind == OPEN:
            stack.append([])
        elif kind == WORD:
            if not node.is_preterminal():
                raise InputError(f"word {word!r} has no part-of-speech tag (no preterminal "
                                 "above it): head rules need tagged trees", path, line)
            if node.label == NONE_TAG:
                continue
            forms.append(word)
            tags.append(node.label)
            stack[-1].append(_Node(node.label, node.label, frozenset(), [], len(forms) - 1))
        else:
            kids = stack.pop()
            built: _Node | None
            if not kids:
                built = None
            elif node.is_preterminal():
                # several words under one tag: a flat constituent whose last word heads
                built = kids[0] if len(kids) == 1 else _Node(node.label, node.label,
                                                             frozenset(), kids, flat=True)
            else:
                base, ftags = split_label(node.label)
                built = _Node(node.label, base, ftags, kids)
            if stack:
                if built is not None:
                    stack[-1].append(built)
            else:
                result = built
    return result


def _strip_root(tree: Tree) -> Tree:
    while tree.label in ROOT_LABELS and len(tree.children) == 1 \
            and isinstance(tree.children[0], Tree):
        tree = tree.children[0]
    return tree


def _deprel(parent: _Node, head_child: int, i: int, kids: Sequence[_Node],
            xpos: str, coordinated: bool) -> str:
    """The relation of child I to the head child; COORDINATED: some child is CC or CONJP
    (looked at once a constituent: a child at a time made 20,000 children take 67 s)."""
    dep = kids[i]
    if xpos in PUNCT_TAGS:
        return "punct"
    if "SBJ" in dep.tags:
        return "subj"
    if dep.tags & ADVERBIAL_TAGS:
        return "mod"
    if dep.tags & COMPLEMENT_TAGS:
        return "comp"
    if dep.base in ("CC", "CONJP"):
        return "cc"
    head = kids[head_child]
    if coordinated and dep.base == head.base:
        return "conj"
    right = i > head_child
    if parent.base in CLAUSES and dep.base == "NP" and not right:
        return "subj"
    if parent.base == "VP" and right:
        if dep.base == "NP":
            return "obj"
        if dep.base in CLAUSAL_COMPLEMENTS:
            return "comp"
    if parent.base in ("PP", "WHPP") and right and dep.base not in ("ADVP", "RB"):
        return "comp"
    if dep.base in SPEC_TAGS or (dep.base in ("NP", "WHNP") and dep.children
                                 and dep.children[-1].base == "POS"):
        return "spec"
    return "mod"


def convert_tree(tree: Tree, table: HeadTable, conversion: Conversion | None = None,
                 trace: list[str] | None = None, path: str = "<input>", line: int = 0,
                 sent_id: str | None = None) -> Sentence | None:
    """One tree as a CoNLL-U sentence (None when no word is left: a tree of empty
    elements only). Unknown labels are counted in CONVERSION; TRACE gets one line a
    constituent: its span, label and the rule that chose its head."""
    forms: list[str] = []
    tags: list[str] = []
    top = _strip_root(tree)
    root = _build(top, forms, tags, path, line)
    if root is None:
        return None
    n = len(forms)
    conv = conversion if conversion is not None else Conversion()
    conv.sentences += 1
    if top.label == FAILED_TREE:
        conv.failed[path] += 1
        if trace is not None:
            trace.append(f"{sent_id or ''}\t1-{n}\t{FAILED_TREE}\t-\t-\t-\t"
                         "the parser failed: no heads")
        return _failed(forms, line, sent_id)
    heads = [0] * n
    deprels = ["root"] * n
    # post-order without recursion: treebank trees can be deep
    stack: list[tuple[_Node, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        if node.word >= 0:
            node.head = node.first = node.last = node.word
            continue
        if not done:
            stack.append((node, True))
            stack.extend((c, False) for c in reversed(node.children))
            continue
        kids = node.children
        labels = [k.base for k in kids]
        if len(kids) == 1:
            h, why, known = 0, "only child", True
        elif node.flat:
            h, why, known = len(kids) - 1, "several words under one tag: the last", True
        else:
            h, why, known = table.head_child(node.base, labels)
        if not known:
            conv.unknown[node.base] += 1
        node.head = kids[h].head
        coordinated = any(k.base in ("CC", "CONJP") for k in kids)
        for i, k in enumerate(kids):
            if i != h:
                heads[k.head] = node.head + 1
                deprels[k.head] = _deprel(node, h, i, kids, tags[k.head], coordinated)
        if trace is not None:
            # a constituent's span from its first and last child's, bottom-up: walking
            # down to its words made a tree 20,000 levels deep take 71.6 s
            node.first, node.last = kids[0].first, kids[-1].last
            first, last = node.first, node.last
            trace.append(f"{sent_id or ''}\t{first + 1}-{last + 1}\t{node.label or '-'}\t"
                         f"{' '.join(labels)}\t{h + 1}\t{forms[node.head]}\t{why}")
    heads[root.head] = 0
    deprels[root.head] = "root"
    for i in range(n):
        if heads[i] != 0 and tags[i] in PUNCT_TAGS:
            deprels[i] = "punct"
    sent = Sentence(
        forms=forms, lemmas=["_"] * n, upos=[upos_of(t) for t in tags], xpos=tags,
        feats=["_"] * n, heads=heads, deprels=deprels, deps=["_"] * n, misc=["_"] * n,
        line=line)
    if sent_id is not None:
        sent.comments.append(f"# sent_id = {sent_id}")
    sent.comments.append(f"# text = {' '.join(forms)}")
    return sent


def _failed(forms: list[str], line: int, sent_id: str | None) -> Sentence:
    """A failed parse's words, with no head, tag or relation, marked as ``parse`` marks
    a dependency parser's failure."""
    n = len(forms)
    sent = Sentence(
        forms=forms, lemmas=["_"] * n, upos=["_"] * n, xpos=["_"] * n, feats=["_"] * n,
        heads=[NO_HEAD] * n, deprels=["_"] * n, deps=["_"] * n, misc=["_"] * n, line=line)
    if sent_id is not None:
        sent.comments.append(f"# sent_id = {sent_id}")
    sent.comments += [f"# text = {' '.join(forms)}", "# parse_status = failed",
                      f"# parse_error = the parser's output is the {FAILED_TREE} tree"]
    return sent


TRACE_HEADER = "sentence\twords\tlabel\tchildren\thead_child\thead_word\trule\n"


def read_converted(path: str | os.PathLike[str], table: HeadTable, conversion: Conversion,
                   trace: TextIO | None = None) -> Iterator[Sentence]:
    """Read a file of bracketed trees and convert it (the whole file is checked first,
    so a bad tree anywhere is an error before any sentence)."""
    texts = read_tree_texts(path)
    if not any(t.text.strip() for t in texts):
        raise InputError("no bracketed trees", path)
    trees = [(t, parse_tree(t.text, str(path), t.line)) for t in texts if t.text.strip()]
    stem = Path(path).stem
    for number, (t, tree) in enumerate(trees, 1):
        lines: list[str] | None = [] if trace is not None else None
        sent = convert_tree(tree, table, conversion, lines, str(path), t.line,
                            f"{stem}-{number}")
        if trace is not None and lines:
            trace.write("".join(x + "\n" for x in lines))
        if sent is not None:
            yield sent


def looks_like_trees(path: str | os.PathLike[str]) -> bool:
    """A file whose first non-blank, non-comment character opens a bracket."""
    if str(path).endswith(".conllu"):
        return False
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            for ln in fh:
                s = ln.strip()
                if s and not s.startswith("#"):
                    return s.startswith("(")
    except OSError:
        return False
    return False

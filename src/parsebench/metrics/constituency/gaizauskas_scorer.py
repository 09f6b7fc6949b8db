"""Flatter keys (Gaizauskas, Hepple & Huyck): rule-based flattening, recall and conformance.

Flattening strips ``-``/``=`` extensions from phrasal labels, then repeats
until nothing changes: apply the rules bottom-up (the first rule in file order
that matches a node, at most one per node per pass), remove empty elements
(``-NONE-``) and nodes left empty, remove unary nodes. Rules, one a line:

    (X Y1 ... Yi^ ... Yn)   remove child i of X (its children are promoted)
    (X^ Y1 ... Yn)          remove X in that context
    X^                      remove X everywhere

The root is never removed. A rule's child list must equal the node's whole
child label sequence. Scoring is on unlabeled spans of phrasal nodes, each
tree counting its distinct spans; a key span is violated when a response span
crosses it. Written here because no library implements this scheme.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from parsebench.common.errors import InputError, read_lines
from parsebench.formats.brackets import OPEN, WORD, Tree, TreeText, parse_tree
from parsebench.metrics.constituency.gaizauskas_records import FlatEval, FlatScores
from parsebench.metrics.core.counts import Additive
from parsebench.metrics.core.pairs import PairMethod
from parsebench.model.parses import Parse

NONE_TAG = "-NONE-"


@dataclass(frozen=True)
class Rule:
    parent: str
    children: tuple[str, ...] | None
    """None for the ``X^`` form."""
    target: int
    """Index of the marked child, or -1 when the parent itself is removed."""
    text: str


def parse_rule(text: str, path: str = "<rules>", line: int = 0) -> Rule:
    t = text.strip()
    if not t.startswith("("):
        if not t.endswith("^") or len(t) < 2 or any(c in t for c in " ()"):
            raise InputError(f"bad rule {t!r}: expected X^, (X^ Y1 ... Yn) "
                             "or (X Y1 ... Yi^ ... Yn)", path, line)
        return Rule(t[:-1], None, -1, t)
    if not t.endswith(")") or t.count("(") != 1 or t.count(")") != 1:
        raise InputError(f"bad rule {t!r}: a rule is one local tree in parentheses", path, line)
    parts = t[1:-1].split()
    if len(parts) < 2:
        raise InputError(f"bad rule {t!r}: a local tree needs a parent and children", path, line)
    marked = [i for i, p in enumerate(parts) if p.endswith("^")]
    if len(marked) != 1 or parts[marked[0]] == "^":
        raise InputError(f"bad rule {t!r}: exactly one label must be marked with ^", path, line)
    labels = tuple(p.rstrip("^") for p in parts)
    target = marked[0] - 1
    return Rule(labels[0], labels[1:], target, t)


def read_rules(path: str | os.PathLike[str]) -> list[Rule]:
    rules = []
    for n, line in enumerate(read_lines(path), 1):
        text = line.split("#", 1)[0].strip()
        if text:
            rules.append(parse_rule(text, str(path), n))
    return rules


def strip_label(label: str) -> str:
    """``NP-SBJ-1`` -> ``NP``, ``NP=2`` -> ``NP``; ``-NONE-`` and ``-LRB-`` stay."""
    if len(label) > 1 and label.startswith("-") and label.endswith("-"):
        return label
    for i in range(1, len(label)):
        if label[i] in "-=":
            return label[:i]
    return label


def _label(c: Tree | str) -> str | None:
    return c.label if isinstance(c, Tree) else None


def _strip_labels(node: Tree) -> None:
    for n in node.nodes():
        if n.is_phrasal():
            n.label = strip_label(n.label)


# The rewrites below go bottom-up over Tree.postorder() instead of recursing, so that a
# tree nested thousands of levels deep is flattened like any other.

def _apply_rules(root: Tree, rules: Sequence[Rule]) -> bool:
    """Rewrite bottom-up; whether anything changed. A node's replacement in its parent
    is the node itself, or its children when a rule removes it."""
    changed = False
    repl: dict[int, list[Tree | str]] = {}
    for node in root.postorder():
        if not node.is_phrasal() and node is not root:
            continue
        kids: list[Tree | str] = []
        for c in node.children:
            if isinstance(c, Tree) and id(c) in repl:
                kids.extend(repl.pop(id(c)))
            else:
                kids.append(c)
        node.children = kids
        repl[id(node)], ch = _rule_result(node, rules, node is root)
        changed |= ch
    return changed


def _rule_result(node: Tree, rules: Sequence[Rule], is_root: bool
                 ) -> tuple[list[Tree | str], bool]:
    kids = node.children
    labels = tuple(_label(c) for c in kids)
    for rule in rules:
        if rule.parent != node.label:
            continue
        if rule.children is None:
            if not is_root:
                return list(node.children), True
            continue
        if labels != rule.children:
            continue
        if rule.target < 0:
            if is_root:
                continue
            return list(node.children), True
        child = kids[rule.target]
        if not isinstance(child, Tree) or not child.is_phrasal():
            continue
        node.children = kids[:rule.target] + child.children + kids[rule.target + 1:]
        return [node], True
    return [node], False


def _remove_empty(root: Tree) -> bool:
    """Drop -NONE- preterminals and the nodes they leave without children."""
    changed = False
    for node in root.postorder():
        kids: list[Tree | str] = []
        for c in node.children:
            if isinstance(c, Tree) and ((c.label == NONE_TAG and c.is_preterminal())
                                        or not c.children):
                changed = True
                continue
            kids.append(c)
        node.children = kids
    return changed


def _remove_unary(root: Tree) -> tuple[Tree, bool]:
    """Replace every non-root node that has exactly one child node by that child."""
    changed = False
    repl: dict[int, Tree] = {}
    for node in root.postorder():
        node.children = [repl.pop(id(c), c) if isinstance(c, Tree) else c
                         for c in node.children]
        if node is not root and len(node.children) == 1 and isinstance(node.children[0],
                                                                       Tree):
            repl[id(node)] = node.children[0]
            changed = True
    return root, changed


def flatten_tree(tree: Tree, rules: Sequence[Rule], max_passes: int = 1000) -> Tree:
    """The flattened copy of TREE (the input is left alone)."""
    root = tree.copy()
    _strip_labels(root)
    for _ in range(max_passes):
        c1 = _apply_rules(root, rules)
        c2 = _remove_empty(root)
        root, c3 = _remove_unary(root)
        if not (c1 or c2 or c3):
            return root
    raise RuntimeError("flattening did not reach a fixpoint")  # pragma: no cover


def spans(tree: Tree, labels: frozenset[str] | None = None,
          max_depth: int | None = None) -> set[tuple[int, int]]:
    """Distinct [start, end) spans of phrasal nodes, -NONE- words not counted.

    LABELS and MAX_DEPTH filter the constituents (to configure a key); the
    depth of the root is 0.
    """
    out: set[tuple[int, int]] = set()
    starts: list[int] = []
    pos = 0
    for kind, node, _ in tree.events():
        if kind == OPEN:
            starts.append(pos)
        elif kind == WORD:
            if node.label != NONE_TAG:
                pos += 1
        else:
            start = starts.pop()
            if node.is_phrasal() and pos > start and (labels is None or node.label in labels) \
                    and (max_depth is None or len(starts) <= max_depth):
                out.add((start, pos))
    return out


@dataclass
class FlatCounts(Additive):
    key: int = 0
    response: int = 0
    matched: int = 0
    violated: int = 0

    @property
    def recall(self) -> float | None:
        return self.matched / self.key if self.key else None

    @property
    def precision(self) -> float | None:
        return self.matched / self.response if self.response else None

    @property
    def conformance(self) -> float | None:
        return (self.key - self.violated) / self.key if self.key else None

    def scores(self) -> FlatScores:
        """The counts and their shares, as the JSON names them."""
        return FlatScores(self.key, self.response, self.matched, self.violated,
                          self.recall, self.precision, self.conformance)

    def as_dict(self) -> dict[str, float | int | None]:
        return self.scores().to_dict()

    def command(self, labels: frozenset[str] | None = None,
                max_depth: int | None = None) -> FlatEval:
        """``eval flat``'s object: these counts' figures, signed with the key's selection
        (LABELS, MAX_DEPTH)."""
        from parsebench.common.signature import signature

        sig = signature(method="flat-conformance",
                        categories=sorted(labels) if labels else None, max_depth=max_depth)
        return FlatEval(**vars(self.scores()), signature=sig)


def score_spans(key: set[tuple[int, int]], response: set[tuple[int, int]]) -> FlatCounts:
    violated = 0
    for a, b in key:
        for c, d in response:
            if a < c < b < d or c < a < d < b:
                violated += 1
                break
    return FlatCounts(len(key), len(response), len(key & response), violated)


def _content_words(tree: Tree) -> list[str]:
    return [w for tag, w in tree.leaves() if tag != NONE_TAG]


def score_flat(key: Sequence[TreeText], response: Sequence[TreeText], key_path: str,
               response_path: str, labels: frozenset[str] | None = None,
               max_depth: int | None = None) -> tuple[FlatCounts, list[FlatCounts]]:
    keys = [t for t in key if t.text.strip()]
    resps = [t for t in response if t.text.strip()]
    if len(keys) != len(resps):
        raise InputError(f"{len(resps)} trees, but the key {key_path} has {len(keys)}",
                         response_path)
    total = FlatCounts()
    rows = []
    for k, r in zip(keys, resps, strict=True):
        kt = parse_tree(k.text, key_path, k.line)
        rt = parse_tree(r.text, response_path, r.line)
        kw, rw = _content_words(kt), _content_words(rt)
        if kw != rw:
            raise InputError(f"the words differ from the key's ({key_path}:{k.line}): "
                             f"{len(rw)} words against {len(kw)}", response_path, r.line)
        c = score_spans(spans(kt, labels, max_depth), spans(rt))
        rows.append(c)
        total.add(c)
    return total, rows


def percent_half_up(x: float) -> int:
    """A fraction as a whole percentage rounded half up, as the paper's Table 1 prints it."""
    from decimal import ROUND_HALF_UP, Decimal
    return int((Decimal(repr(x)) * 100).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def _clean_key_stats(exp: Any) -> Callable[[Parse, Parse], tuple[int, int, int, int]]:
    """(key, response, matched, violated) of a noisy parse's spans against the clean
    parse made a flat key (the experiment's flattening rules, else its unlabeled spans);
    a clean parse that failed gives no key and counts nothing."""
    own = exp.setting("flat").rules
    rules = read_rules(own) if own else []

    def stats(clean: Parse, noisy: Parse) -> tuple[int, int, int, int]:
        if clean.failed or clean.tree is None:
            return 0, 0, 0, 0
        key = spans(flatten_tree(clean.tree, rules) if rules else clean.tree)
        resp = set() if noisy.failed or noisy.tree is None else spans(noisy.tree)
        k = score_spans(key, resp)
        return k.key, k.response, k.matched, k.violated
    return stats


CLEAN_KEY = PairMethod(
    "flat", "Gaizauskas, Hepple & Huyck", "tree", ("key", "response", "matched", "violated"),
    _clean_key_stats, lambda s: FlatCounts(*(int(x) for x in s)).as_dict(),
    (("recall", "flat-recall"), ("conformance", "flat-conformance")),
    lambda exp, level: {"method": "gaizauskas-flat-clean-key", "level": level,
                        "rules": str(exp.setting("flat").rules)
                        if exp.setting("flat").rules else None})
"""Gaizauskas et al.'s recall and conformance of each noisy parse against the clean
parse made a flat key."""


def file_stats(metric: Any, key: str | os.PathLike[str],
               response: str | os.PathLike[str], *_: Any) -> Any:
    """The flat key's statistics of RESPONSE's trees against KEY's, one row a sentence:
    (key, response, matched, violated); what ``compare`` resamples."""
    import numpy as np

    from parsebench.formats.brackets import read_tree_texts

    per = score_flat(read_tree_texts(key), read_tree_texts(response), str(key),
                     str(response))[1]
    return np.array([(c.key, c.response, c.matched, c.violated) for c in per],
                    dtype=np.float64).reshape(-1, 4)

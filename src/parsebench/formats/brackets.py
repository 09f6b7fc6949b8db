"""Bracketed (Penn Treebank style) trees: one per line, or spread over lines as in .mrg files.

A file whose every line is balanced is read line by line, as EVALB reads it
(a blank line is then an empty sentence); otherwise lines are grouped into
trees by bracket balance and blank lines only separate them. A file whose every
line starts with ``(`` is one tree a line even when some trees do not balance (a
parser's output cut short): the scorer treats those lines as EVALB does.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import repeat
from typing import NamedTuple

from parsebench.common.errors import InputError, read_lines


class TreeText(NamedTuple):
    """One tree's text (a NamedTuple: a million-word file makes 65,000 of them)."""

    text: str
    line: int
    """Line number where the tree starts in its file."""


def split_trees(lines: list[str], path: str) -> list[TreeText]:
    first = next(((n, ln) for n, ln in enumerate(lines, 1) if ln.strip()), None)
    if first is not None and not first[1].lstrip().startswith("("):
        raise InputError("not bracketed trees: a tree starts with '(' (is this CoNLL-U or "
                         "plain text?)", path, first[0])
    if _starts_every_line(lines):  # the common case, tested first: no bracket counted
        return _one_per_line(lines)
    opens = list(map(str.count, lines, repeat("(")))
    closes = list(map(str.count, lines, repeat(")")))
    if opens == closes:
        return _one_per_line(lines)
    changes = [a - b for a, b in zip(opens, closes, strict=True)]
    trees: list[TreeText] = []
    depth = 0
    buf: list[str] = []
    start = 0
    for n, (ln, d) in enumerate(zip(lines, changes, strict=True), 1):
        if depth == 0 and not ln.strip():
            continue
        if depth == 0:
            start = n
        elif ln.startswith("("):
            # a tree starts at the margin before the last one closed: one tree a line
            # with an unbalanced line, which EVALB scores as an error sentence and reads on
            return _one_per_line(lines)
        buf.append(ln)
        depth += d
        if depth < 0:
            raise InputError("unbalanced brackets: too many ')'", path, n)
        if depth == 0:
            trees.append(TreeText("\n".join(buf), start))
            buf = []
    if depth:
        raise InputError("unbalanced brackets: tree not closed at end of file", path, start)
    return trees


def _one_per_line(lines: list[str]) -> list[TreeText]:
    return list(map(TreeText, lines, range(1, len(lines) + 1)))


def _starts_every_line(lines: list[str]) -> bool:
    """Every non-blank line opens a tree at its first character: a file of one tree a
    line, as EVALB reads every file, even where some trees are cut short or have a
    ``)`` too many. The later lines of a multi-line tree are indented or start with
    ``)``, so a multi-line file never passes this test."""
    return all(ln.startswith("(") for ln in lines if ln.strip())


def read_tree_texts(path: str | os.PathLike[str]) -> list[TreeText]:
    return split_trees(read_lines(path), str(path))


@dataclass(slots=True)
class Tree:
    """A node: a label and children, each a node or a word."""

    label: str
    children: list[Tree | str] = field(default_factory=list)

    def is_preterminal(self) -> bool:
        return bool(self.children) and all(isinstance(c, str) for c in self.children)

    def is_phrasal(self) -> bool:
        return any(isinstance(c, Tree) for c in self.children)

    def events(self) -> Iterator[tuple[int, Tree, str]]:
        """The tree in document order as (OPEN, node, ""), (WORD, parent, word) and
        (CLOSE, node, ""), without recursion: a tree nested 100,000 levels deep (a
        broken parser's output) is read like any other."""
        stack: list[tuple[Tree, Iterator[Tree | str]]] = [(self, iter(self.children))]
        yield OPEN, self, ""
        while stack:
            node, it = stack[-1]
            for c in it:
                if isinstance(c, str):
                    yield WORD, node, c
                else:
                    yield OPEN, c, ""
                    stack.append((c, iter(c.children)))
                    break
            else:
                stack.pop()
                yield CLOSE, node, ""

    def nodes(self) -> Iterator[Tree]:
        """Every node, parents before children."""
        return (n for kind, n, _ in self.events() if kind == OPEN)

    def postorder(self) -> list[Tree]:
        """Every node, children before parents."""
        return [n for kind, n, _ in self.events() if kind == CLOSE]

    def words(self) -> list[str]:
        return [w for kind, _, w in self.events() if kind == WORD]

    def leaves(self) -> list[tuple[str, str]]:
        """(tag, word) of every word, in order."""
        return [(n.label, w) for kind, n, w in self.events() if kind == WORD]

    def __str__(self) -> str:
        out: list[str] = []
        for kind, node, word in self.events():
            if kind == OPEN:
                if out:
                    out.append(" ")
                out.append("(" + node.label if node.children else f"({node.label})")
            elif kind == WORD:
                out.append(" " + escape_word(word))
            elif node.children:
                out.append(")")
        return "".join(out)

    def copy(self) -> Tree:
        root = Tree(self.label)
        made: list[Tree] = []
        for kind, node, word in self.events():
            if kind == OPEN:
                new = root if not made else Tree(node.label)
                if made:
                    made[-1].children.append(new)
                made.append(new)
            elif kind == WORD:
                made[-1].children.append(word)
            else:
                made.pop()
        return root


OPEN, WORD, CLOSE = 0, 1, 2

FAILED_TREE = "PARSE-FAILED"
"""Root label of the flat tree written for a sentence the parser failed on."""

_ESCAPES = (("(", "-LRB-"), (")", "-RRB-"))
"""The Penn Treebank's names for the brackets that would end a word's node."""


def escape_word(word: str) -> str:
    """WORD as a tree's leaf: ``(`` and ``)`` as -LRB- and -RRB-, so ``(X ()`` is never
    written (it would not read back)."""
    for raw, name in _ESCAPES:
        word = word.replace(raw, name)
    return word


def unescape_word(word: str) -> str:
    """A leaf's word as the text had it: -LRB- and -RRB- back to brackets."""
    for raw, name in _ESCAPES:
        word = word.replace(name, raw)
    return word


_TOK = re.compile(r"\(|\)|[^\s()]+")


def parse_tree(text: str, path: str = "<input>", line: int = 0) -> Tree:
    """Parse one bracketed tree; ``( (S ...) )`` gives a root with the empty label."""
    stack: list[Tree] = []
    root: Tree | None = None
    expect_label = False
    for m in _TOK.finditer(text):
        tok = m.group()
        if tok == "(":
            node = Tree("")
            if root is not None and not stack:
                raise InputError("more than one tree on this line", path, line)
            if stack:
                stack[-1].children.append(node)
            else:
                root = node
            stack.append(node)
            nxt = text[m.end():m.end() + 1]
            expect_label = bool(nxt) and not nxt.isspace() and nxt not in "()"
        elif tok == ")":
            if not stack:
                raise InputError("unbalanced brackets: too many ')'", path, line)
            stack.pop()
            expect_label = False
        else:
            if not stack:
                raise InputError(f"word {tok!r} outside brackets", path, line)
            if expect_label:
                stack[-1].label = tok
                expect_label = False
            else:
                stack[-1].children.append(tok)
    if stack:
        raise InputError("unbalanced brackets: too many '('", path, line)
    if root is None:
        raise InputError("no tree", path, line)
    return root


def read_trees(path: str | os.PathLike[str]) -> list[Tree]:
    """Every tree of a file; blank lines are skipped."""
    return [parse_tree(t.text, str(path), t.line) for t in read_tree_texts(path)
            if t.text.strip()]

"""Whether an answer's sentences are trees: a parse with words without a head, other than
one root, or a cycle is scored all the same, with a warning that counts such sentences and
names the first (the CoNLL 2018 script rejects the file instead).

One warning a cause: a sentence the parser failed on (``# parse_status = failed``, or
the PARSE-FAILED tree converted) is counted as a failure, not as a fragment, and a file
without a single head (a tagger's output, which the scorer names itself) gets no
fragment warning at all.

The look at one sentence is :func:`faults`; where the accelerator of eval deps was
built (:mod:`parsebench.metrics.dependency.stretch`) its ``tree_faults`` does it in C.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from parsebench.formats.conllu import NO_HEAD, Sentence

FRAGMENT = 1
"""Some word has no head."""
MULTI_ROOT = 2
"""Not exactly one root (in a sentence where every word has a head)."""
CYCLE = 4
"""Following the heads can loop."""

_tree_faults: Callable[[list[int]], int] | None
_head_summary: Callable[[list[int]], tuple[int, int, bool, bool] | None] | None
try:
    from parsebench.metrics.dependency._deps_fast import head_summary as _head_summary
    from parsebench.metrics.dependency._deps_fast import tree_faults as _tree_faults
except ImportError:  # built without a C compiler
    _tree_faults = _head_summary = None


class TreeCheck:
    """Counts the answer sentences that are not trees, one sentence at a time; with
    MULTIPLE_ROOTS_OKAY (udeval's option) several roots are no fault, none still is."""

    def __init__(self, multiple_roots_okay: bool = False) -> None:
        self.fragments = self.multi_root = self.cycles = 0
        self.first: int | None = None
        self.failed = 0
        """Sentences the parser failed on: no heads, and counted as failures."""
        self.first_failed: int | None = None
        self.headed = False
        """Whether some sentence (not failed) has a head: else the file has none at all."""
        self.roots: str | None = None
        """The roots of the first sentence with several, named."""
        self.multiple_roots_okay = multiple_roots_okay

    def add(self, s: Sentence) -> None:
        got = _tree_faults(s.heads) if _tree_faults is not None else -1
        if got < 0:  # not a list of ints: looked at here
            got = faults(s.heads)
        if got & FRAGMENT:  # only here the comments are read: the common case costs nothing
            if is_failed(s):
                self.failed += 1
                if self.first_failed is None:
                    self.first_failed = s.line
                return
            if s.heads.count(NO_HEAD) < len(s.heads):
                self.headed = True
        elif s.heads:
            self.headed = True
        if got & MULTI_ROOT and s.heads.count(0) > 1:
            if self.multiple_roots_okay:
                got &= ~MULTI_ROOT
            elif self.roots is None:
                self.roots = f"{s.line}: the basic tree's roots (HEAD 0) are " + ", ".join(
                    f"{i + 1} {s.forms[i]!r} ({s.deprels[i]})"
                    for i, h in enumerate(s.heads) if h == 0)
        if got:
            self.fragments += (got & FRAGMENT) != 0
            self.multi_root += (got & MULTI_ROOT) != 0
            self.cycles += (got & CYCLE) != 0
            if self.first is None:
                self.first = s.line

    def warnings(self, path: str) -> list[str]:
        out = []
        if self.failed:
            out.append(f"{path}: {self.failed} sentence(s) the parser failed on (first at "
                       f"line {self.first_failed}): counted as failures, with no attachment")
        if self.fragments and not self.headed:
            return out  # no head anywhere: the scorer says so (a tagger's output?)
        if self.fragments:
            out.append(f"{path}: {self.fragments} sentence(s) have words without a head "
                       "(fragments)")
        if self.multi_root:
            out.append(f"{path}: {self.multi_root} sentence(s) do not have exactly one root")
        if self.cycles:
            out.append(f"{path}: {self.cycles} sentence(s) contain a cycle")
        if out and self.first is not None:
            out.append(f"{path}:{self.first}: first such sentence")
        if self.roots is not None:
            out.append(f"{path}:{self.roots} (--multiple-roots-okay if several are meant)")
        return out


def is_failed(s: Sentence) -> bool:
    """Whether S is marked as a sentence the parser failed on."""
    status = s.comment_value("parse_status")
    return status is not None and status.strip() == "failed"


def tree_warnings(sentences: Iterable[Sentence], path: str) -> list[str]:
    """Name the answer sentences that are not trees; they are scored all the same."""
    check = TreeCheck()
    for s in sentences:
        check.add(s)
    return check.warnings(path)


def faults(heads: list[int]) -> int:
    """What is wrong with a sentence's HEADS as a tree: FRAGMENT, MULTI_ROOT and CYCLE
    or'ed, 0 for a tree."""
    missing = heads.count(NO_HEAD)
    out = FRAGMENT if missing else MULTI_ROOT if heads.count(0) != 1 else 0
    return (out | CYCLE) if _has_cycle(heads) else out


def head_summary(heads: list[int]) -> tuple[int, int, bool, bool]:
    """What the validity policy asks of a sentence's HEADS: (words without a head,
    roots, whether a head is outside the sentence, whether the heads have a cycle); in C
    where it was built."""
    got = _head_summary(heads) if _head_summary is not None else None
    if got is not None:
        return got
    n = len(heads)
    return (heads.count(NO_HEAD), heads.count(0), any(h > n or h < NO_HEAD for h in heads),
            _has_cycle(heads))


def _has_cycle(heads: list[int]) -> bool:
    """Whether following heads (1-based; 0, NO_HEAD or out of range end a path) can loop.
    By pointer doubling: after r rounds each word points 2**r steps up, 0 once past the
    top, so a word still pointing somewhere after n steps is on or under a cycle (a
    few list passes a sentence, where walking every path took a word at a time)."""
    n = len(heads)
    up = [h if 0 < h <= n else 0 for h in heads]
    steps = 1
    while any(up):
        if steps >= n:
            return True
        up = [up[h - 1] if h else 0 for h in up]
        steps *= 2
    return False

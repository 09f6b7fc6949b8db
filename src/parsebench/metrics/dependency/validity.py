"""Whether each of a system's sentences is a tree, and what scoring does with one that is
not (``--invalid warn|error|zero``).

A sentence is invalid with a cycle, no root, several roots (unless several are allowed)
or a head outside it (a missing head among given ones counts as one). A sentence with no
head at all (a tagger's output, a failed parse) is not judged: its words are unattached
already. ``warn`` (the default) scores an invalid sentence as it is, with a warning;
``zero`` is the CoNLL 2018 shared task's policy, where an invalid output stayed in the
average and none of its words counted as attached; ``error`` refuses the file in one
line. Whatever the policy, a head outside the sentence (only a parse made in memory can
have one: the CoNLL-U reader refuses it) is scored as no head, so that it can never
point into another sentence.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from parsebench.common.errors import InputError
from parsebench.formats.conllu import NO_HEAD, Sentence
from parsebench.metrics.dependency.tree_checks import head_summary

POLICIES = ("warn", "error", "zero")
"""What ``--invalid`` can say; the first is the default."""


@dataclass
class Validity:
    """Counts of a system's sentences that are not trees, kept while they are scored."""

    policy: str = "warn"
    multiple_roots_okay: bool = False
    path: str = "SYSTEM"
    sentences: int = 0
    invalid: int = 0
    cycles: int = 0
    no_root: int = 0
    multiple_roots: int = 0
    bad_heads: int = 0
    outside: int = 0
    """Sentences with a head outside them (not only a missing one)."""
    first: int | None = None
    """Line of the first invalid sentence."""
    headed: bool = False
    """Whether some sentence had a head (before ``zero`` took an invalid one's away)."""

    def __post_init__(self) -> None:
        if self.policy not in POLICIES:
            raise InputError(f"--invalid {self.policy!r}: expected one of "
                             + ", ".join(POLICIES))

    def check(self, s: Sentence) -> Sentence:
        """S as it is to be scored: an invalid sentence without heads under ``zero``,
        heads outside the sentence made no head; ``error`` raises on an invalid one."""
        self.sentences += 1
        heads = s.heads
        n = len(heads)
        missing, roots, outside, cycle = head_summary(heads)
        if missing == n:
            return s
        self.headed = True
        faults_ = []
        if missing or outside:
            self.bad_heads += 1
            self.outside += outside
            faults_.append("a head outside the sentence" if outside else "a missing head")
        if roots == 0:
            self.no_root += 1
            faults_.append("no root")
        elif roots > 1 and not self.multiple_roots_okay:
            self.multiple_roots += 1
            faults_.append(f"{roots} roots")
        if cycle:
            self.cycles += 1
            faults_.append("a cycle")
        if not faults_:
            return s
        self.invalid += 1
        if self.first is None:
            self.first = s.line
        if self.policy == "error":
            raise InputError(f"not a tree ({', '.join(faults_)}); --invalid warn or zero "
                             "scores it", self.path, s.line)
        if self.policy == "zero":
            return dataclasses.replace(s, heads=[NO_HEAD] * n)
        if outside:
            return dataclasses.replace(s, heads=[h if 0 <= h <= n else NO_HEAD
                                                 for h in heads])
        return s

    def watching(self, sentences: Iterable[Sentence]) -> Iterator[Sentence]:
        """SENTENCES checked (and changed by the policy) as they are read."""
        for s in sentences:
            yield self.check(s)

    def as_dict(self) -> dict[str, Any]:
        """``validity`` of ``eval deps --json``: the counts' record's JSON."""
        from parsebench.metrics.dependency.figures import ValidityCounts

        return ValidityCounts(self.sentences, self.invalid, self.cycles, self.no_root,
                              self.multiple_roots, self.bad_heads, self.policy).to_dict()

    def line(self) -> str:
        """Validity beside accuracy, in the text of ``eval deps``."""
        if not self.invalid:
            return f"Validity: every one of {self.sentences} system sentences is a tree"
        kinds = ", ".join(f"{n} {what}" for n, what in (
            (self.cycles, "with a cycle"), (self.no_root, "without a root"),
            (self.multiple_roots, "with several roots"),
            (self.bad_heads, "with heads missing or outside")) if n)
        scored = {"warn": "scored as they are", "zero": "scored with no word attached",
                  "error": "refused"}[self.policy]
        return (f"Validity: {self.invalid} of {self.sentences} system sentences are not trees "
                f"({kinds}), {scored} (--invalid {self.policy})")

    def warnings(self) -> list[str]:
        """What the policy did: ``zero`` says which sentences lost their attachments (the
        tree checks' own warnings say the rest under ``warn``)."""
        out = []
        if self.outside and self.policy == "warn":
            out.append(f"{self.path}: {self.outside} sentence(s) have a head outside the "
                       "sentence, scored as no head")
        if self.invalid and self.policy == "zero":
            parts = [f"{n} {what}" for n, what in (
                (self.cycles, "with a cycle"), (self.no_root, "without a root"),
                (self.multiple_roots, "with several roots"),
                (self.bad_heads, "with heads missing or outside"),
            ) if n]
            out.append(f"{self.path}: {self.invalid} of {self.sentences} sentence(s) are not "
                       f"trees ({', '.join(parts)}; the first at line {self.first}): none of "
                       "their words counts as attached (--invalid zero, the CoNLL 2018 "
                       "policy)")
        return out

"""``validate``: what parsebench checks of a CoNLL-U file before it scores it, every
finding listed with its line (the readers stop at the first), and, where udtools'
``udvalidate`` is installed, the official validator's findings at higher levels in
the same form, each saying where it came from.

parsebench's own checks: the format (ten columns, comments, blank lines: two in a row
are read as one, and reported), the ids of words, multiword tokens and empty nodes,
the heads (a number or ``_``, inside the sentence), the basic tree (one root, no
cycle, no word without a head), empty nodes (HEAD and DEPREL ``_``) and the DEPS
column (``HEAD:LABEL`` separated by ``|``, heads in the sentence or its empty nodes).
``udvalidate`` is GPL: it runs as a program, never imported.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from parsebench.errors import InputError, iter_lines
from parsebench.metrics.dependency.tree_checks import CYCLE, faults
from parsebench.validation_checks import (
    COLUMN_KINDS,
    Metadata,
    deps_order_checks,
    deps_parse,
    line_checks,
    nfc_check,
    row_checks,
    valid_id,
)

ERROR, WARNING = "error", "warning"


@dataclass(frozen=True)
class Finding:
    """One thing wrong, where: FILE:LINE, its kind, and who found it."""

    file: str
    line: int | None
    kind: str
    message: str
    severity: str = ERROR
    source: str = "parsebench"
    """``parsebench``, or ``udvalidate LEVEL`` for the official validator's."""

    def as_dict(self) -> dict[str, object]:
        return {"file": self.file, "line": self.line, "kind": self.kind,
                "message": self.message, "severity": self.severity, "source": self.source}

    def __str__(self) -> str:
        where = self.file + (f":{self.line}" if self.line is not None else "")
        return f"{where}: {self.severity} [{self.source}] {self.kind}: {self.message}"


def _number(text: str) -> int | None:
    return int(text) if text.isascii() and text.isdigit() else None


def check_file(path: str | os.PathLike[str], level: int = 1) -> list[Finding]:
    """parsebench's findings in one CoNLL-U file, in file order: from level 2 up also
    each line's tags and features and each sentence's metadata."""
    name = str(path)
    out: list[Finding] = []
    meta = Metadata() if level >= 2 else None
    comments: list[tuple[int, str]] = []

    def sentence() -> None:
        """As udvalidate: a sentence whose lines, ids, references or tree are wrong
        gets none of the finer level-2 checks, nor its metadata with a bad FEATS."""
        _check_sentence(rows, add)
        start = (comments or rows)[0][0]
        if meta is not None and not any(
                f.severity == ERROR for f in reversed(out) if (f.line or 0) >= start):
            n = len(out)
            for lineno, cols in rows:
                row_checks(lineno, cols, add)
                if cols[8] and deps_parse(cols[8]):
                    deps_order_checks(lineno, cols[0], cols[8], add)
            if not any(f.kind == "invalid-feature" for f in out[n:]):
                meta.check(comments, rows, add)
        comments.clear()

    def add(line: int | None, kind: str, message: str, severity: str = ERROR) -> None:
        out.append(Finding(name, line, kind, message, severity))

    rows: list[tuple[int, list[str]]] = []
    comments_only = False
    blank_run = 0
    last = 0
    try:
        for lineno, line in enumerate(iter_lines(path), 1):
            last = lineno
            if not line:  # as the reader: a line of spaces is no blank line
                if rows:
                    sentence()
                    rows = []
                    blank_run = 1
                elif comments_only:
                    add(lineno, "format", "comments without a sentence")
                    comments_only = False
                    comments.clear()
                    blank_run = 1
                else:
                    blank_run += 1
                    add(lineno, "blank-line", "a blank line where one sentence already "
                        "ended (two in a row: read as one)" if blank_run > 1 or lineno > 1
                        else "a blank line before the first sentence", WARNING)
                continue
            blank_run = 0
            if "\0" in line:
                add(lineno, "nul-byte", "a NUL byte (\\0) in the line: no CoNLL-U column "
                    "holds one")
            if "\r" in line:  # (a CR LF line end is gone by now)
                add(lineno, "non-unix-newline", "a carriage return inside a line (the "
                    "official scorer reads it as a line end)")
            if line.startswith("#"):
                if rows:
                    add(lineno, "format", "a comment inside a sentence")
                else:
                    comments_only = True
                    comments.append((lineno, line))
                nfc_check(lineno, line, add)
                continue
            cols = line.split("\t")
            if len(cols) != 10:
                add(lineno, "format", f"expected 10 tab-separated columns, found {len(cols)}")
                continue
            line_checks(lineno, line, cols, add)
            rows.append((lineno, cols))
            comments_only = False
    except InputError as exc:  # not UTF-8, no such file: the file's one finding
        return [Finding(name, exc.line, "file", exc.message)]
    if rows:
        sentence()
        add(last, "missing-empty-line", "the file does not end with a blank line")
    elif comments_only:
        add(last, "format", "comments without a sentence")
    # a sentence's checks come at its end: file order, the reader's own first on a line
    out.sort(key=lambda f: (f.line or 0, f.kind in COLUMN_KINDS))
    return out


def _check_sentence(rows: list[tuple[int, list[str]]], add: object) -> None:
    """The ids, heads, tree, empty nodes and DEPS of one sentence's lines."""
    assert callable(add)
    words: list[tuple[int, list[str]]] = []
    empties: set[str] = set()
    expect = 1
    ranges: list[tuple[int, int, int]] = []
    last_empty: tuple[int, int] = (0, 0)
    for lineno, cols in rows:
        wid = cols[0]
        if not valid_id(wid):
            add(lineno, "invalid-word-id", f"bad word id {wid!r}")
            continue
        if _number(wid) is not None:
            if int(wid) != expect:
                add(lineno, "ids", f"word id {wid}, expected {expect}")
            expect = int(wid) + 1
            words.append((lineno, cols))
        elif "-" in wid:
            a, _, b = wid.partition("-")
            x, y = _number(a), _number(b)
            if x is None or y is None or x != expect or y < x:
                add(lineno, "multiword", f"bad multiword token range {wid!r} (the next word "
                    f"is {expect})")
            elif ranges and ranges[-1][2] >= x:
                add(lineno, "overlapping-word-intervals", f"multiword token {wid} overlaps "
                    f"{ranges[-1][1]}-{ranges[-1][2]}")
            else:
                ranges.append((lineno, x, y))
        elif "." in wid:
            a, _, b = wid.partition(".")
            x, y = _number(a), _number(b)
            if x is None or y is None or y < 1:
                add(lineno, "empty-node", f"bad empty node id {wid!r}")
                continue
            if x != expect - 1 or (last_empty[0] == x and y != last_empty[1] + 1) or \
                    (last_empty[0] != x and y != 1):
                add(lineno, "empty-node", f"empty node {wid} out of order (after word "
                    f"{expect - 1})")
            if ranges and ranges[-1][1] == expect:
                add(lineno, "misplaced-empty-node", f"empty node {wid} between multiword "
                    f"token {ranges[-1][1]}-{ranges[-1][2]} and its first word (it goes "
                    "before the token's line)")
            last_empty = (x, y)
            empties.add(wid)
            if cols[6] != "_" or cols[7] != "_":
                add(lineno, "empty-node", f"empty node {wid} has HEAD {cols[6]!r} and "
                    f"DEPREL {cols[7]!r}; both must be _")
        else:
            add(lineno, "ids", f"bad word id {wid!r}")
    n = len(words)
    for lineno, _x, y in ranges:
        if y > n:
            add(lineno, "multiword", f"multiword token goes past the sentence's {n} words")
    heads: list[int] = []
    for lineno, cols in words:
        h = cols[6]
        if h == "_":
            heads.append(-1)
        elif _number(h) is None:
            add(lineno, "heads", f"HEAD {h!r} is not a number or _")
            heads.append(-2)
        elif int(h) > n:
            add(lineno, "heads", f"HEAD {h} points outside the sentence of {n} words")
            heads.append(-2)
        else:
            heads.append(int(h))
            if cols[0] == h:
                add(lineno, "heads", "a word is its own head")
    first = rows[0][0]
    if -2 in heads:  # a bad head: no tree to look at
        pass
    elif words and -1 not in heads:
        roots = [k for k, h in enumerate(heads) if h == 0]
        if not roots:
            add(first, "roots", "no root (no word with HEAD 0)")
        elif len(roots) > 1:
            add(first, "roots", "several roots in the basic tree (HEAD 0): " + ", ".join(
                f"{words[k][1][0]} {words[k][1][1]!r}" for k in roots), WARNING)
        if faults(heads) & CYCLE:
            add(first, "cycles", "following the heads loops")
    elif words and heads.count(-1) != n:
        add(first, "heads", f"{heads.count(-1)} of {n} words without a head (a fragment)",
            WARNING)
    for lineno, cols in rows:
        d = cols[8]
        if d in ("_", ""):
            continue
        for item in d.split("|"):
            head, sep, label = item.partition(":")
            if not sep or not label:
                add(lineno, "invalid-deps", f"DEPS {d!r} is not HEAD:LABEL separated by |")
                break
            if "." in head:
                if head not in empties:
                    add(lineno, "unknown-ehead", f"DEPS head {head!r} is no empty node of the "
                        "sentence")
            elif _number(head) is None:
                add(lineno, "invalid-ehead", f"DEPS head {head!r} is not a number")
            elif int(head) > n:
                add(lineno, "unknown-ehead", f"DEPS head {head} points outside the sentence of {n} "
                    "words")


def udvalidate_program() -> str | None:
    """udtools' validator: PARSEBENCH_UDVALIDATE, else on PATH."""
    for cand in (os.environ.get("PARSEBENCH_UDVALIDATE"), shutil.which("udvalidate")):
        if cand and Path(cand).exists():
            return cand
    return None


_INCIDENT = re.compile(r"^\[(?:File [^\]]* )?Line (\d+)[^\]]*\]: \[L(\d) (\w+) ([\w-]+)\] (.*)$")


def run_udvalidate(program: str, path: str, level: int, lang: str) -> list[Finding]:
    """The official validator's findings in PATH, every one (--max-err 0)."""
    got = subprocess.run([program, "--level", str(level), "--lang", lang, "--max-err", "0",
                          path], capture_output=True, text=True, check=False, timeout=3600)
    out = []
    for line in (got.stderr + got.stdout).splitlines():
        m = _INCIDENT.match(line.strip())
        if m:
            lineno, lv, cls, test, msg = m.groups()
            severity = WARNING if "warning" in cls.lower() else ERROR
            out.append(Finding(path, int(lineno), f"{cls.lower()}/{test}", msg, severity,
                               f"udvalidate L{lv}"))
    if got.returncode not in (0, 1) or (got.returncode == 1 and not out):
        tail = (got.stderr.strip().splitlines() or ["no output"])[-1]
        raise InputError(f"udvalidate failed (exit {got.returncode}): {tail}", path)
    return out


@dataclass
class Validation:
    """Every finding of the files, and what was run."""

    files: list[str]
    findings: list[Finding]
    level: int
    lang: str
    udvalidate: str | None
    """The validator's program, or None where it is not installed (or not asked for)."""

    @property
    def valid(self) -> bool:
        return not any(f.severity == ERROR for f in self.findings)

    def counts(self) -> dict[str, int]:
        return dict(sorted(Counter(f"{f.kind} ({f.source})" for f in self.findings).items()))


def validate_files(paths: Iterable[str | os.PathLike[str]], level: int = 1,
                   lang: str = "ud") -> Validation:
    """parsebench's checks of each file, and from level 2 up udvalidate's where it is
    installed (level 1 is the format, which parsebench's checks cover)."""
    if level not in range(1, 6):
        raise InputError(f"--level {level}: expected 1 to 5 (udvalidate's levels)")
    files = [str(p) for p in paths]
    if not files:
        raise InputError("no file to validate")
    program = udvalidate_program() if level >= 2 else None
    findings: list[Finding] = []
    for f in files:
        if not Path(f).is_file():
            raise InputError("is a directory, expected a CoNLL-U file" if Path(f).is_dir()
                             else "is not a regular file (a device or a pipe?), expected a "
                             "CoNLL-U file" if Path(f).exists() else "no such file", f)
        native = check_file(f, level)
        findings += native
        if program is not None:
            # a check parsebench makes itself is reported once, as its own
            seen = {(x.line, x.kind) for x in native}
            findings += [x for x in run_udvalidate(program, f, level, lang)
                         if (x.line, x.kind.split("/", 1)[-1]) not in seen]
    return Validation(files, findings, level, lang, program)

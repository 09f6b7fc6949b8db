"""``validate``: what is wrong with a CoNLL-U file, every finding listed with its line
(the readers stop at the first), and, where udtools' ``udvalidate`` is installed, the
official validator's findings at higher levels in the same form, each saying where it
came from.

parsebench's own checks are udvalidate's language-independent ones, with its test ids,
each at its level: level 1 the lines, columns and ids (and, parsebench's own, a HEAD
the scorer cannot read), level 2 the heads and tree, each column's values, DEPS, MISC,
the metadata and the enhanced graph. As udvalidate, a sentence's first failing group
of checks leaves the later groups unchecked. Kinds that are parsebench's own:
``nul-byte``, ``unreadable-head``, ``file`` (a file not read at all).
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

from parsebench.common.errors import InputError, iter_lines
from parsebench.validation.checks import (
    COLUMN_KINDS,
    EHEAD,
    EMPTY_ID,
    ERROR,
    HEAD,
    RANGE_ID,
    WARNING,
    WORD_ID,
    Add,
    Metadata,
    egraph_check,
    line_checks,
    misc_checks,
    nfc_check,
    row_checks,
    valid_id,
)


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
    """parsebench's findings in one CoNLL-U file, in file order, each check at the level
    udvalidate runs it (the heads and tree, the columns' values and the metadata from
    level 2)."""
    name = str(path)
    out: list[Finding] = []
    state = Metadata()

    def add(line: int | None, kind: str, message: str, severity: str = ERROR) -> None:
        out.append(Finding(name, line, kind, message, severity))

    block: list[tuple[int, str]] = []
    try:
        for lineno, line in enumerate(iter_lines(path), 1):
            if "\0" in line:
                add(lineno, "nul-byte", "a NUL byte (\\0) in the line: no CoNLL-U column "
                    "holds one")
            if "\r" in line:  # (a CR LF line end is gone by now)
                add(lineno, "non-unix-newline", "a carriage return inside a line (the "
                    "official scorer reads it as a line end)")
            block.append((lineno, line))
            if not line or line.isspace():  # as udvalidate: a line of spaces ends one
                _check_sentence(block, level, state, add)
                block = []
        if block:
            _check_sentence(block, level, state, add)
        crlf = _first_crlf(path)
        if crlf is not None:  # udvalidate's level 1 says it once a file
            add(crlf, "non-unix-newline", "CR LF line ends: only the Unix line end (LF) "
                "is allowed")
    except InputError as exc:  # not UTF-8, no such file: the file's one finding
        return [Finding(name, exc.line, "file", exc.message)]
    # a sentence's checks come at its end: file order, the reader's own first on a line
    out.sort(key=lambda f: (f.line or 0, f.kind in COLUMN_KINDS))
    return out


def _first_crlf(path: str | os.PathLike[str]) -> int | None:
    """The line of the file's first CR LF line end, if it has one (the readers drop the
    CR, so the lines they give cannot tell)."""
    before, last = 0, b""  # line ends before the block; the previous block's last byte
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 16), b""):
            joined = last + block
            at = joined.find(b"\r\n")
            if at >= 0:
                return before - joined.count(b"\n", 0, len(last)) \
                    + joined.count(b"\n", 0, at) + 1
            before += block.count(b"\n")
            last = block[-1:]
    return None


def _check_sentence(block: list[tuple[int, str]], level: int, state: Metadata,
                    add: Add) -> None:
    """One sentence's lines (comments, words, its blank line), udvalidate's checks in
    its order: a failing group of level 1 (lines, columns, ids, multiword ranges) or
    of level 2 (references, tree, a bad FEATS) leaves the later ones unchecked, as the
    later findings would only follow from it."""
    if not _lines_ok(block, add):
        return
    # the lines after the first comments, but its blank one, as udvalidate takes them:
    # a misplaced comment among them where the file ends without a blank line
    k = next(k for k, (_, line) in enumerate(block) if not line.startswith("#"))
    comments = block[:k]
    end = len(block) - (not block[-1][1] or block[-1][1].isspace())
    rows = [(n, line.split("\t")) for n, line in block[k:end]]
    if not _columns_ok(rows, add) or not _ids_ok(rows, add):
        return
    if level < 2:
        _readable_heads(rows, add)
        return
    if not _references_ok(rows, add) or not _tree_ok(rows, add):
        return
    feats_ok = True
    for lineno, cols in rows:
        feats_ok = row_checks(lineno, cols, add) and feats_ok
        misc_checks(lineno, cols[9], add)
    if feats_ok:
        state.check(comments, rows, add)
        egraph_check(rows, add)


def _lines_ok(block: list[tuple[int, str]], add: Add) -> bool:
    """Level 1, the lines: comments before the words, every other line a word line
    (starting with a digit), and a blank line ending a sentence that has words."""
    ok, words, seen_non_comment = True, False, False
    for lineno, line in block:
        nfc_check(lineno, line, add)
        if line.startswith("#"):
            if seen_non_comment:
                add(lineno, "misplaced-comment", "a comment inside a sentence (comments go "
                    "before its first word)")
                ok = False
            continue
        seen_non_comment = True
        if line and line[0].isdigit():
            words = True
        elif not line or line.isspace():
            if line:
                add(lineno, "pseudo-empty-line", f"a line of only white space ({line!r}), "
                    "read as a blank line")
            if not words:
                add(lineno, "empty-sentence", "a blank line where no sentence ended (two "
                    "in a row, a sentence of comments only, or one before the first)")
                ok = False
        else:
            add(lineno, "invalid-line", f"a line neither a comment nor a word line (not "
                f"starting with a digit): {line[:40]!r}")
            ok = False
    last, line = block[-1]
    if line and not line.isspace():
        add(last, "missing-empty-line", "the file does not end with a blank line")
        ok = words
    return ok


def _columns_ok(rows: list[tuple[int, list[str]]], add: Add) -> bool:
    """Level 1, the columns: ten, and each one's white space."""
    ok = True
    for lineno, cols in rows:
        if len(cols) == 10:
            line_checks(lineno, cols, add)
        else:
            add(lineno, "number-of-columns", f"expected 10 tab-separated columns, found "
                f"{len(cols)}")
            ok = False
    return ok


def _ids_ok(rows: list[tuple[int, list[str]]], add: Add) -> bool:
    """Level 1, the ids: words 1, 2, 3...; a multiword token's range before its first
    word, inside the sentence, overlapping no other; empty nodes N.1, N.2... after
    word N and before a multiword token starting at N + 1."""
    ok = True
    words: list[int] = []
    tokens: list[tuple[int, int, int]] = []
    current, next_empty = 0, 1
    for lineno, cols in rows:
        wid = cols[0]
        if not valid_id(wid):
            add(lineno, "invalid-word-id", f"bad word id {wid!r}")
            ok = False
            continue
        m = RANGE_ID.fullmatch(wid)
        e = EMPTY_ID.fullmatch(wid)
        if e is None:
            next_empty = 1
        if m is None and e is None:
            current = int(wid)
            words.append(current)
            if not (tokens and tokens[-1][0] <= current <= tokens[-1][1]):
                tokens.append((current, current, lineno))
        elif m is not None:
            beg, end = int(m.group(1)), int(m.group(2))
            if beg < (words[-1] + 1 if words else 1):
                add(lineno, "misplaced-word-interval", f"multiword token {wid} not before "
                    "its first word")
                ok = False
                continue
            tokens.append((beg, end, lineno))
        elif e is not None:
            x, y = int(e.group(1)), int(e.group(2))
            if x != current or y != next_empty:
                add(lineno, "misplaced-empty-node", f"empty node {wid}, expected "
                    f"{current}.{next_empty}")
                ok = False
            next_empty += 1
            if x == current and tokens and x < tokens[-1][0]:
                add(lineno, "misplaced-empty-node", f"empty node {wid} between multiword "
                    f"token {tokens[-1][0]}-{tokens[-1][1]} and its first word (it goes "
                    "before the token's line)")
                ok = False
    if words != list(range(1, len(words) + 1)):
        add(rows[0][0], "word-id-sequence", "word ids " + ",".join(map(str, words[:20]))
            + (",..." if len(words) > 20 else "") + f", expected 1 to {len(words)}")
        ok = False
    for beg, end, lineno in tokens:
        if end < beg:
            add(lineno, "reversed-word-interval", f"multiword token {beg}-{end} ends "
                "before it starts")
            ok = False
        elif end > len(words):
            add(lineno, "word-interval-out", f"multiword token {beg}-{end} goes past the "
                f"sentence's {len(words)} words")
            ok = False
    if not ok:
        return False
    covered: set[int] = set()
    for lineno, cols in rows:
        m = RANGE_ID.fullmatch(cols[0])
        if m is not None:
            span = set(range(int(m.group(1)), int(m.group(2)) + 1))
            if covered & span:
                add(lineno, "overlapping-word-intervals", f"multiword token {cols[0]} "
                    "overlaps another")
                ok = False
            covered |= span
    return ok


def _readable_heads(rows: list[tuple[int, list[str]]], add: Add) -> None:
    """parsebench's own at level 1, where udvalidate checks no head: a HEAD the scorer
    cannot read (not a number or ``_``, or beyond the sentence), which the reader
    refuses; from level 2 invalid-head and unknown-head say it."""
    n = sum(1 for _, cols in rows if WORD_ID.fullmatch(cols[0]))
    for lineno, cols in rows:
        if not WORD_ID.fullmatch(cols[0]):
            continue
        h = cols[6]
        if h != "_" and _number(h) is None:
            add(lineno, "unreadable-head", f"HEAD {h!r} is not a number or _")
        elif h != "_" and int(h) > n:
            add(lineno, "unreadable-head", f"HEAD {h} points outside the sentence of {n} "
                "words")


def _references_ok(rows: list[tuple[int, list[str]]], add: Add) -> bool:
    """Level 2: HEAD and DEPS heads are ids of the sentence (or 0)."""
    ok = True
    ids = {cols[0] for _, cols in rows if not RANGE_ID.fullmatch(cols[0])} | {"0"}
    for lineno, cols in rows:
        if RANGE_ID.fullmatch(cols[0]):
            continue
        if not EMPTY_ID.fullmatch(cols[0]):
            h = cols[6]
            if not HEAD.fullmatch(h):
                add(lineno, "invalid-head", f"HEAD {h!r} is not a number")
                ok = False
            if h not in ids:
                add(lineno, "unknown-head", f"HEAD {h!r} is no word of the sentence")
                ok = False
        d = cols[8]
        if d == "_":
            continue
        items = [x.split(":", 1) for x in d.split("|")]
        if any(len(x) != 2 for x in items):
            add(lineno, "invalid-deps", f"DEPS {d!r} is not HEAD:LABEL separated by |")
            ok = False
            continue
        for head, _rel in items:
            if not EHEAD.fullmatch(head):
                add(lineno, "invalid-ehead", f"DEPS head {head!r} is not a number or an "
                    "empty node's id")
                ok = False
            if head not in ids:
                add(lineno, "unknown-ehead", f"DEPS head {head!r} is no node of the "
                    "sentence")
                ok = False
    return ok


def _tree_ok(rows: list[tuple[int, list[str]]], add: Add) -> bool:
    """Level 2, the basic tree: no word its own head, one root, every word reached from
    it."""
    children: dict[int, list[int]] = {}
    n = 0
    for lineno, cols in rows:
        if not WORD_ID.fullmatch(cols[0]):
            continue
        n += 1
        if cols[6] == cols[0]:
            add(lineno, "head-self-loop", f"word {cols[0]} is its own head")
            return False
        children.setdefault(int(cols[6]), []).append(int(cols[0]))
    first = rows[0][0]
    if len(children.get(0, [])) > 1:
        add(first, "multiple-roots", "several roots in the basic tree (HEAD 0): words "
            + ", ".join(map(str, children[0])))
        return False
    reached: set[int] = set()
    todo = [0]
    while todo:
        for c in children.get(todo.pop(), []):
            if c not in reached:
                reached.add(c)
                todo.append(c)
    if len(reached) != n:
        lost = sorted(set(range(1, n + 1)) - reached)
        add(first, "non-tree", "words " + ",".join(map(str, lost[:20]))
            + (",..." if len(lost) > 20 else "") + " not reached from the root (no root, "
            "or a cycle)")
        return False
    return True


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

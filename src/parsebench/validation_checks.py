"""The language-independent checks of ``validate`` that carry udvalidate's test ids
(``unsorted-features``, ``missing-sent-id``, ...): each column's characters (level 1)
and a sentence's features, tags, relations, DEPS order, ``sent_id`` and ``SpaceAfter``
(level 2). Written from the UD guidelines' rules, so that a treebank gets from
parsebench the same findings, by id, as from the official validator.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Callable

Add = Callable[..., None]
"""``add(line, kind, message)``: one finding."""

COLUMNS = ("ID", "FORM", "LEMMA", "UPOS", "XPOS", "FEATS", "HEAD", "DEPREL", "DEPS", "MISC")
WORD_ID = re.compile(r"[1-9][0-9]*")
RANGE_ID = re.compile(r"([1-9][0-9]*)-([1-9][0-9]*)")
EMPTY_ID = re.compile(r"([0-9]+)\.([1-9][0-9]*)")
UPOS = frozenset(("ADJ", "ADP", "ADV", "AUX", "CCONJ", "DET", "INTJ", "NOUN", "NUM", "PART",
                  "PRON", "PROPN", "PUNCT", "SCONJ", "SYM", "VERB", "X"))
_FEATVAL = re.compile(r"([A-Z][A-Za-z0-9]*(?:\[[a-z0-9]+\])?)=([A-Z0-9][A-Za-z0-9]*"
                      r"(?:,[A-Z0-9][A-Za-z0-9]*)*)")
_DEPREL = re.compile(r"[a-z]+(:[a-z]+)?")
_EHEAD = re.compile(r"(0|[1-9][0-9]*)(?:\.([1-9][0-9]*))?")
_SENT_ID = re.compile(r"#\s*sent_id\s*=\s*(\S+)")
_TEXT = re.compile(r"#\s*text\s*=\s*(.*)")
_WS = re.compile(r"\s")
_WS2 = re.compile(r"\s\s")


COLUMN_KINDS = frozenset(("invalid-whitespace-mwt", "invalid-whitespace", "empty-column",
                          "leading-whitespace", "trailing-whitespace", "repeated-whitespace",
                          "unicode-normalization"))
"""Each column's characters: on a line, listed after what the reader says first."""


def valid_id(wid: str) -> bool:
    """A word (``1``), a multiword token (``1-2``) or an empty node (``1.1``); not
    ``01``, ``0`` or ``1.01``."""
    return any(p.fullmatch(wid) for p in (WORD_ID, RANGE_ID, EMPTY_ID))


def line_checks(lineno: int, line: str, cols: list[str], add: Add) -> None:
    """Level 1 of a word line: whitespace in each column, and NFC."""
    mwt = RANGE_ID.fullmatch(cols[0]) is not None
    for k, (name, value) in enumerate(zip(COLUMNS, cols, strict=True)):
        if mwt and k in (1, 2) and _WS.search(value):
            add(lineno, "invalid-whitespace-mwt", f"white space in the {name} of a "
                f"multiword token: {value!r}")
        elif k not in (1, 2, 9) and _WS.search(value):
            add(lineno, "invalid-whitespace", f"white space in {name}: {value!r}")
        elif not value:
            add(lineno, "empty-column", f"empty {name}")
        else:
            if value[0].isspace():
                add(lineno, "leading-whitespace", f"{name} {value!r} starts with a space")
            if value[-1].isspace():
                add(lineno, "trailing-whitespace", f"{name} {value!r} ends with a space")
            if _WS2.search(value):
                add(lineno, "repeated-whitespace", f"{name} {value!r} has two spaces in "
                    "a row")
    nfc_check(lineno, line, add)


def nfc_check(lineno: int, line: str, add: Add) -> None:
    """Text not in Unicode NFC (a letter and a combining accent where one character
    is): once a line."""
    if unicodedata.is_normalized("NFC", line):
        return
    for k, value in enumerate(line.split("\t")):
        if not unicodedata.is_normalized("NFC", value):
            where = COLUMNS[k] if "\t" in line and k < len(COLUMNS) else "the line"
            add(lineno, "unicode-normalization", f"{where} {value!r} is not in Unicode "
                "NFC")
            return


def _sorted_ci(items: list[str]) -> bool:
    low = [x.lower() for x in items]
    return low == sorted(low)


def feats_checks(lineno: int, feats: str, add: Add) -> None:
    """FEATS: ``Name=Value`` pairs sorted by name (case-insensitive), none repeated,
    values sorted and unique."""
    if feats == "_":
        return
    items = feats.split("|")
    if not _sorted_ci(items):
        add(lineno, "unsorted-features", f"features not sorted: {feats!r}")
    names = set()
    for item in items:
        m = _FEATVAL.fullmatch(item)
        if m is None:
            add(lineno, "invalid-feature", f"feature {item!r} is not Name=Value (a name "
                "starting with [A-Z], of [A-Za-z0-9])")
            names.add(item)
            continue
        names.add(m.group(1))
        values = m.group(2).split(",")
        if len(set(values)) != len(values):
            add(lineno, "repeated-feature-value", f"a value twice in {item!r}")
        if not _sorted_ci(values):
            add(lineno, "unsorted-feature-values", f"values not sorted: {item!r}")
    if len(names) != len(items):
        add(lineno, "repeated-feature", f"a feature twice: {feats!r}")


def _ehead_key(head: str) -> tuple[int, int]:
    m = _EHEAD.fullmatch(head)
    assert m is not None
    return int(m.group(1)), int(m.group(2) or 0)


def deps_order_checks(lineno: int, wid: str, deps: str, add: Add) -> None:
    """DEPS (already parsed): sorted by head then relation, no pair twice, no node its
    own head."""
    if deps == "_":
        return
    pairs = [(_ehead_key(h), r) for h, _, r in (x.partition(":") for x in deps.split("|"))]
    heads = [h for h, _ in pairs]
    if heads != sorted(heads):
        add(lineno, "unsorted-deps", f"DEPS not sorted by head: {deps!r}")
    else:
        for (h0, r0), (h1, r1) in itertools.pairwise(pairs):
            if h0 == h1 and r1 < r0:
                add(lineno, "unsorted-deps-2", f"DEPS of head {h1} not sorted by "
                    f"relation: {deps!r}")
            elif h0 == h1 and r1 == r0:
                add(lineno, "repeated-deps", f"DEPS twice {r1!r} from one head: {deps!r}")
    if _EHEAD.fullmatch(wid) and _ehead_key(wid) in heads:
        add(lineno, "deps-self-loop", f"node {wid} is its own head in DEPS")


def deps_parse(deps: str) -> bool:
    """DEPS is ``_`` or ``HEAD:REL`` items (heads ``0``, ``3`` or ``3.1``) joined by
    ``|``."""
    return deps == "_" or all(
        _EHEAD.fullmatch(h) is not None and sep == ":" and bool(r)
        for h, sep, r in (x.partition(":") for x in deps.split("|")))


def row_checks(lineno: int, cols: list[str], add: Add) -> None:
    """Level 2 of one line, not looking at the rest of the sentence."""
    wid = cols[0]
    if RANGE_ID.fullmatch(wid):
        for k in range(2, 9):
            if cols[k] != "_" and not (k == 5 and cols[k] == "Typo=Yes"):
                add(lineno, "mwt-nonempty-field", f"a multiword token's {COLUMNS[k]} "
                    f"is {cols[k]!r}, not _")
        return
    empty = EMPTY_ID.fullmatch(wid) is not None
    if not (empty and cols[3] == "_") and cols[3] not in UPOS:
        add(lineno, "unknown-upos", f"UPOS {cols[3]!r} is none of UD's 17 tags")
    feats_checks(lineno, cols[5], add)
    if not empty and not _DEPREL.fullmatch(cols[7]):
        add(lineno, "invalid-deprel", f"DEPREL {cols[7]!r} is not lowercase letters "
            "with an optional :subtype")


class Metadata:
    """Level 2 of the comments: one ``sent_id`` each, unique in the file; and
    ``SpaceAfter`` in MISC where the sentence has its text."""

    def __init__(self) -> None:
        self.seen: dict[str, int] = {}

    def check(self, comments: list[tuple[int, str]], rows: list[tuple[int, list[str]]],
              add: Add) -> None:
        first = rows[0][0]
        ids = []
        for lineno, c in comments:
            m = _SENT_ID.fullmatch(c)
            if m:
                ids.append(m.group(1))
            elif c.startswith(("# sent_id", "#sent_id")):
                add(lineno, "invalid-sent-id", f"{c!r} is not '# sent_id = ID'")
        if not ids:
            add(first, "missing-sent-id", "no sent_id")
        elif len(ids) > 1:
            add(first, "multiple-sent-id", f"{len(ids)} sent_id comments")
        elif ids[0] in self.seen:
            add(first, "non-unique-sent-id", f"sent_id {ids[0]!r} again (first at line "
                f"{self.seen[ids[0]]})")
        else:
            self.seen[ids[0]] = first
        texts = [c for _, c in comments if _TEXT.fullmatch(c)]
        if len(texts) != 1 or not _TEXT.fullmatch(texts[0]).group(1):  # type: ignore[union-attr]
            return
        in_mwt: set[str] = set()
        for lineno, cols in rows:
            misc = cols[9]
            if "NoSpaceAfter=Yes" in misc:
                add(lineno, "nospaceafter-yes", "NoSpaceAfter=Yes where SpaceAfter=No is "
                    "meant")
            if any(x.startswith("SpaceAfter=") and x != "SpaceAfter=No"
                   for x in misc.split("|")):
                add(lineno, "spaceafter-value", "SpaceAfter has a value other than No "
                    "(SpacesAfter is the attribute for other spacing)")
            m = RANGE_ID.fullmatch(cols[0])
            if EMPTY_ID.fullmatch(cols[0]):
                if "SpaceAfter=No" in misc:
                    add(lineno, "spaceafter-empty-node", "SpaceAfter=No on an empty node")
            elif m:
                in_mwt.update(str(i) for i in range(int(m.group(1)), int(m.group(2)) + 1))
            elif cols[0] in in_mwt and "SpaceAfter=No" in misc:
                add(lineno, "spaceafter-mwt-node", "SpaceAfter=No on a word of a multiword "
                    "token (it goes on the token)")

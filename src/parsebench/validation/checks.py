"""The language-independent checks of ``validate`` that carry udvalidate's test ids
(``unsorted-features``, ``missing-sent-id``, ...): each column's characters (level 1)
and a line's features, tags, relations, DEPS and MISC, a sentence's metadata
(``sent_id``, ``parallel_id``, ``text`` against the FORMs and ``SpaceAfter``) and its
enhanced graph (level 2). Written from the UD guidelines' rules, so that a treebank gets from
parsebench the same findings, by id, as from the official validator.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Callable

ERROR, WARNING = "error", "warning"
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
UDEPRELS = frozenset((
    "acl", "advcl", "advmod", "amod", "appos", "aux", "case", "cc", "ccomp", "clf",
    "compound", "conj", "cop", "csubj", "dep", "det", "discourse", "dislocated", "expl",
    "fixed", "flat", "goeswith", "iobj", "list", "mark", "nmod", "nsubj", "nummod", "obj",
    "obl", "orphan", "parataxis", "punct", "reparandum", "root", "vocative", "xcomp"))
"""UD's 37 universal relations, for every language (a subtype after ``:`` is free)."""
EHEAD = re.compile(r"(0|[1-9][0-9]*)(?:\.([1-9][0-9]*))?")
HEAD = re.compile(r"0|[1-9][0-9]*")
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


def line_checks(lineno: int, cols: list[str], add: Add) -> None:
    """Level 1 of a word line of ten columns: white space in each."""
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


def feats_checks(lineno: int, feats: str, add: Add) -> bool:
    """FEATS: ``Name=Value`` pairs sorted by name (case-insensitive), none repeated,
    values sorted and unique; False where a pair is not ``Name=Value``."""
    if feats == "_":
        return True
    ok = True
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
            ok = False
            continue
        names.add(m.group(1))
        values = m.group(2).split(",")
        if len(set(values)) != len(values):
            add(lineno, "repeated-feature-value", f"a value twice in {item!r}")
        if not _sorted_ci(values):
            add(lineno, "unsorted-feature-values", f"values not sorted: {item!r}")
    if len(names) != len(items):
        add(lineno, "repeated-feature", f"a feature twice: {feats!r}")
    return ok


def _ehead_key(head: str) -> tuple[int, int]:
    m = EHEAD.fullmatch(head)
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
    if EHEAD.fullmatch(wid) and _ehead_key(wid) in heads:
        add(lineno, "deps-self-loop", f"node {wid} is its own head in DEPS")


def _edeprel_ok(rel: str) -> bool:
    """An enhanced relation: ``rel``, ``rel:subtype``, then optionally a case marker in
    any script's lowercase letters (words joined by ``_``) and ``:subtype``."""
    shape = "".join(c if "a" <= c <= "z" or c in ":_" else
                    "X" if unicodedata.category(c) in ("Ll", "Lm", "Lo", "Mn", "Mc", "Me")
                    else "?" for c in rel)
    return _EDEPREL.fullmatch(shape) is not None


_EDEPREL = re.compile(r"[a-z]+(:[a-z]+)?(:[a-zX]+(_[a-zX]+)*)?(:[a-z]+)?")


def row_checks(lineno: int, cols: list[str], add: Add) -> bool:
    """Level 2 of one line, not looking at the rest of the sentence; False where FEATS
    is not ``Name=Value`` pairs (udvalidate then checks no metadata)."""
    wid = cols[0]
    if RANGE_ID.fullmatch(wid):
        for k in range(2, 9):
            if cols[k] != "_" and not (k == 5 and cols[k] == "Typo=Yes"):
                add(lineno, "mwt-nonempty-field", f"a multiword token's {COLUMNS[k]} "
                    f"is {cols[k]!r}, not _")
        return True
    empty = EMPTY_ID.fullmatch(wid) is not None
    if empty:
        for k in (6, 7):
            if cols[k] != "_":
                add(lineno, "empty-node-nonempty-field", f"an empty node's {COLUMNS[k]} "
                    f"is {cols[k]!r}, not _")
    if not (empty and cols[3] == "_") and cols[3] not in UPOS:
        add(lineno, "unknown-upos", f"UPOS {cols[3]!r} is none of UD's 17 tags")
    if not cols[4]:
        add(lineno, "empty-string-in-xpos", "XPOS is empty (an unknown one is _)")
    feats_ok = feats_checks(lineno, cols[5], add)
    if not empty and not _DEPREL.fullmatch(cols[7]):
        add(lineno, "invalid-deprel", f"DEPREL {cols[7]!r} is not lowercase letters "
            "with an optional :subtype")
    elif not empty and cols[7].partition(":")[0] not in UDEPRELS:
        add(lineno, "unknown-udeprel", f"DEPREL {cols[7]!r} is none of UD's 37 "
            "relations (with a subtype or not)")
    if cols[8] != "_":
        deps_order_checks(lineno, wid, cols[8], add)
        for item in cols[8].split("|"):
            rel = item.partition(":")[2]
            if not _edeprel_ok(rel):
                add(lineno, "invalid-edeprel", f"enhanced relation {rel!r} is not rel, "
                    "rel:subtype, then a lowercase case marker and :subtype")
            elif rel.partition(":")[0] not in UDEPRELS | {"ref"}:
                add(lineno, "unknown-eudeprel", f"enhanced relation {rel!r} is none of "
                    "UD's 37 relations nor ref")
    return feats_ok


def misc_checks(lineno: int, misc: str, add: Add) -> None:
    """Level 2 of MISC: no empty attribute, no space around a name or value, the
    attributes UD defines spelt as it does and none twice."""
    if misc == "_":
        return
    counts: dict[str, int] = {}
    for item in misc.split("|"):
        key, sep, value = item.partition("=")
        if not key:
            add(lineno, "empty-misc" if not sep else "empty-misc-key",
                "an empty attribute in MISC (a | too many?)" if not sep else
                f"an attribute without a name in MISC: {item!r}", WARNING)
        where = ("name starts" if key[:1].isspace() else "name ends" if key[-1:].isspace()
                 else "value starts" if value[:1].isspace() else "value ends"
                 if value[-1:].isspace() else "")
        if where:
            add(lineno, "misc-extra-space", f"a MISC attribute's {where} with a space: "
                f"{item!r}", WARNING)
        if key in _MISC_ATTRS:
            counts[key] = counts.get(key, 0) + 1
        elif key.strip().lower() in _MISC_ATTRS_LOW:
            add(lineno, "misc-attr-typo", f"MISC attribute {key!r}: "
                f"{_MISC_ATTRS_LOW[key.strip().lower()]!r} meant?", WARNING)
    for key, k in counts.items():
        if k > 1:
            add(lineno, "repeated-misc", f"MISC attribute {key} {k} times")


_MISC_ATTRS = ("SpaceAfter", "Lang", "Translit", "LTranslit", "Gloss", "LId", "LDeriv",
               "Ref")
_MISC_ATTRS_LOW = {a.lower(): a for a in _MISC_ATTRS}
_NEWDOC = re.compile(r"#\s*newdoc(?:\s+(\S+))?")
_NEWPAR = re.compile(r"#\s*newpar(?:\s+(\S+))?")
_PARALLEL_ID = re.compile(r"#\s*parallel_id\s*=\s*(([a-z]+)/([-0-9a-z]+)(?:/(alt[1-9][0-9]*|"
                          r"part[1-9][0-9]*|alt[1-9][0-9]*part[1-9][0-9]*))?)")
_ALTPART = re.compile(r"(?:alt([0-9]+))?(?:part([0-9]+))?")


class Metadata:
    """Level 2 of a sentence's comments, with what the file said before: one
    ``sent_id`` each, unique; ``parallel_id``; ``text`` and the FORMs and
    ``SpaceAfter=No`` that spell it; DEPS in every sentence or none."""

    def __init__(self) -> None:
        self.seen: dict[str, int] = {}
        self.parallel: set[str] = set()
        self.last_alt: dict[str, int | None] = {}
        self.last_part: dict[str, int | None] = {}
        self.no_space = False
        """The last word read said SpaceAfter=No."""
        self.with_deps: int | None = None
        self.without_deps: int | None = None
        """The first sentence's line with DEPS, and without."""

    def check(self, comments: list[tuple[int, str]], rows: list[tuple[int, list[str]]],
              add: Add) -> None:
        first = rows[0][0]
        self._deps(first, rows, add)
        self._sent_id(first, comments, add)
        self._parallel_id(first, comments, add)
        self._text(first, comments, rows, add)

    def _deps(self, first: int, rows: list[tuple[int, list[str]]], add: Add) -> None:
        graph = any(EMPTY_ID.fullmatch(c[0]) or (c[8] != "_" and not RANGE_ID.fullmatch(c[0]))
                    for _, c in rows)
        if graph and self.with_deps is None:
            self.with_deps = first
            if self.without_deps is not None:
                add(first, "edeps-only-sometimes", "DEPS here, but not in the sentence at "
                    f"line {self.without_deps} (all sentences or none)")
        elif not graph and self.without_deps is None:
            self.without_deps = first
            if self.with_deps is not None:
                add(first, "edeps-only-sometimes", "no DEPS here, but in the sentence at "
                    f"line {self.with_deps} (all sentences or none)")

    def _sent_id(self, first: int, comments: list[tuple[int, str]], add: Add) -> None:
        ids = []
        for _lineno, c in comments:
            m = _SENT_ID.fullmatch(c)
            if m:
                ids.append(m.group(1))
            elif c.startswith(("# sent_id", "#sent_id")):
                add(first, "invalid-sent-id", f"{c!r} is not '# sent_id = ID'")
        if not ids:
            add(first, "missing-sent-id", "no sent_id")
        elif len(ids) > 1:
            add(first, "multiple-sent-id", f"{len(ids)} sent_id comments")
        else:
            if ids[0] in self.seen:
                add(first, "non-unique-sent-id", f"sent_id {ids[0]!r} again (first at line "
                    f"{self.seen[ids[0]]})")
            else:
                self.seen[ids[0]] = first
            if ids[0].count("/") > 1:
                add(first, "slash-in-sent-id", f"sent_id {ids[0]!r}: a / is kept for "
                    "parallel treebanks (one at most)")

    def _parallel_id(self, first: int, comments: list[tuple[int, str]], add: Add) -> None:
        found = []
        for _lineno, c in comments:
            m = _PARALLEL_ID.fullmatch(c)
            if m:
                found.append(m)
            elif c.startswith(("# parallel_id", "#parallel_id")):
                add(first, "invalid-parallel-id", f"{c!r} is not '# parallel_id = "
                    "corpus/sentence' (with /altN, /partN or /altNpartN)")
        if len(found) > 1:
            add(first, "multiple-parallel-id", f"{len(found)} parallel_id comments")
            return
        if not found:
            return
        m = found[0]
        pid = m.group(1)
        if pid in self.parallel:
            add(first, "non-unique-parallel-id", f"parallel_id {pid!r} again")
            return
        self.parallel.add(pid)
        sid = m.group(2) + "/" + m.group(3)
        ap = _ALTPART.fullmatch(m.group(4) or "")
        assert ap is not None
        for name, got, last in (("alt", ap.group(1), self.last_alt),
                                ("part", ap.group(2), self.last_part)):
            k = int(got) if got else None
            if sid in last:
                before = last[sid]
                if (before is None) != (k is None):
                    add(first, f"parallel-id-{name}", f"parallel sentence {sid!r} has the "
                        f"{name} suffix in some instances, not in others")
                elif k is not None and before is not None and k != before + 1:
                    add(first, f"parallel-id-{name}", f"parallel sentence {sid!r}: {name}"
                        f"{k} after {name}{before}")
            elif k is not None and k != 1:
                add(first, f"parallel-id-{name}", f"parallel sentence {sid!r}: its first "
                    f"{name} suffix is {k}, not 1")
            last[sid] = k

    def _text(self, first: int, comments: list[tuple[int, str]],
              rows: list[tuple[int, list[str]]], add: Add) -> None:
        newdoc = sum(1 for _, c in comments if _NEWDOC.fullmatch(c))
        newpar = sum(1 for _, c in comments if _NEWPAR.fullmatch(c))
        texts = [m.group(1) for _, c in comments if (m := _TEXT.fullmatch(c))]
        if newdoc > 1:
            add(first, "multiple-newdoc", f"{newdoc} newdoc comments")
        if newpar > 1:
            add(first, "multiple-newpar", f"{newpar} newpar comments")
        if (newdoc or newpar) and self.no_space:
            add(first, "spaceafter-newdocpar", "a new document or paragraph after a word "
                "with SpaceAfter=No")
        if not texts:
            add(first, "missing-text", "no text comment")
            return
        if len(texts) > 1:
            add(first, "multiple-text", f"{len(texts)} text comments")
            return
        text = texts[0]
        if not text:
            add(first, "empty-text", "the text comment is empty")
        elif text[-1].isspace():
            add(first, "text-trailing-whitespace", "the text comment ends with white space")
        in_mwt: set[str] = set()
        mismatch = False
        for lineno, cols in rows:
            wid, form, misc = cols[0], cols[1], cols[9]
            if "NoSpaceAfter=Yes" in misc:
                add(first, "nospaceafter-yes", f"NoSpaceAfter=Yes (line {lineno}) where "
                    "SpaceAfter=No is meant")
            if any(x.startswith("SpaceAfter=") and x != "SpaceAfter=No"
                   for x in misc.split("|")):
                add(lineno, "spaceafter-value", "SpaceAfter has a value other than No "
                    "(SpacesAfter is the attribute for other spacing)")
            m = RANGE_ID.fullmatch(wid)
            if EMPTY_ID.fullmatch(wid):
                if "SpaceAfter=No" in misc:
                    add(lineno, "spaceafter-empty-node", "SpaceAfter=No on an empty node")
                continue
            if m:
                in_mwt.update(str(i) for i in range(int(m.group(1)), int(m.group(2)) + 1))
            elif wid in in_mwt:
                if "SpaceAfter=No" in misc:
                    add(lineno, "spaceafter-mwt-node", "SpaceAfter=No on a word of a "
                        "multiword token (it goes on the token)")
                continue
            if not text.startswith(form):
                if not mismatch:
                    add(lineno, "text-form-mismatch", f"FORM {form!r} is not what the text "
                        f"has next: {text[:len(form) + 20]!r}")
                    mismatch = True
                continue
            text = text[len(form):]
            self.no_space = "SpaceAfter=No" in misc.split("|")
            if not self.no_space:
                if text and not text[0].isspace():
                    add(lineno, "missing-spaceafter", f"no SpaceAfter=No on {wid} "
                        f"{form!r}, but the text goes on {text[:20]!r}")
                text = text.lstrip()
        if text:
            add(first, "text-extra-chars", f"the text goes on after the last FORM: "
                f"{text[:40]!r}")


def egraph_check(rows: list[tuple[int, list[str]]], add: Add) -> None:
    """Level 2 of the enhanced graph, where the sentence has one: every node reached
    from the root along DEPS."""
    children: dict[str, set[str]] = {}
    nodes: dict[str, int] = {}
    graph = False
    for lineno, cols in rows:
        wid = cols[0]
        if RANGE_ID.fullmatch(wid):
            continue
        nodes[wid] = lineno
        if EMPTY_ID.fullmatch(wid) or cols[8] != "_":
            graph = True
        if cols[8] != "_":
            for item in cols[8].split("|"):
                children.setdefault(item.partition(":")[0], set()).add(wid)
    if not graph:
        return
    reached: set[str] = set()
    todo = ["0"]
    while todo:
        for c in children.get(todo.pop(), ()):
            if c not in reached:
                reached.add(c)
                todo.append(c)
    lost = sorted(set(nodes) - reached)
    if lost:
        add(nodes[lost[0]], "unconnected-egraph", "nodes " + ",".join(lost[:20])
            + (",..." if len(lost) > 20 else "") + " not reached from the root in DEPS")

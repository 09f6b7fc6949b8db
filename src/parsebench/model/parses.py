"""A sentence's parse, in one model from every source to every output.

:class:`Parse` is what the metrics read. It is made from a CoNLL-U sentence
(:func:`from_sentence`), a bracketed tree (:func:`from_tree`) or a parser's
outcome for an input sentence (:func:`from_outcome`, without writing CoNLL-U
between); an outcome is written as CoNLL-U (:func:`to_conllu`) or a tree
(:func:`to_tree`), and a parser's input is read by :func:`read_input`.

A parse file is CoNLL-U (dependency trees, or Link Grammar's undirected links
carried in MISC as ``Links=2:Wd,4:Ss``), bracketed trees, or an AutoEval row
file (``TOKEN<TAB>PARSE-STRING``, blank lines between sentences optional).
Every kind is read into :class:`Parse`; the projections to rows (Bigert), the
sentence structures (Kakkonen) and the arcs (Hashemi & Hwa) are written here
once, so each metric is written once against them.
"""

from __future__ import annotations

import itertools
import os
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from parsebench.common.errors import InputError, iter_lines, lone_cr, read_lines
from parsebench.common.outcomes import Analysis, Outcome
from parsebench.formats.brackets import (
    CLOSE,
    FAILED_TREE,
    OPEN,
    WORD,
    Tree,
    escape_word,
    parse_tree,
    split_trees,
    unescape_word,
)
from parsebench.formats.conllu import (
    NO_HEAD,
    Sentence,
    iter_conllu,
    looks_like_conllu,
    parse_conllu,
)

PROJECTIONS = ("head+deprel", "head", "deprel", "upos", "xpos", "links", "brackets", "tag")
FAILED = "<failed>"
"""The parse string of every row of a sentence the parser failed on."""


@dataclass(slots=True)
class Parse:
    """A parsed sentence: its words and whichever analysis the file carried."""

    forms: list[str]
    line: int
    kind: str
    """``deps``, ``links``, ``tree`` or ``rows``."""
    failed: str | None = None
    """Why the parser failed on this sentence, or None."""
    heads: list[int] = field(default_factory=list)
    deprels: list[str] = field(default_factory=list)
    upos: list[str] = field(default_factory=list)
    xpos: list[str] = field(default_factory=list)
    links: list[tuple[int, int, str]] = field(default_factory=list)
    """Undirected links (i < j, 1-based word numbers, 0 for Link Grammar's left wall, label)."""
    tree: Tree | None = None
    rows: list[str] = field(default_factory=list)
    """Parse strings of a row file."""
    noise: list[bool] = field(default_factory=list)
    """Rows that carry a misspelling record (``Noise=`` in MISC)."""

    def __len__(self) -> int:
        return len(self.forms)


def misc_value(misc: str, key: str) -> str | None:
    """The value of KEY=VALUE in a MISC column, None where it is absent."""
    if misc == "_":
        return None
    prefix = key + "="
    for part in misc.split("|"):
        if part.startswith(prefix):
            return part[len(prefix):]
    return None


def _links_of(s: Sentence, path: str) -> list[tuple[int, int, str]] | None:
    found = False
    out: set[tuple[int, int, str]] = set()
    for i, misc in enumerate(s.misc):
        val = misc_value(misc, "Links")
        if val is None:
            continue
        found = True
        for item in filter(None, val.split(",")):
            other, _, label = item.partition(":")
            if not (other.isascii() and other.isdigit()) or int(other) > len(s.forms):
                raise InputError(f"bad link {item!r} in MISC Links of word {i + 1}",
                                 path, s.line)
            j = int(other)
            out.add((min(i + 1, j), max(i + 1, j), label))
    return sorted(out) if found else None


def from_sentence(s: Sentence, path: str = "<input>") -> Parse:
    status = s.comment_value("parse_status")
    failed = None
    if status is not None and status.strip() == "failed":
        failed = (s.comment_value("parse_error") or "failed").strip()
    links = _links_of(s, path)
    noise = [misc_value(m, "Noise") is not None for m in s.misc]
    return Parse(forms=s.forms, line=s.line, kind="deps" if links is None else "links",
                 failed=failed, heads=s.heads, deprels=s.deprels, upos=s.upos, xpos=s.xpos,
                 links=links or [], noise=noise)


def from_tree(tree: Tree, line: int) -> Parse:
    leaves = [(t, w) for t, w in tree.leaves() if t != "-NONE-"]
    top = tree.children[0] if not tree.label and len(tree.children) == 1 else tree
    failed = "failed" if isinstance(top, Tree) and top.label == FAILED_TREE else None
    return Parse(forms=[unescape_word(w) for _, w in leaves], line=line, kind="tree", tree=tree,
                 failed=failed,
                 upos=[t for t, _ in leaves], xpos=[t for t, _ in leaves],
                 noise=[False] * len(leaves))


def _row_file(lines: list[str], path: str) -> list[Parse]:
    out: list[Parse] = []
    cur: Parse | None = None
    for n, line in enumerate(lines, 1):
        if not line.strip():
            cur = None
            continue
        token, tab, parse = line.partition("\t")
        if not tab:
            raise InputError("expected TOKEN<TAB>PARSE-STRING (an AutoEval row file)", path, n)
        if cur is None:
            cur = Parse(forms=[], line=n, kind="rows")
            out.append(cur)
        cur.forms.append(token)
        cur.rows.append(parse)
        cur.noise.append(False)
    return out


def read_parses(path: str | os.PathLike[str]) -> list[Parse]:
    """Every sentence of a CoNLL-U, bracketed-tree or row file, whichever PATH holds."""
    lines = read_lines(path)
    p = str(path)
    if looks_like_conllu(path, lines):
        lone_cr(lines, p)
        return [from_sentence(s, p) for s in parse_conllu(lines, p, warn=True)]
    first = next((ln.lstrip() for ln in lines if ln.strip()), "")
    if first.startswith("("):
        return [from_tree(parse_tree(t.text, p, t.line), t.line)
                for t in split_trees(lines, p) if t.text.strip()]
    return _row_file(lines, p)


def iter_parses(path: str | os.PathLike[str]) -> Iterator[Parse]:
    """The parses of PATH one at a time: a CoNLL-U file streams (memory flat in its
    size); trees and row files are read whole, as :func:`read_parses` does."""
    if looks_like_conllu(path, itertools.islice(iter_lines(path), 200)):
        p = str(path)
        return (from_sentence(s, p) for s in iter_conllu(path))
    return iter(read_parses(path))


def default_projection(parses: Sequence[Parse]) -> str:
    kinds = {p.kind for p in parses}
    if "tree" in kinds:
        return "brackets"
    if "links" in kinds:
        return "links"
    if "rows" in kinds:
        return "tag"
    if not carries(parses, "head+deprel") and carries(parses, "upos"):
        return "upos"  # a tagger's output
    return "head+deprel"


def bracket_strings(tree: Tree) -> list[str]:
    """Each word's bracket string as in the CoNLL-2005 parse column: ``(S(NP*``, ``*))``.

    Phrasal nodes only (no part-of-speech level); a node without a label (the
    outer ``( ... )`` of treebank files) and ``-NONE-`` words are left out.
    """
    opens: list[list[str]] = []
    closes: list[int] = []
    starts: list[int] = []
    for kind, node, _ in tree.events():  # iterative: no depth limit
        leaf = node.is_preterminal() or not node.children
        if kind == OPEN:
            starts.append(len(opens))
        elif kind == WORD and (not leaf or node.label != "-NONE-"):
            opens.append([])
            closes.append(0)
        elif kind == CLOSE:
            start = starts.pop()
            covered = len(opens) - start
            if not leaf and covered and node.label:
                opens[start].append(node.label)  # inner first: read back reversed
                closes[start + covered - 1] += 1
    return ["".join("(" + lab for lab in reversed(o)) + "*" + ")" * c
            for o, c in zip(opens, closes, strict=True)]


def project(p: Parse, projection: str, path: str = "<input>") -> list[str]:
    """The parse string of every row of P under PROJECTION."""
    n = len(p.forms)
    if p.failed is not None:
        return [FAILED] * n
    if p.kind == "rows":
        return p.rows
    if p.kind == "tree":
        assert p.tree is not None
        if projection == "brackets":
            return bracket_strings(p.tree)
        if projection in ("upos", "xpos", "tag"):
            return p.upos
        raise InputError(f"--project {projection} does not apply to bracketed trees "
                         "(use brackets or tag)", path, p.line)
    if projection == "links" or (p.kind == "links" and projection in ("head+deprel", "head",
                                                                      "deprel")):
        if p.kind != "links":
            raise InputError("--project links needs Link Grammar output (MISC Links=)",
                             path, p.line)
        return link_strings(p.links, n)
    if projection == "head+deprel":
        return [f"{h}:{d}" for h, d in zip(p.heads, p.deprels, strict=True)]
    if projection == "head":
        return [str(h) for h in p.heads]
    if projection == "deprel":
        return p.deprels
    if projection in ("upos", "tag"):
        return p.upos
    if projection == "xpos":
        return p.xpos
    raise InputError(f"unknown projection {projection!r}; expected one of "
                     + ", ".join(PROJECTIONS))


def link_strings(links: Sequence[tuple[int, int, str]], n: int) -> list[str]:
    """Each word's links as ``OTHER:LABEL`` joined by commas (the MISC ``Links=`` value)."""
    per: list[list[str]] = [[] for _ in range(n + 1)]
    for i, j, lab in links:
        per[i].append(f"{j}:{lab}")
        per[j].append(f"{i}:{lab}")
    return [",".join(x) for x in per[1:]]


def _spans(tree: Tree, labeled: bool) -> Counter[tuple[int, int, str]]:
    out: Counter[tuple[int, int, str]] = Counter()
    starts: list[int] = []
    pos = 0
    for kind, node, _ in tree.events():  # iterative: no depth limit
        leaf = node.is_preterminal() or not node.children
        if kind == OPEN:
            starts.append(pos)
        elif kind == WORD and (not leaf or node.label != "-NONE-"):
            pos += 1
        elif kind == CLOSE:
            start = starts.pop()
            if not leaf and pos > start and node.label:
                out[(start, pos, node.label if labeled else "")] += 1
    return out


def structure(p: Parse, labeled: bool) -> object:
    """What must be equal for two parses of a sentence to match (Kakkonen).

    Heads (and labels) for dependency trees, the set of unordered word pairs
    (and link labels) for links, the multiset of phrase spans (and labels) for
    trees, the parse strings for row files.
    """
    if p.kind == "deps":
        return tuple(zip(p.heads, p.deprels, strict=True)) if labeled else tuple(p.heads)
    if p.kind == "links":
        return frozenset(p.links) if labeled else frozenset((i, j) for i, j, _ in p.links)
    if p.kind == "tree":
        assert p.tree is not None
        return _spans(p.tree, labeled)
    return tuple(p.rows)


def arcs(p: Parse, labeled: bool, punct: bool, root: bool) -> list[tuple[int, int, str]]:
    """(dependent, head, label) of every dependency: 1-based, head 0 for the root.

    ``punct=False`` drops arcs whose dependent is punctuation (UPOS PUNCT or
    deprel punct); ``root=False`` drops the root attachment. Words without a
    head and failed parses have no arcs.
    """
    if p.failed is not None:
        return []
    if p.kind == "links":
        return [(j, i, lab if labeled else "") for i, j, lab in p.links
                if root or i > 0]
    out = []
    for i, h in enumerate(p.heads):
        if h == NO_HEAD or (h == 0 and not root):
            continue
        if not punct and (p.upos[i] == "PUNCT" or p.deprels[i].split(":")[0] == "punct"):
            continue
        out.append((i + 1, h, p.deprels[i] if labeled else ""))
    return out


def misspelled_rows(clean: Parse, noisy: Parse) -> list[bool]:
    """Rows misspelled in NOISY: a noise record in MISC, or a form unlike the clean one."""
    return [r or a != b for r, a, b in zip(noisy.noise, noisy.forms, clean.forms, strict=True)]


def carries(parses: Sequence[Parse], projection: str) -> bool:
    """Whether any parsed sentence has PROJECTION at all: a tagger's CoNLL-U has ``_``
    heads and relations, and a figure made of those would be a perfect score that the
    parser never earned."""
    done = [p for p in parses if p.failed is None and p.kind == "deps"]
    if not done or projection in ("links", "brackets"):
        return True
    if projection in ("head", "head+deprel"):
        return any(h != NO_HEAD for p in done for h in p.heads)
    column = {"deprel": "deprels", "upos": "upos", "tag": "upos", "xpos": "xpos"}
    return any(v != "_" for p in done for v in getattr(p, column[projection]))


def drawn_arcs(p: Parse) -> list[list[Any]] | None:
    """The parse's arcs as the report draws and browses them: [dependent, head, label]
    (head 0 the root; a word without a head has none), or [left, right, label] links
    (word 0 the wall); None for trees and failures."""
    if p.failed or p.kind not in ("deps", "links"):
        return None
    if p.kind == "links":
        return [[i, j, lab] for i, j, lab in p.links]
    return [[i, h, d] for i, (h, d) in enumerate(zip(p.heads, p.deprels, strict=True), 1)
            if h >= 0]


def tree_text(p: Parse, words: Sequence[str]) -> str:
    """P's tree with WORDS in its leaves (the clean words, so that a misspelling is not a
    word mismatch); a failed parse is the flat tree ``parse`` writes for it."""
    if p.failed or p.tree is None or len(p.forms) != len(words):
        return f"({FAILED_TREE} " + " ".join(f"(X {escape_word(w)})" for w in words) + ")"
    tree = p.tree.copy()
    it = iter(words)
    for node in tree.nodes():
        if node.is_preterminal() and node.label != "-NONE-":
            node.children = [next(it)]
    return str(tree)


# a parser's outcome for one input sentence, and the input itself


def blank(words: list[str], comments: list[str], line: int = 0) -> Sentence:
    """A sentence of WORDS with every other column ``_`` (no analysis yet)."""
    n = len(words)
    return Sentence(forms=list(words), lemmas=["_"] * n, upos=["_"] * n, xpos=["_"] * n,
                    feats=["_"] * n, heads=[NO_HEAD] * n, deprels=["_"] * n, deps=["_"] * n,
                    misc=["_"] * n, comments=comments, line=line)


def read_input(path: str | os.PathLike[str]) -> list[Sentence]:
    """Sentences of a CoNLL-U file, or of a text file (one a line, words split on spaces)."""
    return list(iter_input(path))


def iter_input(path: str | os.PathLike[str]) -> Iterator[Sentence]:
    """:func:`read_input` one sentence at a time: a reader that stops early (a corpus's
    ``limit``) reads no further."""
    if looks_like_conllu(path, itertools.islice(iter_lines(path), 200)):
        yield from iter_conllu(path)
        return
    for n, line in enumerate(iter_lines(path), 1):
        words = line.split()
        if words:
            yield blank(words, [f"# text = {line.strip()}"], n)


INPUT_COMMENTS = ("# sent_id ", "# sent_id=", "# text ", "# text=", "# newdoc", "# newpar")
"""The comments a parse keeps of its input: the sentence's id and text, and where
documents and paragraphs start (the input's segmentation, no annotation)."""
TOKENIZATION_MISC = frozenset({"SpaceAfter", "SpacesAfter", "SpacesBefore", "SpacesInToken"})
"""The MISC attributes a parse keeps of its input: how the words were spaced."""


def input_misc(misc: str) -> str:
    """What a parse keeps of an input word's MISC: its spacing and parsebench's noise
    record (``Noise=OP|Orig=FORM``), not the annotators' notes (``CheckAttachment=6``)
    nor a parse's links: the parse of a gold file must carry nothing of the gold's."""
    if misc == "_":
        return misc
    parts = misc.split("|")
    noisy = any(p.startswith("Noise=") for p in parts)
    kept = [p for p in parts if p.partition("=")[0] in TOKENIZATION_MISC
            or p.startswith("Noise=") or (noisy and p.startswith("Orig="))]
    return "|".join(kept) or "_"


def to_conllu(s: Sentence, o: Outcome) -> Sentence:
    """The parser's columns of outcome O (or its failure marks) over input S's words, with
    the input's tokenization (multiword tokens, spacing, id and text) and noise records,
    nothing else of it: a gold file's notes, enhanced graph and empty nodes are not the
    parser's (an empty node is the parser's to predict). What ``parse`` writes."""
    comments = [c for c in s.comments if c.startswith(INPUT_COMMENTS)]
    if isinstance(o, Analysis) and o.forms is not None and o.forms != s.forms:
        n = len(o.forms)  # the parser tokenized raw text itself: its own words
        base = blank(o.forms, comments, s.line)
        base.multiword = [(a, b, [f"{a + 1}-{b + 1}", form, *["_"] * 8])
                          for a, b, form in o.tokens or ()]
    else:
        n = len(s.forms)
        base = replace(s, lemmas=["_"] * n, upos=["_"] * n, xpos=["_"] * n, feats=["_"] * n,
                       heads=[NO_HEAD] * n, deprels=["_"] * n, deps=["_"] * n,
                       misc=[input_misc(m) for m in s.misc], comments=comments,
                       multiword=[(a, b, [cols[0], cols[1], *["_"] * 7, input_misc(cols[9])])
                                  for a, b, cols in s.multiword],
                       empty_nodes=[])
    if not isinstance(o, Analysis):
        base.comments = [*comments, "# parse_status = failed",
                         f"# parse_error = {o.reason.replace(chr(10), ' ')}"]
        return base
    for col in ("heads", "deprels", "upos", "xpos", "lemmas", "feats"):
        val = getattr(o, col)
        if val is not None:
            setattr(base, col, list(val))
    if o.links is not None:
        for k, val in enumerate(link_strings(o.links, n)):
            if val:
                rec = "Links=" + val
                base.misc[k] = rec if base.misc[k] == "_" else base.misc[k] + "|" + rec
    return base


def documents(sentences: Sequence[Sentence]) -> list[list[Sentence]]:
    """SENTENCES in the units a parser that tokenizes raw text gets them: each document
    (a ``# newdoc`` comment begins one), so that it finds the sentence boundaries itself
    as in the CoNLL 2018 shared task; each sentence alone where the file marks no
    document (French and German GSD, for one)."""
    if not any(c.startswith("# newdoc") for s in sentences for c in s.comments):
        return [[s] for s in sentences]
    out: list[list[Sentence]] = []
    for s in sentences:
        if not out or any(c.startswith("# newdoc") for c in s.comments):
            out.append([])
        out[-1].append(s)
    return out


def document_text(unit: Sequence[Sentence]) -> str:
    """The text of a document as a parser gets it: its sentences' texts, a space apart
    (what the CoNLL 2018 scorer compares is the characters other than spaces)."""
    return " ".join(s.text for s in unit)


def unit_sentences(unit: Sequence[Sentence], o: Outcome) -> list[Sentence]:
    """The parser's sentences of a UNIT of raw text (:func:`documents`): those it found
    (:func:`own_sentences`), or where it failed, each of the unit's sentences with its
    words unparsed, so that the text scored is still the gold's."""
    if isinstance(o, Analysis):
        return own_sentences(unit[0], o)
    return [to_conllu(s, o) for s in unit]


def own_sentences(s: Sentence, o: Outcome) -> list[Sentence]:
    """:func:`to_conllu`, cut into the sentences the parser found in the text it was given
    (``Analysis.starts``), each with its own ids and heads, as a file of its output holds
    them: what its sentence segmentation is scored on. A head that crosses a cut (no
    parser that splits gives one) leaves the sentence whole."""
    whole = to_conllu(s, o)
    starts = o.starts if isinstance(o, Analysis) else None
    if not starts:
        return [whole]
    bounds = [0, *starts, len(whole.forms)]
    spans = list(itertools.pairwise(bounds))
    for a, b in spans:
        if any(h > 0 and not a < h <= b for h in whole.heads[a:b]):
            return [whole]
    ids = [c.split("=", 1)[1].strip() for c in whole.comments
           if c.startswith(("# sent_id ", "# sent_id="))]
    out = []
    for n, (a, b) in enumerate(spans, 1):
        cols = {c: getattr(whole, c)[a:b] for c in ("forms", "lemmas", "upos", "xpos",
                                                    "feats", "deprels", "deps", "misc")}
        heads = [h - a if h > 0 else h for h in whole.heads[a:b]]
        # the input's id, numbered a piece; its text is the whole's, no piece's
        comments = [c for c in whole.comments if c.startswith(("# newdoc", "# newpar"))
                    and n == 1] + [f"# sent_id = {ids[0]}.{n}" for _ in ids[:1]]
        out.append(replace(whole, **cols, heads=heads, comments=comments,
                           multiword=[(x - a, y - a, [f"{x - a + 1}-{y - a + 1}", *cols_[1:]])
                                      for x, y, cols_ in whole.multiword if a <= x and y < b],
                           empty_nodes=[]))
    return out


def labelled(s: Sentence, n: int) -> Sentence:
    """S with the ``# sent_id`` and ``# text`` that CoNLL-U asks of every sentence (UD's
    validator, level 2) where it has none: N as its id, its words' text (a space after
    each word unless its MISC says ``SpaceAfter=No``) as its text. A sentence a parser
    found in raw text has neither until here."""
    keys = {c.split("=", 1)[0].strip() for c in s.comments if "=" in c}
    extra = []
    if "# sent_id" not in keys:
        extra.append(f"# sent_id = {n}")
    if "# text" not in keys:
        text = "".join(f + ("" if "SpaceAfter=No" in m.split("|") else " ")
                       for f, m in zip(s.forms, s.misc, strict=True)).strip()
        extra.append(f"# text = {text}")
    return replace(s, comments=[*s.comments, *extra]) if extra else s


def to_tree(s: Sentence, o: Outcome) -> str:
    """The bracketed tree of outcome O, or the flat failed tree over S's words."""
    if isinstance(o, Analysis) and o.tree is not None:
        return o.tree
    return f"({FAILED_TREE} " + " ".join(f"(X {w})" for w in s.forms) + ")"


def from_outcome(s: Sentence, outcome: Outcome, kind: str) -> Parse:
    """The Parse of a parser's OUTCOME for input sentence S, a parser of KIND (``tree``
    for constituency parsers): what ``from_sentence(to_conllu(s, outcome))`` gives,
    without writing CoNLL-U between."""
    if kind == "tree":
        if isinstance(outcome, Analysis) and outcome.tree is not None:
            return from_tree(parse_tree(outcome.tree, "<parser output>", s.line), s.line)
        return Parse(forms=list(s.forms), line=s.line, kind="tree",
                     failed=getattr(outcome, "reason", "no tree"), noise=[False] * len(s.forms))
    n = len(s.forms)
    noise = [m != "_" and ("|Noise=" in m or m.startswith("Noise=")) for m in s.misc]
    if not isinstance(outcome, Analysis):
        return Parse(forms=s.forms, line=s.line, kind="deps",
                     failed=outcome.reason.replace("\n", " ").strip(), heads=[NO_HEAD] * n,
                     deprels=["_"] * n, upos=["_"] * n, xpos=["_"] * n, noise=noise)
    if outcome.forms is not None and outcome.forms != s.forms:
        return from_sentence(to_conllu(s, outcome))
    links = outcome.links
    return Parse(forms=s.forms, line=s.line, kind="deps" if links is None else "links",
                 heads=list(outcome.heads) if outcome.heads is not None else [NO_HEAD] * n,
                 deprels=list(outcome.deprels) if outcome.deprels is not None else ["_"] * n,
                 upos=list(outcome.upos) if outcome.upos is not None else ["_"] * n,
                 xpos=list(outcome.xpos) if outcome.xpos is not None else ["_"] * n,
                 links=sorted({(min(i, j), max(i, j), lab) for i, j, lab in links})
                 if links is not None else [], noise=noise)

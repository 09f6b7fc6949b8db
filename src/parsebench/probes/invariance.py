"""Invariance tests for parsers (``parsebench invariance``), after CheckList's invariance
tests for text classifiers (Ribeiro et al., ACL 2020).

Each edit changes one word so that the correct parse stays the same tree:

- ``propn``: a one-word proper noun (no proper noun beside it) swapped for another
  of the same number;
- ``num``: a number written in digits swapped for another (never ``1``, which agrees
  with a singular noun);
- ``case``: the case of the sentence's first letter changed (``The`` -> ``the``,
  ``the`` -> ``The``);
- ``adj``: an adjective swapped for another adjective of the same degree.

A substitute must fill the word's *frame* (:func:`frame`), its place in the tree:
the same XPOS and number or degree, the same relation to a head of the same class,
number and side, dependents with the same relations on the same sides, and the same
determiners (by their form), numerals and adjectives among the head's dependents
beyond the word,
and it must be attested in the corpus in that very frame. Same class and degree
alone admitted *a few days* -> *a long days* and *fond of* -> *much of*, edits whose
correct tree is not the original's. Substitutes come from the corpus itself (so it
must be tagged and parsed: a treebank, or a parse), drawn with a seed; a sentence
gets at most one edit of each type, at a seeded site among those with a substitute.
An edit *fails* when the parser's parse of the words that were not edited changes
(head or relation, as ``attack`` and Bigert et al. count them) against its own parse
of the original sentence. The failure rate of each
type has a 95% Wilson score interval (:mod:`parsebench.metrics.core.proportions`: never of
width zero); the share of untouched words that changed, a percentile-bootstrap one over
the sentences tested.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from parsebench.common.errors import InputError
from parsebench.formats.conllu import Sentence
from parsebench.metrics.core.proportions import METHOD as WILSON
from parsebench.metrics.core.proportions import wilson
from parsebench.metrics.core.resample import sentence_interval
from parsebench.model.parses import misc_value
from parsebench.noise.spelling import Change
from parsebench.noise.spelling_output import apply_to_sentence
from parsebench.parsers.cached import CachedParse, CachedParser, changed
from parsebench.present import interval_text

EDITS = ("propn", "num", "case", "adj")
SHOWN = 5
"""Failing sentences a type shows in the text output (all are in the JSON)."""


@dataclass(frozen=True)
class Perturbation:
    sentence: int
    token: int
    kind: str
    orig: str
    new: str
    frame: str = ""
    """The rule that admitted it: the frame both words are attested in (:func:`describe`)."""


Frame = tuple[str, str, str, tuple[str, ...], tuple[tuple[str, str], ...], tuple[str, ...]]
"""(XPOS, number or degree, relation, head (class, number, side) or (ROOT,), the
dependents' (side, relation), the relations of the head's dependents beyond the word)."""


def _feat(feats: str, key: str) -> str:
    return misc_value(feats, key) or "-"


def _key(s: Sentence, i: int, kind: str) -> str | None:
    """The pool a word belongs to for KIND (its number or degree), None if it does not
    qualify."""
    w, upos = s.forms[i], s.upos[i]
    if kind == "propn" and upos == "PROPN" and w.isalpha() and w[:1].isupper():
        # a one-word name only: inside "United Nations" another name is another tree
        if any(0 <= j < len(s.upos) and s.upos[j] == "PROPN" for j in (i - 1, i + 1)):
            return None
        return _feat(s.feats[i], "Number")
    if kind == "num" and upos == "NUM" and w.isascii() and w.isdigit() and w != "1":
        return "-"
    if kind == "adj" and upos == "ADJ" and w.isalpha() and w.islower():
        return _feat(s.feats[i], "Degree")
    return None


def _blocked(s: Sentence) -> set[int]:
    return {i for a, b, _ in s.multiword for i in range(a, b + 1)}


def _children(s: Sentence) -> list[list[int]] | None:
    """Each word's dependents; None when a head is missing or out of range (no tree)."""
    n = len(s.forms)
    kids: list[list[int]] = [[] for _ in range(n)]
    for d, h in enumerate(s.heads):
        if not 0 <= h <= n or h == d + 1:
            return None
        if h:
            kids[h - 1].append(d)
    return kids


_BEYOND = {"det", "nummod", "amod"}
"""The head's dependents beyond the word that a frame keeps: those that agree with it,
count or modify beside it (*a few days*; *a few short weeks* attests *short* after *a
few*, not in *a few weeks*' place); a preposition or a possessive does not."""


def frame(s: Sentence, i: int, key: str, kids: list[list[int]]) -> Frame:
    """Word I's place in S's tree, what a substitute must share for the tree to stay:
    its XPOS and KEY (number or degree), relation, head (class, number, side), its
    dependents' relations by side, and the head's determiners (by their form: *a few
    days* is not *a long days*), numerals and adjectives beyond it."""
    h = s.heads[i]
    own = tuple(sorted(("L" if d < i else "R", s.deprels[d]) for d in kids[i]))
    if h == 0:
        return (s.xpos[i], key, s.deprels[i], ("ROOT",), own, ())
    hd = h - 1
    beyond = [d for d in kids[hd] if (d < i if hd > i else d > i)
              and s.deprels[d].split(":")[0] in _BEYOND]
    outer = tuple(sorted(f"det '{s.forms[d].lower()}'" if s.deprels[d].split(":")[0] == "det"
                         else s.deprels[d] for d in beyond))
    head = (s.upos[hd], _feat(s.feats[hd], "Number"), "right" if hd > i else "left")
    return (s.xpos[i], key, s.deprels[i], head, own, outer)


def describe(f: Frame) -> str:
    """A frame in words: ``JJ Degree=Pos, amod of a NOUN (Number=Plur) to its right; no
    dependents; beyond it: det 'a'``."""
    xpos, key, rel, head, own, outer = f
    what = f"{xpos}" + (f" {key}" if key != "-" else "")
    of = "root" if head == ("ROOT",) else \
        f"{rel} of a {head[0]}" + (f" (Number={head[1]})" if head[1] != "-" else "") + \
        f" to its {head[2]}"
    deps = ", ".join(f"{r} ({side})" for side, r in own) or "no dependents"
    return f"{what}, {of}; {deps}" + (f"; beyond it: {', '.join(outer)}" if outer else "")


_FEATURE = {"propn": "Number", "adj": "Degree"}


def make_edits(sentences: Sequence[Sentence], seed: int) -> dict[str, list[Perturbation]]:
    """Every type's edits: at most one a sentence, each substitute attested in the corpus
    in the frame of the word it replaces (:func:`frame`)."""
    if not any(u != "_" for s in sentences for u in s.upos):
        raise InputError("the corpus has no UPOS: invariance edits are placed by word "
                         "class (give a tagged CoNLL-U, e.g. a treebank or a parse)")
    trees = [_children(s) for s in sentences]
    if not any(trees):
        raise InputError("the corpus has no heads: an invariance edit is admitted by the "
                         "word's frame in the tree (give a parsed CoNLL-U, e.g. a treebank "
                         "or a parse)")
    pools: dict[str, dict[Frame, set[str]]] = {k: {} for k in EDITS}
    sites_of: list[dict[str, list[tuple[int, Frame]]]] = []
    for s, kids in zip(sentences, trees, strict=True):
        out = _blocked(s)
        mine: dict[str, list[tuple[int, Frame]]] = {}
        sites_of.append(mine)
        if kids is None:
            continue
        for i in range(len(s.forms)):
            for kind in ("propn", "num", "adj"):
                key = _key(s, i, kind)
                if key is not None and i not in out:
                    f = frame(s, i, key if key == "-" else f"{_FEATURE[kind]}={key}", kids)
                    pools[kind].setdefault(f, set()).add(s.forms[i])
                    mine.setdefault(kind, []).append((i, f))
    sorted_pools = {k: {f: sorted(v) for f, v in p.items()} for k, p in pools.items()}
    edits: dict[str, list[Perturbation]] = {k: [] for k in EDITS}
    for si, s in enumerate(sentences):
        out = _blocked(s)
        for ki, kind in enumerate(EDITS):
            rng = random.Random(seed * 1_000_003 ** 2 + si * 1_000_003 + ki)
            if kind == "case":
                w = s.forms[0] if s.forms and 0 not in out else ""
                if not w.isalpha():
                    continue
                new = w[0].lower() + w[1:] if w[0].isupper() else w[0].upper() + w[1:]
                if new != w:
                    edits[kind].append(Perturbation(si, 0, kind, w, new))
                continue
            sites = [(i, f, subs) for i, f in sites_of[si].get(kind, ())
                     for subs in [[w for w in sorted_pools[kind][f]
                                   if w.lower() != s.forms[i].lower()]] if subs]
            if not sites:
                continue
            i, f, subs = sites[int(rng.random() * len(sites))]
            edits[kind].append(Perturbation(si, i, kind, s.forms[i],
                                            subs[int(rng.random() * len(subs))], describe(f)))
    return edits


def edited(sentences: Sequence[Sentence], edits: Sequence[Perturbation]) -> list[Sentence]:
    """The corpus with EDITS written in (FORM, ``# text``, MISC ``Invariance=KIND|Orig=``)."""
    out = list(sentences)
    for e in edits:
        s = apply_to_sentence(sentences[e.sentence],
                              [Change(e.sentence, e.token, e.kind, e.orig, e.new)])
        s.misc[e.token] = s.misc[e.token].replace(f"Noise={e.kind}|", f"Invariance={e.kind}|")
        out[e.sentence] = s
    return out


def _words(s: Sentence, e: Perturbation) -> tuple[str, ...]:
    words = list(s.forms)
    words[e.token] = e.new
    return tuple(words)


def _rate(sums: Any) -> Any:
    import numpy as np

    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(sums[:, 1] > 0, sums[:, 0] / sums[:, 1], np.nan)


def check(sentences: Sequence[Sentence], edits: dict[str, list[Perturbation]],
          parser: CachedParser, what: str = "invariance: parsing") -> dict[str, Any]:
    """One parser's failure rates by edit type, and its failing sentences."""
    todo = [(kind, e) for kind in EDITS for e in edits[kind]]
    answers = parser.many([tuple(s.forms) for s in sentences]
                          + [_words(sentences[e.sentence], e) for _, e in todo], what)
    clean, variants = answers[:len(sentences)], answers[len(sentences):]
    out: dict[str, Any] = {}
    for kind in EDITS:
        stats: list[list[int]] = []
        rows: list[list[int]] = []
        fails: list[dict[str, Any]] = []
        own = 0
        skipped = 0
        for (k, e), v in zip(todo, variants, strict=True):
            if k != kind:
                continue
            c: CachedParse = clean[e.sentence]
            if c.failed:
                skipped += 1
                continue
            diff = changed(c, v, {e.token})
            n = len(c.rows) - 1
            stats.append([int(bool(diff)), 1])
            rows.append([len(diff), n])
            own += c.rows[e.token] != v.rows[e.token]
            if diff:
                s = sentences[e.sentence]
                fails.append({"sentence": e.sentence + 1, "sent_id": s.comment_value("sent_id"),
                              "token": e.token + 1, "orig": e.orig, "new": e.new,
                              "frame": e.frame, "text": s.text,
                              "changed_words": [{"token": i + 1, "form": s.forms[i],
                                                 "clean": c.rows[i], "edited": v.rows[i]}
                                                for i in diff]})
        tested = len(stats)
        failed = sum(x[0] for x in stats)
        changed_rows, untouched = sum(x[0] for x in rows), sum(x[1] for x in rows)
        out[kind] = {
            "tested": tested, "failed": failed, "clean_failed": skipped,
            "failure_rate": failed / tested if tested else None,
            "ci95": wilson(failed, tested), "interval": WILSON,
            "changed_words": {"rate": changed_rows / untouched if untouched else None,
                              "changed": changed_rows, "untouched": untouched,
                              "ci95": sentence_interval(rows, _rate)},
            "edited_word_changed": own / tested if tested else None,
            "edited_changed": own,
            "failures": fails}
    return out


def summary_table(r: dict[str, Any], shown: int | None = SHOWN) -> str:
    def pct(x: float | None) -> str:
        return "n/a" if x is None else f"{100 * x:.1f}"

    def ci(x: list[float] | None) -> str:
        return interval_text(x, 1)

    w = max([28, *map(len, r["parsers"])])  # a spec whole: its end names the model
    lines = ["invariance: an edit fails when the head or relation of a word it did not "
             "touch changes",
             "(95% interval: Wilson score over the sentences tested)",
             f"{'parser':<{w}} {'edit':<6} {'tested':>6} {'failed %':>9} {'95% interval':>14} "
             f"{'words changed %':>16}"]
    for spec, per in r["parsers"].items():
        for kind in EDITS:
            x = per[kind]
            lines.append(f"{spec:<{w}} {kind:<6} {x['tested']:>6} "
                         f"{pct(x['failure_rate']):>9} {ci(x['ci95']):>14} "
                         f"{pct(x['changed_words']['rate']):>16}")
    for spec, per in r["parsers"].items():
        for kind in EDITS:
            fails = per[kind]["failures"]
            if not fails:
                continue
            lines += ["", f"{spec}, {kind}: {len(fails)} failing sentences"]
            for f in fails[:shown]:
                what = ", ".join(f"{w['form']} {w['clean']}->{w['edited']}"
                                 for w in f["changed_words"])
                lines.append(f"  {f['sent_id'] or '#' + str(f['sentence'])}: "
                             f"{f['orig']} -> {f['new']} (word {f['token']}): {what}")
            if shown is not None and len(fails) > shown:
                lines.append(f"  ... {len(fails) - shown} more (--json, or -o DIR)")
    return "\n".join(lines) + "\n"

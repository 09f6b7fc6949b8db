"""The CoNLL 2018 shared task's metrics (Zeman et al. 2018): what each compares.

The thirteen metrics give the numbers of the shared task's script
(conll18_ud_eval.py): Tokens and Sentences on character spans of the text
without spaces, Words on the alignment, then UPOS, XPOS, UFeats (universal
features only, in any order), AllTags, Lemmas (a gold ``_`` matches anything),
UAS, LAS (relation subtypes ignored), and over content relations CLAS, MLAS
(also UPOS, UFeats and the functional children) and BLEX (also the lemma), each
as precision, recall, F1 and accuracy on the aligned words. Their counts, which
columns each needs (a file without them gets n/a, not 0), the content and
functional relations and the universal features live here; the words are
aligned in :mod:`parsebench.metrics.dependency.tokenization` and counted, in the same pass as
Lin's dependencies, by :func:`parsebench.metrics.dependency.evaluate.score_deps`.
"""

from __future__ import annotations

import functools
import itertools
import os
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from parsebench.formats.conllu import NO_HEAD, Sentence
from parsebench.metrics.core.counts import Additive

if TYPE_CHECKING:
    from parsebench.metrics.dependency.figures import DepsScores

CONTENT_DEPRELS = frozenset({
    "nsubj", "obj", "iobj", "csubj", "ccomp", "xcomp", "obl", "vocative", "expl",
    "dislocated", "advcl", "advmod", "discourse", "nmod", "appos", "nummod", "acl",
    "amod", "conj", "fixed", "flat", "compound", "list", "parataxis", "orphan",
    "goeswith", "reparandum", "root", "dep",
})


BASES: dict[str, str] = {}
"""Relations already split from their subtype (read directly in the hot loops of deps)."""


def base(deprel: str) -> str:
    """The relation without its subtype (memoized: called for every word of both files)."""
    got = BASES.get(deprel)
    if got is None:
        got = deprel.split(":", 1)[0]
        if len(BASES) < 10_000:
            BASES[deprel] = got
    return got


@dataclass(slots=True)
class F1Count(Additive):
    """CoNLL 2018 counts: correct, gold total, system total, aligned words."""

    correct: int = 0
    gold: int = 0
    system: int = 0
    aligned: int = 0

    def as_dict(self, on_aligned: bool = True) -> dict[str, float | None]:
        """None (n/a) where a count is zero: no words to score, not a score of 0.
        ``aligned_accuracy`` is null for the metrics not computed on aligned words."""
        return {
            "precision": self.correct / self.system if self.system else None,
            "recall": self.correct / self.gold if self.gold else None,
            "f1": 2 * self.correct / (self.gold + self.system) if self.gold and self.system
            else None,
            "aligned_accuracy": self.correct / self.aligned if on_aligned and self.aligned
            else None,
        }


CONLL18 = ("tokens", "sentences", "words", "upos", "xpos", "ufeats", "alltags", "lemmas",
           "uas", "las", "clas", "mlas", "blex")
"""The CoNLL 2018 shared task's metrics, in the order its script prints them."""
CONLL18_NAMES = dict(zip(CONLL18, ("Tokens", "Sentences", "Words", "UPOS", "XPOS", "UFeats",
                                   "AllTags", "Lemmas", "UAS", "LAS", "CLAS", "MLAS", "BLEX"),
                         strict=True))
"""Their names as the script prints them."""
SPAN_METRICS = ("tokens", "sentences", "words")
"""The ones not computed on aligned words (no aligned accuracy)."""
ATTACHMENT = ("uas", "las", "clas", "mlas", "blex")
"""The ones that need heads: n/a for a tagger's output."""
METRIC_NEEDS: dict[str, tuple[str, ...]] = {
    "upos": ("upos",), "xpos": ("xpos",), "ufeats": ("feats",),
    "alltags": ("upos", "xpos", "feats"), "lemmas": ("lemmas",),
    "uas": ("heads",), "las": ("heads",), "clas": ("heads",),
    "mlas": ("heads", "upos", "feats"), "blex": ("heads", "lemmas"),
    "ucm": ("heads",), "lcm": ("heads",), "unlabeled": ("heads",), "labeled": ("heads",),
    "elas": ("deps",), "eulas": ("deps",)}
"""What each metric compares: a file with that column empty on every word (a parser
with no tagger, a gold without lemmas) cannot give the metric, which is then n/a, not
the 0 (or 100) of comparing ``_`` with ``_``."""


ENHANCED = ("elas", "eulas")
"""The IWPT 2020/2021 metrics of the enhanced graphs
(:mod:`parsebench.metrics.dependency.enhanced`), which udeval prints after the thirteen."""
ENHANCED_NAMES = {"elas": "ELAS", "eulas": "EULAS"}


def absent_metrics(system_has: set[str], gold_has: set[str]) -> frozenset[str]:
    """The metrics of METRIC_NEEDS that files with these columns cannot give (heads are
    the system's only: a gold always has them; enhanced graphs both files')."""
    have = system_has & (gold_has | {"heads"})
    return frozenset(m for m, needs in METRIC_NEEDS.items() if not set(needs) <= have)


HELD_COLUMNS = 6
"""How many columns :func:`held_columns` looks for: once INTO has them all, nothing is left
to look at."""


def held_columns(sentence: Sentence, into: set[str]) -> None:
    """Add to INTO the columns SENTENCE fills on some word (counted at C speed: a column
    no word fills, as a parser's lemmas, was looked at a word at a time in every
    sentence)."""
    if "heads" not in into and sentence.heads.count(NO_HEAD) != len(sentence.heads):
        into.add("heads")
    for col, values in (("deps", sentence.deps), ("upos", sentence.upos),
                        ("xpos", sentence.xpos), ("feats", sentence.feats),
                        ("lemmas", sentence.lemmas)):
        if col not in into and values.count("_") != len(values):
            into.add(col)


FUNCTIONAL_DEPRELS = frozenset({"aux", "cop", "mark", "det", "clf", "case", "cc"})
UNIVERSAL_FEATURES = frozenset({
    "PronType", "NumType", "Poss", "Reflex", "Foreign", "Abbr", "Gender", "Animacy",
    "Number", "Case", "Definite", "Degree", "VerbForm", "Mood", "Tense", "Aspect", "Voice",
    "Evident", "Polarity", "Person", "Polite",
})


@functools.lru_cache(maxsize=4096)
def universal_feats(feats: str) -> str:
    """FEATS with only the universal features, sorted: what UFeats compares."""
    return "|".join(sorted(f for f in feats.split("|")
                           if f.split("=", 1)[0] in UNIVERSAL_FEATURES))


TSV_METRICS = (*CONLL18, "ucm", "lcm", *ENHANCED)


def sentence_tsv_header() -> str:
    """Columns of ``--per-sentence``: the sentence, then each metric's F1 (in percent, "n/a"
    without words to score) and its counts."""
    cols = ["sentence", "line", "sent_id"]
    for m in TSV_METRICS:
        cols += [m, f"{m}_correct", f"{m}_gold", f"{m}_system"]
    return "\t".join(cols) + "\n"


def sentence_tsv_row(number: int, c: Any) -> str:
    """One line of ``--per-sentence``: C is a gold sentence's counts (SentenceCounts)."""
    cells = [str(number), str(c.line), (c.sent_id or "").replace("\t", " ")]
    for m in TSV_METRICS:
        f = getattr(c, m)
        den = f.gold + f.system
        cells += [f"{200 * f.correct / den:.2f}" if den else "n/a", str(f.correct),
                  str(f.gold), str(f.system)]
    return "\t".join(cells) + "\n"


class SentenceRows:
    """``--per-sentence``'s file, written as the sentences are scored (:meth:`each`) and
    kept only when :meth:`finish` is called: a row waits in a temporary file until the
    end, when the metrics the files cannot give (no tags, no lemmas: known after the
    last sentence) are written n/a; an error before leaves no file."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = path
        # open as long as the object, which is a context manager that closes it
        self.rows = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115
        self.number = itertools.count(1)

    def __enter__(self) -> SentenceRows:
        return self

    def __exit__(self, *_: object) -> None:
        self.rows.close()

    def each(self, c: Any) -> None:
        """Keep the row of one gold sentence's counts (SentenceCounts)."""
        self.rows.write(sentence_tsv_row(next(self.number), c))

    def finish(self, absent: Iterable[str]) -> None:
        """Write the file, the metrics of ABSENT n/a, atomically."""
        from parsebench.common.errors import atomic_output

        header = sentence_tsv_header()
        names = header.rstrip("\n").split("\t")
        gone = [names.index(m) for m in TSV_METRICS if m in set(absent)]
        with atomic_output(self.path) as tsv:
            tsv.write(header)
            self.rows.seek(0)
            for line in self.rows:
                cells = line.rstrip("\n").split("\t")
                for i in gone:
                    cells[i] = "n/a"
                tsv.write("\t".join(cells) + "\n")


def conll18_table(scores: DepsScores, enhanced: bool = False) -> list[str]:
    """The thirteen metrics laid out as the shared task's script prints them, and with
    ENHANCED ELAS and EULAS after them as udeval does; "n/a" where the system cannot
    have a figure (no heads, no words, no enhanced graph)."""
    def cell(x: float | None) -> str:
        return f"{'n/a':>10}" if x is None else f"{100 * x:10.2f}"

    lines = ["Metric     | Precision |    Recall |  F1 Score | AligndAcc",
             "-----------+-----------+-----------+-----------+-----------"]
    names = {**CONLL18_NAMES, **(ENHANCED_NAMES if enhanced else {})}
    for key, name in names.items():
        d = scores.metric(key)
        lines.append(f"{name:11}|{cell(d.precision)} |{cell(d.recall)} |"
                     f"{cell(d.f1)} |" + ("" if key in SPAN_METRICS
                                          or key in ENHANCED_NAMES
                                          else cell(d.aligned_accuracy)))
    return lines

def counts_table(scores: DepsScores, enhanced: bool = False) -> list[str]:
    """udeval's ``--counts`` table: correct, gold, predicted and aligned of each metric
    (the aligned words' count for Words, blank where a metric is not on aligned words)."""
    lines = ["Metric     | Correct   |      Gold | Predicted | Aligned",
             "-----------+-----------+-----------+-----------+-----------"]
    names = {**CONLL18_NAMES, **(ENHANCED_NAMES if enhanced else {})}
    for key, name in names.items():
        d = scores.metric(key)
        aligned = d.aligned or (d.correct if key == "words" else "")
        lines.append(f"{name:11}|{d.correct:10} |{d.gold:10} |{d.system:10} |"
                     f"{aligned:10}")
    return lines

"""Scores against a gold key (``eval deps``, ``eval brackets``, ``eval flat``) and the
conversions that make keys (``convert``, ``flatten``), as Python calls.

Each function takes a file or a :class:`~parsebench.model.treebank.Treebank` (in memory: no
file, no process, as in a training loop) and returns a Result whose ``to_dict()`` is
the command's ``--json`` object.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

from parsebench.common.errors import InputError, check_output
from parsebench.model import arguments as A
from parsebench.model.results import Result, result
from parsebench.model.treebank import Treebank, as_treebank, name_of

if TYPE_CHECKING:
    from parsebench.formats.brackets import TreeText
    from parsebench.formats.conllu import Sentence
    from parsebench.formats.headrules import Conversion, HeadTable

PathLike = str | os.PathLike[str]


def _as_list(x: str | Iterable[str] | None) -> list[str]:
    if x is None:
        return []
    return [x] if isinstance(x, str) else list(x)


@A.checked(gold=A.corpus, system=A.corpus, select=A.optional(A.strings), by=A.optional(A.text),
           labels=A.optional(A.path), punct=A.flag, confusion=A.optional(A.text),
           per_sentence=A.optional(A.path), head_rules=A.optional(A.path),
           align=A.optional(A.text), invalid=A.text, enhancements=A.optional(A.ENHANCEMENTS),
           no_empty_nodes=A.flag, multiple_roots_okay=A.flag, counts=A.flag)
def evaluate_deps(gold: PathLike | Treebank, system: PathLike | Treebank, *,
                  select: str | Iterable[str] | None = None, by: str | None = None,
                  labels: PathLike | None = None, punct: bool = True,
                  confusion: str | None = None, per_sentence: PathLike | None = None,
                  head_rules: str | None = None, align: str | None = None,
                  invalid: str = "warn", enhancements: str | int | None = None,
                  no_empty_nodes: bool = False, multiple_roots_okay: bool = False,
                  counts: bool = False) -> Result:
    """The CoNLL 2018 metrics, ELAS and EULAS (the enhanced graphs, as udeval scores
    them), exact match and Lin's dependency precision/recall of SYSTEM against GOLD
    (``eval deps``). SELECT is ``FIELD=V1,V2`` (or a list of them, ANDed); BY a
    breakdown; LABELS a file of label equivalences; PER_SENTENCE a TSV file to write;
    HEAD_RULES converts bracketed trees first (collins, penn2malt or a file).
    ALIGN ``"words"`` scores a system whose words differ from the gold's over words
    aligned by edit distance (:mod:`parsebench.metrics.dependency.other_words`; both inputs are
    then read whole); INVALID (warn, error, zero) is what a sentence that is not a tree
    gets (:mod:`parsebench.metrics.dependency.validity`). ENHANCEMENTS, NO_EMPTY_NODES,
    MULTIPLE_ROOTS_OKAY and COUNTS are udeval's options (digits 0-6 of the enhancements
    the gold lacks, e.g. ``12``; empty nodes collapsed; several roots meant, so a valid
    tree; udeval's counts table as the text: the JSON always has the counts). Otherwise both
    inputs are read a sentence at a time: memory stays flat in their size."""
    from parsebench.metrics.dependency.conll18 import SentenceRows
    from parsebench.metrics.dependency.evaluate import DepsOptions
    from parsebench.metrics.dependency.lin_scorer import LabelMap, Selection
    from parsebench.metrics.dependency.lin_shown import deps_table
    from parsebench.metrics.dependency.settings import DepsScoring
    from parsebench.model.inputs import Holds, kind_first, refuse_unparsed

    scoring = DepsScoring.of(align, invalid, enhancements, no_empty_nodes,
                             multiple_roots_okay)
    gold, system = as_treebank(gold), as_treebank(system)
    selections = [Selection.parse(s) for s in _as_list(select)]
    label_map = LabelMap.read(labels) if labels else None
    gold_name, system_name = name_of(gold), name_of(system)
    validity = scoring.validity(system_name)
    table: HeadTable | None = None
    conversion: Conversion | None = None
    files = [p for p in (gold, system) if not isinstance(p, Treebank)]
    if head_rules is not None or not all(str(p).endswith(".conllu") for p in files):
        # bracketed trees possible: only then the head tables (CoNLL-U is read as is)
        from parsebench.formats.headrules import Conversion, load_table

        table = load_table(head_rules) if head_rules is not None else None
        conversion = Conversion()
    if per_sentence is not None:
        check_output(per_sentence)
    # both files are read a sentence at a time: memory stays flat in their size
    with SentenceRows(per_sentence) if per_sentence is not None else \
            contextlib.nullcontext() as rows:
        held = Holds(system_name)
        # noise output of another length is told to be parsed first, not that its
        # text differs
        with kind_first(lambda: _dep_sentences(system, table, conversion), system_name):
            got = scoring.score(_dep_sentences(gold, table, conversion),
                                held.watching(_dep_sentences(system, table, conversion)),
                                validity, DepsOptions(
                                    select=selections, by=by, labels=label_map,
                                    gold_path=gold_name, system_path=system_name,
                                    per_sentence=False, punct=punct, confusion=confusion,
                                    each=None if rows is None else rows.each, counts=counts))
        refuse_unparsed(held)  # before the per-sentence file is kept
        if rows is not None:
            rows.finish(got.absent)
    # the system's failed parses are the scorer's to count: one warning a cause
    warnings = (conversion.warnings(but=system_name) if conversion is not None else []) \
        + got.warnings + validity.warnings()
    scores = scoring.command(got, validity, selections, str(labels) if labels else None,
                             by, punct, table.name if table is not None else None)
    notes = [validity.line()]
    if scores.alignment is not None:
        a = scores.alignment
        notes.append(f"Aligned words (--align words): {a.matched} matched, "
                     f"{a.substituted} substituted, {a.deleted} deleted, "
                     f"{a.inserted} inserted")
    return result("eval deps", scores,
                  lambda: deps_table(scores, gold_name, system_name, notes,
                                     selected=bool(selections), by=got.by_field,
                                     counts=got.counts, graphs=got.graphs), warnings)


def _dep_sentences(corpus: PathLike | Treebank, table: HeadTable | None,
                   conversion: Conversion | None) -> Iterator[Sentence]:
    """A Treebank's sentences, a CoNLL-U file a sentence at a time, or bracketed trees
    converted by TABLE."""
    from parsebench.formats.conllu import iter_conllu

    if isinstance(corpus, Treebank):
        return iter(corpus)
    path = corpus
    if conversion is None or str(path).endswith(".conllu"):  # what looks_like_trees says
        return iter_conllu(path)
    from parsebench.formats.headrules import looks_like_trees, read_converted

    if not looks_like_trees(path):
        return iter_conllu(path)
    if table is None:
        raise InputError("bracketed trees: give --head-rules (collins, penn2malt or a "
                         "table file) to convert them to dependencies", path)
    return read_converted(path, table, conversion)


@A.checked(gold=A.path, test=A.path, prm=A.optional(A.path), align=A.flag, legacy=A.flag)
def evaluate_brackets(gold: PathLike, test: PathLike, prm: PathLike | None = None, *,
                      align: bool = False, legacy: bool = False) -> Result:
    """Parseval with EVALB's numbers (``eval brackets``); ``str(r)`` is EVALB's report.
    ``r.messages`` are EVALB's messages, ``r.aborted`` whether it gave up (too many
    errors), and then the totals are absent, as in the command's JSON. ALIGN scores
    through changed sentences and words as jp-evalb does (Jo, Park & Park 2024), with
    no label deleted unless PRM says so, or, with LEGACY, EVALB's COLLINS.prm rules
    (jp-evalb's ``-evalb``)."""
    from parsebench.formats.evalb_prm import EvalbParams, read_prm

    if legacy and not align:
        raise InputError("--legacy is jp-evalb's -evalb mode: it goes with --align")
    params = read_prm(prm) if prm else None
    warnings = params.warnings if params else []
    if align:
        from parsebench.common.signature import signature
        from parsebench.metrics.constituency.aligned_parseval import score_aligned

        got = score_aligned(gold, test, params, legacy)
        sig = signature(method="jp-evalb", mode="evalb" if legacy else "proposed",
                        prm=os.path.basename(prm) if prm else None)
        return result("eval brackets", got.record(sig), got.report, warnings)
    from parsebench.metrics.constituency.evalb_scorer import score_bracket_files

    got_evalb = score_bracket_files(gold, test, params or EvalbParams())
    name = os.path.basename(prm) if prm else None
    # the JSON object made when read: EVALB's report, the command's text, never reads it
    return result("eval brackets", lambda: got_evalb.command(name), got_evalb.report,
                  warnings)


@A.checked(key=A.TREES, response=A.TREES, categories=A.optional(A.strings),
           max_depth=A.optional(A.integer(0)))
def evaluate_flat(key: PathLike | Sequence[TreeText], response: PathLike | Sequence[TreeText],
                  categories: str | Iterable[str] | None = None,
                  max_depth: int | None = None) -> Result:
    """Recall, precision and conformance of unlabeled constituents against a flat key
    (``eval flat``, Gaizauskas, Hepple & Huyck). CATEGORIES keeps only key constituents
    with these labels (a comma-separated string or a list); MAX_DEPTH only those this
    deep or less (root = 0)."""
    from parsebench.formats.brackets import read_tree_texts
    from parsebench.metrics.constituency.brackets_shown import flat_table
    from parsebench.metrics.constituency.gaizauskas_scorer import score_flat as score

    names = [c.strip() for c in (categories.split(",") if isinstance(categories, str)
                                 else categories or ())]
    labels = frozenset(c for c in names if c) or None
    k = read_tree_texts(key) if isinstance(key, str | os.PathLike) else list(key)
    r = read_tree_texts(response) if isinstance(response, str | os.PathLike) \
        else list(response)
    key_name = str(key) if isinstance(key, str | os.PathLike) else "<key>"
    response_name = str(response) if isinstance(response, str | os.PathLike) else "<response>"
    total, _ = score(k, r, key_name, response_name, labels, max_depth)
    scores = total.command(labels, max_depth)
    return result("eval flat", scores, lambda: flat_table(scores, key_name, response_name))


class Converted(Treebank):
    """``convert``'s output: the dependency trees, the warnings, the trace's rows."""

    def __init__(self, sentences: Iterable[Sentence], name: str, warnings: list[str],
                 trace: str) -> None:
        super().__init__(sentences, name)
        self.warnings = warnings
        self.trace = trace
        """For every constituent, the rule that chose its head (TSV, with its header)."""


@A.checked(trees=A.paths, head_rules=A.path)
def convert(trees: PathLike | Iterable[PathLike], head_rules: str = "collins") -> Converted:
    """Constituency trees to dependencies by head rules (``convert``): a Treebank, with
    ``.warnings`` and ``.trace``; ``.write(path)`` writes what the command writes."""
    import io

    from parsebench.formats.headrules import (
        TRACE_HEADER,
        Conversion,
        load_table,
        read_converted,
    )

    table = load_table(head_rules)
    conversion = Conversion()
    paths = [trees] if isinstance(trees, str | os.PathLike) else list(trees)
    trace = io.StringIO()
    trace.write(TRACE_HEADER)
    out: list[Sentence] = []
    for path in paths:
        out.extend(read_converted(path, table, conversion, trace))
    return Converted(out, ", ".join(str(p) for p in paths), conversion.warnings(),
                     trace.getvalue())


@A.checked(trees=A.path, rules=A.path)
def flatten(trees: PathLike, rules: PathLike) -> list[str]:
    """Flatter keys from treebank trees by flattening rules (``flatten``): one
    bracketed tree a string, as the command prints them a line each."""
    from parsebench.formats.brackets import read_trees
    from parsebench.metrics.constituency.gaizauskas_scorer import flatten_tree as flat
    from parsebench.metrics.constituency.gaizauskas_scorer import read_rules

    rule_list = read_rules(rules)
    return [str(flat(t, rule_list)) for t in read_trees(trees)]

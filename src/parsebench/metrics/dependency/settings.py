"""How a system's dependencies are scored against a gold key, beyond CoNLL 2018's
defaults: one object for ``eval deps``, ``compare`` and a run's ``deps`` method, so
that each option means the same everywhere and is checked in one place.

- ``align``: ``words`` scores a system whose words differ from the gold's over words
  aligned by edit distance (:mod:`parsebench.metrics.dependency.other_words`);
- ``invalid``: what a sentence that is not a tree gets, ``warn``, ``zero`` (the CoNLL
  2018 policy) or ``error`` (:mod:`parsebench.metrics.dependency.validity`);
- ``enhanced``: how ELAS and EULAS read the DEPS column, udeval's ``--enhancements``
  and ``--no-empty-nodes`` (:mod:`parsebench.metrics.dependency.enhanced`);
- ``multiple_roots_okay``: several roots make a valid tree (udeval's option).

:func:`file_stats` is what ``compare`` resamples: a metric's rows, a gold sentence each,
under these settings.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from parsebench.common.errors import InputError
from parsebench.formats.conllu import Sentence
from parsebench.metrics.dependency.conll18 import CONLL18, ENHANCED
from parsebench.metrics.dependency.enhanced import Enhanced
from parsebench.metrics.dependency.evaluate import (
    DepsOptions,
    DepsResult,
    SentenceCounts,
    score_deps,
)
from parsebench.metrics.dependency.figures import DepsEval
from parsebench.metrics.dependency.other_words import score_aligned
from parsebench.metrics.dependency.validity import POLICIES, Validity

ALIGNS = ("words",)
"""What ``--align`` can say (absent: the CoNLL 2018 alignment of the same text)."""
KEYS = ("align", "invalid", "enhancements", "no_empty_nodes", "multiple_roots_okay")
"""The settings' names, as an experiment's ``[metrics] deps`` table and the API take them."""


@dataclass(frozen=True)
class DepsScoring:
    """The scoring settings of a dependency parse against a gold key (see the module)."""

    align: str | None = None
    invalid: str = "warn"
    enhanced: Enhanced = field(default_factory=Enhanced)
    multiple_roots_okay: bool = False

    @classmethod
    def of(cls, align: str | None = None, invalid: str = "warn",
           enhancements: str | int | None = None, no_empty_nodes: bool = False,
           multiple_roots_okay: bool = False) -> DepsScoring:
        """The settings as the options give them, each checked (a bad one refused in one
        line naming its option)."""
        if align is not None and align not in ALIGNS:
            raise InputError(f"--align {align!r}: expected words")
        if invalid not in POLICIES:
            raise InputError(f"--invalid {invalid!r}: expected one of " + ", ".join(POLICIES))
        return cls(align, invalid, Enhanced.of(enhancements, no_empty_nodes),
                   bool(multiple_roots_okay))

    @property
    def is_default(self) -> bool:
        return self == DepsScoring()

    def signature(self) -> dict[str, str]:
        """The settings a signature shows: only those not at their default."""
        return {**({"enhancements": self.enhanced.code} if self.enhanced.off else {}),
                **({"empty_nodes": "collapsed"} if self.enhanced.no_empty_nodes else {}),
                **({"align": self.align} if self.align else {}),
                **({"invalid": self.invalid} if self.invalid != "warn" else {}),
                **({"roots": "several-okay"} if self.multiple_roots_okay else {})}

    def record(self) -> dict[str, Any]:
        """The settings not at their default, by the names of :data:`KEYS` (JSON, and
        what :meth:`of` takes back)."""
        return {**({"align": self.align} if self.align else {}),
                **({"invalid": self.invalid} if self.invalid != "warn" else {}),
                **({"enhancements": self.enhanced.code} if self.enhanced.off else {}),
                **({"no_empty_nodes": True} if self.enhanced.no_empty_nodes else {}),
                **({"multiple_roots_okay": True} if self.multiple_roots_okay else {})}

    def refusal(self, metric: str, reads: str) -> str | None:
        """Why these settings make no sense for METRIC (a file of kind READS: deps or
        trees), in one line; None when they do."""
        given = [f"--{k.replace('_', '-')}" for k in self.record()]
        if not given:
            return None
        if reads != "deps":
            return (f"{', '.join(given)}: dependency scoring options; --metric {metric} "
                    "scores trees")
        enhanced = [g for g in given if g in ("--enhancements", "--no-empty-nodes")]
        if enhanced and metric not in ENHANCED:
            return (f"{', '.join(enhanced)}: how ELAS and EULAS read the enhanced graphs; "
                    f"--metric {metric} does not read them")
        if self.align and metric in ENHANCED:
            return (f"--align words: {metric.upper()} is not scored over aligned words "
                    "(eval deps --align words gives it n/a)")
        return None

    def validity(self, path: str) -> Validity:
        """The validity policy's counter for the system at PATH."""
        return Validity(self.invalid, self.multiple_roots_okay, path)

    def score(self, gold: Iterable[Sentence], system: Iterable[Sentence],
              validity: Validity, options: DepsOptions | None = None) -> DepsResult:
        """SYSTEM against GOLD under these settings: the system's sentences through
        VALIDITY's policy, then the scorer ALIGN names, with OPTIONS' other settings."""
        scorer = score_aligned if self.align == "words" else score_deps
        return scorer(gold, validity.watching(system), replace(
            options or DepsOptions(), validity=validity, enhanced=self.enhanced,
            multiple_roots_okay=self.multiple_roots_okay))

    def command(self, got: DepsResult, validity: Validity, selections: Sequence[Any] = (),
                labels: str | None = None, by: str | None = None, punct: bool = True,
                head_rules: str | None = None) -> DepsEval:
        """``eval deps``'s object: the scores of GOT, the validity counts and the
        signature of these settings with the command's (SELECTIONS: Lin's
        :class:`~parsebench.metrics.dependency.lin_scorer.Selection`; LABELS: the equivalences'
        file; HEAD_RULES: the table's name when trees were converted)."""
        from parsebench.common.signature import signature
        from parsebench.metrics.dependency.lin_scorer import SIGNATURE

        sig = signature(method=SIGNATURE,
                        select=[f"{x.field}={','.join(sorted(x.values))}" for x in selections],
                        labels=os.path.basename(labels) if labels else None, by=by,
                        punct=punct,
                        **({"head_rules": head_rules} if head_rules is not None else {}),
                        **self.signature())
        return DepsEval.from_dict({**got.as_dict(), "validity": validity.as_dict(),
                                   "signature": sig})


def _is_lost(warning: str) -> bool:
    """Whether WARNING is score_deps's "FILE has no COLUMN: METRICS n/a"."""
    return " has no " in warning and warning.endswith(" n/a")


def _input_of(res: DepsResult) -> str:
    """What the system was given, as its scores show it (:func:`condition_of_counts`)."""
    from parsebench.model.conditions import condition_of_counts

    t = res.total

    def exact(x: Any) -> bool:
        return bool(x.gold) and x.correct == x.gold == x.system

    return condition_of_counts(exact(t.words), "upos" not in res.absent and exact(t.upos)
                               and ("xpos" in res.absent or exact(t.xpos)))


def file_stats(metric: Any, gold: str | os.PathLike[str], system: str | os.PathLike[str],
               warnings: list[str] | None = None,
               gold_sentences: Sequence[Sentence] | None = None,
               scoring: DepsScoring | None = None,
               facts: dict[str, Any] | None = None) -> Any:
    """METRIC's statistics (a CoNLL 2018 metric, exact match, ELAS/EULAS or Lin's) of
    SYSTEM against GOLD under SCORING, one row a gold sentence, kept as each sentence is
    scored (memory flat in the corpus's size, but with ``align``); what ``compare``
    resamples. A system that cannot give METRIC (a tagger's output for an attachment
    score) gets rows of NaN, with the cause in WARNINGS; the output of ``noise`` is
    refused. GOLD_SENTENCES: the gold already read. FACTS gets what the scoring found
    beside the rows: ``validity`` (counts of the sentences that are not trees) and, with
    ``align``, ``alignment`` (matched, substituted, deleted, inserted words)."""
    from array import array

    import numpy as np

    from parsebench.formats.conllu import iter_conllu
    from parsebench.model.inputs import Holds, kind_first, na_cause, refuse_unparsed

    scoring = scoring or DepsScoring()
    if metric.name not in ENHANCED:  # the enhanced graphs are not read at all
        scoring = replace(scoring, enhanced=replace(scoring.enhanced, read=False))
    held = Holds(str(system))
    validity = scoring.validity(str(system))
    flat = array("d")
    row: Callable[[SentenceCounts], None] | None = None
    if metric.name not in (*CONLL18, "ucm", "lcm", *ENHANCED):  # Lin's PRs
        def row(c: SentenceCounts) -> None:
            x = getattr(c, metric.name.removeprefix("lin-"))
            flat.extend((x.key, x.answer, x.key_found, x.answer_found))
    with kind_first(lambda: iter_conllu(system), str(system)):
        res = scoring.score(
            iter_conllu(gold) if gold_sentences is None else gold_sentences,
            held.watching(iter_conllu(system), metric.needs), validity,
            DepsOptions(gold_path=str(gold), system_path=str(system), per_sentence=False,
                        each=row, sentence_rows=None if row else (metric.name, flat)))
    refuse_unparsed(held)
    if warnings is not None:
        # a column the files lack matters only when METRIC needs it: LAS is not n/a
        # because the parse has no lemmas
        warnings += [w for w in res.warnings if "every attachment score is n/a" not in w
                     and not (_is_lost(w) and metric.name not in res.absent)]
        warnings += validity.warnings()
    if facts is not None:
        facts["validity"] = validity.as_dict()
        facts["input"] = _input_of(res)
        if scoring.align:
            facts["alignment"] = dict(getattr(res, "alignment", {}))
    out = np.frombuffer(flat, dtype=np.float64).reshape(-1, len(metric.columns)).copy()
    cause = na_cause(held, metric.needs, metric.name)
    if cause is not None:
        if warnings is not None:
            warnings.append(cause)
        out[:] = np.nan
    return out

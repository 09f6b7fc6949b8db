"""EVALB (Black et al. 1991; Sekine & Collins 1997) as parsebench's method: in a run,
each noisy parse's brackets against the clean parse's (Bigert et al.'s idea in
brackets, no gold trees needed), its score, its report section. The scorer, EVALB's C
program's rules, is :mod:`parsebench.metrics.constituency.evalb_scorer`, apart so that
``eval brackets`` starts without NumPy or the run's modules (parses, methods)."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from parsebench.formats.brackets import TreeText
from parsebench.formats.evalb_prm import EvalbParams
from parsebench.metrics.constituency.brackets_shown import brackets_section
from parsebench.metrics.constituency.evalb_records import EvalbValue
from parsebench.metrics.constituency.evalb_scorer import score_bracket_files, score_brackets
from parsebench.metrics.core.method import Metric
from parsebench.metrics.core.pairs import PairMethod, as_method
from parsebench.metrics.core.scores import f1_of_counts
from parsebench.model.parses import Parse, tree_text


def _clean_key_stats(_exp: Any) -> Callable[[Parse, Parse], tuple[int, int, int, int]]:
    """(matched, gold, test, unscored) of a noisy parse's labeled brackets against the
    clean parse's, both over the clean words (so a misspelling is no word mismatch); a
    failed noisy parse is the flat tree ``parse`` writes, so it costs recall; a pair
    EVALB cannot score, or whose clean parse failed, counts only as unscored."""
    params = EvalbParams(cutoff_len=10**9, max_error=2)

    def stats(clean: Parse, noisy: Parse) -> tuple[int, int, int, int]:
        key = TreeText(tree_text(clean, clean.forms), clean.line)
        test = TreeText(tree_text(noisy, clean.forms), clean.line)
        r = score_brackets([key], [test], params).rows[0]
        if r.status != 0 or clean.failed:
            return 0, 0, 0, 1
        return r.matched, r.gold, r.test, 0
    return stats


def _clean_key_figures(s: Any) -> dict[str, Any]:
    m, g, t, unscored = (int(x) for x in s)
    return {"recall": m / g if g else None, "precision": m / t if t else None,
            "f1": 2 * m / (g + t) if g and t else None,
            "matched": m, "key_brackets": g, "noisy_brackets": t, "unscored": unscored}


CLEAN_KEY = PairMethod(
    "evalb", "EVALB (Parseval)", "tree", ("matched", "gold", "test", "unscored"),
    _clean_key_stats, _clean_key_figures, (("f1", "evalb"),),
    lambda exp, level: {"method": "evalb-clean-key", "labeled": True, "level": level})
"""EVALB's brackets of each noisy parse against the clean parse as the key (no gold
trees needed: Bigert et al.'s idea in brackets)."""


def file_stats(metric: Any, gold: str | os.PathLike[str], system: str | os.PathLike[str],
               *_: Any) -> Any:
    """EVALB's statistics of SYSTEM's trees against GOLD's, one row a gold sentence:
    (matched, gold, test brackets, 0), or (0, 0, 0, 1) for a sentence EVALB does not
    score; what ``compare`` resamples."""
    import numpy as np

    from parsebench.common.errors import InputError

    ev = score_bracket_files(gold, system, EvalbParams())
    if ev.aborted:
        raise InputError("EVALB gave up on these files (MAX_ERROR errors): no score to "
                         "compare", system)
    rows = [(r.matched, r.gold, r.test, 0) if r.status == 0 else (0, 0, 0, 1)
            for r in ev.rows]
    return np.array(rows, dtype=np.float64).reshape(-1, 4)


SCORES = (Metric("evalb", "EVALB bracketing F-measure (valid sentences)", "trees",
                 ("matched", "gold", "test", "unscored"), f1_of_counts, ("evalb", "evalb"),
                 file_stats=file_stats),)

METHOD = as_method(CLEAN_KEY, SCORES,
                   sections=(brackets_section,),
                   section_title="brackets under noise", anchor=lambda r: "brackets",
                   value_type=EvalbValue)

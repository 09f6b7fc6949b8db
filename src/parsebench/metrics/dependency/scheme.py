"""Whether a parser's output and the gold speak the same annotation scheme.

Scoring spaCy's English pipeline (ClearNLP labels and head rules) against UD
gold gives LAS 42: a number about the scheme, not the parser. The sign is in
the labels: a third of the answer's relations (``prep``, ``pobj``, ``dobj``,
``ROOT``...) never occur in the key, and frequent key relations (``obl``,
``nmod``, ``cop``) never occur in the answer. Two UD parsers share nearly all
base labels, so a share of words under one-sided labels above
:data:`THRESHOLD` on either side is taken as a different scheme.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

THRESHOLD = 0.10
"""Share of one side's words whose label the other side never uses."""
NAMED = 6
"""One-sided labels named in the warning, most frequent first."""


def base_label(label: str) -> str:
    """UD's universal part of a label: ``nsubj:pass`` -> ``nsubj``."""
    return label.split(":", 1)[0]


def scheme_warning(key_labels: Iterable[str], answer_labels: Iterable[str], what: str,
                   key_name: str = "the gold", answer_name: str = "the answer"
                   ) -> str | None:
    """A warning when KEY_LABELS and ANSWER_LABELS (one per word; ``_`` = none) come
    from different annotation schemes, naming the labels found on one side only.

    WHAT names the labels ("relations", "tags").
    """
    key: Counter[str] = Counter()
    answer: Counter[str] = Counter()
    for counts, labels in ((key, key_labels), (answer, answer_labels)):
        for x, n in Counter(labels).items():  # each distinct label split once
            if x != "_":
                counts[base_label(x)] += n
    if not key or not answer:
        return None
    only_key = {lab: n for lab, n in key.items() if lab not in answer}
    only_answer = {lab: n for lab, n in answer.items() if lab not in key}
    share_key = sum(only_key.values()) / sum(key.values())
    share_answer = sum(only_answer.values()) / sum(answer.values())
    if max(share_key, share_answer) <= THRESHOLD:
        return None

    def names(d: dict[str, int]) -> str:
        top = sorted(d, key=lambda lab: (-d[lab], lab))
        more = f" and {len(top) - NAMED} more" if len(top) > NAMED else ""
        return ", ".join(top[:NAMED]) + more if top else "none"

    return (f"the annotation schemes differ: {share_answer:.0%} of {answer_name}'s words "
            f"have {what} that {key_name} never uses ({names(only_answer)}), and "
            f"{share_key:.0%} of {key_name}'s words have {what} that {answer_name} never "
            f"uses ({names(only_key)}); the scores measure the scheme as much as the parser")

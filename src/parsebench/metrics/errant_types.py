"""ERRANT's edits and error types for any ungrammatical/corrected pair (an optional extra).

ERRANT (Bryant et al. 2017) aligns a sentence with its correction, merges the
edits linguistically and types them from the words' tags; it is what
grammatical error correction reports types with. This module is a thin
bridge: it hands ERRANT pre-tokenized words (so its edits index the same
words the parses have) and turns the edits into parsebench's alignments, so
``robustness f1 --alignment errant`` breaks JFLEG down by type, and the test
suite checks generated errors against ERRANT's reading of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from parsebench.errors import InputError
from parsebench.metrics.wordalign import Alignment, from_edits

DEFAULT_PIPELINE = "en_core_web_sm"
"""The spaCy pipeline ERRANT is built for (``python -m spacy download en_core_web_sm``)."""

Edit = tuple[int, int, str, list[str]]
"""(first noisy word, end, ERRANT type, the corrected words)."""


@cache
def annotator(pipeline: str = DEFAULT_PIPELINE) -> Any:
    """ERRANT's English annotator over the spaCy PIPELINE (a package name or a folder)."""
    try:
        import errant
        import spacy
    except ImportError:
        raise InputError("ERRANT is not installed: pip install 'parsebench[errant]'") from None
    try:
        nlp = spacy.load(pipeline, disable=["ner"])
    except OSError:
        raise InputError(f"spaCy pipeline {pipeline!r} is not installed (python -m spacy "
                         f"download {pipeline}), or give --errant-pipeline") from None
    return errant.load("en", nlp)


def edits(noisy: Sequence[str], clean: Sequence[str], pipeline: str = DEFAULT_PIPELINE
          ) -> list[Edit]:
    """ERRANT's edits that turn the NOISY words into the CLEAN ones, in order."""
    ann = annotator(pipeline)
    # ERRANT splits pre-tokenized text at spaces: a word with a space inside stays one
    o = ann.parse(" ".join(w.replace(" ", "_") for w in noisy), tokenise=False)
    c = ann.parse(" ".join(w.replace(" ", "_") for w in clean), tokenise=False)
    return sorted((e.o_start, e.o_end, e.type, list(clean[e.c_start:e.c_end]))
                  for e in ann.annotate(o, c) if e.type != "noop")


def alignment(noisy: Sequence[str], clean: Sequence[str], pipeline: str = DEFAULT_PIPELINE
              ) -> Alignment:
    """The alignment of NOISY with CLEAN that ERRANT's typed edits give."""
    a = from_edits(list(noisy), edits(noisy, clean, pipeline))
    a.corrected = a.source = None  # the words are the parses' own
    return a

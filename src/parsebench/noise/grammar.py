"""Learner-like errors beyond misspellings, each recorded with its ERRANT type and alignment.

Missing, extra and wrong determiners and prepositions, agreement, verb form,
tense and noun number errors, wrong pronoun case, two adjacent words swapped,
a repeated word, case errors and words split or merged, missing and extra
punctuation, and misspellings. Sites come from the clean sentence's
annotation (UPOS, features, lemmas, heads of CoNLL-U); inflected forms come
from lemminflect (a lexicon of English inflections learnt from corpora), so
every form written exists. Every error is recorded the way ERRANT records
errors: an edit that turns the noisy tokens back into the clean ones, with
ERRANT's type name, so the M2 and Pharaoh files this module writes are what
ERRANT and word aligners give for real learner text.

Written here because no maintained library makes such errors with their
alignment and type recorded (nlpaug and CheckList keep no alignment;
GenERRate is unmaintained Java). Errors are placed so that at least one
untouched word separates any two of them in the clean sentence: ERRANT would
merge adjacent edits, and a word is never both deleted and changed.
"""

from __future__ import annotations

import math
import random
from array import array
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property
from typing import Any, TextIO

from parsebench.errors import InputError
from parsebench.formats.conllu import NO_HEAD, Sentence
from parsebench.metrics.wordalign import m2_words
from parsebench.noise.spelling import POSITION, check_positions

TYPES = ("M:DET", "U:DET", "R:DET", "M:PREP", "U:PREP", "R:PREP", "R:VERB:SVA",
         "R:VERB:FORM", "R:VERB:TENSE", "R:NOUN:NUM", "R:PRON", "R:WO", "U:REPEAT", "R:ORTH",
         "M:PUNCT", "U:PUNCT", "R:SPELL")
"""The kinds of error this module makes, by ERRANT's type names. ``U:REPEAT`` (a word
written twice) is recorded as ERRANT types it, ``U:`` and the word's class (U:NOUN...)."""

DEFAULT_WEIGHTS: dict[str, float] = {
    # How often ERRANT 3.0.2 (with spaCy's en_core_web_sm 3.8.0) finds each type between
    # JFLEG dev's 754 sources and their first corrections: scripts/jfleg_error_types.py,
    # the whole table in docs/noise.md. A word deleted beside the same word is U:REPEAT.
    "M:DET": 109, "U:DET": 85, "R:DET": 61, "M:PREP": 40, "U:PREP": 32, "R:PREP": 83,
    "R:VERB:SVA": 65, "R:VERB:FORM": 40, "R:VERB:TENSE": 57, "R:NOUN:NUM": 127,
    "R:PRON": 29, "R:WO": 38, "U:REPEAT": 3, "R:ORTH": 156, "M:PUNCT": 263, "U:PUNCT": 40,
    "R:SPELL": 334,
}

_ERRANT_CLASS = {"ADJ": "ADJ", "ADP": "PREP", "ADV": "ADV", "AUX": "VERB", "CCONJ": "CONJ",
                 "SCONJ": "CONJ", "DET": "DET", "NOUN": "NOUN", "PROPN": "NOUN",
                 "PART": "PART", "PRON": "PRON", "PUNCT": "PUNCT", "VERB": "VERB"}
"""ERRANT's word classes from UPOS (its en-ptb map); INTJ, NUM, SYM and X are OTHER."""

PREPOSITIONS = ("about", "at", "by", "for", "from", "in", "into", "of", "on", "to", "with")
"""The prepositions that learners confuse most (ERRANT's R:PREP in learner corpora)."""
_DETERMINERS = {"the": ("a",), "a": ("the",), "an": ("the",), "this": ("that", "the"),
                "that": ("this", "the"), "these": ("those", "the"), "those": ("these", "the")}
_PRONOUN_CASE = {"i": "me", "me": "I", "he": "him", "him": "he", "she": "her", "her": "she",
                 "we": "us", "us": "we", "they": "them", "them": "they", "who": "whom",
                 "whom": "who"}
_MARKS = {",", ".", ";", ":", "!", "?"}
_ONLY = {"M:DET": {"DET"}, "R:DET": {"DET"}, "M:PREP": {"ADP"}, "R:PREP": {"ADP"},
         "R:VERB:SVA": {"VERB", "AUX"}, "R:VERB:TENSE": {"VERB", "AUX"},
         "R:VERB:FORM": {"VERB"}, "R:NOUN:NUM": {"NOUN"}, "R:PRON": {"PRON"},
         "M:PUNCT": {"PUNCT"}}
"""The words an error of a kind can start at, by UPOS (a fast first filter)."""
_ALPHA_START = {"R:WO", "U:REPEAT", "R:SPELL", "R:ORTH", "U:DET", "U:PREP"}
"""Kinds whose first word is always alphabetic (a second fast filter)."""


@dataclass(slots=True)
class Edit:
    """One error: clean words [start, end) are written as NOISY; TYPE is ERRANT's name.

    ``links`` pairs the noisy words (0-based within NOISY) with clean ones
    (0-based within the span): the alignment inside the edit.
    """

    start: int
    end: int
    noisy: list[str]
    type: str
    links: list[tuple[int, int]] = field(default_factory=list)


def _same_case(model: str, word: str) -> str:
    """WORD written in MODEL's case: capitalised, or all capitals (*THE* -> *A*)."""
    if len(model) > 1 and model.isupper():
        return word.upper()
    if model[:1].isupper() and not (model == "I" and len(word) > 1):
        return word[:1].upper() + word[1:]
    return word


@cache
def _lemminflect() -> tuple[Any, Any]:
    """lemminflect's inflection and lemma tables (the objects behind its getInflection
    and getLemma). Its package ``__init__`` imports spaCy to register a spaCy extension
    that the noise does not use: 250 MB of memory and seconds of start-up. Unless spaCy
    or lemminflect is loaded already, its modules are loaded under a bare package, so
    that ``__init__`` does not run; the lookups are the same."""
    import importlib
    import importlib.util
    import sys
    import types

    def tables() -> tuple[Any, Any]:
        infl = importlib.import_module("lemminflect.core.Inflections").Inflections()
        lemm = importlib.import_module("lemminflect.core.Lemmatizer").Lemmatizer()
        codecs = "lemminflect.codecs."
        # lemminflect loads each table whole on its first lookup, as dicts of dicts of
        # tuples (10 MB and 30 MB, the lemmas' for the few words EWT has no lemma of);
        # where it has not done so yet, it is given the same tables looked up a word at a
        # time in their text (3 MB for both): the same entries, by its own code.
        if not hasattr(infl, "infl_dict"):
            codec = importlib.import_module(codecs + "InflectionLUCodec").InflectionLUCodec
            infl.infl_dict = _LookupTable(infl.infl_lu_fn, _inflection_entry(codec),
                                          codec.updateForAuxMod({}))
        if not hasattr(lemm, "lemma_dict"):
            codec = importlib.import_module(codecs + "LemmaLUCodec").LemmaLUCodec
            upos = importlib.import_module("lemminflect.core.LexicalUtils").categoryToUPos
            lemm.lemma_dict = _LookupTable(lemm.lemma_lu_fn, _lemma_entry(codec, upos), {})
        return infl, lemm

    if "lemminflect" in sys.modules or "spacy" in sys.modules:
        return tables()
    spec = importlib.util.find_spec("lemminflect")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("lemminflect is not installed")
    bare = types.ModuleType("lemminflect")
    bare.__path__ = list(spec.submodule_search_locations)
    sys.modules["lemminflect"] = bare
    try:
        return tables()
    finally:
        del sys.modules["lemminflect"]  # a later `import lemminflect` runs it whole


class _LookupTable:
    """One of lemminflect's look-up files (lines ``word,category,forms``, sorted by word)
    as the dict its loader makes, word -> entry, for what lemminflect asks of it
    (``get``): the file is held as its text and the start of each line, and a word's
    lines are found by bisection and read by lemminflect's own line parser when asked.
    The file's entries for a word are merged in file order, and FIXED replaces some
    whole, as lemminflect's loader does."""

    def __init__(self, path: str, entry: Callable[[list[str]], dict[str, Any]],
                 fixed: dict[str, dict[str, Any]]) -> None:
        import gzip

        with gzip.open(path, "rb") as fh:
            self.text = fh.read().decode()
        starts = array("i", [0])
        at, find = 0, self.text.find
        while (at := find("\n", at) + 1) > 0:
            starts.append(at)
        if starts[-1] != len(self.text):
            starts.append(len(self.text))
        self.starts, self.entry, self.fixed = starts, entry, fixed

    def _word(self, k: int) -> str:
        at = self.starts[k]
        return self.text[at:self.text.find(",", at)]

    def get(self, word: str, default: Any = None) -> Any:
        if word in self.fixed:
            return self.fixed[word]
        n = len(self.starts) - 1
        k = bisect_left(range(n), word, key=self._word)
        lines = []
        while k < n and self._word(k) == word:
            lines.append(self.text[self.starts[k]:self.starts[k + 1]])
            k += 1
        return self.entry(lines) if lines else default


def _inflection_entry(codec: Any) -> Callable[[list[str]], dict[str, Any]]:
    def entry(lines: list[str]) -> dict[str, Any]:
        forms: dict[str, Any] = {}
        for line in lines:
            forms.update(codec.fromString(line)[2])
        return forms
    return entry


def _lemma_entry(codec: Any, upos: Callable[[str], str]
                 ) -> Callable[[list[str]], dict[str, Any]]:
    def entry(lines: list[str]) -> dict[str, Any]:
        lemmas: dict[str, Any] = {}
        for line in lines:
            _, category, forms = codec.fromString(line)
            lemmas.update({upos(category): forms})
        return lemmas
    return entry


@cache
def _inflect(lemma: str, tag: str) -> str | None:
    got = _lemminflect()[0].getInflection(lemma, tag, inflect_oov=True)
    return got[0] if got else None


@cache
def _lemma(form: str, upos: str) -> str | None:
    got = _lemminflect()[1].getLemma(form, "VERB" if upos == "AUX" else upos,
                                     lemmatize_oov=True)
    return got[0] if got else None


def _lemma_of(s: Sentence, i: int) -> str | None:
    lem = s.lemmas[i] if i < len(s.lemmas) else "_"
    if lem in ("_", "") or not lem.isalpha():
        return _lemma(s.forms[i].lower(), s.upos[i])
    return lem.lower()


def _children(s: Sentence) -> list[list[int]]:
    kids: list[list[int]] = [[] for _ in s.forms]
    for d, h in enumerate(s.heads):
        if 0 < h <= len(s.forms):
            kids[h - 1].append(d)
    return kids


def _left_edge(kids: list[list[int]], i: int) -> int:
    """The first word of I's subtree (iterative: trees can be deep; a file's heads can
    even form a cycle)."""
    low, stack, seen = i, [i], {i}
    while stack:
        k = stack.pop()
        low = min(low, k)
        for c in kids[k]:
            if c not in seen:
                seen.add(c)
                stack.append(c)
    return low


class Sites:
    """Where each kind of error can go in one clean sentence, and how it is written.

    Every site listed can be realised: the inflection exists and differs, the
    determiner changes, and so on. A site is (kind, first clean word, words touched).
    """

    def __init__(self, s: Sentence, blocked: set[int], speller: Speller | None = None,
                 zipf: Callable[[str], float] | None = None) -> None:
        self.s, self.blocked, self.speller, self.zipf = s, blocked, speller, zipf
        self.kids = _children(s) if any(h > 0 for h in s.heads) else None
        self.feats = [dict(p.split("=", 1) for p in f.split("|") if "=" in p) if f != "_"
                      else {} for f in s.feats] if s.feats else [{} for _ in s.forms]

    def all(self, kinds: Iterable[str]) -> Iterator[tuple[str, int, int]]:
        """Every site of KINDS, kind by kind. Whether a site exists never depends on the
        random choices, so one generator serves every test."""
        rng = random.Random(0)
        upos, forms, blocked = self.s.upos, self.s.forms, self.blocked
        for kind in kinds:
            only = _ONLY.get(kind)
            alpha = kind in _ALPHA_START
            span = self.span(kind)
            for start in range(len(forms) - span + 1):
                if (only is not None and upos[start] not in only) or \
                        (alpha and not forms[start].isalpha()) or \
                        (blocked and any(k in blocked for k in range(start, start + span))):
                    continue
                if kind == "R:SPELL":  # whether a word has a typo: asked once a word
                    if self._spellable(start) and self.speller is not None and \
                        self.speller.possible(forms[start]):
                        yield kind, start, span
                elif self.realise(kind, start, rng) is not None:
                    yield kind, start, span

    def _spellable(self, i: int) -> bool:
        form = self.s.forms[i]
        return self.speller is not None and form.isalpha() and len(form) >= 2 and \
            self.s.upos[i] != "PROPN"

    @staticmethod
    def span(kind: str) -> int:
        """How many clean words an error of KIND at START touches: an insertion touches the
        word it comes before, a repeated word the word itself, R:ORTH perhaps the next word
        too (two merged)."""
        return 2 if kind in ("R:WO", "R:ORTH") else 1

    def realise(self, kind: str, i: int, rng: random.Random) -> Edit | None:
        """The error of KIND at clean word I, its choices drawn from RNG; None: no such site."""
        s = self.s
        form, upos = s.forms[i], s.upos[i] if i < len(s.upos) else "_"
        low = form.lower()
        f = self.feats[i]
        rel = s.deprels[i].split(":")[0] if i < len(s.deprels) else "_"
        if kind == "M:DET":
            if upos == "DET" and low in _DETERMINERS and rel == "det":
                return Edit(i, i + 1, [], kind, [])
        elif kind == "R:DET":
            if upos == "DET" and low in _DETERMINERS and rel == "det":
                alts = [a for a in _DETERMINERS[low]
                        if not (a == "a" and f.get("Number") == "Plur")]
                if alts:
                    new = alts[int(rng.random() * len(alts))]
                    if new == "a" and i + 1 < len(s.forms) and s.forms[i + 1][:1].lower() in \
                            "aeiou":
                        new = "an"
                    return Edit(i, i + 1, [_same_case(form, new)], kind, [(0, 0)])
        elif kind == "U:DET":
            noun = self._np_starts.get(i)
            if noun is not None:
                plural = self.feats[noun].get("Number") == "Plur"
                det = "the" if plural or rng.random() < 0.5 else \
                    ("an" if form[:1].lower() in "aeiou" else "a")
                return Edit(i, i, [det], kind, [])
        elif kind == "M:PREP":
            if upos == "ADP" and rel == "case" and form.isalpha():
                return Edit(i, i + 1, [], kind, [])
        elif kind == "R:PREP":
            if upos == "ADP" and rel == "case" and low in PREPOSITIONS:
                alts = [p for p in PREPOSITIONS if p != low]
                new = alts[int(rng.random() * len(alts))]
                return Edit(i, i + 1, [_same_case(form, new)], kind, [(0, 0)])
        elif kind == "U:PREP":
            if i > 0 and s.upos[i - 1] in ("VERB", "ADV", "PART") and i in self._object_starts:
                new = PREPOSITIONS[int(rng.random() * len(PREPOSITIONS))]
                return Edit(i, i, [new], kind, [])
        elif kind in ("R:VERB:SVA", "R:VERB:TENSE", "R:VERB:FORM"):
            verb = self._verb(kind, i, rng)
            if verb is not None and verb.lower() != low and self._exists(verb):
                return Edit(i, i + 1, [_same_case(form, verb)], kind, [(0, 0)])
        elif kind == "R:NOUN:NUM":
            # not abbreviations: EWT's AM and PM are singular nouns, "Ams" no error
            if upos == "NOUN" and form.isalpha() and f.get("Number") in ("Sing", "Plur") \
                    and not (form.isupper() and len(form) > 1):
                lemma = _lemma_of(s, i)
                number = _inflect(lemma, "NNS" if f["Number"] == "Sing" else "NN") \
                    if lemma else None
                if number and number.lower() != low and number.isalpha() and \
                        self._exists(number):
                    return Edit(i, i + 1, [_same_case(form, number)], kind, [(0, 0)])
        elif kind == "R:PRON":
            if upos == "PRON" and low in _PRONOUN_CASE and not (low == "her"
                                                               and f.get("Poss") == "Yes"):
                new = _PRONOUN_CASE[low]
                return Edit(i, i + 1, [new if new == "I" else _same_case(form, new)], kind,
                            [(0, 0)])
        elif kind == "R:WO":
            if i >= 1 and i + 1 < len(s.forms) and form.isalpha() and \
                    s.forms[i + 1].isalpha() and low != s.forms[i + 1].lower():
                return Edit(i, i + 2, [s.forms[i + 1], form], kind, [(0, 1), (1, 0)])
        elif kind == "U:REPEAT":
            if form.isalpha() and upos != "PUNCT":
                # the first of the two is the one to delete, as ERRANT aligns them
                cls = _ERRANT_CLASS.get(upos, "OTHER")
                return Edit(i, i, [form], "U:" + cls, [])
        elif kind == "R:ORTH":
            return self._orth(i, rng)
        elif kind == "M:PUNCT":
            if upos == "PUNCT" and form in _MARKS and i > 0:
                return Edit(i, i + 1, [], kind, [])
        elif kind == "U:PUNCT":
            if i >= 1 and form.isalnum() and s.forms[i - 1].isalnum():
                return Edit(i, i, [","], kind, [])
        elif kind == "R:SPELL":
            if self._spellable(i):
                assert self.speller is not None
                typo = self.speller(form, rng)
                if typo is not None:
                    return Edit(i, i + 1, [typo], kind, [(0, 0)])
        else:
            raise ValueError(kind)
        return None

    @cached_property
    def _np_starts(self) -> dict[int, int]:
        """First word -> head noun of the noun phrases a determiner can be put before."""
        out: dict[int, int] = {}
        for n in range(len(self.s.forms)):
            start = self._np_start(n)
            if start is not None:
                out.setdefault(start, n)
        return out

    @cached_property
    def _object_starts(self) -> set[int]:
        """Where the direct objects that follow their verb start."""
        return {x for x in map(self._object_from, range(len(self.s.forms))) if x is not None}

    def _np_start(self, i: int) -> int | None:
        """The first word of the noun phrase headed by common noun I when it has no
        determiner or possessor (so that one can be put before it), else None."""
        s, kids = self.s, self.kids
        if kids is None or s.upos[i] != "NOUN" or not s.forms[i].isalpha():
            return None
        rel = s.deprels[i].split(":")[0]
        if rel in ("compound", "flat", "fixed", "goeswith", "vocative"):
            return None
        start = i
        for k in kids[i]:
            r = s.deprels[k]
            if r.startswith(("det", "nmod:poss", "nummod")) or s.upos[k] in ("DET", "PRON"):
                return None
            if k < i and r in ("amod", "compound"):
                start = min(start, _left_edge(kids, k))
        if start < 1 or s.upos[start - 1] == "DET" \
                or not all(self._in_subtree(k, i) for k in range(start, i)):
            return None
        return start if s.forms[start].isalpha() else None

    def _object_from(self, k: int) -> int | None:
        """Where the direct object K of a verb before it starts (a preposition can be put
        there: "discuss about the plan"), else None."""
        s, kids = self.s, self.kids
        h = s.heads[k] - 1
        if kids is None or s.deprels[k] != "obj" or s.upos[k] not in ("NOUN", "PROPN", "PRON") \
                or not 0 <= h < k or s.upos[h] != "VERB":
            return None
        start = _left_edge(kids, k)
        return start if start > h and s.forms[start].isalpha() else None

    def _in_subtree(self, k: int, top: int) -> bool:
        seen = 0
        while k != top and seen <= len(self.s.forms):
            h = self.s.heads[k]
            if not 0 < h <= len(self.s.forms):
                return False
            k, seen = h - 1, seen + 1
        return k == top

    def _verb(self, kind: str, i: int, rng: random.Random) -> str | None:
        s = self.s
        upos, form = s.upos[i], s.forms[i]
        if upos not in ("VERB", "AUX") or not form.isalpha():
            return None
        f = self.feats[i]
        xpos = s.xpos[i] if i < len(s.xpos) else "_"
        if xpos == "MD" or f.get("VerbType") == "Mod":
            return None
        lemma = _lemma_of(s, i)
        if not lemma:
            return None
        finite = f.get("VerbForm") == "Fin" and f.get("Mood", "Ind") == "Ind"
        tense = f.get("Tense")
        low = form.lower()
        if kind == "R:VERB:SVA":
            if finite and lemma == "be" and low in ("was", "were"):
                return "were" if low == "was" else "was"
            if finite and tense == "Pres":
                third = (f.get("Person") == "3" and f.get("Number") == "Sing") or xpos == "VBZ"
                new = _inflect(lemma, "VBP" if third else "VBZ")
                if lemma == "be":
                    new = {"is": "are", "are": "is", "am": "is"}.get(low)
                return new
        elif kind == "R:VERB:TENSE":
            if finite and tense == "Past" and low not in ("was", "were"):
                return _inflect(lemma, "VBZ" if self._third_singular(i) else "VBP")
            if finite and tense == "Pres" and lemma != "be":
                return _inflect(lemma, "VBD")
        elif kind == "R:VERB:FORM":
            vf = f.get("VerbForm")
            if upos == "VERB" and vf == "Inf":
                # only forms in use: the site was listed because one of them exists, and
                # the draw must not pick the other (it did not realise, an assertion)
                forms = [x for x in (_inflect(lemma, "VBG"), _inflect(lemma, "VBN"))
                         if x and x.lower() != low and self._exists(x)]
                return forms[int(rng.random() * len(forms))] if forms else None
            if upos == "VERB" and vf == "Ger":
                return _inflect(lemma, "VB")
        return None

    def _third_singular(self, i: int) -> bool:
        s = self.s
        for d, h in enumerate(s.heads):
            if h == i + 1 and s.deprels[d].startswith("nsubj"):
                f = self.feats[d]
                if s.upos[d] == "PRON":
                    return s.forms[d].lower() in ("he", "she", "it", "this", "that", "who",
                                                  "which", "what", "one")
                return f.get("Number") == "Sing"
        return False

    def _exists(self, form: str) -> bool:
        """Whether an inflected form is in use (Zipf 2, once in 10 million words): the
        inflection library also makes regular forms that nobody writes ("informations")."""
        return self.zipf is None or self.zipf(form.lower()) >= 2.0

    def _common(self, word: str) -> bool:
        """A word common enough for a split or merge to be one a person makes: Zipf 3.5 or
        more (once in 300,000 words), 5 for words of up to three letters ("in to", not
        "wi th")."""
        assert self.zipf is not None
        if len(word) > _LONGEST_COMMON:
            return False
        return self.zipf(word.lower()) >= (5.0 if len(word) <= 3 else 3.5)

    def _orth(self, i: int, rng: random.Random) -> Edit | None:
        """Case (a capital dropped or added), a word split in two, or two words merged."""
        s, form = self.s, self.s.forms[i]
        if not form.isalpha():
            return None
        choices: list[Edit] = []
        upos = s.upos[i]
        if (i == 0 or upos == "PROPN") and form[:1].isupper() and form[1:].islower():
            choices.append(Edit(i, i + 1, [form.lower()], "R:ORTH", [(0, 0)]))
        elif i > 0 and upos == "NOUN" and form.islower():
            choices.append(Edit(i, i + 1, [form[:1].upper() + form[1:]], "R:ORTH", [(0, 0)]))
        if self.zipf is not None and len(form) <= 2 * _LONGEST_COMMON:
            for k in range(max(2, len(form) - _LONGEST_COMMON),
                           min(len(form) - 1, _LONGEST_COMMON + 1)):
                if self._common(form[:k]) and self._common(form[k:]):
                    choices.append(Edit(i, i + 1, [form[:k], form[k:]], "R:ORTH",
                                        [(0, 0), (1, 0)]))
            nxt = s.forms[i + 1] if i + 1 < len(s.forms) else ""
            if nxt.isalpha() and nxt.islower() and i + 1 not in self.blocked and \
                    self._common(form + nxt):
                choices.append(Edit(i, i + 2, [form + nxt], "R:ORTH", [(0, 0), (0, 1)]))
        return choices[int(rng.random() * len(choices))] if choices else None


_LONGEST_COMMON = 20
"""No word as common as :meth:`Sites._common` asks is longer (the longest at Zipf 3.5
has 16 letters): longer ones are not looked up, so a 30,000-letter "word" costs one
pass, not one lookup of every prefix."""


def apply_edits(s: Sentence, edits: Sequence[Edit]) -> tuple[list[str], list[tuple[int, int]],
                                                             list[tuple[int, int, str, str]]]:
    """The noisy words, the alignment (noisy i, clean j) and the M2 edits (noisy start, end,
    type, clean words) that correct them, for EDITS (sorted, not overlapping)."""
    noisy: list[str] = []
    pairs: list[tuple[int, int]] = []
    m2: list[tuple[int, int, str, str]] = []
    pos = 0
    for e in sorted(edits, key=lambda e: (e.start, e.end)):
        for j in range(pos, e.start):
            pairs.append((len(noisy), j))
            noisy.append(s.forms[j])
        at = len(noisy)
        pairs += [(at + a, e.start + b) for a, b in e.links]
        noisy += e.noisy
        m2.append((at, len(noisy), e.type, " ".join(m2_words(s.forms[e.start:e.end]))))
        pos = e.end
    for j in range(pos, len(s.forms)):
        pairs.append((len(noisy), j))
        noisy.append(s.forms[j])
    return noisy, sorted(pairs), m2


@dataclass
class Settings:
    rate: float | None = None
    per_sentence: int | None = None
    seed: int = 1
    types: tuple[str, ...] = TYPES
    weights: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_WEIGHTS))

    def check(self) -> None:
        from parsebench.noise.spelling import check_level

        check_level(self.rate, self.per_sentence)
        bad = [t for t in self.types if t not in TYPES]
        if bad or not self.types:
            raise InputError(f"--types: unknown {', '.join(bad) or 'none given'}; known: "
                             + ",".join(TYPES))
        if set(self.weights) - set(TYPES) or any(w < 0 for w in self.weights.values()) or \
                not any(self.weights.get(t, 0) for t in self.types):
            raise InputError("--weights: give TYPE=W with TYPE one of the types, W >= 0, "
                             "not all of the chosen types 0")


def parse_types(text: str | None) -> tuple[str, ...]:
    if not text:
        return TYPES
    return tuple(dict.fromkeys(t.strip() for t in text.split(",") if t.strip()))


def parse_weights(text: str | None) -> dict[str, float]:
    """``R:SPELL=2,M:DET=1`` over the defaults."""
    from parsebench.noise.spelling import parse_weights as parse

    return parse(text, DEFAULT_WEIGHTS, "TYPE")


@dataclass
class Report:
    words: int = 0
    sites: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    """Errors made, by kind."""
    short_sentences: list[int] = field(default_factory=list)
    shortfall: int = 0

    @property
    def made(self) -> int:
        return sum(self.errors.values())

    def summary(self) -> str:
        n = self.made
        pct = 100 * n / self.words if self.words else 0.0
        lines = [f"{n} errors in {self.words} words ({pct:.2f}%)",
                 "by type: " + ", ".join(f"{t} {c}" for t, c in sorted(self.errors.items()))]
        if self.short_sentences:
            lines.append(f"sentences with too few sites: {len(self.short_sentences)}")
        if self.shortfall:
            lines.append(f"could not reach the rate: {self.shortfall} errors short")
        return "\n".join(lines)


def _rng(seed: int, sentence: int, token: int, kind: str) -> random.Random:
    return random.Random(f"{seed}/{sentence}/{token}/{kind}")


class _Draw:
    """Sites drawn one kind at a time by weight, uniformly within a kind (lazy Fisher-Yates),
    skipping those that touch or adjoin an error already placed."""

    def __init__(self, by_kind: dict[str, array[int]], weights: dict[str, float],
                 rng: random.Random) -> None:
        self.kinds = [k for k in TYPES if len(by_kind.get(k, ())) and weights.get(k, 0) > 0]
        self.by_kind, self.weights, self.rng = by_kind, weights, rng
        self.used = dict.fromkeys(self.kinds, 0)

    def __iter__(self) -> Iterator[tuple[str, int]]:
        rng = self.rng
        while self.kinds:
            total = sum(self.weights[k] for k in self.kinds)
            x = rng.random() * total
            kind = self.kinds[-1]
            for k in self.kinds:
                x -= self.weights[k]
                if x < 0:
                    kind = k
                    break
            items, i = self.by_kind[kind], self.used[kind]
            j = i + int(rng.random() * (len(items) - i))
            items[i], items[j] = items[j], items[i]
            self.used[kind] = i + 1
            if i + 1 == len(items):
                self.kinds.remove(kind)
            yield kind, items[i]


def _conflicts(taken: list[tuple[int, int]], fp: tuple[int, int]) -> bool:
    """Whether FP touches or adjoins (no untouched word between) any footprint in TAKEN."""
    return any(fp[0] <= b and a <= fp[1] for a, b in taken)


def _place(pools: dict[str, array[int]], weights: dict[str, float], k: int,
           rng: random.Random) -> list[tuple[str, int]] | None:
    """K errors among one sentence's sites POOLS (kind -> first words), or None if there
    is no room for K."""
    taken: list[tuple[int, int]] = []
    out: list[tuple[str, int]] = []
    for kind, t in _Draw(pools, weights, rng):
        fp = (t, t + Sites.span(kind))
        if not _conflicts(taken, fp):
            taken.append(fp)
            out.append((kind, t))
            if len(out) == k:
                return out
    return None


def annotated(s: Sentence) -> bool:
    """Whether S has UPOS tags, which most kinds of error need to find their sites."""
    return any(u not in ("_", "") for u in s.upos)


def _blocked(s: Sentence) -> set[int]:
    return {i for a, b, _ in s.multiword for i in range(a, b + 1)}


class Chosen:
    """The errors a plan decided, compactly: their first clean words as corpus positions,
    in order, and their kinds (an index into :data:`TYPES`) beside them."""

    def __init__(self, starts: Sequence[int], where: array[int], codes: bytes) -> None:
        self.starts, self.where, self.codes = starts, where, codes

    def __len__(self) -> int:
        return len(self.where)

    def get(self, si: int, default: Sequence[tuple[str, int]] = ()
            ) -> Sequence[tuple[str, int]]:
        """Sentence SI's errors as [(kind, clean word)], by word; DEFAULT if it has none."""
        s0 = self.starts[si]
        lo = bisect_left(self.where, s0)
        hi = bisect_left(self.where, self.starts[si + 1], lo)
        if lo == hi:
            return default
        return [(TYPES[self.codes[k]], self.where[k] - s0) for k in range(lo, hi)]


class Planner:
    """Decides and writes errors for a corpus read as a stream of CoNLL-U sentences.

    READ gives a fresh pass over the clean sentences. One pass lists the sites
    (compactly: an integer per site); the draw decides which become errors; a
    second pass realises them, so memory does not hold the corpus.
    """

    def __init__(self, read: Callable[[], Iterable[Sentence]], kinds: Sequence[str],
                 speller: Speller | None = None,
                 zipf: Callable[[str], float] | None = None) -> None:
        self.read, self.speller, self.zipf = read, speller, zipf
        self.kinds = list(kinds)
        self.unrealised = 0
        """Chosen sites that made no error (none should; each is reported as short)."""
        self.by_kind: dict[str, array[int]] = {k: array(POSITION) for k in TYPES}
        self.starts = array(POSITION)
        words = 0
        self.annotated = False
        """Whether any word has a UPOS: without one most kinds have no site."""
        for s in read():
            check_positions(words + len(s.forms))
            self.annotated = self.annotated or annotated(s)
            self.starts.append(words)
            for kind, start, _ in self.sites(s):
                self.by_kind[kind].append(words + start)
            words += len(s.forms)
        self.starts.append(words)
        self.words = words
        self.spent = False
        """Whether a plan(last=True) has shuffled the sites (no further plan then)."""

    def sites(self, s: Sentence) -> Iterator[tuple[str, int, int]]:
        return Sites(s, _blocked(s), self.speller, self.zipf).all(self.kinds)

    def plan(self, settings: Settings, last: bool = False) -> tuple[Report, Chosen]:
        """Which errors go where: sentence -> [(kind, clean word)] (``.get``), and the report.

        The draw shuffles the sites it draws from; LAST (no further plan will be asked for)
        lets it shuffle the listed sites themselves instead of a copy of them, which were
        a third of its memory on a large corpus."""
        settings.check()
        if self.spent:
            raise RuntimeError("a Planner plans no more after a plan(last=True)")
        report = Report(words=self.words)
        for kind in settings.types:
            report.sites[kind] = len(self.by_kind[kind])
        where, codes = array(POSITION), bytearray()
        code = {kind: k for k, kind in enumerate(TYPES)}
        if settings.rate is not None:
            target = math.floor(settings.rate * self.words + 0.5)
            # the words each error's footprint covers, one byte a word and one more a
            # sentence (a footprint's end can be the slot after its last word): an error
            # conflicts with those already placed where its footprint meets theirs
            taken = bytearray(self.words + len(self.starts) - 1)
            done = 0
            everywhere = {kind: self.by_kind[kind] if last else array(POSITION,
                                                                      self.by_kind[kind])
                          for kind in settings.types}
            starts = self.starts
            if target:
                for kind, g in _Draw(everywhere, settings.weights, random.Random(settings.seed)):
                    si = bisect_right(starts, g) - 1
                    a = g + si
                    b = a + Sites.span(kind) + 1
                    if taken.find(1, a, b) >= 0:
                        continue
                    taken[a:b] = b"\x01" * (b - a)
                    where.append(g)
                    codes.append(code[kind])
                    report.errors[kind] += 1
                    done += 1
                    if done == target:
                        break
            report.shortfall = target - done
            del taken, everywhere
            order = sorted(range(len(where)), key=where.__getitem__)
            where = array(POSITION, [where[k] for k in order])
            codes = bytearray(codes[k] for k in order)
        else:
            want = settings.per_sentence or 0
            lo = dict.fromkeys(settings.types, 0)
            for si in range(len(self.starts) - 1):
                end = self.starts[si + 1]
                pools: dict[str, array[int]] = {}
                for kind in settings.types:
                    sites = self.by_kind[kind]
                    hi = bisect_left(sites, end, lo[kind])
                    pools[kind] = array(POSITION,
                                        (g - self.starts[si] for g in sites[lo[kind]:hi]))
                    lo[kind] = hi
                got = _place(pools, settings.weights, want,
                             random.Random(settings.seed * 1_000_003 + si))
                if got is None:
                    report.short_sentences.append(si)
                else:
                    report.errors.update(kind for kind, _ in got)
                    for kind, t in sorted(got, key=lambda c: c[1]):
                        where.append(self.starts[si] + t)
                        codes.append(code[kind])
        if last:  # what the writing needs is in the plan: the sites go before it
            self.spent = True
            self.by_kind = {k: array(POSITION) for k in TYPES}
        return report, Chosen(self.starts, where, bytes(codes))

    def realise(self, s: Sentence, si: int, chosen: Sequence[tuple[str, int]], seed: int
                ) -> list[Edit]:
        sites = Sites(s, _blocked(s), self.speller, self.zipf)
        edits = []
        for kind, t in chosen:
            e = sites.realise(kind, t, _rng(seed, si, t, kind))
            if e is None:  # a listed site realises; should one not, it is a shortfall
                self.unrealised += 1
                continue
            edits.append(e)
        return sorted(edits, key=lambda e: e.start)


def noisy_sentence(s: Sentence, edits: Sequence[Edit]) -> tuple[Sentence, list[tuple[int, int]],
                                                                  list[tuple[int, int, str, str]]]:
    """The noisy sentence as CoNLL-U (its words, empty annotation), alignment and M2 edits.

    Multiword tokens keep their ranges (edits never touch their words); a
    changed or inserted word's MISC says ``Noise=TYPE``; ``# text`` is the
    words with the clean text's spacing where words are unchanged.
    """
    words, pairs, m2 = apply_edits(s, edits)
    n = len(words)
    to_clean = dict(pairs)
    changed: dict[int, str] = {}
    for a, b, typ, _ in m2:
        for k in range(a, b):
            changed[k] = typ
    misc = []
    for i in range(n):
        j = to_clean.get(i)
        keep = j is not None and to_clean.get(i + 1) == j + 1 and \
            "SpaceAfter=No" in s.misc[j].split("|")
        parts = ["SpaceAfter=No"] if keep else []
        if i in changed:
            parts.append(f"Noise={changed[i]}")
        misc.append("|".join(parts) or "_")
    clean_to_noisy = {j: i for i, j in pairs}
    mwt = []
    for a, b, cols in s.multiword:
        na, nb = clean_to_noisy.get(a), clean_to_noisy.get(b)
        if na is not None and nb is not None and nb - na == b - a:
            tail = "|".join(x for x in cols[9].split("|") if x != "SpaceAfter=No" or
                            to_clean.get(nb + 1) == b + 1) or "_"
            mwt.append((na, nb, [f"{na + 1}-{nb + 1}", *cols[1:9], tail]))
    starts = {m[0]: m for m in mwt}
    text, i = [], 0
    while i < n:
        span = starts.get(i)
        text.append(span[2][1] if span else words[i])
        last = span[1] if span else i
        glued = "SpaceAfter=No" in (span[2][9] if span else misc[last]).split("|")
        if not glued and last < n - 1:
            text.append(" ")
        i = last + 1
    comments = [c for c in s.comments if not c.startswith("# text = ")]
    comments.append("# text = " + "".join(text).strip())
    out = Sentence(forms=words, lemmas=["_"] * n, upos=["_"] * n, xpos=["_"] * n,
                   feats=["_"] * n, heads=[NO_HEAD] * n, deprels=["_"] * n, deps=["_"] * n,
                   misc=misc, comments=comments, multiword=mwt, line=s.line)
    return out, pairs, m2


def write_m2(fh: TextIO, words: Sequence[str], m2: Sequence[tuple[int, int, str, str]]) -> None:
    """One M2 block: the noisy words and the edits that correct them (annotator 0)."""
    fh.write("S " + " ".join(m2_words(list(words))) + "\n")
    if not m2:
        fh.write("A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n")
    for a, b, typ, corr in m2:
        fh.write(f"A {a} {b}|||{typ}|||{corr or '-NONE-'}|||REQUIRED|||-NONE-|||0\n")
    fh.write("\n")


def pharaoh(pairs: Iterable[tuple[int, int]]) -> str:
    return " ".join(f"{i}-{j}" for i, j in pairs)


class Speller:
    """R:SPELL's misspeller: one keyboard edit giving a non-word (the spelling noise's)."""

    def __init__(self, keyboard: str, lexicon: str | None, lang: str,
                 vocabulary: set[str]) -> None:
        from parsebench.noise.keyboard import Keyboard
        from parsebench.noise.lexicon import Lexicon, frequencies

        self.kb = Keyboard.load(keyboard)
        if lexicon is None or lexicon in ("wordfreq", f"wordfreq:{lang}"):
            # wordfreq's list, shared with the Zipf lookups (zipf())
            self.lex = Lexicon.of(frequencies(lang))
        else:
            self.lex = Lexicon.load(lexicon, lang)
        self.vocabulary = vocabulary
        self.ops = dict.fromkeys(("sub", "ins", "del", "trans"), 1.0)
        self._possible: dict[str, bool] = {}

    def __call__(self, word: str, rng: random.Random) -> str | None:
        from parsebench.noise.spelling import misspell

        got = misspell(word, rng, self.kb, self.lex, self.vocabulary, self.ops)
        return got[1] if got else None

    def possible(self, word: str) -> bool:
        """Whether WORD has a non-word edit at all (whatever the draw: the edits are only
        tried in another order), remembered a word."""
        got = self._possible.get(word)
        if got is None:
            got = self._possible[word] = self(word, random.Random(0)) is not None
        return got


def speller(keyboard: str, lexicon: str | None, lang: str, vocabulary: set[str]) -> Speller:
    return Speller(keyboard, lexicon, lang, vocabulary)


def zipf(lang: str) -> Callable[[str], float]:
    """A word's frequency on the Zipf scale (wordfreq's), 0 for unknown words, from the
    table that is also the default lexicon of R:SPELL
    (:func:`parsebench.noise.lexicon.frequencies`)."""
    from parsebench.noise.lexicon import frequencies

    return frequencies(lang).zipf


def corrupt(sentences: Sequence[Sentence], settings: Settings,
            spell: Speller | None = None,
            frequency: Callable[[str], float] | None = None
            ) -> tuple[Report, list[tuple[Sentence, list[Edit], list[tuple[int, int]],
                                          list[tuple[int, int, str, str]]]]]:
    """Every sentence with its errors, in memory: (noisy sentence, edits, alignment, M2
    edits) each, and the report. Sentences short of room are given back unchanged."""
    planner = Planner(lambda: iter(sentences), settings.types, spell, frequency)
    report, chosen = planner.plan(settings, last=True)
    out = []
    for k, s in enumerate(sentences):
        edits = planner.realise(s, k, chosen.get(k, ()), settings.seed)
        noisy, pairs, m2 = noisy_sentence(s, edits)
        out.append((noisy, edits, pairs, m2))
    return report, out

"""Where each learner-like error can go in a clean sentence, and how it is written: the
sites of every ERRANT type from the sentence's annotation, and the misspeller of R:SPELL."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator
from functools import cached_property

from parsebench.formats.conllu import Sentence
from parsebench.noise.grammar_types import Edit
from parsebench.noise.inflection import inflect, lemmatize
from parsebench.noise.keyboard import Keyboard
from parsebench.noise.lexicon import Lexicon, frequencies
from parsebench.noise.spelling import misspell

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


def _same_case(model: str, word: str) -> str:
    """WORD written in MODEL's case: capitalised, or all capitals (*THE* -> *A*)."""
    if len(model) > 1 and model.isupper():
        return word.upper()
    if model[:1].isupper() and not (model == "I" and len(word) > 1):
        return word[:1].upper() + word[1:]
    return word


def _lemma_of(s: Sentence, i: int) -> str | None:
    lem = s.lemmas[i] if i < len(s.lemmas) else "_"
    if lem in ("_", "") or not lem.isalpha():
        return lemmatize(s.forms[i].lower(), s.upos[i])
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

    @cached_property
    def _words(self) -> int:
        """The sentence's words other than punctuation."""
        s = self.s
        return sum(1 for k, f in enumerate(s.forms)
                   if (s.upos[k] if k < len(s.upos) else "_") != "PUNCT" and f.isalnum())

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
                number = inflect(lemma, "NNS" if f["Number"] == "Sing" else "NN") \
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
            # the first of the two is the one to delete, as ERRANT aligns them; recorded
            # as U:REPEAT, the type asked for, counted, written to M2 and scored (ERRANT
            # itself types it by the word's class, U:NOUN...); never in a sentence of one
            # word ("Mike Mike" is no learner's error)
            if form.isalpha() and upos != "PUNCT" and self._words > 1:
                return Edit(i, i, [form], kind, [])
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
                new = inflect(lemma, "VBP" if third else "VBZ")
                if lemma == "be":
                    new = {"is": "are", "are": "is", "am": "is"}.get(low)
                return new
        elif kind == "R:VERB:TENSE":
            if finite and tense == "Past" and low not in ("was", "were"):
                return inflect(lemma, "VBZ" if self._third_singular(i) else "VBP")
            if finite and tense == "Pres" and lemma != "be":
                return inflect(lemma, "VBD")
        elif kind == "R:VERB:FORM":
            vf = f.get("VerbForm")
            if upos == "VERB" and vf == "Inf":
                # only forms in use: the site was listed because one of them exists, and
                # the draw must not pick the other (it did not realise, an assertion)
                forms = [x for x in (inflect(lemma, "VBG"), inflect(lemma, "VBN"))
                         if x and x.lower() != low and self._exists(x)]
                return forms[int(rng.random() * len(forms))] if forms else None
            if upos == "VERB" and vf == "Ger":
                return inflect(lemma, "VB")
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


class Speller:
    """R:SPELL's misspeller: one keyboard edit giving a non-word (the spelling noise's)."""

    def __init__(self, keyboard: str, lexicon: str | None, lang: str,
                 vocabulary: set[str]) -> None:
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
        got = misspell(word, rng, self.kb, self.lex, self.vocabulary, self.ops)
        return got[1] if got else None

    def possible(self, word: str) -> bool:
        """Whether WORD has a non-word edit at all (whatever the draw: the edits are only
        tried in another order), remembered a word."""
        got = self._possible.get(word)
        if got is None:
            got = self._possible[word] = self(word, random.Random(0)) is not None
        return got

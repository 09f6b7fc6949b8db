"""Speech-transcript noise: a treebank's sentences written as talk is transcribed,
each convention a part that can be switched on alone (Dobrovoljc & Martinc 2018 found
them among the causes of low LAS on transcribed speech), with the gold tree carried
to the new words.

The parts: ``lower`` (no capitals), ``punct`` (no punctuation), ``numbers`` (digits
spelled out, by num2words), ``fillers`` ("uh", "um" inserted at a rate) and
``repeats`` (a word said twice, the first left as a disfluency). The first three
change every word they apply to; the last two are drawn at the level's rate (of the
corpus's words) or number a sentence, seeded, so that the same seed gives the same
text. A change is an :class:`~parsebench.noise.grammar_types.Edit` as learner-like
errors are, so the text, its alignment and its M2 edits are written by the same code
(:mod:`.grammar_output`); the tree of the new words follows UD's own conventions for
them (:func:`transcribed`). Written here because no library makes transcript-like
text from a treebank and keeps its trees.
"""

from __future__ import annotations

import random
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from parsebench.common.errors import InputError
from parsebench.formats.conllu import NO_HEAD, Sentence, surface_text
from parsebench.noise.grammar_types import Edit

PARTS = ("lower", "punct", "numbers", "fillers", "repeats", "segments", "speech")
"""Every part, in the order they are applied and reported."""
DEFAULT_PARTS = PARTS[:-2]
"""The parts made unless others are named: ``segments`` (no sentence boundaries) only
when asked for, as it needs scoring over the whole document, and ``speech`` (spoken by
espeak-ng, recognised by PocketSphinx: :mod:`.speech`) alone."""
WINDOW = 20
"""Words a segment when the text is cut without its sentence boundaries."""
TYPES = {"lower": "T:CASE", "punct": "T:PUNCT", "numbers": "T:NUMBER",
         "fillers": "T:FILLER", "repeats": "T:REPEAT"}
"""The type each part's changes carry in MISC (``Noise=``), M2 and the alignment."""
PART_OF = {t: p for p, t in TYPES.items()}
DRAWN = ("fillers", "repeats")
"""The parts drawn at a rate; the others change every word they apply to."""
FILLERS = {"en": ("uh", "um"), "de": ("äh", "ähm"), "fr": ("euh", "ben"),
           "sv": ("eh", "öh"), "fi": ("öö", "niinku"), "ru": ("э", "ну"),
           "tr": ("ııı", "şey"), "id": ("eh", "anu")}
"""Each language's filler words as transcribers write them (others: give ``fillers``)."""


@dataclass(frozen=True)
class TranscriptSettings:
    """The parts made, the filler words (those of the language when not given) and, with
    ``segments``, the words a segment (else 0)."""

    parts: tuple[str, ...] = PARTS
    fillers: tuple[str, ...] = ()
    window: int = 0


def parse_parts(given: str | Sequence[str] | None) -> tuple[str, ...]:
    """The parts named by GIVEN (``lower,punct`` or a list; None: all but ``segments``
    and ``speech``), in PARTS' order."""
    if given is None:
        return DEFAULT_PARTS
    names = [x.strip() for x in given.split(",")] if isinstance(given, str) else list(given)
    bad = [x for x in names if x not in PARTS]
    if bad or not names:
        raise InputError("--parts: a list of " + ", ".join(PARTS)
                         + (f" (not {bad[0]!r})" if bad else ""))
    return tuple(p for p in PARTS if p in names)


def settings_for(parts: tuple[str, ...], fillers: Sequence[str] | None, lang: str,
                 window: Any = None) -> TranscriptSettings:
    """PARTS with the filler words FILLERS (else LANG's) and the WINDOW of words a segment
    (with ``segments``; WINDOW when not given), checked: numbers need a language
    num2words spells, fillers their words, a window 2 words or more."""
    if window is not None and "segments" not in parts:
        raise InputError("--window goes with --parts ...,segments")
    size = 0
    if "segments" in parts:
        try:
            size = WINDOW if window is None else int(window)
        except (TypeError, ValueError):
            size = 0
        if size < 2 or isinstance(window, (bool, float)):
            raise InputError(f"--window {window}: a whole number of words, 2 or more")
    words: tuple[str, ...] = ()
    if "fillers" in parts:
        words = tuple(fillers) if fillers else FILLERS.get(lang, ())
        if not words or not all(isinstance(w, str) and w.strip() and " " not in w.strip()
                                for w in words):
            raise InputError(f"fillers: no filler words known for {lang!r}; give them "
                             "(e.g. fillers = [\"uh\", \"um\"])" if not words else
                             "fillers: words without spaces")
        words = tuple(w.strip() for w in words)
    if "numbers" in parts:
        speller(lang)  # refused here, not at the first digit
    return TranscriptSettings(parts, words, size)


def speller(lang: str) -> Callable[[str], list[str] | None]:
    """LANG's numbers spelled out: a form of digits (``42``, ``1,000``, ``3.5``) as the
    words num2words gives, else None for a form that is not one."""
    try:
        from num2words import num2words
    except ImportError:
        raise InputError("--parts numbers needs num2words: pip install "
                         "'parsebench[transcript]'") from None
    try:
        num2words(1, lang=lang)
    except NotImplementedError:
        raise InputError(f"--parts numbers: num2words cannot spell numbers in {lang!r}; "
                         "leave the part out") from None

    def spell(form: str) -> list[str] | None:
        digits = form.replace(",", "") if lang == "en" else form
        if not digits or not all(c.isdigit() or c == "." for c in digits) \
                or not digits[0].isdigit() or not digits[-1].isdigit() \
                or digits.count(".") > 1 or not digits.isascii():
            return None
        value: float | int = float(digits) if "." in digits else int(digits)
        words = str(num2words(value, lang=lang)).replace(",", " ").split()
        return words or None
    return spell


def is_punct(form: str, upos: str) -> bool:
    """A punctuation mark: its UPOS says so, or (without one) every character is one."""
    if upos not in ("_", ""):
        return upos == "PUNCT"
    return bool(form) and all(unicodedata.category(c).startswith("P") for c in form)


class Planner:
    """The changes of SENTENCES (given again on every call) for one level and seed: the
    fixed parts' edits, listed once, and the drawn parts' sites to draw from."""

    def __init__(self, sentences: Callable[[], Iterable[Sentence]],
                 settings: TranscriptSettings, lang: str) -> None:
        self.settings = settings
        spell = speller(lang) if "numbers" in settings.parts else None
        self.fixed: list[list[Edit]] = []
        self.fixed_made: Counter[str] = Counter()  # the same at every level and seed
        self.gaps: list[int] = []  # a sentence's places for a filler (before a word)
        self.repeatable: list[list[int]] = []  # its words that may be said twice
        self.copies: list[list[str]] = []  # each word as the fixed parts write it
        self.words = 0
        for s in sentences():
            edits, written, changed = fixed_edits(s, settings.parts, spell)
            inside = {i for a, b, _ in s.multiword for i in range(a, b + 1)}
            self.fixed.append(edits)
            for e in edits:
                self.fixed_made[PART_OF[e.type]] += 1
            self.copies.append(written)
            self.gaps.append(len(s.forms))
            self.repeatable.append([i for i in range(len(s.forms))
                                    if i not in inside and i not in changed
                                    and not is_punct(s.forms[i], s.upos[i])])
            self.words += len(s.forms)

    def plan(self, rate: float | None, per_sentence: int | None, seed: int
             ) -> tuple[list[list[Edit]], dict[str, int]]:
        """Each sentence's edits (sorted: an insertion before the change of the word it
        precedes) and how many each part made."""
        made = {p: self.fixed_made.get(p, 0) for p in self.settings.parts if p in TYPES}
        drawn: list[list[Edit]] = [[] for _ in self.fixed]
        fillers = self.settings.fillers
        for part in DRAWN:
            if part not in self.settings.parts:
                continue
            rng = random.Random(f"transcript-{part}-{seed}")
            sites = [(si, i) for si, n in enumerate(self.gaps) for i in range(n)] \
                if part == "fillers" else \
                [(si, i) for si, ws in enumerate(self.repeatable) for i in ws]
            chosen = _choose(sites, rate, per_sentence, self.words, rng)
            for si, i in sorted(chosen):
                if part == "fillers":
                    drawn[si].append(Edit(i, i, [rng.choice(fillers)], TYPES[part], []))
                else:
                    drawn[si].append(Edit(i, i, [self.copies[si][i]], TYPES[part], []))
                made[part] += 1
        order = {"T:FILLER": 0, "T:REPEAT": 1}
        out = [sorted([*fixed, *extra], key=lambda e: (e.start, e.end > e.start,
                                                       order.get(e.type, 2)))
               for fixed, extra in zip(self.fixed, drawn, strict=True)]
        return out, made


def _choose(sites: list[tuple[int, int]], rate: float | None, per_sentence: int | None,
            words: int, rng: random.Random) -> list[tuple[int, int]]:
    """SITES drawn: RATE times WORDS of them over the corpus (rounded), or PER_SENTENCE in
    each sentence (as many as it has, when fewer)."""
    if per_sentence is not None:
        by: dict[int, list[tuple[int, int]]] = {}
        for s in sites:
            by.setdefault(s[0], []).append(s)
        return [x for si in sorted(by)
                for x in rng.sample(by[si], min(per_sentence, len(by[si])))]
    n = min(len(sites), round((rate or 0.0) * words))
    return rng.sample(sites, n)


def fixed_edits(s: Sentence, parts: Sequence[str],
                spell: Callable[[str], list[str] | None] | None
                ) -> tuple[list[Edit], list[str], set[int]]:
    """The edits of S's fixed parts, each word as they write it, and the words they
    change. A word inside a multiword token is only lowercased; punctuation is kept in a
    sentence that is nothing else (it would be left without words) and where it heads
    the sentence or another word (UD's punctuation has no dependents; a tree that gives
    it some keeps it, so that every tree stays one)."""
    inside = {i for a, b, _ in s.multiword for i in range(a, b + 1)}
    edits: list[Edit] = []
    written = list(s.forms)
    changed: set[int] = set()
    drop = "punct" in parts and not all(
        is_punct(f, u) for f, u in zip(s.forms, s.upos, strict=True))
    heading = {h - 1 for h in s.heads if h > 0} | {i for i, h in enumerate(s.heads) if h == 0}
    for i, form in enumerate(s.forms):
        if i not in inside and drop and i not in heading and is_punct(form, s.upos[i]):
            edits.append(Edit(i, i + 1, [], TYPES["punct"], []))
            changed.add(i)
            continue
        spelled = spell(form) if spell is not None and i not in inside else None
        if spelled is not None:
            if "lower" in parts:
                spelled = [w.lower() for w in spelled]
            edits.append(Edit(i, i + 1, spelled, TYPES["numbers"],
                              [(k, 0) for k in range(len(spelled))]))
            written[i] = " ".join(spelled)
            changed.add(i)
        elif "lower" in parts and form.lower() != form:
            edits.append(Edit(i, i + 1, [form.lower()], TYPES["lower"], [(0, 0)]))
            written[i] = form.lower()
    return edits, written, changed


def transcribed(s: Sentence, edits: Sequence[Edit], tree: bool = True
                ) -> tuple[Sentence, list[tuple[int, int]], list[tuple[int, int, str, str]]]:
    """S as transcribed by EDITS (lowercased: its multiword tokens' forms too), with the
    gold tree carried to the new words (unless not TREE: words only, as a parser is
    given them), the alignment and the M2 edits.

    The tree: a kept word keeps its head and relation (a removed mark heads none); a
    number spelled out in several words is headed by its last, the others its
    ``compound`` (as UD English writes "two hundred"); a filler is a ``discourse``
    dependent (INTJ) of the root; a word said twice is first the ``reparandum`` of its
    repair (UD's guidelines for disfluencies). A sentence without a tree (text input)
    gets words only.
    """
    from parsebench.noise.grammar_output import noisy_sentence

    if s.multiword and any(e.type == TYPES["lower"] for e in edits):
        s = replace(s, multiword=[(a, b, [c[0], c[1].lower(), *c[2:]])
                                  for a, b, c in s.multiword])
    noisy, pairs, m2 = noisy_sentence(s, edits)
    if not tree or not any(h != NO_HEAD for h in s.heads):
        return noisy, pairs, m2
    n = len(noisy.forms)
    of_clean: dict[int, list[int]] = {}
    for i, j in pairs:
        of_clean.setdefault(j, []).append(i)
    typ_at = {i: typ for a, b, typ, _ in m2 for i in range(a, b)}

    def noisy_head(j: int) -> int:  # clean j's head as a noisy index (0: the root)
        h = s.heads[j]
        return 0 if h <= 0 else max(of_clean[h - 1]) + 1

    col = {k: ["_"] * n for k in ("lemmas", "upos", "xpos", "feats", "deprels")}
    heads = [NO_HEAD] * n
    for j, got in of_clean.items():
        last = max(got)
        for i in got:
            for k in ("lemmas", "upos", "xpos", "feats"):
                col[k][i] = getattr(s, k)[j]
            if typ_at.get(i) == TYPES["numbers"]:
                col["lemmas"][i] = noisy.forms[i]
                col["feats"][i] = col["feats"][i].replace("NumForm=Digit", "NumForm=Word")
            if i == last:
                heads[i], col["deprels"][i] = noisy_head(j), s.deprels[j]
            else:
                heads[i], col["deprels"][i] = last + 1, "compound"
    root = next((i + 1 for i in range(n) if heads[i] == 0), 1)
    for (a, _, typ, _), e in zip(m2, sorted(edits, key=lambda e: (e.start, e.end)),
                                 strict=True):
        if typ == TYPES["fillers"]:
            heads[a], col["deprels"][a] = root, "discourse"
            col["lemmas"][a], col["upos"][a] = noisy.forms[a].lower(), "INTJ"
        elif typ == TYPES["repeats"]:
            heads[a], col["deprels"][a] = max(of_clean[e.start]) + 1, "reparandum"
            for k in ("lemmas", "upos", "xpos", "feats"):
                col[k][a] = getattr(s, k)[e.start]
    carried = replace(noisy, heads=heads, lemmas=col["lemmas"], upos=col["upos"],
                      xpos=col["xpos"], feats=col["feats"], deprels=col["deprels"])
    return carried, pairs, m2


class Cuts:
    """Where a transcript without sentence boundaries is cut: every WINDOW words, at the
    start of each document (``# newdoc``), never inside a multiword token. Fed a
    sentence at a time, it gives the lengths (in words) of the segments that sentence
    completes; the one rule for the noise command's segments and a run's."""

    def __init__(self, window: int) -> None:
        if window < 2:
            raise ValueError(f"a window of {window} words")
        self.window = window
        self.pending: list[int] = []  # a token number a waiting word (one a multiword token)
        self.tokens = 0

    def add(self, s: Sentence) -> list[int]:
        out = []
        if any(c.startswith("# newdoc") for c in s.comments) and self.pending:
            out.append(len(self.pending))
            self.pending = []
        starts = {a: b for a, b, _ in s.multiword}
        last = -1
        for i in range(len(s.forms)):
            if i > last:
                self.tokens += 1
                last = starts.get(i, i)
            self.pending.append(self.tokens)
        while len(self.pending) >= self.window:
            n = self.window
            while n < len(self.pending) and self.pending[n] == self.pending[n - 1]:
                n += 1  # the rest of a multiword token goes with it
            out.append(n)
            self.pending = self.pending[n:]
        return out

    def finish(self) -> list[int]:
        """The last segment's length, if words are left."""
        return [len(self.pending)] if self.pending else []


def segment_lengths(sentences: Iterable[Sentence], window: int) -> list[int]:
    """The words of each segment that :func:`resegmented` cuts SENTENCES into."""
    cuts = Cuts(window)
    return [n for s in sentences for n in cuts.add(s)] + cuts.finish()


def resegmented(sentences: Iterable[Sentence], window: int) -> Iterator[Sentence]:
    """SENTENCES (transcribed, with their trees) run together and cut where :class:`Cuts`
    says, as a transcript without sentence boundaries is cut by a fixed window. In a
    segment, a word whose head is outside it heads its piece; the first piece's head is
    the root and the others' are its ``parataxis`` (as UD joins two sentences)."""
    buf: list[tuple[Sentence, int, int]] = []  # (sentence, word, head's place in buf or -1)
    count = 0
    cuts = Cuts(window)

    def cut(n: int) -> Sentence:
        nonlocal buf, count
        mine, buf = buf[:n], buf[n:]
        buf = [(x, k, h - n if h >= 0 else -1) for x, k, h in buf]
        count += 1
        return _segment(mine, count)

    for s in sentences:
        base = len(buf)
        buf += [(s, k, base + h - 1 if h > 0 else -1) for k, h in enumerate(s.heads)]
        for n in cuts.add(s):
            yield cut(n)
    for n in cuts.finish():
        yield cut(n)


def _segment(words: list[tuple[Sentence, int, int]], number: int) -> Sentence:
    n = len(words)
    col = {k: [getattr(x, k)[i] for x, i, _ in words]
           for k in ("forms", "lemmas", "upos", "xpos", "feats", "deprels", "misc")}
    heads = [h + 1 if 0 <= h < n else 0 for _, _, h in words]
    roots = [i for i in range(n) if heads[i] == 0]
    if roots and any(x.heads[i] != NO_HEAD for x, i, _ in words):
        for r in roots[1:]:
            heads[r], col["deprels"][r] = roots[0] + 1, "parataxis"
        col["deprels"][roots[0]] = "root"
    else:
        heads = [NO_HEAD] * n
    mwt = []
    for a in range(n):
        x, i, _ = words[a]
        for lo, hi, cols in x.multiword:
            if lo == i and a + hi - lo < n:
                mwt.append((a, a + hi - lo, [f"{a + 1}-{a + hi - lo + 1}", *cols[1:]]))
    text = surface_text(col["forms"], col["misc"], mwt)
    return Sentence(forms=col["forms"], lemmas=col["lemmas"], upos=col["upos"],
                    xpos=col["xpos"], feats=col["feats"], heads=heads,
                    deprels=col["deprels"] if heads[0] != NO_HEAD else ["_"] * n,
                    deps=["_"] * n, misc=col["misc"],
                    comments=[f"# sent_id = segment-{number}", "# text = " + text],
                    multiword=mwt, line=words[0][0].line)


def summary(words: int, made: dict[str, int]) -> dict[str, Any]:
    """A replicate's figures, as the noise command's JSON gives them."""
    return {"words": words, "changes": sum(made.values()), "by_part": dict(made)}


def changes_of(edits: Sequence[Sequence[Edit]]) -> Iterator[list[Any]]:
    """EDITS as a run stores them: [sentence, start, end, noisy words, type, links]."""
    for si, es in enumerate(edits):
        for e in es:
            yield [si, e.start, e.end, list(e.noisy), e.type, [list(x) for x in e.links]]

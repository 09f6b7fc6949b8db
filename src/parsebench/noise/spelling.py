"""Human-like misspellings (Bigert et al.; Kakkonen): one keyboard edit per word, non-words only.

Each misspelled word gets exactly one edit: a letter replaced by a keyboard
neighbour, a neighbour of an adjacent letter inserted, a letter deleted, or two
adjacent letters swapped. The result must not be a word of the lexicon nor of
the input (case-insensitive). Which words change is decided by a seeded
generator so that the same input, settings and seed give byte-identical output
on any machine: only ``random.Random(seed).random()`` is used, whose Mersenne
Twister stream is the same on every platform. Words are visited in one seeded
order and each word's edit depends only on the seed and the word's position,
so a higher rate always contains the misspellings of a lower one (nested).

The operation weights are asked-for, not realised, by default: an operation drawn
for a word that has no non-word edit of it (most deletions, substitutions and
transpositions of short words make real words) gives way to the word's other
operations, so insertions, which rarely make a word, are realised more often than
asked (49% of them at 1:1:1:1 on EWT test at 5%). The default keeps the words
misspelled uniform over the eligible ones and earlier runs' noise as it was.
``keep_mix`` keeps the asked-for mix instead: each misspelling's operation is drawn
by weight first, and a word without a non-word edit of that operation is passed
over for the next word drawn (longer words are then misspelled more often). The
realised mix is reported beside the asked-for weights either way.

Written here because the libraries for this (nlpaug's KeyboardAug, for one)
change token counts and do not guarantee non-words.
"""

from __future__ import annotations

import math
import random
from array import array
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, MutableSequence, Sequence
from dataclasses import dataclass, field
from itertools import accumulate, compress, islice

from parsebench.common.errors import InputError
from parsebench.noise.keyboard import Keyboard
from parsebench.noise.lexicon import Lexicon

OPERATIONS = ("sub", "ins", "del", "trans")
POSITION = "i"
"""Word positions in a corpus are 4-byte integers (half the memory of 8-byte ones)."""


def check_positions(words: int) -> None:
    """Refuse a corpus too long for 4-byte word positions (2,147,483,647 words, some
    10 GB of CoNLL-U), in one line, before an array overflows."""
    if words >= 2**31:
        raise InputError(f"more than {2**31 - 1:,} words: noise a corpus of that size in "
                         "parts")


def _subs(word: str, near: Mapping[str, str], skip: frozenset[str]) -> list[str]:
    out = []
    for i, ch in enumerate(word):
        for nb in near[ch]:
            out.append(word[:i] + nb + word[i + 1:])
    return out


def _inss(word: str, near: Mapping[str, str], skip: frozenset[str]) -> list[str]:
    out = []
    n = len(word)
    for i in range(n + 1):
        seen: set[str] = set()
        for j in (i - 1, i):
            if 0 <= j < n:
                for ins in near[word[j]]:
                    if ins not in seen:
                        seen.add(ins)
                        out.append(word[:i] + ins + word[i:])
    return out


def _dels(word: str, near: Mapping[str, str], skip: frozenset[str]) -> list[str]:
    return [word[:i] + word[i + 1:] for i in range(len(word)) if word[i] not in skip] \
        if len(word) > 1 else []


def _transs(word: str, near: Mapping[str, str], skip: frozenset[str]) -> list[str]:
    return [word[:i] + word[i + 1] + word[i] + word[i + 2:]
            for i in range(len(word) - 1) if word[i] != word[i + 1]
            and word[i] not in skip and word[i + 1] not in skip]


_MAKERS = {"sub": _subs, "ins": _inss, "del": _dels, "trans": _transs}
"""Each operation's edits of a word, in a fixed order. NEAR (:attr:`Keyboard.near`) gives
a character's neighbours already in its case or level; SKIP: characters no edit
touches (a joiner)."""

LAZY_FROM = 64
"""Words this long or longer get their edits made one at a time (:class:`_LazyEdits`):
every edit of a 30,000-letter word at once took 3.6 GB."""


class _LazyEdits:
    """The edits of one operation on a long word as :data:`_MAKERS` lists them, but made
    only when drawn: the list holds edit numbers, not strings, and a drawn number is
    swapped with the last one through a dict (a lazy Fisher-Yates), so that the draws,
    and the random numbers they use, are those of the list of strings exactly."""

    def __init__(self, op: str, word: str, near: Mapping[str, str],
                 skip: frozenset[str] = frozenset()) -> None:
        self.op, self.word, self.near = op, word, near
        n = len(word)
        self.pos: list[int] = []
        self.cum: list[int] = []
        self.skips = bool(skip)
        if op == "del":
            if skip:
                self.pos = [i for i in range(n) if word[i] not in skip] if n > 1 else []
            self.size = len(self.pos) if skip else n if n > 1 else 0
        elif op == "trans":
            self.pos = [i for i in range(n - 1) if word[i] != word[i + 1]
                        and word[i] not in skip and word[i + 1] not in skip]
            self.size = len(self.pos)
        else:
            per = [len(near[ch]) for ch in word] if op == "sub" else \
                [len(self._inserts(i)) for i in range(n + 1)]
            self.cum = list(accumulate(per, initial=0))
            self.size = self.cum[-1]
        self.moved: dict[int, int] = {}

    def __len__(self) -> int:
        return self.size

    def take(self, k: int) -> str:
        """Remove the K-th edit as ``cands[k] = cands[-1]; cands.pop()`` does; return it."""
        last = self.size - 1
        idx = self.moved.get(k, k)
        self.moved[k] = self.moved.pop(last, last)
        self.size = last
        return self._make(idx)

    def _inserts(self, i: int) -> list[str]:
        word, out = self.word, []
        for j in (i - 1, i):
            if 0 <= j < len(word):
                for ins in self.near[word[j]]:
                    if ins not in out:
                        out.append(ins)
        return out

    def _make(self, idx: int) -> str:
        w = self.word
        if self.op == "del":
            i = self.pos[idx] if self.skips else idx
            return w[:i] + w[i + 1:]
        if self.op == "trans":
            i = self.pos[idx]
            return w[:i] + w[i + 1] + w[i] + w[i + 2:]
        i = bisect_right(self.cum, idx) - 1
        off = idx - self.cum[i]
        if self.op == "sub":
            return w[:i] + self.near[w[i]][off] + w[i + 1:]
        return w[:i] + self._inserts(i)[off] + w[i:]


def edits(word: str, kb: Keyboard) -> list[tuple[str, str]]:
    """Every one-edit misspelling of WORD as (operation, new form), in a fixed order.

    A substituted letter keeps the case of the letter it replaces, an inserted
    one takes the case of its neighbour, a transposition swaps characters as
    they are: every result is one edit from WORD, case-sensitively. On a layout of
    its own script (Hangul) the edit is of the keys typed, and an edit whose keys make
    no word is left out.
    """
    keys = kb.typed(word)
    got = [(op, new) for op in OPERATIONS for new in _MAKERS[op](keys, kb.near, kb.joiners)]
    if kb.plain:
        return got
    return [(op, shown) for op, new in got if (shown := kb.shown(new)) is not None]


@dataclass
class Settings:
    rate: float | None = None
    per_sentence: int | None = None
    seed: int = 1
    weights: dict[str, float] = field(default_factory=lambda: dict.fromkeys(OPERATIONS, 1.0))
    min_length: int = 2
    keep_mix: bool = False
    """Draw each misspelling's operation by weight and pass over the words that have no
    non-word edit of it, rather than let another operation of the word stand in."""

    def check(self) -> None:
        check_level(self.rate, self.per_sentence)
        if set(self.weights) - set(OPERATIONS) or any(w < 0 for w in self.weights.values()) \
                or not any(self.weights.values()):
            raise InputError("weights: give OP=W with OP in sub, ins, del, trans, W >= 0, "
                             "not all 0")


def check_level(rate: float | None, per_sentence: int | None) -> None:
    """One error level: a rate in (0, 1] or a count a sentence of 1 or more."""
    if (rate is None) == (per_sentence is None):
        raise InputError("give exactly one of --rate and --per-sentence")
    if rate is not None and not 0 < rate <= 1:
        raise InputError(f"--rate {rate}: must be in (0, 1]")
    if per_sentence is not None:
        from parsebench.common.limits import check

        check("per_sentence", per_sentence)


@dataclass
class Change:
    sentence: int
    token: int
    op: str
    orig: str
    new: str


@dataclass
class Report:
    words: int = 0
    eligible: int = 0
    changes: list[Change] = field(default_factory=list)
    no_nonword: int = 0
    """Chosen words for which no non-word edit exists (skipped, another word taken)."""
    short_sentences: list[int] = field(default_factory=list)
    """Sentences with fewer than K words that could be misspelled (per-sentence mode)."""
    shortfall: int = 0
    """Misspellings asked for (rate mode) that no eligible word could give."""
    weights: dict[str, float] = field(default_factory=lambda: dict.fromkeys(OPERATIONS, 1.0))
    """The operation weights asked for."""
    keep_mix: bool = False
    passed_over: int = 0
    """With keep_mix: words drawn that had no non-word edit of the operation drawn."""

    def operations(self) -> dict[str, int]:
        """The realised mix: misspellings by operation."""
        ops = Counter(c.op for c in self.changes)
        return {op: ops.get(op, 0) for op in OPERATIONS}

    def summary(self) -> str:
        n = len(self.changes)
        pct_all = f"{100 * n / self.words:.2f}%" if self.words else "n/a"
        pct_el = f"{100 * n / self.eligible:.2f}%" if self.eligible else "n/a"
        lines = [f"{n} words misspelled: {pct_all} of all {self.words} words, "
                 f"{pct_el} of {self.eligible} eligible",
                 "by operation: " + operation_mix(self.operations(), self.weights),
                 ("operations kept as drawn (--keep-mix): words passed over for want of a "
                  f"non-word edit of their operation: {self.passed_over}" if self.keep_mix
                  else "an operation without a non-word edit of the word gives way to "
                  "another (--keep-mix keeps the asked-for mix)\n"
                  f"skipped (no non-word edit): {self.no_nonword}")]
        if self.short_sentences:
            lines.append(f"sentences with too few eligible words: {len(self.short_sentences)}")
        if self.shortfall:
            lines.append(f"could not reach the rate: {self.shortfall} misspellings short")
        return "\n".join(lines)


def sampled_edits(word: str, kb: Keyboard, rng: random.Random) -> Iterator[tuple[str, str]]:
    """Every one-edit misspelling of WORD as (operation, new form), as :func:`edits` lists
    them, but in a seeded random order and made only when drawn: a sample of a few costs
    a few times the word's length, where listing them all first costs its square (a
    9,000-letter word's took 845 MB)."""
    lazy = [_LazyEdits(op, kb.typed(word), kb.near, kb.joiners) for op in OPERATIONS]
    cum = list(accumulate((len(x) for x in lazy), initial=0))
    moved: dict[int, int] = {}
    plain = kb.plain
    for left in range(cum[-1], 0, -1):  # a lazy Fisher-Yates over all the edits' numbers
        k = int(rng.random() * left)
        idx = moved.get(k, k)
        moved[k] = moved.pop(left - 1, left - 1)
        o = bisect_right(cum, idx) - 1
        new = lazy[o]._make(idx - cum[o])
        shown = new if plain else kb.shown(new)
        if shown is not None:
            yield OPERATIONS[o], shown


def operation_mix(realised: Mapping[str, int], weights: Mapping[str, float]) -> str:
    """``sub 321 (25.6%), ins 614 (48.9%), ...; asked sub 25.0%, ins 25.0%, ...``."""
    n = sum(realised.values())
    total = sum(weights.get(op, 0) for op in OPERATIONS)

    def share(x: float, of: float) -> str:
        return f"{100 * x / of:.1f}%" if of else "n/a"

    return (", ".join(f"{op} {realised.get(op, 0)} ({share(realised.get(op, 0), n)})"
                      for op in OPERATIONS)
            + "; asked " + ", ".join(f"{op} {share(weights.get(op, 0), total)}"
                                     for op in OPERATIONS))


def _slot_op(settings: Settings, slot: str) -> str:
    """The operation drawn by weight for misspelling SLOT (keep_mix): the same at every
    level, so that rates stay nested."""
    ops = [op for op in OPERATIONS if settings.weights.get(op, 0) > 0]
    x = random.Random(f"{settings.seed}/op/{slot}").random() * sum(
        settings.weights[op] for op in ops)
    for op in ops:
        x -= settings.weights[op]
        if x < 0:
            return op
    return ops[-1]


def _word_rng(seed: int, sentence: int, token: int) -> random.Random:
    return random.Random(seed * 1_000_003 ** 2 + sentence * 1_000_003 + token)


def _draw(items: MutableSequence[int], rng: random.Random) -> Iterator[int]:
    """ITEMS in a uniformly random order, drawn lazily (a Fisher-Yates shuffle from the front).

    The order does not depend on how many are drawn, so fewer draws give a
    prefix of more draws: this is what makes rates nested.
    """
    n = len(items)
    for i in range(n):
        j = i + int(rng.random() * (n - i))
        items[i], items[j] = items[j], items[i]
        yield items[i]


def misspell(word: str, rng: random.Random, kb: Keyboard, lexicon: Lexicon,
             input_words: set[str], weights: dict[str, float],
             only: str | None = None) -> tuple[str, str] | None:
    """A weighted random non-word edit of WORD, or None when none exists.

    The operation is drawn by weight, then an edit of that kind; an operation
    whose edits are all words is dropped and the draw repeated. Edits of an
    operation are made only when it is drawn (most words need one draw). ONLY:
    that operation's edits alone (None when all of them are words).
    """
    ops = [op for op in OPERATIONS if weights.get(op, 0) > 0 and only in (None, op)]
    made: dict[str, list[str] | _LazyEdits] = {}
    words, fold = lexicon.words, lexicon.fold
    keys = kb.typed(word)
    shown = None if kb.plain else kb.shown
    while ops:
        total = sum(weights[op] for op in ops)
        x = rng.random() * total
        op = ops[-1]
        for o in ops:
            x -= weights[o]
            if x < 0:
                op = o
                break
        cands = made.get(op)
        if cands is None:
            cands = made[op] = _LazyEdits(op, keys, kb.near, kb.joiners) \
                if len(keys) >= LAZY_FROM else _MAKERS[op](keys, kb.near, kb.joiners)
        while cands:
            k = int(rng.random() * len(cands))
            if isinstance(cands, _LazyEdits):
                new = cands.take(k)
            else:
                new = cands[k]
                cands[k] = cands[-1]
                cands.pop()
            if shown is not None:
                made_word = shown(new)
                if made_word is None:  # keys that make no word: as good as a real word
                    continue
                new = made_word
            low = fold(new)
            if low not in words and low not in input_words:
                return op, new
        ops.remove(op)
    return None


def _attempt(report: Report, starts: Sequence[int], i: int, word: str, settings: Settings,
             kb: Keyboard, lexicon: Lexicon, input_words: set[str], slot: str) -> bool:
    """Misspell the word at corpus position I (WORD) as the misspelling SLOT; record the
    change or the miss."""
    si = bisect_right(starts, i) - 1
    ti = i - starts[si]
    only = _slot_op(settings, slot) if settings.keep_mix else None
    got = misspell(word, _word_rng(settings.seed, si, ti), kb, lexicon, input_words,
                   settings.weights, only)
    if got is None:
        if only is not None:
            report.passed_over += 1
        else:
            report.no_nonword += 1
        return False
    report.changes.append(Change(si, ti, got[0], word, got[1]))
    return True


def _in_sentence(report: Report, si: int, cands: list[int], k: int, seed: int,
                 attempt: Callable[[int, str], bool]) -> None:
    """Misspell K of sentence SI's eligible words CANDS, or none (a short sentence)."""
    mark = len(report.changes)
    done = 0
    if len(cands) >= k:
        for i in _draw(cands, random.Random(seed * 1_000_003 + si)):
            done += attempt(i, f"{si}/{done}")
            if done == k:
                break
    if done < k:
        del report.changes[mark:]
        report.short_sentences.append(si)


class Corpus:
    """The seed-independent part of planning, done once for all levels and replicates."""

    def __init__(self, sentences: Sequence[Sequence[str]],
                 blocked: Sequence[set[int]] | None = None,
                 eligible: Callable[[str], bool] = str.isalpha,
                 fold: Callable[[str], str] = str.lower) -> None:
        """ELIGIBLE: whether a word may be misspelled (:attr:`Keyboard.eligible`); FOLD:
        how its words are compared with the lexicon's (:attr:`Lexicon.fold`)."""
        self.sentences = sentences
        self.flat = [w for toks in sentences for w in toks]
        self.starts = list(accumulate((len(t) for t in sentences), initial=0))
        self.input_words = {fold(w) for w in set(self.flat)}
        # Eligible: alphabetic, at least min_length letters (never numbers, punctuation,
        # URLs), outside multiword tokens. A C-level filter: this pass touches every
        # word, everything after it only the chosen ones.
        alpha = list(compress(range(len(self.flat)), map(eligible, self.flat)))
        if blocked:
            out = {self.starts[si] + ti for si, b in enumerate(blocked) for ti in b}
            alpha = [i for i in alpha if i not in out]
        self.alpha = alpha

    def eligible(self, min_length: int) -> list[int]:
        flat = self.flat
        return [i for i in self.alpha if len(flat[i]) >= min_length] if min_length > 1 \
            else list(self.alpha)

    def plan(self, settings: Settings, kb: Keyboard, lexicon: Lexicon) -> Report:
        """Decide every misspelling for one seed and level."""
        settings.check()
        flat, starts = self.flat, self.starts
        report = Report(words=len(flat), weights=dict(settings.weights),
                        keep_mix=settings.keep_mix)
        pool = self.eligible(settings.min_length)
        report.eligible = len(pool)

        def attempt(i: int, slot: str) -> bool:
            return _attempt(report, starts, i, flat[i], settings, kb, lexicon,
                            self.input_words, slot)

        if settings.rate is not None:
            target = math.floor(settings.rate * report.words + 0.5)
            done = 0
            if target:
                for i in _draw(pool, random.Random(settings.seed)):
                    done += attempt(i, str(done))
                    if done == target:
                        break
            report.shortfall = target - done
        else:
            k = settings.per_sentence or 0
            by_sentence: dict[int, list[int]] = {}
            for i in pool:
                by_sentence.setdefault(bisect_right(starts, i) - 1, []).append(i)
            for si in range(len(self.sentences)):
                _in_sentence(report, si, by_sentence.get(si, []), k, settings.seed, attempt)
        report.changes.sort(key=lambda c: (c.sentence, c.token))
        return report


Reader = Callable[[], Iterator[tuple[Sequence[str], set[int]]]]
"""A fresh pass over a corpus: each sentence's words and its blocked (multiword) rows."""


class StreamedCorpus:
    """:class:`Corpus` for corpora too large to hold: the same plans, byte for byte, from
    passes over the input instead of lists of its words.

    One pass keeps what planning needs of the whole corpus, compactly: the position of
    every eligible word (an array of integers), where each sentence starts, and the
    set of the input's words (its vocabulary). The draw over the eligible words is
    the in-memory one; the words it picks are fetched by further passes, a batch at a
    time (about one pass per seed: a pick that has no non-word edit is rare).
    """

    def __init__(self, read: Reader, min_length: int,
                 eligible: Callable[[str], bool] = str.isalpha,
                 fold: Callable[[str], str] = str.lower) -> None:
        self.read, self.min_length = read, min_length
        self.starts = array(POSITION)
        self.pool = array(POSITION)
        vocab: set[str] = set()
        words = 0
        for forms, blocked in read():
            check_positions(words + len(forms))
            self.starts.append(words)
            for t, w in enumerate(forms):
                vocab.add(fold(w))
                if eligible(w) and t not in blocked and len(w) >= min_length:
                    self.pool.append(words + t)
            words += len(forms)
        self.starts.append(words)
        self.words = words
        self.input_words = vocab

    def _fetch(self, wanted: set[int]) -> dict[int, str]:
        out: dict[int, str] = {}
        for si, (forms, _) in enumerate(self.read()):
            s0 = self.starts[si]
            for t, w in enumerate(forms):
                if s0 + t in wanted:
                    out[s0 + t] = w
        return out

    def plan(self, settings: Settings, kb: Keyboard, lexicon: Lexicon) -> Report:
        """Decide every misspelling for one seed and level, as :meth:`Corpus.plan` does."""
        settings.check()
        if settings.min_length != self.min_length:
            raise ValueError("a StreamedCorpus plans for the min_length it was read with")
        starts = self.starts
        report = Report(words=self.words, eligible=len(self.pool),
                        weights=dict(settings.weights), keep_mix=settings.keep_mix)

        def attempt(i: int, word: str, slot: str) -> bool:
            return _attempt(report, starts, i, word, settings, kb, lexicon, self.input_words,
                            slot)

        if settings.rate is not None:
            target = math.floor(settings.rate * report.words + 0.5)
            done = 0
            draws = _draw(array(POSITION, self.pool), random.Random(settings.seed))
            while done < target:
                need = target - done
                batch = list(islice(draws, need + max(16, need // 8)))
                if not batch:
                    break
                words = self._fetch(set(batch))
                for i in batch:
                    done += attempt(i, words[i], str(done))
                    if done == target:
                        break
            report.shortfall = target - done
        else:
            k = settings.per_sentence or 0
            pool = self.pool
            for si, (forms, _) in enumerate(self.read()):
                lo = bisect_left(pool, starts[si])
                hi = bisect_left(pool, starts[si + 1])
                s0 = starts[si]

                def here(i: int, slot: str, forms: Sequence[str] = forms, s0: int = s0
                         ) -> bool:
                    return attempt(i, forms[i - s0], slot)

                _in_sentence(report, si, list(pool[lo:hi]), k, settings.seed, here)
        report.changes.sort(key=lambda c: (c.sentence, c.token))
        return report


def plan(sentences: Sequence[Sequence[str]], settings: Settings, kb: Keyboard,
         lexicon: Lexicon, blocked: Sequence[set[int]] | None = None) -> Report:
    """Decide every misspelling. SENTENCES are token forms; BLOCKED tokens never change."""
    return Corpus(sentences, blocked, kb.eligible, lexicon.fold).plan(settings, kb, lexicon)


def parse_weights(text: str | Mapping[str, float] | None,
                  defaults: dict[str, float] | None = None, what: str = "OP") -> dict[str, float]:
    """``sub=2,ins=1`` (or the same as a mapping) -> weights over DEFAULTS (operations:
    each 1); the names are checked by the settings that use them."""
    weights = dict(defaults) if defaults is not None else dict.fromkeys(OPERATIONS, 1.0)
    given = list(text.items()) if isinstance(text, Mapping) else [
        part.rpartition("=")[::2] for part in (text or "").split(",") if part.strip()]
    for name, val in given:
        try:
            weights[name.strip()] = float(val)
        except (TypeError, ValueError):
            raise InputError(f"--weights {text!r}: expected {what}=NUMBER,...") from None
    return weights

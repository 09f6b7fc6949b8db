"""Misspellings drawn from a learnt profile (:mod:`.profile`) instead of the keyboard model.

Exact and nested as the keyboard model's: round(rate x words) words are misspelled,
visited in one seeded order, each word's error drawn from a generator seeded by the
seed and the word's position, so a higher rate holds the errors of a lower one. The
order is a weighted draw without replacement (Efraimidis and Spirakis: key
u^(1/w)): a word's weight is the error rate the profile measured for its UPOS (where
the input has UPOS and the profile counts it), else for its length; a word of a
recurring confusion has its own rate. A word whose
lower-cased form has a recurring confusion in the profile ("your" written "you") is
written as one of them, drawn by count; another gets a case error or edits, drawn by
the profile's counts: how many edits, which operation, where in the word, which
letter (the confusion table; a keyboard neighbour where the table has none for the
letter). A short word takes no more edits than :func:`most_edits` allows (EWT's 3-edit
errors on short words are elongations, "way" written "waaaay", not random letters:
"sell" was written "a", "bet" "brhth"); a count drawn above it becomes an elongation
when its first operation is an insertion, else is cut to the most allowed. Real words
are made at the profile's share; a profile without real-word errors keeps Bigert's
non-word rule. Errors come several to a sentence as the profile counted them
(:func:`_clustered`).

Tokenization changes are made only when asked (``tokenization``: they change the
words, so the noisy text then carries an alignment to the clean words, as grammar
noise does): a drawn word is split in two at the profile's share of splits, and
joined with the next word at its share of merges. The profile counts them but not
where they fall, so a word is split only where both parts are common words ("any
way", "in to": :meth:`Drawer.split`), as the split words of EWT mostly are, never a
name, and joined only with a next word that noise may change ("alot"). A word that
cannot take the one drawn takes a word-for-word error instead, and the split (merge)
is made on the next drawn word that can: the rate stays exact, and the share is the
profile's where the text has such words. A merge is one error over two words.
"""

from __future__ import annotations

import math
import random
from bisect import bisect_right
from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import accumulate

from parsebench.noise.keyboard import Keyboard
from parsebench.noise.lexicon import Lexicon
from parsebench.noise.profile import OPERATIONS, Profile, length_bucket
from parsebench.noise.spelling import Change, Report, _word_rng

SPLIT_ZIPF = 5.0
"""How common (Zipf) each part of a split word is: about one in 100,000 words or more
(a part of two letters: one in 10,000)."""

RETOKENIZED = ("split", "merge")
"""The ops of errors that change the words (:func:`plan` with ``tokenization``)."""

ATTEMPTS = 40
"""Draws of a word's edits before its wanted kind (real word or not) is given up."""


def _pick(rng: random.Random, counts: Mapping[str, float]) -> str | None:
    keys = [k for k, v in counts.items() if v > 0]
    if not keys:
        return None
    cum = list(accumulate(counts[k] for k in keys))
    return keys[min(bisect_right(cum, rng.random() * cum[-1]), len(keys) - 1)]


def most_edits(word: str) -> int:
    """The most letter edits a misspelling of WORD takes: one for a word of up to four
    letters, then one more every two letters (2 for 5-6 letters, 3 for 7-8...)."""
    return max(1, (len(word) + 1) // 2 - 1)


def elongated(word: str, times: int, rng: random.Random) -> str:
    """WORD with one of its letters (a vowel where it has one) repeated TIMES more."""
    at = [i for i, ch in enumerate(word) if ch.lower() in "aeiouy"] or \
        [i for i, ch in enumerate(word) if ch.isalpha()] or list(range(len(word)))
    i = at[int(rng.random() * len(at))]
    return word[:i + 1] + word[i] * times + word[i + 1:]


class Drawer:
    """A profile made ready to draw from."""

    def __init__(self, profile: Profile, kb: Keyboard, lexicon: Lexicon) -> None:
        d = profile.data
        self.profile, self.kb, self.lexicon = profile, kb, lexicon
        self.kinds = {k: float(v) for k, v in d["kinds"].items() if k != "apostrophe"}
        self.n_edits = {k: float(v) for k, v in d["edits_per_word"].items()}
        self.ops = {k: float(v) for k, v in d["operations"].items()}
        self.where = {k: float(v) for k, v in d["positions"].items()}
        self.case = {k: float(v) for k, v in d["case"].items()}
        self.subs: dict[str, dict[str, float]] = {}
        self.ins: dict[str, float] = {}
        for k, v in d["confusions"].items():
            if k.startswith("+") and len(k) == 2 and k[1].isalpha():
                self.ins[k[1]] = float(v)
            elif len(k) == 3 and k[1] == ">" and k[0].isalpha() and k[2].isalpha():
                self.subs.setdefault(k[0], {})[k[2]] = float(v)
        self.pairs: dict[str, dict[str, float]] = {}
        for k, v in d["pairs"].items():
            c, _, w = k.partition(">")
            if c and w:
                self.pairs.setdefault(c, {})[w] = float(v)
        self.real_share = profile.real_share
        tok = d.get("tokenization", {})
        split, merged = float(tok.get("split", 0)), float(tok.get("merged", 0))
        errors = sum(float(v) for v in d["kinds"].values()) + split + merged
        self.split_share = split / errors if errors else 0.0
        self.merge_share = merged / errors if errors else 0.0
        """The shares of the profile's errors that split a word, and that join two."""
        by = d["errors_by"]
        # a class's error rate, smoothed so that no eligible word is never drawn
        self.by_upos: dict[str, float] = {
            k: (e + 0.5) / (a + 1) for k, (e, a) in by.get("upos", {}).items()}
        self.by_word: dict[str, float] = {
            k: (e + 0.5) / (a + 1) for k, (e, a) in d.get("pair_words", {}).items()}
        self.by_length: dict[str, float] = {
            k: (e + 0.5) / (a + 1) for k, (e, a) in by.get("length", {}).items()}
        self.clusters: dict[str, float] = {
            k: float(v) for k, v in d.get("errors_per_sentence", {}).items()
            if k.isdigit() and int(k) >= 1 and v}
        """How many errors a sentence with errors holds, by count (none: words drawn
        independently)."""

    def weight(self, word: str, upos: str) -> float:
        """How likely WORD is to carry an error: its own rate where the profile has it (a
        word of a recurring confusion), else its UPOS's, else its length's."""
        own = self.by_word.get(word.lower())
        if own is not None:
            return own
        if self.by_upos and upos != "_":
            return self.by_upos.get(upos, 0.5 / (1 + sum(self.by_upos.values())))
        return self.by_length.get(length_bucket(word), 1e-3) if self.by_length else 1.0

    def _edit(self, w: str, op: str, rng: random.Random) -> tuple[str, str] | None:
        """One edit OP of W drawn from the profile: (operation, new form)."""
        where = _pick(rng, self.where) or "middle"
        n = len(w)
        if op in ("del", "trans") and n < 2:
            return None
        span = n + 1 if op == "ins" else n - 1 if op == "trans" else n
        i = 0 if where == "first" else span - 1 if where == "last" else \
            1 + int(rng.random() * max(span - 2, 1)) if span > 2 else int(rng.random() * span)
        if op == "del":
            return op, w[:i] + w[i + 1:]
        if op == "trans":
            return (op, w[:i] + w[i + 1] + w[i] + w[i + 2:]) if w[i] != w[i + 1] else None
        if op == "sub":
            low = w[i].lower()
            new = _pick(rng, self.subs.get(low, {}))
            if new is None:
                near = self.kb.near[low]
                new = near[int(rng.random() * len(near))] if near else None
            if new is None:
                return None
            new = new.upper() if w[i].isupper() else new
            return op, w[:i] + new + w[i + 1:]
        new = _pick(rng, self.ins)
        if new is None:
            near = self.kb.near[w[min(i, n - 1)].lower()]
            new = near[int(rng.random() * len(near))] if near else None
        if new is None:
            return None
        return op, w[:i] + new + w[i:]

    def _common(self, part: str) -> bool:
        """Whether PART is a common word: of Zipf frequency SPLIT_ZIPF or more in
        wordfreq's list when that is the lexicon ("way"; not "ker", which the large list
        also holds), a word of two letters one more ("in"; not "st", "re"); else a word
        of the lexicon of three letters or more."""
        name = self.lexicon.name
        if name.startswith("wordfreq"):
            from parsebench.noise.lexicon import frequencies

            return frequencies(name.rsplit(":", 1)[1]).zipf(part) >= \
                SPLIT_ZIPF + (len(part) < 3)
        return len(part) >= 3 and self.lexicon.fold(part) in self.lexicon.words

    def split(self, word: str, rng: random.Random) -> str | None:
        """WORD written as two common words of two letters or more ("any way", "in to";
        not "it s"), at a place drawn among those that give two; None where none does."""
        at = [k for k in range(2, len(word) - 1)
              if self._common(word[:k]) and self._common(word[k:])]
        if not at:
            return None
        k = at[int(rng.random() * len(at))]
        return word[:k] + " " + word[k:]

    def error(self, word: str, rng: random.Random, input_words: set[str]
              ) -> tuple[str, str] | None:
        """WORD's error drawn from the profile: (what was done, new form), or None."""
        low = word.lower()
        if low in self.pairs:
            new = _pick(rng, self.pairs[low])
            if new is not None and new != low:
                return "word", new[:1].upper() + new[1:] if word[:1].isupper() else new
        kind = _pick(rng, self.kinds)
        if kind == "case":
            how = _pick(rng, self.case) or "lowered"
            new = (word[:1].lower() if how == "lowered" else word[:1].upper()
                   if how == "raised" else word[:1]) + word[1:]
            if how == "inside" and len(word) > 1:
                i = 1 + int(rng.random() * (len(word) - 1))
                new = word[:i] + word[i].swapcase() + word[i + 1:]
            if new != word:
                return "case", new
        fold, words = self.lexicon.fold, self.lexicon.words
        real = rng.random() < self.real_share
        # the number of edits and their operations are drawn once, so that the mix made
        # is the profile's; where they fall and which letters, again at each attempt
        k = _pick(rng, self.n_edits)
        ops = [_pick(rng, self.ops) or "sub" for _ in range(min(int(k) if k else 1,
                                                                len(word)))]
        most = most_edits(word)
        longer = len(ops) > most and ops[0] == "ins"
        if len(ops) > most and not longer:
            ops = ops[:most]
        for want_real in ((True, False) if real else (False,)):
            for _ in range(ATTEMPTS):
                new = word
                if longer:
                    new = elongated(word, len(ops), rng)
                    if fold(new) in words or new.lower() == low:
                        continue
                    return "+".join(ops), new
                for op in ops:
                    got = self._edit(new, op, rng)
                    if got is None:
                        break
                    new = got[1]
                else:
                    if not new or new.lower() == low:
                        continue
                    f = fold(new)
                    is_real = f in words or (f in input_words and not want_real)
                    if is_real == want_real:
                        return "+".join(ops), new
        return None


def plan(sentences: Sequence[Sequence[str]], upos: Sequence[Sequence[str]] | None,
         rate: float, seed: int, drawer: Drawer, min_length: int,
         blocked: Sequence[set[int]] | None = None, tokenization: bool = False,
         glued: Sequence[set[int]] | None = None) -> Report:
    """Decide every misspelling at RATE (round(RATE x words)) for SEED; with
    TOKENIZATION, splits (op ``split``, NEW two words) and merges (op ``merge``: ORIG the
    word and the next, NEW them joined) too. BLOCKED: each sentence's words noise leaves
    alone (of multiword tokens); GLUED: those written with no space after them (a merge
    of one with the next would change nothing)."""
    flat = [w for s in sentences for w in s]
    starts = list(accumulate((len(s) for s in sentences), initial=0))
    tags = [u for s in upos for u in s] if upos is not None else ["_"] * len(flat)
    eligible = drawer.kb.eligible
    out = {starts[si] + t for si, b in enumerate(blocked or ()) for t in b}
    # a word the profile has a recurring confusion of is eligible whatever its letters
    # (the clitics 's and n't written s and nt are a third of EWT's typos)
    pairs = drawer.pairs
    pool = [i for i, w in enumerate(flat) if i not in out and (
        (eligible(w) and len(w) >= min_length) or w.lower() in pairs)]
    input_words = {drawer.lexicon.fold(w) for w in set(flat)}
    report = Report(words=len(flat), eligible=len(pool))
    target = math.floor(rate * len(flat) + 0.5)
    rng = random.Random(seed)
    keyed = []
    weights: dict[int, float] = {}
    for i in pool:  # Efraimidis-Spirakis: log(u)/w, largest first (u in (0, 1])
        w = weights[i] = drawer.weight(flat[i], tags[i])
        keyed.append((math.log(1.0 - rng.random()) / w if w > 0 else -math.inf, i))
    keyed.sort(key=lambda x: (-x[0], x[1]))
    order = [i for _, i in keyed]
    if drawer.clusters:
        order = _clustered(order, weights, starts, seed, drawer.clusters)
    done = 0
    owed: Counter[str] = Counter()
    """Splits (merges) drawn for words that cannot take them, made on the next words in
    ORDER that can: so that their share is the profile's."""
    taken: set[int] = set()
    """Words changed so far, with the second word of each merge (each decision depends
    on the words before it in ORDER only: a higher rate holds a lower one's errors)."""
    for i in order:
        if done == target:
            break
        if i in taken:
            continue  # joined with the word before it
        si = bisect_right(starts, i) - 1
        t = i - starts[si]
        change = None
        if tokenization:
            change = _retokenized(flat, i, si, t, starts, seed, drawer, min_length,
                                  out | taken, owed, tags[i] == "PROPN",
                                  glued is not None and t in glued[si])
        if change is None:
            got = drawer.error(flat[i], _word_rng(seed, si, t), input_words)
            if got is None:
                report.no_nonword += 1
                continue
            change = Change(si, t, got[0], flat[i], got[1])
        taken.add(i)
        if change.op == "merge":
            taken.add(i + 1)
        report.changes.append(change)
        done += 1
    report.shortfall = target - done
    report.changes.sort(key=lambda c: (c.sentence, c.token))
    return report


def _retokenized(flat: Sequence[str], i: int, si: int, t: int, starts: Sequence[int],
                 seed: int, drawer: Drawer, min_length: int, closed: set[int],
                 owed: Counter[str], name: bool = False, glued: bool = False
                 ) -> Change | None:
    """Word I split, or joined with the next word, as the profile's shares draw it (a
    generator of its own, so a word's other errors are drawn as without), or as OWED
    (drawn earlier for a word that could not take it); None when neither is drawn, or
    the word cannot take the one drawn (which is then OWED). A NAME (PROPN) is not
    split: "Am in" is no typist's "Amin"; a word GLUED to the next (no space after it:
    "can|not") is not joined with it."""
    rng = random.Random(f"{seed}/{si}/{t}/tokenization")
    u = rng.random()
    drawn = "split" if u < drawer.split_share else \
        "merge" if u < drawer.split_share + drawer.merge_share else None
    if drawn is not None:
        owed[drawn] += 1
    for op in ("split", "merge"):
        if not owed[op]:
            continue
        if op == "split":
            new = None if name else drawer.split(flat[i], rng)
            change = None if new is None else Change(si, t, "split", flat[i], new)
        else:
            j = i + 1
            change = Change(si, t, "merge", f"{flat[i]} {flat[j]}", flat[i] + flat[j]) \
                if not glued and j < starts[si + 1] and j not in closed \
                and drawer.kb.eligible(flat[j]) \
                and drawer.kb.eligible(flat[i]) \
                and len(flat[i]) + len(flat[j]) >= min_length else None
        if change is not None:
            owed[op] -= 1
            return change
    return None


def _clustered(order: list[int], weights: Mapping[int, float], starts: list[int],
               seed: int, clusters: Mapping[str, float]) -> list[int]:
    """The words in the order they are misspelled when errors come several to a
    sentence, as the profile counted them (CLUSTERS: sentences by their number of
    errors): sentences in a seeded weighted order (their words' summed WEIGHTS:
    Efraimidis-Spirakis again), each with a number of errors drawn from CLUSTERS, its
    words in ORDER's order; then every word not yet taken, in ORDER, so that the rate is
    met whatever the draws. A higher rate continues the same order, so its errors hold a
    lower rate's."""
    words: dict[int, list[int]] = {}
    for i in order:
        words.setdefault(bisect_right(starts, i) - 1, []).append(i)
    keyed = []
    caps: dict[int, int] = {}
    for si, mine in words.items():
        rng = random.Random(f"{seed}/{si}/sentence")
        w = sum(weights[i] for i in mine)
        keyed.append((math.log(1.0 - rng.random()) / w if w > 0 else -math.inf, si))
        caps[si] = int(_pick(rng, clusters) or 1)
    keyed.sort(key=lambda x: (-x[0], x[1]))
    first = [i for _, si in keyed for i in words[si][:caps[si]]]
    taken = set(first)
    return first + [i for i in order if i not in taken]


def realised(report: Report, lexicon: Lexicon) -> tuple[dict[str, int], dict[str, int], int]:
    """What was made, counted as the profile counts: kinds, edits by operation, real words."""
    kinds: Counter[str] = Counter()
    ops: Counter[str] = Counter()
    real = 0
    for c in report.changes:
        kinds["edit" if c.op not in ("word", "case", *RETOKENIZED) else c.op] += 1
        if c.op not in ("word", "case", *RETOKENIZED):
            ops.update(c.op.split("+"))
        real += lexicon.fold(c.new) in lexicon.words
    return ({k: kinds.get(k, 0) for k in ("edit", "case", "word", *RETOKENIZED)
             if k not in RETOKENIZED or kinds.get(k)},
            {op: ops.get(op, 0) for op in OPERATIONS}, real)


def summary(report: Report, lexicon: Lexicon, profile: Profile) -> str:
    n = len(report.changes)
    kinds, ops, real = realised(report, lexicon)
    total = sum(ops.values())
    want = profile.weights("operations")
    wtotal = sum(want.values())

    def pct(x: int, of: int) -> str:
        return f"{100 * x / of:.1f}%" if of else "n/a"

    lines = [f"{n} words misspelled as profile {profile.name} has it: "
             f"{pct(n, report.words)} of all {report.words} words, "
             f"{pct(n, report.eligible)} of {report.eligible} eligible",
             "kinds: " + ", ".join(f"{k} {v}" for k, v in kinds.items())
             + f"; real words {real} ({pct(real, n)}; "
             f"profile {100 * profile.real_share:.1f}%)",
             "edits by operation: " + ", ".join(f"{op} {ops[op]} ({pct(ops[op], total)})"
                                                for op in OPERATIONS)
             + "; profile " + ", ".join(f"{op} {pct(want.get(op, 0), wtotal)}"
                                        for op in OPERATIONS),
             f"skipped (no error of the kind drawn): {report.no_nonword}"]
    if report.shortfall:
        lines.append(f"could not reach the rate: {report.shortfall} misspellings short")
    return "\n".join(lines)

"""Worst-case misspellings: a black-box search for the K words whose misspelling changes a
parse most (``parsebench attack``).

For each sentence the parser's own parse of the clean text is the reference (no gold is
needed). A variant's *damage* is Bigert et al.'s count of changed rows (head and
relation, ``head+deprel``) among the words that were **not** misspelled: a parse that
only changes at the misspelled word itself has not been hurt beyond it. The search is
greedy: K steps, each trying misspellings of every still untouched eligible word (up to
N non-word edits a word, from the generator and lexicon of ``parsebench noise``, so the
same guarantees hold: one keyboard edit, never a word of the lexicon or the input) on
top of the misspellings already chosen, and keeping the most damaging one (ties: the
first in a seeded order). Each sentence may ask for at most Q parses (its clean parse
included); each step gets an equal share of what is left, so every step can try at
least one variant when Q >= K + 1. All variants of a step, over all sentences, go to
the parser as one batch, and a dict cache keyed by the words makes sure no variant is
parsed twice. Everything that decides the search is seeded and does not depend on the
order in which workers answer, so 1 and 2 workers give the same output.

Random misspellings at the same budget (``noise --per-sentence K`` with the same seed)
are parsed as the baseline: the attack's damage against theirs says how far the
average case is from the worst. Intervals are 95% percentile bootstraps over sentences
(:mod:`parsebench.metrics.core.resample`).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from parsebench.common.errors import InputError
from parsebench.common.record import OMIT, Record
from parsebench.formats.conllu import Sentence
from parsebench.metrics.core.proportions import METHOD as WILSON
from parsebench.metrics.core.proportions import wilson
from parsebench.metrics.core.resample import sentence_interval
from parsebench.noise.keyboard import Keyboard
from parsebench.noise.lexicon import Lexicon
from parsebench.noise.spelling import (
    LAZY_FROM,
    Change,
    Corpus,
    Settings,
    _word_rng,
    edits,
    sampled_edits,
)
from parsebench.noise.spelling_output import apply_to_sentence, unannotated
from parsebench.parsers.cached import CachedParse, CachedParser, changed
from parsebench.present import interval_text


@dataclass(frozen=True)
class AttackSettingsValue(Record):
    """The settings as the results give them."""

    budget: int
    candidates: int
    queries: int
    seed: int
    min_length: int
    projection: str


@dataclass(frozen=True)
class Success(Record):
    """The sentences whose parse of the words not misspelled changed."""

    rate: float | None
    sentences: int
    ci95: list[float] | None
    interval: str
    """How ci95 is made (Wilson's score interval)."""
    attacked: int


@dataclass(frozen=True)
class Damage(Record):
    """The share of the words not misspelled whose head or relation changed."""

    rate: float | None
    changed: int
    untouched: int
    ci95: list[float] | None


@dataclass(frozen=True)
class RandomFigures(Record):
    """The random baseline's success and damage over the sentences it misspelled."""

    sentences: int
    success: Success
    damage: Damage


@dataclass(frozen=True)
class Ratio(Record):
    """Damage under attack over random damage (None: n/a)."""

    value: float | None
    ci95: list[float] | None


@dataclass(frozen=True)
class Picked(Record):
    """What the attack (or the random baseline) misspelled."""

    words: int
    by_upos: dict[str, int]
    by_position: dict[str, int]
    mean_dependents: float | None


@dataclass(frozen=True)
class Misspelling(Record):
    """One misspelled word (TOKEN counted from 1)."""

    token: int
    op: str
    orig: str
    new: str
    upos: str


@dataclass(frozen=True)
class SentenceAttack(Record):
    """One attacked sentence's result."""

    sentence: int
    sent_id: str | None
    damage: int
    untouched: int
    queries: int
    changed_words: list[int]
    misspelled: list[Misspelling]
    random_damage: int | None


@dataclass(frozen=True)
class Calls(Record):
    """The parser's calls: the attack's, the baseline's, the cache's."""

    attack: int
    random: int
    cache_hits: int
    per_sentence_mean: float | None
    per_sentence_max: int | None
    cap: int


@dataclass(frozen=True, kw_only=True)
class AttackValue(Record):
    """The attack's results: ``parsebench attack --json`` (before the command's own
    keys) and a run's ``attack`` result. RANDOM and RATIO only with the baseline."""

    settings: AttackSettingsValue
    success: Success
    damage: Damage
    random: RandomFigures | None = field(default=None, metadata=OMIT)
    ratio: Ratio | None = field(default=None, metadata=OMIT)
    picked: dict[str, Picked]
    """``attack``, and ``random`` with the baseline."""
    per_sentence: list[SentenceAttack]
    sentences: int
    attacked: int
    short: int
    """Sentences with fewer eligible words than the budget, left as they are."""
    clean_failed: int
    calls: Calls


@dataclass
class AttackSettings:
    budget: int = 1
    candidates: int = 5
    """Non-word edits tried a word (a seeded sample of all of them)."""
    queries: int = 50
    """Parses a sentence may ask for, its clean parse included."""
    seed: int = 1
    min_length: int = 2

    def check(self) -> None:
        from parsebench.common.limits import check

        for name in ("budget", "candidates", "queries", "seed"):
            check(name, getattr(self, name))
        if self.queries < self.budget + 1:
            raise InputError(f"--queries {self.queries}: must be at least --budget + 1 "
                             f"({self.budget + 1}): the clean parse and one try a word")
        if self.min_length < 1:
            raise InputError(f"--min-length {self.min_length}: must be 1 or more")


@dataclass
class Target:
    """One sentence under attack."""

    index: int
    forms: tuple[str, ...]
    edits: dict[int, list[tuple[str, str]]]
    """Eligible word -> its candidate non-word edits (op, new form), seeded order."""
    order: list[int]
    """The eligible words in a seeded order (ties go to the earlier)."""
    clean: CachedParse | None = None
    chosen: list[Change] = field(default_factory=list)
    damage: int = 0
    changed: list[int] = field(default_factory=list)
    queries: int = 0
    tried: int = 0

    def variant(self, extra: Change | None = None) -> tuple[str, ...]:
        words = list(self.forms)
        for c in [*self.chosen, *([extra] if extra else [])]:
            words[c.token] = c.new
        return tuple(words)


def candidate_edits(word: str, si: int, ti: int, kb: Keyboard, lexicon: Lexicon,
                    input_words: set[str], n: int, seed: int) -> list[tuple[str, str]]:
    """Up to N distinct non-word edits of WORD (as ``noise`` makes them), a seeded sample.
    A long word's are drawn one at a time (:func:`sampled_edits`), at most
    :data:`DRAWS_A_CANDIDATE` draws a candidate: work linear in the word's length."""
    if len(word) >= LAZY_FROM:
        return _drawn_edits(word, si, ti, kb, lexicon, input_words, n, seed)
    seen: set[str] = set()
    all_edits = []
    for op, new in edits(word, kb):
        low = new.lower()
        if new in seen or low in lexicon.words or low in input_words:
            continue
        seen.add(new)
        all_edits.append((op, new))
    rng = _word_rng(seed, si, ti)
    rng.shuffle(all_edits)
    return all_edits[:n]


DRAWS_A_CANDIDATE = 20
"""Draws a long word's candidate may take (an edit that is a word, or one already drawn,
is drawn again): a word of one letter repeated, whose deletions are all one string,
stops there, where it drew every edit."""


def _drawn_edits(word: str, si: int, ti: int, kb: Keyboard, lexicon: Lexicon,
                 input_words: set[str], n: int, seed: int) -> list[tuple[str, str]]:
    seen: set[str] = set()
    out: list[tuple[str, str]] = []
    draws = sampled_edits(word, kb, _word_rng(seed, si, ti))
    for op, new in itertools.islice(draws, DRAWS_A_CANDIDATE * n):
        low = new.lower()
        if new in seen or low in lexicon.words or low in input_words:
            continue
        seen.add(new)
        out.append((op, new))
        if len(out) == n:
            break
    return out


def eligible_words(s: Sentence, min_length: int) -> list[int]:
    """Words ``noise`` may misspell: alphabetic, MIN_LENGTH letters or more, outside
    multiword tokens."""
    blocked = {i for a, b, _ in s.multiword for i in range(a, b + 1)}
    return [i for i, w in enumerate(s.forms)
            if w.isalpha() and len(w) >= min_length and i not in blocked]


def _step(targets: list[Target], step: int, opts: AttackSettings, parser: CachedParser) -> None:
    """One greedy step over every sentence at once: one batch of variants."""
    plans: list[tuple[Target, list[Change]]] = []
    for t in targets:
        taken = {c.token for c in t.chosen}
        allowance = (opts.queries - t.queries) // (opts.budget - step)
        cands: list[Change] = []
        rank = 0
        deepest = max(len(e) for e in t.edits.values())
        while len(cands) < allowance and rank < deepest:
            for pos in t.order:
                if pos in taken or rank >= len(t.edits[pos]):
                    continue
                op, new = t.edits[pos][rank]
                cands.append(Change(t.index, pos, op, t.forms[pos], new))
                if len(cands) == allowance:
                    break
            rank += 1
        plans.append((t, cands))
    variants = [t.variant(c) for t, cands in plans for c in cands]
    answers = iter(parser.many(variants, f"attack: misspelling {step + 1} of {opts.budget}"))
    for t, cands in plans:
        assert t.clean is not None
        best: tuple[int, Change, list[int]] | None = None
        for c in cands:
            got = next(answers)
            touched = {x.token for x in t.chosen} | {c.token}
            diff = changed(t.clean, got, touched)
            if best is None or len(diff) > best[0]:
                best = (len(diff), c, diff)
        t.queries += len(cands)
        t.tried += len(cands)
        assert best is not None
        t.chosen.append(best[1])
        t.damage, t.changed = best[0], best[2]


def _position(i: int, n: int) -> str:
    if i == 0:
        return "first"
    if i == n - 1:
        return "last"
    third = (i / (n - 1)) * 3
    return "early" if third < 1 else "middle" if third < 2 else "late"


POSITIONS = ("first", "early", "middle", "late", "last")


@dataclass
class AttackOutcome:
    """One sentence's result: the attack's and the random baseline's misspellings."""

    index: int
    attack: list[Change]
    damage: int
    untouched: int
    changed: list[int]
    queries: int
    random: list[Change]
    random_damage: int
    random_untouched: int


def attack(sentences: Sequence[Sentence], parser: CachedParser, opts: AttackSettings, kb: Keyboard,
           lexicon: Lexicon, baseline: bool = True) -> tuple[list[Sentence], AttackValue]:
    """The attacked corpus (every sentence, misspelled or not, in order) and the results."""
    opts.check()
    input_words = {w.lower() for s in sentences for w in s.forms}
    targets: list[Target] = []
    short: list[int] = []
    for si, s in enumerate(sentences):
        cands = {}
        for ti in eligible_words(s, opts.min_length):
            got = candidate_edits(s.forms[ti], si, ti, kb, lexicon, input_words,
                                  opts.candidates, opts.seed)
            if got:
                cands[ti] = got
        if len(cands) < opts.budget:
            short.append(si)
            continue
        order = sorted(cands)
        random.Random(opts.seed * 1_000_003 + si).shuffle(order)
        targets.append(Target(si, tuple(s.forms), cands, order))
    calls0 = parser.calls
    cleans = parser.many([t.forms for t in targets], "attack: clean parses")
    failed: list[int] = []
    live = []
    for t, c in zip(targets, cleans, strict=True):
        t.clean = c
        t.queries = 1
        if c.failed:
            failed.append(t.index)
        else:
            live.append(t)
    for step in range(opts.budget):
        _step(live, step, opts, parser)
    attack_calls = parser.calls - calls0

    # the random baseline: noise --per-sentence K with the same seed, same eligibility
    rand: dict[int, list[Change]] = {}
    rand_parse: dict[int, CachedParse] = {}
    random_calls = 0
    if baseline and live:
        blocked = [{i for a, b, _ in s.multiword for i in range(a, b + 1)} for s in sentences]
        report = Corpus([s.forms for s in sentences], blocked).plan(
            Settings(per_sentence=opts.budget, seed=opts.seed, min_length=opts.min_length),
            kb, lexicon)
        for ch in report.changes:
            rand.setdefault(ch.sentence, []).append(ch)
        calls1 = parser.calls
        ok = [t for t in live if t.index in rand]
        answers = parser.many([_apply_words(t.forms, rand[t.index]) for t in ok],
                              "attack: random baseline")
        random_calls = parser.calls - calls1
        rand_parse = {t.index: a for t, a in zip(ok, answers, strict=True)}

    outcomes = []
    for t in live:
        assert t.clean is not None
        n = len(t.forms)
        r = rand.get(t.index, [])
        rd = None
        if t.index in rand:
            rd = len(changed(t.clean, rand_parse[t.index], {c.token for c in r}))
        outcomes.append(AttackOutcome(t.index, t.chosen, t.damage, n - len(t.chosen), t.changed,
                                      t.queries, r, -1 if rd is None else rd, n - len(r)))
    # written as `noise` writes its output: the words and their records, no annotation
    out = [unannotated(s) for s in sentences]
    for o in outcomes:
        out[o.index] = unannotated(apply_to_sentence(sentences[o.index], o.attack))
    calls = Calls(attack_calls, random_calls, parser.hits,
                  sum(t.queries for t in live) / len(live) if live else None,
                  max((t.queries for t in live), default=None), opts.queries)
    results = summarize(sentences, outcomes, {t.index: t for t in live}, opts,
                        baseline=baseline, short=len(short), clean_failed=len(failed),
                        calls=calls)
    return out, results


def _apply_words(forms: tuple[str, ...], changes: Sequence[Change]) -> tuple[str, ...]:
    words = list(forms)
    for c in changes:
        words[c.token] = c.new
    return tuple(words)


def _ratio(num: int, den: int) -> float | None:
    return num / den if den else None


def _scores(cols: tuple[int, int], ratio_of: tuple[int, int, int, int] | None = None
            ) -> Callable[[npt.NDArray[np.float64]], npt.NDArray[np.float64]]:
    def score(sums: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        with np.errstate(divide="ignore", invalid="ignore"):
            a = sums[:, cols[1]] / sums[:, cols[0]]
            if ratio_of is None:
                return np.where(sums[:, cols[0]] > 0, a, np.nan)
            b = sums[:, ratio_of[1]] / sums[:, ratio_of[0]]
            return np.where((sums[:, cols[0]] > 0) & (b > 0), a / b, np.nan)
    return score


def summarize(sentences: Sequence[Sentence], outcomes: Sequence[AttackOutcome],
              targets: dict[int, Target], opts: AttackSettings, baseline: bool, *,
              short: int, clean_failed: int, calls: Calls) -> AttackValue:
    """Success rate, damage against the random baseline, what the attack picks; SHORT
    sentences were left as they are, CLEAN_FAILED had no clean parse."""
    # per sentence: untouched, changed, success (attack); the same for random; 1
    stats = [[o.untouched, o.damage, int(o.damage > 0),
              o.random_untouched, max(o.random_damage, 0), int(o.random_damage > 0), 1]
             for o in outcomes]
    paired = [row for row, o in zip(stats, outcomes, strict=True) if o.random_damage >= 0]
    tot = [sum(col) for col in zip(*stats, strict=True)] if stats else [0] * 7
    ptot = [sum(col) for col in zip(*paired, strict=True)] if paired else [0] * 7
    random, ratio = None, None
    picked = {"attack": _picked(sentences, targets, [o.attack for o in outcomes])}
    if baseline:
        random = RandomFigures(
            len(paired),
            Success(_ratio(ptot[5], ptot[6]), ptot[5], wilson(ptot[5], ptot[6]), WILSON,
                    ptot[6]),
            Damage(_ratio(ptot[4], ptot[3]), ptot[4], ptot[3],
                   sentence_interval(paired, _scores((3, 4)))))
        a, r = _ratio(ptot[1], ptot[0]), _ratio(ptot[4], ptot[3])
        ratio = Ratio(a / r if a is not None and r else None,
                      sentence_interval(paired, _scores((0, 1), (3, 4, 0, 0))))
        picked["random"] = _picked(sentences, targets,
                                   [o.random for o in outcomes if o.random_damage >= 0])
    per_sentence = [
        SentenceAttack(o.index + 1, sentences[o.index].comment_value("sent_id"), o.damage,
                       o.untouched, o.queries, [i + 1 for i in o.changed],
                       [Misspelling(c.token + 1, c.op, c.orig, c.new,
                                    _upos(sentences[o.index], targets[o.index], c.token))
                        for c in o.attack],
                       None if o.random_damage < 0 else o.random_damage)
        for o in outcomes]
    return AttackValue(
        settings=AttackSettingsValue(opts.budget, opts.candidates, opts.queries, opts.seed,
                                     opts.min_length, "head+deprel"),
        success=Success(_ratio(tot[2], tot[6]), tot[2], wilson(tot[2], tot[6]), WILSON,
                        tot[6]),
        damage=Damage(_ratio(tot[1], tot[0]), tot[1], tot[0],
                      sentence_interval(stats, _scores((0, 1)))),
        random=random, ratio=ratio, picked=picked, per_sentence=per_sentence,
        sentences=len(sentences), attacked=len(outcomes), short=short,
        clean_failed=clean_failed, calls=calls)


def _upos(s: Sentence, t: Target, i: int) -> str:
    """The word's UPOS from the input (gold) where it has one, else the clean parse's."""
    if s.upos and s.upos[i] != "_":
        return s.upos[i]
    return t.clean.upos[i] if t.clean is not None else "_"


def _picked(sentences: Sequence[Sentence], targets: dict[int, Target],
            groups: Sequence[Sequence[Change]]) -> Picked:
    upos: Counter[str] = Counter()
    pos: Counter[str] = Counter()
    deps = 0
    words = 0
    for changes in groups:
        for c in changes:
            s, t = sentences[c.sentence], targets[c.sentence]
            upos[_upos(s, t, c.token)] += 1
            pos[_position(c.token, len(s.forms))] += 1
            assert t.clean is not None
            deps += sum(r.split(":", 1)[0] == str(c.token + 1) for r in t.clean.rows)
            words += 1
    return Picked(words, dict(upos.most_common()), {p: pos.get(p, 0) for p in POSITIONS},
                  deps / words if words else None)


def summary_table(r: AttackValue, parser: str) -> str:
    """The results as text."""

    def pct(x: float | None) -> str:
        return "n/a" if x is None else f"{100 * x:.1f}"

    def ci(x: list[float] | None) -> str:
        return interval_text(x, 1)

    st = r.settings
    lines = [f"attack on {parser}: budget {st.budget}, {st.candidates} edits a word, "
             f"at most {st.queries} parses a sentence, seed {st.seed}",
             f"sentences {r.sentences}: attacked {r.attacked}, too few eligible words "
             f"{r.short}, clean parse failed {r.clean_failed}",
             "",
             "                      value %   95% interval (success: Wilson score; "
             "damage: percentile bootstrap over sentences)",
             f"success rate          {pct(r.success.rate):>7}   {ci(r.success.ci95)}",
             f"damage (attack)       {pct(r.damage.rate):>7}   {ci(r.damage.ci95)}"]
    if r.random is not None and r.ratio is not None:
        rr, ratio = r.random, r.ratio
        rv = "n/a" if ratio.value is None else f"{ratio.value:.2f}"
        rc = "n/a" if ratio.ci95 is None else f"[{ratio.ci95[0]:.2f}, {ratio.ci95[1]:.2f}]"
        lines += [f"success rate (random) {pct(rr.success.rate):>7}   {ci(rr.success.ci95)}",
                  f"damage (random)       {pct(rr.damage.rate):>7}   {ci(rr.damage.ci95)}",
                  f"damage ratio          {rv:>7}   {rc}"]
    lines.append("(damage: changed heads and relations of the words not misspelled, against "
                 "the parser's clean parse)")
    for who, p in r.picked.items():
        lines.append(f"{who} picks {p.words} words: " + ", ".join(
            f"{k} {v}" for k, v in p.by_upos.items()))
        lines.append("  positions: " + ", ".join(f"{k} {v}" for k, v in p.by_position.items())
                     + "; mean dependents in the clean parse "
                     + ("n/a" if p.mean_dependents is None else f"{p.mean_dependents:.2f}"))
    c = r.calls
    mean = "n/a" if c.per_sentence_mean is None else f"{c.per_sentence_mean:.1f}"
    most = "n/a" if c.per_sentence_max is None else c.per_sentence_max
    lines.append(f"parser calls: attack {c.attack} ({mean} a sentence, at most "
                 f"{most} of the cap {c.cap}), random {c.random}, "
                 f"cache hits {c.cache_hits}")
    return "\n".join(lines) + "\n"

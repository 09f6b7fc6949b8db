"""The kind ``spelling``: Bigert et al.'s misspellings (:mod:`.spelling`) for a run's
versions and for the noise command's files."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from parsebench.common.errors import InputError, atomic_output
from parsebench.common.limits import check
from parsebench.common.progress import Progress
from parsebench.common.signature import signature
from parsebench.formats.conllu import Sentence
from parsebench.noise.keyboard import Keyboard
from parsebench.noise.kind import (
    Key,
    Level,
    NoisyCorpus,
    Options,
    Plan,
    Rebuilt,
    RunCorpus,
    RunSettings,
    Shared,
    unknown,
)
from parsebench.noise.languages import LANGUAGES, folding, keyboard_for, lexicon_for
from parsebench.noise.lexicon import Lexicon
from parsebench.noise.source import CorpusLike, Source, words_only, write_sentence
from parsebench.noise.spelling import (
    OPERATIONS,
    Change,
    Corpus,
    Report,
    Settings,
    StreamedCorpus,
    parse_weights,
)
from parsebench.noise.spelling_output import (
    apply_to_conllu,
    apply_to_sentence,
    retokenized,
    unannotated,
)

MEASURED = {"en": ("on the English EWT dev and test sentences with natural typos (347 "
                   "typos, 6.97% of their words) it overstated their harm about 2.3x for "
                   "UDPipe (head+deprel degradation 7.00% under it at that rate against "
                   "3.07% under the typos as written) and about 1.6x for spacy-ud and a "
                   "biaffine parser (docs/noise-validity.md)")}
"""What the validity test measured of the keyboard model, by language: a report of keyboard
noise says it once beside its headline. A language not here has no measurement yet."""


@dataclass(frozen=True)
class SpellingSettings:
    """The kind's own settings in a run."""

    weights: dict[str, float] = field(default_factory=lambda: dict.fromkeys(OPERATIONS, 1.0))
    """Each operation's weight (sub, ins, del, trans)."""
    keep_mix: bool = False
    """Keep the asked-for operation mix (:class:`.spelling.Settings`)."""
    profile: str | None = None
    """A learnt noise profile's file (:mod:`.profile`), whose errors are drawn instead of
    the keyboard model's."""
    tokenization: bool = False
    """With a profile: split and join words too, at its shares (the words then change)."""


OPTIONS = {"weights": "operation weights, e.g. sub=2,ins=1,del=1,trans=1",
           "keep_mix": "keep the asked-for operation mix",
           "profile": "a noise profile (noise-profile learn) to draw misspellings from",
           "tokenization": "with a profile: split and join words too, at its shares (the "
                           "words change: an alignment is kept, as for grammar noise)"}


def profile_mix(realised: Mapping[str, int]) -> str:
    """A profile's errors at a level by kind, each a share of them all (they add up to
    100%): one edit by its operation, several edits a word, a word confused for another,
    case, split and joined words."""
    kinds: dict[str, int] = {}
    for op, n in realised.items():
        kind = "several edits" if "+" in op else "word confusion" if op == "word" else op
        kinds[kind] = kinds.get(kind, 0) + n
    total = sum(kinds.values())
    order = [*OPERATIONS, "several edits", "word confusion"]
    names = sorted(kinds, key=lambda k: (order.index(k) if k in order else len(order), k))
    return ", ".join(f"{k} {kinds[k]} ({100 * kinds[k] / total:.1f}%)" for k in names)


class Spelling:
    """Bigert et al.'s misspellings: one keyboard edit a word, non-words only."""

    name, title, moves_words = "spelling", "misspellings (one keyboard edit a word)", False
    options = OPTIONS

    def moves(self, settings: SpellingSettings) -> bool:
        """Whether these settings add, drop or move words: only with tokenization."""
        return settings.tokenization

    def settings(self, at: Callable[[str], Key], shared: Shared) -> SpellingSettings:
        if shared.levels or shared.natural:
            try:
                keyboard_for(shared.lang)
            except InputError as exc:
                raise at("lang").fail(exc.message.replace("--lang", "lang =")) from None
        weights = at("weights").get(dict)
        if weights is not None:
            if set(weights) - set(OPERATIONS) or not all(
                    isinstance(w, (int, float)) and w >= 0 for w in weights.values()):
                raise at("weights").fail("weights: give {sub = W, ins = W, del = W, "
                                         "trans = W}, W >= 0")
            weights = {op: float(weights.get(op, 0.0)) for op in OPERATIONS}
        keep_mix = bool(at("keep_mix").get(bool))
        found = at("profile").paths(False, many=False)
        profile = None
        if found:
            if keep_mix or any(lv.per_sentence is not None for lv in shared.levels):
                raise at("profile").fail("profile: for kind = \"spelling\" at rates (it "
                                         "decides the errors: no keep_mix or per_sentence)")
            from parsebench.noise.profile import load

            try:  # a fault in it: the experiment's line, then the profile's own
                load(found[0]).check_language(shared.lang)
            except InputError as e:
                raise at("profile").fail(f"profile: {e}") from None
            profile = str(found[0])
        tokenization = bool(at("tokenization").get(bool))
        if tokenization and profile is None:
            raise at("tokenization").fail("tokenization: the profile's splits and merges; "
                                          "give profile = \"...\" too")
        return SpellingSettings(weights or dict.fromkeys(OPERATIONS, 1.0), keep_mix, profile,
                                tokenization)

    def record(self, settings: SpellingSettings) -> dict[str, Any]:
        return {"weights": settings.weights,
                **({"keep_mix": True} if settings.keep_mix else {}),
                **({"profile": settings.profile} if settings.profile else {}),
                **({"tokenization": True} if settings.tokenization else {})}

    def restore(self, config: Mapping[str, Any]) -> SpellingSettings:
        # the record's keys are sorted; the noise (and its key in the store) follows the
        # operations' own order
        w = config.get("weights") or dict.fromkeys(OPERATIONS, 1.0)
        return SpellingSettings({k: float(w.get(k, 0.0)) for k in OPERATIONS},
                                bool(config.get("keep_mix", False)), config.get("profile"),
                                bool(config.get("tokenization", False)))

    def describe(self, settings: SpellingSettings) -> str:
        """What the Run table calls this noise: the keyboard model, or the learnt
        profile it was drawn from (whose errors are not one keyboard edit a word)."""
        if settings.profile:
            return (f"misspellings drawn from the learnt noise profile "
                    f"{Path(str(settings.profile)).name} (people's own errors at its shares: "
                    "keyboard-like edits, several edits a word, word confusions, case"
                    + (", split and joined words" if settings.tokenization else "") + ")")
        return self.title

    def caveat(self, settings: SpellingSettings, lang: str, natural: bool) -> str | None:
        """The line a report says of this noise beside its headline: a learnt profile is
        named; the keyboard model gets the validity test's measurement where one exists
        for LANG (not beside a run's natural typos)."""
        if settings.profile:
            return (f"Noise drawn from the learnt profile {Path(str(settings.profile)).name} "
                    "(people's own misspellings; docs/noise-profile.md).")
        measured = MEASURED.get(lang)
        if measured is None or natural:
            return None
        return ("Noise: the keyboard model (one keyboard slip a word, non-words only); "
                + measured + ".")

    def rows(self, settings: SpellingSettings, changes: Mapping[str, Sequence[Sequence[Any]]]
             ) -> list[list[str]]:
        """How an operation without a non-word edit of a word is handled, and the
        realised mix of operations at each level against the asked-for weights."""
        from parsebench.noise.spelling import operation_mix

        mix: dict[str, dict[str, int]] = {}
        for level, made in changes.items():
            got = mix.setdefault(level, {})
            for c in made:
                if isinstance(c, list) and len(c) == 5:
                    got[str(c[2])] = got.get(str(c[2]), 0) + 1
        mix = {k: v for k, v in mix.items() if v}
        if not mix:
            return []
        if settings.profile:  # its own kinds of error, each a share of all it made
            return [[f"errors at {level} (realised)", profile_mix(got)]
                    for level, got in mix.items()]
        rows = [["misspelling operations", "kept as drawn (keep_mix): a word without a "
                 "non-word edit of its operation is passed over" if settings.keep_mix else
                 "drawn by weight; one without a non-word edit of the word gives way to "
                 "another of its operations (insertions rarely make words, so they are "
                 "realised more often than asked; keep_mix keeps the asked-for mix)"]]
        for level, got in mix.items():
            rows.append([f"operations at {level} (realised; asked)",
                         operation_mix(got, settings.weights)])
        return rows

    def key(self, exp: RunSettings, kb: Keyboard) -> str:
        own: SpellingSettings = exp.noise
        return signature(lexicon=exp.lexicon or lexicon_for(exp.lang), keyboard=kb.name,
                         weights=[f"{k}={v:g}" for k, v in own.weights.items()],
                         min_length=exp.min_length,
                         # only when on: the versions stored before it keep their key
                         **({"keep_mix": True} if own.keep_mix else {}),
                         # errors drawn a sentence at a time (profile_noise._clustered)
                         # since versions stored before were drawn a word at a time
                         **({"profile": _digest(own.profile), "drawn": "by sentence"}
                            if own.profile else {}),
                         **({"tokenization": True} if own.tokenization else {}))

    def planner(self, exp: RunSettings, corpus: RunCorpus, kb: Keyboard) -> Plan:
        own: SpellingSettings = exp.noise
        lexicon = Lexicon.load(exp.lexicon, exp.lang)
        plan = Corpus([s.forms for s in corpus.sentences],
                      [{i for a, b, _ in s.multiword for i in range(a, b + 1)}
                       for s in corpus.sentences], kb.eligible, lexicon.fold)
        weights = dict(own.weights)
        if own.profile:
            from parsebench.noise.profile import load
            from parsebench.noise.profile_noise import Drawer, realised
            from parsebench.noise.profile_noise import plan as plan_profiled

            profile = load(own.profile)
            drawer = Drawer(profile, kb, lexicon)
            forms = [s.forms for s in corpus.sentences]
            upos = [s.upos if len(s.upos) == len(s.forms) else ["_"] * len(s.forms)
                    for s in corpus.sentences]
            blocked = [{i for a, b, _ in s.multiword for i in range(a, b + 1)}
                       for s in corpus.sentences]
            glued = [_glued(s) for s in corpus.sentences]

            def drawn(level: Level, seed: int) -> tuple[list[list[Any]], dict[str, Any]]:
                if level.rate is None:
                    raise InputError("a noise profile goes with rates, not per_sentence")
                rep = plan_profiled(forms, upos, level.rate, seed, drawer, exp.min_length,
                                    blocked, own.tokenization, glued)
                kinds, ops, real = realised(rep, lexicon)
                return ([[c.sentence, c.token, c.op, c.orig, c.new] for c in rep.changes],
                        {"words": rep.words, "eligible": rep.eligible,
                         "misspelled": len(rep.changes), "profile": profile.name,
                         "by_kind": kinds, "by_operation": ops, "real_words": real,
                         "skipped": rep.no_nonword, "shortfall": rep.shortfall})
            return drawn

        def one(level: Level, seed: int) -> tuple[list[list[Any]], dict[str, Any]]:
            rep = plan.plan(Settings(level.rate, level.per_sentence, seed, weights,
                                     exp.min_length, own.keep_mix), kb, lexicon)
            return ([[c.sentence, c.token, c.op, c.orig, c.new] for c in rep.changes],
                    {"words": rep.words, "eligible": rep.eligible,
                     "misspelled": len(rep.changes), "no_nonword": rep.no_nonword,
                     "by_operation": rep.operations(), "passed_over": rep.passed_over,
                     "short_sentences": len(rep.short_sentences),
                     "shortfall": rep.shortfall})
        return one

    def rebuild(self, sentences: Sequence[Sentence], level: Level, seed: int,
                changes: Sequence[Sequence[Any]]) -> Rebuilt:
        """The noisy version of SENTENCES; where the changes split or join words, with
        every sentence's alignment to the clean words and M2 edits."""
        from parsebench.noise.profile_noise import RETOKENIZED

        report = Report(changes=[Change(*c) for c in changes])
        by: dict[int, list[Change]] = {}
        touched: set[tuple[int, int]] = set()
        for c in report.changes:
            words = sentences[c.sentence].forms if c.sentence < len(sentences) else []
            span = [(c.sentence, c.token + k) for k in range(1 + (c.op == "merge"))]
            one_space = c.new.count(" ") == 1 and all(c.new.split(" "))
            if span[-1][1] >= len(words) or touched & set(span) or one_space != (
                    c.op == "split") or c.orig != " ".join(words[t] for _, t in span):
                raise InputError(f"a stored noisy version ({level.label}, seed {seed}) does "
                                 "not fit the corpus: the store is damaged")
            touched.update(span)
            by.setdefault(c.sentence, []).append(c)
        if not any(c.op in RETOKENIZED for c in report.changes):
            return Rebuilt(apply_to_conllu(sentences, report))
        from parsebench.metrics.core.word_alignment import Alignment

        out, aligns = [], []
        m2: list[list[tuple[int, int, str, str]]] = []
        for si, x in enumerate(sentences):
            if si not in by:
                out.append(x)
                aligns.append(Alignment([(k, k) for k in range(len(x.forms))], 0))
                m2.append([])
                continue
            noisy, pairs, edits = retokenized(x, by[si])
            out.append(noisy)
            aligns.append(Alignment(pairs, len(edits), [e[2] for e in edits]))
            m2.append(edits)
        return Rebuilt(out, aligns, m2)

    def valid_change(self, change: Any) -> bool:
        """[sentence, word, op, old, new]: two indices (>= 0) and three strings."""
        return isinstance(change, list) and len(change) == 5 and all(
            type(x) is int and x >= 0 for x in change[:2]) and all(
            isinstance(x, str) for x in change[2:])

    def make(self, corpus: CorpusLike, options: Options, progress: Progress) -> Misspelled:
        return Misspelled(corpus, options, progress)


def _digest(path: str) -> str:
    """A profile's name and content (its SHA-256, first 12 digits): a changed profile
    makes new versions."""
    from parsebench.noise.profile import load

    p = load(path)
    return f"{p.name}#{p.digest}"


def _glued(s: Sentence) -> set[int]:
    """The words of S written with no space after them (``SpaceAfter=No``)."""
    return {i for i, m in enumerate(s.misc) if "SpaceAfter=No" in m.split("|")}


def corpus_only(lang: str) -> str:
    """The warning of a language wordfreq lacks, given no lexicon."""
    name = LANGUAGES[lang].name if lang in LANGUAGES else lang
    return (f"wordfreq has no {name} word list: misspellings are kept off the corpus's own "
            "words only; --lexicon TRAIN.conllu (the treebank's train split), a word list "
            "or a hunspell .dic adds a lexicon")


class Misspelled:
    """The noise command's misspellings of one corpus: every replicate planned from
    passes over it (:class:`.spelling.StreamedCorpus`), written a sentence at a time."""

    def __init__(self, corpus: CorpusLike, o: Options, progress: Progress) -> None:
        if "types" in o.own or "tagger" in o.own:
            raise InputError("--types and --tagger go with --kind grammar")
        unknown(o.own, OPTIONS, "spelling")
        check("replicates", o.replicates)
        check("seed", o.seed)
        given_weights = o.own.get("weights")
        w = parse_weights(given_weights)
        keep_mix = bool(o.own.get("keep_mix", False))
        self.tokenization = bool(o.own.get("tokenization", False))
        profile = None
        if self.tokenization and o.own.get("profile") is None:
            raise InputError("--tokenization makes a profile's splits and merges: give "
                             "--profile too")
        if o.own.get("profile") is not None:
            from parsebench.noise.profile import load

            if o.per_sentence is not None or given_weights is not None or keep_mix:
                raise InputError("--profile decides the errors: it goes with --rate (or "
                                 "the profile's own rate), not --per-sentence, --weights "
                                 "or --keep-mix")
            profile = load(o.own["profile"])
            profile.check_language(o.lang)
            o = replace(o, rate=o.rate if o.rate is not None else profile.rate)
        Settings(o.rate, o.per_sentence, o.seed, w, o.min_length, keep_mix).check()
        default = keyboard_for(o.lang)  # refuses a language typed through an input method
        kb = Keyboard.load(o.keyboard or default)
        self.options, self.weights, self.keep_mix, self.progress = o, w, keep_mix, progress
        self.profile = profile
        self.source = source = Source(corpus)
        self.conllu = source.conllu
        self.corpus = StreamedCorpus(source.words, o.min_length, kb.eligible,
                                     folding(o.lang))
        t0 = time.perf_counter()
        self.lexicon = lex = Lexicon.load(o.lexicon, o.lang)
        t_lex = time.perf_counter() - t0
        self.reports: dict[int, Report] = {}
        self.replicates: list[NoisyCorpus] = []
        if profile is not None:
            from parsebench.noise.profile_noise import Drawer, realised, summary
            from parsebench.noise.profile_noise import plan as plan_profiled

            drawer = Drawer(profile, kb, lex)
            held = list(source.sentences()) if self.conllu else \
                [Sentence(forms=x) for x in source.lines()]
            forms = [x.forms for x in held]
            upos = [x.upos if len(x.upos) == len(x.forms) else ["_"] * len(x.forms)
                    for x in held]
            blocked = [{i for a, b, _ in x.multiword for i in range(a, b + 1)} for x in held]
            glued = [_glued(x) for x in held]
            del held
        for s in range(o.seed, o.seed + o.replicates):
            t1 = time.perf_counter()
            if profile is not None:
                assert o.rate is not None
                report = plan_profiled(forms, upos, o.rate, s, drawer, o.min_length, blocked,
                                       self.tokenization, glued)
                kinds, ops, real = realised(report, lex)
                figures = {"words": report.words, "eligible": report.eligible,
                           "misspelled": len(report.changes), "rate": o.rate,
                           "profile": profile.name, "by_kind": kinds, "by_operation": ops,
                           "real_words": real, "skipped": report.no_nonword,
                           "shortfall": report.shortfall}
                text = summary(report, lex, profile)
            else:
                report = self.corpus.plan(Settings(o.rate, o.per_sentence, s, w, o.min_length,
                                                   keep_mix), kb, lex)
                figures = {"words": report.words, "eligible": report.eligible,
                           "misspelled": len(report.changes),
                           "skipped_no_nonword": report.no_nonword,
                           "by_operation": report.operations(), "weights": dict(w),
                           "keep_mix": keep_mix, "passed_over": report.passed_over,
                           "short_sentences": len(report.short_sentences),
                           "shortfall": report.shortfall}
                text = report.summary()
            dt = time.perf_counter() - t1
            self.reports[s] = report
            self.replicates.append(NoisyCorpus(
                s, figures, text,
                f"  generation {dt:.3f} s ({report.words / dt:,.0f} words/s); lexicon "
                f"{lex.name} loaded once in {t_lex:.3f} s"))
        self.keyboard = kb.name
        self.signature = signature(
            method="noise", rate=o.rate, per_sentence=o.per_sentence, seed=o.seed,
            replicates=o.replicates, lexicon=lex.name, keyboard=kb.name,
            **({"profile": f"{profile.name}#{profile.digest}"} if profile else
               {"weights": ",".join(f"{k}={v:g}" for k, v in w.items())}),
            **({"tokenization": True} if self.tokenization else {}),
            min_length=o.min_length, drop_short=o.drop_short,
            **({"keep_mix": True} if keep_mix else {}))
        self.timing = ""
        self.warnings: list[str] = [corpus_only(o.lang)] if lex.corpus_only else []

    def settle(self, replicate: NoisyCorpus) -> None:
        pass  # a plan's report is final

    def sentences(self, replicate: NoisyCorpus) -> Iterator[Sentence]:
        """The noisy sentences: CoNLL-U keeps its words and comments, with the noise in
        MISC and ``# text`` and no annotation (:func:`.spelling_output.unannotated`)."""
        if self.tokenization:
            yield from (x for x, _, _ in self._retokenized(replicate))
            return
        report = self.reports[replicate.seed]
        short = set(report.short_sentences) if self.options.drop_short else set()
        by_sentence: dict[int, list[Change]] = {}
        for c in report.changes:
            by_sentence.setdefault(c.sentence, []).append(c)
        if self.conllu:
            for k, x in enumerate(self.source.sentences()):
                self.progress.advance()
                if k not in short:
                    yield unannotated(apply_to_sentence(x, by_sentence.get(k, ())))
            return
        for k, words in enumerate(self.source.lines()):
            self.progress.advance()
            if k not in short:
                for c in by_sentence.get(k, ()):
                    words[c.token] = c.new
                yield Sentence(forms=words)

    def _retokenized(self, replicate: NoisyCorpus) -> Iterator[
            tuple[Sentence, list[tuple[int, int]], list[tuple[int, int, str, str]]]]:
        """Each noisy sentence of a replicate whose errors may split or join words, with
        its alignment to the clean words and its M2 edits."""
        by: dict[int, list[Change]] = {}
        for c in self.reports[replicate.seed].changes:
            by.setdefault(c.sentence, []).append(c)
        clean = self.source.sentences() if self.conllu else \
            (words_only(x) for x in self.source.lines())
        for k, x in enumerate(clean):
            self.progress.advance()
            noisy, pairs, m2 = retokenized(x, by.get(k, []))
            yield (noisy if self.conllu else Sentence(forms=noisy.forms)), pairs, m2

    def write(self, replicate: NoisyCorpus, target: Path) -> list[Path]:
        """TARGET, and for text TARGET.noise.json: the settings and every change, which
        text has no column for; with tokenization changes, TARGET.m2 and TARGET.align
        (as learner-like errors have them) instead of the JSON."""
        s, o = replicate.seed, self.options
        self.progress.stage(f"writing seed {s}", len(self.corpus.starts) - 1)
        if self.tokenization:
            from parsebench.noise.grammar_output import write_aligned

            replicate.files = write_aligned(target, self._retokenized(replicate),
                                            self.conllu)
            return [Path(p) for p in replicate.files.values()]
        with atomic_output(target) as fh:
            for x in self.sentences(replicate):
                write_sentence(fh, x, self.conllu)
        replicate.files = {"file": str(target)}
        if self.conllu:
            return [target]
        side = {"settings": {"rate": o.rate, "per_sentence": o.per_sentence, "seed": s,
                             "lexicon": self.lexicon.name, "keyboard": self.keyboard,
                             **({"profile": self.profile.name} if self.profile else
                                {"weights": self.weights}),
                             **({"keep_mix": True} if self.keep_mix else {}),
                             "min_length": o.min_length,
                             "dropped_short": o.drop_short},
                "changes": [{"line": c.sentence + 1, "token": c.token + 1, "op": c.op,
                             "orig": c.orig, "new": c.new} for c in self.reports[s].changes]}
        path = target.with_name(target.name + ".noise.json")
        with atomic_output(path) as fh:
            fh.write(json.dumps(side, ensure_ascii=False, indent=1) + "\n")
        return [target, path]

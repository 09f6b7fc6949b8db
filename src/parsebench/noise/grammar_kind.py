"""The kind ``grammar``: learner-like errors of ERRANT's types (:mod:`.grammar`) for a
run's versions and for the noise command's files, with their M2 edits and alignment.

The generator's modules are imported when they are used: every run and noise command
lists the kinds, and most make misspellings.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from parsebench.common.errors import InputError
from parsebench.common.limits import check
from parsebench.common.progress import Progress
from parsebench.common.signature import signature
from parsebench.formats.conllu import Sentence
from parsebench.noise.grammar_types import (
    DEFAULT_WEIGHTS,
    TYPES,
    GrammarReport,
    GrammarSettings,
    parse_type_weights,
    parse_types,
)
from parsebench.noise.keyboard import KEYBOARDS, Keyboard
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
from parsebench.noise.source import CorpusLike, Source

if TYPE_CHECKING:
    from parsebench.noise.grammar import Chosen
    from parsebench.noise.grammar_output import Written



@dataclass(frozen=True)
class GrammarOptions:
    """The kind's own settings in a run."""

    types: tuple[str, ...] = TYPES
    """The error types it makes, in :data:`.grammar_types.TYPES`' order."""
    weights: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_WEIGHTS))
    """Each type's weight."""


OPTIONS = {"types": "the error types to make, e.g. M:DET,R:WO (default: all)",
           "weights": "type weights over the defaults, e.g. R:WO=2,M:DET=1",
           "tagger": "for a text input (noise command): the parser whose UPOS, features "
                     "and heads say where errors can go"}


class Grammar:
    """Learner-like errors of ERRANT's types, with their alignment and M2 edits."""

    name, title, moves_words = "grammar", "learner-like errors (ERRANT's types)", True
    options = OPTIONS

    def settings(self, at: Callable[[str], Key], shared: Shared) -> GrammarOptions:
        if shared.natural or shared.lang != "en":
            raise at("kind").fail("kind = \"grammar\" makes English errors, without "
                                  "natural typos")
        if at("tagger").get(object) is not None:
            raise at("tagger").fail("tagger: for the noise command's text input; a run's "
                                    "corpus is CoNLL-U")
        types: tuple[str, ...] = TYPES
        weights = dict(DEFAULT_WEIGHTS)
        given = at("types").get(list)
        if given is not None:
            bad = [t for t in given if t not in TYPES]
            if bad or not given:
                raise at("types").fail("types: for kind = \"grammar\", a list of "
                                       + ", ".join(TYPES) + (f" (not {bad[0]!r})" if bad
                                                             else ""))
            types = tuple(t for t in TYPES if t in given)
        w = at("weights").get(dict)
        if w is not None:
            if set(w) - set(TYPES) or not all(
                    isinstance(x, (int, float)) and x >= 0 for x in w.values()) or \
                    not any(w.get(t, DEFAULT_WEIGHTS[t]) for t in types):
                raise at("weights").fail("weights: give {\"M:DET\" = W, ...} with the "
                                         "types' names, W >= 0")
            weights = {**DEFAULT_WEIGHTS, **{k: float(x) for k, x in w.items()}}
        return GrammarOptions(types, weights)

    def record(self, settings: GrammarOptions) -> dict[str, Any]:
        return {"types": list(settings.types), "weights": settings.weights}

    def restore(self, config: Mapping[str, Any]) -> GrammarOptions:
        w = config.get("weights") or DEFAULT_WEIGHTS
        return GrammarOptions(tuple(t for t in TYPES if t in config.get("types", ())),
                              {k: float(w.get(k, 0.0)) for k in DEFAULT_WEIGHTS})

    def describe(self, settings: GrammarOptions) -> str:
        """The title and the error types made (the report's Run table)."""
        return self.title + (": " + ", ".join(settings.types) if settings.types else "")

    def rows(self, settings: GrammarOptions, changes: Mapping[str, Sequence[Sequence[Any]]]
             ) -> list[list[str]]:
        return []

    def key(self, exp: RunSettings, kb: Keyboard) -> str:
        own: GrammarOptions = exp.noise
        return signature(kind="grammar", types=list(own.types),
                         weights=[f"{k}={v:g}" for k, v in own.weights.items()
                                  if k in own.types],
                         lexicon=exp.lexicon or f"wordfreq:{exp.lang}", keyboard=kb.name)

    def planner(self, exp: RunSettings, corpus: RunCorpus, kb: Keyboard) -> Plan:
        from parsebench.noise.grammar import Planner, annotated, speller, zipf

        if not any(map(annotated, corpus.sentences)):
            raise InputError("[noise] kind = \"grammar\" places errors by the corpus's UPOS, "
                             "features and heads: give CoNLL-U with them (parsebench parse "
                             "can tag a text)", corpus.paths[0])
        own: GrammarOptions = exp.noise
        spell = speller(exp.keyboard or "us-qwerty", exp.lexicon, exp.lang,
                        {w.lower() for s in corpus.sentences for w in s.forms}
                        ) if "R:SPELL" in own.types else None
        planner = Planner(lambda: iter(corpus.sentences), own.types, spell, zipf(exp.lang))
        types, weights = tuple(own.types), dict(own.weights)

        def one(level: Level, seed: int) -> tuple[list[list[Any]], dict[str, Any]]:
            rep, chosen = planner.plan(GrammarSettings(level.rate, level.per_sentence, seed, types,
                                                       weights))
            edits = [[si, e.start, e.end, e.noisy, e.type, e.links]
                     for si, s in enumerate(corpus.sentences)
                     for e in planner.realise(s, si, chosen.get(si, ()), seed)]
            return edits, {"words": rep.words, "errors": rep.made,
                           "short_sentences": len(rep.short_sentences),
                           "shortfall": rep.shortfall}
        return one

    def rebuild(self, sentences: Sequence[Sentence], level: Level, seed: int,
                changes: Sequence[Sequence[Any]]) -> Rebuilt:
        """The noisy version that stored edits ([sentence, start, end, noisy words, type,
        links]) make of SENTENCES; a sentence without an error is the clean one itself."""
        from parsebench.noise.grammar_output import noisy_sentence, rebuild_from_edits

        return rebuild_from_edits(sentences, changes, f"{level.label}, seed {seed}", False,
                                  noisy_sentence)

    def valid_change(self, c: Any) -> bool:
        """[sentence, start, end, noisy words, type, [[noisy, clean], ...]]."""
        return isinstance(c, list) and len(c) == 6 \
            and all(type(x) is int and x >= 0 for x in c[:3]) and c[1] <= c[2] \
            and isinstance(c[3], list) and all(isinstance(w, str) for w in c[3]) \
            and isinstance(c[4], str) and isinstance(c[5], list) and all(
                isinstance(p, list) and len(p) == 2 and all(type(x) is int for x in p)
                for p in c[5])

    def make(self, corpus: CorpusLike, options: Options, progress: Progress) -> Erred:
        return Erred(corpus, options, progress)


class Erred:
    """The noise command's learner-like errors of one corpus: the sites listed in one
    pass, every replicate planned from them, and each written a sentence at a time with
    OUT.m2 and OUT.align. What a replicate made is known once its errors are written
    out (an error that a listed site does not give is counted short), so a report is
    final after the replicate's first pass (:meth:`settle`)."""

    def __init__(self, corpus: CorpusLike, o: Options, progress: Progress) -> None:
        from parsebench.noise.grammar import Planner, speller, zipf

        check("replicates", o.replicates)
        check("seed", o.seed)
        if o.lang != "en":
            raise InputError(f"--kind grammar makes English errors only, not --lang {o.lang}")
        if o.own.get("keep_mix") or "profile" in o.own:
            raise InputError("--keep-mix goes with --kind spelling (its operations)"
                             if o.own.get("keep_mix") else "--profile goes with --kind "
                             "spelling (misspellings)")
        unknown({k: v for k, v in o.own.items() if k != "keep_mix"}, OPTIONS, "grammar")
        tagger: str | None = o.own.get("tagger")
        settings = GrammarSettings(o.rate, o.per_sentence, o.seed,
                                   parse_types(o.own.get("types")),
                                   parse_type_weights(o.own.get("weights")))
        settings.check()
        self.options, self.progress, self.drop_short = o, progress, o.drop_short
        source = Source(corpus)
        self.conllu = source.conllu
        if not source.conllu:
            if tagger is None:
                raise InputError("a text input needs --tagger (a parser giving UPOS, features "
                                 "and heads), or give CoNLL-U", source.path)
            assert source.path is not None
            where: Path | None = source.path
            source = Source(_tagged(source.path, tagger, progress))
        elif tagger is not None:
            raise InputError("--tagger is for text input; a CoNLL-U input's own annotation is "
                             "used")
        else:
            where = source.path
        self.source = source
        spell = None
        if "R:SPELL" in settings.types:
            spell = speller(o.keyboard or KEYBOARDS.get(o.lang, "us-qwerty"), o.lexicon, o.lang,
                            {w.lower() for s in source.sentences() for w in s.forms})

        def listed() -> Iterator[Sentence]:
            for x in source.sentences():
                progress.advance()
                yield x

        t0 = time.perf_counter()
        progress.stage("listing error sites", None)
        self.planner = planner = Planner(listed, settings.types, spell, zipf(o.lang))
        t_sites = time.perf_counter() - t0
        if not planner.annotated:
            raise InputError("no word has a UPOS: --kind grammar places errors by the "
                             "annotation (give --tagger with the words as text)", where)
        self.plans: dict[int, tuple[GrammarReport, Chosen]] = {}
        self.replicates: list[NoisyCorpus] = []
        last = o.seed + o.replicates - 1
        for s in range(o.seed, last + 1):
            self.plans[s] = planner.plan(GrammarSettings(o.rate, o.per_sentence, s, settings.types,
                                                         settings.weights), last=s == last)
            self.replicates.append(NoisyCorpus(s))
        self.settled: set[int] = set()
        self.timing = (f"  sites listed in {t_sites:.2f} s ({planner.words / t_sites:,.0f} "
                       "words/s)")
        self.signature = signature(
            method="noise-grammar", rate=o.rate, per_sentence=o.per_sentence, seed=o.seed,
            replicates=o.replicates, types=",".join(settings.types),
            weights=",".join(f"{k}={v:g}" for k, v in settings.weights.items()
                             if k in settings.types), drop_short=o.drop_short)
        self.warnings: list[str] = []

    def _pass(self, replicate: NoisyCorpus) -> Iterator[Written]:
        """Each noisy sentence with its alignment and M2 edits; at the end, the report."""
        from parsebench.noise.grammar_output import noisy_sentence

        s = replicate.seed
        report, chosen = self.plans[s]
        short = set(report.short_sentences) if self.drop_short else set()
        recorded: Counter[str] = Counter()
        unrealised = self.planner.unrealised
        for k, x in enumerate(self.source.sentences()):
            self.progress.advance()
            if k in short:
                continue
            edits = self.planner.realise(x, k, chosen.get(k, ()), s)
            recorded.update(e.type for e in edits)
            yield noisy_sentence(x, edits)
        if s in self.settled:
            return
        if self.planner.unrealised > unrealised:  # reported as short, never a crash
            report.shortfall += self.planner.unrealised - unrealised
            report.errors = recorded
        replicate.report = {"words": report.words, "errors": report.made,
                            "by_type": dict(sorted(recorded.items())),
                            "sites": dict(report.sites),
                            "short_sentences": len(report.short_sentences),
                            "shortfall": report.shortfall}
        replicate.summary = report.summary()
        self.settled.add(s)

    def settle(self, replicate: NoisyCorpus) -> None:
        if replicate.seed not in self.settled:
            self.progress.stage(f"making seed {replicate.seed}", len(self.planner.starts) - 1)
            for _ in self._pass(replicate):
                pass

    def sentences(self, replicate: NoisyCorpus) -> Iterator[Sentence]:
        """The noisy sentences: their words, comments and multiword tokens, the errors'
        types in MISC, no annotation (:func:`.grammar_output.noisy_sentence`)."""
        for noisy, _, _ in self._pass(replicate):
            yield noisy

    def write(self, replicate: NoisyCorpus, target: Path) -> list[Path]:
        from parsebench.noise.grammar_output import write_aligned

        self.progress.stage(f"writing seed {replicate.seed}", len(self.planner.starts) - 1)
        replicate.files = write_aligned(target, self._pass(replicate), self.conllu)
        return [Path(p) for p in replicate.files.values()]


def _tagged(path: Path, tagger: str, progress: Progress) -> list[Sentence]:
    """The text at PATH with the UPOS, features and heads of TAGGER (a parser spec)."""
    from parsebench.model.parses import read_input, to_conllu
    from parsebench.parsers.run import parse_sentences

    plain = read_input(path)
    progress.stage("tagging", len(plain))
    run = parse_sentences(plain, tagger, progress=lambda _t: progress.advance())
    return [to_conllu(s, t.outcome) for s, t in zip(plain, run.timed, strict=True)]

"""``parsebench run``: noise, parse, score and store one experiment.

The stages, each resumable: (1) the corpus and its noisy versions (every
level and replicate, planned once and stored as change lists); (2) parsing,
per parser, of every distinct sentence not yet in the store's cache, each
result committed as soon as it is done; (3) scoring from the cached
parses; (4) the results, written in one transaction. A killed run started
again redoes only what it had not committed: noise is read back, cached
parses are reused, and the scores are recomputed from them.
"""

from __future__ import annotations

import contextlib
import gc
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from parsebench.common.errors import InputError
from parsebench.common.progress import Progress, Quiet
from parsebench.common.signature import signature
from parsebench.common.threads import cores, started
from parsebench.model.level import Level
from parsebench.model.parses import from_sentence
from parsebench.model.scored import Scored
from parsebench.noise.keyboard import Keyboard
from parsebench.parsers.base import Item, Timed, spec_identity
from parsebench.parsers.executor import Executor, Session
from parsebench.run.corpus import (
    CorpusData,
    Given,
    Input,
    Parsed,
    levels_of,
    load_corpus,
    versions_by_level,
)
from parsebench.run.examples import example, pages
from parsebench.run.experiment import Experiment, ParserConf
from parsebench.run.run_stats import ParserStats, RunStats
from parsebench.run.score import Context, score
from parsebench.run.training_specs import check_before_work, trained_conf
from parsebench.run.versions import noise_versions
from parsebench.store import ParseCache, Store, parser_key, sentence_key


class _LazySession:
    """The parser's session, opened (its workers started, its model loaded) only when
    there is something to parse. The identity comes from the spec when the adapter can
    tell it so and the store knows the parser; otherwise a session is opened to ask."""

    def __init__(self, conf: ParserConf, executor: Executor, store: Store,
                 stack: contextlib.ExitStack, tokenize: bool = False) -> None:
        self.conf, self.executor, self.stack = conf, executor, stack
        self.tokenize = tokenize
        self.session: Session | None = None
        self.identity = spec_identity(conf.spec)
        kind = None if self.identity is None else \
            store.parser_kind(parser_key(self.identity, tokenize))
        if self.identity is None or kind is None:
            self.identity, kind = self.get().identity, self.get().kind
        self.kind: str = kind

    def get(self) -> Session:
        if self.session is None:
            c = self.conf
            self.session = self.stack.enter_context(
                self.executor.session(c.spec, c.timeout, c.batch_size, self.tokenize))
            if self.identity is not None and self.session.identity != self.identity:
                raise InputError(f"parser {c.spec!r}: its identity once loaded "
                                 f"({self.session.identity}) is not the one its spec gives "
                                 f"({self.identity})")
        return self.session


class Stages:
    """The run's stages, each both a progress stage and a line of the final summary's
    times (``[name, seconds, remark]``), on one clock: a stage ends when the next begins,
    as the progress lines time it, so that a log and the summary give a stage the same
    count and the same time, and the lines add up to the run."""

    def __init__(self, progress: Progress) -> None:
        self.progress = progress
        self.lines: list[list[Any]] = []
        self.since: float | None = None

    def begin(self, name: str, total: int | None, remark: str = "") -> None:
        now = time.perf_counter()
        self._end(now)
        self.progress.stage(name, total)
        self.lines.append([name, 0.0, remark])
        self.since = now

    def _end(self, now: float) -> None:
        if self.since is not None:
            self.lines[-1][1] = now - self.since

    def end(self) -> None:
        """The last stage's time so far (again at the end: the next stage is not the
        run's)."""
        self._end(time.perf_counter())


def _missing(needed: dict[str, Input], cache: ParseCache) -> list[tuple[str, Input]]:
    """What of NEEDED the store's CACHE (read now, for these keys only) lacks."""
    cache.load(needed)
    return [(k, w) for k, w in needed.items() if k not in cache]


def _parse_missing(session: _LazySession, key: str, todo: list[tuple[str, Input]],
                   store: Store, cache: ParseCache, progress: Progress) -> None:
    """Parse TODO (sentences the CACHE, the parser's in the store, does not have), adding
    each to both; each parse advances the current stage of PROGRESS."""
    items = [Item(i, words, text) for i, (_, (words, text)) in enumerate(todo)]

    def on_result(t: Timed) -> None:
        # committed at once: a kill loses no finished parse (about 50 us a commit)
        k, (words, _) = todo[t.index]
        store.add_parses(key, [(k, t.outcome, t.seconds, len(words))])
        cache.add(k, t.outcome, t.seconds)
        progress.advance()

    if items:
        session.get().parse(items, on_result)


def parse_all(conf: ParserConf, corpora: Sequence[CorpusData], store: Store,
              executor: Executor, run_id: int, stages: Stages,
              meanwhile: Callable[[], None] | None = None, raw: bool = False
              ) -> tuple[Parsed, str, ParserStats]:
    """Parse every distinct sentence of CORPORA not yet cached; return all outcomes.

    The stages: "load NAME" (the parser's identity and cache, which sentences it
    lacks), then "parse NAME", whose count is those sentences. With MEANWHILE (which
    waits for the noisy versions being made in the background), the clean texts are
    parsed first ("parse NAME (clean text)"), then MEANWHILE is called, then the noisy
    versions are parsed ("parse NAME (noisy text)"): each stage's count is known when
    it begins. A parser with nothing to parse is not started. With RAW, the parser
    gets each document's text and tokenizes it (its parses are cached apart, by text).
    """
    t0 = time.perf_counter()
    progress = stages.progress
    todo: list[tuple[str, Input]] = []
    stages.begin(f"load {conf.name}", 1)
    with contextlib.ExitStack() as stack:
        session = _LazySession(conf, executor, store, stack, raw)
        identity, kind = session.identity, session.kind
        assert identity is not None
        key = parser_key(identity, raw)
        store.add_parser(key, identity, kind)
        cache = store.parse_cache(key)
        given = Given(raw)
        if meanwhile is not None:
            clean = {}
            for c in corpora:
                for k, unit in given.of(c, c.versions[0]):
                    clean[k] = unit
            part = _missing(clean, cache)
            stages.begin(f"parse {conf.name} (clean text)", len(part),
                         f"{len(part):,} sentences")
            _parse_missing(session, key, part, store, cache, progress)
            todo += part
            meanwhile()
        needed: dict[str, Input] = {}
        naive_words = 0
        for c in corpora:
            for v in c.versions:
                naive_words += sum(len(s.forms) for s in v.sentences)
                for k, unit in given.of(c, v):
                    needed.setdefault(k, unit)
        if given.segmented and kind != "deps":
            raise InputError(f"parser {conf.name!r} gives {kind} analyses; a transcript's "
                             "segments are cut back into its sentences by dependency heads, "
                             "so leave segments out of parts for it")
        part = _missing(needed, cache)
        stages.begin(f"parse {conf.name}" + (" (noisy text)" if meanwhile else ""),
                     len(part), f"{len(part):,} sentences")
        _parse_missing(session, key, part, store, cache, progress)
        todo += part
    store.count_run(run_id, len(todo), len(needed) - len(todo))
    hits = len(needed) - len(todo)
    if hits:
        stages.lines[-1][2] += f", {hits:,} from the cache"
        progress.note(f"{conf.name}: {hits} of {len(needed)} distinct sentences came from "
                      "the cache")
    wall = time.perf_counter() - t0
    stats = ParserStats(key, identity, kind, len(needed), len(todo),
                        sum(len(w) for _, (w, _) in todo), naive_words,
                        sum(cache[k][1] for k, _ in todo), wall)
    return Parsed(kind, cache, given), key, stats


def attack_all(exp: Experiment, conf: ParserConf, corpus: CorpusData, store: Store,
               executor: Executor, key: str, kind: str, stages: Stages
               ) -> list[Scored]:
    """``[attack]``: the worst-case misspellings of each budget K for one parser, as
    ``parsebench attack`` finds them (the same search, seed and results), every parse
    through the store's cache; the sentences the attack hurt most are drawn beside the
    random noise's examples. One stage, "attack NAME", counts the sentences parsed (how
    many it will take is not known before)."""
    if exp.attack is None:
        return []
    progress = stages.progress
    if kind != "deps":
        progress.note(f"{conf.name}: the attack compares heads and relations; a {kind} "
                      "parser is not attacked")
        return []
    if exp.tokens == "raw":
        progress.note(f"{conf.name}: the attack compares the parses of the same words; with "
                      "tokens = \"raw\" the parser's own words differ, so it is not attacked")
        return []
    stages.begin(f"attack {conf.name}", None)
    from parsebench.model.parses import from_outcome
    from parsebench.noise.lexicon import Lexicon
    from parsebench.parsers.cached import CachedParse, CachedParser, parsed_of
    from parsebench.probes.attack import AttackSettings
    from parsebench.probes.attack import attack as search

    budgets, candidates, queries = exp.attack
    kb = Keyboard.load(exp.keyboard or "us-qwerty")
    lexicon = Lexicon.load(exp.lexicon, exp.lang)
    out: list[Scored] = []
    with contextlib.ExitStack() as stack:
        session = _LazySession(conf, executor, store, stack)
        cache = store.parse_cache(key)

        def outcomes(batch: Sequence[Sequence[str]]) -> dict[str, tuple[Any, float]]:
            needed = {sentence_key(list(w)): (list(w), " ".join(w)) for w in batch}
            _parse_missing(session, key, _missing(needed, cache), store, cache, progress)
            return {k: cache[k] for k in needed}

        def parse(batch: Sequence[tuple[str, ...]]) -> list[CachedParse]:
            got = outcomes(batch)
            return [parsed_of(w, got[sentence_key(list(w))][0]) for w in batch]

        for k in budgets:
            opts = AttackSettings(k, candidates, queries, exp.seed, exp.min_length)
            noisy, r = search(corpus.sentences, CachedParser(parse), opts, kb, lexicon)
            sig = signature(method="attack", parser=conf.name, budget=k,
                            candidates=candidates, queries=queries, seed=exp.seed,
                            lexicon=lexicon.name, keyboard=kb.name, min_length=exp.min_length,
                            projection="head+deprel")
            out.append(Scored(conf.name, "attack", "head+deprel", f"K={k}", sig, r))
            worst = sorted((x for x in r.per_sentence if x.misspelled),
                           key=lambda x: (-x.damage, x.sentence))[:exp.changed_most]
            pairs = [(corpus.sentences[x.sentence - 1], noisy[x.sentence - 1])
                     for x in worst]
            got = outcomes([w for c, n in pairs for w in (c.forms, n.forms)])
            level = Level("per_sentence", k)
            examples = [example(from_outcome(c, got[sentence_key(c.forms)][0], "deps"),
                                from_outcome(n, got[sentence_key(n.forms)][0], "deps"),
                                from_sentence(c) if corpus.gold else None,
                                x.sentence, level, exp.seed,
                                f"attack, K={k}: {x.damage} untouched words changed")
                        for (c, n), x in zip(pairs, worst, strict=True)]
            if examples:
                out.append(Scored(conf.name, "examples", kind, f"attack K={k}", "", examples))
    return out


def _base(exp: Experiment, conf: ParserConf, model: str, corpus: CorpusData
          ) -> dict[str, Any]:
    """The settings that every result's signature carries: what was read (the corpus's
    file, a hash of its bytes and the options that cut it, its size), what the parser
    was given (the gold words, or the raw text it tokenized itself), the noise, the
    parser and its model's hash; so two figures made otherwise never read alike."""
    return {"corpus": corpus.name, "corpus_hash": corpus.digest[:12],
            "input": "raw-text" if exp.tokens == "raw" else "gold-words",
            "sentences": len(corpus.sentences),
            "noise": [lv.label for lv in levels_of(exp, corpus)], "replicates": exp.replicates,
            "seed": exp.seed, "lexicon": exp.lexicon or f"wordfreq:{exp.lang}",
            "keyboard": exp.keyboard, "parser": conf.name, "model": model}


class _Noise:
    """The noisy versions, made in a thread with its own store connection while the
    first parser loads its model and parses the clean text; in the foreground when
    the parser workers take every core (the thread would only slow them down)."""

    def __init__(self, exp: Experiment, corpora: list[CorpusData], path: Path,
                 background: bool) -> None:
        self.seconds = 0.0
        self.wait = started(self._make, exp, corpora, path)
        """Returns when the versions are made, or raises the thread's error."""
        if not background:
            self.wait()

    def _make(self, exp: Experiment, corpora: list[CorpusData], path: Path) -> None:
        t0 = time.perf_counter()
        try:
            with Store(path) as own:
                for c in corpora:
                    noise_versions(exp, c, own, Quiet())
        finally:
            self.seconds = time.perf_counter() - t0


@dataclass
class RunOutcome:
    run_id: int
    results: list[Scored]
    stats: RunStats


def scoring_digest() -> str:
    """A digest of parsebench's own code: scores stored by a run of other code are
    computed again, never reused."""
    from parsebench.common.installed import code_digest

    return code_digest()


REUSED = ("speed", "examples", "browser")
"""Besides the methods' scores, what a parser with no new parse gets back from the last
run: its speed, its drawn examples (not the attack's: the attack runs again) and the
browser's data, each a function of the same parses, corpus and settings."""


def _earlier_scores(store: Store, exp: Experiment, digest: str) -> dict[str, list[Scored]]:
    """The stored scores of EXP by parser, when the run that wrote them finished with the
    same settings and the same code: a parser none of whose parses is new this run gets
    them back instead of being scored again (every score comes from its parses, settings
    and code alone), with what :data:`REUSED` names, so that its parses are not even
    read. Anything else (no such run, a damaged record): {}."""
    from parsebench.metrics.registry import METHODS
    from parsebench.run.page_values import typed_result

    last = dict(store.experiments()).get(exp.name)
    if last is None:
        return {}
    try:
        info = store.run_info(last)
        if info["finished"] is None or (info["stats"] or {}).get("scoring") != digest or \
                info["config"] != json.loads(json.dumps(exp.config(), sort_keys=True)):
            return {}
        out: dict[str, list[Scored]] = {}
        for r in store.results(exp.name):
            if r.method in METHODS or (r.method in REUSED and not r.level.startswith("attack")):
                out.setdefault(r.parser, []).append(typed_result(r))  # as a scoring run gives it
        order = {m: k for k, m in enumerate(REUSED, 1)}  # as a scoring run makes them
        return {p: sorted(rs, key=lambda r: order.get(r.method, 0)) for p, rs in out.items()}
    except (InputError, ValueError):
        return {}


def run_experiment(exp: Experiment, store: Store, executor: Executor,
                   progress: Progress | None = None) -> RunOutcome:
    """Run EXP into STORE. The cyclic garbage collector is paused meanwhile: the run
    builds hundreds of thousands of small objects and no cycles, and the collector's
    passes over them took a third of the toolkit's own time. The young generation it
    then holds is collected here, within the last stage (its first allocation would
    otherwise do it in the next stage, outside the run's clock)."""
    enabled = gc.isenabled()
    gc.disable()
    stages = Stages(progress or Quiet())
    try:
        outcome = _run(exp, store, executor, stages)
    finally:
        if enabled:
            gc.enable()
            gc.collect(0)
    stages.end()
    return outcome


def _run(exp: Experiment, store: Store, executor: Executor, stages: Stages) -> RunOutcome:
    progress = stages.progress
    t0 = time.perf_counter()
    stages.begin("load the corpus", 1)  # where the time went, a stage a line
    run_id = store.start_run(exp.name, exp.config())
    corpus = load_corpus(exp.corpus, exp.limit, store, exp.gold, exp.typos_only, exp.natural)
    if corpus.typos_kept:
        store.warnings.append(
            f"{corpus.typos_kept} natural typo(s) left as written and not counted: the "
            "typo splits a word (goeswith) or its correction is several words, which a "
            "word-for-word correction cannot give")
    cal = None
    if exp.calibration is not None:
        cal = load_corpus([exp.calibration], exp.calibration_limit, store)
        if not cal.gold:
            raise InputError("the calibration corpus needs gold heads and relations",
                             exp.calibration)
    corr = None
    if exp.corrected is not None:
        corr = load_corpus(exp.corrected, exp.limit, store)
        if len(corr.sentences) != len(corpus.sentences):
            raise InputError(f"{len(corr.sentences)} sentences, but the corpus "
                             f"{corpus.name} has {len(corpus.sentences)}", exp.corrected[0])
    check_before_work(exp)
    free_core = executor.kind == "local" and executor.workers < cores()
    progress.advance()
    if not free_core:
        stages.begin("noise", 1)
    noise = _Noise(exp, [c for c in (corpus, cal) if c is not None], store.path, free_core)
    results: list[Scored] = []
    parser_stats: dict[str, ParserStats] = {}
    score_seconds = 0.0

    def wait_for_noise() -> None:
        """The time the run waits for the noise made beside the first parser's clean
        text (the noisy versions' keys are then listed within it)."""
        stages.begin("noise", 1, "")
        noise.wait()
        progress.advance()
        stages.lines[-1][2] = (f"{noise.seconds:.1f} s in all, beside the first parser's "
                               "clean text")
    digest = scoring_digest()
    earlier: dict[str, list[Scored]] | None = None  # read once a parser has no new parse
    with executor:
        for k, conf in enumerate(exp.parsers):
            conf, trained = trained_conf(conf, exp, store, stages)
            corpora = [corpus] + [c for c in (cal, corr) if c is not None]
            parsed, key, stats = parse_all(conf, corpora, store, executor, run_id, stages,
                                           wait_for_noise if k == 0 and free_core else None,
                                           exp.tokens == "raw")
            ts = time.perf_counter()
            stages.begin(f"score {conf.name}", 1)
            reused = None
            if stats.parsed_sentences == 0:
                if earlier is None:
                    earlier = _earlier_scores(store, exp, digest)
                reused = earlier.get(conf.name)
            if reused is not None:  # the same parses, settings and code: the same scores
                results += reused
                stages.lines[-1][2] = "scores reused"
            else:
                results += score(Context(
                    exp, conf, parsed, corpus, versions_by_level(corpus),
                    _base(exp, conf, key[:12], corpus), None if cal is None else
                    (cal, parsed), None if corr is None else (corr, parsed)))
                results += pages(exp, conf, parsed, corpus, key, stats)
            progress.advance()
            score_seconds += time.perf_counter() - ts
            if exp.attack is not None:
                results += attack_all(exp, conf, corpus, store, executor, key, parsed.kind,
                                      stages)
            if trained is not None:
                stats = replace(stats, trained=trained)
            parser_stats[conf.name] = stats
    noise.wait()
    stages.begin("store the results", 1)
    store.replace_results(run_id, exp.name, results)
    stages.end()  # (as stored: the record cannot time its own writing)
    totals = RunStats(time.perf_counter() - t0, noise.seconds, score_seconds, parser_stats,
                      executor.workers, executor.kind, digest, corpus.digest,
                      sorted(n for n in parser_stats if n in (earlier or {})
                             and parser_stats[n].parsed_sentences == 0),
                      stages.lines)  # (the list itself: run_experiment ends its last stage)
    store.finish_run(run_id, totals.to_dict())
    progress.advance()
    return RunOutcome(run_id, results, totals)  # (its last stage ended by run_experiment)

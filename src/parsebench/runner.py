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

import gc
import hashlib
import os
import statistics
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol

from parsebench.analysis import (
    Parse,
    from_sentence,
    from_tree,
    misc_value,
    project,
)
from parsebench.draw import arcs_of
from parsebench.errors import InputError
from parsebench.experiment import Experiment, Level, ParserConf
from parsebench.formats.brackets import parse_tree
from parsebench.formats.conllu import NO_HEAD, Sentence
from parsebench.metrics.wordalign import Alignment
from parsebench.noise import Change, Corpus, Keyboard, Lexicon, Report, Settings, apply_to_conllu
from parsebench.parsers.base import Analysis, Item, Timed
from parsebench.parsers.executor import Executor
from parsebench.parsers.run import read_input, to_conllu
from parsebench.scoring import Context, Result, score, versions_by_level
from parsebench.signature import signature
from parsebench.store import Store, parser_key, sentence_key


class Progress(Protocol):
    """What the runner tells its user; the CLI passes one with rich progress bars."""

    def stage(self, name: str, total: int) -> None: ...

    def advance(self, n: int = 1) -> None: ...

    def note(self, text: str) -> None: ...


class Quiet:
    """Progress that shows nothing (the Python API's default)."""

    def stage(self, name: str, total: int) -> None:
        pass

    def advance(self, n: int = 1) -> None:
        pass

    def note(self, text: str) -> None:
        pass


@dataclass
class Version:
    """The corpus at one error level and seed (level None: the clean text)."""

    level: Level | None
    seed: int
    sentences: list[Sentence]
    alignments: list[Alignment] | None = None
    """With noise that adds, drops or moves words (kind grammar): each noisy sentence's
    words aligned to the clean ones, with the ERRANT types of its errors."""
    m2: list[list[tuple[int, int, str, str]]] | None = None
    """And its M2 edits (start, end, type, the clean words), as ``noise`` writes them."""

    @property
    def label(self) -> str:
        return "clean" if self.level is None else f"{self.level.label}/seed={self.seed}"


@dataclass
class CorpusData:
    paths: list[Path]
    digest: str
    sentences: list[Sentence]
    gold: bool
    versions: list[Version]
    natural: list[Change] | None = None
    """With natural typos: the corrections that give back the text as written."""

    @property
    def path(self) -> Path:
        return self.paths[0]

    @property
    def name(self) -> str:
        return " + ".join(p.name for p in self.paths)

    @property
    def words(self) -> int:
        return sum(len(s.forms) for s in self.sentences)


def _digest(paths: Sequence[Path], *options: Any) -> str:
    h = hashlib.sha256()
    for p in paths:
        h.update(p.read_bytes())
    h.update(f"|{options}".encode())
    return h.hexdigest()[:24]


def corrected_typos(sents: Sequence[Sentence]) -> tuple[list[Sentence], list[Change]]:
    """The sentences with every natural typo corrected (``CorrectForm=`` in MISC), and the
    changes that write the typos back in, as a noise report would list them."""
    clean, changes = [], []
    for k, s in enumerate(sents):
        fixes = [(i, c) for i, m in enumerate(s.misc) if "CorrectForm=" in m
                 and (c := misc_value(m, "CorrectForm")) and c != s.forms[i]]
        if not fixes:
            clean.append(s)
            continue
        forms = list(s.forms)
        for i, c in fixes:
            changes.append(Change(k, i, "natural", c, s.forms[i]))
            forms[i] = c
        clean.append(replace(s, forms=forms,
                             comments=[c for c in s.comments if not c.startswith("# text")]))
    return clean, changes


def read_corpus(paths: Sequence[Path], limit: int | None, gold: bool = True,
                typos_only: bool = False, natural: bool = False) -> CorpusData:
    """The corpus files read as one; with TYPOS_ONLY, just the sentences with a natural
    typo; with NATURAL, the clean text is the corrected one. Nothing is stored."""
    sents = [s for p in paths for s in read_input(p)]
    if typos_only:
        sents = [s for s in sents if any("CorrectForm=" in m for m in s.misc)]
    if limit is not None:
        sents = sents[:limit]
    if not sents:
        raise InputError("no sentences" + (" with a CorrectForm= typo" if typos_only else ""),
                         paths[0])
    changes = None
    if natural:
        sents, changes = corrected_typos(sents)
        if not changes:
            raise InputError("natural = true, but no word has a CorrectForm= in MISC",
                             paths[0])
    gold = gold and any(h != NO_HEAD for s in sents for h in s.heads)
    digest = _digest(paths, limit, typos_only, natural)
    return CorpusData(list(paths), digest, sents, gold, [Version(None, 0, sents)], changes)


def load_corpus(paths: Sequence[Path], limit: int | None, store: Store, gold: bool = True,
                typos_only: bool = False, natural: bool = False) -> CorpusData:
    """:func:`read_corpus`, recorded in STORE."""
    c = read_corpus(paths, limit, gold, typos_only, natural)
    store.add_corpus(c.digest, " + ".join(map(str, paths)), len(c.sentences), c.words, c.gold)
    return c


def levels_of(exp: Experiment, corpus: CorpusData) -> list[Level]:
    """The experiment's error levels; with natural typos, the natural level and an
    artificial one at the same rate of misspelled words come first."""
    if corpus.natural is None:
        return list(exp.levels)
    rate = len(corpus.natural) / corpus.words
    extra = [Level("natural", rate), Level("rate", rate)]
    return extra + [lv for lv in exp.levels if lv not in extra]


def noise_key(exp: Experiment, kb: Keyboard) -> str:
    """What the store files a corpus's noisy versions under, besides level and seed."""
    if exp.kind == "grammar":
        return signature(kind="grammar", types=list(exp.types),
                         weights=[f"{k}={v:g}" for k, v in exp.weights.items()
                                  if k in exp.types],
                         lexicon=exp.lexicon or f"wordfreq:{exp.lang}", keyboard=kb.name)
    return signature(lexicon=exp.lexicon or f"wordfreq:{exp.lang}", keyboard=kb.name,
                     weights=[f"{k}={v:g}" for k, v in exp.weights.items()],
                     min_length=exp.min_length)


def noise_versions(exp: Experiment, corpus: CorpusData, store: Store,
                   progress: Progress) -> None:
    """Add every level x replicate of CORPUS, from the store when it has them."""
    kb = Keyboard.load(exp.keyboard or "us-qwerty")
    lexicon: Lexicon | None = None
    plan: Corpus | None = None
    settings_key = noise_key(exp, kb)
    levels = levels_of(exp, corpus)
    progress.stage(f"noise {corpus.name}", len(levels) * exp.replicates)
    if exp.kind == "grammar":
        _grammar_versions(exp, corpus, store, progress, settings_key, levels)
        return
    for level in levels:
        if level.mode == "natural":
            assert corpus.natural is not None
            corpus.versions.append(Version(level, 0, apply_to_conllu(
                corpus.sentences, Report(changes=corpus.natural))))
            progress.advance(exp.replicates)
            continue
        for seed in range(exp.seed, exp.seed + exp.replicates):
            got = store.noisy(corpus.digest, settings_key, level.label, seed)
            changes: list[list[Any]]
            if got is None:
                if lexicon is None:
                    lexicon = Lexicon.load(exp.lexicon, exp.lang)
                    plan = Corpus([s.forms for s in corpus.sentences],
                                  [{i for a, b, _ in s.multiword for i in range(a, b + 1)}
                                   for s in corpus.sentences])
                assert plan is not None
                st = Settings(level.rate, level.per_sentence, seed, exp.weights,
                              exp.min_length)
                rep = plan.plan(st, kb, lexicon)
                changes = [[c.sentence, c.token, c.op, c.orig, c.new] for c in rep.changes]
                summary = {"words": rep.words, "eligible": rep.eligible,
                           "misspelled": len(rep.changes), "no_nonword": rep.no_nonword,
                           "short_sentences": len(rep.short_sentences),
                           "shortfall": rep.shortfall}
                store.add_noisy(corpus.digest, settings_key, level.label, seed, changes,
                                summary)
            else:
                changes = got[0]
            report = Report(changes=[Change(*c) for c in changes])
            corpus.versions.append(Version(level, seed,
                                           apply_to_conllu(corpus.sentences, report)))
            progress.advance()


def _grammar_versions(exp: Experiment, corpus: CorpusData, store: Store, progress: Progress,
                      key: str, levels: Sequence[Level]) -> None:
    """:func:`noise_versions` for learner-like errors: the edits of each level and seed are
    stored, and the noisy sentences and alignments rebuilt from them."""
    from parsebench.noise import grammar as g

    if not any(map(g.annotated, corpus.sentences)):
        raise InputError("[noise] kind = \"grammar\" places errors by the corpus's UPOS, "
                         "features and heads: give CoNLL-U with them (parsebench parse can "
                         "tag a text)", corpus.paths[0])
    planner: g.Planner | None = None
    for level in levels:
        for seed in range(exp.seed, exp.seed + exp.replicates):
            got = store.noisy(corpus.digest, key, level.label, seed)
            edits: list[list[Any]]
            if got is None:
                if planner is None:
                    spell = g.speller(exp.keyboard or "us-qwerty", exp.lexicon, exp.lang,
                                      {w.lower() for s in corpus.sentences for w in s.forms}
                                      ) if "R:SPELL" in exp.types else None
                    planner = g.Planner(lambda: iter(corpus.sentences), exp.types, spell,
                                        g.zipf(exp.lang))
                st = g.Settings(level.rate, level.per_sentence, seed, exp.types,
                                exp.weights)
                rep, chosen = planner.plan(st)
                edits = [[si, e.start, e.end, e.noisy, e.type, e.links]
                         for si, s in enumerate(corpus.sentences)
                         for e in planner.realise(s, si, chosen.get(si, ()), seed)]
                store.add_noisy(corpus.digest, key, level.label, seed, edits,
                                {"words": rep.words, "errors": rep.made,
                                 "short_sentences": len(rep.short_sentences),
                                 "shortfall": rep.shortfall})
            else:
                edits = got[0]
            corpus.versions.append(grammar_version(corpus.sentences, level, seed, edits))
            progress.advance()


def grammar_version(sentences: Sequence[Sentence], level: Level, seed: int,
                    edits: Sequence[Sequence[Any]]) -> Version:
    """The noisy version that stored EDITS ([sentence, start, end, noisy words, type,
    links]) make of SENTENCES; a sentence without an error is the clean one itself."""
    from parsebench.noise.grammar import Edit, noisy_sentence

    by: dict[int, list[Edit]] = {}
    for si, a, b, words, typ, links in edits:
        if si >= len(sentences) or b > len(sentences[si].forms) or any(
                not (0 <= x < len(words) and 0 <= y < b - a) for x, y in links) or any(
                a <= e.end and e.start <= b for e in by.get(si, ())):
            raise InputError(f"a stored noisy version ({level.label}, seed {seed}) does not "
                             "fit the corpus: the store is damaged")
        by.setdefault(si, []).append(Edit(a, b, list(words), typ,
                                          [(int(x), int(y)) for x, y in links]))
    out, aligns = [], []
    m2: list[list[tuple[int, int, str, str]]] = []
    for si, s in enumerate(sentences):
        mine = by.get(si)
        if not mine:
            out.append(s)
            aligns.append(Alignment([(k, k) for k in range(len(s.forms))], 0))
            m2.append([])
            continue
        noisy, pairs, edits_m2 = noisy_sentence(s, mine)
        out.append(noisy)
        aligns.append(Alignment(pairs, len(mine), [e.type for e in mine]))
        m2.append(edits_m2)
    return Version(level, seed, out, aligns, m2)


def parse_from(s: Sentence, outcome: Any) -> Parse:
    """What ``from_sentence(to_conllu(s, outcome))`` gives, without writing CoNLL-U between."""
    n = len(s.forms)
    noise = [m != "_" and ("|Noise=" in m or m.startswith("Noise=")) for m in s.misc]
    if not isinstance(outcome, Analysis):
        return Parse(forms=s.forms, line=s.line, kind="deps",
                     failed=outcome.reason.replace("\n", " ").strip(), heads=[NO_HEAD] * n,
                     deprels=["_"] * n, upos=["_"] * n, xpos=["_"] * n, noise=noise)
    if outcome.forms is not None and outcome.forms != s.forms:
        return from_sentence(to_conllu(s, Timed(0, outcome, 0.0), "deps"))
    links = outcome.links
    return Parse(forms=s.forms, line=s.line, kind="deps" if links is None else "links",
                 heads=list(outcome.heads) if outcome.heads is not None else [NO_HEAD] * n,
                 deprels=list(outcome.deprels) if outcome.deprels is not None else ["_"] * n,
                 upos=list(outcome.upos) if outcome.upos is not None else ["_"] * n,
                 xpos=list(outcome.xpos) if outcome.xpos is not None else ["_"] * n,
                 links=sorted({(min(i, j), max(i, j), lab) for i, j, lab in links})
                 if links is not None else [], noise=noise)


class _Parsed:
    """The outcomes of one parser by sentence key, turned into Parse objects on demand.

    KEYS maps every input Sentence object (by id; they live as long as the run) to
    its cache key, computed once when the work was collected."""

    def __init__(self, kind: str, outcomes: dict[str, tuple[Any, float]],
                 keys: dict[int, str]) -> None:
        self.kind, self.outcomes, self.keys = kind, outcomes, keys
        self._memo: dict[int, Parse] = {}

    def outcome(self, s: Sentence) -> tuple[Any, float]:
        return self.outcomes[self.keys[id(s)]]

    def parse_of(self, s: Sentence) -> Parse:
        got = self._memo.get(id(s))
        if got is not None:
            return got
        outcome = self.outcome(s)[0]
        if self.kind == "tree":
            if isinstance(outcome, Analysis) and outcome.tree is not None:
                p = from_tree(parse_tree(outcome.tree, "<parser output>", s.line), s.line)
            else:
                p = Parse(forms=list(s.forms), line=s.line, kind="tree",
                          failed=getattr(outcome, "reason", "no tree"),
                          noise=[False] * len(s.forms))
        else:
            p = parse_from(s, outcome)
        self._memo[id(s)] = p
        return p

    def sentences_of(self, v: Version) -> list[Sentence]:
        return [to_conllu(s, Timed(0, self.outcome(s)[0], 0.0), self.kind) for s in v.sentences]

    def parses(self, v: Version) -> list[Parse]:
        return [self.parse_of(s) for s in v.sentences]


def _parse_missing(session: Any, key: str, needed: dict[str, list[str]], store: Store,
                   progress: Progress, name: str) -> list[tuple[str, list[str]]]:
    """Parse the sentences of NEEDED that the cache does not have; return them."""
    cached = store.cached_keys(key)
    todo = [(k, w) for k, w in needed.items() if k not in cached]
    progress.stage(f"parse {name}", len(todo))
    items = [Item(i, words, " ".join(words)) for i, (_, words) in enumerate(todo)]

    def on_result(t: Timed) -> None:
        # committed at once: a kill loses no finished parse (about 50 us a commit)
        k, words = todo[t.index]
        store.add_parses(key, [(k, t.outcome, t.seconds, len(words))])
        progress.advance()

    if items:
        session.parse(items, on_result)
    return todo


def parse_all(conf: ParserConf, corpora: Sequence[CorpusData], store: Store,
              executor: Executor, run_id: int, progress: Progress,
              meanwhile: Callable[[], None] | None = None
              ) -> tuple[_Parsed, str, dict[str, Any]]:
    """Parse every distinct sentence of CORPORA not yet cached; return all outcomes.

    With MEANWHILE (which waits for the noisy versions being made in the
    background), the clean texts are parsed first, then MEANWHILE is called,
    then the noisy versions are parsed.
    """
    t0 = time.perf_counter()
    todo: list[tuple[str, list[str]]] = []
    with executor.session(conf.spec, conf.timeout, conf.batch_size) as session:
        key = parser_key(session.identity)
        store.add_parser(key, session.identity, session.kind)
        keys: dict[int, str] = {}
        if meanwhile is not None:
            clean = {keys.setdefault(id(s), sentence_key(s.forms)): s.forms
                     for c in corpora for s in c.sentences}
            todo += _parse_missing(session, key, clean, store, progress, conf.name)
            meanwhile()
        needed: dict[str, list[str]] = {}
        naive_words = 0
        for c in corpora:
            for v in c.versions:
                for s in v.sentences:
                    naive_words += len(s.forms)
                    k = keys.get(id(s))
                    if k is None:
                        k = keys[id(s)] = sentence_key(s.forms)
                    needed.setdefault(k, s.forms)
        todo += _parse_missing(session, key, needed, store, progress, conf.name)
        kind = session.kind
    store.count_run(run_id, len(todo), len(needed) - len(todo))
    if len(todo) < len(needed):
        progress.note(f"{conf.name}: {len(needed) - len(todo)} of {len(needed)} distinct "
                      "sentences came from the cache")
    wall = time.perf_counter() - t0
    outcomes = store.parses(key, needed)
    stats = {"parser_key": key, "identity": session.identity, "kind": kind,
             "distinct_sentences": len(needed), "parsed_sentences": len(todo),
             "parsed_words": sum(len(w) for _, w in todo), "naive_words": naive_words,
             "parse_seconds": sum(outcomes[k][1] for k, _ in todo), "wall_seconds": wall}
    return _Parsed(kind, outcomes, keys), key, stats


def _base(exp: Experiment, conf: ParserConf, model: str, corpus: CorpusData
          ) -> dict[str, Any]:
    """The settings that every result's signature carries."""
    return {"corpus": corpus.name, "sentences": len(corpus.sentences),
            "noise": [lv.label for lv in levels_of(exp, corpus)], "replicates": exp.replicates,
            "seed": exp.seed, "lexicon": exp.lexicon or f"wordfreq:{exp.lang}",
            "keyboard": exp.keyboard, "parser": conf.name, "model": model}


def _speed(parsed: _Parsed, corpus: CorpusData) -> dict[str, Any]:
    """Words per second and seconds against length, over the distinct sentences parsed."""
    seen: dict[str, int] = {}
    for v in corpus.versions:
        for s in v.sentences:
            seen.setdefault(parsed.keys[id(s)], len(s.forms))
    pairs = [(n, parsed.outcomes[k][1]) for k, n in seen.items()]
    words = sum(n for n, _ in pairs)
    secs = sum(t for _, t in pairs)
    failures = sum(1 for k in seen if not isinstance(parsed.outcomes[k][0], Analysis))
    by_len: dict[int, list[float]] = {}
    for n, t in pairs:
        by_len.setdefault(n, []).append(t)
    return {"sentences": len(pairs), "words": words, "parse_seconds": secs,
            "failures": failures, "words_per_second": words / secs if secs else None,
            "seconds_by_length": {str(n): {"sentences": len(v), "mean": statistics.fmean(v),
                                           "max": max(v)} for n, v in sorted(by_len.items())}}


def _arcs(p: Parse) -> list[list[Any]] | None:
    """The parse's arcs as the report draws them: [dependent, head, label] (head 0 the
    root), or [left, right, label] links (word 0 the wall); None for trees and failures."""
    if p.failed or p.kind not in ("deps", "links"):
        return None
    if p.kind == "links":
        return [[i, j, lab] for i, j, lab in p.links]
    return [[a, h, d] for a, h, d in arcs_of(p.heads, p.deprels)]


def _rows_of(p: Parse) -> list[str]:
    """The parse a row a word, as the report's tables show it."""
    if p.failed:
        return ["(failed)"] * len(p.forms)
    return project(p, {"links": "links", "tree": "brackets"}.get(p.kind, "head+deprel"))


def _example(clean: Parse, noisy: Parse, gold: Parse | None, number: int, level: Level,
             seed: int, why: str) -> dict[str, Any]:
    """One sentence's clean and noisy parse side by side, for the report."""
    ca, na = _arcs(clean), _arcs(noisy)
    return {"sentence": number, "level": level.short, "level_label": level.label, "seed": seed,
            "why": why, "kind": clean.kind,
            "clean_words": clean.forms, "noisy_words": noisy.forms,
            "misspelled": [a != b for a, b in zip(clean.forms, noisy.forms, strict=True)],
            "clean": _rows_of(clean), "noisy": _rows_of(noisy), "clean_arcs": ca, "noisy_arcs": na,
            "gold_arcs": _arcs(gold) if gold is not None and gold.kind == clean.kind
            else None,
            "changed_arcs": _changed_arcs(ca, na)}


def _changed_arcs(clean: list[list[Any]] | None, noisy: list[list[Any]] | None
                  ) -> int | None:
    """How many arcs of the noisy parse are not the clean parse's (None for trees and
    failures)."""
    if clean is None or noisy is None:
        return None
    return len({tuple(x) for x in clean} ^ {tuple(x) for x in noisy}) // 2 \
        + abs(len(clean) - len(noisy))


def browser_data(parsed: _Parsed, corpus: CorpusData) -> dict[str, Any]:
    """Every sentence of every version as the report's sentence browser needs it, small:
    the clean words once, a noisy version's misspelled words only, the clean parse's arcs
    [dependent, head, label number], a noisy parse only where it differs from the clean
    one (0: the same parse, "F": failed, {"d": arcs}: the arcs of the words whose head or
    label moved), and the gold's arcs if any. On the Bigert protocol on EWT test (51
    versions, UDPipe) the noisy parses take 1.6 MB so, 5.1 MB as full arc lists."""
    labels: dict[str, int] = {}

    def arcs(p: Parse) -> list[list[int]] | str:
        if p.failed:
            return "F"
        got = _arcs(p)
        if got is None:
            return []
        return [[a, b, labels.setdefault(str(lab), len(labels))] for a, b, lab in got]

    clean_v = corpus.versions[0]
    clean = [arcs(parsed.parse_of(s)) for s in clean_v.sentences]
    versions, noise, noisy = [], [], []
    for v in corpus.versions[1:]:
        assert v.level is not None
        versions.append({"level": v.level.short, "seed": v.seed})
        noise.append([[[i, w] for i, (w, c) in enumerate(zip(s.forms, cs.forms, strict=False))
                       if w != c] for s, cs in zip(v.sentences, clean_v.sentences,
                                                   strict=True)])
        row: list[Any] = []
        for k, s in enumerate(v.sentences):
            a = arcs(parsed.parse_of(s))
            c = clean[k]
            if a == c:
                row.append(0)
            elif parsed.kind == "deps" and isinstance(a, list) and isinstance(c, list) \
                    and [x[0] for x in a] == [x[0] for x in c]:
                # the same words: only the arcs of the words whose head or label moved
                row.append({"d": [x for x, y in zip(a, c, strict=True) if x != y]})
            else:
                row.append(a)
        noisy.append(row)
    # the gold's labels as text: each parser numbers its own labels
    gold = [_arcs(from_sentence(s)) for s in corpus.sentences] if corpus.gold else None
    return {"kind": parsed.kind, "versions": versions, "labels": list(labels),
            "words": [s.forms for s in clean_v.sentences], "noise": noise, "clean": clean,
            "noisy": noisy, "gold": gold}


def _examples(parsed: _Parsed, corpus: CorpusData, exp: Experiment) -> list[dict[str, Any]]:
    """The sentences the report draws: each one named in ``[report] examples`` at the
    lowest level and replicate where it is misspelled, then the ``changed_most`` whose
    parse changed most at the example level and replicate."""
    levels = versions_by_level(corpus)
    if not levels:
        return []
    order = sorted(levels, key=lambda lv: (lv.mode != "natural", lv.value))

    def gold(n: int) -> Parse | None:
        return from_sentence(corpus.sentences[n - 1]) if corpus.gold else None

    def pair(n: int, v: Version) -> tuple[Parse, Parse] | None:
        c = parsed.parse_of(corpus.sentences[n - 1])
        x = parsed.parse_of(v.sentences[n - 1])
        return (c, x) if len(c.forms) == len(x.forms) else None

    out = []
    for n in exp.examples:
        if n > len(corpus.sentences):
            continue
        found = next(((lv, v) for lv in order for v in levels[lv]
                      if v.sentences[n - 1].forms != corpus.sentences[n - 1].forms), None)
        if found is None:  # never misspelled: shown at the lowest level, and said so
            found = (order[0], levels[order[0]][0])
        lv, v = found
        got = pair(n, v)
        if got is not None:
            misspelled = v.sentences[n - 1].forms != corpus.sentences[n - 1].forms
            out.append(_example(*got, gold(n), n, lv, v.seed,
                                "asked for" if misspelled else
                                "asked for; misspelled at no level"))
    if exp.changed_most:
        lv = next((x for x in order if x.label == exp.example_level), order[0])
        reps = levels[lv]
        v = reps[min(exp.example_replicate, len(reps)) - 1]
        ranked = []
        for n in range(1, len(corpus.sentences) + 1):
            if n in exp.examples or v.sentences[n - 1].forms == corpus.sentences[n - 1].forms:
                continue
            got = pair(n, v)
            if got is None:
                continue
            changed = _changed_arcs(_arcs(got[0]), _arcs(got[1]))
            if changed is None:  # trees, failures: the rows that differ
                changed = sum(a != b for a, b in zip(_rows_of(got[0]), _rows_of(got[1]),
                                                     strict=True))
            if changed:
                ranked.append((-changed, n, got))
        out += [_example(*got, gold(n), n, lv, v.seed, "changed most")
                for _, n, got in sorted(ranked, key=lambda t: t[:2])[:exp.changed_most]]
    return out


class _Noise:
    """The noisy versions, made in a thread with its own store connection while the
    first parser loads its model and parses the clean text; in the foreground when
    the parser workers take every core (the thread would only slow them down)."""

    def __init__(self, exp: Experiment, corpora: list[CorpusData], path: Path,
                 background: bool) -> None:
        self.error: BaseException | None = None
        self.seconds = 0.0
        self.thread = threading.Thread(target=self._make, args=(exp, corpora, path),
                                       daemon=True)
        self.thread.start()
        if not background:
            self.wait()

    def _make(self, exp: Experiment, corpora: list[CorpusData], path: Path) -> None:
        t0 = time.perf_counter()
        try:
            with Store(path) as own:
                for c in corpora:
                    noise_versions(exp, c, own, Quiet())
        except BaseException as exc:  # handed to the main thread by wait()
            self.error = exc
        self.seconds = time.perf_counter() - t0

    def wait(self) -> None:
        self.thread.join()
        if self.error is not None:
            raise self.error


@dataclass
class RunOutcome:
    run_id: int
    results: list[Result]
    stats: dict[str, Any]


def run_experiment(exp: Experiment, store: Store, executor: Executor,
                   progress: Progress | None = None) -> RunOutcome:
    """Run EXP into STORE. The cyclic garbage collector is paused meanwhile: the run
    builds hundreds of thousands of small objects and no cycles, and the collector's
    passes over them took a third of the toolkit's own time."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _run(exp, store, executor, progress or Quiet())
    finally:
        if enabled:
            gc.enable()


def _run(exp: Experiment, store: Store, executor: Executor, progress: Progress) -> RunOutcome:
    t0 = time.perf_counter()
    run_id = store.start_run(exp.name, exp.config())
    corpus = load_corpus(exp.corpus, exp.limit, store, exp.gold, exp.typos_only, exp.natural)
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
    Keyboard.load(exp.keyboard or "us-qwerty")  # a bad layout fails before any parsing
    free_core = executor.kind == "local" and executor.workers < (os.cpu_count() or 1)
    noise = _Noise(exp, [c for c in (corpus, cal) if c is not None], store.path, free_core)
    results: list[Result] = []
    parser_stats = {}
    score_seconds = 0.0
    with executor:
        for k, conf in enumerate(exp.parsers):
            corpora = [corpus] + [c for c in (cal, corr) if c is not None]
            parsed, key, stats = parse_all(conf, corpora, store, executor, run_id, progress,
                                           noise.wait if k == 0 else None)
            ts = time.perf_counter()
            progress.stage(f"score {conf.name}", 1)
            results += score(Context(
                exp, conf, parsed, corpus, versions_by_level(corpus),
                _base(exp, conf, key[:12], corpus),
                None if cal is None else (cal, parsed), None if corr is None else (corr, parsed)))
            speed = _speed(parsed, corpus)
            results.append((conf.name, "speed", "-", "all",
                            signature(method="speed", parser=conf.name, model=key[:12]),
                            {**speed, "identity": stats["identity"]}))
            # the drawings and the browser show a noisy parse over the clean words: they
            # need noise that keeps the words
            examples = _examples(parsed, corpus, exp) if exp.kind == "spelling" else []
            if examples:
                results.append((conf.name, "examples", parsed.kind, "chosen", "", examples))
            if len(corpus.versions) > 1 and exp.kind == "spelling":
                results.append((conf.name, "browser", parsed.kind, "all", "",
                                browser_data(parsed, corpus)))
            progress.advance()
            score_seconds += time.perf_counter() - ts
            parser_stats[conf.name] = stats
    noise.wait()
    stats = {"wall_seconds": time.perf_counter() - t0, "noise_seconds": noise.seconds,
             "score_seconds": score_seconds, "parsers": parser_stats,
             "workers": executor.workers, "executor": executor.kind}
    store.replace_results(run_id, exp.name, results)
    store.finish_run(run_id, stats)
    return RunOutcome(run_id, results, stats)

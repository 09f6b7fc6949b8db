"""What a parser's run shows besides its scores: its speed, the sentences the report
draws (clean and noisy parse side by side) and the sentence browser's data. Each is
a function of the parses, the corpus and the settings alone, so a re-run with no new
parse takes them back from the store instead."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import Any

from parsebench.common.signature import signature
from parsebench.model.level import Level
from parsebench.model.parses import Parse, drawn_arcs, from_sentence, project
from parsebench.model.scored import Scored
from parsebench.noise.kinds import moves_words
from parsebench.parsers.base import Analysis
from parsebench.run.corpus import CorpusData, Parsed, Version, versions_by_level
from parsebench.run.experiment import Experiment, ParserConf
from parsebench.run.page_values import BrowserData, BrowserVersion, Example, LengthTime, SpeedValue
from parsebench.run.run_stats import ParserStats


def pages(exp: Experiment, conf: ParserConf, parsed: Parsed, corpus: CorpusData, key: str,
          stats: ParserStats) -> list[Scored]:
    """A parser's speed, drawn examples and browser data (what a re-run with no new
    parse takes back from the last run: :data:`parsebench.run.runner.REUSED`)."""
    out = [Scored(conf.name, "speed", "-", "all",
                  signature(method="speed", parser=conf.name, model=key[:12]),
                  _speed(parsed, corpus, stats.identity))]
    if exp.tokens == "raw":  # drawings and the browser set parses of the same words side
        return out          # by side; a parser given raw text gives its own
    examples = _chosen(parsed, corpus, exp)
    if examples:
        out.append(Scored(conf.name, "examples", parsed.kind, "chosen", "", examples))
    # the drawings align the words of noise that moves them; the browser shows a noisy
    # parse over the clean words, so it needs noise that keeps them
    # (a version of such noise that moved none, split words drawn at no level, has the
    # clean words one for one, and no alignment)
    moves = moves_words(exp.kind, exp.noise)
    clean = corpus.versions[0].sentences
    if len(corpus.versions) > 1 and (not moves or all(
            v.alignments is not None or all(len(s.forms) == len(c.forms) for s, c in
                                            zip(v.sentences, clean, strict=True))
            for v in corpus.versions[1:])):
        out.append(Scored(conf.name, "browser", parsed.kind, "all", "",
                          browser_data(parsed, corpus)))
    return out


def _speed(parsed: Parsed, corpus: CorpusData, identity: Any) -> SpeedValue:
    """Words per second and seconds against length, over the distinct sentences parsed."""
    seen: dict[str, int] = {}
    for v in corpus.versions:
        for k, n in parsed.units(v):  # with raw text, a parse is a document's
            seen.setdefault(k, n)
    pairs = [(n, parsed.outcomes[k][1]) for k, n in seen.items()]
    words = sum(n for n, _ in pairs)
    secs = sum(t for _, t in pairs)
    failures = sum(1 for k in seen if not isinstance(parsed.outcomes[k][0], Analysis))
    by_len: dict[int, list[float]] = {}
    for n, t in pairs:
        by_len.setdefault(n, []).append(t)
    return SpeedValue(len(pairs), words, secs, failures, words / secs if secs else None,
                      {str(n): LengthTime(len(v), statistics.fmean(v), max(v))
                       for n, v in sorted(by_len.items())}, identity)


def _rows_of(p: Parse) -> list[str]:
    """The parse a row a word, as the report's tables show it."""
    if p.failed:
        return ["(failed)"] * len(p.forms)
    return project(p, {"links": "links", "tree": "brackets"}.get(p.kind, "head+deprel"))


def _tags(p: Parse) -> list[str] | None:
    """A tagger's tags (a parse with tags and no arcs), for the drawing."""
    return list(p.upos) if not p.failed and p.upos and not drawn_arcs(p) \
        and any(t not in ("", "_") for t in p.upos) else None


def example(clean: Parse, noisy: Parse, gold: Parse | None, number: int, level: Level,
            seed: int, why: str, alignment: Any = None) -> Example:
    """One sentence's clean and noisy parse side by side, for the report; with noise
    that moves words, the ALIGNMENT of the noisy words to the clean ones goes with it."""
    ca, na = drawn_arcs(clean), drawn_arcs(noisy)
    return Example(
        number, level.short, level.label, seed, why, clean.kind, list(clean.forms),
        list(noisy.forms), [a != b for a, b in zip(clean.forms, noisy.forms, strict=False)],
        _rows_of(clean), _rows_of(noisy), ca, na,
        drawn_arcs(gold) if gold is not None and gold.kind == clean.kind else None,
        _changed_arcs(ca, na), _tags(clean), _tags(noisy),
        None if alignment is None else [list(p) for p in alignment.pairs],
        None if alignment is None else list(alignment.types))


def _changed_arcs(clean: list[list[Any]] | None, noisy: list[list[Any]] | None
                  ) -> int | None:
    """How many arcs of the noisy parse are not the clean parse's (None for trees and
    failures)."""
    if clean is None or noisy is None:
        return None
    return len({tuple(x) for x in clean} ^ {tuple(x) for x in noisy}) // 2 \
        + abs(len(clean) - len(noisy))


def browser_data(parsed: Parsed, corpus: CorpusData) -> BrowserData:
    """Every sentence of every version as the report's sentence browser needs it, small:
    the clean words once, a noisy version's misspelled words only (with noise that moves
    words, the changed sentences' noisy words, alignment and error types), the clean
    parse's arcs
    [dependent, head, label number], a noisy parse only where it differs from the clean
    one (0: the same parse, "F": failed, {"d": arcs}: the arcs of the words whose head or
    label moved), and the gold's arcs if any. On the Bigert protocol on EWT test (51
    versions, UDPipe) the noisy parses take 1.6 MB so, 5.1 MB as full arc lists."""
    labels: dict[str, int] = {}

    def arcs(p: Parse) -> list[list[int]] | str:
        if p.failed:
            return "F"
        got = drawn_arcs(p)
        if got is None:
            return []
        return [[a, b, labels.setdefault(str(lab), len(labels))] for a, b, lab in got]

    clean_v = corpus.versions[0]
    clean = [arcs(parsed.parse_of(s)) for s in clean_v.sentences]
    versions: list[BrowserVersion] = []
    noise: list[list[Any]] = []
    noisy: list[list[Any]] = []
    for v in corpus.versions[1:]:
        assert v.level is not None
        versions.append(BrowserVersion(v.level.short, v.seed))
        if v.alignments is not None:
            # noise that moves words (learner-like errors): each changed sentence's noisy
            # words in full, its alignment to the clean words and its error types
            noise.append([{"w": s.forms, "a": [list(x) for x in a.pairs], "t": list(a.types)}
                          if a.types or s.forms != cs.forms else []
                          for s, cs, a in zip(v.sentences, clean_v.sentences, v.alignments,
                                              strict=True)])
        else:
            noise.append([[[i, w] for i, (w, c) in enumerate(zip(s.forms, cs.forms,
                                                                 strict=False))
                           if w != c] for s, cs in zip(v.sentences, clean_v.sentences,
                                                       strict=True)])
        row: list[Any] = []
        for k, s in enumerate(v.sentences):
            a = arcs(parsed.parse_of(s))
            c = clean[k]
            if a == c and (v.alignments is None or s.forms == clean_v.sentences[k].forms):
                row.append(0)
            elif parsed.kind == "deps" and isinstance(a, list) and isinstance(c, list) \
                    and [x[0] for x in a] == [x[0] for x in c]:
                # the same words: only the arcs of the words whose head or label moved
                row.append({"d": [x for x, y in zip(a, c, strict=True) if x != y]})
            else:
                row.append(a)
        noisy.append(row)
    # the gold's labels as text: each parser numbers its own labels
    gold = [drawn_arcs(from_sentence(s)) for s in corpus.sentences] if corpus.gold else None
    return BrowserData(parsed.kind, versions, list(labels),
                       [list(s.forms) for s in clean_v.sentences], noise, clean, noisy, gold)


def _chosen(parsed: Parsed, corpus: CorpusData, exp: Experiment) -> list[Example]:
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
        return (c, x) if len(c.forms) == len(x.forms) or v.alignments else None

    def aligned(n: int, v: Version) -> Any:
        return v.alignments[n - 1] if v.alignments else None

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
            out.append(example(*got, gold(n), n, lv, v.seed,
                               "asked for" if misspelled else
                               "asked for; misspelled at no level", aligned(n, v)))
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
            changed = _changed_arcs(drawn_arcs(got[0]), drawn_arcs(got[1]))
            if v.alignments:  # the words differ: rank by the edit's size, then arcs
                changed = len(got[0].forms) + len(got[1].forms) - 2 * len(
                    v.alignments[n - 1].pairs) + (changed or 0)
            elif changed is None:  # trees, failures: the rows that differ
                changed = sum(a != b for a, b in zip(_rows_of(got[0]), _rows_of(got[1]),
                                                     strict=True))
            if changed:
                ranked.append((n, len(got[0].forms), changed, got))
        chosen = changed_most([(n, w, c) for n, w, c, _ in ranked])[:exp.changed_most]
        pairs = {n: got for n, _, _, got in ranked}
        out += [example(*pairs[n], gold(n), n, lv, v.seed, "changed most", aligned(n, v))
                for n in chosen]
    return out


def changed_most(candidates: Sequence[tuple[int, int, int]]) -> list[int]:
    """The sentences (number, words, arcs changed) in the order the report draws them:
    the largest share of the sentence changed first, among sentences of at most
    CHANGED_MOST_WORDS words (the largest count picked the longest sentences, drawn
    3,600 px wide); longer sentences only after those; ties by the count, then in
    order."""
    return [n for n, words, changed in sorted(
        candidates, key=lambda t: (t[1] > CHANGED_MOST_WORDS, -t[2] / max(1, t[1]), -t[2],
                                   t[0]))]


CHANGED_MOST_WORDS = 30
"""The longest sentence (in clean words) a "changed most" example is chosen among first:
about 1,300 px drawn, the width of a laptop's window."""

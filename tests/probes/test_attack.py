"""parsebench attack: worst-case misspellings found by black-box search."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from conftest import FIXTURES, ROOT, needs, shared_path
from probe_data import LEX, TEXTS, US, corpus

from parsebench.common.errors import InputError
from parsebench.formats.conllu import Sentence, read_conllu, write_conllu
from parsebench.model.parses import blank, read_parses
from parsebench.noise.lexicon import Lexicon
from parsebench.parsers.cached import CachedParse, CachedParser, parsed_of, pool_parser
from parsebench.parsers.pool import Pool
from parsebench.probes.attack import AttackSettings, AttackValue, attack

sys.path.insert(0, str(FIXTURES))
import toy_parsers


class Counting:
    """An in-process batch parser that counts every sentence it parses."""

    def __init__(self, fn: Callable[[Sequence[str]], object]) -> None:
        self.fn = fn
        self.seen: list[tuple[str, ...]] = []

    def __call__(self, batch: Sequence[tuple[str, ...]]) -> list[CachedParse]:
        self.seen += batch
        return [parsed_of(w, self.fn(w)) for w in batch]


def run(fn: Callable[[Sequence[str]], object], **kw: int) -> tuple[list[Sentence], AttackValue,
                                                                   Counting, CachedParser]:
    counter = Counting(fn)
    cached = CachedParser(counter)
    out, r = attack(corpus(), cached, AttackSettings(**kw), US, LEX)
    return out, r, counter, cached


def osa(a: str, b: str) -> int:
    d = [[i + j if i * j == 0 else 0 for j in range(len(b) + 1)] for i in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1,
                          d[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    return d[-1][-1]


def test_attack_finds_the_weak_word_in_every_sentence() -> None:
    out, r, _counter, _cached = run(toy_parsers.weak_word, budget=1, candidates=2, queries=20)
    assert r.attacked == 5 and r.short == 0 and r.clean_failed == 0
    for s, row in zip(out, r.per_sentence, strict=True):
        [m] = row.misspelled
        assert m.orig == "saw" and s.forms[m.token - 1] == m.new
        assert s.misc[m.token - 1] == f"Noise={m.op}|Orig=saw"
        assert m.upos == "VERB"  # no UPOS in the input: the clean parse's
        # every other word changes head or relation
        assert row.damage == len(s.forms) - 1 == row.untouched
        assert row.changed_words == [i + 1 for i in range(len(s.forms))
                                     if i != m.token - 1]
    # every one of 5 sentences: the Wilson interval, not the bootstrap's [1.0, 1.0]
    z2 = 1.959963984540054 ** 2
    assert r.success.rate == 1.0 and r.success.interval == "Wilson score"
    assert r.success.ci95 == pytest.approx([5 / (5 + z2), 1.0], abs=1e-12)
    assert r.damage.rate == 1.0
    assert r.picked["attack"].by_upos == {"VERB": 5}
    # each sentence's words are its dependents in the clean parse
    assert r.picked["attack"].mean_dependents == sum(len(t.split()) - 1
                                                     for t in TEXTS) / 5
    # random: the same budget, noise's own draw; damage only where it hit "saw"
    rand = r.random
    hit = rand.success.sentences
    assert 0 <= hit < 5 and rand.damage.rate < 1.0
    assert r.ratio.value == (None if hit == 0 else 1.0 / rand.damage.rate)
    # the noisy text is in # text too, as noise writes it
    assert all(s.text == " ".join(s.forms) for s in out)


def test_a_parser_that_ignores_word_forms_is_never_hurt() -> None:
    _out, r, _, _ = run(toy_parsers.form_blind, budget=2, candidates=3, queries=30)
    assert r.attacked == 5
    assert r.success.rate == 0.0 and r.success.sentences == 0
    assert r.damage.rate == 0.0 and r.random.damage.rate == 0.0
    assert r.ratio.value is None and r.ratio.ci95 is None  # 0/0: n/a
    assert all(len(row.misspelled) == 2 for row in r.per_sentence)


@pytest.mark.parametrize("budget,queries", [(1, 2), (1, 4), (2, 3), (2, 7), (2, 50)])
def test_query_cap_holds_and_nothing_is_parsed_twice(budget: int, queries: int) -> None:
    _, r, counter, cached = run(toy_parsers.weak_word, budget=budget, candidates=4,
                                queries=queries)
    assert len(counter.seen) == len(set(counter.seen)) == cached.calls
    assert all(row.queries <= queries for row in r.per_sentence)
    assert r.calls.per_sentence_max <= queries
    assert r.calls.attack <= queries * r.attacked
    assert r.calls.attack + r.calls.random == cached.calls
    # the random variants are parsed once too: those the attack had parsed are cache hits
    assert r.calls.cache_hits == 5 - r.calls.random


def test_every_attacked_word_is_a_nonword_one_edit_away() -> None:
    inputs = {w.lower() for t in TEXTS for w in t.split()}
    out, r, _, _ = run(toy_parsers.form_blind, budget=3, candidates=6, queries=40)
    n = 0
    for clean, s in zip(corpus(), out, strict=True):
        for a, b, misc in zip(clean.forms, s.forms, s.misc, strict=True):
            if a != b:
                n += 1
                assert osa(a, b) == 1 and b.lower() not in LEX and b.lower() not in inputs
                assert misc.startswith("Noise=") and misc.endswith(f"|Orig={a}")
    assert n == 3 * r.attacked == 15


def test_same_seed_same_output_and_the_seed_matters() -> None:
    a = run(toy_parsers.form_blind, budget=2, candidates=3, queries=20, seed=7)
    b = run(toy_parsers.form_blind, budget=2, candidates=3, queries=20, seed=7)
    c = run(toy_parsers.form_blind, budget=2, candidates=3, queries=20, seed=8)
    assert a[0] == b[0] and a[1] == b[1]
    assert a[0] != c[0]


def test_short_sentences_are_left_as_they_are_and_bad_options_refused() -> None:
    s = [*corpus(), blank(["a", "I"], ["# text = a I"])]
    counter = Counting(toy_parsers.weak_word)
    out, r = attack(s, CachedParser(counter), AttackSettings(budget=1, queries=10), US, LEX)
    assert r.short == 1 and r.attacked == 5 and out[-1].forms == s[-1].forms
    with pytest.raises(InputError, match="--queries 2: must be at least --budget"):
        AttackSettings(budget=2, queries=2).check()
    with pytest.raises(InputError, match="--budget 0"):
        AttackSettings(budget=0).check()


def _pool_attack(workers: int, spec: str) -> tuple[list[Sentence], AttackValue]:
    with Pool(spec, workers, 10.0, 3) as pool:
        cached = CachedParser(pool_parser(pool))
        return attack(corpus(), cached, AttackSettings(budget=2, candidates=3, queries=12, seed=3),
                      US, LEX)


def test_through_the_worker_pool_with_1_and_2_workers_the_same() -> None:
    one = _pool_attack(1, "python:toy_parsers:WeakWord")
    two = _pool_attack(2, "python:toy_parsers:WeakWord")
    assert one == two
    assert one[1].success.rate == 1.0


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "src"), str(FIXTURES)]))
    return subprocess.run([sys.executable, "-m", "parsebench.cli", *args], cwd=cwd, env=env,
                          capture_output=True, text=True)


def test_cli_writes_a_noisy_corpus_the_robustness_commands_read(tmp_path: Path) -> None:
    src = tmp_path / "in.conllu"
    with src.open("w") as fh:
        write_conllu(corpus(), fh)
    (tmp_path / "lex.txt").write_text("\n".join(sorted(LEX.words)) + "\n")
    p = _cli("attack", str(src), "--parser", "python:toy_parsers:WeakWord", "--budget", "1",
             "--queries", "20", "--lexicon", "lex.txt", "-o", "out.conllu", "--json",
             cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    r = json.loads(p.stdout)
    assert r["success"]["rate"] == 1.0 and r["signature"].startswith("method:attack|")
    noisy = read_parses(tmp_path / "out.conllu")
    assert [sum(x.noise) for x in noisy] == [1] * 5
    p = _cli("attack", str(src), "--parser", "python:toy_parsers:WeakWord", "--budget", "1",
             "--queries", "20", "--lexicon", "lex.txt", "-o", "out2.conllu", cwd=tmp_path)
    assert "success rate            100.0   [56.6, 100.0]" in p.stdout  # Wilson, n = 5
    assert "attack picks 5 words: VERB 5" in p.stdout
    assert (tmp_path / "out2.conllu").read_text() == (tmp_path / "out.conllu").read_text()
    # bad input: one line, exit 2, no output
    p = _cli("attack", str(src), "--parser", "python:toy_parsers:WeakWord", "--budget", "2",
             "--queries", "2", "-o", "bad.conllu", cwd=tmp_path)
    assert p.returncode == 2 and not (tmp_path / "bad.conllu").exists()
    assert p.stderr.strip().count("\n") == 0 and "--queries 2" in p.stderr
    p = _cli("attack", str(src), "--parser", "python:toy_parsers:WeakWord", "--table",
             "-o", "bad.conllu", cwd=tmp_path)
    assert p.returncode == 2


def test_udpipe_on_ewt_sentences(tmp_path: Path) -> None:
    needs("ufal.udpipe")
    gold = read_conllu(shared_path("data/ud-english-ewt/en_ewt-ud-test.conllu"))[:12]
    model = shared_path("models/en_ewt.udpipe")
    lex = Lexicon.load(None, "en")
    with Pool(f"udpipe:{model}", 1, 60.0, 16) as pool:
        cached = CachedParser(pool_parser(pool))
        _out, r = attack(gold, cached, AttackSettings(budget=1, candidates=2, queries=10), US, lex)
    assert r.attacked + r.short == 12 and r.attacked >= 8
    # a real parser is hurt by some misspelling of most sentences, and the worst
    # misspelling hurts at least as much as a random one on average
    assert r.success.rate >= 0.5
    assert r.damage.rate >= r.random.damage.rate
    assert r.calls.per_sentence_max <= 10
    for row in r.per_sentence:
        assert row.misspelled[0].upos == gold[row.sentence - 1].upos[
            row.misspelled[0].token - 1]


@pytest.mark.parametrize("command", ["attack", "invariance"])
def test_help_reads_as_plain_text(command: str, tmp_path: Path) -> None:
    p = _cli(command, "--help", cwd=tmp_path)
    assert p.returncode == 0 and "Usage: parsebench " + command in p.stdout
    for bad in ("<bool>", "<path>", "<str>", "{", "╭", "│"):
        assert bad not in p.stdout, (bad, p.stdout)


def _peak_bytes(fn: Callable[[], object]) -> int:
    import tracemalloc

    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _one_edit(a: str, b: str) -> bool:
    """Whether B is A with one letter replaced, inserted, deleted, or two adjacent ones
    swapped (osa() == 1, in linear time for long words)."""
    p = 0
    while p < min(len(a), len(b)) and a[p] == b[p]:
        p += 1
    q = 0
    while q < min(len(a), len(b)) - p and a[-1 - q] == b[-1 - q]:
        q += 1
    x, y = a[p:len(a) - q], b[p:len(b) - q]
    return (len(x), len(y)) in ((1, 1), (0, 1), (1, 0)) or (len(x) == 2 and x == y[::-1])


def test_a_long_words_candidates_are_drawn_not_all_made() -> None:
    """Every one-edit misspelling of a word was made before 5 were sampled: a
    9,000-letter word took 845 MB (a 3,000-letter one here, 130 MB). Drawn one at a
    time, memory is linear in the word's length: a few candidates' worth."""
    from parsebench.probes.attack import candidate_edits

    def sample(n: int) -> list[tuple[str, str]]:
        word = ("abcdefghij" * n)[:n]
        return candidate_edits(word, 0, 0, US, LEX, set(), 5, 1)

    got = sample(3000)
    assert len(got) == 5 and len({new for _, new in got}) == 5
    word = "abcdefghij" * 300
    assert all(_one_edit(word, new) for _, new in got)
    assert sample(3000) == got  # seeded
    small, large = _peak_bytes(lambda: sample(3000)), _peak_bytes(lambda: sample(6000))
    assert small < 1_000_000, small
    assert large < 2.5 * small, (small, large)
    # a word of one letter repeated, whose deletions are all one string, stops drawing
    same = candidate_edits("a" * 5000, 0, 0, US, LEX, set(), 5, 1)
    assert 1 <= len(same) <= 5

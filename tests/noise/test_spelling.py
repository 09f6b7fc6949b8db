"""The misspelling generator: one keyboard edit, non-words only, exact rates, reproducible."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FIXTURES, error_lines, shared_path
from hypothesis import given, settings
from hypothesis import strategies as st

from parsebench.common.errors import InputError
from parsebench.formats.conllu import NO_HEAD, read_conllu
from parsebench.noise.keyboard import Keyboard
from parsebench.noise.lexicon import Lexicon
from parsebench.noise.spelling import Settings, edits, plan

US = Keyboard.load("us-qwerty")
SMALL_LEXICON = Lexicon(["the", "cat", "sat", "on", "mat", "car", "cart", "at", "a", "act",
                         "tea", "eat", "ate", "rat", "bat", "hat"], "test")


def osa_distance(a: str, b: str) -> int:
    """Damerau-Levenshtein (optimal string alignment) distance, written for the test."""
    d = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) + 1):
        d[i][0] = i
    for j in range(len(b) + 1):
        d[0][j] = j
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    return d[len(a)][len(b)]


def test_keyboard_neighbours() -> None:
    assert set(US.neighbours["s"]) == set("awedxz")
    assert set(US.neighbours["q"]) == set("wa")
    sv = Keyboard.load("sv-qwerty")
    assert "å" in sv.neighbours["p"] and "ä" in sv.neighbours["ö"]
    with pytest.raises(InputError, match="unknown keyboard layout 'dvorak'"):
        Keyboard.load("dvorak")


def test_every_edit_is_one_edit_away_and_keeps_case() -> None:
    for word in ("house", "House", "NASA", "aa"):
        for op, new in edits(word, US):
            assert new != word
            assert osa_distance(word, new) == 1, (op, new)
    subs = [new for op, new in edits("House", US) if op == "sub"]
    assert "Gouse" in subs and "Hiuse" in subs and "gouse" not in subs


words = st.sampled_from(["the", "cat", "sat", "on", "mat", "house", "Parser", "robust",
                         "a", ",", ".", "42", "http://x.org", "Sentence", "noisy", "text"])
sentences = st.lists(st.lists(words, min_size=1, max_size=12), min_size=1, max_size=10)


@settings(max_examples=150, deadline=None)
@given(sentences, st.floats(0.01, 1.0), st.integers(0, 10_000))
def test_rate_mode_properties(sents: list[list[str]], rate: float, seed: int) -> None:
    r = plan(sents, Settings(rate=rate, seed=seed), US, SMALL_LEXICON)
    n = sum(map(len, sents))
    target = int(rate * n + 0.5)
    assert len(r.changes) + r.shortfall == target
    assert len(r.changes) <= r.eligible
    if r.shortfall:
        # every eligible word was tried
        assert len(r.changes) + r.no_nonword == r.eligible
    input_words = {w.lower() for s in sents for w in s}
    changed = set()
    for c in r.changes:
        assert sents[c.sentence][c.token] == c.orig
        assert osa_distance(c.orig, c.new) == 1
        assert c.new.lower() not in SMALL_LEXICON.words
        assert c.new.lower() not in input_words
        assert c.orig.isalpha() and len(c.orig) >= 2
        changed.add((c.sentence, c.token))
    assert len(changed) == len(r.changes)  # one edit per word


@settings(max_examples=80, deadline=None)
@given(sentences, st.integers(1, 3), st.integers(0, 1000))
def test_per_sentence_mode_gives_exactly_k_or_reports(sents: list[list[str]], k: int,
                                                      seed: int) -> None:
    r = plan(sents, Settings(per_sentence=k, seed=seed), US, SMALL_LEXICON)
    per: dict[int, int] = {}
    for c in r.changes:
        per[c.sentence] = per.get(c.sentence, 0) + 1
    for si in range(len(sents)):
        assert per.get(si, 0) == (0 if si in r.short_sentences else k)


@settings(max_examples=60, deadline=None)
@given(sentences, st.integers(0, 1000))
def test_higher_rates_contain_lower_ones(sents: list[list[str]], seed: int) -> None:
    low = plan(sents, Settings(rate=0.1, seed=seed), US, SMALL_LEXICON)
    high = plan(sents, Settings(rate=0.3, seed=seed), US, SMALL_LEXICON)
    as_set = {(c.sentence, c.token, c.new) for c in high.changes}
    assert {(c.sentence, c.token, c.new) for c in low.changes} <= as_set


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "parsebench.cli", *args],
                          capture_output=True, text=True)


# sha256 of `noise tests/fixtures/sample.txt --rate 0.2 --seed 7 --lexicon
# tests/fixtures/lexicon.txt` (US keyboard): output text, then the JSON sidecar.
# A word-list lexicon keeps the digest independent of the wordfreq release.
DIGEST = "7d0cd6aa032639bd412114041da383485a803a948d4c2508611722a96153669e"


def test_output_is_byte_identical_for_a_fixed_seed(tmp_path: Path) -> None:
    out = tmp_path / "noisy.txt"
    p = cli("noise", str(FIXTURES / "sample.txt"), "-o", str(out), "--rate", "0.2",
            "--seed", "7", "--lexicon", str(FIXTURES / "lexicon.txt"))
    assert p.returncode == 0, p.stderr
    text = out.read_bytes()
    side = (tmp_path / "noisy.txt.noise.json").read_bytes()
    assert len(text.splitlines()) == 7
    assert [len(a.split()) for a in text.decode().splitlines()] == \
        [len(b.split()) for b in (FIXTURES / "sample.txt").read_text().splitlines()]
    assert "17 words misspelled: 20.48% of all 83 words" in p.stderr  # round(0.2 x 83)
    assert hashlib.sha256(text + side).hexdigest() == DIGEST


@pytest.mark.parametrize("rel,lang", [
    ("data/ud-english-ewt/en_ewt-ud-test.conllu", "en"),
    ("data/ud-swedish-talbanken/sv_talbanken-ud-dev.conllu", "sv"),
])
def test_real_corpora_at_every_level(tmp_path: Path, rel: str, lang: str) -> None:
    src = shared_path(rel)
    sample = tmp_path / "sample.conllu"
    text = src.read_text(encoding="utf-8")
    sample.write_text("\n\n".join(text.split("\n\n")[:300]).rstrip("\n") + "\n\n",
                      encoding="utf-8")
    clean = read_conllu(sample)
    n = sum(map(len, clean))
    lex = Lexicon.load(None, lang)
    for level in ("--rate 0.01", "--rate 0.02", "--rate 0.05", "--rate 0.1", "--rate 0.2",
                  "--per-sentence 1", "--per-sentence 2", "--per-sentence 3"):
        out = tmp_path / "noisy.conllu"
        p = cli("noise", str(sample), "-o", str(out), "--lang", lang, *level.split())
        assert p.returncode == 0, p.stderr
        noisy = read_conllu(out)
        assert [len(s) for s in noisy] == [len(s) for s in clean]
        changed = 0
        for c, s in zip(clean, noisy, strict=True):
            k = 0
            for i in range(len(c)):
                if c.forms[i] != s.forms[i]:
                    k += 1
                    assert "Noise=" in s.misc[i] and f"Orig={c.forms[i]}" in s.misc[i]
                    assert osa_distance(c.forms[i], s.forms[i]) == 1
                    assert s.forms[i] not in lex
                else:
                    assert s.misc[i] == c.misc[i]
                # noise writes no annotation: the clean tree is not the noisy text's
                assert (s.heads[i], s.deprels[i], s.upos[i]) == (NO_HEAD, "_", "_")
            if level.startswith("--per"):
                assert k in (0, int(level.split()[1]))
            changed += k
        if level.startswith("--rate"):
            assert changed == int(float(level.split()[1]) * n + 0.5)


@pytest.mark.parametrize("args,message", [
    (["--rate", "1.5"], "--rate 1.5: must be in (0, 1]"),
    (["--rate", "0"], "must be in (0, 1]"),
    (["--rate", "0.1", "--keyboard", "dvorak"], "unknown keyboard layout"),
    (["--rate", "0.1", "--per-sentence", "2"], "exactly one of --rate and --per-sentence"),
    (["--rate", "0.1", "--lexicon", "/nonexistent/words.txt"], "no such file"),
])
def test_bad_settings_exit_2_and_write_nothing(tmp_path: Path, args: list[str],
                                               message: str) -> None:
    out = tmp_path / "out.txt"
    p = cli("noise", str(FIXTURES / "sample.txt"), "-o", str(out), *args)
    assert p.returncode == 2
    assert message in p.stderr and len(error_lines(p.stderr)) == 1
    assert list(tmp_path.iterdir()) == []


def test_unreadable_input_exits_2(tmp_path: Path) -> None:
    p = cli("noise", str(tmp_path / "missing.txt"), "-o", str(tmp_path / "o"), "--rate", "0.1")
    assert p.returncode == 2 and "missing.txt: no such file" in p.stderr


def test_word_list_and_hunspell_lexicons(tmp_path: Path) -> None:
    wl = tmp_path / "words.txt"
    wl.write_text("cat\nsat\n")
    dic = tmp_path / "en.dic"
    dic.write_text("2\ncat/S\nSat/M\n")
    assert "CAT" in Lexicon.load(str(wl), "en")
    d = Lexicon.load(str(dic), "en")
    assert "cat" in d and "sat" in d and "2" not in d


def test_replicates_use_consecutive_seeds(tmp_path: Path) -> None:
    out = tmp_path / "n.txt"
    p = cli("noise", str(FIXTURES / "sample.txt"), "-o", str(out), "--rate", "0.1",
            "--seed", "5", "--replicates", "3")
    assert p.returncode == 0, p.stderr
    names = sorted(x.name for x in tmp_path.iterdir() if not x.name.endswith(".json"))
    assert names == ["n.seed5.txt", "n.seed6.txt", "n.seed7.txt"]
    again = tmp_path / "again.txt"
    cli("noise", str(FIXTURES / "sample.txt"), "-o", str(again), "--rate", "0.1", "--seed", "6")
    assert again.read_bytes() == (tmp_path / "n.seed6.txt").read_bytes()


def test_drop_short_leaves_out_sentences_with_too_few_eligible_words(tmp_path: Path) -> None:
    src = tmp_path / "in.txt"
    src.write_text("Yes !\nThe parser read every sentence twice .\nOK 42 .\n")
    out = tmp_path / "out.txt"
    p = cli("noise", str(src), "-o", str(out), "--per-sentence", "2")
    assert p.returncode == 0 and "sentences with too few eligible words: 2" in p.stderr
    lines = out.read_text().splitlines()
    assert lines[0] == "Yes !" and lines[2] == "OK 42 ."
    assert sum(a != b for a, b in zip(lines[1].split(), src.read_text().splitlines()[1].split(),
                                      strict=True)) == 2
    p = cli("noise", str(src), "-o", str(out), "--per-sentence", "2", "--drop-short")
    assert out.read_text().splitlines() == [lines[1]]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="abcdeqwzAQ", min_size=1, max_size=90), st.integers(0, 10**6),
       st.sampled_from([None, "sub", "ins", "del", "trans"]))
def test_long_words_get_the_same_edit_made_lazily(word: str, seed: int, only: str | None
                                                  ) -> None:
    """The edits of a long word are made one at a time, with the very same draws."""
    import random

    from parsebench.noise.spelling import OPERATIONS, misspell

    module = sys.modules[misspell.__module__]  # its LAZY_FROM, which misspell reads
    kb = Keyboard.load("us-qwerty")
    lex = Lexicon(["abc", "qwe"], "tiny")
    weights = {op: 1.0 if only in (None, op) else 0.0 for op in OPERATIONS}
    got = []
    for lazy_from in (10**9, 1):
        old = module.LAZY_FROM
        module.LAZY_FROM = lazy_from
        try:
            got.append(misspell(word, random.Random(seed), kb, lex, {word.lower()}, weights))
        finally:
            module.LAZY_FROM = old
    assert got[0] == got[1]


def test_a_100000_letter_word_is_misspelled_in_little_memory() -> None:
    import random
    import time
    import tracemalloc

    from parsebench.noise.spelling import misspell

    word = "ab" * 50_000
    kb = Keyboard.load("us-qwerty")
    tracemalloc.start()
    t0 = time.perf_counter()
    got = misspell(word, random.Random(1), kb, Lexicon([], "none"), {word}, {
        "sub": 1.0, "ins": 1.0, "del": 1.0, "trans": 1.0})
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert got is not None and abs(len(got[1]) - len(word)) <= 1
    assert time.perf_counter() - t0 < 5
    assert peak < 50 * 2**20, f"{peak / 2**20:.0f} MB"  # every edit at once: 20 GB


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(st.sampled_from(["cat", "dog", "a", "Mat", "sat", "on", "the", "2",
                                          "zebra", "qwerty", "Ok", "x-y"]), max_size=7),
                min_size=1, max_size=12),
       st.one_of(st.floats(0.01, 1.0), st.integers(1, 3)), st.integers(0, 10**6),
       st.integers(1, 3), st.booleans())
def test_streamed_plans_equal_the_in_memory_ones(sents: list[list[str]], level: float | int,
                                                 seed: int, min_length: int,
                                                 keep_mix: bool) -> None:
    from parsebench.noise.spelling import Corpus, StreamedCorpus

    blocked = [{0} if len(s) > 2 and k % 3 == 0 else set() for k, s in enumerate(sents)]
    st_ = Settings(rate=level if isinstance(level, float) else None,
                   per_sentence=level if isinstance(level, int) else None, seed=seed,
                   min_length=min_length, keep_mix=keep_mix)
    a = Corpus(sents, blocked).plan(st_, US, SMALL_LEXICON)
    b = StreamedCorpus(lambda: iter(list(zip(sents, blocked, strict=True))),
                       min_length).plan(st_, US, SMALL_LEXICON)
    assert a == b


def test_noise_reads_a_sentence_at_a_time(tmp_path: Path) -> None:
    """What planning keeps is a few integers a word, not the corpus: a tenth of what
    reading the corpus into memory takes (the benchmark measures the whole command)."""
    import tracemalloc

    from parsebench.formats.conllu import iter_conllu, write_conllu
    from parsebench.noise.spelling import Corpus, StreamedCorpus

    f = tmp_path / "c.conllu"
    with f.open("w", encoding="utf-8") as fh:
        write_conllu(read_conllu(FIXTURES / "typos.conllu") * 400, fh)
    settings_ = Settings(rate=0.01, seed=1)
    tracemalloc.start()
    streamed = StreamedCorpus(lambda: ((s.forms, set()) for s in iter_conllu(f)), 2)
    a = streamed.plan(settings_, US, SMALL_LEXICON)
    lean = tracemalloc.get_traced_memory()[1]
    tracemalloc.reset_peak()
    sents = read_conllu(f)
    b = Corpus([s.forms for s in sents]).plan(settings_, US, SMALL_LEXICON)
    whole = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert a == b
    assert lean < whole / 10, (lean, whole)


@settings(max_examples=100, deadline=None)
@given(sentences, st.one_of(st.floats(0.01, 1.0), st.integers(1, 3)), st.integers(0, 10_000),
       st.dictionaries(st.sampled_from(["sub", "ins", "del", "trans"]), st.integers(0, 3)))
def test_keep_mix_realises_the_operations_drawn_by_weight(
        sents: list[list[str]], level: float | int, seed: int, w: dict[str, int]) -> None:
    """With keep_mix every misspelling has the operation drawn for it by weight (a word
    without a non-word edit of it is passed over), so the realised mix is the asked-for
    one's draw, exactly; without it, the operations realised are the words' own."""
    from collections import Counter

    from parsebench.noise.spelling import _slot_op

    weights = {op: float(w.get(op, 1)) for op in ("sub", "ins", "del", "trans")}
    if not any(weights.values()):
        weights["sub"] = 1.0
    rate = level if isinstance(level, float) else None
    k = level if isinstance(level, int) else None
    st_ = Settings(rate, k, seed, weights, keep_mix=True)
    r = plan(sents, st_, US, SMALL_LEXICON)
    got = Counter(c.op for c in r.changes)
    if rate is not None:
        want = Counter(_slot_op(st_, str(j)) for j in range(len(r.changes)))
        assert got == want
        if r.shortfall:  # every eligible word was tried
            assert len(r.changes) + r.passed_over == r.eligible
    else:
        sentences_done = {c.sentence for c in r.changes}
        want = Counter(_slot_op(st_, f"{si}/{j}") for si in sentences_done for j in range(k))
        assert got == want
    assert all(weights[op] > 0 for op in got)
    assert r.operations() == {op: got.get(op, 0) for op in ("sub", "ins", "del", "trans")}
    for c in r.changes:
        assert osa_distance(c.orig, c.new) == 1 and c.new.lower() not in SMALL_LEXICON.words
    # nested as the default is: a higher rate keeps every misspelling of a lower one
    if rate is not None and rate < 0.5:
        high = plan(sents, Settings(min(1.0, 2 * rate), None, seed, weights, keep_mix=True),
                    US, SMALL_LEXICON)
        assert {(c.sentence, c.token, c.new) for c in r.changes} <= \
            {(c.sentence, c.token, c.new) for c in high.changes}


def test_the_realised_operation_mix_is_reported_beside_the_asked_for_weights(
        tmp_path: Path) -> None:
    """On EWT test at 5% the default's 1:1:1:1 realises about half insertions (a drawn
    operation without a non-word edit gives way, and insertions rarely make words):
    the command says so, in its text and JSON; --keep-mix keeps a quarter each."""
    import json

    src = shared_path("data/ud-english-ewt/en_ewt-ud-test.conllu")
    got = {}
    for name, extra in (("default", []), ("keep", ["--keep-mix"])):
        out = tmp_path / f"{name}.conllu"
        p = cli("noise", str(src), "-o", str(out), "--rate", "0.05", "--json", *extra)
        assert p.returncode == 0, p.stderr
        rep = json.loads(p.stdout)["files"][0]
        ops = rep["by_operation"]
        assert sum(ops.values()) == rep["misspelled"] == round(0.05 * rep["words"])
        assert rep["weights"] == {"sub": 1, "ins": 1, "del": 1, "trans": 1}
        assert rep["keep_mix"] == (name == "keep")
        line = next(x for x in p.stderr.splitlines() if "by operation:" in x)
        n = rep["misspelled"]
        for op in ("sub", "ins", "del", "trans"):
            assert f"{op} {ops[op]} ({100 * ops[op] / n:.1f}%)" in line
        assert "; asked sub 25.0%, ins 25.0%, del 25.0%, trans 25.0%" in line
        # the file agrees with the counts
        noisy = read_conllu(out)
        written = [m for s in noisy for m in s.misc if "Noise=" in m]
        for op in ("sub", "ins", "del", "trans"):
            assert sum(f"Noise={op}|" in m for m in written) == ops[op]
        got[name] = (ops, n, p.stderr)
    ops, n, err = got["default"]
    assert ops["ins"] / n > 0.4  # the default: insertion stands in
    assert "gives way to another (--keep-mix keeps the asked-for mix)" in err
    ops, n, err = got["keep"]
    assert "operations kept as drawn (--keep-mix)" in err
    for op in ("sub", "ins", "del", "trans"):
        assert abs(ops[op] / n - 0.25) < 0.04, ops  # a draw of 1,255 at a quarter each
    p = cli("noise", str(src), "-o", str(tmp_path / "g.conllu"), "--kind", "grammar",
            "--per-sentence", "1", "--keep-mix")
    assert p.returncode == 2 and "--keep-mix goes with --kind spelling" in p.stderr

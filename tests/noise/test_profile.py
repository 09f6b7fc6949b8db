"""Noise profiles (issue 51): learnt from (as written, corrected) pairs with exact
counts, printed whole, and drawn from at an exact rate, reproducibly, with the
profile's mix of operations."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from conftest import FIXTURES, error_lines, shared_path

import parsebench as pb
from parsebench.common.errors import InputError
from parsebench.noise.keyboard import Keyboard
from parsebench.noise.lexicon import Lexicon
from parsebench.noise.profile import iter_table, learn, load, osa_ops, save, show
from parsebench.noise.profile_noise import Drawer, plan, realised

PAIRS = FIXTURES / "profile_pairs.conllu"
WORDS = Lexicon(["i", "the", "letter", "it's", "its", "in", "there", "we", "want", "to",
                 "go", "cat", "sat", "with", "it", "owner", "raining", "paris", "leter"],
                "test")


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "parsebench.cli", *args],
                          capture_output=True, text=True)


def small(tmp_path: Path) -> dict[str, object]:
    words = tmp_path / "words.txt"
    words.write_text("\n".join(sorted(WORDS.words)) + "\n")
    return learn([PAIRS], "en", str(words))


def test_learning_a_small_conllu_gives_exact_counts(tmp_path: Path) -> None:
    p = small(tmp_path)
    assert (p["words"], p["errors"], p["sentences"]) == (21, 6, 4)
    # its (it's), paris (Paris) and leter are words of the lexicon; the others are not
    assert p["real_words"] == 3
    assert p["kinds"] == {"edit": 4, "case": 1, "apostrophe": 1}
    # recieved: ei>ie; teh: he>eh; leter: -t; thier (there): e>i then re>er
    assert p["edits_per_word"] == {"1": 3, "2": 1}
    assert p["operations"] == {"sub": 1, "ins": 0, "del": 1, "trans": 3}
    assert p["positions"] == {"first": 0, "middle": 3, "last": 2}
    assert p["confusions"] == {"-t": 1, "e>i": 1, "ei>ie": 1, "he>eh": 1, "re>er": 1}
    assert p["case"] == {"lowered": 1, "raised": 0, "inside": 0}
    assert p["apostrophe"] == {"dropped": 1, "added": 0, "moved": 0}
    assert p["errors_per_sentence"] == {"1": 1, "2": 1, "3": 1}
    assert p["tokenization"] == {"split": 1, "merged": 0}  # want ed (goeswith)
    assert p["unpaired"] == 1  # Mike: Typo=Yes, no CorrectForm
    by = p["errors_by"]
    assert isinstance(by, dict) and "frequency" not in by  # a word list has no frequencies
    assert by["upos"]["VERB"] == [1, 5] and by["upos"]["ADV"] == [1, 1]
    assert by["length"]["8-9"] == [1, 1]


def test_osa_edits() -> None:
    assert osa_ops("teh", "the") == [("trans", 1, "he", "eh")]
    assert osa_ops("targetting", "targeting") == [("ins", 5, "", "t")]
    assert osa_ops("u", "you") == [("del", 0, "y", ""), ("del", 1, "o", "")]


def test_texts_and_m2_give_the_same_pairs(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("I recieved teh leter\nwe can not go alot\n")
    (tmp_path / "b.txt").write_text("I received the letter\nwe cannot go a lot\n")
    m2 = tmp_path / "x.m2"
    m2.write_text("S I recieved teh leter\nA 1 2|||R:SPELL|||received|||REQUIRED|||-NONE-|||0\n"
                  "A 2 3|||R:SPELL|||the|||REQUIRED|||-NONE-|||0\n"
                  "A 3 4|||R:SPELL|||letter|||REQUIRED|||-NONE-|||0\n"
                  "A 3 4|||R:SPELL|||lettre|||REQUIRED|||-NONE-|||1\n\n"
                  "S we can not go alot\nA 1 3|||R:ORTH|||cannot|||REQUIRED|||-NONE-|||0\n"
                  "A 4 5|||R:ORTH|||a lot|||REQUIRED|||-NONE-|||0\n"
                  "A 3 4|||R:VERB|||went|||REQUIRED|||-NONE-|||0\n")
    for paths in ([tmp_path / "a.txt", tmp_path / "b.txt"], [m2]):
        p = learn(paths, "en", str(FIXTURES / "lexicon.txt"))
        assert p["errors"] == 3 and p["operations"] == {"sub": 0, "ins": 0, "del": 1,
                                                        "trans": 2}
        assert p["tokenization"] == {"split": 1, "merged": 1}
    assert learn([m2], "en", str(FIXTURES / "lexicon.txt"))["other_changes"] == 1


def test_show_prints_every_count(tmp_path: Path) -> None:
    p = small(tmp_path)
    text = show(p)
    for table, name, n in iter_table(p):
        assert f"{name} {n}" in text or f"{name} {n}/" in text or f"/{n} (" in text \
            or f"{name} {n}," in text, (table, name, n)
    assert "split 1, merged 0" in text and "without a correction: 1" in text


@pytest.fixture(scope="module")
def ewt_profile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    train = shared_path("data/ud-english-ewt/en_ewt-ud-train.conllu")
    out = tmp_path_factory.mktemp("p") / "ewt.json"
    pb.learn_profile(train, out)
    return out


def test_ewt_train(ewt_profile: Path) -> None:
    """928 CorrectForm= in train: 7 on empty nodes (copies of words), 10 on the first part
    of a word split in two (goeswith: a split); 911 word-for-word pairs remain, one of them
    impossible ("basic\u00adally": a soft hyphen, invisible; issue 59 item 17), so 910
    errors. Of the
    104 words EWT joins by goeswith (all Typo=Yes), 56 are a typist's splits ("with
    out", "half way"); 48 are e-mail addresses and URLs broken into tokens ("Ken
    Rice@ENRON"), which are other changes, not splits."""
    p = load(ewt_profile).data
    assert p["errors"] == 910 and p["tokenization"]["split"] == 56
    assert p["other_changes"] == 48 and p["impossible"] == 1
    assert p["words"] == 204446 and p["sentences"] == 12544
    assert sum(p["kinds"].values()) == 910


def profiled(tmp_path: Path, seed: int, rate: float | None) -> tuple[str, dict[str, object]]:
    out = tmp_path / f"n{seed}.conllu"
    p = cli("noise", str(FIXTURES / "typos.conllu"), "-o", str(out), "--seed", str(seed),
            "--profile", str(tmp_path / "f.json"), "--lexicon", str(FIXTURES / "lexicon.txt"),
            "--json", *(["--rate", str(rate)] if rate is not None else []))
    assert p.returncode == 0, p.stderr
    return out.read_text(), json.loads(p.stdout)["files"][0]


def test_noise_with_a_profile_is_exact_and_reproducible(tmp_path: Path) -> None:
    save(small(tmp_path), tmp_path / "f.json")
    a, fig = profiled(tmp_path, 3, 0.2)
    assert fig["misspelled"] == round(0.2 * fig["words"]) == 4
    assert profiled(tmp_path, 3, 0.2)[0] == a and profiled(tmp_path, 4, 0.2)[0] != a
    _, own = profiled(tmp_path, 3, None)  # the profile's own rate: 6 of 21
    assert own["misspelled"] == round(6 / 21 * own["words"])


def test_the_operation_mix_follows_the_profile(ewt_profile: Path) -> None:
    from parsebench.formats.conllu import read_conllu

    prof = load(ewt_profile)
    dev = read_conllu(shared_path("data/ud-english-ewt/en_ewt-ud-dev.conllu"))
    lex = Lexicon.load(None, "en")
    d = Drawer(prof, Keyboard.load("us-qwerty"), lex)
    forms = [s.forms for s in dev]
    r = plan(forms, [s.upos for s in dev], 0.05, 1, d, 2)
    assert len(r.changes) == round(0.05 * sum(map(len, forms)))
    _, ops, real = realised(r, lex)
    want = prof.weights("operations")
    n, m = sum(ops.values()), sum(want.values())
    for op in ops:  # fixed seed: each share within 5 points of the profile's
        assert abs(ops[op] / n - want[op] / m) < 0.05, (op, ops, want)
    assert abs(real / len(r.changes) - prof.real_share) < 0.1
    # nested: a lower rate's errors are among a higher one's
    low = plan(forms, [s.upos for s in dev], 0.02, 1, d, 2)
    assert Counter((c.sentence, c.token, c.new) for c in low.changes) <= \
        Counter((c.sentence, c.token, c.new) for c in r.changes)


@pytest.mark.parametrize(("text", "line", "message"), [
    ('{"format": \n', 2, "not a noise profile"),
    ('{"format": "x"}\n', 1, "is missing"),
    ('{"format": "parsebench-noise-profile",\n "version": 1,\n "words": -1}\n', 3,
     '"words": expected a count'),
])
def test_bad_profiles_one_line_file_line_exit_2(tmp_path: Path, text: str, line: int,
                                                message: str) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(text)
    with pytest.raises(InputError, match=message) as e:
        load(bad)
    assert e.value.line == line
    out = tmp_path / "out.conllu"
    p = cli("noise", str(PAIRS), "-o", str(out), "--profile", str(bad))
    assert p.returncode == 2 and f"bad.json:{line}: " in p.stderr
    assert len(error_lines(p.stderr)) == 1 and not out.exists()
    p = cli("noise-profile", "show", str(bad))
    assert p.returncode == 2 and len(error_lines(p.stderr)) == 1


def test_a_profile_refuses_the_keyboard_settings(tmp_path: Path) -> None:
    save(small(tmp_path), tmp_path / "f.json")
    p = cli("noise", str(PAIRS), "-o", str(tmp_path / "o"), "--profile",
            str(tmp_path / "f.json"), "--per-sentence", "1")
    assert p.returncode == 2 and "--profile decides the errors" in p.stderr


def test_a_run_draws_its_noise_from_the_profile(tmp_path: Path) -> None:
    """``[noise] profile``: loaded and checked with the file, kept in the record, part of
    the versions' key, and its plan is the noise command's."""
    from parsebench.noise.kinds import KINDS
    from parsebench.run.experiment import Experiment, load

    save(small(tmp_path), tmp_path / "f.json")
    parser = '[[parsers]]\nname = "p"\nspec = "python:toy_parsers:WeakWord"\n'
    f = tmp_path / "e.toml"
    f.write_text(f'name = "e"\n[corpus]\npath = "{PAIRS}"\n[noise]\nrates = [0.2]\n'
                 f'lexicon = "{FIXTURES / "lexicon.txt"}"\nprofile = "f.json"\n' + parser)
    exp = load(f)
    assert exp.noise.profile == str(tmp_path / "f.json")
    back = Experiment.from_config(json.loads(json.dumps(exp.config())))
    assert back.noise.profile == exp.noise.profile
    kb = Keyboard.load("us-qwerty")
    assert "profile:f.json#" in KINDS["spelling"].key(exp, kb)
    f.write_text(f.read_text().replace("rates = [0.2]", "per_sentence = [1]"))
    with pytest.raises(InputError, match="profile: for kind") as e:
        load(f)
    assert e.value.line == 7  # the profile line


def test_the_report_says_what_its_noise_is() -> None:
    from parsebench.report.headline import noise_caveat

    keyboard = noise_caveat({"kind": "spelling", "lang": "en"})
    assert keyboard is not None and "7.00%" in keyboard and "3.07%" in keyboard
    assert noise_caveat({"kind": "spelling", "lang": "de"}) is None  # not measured
    assert noise_caveat({"kind": "grammar", "lang": "en"}) is None
    named = noise_caveat({"kind": "spelling", "lang": "de", "profile": "/x/ewt.json"})
    assert named is not None and "ewt.json" in named and "7.00" not in named


def test_a_run_with_a_profile_and_its_report(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """A whole run of a toy parser: the report names the profile beside its headline;
    the same run with keyboard noise carries the validity test's measurement."""
    monkeypatch.syspath_prepend(str(FIXTURES))  # the parser's workers find the toy
    save(small(tmp_path), tmp_path / "f.json")
    base = (f'[corpus]\npath = "{FIXTURES / "typos.conllu"}"\n[noise]\nrates = [0.2]\n'
            f'lexicon = "{FIXTURES / "lexicon.txt"}"\n'
            '[[parsers]]\nname = "p"\nspec = "python:toy_parsers:WeakWord"\n'
            '[metrics]\ndeps = true\nrows = false\nsentences = false\n')
    for name, extra in (("profiled", 'profile = "f.json"\n'), ("keyboard", "")):
        toml = tmp_path / f"{name}.toml"
        toml.write_text(f'name = "{name}"\n' + base.replace("rates = [0.2]\n",
                                                            "rates = [0.2]\n" + extra))
        pb.run(toml, store=tmp_path / f"{name}.sqlite", report=tmp_path / name)
        md = (tmp_path / name / "index.md").read_text(encoding="utf-8")
        summary = md[md.index("### Summary"):md.index("**Run**")]
        if name == "profiled":
            assert "learnt profile f.json" in summary and "7.00%" not in summary
            # issue 59 item 1: the Run table described it as the keyboard model, asked
            # 25% of each operation and gave realised shares adding up to 58.6%
            run = md[md.index("**Run**"):]
            assert "| noise | misspellings drawn from the learnt noise profile f.json" in run
            assert "one keyboard edit a word" not in run and "asked sub 25.0%" not in run
            row = next(line for line in run.splitlines()
                       if line.startswith("| errors at rate=0.2 (realised) |"))
            shares = [float(x) for x in re.findall(r"\(([\d.]+)%\)", row)]
            assert shares and abs(sum(shares) - 100) < 0.5, row
        else:
            assert "keyboard model" in summary and "7.00%" in summary
            assert "learnt profile f.json" not in summary


@pytest.mark.parametrize("per_sentence", [1, 2, 3])
def test_errors_come_as_many_to_a_sentence_as_the_profile_counted(
        tmp_path: Path, per_sentence: int) -> None:
    """A profile whose sentences with errors each hold K of them: every sentence that
    gets errors gets K (the last one drawn may get fewer, and a word without an error of
    its kind is passed over), the count is exact, and a lower rate's errors are among a
    higher rate's."""
    from parsebench.formats.conllu import read_conllu
    from parsebench.noise.profile import Profile

    data = dict(small(tmp_path))
    data["errors_per_sentence"] = {str(per_sentence): 4}
    prof = Profile(data, "k", "k")
    lex = Lexicon.load(None, "en")
    d = Drawer(prof, Keyboard.load("us-qwerty"), lex)
    learner = read_conllu(FIXTURES / "learner.conllu")
    forms = [s.forms for s in learner]
    for seed in (1, 2):
        high = plan(forms, None, 0.08, seed, d, 2)
        assert len(high.changes) == round(0.08 * sum(map(len, forms)))
        got = Counter(c.sentence for c in high.changes)
        assert sum(n != per_sentence for n in got.values()) <= 1 + high.no_nonword, got
        low = plan(forms, None, 0.03, seed, d, 2)
        assert Counter((c.sentence, c.token, c.new) for c in low.changes) <= \
            Counter((c.sentence, c.token, c.new) for c in high.changes)


def test_korean_and_japanese_frequencies_need_no_mecab() -> None:
    """Issue 59 item 13: ``noise-profile learn --lang ko`` (and ja, zh) ended in
    ModuleNotFoundError: MeCab, wordfreq's optional tokenizer; without it a word is
    looked up whole."""
    import importlib.util

    from parsebench.noise.lexicon import frequencies

    if importlib.util.find_spec("MeCab") is not None:
        pytest.skip("MeCab is installed here: wordfreq tokenizes with it")
    for lang, word, other in (("ko", "학교", "학교에서"), ("ja", "学校", "学校で")):
        f = frequencies(lang)
        assert f.zipf(word) > 3, (lang, f.zipf(word))
        assert 0 <= f.zipf(other) <= f.zipf(word)
        assert f.untokenized


def test_a_profile_count_too_large_for_a_float_is_refused_in_one_line(
        tmp_path: Path) -> None:
    """Issue 59 item 13: a count of 10**400 in a profile ended in OverflowError."""
    from parsebench.common.errors import InputError
    from parsebench.noise.profile import load

    good = tmp_path / "p.json"
    pb.learn_profile(FIXTURES / "typos.conllu", good)
    data = json.loads(good.read_text())
    for path in (("words",), ("operations", "sub")):
        bad = json.loads(json.dumps(data))
        into = bad
        for k in path[:-1]:
            into = into[k]
        into[path[-1]] = 10**400
        (tmp_path / "bad.json").write_text(json.dumps(bad, indent=1))
        with pytest.raises(InputError, match="from 0 to 10\\^15"):
            load(tmp_path / "bad.json")


def test_pairs_without_a_misspelling_write_no_profile(tmp_path: Path) -> None:
    """Issue 59 item 17: a profile with 0 errors was written without a word, and then
    refused by every command that loads it."""
    clean = tmp_path / "clean.conllu"
    clean.write_text("1\tThe\t_\tDET\t_\t_\t2\tdet\t_\t_\n2\tcat\t_\tNOUN\t_\t_\t0\troot\t_\t_\n\n")
    with pytest.raises(pb.InputError, match="no misspelling to learn from in 2 words"):
        pb.learn_profile(clean, tmp_path / "p.json")
    assert not (tmp_path / "p.json").exists()


def test_two_conllu_files_are_learnt_as_one_not_as_aligned_texts(tmp_path: Path) -> None:
    """Issue 59 item 11: two CoNLL-U files given to noise-profile learn were read as two
    aligned texts ("41213 lines, but ... has 11548")."""
    a, b = FIXTURES / "typos.conllu", FIXTURES / "profile_pairs.conllu"
    both = pb.learn_profile([a, b]).to_dict()
    one, two = pb.learn_profile(a).to_dict(), pb.learn_profile(b).to_dict()
    for key in ("words", "errors", "sentences"):
        assert both[key] == one[key] + two[key], key


def test_impossible_pairs_are_left_out_with_a_count(tmp_path: Path) -> None:
    """Issue 59 item 17: an empty ``CorrectForm=`` was learnt as inserting every letter,
    a zero-width space or a correction with a space inside as confusions. Each is left
    out and counted; the one real typo is all that is learnt."""
    f = tmp_path / "pairs.conllu"
    rows = [("recieved", "CorrectForm=received"), ("heard", "CorrectForm="),
            ("it\u200b", "CorrectForm=it"), ("alot", "CorrectForm=a lot"), ("news", "_")]
    f.write_text("".join(f"{i}\t{w}\t_\tX\t_\t_\t{0 if i == 1 else 1}\t"
                         f"{'root' if i == 1 else 'dep'}\t_\t{m}\n"
                         for i, (w, m) in enumerate(rows, 1)) + "\n", encoding="utf-8")
    p = learn([f], "en", None)
    assert p["impossible"] == 3 and p["errors"] == 1, p
    assert p["confusions"] == {"ei>ie": 1}
    assert "impossible pairs (an empty correction, a space or an invisible character " \
        "in a word; left out): 3" in show(p)
    texts = (tmp_path / "w.txt", tmp_path / "c.txt")
    texts[0].write_text("we recieved it\u200b\n", encoding="utf-8")
    texts[1].write_text("we received it\n", encoding="utf-8")
    got = learn(list(texts), "en", None)
    assert (got["errors"], got["impossible"]) == (1, 1), got


def test_a_profile_of_another_language_is_refused(tmp_path: Path) -> None:
    """Issue 59 item 17: an English profile was drawn into French text without a word:
    refused by noise (--lang) and by a run (its [noise] lang, at the profile's line)."""
    prof = tmp_path / "en.json"
    pb.learn_profile(PAIRS, prof)
    with pytest.raises(InputError, match="learnt from 'en' text, the noise is for 'fr'"):
        pb.noise(FIXTURES / "typos.conllu", profile=str(prof), lang="fr")
    exp = tmp_path / "e.toml"
    exp.write_text(f'''name = "e"
[corpus]
path = "{FIXTURES / 'typos.conllu'}"
[noise]
rates = [0.1]
lang = "fr"
profile = "{prof}"
[[parsers]]
name = "r"
spec = "baseline:right"
''', encoding="utf-8")
    with pytest.raises(InputError, match="learnt from 'en' text") as e:
        pb.run(exp, store=tmp_path / "s.sqlite")
    assert e.value.line == 7


@pytest.mark.parametrize("ops", [{"sub": 0, "ins": 0, "del": 1, "trans": 0},
                                 {"sub": 0, "ins": 1, "del": 0, "trans": 0},
                                 {"sub": 1, "ins": 1, "del": 1, "trans": 1}])
def test_a_short_word_takes_no_more_edits_than_its_length_allows(
        tmp_path: Path, ops: dict[str, int]) -> None:
    """Issue 59 item 18: a profile's 3-edit errors were drawn into short words ("sell"
    written "a", "talk" "ttkga", "bet" "brhth"). A word of up to four letters takes one
    edit, one more every two letters; a count above it is an elongation ("waaay") when
    it opens with an insertion, else it is cut."""
    import random

    from parsebench.noise.profile import Profile
    from parsebench.noise.profile_noise import elongated, most_edits
    from parsebench.noise.profile_pairs import osa_ops as edits

    data = dict(small(tmp_path))
    data.update(edits_per_word={"3": 10}, operations=ops, pairs={}, pair_words={},
                kinds={"edit": 1}, real_words=0)
    drawer = Drawer(Profile(data, "three"), Keyboard.load("us-qwerty"), WORDS)
    assert [most_edits(w) for w in ("a", "bet", "sell", "talks", "people", "because")] \
        == [1, 1, 1, 2, 2, 3]
    seen = Counter()
    for word in ("bet", "sell", "talk", "way", "people", "because", "different"):
        for k in range(40):
            got = drawer.error(word, random.Random(k), set())
            if got is None:
                continue
            _, new = got
            n = len(edits(new, word))
            if n > most_edits(word):  # an elongation: one letter repeated, nothing else
                assert ops["ins"] and re.fullmatch(
                    "".join(re.escape(c) + ("+" if c in "aeiouy" else "") for c in word),
                    new), (word, new)
                seen["long"] += 1
            else:
                seen["edit"] += 1
    assert seen["edit"] > 0
    if not ops["ins"]:
        assert seen["long"] == 0  # deletions cut to the most allowed: never "sell" -> "a"
    if ops["ins"] and not ops["del"] + ops["sub"] + ops["trans"]:
        assert seen["long"] > 0
    assert elongated("way", 3, random.Random(1)) == "waaaay"

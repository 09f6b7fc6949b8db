"""Misspellings in every language of the data: each language's keyboard and lexicon,
exact rates, non-words, keyboard-neighbour edits of the keys typed (Hangul jamo,
Persian letters), and the refusals (Japanese, Chinese; grammar noise outside English)."""

from __future__ import annotations

import os
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest
from conftest import FIXTURES, shared_path
from hypothesis import given, settings
from hypothesis import strategies as st

from parsebench.common.errors import InputError
from parsebench.formats.conllu import read_conllu
from parsebench.noise.hangul import FIRST, LAST, compose, keys
from parsebench.noise.keyboard import Keyboard, available_keyboards
from parsebench.noise.languages import (
    LANGUAGES,
    folding,
    keyboard_for,
    lexicon_for,
    typed_languages,
)
from parsebench.noise.lexicon import Lexicon
from parsebench.noise.make import noise
from parsebench.noise.spelling import Settings, edits, plan

LANGS = FIXTURES / "languages"
TYPED = ["de", "fa", "fi", "fr", "ga", "id", "ko", "ru", "tr"]
ZWNJ = "\u200c"

TREEBANKS = {"de": "ud-german-gsd/de_gsd", "fr": "ud-french-gsd/fr_gsd",
             "fi": "ud-finnish-tdt/fi_tdt", "fa": "ud-persian-seraji/fa_seraji",
             "id": "ud-indonesian-gsd/id_gsd", "ga": "ud-irish-idt/ga_idt",
             "ko": "ud-korean-gsd/ko_gsd", "ru": "ud-russian-gsd/ru_gsd",
             "tr": "ud-turkish-imst/tr_imst", "ja": "ud-japanese-gsd/ja_gsd",
             "zh": "ud-chinese-gsdsimp/zh_gsdsimp"}


def is_keyboard_edit(kb: Keyboard, op: str, orig: str, new: str) -> bool:
    """Whether NEW is ORIG with one edit OP of the keys typed: a key replaced by a
    neighbour, a neighbour of an adjacent key inserted, a key deleted, two swapped;
    never a joiner touched."""
    a, b = kb.typed(orig), kb.typed(new)
    j = kb.joiners
    if op == "sub" and len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 and b[diff[0]] in kb.near[a[diff[0]]]
    if op == "ins" and len(b) == len(a) + 1:
        return any(b[:i] + b[i + 1:] == a and any(
            b[i] in kb.near[a[k]] for k in (i - 1, i) if 0 <= k < len(a))
            for i in range(len(b)))
    if op == "del" and len(b) == len(a) - 1:
        return any(a[:i] + a[i + 1:] == b and a[i] not in j for i in range(len(a)))
    if op == "trans" and len(a) == len(b):
        return any(a[:i] + a[i + 1] + a[i] + a[i + 2:] == b and a[i] != a[i + 1]
                   and a[i] not in j and a[i + 1] not in j for i in range(len(a) - 1))
    return False


def check_script(lang: str, orig: str, new: str) -> None:
    """Korean: composed syllables only (NFC); Persian: letters and joiners only, the
    joiners kept."""
    assert unicodedata.is_normalized("NFC", new)
    if lang == "ko":
        for ch in new:
            if 0x3131 <= ord(ch) <= 0x318E:  # a letter outside a syllable
                assert ch in orig
        if any(FIRST <= ord(ch) <= LAST for ch in orig):  # (not a Latin word's)
            assert any(FIRST <= ord(ch) <= LAST for ch in new)
    if lang == "fa":
        assert new.count(ZWNJ) == orig.count(ZWNJ)
        assert all(c.isalpha() or c == ZWNJ for c in new)
        assert new[0] != ZWNJ and new[-1] != ZWNJ


def check_noise(lang: str, source: Path, level: dict[str, float | int]) -> int:
    """Noise SOURCE in LANG at LEVEL through the library, as the command does; check
    every misspelling; return how many."""
    made = noise(source, lang=lang, **level)  # type: ignore[arg-type]
    kb = Keyboard.load(keyboard_for(lang))
    lex = Lexicon.load(None, lang)
    report = made.replicates[0].report
    clean = [s.forms for s in read_conllu(source)] if source.suffix == ".conllu" else \
        [line.split() for line in source.read_text(encoding="utf-8").splitlines()]
    vocab = {lex.fold(w) for s in clean for w in s}
    noisy = [s.forms for s in made.treebank]
    changed = 0
    for c, n in zip(clean, noisy, strict=True):
        assert len(c) == len(n)
        k = 0
        for a, b in zip(c, n, strict=True):
            if a == b:
                continue
            k += 1
            assert lex.fold(b) not in lex.words and lex.fold(b) not in vocab, (a, b)
            assert any(is_keyboard_edit(kb, op, a, b) for op in ("sub", "ins", "del", "trans")
                       ), (a, b)
            check_script(lang, a, b)
        if "per_sentence" in level:
            assert k in (0, level["per_sentence"])
        changed += k
    assert changed == report["misspelled"]
    if "rate" in level:
        assert changed == int(level["rate"] * report["words"] + 0.5)  # exact
    return changed


@pytest.mark.parametrize("lang", TYPED)
def test_each_script_on_a_fixture(lang: str) -> None:
    """Without ../shared: a few sentences of each language, a third of the words misspelled."""
    assert check_noise(lang, LANGS / f"{lang}.txt", {"rate": 0.3, "seed": 3}) > 0
    check_noise(lang, LANGS / f"{lang}.txt", {"per_sentence": 2, "seed": 4})


@pytest.mark.parametrize("lang", TYPED)
def test_each_treebank_of_the_data(lang: str, tmp_path: Path) -> None:
    """The first 200 sentences of each language's test treebank, at 5% and 1 a sentence."""
    src = shared_path(f"data/{TREEBANKS[lang]}-ud-test.conllu")
    sample = tmp_path / "sample.conllu"
    text = src.read_text(encoding="utf-8")
    sample.write_text("\n\n".join(text.split("\n\n")[:200]).rstrip("\n") + "\n\n",
                      encoding="utf-8")
    assert check_noise(lang, sample, {"rate": 0.05}) > 0
    check_noise(lang, sample, {"per_sentence": 1, "seed": 2})


@pytest.mark.parametrize("lang", ["ja", "zh"])
def test_languages_typed_through_an_input_method_are_refused(lang: str, tmp_path: Path
                                                             ) -> None:
    out = tmp_path / "out.txt"
    p = subprocess.run([sys.executable, "-m", "parsebench.cli", "noise",
                        str(LANGS / f"{lang}.txt"), "-o", str(out), "--lang", lang,
                        "--rate", "0.1"], capture_output=True, text=True)
    assert p.returncode == 2
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and "input method" in lines[0]
    assert ", ".join(typed_languages()) in lines[0]
    assert not out.exists()
    with pytest.raises(InputError, match="input method"):  # a layout given changes nothing
        noise(LANGS / f"{lang}.txt", lang=lang, rate=0.1, keyboard="us-qwerty")


def test_grammar_noise_says_it_is_english_only(tmp_path: Path) -> None:
    p = subprocess.run([sys.executable, "-m", "parsebench.cli", "noise",
                        str(FIXTURES / "learner.conllu"), "-o", str(tmp_path / "o.conllu"),
                        "--kind", "grammar", "--lang", "de", "--rate", "0.1"],
                       capture_output=True, text=True)
    assert p.returncode == 2
    assert p.stderr.strip().splitlines() == [
        "parsebench: --kind grammar makes English errors only, not --lang de"]


def test_every_language_has_its_defaults() -> None:
    for lang in [*TYPED, "en", "sv"]:
        assert keyboard_for(lang) in available_keyboards()
    assert keyboard_for("en") == "us-qwerty" and keyboard_for("sv") == "sv-qwerty"
    assert keyboard_for("id") == "us-qwerty" and keyboard_for("es") == "us-qwerty"
    assert lexicon_for("ga") == "corpus" and lexicon_for("de") == "wordfreq:de"
    import wordfreq

    have = set(wordfreq.available_languages("best"))
    assert {c for c, lang in LANGUAGES.items() if not lang.wordfreq} == \
        set(LANGUAGES) - have == {"ga"}


def test_the_help_names_every_layout_and_language() -> None:
    p = subprocess.run([sys.executable, "-m", "parsebench.cli", "noise", "--help"],
                       capture_output=True, text=True, env={**os.environ, "COLUMNS": "200"})
    text = " ".join(p.stdout.split())
    for name in available_keyboards():
        assert name in text
    for lang in typed_languages():
        assert f" {lang}," in text or f" {lang} " in text


def test_irish_without_a_lexicon_is_kept_off_its_own_words_and_says_so(tmp_path: Path
                                                                       ) -> None:
    made = noise(LANGS / "ga.txt", lang="ga", rate=0.2)
    assert len(made.warnings) == 1 and "wordfreq has no Irish word list" in made.warnings[0]
    assert "lexicon:corpus:ga" in made.signature
    train = tmp_path / "train.conllu"
    train.write_text("# text = Tá\n1\tTá\ttá\tVERB\t_\t_\t0\troot\t_\t_\n\n", encoding="utf-8")
    made = noise(LANGS / "ga.txt", lang="ga", rate=0.2, lexicon=str(train))
    assert made.warnings == () and "lexicon:train.conllu" in made.signature


def test_a_conllu_lexicon_is_its_words(tmp_path: Path) -> None:
    f = tmp_path / "words.conllu"
    f.write_text("# sent_id = 1\n1-2\tdu\t_\t_\t_\t_\t_\t_\t_\t_\n1\tde\tde\tADP\t_\t_\t2\tcase"
                 "\t_\t_\n2\tle\tle\tDET\t_\t_\t0\troot\t_\t_\n\n", encoding="utf-8")
    assert Lexicon.load(str(f), "fr").words == {"du", "de", "le"}


def test_words_are_compared_as_wordfreq_folds_them() -> None:
    """wordfreq keeps German ß as ss and Turkish İ as i: a real word written so is a word."""
    de = Lexicon.load(None, "de")
    assert "groß" in de and "Straße" in de  # the list has gross, strasse
    tr = Lexicon.load(None, "tr")
    assert "İSTANBUL" in tr and "ılık" in tr and "IŞIK" in tr


def test_case_and_accents_are_typed_as_on_the_keys() -> None:
    tr = Keyboard.load("tr-q")
    subs = {new for op, new in edits("İz", tr) if op == "sub"}
    assert subs >= {"Üz", "Ğz", "Şz", "İx"} and "Iz" not in subs  # Shift+i is İ; I is ı's
    fr = Keyboard.load("fr-azerty")
    subs = {new for op, new in edits("fête", fr) if op == "sub"}
    assert "fete" in subs and "fzte" in subs  # the accent left out; ê is typed on e
    assert {new for op, new in edits("été", fr) if op == "sub"} >= {"até", "zté"}
    de = Keyboard.load("de-qwertz")
    assert "ß" in de.near["p"] and "z" in de.near["t"] and "y" in de.near["x"]
    ru = Keyboard.load("ru-jcuken")
    assert set(ru.near["ё"]) == set(ru.near["е"]) | {"е"}
    assert set(ru.near["Ж"]) == {c.upper() for c in ru.near["ж"]}
    assert ru.near["k"] == "ijlmo"  # Latin words in Russian text: the US layer


def test_hangul_is_edited_on_jamo_and_recomposed() -> None:
    ko = Keyboard.load("ko-dubeolsik")
    assert ko.typed("한국") == "ㅎㅏㄴㄱㅜㄱ" and ko.typed("과일") == "ㄱㅗㅏㅇㅣㄹ"
    got = dict.fromkeys(new for op, new in edits("한국", ko))
    assert "한극" in got  # ㅜ -> ㅡ, the key beside it
    assert all(all(FIRST <= ord(c) <= LAST for c in w) for w in got)
    assert "ㅏ" not in "".join(got)  # ㅎ deleted leaves a vowel alone: no such edit
    assert compose("ㅏ") is None and compose("ㄱ") is None and compose("ㅇㅏㅃㅏ") == "아빠"
    assert ko.near["ㄲ"] == "ㄸㄹㅆㅇ"  # a shifted key slips with Shift held


def test_persian_edits_are_on_letters() -> None:
    fa = Keyboard.load("fa-isiri")
    word = "می" + ZWNJ + "شود"
    got = edits(word, fa)
    assert got and all(new.count(ZWNJ) == 1 for _, new in got)
    assert not any(new.startswith(ZWNJ) or new.endswith(ZWNJ) for _, new in got)
    assert ("del", "میشود") not in got  # a joiner is never deleted...
    assert ("del", "م" + ZWNJ + "شود") in got
    assert ("del", ZWNJ + "ها") not in edits("ب" + ZWNJ + "ها", fa)  # ...nor left at an end
    assert fa.eligible(word) and not fa.eligible(ZWNJ + "شود") and fa.eligible("آب")
    assert set(fa.near["آ"]) == {"أ", "ة"}  # Shift+ا; its shifted neighbours


@pytest.mark.parametrize("text,message", [
    ("abc ABCD\n", "t.txt:1: a row is its keys"),
    ("abc\n@compose x é\n", "t.txt:2: @compose x: 'x' is not a key"),
    ("abc\n@dead a á\n", "t.txt:2: '@dead a á': expected @compose"),
])
def test_a_bad_layout_file_is_refused_at_its_line(text: str, message: str, tmp_path: Path
                                                  ) -> None:
    f = tmp_path / "t.txt"
    f.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as exc:
        Keyboard.load(str(f))
    assert message in str(exc.value)


hangul = st.text(st.characters(min_codepoint=FIRST, max_codepoint=LAST), min_size=1,
                 max_size=8)
jamo = st.text(st.sampled_from("ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ"
                               "ㅏㅐㅑㅒㅓㅔㅕㅖㅗㅛㅜㅠㅡㅣ"), min_size=1, max_size=12)


@settings(max_examples=300, deadline=None)
@given(hangul)
def test_hangul_keys_compose_back(word: str) -> None:
    assert compose(keys(word)) == word


@settings(max_examples=300, deadline=None)
@given(jamo)
def test_composed_keys_are_syllables_that_type_the_same_keys(typed: str) -> None:
    got = compose(typed)
    if got is not None:
        assert all(FIRST <= ord(c) <= LAST for c in got)
        assert keys(got) == typed


WORDS = {
    "de": ["Straße", "über", "Äpfel", "groß", "und", "Hund", "läuft", "ß"],
    "fa": ["کتاب", "می" + ZWNJ + "شود", "آب", "خانه", "به", "ها", "."],
    "ko": ["한국어", "읽었다", "과일", "닭", "ㅋㅋ", "책을", "SK텔레콤"],
    "ru": ["ёжик", "Москва", "дом", "iPhone", "и", "лес"],
    "tr": ["İstanbul", "ılık", "IŞIK", "rüzgâr", "ve", "şehir"],
}


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(WORDS)).flatmap(lambda lang: st.tuples(
    st.just(lang), st.lists(st.lists(st.sampled_from(WORDS[lang]), min_size=1, max_size=8),
                            min_size=1, max_size=6))),
       st.floats(0.05, 1.0), st.integers(0, 10_000))
def test_rates_are_exact_and_each_misspelling_one_edit(case: tuple[str, list[list[str]]],
                                                       rate: float, seed: int) -> None:
    lang, sents = case
    kb = Keyboard.load(keyboard_for(lang))
    lex = Lexicon(["und", "ve", "и", "به", "Straße"], "tiny", folding(lang))
    r = plan(sents, Settings(rate=rate, seed=seed), kb, lex)
    n = sum(map(len, sents))
    assert len(r.changes) + r.shortfall == int(rate * n + 0.5)
    assert len({(c.sentence, c.token) for c in r.changes}) == len(r.changes)
    if r.shortfall:
        assert len(r.changes) + r.no_nonword == r.eligible
    for c in r.changes:
        assert sents[c.sentence][c.token] == c.orig
        assert is_keyboard_edit(kb, c.op, c.orig, c.new), c
        assert lex.fold(c.new) not in lex.words
        check_script(lang, c.orig, c.new)



def _experiment(tmp: Path, corpus: str, noise: str) -> Path:
    f = tmp / "exp.toml"
    f.write_text(f'name = "x"\n[corpus]\npath = "{LANGS / "de.txt"}"\n{corpus}[noise]\n{noise}'
                 '[[parsers]]\nname = "p"\nspec = "python:toy_parsers:WeakWord"\n',
                 encoding="utf-8")
    return f


def test_a_corpus_lang_gives_a_runs_noise_its_defaults(tmp_path: Path) -> None:
    from types import SimpleNamespace

    from parsebench.noise.kinds import KINDS
    from parsebench.noise.source import words_only
    from parsebench.run.experiment import Level, load

    exp = load(_experiment(tmp_path, 'lang = "de"\n', "rates = [0.3]\n"))
    assert (exp.lang, exp.keyboard) == ("de", "de-qwertz")
    assert exp.config()["lang"] == "de" and exp.config()["keyboard"] == "de-qwertz"
    lines = (LANGS / "de.txt").read_text(encoding="utf-8").splitlines()
    corpus = SimpleNamespace(paths=[LANGS / "de.txt"],
                             sentences=[words_only(x.split(), k) for k, x in enumerate(lines)])
    kb = Keyboard.load("de-qwertz")
    changes, summary = KINDS["spelling"].planner(exp, corpus, kb)(Level("rate", 0.3), 1)
    assert summary["misspelled"] == int(0.3 * summary["words"] + 0.5) == len(changes)
    for _, _, op, old, new in changes:
        assert is_keyboard_edit(kb, op, old, new) and new not in Lexicon.load(None, "de")
    # [noise] lang says the same, or it is refused at its line
    assert load(_experiment(tmp_path, 'lang = "de"\n', 'lang = "de"\nrates = [0.1]\n')
                ).lang == "de"
    with pytest.raises(InputError, match=r"exp.toml:6: lang: \[noise\] lang = 'fr' but "
                                         r"the corpus's lang = 'de'"):
        load(_experiment(tmp_path, 'lang = "de"\n', 'lang = "fr"\nrates = [0.1]\n'))


def test_a_run_in_japanese_refuses_misspellings_at_the_lang_line(tmp_path: Path) -> None:
    from parsebench.run.experiment import load

    with pytest.raises(InputError) as exc:
        load(_experiment(tmp_path, 'lang = "ja"\n', "rates = [0.1]\n"))
    assert exc.value.line == 4 and "input method" in exc.value.message
    assert "\n" not in str(exc.value)
    with pytest.raises(InputError) as exc:
        load(_experiment(tmp_path, "", 'rates = [0.1]\nlang = "zh"\n'))
    assert exc.value.line == 6

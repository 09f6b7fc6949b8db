"""Profile noise that splits and joins words (issue 51: ``tokenization``): at the
profile's shares, the rate exact and nested, the parts common words, written with the
alignment and M2 edits that grammar noise has, and scored through them in a run."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FIXTURES, error_lines

import parsebench as pb
from parsebench.formats.conllu import read_conllu
from parsebench.metrics.core.word_alignment import read_alignments
from parsebench.noise.keyboard import Keyboard
from parsebench.noise.lexicon import Lexicon, frequencies
from parsebench.noise.profile import Profile, learn, save
from parsebench.noise.profile_noise import SPLIT_ZIPF, Drawer, plan

PAIRS = FIXTURES / "profile_pairs.conllu"
LEARNER = FIXTURES / "learner.conllu"


def profile(tmp_path: Path, split: int, merged: int) -> dict[str, object]:
    """The small fixture's profile with SPLIT splits and MERGED merges among its 6
    word-for-word errors."""
    words = tmp_path / "words.txt"
    words.write_text("the\nletter\nits\nthere\nwant\n")
    data = dict(learn([PAIRS], "en", str(words)))
    data["tokenization"] = {"split": split, "merged": merged}
    return data


def drawn(data: dict[str, object], rate: float, seed: int) -> list[tuple[int, int, str, str, str]]:
    d = Drawer(Profile(data, "p", "p"), Keyboard.load("us-qwerty"), Lexicon.load(None, "en"))
    forms = [s.forms for s in read_conllu(LEARNER)]
    rep = plan(forms, None, rate, seed, d, 2, None, tokenization=True)
    assert len(rep.changes) + rep.shortfall == round(rate * rep.words)
    return [(c.sentence, c.token, c.op, c.orig, c.new) for c in rep.changes]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_splits_and_merges_at_an_exact_nested_rate(tmp_path: Path, seed: int) -> None:
    """Half the errors split a word, a third join two: the rate is exact, a lower rate's
    changes are among a higher one's, a split's parts are common words that make the
    word, and a merge joins a word with the next, which no other change touches."""
    data = profile(tmp_path, 6, 4)
    low, high = drawn(data, 0.1, seed), drawn(data, 0.3, seed)
    assert set(low) <= set(high)
    zipf = frequencies("en").zipf
    forms = [s.forms for s in read_conllu(LEARNER)]
    ops = [c[2] for c in high]
    assert ops.count("split") and ops.count("merge")
    touched = [(si, t) for si, t, *_ in high]
    for si, t, op, orig, new in high:
        if op == "split":
            a, b = new.split(" ")
            assert a + b == orig == forms[si][t] and len(a) >= 2 and len(b) >= 2
            assert zipf(a) >= SPLIT_ZIPF and zipf(b) >= SPLIT_ZIPF
        elif op == "merge":
            assert orig == f"{forms[si][t]} {forms[si][t + 1]}" and new == orig.replace(" ", "")
            assert (si, t + 1) not in touched
    assert drawn(data, 0.3, seed) == high  # reproducible


def test_without_splits_in_the_profile_no_word_moves(tmp_path: Path) -> None:
    ops = {c[2] for seed in (1, 2) for c in drawn(profile(tmp_path, 0, 0), 0.3, seed)}
    assert not ops & {"split", "merge"}


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "parsebench.cli", *args],
                          capture_output=True, text=True, stdin=subprocess.DEVNULL)


def test_the_command_writes_the_alignment_and_m2(tmp_path: Path) -> None:
    """The noisy CoNLL-U, OUT.align (noisy i - clean j) and OUT.m2, one a sentence: the
    words of each noisy sentence are the clean ones with the changes made, as the
    alignment pairs them, and the M2 edits correct them back."""
    save(profile(tmp_path, 6, 4), tmp_path / "p.json")
    out = tmp_path / "n.conllu"
    p = cli("noise", str(LEARNER), "-o", str(out), "--profile", str(tmp_path / "p.json"),
            "--rate", "0.3", "--tokenization", "--json")
    assert p.returncode == 0, p.stderr
    files = json.loads(p.stdout)["files"][0]
    assert files["align"] == f"{out}.align" and files["m2"] == f"{out}.m2"
    assert files["by_kind"]["split"] and files["by_kind"]["merge"]
    clean, noisy = read_conllu(LEARNER), read_conllu(out)
    _, aligns = read_alignments(f"{out}.align")
    _, m2 = read_alignments(f"{out}.m2")
    assert len(noisy) == len(aligns) == len(m2) == len(clean)
    moved = 0
    for c, n, a, e in zip(clean, noisy, aligns, m2, strict=True):
        assert a.pairs == e.pairs  # the M2 edits say what the alignment says
        for i, j in a.pairs:
            misc = n.misc[i]
            if "Noise=split" in misc:
                assert c.forms[j] in misc
            elif "Noise=merge" in misc:
                assert n.forms[i].startswith(c.forms[j]) or n.forms[i].endswith(c.forms[j])
            elif "Noise=" not in misc:
                assert n.forms[i] == c.forms[j]
        moved += len(n.forms) != len(c.forms)
    assert moved


def test_tokenization_needs_a_profile(tmp_path: Path) -> None:
    p = cli("noise", str(LEARNER), "-o", str(tmp_path / "n.conllu"), "--rate", "0.1",
            "--tokenization")
    assert p.returncode == 2 and len(error_lines(p.stderr)) == 1
    assert "--profile" in p.stderr and not (tmp_path / "n.conllu").exists()


def test_a_run_scores_split_and_merged_words_through_the_alignment(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``tokenization = true`` in a run: the words move, so Bigert et al.'s rows (word
    by word) are left out with the reason, and robustness F1 and Kakkonen's scores go
    through the alignment; with ``tokens = "raw"`` it is refused at its line."""
    monkeypatch.syspath_prepend(str(FIXTURES))  # the parser's workers find the toy
    save(profile(tmp_path, 6, 4), tmp_path / "p.json")
    toml = tmp_path / "e.toml"
    toml.write_text(f'name = "e"\n[corpus]\npath = "{LEARNER}"\n'
                    '[noise]\nrates = [0.01, 0.3]\nprofile = "p.json"\ntokenization = true\n'
                    '[[parsers]]\nname = "p"\nspec = "python:toy_parsers:WeakWord"\n')
    out = pb.run(toml, store=tmp_path / "s.sqlite", report=tmp_path / "r")
    methods = {r.method for r in out.results}
    assert "rows" not in methods and {"f1", "sentences", "browser"} <= methods
    f1 = next(r for r in out.results if r.method == "f1" and r.level == "rate=0.3")
    assert f1.value.f1 is not None
    md = (tmp_path / "r" / "index.md").read_text(encoding="utf-8")
    assert "method rows" in md and "not applicable" in md
    toml.write_text(toml.read_text().replace("[noise]", 'tokens = "raw"\n[noise]'))
    with pytest.raises(pb.InputError, match="tokens = \"raw\"") as e:
        pb.run(toml, store=tmp_path / "s2.sqlite")
    assert e.value.line == 8  # tokenization = true


@pytest.mark.parametrize("change", [
    [0, 0, "split", "The", "Th"],            # a split without its two words
    [0, 0, "split", "The", "T  he"],         # an empty part
    [0, 12, "merge", ". x", ".x"],           # a merge past the sentence's last word
    [0, 0, "sub", "The", "T he"],            # a space in another change's word
    [999, 0, "split", "The", "T he"],        # no such sentence
    [0, 1, "sub", "teacher", "taecher"],     # a second change of the split word
    [0, 0, "merge", "The teacher", "Theteacher"],  # a merge over the split word
    [0, 3, "sub", "thee", "tehe"],           # not the corpus's word
])
def test_a_damaged_stored_version_is_refused(change: list[object]) -> None:
    """A version whose stored changes do not fit the corpus (a damaged or crafted store)
    is refused in one line, where it would have made a sentence of no shape."""
    from parsebench.noise.spelling_kind import Spelling

    class Level:
        label, rate, per_sentence = "rate=0.1", 0.1, None

    clean = read_conllu(LEARNER)
    good = Spelling().rebuild(clean, Level(), 1, [[0, 1, "split", "teacher", "teach er"],
                                                  [1, 0, "sub", "She", "Sge"]])
    assert good.alignments is not None and good.alignments[0].pairs[:3] == [(0, 0), (1, 1),
                                                                            (2, 1)]
    assert good.sentences[1].forms[0] == "Sge" and good.m2 is not None
    with pytest.raises(pb.InputError, match="the store is damaged"):
        Spelling().rebuild(clean, Level(), 1, [[0, 1, "split", "teacher", "teach er"],
                                               change])


def test_a_stored_change_of_another_shape_is_made_again() -> None:
    """What the store's check (``valid_change``) passes: two indices >= 0, then three
    strings; a version of any other shape is taken as damaged and made again."""
    from parsebench.noise.spelling_kind import Spelling

    ok = Spelling().valid_change
    assert ok([0, 1, "split", "teacher", "teach er"])
    for bad in ([-1, 0, "sub", "a", "b"], [0, "1", "sub", "a", "b"], [0, 1.0, "sub", "a", "b"],
                [0, 1, "sub", "a", 2], [0, 1, "sub", "a"], {"sentence": 0}):
        assert not ok(bad)


def test_spacing_is_kept_around_split_and_merged_words() -> None:
    """``# text`` and SpaceAfter=No as the clean text has them: a word glued to the next
    stays glued when the next is joined with the one after it, or split."""
    from parsebench.noise.spelling import Change
    from parsebench.noise.spelling_output import retokenized

    s = read_conllu(LEARNER)[0]  # The teacher gives the students a long list ...
    s.misc[4] = "SpaceAfter=No"  # "students" glued to "a"
    noisy, pairs, _ = retokenized(s, [Change(0, 5, "merge", "a long", "along")])
    assert noisy.comment_value("text") == \
        "The teacher gives the studentsalong list of words every day ."
    assert (5, 5) in pairs and (5, 6) in pairs and "SpaceAfter=No" in noisy.misc[4]
    noisy, _, _ = retokenized(s, [Change(0, 1, "split", "teacher", "teach er")])
    assert noisy.comment_value("text").startswith("The teach er gives the studentsa long")


def test_a_word_glued_to_the_next_is_not_joined_with_it(tmp_path: Path) -> None:
    """A merge of words already written together ("can|not") would change nothing: the
    plan passes them over, and makes its merges elsewhere."""
    data = profile(tmp_path, 0, 6)
    d = Drawer(Profile(data, "p", "p"), Keyboard.load("us-qwerty"), Lexicon.load(None, "en"))
    forms = [s.forms for s in read_conllu(LEARNER)]
    glued = [set(range(len(f))) if k % 2 == 0 else set() for k, f in enumerate(forms)]
    rep = plan(forms, None, 0.3, 1, d, 2, None, tokenization=True, glued=glued)
    merges = [c for c in rep.changes if c.op == "merge"]
    assert merges and all(c.sentence % 2 == 1 for c in merges)


def test_text_input_gets_its_alignment_too(tmp_path: Path) -> None:
    """A text file (a sentence a line) as the input: the same noise, written as text."""
    save(profile(tmp_path, 6, 4), tmp_path / "p.json")
    text = tmp_path / "t.txt"
    text.write_text("".join(" ".join(s.forms) + "\n" for s in read_conllu(LEARNER)))
    out = tmp_path / "n.txt"
    p = cli("noise", str(text), "-o", str(out), "--profile", str(tmp_path / "p.json"),
            "--rate", "0.3", "--tokenization")
    assert p.returncode == 0, p.stderr
    lines = out.read_text().splitlines()
    _, aligns = read_alignments(f"{out}.align")
    assert len(lines) == len(aligns) == len(read_conllu(LEARNER))
    for line, a in zip(lines, aligns, strict=True):
        assert max(i for i, _ in a.pairs) == len(line.split()) - 1

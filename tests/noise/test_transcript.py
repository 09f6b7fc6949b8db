"""Speech-transcript noise (issue 62 item 3): each part on a worked example with its
exact words, tree, alignment and M2; the carried tree is a tree for any input
(hypothesis); the noise command's files and errors; a run scored through the
alignment; real EWT text transcribed."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import FIXTURES, error_lines, shared_path
from hypothesis import given, settings
from hypothesis import strategies as st

import parsebench as pb
from parsebench.common.errors import InputError
from parsebench.formats.conllu import NO_HEAD, Sentence, iter_conllu, read_conllu
from parsebench.noise.grammar_output import pharaoh
from parsebench.noise.transcript import (
    PARTS,
    Planner,
    TranscriptSettings,
    parse_parts,
    settings_for,
    speller,
    transcribed,
)


def sentence(rows: list[tuple[str, str, int, str]], mwt: list[tuple[int, int, str]] = ()
             ) -> Sentence:
    """Words as (form, UPOS, head, relation); MWT: (first, last, surface) 0-based."""
    n = len(rows)
    return Sentence(forms=[r[0] for r in rows], lemmas=[r[0].lower() for r in rows],
                    upos=[r[1] for r in rows], xpos=["_"] * n,
                    feats=["NumForm=Digit" if r[1] == "NUM" else "_" for r in rows],
                    heads=[r[2] for r in rows], deprels=[r[3] for r in rows],
                    deps=["_"] * n, misc=["_"] * n,
                    comments=["# text = " + " ".join(r[0] for r in rows)],
                    multiword=[(a, b, [f"{a + 1}-{b + 1}", s, *["_"] * 7, "_"])
                               for a, b, s in mwt])


# "Yesterday , Anna saw 42 dogs ." (root: saw)
DOGS = sentence([("Yesterday", "NOUN", 4, "obl:tmod"), (",", "PUNCT", 4, "punct"),
                 ("Anna", "PROPN", 4, "nsubj"), ("saw", "VERB", 0, "root"),
                 ("42", "NUM", 6, "nummod"), ("dogs", "NOUN", 4, "obj"),
                 (".", "PUNCT", 4, "punct")])


def plan(s: Sentence, parts: tuple[str, ...], rate: float | None = None,
         per_sentence: int | None = None, seed: int = 1
         ) -> tuple[Sentence, list[tuple[int, int]], list[tuple[int, int, str, str]]]:
    planner = Planner(lambda: [s], settings_for(parts, None, "en"), "en")
    edits, _ = planner.plan(rate, per_sentence, seed)
    return transcribed(s, edits[0])


def tree(s: Sentence) -> list[tuple[str, int, str]]:
    return list(zip(s.forms, s.heads, s.deprels, strict=True))


def test_the_fixed_parts_on_a_worked_example() -> None:
    got, pairs, m2 = plan(DOGS, ("lower", "punct", "numbers"))
    # "42" is spelled "forty-two": one word; the commas and the full stop are gone
    assert tree(got) == [("yesterday", 3, "obl:tmod"), ("anna", 3, "nsubj"),
                         ("saw", 0, "root"), ("forty-two", 5, "nummod"),
                         ("dogs", 3, "obj")]
    assert got.comments[-1] == "# text = yesterday anna saw forty-two dogs"
    assert got.feats[3] == "NumForm=Word" and got.lemmas[3] == "forty-two"
    assert pharaoh(pairs) == "0-0 1-2 2-3 3-4 4-5"
    assert m2 == [(0, 1, "T:CASE", "Yesterday"), (1, 1, "T:PUNCT", ","),
                  (1, 2, "T:CASE", "Anna"), (3, 4, "T:NUMBER", "42"), (5, 5, "T:PUNCT", ".")]
    assert got.misc[1] == "Noise=T:CASE" and got.misc[2] == "_"


def test_a_number_of_several_words_is_headed_by_its_last_as_ud_english_writes_them() -> None:
    s = sentence([("They", "PRON", 2, "nsubj"), ("sold", "VERB", 0, "root"),
                  ("1,200", "NUM", 4, "nummod"), ("cars", "NOUN", 2, "obj")])
    got, pairs, _ = plan(s, ("numbers",))
    assert tree(got) == [("They", 2, "nsubj"), ("sold", 0, "root"), ("one", 6, "compound"),
                         ("thousand", 6, "compound"), ("two", 6, "compound"),
                         ("hundred", 7, "nummod"), ("cars", 2, "obj")]
    assert pharaoh(pairs) == "0-0 1-1 2-2 3-2 4-2 5-2 6-3"


def test_fillers_are_discourse_of_the_root_and_a_repeat_the_reparandum_of_its_repair(
        ) -> None:
    got, pairs, m2 = plan(DOGS, ("fillers", "repeats"), per_sentence=1, seed=3)
    kinds = {t for _, _, t, _ in m2}
    assert kinds == {"T:FILLER", "T:REPEAT"} and len(got.forms) == 9
    filler = next(a for a, _, t, _ in m2 if t == "T:FILLER")
    repeat = next(a for a, _, t, _ in m2 if t == "T:REPEAT")
    assert got.forms[filler] in ("uh", "um") and got.upos[filler] == "INTJ"
    assert got.heads[filler] == got.forms.index("saw") + 1
    assert got.deprels[filler] == "discourse"
    assert got.deprels[repeat] == "reparandum" and got.heads[repeat] == repeat + 2
    assert got.forms[repeat] == got.forms[repeat + 1]
    # inserted words align to no clean word; every clean word keeps its one
    assert sorted(j for _, j in pairs) == list(range(7))
    assert {i for i, _ in pairs} == set(range(9)) - {filler, repeat}
    # a punctuation mark is never said twice
    assert DOGS.upos[next(j for i, j in pairs if i == repeat + 1)] != "PUNCT"


def test_the_rate_is_of_the_corpus_words_and_the_seed_decides_where() -> None:
    sents = list(iter_conllu(FIXTURES / "learner.conllu"))
    words = sum(len(s.forms) for s in sents)
    planner = Planner(lambda: sents, settings_for(("fillers", "repeats"), None, "en"), "en")
    a, made = planner.plan(0.1, None, 1)
    assert made == {"fillers": round(0.1 * words), "repeats": round(0.1 * words)}
    assert planner.plan(0.1, None, 1)[0] == a
    assert planner.plan(0.1, None, 2)[0] != a


def test_lowercasing_reaches_multiword_tokens_and_the_text() -> None:
    s = sentence([("Do", "AUX", 3, "aux"), ("n't", "PART", 3, "advmod"),
                  ("go", "VERB", 0, "root")], mwt=[(0, 1, "Don't")])
    got, _, _ = plan(s, ("lower",))
    assert got.forms == ["do", "n't", "go"]
    assert got.multiword[0][2][1] == "don't" and got.comments[-1] == "# text = don't go"


def test_a_sentence_of_only_punctuation_keeps_it() -> None:
    s = sentence([("!", "PUNCT", 0, "root")])
    got, pairs, m2 = plan(s, ("punct",))
    assert got.forms == ["!"] and m2 == [] and pairs == [(0, 0)]


def test_parts_and_settings_are_checked_in_one_line() -> None:
    assert parse_parts("punct,lower") == ("lower", "punct")
    assert parse_parts(None) == PARTS[:-2]  # all but segments and speech
    with pytest.raises(InputError, match=r"--parts: a list of lower, .* \(not 'caps'\)"):
        parse_parts("lower,caps")
    with pytest.raises(InputError, match="no filler words known for 'ga'"):
        settings_for(("fillers",), None, "ga")
    with pytest.raises(InputError, match="cannot spell numbers in 'ga'"):
        settings_for(("numbers",), None, "ga")
    assert settings_for(("fillers",), ["eh"], "ga") == TranscriptSettings(("fillers",), ("eh",))
    spell = speller("en")
    assert spell("3.5") == ["three", "point", "five"] and spell("3a") is None
    assert spell("1.2.3") is None and spell("٣") is None


@st.composite
def trees(draw: st.DrawFn) -> Sentence:
    n = draw(st.integers(1, 9))
    root = draw(st.integers(0, n - 1))
    heads = [0] * n
    order = [root, *draw(st.permutations([i for i in range(n) if i != root]))]
    for k, i in enumerate(order[1:], 1):  # each attached to one placed before it
        heads[i] = order[draw(st.integers(0, k - 1))] + 1
    forms = [draw(st.sampled_from(["The", "dog", ",", "7", "1,000", ".", "Ran", "!"]))
             for _ in range(n)]
    upos = ["PUNCT" if f in ",.!" else "NUM" if f[0].isdigit() else "X" for f in forms]
    return sentence([(f, u, h, "root" if h == 0 else "dep")
                     for f, u, h in zip(forms, upos, heads, strict=True)])


@settings(max_examples=150, deadline=None)
@given(trees(), st.integers(1, 3), st.sampled_from([None, 1, 2]))
def test_the_carried_tree_is_a_tree_with_one_root(s: Sentence, seed: int,
                                                  per: int | None) -> None:
    got, pairs, _ = plan(s, PARTS, rate=None if per else 0.3, per_sentence=per, seed=seed)
    n = len(got.forms)
    assert n >= 1 and all(0 <= h <= n for h in got.heads) and got.heads.count(0) == 1
    for i in range(n):  # every word reaches the root
        seen, h = set(), i + 1
        while h:
            assert h not in seen
            seen.add(h)
            h = got.heads[h - 1]
    assert [j for _, j in sorted(pairs)] == sorted(j for _, j in pairs)  # in order


def cli(*args: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "parsebench.cli", *map(str, args)],
                          capture_output=True, text=True, stdin=subprocess.DEVNULL)


def test_the_noise_command_writes_the_tree_the_alignment_and_the_edits(tmp_path: Path
                                                                       ) -> None:
    out = tmp_path / "t.conllu"
    p = cli("noise", FIXTURES / "learner.conllu", "-o", out, "--kind", "transcript",
            "--rate", "0.05", "--json")
    assert p.returncode == 0, p.stderr
    got = json.loads(p.stdout)["files"][0]
    assert got["by_part"]["fillers"] == got["by_part"]["repeats"] > 0
    assert {Path(got[k]).name for k in ("file", "m2", "align")} == \
        {"t.conllu", "t.conllu.m2", "t.conllu.align"}
    noisy = read_conllu(out)
    assert all(h != NO_HEAD for s in noisy for h in s.heads)
    assert any("discourse" in s.deprels for s in noisy)
    again = tmp_path / "again.conllu"
    assert cli("noise", FIXTURES / "learner.conllu", "-o", again, "--kind", "transcript",
               "--rate", "0.05").returncode == 0
    assert again.read_bytes() == out.read_bytes()  # the same seed, the same bytes
    text = tmp_path / "t.txt"
    p = cli("noise", FIXTURES / "sample.txt", "-o", text, "--kind", "transcript",
            "--parts", "lower,punct")
    assert p.returncode == 0, p.stderr
    first = text.read_text(encoding="utf-8").splitlines()[0]
    assert first == first.lower() and "," not in first


@pytest.mark.parametrize(("args", "message"), [
    (["--parts", "lower,caps"], "parsebench: --parts: a list of lower, punct, numbers, "
                                "fillers, repeats, segments, speech (not 'caps')"),
    (["--parts", "fillers"], "parsebench: --parts fillers and repeats are drawn: give --rate "
                             "or --per-sentence"),
    (["--lang", "ga", "--rate", "0.1"], "parsebench: fillers: no filler words known for "
                                        "'ga'; give them (e.g. fillers = [\"uh\", \"um\"])"),
])
def test_bad_settings_are_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    p = cli("noise", FIXTURES / "learner.conllu", "-o", tmp_path / "x.conllu", "--kind",
            "transcript", *args)
    assert p.returncode == 2 and error_lines(p.stderr) == [message]
    assert not (tmp_path / "x.conllu").exists()


def test_a_run_scores_transcripts_through_their_alignment(tmp_path: Path) -> None:
    toml = tmp_path / "t.toml"
    toml.write_text(f'''name = "transcripts"
[corpus]
path = "{FIXTURES / 'learner.conllu'}"
[noise]
kind = "transcript"
parts = ["lower", "punct", "fillers"]
rates = [0.1]
replicates = 2
[[parsers]]
name = "right"
spec = "baseline:right"
[metrics]
deps = true
''', encoding="utf-8")
    r = pb.run(toml, store=tmp_path / "s.sqlite", report=tmp_path / "rep")
    md = (tmp_path / "rep" / "index.md").read_text(encoding="utf-8")
    assert "speech-transcript conventions: lower, punct, fillers" in md
    words = sum(len(s.forms) for s in iter_conllu(FIXTURES / "learner.conllu"))
    row = next(line for line in md.splitlines() if line.startswith("| changes at rate=0.1"))
    assert row.endswith(f", fillers {2 * round(0.1 * words)} |")  # two replicates
    # words move: scored through the alignment, as learner-like errors are
    assert {(x.method, x.level) for x in r.results if x.level == "rate=0.1"} == \
        {("f1", "rate=0.1"), ("sentences", "rate=0.1")}
    assert "Robustness at 10% (robustness F1 (Hashemi & Hwa)): right (baseline)" in md
    bad = tmp_path / "bad.toml"
    bad.write_text(toml.read_text(encoding="utf-8").replace('"fillers"]', '"caps"]'),
                   encoding="utf-8")
    with pytest.raises(InputError, match="parts: a list of lower") as e:
        pb.run(bad, store=tmp_path / "b.sqlite", report=tmp_path / "b")
    assert e.value.line == 6


def test_ewt_test_transcribed_keeps_every_tree(tmp_path: Path) -> None:
    src = shared_path("data/ud-english-ewt/en_ewt-ud-test.conllu")
    made = pb.noise(src, kind="transcript", rate=0.05, parts=list(PARTS[:-2]))
    clean = list(iter_conllu(src))
    noisy = list(made.treebank)
    assert len(noisy) == len(clean) == 2077
    words = sum(len(s.forms) for s in clean)
    by = made.replicates[0].report["by_part"]
    assert by["fillers"] == by["repeats"] == round(0.05 * words)
    # every mark but those of a sentence of nothing else, in a multiword token, or heading
    assert by["punct"] == sum(
        u == "PUNCT" and i + 1 not in s.heads and s.heads[i] != 0
        and not any(a <= i <= b for a, b, _ in s.multiword)
        for s in clean if set(s.upos) != {"PUNCT"} for i, u in enumerate(s.upos)) == 3063
    for s in noisy:
        assert s.heads.count(0) == 1 and all(0 <= h <= len(s.forms) for h in s.heads)


def test_segments_cut_the_text_every_window_words_and_keep_one_tree_each() -> None:
    from parsebench.noise.transcript import resegmented

    a = sentence([("I", "PRON", 2, "nsubj"), ("ran", "VERB", 0, "root"),
                  ("home", "ADV", 2, "advmod")])
    b = sentence([("Do", "AUX", 3, "aux"), ("n't", "PART", 3, "advmod"),
                  ("go", "VERB", 0, "root")], mwt=[(0, 1, "Don't")])
    got = list(resegmented([a, b], 4))  # the cut would fall inside "Don't": after it
    assert [s.forms for s in got] == [["I", "ran", "home", "Do", "n't"], ["go"]]
    assert tree(got[0]) == [("I", 2, "nsubj"), ("ran", 0, "root"), ("home", 2, "advmod"),
                            ("Do", 2, "parataxis"), ("n't", 2, "parataxis")]
    assert got[0].multiword[0][:2] == (3, 4) and got[0].multiword[0][2][0] == "4-5"
    assert got[0].comments == ["# sent_id = segment-1", "# text = I ran home Don't"]
    assert tree(got[1]) == [("go", 0, "root")]
    # a new document ends a segment
    c = replace(a, comments=["# newdoc id = d2", *a.comments])
    assert [len(s.forms) for s in resegmented([a, c], 5)] == [3, 3]


@settings(max_examples=100, deadline=None)
@given(st.lists(trees(), min_size=1, max_size=5), st.integers(2, 12))
def test_every_segment_is_one_tree_and_no_word_is_lost(sents: list[Sentence],
                                                       window: int) -> None:
    from parsebench.noise.transcript import resegmented

    got = list(resegmented(sents, window))
    assert [w for s in got for w in s.forms] == [w for s in sents for w in s.forms]
    for s in got:
        n = len(s.forms)
        assert s.heads.count(0) == 1 and all(0 <= h <= n for h in s.heads)
        for i in range(n):
            seen, h = set(), i + 1
            while h:
                assert h not in seen
                seen.add(h)
                h = s.heads[h - 1]
    assert all(len(s.forms) <= window for s in got[:-1] if not s.multiword)


def test_segments_from_the_command_line_scored_with_aligned_words(tmp_path: Path) -> None:
    src = FIXTURES / "learner.conllu"
    out = tmp_path / "seg.conllu"
    p = cli("noise", src, "-o", out, "--kind", "transcript", "--parts", "segments",
            "--window", "7", "--json")
    assert p.returncode == 0, p.stderr
    assert set(json.loads(p.stdout)["files"][0]) >= {"file"}
    assert not (tmp_path / "seg.conllu.align").exists()
    segs = read_conllu(out)
    words = sum(len(s.forms) for s in read_conllu(src))
    assert sum(len(s.forms) for s in segs) == words and len(segs) >= words // 8
    # the gold's own words cut otherwise: every word paired, the arcs cut lost (every
    # seventh word or so starts a segment, and a sentence has a dozen)
    r = pb.evaluate_deps(src, out, align="words")
    assert r.words.f1 == 1.0 and 0.5 < r.uas.f1 < 0.8
    bad = cli("noise", src, "-o", tmp_path / "x.conllu", "--kind", "transcript",
              "--parts", "lower", "--window", "7")
    assert bad.returncode == 2 and error_lines(bad.stderr) == [
        "parsebench: --window goes with --parts ...,segments"]


def test_a_run_refuses_speech_and_a_window_without_segments_at_its_line(tmp_path: Path
                                                                      ) -> None:
    toml = tmp_path / "t.toml"
    toml.write_text(f'[corpus]\npath = "{FIXTURES / "learner.conllu"}"\n[noise]\n'
                    'kind = "transcript"\nparts = ["lower", "speech"]\nrates = [0.1]\n'
                    '[[parsers]]\nname = "r"\nspec = "baseline:right"\n', encoding="utf-8")
    with pytest.raises(InputError, match=r"speech \(espeak-ng and PocketSphinx\) is made by "
                       "parsebench noise") as e:
        pb.run(toml, store=tmp_path / "s.sqlite", report=tmp_path / "r")
    assert e.value.line == 5
    toml.write_text(toml.read_text(encoding="utf-8").replace(', "speech"]', ']\nwindow = 5'),
                    encoding="utf-8")
    with pytest.raises(InputError, match=r'window: goes with parts = \[..., "segments"\]') \
            as e:
        pb.run(toml, store=tmp_path / "s.sqlite", report=tmp_path / "r")
    assert e.value.line == 6


def _needs_speech() -> None:
    import importlib.util
    import os
    import shutil

    missing = [x for x, ok in (("espeak-ng (apt)", shutil.which("espeak-ng")),
                               ("pocketsphinx (pip)", importlib.util.find_spec("pocketsphinx")))
               if not ok]
    if missing:
        msg = "needs " + ", ".join(missing) + " (make test installs them)"
        if os.environ.get("CI") == "true":
            pytest.fail(msg)
        pytest.skip(msg)


def test_speech_spoken_by_espeak_and_heard_by_pocketsphinx(tmp_path: Path) -> None:
    _needs_speech()
    src = tmp_path / "three.conllu"
    src.write_text("".join(s + "\n\n" for s in FIXTURES.joinpath("typos.conllu").read_text(
        encoding="utf-8").split("\n\n")[:3]), encoding="utf-8")
    out = tmp_path / "heard.conllu"
    p = cli("noise", src, "-o", out, "--kind", "transcript", "--parts", "speech", "--json")
    assert p.returncode == 0, p.stderr
    got = json.loads(p.stdout)["files"][0]
    assert got["sentences"] == 3 and got["words"] == 16 and got["wer"] is not None
    heard = read_conllu(out)
    assert len(heard) == 3
    for s in heard:
        assert any(c.startswith("# asr_wer = ") for c in s.comments)
        assert all(w == w.lower() for w in s.forms) and s.heads.count(0) == 1
    assert len((tmp_path / "heard.conllu.align").read_text(encoding="utf-8").splitlines()) == 3
    again = tmp_path / "again.conllu"
    assert cli("noise", src, "-o", again, "--kind", "transcript", "--parts",
               "speech").returncode == 0
    assert again.read_bytes() == out.read_bytes()


@pytest.mark.parametrize(("args", "message"), [
    (["--parts", "speech,lower"], "parsebench: --parts speech is the whole round trip (what "
                                  "it hears has no capitals, punctuation or digits): give it "
                                  "alone"),
    (["--parts", "speech", "--lang", "fr"], "parsebench: --parts speech hears English only, "
                                            "not --lang fr"),
    (["--parts", "speech", "--rate", "0.1"], "parsebench: --parts speech takes no --rate or "
                                             "--per-sentence: the recogniser's errors are what "
                                             "they are"),
])
def test_speech_settings_are_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    p = cli("noise", FIXTURES / "typos.conllu", "-o", tmp_path / "x.conllu", "--kind",
            "transcript", *args)
    assert p.returncode == 2 and error_lines(p.stderr) == [message], p.stderr

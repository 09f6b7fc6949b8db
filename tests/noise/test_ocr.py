"""OCR noise, real (issue 62 item 1): the presets and their settings, the character
alignment and the tree it carries on worked examples, a tree for any reading
(hypothesis), Tesseract reading EWT at each quality (the worse the image, the more
errors; the same seed, the same bytes), right-to-left, Hangul and unspaced scripts,
and the command's one-line errors."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FIXTURES, error_lines, shared_path
from hypothesis import given, settings
from hypothesis import strategies as st

from parsebench.common.errors import InputError
from parsebench.formats.conllu import Sentence, iter_conllu, read_conllu, write_conllu
from parsebench.noise.ocr import (
    QUALITY,
    TESSDATA,
    TESSERACT,
    Degradation,
    aligned_words,
    carried,
    degradation,
    error_edits,
)


def sentence(rows: list[tuple[str, int, str]]) -> Sentence:
    n = len(rows)
    return Sentence(forms=[r[0] for r in rows], lemmas=["_"] * n, upos=["X"] * n,
                    xpos=["_"] * n, feats=["_"] * n, heads=[r[1] for r in rows],
                    deprels=[r[2] for r in rows], deps=["_"] * n, misc=["_"] * n)


CAT = sentence([("The", 2, "det"), ("cat", 3, "nsubj"), ("sat", 0, "root"),
                (".", 3, "punct")])


def test_presets_and_settings_over_them() -> None:
    assert degradation(None, None) == QUALITY["fair"]
    assert degradation("clean", "blur=1.5,threshold=128") == Degradation(blur=1.5,
                                                                         threshold=128)
    assert degradation("poor", "threshold=none").threshold is None
    for bad, message in (("speckle=0.9", "--degrade speckle=0.9: from 0.0 to 0.5"),
                         ("glow=1", "--degrade 'glow=1': NAME=VALUE, NAME one of size"),
                         ("blur", "--degrade 'blur': NAME=VALUE"),
                         ("skew=nan", "--degrade skew=nan: from 0.0 to 45.0")):
        with pytest.raises(InputError, match=message.replace("(", r"\(").replace(")", r"\)")):
            degradation(None, bad)
    with pytest.raises(InputError, match="--quality 'great': clean, good, fair, poor"):
        degradation("great", None)


def test_alignment_by_characters_and_the_tree_it_carries() -> None:
    # a letter misread, two words run together
    words, pairs = aligned_words(CAT.forms, "Tbe cat sat.", False)
    assert words == ["Tbe", "cat", "sat."] and pairs == [(0, 0), (1, 1), (2, 2), (2, 3)]
    got = carried(CAT, words, pairs)
    assert list(zip(got.forms, got.heads, got.deprels, strict=True)) == [
        ("Tbe", 2, "det"), ("cat", 3, "nsubj"), ("sat.", 0, "root")]
    # a word split in two: the first part heads, the second is its goeswith
    words, pairs = aligned_words(CAT.forms, "The ca t sat .", False)
    got = carried(CAT, words, pairs)
    assert list(zip(got.forms, got.heads, got.deprels, strict=True)) == [
        ("The", 2, "det"), ("ca", 4, "nsubj"), ("t", 2, "goeswith"), ("sat", 0, "root"),
        (".", 4, "punct")]
    # a word OCR made up is a dep of the root
    words, pairs = aligned_words(CAT.forms, "The cat ~~ sat .", False)
    assert pairs == [(0, 0), (1, 1), (3, 2), (4, 3)]
    assert carried(CAT, words, pairs).deprels == ["det", "nsubj", "dep", "root", "punct"]
    # a language without spaces: OCR's words are cut where the gold words change
    words, pairs = aligned_words(["日本", "に", "行く"], "日木に行く", True)
    assert words == ["日木", "に", "行く"] and pairs == [(0, 0), (1, 1), (2, 2)]


def test_error_rates_count_characters_and_words() -> None:
    assert error_edits("the cat sat", "tbe cat sat") == (1, 11, 1, 3)
    assert error_edits("the cat", "thecat") == (1, 7, 2, 2)
    assert error_edits("日本に", "日木に", ["日本", "に"], ["日木", "に"]) == (1, 3, 1, 2)


@st.composite
def trees(draw: st.DrawFn) -> Sentence:
    n = draw(st.integers(1, 8))
    root = draw(st.integers(0, n - 1))
    heads = [0] * n
    order = [root, *draw(st.permutations([i for i in range(n) if i != root]))]
    for k, i in enumerate(order[1:], 1):
        heads[i] = order[draw(st.integers(0, k - 1))] + 1
    forms = [draw(st.text("abcdé.,", min_size=1, max_size=5)) for _ in range(n)]
    return sentence([(f, h, "root" if h == 0 else "dep")
                     for f, h in zip(forms, heads, strict=True)])


@settings(max_examples=200, deadline=None)
@given(trees(), st.text("abcdé., x", min_size=1, max_size=40))
def test_any_reading_gets_one_tree(s: Sentence, read: str) -> None:
    if not read.split():
        return
    words, pairs = aligned_words(s.forms, read, False)
    got = carried(s, words, pairs)
    n = len(got.forms)
    assert got.forms == read.split() and got.heads.count(0) == 1
    for i in range(n):  # every word reaches the root
        seen, h = set(), i + 1
        while h:
            assert h not in seen and 1 <= h <= n
            seen.add(h)
            h = got.heads[h - 1]
    assert all(0 <= i < n and 0 <= j < len(s.forms) for i, j in pairs)


def _needs_tesseract(*langs: str) -> None:
    missing = [] if importlib.util.find_spec("tesserocr") else ["tesserocr (pip)"]
    for lang in langs:
        code = TESSERACT[lang]
        if not any(Path(d, f"{code}.traineddata").is_file()
                   for d in (os.environ.get("TESSDATA_PREFIX", ""), *TESSDATA) if d):
            missing.append(f"tesseract-ocr-{code.replace('_', '-')}")
    if missing:
        msg = "needs " + ", ".join(missing) + " (make test installs them)"
        if os.environ.get("CI") == "true":
            pytest.fail(msg)
        pytest.skip(msg)


def cli(*args: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "parsebench.cli", *map(str, args)],
                          capture_output=True, text=True, stdin=subprocess.DEVNULL)


@pytest.fixture(scope="module")
def ewt40(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("ewt") / "ewt40.conllu"
    with out.open("w", encoding="utf-8") as fh:
        for k, s in enumerate(iter_conllu(shared_path(
                "data/ud-english-ewt/en_ewt-ud-test.conllu"))):
            if k == 40:
                break
            write_conllu([s], fh)
    return out


def test_the_worse_the_image_the_more_errors_and_a_seed_gives_the_same_bytes(
        ewt40: Path, tmp_path: Path) -> None:
    _needs_tesseract("en")
    cer = {}
    for quality in ("clean", "good", "fair", "poor"):
        p = cli("noise", ewt40, "-o", tmp_path / f"{quality}.conllu", "--kind", "ocr",
                "--quality", quality, "--json")
        assert p.returncode == 0, p.stderr
        got = json.loads(p.stdout)["files"][0]
        assert got["sentences"] == 40 and got["unreadable"] == 0
        cer[quality] = got["cer"]
    assert cer["clean"] < 0.01 < cer["good"] < cer["fair"] < cer["poor"] < 0.5, cer
    again = cli("noise", ewt40, "-o", tmp_path / "again.conllu", "--kind", "ocr",
                "--quality", "fair")
    assert again.returncode == 0
    assert (tmp_path / "again.conllu").read_bytes() == (tmp_path / "fair.conllu").read_bytes()
    other = cli("noise", ewt40, "-o", tmp_path / "seed2.conllu", "--kind", "ocr",
                "--quality", "fair", "--seed", "2")
    assert other.returncode == 0
    assert (tmp_path / "seed2.conllu").read_bytes() != (tmp_path / "fair.conllu").read_bytes()
    # the tree carried to every sentence, and the alignment beside it, a line each
    noisy = read_conllu(tmp_path / "fair.conllu")
    assert len(noisy) == 40 and all(s.heads.count(0) == 1 for s in noisy)
    lines = (tmp_path / "fair.conllu.align").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 40 and all(lines)
    assert noisy[0].comments[-2].startswith("# clean_text = ")


@pytest.mark.parametrize(("lang", "path"), [
    ("fa", "data/ud-persian-seraji/fa_seraji-ud-test.conllu"),
    ("ko", "data/ud-korean-gsd/ko_gsd-ud-test.conllu"),
    ("ja", "data/ud-japanese-gsd/ja_gsd-ud-test.conllu"),
])
def test_right_to_left_hangul_and_unspaced_text_are_read(lang: str, path: str,
                                                         tmp_path: Path) -> None:
    _needs_tesseract(lang)
    src = tmp_path / "in.conllu"
    with src.open("w", encoding="utf-8") as fh:
        for k, s in enumerate(iter_conllu(shared_path(path))):
            if k == 10:
                break
            write_conllu([s], fh)
    p = cli("noise", src, "-o", tmp_path / "o.conllu", "--kind", "ocr", "--quality", "good",
            "--lang", lang, "--json")
    assert p.returncode == 0, p.stderr
    got = json.loads(p.stdout)["files"][0]
    assert got["cer"] < 0.15 and got["wer"] < 0.5 and got["unreadable"] == 0, got


def test_a_sentence_ocr_cannot_read_is_written_and_said(tmp_path: Path) -> None:
    _needs_tesseract("en")
    out = tmp_path / "u.conllu"
    p = cli("noise", FIXTURES / "typos.conllu", "-o", out, "--kind", "ocr", "--degrade",
            "scale=0.05", "--json")
    assert p.returncode == 0, p.stderr
    n = len(read_conllu(FIXTURES / "typos.conllu"))
    assert json.loads(p.stdout)["files"][0]["unreadable"] == n
    assert f"{n} sentence(s) OCR could not read at all" in p.stderr
    assert [s.forms for s in read_conllu(out)] == [["∅"]] * n


@pytest.mark.parametrize(("args", "message"), [
    (["--quality", "great"], "parsebench: --quality 'great': clean, good, fair, poor"),
    (["--rate", "0.1"], "parsebench: --kind ocr takes --quality (and --degrade) or --cer, "
                        "not --rate or --per-sentence: how the image is degraded, or the "
                        "channel's rate, decides the errors"),
    (["--lang", "xx"], "parsebench: --kind ocr: no Tesseract model known for --lang xx; one "
                       "of " + ", ".join(sorted(TESSERACT))),
    (["--parts", "lower"], "parsebench: --kind ocr has no option 'parts'; its own: cer, "
                           "channel, quality, degrade, font"),
])
def test_bad_settings_are_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    p = cli("noise", FIXTURES / "typos.conllu", "-o", tmp_path / "x.conllu", "--kind", "ocr",
            *args)
    assert p.returncode == 2 and error_lines(p.stderr) == [message], p.stderr
    assert not (tmp_path / "x.conllu").exists()


def test_a_channel_learnt_from_real_ocr_is_drawn_at_an_exact_rate(tmp_path: Path) -> None:
    """Item 2: the channel of one real OCR file, drawn at a character error rate: the
    edits made are the rate's, and reading them back counts (nearly) the same."""
    from parsebench.noise.ocr_channel import Channel, error_rate, learn, outputs

    assert list(outputs("the", "tbe")) == [("t", "t"), ("h", "b"), ("e", "e")]
    assert list(outputs("abc", "ac")) == [("a", "a"), ("b", ""), ("c", "c")]
    assert list(outputs("ab", "xab")) == [("a", "xa"), ("b", "b")]
    channel = Channel(learn([("the cat sat", "tbe cat sat"), ("the hat", "tlie hat")], "en"))
    assert channel.wrote == {"h": {"b": 1, "i": 1}, "t": {"tl": 1}}
    texts = [s.comments[-1][9:] for s in read_conllu(FIXTURES / "learner.conllu")
             if s.comments and s.comments[-1].startswith("# text = ")]
    shipped = Channel.load(None, "en")
    for rate in (0.01, 0.05, 0.2):
        read = shipped.corrupt(texts, rate, 1)
        chars = sum(map(len, texts))
        assert abs(error_rate(texts, read) - rate) <= 2 / chars, rate
        assert shipped.corrupt(texts, rate, 1) == read != shipped.corrupt(texts, rate, 2)
    with pytest.raises(InputError, match="no OCR channel for 'fi'"):
        Channel.load(None, "fi")


def test_learn_then_draw_from_the_command_line(tmp_path: Path) -> None:
    _needs_tesseract("en")
    real = tmp_path / "real.conllu"
    assert cli("noise", FIXTURES / "learner.conllu", "-o", real, "--kind", "ocr",
               "--quality", "poor").returncode == 0
    channel = tmp_path / "ch.json"
    p = cli("noise-profile", "learn", "--ocr", real, "-o", channel)
    assert p.returncode == 0, p.stderr
    assert "OCR channel (en): 15 sentences" in p.stderr
    p = cli("noise", FIXTURES / "learner.conllu", "-o", tmp_path / "drawn.conllu", "--kind",
            "ocr", "--cer", "0.05", "--channel", channel, "--json")
    assert p.returncode == 0, p.stderr
    got = json.loads(p.stdout)["files"][0]
    assert got["target_cer"] == 0.05 and abs(got["cer"] - 0.05) <= 2 / got["characters"]
    bad = cli("noise", FIXTURES / "learner.conllu", "-o", tmp_path / "x.conllu", "--kind",
              "ocr", "--cer", "0.05", "--quality", "fair")
    assert bad.returncode == 2 and error_lines(bad.stderr) == [
        "parsebench: --cer draws from a learnt channel; --quality, --degrade and --font read "
        "real images: one or the other"]


def test_a_run_draws_ocr_errors_at_its_rates_and_scores_through_the_alignment(
        tmp_path: Path) -> None:
    import parsebench as pb

    toml = tmp_path / "o.toml"
    toml.write_text(f'''name = "ocr"
[corpus]
path = "{FIXTURES / 'learner.conllu'}"
[noise]
kind = "ocr"
rates = [0.02, 0.1]
replicates = 2
[[parsers]]
name = "right"
spec = "baseline:right"
[metrics]
deps = true
''', encoding="utf-8")
    r = pb.run(toml, store=tmp_path / "s.sqlite", report=tmp_path / "rep")
    assert {(x.method, x.level) for x in r.results if x.level.startswith("rate=")} == {
        ("f1", "rate=0.02"), ("sentences", "rate=0.02"), ("f1", "rate=0.1"),
        ("sentences", "rate=0.1")}
    f1 = {x.level: x.value.to_dict() for x in r.results if x.method == "f1"}
    assert f1["rate=0.02"] != f1["rate=0.1"]
    md = (tmp_path / "rep" / "index.md").read_text(encoding="utf-8")
    assert "OCR errors drawn from the channel parsebench ships at character error rates" in md
    assert "| sentences changed at rate=0.1 |" in md
    again = pb.run(toml, store=tmp_path / "s.sqlite", report=tmp_path / "rep")
    assert again.data["parsed"] == 0  # the stored versions rebuilt: nothing parsed again
    toml.write_text(toml.read_text(encoding="utf-8").replace(
        'rates = [0.02, 0.1]', 'rates = [0.02]\nquality = "fair"'), encoding="utf-8")
    with pytest.raises(InputError, match="quality: for the noise command") as e:
        pb.run(toml, store=tmp_path / "t.sqlite", report=tmp_path / "t")
    assert e.value.line == 7


@settings(max_examples=150, deadline=None)
@given(st.one_of(st.binary(max_size=200), st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["format", "version", "seen", "wrote", "lang", "a"]), inner,
        max_size=5), max_leaves=12)))
def test_a_damaged_channel_file_is_one_line(data: object) -> None:
    import tempfile

    from parsebench.noise.ocr_channel import FORMAT, Channel
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "c.json"
        if isinstance(data, bytes):
            path.write_bytes(data)
        else:
            if isinstance(data, dict) and "format" in data:
                data = {**data, "format": FORMAT, "version": 1}
            path.write_text(json.dumps(data), encoding="utf-8")
        try:
            Channel.load(path, "en")
        except InputError as e:
            assert "\n" not in str(e) and str(path) in str(e)

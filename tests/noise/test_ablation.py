"""Each transcript part's share of the harm (issue 62 item 3's ablation): every version's
LAS is what noise, parse and eval deps give it apart; the shares, harms and
interaction add up; a real parser on EWT."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FIXTURES, needs, shared_path

import parsebench as pb
from parsebench.common.errors import InputError

TOY = "python:toy_parsers:Capital"


@pytest.fixture(autouse=True)
def _toy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(FIXTURES))  # the parser's workers find the toy
    monkeypatch.setenv("PYTHONPATH", str(FIXTURES))  # and so does the command


def _apart(corpus: Path, parser: str, parts: list[str], tmp: Path) -> float:
    """LAS of the version with PARTS made, parsed and scored by the three commands' calls."""
    noisy = tmp / ("+".join(parts) + ".conllu")
    pb.noise(corpus, kind="transcript", parts=parts).write(noisy)
    parsed = tmp / ("+".join(parts) + ".parsed.conllu")
    pb.parse(noisy, parser).write(parsed)
    return pb.evaluate_deps(noisy, parsed).las.f1


def test_each_version_scores_as_noise_parse_and_eval_deps_score_it(tmp_path: Path) -> None:
    corpus = FIXTURES / "learner.conllu"
    r = pb.ablation(corpus, TOY, parts="lower,punct,numbers", samples=300)
    assert [p.part for p in r.record.parts] == ["lower", "punct", "numbers"]
    clean = tmp_path / "clean.conllu"
    pb.parse(corpus, TOY).write(clean)
    assert r.clean_las == pb.evaluate_deps(corpus, clean).las.f1
    for p in r.record.parts:
        assert p.las == _apart(corpus, TOY, [p.part], tmp_path), p.part
        assert p.harm == pytest.approx(r.clean_las - p.las)
    assert r.record.all.las == _apart(corpus, TOY, ["lower", "punct", "numbers"], tmp_path)
    harms = [p.harm for p in r.record.parts]
    assert sum(p.share for p in r.record.parts) == pytest.approx(1.0)
    assert r.record.all.harm == pytest.approx(sum(harms) + r.interaction)
    assert r.record.replicates == 1  # nothing drawn: one version a part


def test_segments_score_as_the_whole_document_is_scored(tmp_path: Path) -> None:
    corpus = tmp_path / "in" / "learner.conllu"
    corpus.parent.mkdir()
    corpus.write_bytes((FIXTURES / "learner.conllu").read_bytes())
    r = pb.ablation(corpus, TOY, parts="lower,segments", window=7, samples=300)
    assert list(corpus.parent.iterdir()) == [corpus]  # nothing written beside it
    seg = next(p for p in r.record.parts if p.part == "segments")
    made = tmp_path / "seg.conllu"
    pb.noise(corpus, kind="transcript", parts=["segments"], window=7).write(made)
    parsed = tmp_path / "seg.parsed.conllu"
    pb.parse(made, TOY).write(parsed)
    # the parser saw segments; scored sentence by sentence as CoNLL 2018 scores the
    # document, a head in another sentence wrong
    assert seg.las == pb.evaluate_deps(corpus, parsed, align="words").las.f1
    assert seg.harm > 0 and "window=7" in r.signature.replace(":", "=")


def test_drawn_parts_pool_their_replicates_and_every_figure_has_its_interval() -> None:
    r = pb.ablation(FIXTURES / "learner.conllu", TOY, parts="lower,fillers,repeats",
                    rate=0.3, replicates=3, samples=300)
    assert r.record.replicates == 3 and "replicates=3" in r.signature.replace(":", "=")
    for p in [*r.record.parts, r.record.all]:
        assert p.ci95 is not None and p.ci95[0] <= p.harm <= p.ci95[1]
        assert 0 < p.p <= 1
    text = str(r)
    assert [line.split()[0] for line in text.splitlines()[3:9]] == \
        ["version", "clean", "lower", "fillers", "repeats", "all"]
    assert "interaction (all's harm minus the parts' summed harm)" in text


def test_bad_settings_are_one_line(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="two parts or more"):
        pb.ablation(FIXTURES / "learner.conllu", TOY, parts="lower")
    with pytest.raises(InputError, match="speech is a round trip of its own"):
        pb.ablation(FIXTURES / "learner.conllu", TOY, parts="lower,speech")
    with pytest.raises(InputError, match=r"--window goes with --parts \.\.\.,segments"):
        pb.ablation(FIXTURES / "learner.conllu", TOY, parts="lower,punct", window=5)
    with pytest.raises(InputError, match="--window 1: give words a segment from 2"):
        pb.ablation(FIXTURES / "learner.conllu", TOY, parts="lower,segments", window=1)
    with pytest.raises(InputError, match="give --rate or"):
        pb.ablation(FIXTURES / "learner.conllu", TOY, parts="lower,fillers")
    bad = tmp_path / "bad.conllu"
    bad.write_text("1\tx\n")
    p = subprocess.run([sys.executable, "-m", "parsebench.cli", "ablation", str(bad),
                        "--parser", TOY], capture_output=True, text=True)
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and "bad.conllu:1" in p.stderr


def test_udpipe_on_ewt_each_part_harms_and_the_parts_overlap(tmp_path: Path) -> None:
    from parsebench.formats.conllu import read_conllu, write_conllu

    needs("ufal.udpipe")
    corpus = tmp_path / "ewt.conllu"
    with corpus.open("w", encoding="utf-8") as fh:
        write_conllu(read_conllu(shared_path("data/ud-english-ewt/en_ewt-ud-test.conllu"))
                     [:80], fh)
    model = shared_path("models/en_ewt.udpipe")
    p = subprocess.run([sys.executable, "-m", "parsebench.cli", "ablation", str(corpus),
                        "--parser", f"udpipe:{model}", "--parts", "lower,punct,fillers",
                        "--rate", "0.1", "--json", "--quiet"], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    got = json.loads(p.stdout)
    assert got["sentences"] == 80
    harms = {x["part"]: x["harm"] for x in got["parts"]}
    assert all(h > 0 for h in harms.values())  # each part costs UDPipe attachments
    assert got["all"]["harm"] > max(harms.values())
    assert got["clean_las"] == pytest.approx(
        pb.evaluate_deps(corpus, _parsed(corpus, f"udpipe:{model}", tmp_path)).las.f1)


def _parsed(corpus: Path, parser: str, tmp: Path) -> Path:
    out = tmp / "clean.parsed.conllu"
    pb.parse(corpus, parser).write(out)
    return out

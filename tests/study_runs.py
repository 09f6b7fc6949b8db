"""The studies of studies/*.toml run CI-sized (tests/studies/): what each report must
hold, how many sentences each takes, and the runs themselves."""

from __future__ import annotations

import contextlib
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from conftest import ROOT, needs, needs_java, shared_path

from parsebench.run.experiment import load

STUDIES = ROOT / "studies"


EXPECTED = {
    "bigert-en": ["The estimates against the real degradation", "spacy, head",
                  "udpipe, head+deprel", "tnt, tag", "real within bounds"],
    "bigert-en-unsupervised": ["link-grammar, links", "udpipe, head+deprel", "tnt, tag",
                               "below 2/3", "Kakkonen, Table 1"],
    "bigert-sv": ["udpipe-sv, head+deprel", "tnt-sv, tag", "real within bounds"],
    "kakkonen-en": ["Kakkonen, Table 1", "1/sentence", "3/sentence", "link-grammar"],
    "hashemi-jfleg-dev": ["Robustness F1 (Hashemi & Hwa)", "by the number of errors"],
    "hashemi-jfleg-test": ["Robustness F1 (Hashemi & Hwa)", "by the number of errors"],
    "lin-en": ["Table 18.2", "Table 18.3", "Table 18.4", "words/s", "pp-attachment"],
    "natural-typos-en": ["natural", "rate=0.", "real within bounds", "Kakkonen, Table 1"],
    "grammar-types-en": ["Learner-like errors by type", "R:WO", "M:DET", "aligned LAS",
                         "method rows | not applicable"],
    "hashemi-jfleg-dev-errant": ["Robustness F1 (Hashemi & Hwa)", "By ERRANT's error type",
                                 "R:SPELL"],
    # docs/real-noise.md: the three UD parsers, the biaffine one through supar:
    "real-ewt": ["Dependency evaluation against the gold key", "biaffine"],
    "real-tweebank": ["Dependency evaluation against the gold key", "biaffine", "discourse"],
    "real-eslspok": ["Dependency evaluation against the gold key", "biaffine"],
    "real-spelling-en": ["Degradation, row by row", "biaffine, head+deprel"],
    "real-kakkonen-en": ["Kakkonen, Table 1", "1/sentence", "biaffine"],
    "real-grammar-en": ["Learner-like errors by type", "biaffine"],
    "real-jfleg": ["Robustness F1 (Hashemi & Hwa)", "By ERRANT's error type", "biaffine"],
    # docs/java-parsers.md: the seed papers' own parsers beside the UD parsers
    "java-bigert-en": ["Degradation, row by row", "malt, head+deprel", "yara, head"],
    "java-kakkonen-en": ["Kakkonen, Table 1", "1/sentence", "malt", "yara"],
    "java-hashemi-grammar-en": ["Learner-like errors by type", "malt", "yara"],
    "java-hashemi-jfleg-dev": ["Robustness F1 (Hashemi & Hwa)", "malt", "yara"],
    # docs/broken-outputs.md: a useless parser looks perfectly robust
    "broken-baselines": ["Degradation, row by row", "baseline-right (baseline), head+deprel",
                         "baseline-random (baseline), head", "Kakkonen, Table 1",
                         "Best uninformed baseline"],
    # docs/noise-validity.md: natural typos beside keyboard and profile noise at their rate
    "noise-validity-keyboard": ["natural", "rate=0.", "biaffine, head+deprel", "keyboard"],
    "noise-validity-profile": ["natural", "rate=0.", "biaffine, head+deprel",
                               "learnt profile ewt-train.json"],
    # its French part: GSD test's typo sentences, a stand-in for the parser make trains
    "noise-validity-fr-keyboard": ["natural", "rate=0.", "udpipe (baseline), head+deprel",
                                   "keyboard"],
    "noise-validity-fr-profile": ["natural", "rate=0.", "udpipe (baseline), head+deprel",
                                  "learnt profile gsd-dev.json"],
}


SMALL = {"bigert-en": 80, "bigert-en-unsupervised": 20, "kakkonen-en": 20,
         "broken-baselines": 60,
         **{f"java-{n}": 30 for n in ("bigert-en", "kakkonen-en", "hashemi-grammar-en",
                                      "hashemi-jfleg-dev")},
         **{f"real-{n}": 60 for n in ("ewt", "tweebank", "eslspok", "spelling-en",
                                      "kakkonen-en", "grammar-en", "jfleg")},
         "noise-validity-keyboard": 60, "noise-validity-profile": 60}
"""Sentences for the CI-sized version, 50 unless said (Link Grammar is slow on
misspelled text); one parser worker, as the test suite runs two tests at once."""


def runnable(name: str, tmp: Path) -> Path:
    """Study NAME's TOML as the CI-sized run reads it (skips, or fails in CI, where what it
    needs is missing): the file itself, or a copy in a temporary folder with the
    profile or parser that make would give it, in TMP."""
    shared_path("data/ud-english-ewt/en_ewt-ud-test.conllu")  # skips in a fresh clone
    toml = STUDIES / f"{name}.toml"
    text = toml.read_text(encoding="utf-8")
    for spec in ("udpipe", "spacy", "nltk", "linkgrammar", "supar"):
        if spec in text:
            needs({"udpipe": "ufal.udpipe"}.get(spec, spec))
    if "jar=" in text:
        needs_java()  # MaltParser and Yara
    if name == "noise-validity-profile":  # its profile is learnt by make, not kept
        toml = _with_profile(toml, tmp)
    if name.startswith("noise-validity-fr-"):  # so are the French profile and parser
        toml = _french_stand_in(toml, tmp)
    load(toml)
    return toml


def run_small(names: list[str], tmp: Path) -> dict[str, str]:
    """The studies NAMES run CI-sized (SMALL sentences, 2 replicates, one worker) as users
    run several: in one ``parsebench run`` into one store, sharing their parsers' models
    (a study smaller than the largest through a copy whose ``[corpus]`` says its
    ``limit``: the command's ``--limit`` is the largest, and each study takes the
    smaller); each study's part of the report, by name. A study whose needs are missing
    is left out (its test skips, or fails in CI)."""
    tomls = {}
    for name in names:
        with contextlib.suppress(pytest.skip.Exception):
            tomls[name] = runnable(name, tmp)
    if not tomls:
        return {}
    sizes = {n: SMALL.get(n, 50) for n in tomls}  # (50 unless said)
    size = max(sizes.values())
    given = [str(_limited(tomls[n], sizes[n], tmp) if sizes[n] < size else tomls[n])
             for n in tomls]
    store, report = tmp / "s.sqlite", tmp / "report"
    p = subprocess.run([sys.executable, "-m", "parsebench.cli", "run", *given,
                        "--limit", str(size), "--replicates", "2", "--workers", "1",
                        "--store", str(store), "--report", str(report)],
                       capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert p.returncode == 0, f"{list(tomls)}: {p.stderr[-3000:]}"
    assert (report / "index.html").stat().st_size > 10_000
    md = (report / "index.md").read_text(encoding="utf-8")
    return {n: _part(md, f"## {n} (limit ") for n in tomls}


def _limited(toml: Path, limit: int, tmp: Path) -> Path:
    """TOML copied into TMP (in place when it is a copy there already) with ``limit =
    LIMIT`` in its ``[corpus]``, its paths to ../shared made absolute."""
    text = toml.read_text(encoding="utf-8").replace(
        "../../shared/", f"{(STUDIES / '../../shared').resolve()}/")
    own = re.search(r"(?m)^limit\s*=\s*(\d+)\s*$", text)  # the smaller wins, as --limit's
    if own:
        text = text.replace(own.group(0), f"limit = {min(limit, int(own.group(1)))}")
    else:
        text = re.sub(r"(?m)^\[corpus\]\s*$", f"[corpus]\nlimit = {limit}", text, count=1)
    out = tmp / toml.name
    out.write_text(text, encoding="utf-8")
    return out


def check_report(name: str, reports: dict[str, str]) -> None:
    """Study NAME's part of its report (REPORTS, from :func:`run_small`) holds what
    EXPECTED says and no empty headline cell."""
    if name not in reports:  # left out of the run: skips (fails in CI) as it did there
        runnable(name, Path(tempfile.gettempdir()))
    md = reports[name]
    assert md.startswith(f"## {name} (limit ") and ", 2 replicates)" in md.splitlines()[0]
    for needle in EXPECTED[name]:
        assert needle in md, needle
    assert "–" not in _headline_cells(md), "a headline cell of the report is empty"


def _part(md: str, heading: str) -> str:
    """The part of the report MD under the experiment HEADING, up to the next one."""
    start = md.index(heading)
    end = md.find("\n## ", start + 1)
    return md[start:] if end < 0 else md[start:end + 1]


def _with_profile(toml: Path, tmp: Path) -> Path:
    """TOML copied into TMP, its profile learnt there from EWT train as ``make
    noise-validity-study`` learns it, its other paths made absolute."""
    from parsebench.noise.make import learn_profile

    learn_profile(shared_path("data/ud-english-ewt/en_ewt-ud-train.conllu"),
                  tmp / "ewt-train.json")
    text = toml.read_text(encoding="utf-8").replace(
        "../../shared/", f"{(STUDIES / '../../shared').resolve()}/")
    text = re.sub(r'^profile = .*$', 'profile = "ewt-train.json"', text, flags=re.M)
    out = tmp / toml.name
    out.write_text(text, encoding="utf-8")
    return out


def _french_stand_in(toml: Path, tmp: Path) -> Path:
    """A French noise-validity TOML copied into TMP, its profile learnt there from GSD
    dev as ``make noise-validity-study`` learns it, and baseline:random standing in for
    the UDPipe model make trains (about 2 minutes, too long here): what is checked is
    the study's corpus, noise and metrics, not the parser."""
    from parsebench.noise.make import learn_profile

    learn_profile(shared_path("data/ud-french-gsd/fr_gsd-ud-dev.conllu"),
                  tmp / "gsd-dev.json", lang="fr")
    text = toml.read_text(encoding="utf-8").replace(
        "../../shared/", f"{(STUDIES / '../../shared').resolve()}/")
    text = re.sub(r'^profile = .*$', 'profile = "gsd-dev.json"', text, flags=re.M)
    text = re.sub(r'^spec = "udpipe:.*$', 'spec = "baseline:random"', text, flags=re.M)
    out = tmp / toml.name
    out.write_text(text, encoding="utf-8")
    return out


def _headline_cells(md: str) -> str:
    """The first data row of every table (an empty headline means a broken study)."""
    out = []
    lines = md.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("|---") and i + 1 < len(lines):
            out.append(lines[i + 1])
    return "\n".join(out)

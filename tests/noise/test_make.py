"""Noise as a library function: ``noise(...)`` writes what the ``noise`` command writes, its
``to_dict()`` is the command's JSON, its treebank is the file it wrote, and a bad option
is the command's error."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES

from parsebench.common.errors import InputError
from parsebench.formats.conllu import iter_conllu, read_conllu, write_conllu
from parsebench.noise.make import Noised, noise

LEXICON = str(FIXTURES / "lexicon.txt")
"""A word list: the spelling noise does not load wordfreq's (seconds a test)."""

CASES: dict[str, tuple[str, str, list[str]]] = {
    "spelling, CoNLL-U": ("typos.conllu", "out.conllu",
                          ["--rate", "0.3", "--lexicon", LEXICON]),
    "spelling, text, replicates": ("sample.txt", "out.txt",
                                   ["--per-sentence", "2", "--drop-short", "--replicates", "2",
                                    "--weights", "sub=2,ins=1", "--lexicon", LEXICON,
                                    "--keyboard", "sv-qwerty", "--min-length", "3"]),
    "grammar, per sentence": ("learner.conllu", "out.conllu",
                              ["--kind", "grammar", "--per-sentence", "1"]),
    "grammar, types, replicates": ("learner.conllu", "out.conllu",
                                   ["--kind", "grammar", "--rate", "0.1", "--types",
                                    "M:DET,R:WO,R:SPELL", "--replicates", "2", "--seed", "5",
                                    "--drop-short"]),
}
TIMING = ("  generation ", "  sites listed in ")


def command(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "parsebench.cli", "noise", *args], cwd=cwd,
                          capture_output=True, text=True, stdin=subprocess.DEVNULL)


def keywords(args: list[str]) -> dict[str, Any]:
    """The command's options as noise()'s keywords (what the command's typer does)."""
    types = {"rate": float, "per_sentence": int, "replicates": int, "seed": int,
             "min_length": int}
    out: dict[str, Any] = {}
    k = 0
    while k < len(args):
        name = args[k][2:].replace("-", "_")
        if name == "drop_short":
            out[name] = True
            k += 1
            continue
        out[name] = types.get(name, str)(args[k + 1])
        k += 2
    return out


def files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.mark.parametrize("case", list(CASES))
def test_the_library_writes_what_the_command_writes(case: str, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    source, out, args = CASES[case]
    by_command, by_library = tmp_path / "command", tmp_path / "library"
    by_command.mkdir()
    by_library.mkdir()
    p = command(by_command, str(FIXTURES / source), "-o", out, *args, "--json")
    assert p.returncode == 0, p.stderr
    monkeypatch.chdir(by_library)
    made = noise(FIXTURES / source, **keywords(args))
    written = made.write(out)
    assert files(by_library) == files(by_command)
    assert sorted(w.name for w in written) == sorted(files(by_command))
    assert made.to_dict() == json.loads(p.stdout)
    assert made.to_json() == p.stdout
    assert str(made).splitlines() == [ln for ln in p.stderr.splitlines()
                                      if not ln.startswith(TIMING)]
    assert made.text(timings=True).count("\n") == p.stderr.count("\n") - 1
    assert made.signature == json.loads(p.stdout)["signature"] and made.warnings == ()


def test_the_report_is_there_before_anything_is_written(tmp_path: Path) -> None:
    """A replicate's figures, and the summary, without the files; the files' names only
    once they are written."""
    for kind in ("spelling", "grammar"):
        made = noise(FIXTURES / "learner.conllu", per_sentence=1, kind=kind, replicates=2,
                     lexicon=LEXICON)
        before = made.to_dict()
        assert [r.seed for r in made.replicates] == [1, 2]
        assert all("file" not in f for f in before["files"])
        assert str(made).startswith("seed 1: ")
        made.write(tmp_path / f"{kind}.conllu")
        after = made.to_dict()
        assert [{k: v for k, v in f.items() if k not in ("file", "m2", "align")}
                for f in after["files"]] == before["files"]
        assert after["files"][1]["file"] == str(tmp_path / f"{kind}.seed2.conllu")
        assert str(made).startswith(f"{tmp_path / kind}.seed1.conllu (seed 1): ")


@pytest.mark.parametrize("kind", ["spelling", "grammar"])
def test_the_treebank_is_what_the_file_holds(kind: str, tmp_path: Path) -> None:
    made = noise(FIXTURES / "learner.conllu", rate=0.2, kind=kind, replicates=2,
                 lexicon=LEXICON)
    tree = made.treebank  # before the files: made from the source again
    made.write(tmp_path / "out.conllu")
    assert tree == read_conllu(tmp_path / "out.seed1.conllu")
    assert made.treebank is tree
    assert any(s.forms != c.forms for s, c in zip(tree, read_conllu(FIXTURES / "learner.conllu"),
                                                  strict=False))


def test_the_treebank_of_text_is_its_words(tmp_path: Path) -> None:
    text = tmp_path / "in.txt"
    text.write_text((FIXTURES / "sample.txt").read_text() + "\n  Short one .\n")
    made = noise(text, per_sentence=1, lexicon=LEXICON)
    made.write(tmp_path / "out.txt")
    lines = (tmp_path / "out.txt").read_text().splitlines()
    assert [s.forms for s in made.treebank] == [ln.split() for ln in lines]
    assert [s.line for s in made.treebank] == list(range(1, len(lines) + 1))
    assert all(set(s.upos) <= {"_"} and not s.comments for s in made.treebank)
    assert (tmp_path / "out.txt.noise.json").is_file()


def test_sentences_in_memory_are_noised_as_their_file(tmp_path: Path) -> None:
    """A treebank in memory (a list, or a one-pass iterable) gives what its file gives;
    the sentences given are not changed."""
    path = FIXTURES / "learner.conllu"
    for kind in ("spelling", "grammar"):
        held = read_conllu(path)
        kept = [s.forms[:] for s in held]
        results = []
        for corpus in (path, held, iter(read_conllu(path))):
            folder = tmp_path / f"{kind}-{len(results)}"
            folder.mkdir()
            made = noise(corpus, rate=0.2, kind=kind, lexicon=LEXICON, replicates=2)
            made.write(folder / "out.conllu")
            results.append((files(folder), [r.report for r in made.replicates],
                            made.signature))
        assert results[0] == results[1] == results[2]
        assert [s.forms for s in held] == kept
    with pytest.raises(TypeError, match=r"^corpus: expected a file's path or Sentences, "
                       r"not a list of str$"):
        noise(["a sentence"], rate=0.1)  # type: ignore[list-item]


def test_weights_and_types_as_a_mapping_and_a_list() -> None:
    a = noise(FIXTURES / "typos.conllu", rate=0.3, lexicon=LEXICON, weights="sub=2,ins=1")
    b = noise(FIXTURES / "typos.conllu", rate=0.3, lexicon=LEXICON,
              weights={"sub": 2, "ins": 1})
    assert a.to_dict() == b.to_dict() and a.treebank == b.treebank
    c = noise(FIXTURES / "learner.conllu", per_sentence=1, kind="grammar", types="M:DET,R:WO",
              weights="R:WO=3")
    d = noise(FIXTURES / "learner.conllu", per_sentence=1, kind="grammar",
              types=["M:DET", "R:WO"], weights={"R:WO": 3})
    assert c.to_dict() == d.to_dict() and c.treebank == d.treebank


class Recorder:
    def __init__(self) -> None:
        self.stages: list[tuple[str, int | None]] = []
        self.advanced = 0

    def stage(self, name: str, total: int | None) -> None:
        self.stages.append((name, total))

    def advance(self, n: int = 1) -> None:
        self.advanced += n


def test_progress_is_told_the_stages(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                     ) -> None:
    bar = Recorder()
    made = noise(FIXTURES / "learner.conllu", per_sentence=1, kind="grammar", replicates=2,
                 types="M:DET", progress=bar)
    made.write(tmp_path / "o.conllu")
    n = len(read_conllu(FIXTURES / "learner.conllu"))
    assert bar.stages == [("listing error sites", None), ("writing seed 1", n),
                          ("writing seed 2", n)]
    assert bar.advanced == 3 * n
    assert capsys.readouterr() == ("", "")  # the library prints nothing


ERRORS: list[tuple[str, list[str]]] = [
    ("learner.conllu", ["--rate", "2"]),
    ("learner.conllu", ["--rate", "0.1", "--per-sentence", "1"]),
    ("learner.conllu", []),
    ("learner.conllu", ["--rate", "0.1", "--kind", "bogus"]),
    ("learner.conllu", ["--rate", "0.1", "--types", "M:DET"]),
    ("learner.conllu", ["--rate", "0.1", "--kind", "grammar", "--lang", "sv"]),
    ("learner.conllu", ["--rate", "0.1", "--weights", "sub=x"]),
    ("learner.conllu", ["--rate", "0.1", "--weights", "foo=1"]),
    ("learner.conllu", ["--rate", "0.1", "--kind", "grammar", "--types", "X:Y"]),
    ("learner.conllu", ["--rate", "0.1", "--kind", "grammar", "--tagger", "udpipe:x"]),
    ("learner.conllu", ["--rate", "0.1", "--replicates", "0"]),
    ("learner.conllu", ["--per-sentence", "0"]),
    ("learner.conllu", ["--rate", "0.1", "--keyboard", "dvorak-x"]),
    ("learner.conllu", ["--rate", "0.1", "--lexicon", "no-such-list.txt"]),
    ("sample.txt", ["--rate", "0.1", "--kind", "grammar"]),
    ("no-such-file.conllu", ["--rate", "0.1"]),
]


@pytest.mark.parametrize(("source", "args"), ERRORS, ids=[" ".join(a) or "none"
                                                          for _, a in ERRORS])
def test_a_bad_option_is_the_commands_error(source: str, args: list[str], tmp_path: Path
                                            ) -> None:
    p = command(tmp_path, str(FIXTURES / source), "-o", "out.conllu", *args)
    assert p.returncode == 2 and p.stderr.count("\n") == 1, p.stderr
    with pytest.raises(InputError) as got:
        noise(FIXTURES / source, **keywords(args))
    assert p.stderr == f"parsebench: {got.value}\n"
    assert not os.listdir(tmp_path)


def test_the_noisy_corpus_is_never_held(tmp_path: Path) -> None:
    """Planning and writing keep a few integers a word, not the corpus: a tenth of what
    holding the corpus takes."""
    import tracemalloc

    f = tmp_path / "big.conllu"
    with f.open("w", encoding="utf-8") as fh:
        write_conllu(read_conllu(FIXTURES / "learner.conllu") * 200, fh)
    tracemalloc.start()
    made: Noised = noise(f, rate=0.05, lexicon=LEXICON, replicates=2)
    made.write(tmp_path / "out.conllu")
    lean = tracemalloc.get_traced_memory()[1]
    tracemalloc.reset_peak()
    # the corpus as its sentences, each value its own string (read_conllu shares equal
    # values, which would make the measure its sharing's, not the corpus's)
    whole = list(iter_conllu(f))
    held = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert len(whole) == 200 * len(read_conllu(FIXTURES / "learner.conllu"))
    assert lean < held / 10, (lean, held)


class Shouting:
    """A kind from outside the package: every word in capitals (the command's part only)."""

    name, title, moves_words = "shouting", "words in capitals", False

    def __init__(self) -> None:
        self.weights: dict[str, float] = {}
        self.types: tuple[str, ...] = ()

    def key(self, exp: Any, kb: Any) -> str:
        raise NotImplementedError

    def planner(self, exp: Any, corpus: Any, kb: Any) -> Any:
        raise NotImplementedError

    def rebuild(self, sentences: Any, level: Any, seed: int, changes: Any) -> Any:
        raise NotImplementedError

    def make(self, corpus: Any, options: Any, progress: Any) -> Shouted:
        return Shouted(corpus, options)


class Shouted:
    """Shouting's noise of one corpus (:class:`parsebench.noise.kind.Made`)."""

    def __init__(self, corpus: Any, options: Any) -> None:
        from parsebench.noise.kind import NoisyCorpus
        from parsebench.noise.source import Source

        self.source = Source(corpus)
        words = sum(len(w) for w, _ in self.source.words())
        self.replicates = [NoisyCorpus(s, {"words": words}, "every word in capitals")
                           for s in range(options.seed, options.seed + options.replicates)]
        self.signature, self.conllu, self.timing = "method:shouting", self.source.conllu, ""
        self.warnings: list[str] = []

    def settle(self, replicate: Any) -> None:
        pass

    def sentences(self, replicate: Any) -> Any:
        for s in self.source.sentences():
            yield dataclasses.replace(s, forms=[w.upper() for w in s.forms])

    def write(self, replicate: Any, target: Path) -> list[Path]:
        from parsebench.common.errors import atomic_output
        from parsebench.noise.source import write_sentence

        with atomic_output(target) as fh:
            for s in self.sentences(replicate):
                write_sentence(fh, s, self.conllu)
        replicate.files = {"file": str(target)}
        return [target]


def test_a_kind_is_its_module_and_its_line_in_the_list(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from parsebench.noise.kinds import KINDS

    monkeypatch.setitem(KINDS, "shouting", Shouting())
    made = noise(FIXTURES / "typos.conllu", kind="shouting", replicates=2)
    assert [p.name for p in made.write(tmp_path / "s.conllu")] == ["s.seed1.conllu",
                                                                   "s.seed2.conllu"]
    assert all(w.isupper() or not w.isalpha() for s in made.treebank for w in s.forms)
    assert made.to_dict()["files"][1] == {"file": str(tmp_path / "s.seed2.conllu"),
                                          "seed": 2, "words": 22}
    with pytest.raises(InputError,
                       match="'bogus': spelling or grammar or transcript or ocr or shouting"):
        noise(FIXTURES / "typos.conllu", kind="bogus")
